//! Data port render cache messages (SFID 5).

use super::dataport::{dp_desc, msg_type, set_msg_control, AtomicOp, Channels};
use super::{flag, hw_enum, known, reserved, verified, Common, Descriptor, MsgError, Sfid};
use crate::model::Platform;
use crate::word::fields::{
    desc_dp_atomic as at, desc_dp_block as blk, desc_dp_gen7 as dp7, desc_dp_rt as rt, desc_dp_typed_gen7 as ty7,
};

hw_enum! {
    /// Render target write message subtype (message control bits 2:0).
    RtWriteSubtype {
        /// SIMD16, single source.
        Simd16 = 0,
        /// SIMD16, replicated data.
        Simd16RepData = 1,
        /// SIMD8 dual source, subspans 0 and 1.
        Simd8DualSrcLow = 2,
        /// SIMD8 dual source, subspans 2 and 3.
        Simd8DualSrcHigh = 3,
        /// SIMD8, single source.
        Simd8 = 4,
        /// SIMD8 image write.
        Simd8ImageWrite = 5,
    }
}

impl RtWriteSubtype {
    /// Mesa's name.
    pub const fn mesa_name(self) -> &'static str {
        match self {
            RtWriteSubtype::Simd16 => "SIMD16",
            RtWriteSubtype::Simd16RepData => "SIMD16/RepData",
            RtWriteSubtype::Simd8DualSrcLow => "SIMD8/DualSrcLow",
            RtWriteSubtype::Simd8DualSrcHigh => "SIMD8/DualSrcHigh",
            RtWriteSubtype::Simd8 => "SIMD8",
            RtWriteSubtype::Simd8ImageWrite => "SIMD8/ImageWrite",
        }
    }
}

use crate::isa::dataport::render::{
    MEDIA_BLOCK_READ, MEDIA_BLOCK_WRITE, MEMORY_FENCE, RT_WRITE, TYPED_ATOMIC, TYPED_SURFACE_READ, TYPED_SURFACE_WRITE,
};

/// A render cache message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub enum RenderOp {
    /// Render target write (type 12).
    RtWrite {
        /// Message subtype.
        subtype: RtWriteSubtype,
        /// High slot group (upper half of a SIMD32 dispatch).
        slot_group_high: bool,
        /// Last render target write of the thread.
        last_rt: bool,
    },
    /// Render target read (type 13; Gen9+, refused on Gen7-Gen8).
    RtRead {
        /// SIMD8 rather than SIMD16.
        simd8: bool,
        /// High slot group.
        slot_group_high: bool,
        /// Per-sample read.
        per_sample: bool,
    },
    /// Media block read (type 4).
    MediaBlockRead {
        /// Message control, passed through unchanged (6 bits).
        control: u8,
    },
    /// Media block write (type 10).
    MediaBlockWrite {
        /// Message control, passed through unchanged (6 bits).
        control: u8,
    },
    /// Typed surface read (type 5, Ivy Bridge).
    TypedSurfaceRead {
        /// Channels read.
        channels: Channels,
        /// Slots 8-15 rather than 0-7.
        high_slot_group: bool,
    },
    /// Typed surface write (type 13, Ivy Bridge).
    TypedSurfaceWrite {
        /// Channels written.
        channels: Channels,
        /// Slots 8-15 rather than 0-7.
        high_slot_group: bool,
    },
    /// Typed atomic operation (type 6, Ivy Bridge).
    TypedAtomic {
        /// Operation.
        op: AtomicOp,
        /// Slots 8-15 rather than 0-7.
        high_slot_group: bool,
        /// Return the previous value.
        return_data: bool,
    },
    /// Memory fence (type 7, Ivy Bridge).
    MemoryFence {
        /// Wait for the fence to commit (returns one GRF).
        commit: bool,
    },
}

impl RenderOp {
    /// The message type encoding.
    pub const fn msg_type(&self) -> u8 {
        match self {
            RenderOp::RtWrite { .. } => RT_WRITE,
            RenderOp::RtRead { .. } | RenderOp::TypedSurfaceWrite { .. } => TYPED_SURFACE_WRITE,
            RenderOp::MediaBlockRead { .. } => MEDIA_BLOCK_READ,
            RenderOp::MediaBlockWrite { .. } => MEDIA_BLOCK_WRITE,
            RenderOp::TypedSurfaceRead { .. } => TYPED_SURFACE_READ,
            RenderOp::TypedAtomic { .. } => TYPED_ATOMIC,
            RenderOp::MemoryFence { .. } => MEMORY_FENCE,
        }
    }

    /// Whether the message exists on `p`: typed messages and the fence left
    /// the render cache after Ivy Bridge; render target reads came with Gen9.
    pub const fn exists_on(&self, p: Platform) -> bool {
        !matches!(self, RenderOp::RtRead { .. }) && crate::isa::dataport::defined(p, Sfid::RenderCache, self.msg_type())
    }
}

/// A render cache descriptor: binding table index 7:0, message control
/// 13:8, message type 17:14 (Gen8: 18:14).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Render {
    /// Platform.
    pub platform: Platform,
    /// Lengths, header and EOT.
    pub common: Common,
    /// Binding table index of the render target or surface.
    pub bti: u8,
    /// The message.
    pub op: RenderOp,
}

impl Render {
    /// A render cache message to binding table entry `bti`.
    ///
    /// ```
    /// use geneu::msg::{Common, Descriptor, Render, RenderOp, RtWriteSubtype};
    /// use geneu::Platform;
    /// let op = RenderOp::RtWrite { subtype: RtWriteSubtype::Simd16, slot_group_high: false, last_rt: true };
    /// let rt = Render::new(Platform::Gen8, Common::new(10, 0, true), 0, op);
    /// let desc = rt.desc().unwrap();
    /// assert_eq!(Render::decode_desc(Platform::Gen8, desc), Ok(rt));
    /// ```
    #[must_use]
    pub const fn new(platform: Platform, common: Common, bti: u8, op: RenderOp) -> Render {
        Render {
            platform,
            common,
            bti,
            op,
        }
    }
}

impl Descriptor for Render {
    const SFIDS: &'static [Sfid] = &[Sfid::RenderCache];

    fn decode_desc(p: Platform, desc: u32) -> Result<Self, MsgError> {
        let t = msg_type(p, desc);
        let typed = || {
            (
                Channels::from_disable_mask(ty7::channel_disable(desc)),
                flag(ty7::typed_slot_group(desc)),
            )
        };
        let op = match t {
            RT_WRITE => {
                let s = rt::rt_subtype(desc);
                RenderOp::RtWrite {
                    subtype: known(RtWriteSubtype::from_hw(s), "render target write subtype", s as u32, p)?,
                    slot_group_high: flag(rt::rt_slot_group(desc)),
                    last_rt: flag(rt::last_rt(desc)),
                }
            }
            MEDIA_BLOCK_READ => RenderOp::MediaBlockRead {
                control: dp7::msg_control(desc),
            },
            MEDIA_BLOCK_WRITE => RenderOp::MediaBlockWrite {
                control: dp7::msg_control(desc),
            },
            TYPED_SURFACE_READ => {
                let (channels, high_slot_group) = typed();
                RenderOp::TypedSurfaceRead {
                    channels,
                    high_slot_group,
                }
            }
            TYPED_SURFACE_WRITE => {
                let (channels, high_slot_group) = typed();
                RenderOp::TypedSurfaceWrite {
                    channels,
                    high_slot_group,
                }
            }
            TYPED_ATOMIC => RenderOp::TypedAtomic {
                op: AtomicOp::decode(p, at::atomic_op(desc))?,
                high_slot_group: flag(at::atomic_simd8(desc)),
                return_data: flag(at::return_data(desc)),
            },
            MEMORY_FENCE => RenderOp::MemoryFence {
                commit: flag(blk::fence_commit(desc)),
            },
            _ => return reserved("render cache message type", t as u32, p),
        };
        if !op.exists_on(p) {
            return reserved("render cache message type", t as u32, p);
        }
        let m = Render {
            platform: p,
            common: Common::decode(desc),
            bti: dp7::binding_table_index(desc),
            op,
        };
        verified(m, desc)
    }

    fn desc(&self) -> Result<u32, MsgError> {
        let p = self.platform;
        if !self.op.exists_on(p) {
            return reserved("render cache message type", self.op.msg_type() as u32, p);
        }
        let mut w = dp_desc(p, &self.common, self.bti, self.op.msg_type())?;
        match self.op {
            RenderOp::RtWrite {
                subtype,
                slot_group_high,
                last_rt,
            } => {
                rt::set_rt_subtype(&mut w, subtype.hw())?;
                rt::set_rt_slot_group(&mut w, slot_group_high as u8)?;
                rt::set_last_rt(&mut w, last_rt as u8)?;
            }
            RenderOp::RtRead {
                simd8,
                slot_group_high,
                per_sample,
            } => {
                rt::set_rt_subtype(&mut w, simd8 as u8)?;
                rt::set_rt_slot_group(&mut w, slot_group_high as u8)?;
                rt::set_rt_per_sample(&mut w, per_sample as u8)?;
            }
            RenderOp::MediaBlockRead { control } | RenderOp::MediaBlockWrite { control } => {
                set_msg_control(&mut w, control)?
            }
            RenderOp::TypedSurfaceRead {
                channels,
                high_slot_group,
            }
            | RenderOp::TypedSurfaceWrite {
                channels,
                high_slot_group,
            } => {
                channels.encode(&mut w)?;
                ty7::set_typed_slot_group(&mut w, high_slot_group as u8)?;
            }
            RenderOp::TypedAtomic {
                op,
                high_slot_group,
                return_data,
            } => {
                at::set_atomic_op(&mut w, op.hw())?;
                at::set_atomic_simd8(&mut w, high_slot_group as u8)?;
                at::set_return_data(&mut w, return_data as u8)?;
            }
            RenderOp::MemoryFence { commit } => blk::set_fence_commit(&mut w, commit as u8)?,
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
