//! [`Assembler`] fed a text in pieces gives what assembling the whole text
//! gives (instructions, words, positions and every error), wherever the
//! pieces are cut, as `geneu asm` cuts a large file: after a line end,
//! a piece growing when no statement completes in it.

use geneu::text::{assemble_listing, AsmErrors, AsmOptions, Assembled, Assembler};
use geneu::Platform;

mod text_common;

/// Assembles `text` fed in pieces of about `size` bytes.
fn in_pieces(p: Platform, text: &str, size: usize, opts: AsmOptions) -> Result<Vec<Assembled>, AsmErrors> {
    let mut a = Assembler::new(p, opts);
    let mut out: Vec<Assembled> = Vec::new();
    let mut put = |k: usize, x: &Assembled| {
        if k < out.len() {
            out[k] = *x;
        } else {
            assert_eq!(k, out.len(), "instructions arrive in order");
            out.push(*x);
        }
    };
    let (mut start, mut want) = (0, size);
    loop {
        let end = (start + want).min(text.len());
        let last = end == text.len();
        let cut = if last {
            end
        } else {
            match text.as_bytes()[start..end].iter().rposition(|&b| b == b'\n') {
                Some(i) => start + i + 1,
                None => {
                    want *= 2;
                    continue;
                }
            }
        };
        let used = a.feed(&text[start..cut], last, &mut put);
        if last {
            assert_eq!(used, cut - start);
            break;
        }
        assert!(used <= cut - start);
        assert!(
            used == 0 || text.as_bytes()[start + used - 1] == b'\n',
            "pieces resume at a line start"
        );
        if used < (cut - start) / 2 {
            want *= 2;
        }
        start += used;
    }
    let n = a.finish(&mut put)?;
    assert_eq!(n, out.len());
    Ok(out)
}

fn same_in_pieces(p: Platform, text: &str, sizes: &[usize]) {
    for opts in [AsmOptions::CHECKED, AsmOptions::UNCHECKED] {
        let whole = assemble_listing(p, text, opts);
        for &size in sizes {
            assert_eq!(
                in_pieces(p, text, size, opts),
                whole,
                "pieces of {size} bytes, {opts:?}"
            );
        }
    }
}

fn corpus_texts() -> Vec<(Platform, String)> {
    let mut by_platform: Vec<(Platform, String)> = Vec::new();
    for (dir, path) in text_common::corpus_files() {
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
