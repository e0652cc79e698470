//! Typed surface messages: read, write and atomics on a 2D surface, with
//! format conversion (data cache 1 from Haswell on, the render cache on
//! Ivy Bridge).
//!
//! Payload (HSW PRM Vol 7 "Typed Surface Read/Write"; `msg::gather4_typed`
//! builds the same): a header, required on Gen7-Gen8, whose dword 7 bits
//! 15:0 are the pixel/sample mask (ANDed with the execution mask; bits
//! 15:8 for the high slot group); then U, V, R and LOD, one register of
//! eight slots each, as many as the surface needs (the count follows from
//! `mlen`: what is not header, data or sources); then, for writes, one
//! register per enabled channel in RGBA order, or the atomic's sources.
//! A read returns one register per enabled channel. Surfaces here have one
//! layer and one mip level, so a non-zero R or LOD is out of bounds: reads
//! return zeros with alpha one (`out_of_bounds`), writes are dropped.
//! SIMD4x2 (vec4) messages: see [`simd4x2`].

use super::enabled_channels;
use super::{
    atomic, check_rlen, enabled, need_header, pdw, slot_dw, unmodelled, MessageCall, MessageReply, Reply, GRF_DWORDS,
    HEADER_MASK_DW, SIMD4X2_DWORDS, SIMD4X2_SLOTS,
};
use crate::msg::{AtomicOp, Channels, Common, TypedSlotGroup};
use crate::sim::memory::ChannelKind;
use crate::sim::{Memory, SimError, Surface};

/// Slots of a typed message.
const SLOTS: usize = 8;
/// Most address registers: U, V, R, LOD.
const ADDR_REGS_MAX: u32 = 4;

/// Whether a Haswell+ slot group is the high one (SIMD4x2 goes to
/// [`simd4x2`] instead).
pub(super) fn group_base(call: &MessageCall<'_>, g: TypedSlotGroup, ty: u8) -> Result<bool, SimError> {
    match g {
        TypedSlotGroup::Low => Ok(false),
        TypedSlotGroup::High => Ok(true),
        TypedSlotGroup::Simd4x2 => Err(unmodelled(call, ty, "SIMD4x2 typed surface message")),
    }
}

/// The typed surface at `bti`: bound, and 2D.
fn surface<'m>(call: &MessageCall<'_>, mem: &'m Memory, bti: u8) -> Result<&'m Surface, SimError> {
    let s = mem.surface(bti).ok_or(SimError::UnboundSurface {
        offset: call.offset,
        bti,
    })?;
    if s.format().is_none() {
        return Err(SimError::Format {
            offset: call.offset,
            bti,
            format: "buffer",
            what: "typed messages need a 2D surface with a format",
        });
    }
    Ok(s)
}

/// Refuses a typed atomic on a surface whose format is not R32_UINT or
/// R32_SINT.
fn atomic_format(call: &MessageCall<'_>, s: &Surface, bti: u8) -> Result<(), SimError> {
    let f = s.format();
    if !f.is_some_and(|f| {
        f.channels() == 1 && f.channel_bits() == 32 && matches!(f.kind(), ChannelKind::Uint | ChannelKind::Sint)
    }) {
        return Err(SimError::Format {
            offset: call.offset,
            bti,
            format: f.map_or("buffer", |f| f.name()),
            what: "typed atomics need R32_UINT or R32_SINT",
        });
    }
    Ok(())
}

/// The number of address registers: `mlen` less the header and `other`.
fn addr_regs(call: &MessageCall<'_>, c: &Common, other: u32, what: &'static str) -> Result<u32, SimError> {
    let n = u32::from(c.mlen).saturating_sub(1 + other);
    if !(1..=ADDR_REGS_MAX).contains(&n) {
        return Err(SimError::Length {
            offset: call.offset,
            field: "mlen",
            value: u32::from(c.mlen),
            expected: 1 + other + 1,
            what,
        });
    }
    Ok(n)
}

/// Whether slot `s` runs, and its texel coordinates (`None`: out of the
/// single layer and mip level).
fn slot(call: &MessageCall<'_>, high: bool, naddr: u32, s: usize) -> (bool, Option<(i64, i64)>) {
    let base = if high { SLOTS } else { 0 };
    let on = enabled(call, s) && pdw(call, 0, HEADER_MASK_DW) >> (base + s) & 1 != 0;
    let coord = |i: u32| {
        if i < naddr {
            slot_dw(call, 1 + i as usize, s) as i32
        } else {
            0
        }
    };
    let (r, lod) = (coord(2), coord(3));
    (
        on,
        (r == 0 && lod == 0).then(|| (i64::from(coord(0)), i64::from(coord(1)))),
    )
}

/// What a read outside the surface returns: zeros in R, G and B and one
/// in alpha, 1 for an integer format and 1.0 otherwise. The vISA
/// GATHER4_TYPED specification: "On read: ones are returned in the alpha
/// channel, zeros in the other channels"; the one takes the format's kind,
/// as for a channel the format lacks (`SurfaceFormat::decode`).
fn out_of_bounds(s: &Surface) -> [u32; 4] {
    let int = s
        .format()
        .is_some_and(|f| matches!(f.kind(), ChannelKind::Uint | ChannelKind::Sint));
    [0, 0, 0, if int { 1 } else { 1.0f32.to_bits() }]
}

pub(super) fn read(
    call: &MessageCall<'_>,
    mem: &Memory,
    c: &Common,
    bti: u8,
    channels: Channels,
    high: bool,
) -> Result<MessageReply, SimError> {
    need_header(call, c, "typed surface messages need a header")?;
    let naddr = addr_regs(call, c, 0, "a typed surface read (header, U [V R LOD])")?;
    let s = surface(call, mem, bti)?;
    let mut r = Reply::new(channels.count());
    for k in 0..SLOTS {
        let (on, xy) = slot(call, high, naddr, k);
        if !on {
            continue;
        }
        let texel = xy.and_then(|(x, y)| s.texel(x, y)).unwrap_or_else(|| out_of_bounds(s));
        for (i, ch) in enabled_channels(channels).enumerate() {
            r.set_dw(i, k, texel.get(ch).copied().unwrap_or(0));
        }
    }
    r.done()
}

pub(super) fn write(
    call: &MessageCall<'_>,
    mem: &mut Memory,
    c: &Common,
    bti: u8,
    channels: Channels,
    high: bool,
) -> Result<MessageReply, SimError> {
    need_header(call, c, "typed surface messages need a header")?;
    let naddr = addr_regs(
        call,
        c,
        channels.count(),
        "a typed surface write (header, U [V R LOD], data)",
    )?;
    check_rlen(call, c, 0)?;
    surface(call, mem, bti)?;
    for k in 0..SLOTS {
        let (on, xy) = slot(call, high, naddr, k);
        let (true, Some((x, y))) = (on, xy) else { continue };
        let Some(s) = mem.surface_mut(bti) else { continue };
        let Some(mut texel) = s.texel(x, y) else { continue };
        for (i, ch) in enabled_channels(channels).enumerate() {
            if let Some(t) = texel.get_mut(ch) {
                *t = slot_dw(call, 1 + (naddr as usize) + i, k);
            }
        }
        s.set_texel(x, y, texel);
    }
    Reply::new(0).done()
}

pub(super) fn atomic(
    call: &MessageCall<'_>,
    mem: &mut Memory,
    c: &Common,
    bti: u8,
    op: AtomicOp,
    high: bool,
    return_data: bool,
) -> Result<MessageReply, SimError> {
    need_header(call, c, "typed surface messages need a header")?;
    let naddr = addr_regs(call, c, op.num_srcs(), "a typed atomic (header, U [V R LOD], sources)")?;
    check_rlen(call, c, u32::from(return_data))?;
    let s = surface(call, mem, bti)?;
    atomic_format(call, s, bti)?;
    let mut r = Reply::new(u32::from(return_data));
    for k in 0..SLOTS {
        let (on, xy) = slot(call, high, naddr, k);
        let (true, Some((x, y))) = (on, xy) else { continue };
        let Some(s) = mem.surface_mut(bti) else { continue };
        let Some(texel) = s.texel(x, y) else { continue };
        let src = |i: usize| slot_dw(call, 1 + naddr as usize + i, k);
        let (new, ret) = atomic::apply32(op, texel[0], src(0), src(1));
        s.set_texel(x, y, [new, 0, 0, 0]);
        r.set_dw(0, k % GRF_DWORDS, ret);
    }
    r.done()
}

/// What a SIMD4x2 typed message does.
#[derive(Clone, Copy)]
pub(super) enum Simd4x2 {
    /// Read the enabled channels.
    Read,
    /// Write the enabled channels.
    Write,
    /// An atomic operation on channel R, returning the old value (`predec`:
    /// the new one) when asked.
    Atomic(AtomicOp, bool),
}

/// A SIMD4x2 (vec4) typed message: the header, then one register holding
/// slot s's U, V, R and LOD in dwords 4s..4s+3; a write's data register
/// (or an atomic's source registers) hold slot s's channels in place in
/// dwords 4s..4s+3 (an atomic's value in dword 4s); so does the one
/// response register. A slot runs when one of its execution channels
/// 4s..4s+3 is enabled; a write writes a channel when its execution channel
/// is enabled too.
pub(super) fn simd4x2(
    call: &MessageCall<'_>,
    mem: &mut Memory,
    c: &Common,
    bti: u8,
    channels: Channels,
    what: Simd4x2,
) -> Result<MessageReply, SimError> {
    need_header(call, c, "typed surface messages need a header")?;
    let (data, rlen, name) = match what {
        Simd4x2::Read => (0, 1, "a SIMD4x2 typed surface read (header, address)"),
        Simd4x2::Write => (1, 0, "a SIMD4x2 typed surface write (header, address, data)"),
        Simd4x2::Atomic(op, ret) => (
            op.num_srcs(),
            u32::from(ret),
            "a SIMD4x2 typed atomic (header, address, sources)",
        ),
    };
    super::check_mlen(call, c, 2 + data, name)?;
    check_rlen(call, c, rlen)?;
    let s = surface(call, mem, bti)?;
    if let Simd4x2::Atomic(..) = what {
        atomic_format(call, s, bti)?;
    }
    let mut r = Reply::new(rlen);
    for slot in 0..SIMD4X2_SLOTS {
        let first = slot * SIMD4X2_DWORDS;
        if call.channel_mask >> first & 0xf == 0 {
            continue;
        }
        let coord = |i: usize| pdw(call, 1, first + i) as i32;
        if coord(2) != 0 || coord(3) != 0 {
            continue;
        }
        let (x, y) = (i64::from(coord(0)), i64::from(coord(1)));
        let Some(s) = mem.surface_mut(bti) else { continue };
        let Some(mut texel) = s.texel(x, y) else { continue };
        match what {
            Simd4x2::Read => {
                for ch in enabled_channels(channels) {
                    r.set_dw(0, first + ch, texel.get(ch).copied().unwrap_or(0));
                }
            }
            Simd4x2::Write => {
                for ch in enabled_channels(channels).filter(|&ch| enabled(call, first + ch)) {
                    if let Some(t) = texel.get_mut(ch) {
                        *t = pdw(call, 2, first + ch);
                    }
                }
                s.set_texel(x, y, texel);
            }
            Simd4x2::Atomic(op, _) => {
                let (new, ret) = atomic::apply32(op, texel[0], pdw(call, 2, first), pdw(call, 3, first));
                s.set_texel(x, y, [new, 0, 0, 0]);
                r.set_dw(0, first, ret);
            }
        }
    }
    r.done()
}
