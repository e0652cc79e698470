//! SEND and SENDC: payload, EOT, message descriptor and URB messages.

use alloc::format;

use crate::isa::{arf, Sfid};

use super::*;

/// Message length (payload registers) of an immediate descriptor.
#[inline(always)]
pub(super) fn mlen(desc: u32) -> u32 {
    (desc >> 25) & 0xf
}

/// Response length (registers written back) of an immediate descriptor.
#[inline(always)]
pub(super) fn rlen(desc: u32) -> u32 {
    (desc >> 20) & 0x1f
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
    let bad = c.is_send() && c.i.eot() && src0_nr(c).is_some_and(|n| n < 112);
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
    let dn = dn as u32;
    let bad = dn + rlen(d) > 127 && s + mlen(d) > dn;
    c.check(
        bad,
        OperandId::Dst,
        "r127 must not be a return register when payload and response overlap",
    );
}

/// The message length of an immediate descriptor is 1-15.
pub fn send_mlen_range(c: &mut Checker<'_>) {
    if let Some(d) = desc(c).filter(|_| c.is_send()) {
        c.check(mlen(d) == 0, OperandId::Src(1), "message length 0 is erroneous (1-15)");
    }
}

/// The response length of an immediate descriptor is 0-16.
pub fn send_rlen_range(c: &mut Checker<'_>) {
    if let Some(d) = desc(c).filter(|_| c.is_send()) {
        if rlen(d) > 16 {
            let m = format!("response length {} exceeds 16 registers", rlen(d));
            c.report(OperandId::Src(1), m);
        }
    }
}

/// The payload registers lie within g0-g127.
pub fn send_payload_in_grf_range(c: &mut Checker<'_>) {
    if let (Some(d), Some(s)) = (desc(c).filter(|_| c.is_send()), src0_nr(c)) {
        if s + mlen(d) > 128 {
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
        if nr as u32 + rlen(d) > 128 {
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
        c.check(d >> 19 & 1 == 0, OperandId::Src(1), "URB messages must have a header");
    }
}

/// The URB opcode exists on the platform: ATOMIC_ADD from Gen7.5, SIMD8
/// read and write on Gen8 (a SIMD8 read returns data).
pub fn send_urb_opcode_valid(c: &mut Checker<'_>) {
    let Some(d) = urb_desc(c) else { return };
    let gen8 = c.p.is_gen8();
    let op = if gen8 { d & 0xf } else { d & 0x7 };
    let why = match op {
        0..=5 => None,
        6 if !c.p.is_gen75_or_later() => Some("URB atomic add needs Gen7.5"),
        6 => None,
        7 | 8 if !gen8 => Some("URB SIMD8 messages need Gen8"),
        7 => None,
        8 if rlen(d) == 0 => Some("a URB SIMD8 read must read some data"),
        8 => None,
        _ => Some("invalid URB message opcode"),
    };
    if let Some(why) = why {
        c.report(OperandId::Src(1), why);
    }
}

/// Whether the shared function with 4-bit ID `sfid` exists on `p`: 1
/// (extended math, Gen4-5), 14 and 15 are reserved everywhere; data
/// cache 1 (12) and the check and refinement engine (13) come with
/// Haswell.
#[inline(always)]
pub(crate) fn sfid_defined(p: Platform, sfid: u8) -> bool {
    match Sfid::from_hw(sfid) {
        None | Some(Sfid::Math) => false,
        Some(Sfid::DataCache1 | Sfid::Cre) => p.is_gen75_or_later(),
        Some(_) => true,
    }
}

/// A SEND names a shared function that exists on the platform (the
/// disassembler prints `*** invalid SFID value` for the others).
pub fn send_sfid_defined(c: &mut Checker<'_>) {
    let sfid = c.i.cond_modifier;
    if c.is_send() && sfid <= 15 && !sfid_defined(c.p, sfid) {
        let m = format!("SFID {sfid} is reserved on {}", c.p);
        c.report(OperandId::Inst, m);
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
