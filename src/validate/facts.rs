//! Facts about operands and regions that the rules share: destinations,
//! null and accumulator operands, decoded regions, execution types and
//! the bytes a region touches.

use super::*;
use crate::isa::{arf, region, GRF_BYTES, OWORD_BYTES};

/// Bytes in the two adjacent registers a direct region may span: the
/// window the region rules model, offsets wrapping modulo its size.
pub(crate) const TWO_GRF_BYTES: u32 = 2 * GRF_BYTES;

/// The bytes of the first OWord in a byte mask over the two-register
/// window ([`access_masks`]).
pub(crate) const FIRST_OWORD_MASK: u64 = (1 << OWORD_BYTES) - 1;

/// The bytes of the first register in a byte mask over the window.
pub(crate) const FIRST_GRF_MASK: u64 = (1 << GRF_BYTES) - 1;

/// The most channels an instruction executes (SIMD32): one byte mask each.
pub(crate) const MAX_CHANNELS: usize = ExecSize::S32.channels() as usize;

/// Opcodes whose destination the rules inspect: the ALU forms, MATH,
/// SEND and WAIT (a CALL's destination is the return address, which its
/// own rule checks).
#[inline]
pub const fn has_dst(op: Opcode) -> bool {
    op.form().is_alu() || matches!(op.form(), Form::Math | Form::Send | Form::Wait)
}

/// The null register as a destination.
#[inline]
pub fn is_null_dst(d: &Dst) -> bool {
    d.file == RegFile::Arf && matches!(d.addr, Addr::Direct { nr: arf::NULL, .. })
}

/// The null register as a source.
#[inline]
pub fn is_null_src(s: &Src) -> bool {
    s.file == RegFile::Arf && matches!(s.addr, Addr::Direct { nr: arf::NULL, .. })
}

/// An accumulator (acc0, acc1, ...) source.
#[inline]
pub fn is_acc_src(s: &Src) -> bool {
    s.file == RegFile::Arf && matches!(s.addr, Addr::Direct { nr, .. } if arf::class(nr) == arf::ACC)
}

/// The direct subregister byte offset, or `None` for indirect addressing.
#[inline]
pub fn direct_subnr(a: &Addr) -> Option<u32> {
    match *a {
        Addr::Direct { subnr, .. } => Some(subnr as u32),
        Addr::Indirect { .. } => None,
    }
}

/// Whether an operand uses register-indirect addressing.
#[inline]
pub fn is_indirect(a: &Addr) -> bool {
    matches!(a, Addr::Indirect { .. })
}

/// `a / b` (0 if `b` is 0), by a shift for the power-of-two divisors
/// regions have.
#[inline(always)]
pub(crate) fn div_p2(a: u32, b: u32) -> u32 {
    if b.is_power_of_two() {
        a >> b.trailing_zeros()
    } else {
        a.checked_div(b).unwrap_or(0)
    }
}

/// `a` divided by `b` rounding up (0 if `b` is 0), by shifts for a
/// power-of-two `b`.
#[inline(always)]
pub(crate) fn div_ceil_p2(a: u64, b: u64) -> u64 {
    if b.is_power_of_two() {
        (a >> b.trailing_zeros()) + u64::from(a & (b - 1) != 0)
    } else if b == 0 {
        0
    } else {
        a.div_ceil(b)
    }
}

/// A horizontal stride encoding in elements (0, 1, 2, 4); reserved
/// encodings (above 3) read as 0.
#[inline]
pub const fn stride(enc: u8) -> u32 {
    if region::hstride_defined(enc) {
        (1 << enc) >> 1
    } else {
        0
    }
}

/// A decoded align1 region in elements. VxH (and reserved) vertical
/// strides read as 2^14, a stride no direct region reaches, like Mesa's
/// decoding of encoding 15 ([`region::VSTRIDE_VXH`]) as a stride.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rgn {
    /// Vertical stride.
    pub v: u32,
    /// Width.
    pub w: u32,
    /// Horizontal stride.
    pub h: u32,
}

impl Rgn {
    /// Decodes a region; reserved widths read as 1.
    #[inline]
    pub const fn of(r: Region) -> Rgn {
        // (1 << e) >> 1 is 0 for e == 0 and 1 << (e - 1) otherwise.
        Rgn {
            v: if region::vstride_is_stride(r.vstride) {
                (1 << r.vstride) >> 1
            } else {
                (1 << region::VSTRIDE_VXH) >> 1
            },
            w: if region::width_defined(r.width) {
                1 << r.width
            } else {
                1
            },
            h: stride(r.hstride),
        }
    }
}

/// The region relations of PRM Vol 7, 3.3.9.2, each the condition its
/// rule reports (for a direct region; VxH has no vertical stride) and
/// the fast accept proves absent.
impl Rgn {
    /// Width above the execution size ([`exec_size_ge_width`]).
    #[inline(always)]
    pub(crate) const fn width_exceeds(self, exec: u32) -> bool {
        self.w > exec
    }

    /// Width equal to the execution size with a horizontal stride, and a
    /// vertical stride other than Width * HorzStride
    /// ([`width_eq_exec_implies_vstride`]).
    #[inline(always)]
    pub(crate) const fn full_width_vstride_wrong(self, exec: u32) -> bool {
        self.w == exec && self.h != 0 && self.v != self.w * self.h
    }

    /// Width 1 with a horizontal stride ([`width_one_implies_hstride_zero`]).
    #[inline(always)]
    pub(crate) const fn width_one_strided(self) -> bool {
        self.w == 1 && self.h != 0
    }

    /// Execution size and width 1 without the region `<0;1,0>`
    /// ([`scalar_region`]).
    #[inline(always)]
    pub(crate) const fn exec1_not_scalar(self, exec: u32) -> bool {
        exec == 1 && self.w == 1 && (self.v != 0 || self.h != 0)
    }

    /// Both strides 0 with a width other than 1
    /// ([`zero_strides_imply_width_one`]).
    #[inline(always)]
    pub(crate) const fn zero_strides_wide(self) -> bool {
        self.v == 0 && self.h == 0 && self.w != 1
    }

    /// Whether a direct region meets all five relations at `exec`.
    #[inline(always)]
    pub(crate) const fn relations_hold(self, exec: u32) -> bool {
        !(self.width_exceeds(exec)
            || self.full_width_vstride_wrong(exec)
            || self.width_one_strided()
            || self.exec1_not_scalar(exec)
            || self.zero_strides_wide())
    }
}

impl Region {
    /// The encoded region is `<w;w,1>` with `w` of 2 to 16: packed rows
    /// (the vertical stride code of 2^n elements is n + 1, the width code
    /// n).
    #[inline(always)]
    pub(crate) const fn is_packed_rows(self) -> bool {
        self.hstride == region::HSTRIDE_1
            && self.width >= region::WIDTH_2
            && region::width_defined(self.width)
            && self.vstride == self.width + 1
    }

    /// [`Region::is_packed_rows`] with a width within the execution size:
    /// the region meets every relation of [`Rgn::relations_hold`].
    #[inline(always)]
    pub(crate) const fn is_packed_within(self, exec: u32) -> bool {
        self.is_packed_rows() && 1u32 << self.width <= exec
    }
}

/// A sufficient condition for no row of a region to cross a register
/// ([`row_within_grf`]): the region's last byte `last` (from the start of
/// the first register, whose byte `sub` it starts at) is in the first
/// register, or below 64 with rows `pitch` bytes apart, a power of two up
/// to 32, each `tail` bytes long within its `pitch`-aligned block.
#[inline(always)]
pub(crate) const fn rows_stay_in_registers(sub: u32, last: u32, pitch: u32, tail: u32) -> bool {
    last < GRF_BYTES
        || (last < TWO_GRF_BYTES
            && pitch.is_power_of_two()
            && pitch <= GRF_BYTES
            && (sub & (pitch - 1)) + tail <= pitch)
}

/// Whether `<v;w,h>` is packed: adjacent elements, no gaps, no repeats.
#[inline]
pub const fn is_packed(v: u32, w: u32, h: u32) -> bool {
    v == w && if v == 1 { h == 0 } else { h == 1 }
}

/// The execution-type class of one operand type.
#[inline]
const fn exec_class(t: Type) -> Type {
    match t {
        Type::DF | Type::F | Type::HF => t,
        Type::VF => Type::F,
        Type::Q | Type::UQ => Type::Q,
        Type::D | Type::UD => Type::D,
        _ => Type::W,
    }
}

/// Integer register types (not the vector immediates).
#[inline]
pub const fn is_integer(t: Type) -> bool {
    matches!(
        t,
        Type::B | Type::UB | Type::W | Type::UW | Type::D | Type::UD | Type::Q | Type::UQ
    )
}

/// F mixed with HF, in either order.
#[inline]
pub const fn mixed_pair(a: Type, b: Type) -> bool {
    matches!((a, b), (Type::F, Type::HF) | (Type::HF, Type::F))
}

/// The execution data type of a 1- or 2-source instruction.
pub fn exec_type(i: &Instruction, nsrc: u8) -> Option<Type> {
    let dst = i.dst.ty;
    let s0 = exec_class(i.src[0].ty);
    match nsrc {
        1 => Some(if s0 == Type::HF { dst } else { s0 }),
        2 => {
            let s1 = exec_class(i.src[1].ty);
            if mixed_pair(s0, s1) || mixed_pair(s0, dst) || mixed_pair(s1, dst) {
                return Some(Type::F);
            }
            if s0 == s1 {
                return Some(s0);
            }
            let either = |t: Type| s0 == t || s1 == t;
            Some(if either(Type::Q) {
                Type::Q
            } else if either(Type::D) {
                Type::D
            } else if either(Type::W) {
                Type::W
            } else if either(Type::DF) {
                Type::DF
            } else {
                s0
            })
        }
        _ => None,
    }
}

/// Byte masks of the elements a region touches, one per channel, within
/// a two-register (64-byte) window that wraps like the hardware's
/// documentation model (and Mesa's `align1_access_mask`). Returns the
/// number of channels filled.
pub fn access_masks(exec: u32, es: u32, subreg: u32, r: Rgn, out: &mut [u64; MAX_CHANNELS]) -> usize {
    let mask = (1u64 << es.min(8)) - 1;
    let mut rowbase = subreg;
    let mut k = 0usize;
    let rows = exec.checked_div(r.w).unwrap_or(0);
    for _ in 0..rows {
        let mut off = rowbase;
        for _ in 0..r.w {
            if let Some(slot) = out.get_mut(k) {
                *slot = mask << (off % TWO_GRF_BYTES);
            }
            k += 1;
            off = off.wrapping_add(r.h.wrapping_mul(es));
        }
        rowbase = rowbase.wrapping_add(r.v.wrapping_mul(es));
    }
    k.min(MAX_CHANNELS)
}

/// How many registers a set of channel masks touches: 2 if any channel
/// reaches the second register, else 1 if any byte is touched, else 0.
pub fn regs_touched(masks: &[u64]) -> u32 {
    let mut n = 0;
    for &m in masks {
        if m > FIRST_GRF_MASK {
            return 2;
        }
        if m != 0 {
            n = 1;
        }
    }
    n
}

/// The element size regions are counted in: the type size, except that
/// Ivy Bridge regions 64-bit operands in 32-bit units.
#[inline]
pub fn region_elem_size(p: Platform, ty: Type) -> u32 {
    match ty.size() {
        8 if p == Platform::Gen7 => 4,
        s => s,
    }
}

/// The width and horizontal stride in elements of every align16 (and
/// 3-source) region that is not scalar: `<v;4,1>`.
pub(crate) const A16_WIDTH_ELEMS: u32 = 1 << region::A16_WIDTH;
/// See [`A16_WIDTH_ELEMS`].
pub(crate) const A16_HSTRIDE_ELEMS: u32 = stride(region::A16_HSTRIDE);

/// The last byte a directly addressed register source touches, counted
/// from the first byte of its register; `None` for an immediate or an
/// indirect source. Align16 and 3-source regions are `<v;4,1>`.
pub fn src_last_byte(c: &Checker<'_>, s: &Src) -> Option<u32> {
    last_byte(c.p, c.exec(), c.align16(), s, Rgn::of(s.region))
}

/// [`src_last_byte`] from the platform, execution size, access mode and
/// the source's decoded region `r`.
#[inline(always)]
pub(super) fn last_byte(p: Platform, exec: u32, align16: bool, s: &Src, r: Rgn) -> Option<u32> {
    let sub = match (s.file, s.addr) {
        (RegFile::Imm, _) | (_, Addr::Indirect { .. }) => return None,
        (_, Addr::Direct { subnr, .. }) => subnr as u32,
    };
    if !region::vstride_is_stride(s.region.vstride) {
        return None; // VxH or reserved
    }
    let es = region_elem_size(p, s.ty);
    let (v, w, h) = if align16 && !s.region.is_scalar() {
        (r.v, A16_WIDTH_ELEMS, A16_HSTRIDE_ELEMS)
    } else {
        (r.v, r.w, r.h)
    };
    // Widths and execution sizes are powers of two (a width is at least
    // 1), so the rows divide exactly once the width is clamped.
    let w = w.min(exec).max(1);
    let rows = if w.is_power_of_two() && exec.is_power_of_two() {
        exec >> w.trailing_zeros()
    } else {
        div_ceil_p2(u64::from(exec), u64::from(w)) as u32
    };
    let last = (rows - 1).saturating_mul(v).saturating_add((w - 1).saturating_mul(h));
    Some(last.saturating_mul(es).saturating_add(sub + es - 1))
}

/// The bytes CALL and CALLA write: two dwords ([`writes_two_dwords`]).
const CALL_DST_BYTES: u32 = 2 * Type::UD.size();

/// Whether the opcode writes its destination as two dwords (the return
/// IP and channel mask) whatever the execution size: CALL and CALLA.
#[inline]
pub const fn writes_two_dwords(op: Opcode) -> bool {
    matches!(op.form(), Form::Call)
}

/// The last byte a directly addressed destination touches, counted from
/// the first byte of its register; `None` if it is indirect. A CALL
/// writes two dwords whatever its execution size.
pub fn dst_last_byte(c: &Checker<'_>) -> Option<u32> {
    let d = &c.i.dst;
    let sub = direct_subnr(&d.addr)?;
    Some(dst_last_byte_from(c.p, c.i.opcode, c.exec(), c.align16(), d, sub))
}

/// [`dst_last_byte`] of a direct destination at subregister `sub`, from
/// its parts (the fast accept calls it too).
#[inline(always)]
pub(super) fn dst_last_byte_from(p: Platform, op: Opcode, exec: u32, align16: bool, d: &Dst, sub: u32) -> u32 {
    if writes_two_dwords(op) {
        return sub + CALL_DST_BYTES - 1;
    }
    let es = region_elem_size(p, d.ty);
    let s = if align16 { A16_HSTRIDE_ELEMS } else { stride(d.hstride) };
    ((exec - 1) * s * es).saturating_add(sub + es - 1)
}
