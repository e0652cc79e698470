//! Data port data cache messages (SFID 10; "data cache 0" from Haswell on).

use super::dataport::{
    dp_desc, dword_scattered_decode, dword_scattered_encode, msg_type, AtomicOp, Channels, DualBlockSize,
    OwordBlockSize, ScatteredDataSize, SurfaceSimd,
};
use super::{flag, hw_enum, known, reserved, verified, Common, Descriptor, MsgError, Sfid};
use crate::isa::dataport::{dc0, scratch};
use crate::model::Platform;
use crate::word::fields::{
    desc_dp_atomic as at, desc_dp_block as blk, desc_dp_gen7 as dp7, desc_dp_scratch as scr, desc_dp_surface as surf,
};

hw_enum! {
    /// Number of GRFs a scratch block message moves.
    ScratchRegs {
        /// One GRF.
        One = 0,
        /// Two GRFs.
        Two = 1,
        /// Four GRFs.
        Four = 2,
        /// Eight GRFs (Gen8).
        Eight = 3,
    }
}

impl ScratchRegs {
    /// Number of GRFs.
    pub const fn regs(self) -> u32 {
        1 << (self as u32)
    }

    /// The block size field: registers - 1 on Gen7/7.5, log2 on Gen8.
    const fn encode(self, p: Platform) -> Option<u8> {
        if p.is_gen8() {
            Some(self as u8)
        } else {
            match self {
                ScratchRegs::One => Some(scratch::GEN7_BLOCK_1_REG),
                ScratchRegs::Two => Some(scratch::GEN7_BLOCK_2_REGS),
                ScratchRegs::Four => Some(scratch::GEN7_BLOCK_4_REGS),
                ScratchRegs::Eight => None,
            }
        }
    }

    const fn decode(p: Platform, v: u8) -> Option<ScratchRegs> {
        if p.is_gen8() {
            ScratchRegs::from_hw(v)
        } else {
            match v {
                scratch::GEN7_BLOCK_1_REG => Some(ScratchRegs::One),
                scratch::GEN7_BLOCK_2_REGS => Some(ScratchRegs::Two),
                scratch::GEN7_BLOCK_4_REGS => Some(ScratchRegs::Four),
                _ => None,
            }
        }
    }
}

/// A scratch block read or write (descriptor bit 18 set).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ScratchBlock {
    /// Write rather than read.
    pub write: bool,
    /// Offset into the thread's scratch space, in GRFs (12 bits).
    pub offset: u16,
    /// Block size.
    pub regs: ScratchRegs,
    /// DWord rather than OWord channel mode.
    pub dword: bool,
    /// Reads: invalidate the lines after reading.
    pub invalidate_after_read: bool,
}

/// A data cache 0 message. Gen7 (Ivy Bridge) also has the untyped surface
/// and atomic messages that Haswell moved to data cache 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub enum Dc0Op {
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
    /// Byte scattered read (type 4).
    ByteScatteredRead {
        /// SIMD16 rather than SIMD8.
        simd16: bool,
        /// Bytes per channel.
        size: ScatteredDataSize,
    },
    /// Untyped surface read (type 5, Ivy Bridge).
    UntypedSurfaceRead {
        /// Channels read.
        channels: Channels,
        /// SIMD mode.
        simd: SurfaceSimd,
    },
    /// Untyped atomic operation (type 6, Ivy Bridge).
    UntypedAtomic {
        /// Operation.
        op: AtomicOp,
        /// SIMD8 rather than SIMD16.
        simd8: bool,
        /// Return the previous value.
        return_data: bool,
    },
    /// Memory fence (type 7).
    MemoryFence {
        /// Wait for the fence to commit (returns one GRF).
        commit: bool,
    },
    /// OWord block write (type 8).
    OwordBlockWrite {
        /// Block size.
        size: OwordBlockSize,
    },
    /// OWord dual block write (type 10).
    OwordDualBlockWrite {
        /// Block size.
        size: DualBlockSize,
    },
    /// DWord scattered write (type 11).
    DwordScatteredWrite {
        /// 16 dwords (SIMD16) rather than 8.
        simd16: bool,
    },
    /// Byte scattered write (type 12).
    ByteScatteredWrite {
        /// SIMD16 rather than SIMD8.
        simd16: bool,
        /// Bytes per channel.
        size: ScatteredDataSize,
    },
    /// Untyped surface write (type 13, Ivy Bridge).
    UntypedSurfaceWrite {
        /// Channels written.
        channels: Channels,
        /// SIMD mode.
        simd: SurfaceSimd,
    },
    /// Scratch block read or write (category bit 18).
    Scratch(ScratchBlock),
}

impl Dc0Op {
    /// The message type encoding (`None` for scratch, which uses bit 18).
    pub const fn msg_type(&self) -> Option<u8> {
        Some(match self {
            Dc0Op::OwordBlockRead { .. } => dc0::OWORD_BLOCK_READ,
            Dc0Op::UnalignedOwordBlockRead { .. } => dc0::UNALIGNED_OWORD_BLOCK_READ,
            Dc0Op::OwordDualBlockRead { .. } => dc0::OWORD_DUAL_BLOCK_READ,
            Dc0Op::DwordScatteredRead { .. } => dc0::DWORD_SCATTERED_READ,
            Dc0Op::ByteScatteredRead { .. } => dc0::BYTE_SCATTERED_READ,
            Dc0Op::UntypedSurfaceRead { .. } => dc0::UNTYPED_SURFACE_READ,
            Dc0Op::UntypedAtomic { .. } => dc0::UNTYPED_ATOMIC,
            Dc0Op::MemoryFence { .. } => dc0::MEMORY_FENCE,
            Dc0Op::OwordBlockWrite { .. } => dc0::OWORD_BLOCK_WRITE,
            Dc0Op::OwordDualBlockWrite { .. } => dc0::OWORD_DUAL_BLOCK_WRITE,
            Dc0Op::DwordScatteredWrite { .. } => dc0::DWORD_SCATTERED_WRITE,
            Dc0Op::ByteScatteredWrite { .. } => dc0::BYTE_SCATTERED_WRITE,
            Dc0Op::UntypedSurfaceWrite { .. } => dc0::UNTYPED_SURFACE_WRITE,
            Dc0Op::Scratch(_) => return None,
        })
    }

    /// Whether the message exists on `p` (the untyped messages are Ivy
    /// Bridge only), by the data port table of [`crate::isa::dataport`].
    pub const fn exists_on(&self, p: Platform) -> bool {
        match self.msg_type() {
            Some(t) => crate::isa::dataport::defined(p, Sfid::DataCache, t),
            None => true,
        }
    }
}

/// A data cache 0 descriptor: binding table index 7:0, message control
/// 13:8, message type 17:14 (Gen8: 18:14); scratch messages put an offset
/// in 11:0 and set bit 18.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct DataCache0 {
    /// Platform.
    pub platform: Platform,
    /// Lengths, header and EOT.
    pub common: Common,
    /// Binding table index ([`super::BTI_SLM`], [`super::BTI_STATELESS`] ...);
    /// must be 0 for scratch messages, which have none.
    pub bti: u8,
    /// The message.
    pub op: Dc0Op,
}

impl DataCache0 {
    /// A data cache message to binding table entry `bti` (0 for scratch
    /// messages, which have none).
    ///
    /// ```
    /// use geneu::msg::{Common, DataCache0, Dc0Op, Descriptor, BTI_STATELESS};
    /// use geneu::Platform;
    /// let op = Dc0Op::DwordScatteredRead { simd16: true };
    /// let m = DataCache0::new(Platform::Gen75, Common::new(2, 2, false), BTI_STATELESS, op);
    /// assert_eq!(DataCache0::decode_desc(Platform::Gen75, m.desc().unwrap()), Ok(m));
    /// ```
    #[must_use]
    pub const fn new(platform: Platform, common: Common, bti: u8, op: Dc0Op) -> DataCache0 {
        DataCache0 {
            platform,
            common,
            bti,
            op,
        }
    }
}

fn byte_scattered(p: Platform, desc: u32) -> Result<(bool, ScatteredDataSize), MsgError> {
    let s = blk::scattered_data_size(desc);
    Ok((
        flag(blk::scattered_simd16(desc)),
        known(ScatteredDataSize::from_hw(s), "byte scattered data size", s as u32, p)?,
    ))
}

fn untyped_surface(p: Platform, desc: u32) -> Result<(Channels, SurfaceSimd), MsgError> {
    let m = surf::surface_mode(desc);
    Ok((
        Channels::from_disable_mask(surf::channel_disable(desc)),
        known(SurfaceSimd::from_hw(m), "SIMD mode", m as u32, p)?,
    ))
}

impl Descriptor for DataCache0 {
    const SFIDS: &'static [Sfid] = &[Sfid::DataCache];

    fn decode_desc(p: Platform, desc: u32) -> Result<Self, MsgError> {
        let common = Common::decode(desc);
        if scr::scratch_category(desc) != 0 {
            let v = scr::scratch_block_size(desc);
            let m = DataCache0 {
                platform: p,
                common,
                bti: 0,
                op: Dc0Op::Scratch(ScratchBlock {
                    write: flag(scr::scratch_write(desc)),
                    offset: scr::scratch_offset(desc),
                    regs: known(ScratchRegs::decode(p, v), "scratch block size", v as u32, p)?,
                    dword: flag(scr::scratch_dword(desc)),
                    invalidate_after_read: flag(scr::scratch_invalidate(desc)),
                }),
            };
            return verified(m, desc);
        }
        let t = msg_type(p, desc);
        let op = match t {
            dc0::OWORD_BLOCK_READ => Dc0Op::OwordBlockRead {
                size: OwordBlockSize::decode(p, desc)?,
            },
            dc0::UNALIGNED_OWORD_BLOCK_READ => Dc0Op::UnalignedOwordBlockRead {
                size: OwordBlockSize::decode(p, desc)?,
            },
            dc0::OWORD_DUAL_BLOCK_READ => Dc0Op::OwordDualBlockRead {
                size: DualBlockSize::decode(p, desc)?,
            },
            dc0::DWORD_SCATTERED_READ => Dc0Op::DwordScatteredRead {
                simd16: dword_scattered_decode(desc)?,
            },
            dc0::BYTE_SCATTERED_READ => {
                let (simd16, size) = byte_scattered(p, desc)?;
                Dc0Op::ByteScatteredRead { simd16, size }
            }
            dc0::UNTYPED_SURFACE_READ => {
                let (channels, simd) = untyped_surface(p, desc)?;
                Dc0Op::UntypedSurfaceRead { channels, simd }
            }
            dc0::UNTYPED_ATOMIC => Dc0Op::UntypedAtomic {
                op: AtomicOp::decode(p, at::atomic_op(desc))?,
                simd8: flag(at::atomic_simd8(desc)),
                return_data: flag(at::return_data(desc)),
            },
            dc0::MEMORY_FENCE => Dc0Op::MemoryFence {
                commit: flag(blk::fence_commit(desc)),
            },
            dc0::OWORD_BLOCK_WRITE => Dc0Op::OwordBlockWrite {
                size: OwordBlockSize::decode(p, desc)?,
            },
            dc0::OWORD_DUAL_BLOCK_WRITE => Dc0Op::OwordDualBlockWrite {
                size: DualBlockSize::decode(p, desc)?,
            },
            dc0::DWORD_SCATTERED_WRITE => Dc0Op::DwordScatteredWrite {
                simd16: dword_scattered_decode(desc)?,
            },
            dc0::BYTE_SCATTERED_WRITE => {
                let (simd16, size) = byte_scattered(p, desc)?;
                Dc0Op::ByteScatteredWrite { simd16, size }
            }
            dc0::UNTYPED_SURFACE_WRITE => {
                let (channels, simd) = untyped_surface(p, desc)?;
                Dc0Op::UntypedSurfaceWrite { channels, simd }
            }
            _ => return reserved("data cache message type", t as u32, p),
        };
        if !op.exists_on(p) {
            return reserved("data cache message type", t as u32, p);
        }
        let m = DataCache0 {
            platform: p,
            common,
            bti: dp7::binding_table_index(desc),
            op,
        };
        verified(m, desc)
    }

    fn desc(&self) -> Result<u32, MsgError> {
        let p = self.platform;
        let Some(t) = self.op.msg_type() else {
            return self.scratch_desc();
        };
        if !self.op.exists_on(p) {
            return reserved("data cache message type", t as u32, p);
        }
        let mut w = dp_desc(p, &self.common, self.bti, t)?;
        match self.op {
            Dc0Op::OwordBlockRead { size }
            | Dc0Op::UnalignedOwordBlockRead { size }
            | Dc0Op::OwordBlockWrite { size } => blk::set_block_size(&mut w, size.hw())?,
            Dc0Op::OwordDualBlockRead { size } | Dc0Op::OwordDualBlockWrite { size } => {
                blk::set_block_size(&mut w, size.hw())?
            }
            Dc0Op::DwordScatteredRead { simd16 } | Dc0Op::DwordScatteredWrite { simd16 } => {
                dword_scattered_encode(&mut w, simd16)?
            }
            Dc0Op::ByteScatteredRead { simd16, size } | Dc0Op::ByteScatteredWrite { simd16, size } => {
                blk::set_scattered_simd16(&mut w, simd16 as u8)?;
                blk::set_scattered_data_size(&mut w, size.hw())?;
            }
            Dc0Op::UntypedSurfaceRead { channels, simd } | Dc0Op::UntypedSurfaceWrite { channels, simd } => {
                channels.encode(&mut w)?;
                surf::set_surface_mode(&mut w, simd.hw())?;
            }
            Dc0Op::UntypedAtomic { op, simd8, return_data } => {
                at::set_atomic_op(&mut w, op.hw())?;
                at::set_atomic_simd8(&mut w, simd8 as u8)?;
                at::set_return_data(&mut w, return_data as u8)?;
            }
            Dc0Op::MemoryFence { commit } => blk::set_fence_commit(&mut w, commit as u8)?,
            Dc0Op::Scratch(_) => {}
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

impl DataCache0 {
    fn scratch_desc(&self) -> Result<u32, MsgError> {
        let Dc0Op::Scratch(s) = self.op else {
            return Err(MsgError::Invalid {
                field: "message type",
                reason: "not a scratch message",
            });
        };
        let p = self.platform;
        if self.bti != 0 {
            return Err(MsgError::Invalid {
                field: "binding table index",
                reason: "scratch messages address by offset and have no binding table index",
            });
        }
        if s.write && s.invalidate_after_read {
            return Err(MsgError::Invalid {
                field: "invalidate after read",
                reason: "only scratch reads invalidate",
            });
        }
        let size = s.regs.encode(p).ok_or(MsgError::Reserved {
            field: "scratch block size",
            value: s.regs.regs(),
            platform: p,
        })?;
        let mut w = self.common.encode()?;
        scr::set_scratch_category(&mut w, 1)?;
        scr::set_scratch_write(&mut w, s.write as u8)?;
        scr::set_scratch_dword(&mut w, s.dword as u8)?;
        scr::set_scratch_invalidate(&mut w, s.invalidate_after_read as u8)?;
        scr::set_scratch_block_size(&mut w, size)?;
        scr::set_scratch_offset(&mut w, s.offset)?;
        Ok(w)
    }
}
