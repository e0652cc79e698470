//! Pieces shared by the data port messages, and the read-only data ports
//! (sampler cache, SFID 4, and constant cache, SFID 9).

use super::{flag, hw_enum, known, verified, Common, Descriptor, MsgError, Sfid};
use crate::isa::dataport::read_only as ro;
use crate::model::Platform;
use crate::word::fields::{desc_dp_block as blk, desc_dp_gen7 as dp7, desc_dp_gen8 as dp8, desc_dp_surface as surf};

/// The data port message type: descriptor bits 17:14 on Gen7/7.5, 18:14 on
/// Gen8 (read where the validator reads it).
pub(crate) use crate::validate::send::dp_msg_type as msg_type;

/// The common data port fields: binding table index, message type, and
/// the common fields. Message control is set by the caller.
pub(crate) fn dp_desc(p: Platform, common: &Common, bti: u8, ty: u8) -> Result<u32, MsgError> {
    let mut w = common.encode()?;
    dp7::set_binding_table_index(&mut w, bti)?;
    if p.is_gen8() {
        dp8::set_msg_type(&mut w, ty)?;
    } else {
        dp7::set_msg_type(&mut w, ty)?;
    }
    Ok(w)
}

bitflags::bitflags! {
    /// Channels a surface message reads or writes (R = X ... A = W). The
    /// descriptor stores the complement, a channel *disable* mask in bits
    /// 11:8; at least one channel must be enabled.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
    pub struct Channels: u8 {
        /// Red (X).
        const R = 1;
        /// Green (Y).
        const G = 2;
        /// Blue (Z).
        const B = 4;
        /// Alpha (W).
        const A = 8;
        /// All four.
        const RGBA = 0xf;
    }
}

#[cfg(feature = "arbitrary")]
impl<'a> arbitrary::Arbitrary<'a> for Channels {
    fn arbitrary(u: &mut arbitrary::Unstructured<'a>) -> arbitrary::Result<Self> {
        Ok(Channels::from_bits_truncate(u8::arbitrary(u)?))
    }
}

impl Channels {
    /// The hardware disable mask (bit set = channel not accessed).
    pub const fn disable_mask(self) -> u8 {
        !self.bits() & Channels::RGBA.bits()
    }

    /// The channels a disable mask leaves enabled.
    pub const fn from_disable_mask(mask: u8) -> Channels {
        Channels::from_bits_truncate(!mask & Channels::RGBA.bits())
    }

    /// The first `n` channels (R, RG, RGB, RGBA), as Mesa's surface
    /// messages use them.
    pub const fn first(n: u32) -> Channels {
        let all = Channels::RGBA.count();
        Channels::from_bits_truncate(((1u32 << (if n > all { all } else { n })) - 1) as u8)
    }

    /// Number of enabled channels.
    pub const fn count(self) -> u32 {
        self.bits().count_ones()
    }

    /// Writes the disable mask, refusing an empty set.
    pub(crate) fn encode(self, w: &mut u32) -> Result<(), MsgError> {
        if self.is_empty() {
            return Err(MsgError::Invalid {
                field: "channel mask",
                reason: "at least one channel must be enabled",
            });
        }
        surf::set_channel_disable(w, self.disable_mask())?;
        Ok(())
    }
}

hw_enum! {
    /// Atomic integer operation (message control bits 3:0).
    AtomicOp {
        /// Bitwise and.
        And = 1,
        /// Bitwise or.
        Or = 2,
        /// Bitwise exclusive or.
        Xor = 3,
        /// Move (exchange).
        Mov = 4,
        /// Increment.
        Inc = 5,
        /// Decrement.
        Dec = 6,
        /// Add.
        Add = 7,
        /// Subtract.
        Sub = 8,
        /// Reverse subtract.
        Revsub = 9,
        /// Signed maximum.
        Imax = 10,
        /// Signed minimum.
        Imin = 11,
        /// Unsigned maximum.
        Umax = 12,
        /// Unsigned minimum.
        Umin = 13,
        /// Compare and exchange (two sources).
        Cmpwr = 14,
        /// Pre-decrement.
        Predec = 15,
    }
}

impl AtomicOp {
    /// Mesa's name.
    pub const fn mesa_name(self) -> &'static str {
        match self {
            AtomicOp::And => "and",
            AtomicOp::Or => "or",
            AtomicOp::Xor => "xor",
            AtomicOp::Mov => "mov",
            AtomicOp::Inc => "inc",
            AtomicOp::Dec => "dec",
            AtomicOp::Add => "add",
            AtomicOp::Sub => "sub",
            AtomicOp::Revsub => "revsub",
            AtomicOp::Imax => "imax",
            AtomicOp::Imin => "imin",
            AtomicOp::Umax => "umax",
            AtomicOp::Umin => "umin",
            AtomicOp::Cmpwr => "cmpwr",
            AtomicOp::Predec => "predec",
        }
    }

    /// Number of data sources the operation reads (0 for inc/dec/predec).
    pub const fn num_srcs(self) -> u32 {
        match self {
            AtomicOp::Inc | AtomicOp::Dec | AtomicOp::Predec => 0,
            AtomicOp::Cmpwr => 2,
            _ => 1,
        }
    }

    /// Reads the operation from message control bits 3:0.
    pub(crate) fn decode(p: Platform, v: u8) -> Result<AtomicOp, MsgError> {
        known(AtomicOp::from_hw(v), "atomic operation", v as u32, p)
    }
}

/// The SIMD mode and slot group of surface messages live on the ISA floor
/// (the validator reads them too).
pub use crate::isa::dataport::{SurfaceSimd, TypedSlotGroup};

hw_enum! {
    /// OWord block size (message control bits 2:0).
    OwordBlockSize {
        /// One OWord, low half of the GRF.
        OneLow = 0,
        /// One OWord, high half of the GRF.
        OneHigh = 1,
        /// Two OWords (one GRF).
        Two = 2,
        /// Four OWords (two GRFs).
        Four = 3,
        /// Eight OWords (four GRFs).
        Eight = 4,
    }
}

impl OwordBlockSize {
    /// Number of OWords moved.
    pub const fn owords(self) -> u32 {
        match self {
            OwordBlockSize::OneLow | OwordBlockSize::OneHigh => 1,
            OwordBlockSize::Two => 2,
            OwordBlockSize::Four => 4,
            OwordBlockSize::Eight => 8,
        }
    }

    /// Number of GRFs of data (at least one).
    pub const fn regs(self) -> u32 {
        let n = self.owords() / 2;
        if n == 0 {
            1
        } else {
            n
        }
    }

    /// The size for `owords` OWords (1 reads the low half), if encodable.
    pub const fn from_owords(owords: u32) -> Option<OwordBlockSize> {
        match owords {
            1 => Some(OwordBlockSize::OneLow),
            2 => Some(OwordBlockSize::Two),
            4 => Some(OwordBlockSize::Four),
            8 => Some(OwordBlockSize::Eight),
            _ => None,
        }
    }

    pub(crate) fn decode(p: Platform, desc: u32) -> Result<OwordBlockSize, MsgError> {
        let v = blk::block_size(desc);
        known(OwordBlockSize::from_hw(v), "OWord block size", v as u32, p)
    }
}

hw_enum! {
    /// OWord dual block size (message control bits 1:0).
    DualBlockSize {
        /// One OWord per block.
        One = 0,
        /// Four OWords per block.
        Four = 2,
    }
}

impl DualBlockSize {
    pub(crate) fn decode(p: Platform, desc: u32) -> Result<DualBlockSize, MsgError> {
        let v = blk::block_size(desc);
        known(DualBlockSize::from_hw(v), "OWord dual block size", v as u32, p)
    }
}

hw_enum! {
    /// Byte scattered data size per channel (message control bits 3:2).
    ScatteredDataSize {
        /// One byte.
        Byte = 0,
        /// One word.
        Word = 1,
        /// One dword.
        Dword = 2,
    }
}

/// DWord scattered message control: the legacy SIMD mode bit, set, and
/// the SIMD16 bit (block of 8 or 16 dwords).
pub(crate) fn dword_scattered_decode(desc: u32) -> Result<bool, MsgError> {
    if blk::legacy_simd_mode(desc) == 0 {
        return Err(MsgError::Invalid {
            field: "legacy SIMD mode",
            reason: "DWord scattered messages use the legacy SIMD mode (1)",
        });
    }
    Ok(flag(blk::scattered_simd16(desc)))
}

pub(crate) fn dword_scattered_encode(w: &mut u32, simd16: bool) -> Result<(), MsgError> {
    blk::set_legacy_simd_mode(w, 1)?;
    blk::set_scattered_simd16(w, simd16 as u8)?;
    Ok(())
}

/// A raw 6-bit message control value (descriptor bits 13:8).
pub(crate) fn set_msg_control(w: &mut u32, v: u8) -> Result<(), MsgError> {
    dp7::set_msg_control(w, v)?;
    Ok(())
}

/// A read-only data port message (sampler cache or constant cache).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub enum DpReadOp {
    /// OWord block read (type 0).
    OwordBlockRead {
        /// Block size.
        size: OwordBlockSize,
    },
    /// Unaligned OWord block read (type 1).
    UnalignedOwordBlockRead {
        /// Block size.
        size: OwordBlockSize,
    },
    /// OWord dual block read (type 2).
    OwordDualBlockRead {
        /// Block size.
        size: DualBlockSize,
    },
    /// DWord scattered read (type 3).
    DwordScatteredRead {
        /// 16 dwords (SIMD16) rather than 8.
        simd16: bool,
    },
    /// Media block read (type 4).
    MediaBlockRead {
        /// Message control, passed through unchanged (6 bits).
        control: u8,
    },
}

impl DpReadOp {
    /// The message type encoding.
    pub const fn msg_type(&self) -> u8 {
        match self {
            DpReadOp::OwordBlockRead { .. } => ro::OWORD_BLOCK_READ,
            DpReadOp::UnalignedOwordBlockRead { .. } => ro::UNALIGNED_OWORD_BLOCK_READ,
            DpReadOp::OwordDualBlockRead { .. } => ro::OWORD_DUAL_BLOCK_READ,
            DpReadOp::DwordScatteredRead { .. } => ro::DWORD_SCATTERED_READ,
            DpReadOp::MediaBlockRead { .. } => ro::MEDIA_BLOCK_READ,
        }
    }
}

/// A read-only data port descriptor (SFID 4 sampler cache, SFID 9 constant
/// cache): binding table index 7:0, message control 13:8, message type
/// 17:14 (Gen8: 18:14).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct DpRead {
    /// Platform.
    pub platform: Platform,
    /// Lengths, header and EOT.
    pub common: Common,
    /// Binding table index of the surface.
    pub bti: u8,
    /// The message.
    pub op: DpReadOp,
}

impl DpRead {
    /// A read-only data port message to binding table entry `bti`.
    #[must_use]
    pub const fn new(platform: Platform, common: Common, bti: u8, op: DpReadOp) -> DpRead {
        DpRead {
            platform,
            common,
            bti,
            op,
        }
    }
}

impl Descriptor for DpRead {
    const SFIDS: &'static [Sfid] = &[Sfid::SamplerCache, Sfid::ConstantCache];

    fn decode_desc(p: Platform, desc: u32) -> Result<Self, MsgError> {
        let t = msg_type(p, desc);
        let op = match t {
            ro::OWORD_BLOCK_READ => DpReadOp::OwordBlockRead {
                size: OwordBlockSize::decode(p, desc)?,
            },
            ro::UNALIGNED_OWORD_BLOCK_READ => DpReadOp::UnalignedOwordBlockRead {
                size: OwordBlockSize::decode(p, desc)?,
            },
            ro::OWORD_DUAL_BLOCK_READ => DpReadOp::OwordDualBlockRead {
                size: DualBlockSize::decode(p, desc)?,
            },
            ro::DWORD_SCATTERED_READ => DpReadOp::DwordScatteredRead {
                simd16: dword_scattered_decode(desc)?,
            },
            ro::MEDIA_BLOCK_READ => DpReadOp::MediaBlockRead {
                control: dp7::msg_control(desc),
            },
            _ => return super::reserved("read-only data port message type", t as u32, p),
        };
        let m = DpRead {
            platform: p,
            common: Common::decode(desc),
            bti: dp7::binding_table_index(desc),
            op,
        };
        verified(m, desc)
    }

    fn desc(&self) -> Result<u32, MsgError> {
        let mut w = dp_desc(self.platform, &self.common, self.bti, self.op.msg_type())?;
        match self.op {
            DpReadOp::OwordBlockRead { size } | DpReadOp::UnalignedOwordBlockRead { size } => {
                blk::set_block_size(&mut w, size.hw())?
            }
            DpReadOp::OwordDualBlockRead { size } => blk::set_block_size(&mut w, size.hw())?,
            DpReadOp::DwordScatteredRead { simd16 } => dword_scattered_encode(&mut w, simd16)?,
            DpReadOp::MediaBlockRead { control } => set_msg_control(&mut w, control)?,
        }
        Ok(w)
    }

    fn platform(&self) -> Platform {
        self.platform
    }

    fn common(&self) -> Common {
        self.common
    }
}
