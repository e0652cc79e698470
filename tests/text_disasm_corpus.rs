//! Disassembles every `.expected` file of the Mesa corpus and compares the
//! text with the `.asm` file, whitespace-exact, listing every differing
//! record.
//!
//! One documented exception: the flow-control records (those with `JIP:`)
//! and the label numbering were edited by hand in the corpus and follow no
//! single rule (the column of `UIP:` and `{` varies between files for
//! identical lengths, and label numbers follow neither address order nor
//! Mesa's creation order in every file). For those records only,
//! whitespace runs are compared as one space, and label names are matched
//! up to a consistent renaming (a bijection between our numbers and the
//! corpus's, which also has to hold for the `LABELn:` lines). Everything
//! else — label placement, opcode, operands, options — must match.
//!
//! SEND/SENDC continuation lines (`MsgDesc:`, printed by the `msg`
//! module) are compared, whitespace-exact, by their own test so that
//! their state is visible separately.

use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};

use geneu::text::program::Program;
use geneu::{Platform, Word};

/// A line starting in column 0 and its indented continuation lines, or a
/// label line.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Item {
    Label(String),
    Record(Vec<String>),
}

fn items(text: &str) -> Vec<Item> {
    let mut out: Vec<Item> = Vec::new();
    for line in text.lines() {
        if line.trim().is_empty() {
            continue;
        }
        if line.starts_with(' ') {
            if let Some(Item::Record(r)) = out.last_mut() {
                r.push(line.to_string());
                continue;
            }
        }
        let t = line.trim_end();
        if let Some(l) = t.strip_suffix(':').filter(|l| l.starts_with("LABEL")) {
            out.push(Item::Label(l.to_string()));
        } else {
            out.push(Item::Record(vec![line.to_string()]));
        }
    }
    out
}

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/mesa")
}

fn platform(dir: &str) -> Platform {
    match dir {
        "gen7" => Platform::Gen7,
        "gen7.5" => Platform::Gen75,
        _ => Platform::Gen8,
    }
}

fn read_words(path: &Path) -> Vec<Word> {
    fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let b: Vec<u8> = l
                .split_whitespace()
                .map(|t| u8::from_str_radix(t, 16).unwrap())
                .collect();
            Word::from_bytes(b.try_into().unwrap())
        })
        .collect()
}

/// Every (platform dir, file stem) pair of the corpus.
fn corpus_files() -> Vec<(String, PathBuf)> {
    let mut v = Vec::new();
    for dir in ["gen7", "gen7.5", "gen8"] {
        let mut files: Vec<PathBuf> = fs::read_dir(corpus_dir().join(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "asm"))
            .collect();
        files.sort();
        for f in files {
            v.push((dir.to_string(), f));
        }
    }
    assert!(v.len() > 100, "corpus not found at {}", corpus_dir().display());
    v
}

/// Our text and the corpus text of one file, as items.
fn disassemble(dir: &str, asm: &Path) -> (Vec<Item>, Vec<Item>) {
    let words = read_words(&asm.with_extension("expected"));
    let prog = Program::from_words(platform(dir), words);
    let mut text = String::new();
    let sum = prog.write_text(&mut text, &Default::default()).unwrap();
    assert_eq!(sum.undecodable, 0, "{}: undecodable words\n{text}", asm.display());
    (items(&text), items(&fs::read_to_string(asm).unwrap()))
}

fn squash(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Whether a whitespace-separated token is a label name.
fn is_label(t: &str) -> bool {
    t.strip_prefix("LABEL")
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// Rewrites our text (whitespace squashed) with the corpus's label names,
/// extending the renaming; `Err` if the renaming would stop being a
/// bijection or the label counts differ.
fn rename(
    ours: &str,
    theirs: &str,
    ours_to_theirs: &mut HashMap<String, String>,
    theirs_to_ours: &mut HashMap<String, String>,
) -> Result<String, String> {
    let a: Vec<&str> = ours.split_whitespace().filter(|t| is_label(t)).collect();
    let b: Vec<&str> = theirs.split_whitespace().filter(|t| is_label(t)).collect();
    if a.len() != b.len() {
        return Err(format!("label count differs: {a:?} vs {b:?}"));
    }
    for (o, t) in a.iter().zip(&b) {
        let x = ours_to_theirs
            .entry(o.to_string())
            .or_insert_with(|| t.to_string())
            .clone();
        let y = theirs_to_ours
            .entry(t.to_string())
            .or_insert_with(|| o.to_string())
            .clone();
        if x != *t || y != *o {
            return Err(format!("inconsistent label renaming: ours {o} ~ corpus {t}"));
        }
    }
    Ok(ours
        .split_whitespace()
        .map(|t| if is_label(t) { ours_to_theirs[t].as_str() } else { t })
        .collect::<Vec<_>>()
        .join(" "))
}

/// Compares one file; returns failure descriptions. With `msgdesc`, only
/// SEND continuation lines are compared; otherwise everything else.
fn compare(dir: &str, asm: &Path, msgdesc: bool) -> (usize, Vec<String>) {
    let (ours, theirs) = disassemble(dir, asm);
    let name = format!("{dir}/{}", asm.file_name().unwrap().to_string_lossy());
    let mut fails = Vec::new();
    if ours.len() != theirs.len() {
        fails.push(format!("{name}: {} items, corpus has {}", ours.len(), theirs.len()));
    }
    let mut o2t = HashMap::new();
    let mut t2o = HashMap::new();
    let mut checked = 0;
    for (k, (a, b)) in ours.iter().zip(&theirs).enumerate() {
        match (a, b) {
            (Item::Label(x), Item::Label(y)) => {
                if msgdesc {
                    continue;
                }
                checked += 1;
                if let Err(e) = rename(x, y, &mut o2t, &mut t2o) {
                    fails.push(format!("{name} item {k}: {e}"));
                }
            }
            (Item::Record(x), Item::Record(y)) => {
                let first = (x.first().unwrap(), y.first().unwrap());
                if msgdesc {
                    for (n, (lx, ly)) in x.iter().zip(y).enumerate().skip(1) {
                        checked += 1;
                        if lx != ly {
                            fails.push(format!("{name} item {k} line {n}:\n  ours:   {lx:?}\n  corpus: {ly:?}"));
                        }
                    }
                    if x.len() != y.len() {
                        fails.push(format!("{name} item {k}: {} lines, corpus has {}", x.len(), y.len()));
                    }
                    continue;
                }
                checked += 1;
                let ok = if first.1.contains("JIP:") {
                    match rename(&squash(first.0), &squash(first.1), &mut o2t, &mut t2o) {
                        Ok(r) => r == squash(first.1),
                        Err(e) => {
                            fails.push(format!("{name} item {k}: {e}"));
                            continue;
                        }
                    }
                } else {
                    first.0 == first.1
                };
                if !ok {
                    fails.push(format!(
                        "{name} item {k}:\n  ours:   {:?}\n  corpus: {:?}",
                        first.0, first.1
                    ));
                }
            }
            _ => fails.push(format!("{name} item {k}: ours {a:?}, corpus {b:?}")),
        }
    }
    (checked, fails)
}

fn run(msgdesc: bool) {
    let mut total = 0;
    let mut fails = Vec::new();
    for (dir, asm) in corpus_files() {
        let (n, f) = compare(&dir, &asm, msgdesc);
        total += n;
        fails.extend(f);
    }
    assert!(total > 0);
    assert!(
        fails.is_empty(),
        "{} of {total} compared lines differ:\n{}",
        fails.len(),
        fails.join("\n")
    );
    println!("{total} lines identical");
}

#[test]
fn corpus_disasm_matches_mesa() {
    run(false);
}

#[test]
fn corpus_send_msgdesc_lines_match_mesa() {
    run(true);
}
