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
        sub % 16 != 0,
        OperandId::Dst,
        "the destination must be 128-bit aligned to use a vector immediate",
    );
}

/// With a VF immediate the destination stride is one dword.
pub fn vf_dst_dword_stride(c: &mut Checker<'_>) {
    let bad = vector_imm(c) == Some(Type::VF) && c.i.dst.ty.size() * stride(c.i.dst.hstride) != 4;
    c.check(
        bad,
        OperandId::Dst,
        "the destination stride must be a dword to use the VF type",
    );
}

/// With a V or UV immediate the destination stride is one word.
pub fn v_uv_dst_word_stride(c: &mut Checker<'_>) {
    let bad = matches!(vector_imm(c), Some(Type::V | Type::UV)) && c.i.dst.ty.size() * stride(c.i.dst.hstride) != 2;
    c.check(
        bad,
        OperandId::Dst,
        "the destination stride must be a word to use the V or UV type",
    );
}
