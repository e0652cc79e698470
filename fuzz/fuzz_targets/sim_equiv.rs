//! Equivalent forms run alike: a valid program built from the bytes, its
//! compacted form, and its disassembly assembled again (and compacted)
//! leave the same registers, flags and `a0` in the simulator, and the
//! simulator never panics (`geneu::check::sim::check_equiv`).
//! Input: see `geneu::check::sim::arbitrary_program`.
#![no_main]

use geneu::check;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = check::sim::check_equiv(data);
});
