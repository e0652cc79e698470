//! Round trips between the disassembler and the assembler.
//!
//! - `asm(disasm(w)) == w`: every corpus file disassembled as a program
//!   (labels included) assembles back to its words, checked and unchecked;
//!   every corpus word alone goes through
//!   [`geneu::check::text::check_asm_roundtrip`] (text fixpoint, exact word);
//!   and, as properties, so do random words and corpus words with bits
//!   flipped.
//!
//!   Words no compiler emits print text the assembler reads back too:
//!   Mesa's `*** invalid <field> value N` markers (predicate control,
//!   conditional modifier, math function, width, vertical stride, SFID)
//!   give the raw field value, `wait` takes any register, an immediate
//!   SEND payload or two-source src0 keeps src1's file and type, a SEND
//!   descriptor register may be any operand (its hidden bits come from the
//!   descriptor dword), NOP's align16 predicate sets its access mode.
//!   Bits the syntax never shows (e.g. the src1 fields of a one-source
//!   instruction) cannot survive a text round trip at all, and two limits
//!   of Mesa's syntax are exceptions: a subregister that is not a multiple
//!   of its type's size prints rounded down, and an align16 indirect
//!   operand prints without its address (`Indirect align16 address mode
//!   not supported`, which the assembler refuses); `check_asm_roundtrip`
//!   documents exactly what it requires.
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
#![cfg(feature = "check")] // the shared property checks (`geneu::check`)

use std::fs;

use geneu::check::text::check_asm_roundtrip;
use geneu::text::program::Program;
use geneu::text::{assemble_words_with, AsmOptions};
use geneu::{Platform, Word};

use crate::text_common;
use text_common::{
    check, corpus_files, corpus_words, expected_of, items, mutated_corpus_word, platform, read_words, Compare, Item,
};

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
        let words = read_words(&expected_of(&asm));
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
    assert_eq!(total, corpus_words().len());
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
    assert!(lines >= corpus_words().len(), "{lines} lines");
    assert!(
        fails.is_empty(),
        "{} of {lines} lines differ:\n{}",
        fails.len(),
        fails.join("\n")
    );
}

/// Random words on random platforms (about 1 in 200 decodes).
#[test]
fn asm_of_disasm_random_words() {
    check(|u| {
        let p = *u.choose(&Platform::ALL)?;
        check_asm_roundtrip(p, &u.arbitrary()?);
        Ok(())
    });
}

/// Corpus words (Gen8 ones also on Cherryview) with up to four bits
/// flipped: mostly decodable, and close to what compilers emit.
#[test]
fn asm_of_disasm_mutated_corpus_words() {
    check(|u| {
        let (p, w) = mutated_corpus_word(u, 4)?;
        check_asm_roundtrip(p, &w);
        Ok(())
    });
}

/// Every corpus word alone, as a one-word program (so jumps print as
/// numbers, not labels), on its platform and, for Gen8 words, on
/// Cherryview.
#[test]
fn asm_of_disasm_each_corpus_word() {
    for &(p, w) in corpus_words() {
        check_asm_roundtrip(p, &w);
        if p == Platform::Gen8 {
            check_asm_roundtrip(Platform::Chv, &w);
        }
    }
}

/// The one-word program text of `inst` and the word it assembles back to,
/// unchecked; the text must show `marker`.
fn text_and_back(p: Platform, inst: &geneu::Instruction, marker: &str) -> ([u8; 16], String, [u8; 16]) {
    let w = geneu::encode_unchecked(p, inst).unwrap();
    let text = disasm(p, [Word::from_bytes(w)]);
    assert!(text.contains(marker), "{p}: {marker:?} not in {text}");
    let back = assemble_words_with(p, &text, AsmOptions::UNCHECKED).unwrap_or_else(|e| panic!("{p}: {text}\n{e}"));
    assert_eq!(back.len(), 1, "{text}");
    (w, text, back[0])
}

/// The first instruction of `src`, assembled unchecked.
fn inst_of(p: Platform, src: &str) -> geneu::Instruction {
    geneu::text::assemble_with(p, src, AsmOptions::UNCHECKED).unwrap()[0]
}

/// Mesa prints a field value that names nothing as `*** invalid <field>
/// value N`; the assembler reads the marker back into that raw value, for
/// every field that has one.
#[test]
fn invalid_field_markers_assemble_to_the_raw_value() {
    for p in Platform::ALL {
        let mov = inst_of(p, "mov(8) g2<1>F g3<8,8,1>F { align1 1Q };");
        let mov16 = inst_of(p, "mov(8) g2<1>F g3<4>.xyzwF { align16 1Q };");
        let mut cases: Vec<(geneu::Instruction, &str)> = Vec::new();
        for pc in 14..=15 {
            cases.push((
                geneu::Instruction {
                    pred_control: pc,
                    ..mov
                },
                "invalid predicate control align1",
            ));
        }
        for pc in 8..=15 {
            cases.push((
                geneu::Instruction {
                    pred_control: pc,
                    ..mov16
                },
                "invalid predicate control align16",
            ));
        }
        for cm in 10..=15 {
            cases.push((
                geneu::Instruction {
                    cond_modifier: cm,
                    ..mov
                },
                "invalid conditional modifier",
            ));
        }
        let mut bad_v = mov;
        bad_v.src[0].region.vstride = 11;
        cases.push((bad_v, "invalid vert stride value 11"));
        let mut bad_w = mov;
        bad_w.src[0].region.width = 6;
        cases.push((bad_w, "invalid width value 6"));
        let mut bad_v16 = mov16;
        bad_v16.src[0].region.vstride = 12;
        cases.push((bad_v16, "invalid vert stride value 12"));
        let math = inst_of(p, "math inv(8) g2<1>F g3<8,8,1>F null<8,8,1>F { align1 1Q };");
        cases.push((
            geneu::Instruction {
                cond_modifier: 0,
                ..math
            },
            "math *** invalid function value 0",
        ));
        let send = inst_of(
            p,
            "send(8) g2<1>UW g3<8,8,1>UD 0x02427001 sampler MsgDesc: ld SIMD8 Surface = 1 Sampler = 0 mlen 1 rlen 4 { align1 1Q };",
        );
        cases.push((
            geneu::Instruction {
                cond_modifier: 14,
                ..send
            },
            "*** invalid SFID value 14",
        ));
        for (inst, marker) in cases {
            let (w, text, back) = text_and_back(p, &inst, marker);
            assert_eq!(back, w, "{p}: {text}");
            check_asm_roundtrip(p, &w);
        }
    }
}

/// A marker names its field: another field's marker, or a value that does
/// not fit the field, is an error.
#[test]
fn invalid_field_markers_are_checked() {
    let p = Platform::Gen8;
    for bad in [
        "(+f0.0*** invalid conditional modifier value 14 ) mov(8) g2<1>F g3<8,8,1>F { align1 1Q };",
        "(+f0.0*** invalid predicate control align1 value 16 ) mov(8) g2<1>F g3<8,8,1>F { align1 1Q };",
        "mov*** invalid width value 10 .f0.0(8) g2<1>F g3<8,8,1>F { align1 1Q };",
        "mov(8) g2<1>F g3<8,*** invalid vert stride value 3 ,1>F { align1 1Q };",
        "mov(8) g2<1>F g3<** invalid vert stride value 3 ,8,1>F { align1 1Q };",
    ] {
        assert!(assemble_words_with(p, bad, AsmOptions::UNCHECKED).is_err(), "{bad}");
    }
}

/// WAIT on a register other than `nN` (which a decoded word may hold)
/// assembles back to that word.
#[test]
fn wait_on_any_register_round_trips() {
    for p in Platform::ALL {
        let wait = inst_of(p, "wait(1) n0<1>UD { align1 WE_all 1N };");
        let other = inst_of(p, "mov(8) g124<2>UW g3<8,8,1>UW { align1 1Q };");
        let mut i = wait;
        i.dst = other.dst;
        i.src[0] = geneu::Src {
            file: other.dst.file,
            ty: other.dst.ty,
            addr: other.dst.addr,
            ..geneu::Src::ZERO
        };
        i.src[0].region = wait.src[0].region;
        let (w, text, back) = text_and_back(p, &i, "g124<2>UW");
        assert_eq!(back, w, "{p}: {text}");
    }
}

fn word(hex: &str) -> [u8; 16] {
    let v: Vec<u8> = hex
        .split_whitespace()
        .map(|b| u8::from_str_radix(b, 16).unwrap())
        .collect();
    v.try_into().unwrap()
}

/// Words (found by the properties) of every form the assembler once
/// refused or changed: each goes through [`check_asm_roundtrip`]. (Words
/// with two immediate sources no longer decode on any platform; see
/// `tests/fidelity_codec.rs`, class 6.)
#[test]
fn unusual_words_round_trip() {
    use Platform::*;
    let cases: &[(Platform, &str, &str)] = &[
        (
            Gen75,
            "32 00 80 05 e8 07 00 20 c0 4e 8d 00 06 10 0b 94",
            "SENDC, immediate payload, register src1",
        ),
        (
            Chv,
            "31 00 60 00 28 4f c0 27 00 00 00 00 00 00 f1 bf",
            "SEND, 64-bit immediate payload",
        ),
        (
            Gen7,
            "31 01 60 02 fd 07 cf 23 44 0e 6e 00 0d 81 18 04",
            "align16 SEND, immediate payload",
        ),
        (
            Gen75,
            "11 01 67 20 e5 10 45 28 00 00 00 00 ff bf ff ff",
            "two-source, immediate src0",
        ),
        (
            Gen8,
            "31 00 64 02 48 02 40 22 40 07 8d 02 0b ab 42 02",
            "SEND, indirect GRF descriptor",
        ),
        (
            Gen75,
            "31 01 60 06 3c 04 4f 20 44 0a 6e 00 89 40 09 04",
            "SEND, negated descriptor register",
        ),
        (
            Gen75,
            "31 00 60 02 29 06 40 20 20 03 8d 00 00 70 42 28",
            "SEND, -(abs) descriptor register",
        ),
        (
            Chv,
            "31 00 60 06 a0 3a 08 20 c0 08 8d 02 95 00 0a 0c",
            "SEND, misaligned descriptor subregister",
        ),
        (
            Gen7,
            "31 00 62 02 29 00 40 22 40 02 8d 00 09 03 4b 0c",
            "SEND, ARF descriptor with a byte remainder",
        ),
        (
            Gen7,
            "00 01 62 00 21 04 21 a3 e5 02 65 00 e0 02 60 00",
            "align16 ILLEGAL",
        ),
        (
            Gen8,
            "21 01 60 06 e0 00 00 20 01 05 8d 06 f7 81 08 08",
            "Gen8 align16 BRD",
        ),
        (
            Gen7,
            "21 01 60 06 bc 4f 0f 22 24 0e 6e 00 00 44 09 0e",
            "Gen7 align16 BRD",
        ),
        (
            Gen75,
            "5b 01 60 10 60 00 3e 02 c8 61 00 39 0a 04 80 03",
            "3-source dword destination subregister",
        ),
        (
            Gen75,
            "0a 00 80 00 84 1c 20 00 00 00 8d 00 02 00 02 00",
            "DIM on a register",
        ),
        (
            Gen8,
            "31 00 60 02 48 02 c0 22 61 0f 8d 06 0c 2c 42 02",
            "misaligned src0 subregister",
        ),
        (
            Chv,
            "01 00 60 00 08 0e 62 20 00 00 00 08 00 00 00 00",
            "misaligned destination subregister",
        ),
        (
            Gen8,
            "31 00 60 06 08 02 c0 a2 e0 05 8d 06 10 05 48 02",
            "misaligned indirect destination subregister",
        ),
        (
            Gen75,
            "31 01 60 02 a5 0f af 20 44 8e 6e 00 02 a2 10 02",
            "align16 indirect source",
        ),
        (
            Chv,
            "7e 15 03 ca 60 46 7c 84 d4 8c 55 f0 65 ec 90 71",
            "NOP with an align16 predicate",
        ),
        (
            Gen8,
            "7e 23 7d cd 41 57 52 65 b8 c6 b0 38 b2 71 82 1b",
            "NOP with an invalid align16 predicate",
        ),
        (
            Chv,
            "04 6f 32 d5 88 5e 6f 6f da 4a 57 50 60 b3 fa f4",
            "align16 one-source HF immediate",
        ),
        (
            Chv,
            "44 2b 02 65 0d 4f 18 62 12 7e 0e 86 3e e4 fa 4b",
            "align16 one-source 64-bit immediate",
        ),
        (
            Gen75,
            "0a 8a 69 76 f5 57 ba 95 9e 9b 9a 00 87 1f 6e 3f",
            "DIM with low immediate bits",
        ),
        (
            Gen75,
            "31 01 64 06 25 0c ef 2d 24 0d ee 01 d3 43 18 02",
            "align16 <VxH> source",
        ),
        (
            Gen75,
            "5b 89 68 00 20 00 08 11 10 70 22 84 03 04 48 00",
            "Gen7.5 3-source flag from src1 swizzle",
        ),
        (
            Gen7,
            "5b 11 60 15 00 00 1e 07 ca 51 20 82 04 04 80 00",
            "Gen7 3-source flag from src1 swizzle",
        ),
        (
            Chv,
            "31 00 60 06 08 02 40 20 40 08 8d 00 b8 01 3a 04",
            "SEND descriptor null with hidden number bits",
        ),
        (Gen75, "0a 01 62 00 fd 77 21 22 ba 00 0a 00 ba 00 0a 00", "align16 DIM"),
    ];
    for &(p, hex, what) in cases {
        let w = word(hex);
        assert!(geneu::decode(p, &w).is_ok(), "{what}: does not decode");
        let r = std::panic::catch_unwind(|| check_asm_roundtrip(p, &w));
        assert!(r.is_ok(), "{what}: {p} {hex}");
    }
}

/// Mesa prints an align16 indirect operand as "Indirect align16 address
/// mode not supported"; geneu prints align1's form of it, with the align16
/// region and swizzle, and reads it back byte for byte.
#[test]
fn align16_indirect_operands_print_and_read_back() {
    let p = Platform::Gen75;
    let hex = "31 01 60 02 a5 0f af 20 44 8e 6e 00 02 a2 10 02";
    let text = disasm(p, [Word::from_bytes(word(hex))]);
    assert!(!text.contains("not supported"), "{text}");
    assert!(text.contains("g[a0.3 576]<4>F"), "{text}");
    assert_eq!(
        assemble_words_with(p, &text, AsmOptions::UNCHECKED).unwrap(),
        [word(hex)]
    );
    check_asm_roundtrip(p, &word(hex));
}

/// A subregister that is not a multiple of its type's size prints as the
/// quotient (`g3.0<1>UD` for byte 2), as Mesa prints it; Mesa's text alone
/// assembles as the aligned word's does, and the field annotation keeps
/// the remainder.
#[test]
fn misaligned_subregisters_keep_their_bytes() {
    let p = Platform::Gen8;
    let mov = inst_of(p, "mov(8) g3<1>UD g4<8,8,1>UD { align1 1Q };");
    for (dst_sub, src_sub, shown, note) in [
        (2u8, 0u8, "g3.0<1>UD", "[dst_da1_subreg_nr=0x2]"),
        (6, 0, "g3.1<1>UD", "[dst_da1_subreg_nr=0x6]"),
        (0, 3, "g4.0<8,8,1>UD", "[src0_da1_subreg_nr=0x3]"),
    ] {
        let mut i = mov;
        i.dst.addr = geneu::Addr::Direct { nr: 3, subnr: dst_sub };
        i.src[0].addr = geneu::Addr::Direct { nr: 4, subnr: src_sub };
        let mesa = i.display(p).without_annotation().to_string();
        assert!(mesa.contains(shown), "{mesa}");
        let mut aligned = i;
        aligned.dst.addr = geneu::Addr::Direct {
            nr: 3,
            subnr: dst_sub & !3,
        };
        aligned.src[0].addr = geneu::Addr::Direct {
            nr: 4,
            subnr: src_sub & !3,
        };
        let back = assemble_words_with(p, &mesa, AsmOptions::UNCHECKED).unwrap();
        assert_eq!(back, [geneu::encode_unchecked(p, &aligned).unwrap()], "{mesa}");
        let text = i.display(p).to_string();
        assert!(text.contains(shown) && text.contains(note), "{text}");
        let back = assemble_words_with(p, &text, AsmOptions::UNCHECKED).unwrap();
        assert_eq!(back, [geneu::encode_unchecked(p, &i).unwrap()], "{text}");
        check_asm_roundtrip(p, &geneu::encode_unchecked(p, &i).unwrap());
    }
}
