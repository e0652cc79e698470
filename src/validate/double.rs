//! Special requirements for 64-bit data types: Cherryview's regioning,
//! addressing, ARF and dependency-control limits (which also cover integer
//! dword multiplies there), and Gen8's align16 execution-size limit.

use super::instruction::is_dword;
use super::*;

/// Whether the instruction is "double precision" in the PRM's sense: a
/// 64-bit destination or execution type, or (Gen8) an integer dword
/// multiply. Only for 1- and 2-source instructions.
pub fn is_double_precision(c: &Checker<'_>) -> bool {
    if c.three_src() || c.nsrc() == 0 {
        return false;
    }
    let i = c.i;
    let int_dword_mul = c.p.is_gen8() && i.opcode == Opcode::Mul && is_dword(i.src[0].ty) && is_dword(i.src[1].ty);
    i.dst.ty.size() == 8 || c.exec_type().is_some_and(|t| t.size() == 8) || int_dword_mul
}

/// Cherryview, a double-precision instruction.
fn chv(c: &Checker<'_>) -> bool {
    c.p == Platform::Chv && is_double_precision(c)
}

/// The register sources (immediates are exempt).
fn reg_srcs<'a>(c: &Checker<'a>) -> impl Iterator<Item = (u8, &'a Src)> {
    c.srcs().filter(|(_, s)| !s.is_imm())
}

/// Cherryview, align1: source and destination strides are the same
/// multiple of a qword (scalar sources exempt).
pub fn chv_64bit_align1_stride_qword_equal(c: &mut Checker<'_>) {
    if !chv(c) || c.align16() {
        return;
    }
    let d = &c.i.dst;
    let dst_stride = stride(d.hstride) * d.ty.size();
    for (k, s) in reg_srcs(c) {
        let r = Rgn::of(s.region);
        let src_stride = if r.h != 0 { r.h } else { r.v } * s.ty.size();
        let bad = !s.region.is_scalar() && (src_stride % 8 != 0 || dst_stride % 8 != 0 || src_stride != dst_stride);
        c.check(
            bad,
            OperandId::Src(k),
            "with a 64-bit execution type, source and destination strides must be equal multiples of a qword",
        );
    }
}

/// Cherryview, align1: VertStride == Width * HorzStride.
pub fn chv_64bit_vstride_eq_width_hstride(c: &mut Checker<'_>) {
    if !chv(c) || c.align16() {
        return;
    }
    for (k, s) in reg_srcs(c) {
        let r = Rgn::of(s.region);
        c.check(
            r.v != r.w * r.h,
            OperandId::Src(k),
            "with a 64-bit execution type, vertical stride must be width × horizontal stride",
        );
    }
}

/// Cherryview, align1: source and destination offsets are the same
/// (scalar sources exempt).
pub fn chv_64bit_same_offset(c: &mut Checker<'_>) {
    if !chv(c) || c.align16() {
        return;
    }
    let dsub = direct_subnr(&c.i.dst.addr);
    for (k, s) in reg_srcs(c) {
        let ssub = direct_subnr(&s.addr);
        let bad = !s.region.is_scalar() && dsub.is_some() && ssub.is_some() && dsub != ssub;
        c.check(
            bad,
            OperandId::Src(k),
            "with a 64-bit execution type, source and destination offsets must be the same",
        );
    }
}

/// Cherryview: no indirect addressing with a 64-bit execution type.
pub fn chv_64bit_no_indirect(c: &mut Checker<'_>) {
    if !chv(c) {
        return;
    }
    let dst_ind = is_indirect(&c.i.dst.addr);
    for (k, s) in reg_srcs(c) {
        if is_indirect(&s.addr) {
            c.report(
                OperandId::Src(k),
                "indirect addressing is not allowed with a 64-bit execution type",
            );
        } else if dst_ind {
            c.report(
                OperandId::Dst,
                "indirect addressing is not allowed with a 64-bit execution type",
            );
        }
    }
}

/// Cherryview: no ARF register (other than null), no implicit
/// accumulator (MAC, AccWrEnable) with a 64-bit execution type.
pub fn chv_64bit_no_arf(c: &mut Checker<'_>) {
    if !chv(c) {
        return;
    }
    let i = c.i;
    let implicit = i.opcode == Opcode::Mac || i.controls.contains(Controls::ACC_WR);
    let dst_arf = i.dst.file == RegFile::Arf && !c.dst_null();
    for (k, s) in reg_srcs(c) {
        let src_arf = s.file == RegFile::Arf && !is_null_src(s);
        if src_arf {
            c.report(
                OperandId::Src(k),
                "architecture registers cannot be used with a 64-bit execution type",
            );
        } else if implicit || dst_arf {
            let what = if dst_arf { OperandId::Dst } else { OperandId::Inst };
            c.report(
                what,
                "architecture registers (accumulator included) cannot be used with a 64-bit execution type",
            );
        }
    }
}

/// Cherryview: no dependency control (NoDDClr, NoDDChk) with a 64-bit
/// execution type.
pub fn chv_64bit_no_depctrl(c: &mut Checker<'_>) {
    let dep = c.i.controls.intersects(Controls::NO_DD_CLEAR | Controls::NO_DD_CHECK);
    let bad = dep && chv(c);
    c.check(
        bad,
        OperandId::Inst,
        "dependency control is not allowed with a 64-bit execution type",
    );
}

/// Gen8 align16: with a qword destination and a non-qword source the
/// execution size is at most 2.
pub fn gen8_align16_qword_dst_nonqword_src_max_exec2(c: &mut Checker<'_>) {
    if !c.p.is_gen8() || !c.align16() || !is_double_precision(c) {
        return;
    }
    let i = c.i;
    let s0 = i.src[0].ty.size();
    let s1 = if c.nsrc() > 1 { i.src[1].ty.size() } else { s0 };
    let bad = i.dst.ty.size() == 8 && (s0 != 8 || s1 != 8) && c.exec() > 2;
    c.check(
        bad,
        OperandId::Inst,
        "in align16 the execution size cannot exceed 2 with a qword destination and a non-qword source",
    );
}
