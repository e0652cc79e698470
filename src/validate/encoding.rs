//! Encoding rules: every field holds a value the platform defines. They run
//! before the restrictions, which assume sane values; any violation here
//! stops validation after this phase.

use alloc::format;

use super::*;
use crate::isa::{
    region, FLAG_REG_LAST, FLAG_SUBREG_LAST, GRF_BYTES, GRF_LAST, OWORD_BYTES, QUARTER_CHANNELS, THREE_SRC_SUBREG_BYTES,
};
use crate::word::fields::gen7_native;

/// The largest quarter control: the field has 2 bits.
use crate::model::QTR_CONTROL_MAX;

/// The largest value of bits 27:24, the 4-bit field that holds the
/// conditional modifier, the math function or the SFID.
const COND_FIELD_MAX: u8 = ((1u32 << gen7_native::COND_MODIFIER.width) - 1) as u8;

/// Whether `op` is an opcode of `p` that may be executed (`illegal`,
/// which the model's opcode table lists, exists nowhere;
/// [`opcode_exists`]).
#[inline(always)]
pub(crate) fn opcode_defined(p: Platform, op: Opcode) -> bool {
    op != Opcode::Illegal && op.exists_on(p)
}

/// The opcode exists on the platform (`illegal` exists nowhere).
#[inline(always)]
pub fn opcode_exists(c: &mut Checker<'_>) {
    let op = c.i.opcode;
    if !opcode_defined(c.p, op) {
        let m = format!("{op} does not exist on {}", c.p);
        c.report(OperandId::Inst, m);
    }
}

/// The largest predicate control of an access mode: 13 in align1, 7 in
/// align16 ([`control_fields_in_range`]), from [`PredCtrl`]'s encodings.
#[inline(always)]
pub(crate) const fn max_pred_control(align16: bool) -> u8 {
    const ALIGN1: u8 = PredCtrl::max_hw(AccessMode::Align1);
    const ALIGN16: u8 = PredCtrl::max_hw(AccessMode::Align16);
    if align16 {
        ALIGN16
    } else {
        ALIGN1
    }
}

/// A quarter control above its 2 bits ([`control_fields_in_range`]).
#[inline(always)]
pub(crate) const fn qtr_control_too_wide(i: &Instruction) -> bool {
    i.qtr_control > QTR_CONTROL_MAX
}

/// A flag register or subregister above 1 ([`control_fields_in_range`]).
#[inline(always)]
pub(crate) const fn flag_out_of_range(i: &Instruction) -> bool {
    i.flag.nr > FLAG_REG_LAST || i.flag.subnr > FLAG_SUBREG_LAST
}

/// Control fields fit their bits and are not reserved: quarter control
/// (2 bits), predicate control (align1: 0-13, align16: 0-7), flag register
/// and subregister (0-1), bits 27:24 (4 bits).
#[inline(always)]
pub fn control_fields_in_range(c: &mut Checker<'_>) {
    let i = c.i;
    c.check(
        qtr_control_too_wide(i),
        OperandId::Inst,
        "quarter control is a 2-bit field (0-3)",
    );
    let max_pred = max_pred_control(c.align16());
    if i.pred_control > max_pred {
        let m = format!(
            "predicate control {} is reserved in {} mode (0-{max_pred})",
            i.pred_control,
            if c.align16() { "align16" } else { "align1" }
        );
        c.report(OperandId::Inst, m);
    }
    c.check(
        flag_out_of_range(i),
        OperandId::Inst,
        "flag register is f0.0, f0.1, f1.0 or f1.1",
    );
    c.check(
        i.cond_modifier > COND_FIELD_MAX,
        OperandId::Inst,
        "bits 27:24 (condition, math function or SFID) hold at most 15",
    );
}

/// An instruction of more than [`QUARTER_CHANNELS`] channels whose channel
/// group (quarter control, NibCtrl) does not start at a multiple of its
/// execution size ([`channel_offset_fits_exec_size`]). The condition is
/// the model's [`crate::model::channel_group_codes`], which also tells the
/// builder's and the assembler's channel groups.
///
/// Ivy Bridge executes a 64-bit operation in pairs of 32-bit channels:
/// its execution size counts twice the 64-bit channels, and the channel
/// group counts those (Mesa writes the second half of a SIMD16 DF
/// operation as a SIMD16 word at `2Q`, channels 8-15 of 16): there the
/// size compared is half the field's.
#[inline(always)]
pub(crate) fn channel_offset_misaligned(p: Platform, i: &Instruction) -> bool {
    let mut n = i.exec_size.channels();
    if p == Platform::Gen7 && ivb_64bit_pairs(i) {
        n /= 2;
    }
    if n <= QUARTER_CHANNELS {
        return false;
    }
    match ExecSize::from_channels(n) {
        Some(e) => crate::model::channel_group_codes(e, i.first_channel()).is_none(),
        None => true,
    }
}

/// Whether the destination or a source the instruction reads has a 64-bit
/// type (on Ivy Bridge, an operation in pairs of 32-bit channels).
#[inline(always)]
fn ivb_64bit_pairs(i: &Instruction) -> bool {
    i.dst.ty.size() == 8 || i.src.iter().take(usize::from(i.num_srcs())).any(|s| s.ty.size() == 8)
}

/// The channel offset of a SIMD16 or SIMD32 instruction is a multiple of
/// its execution size: SIMD16 starts at `1H` or `2H` (quarter control 0 or
/// 2, NibCtrl clear), SIMD32 at channel 0. Intel's decoder (GED's Gen7 and
/// Gen8 models) refuses any other word; the Gen7 and Gen8 documents name
/// the groups per execution size without stating the rule, which Mesa's
/// validator states from Gen12 on: the rule is conservative. GED refuses
/// NibCtrl on SIMD8 as well, but Mesa emits that (`mov(8) ... { WE_all 2N
/// }` on Haswell, in the corpus, and each Ivy Bridge SIMD4 DF part at an
/// odd nibble, encoded SIMD8 with NibCtrl), so SIMD8 and narrower are left
/// alone; and
/// an Ivy Bridge 64-bit operation counts its channels in pairs (see
/// [`channel_offset_misaligned`]), as Mesa's SIMD16 `2Q` DF halves do.
pub fn channel_offset_fits_exec_size(c: &mut Checker<'_>) {
    let i = c.i;
    if channel_offset_misaligned(c.p, i) {
        let m = format!(
            "a SIMD{} instruction cannot start at channel {} (quarter control {}{}): the offset must be a multiple of the execution size",
            i.exec_size.channels(),
            i.first_channel(),
            i.qtr_control,
            if i.controls.contains(Controls::NIB_CTRL) { ", NibCtrl" } else { "" }
        );
        c.report(OperandId::Inst, m);
    }
}

/// Whether bits 27:24 of an instruction of opcode `op` hold a value the
/// hardware defines: any 4-bit value for MATH (the function, judged by
/// [`math_function_valid`]) and SEND (the SFID, judged by
/// [`super::send::send_sfid_defined`]), else a conditional modifier of
/// Gen6 and later: 0-6, 8 and 9 (7, `.r`, exists on Gen4-5 only).
#[inline(always)]
pub(crate) fn cond_field_defined(op: Opcode, v: u8) -> bool {
    if !op.form().has_cond_modifier_field() {
        return v <= COND_FIELD_MAX;
    }
    !matches!(CondMod::from_hw(v), None | Some(CondMod::R))
}

/// A conditional modifier is one the hardware defines on Gen6 and later
/// (0-6, 8, 9; `.r` is Gen4-5 only), for every opcode that carries one;
/// MATH and SEND use these bits for the function and the SFID.
#[inline(always)]
pub fn cond_modifier_valid(c: &mut Checker<'_>) {
    let i = c.i;
    if i.cond_modifier > COND_FIELD_MAX || cond_field_defined(i.opcode, i.cond_modifier) {
        return;
    }
    let m = if i.cond_modifier == CondMod::R.hw() {
        format!("conditional modifier {} (.r) exists only before Gen6", i.cond_modifier)
    } else {
        format!("conditional modifier {} is reserved", i.cond_modifier)
    };
    c.report(OperandId::Inst, m);
}

/// A MATH function is defined on the platform: 1-7 and 9-13 everywhere,
/// 14 (INVM) and 15 (RSQRTM) on Gen8; 0 and 8 (SINCOS, Gen4-5) are not.
#[inline(always)]
pub fn math_function_valid(c: &mut Checker<'_>) {
    let i = c.i;
    if i.opcode != Opcode::Math || i.cond_modifier > COND_FIELD_MAX {
        return;
    }
    if !MathFunction::from_hw(i.cond_modifier).is_some_and(|f| f.defined_on(c.p)) {
        let m = format!("math function {} is not defined on {}", i.cond_modifier, c.p);
        c.report(OperandId::Inst, m);
    }
}

/// 3-source instructions exist only in align16 on these platforms.
#[inline(always)]
pub fn three_src_align16_only(c: &mut Checker<'_>) {
    let bad = c.three_src() && !c.align16();
    c.check(
        bad,
        OperandId::Inst,
        "3-source instructions are align16 only before Gen10",
    );
}

/// An immediate is never a destination.
#[inline(always)]
pub fn dst_not_immediate(c: &mut Checker<'_>) {
    let bad = c.i.dst.file == RegFile::Imm;
    c.check(bad, OperandId::Dst, "a destination cannot be an immediate");
}

/// Every operand type of a 1- or 2-source layout has an encoding for its
/// register file on the platform: no B/UB immediates, V/UV/VF only as
/// immediates, HF and Q/UQ only on Gen8, DF immediates only on Gen8.
#[inline(always)]
pub fn reg_type_encoding_valid(c: &mut Checker<'_>) {
    if c.three_src() {
        return;
    }
    let p = c.p;
    let d = c.i.dst;
    if d.file != RegFile::Imm && d.ty.reg_hw(p).is_none() {
        let m = format!("{} has no register encoding on {p}", d.ty);
        c.report(OperandId::Dst, m);
    }
    for (k, s) in c.i.src.iter().take(2).enumerate() {
        let what = if c.i.src_type_is_imm_code(k) {
            "immediate"
        } else {
            "register"
        };
        if c.i.src_type_hw(p, k).is_none() {
            let m = format!("{} has no {what} encoding on {p}", s.ty);
            c.report(OperandId::Src(k as u8), m);
        }
    }
}

/// 3-source types: F, D, UD, DF (and HF on Gen8) for the destination and
/// the shared source type; Gen7 sources share one type; on Gen8, beside an
/// F or HF src0, src1 and src2 are each F or HF (Src1Type/Src2Type).
pub fn three_src_type_encoding_valid(c: &mut Checker<'_>) {
    if !c.three_src() {
        return;
    }
    let p = c.p;
    let i = c.i;
    if i.dst.ty.three_src_hw(p).is_none() {
        let m = format!("{} is not a 3-source type on {p}", i.dst.ty);
        c.report(OperandId::Dst, m);
    }
    let st = i.src[0].ty;
    if st.three_src_hw(p).is_none() {
        let m = format!("{st} is not a 3-source type on {p}");
        c.report(OperandId::Src(0), m);
    }
    for k in 1..3u8 {
        let t = c.src_ty(k as usize);
        if Type::three_src_precision_bit(p, st, t).is_none() {
            let m = if p.is_gen8() {
                format!("src{k} is {t}: 3-source sources are F or HF beside an F or HF src0, and share src0's type ({st}) otherwise")
            } else {
                format!("src{k} is {t}: Gen7 3-source sources share one type ({st})")
            };
            c.report(OperandId::Src(k), m);
        }
    }
}

/// 3-source operands are directly addressed GRF registers: no ARF, no
/// immediate, no indirect addressing.
pub fn three_src_operands_grf_direct(c: &mut Checker<'_>) {
    if !c.three_src() {
        return;
    }
    let d = c.i.dst;
    let bad = d.file != RegFile::Grf || is_indirect(&d.addr);
    c.check(bad, OperandId::Dst, "3-source destinations are directly addressed GRFs");
    for k in 0..3u8 {
        let Some(s) = c.i.src.get(k as usize) else { continue };
        let bad = s.file != RegFile::Grf || is_indirect(&s.addr);
        c.check(bad, OperandId::Src(k), "3-source operands are directly addressed GRFs");
    }
}

/// 3-source regions are `<4;4,1>` or, with replicate control, the scalar
/// `<0;1,0>`; the destination stride is 1.
pub fn three_src_region_valid(c: &mut Checker<'_>) {
    if !c.three_src() {
        return;
    }
    let bad = c.i.dst.hstride != region::HSTRIDE_1;
    c.check(bad, OperandId::Dst, "3-source destinations have stride 1");
    for k in 0..3u8 {
        let Some(s) = c.i.src.get(k as usize) else { continue };
        let bad = s.region != Region::THREE_SRC && s.region != Region::SCALAR;
        c.check(
            bad,
            OperandId::Src(k),
            "3-source regions are <4;4,1> or the scalar <0;1,0>",
        );
    }
}

/// The align1 register sources an encoding rule inspects.
fn a1_reg_srcs<'a>(c: &Checker<'a>) -> impl Iterator<Item = (u8, &'a Src)> {
    let skip = c.three_src() || c.align16();
    c.srcs().filter(move |(_, s)| !skip && !s.is_imm())
}

/// Width encodings 0-4 (1, 2, 4, 8, 16); 5-7 are reserved.
pub fn width_encoding_valid(c: &mut Checker<'_>) {
    for (k, s) in a1_reg_srcs(c).filter(|(_, s)| !region::width_defined(s.region.width)) {
        let m = format!(
            "width encoding {} is reserved (legal widths: 1, 2, 4, 8, 16)",
            s.region.width
        );
        c.report(OperandId::Src(k), m);
    }
}

/// Vertical stride encodings 0-6 (0 to 32) and 15 (VxH); 7-14 are reserved.
pub fn vstride_encoding_valid(c: &mut Checker<'_>) {
    let skip = c.three_src();
    let bad = c
        .srcs()
        .filter(|(_, s)| !skip && !s.is_imm() && !region::vstride_defined(s.region.vstride));
    for (k, s) in bad {
        let m = format!(
            "vertical stride encoding {} is reserved (legal strides: 0, 1, 2, 4, 8, 16, 32)",
            s.region.vstride
        );
        c.report(OperandId::Src(k), m);
    }
}

/// Horizontal stride encodings 0-3 (0, 1, 2, 4), for sources and the
/// destination.
pub fn hstride_encoding_valid(c: &mut Checker<'_>) {
    if c.three_src() {
        return;
    }
    for (k, s) in a1_reg_srcs(c).filter(|(_, s)| !region::hstride_defined(s.region.hstride)) {
        let m = format!(
            "horizontal stride encoding {} does not exist (legal strides: 0, 1, 2, 4)",
            s.region.hstride
        );
        c.report(OperandId::Src(k), m);
    }
    let h = c.i.dst.hstride;
    if !region::hstride_defined(h) {
        let m = format!("horizontal stride encoding {h} does not exist (legal strides: 1, 2, 4)");
        c.report(OperandId::Dst, m);
    }
}

/// The VxH vertical stride (encoding 15) selects multi-address
/// register-indirect regioning: only for indirect align1 sources.
pub fn vxh_only_indirect_align1(c: &mut Checker<'_>) {
    let bad = a1_reg_srcs(c).filter(|(_, s)| s.region.is_vxh() && !is_indirect(&s.addr));
    for (k, _) in bad {
        c.report(
            OperandId::Src(k),
            "VxH regioning (vertical stride 15) needs an indirect source",
        );
    }
}

/// Subregister offsets are encodable: align1 bytes 0-31; align16 0 or 16;
/// 3-source dword offsets 0-28.
#[inline(always)]
pub fn subreg_in_range(c: &mut Checker<'_>) {
    let (three_src, a16) = (c.three_src(), c.align16());
    let what = if three_src {
        "a 3-source subregister is a dword offset 0-28"
    } else if a16 {
        "an align16 subregister is byte 0 or 16"
    } else {
        "an align1 subregister is a byte offset 0-31"
    };
    let bad = |a: &Addr| matches!(*a, Addr::Direct { subnr, .. } if !subreg_ok(three_src, a16, subnr));
    if bad(&c.i.dst.addr) {
        c.report(OperandId::Dst, what);
    }
    for (k, s) in c.srcs() {
        if !s.is_imm() && bad(&s.addr) {
            c.report(OperandId::Src(k), what);
        }
    }
}

/// Whether `subnr` is a legal direct subregister byte offset
/// ([`subreg_in_range`]): a multiple of 4 up to 28 in a 3-source
/// instruction, 0 or 16 in align16, 0-31 in align1.
#[inline(always)]
pub(crate) const fn subreg_ok(three_src: bool, align16: bool, subnr: u8) -> bool {
    // (unit, largest offset) in bytes: the last unit of a register.
    const THREE_SRC: (u8, u8) = last_unit(THREE_SRC_SUBREG_BYTES);
    const ALIGN16: (u8, u8) = last_unit(OWORD_BYTES);
    const ALIGN1: (u8, u8) = last_unit(1);
    let (unit, max) = if three_src {
        THREE_SRC
    } else if align16 {
        ALIGN16
    } else {
        ALIGN1
    };
    subnr <= max && subnr & (unit - 1) == 0
}

/// A subregister unit of `unit` bytes and the offset of the last unit in
/// a register, for [`subreg_ok`].
const fn last_unit(unit: u32) -> (u8, u8) {
    (unit as u8, (GRF_BYTES - unit) as u8)
}

/// Whether an operand at register `nr` whose last byte is `last` (from
/// the start of register `nr`) reaches past g127 ([`grf_number_in_range`]).
#[inline(always)]
pub(crate) const fn past_g127(nr: u32, last: u32) -> bool {
    nr + last / GRF_BYTES > GRF_LAST as u32
}

/// Register-indirect operands use an address subregister that exists
/// (a0.0-a0.7 on Gen7/7.5, a0.0-a0.15 on Gen8) and a signed 10-bit byte
/// offset (-512..511; a multiple of 16 in align16).
pub fn indirect_address_in_range(c: &mut Checker<'_>) {
    use crate::isa::{ADDR_IMM_MAX, ADDR_IMM_MIN};
    /// Align16 address immediates count OWords.
    const A16_IMM_UNIT: i16 = OWORD_BYTES as i16;
    let subregs = c.p.addr_subregs();
    let a16 = c.align16();
    let bad = |a: &Addr| match *a {
        Addr::Indirect { subnr, imm } => {
            subnr >= subregs || !(ADDR_IMM_MIN..=ADDR_IMM_MAX).contains(&imm) || (a16 && imm % A16_IMM_UNIT != 0)
        }
        Addr::Direct { .. } => false,
    };
    if bad(&c.i.dst.addr) {
        c.report(OperandId::Dst, "address subregister or offset out of range");
    }
    for (k, _) in c.srcs().filter(|(_, s)| !s.is_imm() && bad(&s.addr)) {
        c.report(OperandId::Src(k), "address subregister or offset out of range");
    }
}

/// Directly addressed GRF operands lie within g0-g127, including every
/// byte their region touches.
#[inline(always)]
pub fn grf_number_in_range(c: &mut Checker<'_>) {
    let send = c.is_send();
    let d = c.i.dst;
    if let (RegFile::Grf, Addr::Direct { nr, .. }) = (d.file, d.addr) {
        let last = if send { Some(0) } else { dst_last_byte(c) };
        if last.is_some_and(|b| past_g127(nr as u32, b)) {
            c.report(OperandId::Dst, "the destination reaches past g127");
        }
    }
    for (k, s) in c.srcs() {
        if let (RegFile::Grf, Addr::Direct { nr, .. }) = (s.file, s.addr) {
            let last = if send { Some(0) } else { c.src_last(k) };
            if last.is_some_and(|b| past_g127(nr as u32, b)) {
                c.report(OperandId::Src(k), "the source reaches past g127");
            }
        }
    }
}
