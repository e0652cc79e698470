//! Every instruction of the Mesa corpus ran on real hardware, so it must
//! validate clean on its own platform. A violation here is a bug in a rule.

use crate::corpus;

use std::path::PathBuf;

use geneu::validate::validate;
use geneu::{decode, Platform};

fn corpus_dir() -> PathBuf {
    corpus::dir()
}

/// (file, line, asm text, word) for every instruction of one generation.
/// One corpus word with its file and line.
type WordAt = (String, usize, String, [u8; 16]);

fn words(root: &std::path::Path, gen: &str) -> Vec<WordAt> {
    let mut out = Vec::new();
    let Ok(rd) = std::fs::read_dir(root.join(gen)) else {
        return out;
    };
    let mut files: Vec<_> = rd.map(|e| e.unwrap().path()).collect();
    files.sort();
    for f in files {
        if !f.extension().is_some_and(|e| e == "expected") {
            continue;
        }
        let asm = std::fs::read_to_string(f.with_extension("asm")).unwrap_or_default();
        let records: Vec<&str> = asm
            .lines()
            .filter(|l| !l.is_empty() && !l.starts_with(char::is_whitespace) && !l.ends_with(':'))
            .collect();
        let text = std::fs::read_to_string(&f).unwrap();
        for (n, line) in text.lines().filter(|l| !l.trim().is_empty()).enumerate() {
            let v: Vec<u8> = line
                .split_whitespace()
                .map(|b| u8::from_str_radix(b, 16).unwrap())
                .collect();
            out.push((
                f.file_name().unwrap().to_string_lossy().into_owned(),
                n + 1,
                records.get(n).map_or(String::new(), |s| s.to_string()),
                v.try_into().unwrap(),
            ));
        }
    }
    out
}

fn clean(gen: &str, p: Platform) {
    let ws = words(&corpus_dir(), gen);
    assert!(ws.len() > 100, "corpus {gen} too small");
    clean_words(p, &ws);
}

fn clean_words(p: Platform, ws: &[WordAt]) {
    let mut failures = Vec::new();
    for (file, line, asm, w) in ws {
        let inst = decode(p, w).unwrap_or_else(|e| panic!("{file}:{line}: {e}"));
        if let Err(v) = validate(p, &inst) {
            failures.push(format!("{file}:{line}: {asm}\n    {v}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} corpus instructions break rules on {p}:\n{}",
        failures.len(),
        ws.len(),
        failures.join("\n")
    );
}

#[test]
fn gen7_corpus_validates_clean() {
    if corpus::absent() {
        return;
    }
    clean("gen7", Platform::Gen7);
}

#[test]
fn gen75_corpus_validates_clean() {
    if corpus::absent() {
        return;
    }
    clean("gen7.5", Platform::Gen75);
}

#[test]
fn gen8_corpus_validates_clean() {
    if corpus::absent() {
        return;
    }
    clean("gen8", Platform::Gen8);
}

/// The same check over a local corpus of the same layout, named by
/// `GENEU_EXTRA_CORPUS`; ignored by default.
#[test]
#[ignore = "needs GENEU_EXTRA_CORPUS"]
fn extra_corpus_clean() {
    let root = PathBuf::from(std::env::var("GENEU_EXTRA_CORPUS").expect("GENEU_EXTRA_CORPUS"));
    for (gen, p) in [
        ("gen7", Platform::Gen7),
        ("gen7.5", Platform::Gen75),
        ("gen8", Platform::Gen8),
    ] {
        clean_words(p, &words(&root, gen));
    }
}
