//! Lowering of vISA `GATHER4_TYPED` to a typed surface read SEND.
//!
//! `GATHER4_TYPED.<channels> (8) surface U V R LOD dst` reads, for each of
//! 8 channels, the enabled components (R, G, B, A) of the texel at
//! (U, V, R, LOD) of a typed surface. It becomes one typed surface read:
//! data cache 1 (SFID 12) on Gen7.5 and Gen8, the render cache (SFID 5) on
//! Ivy Bridge.
//!
//! Payload, starting at [`Gather4Typed::payload`], one GRF each: the
//! message header (required before Gen9: zeros, except the pixel/sample
//! mask in dword 7 bits 15:0), then U, then V, R and LOD up to the last one
//! given (an offset that is not given but precedes a given one still takes
//! its GRF, which the hardware ignores). The response is one GRF per
//! enabled channel, in RGBA order, from [`Gather4Typed::dst`].
//!
//! Typed surface messages are eight slots wide on Gen7-Gen8, and vISA
//! defines `GATHER4_TYPED` for 8 channels; the channel offset of the vISA
//! execution mask selects the low or high slot group.

use super::dataport::{Channels, TypedSlotGroup};
use super::{Common, DataCache1, Dc1Op, Message, MsgError, Render, RenderOp, ReservedBti, Sfid};
use crate::isa::region::{HSTRIDE_1, VSTRIDE_8, WIDTH_8};
use crate::model::{
    channel_group_codes, AccessMode, Controls, Dst, ExecSize, FlagReg, Instruction, Opcode, Platform, PredCtrl, Region,
    Src, Type,
};

/// The surface operand of a vISA surface message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Surface {
    /// A surface bound at this binding table index.
    Bti(u32),
    /// Shared local memory (vISA `T0`).
    Slm,
    /// Stateless memory (vISA `T5`).
    Stateless,
}

/// A predicate: a flag subregister, normal or inverted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Predicate {
    /// The flag subregister.
    pub flag: FlagReg,
    /// Invert the predicate.
    pub invert: bool,
}

/// Which of the optional address operands V, R and LOD are given (U is
/// always given). An operand that is not given is vISA's null variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct GatherOffsets {
    /// V is given.
    pub v: bool,
    /// R is given.
    pub r: bool,
    /// LOD is given.
    pub lod: bool,
}

impl GatherOffsets {
    /// Number of address GRFs per 8 channels: U, then V, R and LOD up to the
    /// last one given.
    pub const fn regs(self) -> u8 {
        if self.lod {
            4
        } else if self.r {
            3
        } else if self.v {
            2
        } else {
            1
        }
    }
}

/// A vISA `GATHER4_TYPED` instruction, with its operands already placed in
/// registers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Gather4Typed {
    /// Execution size: 8 channels.
    pub exec_size: ExecSize,
    /// First channel of the execution mask (vISA `M1`, `M3`, `M5`, `M7`: 0,
    /// 8, 16 or 24).
    pub channel_offset: u8,
    /// Execute regardless of the execution mask (vISA `_NM`).
    pub no_mask: bool,
    /// Predication.
    pub pred: Option<Predicate>,
    /// vISA channel enable mask: bit 0 R ... bit 3 A; at least one set.
    pub channels: u8,
    /// The typed surface (not SLM, not stateless).
    pub surface: Surface,
    /// Which optional address operands are given.
    pub offsets: GatherOffsets,
    /// First GRF of the payload (header, U, V, R, LOD).
    pub payload: u8,
    /// First GRF of the destination.
    pub dst: u8,
    /// Destination type: UD, D or F.
    pub dst_type: Type,
}

/// The lowered gather: the SEND, its typed descriptor and payload layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TypedGather {
    /// The SEND instruction (descriptor in `imm`, SFID in `cond_modifier`).
    pub send: Instruction,
    /// The typed message descriptor.
    pub message: Message,
    /// GRF of the header.
    pub header: u8,
    /// GRF of U.
    pub u: u8,
    /// GRF of V, if the payload has one.
    pub v: Option<u8>,
    /// GRF of R, if the payload has one.
    pub r: Option<u8>,
    /// GRF of LOD, if the payload has one.
    pub lod: Option<u8>,
}

fn invalid<T>(field: &'static str, reason: &'static str) -> Result<T, MsgError> {
    Err(MsgError::Invalid { field, reason })
}

fn bti(p: Platform, s: Surface) -> Result<u8, MsgError> {
    match s {
        Surface::Slm => invalid("surface", "GATHER4_TYPED cannot read shared local memory (T0)"),
        Surface::Stateless => invalid("surface", "GATHER4_TYPED cannot read stateless memory (T5)"),
        Surface::Bti(n) => {
            let Ok(b) = u8::try_from(n) else {
                return Err(MsgError::Range {
                    field: "binding table index",
                    value: n as i64,
                    min: 0,
                    max: i64::from(u8::MAX),
                });
            };
            match ReservedBti::of(p, b) {
                Some(ReservedBti::Slm) => invalid(
                    "surface",
                    "binding table index 254 is shared local memory, not a typed surface",
                ),
                Some(_) => invalid(
                    "surface",
                    "this binding table index is stateless memory, not a typed surface",
                ),
                None => Ok(b),
            }
        }
    }
}

/// The last GRF of a block of `n` registers from `first` must exist.
fn grf_range(field: &'static str, first: u8, n: u8) -> Result<(), MsgError> {
    let last = first as i64 + n as i64 - 1;
    if last > i64::from(crate::isa::GRF_LAST) {
        return Err(MsgError::Range {
            field,
            value: first as i64,
            min: 0,
            max: i64::from(crate::isa::GRF_COUNT) - n as i64,
        });
    }
    Ok(())
}

/// Lowers `GATHER4_TYPED` on `p` to a typed surface read SEND that
/// [`crate::encode`] accepts.
///
/// Refuses what the vISA specification forbids: no channel enabled (or a
/// channel bit above A), an SLM or stateless surface, an execution size
/// other than 8, a destination type other than UD, D or F; and what the
/// encoding cannot hold (a binding table index above 255, registers past
/// g127, a channel offset that is not 0, 8, 16 or 24).
pub fn gather4_typed(p: Platform, g: &Gather4Typed) -> Result<TypedGather, MsgError> {
    if g.exec_size != ExecSize::S8 {
        return invalid(
            "exec size",
            "GATHER4_TYPED takes 8 channels: typed surface messages are eight slots wide before Gen9",
        );
    }
    let all = Channels::RGBA.bits();
    if g.channels & all == 0 {
        return invalid("channels", "at least one of R, G, B, A must be enabled");
    }
    if g.channels > all {
        return Err(MsgError::Range {
            field: "channels",
            value: g.channels as i64,
            min: 1,
            max: all as i64,
        });
    }
    if !matches!(g.dst_type, Type::UD | Type::D | Type::F) {
        return invalid("dst type", "GATHER4_TYPED writes UD, D or F");
    }
    // The message reads 8 channels: a group of 8 of the 32 (M1, M3, M5, M7).
    let group = channel_group_codes(ExecSize::S8, u32::from(g.channel_offset));
    let Some((quarter, _)) = group else {
        return Err(MsgError::Range {
            field: "channel offset",
            value: g.channel_offset as i64,
            min: 0,
            max: i64::from(ExecSize::S32.channels() - ExecSize::S8.channels()),
        });
    };
    let bti = bti(p, g.surface)?;
    let channels = Channels::from_bits_truncate(g.channels);
    let addr_regs = g.offsets.regs();
    let mlen = 1 + addr_regs;
    let rlen = channels.count() as u8;
    grf_range("payload", g.payload, mlen)?;
    grf_range("dst", g.dst, rlen)?;
    // The typed read's slot group: the second 8 of a 16-channel half.
    let high = quarter % 2 == 1;
    let common = Common::new(mlen, rlen, true);
    let message = if p.is_gen75_or_later() {
        Message::DataCache1(DataCache1 {
            platform: p,
            common,
            bti,
            op: Dc1Op::TypedSurfaceRead {
                channels,
                slot_group: if high {
                    TypedSlotGroup::High
                } else {
                    TypedSlotGroup::Low
                },
            },
        })
    } else {
        Message::Render(Render {
            platform: p,
            common,
            bti,
            op: RenderOp::TypedSurfaceRead {
                channels,
                high_slot_group: high,
            },
        })
    };
    let desc = message.desc()?;
    let mut send = Instruction::new(Opcode::Send, ExecSize::S8);
    send.access_mode = AccessMode::Align1;
    // Quarter control of channel `channel_offset`, checked above.
    let started = send.set_first_channel(u32::from(g.channel_offset));
    debug_assert!(started);
    send.cond_modifier = if p.is_gen75_or_later() {
        Sfid::DataCache1.hw()
    } else {
        Sfid::RenderCache.hw()
    };
    if g.no_mask {
        send.controls |= Controls::WE_ALL;
    }
    if let Some(pr) = g.pred {
        let predicated = send.set_pred_ctrl(Some(PredCtrl::Normal));
        debug_assert!(predicated);
        send.flag = pr.flag;
        if pr.invert {
            send.controls |= Controls::PRED_INV;
        }
    }
    send.dst = Dst::grf(g.dst, 0, g.dst_type);
    // <8;8,1>: one dword per channel.
    let region = Region {
        vstride: VSTRIDE_8,
        width: WIDTH_8,
        hstride: HSTRIDE_1,
    };
    send.src[0] = Src::grf(g.payload, 0, Type::UD, region);
    send.src[1] = Src::imm(Type::UD);
    send.imm = desc as u64;
    let at = |i: u8| g.payload + 1 + i;
    Ok(TypedGather {
        send,
        message,
        header: g.payload,
        u: at(0),
        v: (addr_regs > 1).then(|| at(1)),
        r: (addr_regs > 2).then(|| at(2)),
        lod: (addr_regs > 3).then(|| at(3)),
    })
}

impl Gather4Typed {
    /// An 8-channel gather with no predicate and the low channel group.
    pub const fn new(channels: u8, surface: Surface, offsets: GatherOffsets, payload: u8, dst: u8) -> Self {
        Gather4Typed {
            exec_size: ExecSize::S8,
            channel_offset: 0,
            no_mask: false,
            pred: None,
            channels,
            surface,
            offsets,
            payload,
            dst,
            dst_type: Type::UD,
        }
    }
}
