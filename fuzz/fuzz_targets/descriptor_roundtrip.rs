//! Arbitrary SEND descriptors decode without panicking and re-build to the
//! same bits; arbitrary typed messages round-trip; their text prints
//! (`geneu::check::msg::fuzz_check`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| geneu::check::msg::fuzz_check(data));
