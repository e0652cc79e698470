//! Fast accept: one cheap pass over the common instruction shapes that
//! proves no rule can report, so [`super::validate`] skips the rules.
//!
//! [`accept`] is conservative: it returns `true` only for shapes whose
//! every rule is shown below to pass, and `false` for anything else,
//! which then goes through every rule ([`super::validate_full`]). The
//! shapes covered:
//!
//! - SEND/SENDC with a directly addressed GRF payload, an immediate or
//!   address-register descriptor and a null or direct GRF destination;
//! - 1- and 2-source instructions with a destination, direct GRF, ARF
//!   (not null, no modifier) or immediate sources and no HF or
//!   byte-destination type (so no mixed-float or packed-byte rule
//!   applies), the destination's stride and offset fitting a wider
//!   execution type, 64-bit types
//!   only in align1 on Gen7.5 and Gen8 (no Cherryview or align16 64-bit
//!   rule applies) and never beside a byte type or as a 64-bit immediate
//!   beside src0; in align1
//!   the source regions meet the region relations and keep each row
//!   within a register, and the destination lies in one OWord, in one
//!   register with no source spanning two, or in two whole registers
//!   (Gen7/7.5: each source scalar or laid out like the destination);
//! - MAD and LRP on F (DF from Gen7.5), BFE and BFI2 on D or UD, CSEL on
//!   F (align16, one type);
//! - branches with an ARF destination field, and WAIT on a notification
//!   register.
//!
//! This is the validator's one speed layer. Its conditions are the named
//! predicates the rules call to report (`encoding::subreg_ok`,
//! `send::mlen_zero`, ...), and for the region rules, proofs kept beside
//! those rules (`regions::a1_src_last`, `regions::dst_alignment_proof`)
//! and built from the predicates they call (`rows_stay_in_registers`,
//! `Rgn::relations_hold`, `Region::is_packed_within`); the gates of the rule
//! blocks ([`super::registry`]) only skip rules that do not apply to the
//! instruction's form, never prove that applicable rules pass.
//!
//! The unit tests check on random instructions that an accepted one
//! passes every rule.

use super::encoding as enc;
use super::instruction::{self as ins, is_dword};
use super::*;
use crate::isa::{arf, region, GRF_BYTES};

/// Bit `t as u8` set for each type with an encoding (register or
/// immediate) on Gen7/Gen7.5 or on Gen8.
#[allow(clippy::indexing_slicing)] // k < len by the loop
const fn type_mask(p: Platform, imm: bool) -> u16 {
    let mut m = 0u16;
    let mut k = 0;
    while k < Type::ALL.len() {
        let t = Type::ALL[k];
        let enc = if imm { t.imm_hw(p) } else { t.reg_hw(p) };
        if enc.is_some() {
            m |= 1 << (t as u8);
        }
        k += 1;
    }
    m
}

const REG_GEN7: u16 = type_mask(Platform::Gen7, false);
const REG_GEN8: u16 = type_mask(Platform::Gen8, false);
const IMM_GEN7: u16 = type_mask(Platform::Gen7, true);
const IMM_GEN8: u16 = type_mask(Platform::Gen8, true);

/// The types of at most 4 bytes ([`Type::size`]): no 64-bit rule
/// concerns them.
#[allow(clippy::indexing_slicing)] // k < len by the loop
const NARROW: u16 = {
    let mut m = 0u16;
    let mut k = 0;
    while k < Type::ALL.len() {
        let t = Type::ALL[k];
        if t.size() <= 4 {
            m |= 1 << (t as u8);
        }
        k += 1;
    }
    m
};

/// Types of at most 4 bytes other than HF and the vector immediates: no
/// 64-bit, mixed-float or HF-conversion rule can concern them.
const PLAIN: u16 =
    bit(Type::UD) | bit(Type::D) | bit(Type::UW) | bit(Type::W) | bit(Type::UB) | bit(Type::B) | bit(Type::F);

/// The 64-bit types: the fast accept takes them in align1 on Gen7.5 and
/// Gen8 (not on Ivy Bridge, which regions them in 32-bit units, nor on
/// Cherryview, whose 64-bit rules it does not prove).
const WIDE: u16 = bit(Type::DF) | bit(Type::Q) | bit(Type::UQ);

/// The vector immediate types.
const VECTOR: u16 = bit(Type::V) | bit(Type::UV) | bit(Type::VF);

const fn bit(t: Type) -> u16 {
    1 << (t as u8)
}

/// Whether `t` is in the type set `m`.
#[inline(always)]
fn has(m: u16, t: Type) -> bool {
    m >> (t as u8) & 1 != 0
}

/// Whether every rule passes, proven cheaply; `false` means unknown.
///
/// The form is told first: each form's path runs the common checks
/// ([`controls`], and [`types`] or the SEND path's own type checks)
/// inlined on its own, where the opcode's form is known and the tests
/// that depend on it fold.
#[inline(always)]
pub(crate) fn accept(p: Platform, i: &Instruction) -> bool {
    let op = i.opcode;
    let a16 = i.access_mode == AccessMode::Align16;
    if op.is_send() {
        // cond_modifier_valid: bits 27:24 hold the SFID, which `send`
        // proves defined (see the test
        // `a_defined_sfid_passes_cond_modifier_valid`).
        controls(p, i, a16) && send(p, i, a16)
    } else if op.is_three_src() {
        a16 && controls(p, i, a16) && cond_ok(i) && types(p, i) && three_src(p, i)
    } else if op.is_branch() {
        controls(p, i, a16) && cond_ok(i) && types(p, i) && op.num_srcs() == 0 && branch(p, i, a16)
    } else {
        controls(p, i, a16) && cond_ok(i) && types(p, i) && alu(p, i, a16, op.num_srcs())
    }
}

/// The control checks of every form: opcode_exists;
/// control_fields_in_range; channel_offset_fits_exec_size.
#[inline(always)]
fn controls(p: Platform, i: &Instruction, a16: bool) -> bool {
    if !enc::opcode_defined(p, i.opcode) {
        return false;
    }
    !(super::encoding::qtr_control_too_wide(i)
        || i.pred_control > super::encoding::max_pred_control(a16)
        || super::encoding::flag_out_of_range(i)
        || super::encoding::channel_offset_misaligned(p, i))
}

/// cond_modifier_valid (not MATH, SEND).
#[inline(always)]
fn cond_ok(i: &Instruction) -> bool {
    super::encoding::cond_field_defined(i.opcode, i.cond_modifier)
}

/// The register and immediate type sets with a code on `p`.
#[inline(always)]
const fn type_sets(p: Platform) -> (u16, u16) {
    if p.is_gen8() {
        (REG_GEN8, IMM_GEN8)
    } else {
        (REG_GEN7, IMM_GEN7)
    }
}

/// Whether source `k`'s type has a code in its type field
/// (`Instruction::src_type_hw`), from the type sets of [`type_sets`].
#[inline(always)]
fn src_type_coded(i: &Instruction, k: usize, (reg, imm): (u16, u16)) -> bool {
    let set = if i.src_type_is_imm_code(k) { imm } else { reg };
    i.src.get(k).is_some_and(|s| has(set, s.ty))
}

/// dst_not_immediate, reg_type_encoding_valid (src0 and src1 whatever
/// the source count).
#[inline(always)]
fn types(p: Platform, i: &Instruction) -> bool {
    let sets = type_sets(p);
    i.dst.file != RegFile::Imm && has(sets.0, i.dst.ty) && src_type_coded(i, 0, sets) && src_type_coded(i, 1, sets)
}

/// SEND and SENDC (one source).
#[inline(always)]
fn send(p: Platform, i: &Instruction, a16: bool) -> bool {
    let (d, s0, s1) = (&i.dst, &i.src[0], &i.src[1]);
    // send_src0_direct, send_src0_grf; send_desc_imm_or_a0.
    let (RegFile::Grf, Addr::Direct { nr: snr, subnr: ssub }) = (s0.file, s0.addr) else {
        return false;
    };
    if !send::desc_operand_ok(s1) {
        return false;
    }
    let Addr::Direct { nr: dnr, subnr: dsub } = d.addr else {
        return false;
    };
    // The destination is null or a GRF (not another ARF; so
    // dst_not_immediate).
    let dst_null = is_null_dst(d);
    if !dst_null && d.file != RegFile::Grf {
        return false;
    }
    // reg_type_encoding_valid: the destination's and the GRF src0's
    // register codes, src1's code; and no 64-bit operand: the 64-bit rules
    // do not apply.
    let sets = type_sets(p);
    let narrow_reg = sets.0 & NARROW;
    if !has(narrow_reg, d.ty) || !has(narrow_reg, s0.ty) || !src_type_coded(i, 1, sets) {
        return false;
    }
    if !region::hstride_defined(d.hstride) {
        return false;
    }
    if a16 {
        // The region encodings; subreg_in_range; align16_dst_hstride_one;
        // align16_src_vstride.
        let r = s0.region;
        let vs_ok = regions::align16_vstride_ok(p.is_gen75_or_later(), r.vstride);
        let bad = !region::width_defined(r.width)
            || !region::hstride_defined(r.hstride)
            || !enc::subreg_ok(false, true, dsub)
            || !enc::subreg_ok(false, true, ssub);
        if bad || (!dst_null && d.hstride != region::HSTRIDE_1) || !vs_ok {
            return false;
        }
    } else {
        // subreg_in_range; dst_hstride_nonzero; the align1 source rules
        // (with the region encodings).
        if !enc::subreg_ok(false, false, dsub)
            || !enc::subreg_ok(false, false, ssub)
            || (!dst_null && d.hstride == region::HSTRIDE_0)
        {
            return false;
        }
        if regions::a1_src_last(i.exec_size.channels(), s0, ssub as u32).is_none() {
            return false;
        }
    }
    // grf_number_in_range (SEND counts the first register alone).
    let (snr, dnr) = (snr as u32, dnr as u32);
    if enc::past_g127(snr, 0) || (d.file == RegFile::Grf && enc::past_g127(dnr, 0)) {
        return false;
    }
    // The SEND rules (send_sfid_defined: with cond_modifier_valid).
    let Some(sfid) = send::defined_sfid(p, i.cond_modifier) else {
        return false;
    };
    if send::eot_payload_below_g112(i.eot(), snr) {
        return false;
    }
    // A descriptor in the address register: the descriptor rules have
    // nothing to read.
    let Some(desc) = i.send_desc() else {
        return true;
    };
    if send::mlen_zero(desc)
        || send::rlen_above_16(desc)
        || send::payload_past_g127(snr, desc)
        || send::desc_bits_30_29_set(p, desc)
    {
        return false;
    }
    if !dst_null && (send::response_past_g127(dnr, desc) || send::gen8_response_overlap_r127(p, dnr, snr, desc)) {
        return false;
    }
    // URB messages: a header and an opcode of the platform.
    if sfid == crate::isa::Sfid::Urb && (!send::urb_header_present(desc) || send::urb_opcode_problem(p, desc).is_some())
    {
        return false;
    }
    // Data port messages: a message type of the port, the response length
    // of a surface read.
    if !send::dp_message_ok(p, sfid, desc, a16) {
        return false;
    }
    true
}

/// The last byte an align16 (or 3-source) register source at byte `sub`
/// touches: `<v;4,1>` rows, or one element for the scalar region.
#[inline(always)]
fn a16_src_last(exec: u32, s: &Src, sub: u32) -> u32 {
    let es = s.ty.size();
    if s.region == Region::SCALAR {
        return sub + es - 1;
    }
    let v = Rgn::of(s.region).v;
    let w = exec.min(A16_WIDTH_ELEMS);
    // Both powers of two: a shift, not a division.
    let rows = exec >> w.trailing_zeros();
    ((rows - 1) * v + w - 1) * es + sub + es - 1
}

/// 1- and 2-source instructions with a destination (not SEND, not
/// 3-source, not branches).
#[inline(always)]
fn alu(p: Platform, i: &Instruction, a16: bool, nsrc: u8) -> bool {
    let op = i.opcode;
    if !has_dst(op) {
        return false;
    }
    // MATH counts its sources by function ([`Instruction::num_srcs`]);
    // the fast path takes the functions Gen7 has.
    let (nsrc, int_div) = if op == Opcode::Math {
        match MathFunction::from_hw(i.cond_modifier) {
            Some(f) if f.defined_on(Platform::Gen7) => (f.num_srcs(), f.is_int_div()),
            _ => return false,
        }
    } else {
        (nsrc, false)
    };
    if !(1..=2).contains(&nsrc) {
        return op == Opcode::Wait && wait(p, i, a16);
    }
    let gen8 = p.is_gen8();
    let d = &i.dst;
    let Addr::Direct { nr: dnr, subnr: dsub } = d.addr else {
        return false;
    };
    let dst_null = is_null_dst(d);
    let (t0, t1) = (i.src[0].ty, i.src[1].ty);
    // Opcode rules.
    let op_ok = match op {
        op if op.is_compare() => {
            !(ins::cmp_lacks_cond(i) || ins::gen7_cmp_dst_arf(p, i) || ins::gen7_cmp_null_dst_without_switch(p, i))
        }
        Opcode::Sel => !ins::sel_pred_and_cond_not_exclusive(i),
        op if op.is_logic() => {
            let abs = ins::logic_abs_on(i, 0) || ins::logic_abs_on(i, 1);
            !(ins::logic_cond_mod_refused(i.cond_modifier) || (gen8 && abs))
        }
        // Float functions on F operands; INT DIV on D or UD without
        // source modifiers.
        Opcode::Math if int_div => {
            is_dword(d.ty)
                && is_dword(t0)
                && is_dword(t1)
                && !ins::math_src_modified(i, 0)
                && !ins::math_src_modified(i, 1)
        }
        Opcode::Math => d.ty == Type::F && t0 == Type::F && (nsrc == 1 || t1 == Type::F),
        // No register source is an accumulator here (ARF sources are not
        // accepted); a dword × dword MUL is "double precision" on
        // Cherryview.
        Opcode::Mul => {
            let dwxdw = is_dword(t0) && is_dword(t1);
            let bad = ins::mul_dword_on_src1(t0, t1)
                || ins::gen7_mul_float_dst_dword_src(p, d.ty, t0, t1)
                || (dwxdw && p == Platform::Chv)
                || ins::gen8_mul_dwxdw_arf_dst(p, i)
                || ins::mul_dword_sat_or_cond(i);
            !bad
        }
        _ => true,
    };
    // gen7_math_operands_direct_grf.
    let grf = |file, addr| super::instruction::is_direct_grf(file, addr);
    let math_ok = op != Opcode::Math
        || gen8
        || (grf(d.file, d.addr) && i.src.iter().take(nsrc as usize).all(|s| grf(s.file, s.addr)));
    if !op_ok || !math_ok {
        return false;
    }
    // The destination: a plain type (or a 64-bit one, see WIDE), no wider
    // source, stride encoding 1-3 (align16: 1), byte offset 0-31 (align16:
    // 0 or 16).
    let dts = d.ty.size();
    let max_h = if a16 { region::A16_HSTRIDE } else { region::HSTRIDE_LAST };
    let dst_mode_ok = enc::subreg_ok(false, a16, dsub);
    let wide_ok = !a16 && p != Platform::Gen7 && p != Platform::Chv;
    let types = if wide_ok { PLAIN | WIDE } else { PLAIN };
    if !has(types, d.ty) || dts == 1 || d.hstride == region::HSTRIDE_0 || d.hstride > max_h || !dst_mode_ok {
        return false;
    }
    let exec = i.exec_size.channels();
    let (dsub, dnr) = (dsub as u32, dnr as u32);
    let hsw = p.is_gen75_or_later();
    // Last byte of each register source (None: immediate).
    let cx = SrcCx {
        op,
        nsrc,
        types,
        dst_ty: d.ty,
        a16,
        hsw,
        exec,
        dts,
        dsub,
        dst_stride: stride(d.hstride),
    };
    let Some(last0) = alu_src(&cx, &i.src[0], nsrc == 1) else {
        return false;
    };
    let last1 = if nsrc == 2 {
        let Some(l) = alu_src(&cx, &i.src[1], true) else {
            return false;
        };
        l
    } else {
        None
    };
    let lasts = [last0, last1];
    // The execution type is wider than the destination type only beside a
    // source wider than it (bytes execute as words, and the destination
    // is not a byte type): then dst_stride_matches_exec_type_ratio and
    // dst_subreg_aligned_to_exec_type.
    let wider = i.src[0].ty.size() > dts || (nsrc == 2 && t1.size() > dts);
    if wider {
        use super::operand_types as ot;
        let Some(ets) = exec_type(i, nsrc).map(Type::size) else {
            return false;
        };
        if ets > dts
            && (ot::dst_stride_not_exec_size(stride(d.hstride), dts, ets) || ot::dst_sub_misaligned(dsub, ets, false))
        {
            return false;
        }
    }
    // The destination's last byte, and (align1) the region alignment
    // rules.
    let step = stride(d.hstride) * dts;
    let dlast = (exec - 1) * step + dsub + dts - 1;
    if d.file == RegFile::Grf && enc::past_g127(dnr, dlast) {
        return false;
    }
    if a16 || dst_null {
        return true;
    }
    let src_two = lasts.iter().flatten().any(|l| *l >= GRF_BYTES);
    if let Some(proven) = regions::dst_alignment_proof(gen8, exec, dsub, step, dlast, src_two) {
        return proven;
    }
    // Gen7/7.5: each source scalar or read like the destination: from
    // byte 0, element k at byte k * step (VertStride = Width * HorzStride).
    i.src.iter().zip(lasts).all(|(s, l)| {
        let Rgn { v, w, h } = Rgn::of(s.region);
        let like_dst = direct_subnr(&s.addr) == Some(0) && v == w * h && h * s.ty.size() == step;
        l.is_none() || s.region == Region::SCALAR || like_dst
    })
}

/// WAIT, which reads no source the rules count and writes one
/// notification register: an ARF destination other than null, of a plain
/// type, stride encoding 1 (align16_dst_hstride_one, dst_hstride_nonzero),
/// at a legal offset (subreg_in_range) and within one OWord (the span and
/// split rules), and a scalar src0 (wait_src0_scalar).
#[cold]
#[inline(never)]
fn wait(p: Platform, i: &Instruction, a16: bool) -> bool {
    let d = &i.dst;
    let Addr::Direct { subnr, .. } = d.addr else {
        return false;
    };
    let plain = has(PLAIN, d.ty) && d.hstride == region::HSTRIDE_1 && enc::subreg_ok(false, a16, subnr);
    if d.file != RegFile::Arf || is_null_dst(d) || !plain {
        return false;
    }
    let (exec, dts, dsub) = (i.exec_size.channels(), d.ty.size(), subnr as u32);
    let dlast = (exec - 1) * dts + dsub + dts - 1;
    let in_oword = regions::dst_alignment_proof(p.is_gen8(), exec, dsub, dts, dlast, false) == Some(true);
    in_oword && !super::flow::wait_src0_not_scalar(a16, i.src[0].region)
}

/// What [`alu_src`] needs to know of the instruction.
struct SrcCx {
    op: Opcode,
    /// The sources the instruction reads.
    nsrc: u8,
    /// The register types taken ([`PLAIN`], with [`WIDE`] where allowed).
    types: u16,
    dst_ty: Type,
    a16: bool,
    /// Gen7.5 or later.
    hsw: bool,
    exec: u32,
    /// Destination type size, byte offset and stride in elements.
    dts: u32,
    dsub: u32,
    dst_stride: u32,
}

/// Checks a source `s` of [`alu`] (`last_src`: the last source read, the
/// only one that may be an immediate): `Some(Some(last byte))` for a
/// register, `Some(None)` for an immediate, `None` when not proven valid.
#[inline(always)]
fn alu_src(cx: &SrcCx, s: &Src, last_src: bool) -> Option<Option<u32>> {
    // no_byte_64bit_conversion.
    if super::operand_types::byte_64bit_pair(cx.dst_ty, s.ty) {
        return None;
    }
    match (s.file, s.addr) {
        // An ARF source other than null, without modifiers (the
        // accumulator rules of logic operations), not for MUL.
        (RegFile::Grf | RegFile::Arf, Addr::Direct { nr, subnr }) => {
            let arf = s.file == RegFile::Arf;
            if !has(cx.types, s.ty) || (arf && (nr == arf::NULL || !s.mods.is_empty() || cx.op == Opcode::Mul)) {
                return None;
            }
            let l = if cx.a16 {
                // subreg_in_range, the encodings, align16_src_vstride.
                let e = s.region;
                let vs_ok = regions::align16_vstride_ok(cx.hsw, e.vstride);
                if !enc::subreg_ok(false, true, subnr)
                    || !region::width_defined(e.width)
                    || !region::hstride_defined(e.hstride)
                    || !vs_ok
                {
                    return None;
                }
                a16_src_last(cx.exec, s, subnr as u32)
            } else if !enc::subreg_ok(false, false, subnr) {
                return None;
            } else {
                regions::a1_src_last(cx.exec, s, subnr as u32)?
            };
            (arf || !enc::past_g127(nr as u32, l)).then_some(Some(l))
        }
        (RegFile::Imm, _) if last_src => {
            // imm64_only_single_source (the last source read is src1 when
            // two are).
            if !has(cx.types | VECTOR, s.ty) || super::sources::imm64_beside_src0(cx.nsrc, s) {
                return None;
            }
            // The vector immediate rules.
            if has(VECTOR, s.ty) {
                let need = super::vector_imm::vector_imm_dst_stride(s.ty);
                if !super::vector_imm::dst_oword_aligned(cx.dsub) || cx.dts * cx.dst_stride != need {
                    return None;
                }
            }
            Some(None)
        }
        _ => None,
    }
}

/// The largest execution size of an Ivy Bridge 3-source instruction on
/// 4-byte operands (the ones taken there): one register each.
const IVB_THREE_SRC_MAX_EXEC: u32 = GRF_BYTES / Type::F.size();

/// MAD and LRP on F (or DF, not on Ivy Bridge), BFE and BFI2 on D or UD,
/// CSEL on F, every operand of one type.
#[inline(always)]
fn three_src(p: Platform, i: &Instruction) -> bool {
    let t = i.dst.ty;
    let ok = match i.opcode {
        // Ivy Bridge regions DF in 32-bit units, which a16_src_last does
        // not count; 3-source instructions are not "double precision" for
        // the 64-bit rules.
        Opcode::Mad | Opcode::Lrp => t == Type::F || (t == Type::DF && p != Platform::Gen7),
        Opcode::Bfe => is_dword(t),
        Opcode::Bfi2 => is_dword(t) && !ins::bfi2_cond_or_saturate(i),
        // csel_types (on F, a 3-source type everywhere),
        // csel_not_predicated, csel_requires_cond_mod.
        Opcode::Csel => {
            t == Type::F && ins::csel_dst_type_ok(t) && !ins::csel_predicated(i) && !ins::csel_lacks_cond(i)
        }
        _ => false,
    };
    let exec = i.exec_size.channels();
    // Ivy Bridge: one register per operand.
    if !ok || i.dst.hstride != region::HSTRIDE_1 || (p == Platform::Gen7 && exec > IVB_THREE_SRC_MAX_EXEC) {
        return false;
    }
    // A direct GRF at a 3-source offset, its bytes up to `last` (from the
    // offset) not past g127.
    let in_range = |file: RegFile, addr: Addr, last: u32| match (file, addr) {
        (RegFile::Grf, Addr::Direct { nr, subnr }) => {
            enc::subreg_ok(true, true, subnr) && !enc::past_g127(nr as u32, last + subnr as u32)
        }
        _ => false,
    };
    // The destination's last byte as grf_number_in_range counts it (a
    // DF destination spans twice an F one).
    let d = &i.dst;
    if !in_range(d.file, d.addr, dst_last_byte_from(p, i.opcode, exec, true, d, 0)) {
        return false;
    }
    i.src.iter().all(|s| {
        s.ty == t
            && (s.region == Region::THREE_SRC || s.region == Region::SCALAR)
            && in_range(s.file, s.addr, a16_src_last(exec, s, 0))
    })
}

/// Branches (no destination, no source): a null or other ARF destination
/// field; Gen8 offsets in whole instructions.
#[inline(always)]
fn branch(p: Platform, i: &Instruction, a16: bool) -> bool {
    let d = &i.dst;
    let Addr::Direct { subnr, .. } = d.addr else {
        return false;
    };
    let sub_ok = enc::subreg_ok(false, a16, subnr);
    if d.file != RegFile::Arf || !region::hstride_defined(d.hstride) || !sub_ok {
        return false;
    }
    // brd_brc_dst_null; brd/brc with a register src0 go through the rules
    // (brd_brc_src0_register).
    if super::flow::brd_brc_dst_not_null(i) || i.offsets_from_register() {
        return false;
    }
    ins::branch_offsets_aligned(p, i)
}

// The one home of the corpus's place and of the rule for its absence.
#[cfg(all(test, feature = "std"))]
#[path = "../../tests/corpus/mod.rs"]
mod corpus;

#[cfg(test)]
mod tests {
    use super::*;

    use crate::validate::tests::{mutate, Rng};

    /// Valid shapes of each kind [`accept`] covers, to mutate.
    fn seeds() -> Vec<Instruction> {
        let rgn = |v, w, h| Region::new(v, w, h).unwrap();
        let mut out = Vec::new();
        let mut add = Instruction::new(Opcode::Add, ExecSize::S16);
        add.dst = Dst::grf(2, 0, Type::F);
        add.src[0] = Src::grf(4, 0, Type::F, rgn(8, 8, 1));
        add.src[1] = Src::grf(6, 0, Type::F, rgn(8, 8, 1));
        out.push(add);
        let mut mov = Instruction::new(Opcode::Mov, ExecSize::S8);
        mov.dst = Dst::grf(10, 0, Type::UW);
        mov.src[0] = Src::imm(Type::V);
        out.push(mov);
        let mut cmp = add;
        cmp.opcode = Opcode::Cmp;
        cmp.exec_size = ExecSize::S8;
        cmp.cond_modifier = CondMod::G.hw();
        cmp.dst = Dst::null().with_ty_for_test(Type::F);
        cmp.thread_control = ThreadControl::Switch;
        cmp.src[1] = Src::imm(Type::F);
        out.push(cmp);
        let mut sel = add;
        sel.opcode = Opcode::Sel;
        sel.cond_modifier = CondMod::Ge.hw();
        sel.src[1] = Src::grf(8, 0, Type::F, Region::SCALAR);
        out.push(sel);
        let mut and = add;
        and.opcode = Opcode::And;
        and.dst.ty = Type::UD;
        and.src[0].ty = Type::UD;
        and.src[1] = Src::imm(Type::UD);
        out.push(and);
        let mut math = add;
        math.opcode = Opcode::Math;
        math.exec_size = ExecSize::S8;
        math.cond_modifier = MathFunction::Pow.hw();
        out.push(math);
        let mut send = Instruction::new(Opcode::Send, ExecSize::S16);
        send.dst = Dst::grf(20, 0, Type::UW);
        send.src[0] = Src::grf(2, 0, Type::UD, rgn(8, 8, 1));
        send.src[1] = Src::imm(Type::UD);
        send.set_sfid(crate::isa::Sfid::Urb);
        send.imm = (2 << 25) | (1 << 20) | (1 << 19) | 1;
        out.push(send);
        let mut eot = send;
        eot.dst = Dst::null();
        eot.src[0] = Src::grf(120, 0, Type::UD, rgn(8, 8, 1));
        // A render target write.
        eot.set_sfid(crate::isa::Sfid::RenderCache);
        eot.imm = (1 << crate::model::SEND_EOT_BIT) | (8 << 25) | (12 << 14);
        out.push(eot);
        let mut a16 = send;
        a16.access_mode = AccessMode::Align16;
        a16.exec_size = ExecSize::S8;
        a16.src[0].region = rgn(4, 4, 1);
        out.push(a16);
        let r441 = rgn(4, 4, 1);
        let mut mad = Instruction::new(Opcode::Mad, ExecSize::S8);
        mad.access_mode = AccessMode::Align16;
        mad.dst = Dst::grf(2, 0, Type::F);
        mad.src = [
            Src::grf(4, 0, Type::F, r441),
            Src::grf(5, 4, Type::F, Region::SCALAR),
            Src::grf(6, 16, Type::F, r441),
        ];
        out.push(mad);
        let mut bfe = mad;
        bfe.opcode = Opcode::Bfe;
        bfe.dst.ty = Type::UD;
        bfe.src = bfe.src.map(|s| s.with_ty(Type::UD));
        out.push(bfe);
        let mut bfi2 = bfe;
        bfi2.opcode = Opcode::Bfi2;
        out.push(bfi2);
        let mut add16 = mad;
        add16.opcode = Opcode::Add;
        add16.src[1] = Src::imm(Type::F);
        out.push(add16);
        let mut cmp16 = add16;
        cmp16.opcode = Opcode::Cmp;
        cmp16.cond_modifier = CondMod::Nz.hw();
        cmp16.src[1] = Src::grf(7, 16, Type::F, rgn(0, 4, 1));
        out.push(cmp16);
        let mut mul = add;
        mul.opcode = Opcode::Mul;
        mul.dst.ty = Type::D;
        mul.src[0].ty = Type::D;
        mul.src[1] = Src::imm(Type::W);
        out.push(mul);
        let mut mul_dd = mul;
        mul_dd.src[1] = Src::grf(8, 0, Type::D, Region::SCALAR);
        out.push(mul_dd);
        let mut widen = Instruction::new(Opcode::Mov, ExecSize::S16);
        widen.dst = Dst::grf(2, 0, Type::F);
        widen.src[0] = Src::grf(4, 0, Type::W, rgn(16, 8, 2));
        out.push(widen);
        let mut arf = Instruction::new(Opcode::And, ExecSize::S1);
        arf.dst = Dst::grf(crate::isa::arf::ADDRESS, 0, Type::UD);
        arf.dst.file = RegFile::Arf;
        arf.src[0] = Src::grf(crate::isa::arf::ADDRESS, 0, Type::UD, Region::SCALAR);
        arf.src[0].file = RegFile::Arf;
        arf.src[1] = Src::imm(Type::UD);
        out.push(arf);
        let mut acc = add;
        acc.opcode = Opcode::Or;
        acc.exec_size = ExecSize::S8;
        acc.dst.ty = Type::UD;
        acc.src[0] = Src::grf(crate::isa::arf::ACC, 0, Type::UD, rgn(8, 8, 1));
        acc.src[0].file = RegFile::Arf;
        acc.src[1].ty = Type::UD;
        out.push(acc);
        let mut idiv = add;
        idiv.opcode = Opcode::Math;
        idiv.exec_size = ExecSize::S8;
        idiv.cond_modifier = MathFunction::IntDivQuotient.hw();
        idiv.dst.ty = Type::D;
        idiv.src = idiv.src.map(|s| s.with_ty(Type::D));
        out.push(idiv);
        // 64-bit: add(8) g2<1>DF g4<4,4,1>DF g6<0,1,0>DF, a Q immediate
        // move, and a dword multiply into Q.
        let mut add_df = Instruction::new(Opcode::Add, ExecSize::S8);
        add_df.dst = Dst::grf(2, 0, Type::DF);
        add_df.src[0] = Src::grf(4, 0, Type::DF, rgn(4, 4, 1));
        add_df.src[1] = Src::grf(6, 0, Type::DF, Region::SCALAR);
        out.push(add_df);
        let mut mov_q = Instruction::new(Opcode::Mov, ExecSize::S8);
        mov_q.dst = Dst::grf(2, 0, Type::Q);
        mov_q.src[0] = Src::imm(Type::Q);
        out.push(mov_q);
        let mut mul_q = add_df;
        mul_q.opcode = Opcode::Mul;
        mul_q.dst.ty = Type::Q;
        mul_q.src = mul_q.src.map(|s| s.with_ty(Type::D));
        out.push(mul_q);
        // csel.nz(8) g2<1>F g4<4,4,1>F g5.1<0,1,0>F g6.4<4,4,1>F, and MAD
        // on DF.
        let mut csel = mad;
        csel.opcode = Opcode::Csel;
        csel.cond_modifier = CondMod::Nz.hw();
        out.push(csel);
        let mut mad_df = mad;
        mad_df.dst.ty = Type::DF;
        mad_df.src = [
            Src::grf(4, 0, Type::DF, r441),
            Src::grf(5, 8, Type::DF, Region::SCALAR),
            Src::grf(6, 0, Type::DF, r441),
        ];
        out.push(mad_df);
        // A SEND whose descriptor is in a0.0.
        let mut send_a0 = send;
        send_a0.src[1] = Src::grf(crate::isa::arf::ADDRESS, 0, Type::UD, Region::SCALAR);
        send_a0.src[1].file = RegFile::Arf;
        out.push(send_a0);
        // mov(8) g2<1>UD g4.1<8,4,2>UD: the source spans two registers,
        // the destination fills one, four channels in each OWord.
        let mut split = Instruction::new(Opcode::Mov, ExecSize::S8);
        split.dst = Dst::grf(2, 0, Type::UD);
        split.src[0] = Src::grf(4, 4, Type::UD, rgn(8, 4, 2));
        out.push(split);
        // mov(8) g2<2>UW g4<8,8,1>F and mov(8) g2<2>UD g4<0,1,0>DF: the
        // execution type is wider than the destination type.
        let mut narrow = Instruction::new(Opcode::Mov, ExecSize::S8);
        narrow.dst = Dst::grf(2, 0, Type::UW);
        narrow.dst.hstride = 2;
        narrow.src[0] = Src::grf(4, 0, Type::F, rgn(8, 8, 1));
        out.push(narrow);
        let mut narrow_df = narrow;
        narrow_df.dst.ty = Type::UD;
        narrow_df.src[0] = Src::grf(4, 0, Type::DF, Region::SCALAR);
        out.push(narrow_df);
        // wait(1) n0.2<1>UD.
        let mut wait = Instruction::new(Opcode::Wait, ExecSize::S1);
        wait.dst = Dst::grf(crate::isa::arf::NOTIFICATION, 8, Type::UD);
        wait.dst.file = RegFile::Arf;
        wait.src[0] = Src::grf(crate::isa::arf::NOTIFICATION, 8, Type::UD, Region::SCALAR);
        wait.src[0].file = RegFile::Arf;
        out.push(wait);
        let mut jump = Instruction::new(Opcode::If, ExecSize::S16);
        jump.imm = (64 << 32) | 32;
        out.push(jump);
        let mut brk = jump;
        brk.opcode = Opcode::Break;
        brk.access_mode = AccessMode::Align16;
        out.push(brk);
        out
    }

    trait WithTy {
        fn with_ty_for_test(self, ty: Type) -> Self;
    }

    impl WithTy for Dst {
        fn with_ty_for_test(mut self, ty: Type) -> Self {
            self.ty = ty;
            self
        }
    }

    /// An align1 instruction of the shapes [`accept`] looks at, built from
    /// random parts: plain types, packed or scalar regions, offsets that
    /// are multiples of the type size, registers near g127.
    fn simple_alu(r: &mut Rng) -> Instruction {
        use Type::*;
        let ops = [
            Opcode::Add,
            Opcode::Mov,
            Opcode::Sel,
            Opcode::Cmp,
            Opcode::And,
            Opcode::Math,
        ];
        let tys = [UD, D, UW, W, UB, B, F, F, HF, DF, Q, UQ];
        let mut i = Instruction::new(r.pick(&ops), r.pick(ExecSize::ALL));
        i.cond_modifier = r.pick(&[0, 0, 1, 4, 10]);
        i.pred_control = r.pick(&[0, 0, 1]);
        i.thread_control = r.pick(&[ThreadControl::Normal, ThreadControl::Switch]);
        let nr = |r: &mut Rng| r.pick(&[0u8, 2, 60, 124, 125, 126, 127]);
        let dty = r.pick(&tys);
        let es = dty.size() as u8;
        i.dst = Dst::grf(nr(r), es * r.below(32 / es as usize) as u8 % 32, dty);
        if r.below(4) == 0 {
            i.dst.addr = Addr::Direct { nr: 0, subnr: 0 };
            i.dst.file = RegFile::Arf;
        }
        i.dst.hstride = r.pick(&[1, 1, 1, 2, 3, 0]);
        for k in 0..2 {
            let ty = if r.below(2) == 0 { dty } else { r.pick(&tys) };
            let es = ty.size() as u8;
            let w = r.below(5) as u8;
            let region = if r.below(3) == 0 {
                Region::SCALAR
            } else {
                Region {
                    vstride: w + 1,
                    width: w,
                    hstride: 1,
                }
            };
            i.src[k] = Src::grf(nr(r), es * r.below(32 / es as usize) as u8 % 32, ty, region);
            if k == 1 && r.below(4) == 0 {
                i.src[k] = Src::imm(r.pick(&[UD, F, V, UV, VF, W, DF, Q]));
            }
        }
        i
    }

    /// What lets [`accept`] leave cond_modifier_valid to the SFID test on
    /// SEND and SENDC.
    #[test]
    fn a_defined_sfid_passes_cond_modifier_valid() {
        for p in Platform::ALL {
            for v in 0..=u8::MAX {
                if send::defined_sfid(p, v).is_some() {
                    for op in [Opcode::Send, Opcode::Sendc] {
                        assert!(enc::cond_field_defined(op, v), "{p:?} {op:?} {v}");
                    }
                }
            }
        }
    }

    #[test]
    fn math_source_counts_match_the_model() {
        for cm in 0..16 {
            let mut math = Instruction::new(Opcode::Math, ExecSize::S8);
            math.cond_modifier = cm;
            let fast = match cm {
                1..=7 => Some(1),
                9..=13 => Some(2),
                _ => None,
            };
            if let Some(n) = fast {
                assert_eq!(n, math.num_srcs(), "function {cm}");
            }
        }
    }

    /// An accepted instruction passes every rule; near-valid instructions
    /// are accepted often and rejected by the rules often.
    #[test]
    fn accepted_instructions_pass_every_rule() {
        let seeds = seeds();
        for (n, s) in seeds.iter().enumerate() {
            assert!(accept(Platform::Gen8, s), "seed {n} not accepted: {s:?}");
        }
        let mut r = Rng(0x2545_f491_4f6c_dd1d);
        let (mut accepted, mut invalid) = (0, 0);
        for _ in 0..100_000 {
            let mut i = if r.below(2) == 0 {
                simple_alu(&mut r)
            } else {
                r.pick(&seeds)
            };
            mutate(&mut r, &mut i);
            let p = r.pick(&Platform::ALL);
            let full = validate_full(p, &i);
            if accept(p, &i) {
                accepted += 1;
                assert_eq!(full, Ok(()), "{p:?} {i:?}");
            }
            if full.is_err() {
                invalid += 1;
            }
            assert_eq!(validate(p, &i), full);
        }
        assert!(
            accepted > 10_000 && invalid > 10_000,
            "{accepted} accepted, {invalid} invalid"
        );
    }

    /// The Mesa corpus instructions (valid shapes of real programs), each
    /// mutated a few times: an accepted one passes every rule.
    #[cfg(feature = "std")]
    #[test]
    fn accept_agrees_with_every_rule_on_mutated_corpus_instructions() {
        let root = corpus::dir();
        let mut insts = Vec::new();
        for (gen, p) in [
            ("gen7", Platform::Gen7),
            ("gen7.5", Platform::Gen75),
            ("gen8", Platform::Gen8),
        ] {
            let Ok(rd) = std::fs::read_dir(root.join(gen)) else {
                continue;
            };
            for f in rd.flatten().map(|e| e.path()) {
                if !f.extension().is_some_and(|e| e == "expected") {
                    continue;
                }
                for line in std::fs::read_to_string(&f).unwrap().lines() {
                    let bytes: Vec<u8> = line
                        .split_whitespace()
                        .map(|b| u8::from_str_radix(b, 16).unwrap())
                        .collect();
                    if let Ok(w) = <[u8; 16]>::try_from(bytes) {
                        insts.push((p, crate::codec::decode(p, &w).unwrap()));
                    }
                }
            }
        }
        if insts.is_empty() {
            // The corpus is not in the published crate: a note, or a
            // failure under GENEU_REQUIRE_CORPUS.
            assert!(corpus::absent(), "no corpus words under {}", root.display());
        }
        let mut r = Rng(0x9e37_79b9_7f4a_7c15);
        let mut accepted = 0;
        for (p, i) in &insts {
            assert!(validate_full(*p, i).is_ok(), "{p:?} {i:?}");
            for _ in 0..12 {
                let mut m = *i;
                mutate(&mut r, &mut m);
                let p = if r.below(4) == 0 { r.pick(&Platform::ALL) } else { *p };
                if accept(p, &m) {
                    accepted += 1;
                    assert_eq!(validate_full(p, &m), Ok(()), "{p:?} {m:?}");
                }
            }
        }
        // Without the corpus (a checkout without it) nothing is checked.
        assert!(insts.is_empty() || accepted > insts.len(), "{accepted} accepted");
    }

    /// The same on arbitrary instructions.
    #[cfg(feature = "arbitrary")]
    #[test]
    fn accept_agrees_with_every_rule_on_arbitrary_instructions() {
        use proptest::prelude::*;
        proptest!(ProptestConfig::with_cases(2000), |(data in proptest::collection::vec(any::<u8>(), 0..64))| {
            let mut u = arbitrary::Unstructured::new(&data);
            if let (Ok(p), Ok(i)) = (u.arbitrary::<Platform>(), u.arbitrary::<Instruction>()) {
                if accept(p, &i) {
                    prop_assert_eq!(validate_full(p, &i), Ok(()), "{:?} {:?}", p, i);
                }
            }
        });
    }
}
