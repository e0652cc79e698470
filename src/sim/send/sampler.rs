//! The sampling engine (SFID 2): `ld`, `resinfo`, `sample`, `sample_l`,
//! `sample_b` and `gather4`, SIMD8 and SIMD16, 32-bit returns, point sampling of the
//! first mip level of 2D surfaces.
//!
//! Payload (IVB/HSW PRM Vol 4/7 "Sampler Message Payload"; Mesa's
//! `lower_sampler_logical_send_gfx7` orders the same): an optional header
//! whose dword 2 holds the texel offsets (U bits 11:8, V 7:4, R 3:0, signed
//! 4-bit), the channel *disable* mask (bits 15:12, fewer response
//! registers) and the gather4 source channel (bits 17:16); then the
//! parameters, one register (SIMD8) or two (SIMD16) each:
//!
//! - `sample`, `gather4`: u, v, r, ai (floats);
//! - `sample_l`, `sample_b`: lod (bias), u, v, r, ai (the LOD or bias
//!   comes first on Gen7-Gen8; with one mip level it changes nothing);
//! - `ld`: u, lod, v, r (integers, the LOD second before Gen9);
//! - `resinfo`: lod (integer).
//!
//! The response is one register (SIMD16: two) per enabled channel, RGBA.
//! Float and normalized formats return floats, integer formats integers;
//! a channel the format lacks returns 0 (alpha 1). `ld` outside the
//! surface (or a non-zero LOD or R) returns zeros. `sample` takes the
//! nearest texel, `floor(u * width)` (unnormalized: `floor(u)`), plus the
//! offset, then the sampler's address mode. `gather4` returns the chosen
//! channel of the four texels of the bilinear footprint of `u * width -
//! 0.5`: (i0, j1), (i1, j1), (i1, j0), (i0, j0) in R, G, B, A.
//! `resinfo` returns width, height, the layer count (1) and the mip count
//! (1) at LOD 0 (zeros but the mip count at another LOD); on a buffer, its
//! size in bytes in R.
//!
//! `ld_lz` (and `sample_lz`) exist from Gen9 only: Gen7-Gen8 descriptors
//! reserve their message types, so they do not decode.

use super::{pdw, slot_dw, unmodelled, MessageCall, MessageReply, Reply};
use crate::msg::{ReturnFormat, Sampler, SamplerMsgType, SamplerSimd};
use crate::sim::memory::AddressMode;
use crate::sim::{Memory, SimError, Surface};

/// Header dword of the offsets, channel mask and gather channel.
const HEADER_DW: usize = 2;
/// Position of the channel disable mask in header dword 2.
const CHANNEL_DISABLE_SHIFT: u32 = 12;
/// Position of the gather4 source channel in header dword 2.
const GATHER_CHANNEL_SHIFT: u32 = 16;
/// Positions of the U and V offsets in header dword 2.
const OFFSET_U_SHIFT: u32 = 8;
const OFFSET_V_SHIFT: u32 = 4;

/// A signed 4-bit offset at `shift` of `dw`.
fn offset4(dw: u32, shift: u32) -> i64 {
    i64::from(((dw >> shift & 0xf) as i8) << 4 >> 4)
}

/// `floor(x)` as an integer, saturating (NaN gives 0), without std.
fn floor(x: f64) -> i64 {
    let t = x as i64;
    if (t as f64) > x {
        t.saturating_sub(1)
    } else {
        t
    }
}

/// The texel coordinate an address mode gives (`None`: the border).
fn address(mode: AddressMode, i: i64, size: u32) -> Option<i64> {
    let n = i64::from(size);
    if n == 0 {
        return None;
    }
    match mode {
        AddressMode::Clamp => Some(i.clamp(0, n - 1)),
        AddressMode::Wrap => Some(i.rem_euclid(n)),
        AddressMode::Border => (0..n).contains(&i).then_some(i),
    }
}

pub(super) fn sample(call: &MessageCall<'_>, mem: &Memory, m: &Sampler) -> Result<MessageReply, SimError> {
    let ty = m.msg_type.hw();
    let (slots, rpp) = match m.simd {
        SamplerSimd::Simd8 => (8usize, 1u32),
        SamplerSimd::Simd16 => (16, 2),
        _ => return Err(unmodelled(call, ty, "sampler SIMD4x2 or SIMD32/64 message")),
    };
    if m.return_format != ReturnFormat::Bits32 {
        return Err(unmodelled(call, ty, "sampler message with 16-bit returns"));
    }
    let (min_params, what) = match m.msg_type {
        SamplerMsgType::Sample | SamplerMsgType::Gather4 => (1, "sample/gather4 (u [v r ai])"),
        SamplerMsgType::SampleL => (2, "sample_l (lod u [v r ai])"),
        SamplerMsgType::SampleB => (2, "sample_b (bias u [v r ai])"),
        SamplerMsgType::Ld => (1, "ld (u [lod v r])"),
        SamplerMsgType::Resinfo => (1, "resinfo (lod)"),
        _ => return Err(unmodelled(call, ty, "sampler message")),
    };
    let c = &m.common;
    let h = u32::from(c.header);
    let params = u32::from(c.mlen).saturating_sub(h);
    if params % rpp != 0 || params / rpp < min_params {
        return Err(SimError::Length {
            offset: call.offset,
            field: "mlen",
            value: u32::from(c.mlen),
            expected: h + min_params * rpp,
            what,
        });
    }
    let nparams = params / rpp;
    let hdw = if c.header { pdw(call, 0, HEADER_DW) } else { 0 };
    let disabled = (hdw >> CHANNEL_DISABLE_SHIFT & 0xf) as u8;
    let (offu, offv) = (offset4(hdw, OFFSET_U_SHIFT), offset4(hdw, OFFSET_V_SHIFT));
    let gather_channel = (hdw >> GATHER_CHANNEL_SHIFT & 3) as usize;
    let s = mem.surface(m.bti).ok_or(SimError::UnboundSurface {
        offset: call.offset,
        bti: m.bti,
    })?;
    if s.format().is_none() && m.msg_type != SamplerMsgType::Resinfo {
        return Err(SimError::Format {
            offset: call.offset,
            bti: m.bti,
            format: "buffer",
            what: "the sampler reads 2D surfaces with a format",
        });
    }
    let state = mem.sampler(m.sampler);
    let channels: u32 = (!disabled & 0xf).count_ones();
    if channels == 0 {
        return Err(SimError::Payload {
            offset: call.offset,
            what: "the sampler header disables every channel",
        });
    }
    let mut r = Reply::new(channels * rpp);
    for k in (0..slots).filter(|&k| super::enabled(call, k)) {
        let p = |i: u32| {
            if i < nparams {
                slot_dw(call, (h + i * rpp) as usize, k)
            } else {
                0
            }
        };
        let pf = |i: u32| f64::from(f32::from_bits(p(i)));
        let out: [u32; 4] = match m.msg_type {
            SamplerMsgType::Ld => {
                let (x, lod, y, layer) = (p(0) as i32, p(1), p(2) as i32, p(3));
                if lod != 0 || layer != 0 {
                    [0; 4]
                } else {
                    s.texel(i64::from(x) + offu, i64::from(y) + offv).unwrap_or([0; 4])
                }
            }
            SamplerMsgType::Resinfo => resinfo(s, p(0)),
            SamplerMsgType::Sample | SamplerMsgType::SampleL | SamplerMsgType::SampleB => {
                // The LOD or bias comes first; with one mip level it changes nothing.
                let first = u32::from(m.msg_type != SamplerMsgType::Sample);
                let (u, v) = (pf(first), pf(first + 1));
                let (x, y) = if state.unnormalized {
                    (floor(u), floor(v))
                } else {
                    (floor(u * f64::from(s.width())), floor(v * f64::from(s.height())))
                };
                fetch(
                    s,
                    state.address_u,
                    state.address_v,
                    x.saturating_add(offu),
                    y.saturating_add(offv),
                )
            }
            // Gather4.
            _ => {
                let (u, v) = (pf(0), pf(1));
                let (fx, fy) = if state.unnormalized {
                    (u - 0.5, v - 0.5)
                } else {
                    (u * f64::from(s.width()) - 0.5, v * f64::from(s.height()) - 0.5)
                };
                let (i0, j0) = (floor(fx).saturating_add(offu), floor(fy).saturating_add(offv));
                let t = |i, j| {
                    let texel = fetch(s, state.address_u, state.address_v, i, j);
                    texel.get(gather_channel).copied().unwrap_or(0)
                };
                let (i1, j1) = (i0.saturating_add(1), j0.saturating_add(1));
                [t(i0, j1), t(i1, j1), t(i1, j0), t(i0, j0)]
            }
        };
        let mut reg = 0;
        for (ch, v) in out.iter().enumerate() {
            if disabled >> ch & 1 == 0 {
                r.set_slot((reg * rpp) as usize, k, *v);
                reg += 1;
            }
        }
    }
    r.done()
}

/// A texel through the address modes (zeros on the border).
fn fetch(s: &Surface, mu: AddressMode, mv: AddressMode, x: i64, y: i64) -> [u32; 4] {
    match (address(mu, x, s.width()), address(mv, y, s.height())) {
        (Some(x), Some(y)) => s.texel(x, y).unwrap_or([0; 4]),
        _ => [0; 4],
    }
}

/// `resinfo` at `lod`: width, height, layers, mip levels (one of each but
/// the first two).
fn resinfo(s: &Surface, lod: u32) -> [u32; 4] {
    const LEVELS: u32 = 1;
    match (s.format(), lod) {
        (None, _) => [s.width(), 0, 0, 0],
        (Some(_), 0) => [s.width(), s.height(), 1, LEVELS],
        (Some(_), _) => [0, 0, 0, LEVELS],
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    proptest! {
        /// The no_std floor agrees with std's (cast with Rust's saturation).
        #[test]
        fn floor_is_std_floor(x in any::<f64>()) {
            prop_assert_eq!(super::floor(x), x.floor() as i64);
        }
    }

    #[test]
    fn floor_edges() {
        for x in [
            -0.5,
            -1.0,
            -0.0,
            0.99,
            2.5,
            -2.5,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            -1e300,
        ] {
            assert_eq!(super::floor(x), x.floor() as i64, "{x}");
        }
    }
}
