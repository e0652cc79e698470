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

use crate::text_common;

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

/// Whether the text shows no field annotation (its operands say it all).
fn plain(text: &str) -> bool {
    !has_annotation(text)
}

/// The hex of the words (and their Gen7 variants): decoded,
/// printed, assembled back.
fn shown(p: Platform, hex: &str) -> String {
    let text = round_trip(p, word(hex));
    assert!(plain(&text), "{p}: {text}");
    text
}

#[test]
fn call_and_ret_keep_their_operands() {
    // Gen8: the return register, src0 and the jump target (src1) print as
    // operands; the word has no annotation.
    let text = shown(Platform::Gen8, "2c 00 80 00 08 00 88 20 00 00 49 0e 50 10 00 00");
    assert!(
        text.starts_with("call(16)        g4.2<1>UD       null<2,4,1>UD   4176D "),
        "{text}"
    );
    let text = shown(Platform::Gen8, "2c 00 80 00 08 00 d0 2f 00 00 45 0e 50 34 00 00");
    assert!(text.contains(" g126.4<1>UD ") && text.contains(" 13392D "), "{text}");
    // Gen7 keeps src0 (`ip` here) and the target in other bits.
    for p in [Platform::Gen7, Platform::Gen75] {
        let text = shown(p, "2c 00 80 00 01 1c 88 20 00 14 45 00 50 10 00 00");
        assert!(
            text.starts_with("call(16)        g4.2<1>UD       ip<2,2,1>UD     4176D "),
            "{text}"
        );
    }
    // Haswell's calla.
    let text = shown(Platform::Gen75, "2b 00 80 00 01 1c 88 20 00 00 45 00 50 10 00 00");
    assert!(
        text.starts_with("calla(16)       g4.2<1>UD       null<2,2,1>UD   4176D "),
        "{text}"
    );
    // ret reads its return address from src0.
    for (p, hex) in [
        (Platform::Gen8, "2d 00 60 00 00 02 00 20 c0 0f 45 00 00 00 00 00"),
        (Platform::Gen7, "2d 00 60 00 20 00 00 20 c0 0f 45 00 00 00 00 00"),
    ] {
        let text = shown(p, hex);
        assert!(
            text.starts_with("ret(8)          null<1>UD       g126<2,2,1>UD "),
            "{text}"
        );
    }
    // Other shapes read back from their operands alone: the target in
    // src0 (Gen8), a register target (an indirect call), an immediate
    // return address, align16.
    for (p, src) in [
        (Platform::Gen8, "call(16) g4.2<1>UD 4176D null<0,1,0>UD { align1 1H };"),
        (
            Platform::Gen8,
            "call(16) g4.2<1>UD null<2,2,1>UD g6<0,1,0>D { align1 1H };",
        ),
        (
            Platform::Gen7,
            "call(16) g4.2<1>UD ip<2,2,1>UD g6.1<0,1,0>D { align1 1H };",
        ),
        (Platform::Gen7, "ret(1) null<1>UD 16D { align1 1N };"),
        (Platform::Gen8, "ret(8) null<1>UD g126<4>.xD { align16 1Q };"),
    ] {
        let text = round_trip(p, changed(p, src, |_| {}));
        assert!(plain(&text), "{p}: {text}");
        assert_eq!(
            text.split_whitespace().collect::<Vec<_>>(),
            src.split_whitespace().collect::<Vec<_>>()
        );
    }
    // A field the operands do not show still comes back from the
    // annotation (here ret's unused src1).
    let p = Platform::Gen8;
    let ret = changed(p, "ret(8) null<1>UD g126<2,2,1>UD { align1 1Q };", |i| {
        i.src[1] = Src::grf(9, 0, Type::UD, Region::SCALAR);
    });
    let text = annotated(p, ret);
    assert!(
        text.contains("g126<2,2,1>UD") && text.contains("src1_da_reg_nr=0x9"),
        "{text}"
    );
}

#[test]
fn indirect_address_subregister_is_kept() {
    // a0.1 beside a D destination: Mesa's form, in units of the type,
    // would print a0.0; the subregister itself prints with its unit.
    let text = shown(Platform::Gen8, "01 00 20 00 28 0a 00 a2 60 00 45 00 00 00 00 00");
    assert!(
        text.starts_with("mov(2)          g[a0.1:uw]<1>D  g3<2,2,1>D "),
        "{text}"
    );
    for p in [Platform::Gen7, Platform::Gen75] {
        let text = shown(p, "01 00 20 00 a5 00 00 a4 60 00 45 00 00 00 00 00");
        assert!(text.contains(" g[a0.1:uw]<1>D "), "{text}");
    }
    let text = shown(Platform::Gen8, "01 00 20 00 48 12 00 a2 60 00 45 00 00 00 00 00");
    assert!(text.contains(" g[a0.1:uw]<1>UW "), "{text}");
    // Where Mesa's form is exact it stays: a0.2 of a UW destination is
    // `a0.1`, and Mesa's own words print as Mesa prints them.
    let p = Platform::Gen8;
    let w = changed(p, "mov(2) g[a0.1]<1>UW g3<2,2,1>UW { align1 1N };", |_| {});
    assert_eq!(decode(p, &w).unwrap().dst.addr, Addr::Indirect { subnr: 2, imm: 0 });
    assert!(round_trip(p, w).contains(" g[a0.1]<1>UW "));
    let mesa = "mov(1)          g5<1>D          g[a0 96]<0,1,0>D                { align1 WE_all 1N };";
    let w = geneu::text::assemble_words(p, mesa).unwrap()[0];
    assert_eq!(round_trip(p, w), mesa);
    // Both spellings read back the same field.
    let a = geneu::text::assemble_words(p, "mov(2) g[a0.4:uw]<1>D g3<2,2,1>D { align1 1N };").unwrap();
    let b = geneu::text::assemble_words(p, "mov(2) g[a0.1]<1>D g3<2,2,1>D { align1 1N };").unwrap();
    assert_eq!(a, b);
}

#[test]
fn tdr0_keeps_its_type_and_region() {
    // tdr0 (and ip), which Mesa prints bare, print their type and region.
    for (p, hex) in [
        (Platform::Gen8, "01 00 00 00 40 12 00 36 40 00 00 00 00 00 00 00"),
        (Platform::Gen7, "01 00 00 00 28 01 00 36 40 00 00 00 00 00 00 00"),
    ] {
        let text = shown(p, hex);
        assert!(
            text.starts_with("mov(1)          tdr0<1>UW       g2<0,1,0>UW "),
            "{text}"
        );
    }
    for (p, hex) in [
        (Platform::Gen8, "01 00 00 00 08 00 40 20 00 14 00 00 00 00 00 00"),
        (Platform::Gen7, "01 00 00 00 01 00 40 20 00 14 00 00 00 00 00 00"),
    ] {
        let text = shown(p, hex);
        assert!(text.contains(" ip<0,1,0>UD "), "{text}");
    }
    // Any other type or region of theirs shows too.
    let p = Platform::Gen8;
    let w = changed(p, "mov(8) g4<1>UD g5<8,8,1>UD { align1 1Q };", |i| {
        i.src[0].file = RegFile::Arf;
        i.src[0].addr = Addr::Direct { nr: 0xb0, subnr: 4 };
    });
    let text = round_trip(p, w);
    assert!(text.contains(" tdr0.1<8,8,1>UD "), "{text}");
    // Written bare, as Mesa's grammar writes it, tdr0 is UW (and ip UD).
    let bare =
        geneu::text::assemble_words_with(p, "mov(1) tdr0 g2<0,1,0>UW { align1 1N };", AsmOptions::UNCHECKED).unwrap();
    assert_eq!(bare, [word("01 00 00 00 40 12 00 36 40 00 00 00 00 00 00 00")]);
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

/// Every corpus word (without the corpus, the bundled example kernel's).
#[test]
fn corpus_words_print_as_mesa_without_annotation() {
    for &(p, w) in text_common::corpus_words() {
        let text = round_trip(p, w);
        assert!(!has_annotation(&text), "{p}: {text}");
    }
}

#[test]
fn annotation_items_are_read_once_with_their_positions() {
    let p = Platform::Gen8;
    let errs = |text: &str| {
        let e = assemble_words_with(p, text, AsmOptions::UNCHECKED).unwrap_err();
        e.0.iter()
            .map(|e| (e.line, e.column, e.kind.to_string()))
            .collect::<Vec<_>>()
    };
    let base = "mov(8) g2<1>W 4660W { align1 1Q }";
    // Items separated by spaces or commas, on later lines too.
    let w = assemble_words_with(
        p,
        &format!("{base} [src1_width=0x6,\n src1_vstride=0x3 src1_spare=0x15];"),
        AsmOptions::UNCHECKED,
    )
    .unwrap();
    let one = assemble_words_with(
        p,
        &format!("{base} [src1_width=0x6 src1_vstride=0x3 src1_spare=0x15];"),
        AsmOptions::UNCHECKED,
    )
    .unwrap();
    assert_eq!(w, one);
    // An unknown name: at the name, on its line.
    let e = errs(&format!("nop;\n{base} [src1_width=0x6\n  no_such_field=1];"));
    assert_eq!((e[0].0, e[0].1), (3, 3), "{e:?}");
    assert!(e[0].2.contains("field annotation"), "{e:?}");
    // A value wider than its field: at the value.
    let text = format!("{base} [src1_width=0x16];");
    let col = text.find("0x16").unwrap() as u32 + 1;
    let e = errs(&text);
    assert_eq!((e[0].0, e[0].1), (1, col), "{e:?}");
    assert!(e[0].2.contains("field value"), "{e:?}");
    // The grammar's own errors, from the one reader.
    let text = format!("{base} [src1_width 6];");
    let col = text.find(" 6]").unwrap() as u32 + 2;
    let e = errs(&text);
    assert_eq!((e[0].0, e[0].1), (1, col), "{e:?}");
}
