//! The data port messages: data cache 0 (SFID 10), data cache 1 (SFID 12),
//! the read-only constant and sampler caches (SFIDs 9 and 4), and the
//! media block messages of the render cache.
//!
//! Payload layouts (IVB PRM Vol 4 Part 1 and HSW/BDW PRM Vol 7, "Data Port
//! Messages"; Mesa's `elk_eu_emit.c` and the surface lowering of
//! `elk_lower_logical_sends.cpp` build the same):
//!
//! - **OWord block** read/write: a header whose dword 2 is the offset, in
//!   OWords (the unaligned read: in bytes, dword-aligned); the data follow
//!   the header of a write; one OWord uses the low (or, `OneHigh`, the high)
//!   half of a register. The execution mask does not apply.
//! - **OWord dual block** read: header, then a register whose dwords 0 and
//!   4 are the two blocks' offsets in OWords; a one-OWord block gives the
//!   low and high halves of the response register.
//! - **DWord scattered**: optional header (dword 2: a global offset), then
//!   one register of per-slot offsets per eight slots; offsets count dwords
//!   (the vISA `GATHER` description: "in the unit of element size").
//! - **Byte scattered**: the same with byte offsets; each slot reads 1, 2
//!   or 4 bytes, zero-extended into its dword (writes take the low bytes).
//! - **Untyped surface** read/write: optional header (dword 7 bits 15:0:
//!   the pixel/sample mask, ANDed with the execution mask), per-slot byte
//!   addresses (A64: 64-bit, four per register), then for writes the
//!   enabled channels' data; channel c of a slot is the dword at the
//!   address plus 4c; only enabled channels take registers (SIMD4x2, for
//!   vec4 shaders: see `untyped_simd4x2`).
//! - **Untyped atomic**: addresses, then the operation's sources (one
//!   register set each); the old value (`predec`: the new one) comes back
//!   when `return_data`.
//! - **Media block**: a header whose dword 0 is X in bytes, dword 1 Y in
//!   rows and dword 2 the block width - 1 (bytes, bits 5:0) and height - 1
//!   (rows, bits 21:16); each row takes `pitch` bytes of the response,
//!   the width rounded up to a power of two of at least 4 (vISA
//!   `MEDIA_LD`). Reads outside the surface return the nearest edge texel;
//!   writes outside are dropped.
//! - **A64 scattered** read/write (Gen8): 64-bit addresses, four per
//!   register, then (writes) the data; bytes (1, 2 or 4 per address,
//!   zero-extended to a dword), or 1-8 dwords or qwords per address, one
//!   register set per element (see `a64_scattered`).
//! - **Scratch block**: a header, then (writes) the data; the descriptor
//!   gives the offset in registers (32 bytes).

use super::typed;
use super::{
    atomic, check_mlen, check_rlen, enabled, enabled_channels, need_header, payload_error, pdw, preg, slot_dw, slot_qw,
    unmodelled, MessageCall, MessageReply, Reply, Space, DW, GRF, GRF_DWORDS, HEADER_MASK_DW, OWORD, SIMD4X2_DWORDS,
    SIMD4X2_SLOTS,
};
use crate::isa::dataport::dc1;
use crate::msg::{
    A64ScatteredSubtype, AtomicOp, Channels, Common, DataCache0, DataCache1, Dc0Op, Dc1Op, DpRead, DpReadOp,
    DualBlockSize, OwordBlockSize, ScatteredDataSize, ScratchBlock, SurfaceSimd, TypedSlotGroup,
};
use crate::sim::{Memory, SimError};

/// Header dword holding a block or global offset.
const HEADER_OFFSET_DW: usize = 2;

pub(super) fn data_cache0(call: &MessageCall<'_>, mem: &mut Memory, m: &DataCache0) -> Result<MessageReply, SimError> {
    let c = &m.common;
    let space = Space::of_bti(call, mem, m.bti);
    match m.op {
        Dc0Op::OwordBlockRead { size } => block_read(call, mem, c, space, size, false),
        Dc0Op::UnalignedOwordBlockRead { size } => block_read(call, mem, c, space, size, true),
        Dc0Op::OwordBlockWrite { size } => block_write(call, mem, c, space, size),
        Dc0Op::OwordDualBlockRead { size } => dual_block_read(call, mem, c, space, size),
        Dc0Op::OwordDualBlockWrite { size } => dual_block_write(call, mem, c, space, size),
        Dc0Op::DwordScatteredRead { simd16 } => scattered_read(call, mem, c, space, simd16, Elem::Dword),
        Dc0Op::DwordScatteredWrite { simd16 } => scattered_write(call, mem, c, space, simd16, Elem::Dword),
        Dc0Op::ByteScatteredRead { simd16, size } => scattered_read(call, mem, c, space, simd16, Elem::Bytes(size)),
        Dc0Op::ByteScatteredWrite { simd16, size } => scattered_write(call, mem, c, space, simd16, Elem::Bytes(size)),
        Dc0Op::UntypedSurfaceRead { channels, simd } => untyped_read(call, mem, c, Addr::A32(space), channels, simd),
        Dc0Op::UntypedSurfaceWrite { channels, simd } => untyped_write(call, mem, c, Addr::A32(space), channels, simd),
        Dc0Op::UntypedAtomic { op, simd8, return_data } => {
            untyped_atomic(call, mem, c, Addr::A32(space), op, simd8, return_data, false)
        }
        Dc0Op::MemoryFence { commit } => fence(call, c, commit),
        Dc0Op::Scratch(s) => scratch(call, mem, c, &s),
    }
}

pub(super) fn data_cache1(call: &MessageCall<'_>, mem: &mut Memory, m: &DataCache1) -> Result<MessageReply, SimError> {
    let c = &m.common;
    let space = Space::of_bti(call, mem, m.bti);
    let ty = m.op.msg_type();
    if matches!(
        m.op,
        Dc1Op::MediaBlockRead { .. }
            | Dc1Op::MediaBlockWrite { .. }
            | Dc1Op::TypedSurfaceRead { .. }
            | Dc1Op::TypedSurfaceWrite { .. }
            | Dc1Op::TypedAtomicSimd4x2 { .. }
            | Dc1Op::TypedAtomic { .. }
    ) {
        // Typed surfaces and media blocks: the whole surface.
        mem.note_whole(m.bti);
    }
    match m.op {
        Dc1Op::UntypedSurfaceRead { channels, simd } => untyped_read(call, mem, c, Addr::A32(space), channels, simd),
        Dc1Op::UntypedSurfaceWrite { channels, simd } => untyped_write(call, mem, c, Addr::A32(space), channels, simd),
        Dc1Op::UntypedAtomic { op, simd8, return_data } => {
            untyped_atomic(call, mem, c, Addr::A32(space), op, simd8, return_data, false)
        }
        Dc1Op::A64UntypedSurfaceRead { channels, simd } => untyped_read(call, mem, c, Addr::A64, channels, simd),
        Dc1Op::A64UntypedSurfaceWrite { channels, simd } => untyped_write(call, mem, c, Addr::A64, channels, simd),
        Dc1Op::UntypedAtomicSimd4x2 { op, return_data } => atomic_simd4x2(call, mem, c, space, op, return_data),
        // The A64 atomics are SIMD8 messages.
        Dc1Op::A64UntypedAtomic { op, qword, return_data } => {
            untyped_atomic(call, mem, c, Addr::A64, op, true, return_data, qword)
        }
        Dc1Op::A64ScatteredRead {
            subtype,
            data_size,
            simd16,
        } => a64_scattered(call, mem, c, subtype, data_size, simd16, false),
        Dc1Op::A64ScatteredWrite {
            subtype,
            data_size,
            simd16,
        } => a64_scattered(call, mem, c, subtype, data_size, simd16, true),
        Dc1Op::MediaBlockRead { .. } => media_block_read(call, mem, c, m.bti),
        Dc1Op::MediaBlockWrite { .. } => media_block_write(call, mem, c, m.bti),
        Dc1Op::TypedSurfaceRead {
            channels,
            slot_group: TypedSlotGroup::Simd4x2,
        } => typed::simd4x2(call, mem, c, m.bti, channels, typed::Simd4x2::Read),
        Dc1Op::TypedSurfaceWrite {
            channels,
            slot_group: TypedSlotGroup::Simd4x2,
        } => typed::simd4x2(call, mem, c, m.bti, channels, typed::Simd4x2::Write),
        Dc1Op::TypedAtomicSimd4x2 { op, return_data } => typed::simd4x2(
            call,
            mem,
            c,
            m.bti,
            Channels::R,
            typed::Simd4x2::Atomic(op, return_data),
        ),
        Dc1Op::TypedSurfaceRead { channels, slot_group } => {
            let high = typed::group_base(call, slot_group, ty)?;
            typed::read(call, mem, c, m.bti, channels, high)
        }
        Dc1Op::TypedSurfaceWrite { channels, slot_group } => {
            let high = typed::group_base(call, slot_group, ty)?;
            typed::write(call, mem, c, m.bti, channels, high)
        }
        Dc1Op::TypedAtomic {
            op,
            high_slot_group,
            return_data,
        } => typed::atomic(call, mem, c, m.bti, op, high_slot_group, return_data),
        _ => Err(unmodelled(call, ty, "data cache 1 atomic counter message")),
    }
}

pub(super) fn read_only(call: &MessageCall<'_>, mem: &mut Memory, m: &DpRead) -> Result<MessageReply, SimError> {
    let c = &m.common;
    let space = Space::of_bti(call, mem, m.bti);
    match m.op {
        DpReadOp::OwordBlockRead { size } => block_read(call, mem, c, space, size, false),
        DpReadOp::UnalignedOwordBlockRead { size } => block_read(call, mem, c, space, size, true),
        DpReadOp::OwordDualBlockRead { size } => dual_block_read(call, mem, c, space, size),
        DpReadOp::DwordScatteredRead { simd16 } => scattered_read(call, mem, c, space, simd16, Elem::Dword),
        DpReadOp::MediaBlockRead { .. } => {
            mem.note_whole(m.bti);
            media_block_read(call, mem, c, m.bti)
        }
    }
}

/// The registers of an OWord block, and the byte of the first register
/// where it starts (16 for the high half of one register).
fn block_layout(size: OwordBlockSize) -> (u32, usize) {
    let start = if size == OwordBlockSize::OneHigh { OWORD } else { 0 };
    (size.regs(), start)
}

fn block_read(
    call: &MessageCall<'_>,
    mem: &mut Memory,
    c: &Common,
    space: Space,
    size: OwordBlockSize,
    unaligned: bool,
) -> Result<MessageReply, SimError> {
    need_header(call, c, "OWord block messages need a header (dword 2: the offset)")?;
    check_mlen(call, c, 1, "an OWord block read (the header)")?;
    let (regs, start) = block_layout(size);
    let off = pdw(call, 0, HEADER_OFFSET_DW);
    let base = if unaligned {
        u64::from(off & !(DW as u32 - 1))
    } else {
        u64::from(off) * OWORD as u64
    };
    let mut r = Reply::new(regs);
    for d in 0..size.owords() as usize * OWORD / DW {
        let v = space.read_u32(call, mem, base + (d * DW) as u64)?;
        r.set_bytes(start + d * DW, &v.to_le_bytes());
    }
    r.done()
}

fn block_write(
    call: &MessageCall<'_>,
    mem: &mut Memory,
    c: &Common,
    space: Space,
    size: OwordBlockSize,
) -> Result<MessageReply, SimError> {
    need_header(call, c, "OWord block messages need a header (dword 2: the offset)")?;
    let (regs, start) = block_layout(size);
    check_mlen(call, c, 1 + regs, "an OWord block write (header and data)")?;
    check_rlen(call, c, 0)?;
    let base = u64::from(pdw(call, 0, HEADER_OFFSET_DW)) * OWORD as u64;
    for d in 0..size.owords() as usize * OWORD / DW {
        let at = start + d * DW;
        let v = pdw(call, 1 + at / GRF, at % GRF / DW);
        space.write_u32(call, mem, base + (d * DW) as u64, v)?;
    }
    Reply::new(0).done()
}

fn dual_block_read(
    call: &MessageCall<'_>,
    mem: &mut Memory,
    c: &Common,
    space: Space,
    size: DualBlockSize,
) -> Result<MessageReply, SimError> {
    if size != DualBlockSize::One {
        return Err(unmodelled(call, 2, "OWord dual block of four OWords"));
    }
    need_header(call, c, "OWord dual block messages need a header")?;
    check_mlen(call, c, 2, "an OWord dual block read (header and offsets)")?;
    let mut r = Reply::new(1);
    for (half, dw) in [0usize, GRF_DWORDS / 2].into_iter().enumerate() {
        let base = u64::from(pdw(call, 1, dw)) * OWORD as u64;
        for d in 0..OWORD / DW {
            let v = space.read_u32(call, mem, base + (d * DW) as u64)?;
            r.set_dw(0, half * OWORD / DW + d, v);
        }
    }
    r.done()
}

fn dual_block_write(
    call: &MessageCall<'_>,
    mem: &mut Memory,
    c: &Common,
    space: Space,
    size: DualBlockSize,
) -> Result<MessageReply, SimError> {
    if size != DualBlockSize::One {
        return Err(unmodelled(call, 10, "OWord dual block of four OWords"));
    }
    need_header(call, c, "OWord dual block messages need a header")?;
    check_mlen(call, c, 3, "an OWord dual block write (header, offsets, data)")?;
    check_rlen(call, c, 0)?;
    for (half, dw) in [0usize, GRF_DWORDS / 2].into_iter().enumerate() {
        // SIMD4x2: the first block belongs to channels 0-3, the second to 4-7.
        if call.channel_mask >> (half * 4) & 0xf == 0 {
            continue;
        }
        let base = u64::from(pdw(call, 1, dw)) * OWORD as u64;
        for d in 0..OWORD / DW {
            let v = pdw(call, 2, half * OWORD / DW + d);
            space.write_u32(call, mem, base + (d * DW) as u64, v)?;
        }
    }
    Reply::new(0).done()
}

/// The element of a scattered message.
#[derive(Clone, Copy)]
enum Elem {
    /// A dword at a dword offset.
    Dword,
    /// 1, 2 or 4 bytes at a byte offset.
    Bytes(ScatteredDataSize),
}

impl Elem {
    fn bytes(self) -> usize {
        match self {
            Elem::Dword | Elem::Bytes(ScatteredDataSize::Dword) => 4,
            Elem::Bytes(ScatteredDataSize::Word) => 2,
            Elem::Bytes(ScatteredDataSize::Byte) => 1,
        }
    }

    /// The byte address of a slot's offset plus the global offset.
    fn address(self, global: u32, offset: u32) -> u64 {
        let a = u64::from(global) + u64::from(offset);
        match self {
            Elem::Dword => a * DW as u64,
            Elem::Bytes(_) => a,
        }
    }
}

/// Slots and registers per per-slot operand of a SIMD8/SIMD16 message.
fn simd(simd16: bool) -> (usize, u32) {
    if simd16 {
        (16, 2)
    } else {
        (8, 1)
    }
}

fn scattered_read(
    call: &MessageCall<'_>,
    mem: &mut Memory,
    c: &Common,
    space: Space,
    simd16: bool,
    e: Elem,
) -> Result<MessageReply, SimError> {
    let (slots, rps) = simd(simd16);
    let h = u32::from(c.header);
    check_mlen(call, c, h + rps, "a scattered read (header if any, offsets)")?;
    let global = if c.header { pdw(call, 0, HEADER_OFFSET_DW) } else { 0 };
    let mut r = Reply::new(rps);
    for s in (0..slots).filter(|&s| enabled(call, s)) {
        let addr = e.address(global, slot_dw(call, h as usize, s));
        let mut b = [0; DW];
        space.read(call, mem, addr, b.get_mut(..e.bytes()).unwrap_or(&mut []))?;
        r.set_slot(0, s, u32::from_le_bytes(b));
    }
    r.done()
}

fn scattered_write(
    call: &MessageCall<'_>,
    mem: &mut Memory,
    c: &Common,
    space: Space,
    simd16: bool,
    e: Elem,
) -> Result<MessageReply, SimError> {
    let (slots, rps) = simd(simd16);
    let h = u32::from(c.header);
    check_mlen(call, c, h + 2 * rps, "a scattered write (header if any, offsets, data)")?;
    check_rlen(call, c, 0)?;
    let global = if c.header { pdw(call, 0, HEADER_OFFSET_DW) } else { 0 };
    for s in (0..slots).filter(|&s| enabled(call, s)) {
        let addr = e.address(global, slot_dw(call, h as usize, s));
        let v = slot_dw(call, (h + rps) as usize, s).to_le_bytes();
        space.write(call, mem, addr, v.get(..e.bytes()).unwrap_or(&[]))?;
    }
    Reply::new(0).done()
}

/// How an untyped message addresses memory.
#[derive(Clone, Copy)]
enum Addr {
    /// 32-bit byte offsets into a space.
    A32(Space),
    /// 64-bit flat addresses (Gen8).
    A64,
}

impl Addr {
    /// Registers of addresses per eight slots.
    fn regs_per_8(self) -> u32 {
        match self {
            Addr::A32(_) => 1,
            Addr::A64 => 2,
        }
    }

    /// The space and byte address of slot `s` (addresses start at `reg`).
    fn slot(self, call: &MessageCall<'_>, reg: usize, s: usize) -> (Space, u64) {
        match self {
            Addr::A32(space) => (space, u64::from(slot_dw(call, reg, s))),
            Addr::A64 => (Space::Flat(0), slot_qw(call, reg, s)),
        }
    }
}

/// Slots and registers per channel of an untyped SIMD mode.
fn untyped_simd(call: &MessageCall<'_>, mode: SurfaceSimd) -> Result<(usize, u32), SimError> {
    match mode {
        SurfaceSimd::Simd8 => Ok(simd(false)),
        SurfaceSimd::Simd16 => Ok(simd(true)),
        SurfaceSimd::Simd4x2 => Err(unmodelled(call, 0, "SIMD4x2 untyped surface message")),
    }
}

/// A SIMD4x2 (vec4) untyped surface read or write: the address of slot s
/// in dword 4s of the address register (header if any, then addresses,
/// then for writes one data register); slot s's channels sit in place in
/// dwords 4s..4s+3 of the data and of the one response register. A channel
/// is accessed when the descriptor enables it and, for writes, when its
/// execution channel (4s + channel) is enabled; a read needs one of the
/// slot's execution channels.
fn untyped_simd4x2(
    call: &MessageCall<'_>,
    mem: &mut Memory,
    c: &Common,
    space: Space,
    channels: Channels,
    write: bool,
) -> Result<MessageReply, SimError> {
    let h = usize::from(c.header);
    let what = if write {
        "a SIMD4x2 untyped surface write (header if any, addresses, data)"
    } else {
        "a SIMD4x2 untyped surface read (header if any, addresses)"
    };
    check_mlen(call, c, h as u32 + 1 + u32::from(write), what)?;
    check_rlen(call, c, u32::from(!write))?;
    let mut r = Reply::new(u32::from(!write));
    for slot in 0..SIMD4X2_SLOTS {
        let first = slot * SIMD4X2_DWORDS;
        let a = u64::from(pdw(call, h, first));
        if !write && call.channel_mask >> first & 0xf == 0 {
            continue;
        }
        for ch in enabled_channels(channels) {
            let at = a.wrapping_add(4 * ch as u64);
            if write {
                if enabled(call, first + ch) {
                    space.write_u32(call, mem, at, pdw(call, h + 1, first + ch))?;
                }
            } else {
                r.set_dw(0, first + ch, space.read_u32(call, mem, at)?);
            }
        }
    }
    r.done()
}

/// Whether slot `s` is enabled: the execution mask, and the header's
/// pixel/sample mask when the message has a header.
fn slot_on(call: &MessageCall<'_>, c: &Common, s: usize) -> bool {
    enabled(call, s) && (!c.header || pdw(call, 0, HEADER_MASK_DW) >> s & 1 != 0)
}

fn untyped_read(
    call: &MessageCall<'_>,
    mem: &mut Memory,
    c: &Common,
    addr: Addr,
    channels: Channels,
    simd: SurfaceSimd,
) -> Result<MessageReply, SimError> {
    if let (SurfaceSimd::Simd4x2, Addr::A32(space)) = (simd, addr) {
        return untyped_simd4x2(call, mem, c, space, channels, false);
    }
    let (slots, rps) = untyped_simd(call, simd)?;
    let h = u32::from(c.header);
    check_mlen(
        call,
        c,
        h + rps * addr.regs_per_8(),
        "an untyped surface read (header if any, addresses)",
    )?;
    let mut r = Reply::new(rps * channels.count());
    for s in (0..slots).filter(|&s| slot_on(call, c, s)) {
        let (space, a) = addr.slot(call, h as usize, s);
        for (k, ch) in enabled_channels(channels).enumerate() {
            let v = space.read_u32(call, mem, a.wrapping_add(4 * ch as u64))?;
            r.set_slot(k * rps as usize, s, v);
        }
    }
    r.done()
}

fn untyped_write(
    call: &MessageCall<'_>,
    mem: &mut Memory,
    c: &Common,
    addr: Addr,
    channels: Channels,
    simd: SurfaceSimd,
) -> Result<MessageReply, SimError> {
    if let (SurfaceSimd::Simd4x2, Addr::A32(space)) = (simd, addr) {
        return untyped_simd4x2(call, mem, c, space, channels, true);
    }
    let (slots, rps) = untyped_simd(call, simd)?;
    let h = u32::from(c.header);
    let areg = rps * addr.regs_per_8();
    check_mlen(
        call,
        c,
        h + areg + rps * channels.count(),
        "an untyped surface write (header if any, addresses, data)",
    )?;
    check_rlen(call, c, 0)?;
    for s in (0..slots).filter(|&s| slot_on(call, c, s)) {
        let (space, a) = addr.slot(call, h as usize, s);
        for (k, ch) in enabled_channels(channels).enumerate() {
            let v = slot_dw(call, (h + areg) as usize + k * rps as usize, s);
            space.write_u32(call, mem, a.wrapping_add(4 * ch as u64), v)?;
        }
    }
    Reply::new(0).done()
}

#[allow(clippy::too_many_arguments)]
fn untyped_atomic(
    call: &MessageCall<'_>,
    mem: &mut Memory,
    c: &Common,
    addr: Addr,
    op: AtomicOp,
    simd8: bool,
    return_data: bool,
    qword: bool,
) -> Result<MessageReply, SimError> {
    let (slots, rps) = simd(!simd8);
    let h = u32::from(c.header) as usize;
    let areg = rps * addr.regs_per_8();
    // A source (or return value) of 64-bit operations takes two registers per
    // eight slots.
    let sreg = if qword { 2 * rps } else { rps };
    check_mlen(
        call,
        c,
        h as u32 + areg + sreg * op.num_srcs(),
        "an untyped atomic (header if any, addresses, sources)",
    )?;
    check_rlen(call, c, if return_data { sreg } else { 0 })?;
    let mut r = Reply::new(if return_data { sreg } else { 0 });
    let src = |i: u32, s: usize| -> u64 {
        let reg = h + (areg + i * sreg) as usize;
        if qword {
            slot_qw(call, reg, s)
        } else {
            u64::from(slot_dw(call, reg, s))
        }
    };
    for s in (0..slots).filter(|&s| slot_on(call, c, s)) {
        let (space, a) = addr.slot(call, h, s);
        let (s0, s1) = (src(0, s), src(1, s));
        let ret = if qword {
            let mut b = [0; 8];
            space.read(call, mem, a, &mut b)?;
            let (new, ret) = atomic::apply64(op, u64::from_le_bytes(b), s0, s1);
            space.write(call, mem, a, &new.to_le_bytes())?;
            ret
        } else {
            let old = space.read_u32(call, mem, a)?;
            let (new, ret) = atomic::apply32(op, old, s0 as u32, s1 as u32);
            space.write_u32(call, mem, a, new)?;
            u64::from(ret)
        };
        if return_data {
            if qword {
                let reg = s / 4;
                r.set_dw(reg, s % 4 * 2, ret as u32);
                r.set_dw(reg, s % 4 * 2 + 1, (ret >> 32) as u32);
            } else {
                r.set_slot(0, s, ret as u32);
            }
        }
    }
    r.done()
}

/// A SIMD4x2 (vec4) untyped atomic: slot s's address in dword 4s of the
/// address register, its sources in dword 4s of the next registers, its
/// returned value in dword 4s of the response; a slot runs when one of
/// its execution channels 4s..4s+3 is enabled.
fn atomic_simd4x2(
    call: &MessageCall<'_>,
    mem: &mut Memory,
    c: &Common,
    space: Space,
    op: AtomicOp,
    return_data: bool,
) -> Result<MessageReply, SimError> {
    let h = usize::from(c.header);
    let what = "a SIMD4x2 untyped atomic (header if any, address, sources)";
    check_mlen(call, c, h as u32 + 1 + op.num_srcs(), what)?;
    check_rlen(call, c, u32::from(return_data))?;
    let mut r = Reply::new(u32::from(return_data));
    for slot in 0..SIMD4X2_SLOTS {
        let first = slot * SIMD4X2_DWORDS;
        if call.channel_mask >> first & 0xf == 0 {
            continue;
        }
        let a = u64::from(pdw(call, h, first));
        let old = space.read_u32(call, mem, a)?;
        let (new, ret) = atomic::apply32(op, old, pdw(call, h + 1, first), pdw(call, h + 2, first));
        space.write_u32(call, mem, a, new)?;
        r.set_dw(0, first, ret);
    }
    r.done()
}

/// A64 scattered read and write (Gen8): per-slot 64-bit addresses (four
/// slots a register), then for writes the data. Byte elements move 1, 2
/// or 4 bytes (2^data_size) per address, zero-extended into the slot's
/// dword of one register set (IGA: "widens to DW"); dword and qword
/// elements move 2^data_size consecutive elements per address, element e
/// of every slot in register set e (vISA `SVM_GATHER`/`SVM_SCATTER`:
/// element j of slot i is `dst[i + j * exec_size]`), a qword taking two
/// registers per eight slots. A disabled slot reads zeros and writes
/// nothing; the addresses are flat (unmapped bytes are an error).
#[allow(clippy::too_many_arguments)]
fn a64_scattered(
    call: &MessageCall<'_>,
    mem: &mut Memory,
    c: &Common,
    subtype: A64ScatteredSubtype,
    data_size: u8,
    simd16: bool,
    write: bool,
) -> Result<MessageReply, SimError> {
    let ty = if write {
        dc1::A64_SCATTERED_WRITE
    } else {
        dc1::A64_SCATTERED_READ
    };
    let (slots, rps) = simd(simd16);
    let h = u32::from(c.header);
    let areg = 2 * rps;
    let (elems, bytes) = match subtype {
        A64ScatteredSubtype::Byte if data_size <= 2 => (1u32, 1usize << data_size),
        A64ScatteredSubtype::Dword => (1 << data_size, DW),
        A64ScatteredSubtype::Qword => (1 << data_size, 2 * DW),
        A64ScatteredSubtype::Byte => return Err(unmodelled(call, ty, "A64 byte scattered access of 8 bytes")),
    };
    let qword = bytes == 2 * DW;
    let regs_per_elem = if qword { 2 * rps } else { rps };
    let data = elems * regs_per_elem;
    if write {
        check_mlen(
            call,
            c,
            h + areg + data,
            "an A64 scattered write (header if any, addresses, data)",
        )?;
        check_rlen(call, c, 0)?;
    } else {
        check_mlen(call, c, h + areg, "an A64 scattered read (header if any, addresses)")?;
        check_rlen(call, c, data)?;
    }
    let mut r = Reply::new(if write { 0 } else { data });
    for s in (0..slots).filter(|&s| enabled(call, s)) {
        let a = slot_qw(call, h as usize, s);
        for e in 0..elems {
            let at = a.wrapping_add(u64::from(e) * bytes as u64);
            let reg = e * regs_per_elem;
            if write {
                let reg = (h + areg + reg) as usize;
                let v = if qword {
                    slot_qw(call, reg, s)
                } else {
                    u64::from(slot_dw(call, reg, s))
                };
                Space::Flat(0).write(call, mem, at, v.to_le_bytes().get(..bytes).unwrap_or(&[]))?;
            } else {
                let mut b = [0; 2 * DW];
                Space::Flat(0).read(call, mem, at, b.get_mut(..bytes).unwrap_or(&mut []))?;
                let v = u64::from_le_bytes(b);
                if qword {
                    let (reg, dw) = (reg as usize + s / (GRF_DWORDS / 2), s % (GRF_DWORDS / 2) * 2);
                    r.set_dw(reg, dw, v as u32);
                    r.set_dw(reg, dw + 1, (v >> 32) as u32);
                } else {
                    r.set_slot(reg as usize, s, v as u32);
                }
            }
        }
    }
    r.done()
}

/// Memory fence: the data port returns one register when the fence
/// commits (its content unspecified: zeros here), none otherwise.
fn fence(call: &MessageCall<'_>, c: &Common, commit: bool) -> Result<MessageReply, SimError> {
    check_mlen(call, c, 1, "a memory fence (one register)")?;
    Reply::new(u32::from(commit)).done()
}

fn scratch(call: &MessageCall<'_>, mem: &mut Memory, c: &Common, s: &ScratchBlock) -> Result<MessageReply, SimError> {
    need_header(call, c, "scratch block messages need a header")?;
    let regs = s.regs.regs();
    let base = u64::from(s.offset) * GRF as u64;
    if s.write {
        check_mlen(call, c, 1 + regs, "a scratch block write (header and data)")?;
        check_rlen(call, c, 0)?;
        // DWord channel mode: dword d of data register r is written when its
        // channel is enabled, the registers taking eight channels each
        // (SIMD8: channels 0-7 over and over; SIMD16: 0-7, 8-15, ...).
        let width = if call.exec_size > 8 { 16 } else { 8 };
        for r in 0..regs as usize {
            let data = preg(call, 1 + r);
            for d in 0..GRF_DWORDS {
                if s.dword && !enabled(call, (r * GRF_DWORDS + d) % width) {
                    continue;
                }
                let at = (r * GRF + d * DW) as u64;
                let b = data.get(d * DW..d * DW + DW).unwrap_or(&[]);
                Space::Scratch.write(call, mem, base + at, b)?;
            }
        }
        Reply::new(0).done()
    } else {
        check_mlen(call, c, 1, "a scratch block read (the header)")?;
        let mut r = Reply::new(regs);
        for reg in 0..regs as usize {
            let mut b = [0; GRF];
            Space::Scratch.read(call, mem, base + (reg * GRF) as u64, &mut b)?;
            r.set_bytes(reg * GRF, &b);
        }
        r.done()
    }
}

/// The block a media block message's header describes: X in bytes, Y in
/// rows, width in bytes, height in rows, and the bytes per row in the
/// registers.
struct MediaBlock {
    x: i64,
    y: i64,
    width: usize,
    height: usize,
    pitch: usize,
}

/// Bits of the width - 1 and height - 1 fields of header dword 2.
const MEDIA_SIZE_MASK: u32 = 0x3f;
/// Position of the height - 1 field in header dword 2.
const MEDIA_HEIGHT_SHIFT: u32 = 16;
/// The widest media block row (bytes).
const MEDIA_WIDTH_MAX: usize = 64;
/// Smallest register pitch of a media block row.
const MEDIA_PITCH_MIN: usize = 4;

fn media_block(call: &MessageCall<'_>, c: &Common) -> Result<MediaBlock, SimError> {
    need_header(call, c, "media block messages need a header (X, Y, block size)")?;
    let size = pdw(call, 0, HEADER_OFFSET_DW);
    let width = (size & MEDIA_SIZE_MASK) as usize + 1;
    let height = (size >> MEDIA_HEIGHT_SHIFT & MEDIA_SIZE_MASK) as usize + 1;
    let pitch = width.next_power_of_two().max(MEDIA_PITCH_MIN);
    if width > MEDIA_WIDTH_MAX || pitch * height > 8 * GRF {
        return Err(payload_error(call, "media block larger than eight registers"));
    }
    Ok(MediaBlock {
        x: i64::from(pdw(call, 0, 0) as i32),
        y: i64::from(pdw(call, 0, 1) as i32),
        width,
        height,
        pitch,
    })
}

/// Registers a media block takes.
fn media_regs(b: &MediaBlock) -> u32 {
    (b.pitch * b.height).div_ceil(GRF) as u32
}

/// The surface of a media block message and its bytes per texel (1 for
/// a buffer, whose width is its length in bytes).
fn media_surface<'m>(
    call: &MessageCall<'_>,
    mem: &'m Memory,
    bti: u8,
) -> Result<(&'m crate::sim::Surface, i64), SimError> {
    let s = mem.surface(bti).ok_or(SimError::UnboundSurface {
        offset: call.offset,
        bti,
    })?;
    Ok((s, s.format().map_or(1, |f| i64::from(f.bytes()))))
}

pub(super) fn media_block_read(
    call: &MessageCall<'_>,
    mem: &mut Memory,
    c: &Common,
    bti: u8,
) -> Result<MessageReply, SimError> {
    let b = media_block(call, c)?;
    check_mlen(call, c, 1, "a media block read (the header)")?;
    let (s, bpp) = media_surface(call, mem, bti)?;
    let mut r = Reply::new(media_regs(&b));
    let (w, h) = (i64::from(s.width()), i64::from(s.height()));
    if w == 0 || h == 0 {
        return r.done();
    }
    for row in 0..b.height {
        // Outside the surface, the nearest edge texel.
        let y = (b.y + row as i64).clamp(0, h - 1);
        for col in 0..b.width {
            let xb = b.x + col as i64;
            let tx = xb.div_euclid(bpp).clamp(0, w - 1);
            let at = y as u64 * u64::from(s.pitch()) + (tx * bpp + xb.rem_euclid(bpp)) as u64;
            let v = usize::try_from(at)
                .ok()
                .and_then(|a| s.data().get(a))
                .copied()
                .unwrap_or(0);
            r.set_bytes(row * b.pitch + col, &[v]);
        }
    }
    r.done()
}

pub(super) fn media_block_write(
    call: &MessageCall<'_>,
    mem: &mut Memory,
    c: &Common,
    bti: u8,
) -> Result<MessageReply, SimError> {
    let b = media_block(call, c)?;
    check_mlen(call, c, 1 + media_regs(&b), "a media block write (header and data)")?;
    check_rlen(call, c, 0)?;
    let (s, bpp) = media_surface(call, mem, bti)?;
    let (row_bytes, h, pitch) = (i64::from(s.width()) * bpp, i64::from(s.height()), u64::from(s.pitch()));
    let s = mem.surface_mut(bti).ok_or(SimError::UnboundSurface {
        offset: call.offset,
        bti,
    })?;
    for row in 0..b.height {
        let y = b.y + row as i64;
        for col in 0..b.width {
            let x = b.x + col as i64;
            if x < 0 || y < 0 || x >= row_bytes || y >= h {
                continue;
            }
            let src = row * b.pitch + col;
            let v = preg(call, 1 + src / GRF).get(src % GRF).copied().unwrap_or(0);
            let at = y as u64 * pitch + x as u64;
            if let Some(d) = usize::try_from(at).ok().and_then(|a| s.data_mut().get_mut(a)) {
                *d = v;
            }
        }
    }
    Reply::new(0).done()
}
