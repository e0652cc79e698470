//! Error types of the codec and the validator.
//!
//! They sit on the floor below both, so that neither layer imports the
//! other: the codec reports [`DecodeError`] and [`EncodeError`], the
//! validator reports [`Violations`], and checked [`crate::encode`] (above
//! both) wraps the latter as [`EncodeError::Invalid`].

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use crate::model::{Opcode, Platform};
use crate::word::{FieldError, FieldInfo};

/// Why a word does not decode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
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
    /// A stream ends inside an instruction: its last `have` bytes are fewer
    /// than the `need` bytes its CmptCtrl bit asks for.
    #[error("truncated: the last {have} byte(s) are shorter than an instruction ({need} bytes)")]
    Truncated {
        /// Bytes the instruction needs (8 compacted, 16 native).
        need: usize,
        /// Bytes left in the stream.
        have: usize,
    },
}

impl DecodeError {
    /// A stable snake_case name of the variant, for machine-readable
    /// reports (`geneu --json`'s `kind`): it does not change between
    /// versions, and names of different error types do not collide unless
    /// they mean the same thing.
    pub const fn kind(&self) -> &'static str {
        match self {
            DecodeError::Field { .. } => "reserved_encoding",
            DecodeError::ReservedBits(_) => "reserved_bits",
            DecodeError::Length(_) => "bad_length",
            DecodeError::Truncated { .. } => "truncated",
        }
    }
}

/// Why an instruction does not encode.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
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
    Invalid(Violations),
}

impl EncodeError {
    /// A stable snake_case name of the variant (see [`DecodeError::kind`]).
    pub const fn kind(&self) -> &'static str {
        match self {
            EncodeError::Opcode { .. } => "opcode_not_on_platform",
            EncodeError::Field(_) => "value_too_wide",
            EncodeError::Unencodable { .. } => "unencodable",
            EncodeError::Invalid(_) => "rules_broken",
        }
    }
}

/// Which operand a violation concerns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub enum OperandId {
    /// The instruction as a whole.
    Inst,
    /// The destination.
    Dst,
    /// Source 0, 1 or 2.
    Src(u8),
}

impl fmt::Display for OperandId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OperandId::Inst => f.write_str("instruction"),
            OperandId::Dst => f.write_str("dst"),
            OperandId::Src(i) => write!(f, "src{i}"),
        }
    }
}

/// What a validation rule stands on.
///
/// A bring-up engineer reading a report must be able to tell a word the
/// documentation forbids from a word geneu refuses to be safe. Checked
/// encoding and assembly refuse both; `geneu check` fails on documented
/// violations, and on conservative ones only with `--strict`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub enum Basis {
    /// The platform's documentation states the restriction; the rule's
    /// citation names the sentence.
    Documented,
    /// Stricter than the platform's documentation, or borrowed from the
    /// documentation of another platform; the citation says why.
    Conservative,
}

impl Basis {
    /// The lower-case name, as reports print it.
    pub const fn name(self) -> &'static str {
        match self {
            Basis::Documented => "documented",
            Basis::Conservative => "conservative",
        }
    }
}

impl fmt::Display for Basis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A broken rule.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Violation {
    /// Stable identifier of the rule, e.g. `exec_size_ge_width`.
    pub rule: &'static str,
    /// What the rule stands on.
    pub basis: Basis,
    /// Where the rule comes from (PRM section or vISA rule), or for a
    /// conservative rule why it is stricter than the documentation.
    pub source: &'static str,
    /// The operand concerned.
    pub operand: OperandId,
    /// One-line explanation.
    pub message: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "[{}] {}: {} ({}: {})",
            self.rule, self.operand, self.message, self.basis, self.source
        )
    }
}

/// Every violation found in one instruction.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Violations(pub Vec<Violation>);

impl Violations {
    /// Whether a rule with this identifier was broken.
    pub fn has(&self, rule: &str) -> bool {
        self.0.iter().any(|v| v.rule == rule)
    }

    /// The identifiers of the broken rules, in report order.
    pub fn rules(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.0.iter().map(|v| v.rule)
    }

    /// Whether some broken rule is [`Basis::Documented`].
    pub fn any_documented(&self) -> bool {
        self.0.iter().any(|v| v.basis == Basis::Documented)
    }
}

impl fmt::Display for Violations {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, v) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{v}")?;
        }
        Ok(())
    }
}

impl core::error::Error for Violations {}

/// A name that no value of a type has (from `FromStr` of the vocabulary's
/// enums and of [`crate::Word`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[error("unknown {what} `{name}`")]
#[non_exhaustive]
pub struct UnknownName {
    /// What was being parsed: `opcode`, `type`, ...
    pub what: &'static str,
    /// The text given.
    pub name: String,
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

// Errors can be sent across threads and boxed as `core::error::Error`
// (as `anyhow` and `Box<dyn Error + Send + Sync>` need).
static_assertions::assert_impl_all!(DecodeError: Send, Sync, core::error::Error);
static_assertions::assert_impl_all!(EncodeError: Send, Sync, core::error::Error);
static_assertions::assert_impl_all!(Violations: Send, Sync, core::error::Error);
