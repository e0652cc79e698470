//! SEND and SENDC: payload, EOT, message descriptor and URB messages.

use alloc::format;

use crate::isa::dataport::{self, Response, SurfaceSimd, TypedSlotGroup, UrbOpcode};
use crate::isa::{arf, Sfid, GRF_COUNT, GRF_LAST, RLEN_MAX};

use crate::word::fields::{
    desc_common, desc_dp_gen7, desc_dp_gen8, desc_dp_scratch, desc_dp_surface, desc_urb_gen7, desc_urb_gen8,
};

use super::*;

/// Message length (payload registers) of an immediate descriptor (the
/// descriptor table's field).
#[inline(always)]
pub(super) const fn mlen(desc: u32) -> u32 {
    desc_common::mlen(desc) as u32
}

/// Response length (registers written back) of an immediate descriptor.
#[inline(always)]
pub(super) const fn rlen(desc: u32) -> u32 {
    desc_common::rlen(desc) as u32
}

/// A SEND with EOT whose payload starts below g112
/// ([`send_eot_src_g112_g127`]).
#[inline(always)]
pub(crate) const fn eot_payload_below_g112(eot: bool, src0_nr: u32) -> bool {
    eot && src0_nr < crate::isa::EOT_PAYLOAD_FIRST as u32
}

/// Gen8: a response reaching r127 that overlaps the payload
/// ([`send_dst_src_overlap_r127`]).
#[inline(always)]
pub(crate) const fn gen8_response_overlap_r127(p: Platform, dst_nr: u32, src0_nr: u32, d: u32) -> bool {
    p.is_gen8() && dst_nr + rlen(d) > GRF_LAST as u32 && src0_nr + mlen(d) > dst_nr
}

/// A message length of 0 ([`send_mlen_range`]).
#[inline(always)]
pub(crate) const fn mlen_zero(d: u32) -> bool {
    mlen(d) == 0
}

/// A response length above [`RLEN_MAX`], 16 ([`send_rlen_range`]).
#[inline(always)]
pub(crate) const fn rlen_above_16(d: u32) -> bool {
    rlen(d) > RLEN_MAX
}

/// A payload reaching past g127 ([`send_payload_in_grf_range`]).
#[inline(always)]
pub(crate) const fn payload_past_g127(src0_nr: u32, d: u32) -> bool {
    src0_nr + mlen(d) > GRF_COUNT
}

/// A response reaching past g127 ([`send_response_in_grf_range`]).
#[inline(always)]
pub(crate) const fn response_past_g127(dst_nr: u32, d: u32) -> bool {
    dst_nr + rlen(d) > GRF_COUNT
}

/// The immediate descriptor of a SEND/SENDC.
fn desc(c: &Checker<'_>) -> Option<u32> {
    c.i.send_desc()
}

/// The payload register of a SEND with a direct src0.
fn src0_nr(c: &Checker<'_>) -> Option<u32> {
    match c.i.src[0].addr {
        Addr::Direct { nr, .. } => Some(nr as u32),
        Addr::Indirect { .. } => None,
    }
}

/// A SEND payload is directly addressed.
pub fn send_src0_direct(c: &mut Checker<'_>) {
    let bad = c.is_send() && is_indirect(&c.i.src[0].addr);
    c.check(
        bad,
        OperandId::Src(0),
        "send must use direct addressing for its payload",
    );
}

/// A SEND payload is in the GRF (no MRF on Gen7+, no ARF, no immediate).
pub fn send_src0_grf(c: &mut Checker<'_>) {
    let bad = c.is_send() && c.i.src[0].file != RegFile::Grf;
    c.check(bad, OperandId::Src(0), "send payload must be in the GRF");
}

/// A SEND with EOT takes its payload from g112-g127.
pub fn send_eot_src_g112_g127(c: &mut Checker<'_>) {
    let bad = c.is_send() && src0_nr(c).is_some_and(|n| eot_payload_below_g112(c.i.eot(), n));
    c.check(
        bad,
        OperandId::Src(0),
        "send with EOT must use g112-g127 for its payload",
    );
}

/// Gen8: when payload and response overlap, the response must not reach
/// r127.
pub fn send_dst_src_overlap_r127(c: &mut Checker<'_>) {
    if !c.is_send() || !c.p.is_gen8() || c.dst_null() {
        return;
    }
    let (Some(d), Some(s), Some(Addr::Direct { nr: dn, .. })) = (desc(c), src0_nr(c), Some(c.i.dst.addr)) else {
        return;
    };
    let bad = gen8_response_overlap_r127(c.p, dn as u32, s, d);
    c.check(
        bad,
        OperandId::Dst,
        "r127 must not be a return register when payload and response overlap",
    );
}

/// The message length of an immediate descriptor is 1-15.
pub fn send_mlen_range(c: &mut Checker<'_>) {
    if let Some(d) = desc(c).filter(|_| c.is_send()) {
        c.check(mlen_zero(d), OperandId::Src(1), "message length 0 is erroneous (1-15)");
    }
}

/// The response length of an immediate descriptor is 0-16.
pub fn send_rlen_range(c: &mut Checker<'_>) {
    if let Some(d) = desc(c).filter(|_| c.is_send()) {
        if rlen_above_16(d) {
            let m = format!("response length {} exceeds {RLEN_MAX} registers", rlen(d));
            c.report(OperandId::Src(1), m);
        }
    }
}

/// The payload registers lie within g0-g127.
pub fn send_payload_in_grf_range(c: &mut Checker<'_>) {
    if let (Some(d), Some(s)) = (desc(c).filter(|_| c.is_send()), src0_nr(c)) {
        if payload_past_g127(s, d) {
            let m = format!("payload g{s} + {} registers reaches past g127", mlen(d));
            c.report(OperandId::Src(0), m);
        }
    }
}

/// The response registers lie within g0-g127.
pub fn send_response_in_grf_range(c: &mut Checker<'_>) {
    if !c.is_send() || c.dst_null() || c.i.dst.file != RegFile::Grf {
        return;
    }
    if let (Some(d), Addr::Direct { nr, .. }) = (desc(c), c.i.dst.addr) {
        if response_past_g127(nr as u32, d) {
            let m = format!("response g{nr} + {} registers reaches past g127", rlen(d));
            c.report(OperandId::Dst, m);
        }
    }
}

/// The immediate descriptor of a URB message.
fn urb_desc(c: &Checker<'_>) -> Option<u32> {
    if c.is_send() && c.i.sfid() == Some(crate::isa::Sfid::Urb) {
        desc(c)
    } else {
        None
    }
}

/// URB messages carry a header.
pub fn send_urb_header_present(c: &mut Checker<'_>) {
    if let Some(d) = urb_desc(c) {
        c.check(
            !urb_header_present(d),
            OperandId::Src(1),
            "URB messages must have a header",
        );
    }
}

/// Why the URB opcode of descriptor `d` is refused on `p`, if it is:
/// ATOMIC_ADD comes with Gen7.5, the SIMD8 read and write with Gen8, and
/// a SIMD8 read must return data. The rule [`send_urb_opcode_valid`]
/// reports it; the fast accept proves it absent.
#[inline(always)]
pub(crate) fn urb_opcode_problem(p: Platform, d: u32) -> Option<&'static str> {
    let gen8 = p.is_gen8();
    let op = if gen8 {
        desc_urb_gen8::urb_opcode(d)
    } else {
        desc_urb_gen7::urb_opcode(d)
    };
    match UrbOpcode::from_hw(op) {
        None => Some("invalid URB message opcode"),
        Some(o) if !o.exists_on(p) && o.is_simd8() => Some("URB SIMD8 messages need Gen8"),
        Some(o) if !o.exists_on(p) => Some("URB atomic add needs Gen7.5"),
        Some(UrbOpcode::Simd8Read) if rlen(d) == 0 => Some("a URB SIMD8 read must read some data"),
        Some(_) => None,
    }
}

/// Whether descriptor `d` of a URB message has its header bit set.
#[inline(always)]
pub(crate) const fn urb_header_present(d: u32) -> bool {
    desc_common::header_present(d) != 0
}

/// The URB opcode exists on the platform: ATOMIC_ADD from Gen7.5, SIMD8
/// read and write on Gen8 (a SIMD8 read returns data).
pub fn send_urb_opcode_valid(c: &mut Checker<'_>) {
    let Some(d) = urb_desc(c) else { return };
    if let Some(why) = urb_opcode_problem(c.p, d) {
        c.report(OperandId::Src(1), why);
    }
}

/// The data port message type of descriptor `d`: bits 17:14 on Gen7 and
/// Gen7.5, 18:14 on Gen8 (`msg` reads it here too).
#[inline(always)]
pub(crate) const fn dp_msg_type(p: Platform, d: u32) -> u8 {
    if p.is_gen8() {
        desc_dp_gen8::msg_type(d)
    } else {
        desc_dp_gen7::msg_type(d)
    }
}

/// The data port message a descriptor `d` to `sf` names, for the ports
/// whose message types [`dataport`] lists: `Ok(None)` for a data cache
/// scratch message (bit 18), `Err(type)` for a type the port does not
/// define on `p`, and `Ok(None)` for the other shared functions.
#[inline(always)]
pub(crate) fn dp_message(p: Platform, sf: Sfid, d: u32) -> Result<Option<&'static dataport::MessageType>, u8> {
    if !dataport::has_message_types(sf) {
        return Ok(None);
    }
    if sf == Sfid::DataCache && desc_dp_scratch::scratch_category(d) != 0 {
        return Ok(None);
    }
    let t = dp_msg_type(p, d);
    dataport::message_type(p, sf, t).map(Some).ok_or(t)
}

/// The response length a data port message with descriptor `d` must
/// have, when its descriptor determines it (surface reads: enabled
/// channels times registers per channel); `a16`: the instruction is in
/// align16 (SIMD4x2 for an Ivy Bridge typed read).
#[inline(always)]
pub(crate) fn dp_expected_rlen(m: &dataport::MessageType, d: u32, a16: bool) -> Option<u32> {
    let ch = dataport::enabled_channels(desc_dp_surface::channel_disable(d));
    let mode = desc_dp_surface::surface_mode(d);
    match m.response {
        Response::UntypedRead => SurfaceSimd::from_hw(mode).map(|s| dataport::surface_read_regs(ch, s)),
        Response::TypedRead => TypedSlotGroup::from_hw(mode).map(|g| dataport::typed_read_regs(ch, g)),
        Response::TypedReadGen7 => Some(if a16 { 1 } else { ch }),
        _ => None,
    }
}

/// Whether a SEND to `sf` (a shared function of `p`, see [`defined_sfid`])
/// with descriptor `d` passes [`send_msg_type_defined`] and
/// [`send_surface_read_rlen`] (the fast accept's proof).
#[inline(always)]
pub(crate) fn dp_message_ok(p: Platform, sf: Sfid, d: u32, a16: bool) -> bool {
    match dp_message(p, sf, d) {
        Err(_) => false,
        Ok(None) => true,
        Ok(Some(m)) => dp_expected_rlen(m, d, a16).map_or(true, |w| w == rlen(d)),
    }
}

/// A port's name in messages.
fn port_name(s: Sfid) -> &'static str {
    match s {
        Sfid::RenderCache => "render cache",
        Sfid::DataCache => "data cache",
        Sfid::DataCache1 => "data cache 1",
        _ => "shared function",
    }
}

/// A data port message (render cache, data cache, data cache 1) has a
/// message type its shared function defines on the platform: a message
/// type of another port, such as a data cache 1 typed surface read sent
/// to the Haswell render cache, is refused.
pub fn send_msg_type_defined(c: &mut Checker<'_>) {
    let (sfid, Some(d)) = (c.i.cond_modifier, desc(c).filter(|_| c.is_send())) else {
        return;
    };
    let Some(sf) = defined_sfid(c.p, sfid) else {
        return; // send_sfid_defined
    };
    let Err(t) = dp_message(c.p, sf, d) else { return };
    let p = c.p;
    let others: alloc::vec::Vec<&str> = [Sfid::RenderCache, Sfid::DataCache, Sfid::DataCache1]
        .into_iter()
        .filter(|o| *o != sf && dataport::defined(p, *o, t))
        .map(port_name)
        .collect();
    let hint = if others.is_empty() {
        alloc::string::String::new()
    } else {
        format!(" (a {} message type)", others.join(" and "))
    };
    let m = format!("message type {t:#x} is not a {} message on {p}{hint}", port_name(sf));
    c.report(OperandId::Src(1), m);
}

/// A surface read's response length is what its descriptor returns: one
/// register per enabled channel for eight slots, two for SIMD16, one in
/// all for SIMD4x2 (a SIMD16 RGBA read writes 8 registers).
pub fn send_surface_read_rlen(c: &mut Checker<'_>) {
    let (sfid, Some(d)) = (c.i.cond_modifier, desc(c).filter(|_| c.is_send())) else {
        return;
    };
    let Some(sf) = defined_sfid(c.p, sfid) else {
        return; // send_sfid_defined
    };
    let Ok(Some(m)) = dp_message(c.p, sf, d) else { return };
    if let Some(want) = dp_expected_rlen(m, d, c.align16()) {
        if rlen(d) != want {
            let ch = dataport::enabled_channels(desc_dp_surface::channel_disable(d));
            let msg = format!(
                "this surface read of {ch} channel(s) returns {want} register(s), not the response length {}",
                rlen(d)
            );
            c.report(OperandId::Src(1), msg);
        }
    }
}

/// Whether the shared function with 4-bit ID `sfid` exists on `p`: 1
/// (extended math, Gen4-5), 14 and 15 are reserved everywhere; data
/// cache 1 (12) and the check and refinement engine (13) come with
/// Haswell.
#[inline(always)]
pub(crate) fn sfid_defined(p: Platform, sfid: u8) -> bool {
    defined_sfid(p, sfid).is_some()
}

/// The shared function `sfid` names, if it exists on `p` (see
/// [`sfid_defined`]).
#[inline(always)]
pub(crate) fn defined_sfid(p: Platform, sfid: u8) -> Option<Sfid> {
    let sf = Sfid::from_hw(sfid)?;
    let exists = match sf {
        Sfid::Math => false,
        Sfid::DataCache1 | Sfid::Cre => p.is_gen75_or_later(),
        _ => true,
    };
    exists.then_some(sf)
}

use crate::model::SFID_MAX;

/// A SEND names a shared function that exists on the platform (the
/// disassembler prints `*** invalid SFID value` for the others).
pub fn send_sfid_defined(c: &mut Checker<'_>) {
    let sfid = c.i.cond_modifier;
    if c.is_send() && sfid <= SFID_MAX && !sfid_defined(c.p, sfid) {
        let m = format!("SFID {sfid} is reserved on {}", c.p);
        c.report(OperandId::Inst, m);
    }
}

/// The bits of an immediate descriptor (bits 30:0, without EOT) that no
/// common field holds: bits 30:29 (`tables/desc_common.tbl`).
const DESC_OUTSIDE_COMMON: u32 = crate::model::SEND_DESC_MASK
    & !((desc_common::MLEN.mask()
        | desc_common::RLEN.mask()
        | desc_common::HEADER_PRESENT.mask()
        | desc_common::FUNCTION_CONTROL.mask()) as u32);
const _: () = assert!(DESC_OUTSIDE_COMMON == 0b11 << 29);

/// Whether `p` reads descriptor bits 30:29 as zero: Ivy Bridge, Haswell
/// and Broadwell ([`send_desc_bits_30_29_zero`]). Not Cherryview: Mesa's
/// `elk_sampler_desc` quotes the Cherryview documents giving the sampling
/// engine bit 29 (the top bit of its SIMD mode), so there the bits can
/// belong to a shared function's descriptor; the comparison with Intel's
/// decoder that found the gap names Ivy Bridge, Haswell and Broadwell only.
#[inline(always)]
pub(crate) const fn desc_bits_30_29_unread(p: Platform) -> bool {
    !matches!(p, Platform::Chv)
}

/// An immediate descriptor with bits 30:29 set on a platform that reads
/// them as zero ([`send_desc_bits_30_29_zero`]).
#[inline(always)]
pub(crate) const fn desc_bits_30_29_set(p: Platform, d: u32) -> bool {
    desc_bits_30_29_unread(p) && d & DESC_OUTSIDE_COMMON != 0
}

/// Bits 30:29 of an immediate descriptor (instruction bits 126:125) are
/// zero on Ivy Bridge, Haswell and Broadwell: they belong to no field of
/// the descriptor there. Intel's decoder (GED's Gen7, Gen7.5 and Gen8
/// models) reads them as zero, and Mesa writes and reads the descriptor
/// as bits 28:0 (`elk_inst_set_send_desc` asserts the bits above are
/// clear), so a word that sets them means something else to the tools
/// than its bits say. Mesa's `elk_sampler_desc` places the sampler's
/// return format at bit 30 from Gen8 on, which that assertion keeps from
/// ever being emitted on Broadwell; the rule is conservative.
pub fn send_desc_bits_30_29_zero(c: &mut Checker<'_>) {
    let Some(d) = desc(c) else { return };
    if desc_bits_30_29_set(c.p, d) {
        let m = format!(
            "message descriptor bits 30:29 hold {:#x}; {} reads them as zero (they belong to no descriptor field)",
            (d & DESC_OUTSIDE_COMMON) >> DESC_OUTSIDE_COMMON.trailing_zeros(),
            c.p
        );
        c.report(OperandId::Src(1), m);
    }
}

/// Whether a SEND's src1 is a descriptor the hardware reads: an immediate
/// or a directly addressed address register.
#[inline(always)]
pub(crate) fn desc_operand_ok(s: &Src) -> bool {
    s.is_imm()
        || (s.file == RegFile::Arf && matches!(s.addr, Addr::Direct { nr, .. } if arf::class(nr) == arf::ADDRESS))
}

/// The message descriptor (src1) is an immediate or an address register
/// (`a0.0`).
pub fn send_desc_imm_or_a0(c: &mut Checker<'_>) {
    let bad = c.is_send() && !desc_operand_ok(&c.i.src[1]);
    c.check(
        bad,
        OperandId::Src(1),
        "the message descriptor is an immediate or an address register",
    );
}
