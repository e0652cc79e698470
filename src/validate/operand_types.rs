//! General restrictions based on operand types: destination stride and
//! alignment against the execution type, packed byte destinations and
//! conversions to and from bytes, half floats and 64-bit types.
//!
//! These rules skip SEND, 3-source and scalar (ExecSize 1) instructions and
//! opcodes without a destination.

use super::*;

/// Facts shared by the operand-type rules.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ot {
    /// Destination stride in elements.
    stride: u32,
    /// Destination type size (Ivy Bridge: 8 for a 32-bit result of a
    /// 64-bit execution, whose channels are dword pairs).
    dts: u32,
    /// Execution type size.
    ets: u32,
}

/// Whether the operand-type rules apply at all.
#[inline]
pub(crate) fn applies(c: &Checker<'_>) -> bool {
    !c.is_send() && !c.three_src() && c.exec() > 1 && c.has_dst() && matches!(c.nsrc(), 1 | 2)
}

/// A byte destination with stride 1.
fn packed_byte_dst(c: &Checker<'_>) -> bool {
    matches!(c.i.dst.ty, Type::B | Type::UB) && stride(c.i.dst.hstride) == 1
}

/// The shared facts, when the rules apply and the destination is not a
/// packed byte destination (which only [`packed_byte_dst_raw_mov`] checks);
/// computed once by the checker.
#[inline]
fn facts(c: &Checker<'_>) -> Option<Ot> {
    c.ot
}

/// Computes [`facts`].
pub(crate) fn compute_facts(c: &Checker<'_>) -> Option<Ot> {
    if !applies(c) || packed_byte_dst(c) {
        return None;
    }
    let ets = c.exec_type()?.size();
    let mut dts = c.i.dst.ty.size();
    if c.ivb() && ets == 8 && dts == 4 {
        dts = 8;
    }
    Some(Ot {
        stride: stride(c.i.dst.hstride),
        dts,
        ets,
    })
}

/// A raw move: MOV without saturation or source modifiers between types
/// of the same size and signedness class (never from a vector immediate).
pub fn is_raw_move(i: &Instruction) -> bool {
    let signed = |t: Type| match t {
        Type::UD => Type::D,
        Type::UW => Type::W,
        Type::UB => Type::B,
        Type::UQ => Type::Q,
        t => t,
    };
    let s = &i.src[0];
    let plain = if s.is_imm() {
        !s.ty.is_vector_imm()
    } else {
        s.mods.is_empty()
    };
    plain && i.opcode == Opcode::Mov && !i.controls.contains(Controls::SATURATE) && signed(i.dst.ty) == signed(s.ty)
}

/// The source types, src1 only for 2-source instructions.
fn src_types<'a>(c: &Checker<'a>) -> impl Iterator<Item = Type> + 'a {
    c.srcs().map(|(_, s)| s.ty)
}

/// Only a raw MOV may write a packed (stride 1) byte destination.
pub fn packed_byte_dst_raw_mov(c: &mut Checker<'_>) {
    let bad = applies(c) && packed_byte_dst(c) && !is_raw_move(c.i);
    c.check(bad, OperandId::Dst, "only a raw MOV supports a packed-byte destination");
}

/// An implicit or explicit conversion involving a byte type.
fn byte_conversion(c: &Checker<'_>) -> bool {
    let d = c.i.dst.ty;
    src_types(c).any(|t| d != t && (d.size() == 1 || t.size() == 1))
}

/// An implicit or explicit conversion involving HF.
fn hf_conversion(c: &Checker<'_>) -> bool {
    let d = c.i.dst.ty;
    src_types(c).any(|t| d != t && (d == Type::HF || t == Type::HF))
}

/// A conversion between B/UB and a 64-bit type, either way, from a source
/// of type `s` to a destination of type `d` ([`no_byte_64bit_conversion`]).
#[inline(always)]
pub(crate) const fn byte_64bit_pair(d: Type, s: Type) -> bool {
    matches!((d.size(), s.size()), (1, 8) | (8, 1))
}

/// No direct conversion between B/UB and DF or Q/UQ, either way.
pub fn no_byte_64bit_conversion(c: &mut Checker<'_>) {
    if facts(c).is_none() || !byte_conversion(c) {
        return;
    }
    let d = c.i.dst.ty;
    let bad = src_types(c).any(|t| byte_64bit_pair(d, t));
    c.check(
        bad,
        OperandId::Dst,
        "there are no direct conversions between 64-bit types and B/UB",
    );
}

/// No direct conversion between HF and DF or Q/UQ, either way.
pub fn no_hf_64bit_conversion(c: &mut Checker<'_>) {
    if facts(c).is_none() || !hf_conversion(c) {
        return;
    }
    let d = c.i.dst.ty;
    let bad = (d == Type::HF && src_types(c).any(|t| t.size() == 8))
        || (d.size() == 8 && src_types(c).any(|t| t == Type::HF));
    c.check(
        bad,
        OperandId::Dst,
        "there are no direct conversions between 64-bit types and HF",
    );
}

/// A conversion between an integer type and HF (align1).
fn int_hf(c: &Checker<'_>) -> bool {
    let d = c.i.dst.ty;
    (d == Type::HF && src_types(c).any(is_integer)) || (is_integer(d) && src_types(c).any(|t| t == Type::HF))
}

/// Integer <-> HF conversions write dword-aligned destinations with a
/// dword stride (align1).
pub fn int_hf_conversion_dst_dword(c: &mut Checker<'_>) {
    let Some(f) = facts(c) else { return };
    if c.align16() || !hf_conversion(c) || !int_hf(c) {
        return;
    }
    c.check(
        f.stride * f.dts != 4,
        OperandId::Dst,
        "conversions between integer and half-float must be strided by a dword on the destination",
    );
    let sub = direct_subnr(&c.i.dst.addr).unwrap_or(0);
    c.check(
        sub % 4 != 0,
        OperandId::Dst,
        "conversions between integer and half-float must be dword aligned on the destination",
    );
}

/// Whether the instruction mixes F and HF (Gen8; 1- and 2-source).
#[inline]
pub fn is_mixed_float(c: &Checker<'_>) -> bool {
    c.mixed_float()
}

/// Computes [`is_mixed_float`] (once, for the checker).
pub(crate) fn compute_mixed_float(c: &Checker<'_>) -> bool {
    if !c.p.is_gen8() || c.is_send() || !c.has_dst() || c.three_src() {
        return false;
    }
    let i = c.i;
    let (d, s0, s1) = (i.dst.ty, i.src[0].ty, i.src[1].ty);
    match c.nsrc() {
        1 => mixed_pair(s0, d),
        2 => mixed_pair(s0, s1) || mixed_pair(s0, d) || mixed_pair(s1, d),
        _ => false,
    }
}

/// Cherryview: a conversion to HF (other than from an integer) writes
/// stride-2 words, or (mixed float) an oword-aligned packed destination.
pub fn chv_hf_dst_word_placement(c: &mut Checker<'_>) {
    let Some(f) = facts(c) else { return };
    if c.p != Platform::Chv || c.align16() || !hf_conversion(c) || int_hf(c) || c.i.dst.ty != Type::HF {
        return;
    }
    let sub = direct_subnr(&c.i.dst.addr).unwrap_or(0);
    let bad = f.stride != 2 && !(is_mixed_float(c) && f.stride == 1 && sub % crate::isa::OWORD_BYTES == 0);
    c.check(
        bad,
        OperandId::Dst,
        "conversions to HF must write all even or all odd words, or be mixed float with an oword-aligned packed destination",
    );
}

/// Whether the execution-type rules apply (not to Cherryview mixed float,
/// whose own rules replace them).
fn wider_exec(c: &Checker<'_>) -> Option<Ot> {
    let f = facts(c)?;
    if is_mixed_float(c) && c.p == Platform::Chv {
        return None;
    }
    (f.ets > f.dts).then_some(f)
}

/// A destination stride of `stride` elements of `dts` bytes other than
/// the execution type size `ets` ([`dst_stride_matches_exec_type_ratio`]).
#[inline(always)]
pub(crate) const fn dst_stride_not_exec_size(stride: u32, dts: u32, ets: u32) -> bool {
    stride * dts != ets
}

/// A destination at byte `sub` not aligned to the execution type size
/// `ets`; a byte destination (`byte`) may also sit one byte above
/// ([`dst_subreg_aligned_to_exec_type`]).
#[inline(always)]
pub(crate) const fn dst_sub_misaligned(sub: u32, ets: u32, byte: bool) -> bool {
    let r = match sub.checked_rem(ets) {
        Some(r) => r,
        None => 0,
    };
    if byte {
        r > 1
    } else {
        r != 0
    }
}

/// When the execution type is wider than the destination type, the
/// destination stride (in bytes) equals the execution type size; a raw
/// MOV to bytes is exempt.
pub fn dst_stride_matches_exec_type_ratio(c: &mut Checker<'_>) {
    let Some(f) = wider_exec(c) else { return };
    let byte_raw = matches!(c.i.dst.ty, Type::B | Type::UB) && is_raw_move(c.i);
    c.check(
        !byte_raw && dst_stride_not_exec_size(f.stride, f.dts, f.ets),
        OperandId::Dst,
        "destination stride must equal the ratio of the execution type size to the destination type size",
    );
}

/// When the execution type is wider than the destination type, an align1
/// direct destination is aligned to the execution type size (byte
/// destinations may also sit one byte above).
pub fn dst_subreg_aligned_to_exec_type(c: &mut Checker<'_>) {
    let Some(f) = wider_exec(c) else { return };
    let Some(sub) = direct_subnr(&c.i.dst.addr) else { return };
    if c.align16() {
        return;
    }
    let byte = matches!(c.i.dst.ty, Type::B | Type::UB);
    let bad = dst_sub_misaligned(sub, f.ets, byte);
    c.check(
        bad,
        OperandId::Dst,
        "destination subregister must be aligned to the execution type size",
    );
}
