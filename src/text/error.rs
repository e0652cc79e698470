//! The assembler's errors: what went wrong ([`AsmErrorKind`]) and where
//! ([`AsmError`]: line and column), and all of a text's errors together
//! ([`AsmErrors`]).

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use super::lex::Pos;
use crate::error::EncodeError;
use crate::model::*;
use crate::validate::Violations;

/// What went wrong, without the position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum AsmErrorKind {
    /// A token that does not fit the grammar here.
    #[error("unexpected {found}, expected {expected}")]
    Unexpected {
        /// The token found (quoted), or `end of input`.
        found: String,
        /// What the grammar allows here.
        expected: &'static str,
    },
    /// A character that starts no token.
    #[error("unexpected character `{found}`, expected {expected}")]
    BadChar {
        /// The character.
        found: String,
        /// What the grammar allows here.
        expected: &'static str,
    },
    /// A number that does not fit in 64 bits.
    #[error("number `{0}` does not fit in 64 bits")]
    NumberTooLarge(String),
    /// A `/*` comment that is never closed.
    #[error("unterminated `/*` comment")]
    UnterminatedComment,
    /// A word in opcode position that names no opcode.
    #[error("unknown opcode `{0}`, expected an opcode (mov, add, send, ...) or a `LABEL:`")]
    UnknownOpcode(String),
    /// An opcode of another platform.
    #[error("opcode `{opcode}` does not exist on {platform}")]
    NotOnPlatform {
        /// The opcode.
        opcode: Opcode,
        /// The platform assembled for.
        platform: Platform,
    },
    /// A type of another platform, or one that cannot be used here.
    #[error("type `{ty}` does not exist on {platform} here")]
    TypeNotOnPlatform {
        /// The type's letters.
        ty: &'static str,
        /// The platform assembled for.
        platform: Platform,
    },
    /// An execution size other than 1, 2, 4, 8, 16 or 32.
    #[error("execution size {0} is not one of 1, 2, 4, 8, 16, 32")]
    BadExecSize(u64),
    /// A number outside its range.
    #[error("{what} {value} is out of range ({range})")]
    OutOfRange {
        /// What the number is.
        what: &'static str,
        /// The value written.
        value: i64,
        /// The allowed values.
        range: &'static str,
    },
    /// Something the syntax allows but this instruction cannot have.
    #[error("{what}: {why}")]
    Invalid {
        /// The part of the instruction.
        what: &'static str,
        /// Why it is refused.
        why: &'static str,
    },
    /// The predicate and the conditional modifier name different flags.
    #[error("the predicate uses f{}.{} but the conditional modifier f{}.{}; an instruction has one flag register", .pred.0, .pred.1, .cmod.0, .cmod.1)]
    FlagMismatch {
        /// The predicate's flag (register, subregister).
        pred: (u8, u8),
        /// The conditional modifier's flag.
        cmod: (u8, u8),
    },
    /// A SEND register descriptor whose dword is not that register's encoding.
    #[error("descriptor {desc:#010x} does not match the register operand, whose encoding is {expected:#010x}")]
    DescriptorMismatch {
        /// The dword written.
        desc: u32,
        /// The dword the register operand encodes to.
        expected: u32,
    },
    /// A jump to a label that is never defined.
    #[error("unknown label `{0}`")]
    UnknownLabel(String),
    /// A label defined twice.
    #[error("label `{0}` is defined twice")]
    DuplicateLabel(String),
    /// A required jump target is missing, or one is given where none fits.
    #[error("{0}")]
    Jump(&'static str),
    /// The instruction breaks hardware rules (checked assembly).
    #[error("instruction breaks hardware rules: {0}")]
    Rules(Violations),
    /// The instruction cannot be encoded on the platform.
    #[error("cannot encode: {0}")]
    Encode(EncodeError),
}

impl AsmErrorKind {
    /// A stable snake_case name of the variant (see
    /// [`crate::DecodeError::kind`]); an encoding error is named by
    /// [`EncodeError::kind`].
    pub const fn kind(&self) -> &'static str {
        match self {
            AsmErrorKind::Unexpected { .. } => "unexpected_token",
            AsmErrorKind::BadChar { .. } => "bad_character",
            AsmErrorKind::NumberTooLarge(_) => "number_too_large",
            AsmErrorKind::UnterminatedComment => "unterminated_comment",
            AsmErrorKind::UnknownOpcode(_) => "unknown_opcode",
            AsmErrorKind::NotOnPlatform { .. } => "opcode_not_on_platform",
            AsmErrorKind::TypeNotOnPlatform { .. } => "type_not_on_platform",
            AsmErrorKind::BadExecSize(_) => "bad_exec_size",
            AsmErrorKind::OutOfRange { .. } => "out_of_range",
            AsmErrorKind::Invalid { .. } => "not_allowed",
            AsmErrorKind::FlagMismatch { .. } => "flag_mismatch",
            AsmErrorKind::DescriptorMismatch { .. } => "descriptor_mismatch",
            AsmErrorKind::UnknownLabel(_) => "unknown_label",
            AsmErrorKind::DuplicateLabel(_) => "duplicate_label",
            AsmErrorKind::Jump(_) => "bad_jump",
            AsmErrorKind::Rules(_) => "rules_broken",
            AsmErrorKind::Encode(e) => e.kind(),
        }
    }
}

/// An assembly error: where (1-based line and column) and what.
#[non_exhaustive]
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{line}:{column}: {kind}")]
pub struct AsmError {
    /// Line, from 1.
    pub line: u32,
    /// Column in characters, from 1.
    pub column: u32,
    /// What went wrong.
    pub kind: AsmErrorKind,
}

impl AsmError {
    /// An error at `pos` in `src`.
    pub(crate) fn new(src: &str, pos: Pos, kind: AsmErrorKind) -> Self {
        AsmError {
            line: pos.line,
            column: pos.column(src),
            kind,
        }
    }
}

/// Every error of one assembly, in source order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AsmErrors(pub Vec<AsmError>);

impl fmt::Display for AsmErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl core::error::Error for AsmErrors {}
