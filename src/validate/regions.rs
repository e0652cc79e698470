//! Register regions: the general regioning restrictions (the review's
//! `validate_reg` items and the vISA region rules), align16 regions, and
//! the region alignment rules for direct addressing (spans of at most two
//! registers and the even splits between registers and OWords).

use alloc::format;

use super::*;
use crate::isa::{region, GRF_BYTES, OWORD_BYTES};

/// [`GRF_BYTES`] and [`TWO_GRF_BYTES`] for the 64-bit offsets below.
const GRF_BYTES64: u64 = GRF_BYTES as u64;
const TWO_GRF_BYTES64: u64 = TWO_GRF_BYTES as u64;

/// The align1 register sources the region rules inspect: every source the
/// instruction reads except immediates (ARF sources included).
#[inline]
fn a1_srcs<'a>(c: &Checker<'a>) -> A1Srcs<'a> {
    c.a1_srcs()
}

/// A register destination the destination rules inspect.
fn real_dst(c: &Checker<'_>) -> bool {
    !c.three_src() && c.has_dst() && !c.dst_null()
}

/// Align16 destinations have horizontal stride 1.
pub fn align16_dst_hstride_one(c: &mut Checker<'_>) {
    let bad = c.align16() && real_dst(c) && c.i.dst.hstride != region::HSTRIDE_1;
    c.check(
        bad,
        OperandId::Dst,
        "in align16 the destination horizontal stride must be 1",
    );
}

/// Whether an align16 source's vertical stride encoding is allowed: 0 or
/// 4 elements, also 2 from Gen7.5 (`hsw`) ([`align16_src_vstride`]).
#[inline(always)]
pub(crate) const fn align16_vstride_ok(hsw: bool, vstride: u8) -> bool {
    matches!(vstride, region::VSTRIDE_0 | region::VSTRIDE_4) || (hsw && vstride == region::VSTRIDE_2)
}

/// Align16 sources have vertical stride 0 or 4, or also 2 from Gen7.5.
pub fn align16_src_vstride(c: &mut Checker<'_>) {
    if !c.align16() || c.three_src() {
        return;
    }
    let hsw = c.p.is_gen75_or_later();
    for (k, s) in c.srcs().filter(|(_, s)| !s.is_imm()) {
        let ok = align16_vstride_ok(hsw, s.region.vstride);
        if !ok {
            let m = if hsw {
                "in align16 only vertical strides 0, 2 and 4 are allowed"
            } else {
                "in align16 only vertical strides 0 and 4 are allowed"
            };
            c.report(OperandId::Src(k), m);
        }
    }
}

/// ExecSize must be greater than or equal to Width.
pub fn exec_size_ge_width(c: &mut Checker<'_>) {
    let es = c.exec();
    for (k, _) in a1_srcs(c) {
        let r = c.src_rgn(k);
        if r.width_exceeds(es) {
            let m = format!("width {} is greater than the execution size {es}", r.w);
            c.report(OperandId::Src(k), m);
        }
    }
}

/// If ExecSize == Width and HorzStride != 0, VertStride must be
/// Width * HorzStride (VxH regions excepted).
pub fn width_eq_exec_implies_vstride(c: &mut Checker<'_>) {
    let es = c.exec();
    for (k, s) in a1_srcs(c) {
        let r = c.src_rgn(k);
        if !s.region.is_vxh() && r.full_width_vstride_wrong(es) {
            let m = format!(
                "execution size equals width with horizontal stride {}, so vertical stride must be {} (is {})",
                r.h,
                r.w * r.h,
                r.v
            );
            c.report(OperandId::Src(k), m);
        }
    }
}

/// If Width == 1, HorzStride must be 0 whatever ExecSize and VertStride are.
pub fn width_one_implies_hstride_zero(c: &mut Checker<'_>) {
    for (k, _) in a1_srcs(c) {
        let r = c.src_rgn(k);
        c.check(
            r.width_one_strided(),
            OperandId::Src(k),
            "width 1 requires horizontal stride 0",
        );
    }
}

/// If ExecSize == Width == 1, the region must be the scalar `<0;1,0>`
/// (VxH regions have no vertical stride: [`scalar_region_vxh`]).
pub fn scalar_region(c: &mut Checker<'_>) {
    let exec = c.exec();
    if exec != 1 {
        return;
    }
    for (k, s) in a1_srcs(c) {
        let r = c.src_rgn(k);
        c.check(
            !s.region.is_vxh() && r.exec1_not_scalar(exec),
            OperandId::Src(k),
            "execution size 1 with width 1 requires the region <0;1,0>",
        );
    }
}

/// Conservative: a VxH region at execution size 1 (`g[a0.2]<VxH,1,0>`).
/// The documented rule speaks of the vertical stride of a direct region;
/// VxH has none (each row takes its own address register). Mesa's
/// validator decodes encoding 15 as a stride and refuses the region, so
/// geneu refuses it too until a document says otherwise.
pub fn scalar_region_vxh(c: &mut Checker<'_>) {
    if c.exec() != 1 {
        return;
    }
    for (k, s) in a1_srcs(c) {
        let r = c.src_rgn(k);
        c.check(
            s.region.is_vxh() && r.w == 1,
            OperandId::Src(k),
            "a VxH region at execution size 1 (Mesa refuses it as a non-scalar region)",
        );
    }
}

/// If VertStride == HorzStride == 0, Width must be 1 whatever ExecSize is.
pub fn zero_strides_imply_width_one(c: &mut Checker<'_>) {
    for (k, _) in a1_srcs(c) {
        let r = c.src_rgn(k);
        c.check(
            r.zero_strides_wide(),
            OperandId::Src(k),
            "zero vertical and horizontal strides require width 1",
        );
    }
}

/// VertStride must be used to cross GRF boundaries: the elements of one
/// row (Width elements) never straddle two registers. Ivy Bridge regions
/// 64-bit types in 32-bit units. A SEND payload is read as whole
/// registers, not through its region: [`send_payload_row_within_grf`].
pub fn row_within_grf(c: &mut Checker<'_>) {
    if !c.is_send() {
        rows_within_grf(c);
    }
}

/// Conservative: a SEND payload region whose row crosses a register
/// (`send(32) g8<1>W g6<16,16,1>F`). The payload is read as whole
/// registers, so the documented region rule does not concern it; Mesa's
/// validator applies it to SEND's src0 all the same.
pub fn send_payload_row_within_grf(c: &mut Checker<'_>) {
    if c.is_send() {
        rows_within_grf(c);
    }
}

/// Reports each align1 source with a row that straddles two registers.
fn rows_within_grf(c: &mut Checker<'_>) {
    let exec = c.exec();
    let p = c.p;
    for (k, s) in a1_srcs(c) {
        let r = c.src_rgn(k);
        let Some(sub) = direct_subnr(&s.addr) else { continue };
        let es = region_elem_size(p, s.ty);
        // Fast accept: with a width within the execution size the
        // checker's last byte bounds every byte a row touches; a region
        // inside one register, or packed rows meeting byte 32 at a row
        // boundary, has no straddling row.
        if r.w <= exec {
            if let Some(last) = c.src_last(k) {
                if rows_stay_in_registers(sub, last, r.v * es, (r.w - 1) * r.h * es + es) {
                    continue;
                }
            }
        }
        if rows_straddle(exec, es, sub, r) {
            c.report(
                OperandId::Src(k),
                "a row of the region crosses a GRF boundary; vertical stride must be used to cross it",
            );
        }
    }
}

/// Whether some row of a region has bytes in both halves of the 64-byte
/// window (offsets wrapping modulo 64).
#[inline]
fn rows_straddle(exec: u32, es: u32, sub: u32, r: Rgn) -> bool {
    let mask = (1u64 << es) - 1;
    if mask == 0 {
        return false;
    }
    let step = r.h.wrapping_mul(es);
    let span = (r.w.wrapping_sub(1)).wrapping_mul(step);
    let rows = div_p2(exec, r.w);
    let (sub64, vstep, rows64) = (u64::from(sub), u64::from(r.v) * u64::from(es), u64::from(rows));
    let tail = u64::from(span) + u64::from(es);
    if rows > 0 && sub64 + (rows64 - 1) * vstep + tail <= TWO_GRF_BYTES64 {
        // No element of any row wraps: row n straddles exactly when its
        // start lies in 32 - tail < start < 32; find the first row
        // starting above 32 - tail.
        let lo = (GRF_BYTES64 + 1).saturating_sub(tail);
        let first = if sub64 >= lo {
            0
        } else if vstep == 0 {
            return false;
        } else {
            div_ceil_p2(lo - sub64, vstep)
        };
        return first < rows64 && sub64 + first * vstep < GRF_BYTES64;
    }
    let mut rowbase = sub;
    for _ in 0..exec.checked_div(r.w).unwrap_or(0) {
        let end = u64::from(rowbase) + u64::from(span) + u64::from(es);
        let straddles = if end <= TWO_GRF_BYTES64 {
            // No element wraps: the row covers bytes rowbase..end with
            // nondecreasing element offsets.
            rowbase < GRF_BYTES && end > GRF_BYTES64
        } else {
            let mut acc = 0u64;
            let mut off = rowbase;
            for _ in 0..r.w {
                acc |= mask << (off % TWO_GRF_BYTES);
                off = off.wrapping_add(step);
            }
            acc & FIRST_GRF_MASK != 0 && acc >> GRF_BYTES != 0
        };
        if straddles {
            return true;
        }
        rowbase = rowbase.wrapping_add(r.v.wrapping_mul(es));
    }
    false
}

/// A destination horizontal stride is never 0 (align1; align16 requires 1).
pub fn dst_hstride_nonzero(c: &mut Checker<'_>) {
    let bad = !c.align16() && real_dst(c) && c.i.dst.hstride == region::HSTRIDE_0;
    c.check(bad, OperandId::Dst, "destination horizontal stride must not be 0");
}

/// A multi-address (VxH) source reads ExecSize / Width address
/// subregisters, which must exist (a0.0-a0.7 on Gen7/7.5, a0.0-a0.15 on Gen8).
pub fn vxh_addresses_in_a0(c: &mut Checker<'_>) {
    let exec = c.exec();
    let n_addr = u32::from(c.p.addr_subregs());
    for (k, s) in a1_srcs(c) {
        let r = c.src_rgn(k);
        if let (region::VSTRIDE_VXH, Addr::Indirect { subnr, .. }) = (s.region.vstride, s.addr) {
            let count = exec.checked_div(r.w).unwrap_or(0).max(1);
            if subnr as u32 + count > n_addr {
                let m = format!("{count} addresses from a0.{subnr} exceed the {n_addr} address subregisters");
                c.report(OperandId::Src(k), m);
            }
        }
    }
}

/// Whether the region alignment rules apply (align1, not SEND or 3-source).
fn alignment_applies(c: &Checker<'_>) -> bool {
    !c.three_src() && !c.align16() && !c.is_send()
}

/// The last byte offset of a direct source region, per the
/// region alignment rules. Ivy Bridge counts DF regions in 4-byte units
/// (its PRM: "each DF operand uses an element size of 4 rather than 8");
/// Mesa's validator uses 8 for the offset and 4 only for the tail, which
/// refuses the documented SIMD8 DF form (`exec 16`, `<8;8,1>`), so the
/// PRM's rule is followed here. `None` if not applicable.
///
/// After the encoding phase a direct align1 source whose width does not
/// exceed the execution size has this last byte exactly as
/// [`src_last_byte`] computes it, so the checker's copy is used.
fn src_span(c: &Checker<'_>, k: u8, s: &Src, r: Rgn) -> Option<u32> {
    direct_subnr(&s.addr)?;
    if r.w > c.exec() {
        return None; // exec_size_ge_width reports it
    }
    c.src_last(k)
}

/// The same for the destination.
fn dst_span(c: &Checker<'_>) -> Option<(u32, u32)> {
    if !real_dst(c) {
        return None;
    }
    let d = &c.i.dst;
    let sub = direct_subnr(&d.addr)?;
    let es = region_elem_size(c.p, d.ty);
    let first_of_last = (c.exec() - 1) * stride(d.hstride) * es + sub;
    Some((first_of_last, first_of_last + es - 1))
}

/// In direct addressing a source touches at most two adjacent GRFs.
pub fn src_spans_at_most_two_grfs(c: &mut Checker<'_>) {
    if !alignment_applies(c) {
        return;
    }
    for (k, s) in a1_srcs(c) {
        let r = c.src_rgn(k);
        if let Some(last) = src_span(c, k, s, r).filter(|last| *last >= TWO_GRF_BYTES) {
            let m = format!("the region reaches byte {last}: a source spans at most 2 adjacent GRFs");
            c.report(OperandId::Src(k), m);
        }
    }
}

/// A destination touches at most two adjacent GRFs.
pub fn dst_spans_at_most_two_grfs(c: &mut Checker<'_>) {
    if !alignment_applies(c) {
        return;
    }
    if let Some((_, last)) = dst_span(c).filter(|(_, last)| *last >= TWO_GRF_BYTES) {
        let m = format!("the region reaches byte {last}: a destination spans at most 2 adjacent GRFs");
        c.report(OperandId::Dst, m);
    }
}

/// What the split rules need to know, computed once per instruction. On
/// Gen8 the source facts are left at zero when the destination spans two
/// registers, and `cross` and `offset_differs` always: no Gen8 rule reads
/// them there.
#[derive(Clone, Copy, Debug, Default)]
pub struct Split {
    /// Registers the destination touches (1 or 2).
    dst_regs: u32,
    /// Registers each source touches (0 for immediates and indirect).
    src_regs: [u32; 2],
    /// Destination channels in the upper OWord of a register, and the others.
    oword_upper: u32,
    oword_lower: u32,
    /// Destination channels in the second register, and in the first.
    reg_upper: u32,
    reg_lower: u32,
    /// Some channel of the source reads a different register (first or
    /// second) than its destination channel writes.
    cross: [bool; 2],
    /// The source's offset in its second register differs from its
    /// offset in the first.
    offset_differs: [bool; 2],
}

/// The channels of a region, as the split rules see them.
#[derive(Clone, Copy, Default)]
struct Reach {
    /// Bit j: channel j touches the second register (byte 32 or above of
    /// the 64-byte window).
    hi: u64,
    /// Channels touching the upper OWord (byte 16 or above).
    oword_hi: u32,
    /// The first channel touching the second register, and the offset of
    /// its mask's lowest bit.
    first_hi: Option<(u32, u32)>,
}

/// Computes [`Reach`] from the channel byte masks of [`access_masks`]
/// (offsets wrapping modulo 64).
fn reach_by_masks(exec: u32, es: u32, subreg: u32, r: Rgn) -> Reach {
    let mut masks = [0u64; MAX_CHANNELS];
    let n = access_masks(exec, es, subreg, r, &mut masks);
    let mut out = Reach::default();
    for (k, &m) in (0u32..).zip(masks.iter().take(n)) {
        if m > FIRST_OWORD_MASK {
            out.oword_hi += 1;
        }
        if m > FIRST_GRF_MASK {
            out.hi |= 1 << k;
            if out.first_hi.is_none() {
                out.first_hi = Some((k, m.trailing_zeros()));
            }
        }
    }
    out
}

/// The first column of a row of `w` elements of `es` bytes, `step` bytes
/// apart from `rowbase` on, whose element touches byte `byte` or above
/// (`w` if none); offsets do not wrap.
#[inline]
fn first_col(rowbase: u32, step: u32, es: u32, w: u32, byte: u32) -> u32 {
    let need = (byte + 1).saturating_sub(es);
    if rowbase >= need {
        0
    } else if step == 0 {
        w
    } else {
        (div_ceil_p2(u64::from(need - rowbase), u64::from(step)) as u32).min(w)
    }
}

/// Computes [`Reach`] row by row. When no element passes byte 64 (the
/// span rules guarantee it here) a channel's mask is the element's bytes
/// unwrapped, so each row's channels past a byte are a suffix of the row;
/// otherwise it falls back to [`reach_by_masks`].
#[inline]
fn reach(exec: u32, es: u32, sub: u32, r: Rgn) -> Reach {
    let rows = div_p2(exec, r.w);
    let step = r.h.saturating_mul(es);
    let vstep = r.v.saturating_mul(es);
    let last = rows
        .saturating_sub(1)
        .saturating_mul(vstep)
        .saturating_add(r.w.saturating_sub(1).saturating_mul(step))
        .saturating_add(sub);
    if rows == 0
        || !(1..=8).contains(&es)
        || last.saturating_add(es) > TWO_GRF_BYTES
        || rows.saturating_mul(r.w) > MAX_CHANNELS as u32
    {
        return reach_by_masks(exec, es, sub, r);
    }
    let first_col = |rowbase: u32, byte: u32| first_col(rowbase, step, es, r.w, byte);
    let mut out = Reach::default();
    let mut rowbase = sub;
    for row in 0..rows {
        let c_ow = first_col(rowbase, OWORD_BYTES);
        out.oword_hi += r.w - c_ow;
        let c_hi = first_col(rowbase, GRF_BYTES);
        if c_hi < r.w {
            let base = row * r.w + c_hi;
            out.hi |= ((1u64 << (r.w - c_hi)) - 1) << base;
            if out.first_hi.is_none() {
                out.first_hi = Some((base, rowbase + c_hi * step));
            }
        }
        rowbase += vstep;
    }
    out
}

/// Computes the split facts, or `None` when the alignment rules do not
/// apply or a span rule already failed.
pub(crate) fn split_facts(c: &Checker<'_>) -> Option<Split> {
    if !alignment_applies(c) {
        return None;
    }
    let (_, dlast) = dst_span(c)?;
    if dlast >= TWO_GRF_BYTES {
        return None;
    }
    let exec = c.exec();
    for (k, src) in a1_srcs(c) {
        if src_span(c, k, src, c.src_rgn(k)).is_some_and(|last| last >= TWO_GRF_BYTES) {
            return None;
        }
    }
    let d = &c.i.dst;
    let sub = direct_subnr(&d.addr)?;
    let st = stride(d.hstride);
    let es = region_elem_size(c.p, d.ty);
    // One row of channels (one channel for ExecSize 1), as [`reach`]
    // computes it: no element passes byte 64 (the span is below 64).
    let (n, step) = if exec == 1 { (1, 0) } else { (exec, st * es) };
    let c_hi = first_col(sub, step, es, n, GRF_BYTES);
    let c_ow = first_col(sub, step, es, n, OWORD_BYTES);
    let dst_hi = if c_hi < n {
        ((1u64 << (n - c_hi)) - 1) << c_hi
    } else {
        0
    };
    let mut s = Split {
        dst_regs: if dst_hi != 0 { 2 } else { 1 },
        oword_upper: n - c_ow,
        oword_lower: c_ow,
        reg_upper: n - c_hi,
        reg_lower: c_hi,
        ..Split::default()
    };
    // Gen8 reads the source facts only with a destination in one register
    // (the Gen7 rules need the channel-by-channel ones).
    let gen7 = !c.p.is_gen8();
    if !gen7 && s.dst_regs != 1 {
        return Some(s);
    }
    // The direct sources 0 and 1: subregister, element size, region, and
    // the last byte touched (below 64: checked above).
    let mut srcs: [Option<(u32, u32, Rgn, u32)>; 2] = [None; 2];
    for (k, src) in a1_srcs(c) {
        let r = c.src_rgn(k);
        let span = src_span(c, k, src, r);
        let Some(sub) = direct_subnr(&src.addr) else { continue };
        if let Some(slot) = srcs.get_mut(k as usize) {
            // No span: the width exceeds the execution size, no channel.
            *slot = span.map(|last| (sub, region_elem_size(c.p, src.ty), r, last));
        }
    }
    let dst_channels = if n >= 64 { u64::MAX } else { (1u64 << n) - 1 };
    for (k, slot) in srcs.iter().enumerate() {
        let Some(regs) = s.src_regs.get_mut(k) else { continue };
        // No element wraps (the last byte is below 64), so a source
        // reaches its second register exactly when its last byte does.
        *regs = match *slot {
            Some((.., last)) if last >= GRF_BYTES => 2,
            Some(_) => 1,
            None => 0,
        };
        if !gen7 {
            continue;
        }
        let src = slot.map_or(Reach::default(), |(sub, es, r, _)| reach(exec, es, sub, r));
        let off0 = c.i.src.get(k).and_then(|s| direct_subnr(&s.addr)).unwrap_or(0);
        let off1 = match src.first_hi {
            Some((j, bit)) if j < n => bit.wrapping_sub(GRF_BYTES),
            _ => off0,
        };
        if let (Some(cross), Some(differs)) = (s.cross.get_mut(k), s.offset_differs.get_mut(k)) {
            *cross = (dst_hi ^ src.hi) & dst_channels != 0;
            *differs = off1 != off0;
        }
    }
    Some(s)
}

/// With a source spanning two registers and the destination within one,
/// the destination lies in one OWord or is split evenly between the two.
pub fn dst_one_reg_src_two_regs_oword_split(c: &mut Checker<'_>) {
    let Some(s) = c.split() else { return };
    let bad = s.dst_regs == 1
        && s.src_regs.contains(&2)
        && s.oword_upper != 0
        && s.oword_lower != 0
        && s.oword_upper != s.oword_lower;
    c.check(
        bad,
        OperandId::Dst,
        "writes must be to one OWord or split evenly between the OWords",
    );
}

/// Whether the destination spans two registers with its channels split
/// unevenly between them.
fn dst_split_unevenly(s: &Split) -> bool {
    s.dst_regs == 2 && s.reg_upper != s.reg_lower
}

/// A destination spanning two registers has its elements split evenly
/// between them: on Gen8 whatever the sources, on Gen7/7.5 when a source
/// spans two registers too (the other Gen7 case:
/// [`gen7_dst_two_regs_evenly_split_one_reg_srcs`]).
pub fn dst_two_regs_evenly_split(c: &mut Checker<'_>) {
    let gen8 = c.p.is_gen8();
    let Some(s) = c.split() else { return };
    let bad = dst_split_unevenly(&s) && (gen8 || s.src_regs.contains(&2));
    c.check(
        bad,
        OperandId::Dst,
        "writes must be split evenly between the two destination registers",
    );
}

/// Conservative: Gen7/7.5, a destination spanning two registers unevenly
/// while no source spans two. The Ivy Bridge and Haswell documents state
/// the even split only with a source spanning two registers; Broadwell's
/// states it whatever the sources, and Mesa assumes the older text
/// forgot the case.
pub fn gen7_dst_two_regs_evenly_split_one_reg_srcs(c: &mut Checker<'_>) {
    if c.p.is_gen8() {
        return;
    }
    let Some(s) = c.split() else { return };
    let bad = dst_split_unevenly(&s) && !s.src_regs.contains(&2);
    c.check(
        bad,
        OperandId::Dst,
        "writes must be split evenly between the two destination registers (Broadwell's rule, assumed for Gen7)",
    );
}

/// Gen7/7.5: with source and destination both spanning two registers,
/// each destination register derives from one source register.
pub fn gen7_dst_reg_from_one_src_reg(c: &mut Checker<'_>) {
    if c.p.is_gen8() {
        return;
    }
    let Some(s) = c.split() else { return };
    if s.dst_regs != 2 {
        return;
    }
    for k in 0..c.nsrc().min(2) {
        let i = k as usize;
        let bad = s.src_regs.get(i) == Some(&2) && s.cross.get(i) == Some(&true);
        c.check(
            bad,
            OperandId::Src(k),
            "each destination register must be entirely derived from one source register",
        );
    }
}

/// Gen7/7.5: in a 2-source instruction with a source and the destination
/// both spanning two registers, the source's offset is the same in both
/// of its registers.
pub fn gen7_two_src_regs_same_offset(c: &mut Checker<'_>) {
    if c.p.is_gen8() || c.nsrc() != 2 {
        return;
    }
    let Some(s) = c.split() else { return };
    if s.dst_regs != 2 {
        return;
    }
    for k in 0..2u8 {
        let i = k as usize;
        let bad = s.src_regs.get(i) == Some(&2) && s.offset_differs.get(i) == Some(&true);
        c.check(
            bad,
            OperandId::Src(k),
            "the offset from the two source registers must be the same",
        );
    }
}

/// How a Gen7/7.5 source within one register meets a destination spanning
/// two: `None` when the rule does not apply (Gen8, the destination in one
/// register, the source spanning two or none), else whether it is one of
/// the documented exceptions: `Some(Exception::None)`, a scalar, or a
/// packed word source widened into a packed dword destination.
fn gen7_one_reg_src(c: &Checker<'_>, s: &Split, k: u8, src: &Src) -> Option<Exception> {
    if c.p.is_gen8() || s.dst_regs != 2 || s.src_regs.get(k as usize) != Some(&1) {
        return None;
    }
    let exec = c.exec();
    let d = &c.i.dst;
    let st = stride(d.hstride);
    let r = c.src_rgn(k);
    // Ivy Bridge regions DF in 32-bit halves: `<0;2,1>` is one
    // replicated DF, the pair form of a scalar.
    let df_pair_scalar = region_elem_size(c.p, src.ty) == 4 && src.ty.size() == 8 && r.v == 0 && r.w == 2 && r.h == 1;
    if src.region.is_scalar() || df_pair_scalar {
        return Some(Exception::Scalar);
    }
    // The document says "packed integer DWord"; the hardware takes any
    // 4-byte destination type (Mesa emits F there).
    let dst_packed_dword = is_packed(exec * st, exec, st) && d.ty.size() == 4;
    let packed_word = is_packed(r.v, r.w, r.h) && matches!(src.ty, Type::W | Type::UW);
    Some(if dst_packed_dword && packed_word {
        Exception::PackedWord
    } else {
        Exception::None
    })
}

/// The exceptions to "when the destination spans two registers the source
/// must too".
#[derive(Clone, Copy, PartialEq, Eq)]
enum Exception {
    None,
    Scalar,
    PackedWord,
}

/// Gen7/7.5: when the destination spans two registers, so does each
/// source, except a scalar source or a packed word source widened into a
/// packed dword destination.
pub fn gen7_dst_two_regs_src_two_regs(c: &mut Checker<'_>) {
    if c.p.is_gen8() {
        return;
    }
    let Some(s) = c.split() else { return };
    for (k, src) in a1_srcs(c) {
        let bad = gen7_one_reg_src(c, &s, k, src) == Some(Exception::None);
        c.check(
            bad,
            OperandId::Src(k),
            "when the destination spans two registers the source must too (except scalar sources and packed word to packed dword)",
        );
    }
}

/// Conservative: Gen7/7.5, the packed-word exception on src1
/// (`mul(16) g14<1>D g13<8,8,1>W g13<8,8,1>W`). The documented exception
/// names no source; Haswell's document adds that with the lower eight
/// channels disabled the src1 subregister is not incremented, and since
/// disabled channels (predication, dispatch mask) cannot be ruled out
/// from the word, Mesa's validator allows the exception on src0 only.
pub fn gen7_packed_word_exception_src0_only(c: &mut Checker<'_>) {
    if c.p.is_gen8() {
        return;
    }
    let Some(s) = c.split() else { return };
    for (k, src) in a1_srcs(c) {
        let bad = k != 0 && gen7_one_reg_src(c, &s, k, src) == Some(Exception::PackedWord);
        c.check(
            bad,
            OperandId::Src(k),
            "the packed-word exception on src1 (Haswell: src1 is not incremented when the lower channels are disabled)",
        );
    }
}

/// The last byte, from the first byte of its register, of a direct
/// align1 register source at byte `sub` whose region meets the
/// ExecSize/Width/VertStride/HorzStride relations and lies within two
/// registers with rows that never straddle byte 32: the whole region
/// within the first register, or rows `pitch` bytes apart (a power of two
/// up to 32) each within its `pitch`-aligned block. `None` otherwise. The
/// element size is the type size (callers rule out Ivy Bridge's 64-bit
/// types, regioned in 32-bit units). The proof that the align1 region
/// rules pass for one source, used by the fast accept.
#[inline(always)]
pub(crate) fn a1_src_last(exec: u32, s: &Src, sub: u32) -> Option<u32> {
    let es = s.ty.size();
    let e = s.region;
    // The common regions first: the scalar `<0;1,0>` (rows of one
    // element, all at `sub`) and packed `<w;w,1>`, 2 <= w <= exec, whose
    // pitch is its row.
    if e == Region::SCALAR {
        let last = sub + es - 1;
        return (last < GRF_BYTES).then_some(last);
    }
    if e.is_packed_rows() {
        if !e.is_packed_within(exec) {
            return None;
        }
        let last = sub + exec * es - 1;
        let row = (1u32 << e.width) * es;
        return rows_stay_in_registers(sub, last, row, row).then_some(last);
    }
    a1_src_last_general(exec, s, sub)
}

/// [`a1_src_last`] for any region.
#[inline(never)]
fn a1_src_last_general(exec: u32, s: &Src, sub: u32) -> Option<u32> {
    let es = s.ty.size();
    let e = s.region;
    if !e.has_element_counts() {
        return None;
    }
    let r = Rgn::of(e);
    if !r.relations_hold(exec) {
        return None;
    }
    let Rgn { v, w, h } = r;
    // Widths and execution sizes are powers of two, w <= exec.
    let rows = exec >> w.trailing_zeros();
    let pitch = v * es;
    let tail = (w - 1) * h * es + es;
    let last = sub + (rows - 1) * pitch + tail - 1;
    rows_stay_in_registers(sub, last, pitch, tail).then_some(last)
}

/// The proof that the region alignment rules (the span and split rules)
/// pass, from the destination (`exec` channels `step` bytes apart from
/// byte `dsub`, its last byte `dlast`) and whether some source spans two
/// registers (`src_two`; every source within two registers and no wider
/// than the execution size): `Some(true)` for a destination within one
/// OWord, within one register with no source spanning two or covering it
/// from byte 0 (channels split evenly between its OWords), or (Gen8) two
/// whole registers with half the channels in each; `None` for that last
/// case on Gen7/7.5, where the sources decide; `Some(false)` when not
/// proven. Used by the fast accept.
#[inline(always)]
pub(crate) fn dst_alignment_proof(
    gen8: bool,
    exec: u32,
    dsub: u32,
    step: u32,
    dlast: u32,
    src_two: bool,
) -> Option<bool> {
    if dlast < OWORD_BYTES {
        return Some(true);
    }
    if dlast < GRF_BYTES {
        // With a source spanning two registers, a whole register from byte
        // 0 (`exec` channels a power of two `step` apart, the element no
        // wider than `step`) has half its channels in each OWord.
        return Some(!src_two || (dsub == 0 && exec * step == GRF_BYTES));
    }
    if dlast >= TWO_GRF_BYTES || dsub != 0 || exec * step != TWO_GRF_BYTES {
        return Some(false);
    }
    gen8.then_some(true)
}
