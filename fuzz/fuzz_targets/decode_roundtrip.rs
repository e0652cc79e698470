//! Any 16 bytes on any platform: if `decode` accepts the word,
//! `encode_unchecked` gives the same bytes, and checked `encode` too when
//! `validate` passes (`geneu::check::decode_roundtrip`).
//! Input: a platform byte, then the word.
#![no_main]

use geneu::check;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Some((p, rest)) = check::split_platform(data) {
        if let Some(word) = rest.first_chunk::<16>() {
            check::decode_roundtrip(p, word);
        }
    }
});
