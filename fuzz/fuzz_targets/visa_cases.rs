//! Structured vISA cases (variable tables, operands from raw bytes,
//! format round trips and typed gathers) never make lowering panic, and
//! whatever it yields validates and round-trips
//! (`geneu::check::visa::check`, shared with `tests/visa_props.rs`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| geneu::check::visa::check(data));
