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

/// Assembles `text` in parts cut at `cuts` (line starts), each by its own
/// [`Assembler::starting_at`] the cut (on its true line, or on line 1 when
/// `count_lines` is off), and joins them in order with
/// [`Assembler::append`]; from the first part that cannot be joined (the
/// one before did not end at the cut), the rest is fed to the joined
/// assembler. Gives the result and how many parts were joined.
fn in_parts(
    p: Platform,
    text: &str,
    cuts: &[usize],
    opts: AsmOptions,
    count_lines: bool,
) -> (Result<Vec<Assembled>, AsmErrors>, usize) {
    let mut bounds = vec![0];
    bounds.extend_from_slice(cuts);
    bounds.push(text.len());
    let mut parts = Vec::new();
    for w in bounds.windows(2) {
        let (start, end) = (w[0], w[1]);
        let line = if count_lines {
            1 + text[..start].matches('\n').count() as u32
        } else {
            1
        };
        let mut a = Assembler::starting_at(p, opts, start as u64, line);
        let mut records: Vec<Assembled> = Vec::new();
        let used = a.feed(&text[start..end], end == text.len(), |k, x| {
            assert_eq!(k, records.len(), "a part's instructions count from 0");
            records.push(*x);
        });
        parts.push((start, a, records, used));
    }
    let mut parts = parts.into_iter();
    let (_, mut a, mut out, mut at) = parts.next().unwrap();
    let mut joined = 0;
    for (start, b, records, used) in parts {
        if at != start {
            // The part before ended inside a statement: `append` refuses.
            let n = a.count();
            assert!(a.append(b).is_err());
            assert_eq!(a.count(), n);
            break;
        }
        assert!(a.append(b).is_ok(), "a part that began where the text before ended");
        out.extend(records);
        at = start + used;
        joined += 1;
    }
    let mut put = |k: usize, x: &Assembled| {
        if k < out.len() {
            out[k] = *x;
        } else {
            out.push(*x);
        }
    };
    if at < text.len() {
        a.feed(&text[at..], true, &mut put);
    }
    let r = a.finish(&mut put).map(|n| {
        assert_eq!(n, out.len());
        out
    });
    (r, joined)
}

/// Offsets of the line starts nearest `parts - 1` evenly spread points.
fn even_cuts(text: &str, parts: usize) -> Vec<usize> {
    (1..parts)
        .map(|k| {
            let at = text.len() / parts * k;
            text[at..].find('\n').map_or(text.len(), |i| at + i + 1)
        })
        .collect()
}

#[test]
fn parts_joined_with_append_are_the_whole() {
    let mut joined_any = 0;
    for (p, text) in corpus_texts() {
        for opts in [AsmOptions::CHECKED, AsmOptions::UNCHECKED] {
            let whole = assemble_listing(p, &text, opts);
            for parts in [2, 3, 5, 16] {
                let cuts = even_cuts(&text, parts);
                let (got, joined) = in_parts(p, &text, &cuts, opts, true);
                assert_eq!(got, whole, "{p:?} in {parts} parts");
                joined_any += joined;
                // Parts started on line 1 are renumbered when joined:
                // the words and the errors are still the whole's.
                let (got, _) = in_parts(p, &text, &cuts, opts, false);
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
        let cuts = even_cuts(&broken, parts);
        let (got, _) = in_parts(p, &broken, &cuts, AsmOptions::CHECKED, false);
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
