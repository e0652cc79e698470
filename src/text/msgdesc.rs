//! The SEND continuation line's `MsgDesc:` text, printed by the `msg`
//! module once it is available.
//!
//! Until then this writes a placeholder that names the shared function by
//! number and shows the raw descriptor: it is not Mesa's text.

use core::fmt::{self, Write};

use super::disasm::Col;
use crate::model::{Instruction, Platform};

/// Writes the `MsgDesc:` text of a SEND/SENDC (counted toward the column).
pub fn write<W: Write + ?Sized>(o: &mut Col<'_, W>, _p: Platform, i: &Instruction) -> fmt::Result {
    write!(
        o,
        "sfid{} MsgDesc: (descriptor 0x{:08x})",
        i.cond_modifier, i.imm as u32
    )
}
