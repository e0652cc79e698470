//! [`Assembler`] fed a text in pieces gives what assembling the whole text
//! gives (instructions, words, positions and every error), wherever the
//! pieces are cut, as `geneu asm` cuts a large file: after a line end,
//! a piece growing when no statement completes in it.
#![cfg(feature = "check")] // the shared property checks (`geneu::check`)

use geneu::check;
use geneu::text::program::{Program, TextOptions};
use geneu::text::{assemble_listing, AsmOptions, Assembler};
use geneu::{Platform, Word};

use crate::text_common;

fn same_in_pieces(p: Platform, text: &str, sizes: &[usize]) {
    for opts in [AsmOptions::CHECKED, AsmOptions::UNCHECKED] {
        let whole = assemble_listing(p, text, opts);
        for &size in sizes {
            assert_eq!(
                check::assemble_in_pieces(p, text, size, opts),
                whole,
                "pieces of {size} bytes, {opts:?}"
            );
        }
    }
}

/// The corpus's text of each platform, its files joined; without the
/// corpus, the bundled example kernel's words repeated to 3,000
/// instructions and disassembled as one program (its labels unique), as
/// long a text as the tests below cut up.
fn corpus_texts() -> Vec<(Platform, String)> {
    let files = text_common::corpus_files();
    if files.iter().all(|(_, f)| *f == text_common::corpus::example_asm()) {
        let words = text_common::corpus::example_words();
        let program = words.iter().cycle().take(3000).map(|w| Word::from_bytes(*w));
        let mut text = String::new();
        Program::from_words(Platform::Gen8, program)
            .write_text(&mut text, &TextOptions::default())
            .unwrap();
        return vec![(Platform::Gen8, text)];
    }
    let mut by_platform: Vec<(Platform, String)> = Vec::new();
    for (dir, path) in files {
        let p = text_common::platform(&dir);
        let text = std::fs::read_to_string(path).unwrap();
        match by_platform.iter_mut().find(|(q, _)| *q == p) {
            Some((_, all)) => all.push_str(&text),
            None => by_platform.push((p, text)),
        }
    }
    by_platform
}

#[test]
fn corpus_in_pieces_is_the_whole() {
    for (dir, path) in text_common::corpus_files() {
        let p = text_common::platform(&dir);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(
            assemble_listing(p, &text, AsmOptions::CHECKED).is_ok(),
            "{}",
            path.display()
        );
        same_in_pieces(p, &text, &[1, 333]);
    }
    // Whole platforms at once (labels repeat across files: errors too).
    for (p, text) in corpus_texts() {
        same_in_pieces(p, &text, &[100, 777, 4096, 65536]);
    }
}

#[test]
fn errors_in_pieces_are_the_whole_errors() {
    let (p, text) = corpus_texts().pop().unwrap();
    let lines: Vec<&str> = text.lines().collect();
    // Break lines here and there in several ways: a bad register, a
    // missing `;`, an unknown opcode, a block comment over many lines,
    // an unknown label, a duplicate label and one left open at the end.
    let mut broken = String::new();
    for (n, line) in lines.iter().enumerate() {
        let line = match n % 97 {
            5 => line.replacen("g", "q", 1),
            17 => line.replacen(';', "", 1),
            31 => format!("frob {line}"),
            44 => format!("/* {line}"),
            45 => format!("{line} */"),
            60 => format!("{line}\nif(8) JIP: nowhere{n};"),
            70 => "twice:".to_string(),
            _ => line.to_string(),
        };
        broken.push_str(&line);
        broken.push('\n');
    }
    let whole = assemble_listing(p, &broken, AsmOptions::CHECKED);
    let errs = whole.as_ref().unwrap_err();
    assert!(errs.0.len() > 50, "{}", errs.0.len());
    same_in_pieces(p, &broken, &[1, 300, 5000]);
    broken.push_str("mov(8) g1<1>F /* never closed\n g2<8,8,1>F { align1 1Q };\n");
    same_in_pieces(p, &broken, &[1, 300, 5000]);
}

#[test]
fn statements_over_lines_and_several_per_line() {
    let p = Platform::Gen8;
    let text = "L0:\nmov(8) g1<1>F\n  g2<8,8,1>F { align1 1Q }; mov(8) g3<1>F g4<8,8,1>F { align1 1Q }; L1: L2:\n\
                while(8) JIP: L0 { align1 1Q }; /* a comment\nover lines */ nop ; // end\n";
    assert_eq!(assemble_listing(p, text, AsmOptions::CHECKED).unwrap().len(), 4);
    same_in_pieces(p, text, &[1, 2, 3, 5, 8, 13, 40]);
}

#[test]
fn parts_joined_with_append_are_the_whole() {
    let mut joined_any = 0;
    for (p, text) in corpus_texts() {
        for opts in [AsmOptions::CHECKED, AsmOptions::UNCHECKED] {
            let whole = assemble_listing(p, &text, opts);
            for parts in [2, 3, 5, 16] {
                let cuts = check::line_starts_near(&text, parts);
                let (got, joined) = check::assemble_in_parts(p, &text, &cuts, opts, true);
                assert_eq!(got, whole, "{p:?} in {parts} parts");
                joined_any += joined;
                // Parts started on line 1 are renumbered when joined:
                // the words and the errors are still the whole's.
                let (got, _) = check::assemble_in_parts(p, &text, &cuts, opts, false);
                match (&got, &whole) {
                    (Ok(a), Ok(b)) => assert!(a.iter().zip(b).all(|(x, y)| x.word == y.word) && a.len() == b.len()),
                    (Err(a), Err(b)) => assert_eq!(a, b),
                    _ => panic!("{p:?} in {parts} parts: {got:?}"),
                }
            }
        }
    }
    assert!(joined_any > 0, "some parts began at a statement and were joined");
}

#[test]
fn errors_in_parts_are_the_whole_errors_on_the_right_lines() {
    let (p, text) = corpus_texts().pop().unwrap();
    // A bad register every 41 lines, a missing `;` every 89, an undefined
    // label and a duplicate one.
    let mut broken = String::new();
    for (n, line) in text.lines().enumerate() {
        match n % 41 {
            7 => broken.push_str(&line.replacen("g", "q", 1)),
            _ if n % 89 == 3 => broken.push_str(&line.replacen(';', "", 1)),
            _ => broken.push_str(line),
        }
        broken.push('\n');
        if n % 500 == 250 {
            broken.push_str("dup:\nif(8) JIP: nowhere { align1 1Q };\n");
        }
    }
    let whole = assemble_listing(p, &broken, AsmOptions::CHECKED).unwrap_err();
    assert!(whole.0.len() > 20);
    for parts in [2, 4, 7] {
        let cuts = check::line_starts_near(&broken, parts);
        let (got, _) = check::assemble_in_parts(p, &broken, &cuts, AsmOptions::CHECKED, false);
        assert_eq!(got.unwrap_err(), whole, "{parts} parts");
    }
}

#[test]
fn append_refuses_a_part_that_does_not_begin_where_the_text_ended() {
    let p = Platform::Gen8;
    let text = "mov(8) g1<1>F g2<8,8,1>F { align1 1Q };\nmov(8) g3<1>F\n";
    let mut a = Assembler::new(p, AsmOptions::CHECKED);
    // The second statement is unfinished: `a` stands at its line.
    let used = a.feed(text, false, |_, _| {});
    assert_eq!(used, 40);
    assert_eq!(a.position(), (40, 2));
    let elsewhere = Assembler::starting_at(p, AsmOptions::CHECKED, 41, 2);
    assert!(a.append(elsewhere).is_err());
    let other_options = Assembler::starting_at(p, AsmOptions::UNCHECKED, 40, 2);
    assert!(a.append(other_options).is_err());
    let other_platform = Assembler::starting_at(Platform::Gen7, AsmOptions::CHECKED, 40, 2);
    assert!(a.append(other_platform).is_err());
    assert!(a.append(Assembler::starting_at(p, AsmOptions::CHECKED, 40, 2)).is_ok());
    assert_eq!(a.count(), 1);
    // Inside a line: an unfinished statement that began mid-line.
    let mut a = Assembler::new(p, AsmOptions::CHECKED);
    let used = a.feed("nop; mov(8) g3<1>F\n", false, |_, _| {});
    assert_eq!(used, 0);
    assert!(a.append(Assembler::starting_at(p, AsmOptions::CHECKED, 0, 1)).is_err());
}

/// A broken statement that began mid-line used to recover differently
/// when parsing resumed at it (a later piece or part) than in the whole
/// text: recovery looked at the line of the token read before the
/// statement, which a resumed parser does not know. In `nop; 5 L:` the
/// `L:` is skipped as part of the broken statement `5 L:` either way, so
/// the jump to `L` is an unknown label however the text is cut.
#[test]
fn recovery_of_a_statement_begun_mid_line_does_not_depend_on_the_cut() {
    let p = Platform::Gen8;
    let text = "nop;\nnop; 5 L:\nmov(8) g1<1>F g2<8,8,1>F { align1 1Q };\nif(8) JIP: L { align1 1Q };\n";
    let whole = assemble_listing(p, text, AsmOptions::CHECKED).unwrap_err();
    assert!(
        whole
            .0
            .iter()
            .any(|e| matches!(e.kind, geneu::text::AsmErrorKind::UnknownLabel(_))),
        "{whole}"
    );
    let cut = text.find("mov").unwrap();
    for size in 1..text.len() {
        assert_eq!(
            check::assemble_in_pieces(p, text, size, AsmOptions::CHECKED),
            Err(whole.clone()),
            "{size}"
        );
    }
    let (got, _) = check::assemble_in_parts(p, text, &[cut], AsmOptions::CHECKED, true);
    assert_eq!(got, Err(whole));
}
