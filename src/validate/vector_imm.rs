//! Vector immediates (V, UV, VF): destination alignment and stride.

use super::*;

/// The vector immediate type of the instruction's last source, if any.
fn vector_imm(c: &Checker<'_>) -> Option<Type> {
    if c.three_src() {
        return None;
    }
    let last = match c.nsrc() {
        1 => &c.i.src[0],
        2 => &c.i.src[1],
        _ => return None,
    };
    (last.is_imm() && last.ty.is_vector_imm()).then_some(last.ty)
}

/// Whether a destination byte offset is 128-bit aligned
/// ([`vector_imm_dst_oword_aligned`]).
#[inline(always)]
pub(crate) const fn dst_oword_aligned(sub: u32) -> bool {
    sub % crate::isa::OWORD_BYTES == 0
}

/// The destination stride in bytes a vector immediate of type `t` needs:
/// a dword for VF, a word for V and UV ([`vf_dst_dword_stride`],
/// [`v_uv_dst_word_stride`]).
#[inline(always)]
pub(crate) const fn vector_imm_dst_stride(t: Type) -> u32 {
    if matches!(t, Type::VF) {
        4
    } else {
        2
    }
}

/// With a vector immediate the destination is 128-bit aligned.
pub fn vector_imm_dst_oword_aligned(c: &mut Checker<'_>) {
    if vector_imm(c).is_none() {
        return;
    }
    let sub = if c.align16() {
        0
    } else {
        direct_subnr(&c.i.dst.addr).unwrap_or(0)
    };
    c.check(
        !dst_oword_aligned(sub),
        OperandId::Dst,
        "the destination must be 128-bit aligned to use a vector immediate",
    );
}

/// With a VF immediate the destination stride is one dword.
pub fn vf_dst_dword_stride(c: &mut Checker<'_>) {
    let bad = vector_imm(c) == Some(Type::VF)
        && c.i.dst.ty.size() * stride(c.i.dst.hstride) != vector_imm_dst_stride(Type::VF);
    c.check(
        bad,
        OperandId::Dst,
        "the destination stride must be a dword to use the VF type",
    );
}

/// With a V or UV immediate the destination stride is one word.
pub fn v_uv_dst_word_stride(c: &mut Checker<'_>) {
    let bad = matches!(vector_imm(c), Some(t @ (Type::V | Type::UV))
        if c.i.dst.ty.size() * stride(c.i.dst.hstride) != vector_imm_dst_stride(t));
    c.check(
        bad,
        OperandId::Dst,
        "the destination stride must be a word to use the V or UV type",
    );
}
