//! Compaction symmetry: a compacted word that decodes compacts back to the
//! same 8 bytes; an instruction that compacts comes back; any bytes decode
//! as a mixed stream without panicking, and a program that compacts keeps
//! its native form (`geneu::check::compact_roundtrip`).
//! Input: see `geneu::check::compact_roundtrip`.
#![no_main]

use geneu::check;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    check::compact_roundtrip(data);
});
