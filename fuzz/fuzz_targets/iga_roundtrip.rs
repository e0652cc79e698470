//! Arbitrary text into the IGA-syntax reader never panics; for any word
//! that decodes, IGA-syntax disassembly → assembly gives the same bytes,
//! and IGA's own text is a fixpoint (`geneu::check::iga_roundtrip`, which
//! documents the input layout).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| geneu::check::iga_roundtrip(data));
