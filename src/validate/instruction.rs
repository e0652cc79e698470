//! Rules of single instructions: CMP, SEL, MUL, logic operations, BFI2,
//! CSEL, the 3-source opcodes, MATH and branches.

use alloc::format;

use super::*;
use crate::isa::{GRF_BYTES, PRED_CONTROL_NONE};

/// Bits 27:24 without a conditional modifier.
const NO_COND: u8 = CondMod::None.hw();

/// Whether a type is D or UD.
#[inline(always)]
pub(super) const fn is_dword(t: Type) -> bool {
    matches!(t, Type::D | Type::UD)
}

fn is_cmp(c: &Checker<'_>) -> bool {
    c.i.opcode.is_compare()
}

/// A CMP or CMPN without a condition ([`cmp_requires_cond_mod`]).
#[inline(always)]
pub(crate) const fn cmp_lacks_cond(i: &Instruction) -> bool {
    i.cond_modifier == NO_COND
}

/// Gen7/7.5: a CMP or CMPN writing an ARF other than null
/// ([`gen7_cmp_dst_not_arf`]).
#[inline(always)]
pub(crate) fn gen7_cmp_dst_arf(p: Platform, i: &Instruction) -> bool {
    !p.is_gen8() && i.dst.file == RegFile::Arf && !is_null_dst(&i.dst)
}

/// Gen7/7.5: a CMP or CMPN with a null destination and no {Switch}
/// ([`gen7_cmp_null_dst_requires_switch`]).
#[inline(always)]
pub(crate) fn gen7_cmp_null_dst_without_switch(p: Platform, i: &Instruction) -> bool {
    !p.is_gen8() && is_null_dst(&i.dst) && i.thread_control != ThreadControl::Switch
}

/// CMP and CMPN have a condition.
pub fn cmp_requires_cond_mod(c: &mut Checker<'_>) {
    let bad = is_cmp(c) && cmp_lacks_cond(c.i);
    c.check(bad, OperandId::Inst, "CMP (or CMPN) must have a condition");
}

/// Gen7/7.5: the CMP destination is a GRF or null, never an accumulator
/// (nor another ARF).
pub fn gen7_cmp_dst_not_arf(c: &mut Checker<'_>) {
    let bad = is_cmp(c) && gen7_cmp_dst_arf(c.p, c.i);
    c.check(
        bad,
        OperandId::Dst,
        "the accumulator cannot be a destination, implicit or explicit: use a GRF or null",
    );
}

/// Gen7/7.5: a CMP with a null destination uses {Switch}.
pub fn gen7_cmp_null_dst_requires_switch(c: &mut Checker<'_>) {
    let bad = is_cmp(c) && gen7_cmp_null_dst_without_switch(c.p, c.i);
    c.check(
        bad,
        OperandId::Inst,
        "with a null destination the {Switch} instruction option must be used",
    );
}

/// A SEL both predicated and conditional, or neither
/// ([`sel_pred_xor_cond_mod`]).
#[inline(always)]
pub(crate) const fn sel_pred_and_cond_not_exclusive(i: &Instruction) -> bool {
    (i.cond_modifier != NO_COND) == (i.pred_control != PRED_CONTROL_NONE)
}

/// SEL is either predicated or has a condition, not both, not neither.
#[inline(always)]
pub fn sel_pred_xor_cond_mod(c: &mut Checker<'_>) {
    let i = c.i;
    let bad = i.opcode == Opcode::Sel && sel_pred_and_cond_not_exclusive(i);
    c.check(
        bad,
        OperandId::Inst,
        "SEL must either be predicated or have a conditional modifier",
    );
}

fn mul_types(c: &Checker<'_>) -> Option<(Type, Type, Type)> {
    let i = c.i;
    (i.opcode == Opcode::Mul).then_some((i.dst.ty, i.src[0].ty, i.src[1].ty))
}

/// A MUL of a narrower integer (src0) by a dword (src1)
/// ([`mul_dword_operand_on_src0`]).
#[inline(always)]
pub(crate) const fn mul_dword_on_src1(s0: Type, s1: Type) -> bool {
    is_integer(s1) && s0.size() < 4 && s1.size() == 4
}

/// Gen7/7.5: a MUL with a dword source and an F destination
/// ([`gen7_mul_dword_src_no_float_dst`]).
#[inline(always)]
pub(crate) const fn gen7_mul_float_dst_dword_src(p: Platform, d: Type, s0: Type, s1: Type) -> bool {
    !p.is_gen8() && matches!(d, Type::F) && (is_dword(s0) || is_dword(s1))
}

/// Gen8: a dword × dword MUL writing an ARF other than null
/// ([`gen8_mul_dwxdw_dst_not_acc`]).
#[inline(always)]
pub(crate) fn gen8_mul_dwxdw_arf_dst(p: Platform, i: &Instruction) -> bool {
    p.is_gen8() && is_dword(i.src[0].ty) && is_dword(i.src[1].ty) && i.dst.file == RegFile::Arf && !is_null_dst(&i.dst)
}

/// A MUL with a dword source and a D/UD/W/UW destination that saturates
/// or has a condition ([`mul_dword_no_sat_no_cond_mod`]).
#[inline(always)]
pub(crate) fn mul_dword_sat_or_cond(i: &Instruction) -> bool {
    (is_dword(i.src[0].ty) || is_dword(i.src[1].ty))
        && matches!(i.dst.ty, Type::D | Type::UD | Type::W | Type::UW)
        && (i.controls.contains(Controls::SATURATE) || i.cond_modifier != NO_COND)
}

/// MUL of a dword by a narrower integer takes the dword in src0.
pub fn mul_dword_operand_on_src0(c: &mut Checker<'_>) {
    let Some((_, s0, s1)) = mul_types(c) else { return };
    let bad = mul_dword_on_src1(s0, s1);
    c.check(
        bad,
        OperandId::Src(1),
        "when multiplying a dword by a lower precision integer, the dword operand must be src0",
    );
}

/// Reports each MUL source that is an accumulator, on the platforms `on`
/// selects.
fn mul_acc_sources(c: &mut Checker<'_>, on: fn(Platform) -> bool) {
    if mul_types(c).is_none() || !on(c.p) {
        return;
    }
    for k in 0..2u8 {
        let bad = c.i.src.get(k as usize).is_some_and(is_acc_src);
        c.check(bad, OperandId::Src(k), "MUL source operands cannot be an accumulator");
    }
}

/// Ivy Bridge: MUL sources cannot be accumulators.
pub fn gen7_mul_no_acc_source(c: &mut Checker<'_>) {
    mul_acc_sources(c, |p| p == Platform::Gen7);
}

/// Conservative: Haswell, MUL sources cannot be accumulators. Haswell's
/// MUL page drops the Ivy Bridge sentence without stating the Broadwell
/// rule (integer sources only) in its place; Mesa assumes Haswell keeps
/// the Ivy Bridge restriction.
pub fn hsw_mul_no_acc_source(c: &mut Checker<'_>) {
    mul_acc_sources(c, |p| p == Platform::Gen75);
}

/// Gen8: integer MUL sources cannot be accumulators.
pub fn gen8_mul_no_int_acc_source(c: &mut Checker<'_>) {
    if mul_types(c).is_none() || !c.p.is_gen8() {
        return;
    }
    for k in 0..2u8 {
        let bad =
            c.i.src
                .get(k as usize)
                .is_some_and(|s| is_acc_src(s) && is_integer(s.ty));
        c.check(bad, OperandId::Src(k), "integer source operands cannot be accumulators");
    }
}

/// Gen7/7.5: MUL with a dword source has no float destination (the
/// converter sees only the low 34 bits).
pub fn gen7_mul_dword_src_no_float_dst(c: &mut Checker<'_>) {
    let Some((d, s0, s1)) = mul_types(c) else { return };
    let bad = gen7_mul_float_dst_dword_src(c.p, d, s0, s1);
    c.check(
        bad,
        OperandId::Dst,
        "a float destination is not allowed with a dword source type",
    );
}

/// Gen8: a dword × dword MUL does not write an accumulator (or other ARF).
pub fn gen8_mul_dwxdw_dst_not_acc(c: &mut Checker<'_>) {
    if mul_types(c).is_none() {
        return;
    }
    let bad = gen8_mul_dwxdw_arf_dst(c.p, c.i);
    c.check(
        bad,
        OperandId::Dst,
        "when multiplying dword by dword, the destination cannot be the accumulator",
    );
}

/// MUL with a dword source and a D/UD/W/UW destination drops high bits,
/// so neither saturation nor a condition is allowed.
pub fn mul_dword_no_sat_no_cond_mod(c: &mut Checker<'_>) {
    if mul_types(c).is_none() {
        return;
    }
    let bad = mul_dword_sat_or_cond(c.i);
    c.check(
        bad,
        OperandId::Inst,
        "neither saturation nor a conditional modifier is allowed with a dword integer multiply",
    );
}

/// Conservative: Gen8, logic operations take no absolute-value modifier.
/// The document defines negate on logic operations as bitwise NOT and
/// gives abs no meaning there; Mesa refuses it to be safe.
pub fn gen8_logic_no_abs(c: &mut Checker<'_>) {
    let i = c.i;
    if !i.opcode.is_logic() || !c.p.is_gen8() {
        return;
    }
    for k in 0..2u8 {
        c.check(
            logic_abs_on(i, k),
            OperandId::Src(k),
            "abs is undefined for logic operations",
        );
    }
}

/// Whether a logic operation's source `k` (0 or 1) carries abs
/// ([`gen8_logic_no_abs`]; src1 of NOT and an immediate have none).
#[inline(always)]
pub(crate) fn logic_abs_on(i: &Instruction, k: u8) -> bool {
    match k {
        0 => i.src[0].mods.contains(SrcMods::ABS),
        _ => {
            let s1 = &i.src[1];
            i.opcode != Opcode::Not && !s1.is_imm() && s1.mods.contains(SrcMods::ABS)
        }
    }
}

/// The .o, .r and .u conditions, which logic operations do not take
/// ([`logic_no_o_r_u_cond_mod`]).
#[inline(always)]
pub(crate) const fn logic_cond_mod_refused(cm: u8) -> bool {
    matches!(CondMod::from_hw(cm), Some(CondMod::R | CondMod::O | CondMod::U))
}

/// Gen8: a logic operation's accumulator source has no modifier.
pub fn gen8_logic_no_src_mod_on_acc(c: &mut Checker<'_>) {
    if !c.i.opcode.is_logic() || !c.p.is_gen8() {
        return;
    }
    for (k, s) in c.srcs() {
        c.check(
            is_acc_src(s) && !s.mods.is_empty(),
            OperandId::Src(k),
            "a source modifier is not allowed on an accumulator source",
        );
    }
}

/// Logic operations produce no sign or overflow: no .o, .r or .u condition.
pub fn logic_no_o_r_u_cond_mod(c: &mut Checker<'_>) {
    let i = c.i;
    let bad = i.opcode.is_logic() && logic_cond_mod_refused(i.cond_modifier);
    c.check(
        bad,
        OperandId::Inst,
        "the O, R and U conditional modifiers are not used with logic operations",
    );
}

/// A BFI2 with a condition or saturation
/// ([`bfi2_no_cond_mod_or_saturate`]).
#[inline(always)]
pub(crate) fn bfi2_cond_or_saturate(i: &Instruction) -> bool {
    i.cond_modifier != NO_COND || i.controls.contains(Controls::SATURATE)
}

/// BFI2 has neither a condition nor saturation.
pub fn bfi2_no_cond_mod_or_saturate(c: &mut Checker<'_>) {
    let i = c.i;
    if i.opcode != Opcode::Bfi2 {
        return;
    }
    c.check(
        i.cond_modifier != NO_COND,
        OperandId::Inst,
        "BFI2 cannot have a conditional modifier",
    );
    c.check(
        i.controls.contains(Controls::SATURATE),
        OperandId::Inst,
        "BFI2 cannot saturate",
    );
}

/// BFI2 operates on D or UD, sources of the destination's type.
pub fn bfi2_types(c: &mut Checker<'_>) {
    let i = c.i;
    if i.opcode != Opcode::Bfi2 {
        return;
    }
    c.check(
        !is_dword(i.dst.ty),
        OperandId::Dst,
        "the BFI2 destination type must be D or UD",
    );
    for k in 0..3u8 {
        let t = c.src_ty(k as usize);
        c.check(
            t != i.dst.ty,
            OperandId::Src(k),
            "BFI2 source types must match the destination type",
        );
    }
}

/// A predicated CSEL ([`csel_not_predicated`]).
#[inline(always)]
pub(crate) const fn csel_predicated(i: &Instruction) -> bool {
    i.pred_control != PRED_CONTROL_NONE
}

/// A CSEL without a condition ([`csel_requires_cond_mod`]).
#[inline(always)]
pub(crate) const fn csel_lacks_cond(i: &Instruction) -> bool {
    i.cond_modifier == NO_COND
}

/// A CSEL destination type: F, HF, D or W ([`csel_types`]).
#[inline(always)]
pub(crate) const fn csel_dst_type_ok(t: Type) -> bool {
    matches!(t, Type::F | Type::HF | Type::D | Type::W)
}

/// CSEL is never predicated.
pub fn csel_not_predicated(c: &mut Checker<'_>) {
    let bad = c.i.opcode == Opcode::Csel && csel_predicated(c.i);
    c.check(bad, OperandId::Inst, "CSEL cannot be predicated");
}

/// CSEL's condition selects its built-in comparison: it is required.
pub fn csel_requires_cond_mod(c: &mut Checker<'_>) {
    let bad = c.i.opcode == Opcode::Csel && csel_lacks_cond(c.i);
    c.check(bad, OperandId::Inst, "CSEL must have a condition");
}

/// CSEL's destination is F, HF, D or W, and its sources share that type.
pub fn csel_types(c: &mut Checker<'_>) {
    let i = c.i;
    if i.opcode != Opcode::Csel {
        return;
    }
    let d = i.dst.ty;
    c.check(
        !csel_dst_type_ok(d),
        OperandId::Dst,
        "the CSEL destination type must be F, HF, D or W",
    );
    for k in 0..3u8 {
        let t = c.src_ty(k as usize);
        c.check(
            t != d,
            OperandId::Src(k),
            "CSEL source types must match the destination type",
        );
    }
}

/// MAD, LRP and MADM operate on floats; BFE on D or UD.
pub fn three_src_opcode_types(c: &mut Checker<'_>) {
    let i = c.i;
    let ok: fn(Type) -> bool = match i.opcode {
        Opcode::Mad | Opcode::Lrp | Opcode::Madm => |t| matches!(t, Type::F | Type::HF | Type::DF),
        Opcode::Bfe => is_dword,
        _ => return,
    };
    if !ok(i.dst.ty) {
        let m = format!("{} does not operate on {}", i.opcode, i.dst.ty);
        c.report(OperandId::Dst, m);
    }
    for k in 0..3u8 {
        let t = c.src_ty(k as usize);
        if !ok(t) {
            let m = format!("{} does not operate on {t}", i.opcode);
            c.report(OperandId::Src(k), m);
        }
    }
}

/// Ivy Bridge runs 3-source (align16) instructions on at most one register
/// per operand: no SIMD16 for dword types.
pub fn ivb_three_src_max_one_grf(c: &mut Checker<'_>) {
    if !c.ivb() || !c.three_src() {
        return;
    }
    let p = c.p;
    let exec = c.exec();
    let widest = (0..3)
        .map(|k| region_elem_size(p, c.src_ty(k)))
        .chain(core::iter::once(region_elem_size(p, c.i.dst.ty)))
        .max()
        .unwrap_or(4);
    let bad = exec * widest > GRF_BYTES;
    c.check(
        bad,
        OperandId::Inst,
        "Ivy Bridge has no SIMD16 3-source instructions: each operand fits one register",
    );
}

fn int_div(c: &Checker<'_>) -> Option<bool> {
    c.i.math_function().map(MathFunction::is_int_div)
}

/// Whether MATH source `k` has a modifier, which the INT DIV functions
/// refuse ([`math_int_div_no_src_mods`]).
#[inline(always)]
pub(crate) fn math_src_modified(i: &Instruction, k: u8) -> bool {
    i.src.get(k as usize).is_some_and(|s| !s.mods.is_empty())
}

/// The INT DIV functions take no source modifiers.
pub fn math_int_div_no_src_mods(c: &mut Checker<'_>) {
    if int_div(c) != Some(true) {
        return;
    }
    for k in 0..2u8 {
        let bad = math_src_modified(c.i, k);
        c.check(
            bad,
            OperandId::Src(k),
            "the INT DIV functions do not support source modifiers",
        );
    }
}

/// INT DIV functions operate on integers, the others on floats.
pub fn math_operand_types(c: &mut Checker<'_>) {
    let Some(idiv) = int_div(c) else { return };
    let ok = |t: Type| if idiv { is_integer(t) } else { t.is_float() };
    let what = if idiv {
        "INT DIV operands are integers"
    } else {
        "math function operands are floats"
    };
    c.check(!ok(c.i.dst.ty), OperandId::Dst, what);
    for (k, s) in c.srcs() {
        c.check(!ok(s.ty), OperandId::Src(k), what);
    }
}

/// Whether an operand is a directly addressed GRF.
#[inline(always)]
pub(crate) fn is_direct_grf(file: RegFile, addr: Addr) -> bool {
    file == RegFile::Grf && matches!(addr, Addr::Direct { .. })
}

/// Gen7/7.5: MATH reads and writes directly addressed GRFs only (no ARF,
/// no immediate, no indirect addressing); Gen8 relaxes it.
pub fn gen7_math_operands_direct_grf(c: &mut Checker<'_>) {
    if c.i.opcode != Opcode::Math || c.p.is_gen8() {
        return;
    }
    let d = &c.i.dst;
    c.check(
        !is_direct_grf(d.file, d.addr),
        OperandId::Dst,
        "Gen7 math writes a directly addressed GRF",
    );
    for (k, s) in c.srcs() {
        c.check(
            !is_direct_grf(s.file, s.addr),
            OperandId::Src(k),
            "Gen7 math reads directly addressed GRFs",
        );
    }
}

/// Whether a branch offset lands on an instruction boundary (Gen8 counts
/// bytes: a multiple of 8, the size of a compacted instruction;
/// [`gen8_branch_offset_aligned`]).
#[inline(always)]
pub(crate) const fn branch_offset_aligned(off: i32) -> bool {
    off % (crate::compact::COMPACT_BYTES as i32) == 0
}

/// Whether a Gen8 branch's JIP and UIP are both aligned (true on Gen7,
/// which counts in 64-bit units).
#[inline(always)]
pub(crate) fn branch_offsets_aligned(p: Platform, i: &Instruction) -> bool {
    !p.is_gen8() || (i.jip(p).map_or(true, branch_offset_aligned) && i.uip(p).map_or(true, branch_offset_aligned))
}

/// Gen8 branch offsets count bytes and land on instruction boundaries
/// (8-byte multiples).
#[inline(always)]
pub fn gen8_branch_offset_aligned(c: &mut Checker<'_>) {
    let p = c.p;
    if !p.is_gen8() || !c.i.opcode.is_branch() {
        return;
    }
    if let Some(j) = c.i.jip(p).filter(|j| !branch_offset_aligned(*j)) {
        let m = format!("JIP {j} is not a multiple of 8 bytes");
        c.report(OperandId::Inst, m);
    }
    if let Some(u) = c.i.uip(p).filter(|u| !branch_offset_aligned(*u)) {
        let m = format!("UIP {u} is not a multiple of 8 bytes");
        c.report(OperandId::Inst, m);
    }
}
