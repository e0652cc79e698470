//! A reference evaluator of the vISA instructions `geneu::visa::lower`
//! lowers, written from the vISA specification (the operand and execution
//! model chapters in `../shared/reference/`), independent of the lowering
//! and of the simulator.
//!
//! It works on vISA's own terms: the state is the kernel's variables
//! (general variables as bytes, address variables as word elements,
//! predicate variables as bits) and the execution mask; an instruction is
//! evaluated channel by channel on vISA types, with vISA regions, source
//! modifiers, saturation, predicates and mask controls. Every source
//! channel is read before any destination channel is written (SIMD
//! semantics).
//!
//! Where the vISA chapters leave an operation's arithmetic to the
//! instruction reference, the choices are the hardware's documented ones
//! (PRM Vol 2a), each written once below:
//! - integer operations are exact (computed on `i128`), then converted to
//!   the destination type: wrapped, or clamped with saturation;
//! - float operations run in the execution type (DF if a source is DF,
//!   otherwise F; HF operands compute in F, which rounds innocuously since
//!   F has more than 2×11+2 significand bits);
//! - float to integer conversion rounds toward zero and clamps to the
//!   destination range (NaN gives 0); integer to float rounds to nearest
//!   even; saturation of a float destination clamps to [0, 1] (NaN gives 0);
//! - CMP into a general variable writes all ones (true) or zero (false);
//! - MIN/MAX of a NaN and a number give the number;
//! - extended math: the correctly rounded IEEE result where one exists
//!   (INV, SQRT, DIV), Rust's `f64` functions rounded to F otherwise (the
//!   simulator's documented choice where the hardware is approximate).
//!
//! Left out (`Undefined`), because the documents at hand do not settle
//! them: the intermediate precision of an integer operation whose result
//! goes to a float or to an integer wider than its execution type (other
//! than MOV's plain conversion); CBIT of a signed type narrower than a
//! dword (whether the source is sign-extended first) or of a 64-bit type;
//! ASR of an unsigned type; comparisons of 64-bit integers of different
//! signedness; AVG of 64-bit integers; ADDR_ADD of a general variable
//! (vISA means the variable's address).
//!
//! Address variables hold byte addresses of the register file (where the
//! caller's variable table places variables); an indirect operand resolves
//! its address to the variable that holds it.
#![allow(dead_code)]

use geneu::visa::*;

/// The state an instruction reads and writes: vISA's variables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefState {
    /// Each general variable's bytes (`elements × size`; empty for the null variable).
    pub vars: Vec<Vec<u8>>,
    /// Each address variable's elements.
    pub addr: Vec<Vec<u16>>,
    /// Each predicate variable's bits (bit j is element j); index `id - 1`.
    pub preds: Vec<u32>,
    /// The execution mask EM (bit n is channel n).
    pub em: u32,
}

impl RefState {
    /// A zeroed state for `vars`, every channel enabled.
    pub fn zeroed(vars: &VarTable) -> Self {
        RefState {
            vars: vars
                .general
                .iter()
                .map(|v| match v.placement {
                    Placement::Grf(_) => vec![0; (v.elements * v.ty.size()) as usize],
                    _ => Vec::new(),
                })
                .collect(),
            addr: vars.address.iter().map(|a| vec![0; a.elements as usize]).collect(),
            preds: vec![0; vars.predicate.len()],
            em: u32::MAX,
        }
    }
}

/// Why the reference has no answer: the specification leaves the case
/// undefined, or the reference does not model it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Undefined(pub &'static str);

type R<T> = Result<T, Undefined>;

fn undef<T>(why: &'static str) -> R<T> {
    Err(Undefined(why))
}

/// A value on its way through an operation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Val {
    /// Any integer, exactly.
    I(i128),
    /// A float (F, HF and VF operands).
    F(f32),
    /// A double.
    D(f64),
}

impl Val {
    fn as_f32(self) -> f32 {
        match self {
            Val::I(i) => i as f32,
            Val::F(f) => f,
            Val::D(d) => d as f32,
        }
    }
    fn as_f64(self) -> f64 {
        match self {
            Val::I(i) => i as f64,
            Val::F(f) => f64::from(f),
            Val::D(d) => d,
        }
    }
    fn as_int(self) -> i128 {
        match self {
            Val::I(i) => i,
            // Round toward zero, clamp (Rust's `as` is exactly that, NaN to 0).
            Val::F(f) => f as i128,
            Val::D(d) => d as i128,
        }
    }
    fn is_nan(self) -> bool {
        match self {
            Val::I(_) => false,
            Val::F(f) => f.is_nan(),
            Val::D(d) => d.is_nan(),
        }
    }
}

fn is_float(t: VisaType) -> bool {
    matches!(t, VisaType::F | VisaType::DF | VisaType::HF | VisaType::VF)
}

fn is_signed(t: VisaType) -> bool {
    matches!(t, VisaType::D | VisaType::W | VisaType::B | VisaType::Q | VisaType::V)
}

/// Integer range of `t`.
fn int_range(t: VisaType) -> (i128, i128) {
    let bits = t.size() * 8;
    if is_signed(t) {
        (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
    } else {
        (0, (1i128 << bits) - 1)
    }
}

/// Reads one element of type `t` from little-endian bytes.
pub fn from_bytes(t: VisaType, b: &[u8]) -> Val {
    let mut raw = [0u8; 8];
    raw[..b.len()].copy_from_slice(b);
    let u = u64::from_le_bytes(raw);
    match t {
        VisaType::F => Val::F(f32::from_bits(u as u32)),
        VisaType::DF => Val::D(f64::from_bits(u)),
        VisaType::HF => Val::F(half::f16::from_bits(u as u16).to_f32()),
        _ => {
            let bits = t.size() * 8;
            if is_signed(t) {
                let shift = 64 - bits;
                Val::I(i128::from(((u << shift) as i64) >> shift))
            } else {
                Val::I(i128::from(u & (u64::MAX >> (64 - bits))))
            }
        }
    }
}

/// Converts a value to type `t` (with saturation when `sat`) and returns
/// its little-endian bytes.
pub fn to_bytes(t: VisaType, v: Val, sat: bool) -> Vec<u8> {
    let n = t.size() as usize;
    let bits: u64 = match t {
        VisaType::F => {
            let mut f = v.as_f32();
            if sat {
                f = sat_f32(f);
            }
            u64::from(f.to_bits())
        }
        VisaType::DF => {
            let mut d = v.as_f64();
            if sat {
                d = if d.is_nan() { 0.0 } else { d.clamp(0.0, 1.0) };
            }
            d.to_bits()
        }
        VisaType::HF => {
            let h = match v {
                Val::D(d) => half::f16::from_f64(d),
                _ => half::f16::from_f32(v.as_f32()),
            };
            let h = if sat {
                half::f16::from_f32(sat_f32(h.to_f32()))
            } else {
                h
            };
            u64::from(h.to_bits())
        }
        _ => {
            let (lo, hi) = int_range(t);
            let i = match v {
                // Float to integer always clamps.
                Val::F(_) | Val::D(_) => v.as_int().clamp(lo, hi),
                Val::I(i) if sat => i.clamp(lo, hi),
                Val::I(i) => i,
            };
            i as u64
        }
    };
    bits.to_le_bytes()[..n].to_vec()
}

fn sat_f32(f: f32) -> f32 {
    if f.is_nan() {
        0.0
    } else {
        f.clamp(0.0, 1.0)
    }
}

/// The 8-bit restricted float of a VF immediate: sign, 3-bit exponent
/// (bias 3), 4-bit mantissa; zero when exponent and mantissa are zero.
fn vf(b: u8) -> f32 {
    let sign = if b & 0x80 != 0 { -1.0 } else { 1.0 };
    if b & 0x7f == 0 {
        return sign * 0.0;
    }
    let e = i32::from((b >> 4) & 7) - 3;
    let m = f32::from(b & 15) / 16.0;
    sign * (1.0 + m) * 2f32.powi(e)
}

/// What a source operand reads in each channel, with its type.
struct SrcVals {
    ty: VisaType,
    vals: Vec<Val>,
}

/// Where a register-file byte address lies: (variable id, byte in it).
fn locate(vars: &VarTable, byte: i64, len: u32) -> R<(usize, usize)> {
    for (k, v) in vars.general.iter().enumerate() {
        if let Placement::Grf(base) = v.placement {
            let (base, size) = (i64::from(base), i64::from(v.elements * v.ty.size()));
            if byte >= base && byte + i64::from(len) <= base + size {
                return Ok((k, (byte - base) as usize));
            }
        }
    }
    undef("an indirect access outside every variable")
}

fn region_elems(r: VisaRegion) -> (Option<u32>, u32, u32) {
    (
        r.vstride.elems(),
        r.width.elems().unwrap_or(1),
        r.hstride.elems().unwrap_or(0),
    )
}

fn apply_mod(v: Val, m: Modifier, ty: VisaType) -> Val {
    let neg = |v: Val| match v {
        Val::I(i) => Val::I(-i),
        Val::F(f) => Val::F(-f),
        Val::D(d) => Val::D(-d),
    };
    let abs = |v: Val| match v {
        Val::I(i) => Val::I(i.abs()),
        Val::F(f) => Val::F(f.abs()),
        Val::D(d) => Val::D(d.abs()),
    };
    match m {
        Modifier::Abs => abs(v),
        Modifier::Neg => neg(v),
        Modifier::NegAbs => neg(abs(v)),
        Modifier::Not => match v {
            // Bitwise not of the value in its own type.
            Val::I(i) => {
                let (lo, hi) = int_range(ty);
                let mask = hi - lo; // all ones of the type's width
                let r = !i & mask;
                if is_signed(ty) && r > hi {
                    Val::I(r - mask - 1)
                } else {
                    Val::I(r)
                }
            }
            v => v,
        },
        _ => v,
    }
}

fn read_src(vars: &VarTable, st: &RefState, op: &VecOperand, n: u32) -> R<SrcVals> {
    let mut vals = Vec::with_capacity(n as usize);
    let ty = match &op.kind {
        OperandKind::General(g) => {
            let var = vars.general.get(g.id as usize).ok_or(Undefined("unknown variable"))?;
            let bytes = st.vars.get(g.id as usize).ok_or(Undefined("unknown variable"))?;
            let size = var.ty.size();
            let first = u32::from(g.row) * (32 / size) + u32::from(g.col);
            let (v, w, h) = region_elems(g.region);
            let v = v.ok_or(Undefined("a Null vertical stride on a general operand"))?;
            for c in 0..n {
                let e = (first + (c / w) * v + (c % w) * h) as usize * size as usize;
                let b = bytes
                    .get(e..e + size as usize)
                    .ok_or(Undefined("out-of-bound element"))?;
                vals.push(from_bytes(var.ty, b));
            }
            var.ty
        }
        OperandKind::Indirect(ind) => {
            let a = st
                .addr
                .get(usize::from(ind.addr))
                .ok_or(Undefined("unknown address variable"))?;
            let size = ind.ty.size();
            let (v, w, h) = region_elems(ind.region);
            for c in 0..n {
                let (row, col) = (c / w, c % w);
                let byte = match v {
                    // Single address: the region from AN(k) + offset.
                    Some(v) => {
                        let base = *a
                            .get(usize::from(ind.addr_offset))
                            .ok_or(Undefined("address element"))?;
                        i64::from(base) + i64::from(ind.offset) + i64::from((row * v + col * h) * size)
                    }
                    // Multi-address: row i from AN(k + i) + offset.
                    None => {
                        let base = *a
                            .get(usize::from(ind.addr_offset) + row as usize)
                            .ok_or(Undefined("address element"))?;
                        i64::from(base) + i64::from(ind.offset) + i64::from(col * h * size)
                    }
                };
                if byte % i64::from(size) != 0 {
                    return undef("an indirect address not aligned to its type");
                }
                let (k, off) = locate(vars, byte, size)?;
                let b = &st.vars[k][off..off + size as usize];
                vals.push(from_bytes(ind.ty, b));
            }
            ind.ty
        }
        OperandKind::Immediate(imm) => {
            for c in 0..n {
                let low = imm.value as u32;
                vals.push(match imm.ty {
                    VisaType::V => Val::I(i128::from(((low >> (4 * (c % 8))) as i32) << 28 >> 28)),
                    VisaType::UV => Val::I(i128::from((low >> (4 * (c % 8))) & 15)),
                    VisaType::VF => Val::F(vf((low >> (8 * (c % 4))) as u8)),
                    t => from_bytes(t, &imm.value.to_le_bytes()[..t.size() as usize]),
                });
            }
            match imm.ty {
                VisaType::V => VisaType::W,
                VisaType::UV => VisaType::UW,
                VisaType::VF => VisaType::F,
                t => t,
            }
        }
        OperandKind::Address(a) => {
            let elems = st
                .addr
                .get(usize::from(a.id))
                .ok_or(Undefined("unknown address variable"))?;
            let width = a.width.channels();
            for c in 0..n {
                // Elements offset..offset+width, replicated past the width.
                let e = *elems
                    .get(usize::from(a.offset) + (c % width) as usize)
                    .ok_or(Undefined("address element"))?;
                vals.push(Val::I(i128::from(e)));
            }
            VisaType::UW
        }
        _ => return undef("operand class"),
    };
    let vals = vals.into_iter().map(|v| apply_mod(v, op.modifier, ty)).collect();
    Ok(SrcVals { ty, vals })
}

/// Where each destination channel writes.
enum DstAt {
    /// Variable id and the byte of each channel's element.
    Var(usize, VisaType, Vec<usize>),
    /// Address variable id and element of each channel.
    Addr(usize, Vec<usize>),
    /// A predicate variable (id - 1).
    Pred(usize),
    /// The null variable.
    Null(VisaType),
}

fn dst_at(vars: &VarTable, st: &RefState, op: &VecOperand, n: u32) -> R<DstAt> {
    Ok(match &op.kind {
        OperandKind::General(g) => {
            let var = vars.general.get(g.id as usize).ok_or(Undefined("unknown variable"))?;
            if var.placement == Placement::Null {
                return Ok(DstAt::Null(var.ty));
            }
            let size = var.ty.size();
            let first = u32::from(g.row) * (32 / size) + u32::from(g.col);
            let h = g.region.hstride.elems().unwrap_or(1);
            DstAt::Var(
                g.id as usize,
                var.ty,
                (0..n).map(|c| ((first + c * h) * size) as usize).collect(),
            )
        }
        OperandKind::Indirect(ind) => {
            let a = st
                .addr
                .get(usize::from(ind.addr))
                .ok_or(Undefined("unknown address variable"))?;
            let base = *a
                .get(usize::from(ind.addr_offset))
                .ok_or(Undefined("address element"))?;
            let size = ind.ty.size();
            let h = ind.region.hstride.elems().unwrap_or(1);
            let first = i64::from(base) + i64::from(ind.offset);
            let (k, off) = locate(vars, first, size)?;
            if first % i64::from(size) != 0 {
                return undef("an indirect address not aligned to its type");
            }
            let offs: Vec<usize> = (0..n).map(|c| off + (c * h * size) as usize).collect();
            if offs.iter().any(|&o| o + size as usize > st.vars[k].len()) {
                return undef("an indirect destination leaving its variable");
            }
            // The bytes are the variable's, written as the operand's type.
            return Ok(DstAt::Var(k, ind.ty, offs));
        }
        OperandKind::Address(a) => DstAt::Addr(
            usize::from(a.id),
            (0..n).map(|c| usize::from(a.offset) + c as usize).collect(),
        ),
        OperandKind::Predicate(pc) => DstAt::Pred(usize::from(pc.id) - 1),
        _ => return undef("destination class"),
    })
}

/// The channel enables of an instruction: the specification's
/// `EvaluateChEn`.
pub fn channel_enables(st: &RefState, exec: ExecCtl, pred: Option<PredCtl>) -> R<u32> {
    let n = exec.size.channels();
    let off = exec.mask.offset();
    let all = if n == 32 { u32::MAX } else { (1u32 << n) - 1 };
    let mut chen = if exec.mask.no_mask {
        all
    } else {
        st.em.checked_shr(off).unwrap_or(0) & all
    };
    if let Some(pc) = pred {
        let bits = *st
            .preds
            .get(usize::from(pc.id).wrapping_sub(1))
            .ok_or(Undefined("unknown predicate"))?;
        let mut pmask = bits.checked_shr(off).unwrap_or(0) & all;
        match pc.combine {
            PredCombine::Any => pmask = if pmask != 0 { all } else { 0 },
            PredCombine::All => pmask = if pmask == all { all } else { 0 },
            _ => {}
        }
        if pc.inverse {
            pmask = !pmask & all;
        }
        chen &= pmask;
    }
    Ok(chen)
}

/// The execution type of float sources: DF if any, otherwise F.
fn float_exec(srcs: &[SrcVals]) -> Option<bool> {
    if srcs.iter().any(|s| s.ty == VisaType::DF) {
        Some(true)
    } else if srcs.iter().any(|s| is_float(s.ty)) {
        Some(false)
    } else {
        None
    }
}

fn fop(double: bool, a: Val, b: Val, f: fn(f64, f64) -> f64, g: fn(f32, f32) -> f32) -> Val {
    if double {
        Val::D(f(a.as_f64(), b.as_f64()))
    } else {
        Val::F(g(a.as_f32(), b.as_f32()))
    }
}

fn fun1(double: bool, a: Val, f: fn(f64) -> f64, g: fn(f32) -> f32) -> Val {
    if double {
        Val::D(f(a.as_f64()))
    } else {
        Val::F(g(a.as_f32()))
    }
}

/// Rounds half to even.
fn rne64(x: f64) -> f64 {
    let r = x.round();
    if (x - x.trunc()).abs() == 0.5 {
        2.0 * (x / 2.0).round()
    } else {
        r
    }
}

fn rne32(x: f32) -> f32 {
    let r = x.round();
    if (x - x.trunc()).abs() == 0.5 {
        2.0 * (x / 2.0).round()
    } else {
        r
    }
}

fn compare(r: RelOp, a: Val, b: Val, double: Option<bool>) -> bool {
    use core::cmp::Ordering::*;
    let ord = match double {
        Some(true) => a.as_f64().partial_cmp(&b.as_f64()),
        Some(false) => a.as_f32().partial_cmp(&b.as_f32()),
        None => Some(a.as_int().cmp(&b.as_int())),
    };
    match (r, ord) {
        (RelOp::Ne, None) => true,
        (_, None) => false,
        (RelOp::Eq, Some(o)) => o == Equal,
        (RelOp::Ne, Some(o)) => o != Equal,
        (RelOp::Gt, Some(o)) => o == Greater,
        (RelOp::Ge, Some(o)) => o != Less,
        (RelOp::Lt, Some(o)) => o == Less,
        (RelOp::Le, Some(o)) => o != Greater,
        _ => false,
    }
}

/// Width in bits of the integer execution type of the sources (32, or 64
/// with a Q/UQ source).
fn int_width(srcs: &[SrcVals]) -> u32 {
    if srcs.iter().any(|s| s.ty.size() == 8) {
        64
    } else {
        32
    }
}

/// The value in the unsigned `bits`-bit view.
fn unsigned(v: i128, bits: u32) -> u128 {
    (v as u128) & ((1u128 << bits) - 1)
}

/// One channel of operation `op`.
fn compute(op: VisaOp, srcs: &[SrcVals], c: usize, dst_ty: VisaType, pred_bit: bool) -> R<Val> {
    let a = srcs.first().map(|s| s.vals[c]).unwrap_or(Val::I(0));
    let b = srcs.get(1).map(|s| s.vals[c]).unwrap_or(Val::I(0));
    let fx = float_exec(srcs);
    let dbl = fx == Some(true);
    let w = int_width(srcs);
    Ok(match op {
        VisaOp::Mov => a,
        VisaOp::Add => match fx {
            Some(d) => fop(d, a, b, |x, y| x + y, |x, y| x + y),
            None => Val::I(a.as_int() + b.as_int()),
        },
        VisaOp::Mul => match fx {
            Some(d) => fop(d, a, b, |x, y| x * y, |x, y| x * y),
            None => Val::I(a.as_int() * b.as_int()),
        },
        VisaOp::Avg => Val::I((a.as_int() + b.as_int() + 1) >> 1),
        VisaOp::Frc => fun1(dbl, a, |x| x - x.floor(), |x| x - x.floor()),
        VisaOp::Rndd => fun1(dbl, a, f64::floor, f32::floor),
        VisaOp::Rndu => fun1(dbl, a, f64::ceil, f32::ceil),
        VisaOp::Rnde => fun1(dbl, a, rne64, rne32),
        VisaOp::Rndz => fun1(dbl, a, f64::trunc, f32::trunc),
        VisaOp::Lzd => Val::I(i128::from((unsigned(a.as_int(), 32) as u32).leading_zeros())),
        VisaOp::Fbh => {
            let x = unsigned(a.as_int(), 32) as u32;
            // From the most significant bit: the first 1 (unsigned) or the
            // first bit that differs from the sign (signed); all ones if none.
            let y = if is_signed(srcs[0].ty) && x & 0x8000_0000 != 0 {
                !x
            } else {
                x
            };
            if y == 0 {
                Val::I(0xffff_ffff)
            } else if is_signed(srcs[0].ty) {
                Val::I(i128::from(y.leading_zeros()))
            } else {
                Val::I(i128::from(x.leading_zeros()))
            }
        }
        VisaOp::Fbl => {
            let x = unsigned(a.as_int(), 32) as u32;
            Val::I(if x == 0 {
                0xffff_ffff
            } else {
                i128::from(x.trailing_zeros())
            })
        }
        VisaOp::Cbit => Val::I(i128::from(unsigned(a.as_int(), srcs[0].ty.size() * 8).count_ones())),
        VisaOp::Bfrev => Val::I(i128::from((unsigned(a.as_int(), 32) as u32).reverse_bits())),
        VisaOp::And => Val::I(a.as_int() & b.as_int()),
        VisaOp::Or => Val::I(a.as_int() | b.as_int()),
        VisaOp::Xor => Val::I(a.as_int() ^ b.as_int()),
        VisaOp::Not => Val::I(!a.as_int()),
        VisaOp::Shl => {
            let s = unsigned(b.as_int(), w) as u32 % w;
            Val::I(a.as_int() << s)
        }
        VisaOp::Shr => {
            let s = unsigned(b.as_int(), w) as u32 % w;
            Val::I((unsigned(a.as_int(), w) >> s) as i128)
        }
        VisaOp::Asr => {
            let s = unsigned(b.as_int(), w) as u32 % w;
            Val::I(a.as_int() >> s)
        }
        VisaOp::Min | VisaOp::Max => {
            let lt = op == VisaOp::Min;
            let first = !a.is_nan() && (b.is_nan() || compare(if lt { RelOp::Lt } else { RelOp::Ge }, a, b, fx));
            if first {
                a
            } else {
                b
            }
        }
        VisaOp::Sel => {
            if pred_bit {
                a
            } else {
                b
            }
        }
        // Extended math in f64, rounded once to F: correctly rounded for
        // INV, SQRT and DIV (f64 has more than 2×24+2 bits), Rust's f64
        // functions for the others (the simulator's documented choice where
        // the hardware is approximate).
        VisaOp::Inv => Val::F((1.0 / a.as_f64()) as f32),
        VisaOp::Log => Val::F(a.as_f64().log2() as f32),
        VisaOp::Exp => Val::F(a.as_f64().exp2() as f32),
        VisaOp::Sqrt => Val::F(a.as_f64().sqrt() as f32),
        VisaOp::Rsqrt => Val::F((1.0 / a.as_f64().sqrt()) as f32),
        VisaOp::Sin => Val::F(a.as_f64().sin() as f32),
        VisaOp::Cos => Val::F(a.as_f64().cos() as f32),
        VisaOp::Pow => Val::F(a.as_f64().powf(b.as_f64()) as f32),
        VisaOp::Div if fx.is_some() => Val::F((a.as_f64() / b.as_f64()) as f32),
        VisaOp::Div | VisaOp::Mod => {
            let (x, y) = (a.as_int(), b.as_int());
            if y == 0 {
                return undef("integer division by zero");
            }
            let _ = dst_ty;
            // Quotient rounded toward zero; remainder of the dividend's sign.
            Val::I(if op == VisaOp::Div { x / y } else { x % y })
        }
        VisaOp::AddrAdd => Val::I(a.as_int() + b.as_int()),
        _ => return undef("opcode"),
    })
}

/// Evaluates `inst` on `st`: the specification's semantics, channel by
/// channel. `Err` names what the specification leaves undefined (or the
/// reference does not model); the state is then unchanged.
pub fn eval(vars: &VarTable, st: &mut RefState, inst: &VisaInst) -> Result<(), Undefined> {
    let n = inst.exec.size.channels();
    let off = inst.exec.mask.offset();
    if inst.op == VisaOp::AddrAdd
        && inst
            .src
            .first()
            .is_some_and(|s| matches!(s.kind, OperandKind::General(_)))
    {
        // vISA's ADDR_ADD takes the address of a general src0, not its value.
        return undef("ADDR_ADD of a general variable's address");
    }
    let logic_on_preds = inst.op.is_logic() && matches!(inst.dst.kind, OperandKind::Predicate(_));
    if logic_on_preds {
        return eval_pred_logic(st, inst);
    }
    // CMP, MIN, MAX and SEL read the predicate as data, not as channel enables.
    let (enable_pred, select_pred) = match inst.op {
        VisaOp::Sel => (None, inst.pred),
        _ => (inst.pred, None),
    };
    let chen = channel_enables(st, inst.exec, enable_pred)?;
    let sel_bits = match select_pred {
        Some(pc) => {
            let ex = ExecCtl {
                mask: MaskCtl {
                    no_mask: true,
                    ..inst.exec.mask
                },
                ..inst.exec
            };
            let tmp = RefState {
                em: u32::MAX,
                ..st.clone()
            };
            channel_enables(&tmp, ex, Some(pc))?
        }
        None => 0,
    };
    let srcs = inst
        .src
        .iter()
        .map(|s| read_src(vars, st, s, n))
        .collect::<R<Vec<_>>>()?;
    let sat = inst.dst.modifier == Modifier::Sat;
    let at = dst_at(vars, st, &inst.dst, n)?;
    let dst_ty = match &at {
        DstAt::Var(_, t, _) | DstAt::Null(t) => *t,
        DstAt::Addr(..) => VisaType::UW,
        DstAt::Pred(_) => VisaType::Bool,
    };
    if let Some(why) = unsettled(inst.op, &srcs, dst_ty) {
        return undef(why);
    }
    let mut results = Vec::with_capacity(n as usize);
    for c in 0..n as usize {
        let on = chen >> c & 1 != 0;
        let v = if on {
            Some(compute_or_cmp(inst.op, &srcs, c, dst_ty, sel_bits >> c & 1 != 0)?)
        } else {
            None
        };
        results.push(v);
    }
    // Every read is done: write the enabled channels.
    for (c, r) in results.into_iter().enumerate() {
        let Some(v) = r else { continue };
        match &at {
            DstAt::Var(k, t, offs) => {
                let bytes = match v {
                    Out::Val(v) => to_bytes(*t, v, sat),
                    Out::Bool(b) => vec![if b { 0xff } else { 0 }; t.size() as usize],
                };
                let o = offs[c];
                st.vars[*k][o..o + bytes.len()].copy_from_slice(&bytes);
            }
            DstAt::Addr(k, elems) => {
                let Out::Val(v) = v else {
                    return undef("a predicate into an address");
                };
                let e = st.addr[*k].get_mut(elems[c]).ok_or(Undefined("address element"))?;
                *e = v.as_int() as u16;
            }
            DstAt::Pred(k) => {
                let Out::Bool(b) = v else {
                    return undef("a value into a predicate");
                };
                let bit = 1u32 << (off as usize + c);
                let p = st.preds.get_mut(*k).ok_or(Undefined("unknown predicate"))?;
                *p = if b { *p | bit } else { *p & !bit };
            }
            DstAt::Null(_) => {}
        }
    }
    Ok(())
}

/// The cases the documents at hand do not settle (see the module's doc).
fn unsettled(op: VisaOp, srcs: &[SrcVals], dst_ty: VisaType) -> Option<&'static str> {
    let first = srcs.first().map(|s| s.ty)?;
    if float_exec(srcs).is_none() {
        let intermediate = matches!(
            op,
            VisaOp::Add
                | VisaOp::Mul
                | VisaOp::Avg
                | VisaOp::And
                | VisaOp::Or
                | VisaOp::Xor
                | VisaOp::Not
                | VisaOp::Shl
                | VisaOp::Shr
                | VisaOp::Asr
                | VisaOp::Div
                | VisaOp::Mod
        );
        if intermediate && (is_float(dst_ty) || dst_ty.size() * 8 > int_width(srcs)) {
            return Some("an integer result converted to a float or a wider integer");
        }
    }
    if op == VisaOp::Cbit && (is_signed(first) && first.size() < 4 || first.size() == 8) {
        return Some("CBIT of a signed type narrower than a dword, or of a 64-bit type");
    }
    if op == VisaOp::Asr && !is_signed(first) {
        return Some("ASR of an unsigned type");
    }
    let wide = srcs.iter().any(|s| s.ty.size() == 8 && !is_float(s.ty));
    let mixed = srcs.iter().any(|s| is_signed(s.ty)) && srcs.iter().any(|s| !is_signed(s.ty));
    if wide && mixed && matches!(op, VisaOp::Cmp(_) | VisaOp::Min | VisaOp::Max) {
        return Some("a comparison of 64-bit integers of different signedness");
    }
    if wide && op == VisaOp::Avg {
        return Some("AVG of 64-bit integers");
    }
    None
}

enum Out {
    Val(Val),
    Bool(bool),
}

fn compute_or_cmp(op: VisaOp, srcs: &[SrcVals], c: usize, dst_ty: VisaType, sel: bool) -> R<Out> {
    if let VisaOp::Cmp(r) = op {
        return Ok(Out::Bool(compare(
            r,
            srcs[0].vals[c],
            srcs[1].vals[c],
            float_exec(srcs),
        )));
    }
    compute(op, srcs, c, dst_ty, sel).map(Out::Val)
}

/// AND, OR, XOR and NOT on predicates: element-wise over the channels of
/// the mask offset, every channel (a predicate is not masked).
fn eval_pred_logic(st: &mut RefState, inst: &VisaInst) -> Result<(), Undefined> {
    let n = inst.exec.size.channels();
    let off = inst.exec.mask.offset();
    let all = if n == 32 { u32::MAX } else { (1u32 << n) - 1 } << off;
    let read = |op: &VecOperand| -> R<u32> {
        let OperandKind::Predicate(pc) = op.kind else {
            return undef("a non-predicate operand");
        };
        let bits = *st
            .preds
            .get(usize::from(pc.id).wrapping_sub(1))
            .ok_or(Undefined("unknown predicate"))?;
        let inv = pc.inverse != (op.modifier == Modifier::Not);
        Ok(if inv { !bits } else { bits })
    };
    let a = read(&inst.src[0])?;
    let r = match inst.op {
        VisaOp::Not => !a,
        VisaOp::And => a & read(&inst.src[1])?,
        VisaOp::Or => a | read(&inst.src[1])?,
        VisaOp::Xor => a ^ read(&inst.src[1])?,
        _ => return undef("opcode"),
    };
    let OperandKind::Predicate(pc) = inst.dst.kind else {
        return undef("destination");
    };
    let p = st
        .preds
        .get_mut(usize::from(pc.id).wrapping_sub(1))
        .ok_or(Undefined("unknown predicate"))?;
    *p = (*p & !all) | (r & all);
    Ok(())
}

/// A typed surface as the reference sees it: `width × height` texels of
/// four dwords (R, G, B, A), one level, one slice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefSurface {
    /// Width in texels.
    pub width: u32,
    /// Height in texels.
    pub height: u32,
    /// Texels in rows, each R, G, B, A.
    pub texels: Vec<[u32; 4]>,
    /// What the alpha channel of an out-of-bound read gives ("ones":
    /// `1` for an integer format, `1.0` for a float one).
    pub oob_alpha: u32,
}

impl RefSurface {
    /// The texel at (u, v, r, lod): out of bounds (outside the width and
    /// height, a slice or level other than 0) gives zeros and alpha one.
    pub fn texel(&self, u: u32, v: u32, r: u32, lod: u32) -> [u32; 4] {
        if u >= self.width || v >= self.height || r != 0 || lod != 0 {
            return [0, 0, 0, self.oob_alpha];
        }
        self.texels[(v * self.width + u) as usize]
    }
}

/// Reads the first `n` UD elements of a raw operand (zeros for a missing
/// or null operand).
fn raw_uds(vars: &VarTable, st: &RefState, op: Option<RawOperand>, n: usize) -> R<Vec<u32>> {
    let Some(op) = op else { return Ok(vec![0; n]) };
    let var = vars.general.get(op.id as usize).ok_or(Undefined("unknown variable"))?;
    if var.placement == Placement::Null {
        return Ok(vec![0; n]);
    }
    let bytes = &st.vars[op.id as usize];
    let o = usize::from(op.offset);
    (0..n)
        .map(|i| {
            let b = bytes
                .get(o + 4 * i..o + 4 * i + 4)
                .ok_or(Undefined("raw operand past its variable"))?;
            Ok(u32::from_le_bytes(b.try_into().unwrap_or_default()))
        })
        .collect()
}

/// GATHER4_TYPED on `surface`: the specification's pseudo-code. For each
/// enabled colour channel in RGBA order, the enabled SIMD channels' texel
/// components go to the next `max(exec_size, 8)` dwords of `dst`. Returns
/// the byte offsets in `dst` of the dwords written.
pub fn gather4_typed(
    vars: &VarTable,
    st: &mut RefState,
    g: &VisaGather4Typed,
    surface: &RefSurface,
) -> Result<Vec<usize>, Undefined> {
    let n = g.exec.size.channels() as usize;
    let chen = channel_enables(st, g.exec, g.pred)?;
    let u = raw_uds(vars, st, Some(g.u), n)?;
    let v = raw_uds(vars, st, g.v, n)?;
    let r = raw_uds(vars, st, g.r, n)?;
    let lod = raw_uds(vars, st, g.lod, n)?;
    let dst = g.dst.id as usize;
    if !vars.general.get(dst).is_some_and(|d| d.placement != Placement::Null) {
        return undef("GATHER4_TYPED into the null variable");
    }
    let mut ch_pos = 0;
    let mut written = Vec::new();
    for c in 0..4 {
        if g.channels >> c & 1 == 0 {
            continue;
        }
        for i in 0..n {
            if chen >> i & 1 != 0 {
                let start = ch_pos * n.max(8);
                let texel = surface.texel(u[i], v[i], r[i], lod[i]);
                let at = usize::from(g.dst.offset) + 4 * (start + i);
                let d = st.vars[dst]
                    .get_mut(at..at + 4)
                    .ok_or(Undefined("dst past its variable"))?;
                d.copy_from_slice(&texel[c].to_le_bytes());
                written.push(at);
            }
        }
        ch_pos += 1;
    }
    Ok(written)
}
