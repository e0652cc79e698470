//! The IGA-syntax reader against Intel's assembler: every instruction line
//! of `../shared/corpus/iga/<gen>/<name>.iga` (`iga64 -d`'s text of the
//! Mesa words, see its README) assembled by geneu must give the bytes
//! `iga64 -a` gave for it (`.iga.expected`); and the annotated IGA text
//! of every Mesa corpus word must give back that word (lossless).

use crate::corpus;

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

/// Bytes from a hex line as `iga64 -a` writes them.
fn iga64(hex: &str) -> [u8; 16] {
    hex_line(hex).unwrap()
}

fn one(p: Platform, text: &str) -> [u8; 16] {
    let w = assemble_iga_words(p, text, AsmOptions::UNCHECKED).unwrap_or_else(|e| panic!("{text}: {e}"));
    assert_eq!(w.len(), 1, "{text}");
    w[0]
}

/// What users write by hand, as IGA's parser reads it, against the bytes
/// `iga64 -a` gave for the printed form (corpus `gen8/add.iga.expected`,
/// `gen8/cmp.iga.expected`).
#[test]
fn hand_written_forms_read_as_iga_reads_them() {
    let p = Platform::Gen8;
    let add = iga64("40 00 60 00 e8 0a 80 2f e0 00 8d 0e 01 00 00 00");
    for text in [
        "add (8|M0)               r124.0<1>:f   r7.0<8;8,1>:d     1:d",
        // No channel offset: M0. No destination region: <1>.
        "add (8) r124.0:f r7.0<8;8,1>:d 1:d",
        // IGA's alternative type names, a hex immediate, spacing, comments.
        "  add (8|M0) r124<1>:f32 r7<8;8,1>:s32 0x1:s32 // one\n",
        "/* block\n comment */ add (8|M0) r124.0<1>:f r7.0<8;8,1>:d /* here */ 1:d",
        // Labels before the instruction, on its line or the one before.
        "start: add (8|M0) r124.0<1>:f r7.0<8;8,1>:d 1:d",
        "start:\n  add (8|M0) r124.0<1>:f r7.0<8;8,1>:d 1:d",
    ] {
        assert_eq!(one(p, text), add, "{text}");
    }
    // IGA's indirect forms with `+`/`-` (iga64's `r[a0.0,96]`).
    let ind = one(p, "(W)     mov (1|M0)               r5.0<1>:d     r[a0.0,96]<0;1,0>:d");
    assert_eq!(one(p, "(W) mov (1|M0) r5.0<1>:d r[a0.0 + 96]<0;1,0>:d"), ind);
    let neg = one(p, "(W) mov (1|M0) r5.0<1>:d r[a0.0,-96]<0;1,0>:d");
    assert_eq!(one(p, "(W) mov (1|M0) r5.0<1>:d r[a0.0 - 96]<0;1,0>:d"), neg);
    assert_ne!(ind, neg);
    // IGA's legacy flag-modifier names.
    let cmp = "cmp (16|M0)   (eq)f0.0   null<1>:d     r2.0<8;8,1>:d     0:d               {Switch}";
    let legacy = "cmp (16|M0) (z)f0.0 null<1>:d r2.0<8;8,1>:d 0:d {Switch}";
    assert_eq!(one(p, cmp), one(p, legacy));
    let ze = "cmp (16|M0) (ze)f0.0 null<1>:d r2.0<8;8,1>:d 0:d {Switch}";
    assert_eq!(one(p, cmp), one(p, ze));
}

/// User labels, IGA's offset labels and byte offsets give the same jumps
/// (corpus `gen8/if.iga`: `iga64 -a`'s bytes for its first two lines).
#[test]
fn labels_and_offsets() {
    let p = Platform::Gen8;
    let first = iga64("22 00 61 00 00 0e 00 20 50 00 00 00 20 00 00 00");
    let second = iga64("22 00 71 00 00 0e 00 20 40 00 00 00 10 00 00 00");
    let iga_text =
        "L0:\n(f0.0)  if (8|M0)  L32  L80\nL16:\n(~f0.0) if (8|M0)  L32  L80\nL32:\n nop\n nop\n nop\nL80:\n nop\n";
    let user = "(f0.0)  if (8|M0)  else_part  done\n(~f0.0) if (8|M0) else_part done\nelse_part:\n nop\n nop\n nop\ndone: nop\n";
    let bytes = "(f0.0)  if (8|M0)  32  80\n(~f0.0) if (8|M0) 16 64\n nop\n nop\n nop\n nop\n";
    for text in [iga_text, user, bytes] {
        let w = assemble_iga_words(p, text, AsmOptions::UNCHECKED).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(w.len(), 6, "{text}");
        assert_eq!((w[0], w[1]), (first, second), "{text}");
    }
}

/// A type after a branch's jump (`32:d`, `L32:w`): IGA's parser reads it
/// and leaves it out, the operand's type being implicit
/// (`KernelParser::ParseSrcOpTypeWithoutDefault`,
/// `OpSpec::implicitSrcTypeVal`): the bytes `iga64 -a` gave for the
/// untyped lines (corpus `gen8/if.iga`).
#[test]
fn typed_branch_offsets() {
    let p = Platform::Gen8;
    let first = iga64("22 00 61 00 00 0e 00 20 50 00 00 00 20 00 00 00");
    let second = iga64("22 00 71 00 00 0e 00 20 40 00 00 00 10 00 00 00");
    for text in [
        "(f0.0) if (8|M0) 32:d 80:d\n(~f0.0) if (8|M0) 16:d 64:d\n",
        "(f0.0) if (8|M0) L32:d L80:d\n(~f0.0) if (8|M0) L32:ud L80:w\n",
        "(f0.0) if (8|M0) (2*16):s32 80:u16\n(~f0.0) if (8|M0) 16:w (-(-64)):b\n",
    ] {
        let w = assemble_iga_words(p, text, AsmOptions::UNCHECKED).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!((w[0], w[1]), (first, second), "{text}");
    }
    // One-jump branches too.
    let endif = one(p, "endif (8|M0) L16");
    assert_eq!(one(p, "endif (8|M0) L16:d"), endif);
    assert_eq!(one(p, "endif (8|M0) 16:ud"), endif);
}

/// Errors carry the line and column of what is wrong.
#[test]
fn errors_have_lines_and_columns() {
    let p = Platform::Gen8;
    let cases: [(&str, (u32, u32), &str); 7] = [
        ("add (8|M0) r1.0<1>:f r2.0<8;8,1>:zz 1:f", (1, 34), "unexpected_token"),
        ("nop\n  frob (8|M0) r1:f", (2, 3), "unknown_opcode"),
        ("  add (6|M0) r1.0<1>:f r2.0<8;8,1>:f 1:f", (1, 8), "bad_exec_size"),
        ("(f0.0) if (8|M0) nowhere nowhere", (1, 18), "unknown_label"),
        ("a: nop\n a: nop", (2, 2), "duplicate_label"),
        ("nop /* open", (1, 5), "unterminated_comment"),
        (
            "(f0.0) add (8|M0) (eq)f0.1 r1.0<1>:f r2.0<8;8,1>:f 1.0:f",
            (1, 23),
            "flag_mismatch",
        ),
    ];
    for (text, (line, column), kind) in cases {
        let e = assemble_iga(p, text, AsmOptions::UNCHECKED).unwrap_err();
        let e = &e.0[0];
        assert_eq!((e.line, e.column, e.kind.kind()), (line, column, kind), "{text}: {e}");
    }
}

/// `{Serialize}`: IGA's parser takes it, and its encoder writes it
/// (FusionCtrl) only from Gen12 on (`Encoder::encodeSendInstruction`):
/// the same bytes as without.
#[test]
fn serialize_option_has_no_bit() {
    for p in [Platform::Gen75, Platform::Gen8] {
        let send = "send (8|M0) null:f r123:f 0x26 0x0A080017 {EOT}";
        let plain = one(p, send);
        assert_eq!(
            one(p, "send (8|M0) null:f r123:f 0x26 0x0A080017 {EOT,Serialize}"),
            plain
        );
        let add = "add (8|M0) r124.0<1>:f r7.0<8;8,1>:d 1:d";
        assert_eq!(one(p, &format!("{add} {{Serialize}}")), one(p, add));
    }
}

/// `{Compacted}` marks the instruction; its word stays the native one.
#[test]
fn compacted_option() {
    let p = Platform::Gen8;
    let plain = "add (8|M0) r124.0<1>:f r7.0<8;8,1>:d 1:d";
    let a = assemble_iga(p, &format!("{plain} {{Compacted}}"), AsmOptions::UNCHECKED).unwrap();
    assert!(a[0].inst.controls.contains(geneu::Controls::COMPACTED));
    assert_eq!(a[0].word, one(p, plain));
}

/// Lossless beyond the corpus: words from a random walk (a few bits
/// flipped at a time, from an instruction of each form) that decode are
/// printed in IGA's syntax with their annotation and read back; the
/// bytes must be the word's own.
#[test]
fn random_words_read_back_from_annotated_iga_text() {
    use geneu::codec::{decode_word, encode_word};
    use geneu::{ExecSize, Instruction, Opcode, Word};
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let mut failures = Vec::new();
    let mut n = 0;
    for p in [Platform::Gen8, Platform::Gen75, Platform::Gen7] {
        for op in [
            Opcode::Add,
            Opcode::Mov,
            Opcode::Send,
            Opcode::Mad,
            Opcode::If,
            Opcode::Math,
            Opcode::Wait,
            Opcode::Jmpi,
            Opcode::Brd,
            Opcode::Brc,
        ] {
            let Ok(mut at) = encode_word(p, &Instruction::new(op, ExecSize::S8)) else {
                continue;
            };
            for _ in 0..5_000 {
                let mut w = at.0;
                for _ in 0..1 + next() % 3 {
                    w ^= 1 << (next() % 128);
                }
                let Ok(i) = decode_word(p, Word(w)) else { continue };
                at = Word(w);
                // A 16-byte word with CmptCtrl set reads as one marked
                // for compaction, whose word is the native one (as in
                // Mesa's syntax).
                if i.controls.contains(geneu::Controls::COMPACTED) {
                    continue;
                }
                let Ok(back) = encode_word(p, &i) else { continue };
                n += 1;
                let t = IgaDisasm::new(p, &i).to_text();
                let got = assemble_iga_words(p, &t, AsmOptions::UNCHECKED);
                match got {
                    Ok(v) if v.len() == 1 && v[0] == back.to_bytes() => {}
                    Ok(v) => failures.push(format!(
                        "{p:?} {t}\n   word:  {}\n   geneu: {}",
                        hex(&back.to_bytes()),
                        v.first().map(hex).unwrap_or_default()
                    )),
                    Err(e) => failures.push(format!("{p:?} {t}\n   {e}")),
                }
            }
        }
    }
    let k = failures.len();
    // One example of each kind of failure first.
    failures.sort_by_key(|f| f.lines().nth(1).map(|l| l.get(..30).unwrap_or(l).to_owned()));
    failures.dedup_by_key(|f| f.lines().nth(1).map(|l| l.get(..30).unwrap_or(l).to_owned()));
    failures.truncate(30);
    assert!(k == 0, "{k} of {n} words:\n{}", failures.join("\n"));
}

/// Issue #28's Broadwell `brd(8)` whose src0 (bits 42:41 = 1, the GRF)
/// holds its jump offset: IGA reads `brd (8|M0) r11.1:ud`.
const BDW_BRD_REG: &str = "21 00 60 00 40 02 00 20 64 01 00 06 00 00 00 00";
/// Issue #28's Broadwell `brc(16)` with a GRF src0: IGA reads `r11.0:ud`
/// (and prints the `null` src1 its decoder adds).
const BDW_BRC_REG: &str = "23 00 80 00 40 02 00 20 60 01 8d 06 00 00 00 00";

/// src0's register file (bits 42:41), register number (bits 76:69) and
/// byte subregister (bits 68:64) of a Gen8 align1 direct source, read
/// from the bytes by hand.
fn gen8_src0(w: &[u8; 16]) -> (u8, u8, u8) {
    let q = u128::from_le_bytes(*w);
    (
        ((q >> 41) & 3) as u8,
        ((q >> 69) & 0xff) as u8,
        ((q >> 64) & 0x1f) as u8,
    )
}

/// Collapses runs of spaces (IGA's column padding).
fn squeeze(t: &str) -> String {
    t.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// brd/brc with their offsets in a register, both ways: the words print
/// IGA's forms (`Formatter::formatSrcOp` of `JUMP_UNARY_REGIMM` and
/// `JUMP_BINARY_BRC`: no destination, the register without region, the
/// type where it is not `:d`, brc's `null`), the annotated text gives the
/// words back, and the text written by hand reads the register the words
/// hold (checked on the bytes).
#[test]
fn brd_brc_register_forms_both_ways() {
    for p in [Platform::Gen8, Platform::Chv] {
        for (hex, plain, op) in [
            (BDW_BRD_REG, "brd (8|M0) r11.1:ud", geneu::Opcode::Brd),
            (BDW_BRC_REG, "brc (16|M0) r11.0:ud null", geneu::Opcode::Brc),
        ] {
            let w = iga64(hex);
            let i = codec::decode(p, &w).unwrap();
            assert_eq!(i.opcode, op);
            assert!(i.offsets_from_register(), "{p}");
            let t = IgaDisasm::new(p, &i).without_annotation().to_text();
            assert_eq!(squeeze(&t), plain, "{p}");
            // Word → annotated text → the same word.
            let annotated = IgaDisasm::new(p, &i).to_text();
            assert_eq!(one(p, &annotated), w, "{p}: {annotated}");
            // Text → a word whose src0 is GRF 11, subregister 1 dword (brd)
            // or 0 (brc), and which prints the same text again.
            let hand = one(p, plain);
            let sub = if op == geneu::Opcode::Brd { 4 } else { 0 };
            assert_eq!(gen8_src0(&hand), (1, 11, sub), "{p}: {plain}");
            let back = codec::decode(p, &hand).unwrap();
            assert!(back.offsets_from_register());
            assert_eq!(squeeze(&IgaDisasm::new(p, &back).to_text()), plain, "{p}");
            // The annotation holds the rest of the example word.
            assert_eq!(gen8_src0(&w), gen8_src0(&hand));
        }
        // brc's `null` may be left out (IGA's parser adds it); `:d` is the
        // type IGA leaves unprinted.
        assert_eq!(one(p, "brc (16|M0) r11.0:ud"), one(p, "brc (16|M0) r11.0:ud null:ud"));
        let d = one(p, "brd (8|M0) r11.1");
        assert_eq!(d, one(p, "brd (8|M0) r11.1:d"));
        assert_eq!(gen8_src0(&d), (1, 11, 4));
        let i = codec::decode(p, &d).unwrap();
        assert_eq!(i.src[0].ty, geneu::Type::D);
        assert!(squeeze(&IgaDisasm::new(p, &i).to_text()).ends_with("r11.1"), "{p}");
    }
}

/// brd/brc with their offsets in the word: JIP (brc: and UIP) as labels,
/// as IGA prints them, or byte offsets, on Broadwell (bytes, in DW3 and
/// DW2) and Haswell (8-byte units, 16 bits each in DW3), checked on the
/// bytes; the labels carry src0's immediate type where it is not `:d`.
#[test]
fn brd_brc_immediate_forms_are_labels() {
    let dw = |w: &[u8; 16], k: usize| u32::from_le_bytes([w[4 * k], w[4 * k + 1], w[4 * k + 2], w[4 * k + 3]]);
    let p = Platform::Gen8;
    let prog = "brd (8|M0) L32\nbrc (8|M0) L48 L_N16\nnop\nnop\n";
    let w = assemble_iga_words(p, prog, AsmOptions::UNCHECKED).unwrap();
    // Bits 42:41: src0 is an immediate; the jumps in bytes.
    assert_eq!(gen8_src0(&w[0]).0, 3);
    assert_eq!(dw(&w[0], 3), 32);
    assert_eq!((dw(&w[1], 3), dw(&w[1], 2)), (32, (-32i32) as u32));
    // Jumps are constant expressions, as in IGA's parser, so a negative
    // second offset is parenthesised (`32 -32` reads as one jump of 0).
    assert_eq!(
        w,
        assemble_iga_words(
            p,
            "brd (8|M0) 32\nbrc (8|M0) 32 (-32)\nnop\nnop\n",
            AsmOptions::UNCHECKED
        )
        .unwrap()
    );
    let mut bytes = Vec::new();
    for x in &w {
        bytes.extend_from_slice(x);
    }
    let mut text = String::new();
    geneu::text::iga::write_program(&mut text, p, &bytes, true).unwrap();
    assert!(text.contains("brd (8|M0)"), "{text}");
    let lines: Vec<String> = text.lines().map(squeeze).collect();
    assert!(lines.contains(&"brd (8|M0) L32".to_owned()), "{text}");
    assert!(lines.contains(&"brc (8|M0) L48 L_N16".to_owned()), "{text}");
    assert_eq!(assemble_iga_words(p, &text, AsmOptions::UNCHECKED).unwrap(), w);
    // Haswell: IGA's encoder types the jumps :w, which its text shows.
    let p = Platform::Gen75;
    let w = assemble_iga_words(
        p,
        "brd (8|M0) L32:w\nbrc (8|M0) L16:w L48:w\nnop\nnop\n",
        AsmOptions::UNCHECKED,
    )
    .unwrap();
    // DW3: JIP in the low half (bits 111:96), UIP in the high half, in
    // 8-byte units.
    assert_eq!(dw(&w[0], 3), 4);
    assert_eq!(dw(&w[1], 3), 4 << 16);
    let i = codec::decode(p, &w[1]).unwrap();
    assert_eq!((i.jip(p), i.uip(p)), (Some(0), Some(4)));
    let t = squeeze(&IgaDisasm::new(p, &i).at(16).to_text());
    assert_eq!(t, "brc (8|M0) L16:w L48:w");
    // The two labels of brc have src0's one type.
    assert!(assemble_iga_words(p, "brc (8|M0) L16:w L48:d\nnop\nnop\n", AsmOptions::UNCHECKED).is_err());
}

/// DW3 of a word: the immediate (src1's, or a branch's JIP on Haswell).
fn dw3(w: &[u8; 16]) -> u32 {
    u32::from_le_bytes([w[12], w[13], w[14], w[15]])
}

/// `jmpi` as IGA's parser reads it (`KernelParser`, `JUMP_UNARY_REGIMM`):
/// a label, a user label, or a byte offset counted from the jmpi (a
/// constant expression, `:d` or no type), with or without `(W)` (IGA
/// adds it): one word, whose src1 holds the jump from
/// the next instruction in bytes (on Haswell too: IGA keeps only JIP and
/// UIP in 8-byte units there, `Encoder::arePcsInQWords`),
/// typed `:d`, NoMask, SIMD1. The builder's `jmpi` to the same place
/// gives the same jump.
#[test]
fn jmpi_labels_and_offsets() {
    for p in [Platform::Gen75, Platform::Gen8] {
        let spelled = "(W) jmpi (1|M0) L48\nnop\nnop\nL48:\nnop\n";
        let want = assemble_iga_words(p, spelled, AsmOptions::UNCHECKED).unwrap();
        assert_eq!(want.len(), 4);
        for text in [
            "(W) jmpi (1|M0) done\nnop\nnop\ndone: nop\n",
            // An offset label not defined: IGA's name of byte 48.
            "(W) jmpi (1|M0) L48\nnop\nnop\nnop\n",
            "(W) jmpi (1|M0) 48\nnop\nnop\nnop\n",
            "(W) jmpi (1|M0) 48:d\nnop\nnop\nnop\n",
            "(W) jmpi (1|M0) (3*16):d\nnop\nnop\nnop\n",
            "(W) jmpi (1|M0) L48:d\nnop\nnop\nnop\n",
            // No `(W)`: IGA's parser adds it.
            "jmpi (1|M0) done\nnop\nnop\ndone: nop\n",
            "jmpi (1) 48\nnop\nnop\nnop\n",
        ] {
            let w = assemble_iga_words(p, text, AsmOptions::UNCHECKED).unwrap_or_else(|e| panic!("{p}: {text}: {e}"));
            assert_eq!(w, want, "{p}: {text}");
        }
        let i = codec::decode(p, &want[0]).unwrap();
        assert_eq!(i.opcode, geneu::Opcode::Jmpi);
        assert!(i.controls.contains(geneu::Controls::WE_ALL));
        assert_eq!(i.exec_size, geneu::ExecSize::S1);
        assert_eq!((i.src[1].is_imm(), i.src[1].ty), (true, geneu::Type::D));
        // From the next instruction: 32 bytes, in bytes on both
        // platforms (IGA's `Encoder::arePcsInQWords` is false for jmpi).
        assert_eq!(dw3(&want[0]), 32, "{p}");
        // Backwards: `L0` from the third instruction is 48 bytes back
        // from the next one.
        let back = assemble_iga_words(p, "nop\nnop\n(W) jmpi (1|M0) L0\n", AsmOptions::UNCHECKED).unwrap();
        assert_eq!(dw3(&back[2]) as i32, -48, "{p}");
        assert_eq!(
            back,
            assemble_iga_words(p, "nop\nnop\n(W) jmpi (1|M0) (-32)\n", AsmOptions::UNCHECKED).unwrap()
        );
        // The builder's jmpi to the same place: the same jump.
        let mut b = geneu::build::Builder::new(p);
        let l = b.label();
        b.jmpi(l).unwrap();
        b.nop().unwrap();
        b.nop().unwrap();
        b.bind(l).unwrap();
        b.nop().unwrap();
        let prog = b.finish().unwrap();
        let built: [u8; 16] = prog.bytes()[..16].try_into().unwrap();
        assert_eq!(dw3(&built), dw3(&want[0]), "{p}");
    }
}

/// `jmpi` prints as IGA prints it: its immediate as the label of its
/// target (`Decoder::decodeBranchInstruction` reads it as a label from
/// the jmpi; `Formatter::formatSrcOp`), with a `L<n>:` line there, and
/// the type where it is not `:d`. The builder's programs, native and
/// compacted, print so and their annotated text gives their bytes back.
#[test]
fn jmpi_prints_a_label_and_reads_back() {
    for p in [Platform::Gen7, Platform::Gen75, Platform::Gen8] {
        let mut b = geneu::build::Builder::new(p);
        let (skip, top) = (b.label(), b.label());
        b.bind(top).unwrap();
        b.jmpi(skip).unwrap();
        b.nop().unwrap();
        b.nop().unwrap();
        b.bind(skip).unwrap();
        b.jmpi(top).unwrap();
        b.nop().unwrap();
        let native = b.clone().finish().unwrap();
        let compacted = b.finish_compacted().unwrap();
        for prog in [native, compacted] {
            let mut text = String::new();
            geneu::text::iga::write_program(&mut text, p, prog.bytes(), true).unwrap();
            let lines: Vec<String> = text.lines().map(squeeze).collect();
            let len = prog.bytes().len();
            // The jmpi at 0 lands on the third instruction after it.
            let skip_at = prog.instructions().nth(3).unwrap().0;
            assert!(lines.contains(&format!("(W) jmpi (1|M0) L{skip_at}")), "{p}: {text}");
            assert!(lines.contains(&format!("L{skip_at}:")), "{p}: {text}");
            assert!(lines.contains(&"(W) jmpi (1|M0) L0".to_owned()), "{p}: {text}");
            // Read back: the same bytes (the compacted words as their
            // native forms, marked `{Compacted}`).
            let back = assemble_iga(p, &text, AsmOptions::UNCHECKED).unwrap_or_else(|e| panic!("{p}: {text}: {e}"));
            let insts: Vec<_> = back.iter().map(|a| a.inst).collect();
            let native: Vec<u8> = back.iter().flat_map(|a| a.word).collect();
            let again = geneu::compact::compact_instructions(p, &native, &insts).unwrap();
            assert_eq!(again.bytes.len(), len, "{p}: {text}");
            assert_eq!(&again.bytes[..], prog.bytes(), "{p}: {text}");
        }
    }
    // A type other than `:d` prints (IGA's `formatSourceType`), and reads
    // back (as `brd`'s and `brc`'s do; IGA's encoder writes `:d`).
    let p = Platform::Gen8;
    let w = one(p, "(W) jmpi (1|M0) L32");
    let mut ud = w;
    // src1's type field (bits 94:91 on Gen8): UD is 0.
    let q = u128::from_le_bytes(w) & !(0xf << 91);
    ud.copy_from_slice(&q.to_le_bytes());
    let i = codec::decode(p, &ud).unwrap();
    assert_eq!(i.src[1].ty, geneu::Type::UD);
    let t = IgaDisasm::new(p, &i).to_text();
    assert_eq!(squeeze(&t), "(W) jmpi (1|M0) L32:ud", "{t}");
    assert_eq!(one(p, &t), ud);
    // A jmpi without NoMask prints `(W)` (IGA's parser adds it), and its
    // annotation the mask control.
    // (Mask control: bit 34 on Gen8.)
    let q = u128::from_le_bytes(w) & !(1 << 34);
    let nomask = q.to_le_bytes();
    let i = codec::decode(p, &nomask).unwrap();
    assert!(!i.controls.contains(geneu::Controls::WE_ALL));
    let t = IgaDisasm::new(p, &i).to_text();
    assert!(squeeze(&t).starts_with("(W) jmpi (1|M0) L32 ["), "{t}");
    assert_eq!(one(p, &t), nomask);
}

/// IGA's warning for a `jmpi` without `(W)` comes with the instruction
/// as a lenient assembly's warnings do.
#[test]
fn jmpi_without_nomask_warns() {
    let p = Platform::Gen8;
    // A jmpi without `(W)`: IGA's warning.
    for opts in [AsmOptions::UNCHECKED, AsmOptions::CHECKED] {
        let a = assemble_iga(p, "jmpi (1|M0) L16\n(W) jmpi (1|M0) L32\nnop\n", opts).unwrap();
        assert!(a[0].warnings.has("iga_jmpi_nomask"), "{}", a[0].warnings);
        assert!(a[1].warnings.0.is_empty(), "{}", a[1].warnings);
        assert_eq!(a[0].word, a[1].word);
    }
}

/// Integer immediates keep the bits their type holds, as IGA's parser
/// truncates them (`KernelParser::FinishSrcOpImmValue`): the bytes
/// `iga64 -a` gave for the value in range (corpus `gen8/and.iga`); only
/// `:hf` refuses bits above its 16. No warning: IGA warns only for `:b`,
/// which has no immediate encoding.
#[test]
fn immediates_truncate_as_iga_truncates_them() {
    let p = Platform::Gen8;
    let and = iga64("05 00 80 00 48 12 a0 21 60 02 ae 16 fc ff fc ff");
    for imm in [
        "0xFFFC:uw",
        "0x1FFFC:uw",
        "0xFFFFFFFC:uw",
        "-4:uw",
        "(0xFFFC | 0x7 << 16):uw",
        "0x12345FFFC:u16",
    ] {
        let text = format!("and (16|M0) r13.0<1>:uw r19.0<16;8,2>:uw {imm}");
        assert_eq!(one(p, &text), and, "{text}");
    }
    let mov = |imm: &str| one(p, &format!("mov (8|M0) r1.0<1>:ud {imm}"));
    assert_eq!(mov("0x1FFFFFFFF:ud"), mov("0xFFFFFFFF:ud"));
    assert_eq!(mov("0x100000005:d"), mov("5:d"));
    assert_eq!(mov("0x18000:w"), mov("-32768:w"));
    assert_eq!(mov("0x1FFFFFFFF:f"), mov("0xFFFFFFFF:f"));
    assert_eq!(mov("0x1234567890:v"), mov("0x34567890:v"));
    // `:hf`: IGA's "hex literal too big for type".
    assert!(assemble_iga_words(p, "mov (8|M0) r1.0<1>:hf 0x13C00:hf", AsmOptions::UNCHECKED).is_err());
    assert!(assemble_iga_words(p, "mov (8|M0) r1.0<1>:hf -0x3C00:hf", AsmOptions::UNCHECKED).is_err());
    // No warning for a truncation IGA makes in silence.
    let a = assemble_iga(p, "mov (8|M0) r1.0<1>:ud 0x1FFFFFFFF:ud", AsmOptions::UNCHECKED).unwrap();
    assert!(a[0].warnings.0.is_empty());
}

/// `call` and `ret` print in IGA's branch forms
/// (`Decoder::decodeBranchInstruction`: a call's destination and ONE
/// source, the label of src1's immediate jump or src1's register; `ret`'s
/// src0 alone), with no source region, no destination `<1>` and no `:d`
/// (`Formatter::formatSourceRegion`, `OpSpec::implicitDstRegion`,
/// `implicitDstTypeVal`, `implicitSrcTypeVal`), an empty second source
/// column, and a label line at the call's target (counted from the
/// call). The text without annotation gives the words IGA's encoder
/// writes (`Encoder::encodeBranchingInstruction`): src1 the immediate
/// `:d`, src0 zero but for its region `<2;2,1>` (`callNeedsSrcRegion221`),
/// the destination stride 1; ret's destination `null:ud` and src0 with
/// IGA's implicit region `<2;2,1>`. The builder's calls are such words.
#[test]
fn call_and_ret_print_and_read_as_iga() {
    use geneu::build::{g, Builder};
    use geneu::{Opcode, RegFile, Type};
    let r221 = geneu::Region::new(2, 2, 1).unwrap();
    for p in [Platform::Gen7, Platform::Gen75, Platform::Gen8, Platform::Chv] {
        let mut b = Builder::new(p);
        let f = b.label();
        b.call(g(120).ud().vec1(), f).unwrap();
        b.nop().unwrap();
        b.bind(f).unwrap();
        b.ret(g(120).ud().vec1()).unwrap();
        let prog = b.finish().unwrap();
        let mut text = String::new();
        geneu::text::iga::write_program(&mut text, p, prog.bytes(), true).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let call = lines.iter().find(|l| l.contains("call")).unwrap();
        let ret = lines.iter().find(|l| l.contains("ret")).unwrap();
        // Column for column as IGA's formatter lays them out: the
        // destination and source columns (12 and 16 wide, 2 apart), the
        // label written past the column count, the empty second column.
        assert_eq!(
            *call,
            format!(
                "        call (8|M0){}r120.0:ud     L32{}",
                " ".repeat(14),
                " ".repeat(32)
            ),
            "{p}: {text}"
        );
        assert_eq!(
            *ret,
            format!("        ret (8|M0){}r120.0:ud{}", " ".repeat(27), " ".repeat(23)),
            "{p}: {text}"
        );
        assert!(lines.contains(&"L32:"), "{p}: {text}");
        // Read back without annotation: the builder's bytes.
        let back = assemble_iga_words(p, &text, AsmOptions::CHECKED).unwrap_or_else(|e| panic!("{p}: {text}: {e}"));
        let bytes: Vec<u8> = back.iter().flatten().copied().collect();
        assert_eq!(&bytes[..], prog.bytes(), "{p}: {text}");
        // IGA's encoding, field by field.
        let c = codec::decode(p, &back[0]).unwrap();
        assert_eq!(c.opcode, Opcode::Call);
        assert_eq!(
            (c.src[1].is_imm(), c.src[1].ty, c.imm as u32),
            (true, Type::D, 32 / p.jump_unit_bytes(Opcode::Call) as u32)
        );
        assert_eq!(c.src[0].region, r221, "{p}");
        assert_eq!(c.dst.hstride, 1, "{p}");
        let r = codec::decode(p, &back[2]).unwrap();
        assert_eq!(r.opcode, Opcode::Ret);
        assert_eq!((r.dst.file, r.dst.ty), (RegFile::Arf, Type::UD));
        assert_eq!(
            (r.src[0].file, r.src[0].region, r.src[0].ty),
            (RegFile::Grf, r221, Type::UD),
            "{p}"
        );
    }
}

/// What users write of `call`/`calla`/`ret` by hand, as IGA's parser
/// reads it: a label, a user label or a byte offset, a register call
/// (src1, with IGA's implicit region `<0;1,0>`), types and regions left
/// out or written; and words with fields IGA's text does not show print
/// with the annotation that gives them back.
#[test]
fn call_and_ret_hand_written_and_annotated() {
    use geneu::{Opcode, Type};
    let p = Platform::Gen8;
    let want = assemble_iga_words(
        p,
        "(W) call (1|M0) r120.0:ud L32\nnop\nret (1|M0) r120.0:ud\n",
        AsmOptions::CHECKED,
    )
    .unwrap();
    for text in [
        "(W) call (1|M0) r120.0:ud done\nnop\ndone: ret (1|M0) r120:ud\n",
        "(W) call (1|M0) r120.0<1>:ud 32:d\nnop\nret (1|M0) r120.0<2;2,1>:ud\n",
        "(W) call (1|M0) r120.0:ud (2*16)\nnop\nret (1) r120.0:ud\n",
    ] {
        let w = assemble_iga_words(p, text, AsmOptions::CHECKED).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(w, want, "{text}");
    }
    // No destination type: IGA's implicit `:d`, not printed.
    let d = one(p, "(W) call (1|M0) r120.0 L16");
    let i = codec::decode(p, &d).unwrap();
    assert_eq!(i.dst.ty, Type::D);
    let t = IgaDisasm::new(p, &i).to_text();
    assert_eq!(squeeze(&t), "(W) call (1|M0) r120.0 L16", "{t}");
    // A call by a register: src1 the register, `<0;1,0>`.
    let w = one(p, "(W) call (1|M0) r120.0:ud r10.1:ud");
    let i = codec::decode(p, &w).unwrap();
    assert_eq!(i.opcode, Opcode::Call);
    assert!(!i.src[1].is_imm());
    assert_eq!((i.src[1].region, i.src[1].ty), (geneu::Region::SCALAR, Type::UD));
    let t = IgaDisasm::new(p, &i).to_text();
    assert_eq!(squeeze(&t), "(W) call (1|M0) r120.0:ud r10.1:ud", "{t}");
    let w2 = one(p, "(W) calla (1|M0) r120.0:ud r10.1");
    let i2 = codec::decode(p, &w2).unwrap();
    assert_eq!((i2.opcode, i2.src[1].ty), (Opcode::Calla, Type::D));
    // Fields the text does not show: the annotation keeps them.
    let mut odd = i;
    odd.src[1].region = geneu::Region::new(8, 8, 1).unwrap();
    odd.cond_modifier = 1;
    let w3 = codec::encode_unchecked(p, &odd).unwrap();
    let t = IgaDisasm::new(p, &odd).to_text();
    assert!(squeeze(&t).starts_with("(W) call (1|M0) r120.0:ud r10.1:ud ["), "{t}");
    assert_eq!(one(p, &t), w3, "{t}");
    // A label with another type prints it and reads it back.
    let mut ud = codec::decode(p, &want[0]).unwrap();
    ud.src[1].ty = Type::UD;
    let t = IgaDisasm::new(p, &ud).to_text();
    assert_eq!(squeeze(&t), "(W) call (1|M0) r120.0:ud L32:ud", "{t}");
    assert_eq!(one(p, &t), codec::encode_unchecked(p, &ud).unwrap());
    // `(sat)` is refused on a call's destination.
    assert!(assemble_iga_words(p, "(W) call (1|M0) (sat)r120.0:ud L16", AsmOptions::UNCHECKED).is_err());
}

/// A `jmpi` by a register prints it as IGA prints a branch's source
/// (`Formatter::formatSourceRegion` shows no region on a branch, and
/// `implicitSrcTypeVal` no `:d`), and reads back with IGA's implicit
/// `<0;1,0>` and `:d`.
#[test]
fn jmpi_register_prints_without_region() {
    use geneu::Type;
    for p in [Platform::Gen75, Platform::Gen8] {
        let w = one(p, "(W) jmpi (1|M0) r10.1");
        let i = codec::decode(p, &w).unwrap();
        assert!(!i.src[1].is_imm());
        assert_eq!((i.src[1].region, i.src[1].ty), (geneu::Region::SCALAR, Type::D));
        assert_eq!(w, one(p, "(W) jmpi (1|M0) r10.1<0;1,0>:d"));
        let t = IgaDisasm::new(p, &i).to_text();
        assert_eq!(squeeze(&t), "(W) jmpi (1|M0) r10.1", "{t}");
        // Another type shows; another region goes to the annotation.
        let mut ud = i;
        ud.src[1].ty = Type::UD;
        ud.src[1].addr = geneu::Addr::Direct { nr: 10, subnr: 4 };
        let t = IgaDisasm::new(p, &ud).to_text();
        assert_eq!(squeeze(&t), "(W) jmpi (1|M0) r10.1:ud", "{t}");
        assert_eq!(one(p, &t), codec::encode_unchecked(p, &ud).unwrap());
        let mut wide = i;
        wide.src[1].region = geneu::Region::new(2, 2, 1).unwrap();
        let t = IgaDisasm::new(p, &wide).to_text();
        assert!(squeeze(&t).starts_with("(W) jmpi (1|M0) r10.1 ["), "{t}");
        assert_eq!(one(p, &t), codec::encode_unchecked(p, &wide).unwrap());
    }
}
