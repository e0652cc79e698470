//! The fixed-function messages: the render cache (render target writes,
//! and on Ivy Bridge the typed messages and fence), the URB, the message
//! gateway and the thread spawner.
//!
//! - **Render target write** (PRM Vol 7 "Render Target Write"; Mesa's
//!   `lower_fb_write_logical_send`): an optional two-register header (a
//!   copy of the thread's r0 and r1; r1 dwords 2-5 give the upper-left X
//!   (bits 15:0) and Y (31:16) of subspans 0-3, a subspan being 2x2 pixels
//!   whose slots go left to right, top to bottom), then R, G, B and A, one
//!   register per eight slots each (SIMD8: 4 registers, SIMD16: 8; the
//!   replicated-data form: one register whose dwords 0-3 are the colour of
//!   every slot). Every enabled pixel is captured ([`Memory::rt_writes`]);
//!   when its position is known (from the header, or without one from the
//!   subspans the caller recorded for the thread's dispatch,
//!   [`Memory::set_subspans`]) it is also written to the 2D surface bound
//!   at the binding table index, converted to its format. Source 0 alpha, oMask,
//!   depth and stencil (longer payloads), dual source and the high slot
//!   group are not modelled.
//! - **URB write**: Gen8 SIMD8 writes (header dwords 0-7: each slot's URB
//!   handle; an optional register of per-slot offsets in OWords; an
//!   optional register of per-slot channel masks, dword bits 23:16; then one
//!   register per dword written, eight slots each); HWord and OWord writes
//!   (IVB PRM Vol 4 Part 2 2.4.3.1, as Mesa's vec4 generator quotes it:
//!   header dword 0 the handle and dword 3 the per-slot offset of vertex 0,
//!   dwords 4 and 7 those of vertex 1 when interleaved; dword 5 bits 15:8
//!   mask the eight dwords of each data register, ANDed with the channel
//!   enables; interleaved, each register holds one OWord of each vertex).
//!   The offsets count HWords (32 bytes) for HWord writes, OWords (16
//!   bytes) otherwise and for interleaved writes. Captured as dwords
//!   ([`Memory::urb_writes`]) and kept in the entries
//!   ([`Memory::urb_entry`]).
//! - **URB read**: the same header layouts; the Gen8 SIMD8 read returns
//!   `rlen` registers, register i holding dword i of each slot's read; the
//!   HWord/OWord reads return `rlen` registers of consecutive dwords of
//!   vertex 0's entry. Interleaved reads and the atomics are not modelled.
//! - **Gateway barrier**: one payload register, no response; the reply
//!   says the thread waits at its group's barrier.
//! - **Thread spawner end of thread**: a dereference message with EOT.

use super::dataport::{media_block_read, media_block_write};
use super::typed;
use super::{
    check_mlen, check_rlen, enabled, need_header, pdw, slot_dw, unmodelled, MessageCall, MessageReply, Reply,
    GRF_DWORDS,
};
use crate::msg::{Gateway, GatewayOp, Render, RenderOp, RtWriteSubtype, ThreadSpawner, TsOpcode, Urb, UrbOpcode};
use crate::sim::memory::{RtWrite, UrbWrite};
use crate::sim::{Memory, SimError};

pub(super) fn render(call: &MessageCall<'_>, mem: &mut Memory, m: &Render) -> Result<MessageReply, SimError> {
    let c = &m.common;
    let ty = m.op.msg_type();
    match m.op {
        RenderOp::RtWrite {
            subtype,
            slot_group_high,
            ..
        } => {
            if slot_group_high {
                return Err(unmodelled(call, ty, "render target write of the high slot group"));
            }
            rt_write(call, mem, m, subtype)
        }
        RenderOp::MediaBlockRead { .. } => media_block_read(call, mem, c, m.bti),
        RenderOp::MediaBlockWrite { .. } => media_block_write(call, mem, c, m.bti),
        RenderOp::TypedSurfaceRead {
            channels,
            high_slot_group,
        } => typed::read(call, mem, c, m.bti, channels, high_slot_group),
        RenderOp::TypedSurfaceWrite {
            channels,
            high_slot_group,
        } => typed::write(call, mem, c, m.bti, channels, high_slot_group),
        RenderOp::TypedAtomic {
            op,
            high_slot_group,
            return_data,
        } => typed::atomic(call, mem, c, m.bti, op, high_slot_group, return_data),
        RenderOp::MemoryFence { commit } => {
            check_mlen(call, c, 1, "a memory fence (one register)")?;
            Reply::new(u32::from(commit)).done()
        }
        _ => Err(unmodelled(call, ty, "render cache message")),
    }
}

/// Registers of the render target write header.
const RT_HEADER_REGS: u32 = 2;
/// First dword of the subspan positions in the header's second register.
const RT_SUBSPAN_DW: usize = 2;

fn rt_write(
    call: &MessageCall<'_>,
    mem: &mut Memory,
    m: &Render,
    subtype: RtWriteSubtype,
) -> Result<MessageReply, SimError> {
    let c = &m.common;
    let ty = m.op.msg_type();
    let (slots, rpc, replicated) = match subtype {
        RtWriteSubtype::Simd8 => (8usize, 1u32, false),
        RtWriteSubtype::Simd16 => (16, 2, false),
        RtWriteSubtype::Simd16RepData => (16, 0, true),
        _ => return Err(unmodelled(call, ty, "dual-source render target write")),
    };
    let h = if c.header { RT_HEADER_REGS } else { 0 };
    let data = if replicated { 1 } else { 4 * rpc };
    if u32::from(c.mlen) > h + data {
        return Err(unmodelled(
            call,
            ty,
            "render target write with source 0 alpha, oMask, depth or stencil",
        ));
    }
    check_mlen(call, c, h + data, "a render target write (header if any, R G B A)")?;
    check_rlen(call, c, 0)?;
    for k in (0..slots).filter(|&k| enabled(call, k)) {
        let color = core::array::from_fn(|ch| {
            if replicated {
                pdw(call, h as usize, ch)
            } else {
                slot_dw(call, (h + ch as u32 * rpc) as usize, k)
            }
        });
        // The subspan's upper-left pixel: from the header, or without one
        // from the thread's dispatch (which the caller may have recorded).
        let subspan = if c.header {
            let ss = pdw(call, 1, RT_SUBSPAN_DW + k / 4);
            Some((ss & 0xffff, ss >> 16))
        } else {
            mem.subspans(call.thread).and_then(|s| s.get(k / 4).copied())
        };
        let position = subspan.map(|(x, y)| (x.saturating_add(k as u32 & 1), y.saturating_add(k as u32 >> 1 & 1)));
        mem.push_rt(RtWrite {
            thread: call.thread,
            bti: m.bti,
            slot: k as u32,
            position,
            color,
        });
        if let (Some((x, y)), Some(s)) = (position, mem.surface_mut(m.bti)) {
            s.set_texel(i64::from(x), i64::from(y), color);
        }
    }
    Reply::new(0).done()
}

pub(super) fn urb(call: &MessageCall<'_>, mem: &mut Memory, m: &Urb) -> Result<MessageReply, SimError> {
    let c = &m.common;
    let ty = m.opcode.hw();
    match m.opcode {
        UrbOpcode::Simd8Write => {
            need_header(call, c, "URB writes need a header (the URB handles)")?;
            check_rlen(call, c, 0)?;
            let extra = u32::from(m.per_slot_offset) + u32::from(m.channel_mask);
            let data = u32::from(c.mlen).saturating_sub(1 + extra);
            if data == 0 {
                return Err(SimError::Length {
                    offset: call.offset,
                    field: "mlen",
                    value: u32::from(c.mlen),
                    expected: 2 + extra,
                    what: "a SIMD8 URB write (header, offsets, masks, data)",
                });
            }
            for k in (0..GRF_DWORDS).filter(|&k| enabled(call, k)) {
                let handle = pdw(call, 0, k);
                let slot_off = if m.per_slot_offset { pdw(call, 1, k) } else { 0 };
                let mask = if m.channel_mask {
                    pdw(call, 1 + usize::from(m.per_slot_offset), k) >> 16 & 0xff
                } else {
                    0xff
                };
                let base = (u32::from(m.global_offset).wrapping_add(slot_off)).wrapping_mul(4);
                for i in 0..data {
                    if mask >> (i % 8) & 1 == 0 {
                        continue;
                    }
                    mem.push_urb(UrbWrite {
                        thread: call.thread,
                        handle,
                        dword: base.wrapping_add(i),
                        value: slot_dw(call, (1 + extra + i) as usize, k),
                    });
                }
            }
            Reply::new(0).done()
        }
        UrbOpcode::WriteHWord | UrbOpcode::WriteOWord => {
            need_header(call, c, "URB writes need a header (the URB handles)")?;
            check_rlen(call, c, 0)?;
            let data = u32::from(c.mlen).saturating_sub(1);
            if data == 0 {
                return Err(SimError::Length {
                    offset: call.offset,
                    field: "mlen",
                    value: u32::from(c.mlen),
                    expected: 2,
                    what: "a URB write (header, data)",
                });
            }
            let g = u32::from(m.global_offset);
            // Header dword 5 bits 15:8: the per-dword channel masks, ANDed
            // with the channel enables.
            let masks = pdw(call, 0, URB_MASK_DW) >> 8;
            let on = |i: usize| enabled(call, i) && masks >> i & 1 != 0;
            // Vertex v: handle in dword 4v, per-slot offset in dword 4v + 3.
            let handle = |v: usize| pdw(call, 0, 4 * v);
            let slot_off = |v: usize| if m.per_slot_offset { pdw(call, 0, 4 * v + 3) } else { 0 };
            for r in 0..data {
                for i in (0..GRF_DWORDS).filter(|&i| on(i)) {
                    let (v, dword) = if m.interleave {
                        // One OWord of each of the two vertices (SIMD4x2).
                        let v = i / 4;
                        (
                            v,
                            g.wrapping_add(slot_off(v))
                                .wrapping_add(r)
                                .wrapping_mul(4)
                                .wrapping_add((i % 4) as u32),
                        )
                    } else {
                        let unit = if m.opcode == UrbOpcode::WriteHWord { 8 } else { 4 };
                        let base = g.wrapping_add(slot_off(0)).wrapping_mul(unit);
                        (0, base.wrapping_add(r * 8 + i as u32))
                    };
                    mem.push_urb(UrbWrite {
                        thread: call.thread,
                        handle: handle(v),
                        dword,
                        value: pdw(call, (1 + r) as usize, i),
                    });
                }
            }
            Reply::new(0).done()
        }
        UrbOpcode::Simd8Read => {
            // Header dwords 0-7: the slots' handles; an optional register of
            // per-slot offsets (OWords); response register i holds dword i
            // of each slot's read.
            need_header(call, c, "URB reads need a header (the URB handles)")?;
            check_mlen(
                call,
                c,
                1 + u32::from(m.per_slot_offset),
                "a SIMD8 URB read (header, offsets)",
            )?;
            let mut r = Reply::new(u32::from(c.rlen));
            for k in (0..GRF_DWORDS).filter(|&k| enabled(call, k)) {
                let entry = mem.urb_entry_read(pdw(call, 0, k)).unwrap_or(&[]);
                let slot_off = if m.per_slot_offset { pdw(call, 1, k) } else { 0 };
                let base = u32::from(m.global_offset).wrapping_add(slot_off).wrapping_mul(4);
                for i in 0..u32::from(c.rlen) {
                    let d = usize::try_from(base.wrapping_add(i)).unwrap_or(usize::MAX);
                    r.set_dw(i as usize, k, entry.get(d).copied().unwrap_or(0));
                }
            }
            r.done()
        }
        UrbOpcode::ReadHWord | UrbOpcode::ReadOWord if !m.interleave => {
            // Vertex 0's handle in header dword 0 (and its per-slot offset in
            // dword 3): rlen registers of consecutive dwords.
            need_header(call, c, "URB reads need a header (the URB handles)")?;
            check_mlen(call, c, 1, "a URB read (the header)")?;
            let entry = mem.urb_entry_read(pdw(call, 0, 0)).unwrap_or(&[]);
            let slot_off = if m.per_slot_offset { pdw(call, 0, 3) } else { 0 };
            let unit = if m.opcode == UrbOpcode::ReadHWord { 8 } else { 4 };
            let base = u32::from(m.global_offset).wrapping_add(slot_off).wrapping_mul(unit);
            let mut r = Reply::new(u32::from(c.rlen));
            for i in 0..u32::from(c.rlen) * GRF_DWORDS as u32 {
                let d = usize::try_from(base.wrapping_add(i)).unwrap_or(usize::MAX);
                r.set_dw(
                    i as usize / GRF_DWORDS,
                    i as usize % GRF_DWORDS,
                    entry.get(d).copied().unwrap_or(0),
                );
            }
            r.done()
        }
        _ => Err(unmodelled(call, ty, "URB atomic or interleaved read")),
    }
}

/// URB write header dword of the channel masks (bits 15:8).
const URB_MASK_DW: usize = 5;

pub(super) fn gateway(call: &MessageCall<'_>, m: &Gateway) -> Result<MessageReply, SimError> {
    match m.op {
        GatewayOp::Barrier => {
            check_mlen(call, &m.common, 1, "a barrier (one register)")?;
            let mut r = Reply::new(0).done()?;
            r.barrier = true;
            Ok(r)
        }
        op => Err(unmodelled(call, op.hw(), "gateway message")),
    }
}

pub(super) fn thread_spawner(call: &MessageCall<'_>, m: &ThreadSpawner) -> Result<MessageReply, SimError> {
    if m.opcode != TsOpcode::DereferenceResource || !(m.common.eot || call.eot) {
        return Err(unmodelled(
            call,
            m.opcode.hw(),
            "thread spawner message other than the end of thread",
        ));
    }
    check_mlen(call, &m.common, 1, "an end of thread (one register)")?;
    let mut r = Reply::new(0).done()?;
    r.end_of_thread = true;
    Ok(r)
}
