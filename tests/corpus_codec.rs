//! Every word of the Mesa corpus decodes and re-encodes bit for bit.

use crate::corpus;

use std::path::PathBuf;

use geneu::{decode, encode_unchecked, Platform};

fn corpus_dir() -> PathBuf {
    corpus::dir()
}

fn parse_line(line: &str) -> [u8; 16] {
    let v: Vec<u8> = line
        .split_whitespace()
        .map(|b| u8::from_str_radix(b, 16).unwrap())
        .collect();
    v.try_into().unwrap()
}

/// One corpus word with its file and line.
type WordAt = (String, usize, [u8; 16]);

fn words(root: &std::path::Path, gen: &str) -> Vec<WordAt> {
    let mut out = Vec::new();
    let Ok(rd) = std::fs::read_dir(root.join(gen)) else {
        return out;
    };
    let mut files: Vec<_> = rd.map(|e| e.unwrap().path()).collect();
    files.sort();
    for f in files {
        if f.extension().is_some_and(|e| e == "expected") {
            let text = std::fs::read_to_string(&f).unwrap();
            for (n, line) in text.lines().enumerate() {
                if !line.trim().is_empty() {
                    out.push((
                        f.file_name().unwrap().to_string_lossy().into_owned(),
                        n + 1,
                        parse_line(line),
                    ));
                }
            }
        }
    }
    out
}

fn roundtrip(gen: &str, p: Platform) {
    let ws = words(&corpus_dir(), gen);
    assert!(ws.len() > 100, "corpus {gen} too small");
    roundtrip_words(p, &ws);
}

fn roundtrip_words(p: Platform, ws: &[WordAt]) {
    let mut failures = Vec::new();
    for (file, line, w) in ws {
        match decode(p, w) {
            Ok(i) => match encode_unchecked(p, &i) {
                Ok(back) if back == *w => {}
                Ok(back) => failures.push(format!("{file}:{line}: re-encoded {back:02x?} != {w:02x?}")),
                Err(e) => failures.push(format!("{file}:{line}: encode: {e}")),
            },
            Err(e) => failures.push(format!("{file}:{line}: decode: {e}")),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} words failed:\n{}",
        failures.len(),
        ws.len(),
        failures.join("\n")
    );
}

#[test]
fn gen7_corpus_roundtrips() {
    if corpus::absent() {
        return;
    }
    roundtrip("gen7", Platform::Gen7);
}

#[test]
fn gen75_corpus_roundtrips() {
    if corpus::absent() {
        return;
    }
    roundtrip("gen7.5", Platform::Gen75);
}

#[test]
fn gen8_corpus_roundtrips() {
    if corpus::absent() {
        return;
    }
    roundtrip("gen8", Platform::Gen8);
}

#[test]
fn gen8_corpus_roundtrips_on_chv() {
    if corpus::absent() {
        return;
    }
    roundtrip("gen8", Platform::Chv);
}

/// The same check over a local corpus of the same layout, named by
/// `GENEU_EXTRA_CORPUS`; ignored by default.
#[test]
#[ignore = "needs GENEU_EXTRA_CORPUS"]
fn extra_corpus_roundtrip() {
    let root = PathBuf::from(std::env::var("GENEU_EXTRA_CORPUS").expect("GENEU_EXTRA_CORPUS"));
    for (gen, p) in [
        ("gen7", Platform::Gen7),
        ("gen7.5", Platform::Gen75),
        ("gen8", Platform::Gen8),
    ] {
        roundtrip_words(p, &words(&root, gen));
    }
}
