//! An arbitrary `Instruction` (or a decoded word with perturbed fields): if
//! it encodes, decoding gives back an equal instruction
//! (`geneu::check::encode_roundtrip`). Input: see
//! `geneu::check::instruction_input`.
#![no_main]

use geneu::check;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Some((p, inst)) = check::instruction_input(data) {
        check::encode_roundtrip(p, &inst);
    }
});
