//! The hot path: a plan made once per instruction (when the program is
//! decoded) for the common ALU forms — align1, direct GRF or immediate
//! operands of one 32-bit type (F, D or UD), no saturation, no
//! accumulator write, at most a normal predicate — with every element's
//! byte address precomputed. Anything else runs through the general
//! [`super::exec::alu`], which gives the same results (the tests run both).

use super::exec::{low, Geo};
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
    Grf([u16; 16]),
    /// Signed words, extended.
    GrfW([u16; 16]),
    /// Unsigned words, extended.
    GrfUw([u16; 16]),
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
    /// Destination byte addresses (`None`: the null register).
    dst: Option<[u16; 16]>,
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
                    _ => Operand::Grf(a),
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
                Some(a)
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
    #[inline]
    pub(crate) fn run(&self, t: &mut Thread, active: u32, we_all: bool) -> Option<u32> {
        let geo = &self.geo;
        let n = geo.n as usize;
        let cr = t.cr0();
        if self.kind == Kind::F && Rnd::of_cr0(cr) != Rnd::Even {
            return None;
        }
        let flush = self.kind == Kind::F && cr & cr0::SP_DENORM_RETAIN == 0;
        let mut en = if we_all {
            low(geo.n)
        } else {
            (active >> geo.first) & low(geo.n)
        };
        let flags = u64::from(t.flag(0)) | u64::from(t.flag(1)) << 32;
        let fshift = u32::from(self.flag.nr & 1) * 32 + u32::from(self.flag.subnr & 1) * 16 + geo.first;
        if let Some(inv) = self.pred {
            let bits = if fshift < 64 {
                (flags >> fshift) as u32 & low(geo.n)
            } else {
                0
            };
            en &= if inv { !bits } else { bits };
        }
        let grf = &t.grf[..];
        let read = |o: &Operand, ch: usize| -> u32 { read_elem(o, grf, ch) };
        let mut out = [0u32; 16];
        let mut cond = 0u32;
        // The common operations without modifiers, one loop each.
        let plain = self.mods[0].is_empty() && self.mods[1].is_empty();
        let done = plain
            && match (self.kind, self.op) {
                (_, Op::Mov) => lanes(&self.src, grf, en, n, &mut out, |a, _| a),
                (Kind::F, Op::Add) => lanes(&self.src, grf, en, n, &mut out, |a, b| fop(a, b, flush, |x, y| x + y)),
                (Kind::F, Op::Mul) => lanes(&self.src, grf, en, n, &mut out, |a, b| fop(a, b, flush, |x, y| x * y)),
                (Kind::F, _) => false,
                (_, Op::Add) => lanes(&self.src, grf, en, n, &mut out, u32::wrapping_add),
                (_, Op::Mul) => lanes(&self.src, grf, en, n, &mut out, u32::wrapping_mul),
                (_, Op::And) => lanes(&self.src, grf, en, n, &mut out, |a, b| a & b),
                (_, Op::Or) => lanes(&self.src, grf, en, n, &mut out, |a, b| a | b),
                (_, Op::Xor) => lanes(&self.src, grf, en, n, &mut out, |a, b| a ^ b),
                (_, Op::Shl) => lanes(&self.src, grf, en, n, &mut out, |a, b| a << (b & 31)),
                _ => false,
            };
        for (ch, o) in out.iter_mut().enumerate().take(if done { 0 } else { n }) {
            if en >> ch & 1 == 0 {
                continue;
            }
            let a = read(&self.src[0], ch);
            if self.op == Op::Mov && self.mods[0].is_empty() {
                // A raw move.
                *o = a;
                continue;
            }
            let b0 = read(&self.src[1], ch);
            if self.kind != Kind::F && matches!(self.op, Op::Cmp(_) | Op::SelCond(_)) {
                // Compares see the modified value whole (abs of the most
                // negative D is positive).
                let (x, y) = (
                    wide(a, self.mods[0], self.skinds[0]),
                    wide(b0, self.mods[1], self.skinds[1]),
                );
                let (c, cmp) = match self.op {
                    Op::Cmp(c) => (c, true),
                    Op::SelCond(c) => (c, false),
                    _ => (CondMod::L, false),
                };
                let h = compare(c, x.partial_cmp(&y));
                *o = if cmp {
                    cond |= u32::from(h) << ch;
                    if h {
                        u32::MAX
                    } else {
                        0
                    }
                } else if h {
                    x as u32
                } else {
                    y as u32
                };
                continue;
            }
            let a = modify(a, self.mods[0], self.skinds[0], self.op);
            let b = modify(b0, self.mods[1], self.skinds[1], self.op);
            let v = match self.kind {
                Kind::F => {
                    let (x, y) = if flush {
                        (flush32(f32::from_bits(a)), flush32(f32::from_bits(b)))
                    } else {
                        (f32::from_bits(a), f32::from_bits(b))
                    };
                    match self.op {
                        Op::Cmp(c) => {
                            let h = compare(c, x.partial_cmp(&y));
                            cond |= u32::from(h) << ch;
                            if h {
                                u32::MAX
                            } else {
                                0
                            }
                        }
                        Op::Mov | Op::Add | Op::Mul | Op::SelCond(_) => {
                            let r = match self.op {
                                Op::Mov => x,
                                Op::Add => x + y,
                                Op::Mul => x * y,
                                _ => {
                                    // min/max: the number where one is NaN.
                                    let take0 = if x.is_nan() || y.is_nan() {
                                        y.is_nan()
                                    } else {
                                        compare(
                                            if let Op::SelCond(c) = self.op { c } else { CondMod::L },
                                            x.partial_cmp(&y),
                                        )
                                    };
                                    if take0 {
                                        x
                                    } else {
                                        y
                                    }
                                }
                            };
                            let r = if flush { flush32(r) } else { r };
                            r.to_bits()
                        }
                        // Logic and shifts on float bits.
                        _ => int_op(self.op, a, b, Kind::Ud),
                    }
                }
                k => match self.op {
                    Op::Cmp(c) => {
                        let o = if k == Kind::D {
                            (a as i32).partial_cmp(&(b as i32))
                        } else {
                            a.partial_cmp(&b)
                        };
                        let h = compare(c, o);
                        cond |= u32::from(h) << ch;
                        if h {
                            u32::MAX
                        } else {
                            0
                        }
                    }
                    _ => int_op(self.op, a, b, k),
                },
            };
            *o = v;
        }
        if let Some(d) = &self.dst {
            let grf = &mut t.grf[..];
            for (ch, (&v, &at)) in out.iter().zip(d.iter()).enumerate().take(n) {
                if en >> ch & 1 != 0 {
                    let at = usize::from(at);
                    if let Some(s) = grf.get_mut(at..at + 4) {
                        s.copy_from_slice(&v.to_le_bytes());
                    }
                }
            }
        }
        if matches!(self.op, Op::Cmp(_)) && fshift < 64 {
            let m = u64::from(en) << fshift;
            let all = flags & !m | (u64::from(cond) << fshift) & m;
            t.set_flag(0, all as u32);
            t.set_flag(1, (all >> 32) as u32);
        }
        Some(en << geo.first)
    }
}

/// Channel `ch`'s element of a source, as 32 bits.
#[inline(always)]
fn read_elem(o: &Operand, grf: &[u8], ch: usize) -> u32 {
    match o {
        Operand::Imm(v) => *v,
        Operand::Grf(a) => {
            let at = usize::from(a.get(ch).copied().unwrap_or(0));
            grf.get(at..at + 4)
                .and_then(|b| b.try_into().ok())
                .map_or(0, u32::from_le_bytes)
        }
        Operand::GrfW(a) | Operand::GrfUw(a) => {
            let at = usize::from(a.get(ch).copied().unwrap_or(0));
            let w = grf
                .get(at..at + 2)
                .and_then(|b| b.try_into().ok())
                .map_or(0, u16::from_le_bytes);
            if matches!(o, Operand::GrfW(_)) {
                w as i16 as i32 as u32
            } else {
                u32::from(w)
            }
        }
    }
}

/// Runs `f` on the enabled channels' sources into `out`; `true`.
#[inline(always)]
fn lanes(src: &[Operand; 2], grf: &[u8], en: u32, n: usize, out: &mut [u32; 16], f: impl Fn(u32, u32) -> u32) -> bool {
    #[inline(always)]
    fn read(o: &Operand, grf: &[u8], ch: usize) -> u32 {
        read_elem(o, grf, ch)
    }
    for (ch, o) in out.iter_mut().enumerate().take(n) {
        if en >> ch & 1 != 0 {
            *o = f(read(&src[0], grf, ch), read(&src[1], grf, ch));
        }
    }
    true
}

/// A float operation on bits, flushing denormals in and out when `flush`.
#[inline(always)]
fn fop(a: u32, b: u32, flush: bool, f: impl Fn(f32, f32) -> f32) -> u32 {
    let (x, y) = (f32::from_bits(a), f32::from_bits(b));
    if flush {
        flush32(f(flush32(x), flush32(y))).to_bits()
    } else {
        f(x, y).to_bits()
    }
}

/// Whether an ordering satisfies a condition (`None`: unordered, a NaN:
/// only "not equal" holds).
#[inline]
fn compare(c: CondMod, o: Option<core::cmp::Ordering>) -> bool {
    use core::cmp::Ordering::*;
    match (c, o) {
        (CondMod::Nz, None) => true,
        (_, None) => false,
        (CondMod::Z, Some(o)) => o == Equal,
        (CondMod::Nz, Some(o)) => o != Equal,
        (CondMod::G, Some(o)) => o == Greater,
        (CondMod::Ge, Some(o)) => o != Less,
        (CondMod::L, Some(o)) => o == Less,
        (CondMod::Le, Some(o)) => o != Greater,
        _ => false,
    }
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

/// An integer operation on 32-bit values.
#[inline]
fn int_op(op: Op, a: u32, b: u32, k: Kind) -> u32 {
    match op {
        Op::Mov => a,
        Op::Add => a.wrapping_add(b),
        Op::Mul => a.wrapping_mul(b),
        Op::And => a & b,
        Op::Or => a | b,
        Op::Xor => a ^ b,
        Op::Not => !a,
        Op::Shl => a << (b & 31),
        Op::Shr => a >> (b & 31),
        Op::Asr => ((a as i32) >> (b & 31)) as u32,
        Op::SelCond(c) => {
            let o = if k == Kind::D {
                (a as i32).partial_cmp(&(b as i32))
            } else {
                a.partial_cmp(&b)
            };
            if compare(c, o) {
                a
            } else {
                b
            }
        }
        Op::Cmp(_) => 0,
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
        let mut planned = 0;
        for _ in 0..6_000 {
            let p = Platform::ALL[(next(&mut s) % 4) as usize];
            let op = ops[(next(&mut s) % ops.len() as u64) as usize];
            let ty = types[(next(&mut s) % 3) as usize];
            let exec = [ExecSize::S1, ExecSize::S4, ExecSize::S8, ExecSize::S16][(next(&mut s) % 4) as usize];
            let mut i = Instruction::new(op, exec);
            i.dst = Dst::grf((next(&mut s) % 120) as u8, 4 * (next(&mut s) % 2) as u8, ty);
            if next(&mut s) % 8 == 0 {
                i.dst = Dst { ty, ..Dst::null() };
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
            let active = next(&mut s) as u32;
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
        assert!(planned > 1_500, "{planned}");
    }
}
