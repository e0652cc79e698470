//! The IGA-syntax reader against Intel's assembler: every instruction line
//! of `../shared/corpus/iga/<gen>/<name>.iga` (`iga64 -d`'s text of the
//! Mesa words, see its README) assembled by geneu must give the bytes
//! `iga64 -a` gave for it (`.iga.expected`); and the annotated IGA text
//! of every Mesa corpus word must give back that word (lossless).

mod corpus;

use std::fs;
use std::path::Path;

use geneu::text::iga::{assemble_iga, assemble_iga_words, IgaDisasm};
use geneu::text::AsmOptions;
use geneu::{codec, Platform};

fn hex_line(l: &str) -> Option<[u8; 16]> {
    let v: Vec<u8> = l
        .split_whitespace()
        .map(|b| u8::from_str_radix(b, 16))
        .collect::<Result<_, _>>()
        .ok()?;
    v.try_into().ok()
}

fn names(dir: &Path, suffix: &str) -> Vec<String> {
    let mut v: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| {
            e.unwrap()
                .file_name()
                .into_string()
                .unwrap()
                .strip_suffix(suffix)
                .map(str::to_owned)
        })
        .collect();
    v.sort();
    v
}

/// (instruction lines `iga64 -a` assembled, lines geneu gives the same
/// bytes for) on one platform; differences go to `failures`.
fn iga_asm(gen: &str, p: Platform, failures: &mut Vec<String>) -> (usize, usize) {
    let Some(mesa) = corpus::mesa() else {
        return (0, 0);
    };
    let dir = mesa.join("../iga").join(gen);
    let (mut n, mut ok) = (0, 0);
    for name in names(&dir, ".iga") {
        let text = fs::read_to_string(dir.join(format!("{name}.iga"))).unwrap();
        let expected_text = fs::read_to_string(dir.join(format!("{name}.iga.expected"))).unwrap();
        let expected: Vec<&str> = expected_text.lines().collect();
        let whole = text.lines().next() == Some("L0:");
        // (line text, expected line) for each instruction line.
        let inst_lines: Vec<&str> = text
            .lines()
            .filter(|l| {
                let t = l.trim();
                !t.is_empty() && !t.starts_with("//") && (!t.ends_with(':') || t.contains(' '))
            })
            .collect();
        let mut push_fail = |k: usize, l: &str, e: &str, got: String| {
            if failures.len() < 40 {
                failures.push(format!("{gen}/{name}:{k}: {l}\n   iga64: {e}\n   geneu: {got}"));
            }
        };
        if whole {
            let got = match assemble_iga_words(p, &text, AsmOptions::UNCHECKED) {
                Ok(w) => w,
                Err(e) => {
                    n += inst_lines.len();
                    push_fail(0, "(whole file)", "", e.to_string());
                    continue;
                }
            };
            assert_eq!(got.len(), inst_lines.len(), "{gen}/{name}");
            for (k, (l, g)) in inst_lines.iter().zip(&got).enumerate() {
                let e = expected.get(k).copied().unwrap_or("");
                let Some(ew) = hex_line(e) else { continue };
                n += 1;
                if ew == *g {
                    ok += 1;
                } else {
                    push_fail(k, l, e, hex(g));
                }
            }
        } else {
            let all: Vec<&str> = text.lines().collect();
            for (k, l) in all.iter().enumerate() {
                let e = expected.get(k).copied().unwrap_or("");
                let Some(ew) = hex_line(e) else { continue };
                n += 1;
                match assemble_iga_words(p, l, AsmOptions::UNCHECKED) {
                    Ok(w) if w.first() == Some(&ew) => ok += 1,
                    Ok(w) => push_fail(k, l, e, w.first().map(hex).unwrap_or_default()),
                    Err(err) => push_fail(k, l, e, err.to_string()),
                }
            }
        }
    }
    (n, ok)
}

fn hex(w: &[u8; 16]) -> String {
    w.iter().map(|b| format!("{b:02x}")).collect::<Vec<_>>().join(" ")
}

#[test]
fn iga_text_assembles_as_iga64_does() {
    let mut failures = Vec::new();
    for (gen, p) in [("gen7.5", Platform::Gen75), ("gen8", Platform::Gen8)] {
        let (n, ok) = iga_asm(gen, p, &mut failures);
        eprintln!("{gen}: {ok} of {n} instruction lines give iga64 -a's bytes");
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Disassembly in IGA's syntax with the field annotation, then assembly,
/// gives back every Mesa corpus word that decodes.
#[test]
fn annotated_iga_text_is_lossless() {
    let Some(mesa) = corpus::mesa() else {
        return;
    };
    let mut failures = Vec::new();
    for (gen, p) in [
        ("gen7", Platform::Gen7),
        ("gen7.5", Platform::Gen75),
        ("gen8", Platform::Gen8),
    ] {
        let dir = mesa.join(gen);
        let (mut n, mut ok) = (0, 0);
        for name in names(&dir, ".expected") {
            let text = fs::read_to_string(dir.join(format!("{name}.expected"))).unwrap();
            for w in text.lines().filter_map(hex_line) {
                let Ok(i) = codec::decode(p, &w) else { continue };
                n += 1;
                let t = IgaDisasm::new(p, &i).to_text();
                match assemble_iga(p, &t, AsmOptions::UNCHECKED) {
                    Ok(a) if a.len() == 1 && a[0].word == w => ok += 1,
                    Ok(a) => {
                        if failures.len() < 40 {
                            failures.push(format!(
                                "{gen}/{name}: {t}\n   word:  {}\n   geneu: {}",
                                hex(&w),
                                a.first().map(|a| hex(&a.word)).unwrap_or_default()
                            ))
                        }
                    }
                    Err(e) => {
                        if failures.len() < 40 {
                            failures.push(format!("{gen}/{name}: {t}\n   {e}"))
                        }
                    }
                }
            }
        }
        eprintln!("{gen}: {ok} of {n} words read back from their annotated IGA text");
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
