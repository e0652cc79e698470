//! The fuzzing properties of `geneu::check`, run as ordinary tests on the
//! stable toolchain with a fixed time budget each (`arbtest`), so that every
//! CI run exercises them. The fuzz targets in `fuzz/` call the same check
//! functions.
//!
//! Instructions come from two sources:
//! - always: decoded words (random, or Mesa corpus words with bits
//!   flipped), then with fields perturbed at random;
//! - with `--features arbitrary`: `Instruction::arbitrary`, exactly as the
//!   fuzz targets build them.
//!
//! A failure prints the arbtest seed; replay it with
//! `arbtest(prop).seed(SEED)` (see FUZZING.md).

use std::path::PathBuf;
use std::sync::OnceLock;

use arbtest::arbitrary::{Result, Unstructured};
use arbtest::arbtest;
use geneu::check;
use geneu::{decode, Platform};

/// Time budget of each property, in milliseconds, unless the
/// `ARBTEST_BUDGET_MS` environment variable sets another.
const BUDGET_MS: u64 = 2_000;

/// Runs a property for the budget (or replays `ARBTEST_SEED` if set).
fn check(prop: impl FnMut(&mut Unstructured<'_>) -> Result<()>) {
    let t = arbtest(prop).size_max(4096);
    if std::env::var_os("ARBTEST_BUDGET_MS").is_none() {
        t.budget_ms(BUDGET_MS).run();
    } else {
        t.run();
    }
}

/// Every Mesa corpus word, with the platform it belongs to.
fn corpus() -> &'static [(Platform, [u8; 16])] {
    static WORDS: OnceLock<Vec<(Platform, [u8; 16])>> = OnceLock::new();
    WORDS.get_or_init(|| {
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/mesa");
        let mut out = Vec::new();
        for (dir, p) in [
            ("gen7", Platform::Gen7),
            ("gen7.5", Platform::Gen75),
            ("gen8", Platform::Gen8),
        ] {
            for entry in std::fs::read_dir(root.join(dir)).unwrap() {
                let path = entry.unwrap().path();
                if path.extension().is_some_and(|e| e == "expected") {
                    for line in std::fs::read_to_string(&path).unwrap().lines() {
                        let bytes: Vec<u8> = line
                            .split_whitespace()
                            .map(|b| u8::from_str_radix(b, 16).unwrap())
                            .collect();
                        if let Ok(w) = bytes.try_into() {
                            out.push((p, w));
                        }
                    }
                }
            }
        }
        assert!(out.len() > 300, "corpus too small: {}", out.len());
        out
    })
}

fn platform(u: &mut Unstructured<'_>) -> Result<Platform> {
    u.choose(&Platform::ALL).copied()
}

/// A corpus word (on its platform, or Cherryview for Gen8 words) with a few
/// random bits flipped: mostly decodable, close to real instructions.
fn mutated_corpus_word(u: &mut Unstructured<'_>) -> Result<(Platform, [u8; 16])> {
    let &(mut p, mut w) = u.choose(corpus())?;
    if p == Platform::Gen8 && u.arbitrary()? {
        p = Platform::Chv;
    }
    for _ in 0..u.int_in_range(0..=3)? {
        let bit = u.int_in_range(0..=127u32)?;
        w[(bit / 8) as usize] ^= 1 << (bit % 8);
    }
    Ok((p, w))
}

/// The word-mode input of the instruction targets: a mutated corpus word
/// followed by up to four random perturbations (see
/// `check::perturbed_instruction`).
fn perturbed_input(u: &mut Unstructured<'_>) -> Result<Vec<u8>> {
    let (p, w) = mutated_corpus_word(u)?;
    let mut data = vec![check::platform_byte(p, true)];
    data.extend_from_slice(&w);
    let n = u.int_in_range(0..=4 * 9)?;
    data.extend_from_slice(u.bytes(n)?);
    Ok(data)
}

#[test]
fn decode_roundtrip_random_words() {
    check(|u| {
        check::decode_roundtrip(platform(u)?, &u.arbitrary()?);
        Ok(())
    });
}

#[test]
fn decode_roundtrip_mutated_corpus_words() {
    check(|u| {
        let (p, w) = mutated_corpus_word(u)?;
        check::decode_roundtrip(p, &w);
        Ok(())
    });
}

#[test]
fn encode_roundtrip_perturbed_instructions() {
    check(|u| {
        if let Some((p, i)) = check::instruction_input(&perturbed_input(u)?) {
            check::encode_roundtrip(p, &i);
        }
        Ok(())
    });
}

#[test]
fn validate_perturbed_instructions() {
    check(|u| {
        if let Some((p, i)) = check::instruction_input(&perturbed_input(u)?) {
            check::validate_no_panic(p, &i);
        }
        Ok(())
    });
}

#[test]
fn split_platform_covers_every_platform() {
    for p in Platform::ALL {
        for mode in [false, true] {
            let b = check::platform_byte(p, mode);
            assert_eq!(b & check::MODE_BIT != 0, mode);
            assert_eq!(check::split_platform(&[b, 7]), Some((p, &[7u8][..])));
        }
    }
    assert_eq!(check::split_platform(&[]), None);
}

#[test]
fn perturbed_instruction_applies_fields_in_order() {
    let (p, w) = corpus()[0];
    let mut data = vec![check::platform_byte(p, true)];
    data.extend_from_slice(&w);
    // field 0 sets the immediate payload; field 6 the quarter control.
    data.push(0);
    data.extend_from_slice(&0x1234_5678_9abc_def0u64.to_le_bytes());
    data.extend_from_slice(&[6, 2]);
    let (q, i) = check::perturbed_instruction(&data).unwrap();
    let mut want = decode(p, &w).unwrap();
    want.imm = 0x1234_5678_9abc_def0;
    want.qtr_control = 2;
    assert_eq!((q, i), (p, want));
    // A word that does not decode gives no instruction.
    let mut bad = data.clone();
    bad[1..17].fill(0xff);
    assert_eq!(check::perturbed_instruction(&bad), None);
}

#[cfg(feature = "arbitrary")]
mod with_arbitrary {
    use super::*;

    /// The arbitrary-mode input of the instruction targets.
    fn arbitrary_input(u: &mut Unstructured<'_>) -> Result<Vec<u8>> {
        let mut data = vec![check::platform_byte(platform(u)?, false)];
        let n = u.int_in_range(0..=160)?;
        data.extend_from_slice(u.bytes(n)?);
        Ok(data)
    }

    #[test]
    fn encode_roundtrip_arbitrary_instructions() {
        check(|u| {
            if let Some((p, i)) = check::instruction_input(&arbitrary_input(u)?) {
                check::encode_roundtrip(p, &i);
            }
            Ok(())
        });
    }

    #[test]
    fn validate_arbitrary_instructions() {
        check(|u| {
            if let Some((p, i)) = check::instruction_input(&arbitrary_input(u)?) {
                check::validate_no_panic(p, &i);
            }
            Ok(())
        });
    }
}
