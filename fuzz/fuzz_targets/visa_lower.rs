//! Arbitrary vISA operand bytes and variable tables never make lowering
//! panic, and every instruction it yields passes `validate` and encodes
//! (`geneu::check::visa_lower`; layout in `geneu::check::visa_input`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| geneu::check::visa_lower(data));
