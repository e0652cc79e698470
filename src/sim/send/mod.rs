//! SEND and SENDC: the shared functions' messages, executed against the
//! caller's [`Memory`].
//!
//! The descriptor is read through the typed decoders of [`crate::msg`]
//! ([`Message::decode_typed`]); a descriptor that does not decode is
//! [`SimError::Message`], a message or form the simulator does not model
//! is [`SimError::UnmodelledMessage`] (never a silent no-op). Every message
//! checks its descriptor's `mlen` and `rlen` against the payload and
//! response its fields imply ([`SimError::Length`]).
//!
//! One file per shared function: `dataport` (data cache 0 and 1, the
//! constant and sampler caches, the render cache's media and typed
//! messages), `typed` (typed surface messages), `sampler`, and `fixed` (URB,
//! render target writes, gateway, thread spawner).

use super::track::Region;
use super::{Memory, SimError};
use crate::isa::GRF_BYTES;
use crate::msg::{Common, Message, MsgError, ReservedBti};
use crate::{Platform, Sfid};
use alloc::vec;
use alloc::vec::Vec;

mod atomic;
mod dataport;
mod fixed;
mod sampler;
mod typed;

#[cfg(test)]
mod tests;

/// What the core hands a shared function: everything the hardware's message
/// carries, with the payload registers already read from the register file.
pub(crate) struct MessageCall<'a> {
    /// The platform.
    pub platform: Platform,
    /// Byte offset of the SEND (for errors).
    pub offset: u32,
    /// The shared function (the extended descriptor's only field on Gen7
    /// and Gen8 beside EOT, which is [`MessageCall::eot`]).
    pub sfid: Sfid,
    /// The message descriptor (immediate, or read from a0.0).
    pub desc: u32,
    /// The instruction's execution size in channels.
    pub exec_size: u32,
    /// The message's enabled slots, after the execution mask, predication
    /// and NoMask: bit n is slot n, the instruction's channel n counted
    /// from its first channel (a SIMD8 SEND at quarter 2Q has channels
    /// 8-15 as slots 0-7), as the shared functions see them.
    pub channel_mask: u32,
    /// The `mlen` payload registers, starting at src0's register.
    pub payload: &'a [[u8; 32]],
    /// The index of the running thread in its dispatch (scratch space is per thread).
    pub thread: u32,
    /// The index of the running thread's group (shared local memory is per group).
    pub group: u32,
    /// End of thread: the instruction's EOT bit (on Gen7 and Gen8 it is
    /// not part of the descriptor, see [`crate::Instruction::eot`]).
    pub eot: bool,
}

/// What a message gives back.
pub(crate) struct MessageReply {
    /// Exactly `rlen` registers, written to the destination and on.
    pub regs: alloc::vec::Vec<[u8; 32]>,
    /// The thread waits at its group's barrier before it goes on.
    pub barrier: bool,
    /// The thread ends (a message with EOT, or the thread spawner's end of thread).
    pub end_of_thread: bool,
}

/// Bytes of a GRF.
const GRF: usize = GRF_BYTES as usize;
/// Bytes of a dword.
const DW: usize = 4;
/// Dwords of a GRF (the slots of one SIMD8 register).
const GRF_DWORDS: usize = GRF / DW;
/// Bytes of an OWord.
const OWORD: usize = crate::isa::OWORD_BYTES as usize;
/// Header dword holding the pixel/sample mask of the untyped and typed
/// surface messages (bits 15:0, ANDed with the execution mask).
const HEADER_MASK_DW: usize = 7;
/// Slots of a SIMD4x2 (vec4) message, and the dwords of a register each
/// takes (one OWord: the slot's four channels in place).
const SIMD4X2_SLOTS: usize = 2;
const SIMD4X2_DWORDS: usize = OWORD / DW;

/// The indices (0 = R ... 3 = A) of the enabled channels, in order.
pub(super) fn enabled_channels(channels: crate::msg::Channels) -> impl Iterator<Item = usize> {
    (0..4).filter(move |c| channels.bits() >> c & 1 != 0)
}

/// Carries out one message.
pub(crate) fn execute(call: &MessageCall<'_>, mem: &mut Memory) -> Result<MessageReply, SimError> {
    let sfid = call.sfid.hw();
    let message = Message::decode_typed(call.platform, sfid, call.desc).map_err(|error| match error {
        MsgError::Function { .. } => SimError::UnmodelledMessage {
            offset: call.offset,
            sfid,
            msg_type: 0,
            what: "shared function",
        },
        error => SimError::Message {
            offset: call.offset,
            error,
        },
    })?;
    let common = message.common();
    check(
        call,
        "payload",
        call.payload.len() as u32,
        u32::from(common.mlen),
        "the descriptor's mlen",
    )?;
    let mut reply = match message {
        Message::DataCache0(m) => dataport::data_cache0(call, mem, &m),
        Message::DataCache1(m) => dataport::data_cache1(call, mem, &m),
        Message::ConstantCache(m) | Message::SamplerCache(m) => dataport::read_only(call, mem, &m),
        // Render targets, typed surfaces and media blocks: the whole surface.
        Message::Render(m) => {
            mem.note_whole(m.bti);
            fixed::render(call, mem, &m)
        }
        Message::Sampler(m) => {
            mem.note_whole(m.bti);
            sampler::sample(call, mem, &m)
        }
        Message::Urb(m) => fixed::urb(call, mem, &m),
        Message::Gateway(m) => fixed::gateway(call, &m),
        Message::ThreadSpawner(m) => fixed::thread_spawner(call, &m),
        Message::PixelInterp(m) => Err(unmodelled(call, m.msg.msg_type(), "pixel interpolator query")),
        _ => Err(unmodelled(call, 0, "shared function")),
    }?;
    check(
        call,
        "rlen",
        u32::from(common.rlen),
        reply.regs.len() as u32,
        "the message",
    )?;
    reply.end_of_thread |= common.eot || call.eot;
    Ok(reply)
}

/// A message (or form of one) the simulator does not model.
fn unmodelled(call: &MessageCall<'_>, msg_type: u8, what: &'static str) -> SimError {
    SimError::UnmodelledMessage {
        offset: call.offset,
        sfid: call.sfid.hw(),
        msg_type: u32::from(msg_type),
        what,
    }
}

/// A payload the message cannot carry out.
fn payload_error(call: &MessageCall<'_>, what: &'static str) -> SimError {
    SimError::Payload {
        offset: call.offset,
        what,
    }
}

/// Refuses a length that differs from what the message needs.
fn check(
    call: &MessageCall<'_>,
    field: &'static str,
    value: u32,
    expected: u32,
    what: &'static str,
) -> Result<(), SimError> {
    if value != expected {
        return Err(SimError::Length {
            offset: call.offset,
            field,
            value,
            expected,
            what,
        });
    }
    Ok(())
}

/// Checks the descriptor's `mlen` against what the message needs.
fn check_mlen(call: &MessageCall<'_>, common: &Common, expected: u32, what: &'static str) -> Result<(), SimError> {
    check(call, "mlen", u32::from(common.mlen), expected, what)
}

/// Checks the descriptor's `rlen` against the response the message
/// returns, before a message with side effects makes them.
fn check_rlen(call: &MessageCall<'_>, common: &Common, expected: u32) -> Result<(), SimError> {
    check(call, "rlen", u32::from(common.rlen), expected, "the message")
}

/// Refuses a message without the header it needs.
fn need_header(call: &MessageCall<'_>, common: &Common, what: &'static str) -> Result<(), SimError> {
    if !common.header {
        return Err(payload_error(call, what));
    }
    Ok(())
}

/// Dword `dw` (0..=7) of payload register `reg`; zero past the payload
/// (whose length [`execute`] has checked against `mlen`).
fn pdw(call: &MessageCall<'_>, reg: usize, dw: usize) -> u32 {
    call.payload
        .get(reg)
        .and_then(|r| r.get(dw * DW..dw * DW + DW))
        .and_then(|b| b.try_into().ok())
        .map_or(0, u32::from_le_bytes)
}

/// The bytes of payload register `reg` (zeros past the payload).
fn preg(call: &MessageCall<'_>, reg: usize) -> [u8; GRF] {
    call.payload.get(reg).copied().unwrap_or([0; GRF])
}

/// Dword `slot` of a per-slot operand that starts at payload register
/// `reg`: eight slots per register.
fn slot_dw(call: &MessageCall<'_>, reg: usize, slot: usize) -> u32 {
    pdw(call, reg + slot / GRF_DWORDS, slot % GRF_DWORDS)
}

/// Qword `slot` of a per-slot 64-bit operand (A64 addresses) that starts at
/// payload register `reg`: four slots per register.
fn slot_qw(call: &MessageCall<'_>, reg: usize, slot: usize) -> u64 {
    let r = reg + slot / (GRF_DWORDS / 2);
    let d = slot % (GRF_DWORDS / 2) * 2;
    u64::from(pdw(call, r, d)) | u64::from(pdw(call, r, d + 1)) << 32
}

/// Whether channel `slot` of the instruction is enabled.
fn enabled(call: &MessageCall<'_>, slot: usize) -> bool {
    slot < 32 && call.channel_mask >> slot & 1 != 0
}

/// The response being built: `regs` registers of zeros at first (what a
/// disabled slot or an unspecified response returns).
struct Reply(Vec<[u8; GRF]>);

impl Reply {
    fn new(regs: u32) -> Reply {
        Reply(vec![[0; GRF]; regs as usize])
    }

    fn set_dw(&mut self, reg: usize, dw: usize, v: u32) {
        if let Some(b) = self.0.get_mut(reg).and_then(|r| r.get_mut(dw * DW..dw * DW + DW)) {
            b.copy_from_slice(&v.to_le_bytes());
        }
    }

    /// Sets dword `slot` of a per-slot value starting at register `reg`.
    fn set_slot(&mut self, reg: usize, slot: usize, v: u32) {
        self.set_dw(reg + slot / GRF_DWORDS, slot % GRF_DWORDS, v);
    }

    /// Copies `bytes` to byte `at` of the response (registers back to back).
    fn set_bytes(&mut self, at: usize, bytes: &[u8]) {
        for (i, &b) in bytes.iter().enumerate() {
            let a = at + i;
            if let Some(x) = self.0.get_mut(a / GRF).and_then(|r| r.get_mut(a % GRF)) {
                *x = b;
            }
        }
    }

    fn done(self) -> Result<MessageReply, SimError> {
        Ok(MessageReply {
            regs: self.0,
            barrier: false,
            end_of_thread: false,
        })
    }
}

/// The largest scratch space a thread may use (Gen7-Gen8: 2 MiB per thread).
const SCRATCH_MAX: u64 = 2 * 1024 * 1024;

/// Where a data port message's addresses point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Space {
    /// The surface bound at this binding table index (bounds-checked).
    Surface(u8),
    /// The thread group's shared local memory (bounds-checked).
    Slm,
    /// Flat memory: the address plus this base (stateless A32, or A64 with
    /// base 0); unmapped bytes are an error.
    Flat(u64),
    /// The thread's scratch space.
    Scratch,
}

impl Space {
    /// The space a binding table index names on the call's platform.
    fn of_bti(call: &MessageCall<'_>, mem: &Memory, bti: u8) -> Space {
        match ReservedBti::of(call.platform, bti) {
            Some(ReservedBti::Slm) => Space::Slm,
            Some(_) => Space::Flat(mem.stateless_base),
            None => Space::Surface(bti),
        }
    }

    /// The shared region (recorded while a group's accesses are) of
    /// address `addr`: `None` for the group's and thread's own spaces.
    fn region(self, addr: u64) -> Option<(Region, u64)> {
        match self {
            Space::Surface(bti) => Some((Region::Surface(bti), addr)),
            Space::Flat(base) => Some((Region::Flat, base.wrapping_add(addr))),
            Space::Slm | Space::Scratch => None,
        }
    }

    /// Reads `out.len()` bytes at `addr`: zeros when a bounds-checked space
    /// does not hold them all.
    fn read(self, call: &MessageCall<'_>, mem: &mut Memory, addr: u64, out: &mut [u8]) -> Result<(), SimError> {
        let len = out.len();
        let shared = self.region(addr);
        if let Some((region, at)) = shared {
            mem.note_read(region, at, len);
        }
        let mem = &*mem;
        let src: Option<&[u8]> = match self {
            Space::Surface(bti) => {
                let s = mem.surface(bti).ok_or(SimError::UnboundSurface {
                    offset: call.offset,
                    bti,
                })?;
                range(s.data(), addr, len)
            }
            Space::Slm => mem.slm(call.group).and_then(|m| range(m, addr, len)),
            Space::Scratch => {
                // Scratch reads past what the thread wrote read zeros.
                let s = mem.scratch(call.thread).unwrap_or(&[]);
                out.fill(0);
                let start = usize::try_from(addr).unwrap_or(usize::MAX).min(s.len());
                let avail = s.get(start..).unwrap_or(&[]);
                let n = avail.len().min(len);
                if let (Some(o), Some(a)) = (out.get_mut(..n), avail.get(..n)) {
                    o.copy_from_slice(a);
                }
                return Ok(());
            }
            Space::Flat(base) => {
                let a = base.wrapping_add(addr);
                Some(mem.read_flat(a, len).ok_or(SimError::Unmapped {
                    offset: call.offset,
                    address: a,
                    bytes: len as u32,
                })?)
            }
        };
        match src {
            Some(s) => {
                out.copy_from_slice(s);
                // A group's view: what the group itself wrote.
                if let Some((region, at)) = shared {
                    mem.patch_read(region, at, out);
                }
            }
            None => out.fill(0),
        }
        Ok(())
    }

    /// Writes `data` at `addr`: dropped when a bounds-checked space does
    /// not hold it all.
    fn write(self, call: &MessageCall<'_>, mem: &mut Memory, addr: u64, data: &[u8]) -> Result<(), SimError> {
        let len = data.len();
        if let Some((region, at)) = self.region(addr) {
            mem.note_write(region, at, len);
            if mem.paged(region) {
                // A group's view: into its own pages, where the shared
                // bytes hold it all (bounds as below).
                let inside = match self {
                    Space::Surface(bti) => {
                        let s = mem.surface(bti).ok_or(SimError::UnboundSurface {
                            offset: call.offset,
                            bti,
                        })?;
                        range(s.data(), addr, len).is_some()
                    }
                    _ => {
                        mem.read_flat(at, len).ok_or(SimError::Unmapped {
                            offset: call.offset,
                            address: at,
                            bytes: len as u32,
                        })?;
                        true
                    }
                };
                if inside {
                    mem.write_paged(region, at, data);
                }
                return Ok(());
            }
        }
        let dst: Option<&mut [u8]> = match self {
            Space::Surface(bti) => {
                let s = mem.surface_bytes_mut(bti).ok_or(SimError::UnboundSurface {
                    offset: call.offset,
                    bti,
                })?;
                range_mut(s, addr, len)
            }
            Space::Slm => range_mut(mem.slm_mut(call.group), addr, len),
            Space::Scratch => {
                let end = addr.saturating_add(len as u64);
                if end > SCRATCH_MAX {
                    return Err(payload_error(call, "scratch access beyond the 2 MiB per-thread space"));
                }
                let s = mem.scratch_mut(call.thread);
                if (s.len() as u64) < end {
                    s.resize(end as usize, 0);
                }
                range_mut(s, addr, len)
            }
            Space::Flat(base) => {
                let a = base.wrapping_add(addr);
                Some(mem.flat_mut(a, len).ok_or(SimError::Unmapped {
                    offset: call.offset,
                    address: a,
                    bytes: len as u32,
                })?)
            }
        };
        if let Some(d) = dst {
            d.copy_from_slice(data);
        }
        Ok(())
    }

    fn read_u32(self, call: &MessageCall<'_>, mem: &mut Memory, addr: u64) -> Result<u32, SimError> {
        let mut b = [0; DW];
        self.read(call, mem, addr, &mut b)?;
        Ok(u32::from_le_bytes(b))
    }

    fn write_u32(self, call: &MessageCall<'_>, mem: &mut Memory, addr: u64, v: u32) -> Result<(), SimError> {
        self.write(call, mem, addr, &v.to_le_bytes())
    }
}

/// `len` bytes at `addr` of `data`, if all inside.
fn range(data: &[u8], addr: u64, len: usize) -> Option<&[u8]> {
    let a = usize::try_from(addr).ok()?;
    data.get(a..a.checked_add(len)?)
}

fn range_mut(data: &mut [u8], addr: u64, len: usize) -> Option<&mut [u8]> {
    let a = usize::try_from(addr).ok()?;
    data.get_mut(a..a.checked_add(len)?)
}
