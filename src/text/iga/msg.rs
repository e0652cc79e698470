//! IGA's end-of-line comment of a SEND: payload lengths, the shared
//! function, and what the message is (`wr:5h+0, rd:0; hdc.urb; urb dword
//! write`).

use core::fmt::{self, Write};

use crate::decimal::write_dec;
use crate::model::*;

use super::print::sfid_name;

/// Writes the comment after `// `.
pub(crate) fn write_comment<W: Write + ?Sized>(out: &mut W, p: Platform, i: &Instruction) -> fmt::Result {
    let sfid = i.cond_modifier & 0xf;
    match i.send_desc() {
        Some(d) => {
            let mlen = d >> 25 & 0xf;
            let rlen = d >> 20 & 0x1f;
            let header = d >> 19 & 1 == 1;
            out.write_str("wr:")?;
            write_dec(out, mlen.into())?;
            out.write_str(if header { "h+0, rd:" } else { "+0, rd:" })?;
            write_dec(out, rlen.into())?;
            out.write_str("; ")?;
            out.write_str(sfid_name(sfid))?;
            describe(out, p, i, sfid, d)
        }
        None => {
            let sub = match i.src[1].addr {
                Addr::Direct { subnr, .. } | Addr::Indirect { subnr, .. } => subnr,
            };
            out.write_str("wr:a0.")?;
            write_dec(out, sub.into())?;
            out.write_str("[28:25]+0, rd:a0.")?;
            write_dec(out, sub.into())?;
            out.write_str("[24:20]; ")?;
            out.write_str(sfid_name(sfid))
        }
    }
}

/// `; <what the message is>`, where IGA describes it (URB and sampler
/// messages so far; the others print the shared function alone).
fn describe<W: Write + ?Sized>(out: &mut W, p: Platform, _i: &Instruction, sfid: u8, d: u32) -> fmt::Result {
    match sfid {
        6 if p.is_gen8() => {
            let what = match d & 0xf {
                7 if d >> 15 & 1 == 1 => "urb dword masked write",
                7 => "urb dword write",
                8 => "urb dword read",
                _ => return Ok(()),
            };
            out.write_str("; ")?;
            out.write_str(what)?;
            if d >> 17 & 1 == 1 {
                out.write_str(" with per-slot offset enabled")?;
            }
            Ok(())
        }
        2 => {
            let simd = match d >> 17 & 3 {
                1 => "simd8",
                2 => "simd16",
                _ => return Ok(()),
            };
            let Some(name) = sampler_message(d >> 12 & 0x1f) else {
                return Ok(());
            };
            out.write_str("; ")?;
            out.write_str(simd)?;
            out.write_str(" ")?;
            out.write_str(name)?;
            out.write_str(" using sampler index ")?;
            write_dec(out, (d >> 8 & 0xf).into())
        }
        // Scratch block messages of the data cache.
        10 if d >> 18 & 1 == 1 => {
            let dir = if d >> 17 & 1 == 1 { "write" } else { "read" };
            out.write_str("; hword scratch block ")?;
            out.write_str(dir)?;
            out.write_str(" x")?;
            write_dec(out, (1u32 << (d >> 12 & 3)).into())
        }
        // The constant cache's oword block read.
        9 if d >> 14 & 0xf == 0 => {
            out.write_str("; constant oword block read x")?;
            write_dec(out, owords(d).into())
        }
        // The data cache's oword block write and memory fence.
        10 if d >> 14 & 0xf == 8 => {
            out.write_str("; oword block write x")?;
            write_dec(out, owords(d).into())
        }
        10 if d >> 14 & 0xf == 7 => {
            out.write_str("; ")?;
            // Commit enable: the fence returns a write once it is done.
            if d >> 13 & 1 == 1 {
                out.write_str("synchronized ")?;
            }
            // Surface 0xFE is shared local memory.
            out.write_str(if d & 0xff == 0xfe {
                "SLM fence"
            } else {
                "global fence flushing"
            })
        }
        // The thread spawner's end of thread.
        7 if d >> 4 & 1 == 1 => out.write_str("; end of thread"),
        // Data cache 1: untyped and typed surface and atomic messages.
        12 => dc1(out, d),
        // IGA names no pixel interpolator message.
        11 => out.write_str("; ?"),
        // Render target write.
        5 if d >> 14 & 0xf == 12 => {
            let simd = match d >> 8 & 7 {
                0 => "SIMD16",
                1 => "replicated SIMD16",
                3 => "of high SIMD8",
                4 => "SIMD8",
                _ => return Ok(()),
            };
            let precision = if d >> 30 & 1 == 1 { "half" } else { "full" };
            out.write_str("; ")?;
            out.write_str(precision)?;
            out.write_str("-precision render target write ")?;
            out.write_str(simd)?;
            if d >> 12 & 1 == 1 {
                out.write_str("; last render target")?;
            }
            out.write_str(" to surface ")?;
            write_dec(out, (d & 0xff).into())
        }
        _ => Ok(()),
    }
}

/// Data cache 1 (Haswell on): descriptor bits 17:14 give the message,
/// bits 13:8 its control.
fn dc1<W: Write + ?Sized>(out: &mut W, d: u32) -> fmt::Result {
    let ctl = d >> 8 & 0x3f;
    let mlen = d >> 25 & 0xf;
    match d >> 14 & 0xf {
        t @ (1 | 9) => {
            let dir = if t == 1 { "read" } else { "write" };
            out.write_str("; untyped surface ")?;
            out.write_str(dir)?;
            out.write_str(" with ")?;
            out.write_str(channels(ctl))
        }
        2 => match atomic_name(ctl & 0xf) {
            Some(a) => {
                out.write_str("; untyped atomic int32 ")?;
                out.write_str(a)
            }
            None => Ok(()),
        },
        6 => match atomic_name(ctl & 0xf) {
            Some(a) => {
                out.write_str(if ctl & 0x10 != 0 {
                    "; typed_sgh atomic 32-bit integer (slot group high) "
                } else {
                    "; typed atomic 32-bit integer "
                })?;
                out.write_str(a)
            }
            None => Ok(()),
        },
        t @ (5 | 13) => {
            let dir = if t == 5 { "read" } else { "write" };
            let high = if ctl & 0x20 != 0 { " (high slot group)" } else { "" };
            let ch = channels(ctl);
            // The coordinates as IGA lists them: one per payload
            // register of a read; a write of one channel as well, and
            // none it can name for wider data.
            let coords = match (t, ch.len(), mlen) {
                (5, _, 2) | (13, 1, 2) => "u,v",
                (5, _, 3) | (13, 1, 3) => "u,v,r",
                (5, _, 4) | (13, 1, 4) => "u,v,r,lod",
                _ => "???",
            };
            out.write_str("; typed surface ")?;
            out.write_str(dir)?;
            out.write_str(high)?;
            out.write_str(" with ")?;
            out.write_str(ch)?;
            out.write_str("; ")?;
            out.write_str(coords)
        }
        _ => Ok(()),
    }
}

/// The channels a surface message's mask (bits 3:0, set for a disabled
/// channel) leaves enabled: `x`, `xy`, `xyz`, `xyzw`, ….
fn channels(ctl: u32) -> &'static str {
    const NAMES: [&str; 16] = [
        "xyzw", "yzw", "xzw", "zw", "xyw", "yw", "xw", "w", "xyz", "yz", "xz", "z", "xy", "y", "x", "",
    ];
    NAMES.get((ctl & 0xf) as usize).copied().unwrap_or("")
}

/// IGA's names of the atomic operations (descriptor bits 11:8).
fn atomic_name(op: u32) -> Option<&'static str> {
    Some(match op {
        1 => "logical AND",
        2 => "logical OR",
        3 => "logical XOR",
        4 => "store",
        5 => "integer increment",
        6 => "integer decrement",
        7 => "integer add",
        10 => "signed-integer max",
        11 => "signed-integer min",
        12 => "unsigned-integer max",
        13 => "unsigned-integer min",
        14 => "integer compare and swap",
        _ => return None,
    })
}

/// The block size of an oword block message (bits 10:8), in owords.
fn owords(d: u32) -> u32 {
    match d >> 8 & 7 {
        2 => 2,
        3 => 4,
        4 => 8,
        _ => 1,
    }
}

/// IGA's names of the sampler's message types (descriptor bits 16:12).
fn sampler_message(t: u32) -> Option<&'static str> {
    Some(match t {
        0 => "sample",
        1 => "sample+LOD bias",
        2 => "sample override LOD",
        3 => "sample compare",
        4 => "sample gradient",
        5 => "sample compare+LOD bias",
        6 => "sample compare+override LOD",
        7 => "sample load",
        8 => "sample gather4",
        9 => "sample override lod",
        10 => "sample res info",
        11 => "sample info",
        16 => "sample gather4+compare",
        17 => "sample gather4+pixel offset",
        18 => "sample gather4 pixel offset+compare",
        20 => "sample derivatives+compare",
        29 => "sample load mcs auxiliary data",
        30 => "sample load multi-sample",
        _ => return None,
    })
}
