//! URB messages (SFID 6).

use super::{flag, known, reserved, verified, Common, Descriptor, MsgError, Sfid};
use crate::model::Platform;
use crate::word::fields::{desc_urb_gen7 as g7, desc_urb_gen8 as g8};

pub use crate::isa::dataport::UrbOpcode;

/// A URB message descriptor.
///
/// Gen7/7.5: opcode 2:0, global offset 13:3, swizzle (interleave) 14,
/// complete 15, per-slot offset 16. Gen8: opcode 3:0, global offset 14:4,
/// bit 15 = interleave (HWord/OWord opcodes) or channel mask present (SIMD8
/// opcodes), per-slot offset 17; no "complete".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Urb {
    /// Platform.
    pub platform: Platform,
    /// Lengths, header and EOT.
    pub common: Common,
    /// Opcode.
    pub opcode: UrbOpcode,
    /// Global offset (11 bits), in HWords or OWords per the opcode.
    pub global_offset: u16,
    /// An extra payload GRF holds per-slot offsets.
    pub per_slot_offset: bool,
    /// Swizzle control: interleave (SIMD4x2 vec4 data). Not for the SIMD8
    /// opcodes.
    pub interleave: bool,
    /// Gen8 SIMD8 opcodes: a payload GRF holds per-slot channel masks.
    pub channel_mask: bool,
    /// Gen7/7.5: the URB entry is complete.
    pub complete: bool,
}

impl Urb {
    /// A message with everything but the opcode and lengths clear.
    pub const fn new(platform: Platform, common: Common, opcode: UrbOpcode) -> Urb {
        Urb {
            platform,
            common,
            opcode,
            global_offset: 0,
            per_slot_offset: false,
            interleave: false,
            channel_mask: false,
            complete: false,
        }
    }
}

impl Descriptor for Urb {
    const SFIDS: &'static [Sfid] = &[Sfid::Urb];

    fn decode_desc(p: Platform, desc: u32) -> Result<Self, MsgError> {
        let common = Common::decode(desc);
        let m = if p.is_gen8() {
            let op = g8::urb_opcode(desc);
            let opcode = known(UrbOpcode::from_hw(op), "URB opcode", op as u32, p)?;
            let b15 = flag(g8::swizzle_control(desc));
            Urb {
                platform: p,
                common,
                opcode,
                global_offset: g8::global_offset(desc),
                per_slot_offset: flag(g8::per_slot_offset(desc)),
                interleave: b15 && !opcode.is_simd8(),
                channel_mask: b15 && opcode.is_simd8(),
                complete: false,
            }
        } else {
            let op = g7::urb_opcode(desc);
            let opcode = match UrbOpcode::from_hw(op) {
                Some(o) if o.exists_on(p) => o,
                _ => return reserved("URB opcode", op as u32, p),
            };
            Urb {
                platform: p,
                common,
                opcode,
                global_offset: g7::global_offset(desc),
                per_slot_offset: flag(g7::per_slot_offset(desc)),
                interleave: flag(g7::swizzle_control(desc)),
                channel_mask: false,
                complete: flag(g7::complete(desc)),
            }
        };
        verified(m, desc)
    }

    fn desc(&self) -> Result<u32, MsgError> {
        let p = self.platform;
        if !self.opcode.exists_on(p) {
            return reserved("URB opcode", self.opcode.hw() as u32, p);
        }
        let mut w = self.common.encode()?;
        if p.is_gen8() {
            if self.complete {
                return Err(MsgError::Invalid {
                    field: "complete",
                    reason: "Gen8 URB messages have no complete bit",
                });
            }
            let b15 = if self.opcode.is_simd8() {
                if self.interleave {
                    return Err(MsgError::Invalid {
                        field: "swizzle control",
                        reason: "SIMD8 URB messages have no swizzle",
                    });
                }
                self.channel_mask
            } else {
                if self.channel_mask {
                    return Err(MsgError::Invalid {
                        field: "channel mask present",
                        reason: "only SIMD8 URB messages carry channel masks",
                    });
                }
                self.interleave
            };
            g8::set_urb_opcode(&mut w, self.opcode.hw())?;
            g8::set_global_offset(&mut w, self.global_offset)?;
            g8::set_swizzle_control(&mut w, b15 as u8)?;
            g8::set_per_slot_offset(&mut w, self.per_slot_offset as u8)?;
        } else {
            if self.channel_mask {
                return Err(MsgError::Invalid {
                    field: "channel mask present",
                    reason: "Gen7 URB messages carry no channel masks",
                });
            }
            g7::set_urb_opcode(&mut w, self.opcode.hw())?;
            g7::set_global_offset(&mut w, self.global_offset)?;
            g7::set_swizzle_control(&mut w, self.interleave as u8)?;
            g7::set_complete(&mut w, self.complete as u8)?;
            g7::set_per_slot_offset(&mut w, self.per_slot_offset as u8)?;
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
