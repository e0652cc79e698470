//! Disassembles every `.expected` file of the Mesa corpus and compares the
//! text with the `.asm` file, whitespace-exact, listing every differing
//! record.
//!
//! One documented exception (see `text_common::Compare`): the
//! flow-control records (those with `JIP:`) and the label numbering were
//! edited by hand in the corpus and follow no single rule. For those
//! records only, whitespace runs are compared as one space, and label names
//! are matched up to a consistent renaming. Everything else — label
//! placement, opcode, operands, options — must match.
//!
//! SEND/SENDC continuation lines (`MsgDesc:`, printed by the `msg`
//! module) are compared, whitespace-exact, by their own test so that
//! their state is visible separately.

use std::fs;
use std::path::{Path, PathBuf};

use geneu::text::program::{write_bytes_text, Program, ProgramText, Summary, TextOptions};

use crate::text_common;
use text_common::{
    check, corpus, corpus_files, corpus_files_in, expected_of, items, mutated_corpus_word, platform, read_words,
    Compare, Item,
};

/// Our text and the corpus text of one file, as items.
fn disassemble(dir: &str, asm: &Path) -> (Vec<Item>, Vec<Item>) {
    let words = read_words(&expected_of(asm));
    let prog = Program::from_words(platform(dir), words);
    let mut text = String::new();
    let sum = prog.write_text(&mut text, &Default::default()).unwrap();
    assert_eq!(sum.undecodable, 0, "{}: undecodable words\n{text}", asm.display());
    (items(&text), items(&fs::read_to_string(asm).unwrap()))
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
    let mut cmp = Compare::default();
    let mut checked = 0;
    for (k, (a, b)) in ours.iter().zip(&theirs).enumerate() {
        if msgdesc {
            if let (Item::Record(x), Item::Record(y)) = (a, b) {
                for (n, (lx, ly)) in x.iter().zip(y).enumerate().skip(1) {
                    checked += 1;
                    if lx != ly {
                        fails.push(format!("{name} item {k} line {n}:\n  ours:   {lx:?}\n  corpus: {ly:?}"));
                    }
                }
                if x.len() != y.len() {
                    fails.push(format!("{name} item {k}: {} lines, corpus has {}", x.len(), y.len()));
                }
            }
            continue;
        }
        checked += 1;
        if let Err(e) = cmp.first_lines(a, b) {
            fails.push(format!("{name} item {k}: {e}"));
        }
    }
    (checked, fails)
}

fn run(msgdesc: bool) {
    assert!(run_files(corpus_files(), msgdesc) > 0);
}

/// Compares the files; returns the number of compared lines.
fn run_files(files: Vec<(String, PathBuf)>, msgdesc: bool) -> usize {
    let mut total = 0;
    let mut fails = Vec::new();
    for (dir, asm) in files {
        let (n, f) = compare(&dir, &asm, msgdesc);
        total += n;
        fails.extend(f);
    }
    assert!(
        fails.is_empty(),
        "{} of {total} compared lines differ:\n{}",
        fails.len(),
        fails.join("\n")
    );
    println!("{total} lines identical");
    total
}

#[test]
fn corpus_disasm_matches_mesa() {
    if corpus::absent() {
        return;
    }
    run(false);
}

#[test]
fn corpus_send_msgdesc_lines_match_mesa() {
    if corpus::absent() {
        return;
    }
    run(true);
}

/// The same comparison over a local corpus of the same layout, named by
/// `GENEU_EXTRA_CORPUS` (for checking files that are not part of the
/// repository); ignored by default.
#[test]
#[ignore = "needs GENEU_EXTRA_CORPUS"]
fn extra_corpus_disasm_matches_mesa() {
    let root = PathBuf::from(std::env::var("GENEU_EXTRA_CORPUS").expect("GENEU_EXTRA_CORPUS"));
    run_files(corpus_files_in(&root), false);
    run_files(corpus_files_in(&root), true);
}

/// The text of `bytes` printed by `ProgramText` `chunk` words at a time,
/// and its summary.
fn streamed(p: geneu::Platform, bytes: &[u8], chunk: usize) -> (String, Summary) {
    let mut t = ProgramText::new(p, bytes, TextOptions::with_check(true));
    let mut text = String::new();
    let mut pieces = 0;
    while t.write_next(&mut text, chunk).unwrap() {
        pieces += 1;
    }
    // One piece per `chunk` instructions (8- or 16-byte: a word with
    // CmptCtrl set is a compacted instruction).
    let complete = geneu::compact::pieces(bytes)
        .filter(|(_, piece)| !matches!(piece, geneu::compact::Piece::Short { .. }))
        .count();
    assert_eq!(pieces, complete.saturating_sub(1) / chunk);
    (text, t.summary())
}

/// Printing a binary without keeping its decoded instructions
/// (`write_bytes_text`, `ProgramText` in chunks) gives the text of
/// `Program::write_text`: each platform's whole corpus as one program
/// (branches landing on labels), with undecodable words mixed in and a
/// truncated tail.
#[test]
fn streamed_text_equals_program_text() {
    if corpus::absent() {
        return;
    }
    let mut by_dir: std::collections::BTreeMap<String, Vec<u8>> = Default::default();
    for (dir, asm) in corpus_files() {
        let bytes = by_dir.entry(dir).or_default();
        for (k, w) in read_words(&expected_of(&asm)).into_iter().enumerate() {
            bytes.extend(w.to_bytes());
            if k % 97 == 96 {
                bytes.extend([0xff; 16]);
            }
        }
    }
    for (dir, mut bytes) in by_dir {
        bytes.extend([0x01, 0x02, 0x03]);
        let p = platform(&dir);
        let opts = TextOptions::with_check(true);
        let mut want = String::new();
        let sum = Program::decode(p, &bytes).write_text(&mut want, &opts).unwrap();
        assert!(sum.undecodable > 0 && want.contains("LABEL"), "{dir}: {sum:?}");
        let mut whole = String::new();
        assert_eq!(write_bytes_text(p, &bytes, &mut whole, &opts).unwrap(), sum, "{dir}");
        assert!(whole == want, "{dir}: write_bytes_text differs");
        for chunk in [1, 13, 512] {
            let (text, s) = streamed(p, &bytes, chunk);
            assert_eq!(s, sum, "{dir} in chunks of {chunk}");
            assert!(text == want, "{dir}: text in chunks of {chunk} differs");
        }
    }
}

/// The same for short programs of mutated corpus words (some of them
/// undecodable) on one platform, with any trailing bytes, in chunks of
/// any size.
#[test]
fn streamed_text_equals_program_text_mutated() {
    if corpus::absent() {
        return;
    }
    check(|u| {
        let (p, first) = mutated_corpus_word(u, 3)?;
        let mut bytes = first.to_vec();
        for _ in 0..u.int_in_range(0..=40)? {
            let (_, w) = mutated_corpus_word(u, 3)?;
            bytes.extend(w);
        }
        let tail = u.int_in_range(0..=15)?;
        bytes.extend(std::iter::repeat(0xa5).take(tail));
        let mut want = String::new();
        let sum = Program::decode(p, &bytes)
            .write_text(&mut want, &TextOptions::with_check(true))
            .unwrap();
        let chunk = u.int_in_range(1..=8)?;
        let (text, s) = streamed(p, &bytes, chunk);
        assert_eq!(s, sum);
        assert_eq!(text, want);
        Ok(())
    });
}
