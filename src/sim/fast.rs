//! The hot path: a plan made once per instruction (when the program is
//! decoded) for the common ALU forms — align1, direct GRF or immediate
//! operands of one 32-bit type (F, D or UD), no saturation, no
//! accumulator write, at most a normal predicate — with every element's
//! byte address precomputed (a run of dwords or one dword for every
//! channel kept as its start, read and written whole). The operation is
//! chosen once per instruction and runs on whole arrays of lanes. Anything
//! else runs through the general [`super::exec::alu`], which gives the
//! same results (the tests run both).

use super::exec::{flag_bit_index, low, Geo};
use super::float::{flush32, Rnd};
use super::state::{Thread, GRF_FILE_BYTES};
use crate::isa::cr0;
use crate::model::{
    AccessMode, Addr, CondMod, Controls, Instruction, Opcode, Platform, PredCtrl, RegFile, SrcMods, Type,
};

/// The operations of the fast path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Op {
    Mov,
    Add,
    Mul,
    And,
    Or,
    Xor,
    Not,
    Shl,
    Shr,
    Asr,
    /// SEL with a condition (min/max).
    SelCond(CondMod),
    /// CMP writing its destination and flag.
    Cmp(CondMod),
}

/// The element type of every operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    F,
    D,
    Ud,
}

/// A source: an immediate, or the byte address of each channel's element.
#[derive(Clone, Debug)]
enum Operand {
    Imm(u32),
    /// Dwords, one after another from this byte address.
    Seq(u16),
    /// The dword at this byte address, for every channel.
    Rep(u16),
    /// Dwords.
    Grf([u16; 16]),
    /// Signed words, extended.
    GrfW([u16; 16]),
    /// Unsigned words, extended.
    GrfUw([u16; 16]),
}

/// A destination's dword addresses.
#[derive(Clone, Debug)]
enum Out {
    /// One after another from this byte address.
    Seq(u16),
    /// Each channel's.
    At([u16; 16]),
}

/// A plan of one instruction.
#[derive(Clone, Debug)]
pub(crate) struct Plan {
    op: Op,
    kind: Kind,
    geo: Geo,
    src: [Operand; 2],
    mods: [SrcMods; 2],
    /// Each source's kind (a compare's signedness).
    skinds: [Kind; 2],
    /// The destination (`None`: the null register).
    dst: Option<Out>,
    /// Predicated (normal, possibly inverted).
    pred: Option<bool>,
    flag: crate::model::FlagReg,
}

/// A source type's kind (words count as the 32-bit kind of their
/// signedness) and element size.
fn src_kind(t: Type) -> Option<(Kind, u32)> {
    Some(match t {
        Type::W => (Kind::D, 2),
        Type::UW => (Kind::Ud, 2),
        t => (kind(t)?, 4),
    })
}

fn kind(t: Type) -> Option<Kind> {
    match t {
        Type::F => Some(Kind::F),
        Type::D => Some(Kind::D),
        Type::UD => Some(Kind::Ud),
        _ => None,
    }
}

impl Plan {
    /// The plan of `i`, if it is one of the fast path's forms.
    pub(crate) fn of(p: Platform, i: &Instruction) -> Option<Plan> {
        if i.access_mode != AccessMode::Align1
            || i.controls.intersects(Controls::SATURATE | Controls::ACC_WR)
            || i.exec_size.channels() > 16
        {
            return None;
        }
        let cm = i.cond_mod().filter(|c| *c != CondMod::None);
        let op = match (i.opcode, cm) {
            (Opcode::Mov, None) => Op::Mov,
            (Opcode::Add, None) => Op::Add,
            (Opcode::Mul, None) => Op::Mul,
            (Opcode::And, None) => Op::And,
            (Opcode::Or, None) => Op::Or,
            (Opcode::Xor, None) => Op::Xor,
            (Opcode::Not, None) => Op::Not,
            (Opcode::Shl, None) => Op::Shl,
            (Opcode::Shr, None) => Op::Shr,
            (Opcode::Asr, None) => Op::Asr,
            (Opcode::Sel, Some(c @ (CondMod::L | CondMod::Ge))) => Op::SelCond(c),
            (
                Opcode::Cmp,
                Some(c @ (CondMod::Z | CondMod::Nz | CondMod::G | CondMod::Ge | CondMod::L | CondMod::Le)),
            ) => Op::Cmp(c),
            _ => return None,
        };
        let pred = match i.pred_ctrl() {
            Ok(None) => None,
            Ok(Some(PredCtrl::Normal)) => Some(i.controls.contains(Controls::PRED_INV)),
            _ => return None,
        };
        // A predicated SEL selects by its predicate: not this path's.
        if matches!(op, Op::SelCond(_)) && pred.is_some() {
            return None;
        }
        let geo = Geo::of(p, i);
        if geo.ivb_df || geo.n > 16 {
            return None;
        }
        let k = kind(i.dst.ty)?;
        // Logic and shifts on floats (which the validator refuses) take
        // the general path.
        if k == Kind::F && !matches!(op, Op::Mov | Op::Add | Op::Mul | Op::SelCond(_) | Op::Cmp(_)) {
            return None;
        }
        let nsrc = i.opcode.num_srcs() as usize;
        let mut src = [Operand::Imm(0), Operand::Imm(0)];
        let mut mods = [SrcMods::empty(); 2];
        let float = match op {
            Op::Cmp(_) => kind(i.src.first()?.ty)? == Kind::F,
            _ => k == Kind::F,
        };
        let mut skinds = [Kind::D; 2];
        for s in 0..nsrc {
            let o = i.src.get(s)?;
            let (sk, size) = src_kind(o.ty)?;
            // Floats with floats only (a float compare may write D);
            // integers of any 16- or 32-bit type mix.
            if (sk == Kind::F) != float {
                return None;
            }
            // A modified unsigned value is wider than 32 bits (-1 is
            // below 0): the general path keeps it.
            if sk == Kind::Ud && !o.mods.is_empty() && !matches!(op, Op::And | Op::Or | Op::Xor | Op::Not) {
                return None;
            }
            *mods.get_mut(s)? = o.mods;
            *skinds.get_mut(s)? = sk;
            *src.get_mut(s)? = if o.is_imm() {
                let (_, v) = i.imm_value()?;
                Operand::Imm(match o.ty {
                    Type::W => v as u16 as i16 as i32 as u32,
                    Type::UW => u32::from(v as u16),
                    _ => v as u32,
                })
            } else {
                let Addr::Direct { nr, subnr } = o.addr else {
                    return None;
                };
                if o.file != RegFile::Grf || o.region.is_vxh() {
                    return None;
                }
                let v = o.region.vstride_elems()?;
                let w = o.region.width_elems()?;
                let h = o.region.hstride_elems();
                let base = u32::from(nr) * 32 + u32::from(subnr);
                let mut a = [0u16; 16];
                for (c, x) in a.iter_mut().enumerate().take(geo.n as usize) {
                    let c = c as u32;
                    let at = base + ((c / w) * v + (c % w) * h) * size;
                    if at % size != 0 || (at + size) as usize > GRF_FILE_BYTES {
                        return None;
                    }
                    *x = at as u16;
                }
                match (size, sk) {
                    (2, Kind::D) => Operand::GrfW(a),
                    (2, _) => Operand::GrfUw(a),
                    _ => {
                        let n = geo.n as usize;
                        let a0 = a.first().copied().unwrap_or(0);
                        if a.iter()
                            .take(n)
                            .zip(0..)
                            .all(|(&x, c)| u32::from(x) == u32::from(a0) + 4 * c)
                        {
                            Operand::Seq(a0)
                        } else if a.iter().take(n).all(|&x| x == a0) {
                            Operand::Rep(a0)
                        } else {
                            Operand::Grf(a)
                        }
                    }
                }
            };
        }
        let src_kind = if float {
            Kind::F
        } else if k == Kind::F {
            // An integer compare writing F: its kind is its sources'.
            Kind::D
        } else {
            k
        };
        if matches!(op, Op::Cmp(_)) && kind(i.dst.ty).is_none() {
            return None;
        }
        let dst = match (i.dst.file, i.dst.addr) {
            (RegFile::Arf, Addr::Direct { nr, .. }) if crate::isa::arf::class(nr) == crate::isa::arf::NULL => None,
            (RegFile::Grf, Addr::Direct { nr, subnr }) => {
                let h = i.dst.hstride_elems();
                let base = u32::from(nr) * 32 + u32::from(subnr);
                let mut a = [0u16; 16];
                for (c, x) in a.iter_mut().enumerate().take(geo.n as usize) {
                    let at = base + c as u32 * h * 4;
                    if at % 4 != 0 || at as usize + 4 > GRF_FILE_BYTES {
                        return None;
                    }
                    *x = at as u16;
                }
                Some(if h == 1 { Out::Seq(a[0]) } else { Out::At(a) })
            }
            _ => return None,
        };
        Some(Plan {
            op,
            kind: src_kind,
            geo,
            src,
            mods,
            skinds,
            dst,
            pred,
            flag: i.flag,
        })
    }

    /// Executes the plan on the channels of `active`; `None` when this
    /// run's state needs the general path (a rounding mode other than
    /// nearest even for float operations).
    ///
    /// Every operation runs on whole arrays of 16 lanes (the sources read
    /// whole, the operation chosen once, not per channel); the lanes past
    /// the execution size and the disabled channels are computed too, and
    /// neither written nor counted in the flag.
    #[inline]
    pub(crate) fn run(&self, t: &mut Thread, active: u32, we_all: bool) -> Option<u32> {
        let geo = &self.geo;
        let n = geo.n as usize;
        let float = self.kind == Kind::F;
        let cr = if float { t.cr0() } else { 0 };
        if float && Rnd::of_cr0(cr) != Rnd::Even {
            return None;
        }
        let flush = float && cr & cr0::SP_DENORM_RETAIN == 0;
        let all = low(geo.n);
        let mut en = if we_all { all } else { (active >> geo.first) & all };
        let cmp = matches!(self.op, Op::Cmp(_));
        let fshift = flag_bit_index(self.flag, geo.first);
        let flags = if cmp || self.pred.is_some() { t.flag_bits() } else { 0 };
        if let Some(inv) = self.pred {
            let bits = if fshift < 64 { (flags >> fshift) as u32 & all } else { 0 };
            en &= if inv { !bits } else { bits };
        }
        let grf = &t.grf[..];
        let (mut a, mut b) = ([0u32; 16], [0u32; 16]);
        load(&self.src[0], grf, n, &mut a);
        load(&self.src[1], grf, n, &mut b);
        let mut cond = 0u32;
        let out = match (self.kind, self.op) {
            // A raw move.
            (_, Op::Mov) if self.mods[0].is_empty() => a,
            (Kind::F, op) => {
                for (v, m) in [(&mut a, self.mods[0]), (&mut b, self.mods[1])] {
                    if !m.is_empty() {
                        v.iter_mut().for_each(|x| *x = modify(*x, m, Kind::F, op));
                    }
                    if flush {
                        v.iter_mut().for_each(|x| *x = flush32(f32::from_bits(*x)).to_bits());
                    }
                }
                let f = |x: u32| f32::from_bits(x);
                let r = match op {
                    Op::Mov => a,
                    Op::Add => map2(&a, &b, |x, y| (f(x) + f(y)).to_bits()),
                    Op::Mul => map2(&a, &b, |x, y| (f(x) * f(y)).to_bits()),
                    // min/max: the number where one is NaN.
                    Op::SelCond(c) => {
                        let lt = c == CondMod::L;
                        map2(&a, &b, |x, y| {
                            let (p, q) = (f(x), f(y));
                            let take0 = if p.is_nan() || q.is_nan() {
                                q.is_nan()
                            } else if lt {
                                p < q
                            } else {
                                p >= q
                            };
                            if take0 {
                                x
                            } else {
                                y
                            }
                        })
                    }
                    Op::Cmp(c) => {
                        cond = mask(c, &a, &b, f);
                        return self.finish(t, set(cond), en, fshift, flags, cond);
                    }
                    // Not the plan's (logic and shifts on floats).
                    _ => return None,
                };
                if flush {
                    map2(&r, &r, |x, _| flush32(f32::from_bits(x)).to_bits())
                } else {
                    r
                }
            }
            // Integer compares see the modified values whole (abs of the
            // most negative D is positive).
            (_, Op::Cmp(c) | Op::SelCond(c)) => {
                let wide_all = |v: &[u32; 16], s: usize| -> [i64; 16] {
                    let (m, k) = (
                        self.mods.get(s).copied().unwrap_or(SrcMods::empty()),
                        self.skinds.get(s).copied().unwrap_or(Kind::D),
                    );
                    let mut w = [0i64; 16];
                    for (w, &x) in w.iter_mut().zip(v.iter()) {
                        *w = wide(x, m, k);
                    }
                    w
                };
                let (x, y) = (wide_all(&a, 0), wide_all(&b, 1));
                let h = mask(c, &x, &y, |v| v);
                if cmp {
                    cond = h;
                    set(h)
                } else {
                    let mut o = [0u32; 16];
                    for (ch, (o, (&x, &y))) in o.iter_mut().zip(x.iter().zip(y.iter())).enumerate() {
                        *o = if h >> ch & 1 != 0 { x as u32 } else { y as u32 };
                    }
                    o
                }
            }
            (_, op) => {
                for (v, m, k) in [
                    (&mut a, self.mods[0], self.skinds[0]),
                    (&mut b, self.mods[1], self.skinds[1]),
                ] {
                    if !m.is_empty() {
                        v.iter_mut().for_each(|x| *x = modify(*x, m, k, op));
                    }
                }
                match op {
                    Op::Mov => a,
                    Op::Add => map2(&a, &b, u32::wrapping_add),
                    Op::Mul => map2(&a, &b, u32::wrapping_mul),
                    Op::And => map2(&a, &b, |x, y| x & y),
                    Op::Or => map2(&a, &b, |x, y| x | y),
                    Op::Xor => map2(&a, &b, |x, y| x ^ y),
                    Op::Not => map2(&a, &a, |x, _| !x),
                    Op::Shl => map2(&a, &b, |x, y| x << (y & 31)),
                    Op::Shr => map2(&a, &b, |x, y| x >> (y & 31)),
                    Op::Asr => map2(&a, &b, |x, y| ((x as i32) >> (y & 31)) as u32),
                    Op::SelCond(_) | Op::Cmp(_) => return None,
                }
            }
        };
        self.finish(t, out, en, fshift, flags, cond)
    }

    /// Writes the enabled channels of `out` and, for a compare, their
    /// flag bits (`cond`); the executed channels.
    #[inline(always)]
    fn finish(&self, t: &mut Thread, out: [u32; 16], en: u32, fshift: u32, flags: u64, cond: u32) -> Option<u32> {
        let geo = &self.geo;
        let n = geo.n as usize;
        let grf = &mut t.grf[..];
        match &self.dst {
            None => {}
            Some(Out::Seq(at)) => {
                let at = usize::from(*at);
                if let Some(s) = grf.get_mut(at..at + 4 * n) {
                    if en == low(geo.n) {
                        for (d, v) in s.chunks_exact_mut(4).zip(out.iter()) {
                            d.copy_from_slice(&v.to_le_bytes());
                        }
                    } else {
                        for (ch, (d, v)) in s.chunks_exact_mut(4).zip(out.iter()).enumerate() {
                            if en >> ch & 1 != 0 {
                                d.copy_from_slice(&v.to_le_bytes());
                            }
                        }
                    }
                }
            }
            Some(Out::At(d)) => {
                for (ch, (&v, &at)) in out.iter().zip(d.iter()).enumerate().take(n) {
                    if en >> ch & 1 != 0 {
                        let at = usize::from(at);
                        if let Some(s) = grf.get_mut(at..at + 4) {
                            s.copy_from_slice(&v.to_le_bytes());
                        }
                    }
                }
            }
        }
        if matches!(self.op, Op::Cmp(_)) && fshift < 64 {
            let m = u64::from(en) << fshift;
            t.set_flag_bits(flags & !m | (u64::from(cond) << fshift) & m);
        }
        Some(en << geo.first)
    }
}

/// The dword at byte `at` of the register file (0 past its end, which
/// the plan's addresses never are).
#[inline(always)]
fn dword(grf: &[u8], at: u16) -> u32 {
    let at = usize::from(at);
    grf.get(at..at + 4)
        .and_then(|b| b.try_into().ok())
        .map_or(0, u32::from_le_bytes)
}

/// A source's elements for the first `n` channels (and, for immediates
/// and scalars, the rest), as 32 bits.
#[inline(always)]
fn load(o: &Operand, grf: &[u8], n: usize, v: &mut [u32; 16]) {
    match o {
        Operand::Imm(x) => *v = [*x; 16],
        Operand::Rep(at) => *v = [dword(grf, *at); 16],
        Operand::Seq(at) => {
            let at = usize::from(*at);
            if let Some(s) = grf.get(at..at + 4 * n) {
                for (d, b) in v.iter_mut().zip(s.chunks_exact(4)) {
                    *d = b.try_into().map_or(0, u32::from_le_bytes);
                }
            }
        }
        Operand::Grf(a) => {
            for (d, &at) in v.iter_mut().zip(a.iter()).take(n) {
                *d = dword(grf, at);
            }
        }
        Operand::GrfW(a) | Operand::GrfUw(a) => {
            let signed = matches!(o, Operand::GrfW(_));
            for (d, &at) in v.iter_mut().zip(a.iter()).take(n) {
                let at = usize::from(at);
                let w = grf
                    .get(at..at + 2)
                    .and_then(|b| b.try_into().ok())
                    .map_or(0, u16::from_le_bytes);
                *d = if signed { w as i16 as i32 as u32 } else { u32::from(w) };
            }
        }
    }
}

/// `f` on each lane of two sources.
#[inline(always)]
fn map2(a: &[u32; 16], b: &[u32; 16], f: impl Fn(u32, u32) -> u32) -> [u32; 16] {
    let mut o = [0u32; 16];
    for (o, (&x, &y)) in o.iter_mut().zip(a.iter().zip(b.iter())) {
        *o = f(x, y);
    }
    o
}

/// The lanes where `c` holds between `x` and `y`, as bits (unordered, a
/// NaN: only "not equal" holds, as Rust's float comparisons have it).
#[inline(always)]
fn mask<T: Copy, U: PartialOrd>(c: CondMod, x: &[T; 16], y: &[T; 16], as_: impl Fn(T) -> U) -> u32 {
    #[inline(always)]
    fn bits<T: Copy, U>(x: &[T; 16], y: &[T; 16], as_: impl Fn(T) -> U, f: impl Fn(U, U) -> bool) -> u32 {
        let mut m = 0u32;
        for (ch, (&p, &q)) in x.iter().zip(y.iter()).enumerate() {
            m |= u32::from(f(as_(p), as_(q))) << ch;
        }
        m
    }
    match c {
        CondMod::Z => bits(x, y, as_, |p, q| p == q),
        CondMod::Nz => bits(x, y, as_, |p, q| p != q),
        CondMod::G => bits(x, y, as_, |p, q| p > q),
        CondMod::Ge => bits(x, y, as_, |p, q| p >= q),
        CondMod::L => bits(x, y, as_, |p, q| p < q),
        CondMod::Le => bits(x, y, as_, |p, q| p <= q),
        _ => 0,
    }
}

/// A compare's destination: all ones where `h` holds.
#[inline(always)]
fn set(h: u32) -> [u32; 16] {
    let mut o = [0u32; 16];
    for (ch, o) in o.iter_mut().enumerate() {
        *o = 0u32.wrapping_sub(h >> ch & 1);
    }
    o
}

/// An integer source with its modifiers, as a wide value.
#[inline]
fn wide(v: u32, m: SrcMods, k: Kind) -> i64 {
    let mut x = if k == Kind::D {
        i64::from(v as i32)
    } else {
        i64::from(v)
    };
    if m.contains(SrcMods::ABS) {
        x = x.wrapping_abs();
    }
    if m.contains(SrcMods::NEGATE) {
        x = x.wrapping_neg();
    }
    x
}

/// A source modifier on a 32-bit value.
#[inline]
fn modify(v: u32, m: SrcMods, k: Kind, op: Op) -> u32 {
    if m.is_empty() {
        return v;
    }
    if matches!(op, Op::And | Op::Or | Op::Xor | Op::Not) {
        return if m.contains(SrcMods::NEGATE) { !v } else { v };
    }
    match k {
        Kind::F => {
            let mut x = v;
            if m.contains(SrcMods::ABS) {
                x &= !(1 << 31);
            }
            if m.contains(SrcMods::NEGATE) {
                x ^= 1 << 31;
            }
            x
        }
        _ => {
            let mut x = v as i32;
            // The absolute value of an unsigned value is itself.
            if m.contains(SrcMods::ABS) && k == Kind::D {
                x = x.wrapping_abs();
            }
            if m.contains(SrcMods::NEGATE) {
                x = x.wrapping_neg();
            }
            x as u32
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Dst, ExecSize, FlagReg, Region, Src};
    use crate::sim::exec::{alu, Ctx};

    /// xorshift64*.
    fn next(s: &mut u64) -> u64 {
        *s ^= *s >> 12;
        *s ^= *s << 25;
        *s ^= *s >> 27;
        s.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// The plan and the general ALU agree on every instruction the plan
    /// takes: destination bytes, flags and executed channels.
    #[test]
    fn the_plan_agrees_with_the_general_alu() {
        let mut s = 0x1234_5678_9abc_def1u64;
        let ops = [
            Opcode::Mov,
            Opcode::Add,
            Opcode::Mul,
            Opcode::And,
            Opcode::Or,
            Opcode::Xor,
            Opcode::Not,
            Opcode::Shl,
            Opcode::Shr,
            Opcode::Asr,
            Opcode::Sel,
            Opcode::Cmp,
        ];
        let regions = [
            Region::new(8, 8, 1),
            Region::new(0, 1, 0),
            Region::new(4, 4, 1),
            Region::new(2, 4, 0),
        ];
        let types = [Type::F, Type::D, Type::UD];
        let (mut planned, mut runs, mut scalars) = (0, 0, 0);
        for _ in 0..12_000 {
            let p = Platform::ALL[(next(&mut s) % 4) as usize];
            let op = ops[(next(&mut s) % ops.len() as u64) as usize];
            let ty = types[(next(&mut s) % 3) as usize];
            let exec = [ExecSize::S1, ExecSize::S4, ExecSize::S8, ExecSize::S16][(next(&mut s) % 4) as usize];
            let mut i = Instruction::new(op, exec);
            i.dst = Dst::grf((next(&mut s) % 120) as u8, 4 * (next(&mut s) % 2) as u8, ty);
            if next(&mut s) % 8 == 0 {
                i.dst = Dst { ty, ..Dst::null() };
            } else if next(&mut s) % 6 == 0 {
                // A strided destination (element addresses, not a run).
                i.dst.hstride = 2;
            }
            for k in 0..2 {
                let r = regions[(next(&mut s) % 4) as usize].unwrap_or(Region::SCALAR);
                let sty = if next(&mut s) % 2 == 0 {
                    ty
                } else {
                    [Type::D, Type::UD, Type::W, Type::UW][(next(&mut s) % 4) as usize]
                };
                let mut src = Src::grf((next(&mut s) % 120) as u8, 4 * (next(&mut s) % 8) as u8, sty, r);
                src.mods = SrcMods::from_bits_truncate(next(&mut s) as u8 & 3);
                if k == 1 && next(&mut s) % 3 == 0 {
                    src = Src::imm(sty);
                    i.imm = next(&mut s) & 0xffff_ffff;
                }
                i.src[k] = src;
            }
            i.cond_modifier = match op {
                Opcode::Sel => [4u8, 5][(next(&mut s) % 2) as usize],
                Opcode::Cmp => 1 + (next(&mut s) % 6) as u8,
                _ => 0,
            };
            if next(&mut s) % 3 == 0 {
                i.pred_control = 1;
                i.controls.set(Controls::PRED_INV, next(&mut s) % 2 == 0);
            }
            i.controls.set(Controls::WE_ALL, next(&mut s) % 4 == 0);
            i.flag = FlagReg {
                nr: (next(&mut s) % 2) as u8,
                subnr: (next(&mut s) % 2) as u8,
            };
            let Some(plan) = Plan::of(p, &i) else { continue };
            planned += 1;
            if matches!(plan.dst, Some(Out::Seq(_))) && plan.src.iter().any(|o| matches!(o, Operand::Seq(_))) {
                runs += 1;
            }
            if plan.src.iter().any(|o| matches!(o, Operand::Rep(_))) {
                scalars += 1;
            }
            let mut t = Thread::new();
            for b in t.grf.iter_mut() {
                *b = next(&mut s) as u8;
            }
            // Some floats that are small, zero, NaN and denormal.
            for r in 0..128u8 {
                if next(&mut s) % 2 == 0 {
                    let v: [u32; 8] = core::array::from_fn(|_| match next(&mut s) % 5 {
                        0 => 0x7fc0_0000,
                        1 => 0x0000_0100,
                        2 => 0x8000_0000,
                        _ => ((next(&mut s) % 64) as f32 - 32.0).to_bits(),
                    });
                    t.write_ud8(r, v);
                }
            }
            t.set_flag(0, next(&mut s) as u32);
            t.set_flag(1, next(&mut s) as u32);
            if next(&mut s) % 2 == 0 {
                t.set_cr0(crate::isa::cr0::SP_DENORM_RETAIN);
            }
            // Every channel on (whole registers written at once), or some.
            let active = if next(&mut s) % 2 == 0 {
                u32::MAX
            } else {
                next(&mut s) as u32
            };
            let mut u = t.clone();
            let fast = plan.run(&mut t, active, i.controls.contains(Controls::WE_ALL));
            let geo = Geo::of(p, &i);
            let mut ctx = Ctx {
                p,
                t: &mut u,
                i: &i,
                offset: 0,
                geo,
            };
            let general = alu(&mut ctx, active);
            assert_eq!(fast, general.ok(), "{i:?}");
            // NaN payloads are not modelled: compare with NaNs made one.
            let canon = |t: &Thread| -> alloc::vec::Vec<u32> {
                (0..1024u32)
                    .map(|k| {
                        let v = t.read_ud((k / 8) as u8, (k % 8) * 4).unwrap_or(0);
                        if ty == Type::F && f32::from_bits(v).is_nan() {
                            0x7fc0_0000
                        } else {
                            v
                        }
                    })
                    .collect()
            };
            assert!(canon(&t) == canon(&u), "{p} {i:?}");
            assert_eq!(t.flags, u.flags, "{i:?}");
        }
        assert!(
            planned > 3_000 && runs > 1_000 && scalars > 700,
            "{planned} {runs} {scalars}"
        );
    }
}
