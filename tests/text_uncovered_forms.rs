//! Instruction forms of Mesa's assembler test suite that the shared corpus
//! lacks (ENDIF on every platform, F16TO32, Gen8 BREAK/CONT, NOP), as whole
//! programs: the text assembles to the words and the words disassemble to
//! the text, byte- and whitespace-exact.
//!
//! The words were derived by hand from the bit layouts, with the operand
//! templates Mesa's emitter and assembler use for each opcode:
//!
//! * Gen7 ENDIF: `null:D` destination, `null:D` source 0 with its default
//!   `<8,8,1>` region, a `0:W` immediate source 1 whose low half holds JIP
//!   (bits 111:96) — the same template as Gen7 ELSE.
//! * Gen8 ENDIF: only source 0 is set (a D immediate, which is JIP in
//!   bits 127:96); the destination fields stay zero, and source 1 gets the
//!   immediate's type (D) in an ARF file, bits 95:64.
//! * Gen8 BREAK: `null:D` destination; Gen8 CONT: the `ip` register (ARF
//!   0xa0, UD) as destination. UIP overwrites bits 95:64.
//! * F16TO32 (Gen7/Gen7.5 only): F destination, W/UW source with a
//!   `<16,8,2>` region in align1, UD in align16.

use geneu::text::assemble_words;
use geneu::text::program::{Program, TextOptions};
use geneu::{Platform, Word};

fn hex(s: &str) -> [u8; 16] {
    let v: Vec<u8> = s
        .split_whitespace()
        .map(|b| u8::from_str_radix(b, 16).unwrap())
        .collect();
    v.try_into().unwrap()
}

/// Asserts both directions between `text` and `words` on `p`.
fn both_ways(p: Platform, text: &str, words: &[&str]) {
    let want: Vec<[u8; 16]> = words.iter().map(|w| hex(w)).collect();
    let got = assemble_words(p, text).unwrap_or_else(|e| panic!("{p}: {e}\n{text}"));
    assert_eq!(got, want, "{p}: assembled words of\n{text}");
    let prog = Program::from_words(p, want.iter().map(|w| Word::from_bytes(*w)));
    let mut out = String::new();
    let sum = prog.write_text(&mut out, &TextOptions::default()).unwrap();
    assert_eq!(sum.undecodable, 0);
    assert_eq!(out, text, "{p}: disassembly");
}

const ENDIF_TEXT: &str = "\
endif(8)        JIP: LABEL0                                     { align1 1Q };
LABEL0:
endif(16)       JIP: LABEL1                                     { align1 1H };
LABEL1:
endif(8)        JIP: LABEL2                                     { align16 1Q };
LABEL2:
";

#[test]
fn gen7_endif_uses_the_else_operand_template() {
    for p in [Platform::Gen7, Platform::Gen75] {
        both_ways(
            p,
            ENDIF_TEXT,
            &[
                "25 00 60 00 84 3c 00 20 00 00 8d 00 02 00 00 00",
                "25 00 80 00 84 3c 00 20 00 00 8d 00 02 00 00 00",
                "25 01 60 00 84 3c 0f 20 04 00 6e 00 02 00 00 00",
            ],
        );
    }
}

#[test]
fn gen8_endif_sets_only_its_jip_immediate() {
    both_ways(
        Platform::Gen8,
        ENDIF_TEXT,
        &[
            "25 00 60 00 00 0e 00 00 00 00 00 08 10 00 00 00",
            "25 00 80 00 00 0e 00 00 00 00 00 08 10 00 00 00",
            "25 01 60 00 00 0e 00 00 00 00 00 08 10 00 00 00",
        ],
    );
}

#[test]
fn gen8_break_and_cont_templates() {
    // Labels are numbered as Mesa creates them (UIP targets first).
    both_ways(
        Platform::Gen8,
        "\
break(8)        JIP: LABEL1           UIP: LABEL0               { align1 1Q };
break(8)        JIP: LABEL1           UIP: LABEL0               { align16 1Q };
LABEL1:
cont(16)        JIP: LABEL0           UIP: LABEL0               { align1 1H };
cont(8)         JIP: LABEL0           UIP: LABEL0               { align16 1Q };
LABEL0:
",
        &[
            "28 00 60 00 20 0e 00 20 40 00 00 00 20 00 00 00",
            "28 01 60 00 20 0e 0f 20 30 00 00 00 10 00 00 00",
            "29 00 80 00 00 0e 00 34 20 00 00 00 20 00 00 00",
            "29 01 60 00 00 0e 0f 34 10 00 00 00 10 00 00 00",
        ],
    );
}

const F16TO32_TEXT: &str = "\
f16to32(8)      g5<1>F          g2<16,8,2>W                     { align1 1Q };
f16to32(8)      g7<1>F          g6<16,8,2>UW                    { align1 1Q };
f16to32(8)      g5<1>.xyF       g4<4>UD                         { align16 1Q };
f16to32(16)     g9<1>F          g7<16,8,2>UW                    { align1 1H };
";

#[test]
fn f16to32_on_gen7_and_gen75() {
    for p in [Platform::Gen7, Platform::Gen75] {
        both_ways(
            p,
            F16TO32_TEXT,
            &[
                "14 00 60 00 bd 01 a0 20 40 00 ae 00 00 00 00 00",
                "14 00 60 00 3d 01 e0 20 c0 00 ae 00 00 00 00 00",
                "14 01 60 00 3d 00 a3 20 84 00 6e 00 00 00 00 00",
                "14 00 80 00 3d 01 20 21 e0 00 ae 00 00 00 00 00",
            ],
        );
    }
}

#[test]
fn f16to32_and_f32to16_do_not_exist_on_gen8() {
    // Mesa's opcode table and IGA's Gen8 model both drop them (Gen8 uses a
    // converting MOV with the HF type instead).
    for src in [
        "f16to32(8)      g5<1>F          g2<16,8,2>W                     { align1 1Q };\n",
        "f32to16(8)      g38<2>W         g13<8,8,1>F                     { align1 1Q };\n",
    ] {
        assert!(assemble_words(Platform::Gen8, src).is_err(), "{src}");
    }
    let prog = Program::from_words(
        Platform::Gen8,
        [Word::from_bytes(hex("14 00 60 00 bd 01 a0 20 40 00 ae 00 00 00 00 00"))],
    );
    let mut out = String::new();
    assert_eq!(
        prog.write_text(&mut out, &TextOptions::default()).unwrap().undecodable,
        1
    );
}

#[test]
fn nop_on_every_platform() {
    for p in [Platform::Gen7, Platform::Gen75, Platform::Gen8] {
        both_ways(
            p,
            &format!("nop{};\n", " ".repeat(61)),
            &["7e 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00"],
        );
    }
}
