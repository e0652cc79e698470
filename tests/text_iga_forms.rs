//! The forms of IGA's syntax that users write by hand and `iga64 -d` does
//! not print (`KernelParser.cpp`'s grammar, IGA's defaults): each
//! shorthand must assemble to the bytes of its fully spelled equivalent,
//! whose bytes the corpus proves (`iga64 -a`'s bytes for it, in
//! `../shared/corpus/iga/gen8/*.iga.expected`, are quoted where used), or
//! to a spelling whose value Rust's own arithmetic gives.

use geneu::text::iga::{assemble_iga, assemble_iga_words};
use geneu::text::AsmOptions;
use geneu::Platform;

const P: Platform = Platform::Gen8;

fn hex(s: &str) -> [u8; 16] {
    let v: Vec<u8> = s
        .split_whitespace()
        .map(|b| u8::from_str_radix(b, 16).unwrap())
        .collect();
    v.try_into().unwrap()
}

fn words(text: &str) -> Vec<[u8; 16]> {
    assemble_iga_words(P, text, AsmOptions::UNCHECKED).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn one(text: &str) -> [u8; 16] {
    let w = words(text);
    assert_eq!(w.len(), 1, "{text}");
    w[0]
}

/// `short` and `full` assemble to the same word.
fn same(short: &str, full: &str) {
    assert_eq!(one(short), one(full), "{short}  vs  {full}");
}

/// The first error's (line, column, kind).
fn err(text: &str) -> (u32, u32, &'static str) {
    let e = assemble_iga(P, text, AsmOptions::UNCHECKED).expect_err(text);
    let e = &e.0[0];
    (e.line, e.column, e.kind.kind())
}

/// `add (8|M0) r124.0<1>:f r7.0<8;8,1>:d 1:d`: corpus `gen8/add.iga`.
const ADD: &str = "40 00 60 00 e8 0a 80 2f e0 00 8d 0e 01 00 00 00";

#[test]
fn constant_expressions_in_immediates() {
    let add = |imm: &str| one(&format!("add (8|M0) r124.0<1>:f r7.0<8;8,1>:d {imm}"));
    assert_eq!(add("1:d"), hex(ADD));
    for e in [
        "(2*4-7):d",
        "(1 << 0):d",
        "(9 % 4):d",
        "(0x10 >> 4):d",
        "(3 & 5):d",
        "((6 / 4)):d",
    ] {
        assert_eq!(add(e), hex(ADD), "{e}");
    }
    // Against Rust's arithmetic (and IGA's grouping: `&` and `|` share a
    // level and group to the right; unary minus binds tightest).
    let d = |v: i32| add(&format!("{v}:d"));
    assert_eq!(add("(2*4+1):d"), d(2 * 4 + 1));
    assert_eq!(add("(1 + 2 * 3 - 8 / 2):d"), d(1 + 2 * 3 - 8 / 2));
    assert_eq!(add("(6 | 1 & 3):d"), d(6 | (1 & 3)));
    assert_eq!(add("(6 & 1 | 3):d"), d(6 & (1 | 3)));
    assert_eq!(add("(-7 % 3):d"), d(-7 % 3));
    assert_eq!(add("-(1 << 20):d"), d(-(1 << 20)));
    assert_eq!(add("~0xFFFFFFFE:ud"), add("0x1:ud"));
    // Integer literals in binary.
    assert_eq!(add("0b1:d"), hex(ADD));
    assert_eq!(one("add (0b1000|M0) r124.0<1>:f r7.0<8;8,1>:d 1:d"), hex(ADD));
}

#[test]
fn float_literal_spellings() {
    let mov = |imm: &str| one(&format!("mov (8|M0) r4.0<1>:f {imm}"));
    let bits = |b: u32| mov(&format!("0x{b:08X}:f"));
    assert_eq!(mov("1.0:f"), bits(1.0f32.to_bits()));
    assert_eq!(mov("0x3F800000:f"), bits(0x3f80_0000));
    assert_eq!(mov("1.5e-3:f"), bits((1.5e-3f64 as f32).to_bits()));
    assert_eq!(mov("3e9:f"), bits(3e9f32.to_bits()));
    assert_eq!(mov("2.5E+2:f"), bits(250f32.to_bits()));
    assert_eq!(mov("0x1.8p1:f"), bits(3f32.to_bits()));
    assert_eq!(mov("0x.8p-1:f"), bits(0.25f32.to_bits()));
    assert_eq!(mov("(1.0/4.0):f"), bits(0.25f32.to_bits()));
    assert_eq!(mov("(0.5 + 0.25*2.0):f"), bits(1f32.to_bits()));
    assert_eq!(mov("inf:f"), bits(f32::INFINITY.to_bits()));
    assert_eq!(mov("-inf:f"), bits(f32::NEG_INFINITY.to_bits()));
    assert_eq!(mov("|-1.5:f|"), mov("1.5:f"));
    // NaNs: IGA's payloads (Floats.cpp), the quiet bit for `qnan`.
    assert_eq!(mov("qnan:f"), bits(0x7fc0_0000));
    assert_eq!(mov("snan:f"), bits(0x7f80_0001));
    assert_eq!(mov("qnan(0x5):f"), bits(0x7fc0_0005));
    assert_eq!(mov("-snan(2+3):f"), bits(0xff80_0005));
    // IGA negates an integer, then takes its bits: -0x3F800000 is
    // 0xC0800000 (not -1.0, 0xBF800000).
    assert_eq!(mov("-0x3F800000:f"), bits(0xc080_0000));
    let hf = |imm: &str| one(&format!("mov (8|M0) r4.0<1>:hf {imm}"));
    assert_eq!(hf("1.0:hf"), hf("0x3C00:hf"));
    assert_eq!(hf("-snan(0x5):hf"), hf("0xFC05:hf"));
    let df = |imm: &str| one(&format!("(W) mov (1|M0) r4.0<1>:df {imm}"));
    assert_eq!(df("0x1.8p1:df"), df(&format!("0x{:X}:df", 3f64.to_bits())));
    // `nan` is C++'s signaling NaN (0x7FF4000000000000); its payload does
    // not fit F, which IGA refuses.
    assert_eq!(df("nan:df"), df("0x7FF4000000000000:df"));
    assert_eq!(err("mov (8|M0) r4.0<1>:f nan:f").2, "not_allowed");
    // A decimal integer as a float: IGA refuses it (write 2.0 or bits).
    assert_eq!(err("mov (8|M0) r4.0<1>:f 2:f"), (1, 22, "not_allowed"));
    assert_eq!(mov("0:f"), bits(0));
}

#[test]
fn absolute_value_and_negation_forms() {
    let full = "add (8|M0) r124.0<1>:f (abs)r7.0<8;8,1>:d 1:d";
    same("add (8|M0) r124.0<1>:f |r7.0<8;8,1>:d| 1:d", full);
    same(
        "add (8|M0) r124.0<1>:f -|r7.0<8;8,1>:d| 1:d",
        "add (8|M0) r124.0<1>:f -(abs)r7.0<8;8,1>:d 1:d",
    );
    same(
        "add (8|M0) r124.0<1>:f ~r7.0<8;8,1>:d 1:d",
        "add (8|M0) r124.0<1>:f -r7.0<8;8,1>:d 1:d",
    );
    same(
        "add (8|M0) r124.0<1>:f r7.0<8;8,1>:d |-1:d|",
        "add (8|M0) r124.0<1>:f r7.0<8;8,1>:d 1:d",
    );
    // Three-source operands (corpus `gen8/mad.iga`, first line).
    let mad = "mad (8|M0) r26.0<1>:f (abs)r22.0<2;1>:f r2.4<0;0>:f -(abs)r5.0<1>:f";
    same("mad (8|M0) r26.0<1>:f |r22.0<2;1>:f| r2.4<0;0>:f -|r5.0<1>:f|", mad);
    assert_eq!(
        err("add (8|M0) r124.0<1>:f |r7.0<8;8,1>:d 1:d"),
        (1, 39, "unexpected_token")
    );
}

#[test]
fn indirect_operands_from_a_register() {
    // rN[a0.s,off] is r[a0.s, N*32 + off] (corpus `gen8/mov.iga`'s
    // `r[a0.0,96]` shape).
    same(
        "(W) mov (1|M0) r5.0<1>:d r3[a0.0]<0;1,0>:d",
        "(W) mov (1|M0) r5.0<1>:d r[a0.0,96]<0;1,0>:d",
    );
    same(
        "(W) mov (1|M0) r5.0<1>:d r3[a0.0,16]<0;1,0>:d",
        "(W) mov (1|M0) r5.0<1>:d r[a0.0,112]<0;1,0>:d",
    );
    same(
        "(W) mov (1|M0) r5.0<1>:d r3[a0.0 - 16]<0;1,0>:d",
        "(W) mov (1|M0) r5.0<1>:d r[a0.0,80]<0;1,0>:d",
    );
    same(
        "(W) mov (1|M0) r2[a0.1,4]<1>:d 0x1:d",
        "(W) mov (1|M0) r[a0.1,68]<1>:d 0x1:d",
    );
    // The offset field holds -512 to 511.
    assert_eq!(
        err("(W) mov (1|M0) r5.0<1>:d r20[a0.0,16]<0;1,0>:d"),
        (1, 35, "out_of_range")
    );
}

#[test]
fn regions_left_out() {
    // A register without subregister: <1;1,0> (SIMD8); with one, or in
    // SIMD1: <0;1,0>; an indirect one: <1;1,0>; `ip`: <0;1,0>.
    same("mov (8|M0) r17.0<1>:f r12:f", "mov (8|M0) r17.0<1>:f r12.0<1;1,0>:f");
    same("mov (8|M0) r17:f r12.0:f", "mov (8|M0) r17.0<1>:f r12.0<0;1,0>:f");
    same("(W) mov (1|M0) r17:f r12:f", "(W) mov (1|M0) r17.0<1>:f r12.0<0;1,0>:f");
    same(
        "(W) mov (1|M0) r5:d r[a0.0,96]:d",
        "(W) mov (1|M0) r5.0<1>:d r[a0.0,96]<1;1,0>:d",
    );
    same("mov (8|M0) r17:ud ip:ud", "mov (8|M0) r17.0<1>:ud ip<0;1,0>:ud");
    // Three-source: <2;1> and src2 <1>, or <0;0> / <0> with a
    // subregister; corpus `gen8/mad.iga` first line, iga64's bytes.
    let mad = hex("5b 01 60 00 00 00 1e 1a c8 61 21 39 05 20 47 01");
    assert_eq!(one("mad (8|M0) r26.0<1>:f r22.0<2;1>:f r2.4<0;0>:f r5.0<1>:f"), mad);
    assert_eq!(one("mad (8|M0) r26:f r22:f r2.4:f r5:f"), mad);
}

#[test]
fn legacy_directives() {
    // `.default_execution_size` and `.default_register_type` (iga64
    // -Xlegacy-directives): the execution size and register types the
    // text leaves out; immediates keep their type.
    let full = "mov (8|M0) r17.0<1>:f r12.0<1;1,0>:f\nadd (8|M0) r124.0<1>:f r7.0<8;8,1>:f 1:d";
    let short = ".default_execution_size(8)\n.default_register_type :f\nmov r17 r12\nadd r124 r7<8;8,1> 1:d";
    assert_eq!(words(short), words(full));
    assert_eq!(
        words(".default_execution_size 16\nmov r17:f r12:f"),
        words("mov (16|M0) r17.0<1>:f r12.0<1;1,0>:f")
    );
    // In the legacy mode the size left out is SIMD1 unless set.
    assert_eq!(
        words(".default_register_type:d\n(W) mov r1 r2"),
        words("(W) mov (1|M0) r1.0<1>:d r2.0<0;1,0>:d")
    );
    // A type written wins over the default.
    assert_eq!(
        words(".default_register_type :d\n(W) mov (1) r1:f r2"),
        words("(W) mov (1|M0) r1.0<1>:f r2.0<0;1,0>:d")
    );
    assert_eq!(err("nop\n  .default_frob 3"), (2, 4, "unexpected_token"));
    assert_eq!(err(".default_execution_size(6)"), (1, 25, "bad_exec_size"));
    // Without a directive the size is still required.
    assert_eq!(err("mov r17:f r12:f"), (1, 5, "unexpected_token"));
}

#[test]
fn send_descriptors_and_jumps_as_expressions() {
    // Corpus `gen8/send.iga`, first line, and iga64's bytes.
    let send = hex("31 00 60 06 e0 3a 00 20 60 0f 00 06 17 00 08 8a");
    assert_eq!(one("send (8|M0) null:f r123:f 0x26 0x0A080017 {EOT}"), send);
    assert_eq!(
        one("send (8|M0) null:f r123:f (0x20|6) (0x0A080000 | 0x10 + 7) {EOT}"),
        send
    );
    // Corpus `gen8/if.iga`: `(f0.0) if (8|M0) L32 L80` at offset 0.
    let first = hex("22 00 61 00 00 0e 00 20 50 00 00 00 20 00 00 00");
    let w = words("(f0.0) if (8|M0) (2*16) (5 * 16)\nnop\nnop\nnop\nnop\nnop");
    assert_eq!(w[0], first);
    assert_eq!(err("(f0.0) if (8|M0) (2*16) 1.5"), (1, 25, "not_allowed"));
}

#[test]
fn label_as_mov_source() {
    // IGA's encoder writes the label's byte offset from the program's
    // start, as a UD immediate.
    let with_label = words("(W) mov (1|M0) r65.0<1>:ud done\nnop\ndone:\nnop");
    let spelled = words("(W) mov (1|M0) r65.0<1>:ud 0x20:ud\nnop\nnop");
    assert_eq!(with_label, spelled);
    assert_eq!(
        words("(W) mov (1|M0) r65.0<1>:ud L48\nnop"),
        words("(W) mov (1|M0) r65.0<1>:ud 0x30:ud\nnop")
    );
    assert_eq!(err("nop\n(W) mov (1|M0) r65.0<1>:ud nowhere"), (2, 28, "unknown_label"));
    // Other opcodes take no symbol.
    assert_eq!(
        err("(W) add (1|M0) r65.0<1>:ud r1.0<0;1,0>:ud done\ndone: nop").2,
        "unexpected_token"
    );
}

#[test]
fn other_spellings() {
    let add = "add (8|M0) r124.0<1>:f r7.0<8;8,1>:d 1:d";
    assert_eq!(one(&format!("{add} {{Uncompacted}}")), hex(ADD));
    assert_eq!(one(&format!("{add} {{}}")), hex(ADD));
    // IGA's bracketed flag modifier (corpus `gen8/cmp.iga`'s shape).
    same(
        "cmp (16|M0) [(eq)f0.0] null<1>:d r2.0<8;8,1>:d 0:d",
        "cmp (16|M0) (eq)f0.0 null<1>:d r2.0<8;8,1>:d 0:d",
    );
    // The math function by its code (inv is 1, corpus `gen8/math.iga`).
    let inv = hex("38 00 60 01 e8 3a e0 2b c0 0b 8d 00 00 00 00 00");
    assert_eq!(one("math.inv (8|M0) r95.0<1>:f r94.0<8;8,1>:f"), inv);
    assert_eq!(one("math.1 (8|M0) r95.0<1>:f r94.0<8;8,1>:f"), inv);
    assert_eq!(one("math.0x1 (8|M0) r95.0<1>:f r94.0<8;8,1>:f"), inv);
    // `.xyzw` is the default predicate control; `f0` is `f0.0`.
    same(
        "(f0.xyzw) add (8|M0) r124.0<1>:f r7.0<8;8,1>:d 1:d",
        "(f0.0) add (8|M0) r124.0<1>:f r7.0<8;8,1>:d 1:d",
    );
    same(
        "(f0.any4h) add (8|M0) r124.0<1>:f r7.0<8;8,1>:d 1:d",
        "(f0.0.any4h) add (8|M0) r124.0<1>:f r7.0<8;8,1>:d 1:d",
    );
}

#[test]
fn expression_errors_have_lines_and_columns() {
    let cases: [(&str, (u32, u32, &str)); 6] = [
        (
            "nop\nadd (8|M0) r1.0<1>:d r2.0<8;8,1>:d (1/0):d",
            (2, 38, "not_allowed"),
        ),
        ("add (8|M0) r1.0<1>:d r2.0<8;8,1>:d (1+2:d", (1, 40, "unexpected_token")),
        ("add (8|M0) r1.0<1>:d r2.0<8;8,1>:d (1.0+2):d", (1, 40, "not_allowed")),
        (
            // IGA truncates `0x10000:uw`, but refuses bits past `:hf`'s.
            "add (8|M0) r1.0<1>:hf r2.0<8;8,1>:hf 0x13C00:hf",
            (1, 38, "not_allowed"),
        ),
        ("add (8|M0) r1.0<1>:d r2.0<8;8,1>:d 1.5:d", (1, 36, "not_allowed")),
        ("add (8|M0) r1.0<1>:d r2.0<8;8,1>:d (1 << 64):d", (1, 39, "not_allowed")),
    ];
    for (text, want) in cases {
        assert_eq!(err(text), want, "{text}");
    }
}
