//! Compaction properties on the stable toolchain (proptest, 2 s each), with
//! the very checks the `compact_roundtrip` fuzz target runs
//! (`geneu::check::compact_*`).

#![cfg(feature = "check")] // the shared property checks (`geneu::check`)

use arbitrary::Unstructured;
use geneu::{check, Platform};

use crate::text_common;
use text_common::{check as run, corpus_words, mutated_corpus_word};

fn platform(u: &mut Unstructured<'_>) -> arbitrary::Result<Platform> {
    u.choose(&Platform::ALL).copied()
}

/// `compact(decode(c)) == c` for arbitrary 8-byte words that decode.
#[test]
fn compact_decode_random_compacted_words() {
    run(|u| {
        let mut w: [u8; 8] = u.arbitrary()?;
        w[3] |= 0x20;
        check::compact_word_roundtrip(platform(u)?, &w);
        Ok(())
    });
}

/// Compacted words of the corpus words that compact, with a few bits
/// flipped: most still decode, and each compacts back.
#[test]
fn compact_decode_mutated_compacted_corpus_words() {
    run(|u| {
        let (p, w) = mutated_corpus_word(u, 1)?;
        if let Some(c) = geneu::compact::compact_word(p, geneu::Word::from_bytes(w)) {
            let mut b = c.to_bytes();
            let bit = u.int_in_range(0..=63u32)?;
            if bit != 29 {
                b[(bit / 8) as usize] ^= 1 << (bit % 8);
            }
            check::compact_word_roundtrip(p, &b);
        }
        Ok(())
    });
}

/// `uncompact(compact(i)) == i` for arbitrary instructions (and perturbed
/// corpus instructions) that compact.
#[test]
fn uncompact_compact_arbitrary_instructions() {
    run(|u| {
        let word_mode: bool = u.arbitrary()?;
        let data = if word_mode {
            let (p, w) = mutated_corpus_word(u, 2)?;
            let mut d = vec![check::platform_byte(p, true)];
            d.extend_from_slice(&w);
            let n = u.int_in_range(0..=18)?;
            d.extend_from_slice(u.bytes(n)?);
            d
        } else {
            let mut d = vec![check::platform_byte(platform(u)?, false)];
            let n = u.int_in_range(0..=200)?;
            d.extend_from_slice(u.bytes(n)?);
            d
        };
        check::compact_roundtrip(&data);
        Ok(())
    });
}

/// Arbitrary byte streams, and streams of corpus words, as programs: the
/// decoder never panics, and a program that compacts keeps its native form.
#[test]
fn mixed_streams_and_programs() {
    let words = corpus_words();
    run(|u| {
        let p = platform(u)?;
        let mut bytes = Vec::new();
        for _ in 0..u.int_in_range(0..=12)? {
            if u.ratio(1, 4)? {
                let n = u.int_in_range(1..=16)?;
                bytes.extend_from_slice(u.bytes(n)?);
            } else {
                let (q, w) = u.choose(words)?;
                if *q == p {
                    bytes.extend_from_slice(w);
                }
            }
        }
        check::compact_program_roundtrip(p, &bytes);
        Ok(())
    });
}
