//! Data port data cache 1 messages (SFID 12, Haswell and Gen8).

use super::dataport::{dp_desc, msg_type, set_msg_control, AtomicOp, Channels, SurfaceSimd, TypedSlotGroup};
use super::{flag, hw_enum, known, reserved, verified, Common, Descriptor, MsgError, Sfid};
use crate::isa::dataport::dc1;
use crate::model::Platform;
use crate::word::fields::{desc_dp_atomic as at, desc_dp_block as blk, desc_dp_gen7 as dp7, desc_dp_surface as surf};

hw_enum! {
    /// Data element kind of a Gen8 A64 scattered message (message control
    /// bits 1:0).
    A64ScatteredSubtype {
        /// Bytes.
        Byte = 0,
        /// Dwords.
        Dword = 1,
        /// Qwords.
        Qword = 2,
    }
}

/// A data cache 1 message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub enum Dc1Op {
    /// Untyped surface read (type 1).
    UntypedSurfaceRead {
        /// Channels read.
        channels: Channels,
        /// SIMD mode.
        simd: SurfaceSimd,
    },
    /// Untyped atomic operation (type 2).
    UntypedAtomic {
        /// Operation.
        op: AtomicOp,
        /// SIMD8 rather than SIMD16.
        simd8: bool,
        /// Return the previous value.
        return_data: bool,
    },
    /// Untyped atomic operation, SIMD4x2 (type 3).
    UntypedAtomicSimd4x2 {
        /// Operation.
        op: AtomicOp,
        /// Return the previous value.
        return_data: bool,
    },
    /// Media block read (type 4).
    MediaBlockRead {
        /// Message control, passed through unchanged (6 bits).
        control: u8,
    },
    /// Typed surface read (type 5).
    TypedSurfaceRead {
        /// Channels read.
        channels: Channels,
        /// Slot group.
        slot_group: TypedSlotGroup,
    },
    /// Typed atomic operation (type 6).
    TypedAtomic {
        /// Operation.
        op: AtomicOp,
        /// Slots 8-15 rather than 0-7.
        high_slot_group: bool,
        /// Return the previous value.
        return_data: bool,
    },
    /// Typed atomic operation, SIMD4x2 (type 7).
    TypedAtomicSimd4x2 {
        /// Operation.
        op: AtomicOp,
        /// Return the previous value.
        return_data: bool,
    },
    /// Untyped surface write (type 9).
    UntypedSurfaceWrite {
        /// Channels written.
        channels: Channels,
        /// SIMD mode.
        simd: SurfaceSimd,
    },
    /// Media block write (type 10).
    MediaBlockWrite {
        /// Message control, passed through unchanged (6 bits).
        control: u8,
    },
    /// Atomic counter operation (type 11).
    AtomicCounter {
        /// Operation.
        op: AtomicOp,
        /// SIMD8 rather than SIMD16.
        simd8: bool,
        /// Return the previous value.
        return_data: bool,
    },
    /// Atomic counter operation, SIMD4x2 (type 12).
    AtomicCounterSimd4x2 {
        /// Operation.
        op: AtomicOp,
        /// Return the previous value.
        return_data: bool,
    },
    /// Typed surface write (type 13).
    TypedSurfaceWrite {
        /// Channels written.
        channels: Channels,
        /// Slot group.
        slot_group: TypedSlotGroup,
    },
    /// A64 untyped surface read (type 0x11, Gen8).
    A64UntypedSurfaceRead {
        /// Channels read.
        channels: Channels,
        /// SIMD mode.
        simd: SurfaceSimd,
    },
    /// A64 untyped atomic operation (type 0x12, Gen8).
    A64UntypedAtomic {
        /// Operation.
        op: AtomicOp,
        /// 64-bit rather than 32-bit operation.
        qword: bool,
        /// Return the previous value.
        return_data: bool,
    },
    /// A64 untyped surface write (type 0x19, Gen8).
    A64UntypedSurfaceWrite {
        /// Channels written.
        channels: Channels,
        /// SIMD mode.
        simd: SurfaceSimd,
    },
    /// A64 scattered read (type 0x10, Gen8): the same fields as
    /// [`Dc1Op::A64ScatteredWrite`].
    A64ScatteredRead {
        /// Data element kind.
        subtype: A64ScatteredSubtype,
        /// Data size field (2 bits): log2 of the bytes per address for
        /// byte elements, log2 of the elements per address otherwise.
        data_size: u8,
        /// SIMD16 rather than SIMD8.
        simd16: bool,
    },
    /// A64 scattered write (type 0x1a, Gen8).
    A64ScatteredWrite {
        /// Data element kind.
        subtype: A64ScatteredSubtype,
        /// Data size field (2 bits): log2 of the bytes per address for
        /// byte elements, log2 of the elements per address otherwise.
        data_size: u8,
        /// SIMD16 rather than SIMD8.
        simd16: bool,
    },
}

impl Dc1Op {
    /// The message type encoding.
    pub const fn msg_type(&self) -> u8 {
        match self {
            Dc1Op::UntypedSurfaceRead { .. } => dc1::UNTYPED_SURFACE_READ,
            Dc1Op::UntypedAtomic { .. } => dc1::UNTYPED_ATOMIC,
            Dc1Op::UntypedAtomicSimd4x2 { .. } => dc1::UNTYPED_ATOMIC_SIMD4X2,
            Dc1Op::MediaBlockRead { .. } => dc1::MEDIA_BLOCK_READ,
            Dc1Op::TypedSurfaceRead { .. } => dc1::TYPED_SURFACE_READ,
            Dc1Op::TypedAtomic { .. } => dc1::TYPED_ATOMIC,
            Dc1Op::TypedAtomicSimd4x2 { .. } => dc1::TYPED_ATOMIC_SIMD4X2,
            Dc1Op::UntypedSurfaceWrite { .. } => dc1::UNTYPED_SURFACE_WRITE,
            Dc1Op::MediaBlockWrite { .. } => dc1::MEDIA_BLOCK_WRITE,
            Dc1Op::AtomicCounter { .. } => dc1::ATOMIC_COUNTER,
            Dc1Op::AtomicCounterSimd4x2 { .. } => dc1::ATOMIC_COUNTER_SIMD4X2,
            Dc1Op::TypedSurfaceWrite { .. } => dc1::TYPED_SURFACE_WRITE,
            Dc1Op::A64UntypedSurfaceRead { .. } => dc1::A64_UNTYPED_SURFACE_READ,
            Dc1Op::A64UntypedAtomic { .. } => dc1::A64_UNTYPED_ATOMIC,
            Dc1Op::A64UntypedSurfaceWrite { .. } => dc1::A64_UNTYPED_SURFACE_WRITE,
            Dc1Op::A64ScatteredRead { .. } => dc1::A64_SCATTERED_READ,
            Dc1Op::A64ScatteredWrite { .. } => dc1::A64_SCATTERED_WRITE,
        }
    }

    /// Whether the message exists on `p` (the A64 messages need Gen8), by
    /// the data port table of [`crate::isa::dataport`].
    pub const fn exists_on(&self, p: Platform) -> bool {
        crate::isa::dataport::defined(p, Sfid::DataCache1, self.msg_type())
    }
}

/// A data cache 1 descriptor: binding table index 7:0, message control
/// 13:8, message type 17:14 (Gen8: 18:14).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct DataCache1 {
    /// Platform (Gen7.5 or later).
    pub platform: Platform,
    /// Lengths, header and EOT.
    pub common: Common,
    /// Binding table index ([`super::BTI_SLM`], [`super::BTI_STATELESS`] ...).
    pub bti: u8,
    /// The message.
    pub op: Dc1Op,
}

impl DataCache1 {
    /// A data cache 1 message (Gen7.5+) to binding table entry `bti`.
    ///
    /// ```
    /// use geneu::msg::{Channels, Common, DataCache1, Dc1Op, Descriptor, SurfaceSimd};
    /// use geneu::Platform;
    /// let op = Dc1Op::UntypedSurfaceRead { channels: Channels::first(4), simd: SurfaceSimd::Simd8 };
    /// let m = DataCache1::new(Platform::Gen8, Common::new(1, 4, false), 3, op);
    /// assert_eq!(DataCache1::decode_desc(Platform::Gen8, m.desc().unwrap()), Ok(m));
    /// ```
    #[must_use]
    pub const fn new(platform: Platform, common: Common, bti: u8, op: Dc1Op) -> DataCache1 {
        DataCache1 {
            platform,
            common,
            bti,
            op,
        }
    }
}

fn atomic(p: Platform, desc: u32) -> Result<(AtomicOp, bool, bool), MsgError> {
    Ok((
        AtomicOp::decode(p, at::atomic_op(desc))?,
        flag(at::atomic_simd8(desc)),
        flag(at::return_data(desc)),
    ))
}

fn set_atomic(w: &mut u32, op: AtomicOp, bit4: bool, return_data: bool) -> Result<(), MsgError> {
    at::set_atomic_op(w, op.hw())?;
    at::set_atomic_simd8(w, bit4 as u8)?;
    at::set_return_data(w, return_data as u8)?;
    Ok(())
}

fn untyped(p: Platform, desc: u32) -> Result<(Channels, SurfaceSimd), MsgError> {
    let m = surf::surface_mode(desc);
    Ok((
        Channels::from_disable_mask(surf::channel_disable(desc)),
        known(SurfaceSimd::from_hw(m), "SIMD mode", m as u32, p)?,
    ))
}

fn typed(p: Platform, desc: u32) -> Result<(Channels, TypedSlotGroup), MsgError> {
    let m = surf::surface_mode(desc);
    Ok((
        Channels::from_disable_mask(surf::channel_disable(desc)),
        known(TypedSlotGroup::from_hw(m), "slot group", m as u32, p)?,
    ))
}

impl Descriptor for DataCache1 {
    const SFIDS: &'static [Sfid] = &[Sfid::DataCache1];

    fn decode_desc(p: Platform, desc: u32) -> Result<Self, MsgError> {
        if !p.is_gen75_or_later() {
            return Err(MsgError::Function {
                sfid: Sfid::DataCache1.hw(),
                platform: p,
            });
        }
        let t = msg_type(p, desc);
        let op = match t {
            dc1::UNTYPED_SURFACE_READ
            | dc1::A64_UNTYPED_SURFACE_READ
            | dc1::UNTYPED_SURFACE_WRITE
            | dc1::A64_UNTYPED_SURFACE_WRITE => {
                let (channels, simd) = untyped(p, desc)?;
                match t {
                    dc1::UNTYPED_SURFACE_READ => Dc1Op::UntypedSurfaceRead { channels, simd },
                    dc1::A64_UNTYPED_SURFACE_READ => Dc1Op::A64UntypedSurfaceRead { channels, simd },
                    dc1::UNTYPED_SURFACE_WRITE => Dc1Op::UntypedSurfaceWrite { channels, simd },
                    _ => Dc1Op::A64UntypedSurfaceWrite { channels, simd },
                }
            }
            dc1::UNTYPED_ATOMIC | dc1::TYPED_ATOMIC | dc1::ATOMIC_COUNTER | dc1::A64_UNTYPED_ATOMIC => {
                let (op, bit4, return_data) = atomic(p, desc)?;
                match t {
                    dc1::UNTYPED_ATOMIC => Dc1Op::UntypedAtomic {
                        op,
                        simd8: bit4,
                        return_data,
                    },
                    dc1::TYPED_ATOMIC => Dc1Op::TypedAtomic {
                        op,
                        high_slot_group: bit4,
                        return_data,
                    },
                    dc1::ATOMIC_COUNTER => Dc1Op::AtomicCounter {
                        op,
                        simd8: bit4,
                        return_data,
                    },
                    _ => Dc1Op::A64UntypedAtomic {
                        op,
                        qword: bit4,
                        return_data,
                    },
                }
            }
            dc1::UNTYPED_ATOMIC_SIMD4X2 | dc1::TYPED_ATOMIC_SIMD4X2 | dc1::ATOMIC_COUNTER_SIMD4X2 => {
                let (op, _, return_data) = atomic(p, desc)?;
                match t {
                    dc1::UNTYPED_ATOMIC_SIMD4X2 => Dc1Op::UntypedAtomicSimd4x2 { op, return_data },
                    dc1::TYPED_ATOMIC_SIMD4X2 => Dc1Op::TypedAtomicSimd4x2 { op, return_data },
                    _ => Dc1Op::AtomicCounterSimd4x2 { op, return_data },
                }
            }
            dc1::MEDIA_BLOCK_READ => Dc1Op::MediaBlockRead {
                control: dp7::msg_control(desc),
            },
            dc1::MEDIA_BLOCK_WRITE => Dc1Op::MediaBlockWrite {
                control: dp7::msg_control(desc),
            },
            dc1::TYPED_SURFACE_READ | dc1::TYPED_SURFACE_WRITE => {
                let (channels, slot_group) = typed(p, desc)?;
                if t == dc1::TYPED_SURFACE_READ {
                    Dc1Op::TypedSurfaceRead { channels, slot_group }
                } else {
                    Dc1Op::TypedSurfaceWrite { channels, slot_group }
                }
            }
            dc1::A64_SCATTERED_READ | dc1::A64_SCATTERED_WRITE => {
                let s = blk::a64_scattered_subtype(desc);
                let subtype = known(A64ScatteredSubtype::from_hw(s), "A64 scattered subtype", s as u32, p)?;
                let data_size = blk::scattered_data_size(desc);
                let simd16 = flag(blk::a64_scattered_simd16(desc));
                if t == dc1::A64_SCATTERED_READ {
                    Dc1Op::A64ScatteredRead {
                        subtype,
                        data_size,
                        simd16,
                    }
                } else {
                    Dc1Op::A64ScatteredWrite {
                        subtype,
                        data_size,
                        simd16,
                    }
                }
            }
            _ => return reserved("data cache 1 message type", t as u32, p),
        };
        if !op.exists_on(p) {
            return reserved("data cache 1 message type", t as u32, p);
        }
        let m = DataCache1 {
            platform: p,
            common: Common::decode(desc),
            bti: dp7::binding_table_index(desc),
            op,
        };
        verified(m, desc)
    }

    fn desc(&self) -> Result<u32, MsgError> {
        let p = self.platform;
        if !p.is_gen75_or_later() {
            return Err(MsgError::Function {
                sfid: Sfid::DataCache1.hw(),
                platform: p,
            });
        }
        if !self.op.exists_on(p) {
            return reserved("data cache 1 message type", self.op.msg_type() as u32, p);
        }
        let mut w = dp_desc(p, &self.common, self.bti, self.op.msg_type())?;
        match self.op {
            Dc1Op::UntypedAtomic {
                op,
                simd8: bit4,
                return_data,
            }
            | Dc1Op::TypedAtomic {
                op,
                high_slot_group: bit4,
                return_data,
            }
            | Dc1Op::AtomicCounter {
                op,
                simd8: bit4,
                return_data,
            }
            | Dc1Op::A64UntypedAtomic {
                op,
                qword: bit4,
                return_data,
            } => set_atomic(&mut w, op, bit4, return_data)?,
            Dc1Op::UntypedAtomicSimd4x2 { op, return_data }
            | Dc1Op::TypedAtomicSimd4x2 { op, return_data }
            | Dc1Op::AtomicCounterSimd4x2 { op, return_data } => set_atomic(&mut w, op, false, return_data)?,
            Dc1Op::UntypedSurfaceRead { channels, simd }
            | Dc1Op::UntypedSurfaceWrite { channels, simd }
            | Dc1Op::A64UntypedSurfaceRead { channels, simd }
            | Dc1Op::A64UntypedSurfaceWrite { channels, simd } => {
                channels.encode(&mut w)?;
                surf::set_surface_mode(&mut w, simd.hw())?;
            }
            Dc1Op::TypedSurfaceRead { channels, slot_group } | Dc1Op::TypedSurfaceWrite { channels, slot_group } => {
                channels.encode(&mut w)?;
                surf::set_surface_mode(&mut w, slot_group.hw())?;
            }
            Dc1Op::MediaBlockRead { control } | Dc1Op::MediaBlockWrite { control } => set_msg_control(&mut w, control)?,
            Dc1Op::A64ScatteredRead {
                subtype,
                data_size,
                simd16,
            }
            | Dc1Op::A64ScatteredWrite {
                subtype,
                data_size,
                simd16,
            } => {
                blk::set_a64_scattered_subtype(&mut w, subtype.hw())?;
                blk::set_scattered_data_size(&mut w, data_size)?;
                blk::set_a64_scattered_simd16(&mut w, simd16 as u8)?;
            }
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
