//! Every `.asm` file of the Mesa corpus assembles to its `.expected` words,
//! with checked encoding. Failures are listed per line, with the fields
//! that differ.

use crate::corpus;

use std::path::{Path, PathBuf};

use geneu::text::{assemble_words, AsmErrors};
use geneu::{Platform, Word};

fn corpus_dir(gen: &str) -> PathBuf {
    corpus::dir().join(gen)
}

fn expected(path: &Path) -> Vec<[u8; 16]> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: Vec<u8> = l
                .split_whitespace()
                .map(|b| u8::from_str_radix(b, 16).unwrap())
                .collect();
            v.try_into().unwrap()
        })
        .collect()
}

/// The source line of each instruction (records start in column 0 and
/// are not `LABEL:` lines).
fn record_lines(text: &str) -> Vec<(usize, &str)> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.is_empty() && !l.starts_with(' ') && !l.trim_end().ends_with(':'))
        .map(|(n, l)| (n + 1, l))
        .collect()
}

fn check_gen(gen: &str, p: Platform) {
    check_dir(gen, &corpus_dir(gen), p, 20);
}

fn check_dir(gen: &str, dir: &Path, p: Platform, min_files: usize) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        assert_eq!(min_files, 0, "corpus {gen} not found");
        return;
    };
    let mut files: Vec<PathBuf> = rd
        .map(|e| e.unwrap().path())
        .filter(|f| f.extension().is_some_and(|e| e == "asm"))
        .collect();
    files.sort();
    assert!(files.len() >= min_files, "corpus {gen} too small");
    let mut failures = Vec::new();
    let mut count = 0;
    for f in &files {
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(f).unwrap();
        let want = expected(&f.with_extension("expected"));
        let lines = record_lines(&text);
        assert_eq!(lines.len(), want.len(), "{name}: records vs expected words");
        count += want.len();
        match assemble_words(p, &text) {
            Err(AsmErrors(errs)) => {
                for e in errs {
                    let src = text.lines().nth(e.line as usize - 1).unwrap_or("");
                    failures.push(format!("{gen}/{name}:{e}\n    {src}"));
                }
            }
            Ok(got) => {
                assert_eq!(got.len(), want.len(), "{name}: instruction count");
                for ((line, src), (g, w)) in lines.iter().zip(got.iter().zip(&want)) {
                    if g != w {
                        let diffs: Vec<String> = geneu::fields::diff(p, Word::from_bytes(*w), Word::from_bytes(*g))
                            .iter()
                            .map(|d| format!("{}: want {:#x} got {:#x}", d.field, d.a.0, d.b.0))
                            .collect();
                        failures.push(format!(
                            "{gen}/{name}:{line}: {src}\n    want {}\n    got  {}\n    {}",
                            hex(w),
                            hex(g),
                            diffs.join("; ")
                        ));
                    }
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures in {count} {gen} instructions:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

fn hex(w: &[u8; 16]) -> String {
    w.iter().map(|b| format!("{b:02x}")).collect::<Vec<_>>().join(" ")
}

#[test]
fn gen7_corpus_assembles() {
    if corpus::absent() {
        return;
    }
    check_gen("gen7", Platform::Gen7);
}

#[test]
fn gen75_corpus_assembles() {
    if corpus::absent() {
        return;
    }
    check_gen("gen7.5", Platform::Gen75);
}

#[test]
fn gen8_corpus_assembles() {
    if corpus::absent() {
        return;
    }
    check_gen("gen8", Platform::Gen8);
}

/// The same check over a local corpus of the same layout, named by
/// `GENEU_EXTRA_CORPUS`; ignored by default.
#[test]
#[ignore = "needs GENEU_EXTRA_CORPUS"]
fn extra_corpus_assembles() {
    let root = PathBuf::from(std::env::var("GENEU_EXTRA_CORPUS").expect("GENEU_EXTRA_CORPUS"));
    for (gen, p) in [
        ("gen7", Platform::Gen7),
        ("gen7.5", Platform::Gen75),
        ("gen8", Platform::Gen8),
    ] {
        check_dir(gen, &root.join(gen), p, 0);
    }
}
