//! Special restrictions for mixed-mode float operations (F with HF), on
//! Gen8 and Cherryview.

use super::operand_types::is_mixed_float;
use super::*;
use crate::isa::{region, OWORD_BYTES};

/// The largest execution size of the SIMD8 limits below.
const SIMD8: u32 = ExecSize::S8.channels();

/// Whether the instruction reads an accumulator, explicitly or (MAC,
/// MACH, SADA2) implicitly.
pub fn uses_src_acc(c: &Checker<'_>) -> bool {
    c.i.opcode.reads_acc_implicitly() || c.srcs().any(|(_, s)| is_acc_src(s))
}

/// Mixed float, align1.
fn a1(c: &Checker<'_>) -> bool {
    !c.align16() && is_mixed_float(c)
}

/// Mixed float, align16.
fn a16(c: &Checker<'_>) -> bool {
    c.align16() && is_mixed_float(c)
}

/// The destination is HF with stride 1 (packed).
fn packed_hf_dst(c: &Checker<'_>) -> bool {
    c.i.dst.ty == Type::HF && stride(c.i.dst.hstride) == 1
}

/// Sources are directly addressed in mixed float mode.
pub fn mixed_float_no_indirect_src(c: &mut Checker<'_>) {
    if !is_mixed_float(c) {
        return;
    }
    for (k, s) in c.srcs() {
        c.check(
            is_indirect(&s.addr),
            OperandId::Src(k),
            "indirect source addressing is not supported in mixed float mode",
        );
    }
}

/// No SIMD16 in mixed mode with an F destination.
pub fn mixed_float_f_dst_max_simd8(c: &mut Checker<'_>) {
    let bad = is_mixed_float(c) && c.exec() > SIMD8 && c.i.dst.ty == Type::F;
    c.check(
        bad,
        OperandId::Inst,
        "mixed float mode with an F destination is limited to SIMD8",
    );
}

/// Align16 mixed float assumes packed data: vertical stride 4.
pub fn mixed_float_a16_packed_vstride4(c: &mut Checker<'_>) {
    if !a16(c) {
        return;
    }
    for (k, s) in c.srcs().filter(|(_, s)| !s.is_imm()) {
        c.check(
            s.region.vstride != region::VSTRIDE_4,
            OperandId::Src(k),
            "align16 mixed float mode assumes packed data (vertical stride 4)",
        );
    }
}

/// Align16 mixed float is limited to SIMD8.
pub fn mixed_float_a16_max_simd8(c: &mut Checker<'_>) {
    let bad = a16(c) && c.exec() > SIMD8;
    c.check(bad, OperandId::Inst, "align16 mixed float mode is limited to SIMD8");
}

/// Align16 mixed float reads no accumulator.
pub fn mixed_float_a16_no_acc_src(c: &mut Checker<'_>) {
    let bad = a16(c) && uses_src_acc(c);
    c.check(
        bad,
        OperandId::Inst,
        "no accumulator read access in align16 mixed float mode",
    );
}

/// Align1 mixed float with a packed HF destination is limited to SIMD8
/// (a packed f16 output stays within one OWord).
pub fn mixed_float_a1_packed_hf_dst_max_simd8(c: &mut Checker<'_>) {
    let bad = a1(c) && c.exec() > SIMD8 && packed_hf_dst(c);
    c.check(
        bad,
        OperandId::Dst,
        "align1 mixed float mode is limited to SIMD8 when the destination is packed HF",
    );
}

/// Align1 mixed-mode MATH takes strided HF inputs.
pub fn mixed_float_a1_math_hf_src_strided(c: &mut Checker<'_>) {
    if !a1(c) || c.i.opcode != Opcode::Math {
        return;
    }
    for (k, s) in c.srcs() {
        c.check(
            s.ty == Type::HF && stride(s.region.hstride) <= 1,
            OperandId::Src(k),
            "align1 mixed mode math needs strided half-float inputs",
        );
    }
}

/// A packed HF output is OWord aligned.
pub fn mixed_float_packed_hf_dst_oword(c: &mut Checker<'_>) {
    if !a1(c) || !packed_hf_dst(c) {
        return;
    }
    let sub = match c.i.dst.addr {
        Addr::Direct { subnr, .. } => subnr as u32,
        Addr::Indirect { subnr, .. } => subnr as u32,
    };
    c.check(
        sub % OWORD_BYTES != 0,
        OperandId::Dst,
        "align1 mixed mode packed half-float output must be OWord aligned",
    );
}

/// With a packed HF destination, an F or HF accumulator source is read
/// from offset 0.
pub fn mixed_float_packed_hf_dst_acc_offset0(c: &mut Checker<'_>) {
    if !a1(c) || !packed_hf_dst(c) {
        return;
    }
    for (k, s) in c.srcs() {
        c.check(
            is_acc_src(s) && matches!(s.ty, Type::F | Type::HF) && direct_subnr(&s.addr) != Some(0),
            OperandId::Src(k),
            "register-aligned accumulator reads are required when the destination is packed HF",
        );
    }
}

/// An HF destination of an instruction reading an accumulator has stride 2.
pub fn mixed_float_hf_dst_acc_needs_stride2(c: &mut Checker<'_>) {
    let bad = a1(c) && c.i.dst.ty == Type::HF && uses_src_acc(c) && stride(c.i.dst.hstride) != 2;
    c.check(
        bad,
        OperandId::Dst,
        "an HF destination with an accumulator source requires destination stride 2",
    );
}
