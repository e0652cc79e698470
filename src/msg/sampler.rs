//! Sampling engine messages (SFID 2).

use super::{hw_enum, known, reserved, verified, Common, Descriptor, MsgError, Sfid};
use crate::model::Platform;
use crate::word::fields::{desc_sampler as s, desc_sampler_gen8 as s8};

hw_enum! {
    /// Sampler message type (descriptor bits 16:12).
    SamplerMsgType {
        /// Sample.
        Sample = 0,
        /// Sample with LOD bias.
        SampleB = 1,
        /// Sample at an explicit LOD.
        SampleL = 2,
        /// Sample with shadow comparison.
        SampleC = 3,
        /// Sample with explicit derivatives.
        SampleD = 4,
        /// Sample with bias and comparison.
        SampleBC = 5,
        /// Sample at an LOD with comparison.
        SampleLC = 6,
        /// Texel fetch.
        Ld = 7,
        /// Gather four texels.
        Gather4 = 8,
        /// Compute the LOD.
        Lod = 9,
        /// Resource information.
        Resinfo = 10,
        /// Sample count and positions.
        Sampleinfo = 11,
        /// Gather with comparison.
        Gather4C = 16,
        /// Gather with per-pixel offsets.
        Gather4Po = 17,
        /// Gather with per-pixel offsets and comparison.
        Gather4PoC = 18,
        /// Sample with derivatives and comparison (Gen7.5+).
        SampleDC = 20,
        /// Fetch the MCS of a multisampled surface.
        LdMcs = 29,
        /// Multisampled texel fetch.
        Ld2dms = 30,
        /// Single-sample fetch from a multisampled surface.
        Ld2dss = 31,
    }
}

impl SamplerMsgType {
    /// Whether the message exists on `p`.
    pub const fn exists_on(self, p: Platform) -> bool {
        !matches!(self, SamplerMsgType::SampleDC) || p.is_gen75_or_later()
    }

    /// Mesa's name.
    pub const fn mesa_name(self) -> &'static str {
        match self {
            SamplerMsgType::Sample => "sample",
            SamplerMsgType::SampleB => "sample_b",
            SamplerMsgType::SampleL => "sample_l",
            SamplerMsgType::SampleC => "sample_c",
            SamplerMsgType::SampleD => "sample_d",
            SamplerMsgType::SampleBC => "sample_b_c",
            SamplerMsgType::SampleLC => "sample_l_c",
            SamplerMsgType::Ld => "ld",
            SamplerMsgType::Gather4 => "gather4",
            SamplerMsgType::Lod => "lod",
            SamplerMsgType::Resinfo => "resinfo",
            SamplerMsgType::Sampleinfo => "sampleinfo",
            SamplerMsgType::Gather4C => "gather4_c",
            SamplerMsgType::Gather4Po => "gather4_po",
            SamplerMsgType::Gather4PoC => "gather4_po_c",
            SamplerMsgType::SampleDC => "sample_d_c",
            SamplerMsgType::LdMcs => "ld_mcs",
            SamplerMsgType::Ld2dms => "ld2dms",
            SamplerMsgType::Ld2dss => "ld2dss",
        }
    }
}

hw_enum! {
    /// Sampler SIMD mode (descriptor bits 18:17).
    SamplerSimd {
        /// SIMD4x2 (vec4 shaders).
        Simd4x2 = 0,
        /// SIMD8.
        Simd8 = 1,
        /// SIMD16.
        Simd16 = 2,
        /// SIMD32/64 (resinfo and sampleinfo-style messages).
        Simd32_64 = 3,
    }
}

impl SamplerSimd {
    /// Mesa's name.
    pub const fn mesa_name(self) -> &'static str {
        match self {
            SamplerSimd::Simd4x2 => "SIMD4x2",
            SamplerSimd::Simd8 => "SIMD8",
            SamplerSimd::Simd16 => "SIMD16",
            SamplerSimd::Simd32_64 => "SIMD32/64",
        }
    }
}

hw_enum! {
    /// Sampler return format (Gen8, descriptor bit 30).
    ReturnFormat {
        /// 32-bit channels.
        Bits32 = 0,
        /// 16-bit channels.
        Bits16 = 1,
    }
}

/// A sampling engine message descriptor: binding table index 7:0, sampler
/// state index 11:8, message type 16:12, SIMD mode 18:17; Gen8 adds the
/// return format in bit 30.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Sampler {
    /// Platform.
    pub platform: Platform,
    /// Lengths, header and EOT.
    pub common: Common,
    /// Message type.
    pub msg_type: SamplerMsgType,
    /// SIMD mode.
    pub simd: SamplerSimd,
    /// Sampler state index (0..=15).
    pub sampler: u8,
    /// Binding table index of the surface.
    pub bti: u8,
    /// Return format (anything but 32-bit needs Gen8).
    pub return_format: ReturnFormat,
}

impl Sampler {
    /// A message returning 32-bit data.
    pub const fn new(
        platform: Platform,
        common: Common,
        msg_type: SamplerMsgType,
        simd: SamplerSimd,
        sampler: u8,
        bti: u8,
    ) -> Sampler {
        Sampler {
            platform,
            common,
            msg_type,
            simd,
            sampler,
            bti,
            return_format: ReturnFormat::Bits32,
        }
    }
}

impl Descriptor for Sampler {
    const SFIDS: &'static [Sfid] = &[Sfid::Sampler];

    fn decode_desc(p: Platform, desc: u32) -> Result<Self, MsgError> {
        let t = s::sampler_msg_type(desc);
        let msg_type = match SamplerMsgType::from_hw(t) {
            Some(m) if m.exists_on(p) => m,
            _ => return reserved("sampler message type", t as u32, p),
        };
        let simd = s::simd_mode(desc);
        let return_format = if p.is_gen8() {
            let r = s8::return_format(desc);
            known(ReturnFormat::from_hw(r), "return format", r as u32, p)?
        } else {
            ReturnFormat::Bits32
        };
        let m = Sampler {
            platform: p,
            common: Common::decode(desc),
            msg_type,
            simd: known(SamplerSimd::from_hw(simd), "SIMD mode", simd as u32, p)?,
            sampler: s::sampler_index(desc),
            bti: s::binding_table_index(desc),
            return_format,
        };
        verified(m, desc)
    }

    fn desc(&self) -> Result<u32, MsgError> {
        let p = self.platform;
        if !self.msg_type.exists_on(p) {
            return reserved("sampler message type", self.msg_type.hw() as u32, p);
        }
        let mut w = self.common.encode()?;
        s::set_binding_table_index(&mut w, self.bti)?;
        s::set_sampler_index(&mut w, self.sampler)?;
        s::set_sampler_msg_type(&mut w, self.msg_type.hw())?;
        s::set_simd_mode(&mut w, self.simd.hw())?;
        if self.return_format != ReturnFormat::Bits32 {
            if !p.is_gen8() {
                return reserved("return format", self.return_format.hw() as u32, p);
            }
            s8::set_return_format(&mut w, self.return_format.hw())?;
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
