//! Issue 14 §3, "text that loses nothing": for every word that decodes,
//! `disasm` → `asm --unchecked` gives the same 16 bytes. Words Mesa's
//! emitter produces print exactly as Mesa prints them; the others print
//! with extensions that the assembler reads back (align16 indirect
//! operands in align1's form, and the field annotation `[name=value ...]`
//! for bits Mesa's syntax does not show). One test per class, with the
//! issue's example words where it gives them.

#![cfg(feature = "check")]

use geneu::canon::canonicalize;
use geneu::check::text::check_asm_roundtrip;
use geneu::text::{assemble_words_with, AsmOptions};
use geneu::*;

fn word(hex: &str) -> [u8; 16] {
    let v: Vec<u8> = hex
        .split_whitespace()
        .map(|t| u8::from_str_radix(t, 16).unwrap())
        .collect();
    v.try_into().unwrap()
}

/// The text of `w`; asserts that it assembles back to `w` exactly, that it
/// carries an annotation or extension exactly when `w` is not canonical,
/// and that the property check holds. Returns the text.
fn round_trip(p: Platform, w: [u8; 16]) -> String {
    let inst = decode(p, &w).unwrap();
    let text = inst.display(p).to_string();
    let back = assemble_words_with(p, &text, AsmOptions::UNCHECKED).unwrap();
    assert_eq!(back, [w], "{p}: {text}");
    check_asm_roundtrip(p, &w);
    text
}

/// `inst` (built from `src`) changed by `f`, as a word.
fn changed(p: Platform, src: &str, f: impl FnOnce(&mut Instruction)) -> [u8; 16] {
    let mut i = geneu::text::assemble_with(p, src, AsmOptions::UNCHECKED).unwrap()[0];
    f(&mut i);
    encode_unchecked(p, &i).unwrap()
}

/// A non-canonical word prints Mesa's text of its canonical form plus the
/// annotation; the canonical word prints Mesa's text alone.
fn annotated(p: Platform, w: [u8; 16]) -> String {
    let text = round_trip(p, w);
    let mut c = decode(p, &w).unwrap();
    canonicalize(p, &mut c);
    let mesa = c.display(p).to_string();
    assert!(!has_annotation(&mesa), "{mesa}");
    assert!(has_annotation(&text), "{text}");
    assert_eq!(text.rsplit_once(" [").map(|t| t.0), mesa.strip_suffix(';'), "{text}");
    text
}

/// Whether a record ends with a field annotation (`... } [name=value];`).
fn has_annotation(text: &str) -> bool {
    text.trim_end().ends_with("];")
}

#[test]
fn call_and_ret_keep_their_operands() {
    let p = Platform::Gen8;
    for hex in [
        "2c 00 80 00 08 00 88 20 00 00 49 0e 50 10 00 00",
        "2c 00 80 00 08 00 d0 2f 00 00 45 0e 50 34 00 00",
    ] {
        let text = round_trip(p, word(hex));
        assert!(text.starts_with("call(16)") && text.contains("dst_da_reg_nr"), "{text}");
    }
    let ret = changed(p, "ret(8) { align1 1Q };", |i| {
        i.src[0] = Src::grf(126, 0, Type::UD, Region::SCALAR);
    });
    let text = annotated(p, ret);
    assert!(text.contains("src0_da_reg_nr=0x7e"), "{text}");
}

#[test]
fn indirect_address_subregister_is_kept() {
    let p = Platform::Gen8;
    let text = round_trip(p, word("01 00 20 00 28 0a 00 a2 60 00 45 00 00 00 00 00"));
    assert!(
        text.contains("g[a0.0]<1>D") && text.contains("dst_ia_subreg_nr=0x1"),
        "{text}"
    );
    // A UW destination at a0.1.
    let w = changed(p, "mov(2) g[a0.1]<1>UW g3<2,2,1>UW { align1 1N };", |_| {});
    assert!(round_trip(p, w).contains("g[a0.1]<1>UW"));
}

#[test]
fn tdr0_keeps_its_type_and_region() {
    let p = Platform::Gen8;
    let w = changed(p, "mov(1) g4<1>UW g5<0,1,0>UW { align1 1N };", |i| {
        i.dst.file = RegFile::Arf;
        i.dst.addr = Addr::Direct { nr: 0xb0, subnr: 0 };
    });
    let text = round_trip(p, w);
    assert!(text.contains("tdr0") && text.contains("dst_reg_type"), "{text}");
}

#[test]
fn align16_indirect_operands_are_printed() {
    let p = Platform::Gen8;
    let text = round_trip(p, word("01 01 60 00 08 02 2f 22 0b 80 61 00 00 00 00 00"));
    assert!(!text.contains("not supported") && text.contains("g[a0"), "{text}");
}

#[test]
fn immediate_src1_type_field() {
    let p = Platform::Gen8;
    let w = changed(p, "mov(8) g2<1>D 5D { align1 1Q };", |i| i.src[1].ty = Type::F);
    // On Gen8 src1's file and type sit in bits 95:64, beside the immediate.
    assert!(annotated(p, w).contains("imm64_low=0x38000000"));
    let p = Platform::Gen7;
    let w = changed(p, "mov(8) g2<1>D 5D { align1 1Q };", |i| i.src[1].ty = Type::F);
    assert!(annotated(p, w).contains("src1_reg_type"));
}

#[test]
fn replicated_three_source_swizzle() {
    let p = Platform::Gen8;
    let w = changed(
        p,
        "mad(8) g2<1>F g3<4,4,1>F g4<4,4,1>F g5.0<0,1,0>F { align16 1Q };",
        |i| i.src[2].swizzle = Swizzle::XYZW,
    );
    assert!(annotated(p, w).contains("src2_swizzle"));
}

#[test]
fn flow_control_operand_fields() {
    for (p, src) in [
        (Platform::Gen8, "endif(8) JIP: 16 { align1 1Q };"),
        (Platform::Gen7, "endif(8) JIP: 2 { align1 1Q };"),
        (Platform::Gen8, "else(8) JIP: 32 UIP: 32 { align1 1Q };"),
        (Platform::Gen8, "while(8) JIP: -32 { align1 1Q };"),
        (Platform::Gen75, "while(8) JIP: -4 { align1 1Q };"),
    ] {
        let w = changed(p, src, |i| i.dst = Dst::grf(7, 0, Type::D));
        annotated(p, w);
    }
    let p = Platform::Gen8;
    let w = changed(p, "nop;", |i| i.dst = Dst::grf(7, 0, Type::D));
    assert!(round_trip(p, w).starts_with("nop"));
    let w = changed(p, "wait(1) n0.2<1>UD { align1 WE_all 1N };", |i| {
        i.src[1] = Src::grf(9, 0, Type::UD, Region::SCALAR);
    });
    annotated(p, w);
}

#[test]
fn send_descriptor_typed_d() {
    let p = Platform::Gen8;
    let w = changed(
        p,
        "send(8) g9<1>UD g2<8,8,1>UD 0x02280300\n    const MsgDesc: (0, 3, 0, 0) mlen 1 rlen 2 { align1 WE_all 1Q };",
        |i| i.src[1].ty = Type::D,
    );
    assert!(annotated(p, w).contains("src1_reg_type"));
}

#[test]
fn sel_flag_register() {
    let p = Platform::Gen8;
    let w = changed(p, "sel.ge(8) g2<1>F g3<8,8,1>F g4<8,8,1>F { align1 1Q };", |i| {
        i.flag = FlagReg { nr: 1, subnr: 1 };
    });
    assert!(annotated(p, w).contains("flag_reg_nr"));
}

#[test]
fn upper_half_of_16_bit_immediate() {
    for p in [Platform::Gen7, Platform::Gen8] {
        let w = changed(p, "mov(8) g2<1>W 0x1234W { align1 1Q };", |i| i.imm = 0x5678_1234);
        annotated(p, w);
    }
}

#[test]
fn corpus_words_print_as_mesa_without_annotation() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/mesa");
    let mut n = 0;
    for (dir, p) in [
        ("gen7", Platform::Gen7),
        ("gen7.5", Platform::Gen75),
        ("gen8", Platform::Gen8),
    ] {
        for e in std::fs::read_dir(root.join(dir)).unwrap() {
            let path = e.unwrap().path();
            if !path.extension().is_some_and(|x| x == "expected") {
                continue;
            }
            for line in std::fs::read_to_string(&path)
                .unwrap()
                .lines()
                .filter(|l| !l.trim().is_empty())
            {
                let w = word(line);
                let text = round_trip(p, w);
                assert!(!has_annotation(&text), "{}: {text}", path.display());
                n += 1;
            }
        }
    }
    assert!(n > 2000, "{n}");
}
