//! Source-operand rules: null registers and immediates.

use super::*;

/// src0 is not the null register (MATH counts its sources by function).
#[inline(always)]
pub fn src0_not_null(c: &mut Checker<'_>) {
    let bad = !c.three_src() && c.nsrc() >= 1 && is_null_src(&c.i.src[0]);
    c.check(bad, OperandId::Src(0), "src0 is the null register");
}

/// src1 of a 2-source instruction is not the null register (1-source MATH
/// functions such as SIN leave src1 null).
#[inline(always)]
pub fn src1_not_null(c: &mut Checker<'_>) {
    let bad = !c.three_src() && c.nsrc() == 2 && is_null_src(&c.i.src[1]);
    c.check(bad, OperandId::Src(1), "src1 is the null register");
}

/// In a 2-source instruction only src1 can be an immediate: the immediate
/// occupies the src1 fields.
#[inline(always)]
pub fn imm_only_last_source(c: &mut Checker<'_>) {
    let bad = !c.three_src() && c.nsrc() == 2 && c.i.src[0].is_imm();
    c.check(
        bad,
        OperandId::Src(0),
        "only src1 can be an immediate in a 2-source instruction",
    );
}

/// A 64-bit immediate as src1 of an instruction reading `nsrc` sources,
/// two or more ([`imm64_only_single_source`]; not for 3-source layouts).
#[inline(always)]
pub(crate) const fn imm64_beside_src0(nsrc: u8, s1: &Src) -> bool {
    nsrc >= 2 && s1.is_imm() && s1.ty.is_64bit()
}

/// A 64-bit immediate fills bits 127:64, src1's fields included, so only
/// a 1-source instruction can have one.
#[inline(always)]
pub fn imm64_only_single_source(c: &mut Checker<'_>) {
    let bad = !c.three_src() && imm64_beside_src0(c.nsrc(), &c.i.src[1]);
    c.check(
        bad,
        OperandId::Src(1),
        "64-bit immediates exist only in 1-source instructions",
    );
}
