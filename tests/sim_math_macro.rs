//! Gen8's math macros (`madm`, MATH `invm` and `rsqrtm`) running the IEEE
//! division and square root sequences IGC emits (intel-graphics-compiler
//! `visa/VisaToG4/TranslateMath.cpp`: `translateVISAArithmeticDoubleInst`,
//! `translateVISAArithmeticSingleDivideIEEEInst`,
//! `translateVISAArithmeticDoubleSQRTInst`,
//! `translateVISAArithmeticSingleSQRTIEEEInst`), written here instruction
//! by instruction from those functions (IGC's `accN` is `mme(N-2)`,
//! `noacc` is `nomme`). The results must be the correctly rounded
//! quotient and square root: Rust's `a / b` and `sqrt`, bit for bit, for
//! random operands of every magnitude and the special ones.

use crate::sim_common;

use geneu::build::{Builder, Predicate};
use geneu::sim::{Arf, Loc, MmeValue, Thread};
use geneu::{
    AccessMode, Dst, ExecSize, FlagReg, Instruction, MathFunction, MathMacro, Opcode, Platform, Region, Src, SrcMods,
    Strictness, Type,
};
use sim_common::*;

use MathMacro::*;

/// Constants of the sequences, one register each.
const ZERO: u8 = 20;
const ONE: u8 = 21;
const HALF: u8 = 22;
const THREE_HALVES: u8 = 23;

/// An operand: register, specifier, negated.
#[derive(Clone, Copy)]
struct Op(u8, MathMacro, bool);

fn op(nr: u8, m: MathMacro) -> Op {
    Op(nr, m, false)
}

fn neg(nr: u8, m: MathMacro) -> Op {
    Op(nr, m, true)
}

/// DF sequences run 4 channels, F ones 8 (IGC's execution sizes on Gen8).
fn exec(ty: Type) -> ExecSize {
    if ty == Type::DF {
        ExecSize::S4
    } else {
        ExecSize::S8
    }
}

fn src(ty: Type, o: Op, region: Region) -> Src {
    let mut s = Src::grf(o.0, 0, ty, region).with_math_macro(o.1);
    if o.2 {
        s.mods = SrcMods::NEGATE;
    }
    s
}

fn madm(ty: Type, d: Op, s0: Op, s1: Op, s2: Op) -> Instruction {
    let mut i = Instruction::new(Opcode::Madm, exec(ty));
    i.access_mode = AccessMode::Align16;
    i.dst = Dst::grf(d.0, 0, ty).with_math_macro(d.1);
    for (k, o) in [s0, s1, s2].into_iter().enumerate() {
        i.src[k] = src(ty, o, Region::THREE_SRC);
    }
    i
}

/// `math.invm` or `math.rsqrtm`, its early-out flag f0.0.
fn math(ty: Type, f: MathFunction, d: Op, s0: Op, s1: Option<Op>) -> Instruction {
    let mut i = Instruction::new(Opcode::Math, exec(ty));
    i.access_mode = AccessMode::Align16;
    i.cond_modifier = f.hw();
    i.flag = FlagReg { nr: 0, subnr: 0 };
    // IGC's regions: <2;2,1> for DF, <4;4,1> for F (align16 encodes the
    // vertical stride).
    let v = if ty == Type::DF { 2 } else { 4 };
    let r = Region::new(v, 4, 1).unwrap();
    i.dst = Dst::grf(d.0, 0, ty).with_math_macro(d.1);
    i.src[0] = src(ty, s0, r);
    i.src[1] = match s1 {
        Some(o) => src(ty, o, r),
        None => {
            let mut n = Src::ZERO.with_ty(ty);
            n.region = Region::new(0, 4, 1).unwrap();
            n
        }
    };
    i
}

/// The program: `head` (the MATH), `(-f0.0) if`, `body`, `endif`.
fn program(ty: Type, head: Instruction, body: &[Instruction]) -> geneu::sim::Program {
    let p = Platform::Gen8;
    let mut b = Builder::new(p);
    b.set_strictness(Strictness::Unchecked);
    b.state_mut().exec_size = exec(ty);
    b.emit(head).unwrap();
    let mut pred = Predicate::normal(0, 0);
    pred.invert = true;
    b.state_mut().predicate = Some(pred);
    b.if_().unwrap();
    b.state_mut().predicate = None;
    for i in body {
        b.emit(*i).unwrap();
    }
    b.endif().unwrap();
    let built = b.finish().expect("the sequence builds");
    // The builder keeps the specifiers (they live in the write mask and
    // swizzle bits).
    let insts: Vec<_> = geneu::compact::decode_stream(p, built.bytes())
        .map(|(_, r)| r.unwrap())
        .collect();
    assert_eq!(insts[0].dst.math_macro(), head.dst.math_macro());
    assert_eq!(insts[2].src[2].math_macro(), body[0].src[2].math_macro());
    geneu::sim::Program::new(p, built.bytes()).unwrap()
}

/// IGC's double-precision division: r8 = r6 / r7.
fn df_div() -> geneu::sim::Program {
    let t = Type::DF;
    let head = math(t, MathFunction::Invm, op(8, Mme0), op(6, NoMme), Some(op(7, NoMme)));
    let body = [
        madm(t, op(9, Mme1), op(ZERO, NoMme), op(6, NoMme), op(8, Mme0)),
        madm(t, op(10, Mme2), op(ONE, NoMme), neg(7, NoMme), op(8, Mme0)),
        madm(t, op(11, Mme3), op(6, NoMme), neg(7, NoMme), op(9, Mme1)),
        madm(t, op(12, Mme4), op(8, Mme0), op(10, Mme2), op(8, Mme0)),
        madm(t, op(13, Mme5), op(ONE, NoMme), neg(7, NoMme), op(12, Mme4)),
        madm(t, op(8, Mme6), op(8, Mme0), op(10, Mme2), op(12, Mme4)),
        madm(t, op(9, Mme7), op(9, Mme1), op(11, Mme3), op(12, Mme4)),
        madm(t, op(12, Mme0), op(12, Mme4), op(8, Mme6), op(13, Mme5)),
        madm(t, op(11, Mme1), op(6, NoMme), neg(7, NoMme), op(9, Mme7)),
        madm(t, op(8, NoMme), op(9, Mme7), op(11, Mme1), op(12, Mme0)),
    ];
    program(t, head, &body)
}

/// IGC's single-precision division: r8 = r6 / r4.
fn f_div() -> geneu::sim::Program {
    let t = Type::F;
    let head = math(t, MathFunction::Invm, op(8, Mme0), op(6, NoMme), Some(op(4, NoMme)));
    let body = [
        madm(t, op(9, Mme1), op(ZERO, NoMme), op(6, NoMme), op(8, Mme0)),
        madm(t, op(10, Mme2), op(ONE, NoMme), neg(4, NoMme), op(8, Mme0)),
        madm(t, op(1, Mme3), op(8, Mme0), op(10, Mme2), op(8, Mme0)),
        madm(t, op(11, Mme4), op(6, NoMme), neg(4, NoMme), op(9, Mme1)),
        madm(t, op(9, Mme5), op(9, Mme1), op(11, Mme4), op(1, Mme3)),
        madm(t, op(6, Mme6), op(6, NoMme), neg(4, NoMme), op(9, Mme5)),
        madm(t, op(8, NoMme), op(9, Mme5), op(6, Mme6), op(1, Mme3)),
    ];
    program(t, head, &body)
}

/// IGC's double-precision square root: r7 = sqrt(r6).
fn df_sqrt() -> geneu::sim::Program {
    let t = Type::DF;
    let head = math(t, MathFunction::Rsqrtm, op(7, Mme0), op(6, NoMme), None);
    let body = [
        madm(t, op(9, Mme1), op(ZERO, NoMme), op(HALF, NoMme), op(7, Mme0)),
        madm(t, op(11, Mme2), op(ZERO, NoMme), op(6, NoMme), op(7, Mme0)),
        madm(t, op(10, Mme3), op(HALF, NoMme), neg(11, Mme2), op(9, Mme1)),
        madm(t, op(8, Mme5), op(ONE, NoMme), op(THREE_HALVES, NoMme), op(10, Mme3)),
        madm(t, op(7, Mme6), op(ZERO, NoMme), op(10, Mme3), op(11, Mme2)),
        madm(t, op(10, Mme7), op(ZERO, NoMme), op(10, Mme3), op(9, Mme1)),
        madm(t, op(7, Mme6), op(11, Mme2), op(8, Mme5), op(7, Mme6)),
        madm(t, op(8, Mme5), op(9, Mme1), op(8, Mme5), op(10, Mme7)),
        madm(t, op(9, Mme1), op(6, NoMme), neg(7, Mme6), op(7, Mme6)),
        madm(t, op(7, NoMme), op(7, Mme6), op(9, Mme1), op(8, Mme5)),
    ];
    program(t, head, &body)
}

/// IGC's single-precision square root: r7 = sqrt(r6).
fn f_sqrt() -> geneu::sim::Program {
    let t = Type::F;
    let head = math(t, MathFunction::Rsqrtm, op(7, Mme0), op(6, NoMme), None);
    let body = [
        madm(t, op(9, Mme1), op(ZERO, NoMme), op(HALF, NoMme), op(7, Mme0)),
        madm(t, op(11, Mme2), op(ZERO, NoMme), op(6, NoMme), op(7, Mme0)),
        madm(t, op(10, Mme3), op(HALF, NoMme), neg(11, Mme2), op(9, Mme1)),
        madm(t, op(9, Mme4), op(9, Mme1), op(10, Mme3), op(9, Mme1)),
        madm(t, op(7, Mme5), op(11, Mme2), op(10, Mme3), op(11, Mme2)),
        madm(t, op(10, Mme6), op(6, NoMme), neg(7, Mme5), op(7, Mme5)),
        madm(t, op(7, NoMme), op(7, Mme5), op(9, Mme4), op(10, Mme6)),
    ];
    program(t, head, &body)
}

fn run(prog: &geneu::sim::Program, t: &mut Thread) {
    let mut opts = geneu::sim::RunOptions::default();
    opts.end_at_program_end = true;
    geneu::sim::run(prog, t, &mut geneu::sim::Memory::default(), &opts).unwrap();
}

fn write_f64(t: &mut Thread, reg: u8, k: u32, v: f64) {
    let x = v.to_bits();
    t.write_ud(reg, 8 * k, x as u32);
    t.write_ud(reg, 8 * k + 4, (x >> 32) as u32);
}

fn read_f64(t: &Thread, reg: u8, k: u32) -> f64 {
    f64::from_bits(u64::from(t.read_ud(reg, 8 * k).unwrap()) | u64::from(t.read_ud(reg, 8 * k + 4).unwrap()) << 32)
}

/// A thread with the sequences' constants, keeping denormals, rounding
/// to nearest even.
fn thread(ty: Type) -> Thread {
    let mut t = ieee_thread();
    for (reg, v) in [(ZERO, 0.0), (ONE, 1.0), (HALF, 0.5), (THREE_HALVES, 1.5)] {
        for k in 0..8 {
            if ty == Type::DF {
                if k < 4 {
                    write_f64(&mut t, reg, k, v);
                }
            } else {
                t.write_ud(reg, 4 * k, (v as f32).to_bits());
            }
        }
    }
    t
}

const DF_SPECIAL: [f64; 16] = [
    0.0,
    -0.0,
    1.0,
    -3.0,
    f64::INFINITY,
    f64::NEG_INFINITY,
    f64::NAN,
    5e-324,
    -2.2250738585072e-308,
    1e-310,
    f64::MIN_POSITIVE,
    f64::MAX,
    -f64::MAX,
    1e300,
    1e-300,
    0.1,
];

fn df_value(rng: &mut Rng) -> f64 {
    match rng.next() % 4 {
        0 => DF_SPECIAL[(rng.next() % DF_SPECIAL.len() as u64) as usize],
        // Denormals.
        1 => f64::from_bits(rng.next() & 0x800f_ffff_ffff_ffff),
        _ => f64::from_bits(rng.next()),
    }
}

fn f_value(rng: &mut Rng) -> f32 {
    match rng.next() % 4 {
        0 => DF_SPECIAL[(rng.next() % DF_SPECIAL.len() as u64) as usize] as f32,
        1 => f32::from_bits(rng.next() as u32 & 0x807f_ffff),
        _ => f32::from_bits(rng.next() as u32),
    }
}

fn same64(got: f64, want: f64) -> bool {
    got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan())
}

fn same32(got: f32, want: f32) -> bool {
    got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan())
}

#[test]
fn df_division_sequence_is_correctly_rounded() {
    let prog = df_div();
    let mut rng = Rng(0x5eed_d1f0_0000_0001);
    for _ in 0..3000 {
        let mut t = thread(Type::DF);
        let ab: [(f64, f64); 4] = core::array::from_fn(|_| (df_value(&mut rng), df_value(&mut rng)));
        for (k, (a, b)) in ab.iter().enumerate() {
            write_f64(&mut t, 6, k as u32, *a);
            write_f64(&mut t, 7, k as u32, *b);
        }
        run(&prog, &mut t);
        for (k, (a, b)) in ab.iter().enumerate() {
            let got = read_f64(&t, 8, k as u32);
            assert!(same64(got, a / b), "{a:e} / {b:e}: {got:e}, want {:e}", a / b);
        }
    }
}

#[test]
fn f_division_sequence_is_correctly_rounded() {
    let prog = f_div();
    let mut rng = Rng(0x5eed_d1f0_0000_0002);
    for _ in 0..3000 {
        let mut t = thread(Type::F);
        let ab: [(f32, f32); 8] = core::array::from_fn(|_| (f_value(&mut rng), f_value(&mut rng)));
        for (k, (a, b)) in ab.iter().enumerate() {
            t.write_ud(6, 4 * k as u32, a.to_bits());
            t.write_ud(4, 4 * k as u32, b.to_bits());
        }
        run(&prog, &mut t);
        for (k, (a, b)) in ab.iter().enumerate() {
            let got = f32::from_bits(t.read_ud(8, 4 * k as u32).unwrap());
            assert!(same32(got, a / b), "{a:e} / {b:e}: {got:e}, want {:e}", a / b);
        }
    }
}

#[test]
fn df_square_root_sequence_is_correctly_rounded() {
    let prog = df_sqrt();
    let mut rng = Rng(0x5eed_d1f0_0000_0003);
    for _ in 0..3000 {
        let mut t = thread(Type::DF);
        let x: [f64; 4] = core::array::from_fn(|_| df_value(&mut rng));
        for (k, v) in x.iter().enumerate() {
            write_f64(&mut t, 6, k as u32, *v);
        }
        run(&prog, &mut t);
        for (k, v) in x.iter().enumerate() {
            let got = read_f64(&t, 7, k as u32);
            assert!(same64(got, v.sqrt()), "sqrt({v:e}): {got:e}, want {:e}", v.sqrt());
        }
    }
}

#[test]
fn f_square_root_sequence_is_correctly_rounded() {
    let prog = f_sqrt();
    let mut rng = Rng(0x5eed_d1f0_0000_0004);
    for _ in 0..3000 {
        let mut t = thread(Type::F);
        let x: [f32; 8] = core::array::from_fn(|_| f_value(&mut rng));
        for (k, v) in x.iter().enumerate() {
            t.write_ud(6, 4 * k as u32, v.to_bits());
        }
        run(&prog, &mut t);
        for (k, v) in x.iter().enumerate() {
            let got = f32::from_bits(t.read_ud(7, 4 * k as u32).unwrap());
            assert!(same32(got, v.sqrt()), "sqrt({v:e}): {got:e}, want {:e}", v.sqrt());
        }
    }
}

#[test]
fn early_out_flag_marks_the_operands_the_macro_cannot_refine() {
    // invm sets f0.0's channel bit exactly for a NaN, infinite or zero
    // dividend or divisor (the quotient is then final), rsqrtm for a NaN,
    // zero, negative or +infinite operand.
    let t = Type::DF;
    let cases = [
        (1.0, 3.0, false),
        (0.0, 3.0, true),
        (1.0, -0.0, true),
        (f64::INFINITY, 2.0, true),
    ];
    let mut th = thread(t);
    for (k, (a, b, _)) in cases.iter().enumerate() {
        write_f64(&mut th, 6, k as u32, *a);
        write_f64(&mut th, 7, k as u32, *b);
    }
    th.set_flag(0, 0xffff_fff0);
    let i = math(t, MathFunction::Invm, op(8, Mme0), op(6, NoMme), Some(op(7, NoMme)));
    run_traced(
        Platform::Gen8,
        &geneu::encode_unchecked(Platform::Gen8, &i).unwrap(),
        &mut th,
    )
    .unwrap();
    assert_eq!(th.flag(0), 0xffff_fff0 | 0b1110);
    assert_eq!(read_f64(&th, 8, 0), 1.0 / 3.0, "the model's approximation: 1/3 rounded");
    assert_eq!(read_f64(&th, 8, 1), 0.0);
    assert_eq!(read_f64(&th, 8, 2), f64::NEG_INFINITY);
    assert_eq!(read_f64(&th, 8, 3), f64::INFINITY);

    let cases = [4.0, -1.0, -0.0, f64::INFINITY];
    for (k, x) in cases.iter().enumerate() {
        write_f64(&mut th, 6, k as u32, *x);
    }
    let i = math(t, MathFunction::Rsqrtm, op(7, Mme0), op(6, NoMme), None);
    run_traced(
        Platform::Gen8,
        &geneu::encode_unchecked(Platform::Gen8, &i).unwrap(),
        &mut th,
    )
    .unwrap();
    assert_eq!(th.flag(0) & 0xf, 0b1110);
    // The model's approximation of 1/sqrt(4), within an ulp.
    assert!((read_f64(&th, 7, 0) - 0.5).abs() <= f64::EPSILON / 2.0);
    assert!(read_f64(&th, 7, 1).is_nan());
    assert_eq!(read_f64(&th, 7, 2).to_bits(), (-0.0f64).to_bits());
    assert_eq!(read_f64(&th, 7, 3), f64::INFINITY);
}

#[test]
fn madm_is_fused_and_mme_keeps_what_the_register_cannot() {
    let t = Type::DF;
    let mut th = thread(t);
    // a + b*c fused: 1 + (1 + 2^-52)(1 - 2^-52) = 2 - 2^-104, which
    // rounds to 2; unfused, the product rounds to 1 first (also 2). Use
    // -1 + ... to see the difference: -2^-104 exactly.
    let e = f64::EPSILON;
    for k in 0..4 {
        write_f64(&mut th, 2, k, -1.0);
        write_f64(&mut th, 3, k, 1.0 + e);
        write_f64(&mut th, 4, k, 1.0 - e);
        // Beyond f64's range: 2^1000 * 2^1000, through mme1, times 2^-1000.
        write_f64(&mut th, 5, k, 2f64.powi(1000));
        write_f64(&mut th, 6, k, 2f64.powi(-1000));
    }
    let fused = madm(t, op(10, NoMme), op(2, NoMme), op(3, NoMme), op(4, NoMme));
    let big = madm(t, op(11, Mme1), op(ZERO, NoMme), op(5, NoMme), op(5, NoMme));
    let back = madm(t, op(12, NoMme), op(ZERO, NoMme), op(11, Mme1), op(6, NoMme));
    // The register alone (nomme) holds +inf: inf * 2^-1000 is inf.
    let plain = madm(t, op(13, NoMme), op(ZERO, NoMme), op(11, NoMme), op(6, NoMme));
    let mut bytes = Vec::new();
    for i in [fused, big, back, plain] {
        bytes.extend_from_slice(&geneu::encode_unchecked(Platform::Gen8, &i).unwrap());
    }
    th.set_dispatch_mask(0xf);
    let out = run_traced(Platform::Gen8, &bytes, &mut th).unwrap();
    // mme1 holds 2^1000 * 2^1000 = 2^2000, which the caller can read,
    // and the trace shows the instruction that wrote it changing mme1's
    // four channels (and no other math-macro register).
    let pow2 = |v: MmeValue| match v {
        MmeValue::Fin { neg: false, sig, exp } if sig.is_power_of_two() => Some(exp + sig.trailing_zeros() as i32),
        _ => None,
    };
    let mut written = std::collections::BTreeSet::new();
    for (k, e) in out.trace.iter().enumerate() {
        for c in &e.changes {
            if let Loc::Arf {
                reg: Arf::Mme { reg, channel },
                ..
            } = c.at
            {
                assert_eq!(k, 1, "only the madm to mme1 writes a math-macro register");
                written.insert((reg, channel));
            }
        }
    }
    assert_eq!(written, (0..4).map(|ch| (1, ch)).collect());
    for k in 0..4 {
        assert_eq!(th.mme(1, k).and_then(pow2), Some(2000), "mme1.{k}: {:?}", th.mme(1, k));
        assert_eq!(
            th.mme(1, k).map(|v| v.to_string()),
            Some("0x10000000000000p+1948".into())
        );
        assert_eq!(th.mme(0, k), None, "mme0 was never written");
    }
    assert_eq!(th.mme(1, 4), None, "channel 4 is disabled");
    let image = th
        .arfs()
        .into_iter()
        .find(|(r, _)| *r == Arf::Mme { reg: 1, channel: 0 });
    let want_exp = (2000 - 52i32).to_le_bytes();
    assert_eq!(
        image.map(|(_, b)| b),
        Some([&(1u64 << 52).to_le_bytes()[..], &want_exp[..], &[1, 0, 1, 0]].concat())
    );
    for k in 0..4 {
        assert_eq!(read_f64(&th, 10, k), -(2f64.powi(-104)), "fused");
        assert_eq!(read_f64(&th, 11, k), f64::INFINITY, "the GRF part overflows");
        assert_eq!(read_f64(&th, 12, k), 2f64.powi(1000), "mme1 keeps the exponent");
        assert_eq!(read_f64(&th, 13, k), f64::INFINITY, "nomme reads the GRF");
    }
}
