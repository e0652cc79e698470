//! Arbitrary text into the assembler never panics; for any word,
//! disassemble → assemble → disassemble is a fixpoint
//! (`geneu::check::text_roundtrip`, which documents the input layout).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| geneu::check::text_roundtrip(data));
