//! Mesa's `MsgDesc:` comment for a SEND descriptor.
//!
//! The text follows the Mesa i965 disassembler of the 20.x era, field by
//! field from the raw descriptor bits, including its quirks: names of
//! reserved values print as `*** invalid <what> value <n> ` (not counted
//! toward the padding column, see the module documentation), the render
//! cache message control prints as `0x` followed by a decimal number, and
//! data cache 1 typed messages print their slot group as a SIMD mode.

use alloc::string::String;
use core::fmt::{self, Write};

use super::dataport::msg_type;
use super::{AtomicOp, GatewayOp, RtWriteSubtype, SamplerMsgType, SamplerSimd, Sfid, SurfaceSimd, UrbOpcode};
use crate::isa::dataport::{atomic_float, dc0, dc1, pi as pi_loc, render, rt_write, sampler};
use crate::model::{Instruction, MathFunction, Platform};
use crate::word::fields::{
    desc_common as dc, desc_dp_atomic as at, desc_dp_gen7 as dp, desc_dp_rt as rt, desc_dp_surface as surf,
    desc_gateway as gw, desc_math_gen4 as m4, desc_pi_gen75 as pi, desc_sampler as smp, desc_urb_gen7 as u7,
    desc_urb_gen8 as u8_,
};

/// Writes Mesa's `MsgDesc:` text of a SEND/SENDC (see the module
/// documentation of [`crate::msg`]); writes nothing for other opcodes.
pub fn write_msg_desc(out: &mut (impl Write + ?Sized), p: Platform, inst: &Instruction) -> fmt::Result {
    write_msg_desc_counted(out, p, inst).map(|_| ())
}

/// As [`write_msg_desc`], returning how many of the written characters
/// count toward Mesa's padding column (error texts do not).
pub fn write_msg_desc_counted(
    out: &mut (impl Write + ?Sized),
    p: Platform,
    inst: &Instruction,
) -> Result<usize, fmt::Error> {
    if !inst.opcode.is_send() {
        return Ok(0);
    }
    let desc = inst.src[1].is_imm().then_some(inst.imm as u32);
    write_msg_desc_raw(out, p, inst.cond_modifier, desc)
}

/// The `MsgDesc:` text of a SEND/SENDC and its counted width.
pub fn msg_desc_text(p: Platform, inst: &Instruction) -> (String, usize) {
    let mut s = String::new();
    // Writing into a String cannot fail.
    let n = write_msg_desc_counted(&mut s, p, inst).unwrap_or(0);
    (s, n)
}

/// The `MsgDesc:` text for an SFID and a descriptor (`None`: the
/// descriptor is in a register), returning the counted width.
pub fn write_msg_desc_raw(
    out: &mut (impl Write + ?Sized),
    p: Platform,
    sfid: u8,
    desc: Option<u32>,
) -> Result<usize, fmt::Error> {
    let mut l = Line {
        out,
        counted: 0,
        space: false,
    };
    let sf = Sfid::from_hw(sfid);
    l.control("SFID", sf.and_then(Sfid::mesa_name), sfid as u32)?;
    l.put(" MsgDesc:")?;
    match desc {
        None => l.put(" indirect")?,
        Some(d) => {
            body(&mut l, p, sf, sfid, d)?;
            // Each a constant: one write.
            if l.space {
                l.put(" mlen ")?;
            } else {
                l.put("mlen ")?;
            }
            l.num(dc::mlen(d))?;
            l.put(" rlen ")?;
            l.num(dc::rlen(d))?;
        }
    }
    Ok(l.counted)
}

/// A [`fmt::Display`] adapter for [`write_msg_desc_raw`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MsgDescDisplay {
    /// Platform.
    pub platform: Platform,
    /// SFID.
    pub sfid: u8,
    /// The descriptor, or `None` when it is in a register.
    pub desc: Option<u32>,
}

impl MsgDescDisplay {
    /// The text of `sfid` and `desc` on `platform`.
    pub const fn new(platform: Platform, sfid: u8, desc: Option<u32>) -> Self {
        MsgDescDisplay { platform, sfid, desc }
    }

    /// The text of a SEND/SENDC (`None` for other opcodes).
    pub fn of(platform: Platform, inst: &Instruction) -> Option<Self> {
        inst.opcode.is_send().then(|| MsgDescDisplay {
            platform,
            sfid: inst.cond_modifier,
            desc: inst.src[1].is_imm().then_some(inst.imm as u32),
        })
    }

    /// The number of characters that count toward Mesa's padding column.
    pub fn counted_width(&self) -> usize {
        write_msg_desc_raw(&mut Discard, self.platform, self.sfid, self.desc).unwrap_or(0)
    }
}

impl fmt::Display for MsgDescDisplay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_msg_desc_raw(f, self.platform, self.sfid, self.desc).map(|_| ())
    }
}

/// A sink that keeps nothing.
struct Discard;

impl Write for Discard {
    fn write_str(&mut self, _: &str) -> fmt::Result {
        Ok(())
    }
}

/// One output line: counted text, hidden error text, and Mesa's "a space
/// is pending before the next name" flag.
struct Line<'a, W: Write + ?Sized> {
    out: &'a mut W,
    counted: usize,
    space: bool,
}

impl<W: Write + ?Sized> Write for Line<'_, W> {
    #[inline]
    fn write_str(&mut self, s: &str) -> fmt::Result {
        // Mesa counts the bytes it prints (all of this text is ASCII).
        self.counted += s.len();
        self.out.write_str(s)
    }

    #[inline]
    fn write_char(&mut self, c: char) -> fmt::Result {
        self.counted += c.len_utf8();
        self.out.write_char(c)
    }
}

impl<W: Write + ?Sized> Line<'_, W> {
    /// One lowercase hexadecimal digit of `v` (its low four bits).
    fn hex_digit(&mut self, v: u8) -> fmt::Result {
        self.write_char(crate::decimal::hex_digit(v))
    }

    #[inline]
    fn put(&mut self, s: &str) -> fmt::Result {
        self.write_str(s)
    }

    /// A decimal number, without going through `core::fmt` (the hot path
    /// of every SEND).
    fn num(&mut self, v: impl Into<u64>) -> fmt::Result {
        crate::decimal::write_dec(self, v.into())
    }

    /// A value from a name table: an unnamed value prints a hidden error,
    /// an empty name prints nothing, a name prints after a pending space.
    #[inline(always)]
    fn control(&mut self, what: &str, name: Option<&str>, v: u32) -> fmt::Result {
        match name {
            // Not counted: written past `self`.
            None => invalid(self.out, what, v),
            Some("") => Ok(()),
            Some(n) => {
                if self.space {
                    self.put(" ")?;
                }
                self.space = true;
                crate::decimal::write_short(self, n)
            }
        }
    }

    /// A one-bit option printed by name when set.
    fn option(&mut self, what: &str, name: &str, v: u32) -> fmt::Result {
        self.control(what, if v == 0 { Some("") } else { Some(name) }, v)
    }
}

/// Mesa's message for a value missing from a name table (rare: kept out
/// of line, so that [`Line::control`] stays small enough to inline).
#[cold]
#[inline(never)]
fn invalid<W: Write + ?Sized>(out: &mut W, what: &str, v: u32) -> fmt::Result {
    out.write_str("*** invalid ")?;
    out.write_str(what)?;
    out.write_str(" value ")?;
    crate::decimal::write_dec(out, v.into())?;
    out.write_str(" ")
}

fn sampler_name(v: u8) -> Option<&'static str> {
    use sampler::*;
    SamplerMsgType::from_hw(v).map(SamplerMsgType::mesa_name).or(match v {
        GEN9_SAMPLE_LZ => Some("sample_lz"),
        GEN9_SAMPLE_C_LZ => Some("sample_c_lz"),
        GEN9_SAMPLE_LD_LZ => Some("ld_lz"),
        GEN9_SAMPLE_LD2DMS_W => Some("ld2dms_w"),
        _ => None,
    })
}

fn rc_name(v: u8) -> Option<&'static str> {
    use render::*;
    Some(match v {
        MEDIA_BLOCK_READ => "media block read",
        TYPED_SURFACE_READ => "typed surface read",
        TYPED_ATOMIC => "typed atomic op",
        MEMORY_FENCE => "memory fence",
        MEDIA_BLOCK_WRITE => "media block write",
        RT_WRITE => "RT write",
        TYPED_SURFACE_WRITE => "typed surface write",
        _ => return None,
    })
}

fn rt_subtype_name(v: u8) -> Option<&'static str> {
    RtWriteSubtype::from_hw(v)
        .map(RtWriteSubtype::mesa_name)
        .or((v == rt_write::SUBTYPE_REPDATA_111).then_some("SIMD16/RepData-111"))
}

fn dc0_name(v: u8) -> Option<&'static str> {
    use dc0::*;
    Some(match v {
        OWORD_BLOCK_READ => "DC OWORD block read",
        UNALIGNED_OWORD_BLOCK_READ => "DC unaligned OWORD block read",
        OWORD_DUAL_BLOCK_READ => "DC OWORD dual block read",
        DWORD_SCATTERED_READ => "DC DWORD scattered read",
        BYTE_SCATTERED_READ => "DC byte scattered read",
        UNTYPED_SURFACE_READ => "DC untyped surface read",
        UNTYPED_ATOMIC => "DC untyped atomic",
        MEMORY_FENCE => "DC mfence",
        OWORD_BLOCK_WRITE => "DC OWORD block write",
        OWORD_DUAL_BLOCK_WRITE => "DC OWORD dual block write",
        DWORD_SCATTERED_WRITE => "DC DWORD scatterd write",
        BYTE_SCATTERED_WRITE => "DC byte scattered write",
        UNTYPED_SURFACE_WRITE => "DC untyped surface write",
        _ => return None,
    })
}

fn dc1_name(v: u8) -> Option<&'static str> {
    use dc1::*;
    Some(match v {
        UNTYPED_SURFACE_READ => "untyped surface read",
        UNTYPED_ATOMIC => "DC untyped atomic op",
        UNTYPED_ATOMIC_SIMD4X2 => "DC untyped 4x2 atomic op",
        MEDIA_BLOCK_READ => "DC media block read",
        TYPED_SURFACE_READ => "DC typed surface read",
        TYPED_ATOMIC => "DC typed atomic",
        TYPED_ATOMIC_SIMD4X2 => "DC typed 4x2 atomic op",
        UNTYPED_SURFACE_WRITE => "DC untyped surface write",
        MEDIA_BLOCK_WRITE => "DC media block write",
        ATOMIC_COUNTER => "DC atomic counter op",
        ATOMIC_COUNTER_SIMD4X2 => "DC 4x2 atomic counter op",
        TYPED_SURFACE_WRITE => "DC typed surface write",
        A64_SCATTERED_READ => "DC A64 scattered read",
        A64_UNTYPED_SURFACE_READ => "DC A64 untyped surface read",
        A64_UNTYPED_ATOMIC => "DC A64 untyped atomic op",
        A64_OWORD_BLOCK_WRITE => "DC A64 OWORD block write",
        A64_UNTYPED_SURFACE_WRITE => "DC A64 untyped surface write",
        A64_SCATTERED_WRITE => "DC A64 scattered write",
        UNTYPED_ATOMIC_FLOAT => "DC untyped atomic float op",
        A64_UNTYPED_ATOMIC_FLOAT => "DC A64 untyped atomic float op",
        _ => return None,
    })
}

fn aop_name(v: u8) -> Option<&'static str> {
    AtomicOp::from_hw(v).map(AtomicOp::mesa_name)
}

fn float_aop_name(v: u8) -> Option<&'static str> {
    use atomic_float::*;
    Some(match v {
        FMAX => "fmax",
        FMIN => "fmin",
        FCMPWR => "fcmpwr",
        _ => return None,
    })
}

/// The shared-function specific part, between `MsgDesc:` and `mlen`.
fn body<W: Write + ?Sized>(l: &mut Line<'_, W>, p: Platform, sf: Option<Sfid>, sfid: u8, d: u32) -> fmt::Result {
    let bti = dp::binding_table_index(d);
    let mc = dp::msg_control(d);
    let mt = msg_type(p, d);
    match sf {
        Some(Sfid::Math) => {
            // Math is a shared function on Gen4-5 only; Mesa still decodes
            // its old fields here.
            let f = m4::math_msg_function(d);
            l.control("math function", MathFunction::mesa_name_of_code(f), f as u32)?;
            l.option("math saturate", "sat", m4::math_msg_saturate(d) as u32)?;
            l.option("math signed", "signed", m4::math_msg_signed_int(d) as u32)?;
            l.option("math scalar", "scalar", m4::math_msg_data_type(d) as u32)?;
            l.option("math precision", "partial_precision", m4::math_msg_precision(d) as u32)
        }
        Some(Sfid::Sampler) => {
            let t = smp::sampler_msg_type(d);
            l.control("sampler message", sampler_name(t), t as u32)?;
            let s = smp::simd_mode(d);
            l.control(
                "sampler simd mode",
                SamplerSimd::from_hw(s).map(SamplerSimd::mesa_name),
                s as u32,
            )?;
            l.put(" Surface = ")?;
            l.num(bti)?;
            l.put(" Sampler = ")?;
            l.num(smp::sampler_index(d))
        }
        Some(Sfid::SamplerCache | Sfid::ConstantCache) => {
            l.put(" (")?;
            l.num(bti)?;
            l.put(", ")?;
            l.num(mc)?;
            l.put(", ")?;
            l.num(mt)?;
            l.put(", 0)")
        }
        Some(Sfid::RenderCache) => {
            l.control("DP rc message type", rc_name(mt), mt as u32)?;
            if mt == render::RT_WRITE {
                let s = rt::rt_subtype(d);
                l.control("RT message type", rt_subtype_name(s), s as u32)?;
                if rt::rt_slot_group(d) != 0 {
                    l.put(" Hi")?;
                }
                if rt::last_rt(d) != 0 {
                    l.put(" LastRT")?;
                }
            } else {
                // Mesa prints this decimal number after a `0x`.
                l.put(" MsgCtrl = 0x")?;
                l.num(mc)?;
            }
            l.put(" Surface = ")?;
            l.num(bti)
        }
        Some(Sfid::Urb) => {
            let (op, offset, per_slot, b15, swizzle) = if p.is_gen8() {
                let b15 = u8_::swizzle_control(d);
                (
                    u8_::urb_opcode(d),
                    u8_::global_offset(d),
                    u8_::per_slot_offset(d),
                    b15,
                    b15,
                )
            } else {
                (
                    u7::urb_opcode(d),
                    u7::global_offset(d),
                    u7::per_slot_offset(d),
                    u7::complete(d),
                    u7::swizzle_control(d),
                )
            };
            l.put(" ")?;
            l.num(offset)?;
            l.space = true;
            l.control(
                "urb opcode",
                UrbOpcode::from_hw(op).map(UrbOpcode::mesa_name),
                op as u32,
            )?;
            if per_slot != 0 {
                l.put(" per-slot")?;
            }
            if op == UrbOpcode::Simd8Write.hw() || op == UrbOpcode::Simd8Read.hw() {
                if b15 != 0 {
                    l.put(" masked")?;
                }
            } else {
                l.option("urb swizzle", "interleave", swizzle as u32)?;
            }
            if !p.is_gen8() {
                l.option("urb complete", "complete", b15 as u32)?;
            }
            Ok(())
        }
        Some(Sfid::ThreadSpawner) => Ok(()),
        Some(Sfid::Gateway) => {
            let op = GatewayOp::from_hw(gw::gateway_subfunction(d)).map_or("(null)", GatewayOp::mesa_name);
            l.put(" (")?;
            l.put(op)?;
            l.put(")")
        }
        Some(Sfid::DataCache) => {
            l.put(" (")?;
            l.control("DP DC0 message type", dc0_name(mt), mt as u32)?;
            l.put(", ")?;
            l.num(bti)?;
            l.put(", ")?;
            if mt == dc0::UNTYPED_ATOMIC {
                let op = at::atomic_op(d);
                l.control("atomic op", aop_name(op), op as u32)?;
            } else {
                l.num(mc)?;
            }
            l.put(")")
        }
        Some(Sfid::DataCache1) => {
            l.put(" (")?;
            l.control("DP DC1 message type", dc1_name(mt), mt as u32)?;
            l.put(", Surface = ")?;
            l.num(bti)?;
            l.put(", ")?;
            let simd = if at::atomic_simd8(d) != 0 { "SIMD8," } else { "SIMD16," };
            let op = at::atomic_op(d);
            match mt {
                dc1::UNTYPED_ATOMIC | dc1::TYPED_ATOMIC | dc1::ATOMIC_COUNTER => {
                    l.put(simd)?;
                    l.control("atomic op", aop_name(op), op as u32)?;
                }
                dc1::UNTYPED_ATOMIC_SIMD4X2
                | dc1::TYPED_ATOMIC_SIMD4X2
                | dc1::ATOMIC_COUNTER_SIMD4X2
                | dc1::A64_UNTYPED_ATOMIC => l.control("atomic op", aop_name(op), op as u32)?,
                dc1::UNTYPED_SURFACE_READ
                | dc1::TYPED_SURFACE_READ
                | dc1::UNTYPED_SURFACE_WRITE
                | dc1::TYPED_SURFACE_WRITE
                | dc1::A64_UNTYPED_SURFACE_READ
                | dc1::A64_UNTYPED_SURFACE_WRITE => {
                    // Typed messages too: Mesa prints their slot group as
                    // the untyped SIMD mode.
                    let mode = match SurfaceSimd::from_hw(surf::surface_mode(d)) {
                        Some(SurfaceSimd::Simd4x2) => "4x2",
                        Some(SurfaceSimd::Simd16) => "16",
                        Some(SurfaceSimd::Simd8) => "8",
                        None => "?",
                    };
                    l.put("SIMD")?;
                    l.put(mode)?;
                    l.put(", Mask = 0x")?;
                    l.hex_digit(surf::channel_disable(d))?;
                }
                dc1::UNTYPED_ATOMIC_FLOAT | dc1::A64_UNTYPED_ATOMIC_FLOAT => {
                    l.put(simd)?;
                    l.control("atomic float op", float_aop_name(op), op as u32)?;
                }
                _ => write!(l, "0x{mc:x}")?,
            }
            l.put(")")
        }
        Some(Sfid::PixelInterpolator) => {
            let mode = if pi::pi_nopersp(d) != 0 { "linear" } else { "persp" };
            let ty = match pi::pi_message_type(d) {
                pi_loc::LOC_SHARED_OFFSET => "per_message_offset",
                pi_loc::LOC_SAMPLE => "sample_position",
                pi_loc::LOC_CENTROID => "centroid",
                // LOC_PER_SLOT_OFFSET, the last value of the 2-bit field.
                _ => "per_slot_offset",
            };
            write!(l, " ({mode}, {ty}, 0x{:02x})", pi::pi_message_data(d))
        }
        _ => write!(l, "unsupported shared function ID {sfid}"),
    }
}
