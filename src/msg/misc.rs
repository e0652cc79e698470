//! Message gateway (SFID 3), thread spawner (SFID 7) and pixel
//! interpolator (SFID 11).

use super::{flag, hw_enum, known, verified, Common, Descriptor, MsgError, Sfid};
use crate::isa::dataport::pi::{LOC_CENTROID, LOC_PER_SLOT_OFFSET, LOC_SAMPLE, LOC_SHARED_OFFSET};
use crate::model::Platform;
use crate::word::fields::{desc_gateway as gw, desc_pi_data as pd, desc_pi_gen75 as pi, desc_spawner as ts};

hw_enum! {
    /// Message gateway sub-function (descriptor bits 2:0).
    GatewayOp {
        /// Open a gateway.
        OpenGateway = 0,
        /// Close a gateway.
        CloseGateway = 1,
        /// Forward a message to another thread.
        ForwardMsg = 2,
        /// Read the timestamp.
        GetTimestamp = 3,
        /// Barrier.
        Barrier = 4,
        /// Update the gateway state.
        UpdateGatewayState = 5,
        /// MMIO read/write.
        MmioReadWrite = 6,
    }
}

impl GatewayOp {
    /// Mesa's name.
    pub const fn mesa_name(self) -> &'static str {
        match self {
            GatewayOp::OpenGateway => "open",
            GatewayOp::CloseGateway => "close",
            GatewayOp::ForwardMsg => "forward msg",
            GatewayOp::GetTimestamp => "get timestamp",
            GatewayOp::Barrier => "barrier msg",
            GatewayOp::UpdateGatewayState => "update state",
            GatewayOp::MmioReadWrite => "mmio read/write",
        }
    }
}

/// A message gateway descriptor: sub-function 2:0, notify 16:15. The
/// thread may end with it (EOT in [`Common`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Gateway {
    /// Platform.
    pub platform: Platform,
    /// Lengths, header and EOT.
    pub common: Common,
    /// Sub-function.
    pub op: GatewayOp,
    /// Notify field (2 bits).
    pub notify: u8,
}

impl Gateway {
    /// A gateway message of `op` (notify 0).
    ///
    /// ```
    /// use geneu::msg::{Common, Gateway, GatewayOp};
    /// use geneu::Platform;
    /// let g = Gateway::new(Platform::Gen8, Common::new(1, 1, false), GatewayOp::GetTimestamp);
    /// assert_eq!((g.op, g.notify, g.common.rlen), (GatewayOp::GetTimestamp, 0, 1));
    /// ```
    #[must_use]
    pub const fn new(platform: Platform, common: Common, op: GatewayOp) -> Gateway {
        Gateway {
            platform,
            common,
            op,
            notify: 0,
        }
    }

    /// A barrier as Mesa sends it: one payload GRF, no response, no header.
    pub const fn barrier(platform: Platform) -> Gateway {
        Gateway {
            platform,
            common: Common::new(1, 0, false),
            op: GatewayOp::Barrier,
            notify: 0,
        }
    }
}

impl Descriptor for Gateway {
    const SFIDS: &'static [Sfid] = &[Sfid::Gateway];

    fn decode_desc(p: Platform, desc: u32) -> Result<Self, MsgError> {
        let s = gw::gateway_subfunction(desc);
        let m = Gateway {
            platform: p,
            common: Common::decode(desc),
            op: known(GatewayOp::from_hw(s), "gateway sub-function", s as u32, p)?,
            notify: gw::gateway_notify(desc),
        };
        verified(m, desc)
    }

    fn desc(&self) -> Result<u32, MsgError> {
        let mut w = self.common.encode()?;
        gw::set_gateway_subfunction(&mut w, self.op.hw())?;
        gw::set_gateway_notify(&mut w, self.notify)?;
        Ok(w)
    }

    fn platform(&self) -> Platform {
        self.platform
    }

    fn common(&self) -> Common {
        self.common
    }
}

hw_enum! {
    /// Thread spawner opcode (descriptor bit 0).
    TsOpcode {
        /// Dereference a resource (ends a thread with EOT).
        DereferenceResource = 0,
        /// Spawn a thread.
        SpawnThread = 1,
    }
}

/// A thread spawner descriptor: opcode 0, request type 1 (child thread),
/// resource select 4 (do not dereference the URB handle).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ThreadSpawner {
    /// Platform.
    pub platform: Platform,
    /// Lengths, header and EOT.
    pub common: Common,
    /// Opcode.
    pub opcode: TsOpcode,
    /// Child rather than root thread.
    pub child: bool,
    /// Do not dereference the URB handle.
    pub keep_urb: bool,
}

impl ThreadSpawner {
    /// A thread spawner message of `opcode` for a root thread that
    /// dereferences its URB handle (`child` and `keep_urb` false).
    ///
    /// ```
    /// use geneu::msg::{Common, ThreadSpawner, TsOpcode};
    /// use geneu::Platform;
    /// let t = ThreadSpawner::new(Platform::Gen75, Common::new(1, 0, false), TsOpcode::SpawnThread);
    /// assert_eq!((t.opcode, t.child, t.keep_urb), (TsOpcode::SpawnThread, false, false));
    /// ```
    #[must_use]
    pub const fn new(platform: Platform, common: Common, opcode: TsOpcode) -> ThreadSpawner {
        ThreadSpawner {
            platform,
            common,
            opcode,
            child: false,
            keep_urb: false,
        }
    }

    /// The end of a compute thread as Mesa sends it: dereference, root
    /// thread, keep the URB handle, one payload GRF, EOT.
    pub const fn end_of_thread(platform: Platform) -> ThreadSpawner {
        ThreadSpawner {
            platform,
            common: Common::new(1, 0, false).with_eot(),
            opcode: TsOpcode::DereferenceResource,
            child: false,
            keep_urb: true,
        }
    }
}

impl Descriptor for ThreadSpawner {
    const SFIDS: &'static [Sfid] = &[Sfid::ThreadSpawner];

    fn decode_desc(p: Platform, desc: u32) -> Result<Self, MsgError> {
        let m = ThreadSpawner {
            platform: p,
            common: Common::decode(desc),
            opcode: if flag(ts::ts_opcode(desc)) {
                TsOpcode::SpawnThread
            } else {
                TsOpcode::DereferenceResource
            },
            child: flag(ts::ts_request_type(desc)),
            keep_urb: flag(ts::ts_resource_select(desc)),
        };
        verified(m, desc)
    }

    fn desc(&self) -> Result<u32, MsgError> {
        let mut w = self.common.encode()?;
        ts::set_ts_opcode(&mut w, self.opcode.hw())?;
        ts::set_ts_request_type(&mut w, self.child as u8)?;
        ts::set_ts_resource_select(&mut w, self.keep_urb as u8)?;
        Ok(w)
    }

    fn platform(&self) -> Platform {
        self.platform
    }

    fn common(&self) -> Common {
        self.common
    }
}

/// A pixel interpolator query.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub enum PiMessage {
    /// Interpolate at an offset shared by all pixels (type 0), in 1/16
    /// pixel, each -8..=7.
    PerMessageOffset {
        /// X offset.
        x: i8,
        /// Y offset.
        y: i8,
    },
    /// Interpolate at a sample position (type 1).
    SamplePosition {
        /// Sample index (0..=15).
        sample: u8,
    },
    /// Interpolate at the centroid (type 2).
    Centroid,
    /// Interpolate at per-pixel offsets held in the payload (type 3).
    PerSlotOffset,
}

impl PiMessage {
    /// The message type encoding.
    pub const fn msg_type(&self) -> u8 {
        match self {
            PiMessage::PerMessageOffset { .. } => LOC_SHARED_OFFSET,
            PiMessage::SamplePosition { .. } => LOC_SAMPLE,
            PiMessage::Centroid => LOC_CENTROID,
            PiMessage::PerSlotOffset => LOC_PER_SLOT_OFFSET,
        }
    }

    /// Mesa's name.
    pub const fn mesa_name(&self) -> &'static str {
        match self {
            PiMessage::PerMessageOffset { .. } => "per_message_offset",
            PiMessage::SamplePosition { .. } => "sample_position",
            PiMessage::Centroid => "centroid",
            PiMessage::PerSlotOffset => "per_slot_offset",
        }
    }
}

/// A pixel interpolator descriptor (Gen7.5+): message data 7:0, slot group
/// 11, message type 13:12, no-perspective 14, SIMD16 16.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PixelInterp {
    /// Platform (Gen7.5 or later).
    pub platform: Platform,
    /// Lengths, header and EOT.
    pub common: Common,
    /// The query.
    pub msg: PiMessage,
    /// Linear (no perspective) rather than perspective-correct.
    pub linear: bool,
    /// SIMD16 rather than SIMD8.
    pub simd16: bool,
    /// High slot group (second half of a SIMD32 dispatch).
    pub slot_group_high: bool,
}

impl PixelInterp {
    /// A perspective-correct SIMD8 query of the low slot group.
    #[must_use]
    pub const fn new(platform: Platform, common: Common, msg: PiMessage) -> PixelInterp {
        PixelInterp {
            platform,
            common,
            msg,
            linear: false,
            simd16: false,
            slot_group_high: false,
        }
    }
}

/// Width of a per-message offset field (X and Y alike), a signed number.
const OFFSET_BITS: u32 = pd::PI_OFFSET_X.width;
/// Smallest per-message offset.
const OFFSET_MIN: i8 = -(1 << (OFFSET_BITS - 1));
/// Largest per-message offset.
const OFFSET_MAX: i8 = (1 << (OFFSET_BITS - 1)) - 1;
/// The bits of a per-message offset field.
const OFFSET_MASK: u8 = (1 << OFFSET_BITS) - 1;
/// Largest sample index of a sample position query.
const SAMPLE_INDEX_MAX: u8 = (1 << pd::PI_SAMPLE_INDEX.width) - 1;

/// Sign-extends a per-message offset field.
const fn sext_offset(v: u8) -> i8 {
    const SHIFT: u32 = i8::BITS - OFFSET_BITS;
    ((v << SHIFT) as i8) >> SHIFT
}

/// A per-message offset as its field bits, refusing one out of range.
fn offset_bits(field: &'static str, v: i8) -> Result<u8, MsgError> {
    if !(OFFSET_MIN..=OFFSET_MAX).contains(&v) {
        return Err(MsgError::Range {
            field,
            value: v as i64,
            min: OFFSET_MIN as i64,
            max: OFFSET_MAX as i64,
        });
    }
    Ok(v as u8 & OFFSET_MASK)
}

impl Descriptor for PixelInterp {
    const SFIDS: &'static [Sfid] = &[Sfid::PixelInterpolator];

    fn decode_desc(p: Platform, desc: u32) -> Result<Self, MsgError> {
        if !p.is_gen75_or_later() {
            return Err(MsgError::Function {
                sfid: Sfid::PixelInterpolator.hw(),
                platform: p,
            });
        }
        let msg = match pi::pi_message_type(desc) {
            LOC_SHARED_OFFSET => PiMessage::PerMessageOffset {
                x: sext_offset(pd::pi_offset_x(desc)),
                y: sext_offset(pd::pi_offset_y(desc)),
            },
            LOC_SAMPLE => PiMessage::SamplePosition {
                sample: pd::pi_sample_index(desc),
            },
            LOC_CENTROID => PiMessage::Centroid,
            // LOC_PER_SLOT_OFFSET, the last value of the 2-bit field.
            _ => PiMessage::PerSlotOffset,
        };
        let m = PixelInterp {
            platform: p,
            common: Common::decode(desc),
            msg,
            linear: flag(pi::pi_nopersp(desc)),
            simd16: flag(pi::pi_simd_mode(desc)),
            slot_group_high: flag(pi::pi_slot_group(desc)),
        };
        verified(m, desc)
    }

    fn desc(&self) -> Result<u32, MsgError> {
        if !self.platform.is_gen75_or_later() {
            return Err(MsgError::Function {
                sfid: Sfid::PixelInterpolator.hw(),
                platform: self.platform,
            });
        }
        // The message data (bits 7:0), checked before the common fields.
        let mut data = 0;
        match self.msg {
            PiMessage::PerMessageOffset { x, y } => {
                pd::set_pi_offset_x(&mut data, offset_bits("x offset", x)?)?;
                pd::set_pi_offset_y(&mut data, offset_bits("y offset", y)?)?;
            }
            PiMessage::SamplePosition { sample } => {
                if sample > SAMPLE_INDEX_MAX {
                    return Err(MsgError::Range {
                        field: "sample index",
                        value: sample as i64,
                        min: 0,
                        max: SAMPLE_INDEX_MAX as i64,
                    });
                }
                pd::set_pi_sample_index(&mut data, sample)?;
            }
            PiMessage::Centroid | PiMessage::PerSlotOffset => {}
        }
        let mut w = self.common.encode()? | data;
        pi::set_pi_message_type(&mut w, self.msg.msg_type())?;
        pi::set_pi_nopersp(&mut w, self.linear as u8)?;
        pi::set_pi_simd_mode(&mut w, self.simd16 as u8)?;
        pi::set_pi_slot_group(&mut w, self.slot_group_high as u8)?;
        Ok(w)
    }

    fn platform(&self) -> Platform {
        self.platform
    }

    fn common(&self) -> Common {
        self.common
    }
}
