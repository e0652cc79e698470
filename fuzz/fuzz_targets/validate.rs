//! Validation of an arbitrary `Instruction` (or a decoded word with
//! perturbed fields) never panics (`geneu::check::validate_no_panic`).
//! Input: see `geneu::check::instruction_input`.
#![no_main]

use geneu::check;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Some((p, inst)) = check::instruction_input(data) {
        check::validate_no_panic(p, &inst);
    }
});
