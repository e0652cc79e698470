//! Error types of the codec.

use core::fmt;

use crate::model::{Opcode, Platform};
use crate::word::{FieldError, FieldInfo};

/// Why a word does not decode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DecodeError {
    /// A field holds an encoding that is reserved or undefined on the platform.
    #[error("{field} = {value:#x}: {reason}")]
    Field {
        /// The field, with its bit range.
        field: &'static FieldInfo,
        /// The value found.
        value: u64,
        /// Why it is refused.
        reason: &'static str,
    },
    /// Reserved (must-be-zero) bits are set.
    #[error("reserved bits set: {}", BitList(*.0))]
    ReservedBits(u128),
    /// The input is not 16 bytes.
    #[error("an instruction word is 16 bytes, got {0}")]
    Length(usize),
}

/// Why an instruction does not encode.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum EncodeError {
    /// The opcode does not exist on the platform.
    #[error("opcode {opcode} does not exist on {platform}")]
    Opcode {
        /// The opcode.
        opcode: Opcode,
        /// The platform.
        platform: Platform,
    },
    /// A value does not fit its field.
    #[error(transparent)]
    Field(#[from] FieldError),
    /// The platform cannot express part of the instruction.
    #[error("{what}: {why}")]
    Unencodable {
        /// The part of the instruction.
        what: &'static str,
        /// Why it cannot be encoded.
        why: &'static str,
    },
    /// The instruction breaks hardware rules (checked encoding only).
    #[error("instruction breaks hardware rules: {0}")]
    Invalid(crate::validate::Violations),
}

/// Formats a bit mask as a list of bit ranges, high first: `95:91, 7`.
pub struct BitList(pub u128);

impl fmt::Display for BitList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        let mut i: i32 = 127;
        while i >= 0 {
            if (self.0 >> i) & 1 == 1 {
                let hi = i;
                while i > 0 && (self.0 >> (i - 1)) & 1 == 1 {
                    i -= 1;
                }
                if !first {
                    f.write_str(", ")?;
                }
                first = false;
                if hi == i {
                    write!(f, "{hi}")?;
                } else {
                    write!(f, "{hi}:{i}")?;
                }
            }
            i -= 1;
        }
        Ok(())
    }
}
