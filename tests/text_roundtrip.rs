//! Round trips between the disassembler and the assembler.
//!
//! - `asm(disasm(w)) == w`: every corpus file disassembled as a program
//!   (labels included) assembles back to its words, checked and unchecked;
//!   and, as a property, every word that decodes — random words, corpus
//!   words with bits flipped, and (with `--features arbitrary`) arbitrary
//!   instructions encoded unchecked — goes through
//!   [`geneu::text::check_asm_roundtrip`].
//! - `disasm(asm(t)) == t`: every `.asm` file of the corpus, assembled and
//!   disassembled again, gives its own text back. Every line is compared
//!   whitespace-exact (the `MsgDesc:` lines of SENDs included), with the
//!   single normalisation the disassembler corpus test documents (see
//!   `text_common::Compare`): flow-control records (those with `JIP:`)
//!   are compared with whitespace runs squashed, and label names up to a
//!   consistent renaming, because the corpus's label numbering and the
//!   column of `UIP:` there were edited by hand.
//!
//! Failures are listed per line.

use std::fs;

use geneu::text::program::Program;
use geneu::text::{assemble_words_with, AsmOptions};
use geneu::{Platform, Word};

mod text_common;
use text_common::{corpus_files, items, platform, read_words, Compare, Item};

fn hex(w: &[u8; 16]) -> String {
    w.iter().map(|b| format!("{b:02x}")).collect::<Vec<_>>().join(" ")
}

fn disasm(p: Platform, words: impl IntoIterator<Item = Word>) -> String {
    let mut text = String::new();
    let sum = Program::from_words(p, words)
        .write_text(&mut text, &Default::default())
        .unwrap();
    assert_eq!(sum.undecodable, 0, "undecodable words in\n{text}");
    text
}

#[test]
fn corpus_asm_of_disasm_is_identity() {
    let mut fails = Vec::new();
    let mut total = 0;
    for (dir, asm) in corpus_files() {
        let p = platform(&dir);
        let name = format!("{dir}/{}", asm.file_name().unwrap().to_string_lossy());
        let words = read_words(&asm.with_extension("expected"));
        let want: Vec<[u8; 16]> = words.iter().map(|w| w.to_bytes()).collect();
        let text = disasm(p, words);
        total += want.len();
        for opts in [AsmOptions::CHECKED, AsmOptions::UNCHECKED] {
            match assemble_words_with(p, &text, opts) {
                Err(errs) => {
                    for e in errs.0 {
                        let line = text.lines().nth(e.line as usize - 1).unwrap_or("");
                        fails.push(format!("{name} (our text):{e}\n    {line}"));
                    }
                }
                Ok(got) if got.len() != want.len() => {
                    fails.push(format!("{name}: {} words back, {} in", got.len(), want.len()));
                }
                Ok(got) => {
                    for (k, (g, w)) in got.iter().zip(&want).enumerate() {
                        if g != w {
                            fails.push(format!("{name} word {k}:\n    in   {}\n    back {}", hex(w), hex(g)));
                        }
                    }
                }
            }
        }
    }
    assert!(total > 300);
    assert!(fails.is_empty(), "{} failures:\n{}", fails.len(), fails.join("\n"));
}

#[test]
fn corpus_disasm_of_asm_is_identity() {
    let mut fails = Vec::new();
    let mut lines = 0;
    for (dir, asm) in corpus_files() {
        let p = platform(&dir);
        let name = format!("{dir}/{}", asm.file_name().unwrap().to_string_lossy());
        let src = fs::read_to_string(&asm).unwrap();
        let words = match assemble_words_with(p, &src, AsmOptions::CHECKED) {
            Ok(w) => w,
            Err(e) => {
                fails.push(format!("{name}: does not assemble:\n{e}"));
                continue;
            }
        };
        let ours = items(&disasm(p, words.into_iter().map(Word::from_bytes)));
        let theirs = items(&src);
        if ours.len() != theirs.len() {
            fails.push(format!("{name}: {} items back, {} in", ours.len(), theirs.len()));
        }
        let mut cmp = Compare::default();
        for (k, (a, b)) in ours.iter().zip(&theirs).enumerate() {
            lines += 1;
            if let Err(e) = cmp.first_lines(a, b) {
                fails.push(format!("{name} item {k}: {e}"));
            }
            if let (Item::Record(x), Item::Record(y)) = (a, b) {
                if x.len() != y.len() {
                    fails.push(format!("{name} item {k}: {} lines back, {} in", x.len(), y.len()));
                }
                for (n, (lx, ly)) in x.iter().zip(y).enumerate().skip(1) {
                    lines += 1;
                    if lx != ly {
                        fails.push(format!("{name} item {k} line {n}:\n  back: {lx:?}\n  in:   {ly:?}"));
                    }
                }
            }
        }
    }
    assert!(lines > 300);
    assert!(
        fails.is_empty(),
        "{} of {lines} lines differ:\n{}",
        fails.len(),
        fails.join("\n")
    );
}
