//! Programs of 8- and 16-byte instructions: the stream decoder, whole
//! programs compacted and uncompacted with their branches kept, and the
//! disassembly of compacted programs.

use crate::corpus;

use geneu::compact::{compact_marked, compact_program, decode_stream, pieces, uncompact_program, Piece, ProgramError};
use geneu::text::program::{write_bytes_text, Program, TextOptions};
use geneu::*;

fn corpus_file(gen: &str, name: &str) -> Option<Vec<u8>> {
    let path = corpus::dir().join(gen).join(name);
    let text = std::fs::read_to_string(&path).ok()?;
    Some(
        text.split_whitespace()
            .map(|b| u8::from_str_radix(b, 16).unwrap())
            .collect(),
    )
}

fn text(p: Platform, bytes: &[u8]) -> String {
    let mut s = String::new();
    Program::decode(p, bytes)
        .write_text(&mut s, &TextOptions::default())
        .unwrap();
    s
}

const LABEL_FILES: [&str; 7] = ["if", "else", "endif", "while", "break", "cont", "halt"];

#[test]
fn label_files_compacted_and_uncompacted_keep_every_branch() {
    if corpus::absent() {
        return;
    }
    let mut compacted_branches = 0;
    let mut files = 0;
    for (gen, p) in [
        ("gen7", Platform::Gen7),
        ("gen7.5", Platform::Gen75),
        ("gen8", Platform::Gen8),
        ("gen8", Platform::Chv),
    ] {
        for name in LABEL_FILES {
            let Some(native) = corpus_file(gen, &format!("{name}.expected")) else {
                continue;
            };
            files += 1;
            let c = compact_program(p, &native).unwrap_or_else(|e| panic!("{p} {name}: {e}"));
            assert_eq!(c.saved_bytes, (native.len() - c.bytes.len()) as i64);
            assert_eq!(c.saved_bytes, 8 * c.compacted as i64, "{p} {name}");
            assert!(decode_stream(p, &c.bytes).all(|(_, r)| r.is_ok()), "{p} {name}");
            // Uncompacting gives the very words back: every JIP and UIP
            // lands where it did.
            let u = uncompact_program(p, &c.bytes).unwrap();
            assert_eq!(u.bytes, native, "{p} {name}: uncompact(compact(program)) differs");
            assert_eq!(u.compacted, 0);
            // The text is the same but for the `compacted` option.
            let t = text(p, &c.bytes);
            assert_eq!(t.replace(" compacted", ""), text(p, &native), "{p} {name}");
            // The streaming printer labels the mixed program alike.
            let mut streamed = String::new();
            write_bytes_text(p, &c.bytes, &mut streamed, &TextOptions::default()).unwrap();
            assert_eq!(streamed, t, "{p} {name}: write_bytes_text differs");
            compacted_branches += pieces(&c.bytes)
                .filter(|(_, piece)| matches!(piece, Piece::Compact(w) if Opcode::from_hw(p, (w.0 & 0x7f) as u8).is_some_and(Opcode::is_branch)))
                .count();
        }
    }
    assert!(files >= 12, "only {files} label files");
    eprintln!("compacted branches: {compacted_branches}");
}

/// `n` times `mov(8) g17<1>F g12<8,8,1>F`, which compacts on every platform.
fn movs(p: Platform, n: usize) -> Vec<u8> {
    let mut i = Instruction::new(Opcode::Mov, ExecSize::S8);
    i.dst = Dst::grf(17, 0, Type::F);
    i.src[0] = Src::grf(12, 0, Type::F, Region::new(8, 8, 1).unwrap());
    let w = encode_word(p, &i).unwrap();
    assert!(geneu::compact::compact_word(p, w).is_some(), "{p}");
    w.to_bytes().repeat(n)
}

fn endif(p: Platform, jip: i32) -> Vec<u8> {
    let mut i = Instruction::new(Opcode::Endif, ExecSize::S8);
    i.dst = Dst {
        ty: Type::D,
        ..Dst::null()
    };
    if p.is_gen8() {
        i.src[0] = Src::imm(Type::D);
    } else {
        i.src[0] = Src {
            ty: Type::D,
            ..Src::ZERO
        };
        i.src[1] = Src::imm(Type::D);
    }
    assert!(i.set_branch(p, jip, None));
    encode_word(p, &i).unwrap().to_bytes().to_vec()
}

#[test]
fn a_branch_between_instructions_or_outside_is_named() {
    for p in Platform::ALL {
        let unit = if p.is_gen8() { 1 } else { 8 };
        // endif jumping 8 bytes: into the middle of the next native word.
        let mut prog = endif(p, 8 / unit);
        prog.extend(movs(p, 2));
        let e = compact_program(p, &prog).unwrap_err();
        assert!(
            matches!(
                e,
                ProgramError::Target {
                    offset: 0,
                    opcode: Opcode::Endif,
                    field: "JIP",
                    ..
                }
            ),
            "{p}: {e}"
        );
        assert!(e.to_string().contains("between two instructions"), "{e}");
        // endif jumping past the end.
        let mut prog = endif(p, 64 / unit);
        prog.extend(movs(p, 1));
        let e = uncompact_program(p, &prog).unwrap_err();
        assert!(e.to_string().contains("outside the program"), "{p}: {e}");
        // endif to the end of the program is fine, and moves when the
        // movs between shrink.
        let mut prog = endif(p, 48 / unit);
        prog.extend(movs(p, 2));
        let c = compact_program(p, &prog).unwrap();
        let first = decode_stream(p, &c.bytes).next().unwrap().1.unwrap();
        let len = c.bytes.len() as i32;
        assert_eq!(first.jip(p).map(|j| j * unit), Some(len), "{p}");
        assert_eq!(uncompact_program(p, &c.bytes).unwrap().bytes, prog);
    }
}

#[test]
fn the_stream_decoder_skips_bad_words_by_their_size_and_names_a_short_tail() {
    let p = Platform::Gen8;
    let mut bytes = Vec::new();
    // A compacted word with reserved bit 28: an error 8 bytes long.
    bytes.extend_from_slice(&(0x3000_0000u64 | 0x7e).to_le_bytes());
    // A compacted nop.
    bytes.extend_from_slice(&(0x2000_0000u64 | 0x7e).to_le_bytes());
    // A native mov.
    bytes.extend(movs(p, 1));
    // Three bytes of a compacted word.
    bytes.extend_from_slice(&[0x7e, 0, 0x00, 0x20][..3]);
    let items: Vec<_> = decode_stream(p, &bytes).collect();
    let offsets: Vec<usize> = items.iter().map(|(o, _)| *o).collect();
    assert_eq!(offsets, [0, 8, 16, 32]);
    assert!(items[0].1.as_ref().unwrap_err().to_string().contains("28"));
    assert!(items[1].1.as_ref().unwrap().controls.contains(Controls::COMPACTED));
    assert_eq!(items[2].1.as_ref().unwrap().opcode, Opcode::Mov);
    let e = items[3].1.as_ref().unwrap_err();
    assert_eq!(*e, DecodeError::Truncated { need: 8, have: 3 });
    assert!(e.to_string().contains("truncated"), "{e}");
    // Five bytes whose CmptCtrl is clear: a native word cut short.
    let items: Vec<_> = decode_stream(p, &movs(p, 1)[..5]).collect();
    assert_eq!(items[0].1, Err(DecodeError::Truncated { need: 16, have: 5 }));
    // The disassembler prints the undecodable compacted word's 8 bytes.
    let t = text(p, &bytes);
    assert!(t.starts_with("// undecodable word 7e 00 00 30 00 00 00 00:"), "{t}");
    assert!(t.contains("nop"), "{t}");
}

#[test]
fn programs_that_grow_past_a_gen7_jump_range_are_refused() {
    // JIP is 16 bits of 8-byte units on Gen7: a compacted program whose
    // branch spans more than 32767 units cannot be uncompacted.
    let p = Platform::Gen7;
    let nop = (0x2000_0000u64 | 0x7e).to_le_bytes();
    let mut prog = endif(p, 0);
    let n = 20_000;
    assert!(prog.len() == 16);
    let mut i = decode(p, prog[..16].try_into().unwrap()).unwrap();
    assert!(i.set_branch(p, 2 + n, None));
    prog = encode_word(p, &i).unwrap().to_bytes().to_vec();
    for _ in 0..n {
        prog.extend_from_slice(&nop);
    }
    let e = uncompact_program(p, &prog).unwrap_err();
    assert!(
        matches!(
            e,
            ProgramError::Range {
                opcode: Opcode::Endif,
                ..
            }
        ),
        "{e}"
    );
    assert!(compact_program(p, &prog).is_ok());
}

/// A Haswell `calla` names an absolute address: a program holding one is
/// refused by name in either direction, rather than moved with a stale
/// target.
#[test]
fn calla_is_refused_by_name() {
    let p = Platform::Gen75;
    let mut calla = Instruction::new(Opcode::Calla, ExecSize::S1);
    calla.controls |= Controls::WE_ALL;
    calla.src[0] = Src::imm(Type::D);
    calla.imm = 64;
    let mut bytes = movs(p, 2);
    bytes.extend_from_slice(&encode_unchecked(p, &calla).unwrap());
    for r in [compact_program(p, &bytes), uncompact_program(p, &bytes)] {
        assert_eq!(r.unwrap_err(), ProgramError::Absolute { offset: 32 });
    }
}

/// The disassembly of a compacted program assembles to native words: the
/// `compacted` option is read and leaves CmptCtrl clear, so the words are
/// the uncompacted program's, and compacting them gives the program back.
/// The instructions keep the mark, as decoding gives them.
#[test]
fn compacted_text_assembles_to_native_words() {
    let p = Platform::Gen8;
    let native = movs(p, 3);
    let small = compact_program(p, &native).unwrap();
    assert_eq!(small.compacted, 3);
    let t = text(p, &small.bytes);
    assert_eq!(t.matches(" compacted").count(), 3, "{t}");
    let words = geneu::text::assemble_words(p, &t).unwrap();
    let bytes: Vec<u8> = words.concat();
    assert_eq!(bytes, native);
    assert!(words.iter().all(|w| w[3] & 0x20 == 0));
    assert_eq!(compact_program(p, &bytes).unwrap().bytes, small.bytes);
    let decoded: Vec<Instruction> = decode_stream(p, &small.bytes).map(|(_, r)| r.unwrap()).collect();
    assert_eq!(geneu::text::assemble(p, &t).unwrap(), decoded);
}

/// A program that compacts only some of the instructions that could be
/// (as a compiler may choose) survives disassembly and reassembly byte for
/// byte: the text marks the compacted ones, the assembler keeps the mark
/// on the instruction (`Controls::COMPACTED`) with the native word, and
/// `compact_marked` compacts exactly those. Every corpus program, with
/// every second compactable instruction left native, on every platform.
#[test]
fn mixed_programs_assemble_back_to_their_bytes() {
    if corpus::absent() {
        return;
    }
    let mut mixed = 0;
    for (gen, p) in [
        ("gen7", Platform::Gen7),
        ("gen7.5", Platform::Gen75),
        ("gen8", Platform::Gen8),
        ("gen8", Platform::Chv),
    ] {
        let dir = corpus::dir().join(gen);
        let mut names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .filter(|n| n.ends_with(".expected"))
            .collect();
        names.sort();
        for name in names {
            let native = corpus_file(gen, &name).unwrap();
            let all = compact_program(p, &native).unwrap_or_else(|e| panic!("{p} {name}: {e}"));
            // Leave every second instruction that compacts native.
            let mut seen = 0;
            let marks: Vec<bool> = pieces(&all.bytes)
                .map(|(_, piece)| {
                    let c = matches!(piece, Piece::Compact(_));
                    seen += usize::from(c);
                    c && seen % 2 == 1
                })
                .collect();
            let program = compact_marked(p, &native, &marks).unwrap_or_else(|e| panic!("{p} {name}: {e}"));
            assert_eq!(program.compacted, marks.iter().filter(|&&m| m).count(), "{p} {name}");
            mixed += usize::from(program.compacted > 0 && program.compacted < all.compacted);
            let t = text(p, &program.bytes);
            let listing = geneu::text::assemble_listing(p, &t, geneu::text::AsmOptions::UNCHECKED)
                .unwrap_or_else(|e| panic!("{p} {name}: {e}\n{t}"));
            let again: Vec<bool> = listing
                .iter()
                .map(|a| a.inst.controls.contains(Controls::COMPACTED))
                .collect();
            assert_eq!(again, marks, "{p} {name}: the marks");
            assert!(
                listing.iter().all(|a| a.word[3] & 0x20 == 0),
                "{p} {name}: native words"
            );
            let words: Vec<u8> = listing.iter().flat_map(|a| a.word).collect();
            let back = compact_marked(p, &words, &again).unwrap_or_else(|e| panic!("{p} {name}: {e}"));
            assert_eq!(back.bytes, program.bytes, "{p} {name}\n{t}");
        }
    }
    assert!(mixed > 10, "mixed programs: {mixed}");
}

/// `compact_marked` refuses, by offset, an instruction marked compacted
/// that has no 8-byte form; a missing mark is `false`.
#[test]
fn a_marked_instruction_that_cannot_compact_is_named() {
    let p = Platform::Gen8;
    let text = "mov(8) g17<1>F g12<8,8,1>F { align1 1Q };\n\
                send(8) g9<1>UD g2<8,8,1>UD 0x02280300\n    const MsgDesc: (0, 3, 0, 0) mlen 1 rlen 2 { align1 WE_all 1Q };\n";
    let bytes: Vec<u8> = geneu::text::assemble_words(p, text).unwrap().concat();
    assert_eq!(
        compact_marked(p, &bytes, &[true, true]).unwrap_err(),
        ProgramError::NotCompactable {
            offset: 16,
            opcode: Opcode::Send
        }
    );
    let r = compact_marked(p, &bytes, &[true]).unwrap();
    assert_eq!((r.compacted, r.bytes.len()), (1, 24));
}

/// A `jmpi` whose distance is a register value lands where no one can
/// tell before it runs: a program holding one is refused by name, in
/// either direction, on every platform.
#[test]
fn register_jmpi_is_refused_by_name() {
    for p in Platform::ALL {
        let text = "jmpi(1) g12<0,1,0>D { align1 WE_all };\n";
        let words = geneu::text::assemble_words_with(p, text, geneu::text::AsmOptions::UNCHECKED).unwrap();
        let mut bytes = movs(p, 1);
        bytes.extend(words.iter().flatten());
        for r in [compact_program(p, &bytes), uncompact_program(p, &bytes)] {
            assert_eq!(
                r.unwrap_err(),
                ProgramError::Indirect {
                    offset: 16,
                    opcode: Opcode::Jmpi
                },
                "{p}"
            );
        }
    }
}
