//! SEND message descriptors: typed builders and decoders per shared function.
//!
//! A SEND/SENDC names a shared function with its SFID (instruction bits
//! 27:24) and describes the message with a 32-bit descriptor, numbered here
//! in descriptor bits 0..31 as the hardware documentation numbers them
//! (descriptor bit N is instruction bit 96+N when the descriptor is an
//! immediate). The field layouts live in `tables/desc_*.tbl` and are read
//! and written through the accessors that `build.rs` generates
//! ([`crate::word::fields`]).
//!
//! Common fields (every shared function, [`Common`]): EOT (bit 31), message
//! length (28:25), response length (24:20), header present (19). Gen7 and
//! Gen8 have no separate extended descriptor: its two pieces, the SFID and
//! EOT, stay in the instruction (bits 27:24 and 127).
//!
//! # Typed descriptors
//!
//! [`Message`] is the typed view of a (platform, SFID, descriptor) triple,
//! one variant per shared function:
//!
//! | SFID | variant | type |
//! |---|---|---|
//! | 2 | [`Message::Sampler`] | [`Sampler`] |
//! | 3 | [`Message::Gateway`] | [`Gateway`] |
//! | 4 | [`Message::SamplerCache`] | [`DpRead`] |
//! | 5 | [`Message::Render`] | [`Render`] |
//! | 6 | [`Message::Urb`] | [`Urb`] |
//! | 7 | [`Message::ThreadSpawner`] | [`ThreadSpawner`] |
//! | 9 | [`Message::ConstantCache`] | [`DpRead`] |
//! | 10 | [`Message::DataCache0`] | [`DataCache0`] |
//! | 11 | [`Message::PixelInterp`] | [`PixelInterp`] (Gen7.5+) |
//! | 12 | [`Message::DataCache1`] | [`DataCache1`] (Gen7.5+) |
//! | other | [`Message::Unknown`] | raw SFID and descriptor |
//!
//! Every typed descriptor carries its [`Platform`] and implements
//! [`Descriptor`]: `desc()` builds the 32 bits (refusing, with the field
//! named, a value out of range or an encoding reserved on the platform) and
//! `decode(p, desc)` reads them back. The two round-trip:
//! `decode(p, d.desc()?) == d`, and a descriptor that decodes re-encodes to
//! the same 32 bits. [`Message::decode`] never fails on a message it does
//! not model (unknown SFID, reserved message type, bits with no meaning in
//! the model): it returns [`Message::Unknown`] with the raw bits, so the
//! disassembly of a real binary never fails.
//!
//! ```
//! use geneu::msg::{Common, Descriptor, Message, Urb, UrbOpcode};
//! use geneu::Platform;
//!
//! // A Gen8 SIMD8 URB write at offset 1, five payload GRFs, ending the thread.
//! let mut urb = Urb::new(Platform::Gen8, Common::new(5, 0, true).with_eot(), UrbOpcode::Simd8Write);
//! urb.global_offset = 1;
//! assert_eq!(urb.desc(), Ok(0x8a08_0017));
//!
//! let m = Message::decode(Platform::Gen8, 6, 0x8a08_0017).unwrap();
//! assert_eq!(m, Message::Urb(urb));
//! assert_eq!(
//!     m.mesa(Platform::Gen8).unwrap().to_string(),
//!     "urb MsgDesc: 1 SIMD8 write mlen 5 rlen 0"
//! );
//! // SFID 8 (VME) is not modelled: the raw bits are kept.
//! assert!(!Message::decode(Platform::Gen8, 8, 0x0210_0000).unwrap().is_typed());
//! ```
//!
//! # Mesa's `MsgDesc:` text
//!
//! [`write_msg_desc`] writes the message-descriptor comment that Mesa's
//! disassembler prints on the continuation line of a SEND, from the SFID
//! name to the response length, for example
//! `urb MsgDesc: 0 write HWord interleave complete mlen 3 rlen 0` or
//! `dp data 1 MsgDesc: ( DC typed surface write, Surface = 1, SIMD16, Mask = 0x0) mlen 7 rlen 0`.
//! It writes neither the indentation before it nor the padding and
//! `{ ... };` options block after it. A descriptor held in a register
//! (src1 = `a0.0`) prints as `<sfid> MsgDesc: indirect`.
//!
//! **Counted width.** Mesa pads the options block to column 64 using a
//! column counter that does not count its `*** invalid <what> value <n> `
//! error texts. [`write_msg_desc_counted`] (and [`msg_desc_text`]) return
//! how many of the written characters count toward that column; the
//! `{` then goes at `max(16 + counted + 1, 64)` counted columns, the 16
//! being the counted part of the line's indentation. Without an error text
//! the counted width is simply the text's length.
//!
//! # Typed gather
//!
//! [`gather4_typed`] lowers vISA `GATHER4_TYPED` to a typed surface read
//! SEND ([`Gather4Typed`]).
//!
//! # Reserved binding table indices
//!
//! [`BTI_SLM`], [`BTI_STATELESS`], [`BTI_STATELESS_NON_COHERENT`] and the
//! other Haswell stateless indices; [`ReservedBti::of`] classifies one per
//! platform.

use core::fmt;

use crate::model::Platform;
use crate::word::fields::desc_common as dc;
use crate::word::{FieldError, FieldInfo};

mod dataport;
mod dc0;
mod dc1;
mod fields;
mod gather;
mod misc;
mod print;
mod render;
mod sampler;
mod urb;

pub use dataport::{
    AtomicOp, Channels, DpRead, DpReadOp, DualBlockSize, OwordBlockSize, ScatteredDataSize, SurfaceSimd, TypedSlotGroup,
};
pub use dc0::{DataCache0, Dc0Op, ScratchBlock, ScratchRegs};
pub use dc1::{A64ScatteredSubtype, DataCache1, Dc1Op};
pub use fields::{desc_fields, DescField};
pub use gather::{gather4_typed, Gather4Typed, GatherOffsets, Predicate, Surface, TypedGather};
pub use misc::{Gateway, GatewayOp, PiMessage, PixelInterp, ThreadSpawner, TsOpcode};
pub use print::{msg_desc_text, write_msg_desc, write_msg_desc_counted, write_msg_desc_raw, MsgDescDisplay};
pub use render::{Render, RenderOp, RtWriteSubtype};
pub use sampler::{ReturnFormat, Sampler, SamplerMsgType, SamplerSimd};
pub use urb::{Urb, UrbOpcode};

/// Binding table index of shared local memory (vISA `T0`), Gen7+.
pub const BTI_SLM: u8 = 254;
/// Binding table index of stateless (A32 flat) access, Gen7+ (vISA `T5`).
/// Haswell: locally coherent; Gen8: IA-coherent.
pub const BTI_STATELESS: u8 = 255;
/// Stateless, non-coherent: Haswell and Gen8.
pub const BTI_STATELESS_NON_COHERENT: u8 = 253;
/// Stateless, globally coherent: Haswell only.
pub const HSW_BTI_STATELESS_GLOBALLY_COHERENT: u8 = 252;
/// Stateless, LLC coherent: Haswell only.
pub const HSW_BTI_STATELESS_LLC_COHERENT: u8 = 251;
/// Stateless, L3 uncached: Haswell only.
pub const HSW_BTI_STATELESS_L3_UNCACHED: u8 = 250;

/// A binding table index with a fixed meaning on a platform.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ReservedBti {
    /// Shared local memory.
    Slm,
    /// Stateless access (the default coherence of the platform).
    Stateless,
    /// Stateless, non-coherent.
    StatelessNonCoherent,
    /// Stateless, globally coherent (Haswell).
    StatelessGloballyCoherent,
    /// Stateless, LLC coherent (Haswell).
    StatelessLlcCoherent,
    /// Stateless, L3 uncached (Haswell).
    StatelessL3Uncached,
}

impl ReservedBti {
    /// What `bti` means on `p`, if it is one of the reserved indices.
    pub const fn of(p: Platform, bti: u8) -> Option<ReservedBti> {
        match (bti, p) {
            (BTI_SLM, _) => Some(ReservedBti::Slm),
            (BTI_STATELESS, _) => Some(ReservedBti::Stateless),
            (BTI_STATELESS_NON_COHERENT, Platform::Gen75 | Platform::Gen8 | Platform::Chv) => {
                Some(ReservedBti::StatelessNonCoherent)
            }
            (HSW_BTI_STATELESS_GLOBALLY_COHERENT, Platform::Gen75) => Some(ReservedBti::StatelessGloballyCoherent),
            (HSW_BTI_STATELESS_LLC_COHERENT, Platform::Gen75) => Some(ReservedBti::StatelessLlcCoherent),
            (HSW_BTI_STATELESS_L3_UNCACHED, Platform::Gen75) => Some(ReservedBti::StatelessL3Uncached),
            _ => None,
        }
    }

    /// Whether this index is a stateless one.
    pub const fn is_stateless(self) -> bool {
        !matches!(self, ReservedBti::Slm)
    }
}

/// Why a descriptor cannot be built or decoded into a typed value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub enum MsgError {
    /// A value does not fit its descriptor field.
    #[error("{value} does not fit descriptor field {field} ({} bits)", field.width)]
    Field {
        /// The field, with its descriptor bits.
        field: &'static FieldInfo,
        /// The refused value.
        value: u64,
    },
    /// A value outside the range its field accepts.
    #[error("{field} = {value} is outside {min}..={max}")]
    Range {
        /// The field.
        field: &'static str,
        /// The refused value.
        value: i64,
        /// Smallest accepted value.
        min: i64,
        /// Largest accepted value.
        max: i64,
    },
    /// An encoding that is reserved (or not modelled) on the platform.
    #[error("{field} {value} is reserved on {platform}")]
    Reserved {
        /// The field.
        field: &'static str,
        /// The reserved encoding.
        value: u32,
        /// The platform.
        platform: Platform,
    },
    /// A field value that the message cannot have.
    #[error("{field}: {reason}")]
    Invalid {
        /// The field.
        field: &'static str,
        /// Why the value is refused.
        reason: &'static str,
    },
    /// The shared function does not exist on the platform, or is not modelled.
    #[error("shared function {sfid} has no typed descriptor on {platform}")]
    Function {
        /// The SFID.
        sfid: u8,
        /// The platform.
        platform: Platform,
    },
    /// The descriptor sets bits that the typed message does not model (they
    /// would be lost by a round trip).
    #[error("descriptor {desc:#010x}: bits {} have no meaning in this message", BitList(*.mask))]
    Unmodelled {
        /// The descriptor.
        desc: u32,
        /// The bits that differ from the re-encoded typed value.
        mask: u32,
    },
}

impl MsgError {
    /// A stable snake_case name of the variant (see
    /// [`crate::DecodeError::kind`]).
    pub const fn kind(&self) -> &'static str {
        match self {
            MsgError::Field { .. } => "descriptor_value_too_wide",
            MsgError::Range { .. } => "descriptor_out_of_range",
            MsgError::Reserved { .. } => "descriptor_reserved",
            MsgError::Invalid { .. } => "descriptor_invalid",
            MsgError::Function { .. } => "untyped_function",
            MsgError::Unmodelled { .. } => "descriptor_unmodelled_bits",
        }
    }
}

impl From<FieldError> for MsgError {
    fn from(e: FieldError) -> Self {
        MsgError::Field {
            field: e.field,
            value: e.value,
        }
    }
}

/// Formats a 32-bit mask as descriptor bit ranges, high first.
struct BitList(u32);

impl fmt::Display for BitList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        crate::error::BitList(self.0 as u128).fmt(f)
    }
}

/// Shared function IDs: defined on the ISA vocabulary floor, named here too.
pub use crate::isa::Sfid;

/// `Display` and `FromStr` of the message kinds by the names Mesa prints
/// (their `mesa_name`), looked up among the kind's values, so printing and
/// parsing cannot disagree.
macro_rules! mesa_names {
    ($($t:ty => $what:literal,)*) => {$(
        impl fmt::Display for $t {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.mesa_name())
            }
        }
        impl core::str::FromStr for $t {
            type Err = crate::error::UnknownName;
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                crate::display::lookup(<$t>::ALL, |v| Some(v.mesa_name()), $what, s)
            }
        }
    )*};
}

mesa_names! {
    AtomicOp => "atomic operation",
    GatewayOp => "gateway operation",
    RtWriteSubtype => "render target write type",
    SamplerMsgType => "sampler message",
    SamplerSimd => "sampler SIMD mode",
    UrbOpcode => "URB opcode",
}

/// The descriptor fields every message has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Common {
    /// Message length in GRFs, header included (0..=15).
    pub mlen: u8,
    /// Response length in GRFs (0..=31).
    pub rlen: u8,
    /// The first payload GRF is a message header.
    pub header: bool,
    /// End of thread.
    pub eot: bool,
}

impl Common {
    /// Lengths and header, without EOT.
    pub const fn new(mlen: u8, rlen: u8, header: bool) -> Common {
        Common {
            mlen,
            rlen,
            header,
            eot: false,
        }
    }

    /// The same fields with EOT set.
    pub const fn with_eot(mut self) -> Common {
        self.eot = true;
        self
    }

    /// Reads the common fields of a descriptor.
    pub const fn decode(desc: u32) -> Common {
        Common {
            mlen: dc::mlen(desc),
            rlen: dc::rlen(desc),
            header: dc::header_present(desc) != 0,
            eot: dc::eot(desc) != 0,
        }
    }

    /// The common fields as descriptor bits (everything else zero).
    pub fn encode(&self) -> Result<u32, MsgError> {
        let mut w = 0;
        dc::set_mlen(&mut w, self.mlen)?;
        dc::set_rlen(&mut w, self.rlen)?;
        dc::set_header_present(&mut w, self.header as u8)?;
        dc::set_eot(&mut w, self.eot as u8)?;
        Ok(w)
    }
}

/// A typed message descriptor of one shared function.
pub trait Descriptor: Sized {
    /// The shared functions whose descriptors this type describes.
    const SFIDS: &'static [Sfid];

    /// Decodes a descriptor of platform `p` without checking the SFID.
    /// Fails, naming the field, on an encoding that is reserved on `p` or
    /// not modelled, and on bits that would not survive re-encoding.
    fn decode_desc(p: Platform, desc: u32) -> Result<Self, MsgError>;

    /// Decodes the descriptor of a message to `sfid` on platform `p`: as
    /// [`Descriptor::decode_desc`], refusing an SFID of another function.
    fn decode(p: Platform, sfid: u8, desc: u32) -> Result<Self, MsgError> {
        if !Self::SFIDS.iter().any(|s| s.hw() == sfid) {
            return Err(MsgError::Function { sfid, platform: p });
        }
        Self::decode_desc(p, desc)
    }

    /// Builds the 32-bit descriptor, EOT included.
    fn desc(&self) -> Result<u32, MsgError>;
    /// The platform the descriptor is for.
    fn platform(&self) -> Platform;
    /// The common fields.
    fn common(&self) -> Common;
}

pub(crate) use crate::model::SFID_MAX;

/// Refuses an SFID that does not fit its 4-bit field.
fn check_sfid(sfid: u8) -> Result<(), MsgError> {
    if sfid > SFID_MAX {
        return Err(MsgError::Range {
            field: "sfid",
            value: sfid as i64,
            min: 0,
            max: SFID_MAX as i64,
        });
    }
    Ok(())
}

/// Finishes a decoder: the typed value must re-encode to the same bits.
pub(crate) fn verified<T: Descriptor>(t: T, desc: u32) -> Result<T, MsgError> {
    let built = t.desc()?;
    if built != desc {
        return Err(MsgError::Unmodelled {
            desc,
            mask: built ^ desc,
        });
    }
    Ok(t)
}

/// Reads a boolean (one-bit) field.
#[inline]
pub(crate) const fn flag(v: u8) -> bool {
    v != 0
}

/// Refuses a reserved encoding, naming the field.
pub(crate) fn reserved<T>(field: &'static str, value: u32, platform: Platform) -> Result<T, MsgError> {
    Err(MsgError::Reserved { field, value, platform })
}

/// Turns an undefined enum encoding into a [`MsgError::Reserved`].
pub(crate) fn known<T>(v: Option<T>, field: &'static str, value: u32, platform: Platform) -> Result<T, MsgError> {
    v.ok_or(MsgError::Reserved { field, value, platform })
}

pub(crate) use crate::isa::hw_enum;

/// A typed SEND message: one variant per shared function, or the raw bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub enum Message {
    /// Sampling engine (SFID 2).
    Sampler(Sampler),
    /// Message gateway (SFID 3).
    Gateway(Gateway),
    /// Data port, sampler cache (SFID 4).
    SamplerCache(DpRead),
    /// Data port, render cache (SFID 5).
    Render(Render),
    /// URB (SFID 6).
    Urb(Urb),
    /// Thread spawner (SFID 7).
    ThreadSpawner(ThreadSpawner),
    /// Data port, constant cache (SFID 9).
    ConstantCache(DpRead),
    /// Data port, data cache 0 (SFID 10).
    DataCache0(DataCache0),
    /// Pixel interpolator (SFID 11, Gen7.5+).
    PixelInterp(PixelInterp),
    /// Data port, data cache 1 (SFID 12, Gen7.5+).
    DataCache1(DataCache1),
    /// A message this crate does not model: an unknown or unmodelled SFID,
    /// a reserved message type, or bits with no meaning in the typed view.
    Unknown {
        /// The SFID (0..=15).
        sfid: u8,
        /// The whole descriptor, EOT included.
        desc: u32,
    },
}

impl Message {
    /// Decodes the descriptor `desc` of a message to `sfid` on `p`.
    ///
    /// Never fails on a message it does not model: those give
    /// [`Message::Unknown`] with the raw bits. Fails only when `sfid` does
    /// not fit the 4-bit SFID field.
    pub fn decode(p: Platform, sfid: u8, desc: u32) -> Result<Message, MsgError> {
        check_sfid(sfid)?;
        Ok(Message::decode_typed(p, sfid, desc).unwrap_or(Message::Unknown { sfid, desc }))
    }

    /// Decodes into a typed value or says why it cannot: the error names
    /// the reserved field, or the bits the typed view does not model.
    pub fn decode_typed(p: Platform, sfid: u8, desc: u32) -> Result<Message, MsgError> {
        check_sfid(sfid)?;
        match Sfid::from_hw(sfid) {
            Some(Sfid::Sampler) => Sampler::decode_desc(p, desc).map(Message::Sampler),
            Some(Sfid::Gateway) => Gateway::decode_desc(p, desc).map(Message::Gateway),
            Some(Sfid::SamplerCache) => DpRead::decode_desc(p, desc).map(Message::SamplerCache),
            Some(Sfid::RenderCache) => Render::decode_desc(p, desc).map(Message::Render),
            Some(Sfid::Urb) => Urb::decode_desc(p, desc).map(Message::Urb),
            Some(Sfid::ThreadSpawner) => ThreadSpawner::decode_desc(p, desc).map(Message::ThreadSpawner),
            Some(Sfid::ConstantCache) => DpRead::decode_desc(p, desc).map(Message::ConstantCache),
            Some(Sfid::DataCache) => DataCache0::decode_desc(p, desc).map(Message::DataCache0),
            Some(Sfid::PixelInterpolator) => PixelInterp::decode_desc(p, desc).map(Message::PixelInterp),
            Some(Sfid::DataCache1) => DataCache1::decode_desc(p, desc).map(Message::DataCache1),
            _ => Err(MsgError::Function { sfid, platform: p }),
        }
    }

    /// The typed message of a SEND/SENDC with an immediate descriptor;
    /// `None` for other instructions and for a descriptor in a register.
    pub fn of_instruction(p: Platform, inst: &crate::model::Instruction) -> Option<Message> {
        if !inst.opcode.is_send() || !inst.src[1].is_imm() {
            return None;
        }
        Message::decode(p, inst.sfid()?.hw(), inst.imm as u32).ok()
    }

    /// The reverse of [`Message::of_instruction`]: makes the SEND or SENDC
    /// `inst` carry this message, its SFID in bits 27:24 and its descriptor
    /// as src1's UD immediate. The operands, execution size and controls
    /// stay as they are.
    ///
    /// ```
    /// use geneu::msg::{Message, Urb, UrbOpcode};
    /// use geneu::{ExecSize, Instruction, Opcode, Platform, Sfid};
    /// let p = Platform::Gen8;
    /// let m = Message::Unknown { sfid: Sfid::Urb.hw(), desc: 0x0a08_0007 };
    /// let mut send = Instruction::new(Opcode::Send, ExecSize::S8);
    /// m.apply_to(&mut send).unwrap();
    /// assert_eq!((send.sfid(), send.imm), (Some(Sfid::Urb), 0x0a08_0007));
    /// assert_eq!(Message::of_instruction(p, &send).map(|m| m.desc()), Some(Ok(0x0a08_0007)));
    /// let mut mov = Instruction::new(Opcode::Mov, ExecSize::S8);
    /// assert!(m.apply_to(&mut mov).is_err());
    /// ```
    pub fn apply_to(&self, inst: &mut crate::model::Instruction) -> Result<(), MsgError> {
        if !inst.opcode.is_send() {
            return Err(MsgError::Invalid {
                field: "opcode",
                reason: "only SEND and SENDC carry a message",
            });
        }
        let desc = self.desc()?;
        let sfid = Sfid::from_hw(self.sfid()).ok_or(MsgError::Invalid {
            field: "sfid",
            reason: "shared function IDs 1, 14 and 15 are reserved",
        })?;
        inst.src[1] = crate::model::Src::imm(crate::model::Type::UD);
        inst.imm = u64::from(desc);
        inst.set_sfid(sfid);
        Ok(())
    }

    /// The SFID the message goes to.
    pub const fn sfid(&self) -> u8 {
        match self {
            Message::Sampler(_) => Sfid::Sampler as u8,
            Message::Gateway(_) => Sfid::Gateway as u8,
            Message::SamplerCache(_) => Sfid::SamplerCache as u8,
            Message::Render(_) => Sfid::RenderCache as u8,
            Message::Urb(_) => Sfid::Urb as u8,
            Message::ThreadSpawner(_) => Sfid::ThreadSpawner as u8,
            Message::ConstantCache(_) => Sfid::ConstantCache as u8,
            Message::DataCache0(_) => Sfid::DataCache as u8,
            Message::PixelInterp(_) => Sfid::PixelInterpolator as u8,
            Message::DataCache1(_) => Sfid::DataCache1 as u8,
            Message::Unknown { sfid, .. } => *sfid,
        }
    }

    /// Builds the 32-bit descriptor (EOT in bit 31).
    pub fn desc(&self) -> Result<u32, MsgError> {
        match self {
            Message::Sampler(m) => m.desc(),
            Message::Gateway(m) => m.desc(),
            Message::SamplerCache(m) | Message::ConstantCache(m) => m.desc(),
            Message::Render(m) => m.desc(),
            Message::Urb(m) => m.desc(),
            Message::ThreadSpawner(m) => m.desc(),
            Message::DataCache0(m) => m.desc(),
            Message::PixelInterp(m) => m.desc(),
            Message::DataCache1(m) => m.desc(),
            Message::Unknown { desc, .. } => Ok(*desc),
        }
    }

    /// The platform of a typed message (`None` for [`Message::Unknown`]).
    pub fn platform(&self) -> Option<Platform> {
        Some(match self {
            Message::Sampler(m) => m.platform(),
            Message::Gateway(m) => m.platform(),
            Message::SamplerCache(m) | Message::ConstantCache(m) => m.platform(),
            Message::Render(m) => m.platform(),
            Message::Urb(m) => m.platform(),
            Message::ThreadSpawner(m) => m.platform(),
            Message::DataCache0(m) => m.platform(),
            Message::PixelInterp(m) => m.platform(),
            Message::DataCache1(m) => m.platform(),
            Message::Unknown { .. } => return None,
        })
    }

    /// The common fields (read from the raw bits for [`Message::Unknown`]).
    pub fn common(&self) -> Common {
        match self {
            Message::Sampler(m) => m.common(),
            Message::Gateway(m) => m.common(),
            Message::SamplerCache(m) | Message::ConstantCache(m) => m.common(),
            Message::Render(m) => m.common(),
            Message::Urb(m) => m.common(),
            Message::ThreadSpawner(m) => m.common(),
            Message::DataCache0(m) => m.common(),
            Message::PixelInterp(m) => m.common(),
            Message::DataCache1(m) => m.common(),
            Message::Unknown { desc, .. } => Common::decode(*desc),
        }
    }

    /// Whether the message is typed (not [`Message::Unknown`]).
    pub const fn is_typed(&self) -> bool {
        !matches!(self, Message::Unknown { .. })
    }

    /// Mesa's `MsgDesc:` text of this message on `p` (see
    /// [`write_msg_desc_raw`]); fails if the message does not build.
    pub fn mesa(&self, p: Platform) -> Result<MsgDescDisplay, MsgError> {
        Ok(MsgDescDisplay::new(p, self.sfid(), Some(self.desc()?)))
    }
}
