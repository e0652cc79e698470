//! Errors of the vISA layer.

use core::fmt;

use crate::error::EncodeError;
use crate::model::{Platform, Type};
use crate::msg::MsgError;
use crate::validate::Violations;

use super::types::VisaType;

/// Which operand of a vISA instruction an error concerns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Slot {
    /// The destination.
    Dst,
    /// Source 0, 1, ...
    Src(u8),
    /// The predicate (predication control).
    Pred,
    /// A raw operand of a message instruction, by its name in the spec.
    Raw(&'static str),
    /// An operand looked at on its own, outside an instruction.
    Operand,
}

impl fmt::Display for Slot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Slot::Dst => f.write_str("dst"),
            Slot::Src(i) => write!(f, "src{i}"),
            Slot::Pred => f.write_str("predicate"),
            Slot::Raw(name) => write!(f, "raw operand {name}"),
            Slot::Operand => f.write_str("operand"),
        }
    }
}

/// The kind of a vISA variable table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum VarKind {
    /// General variables (`V#`).
    General,
    /// Address variables (`A#`).
    Address,
    /// Predicate variables (`P#`).
    Predicate,
}

impl fmt::Display for VarKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            VarKind::General => "general variable V",
            VarKind::Address => "address variable A",
            VarKind::Predicate => "predicate variable P",
        })
    }
}

/// Why vISA bytes do not parse, or a vISA operand or instruction does not
/// lower. Every variant names the field, operand or rule at fault.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum VisaError {
    /// The input ends inside a structure.
    #[error("{what}: needs {needed} bytes, {got} left")]
    Truncated {
        /// The structure being read.
        what: &'static str,
        /// Bytes it needs.
        needed: usize,
        /// Bytes that were left.
        got: usize,
    },
    /// A field holds a reserved value.
    #[error("{field} = {value:#x}: reserved value")]
    Reserved {
        /// The field, as `structure.field`.
        field: &'static str,
        /// The value found.
        value: u32,
    },
    /// A typed value does not fit its binary field.
    #[error("{field} = {value}: does not fit the binary field")]
    TooLarge {
        /// The field, as `structure.field`.
        field: &'static str,
        /// The value.
        value: u64,
    },
    /// A variable id that is not in the caller's table.
    #[error("{slot}: {kind}{id} is not in the variable table")]
    UnknownVariable {
        /// The operand.
        slot: Slot,
        /// Which table.
        kind: VarKind,
        /// The id.
        id: u32,
    },
    /// A variable's declaration or placement is unusable.
    #[error("{kind}{id}: {reason}")]
    BadVariable {
        /// Which table.
        kind: VarKind,
        /// The id.
        id: u32,
        /// Why.
        reason: &'static str,
    },
    /// The row offset starts beyond the end of the variable.
    #[error("{slot}: row offset {row} is beyond V{id}, which has {rows} row(s) of 32 bytes")]
    RowOffset {
        /// The operand.
        slot: Slot,
        /// The variable.
        id: u32,
        /// The row offset.
        row: u32,
        /// The variable's rows.
        rows: u32,
    },
    /// The column offset crosses the GRF boundary of its row.
    #[error("{slot}: column offset {col} of V{id} crosses the GRF (a row holds {per_row} elements)")]
    ColumnOffset {
        /// The operand.
        slot: Slot,
        /// The variable.
        id: u32,
        /// The column offset.
        col: u32,
        /// Elements per 32-byte row.
        per_row: u32,
    },
    /// The operand reaches an element outside its variable.
    #[error("{slot}: element {element} is outside {kind}{id}, which has {elements}")]
    OutOfBounds {
        /// The operand.
        slot: Slot,
        /// Which table.
        kind: VarKind,
        /// The variable.
        id: u32,
        /// The first offending element.
        element: i64,
        /// The variable's element count.
        elements: u32,
    },
    /// A region breaks a vISA region rule.
    #[error("{slot}: illegal region: {reason}")]
    IllegalRegion {
        /// The operand.
        slot: Slot,
        /// The rule broken.
        reason: &'static str,
    },
    /// An operand class that the position does not accept.
    #[error("{slot}: {reason}")]
    OperandClass {
        /// The operand.
        slot: Slot,
        /// Why the class is refused here.
        reason: &'static str,
    },
    /// A modifier that the operand or opcode does not accept.
    #[error("{slot}: modifier {modifier}: {reason}")]
    Modifier {
        /// The operand.
        slot: Slot,
        /// The modifier's name.
        modifier: &'static str,
        /// Why it is refused.
        reason: &'static str,
    },
    /// A type that the operand, opcode or platform does not accept.
    #[error("{slot}: type {ty}: {reason}")]
    Type {
        /// The operand.
        slot: Slot,
        /// The vISA type.
        ty: VisaType,
        /// Why it is refused.
        reason: &'static str,
    },
    /// A hardware type that the opcode does not accept.
    #[error("{slot}: type {ty}: {reason}")]
    HwType {
        /// The operand.
        slot: Slot,
        /// The hardware type.
        ty: Type,
        /// Why it is refused.
        reason: &'static str,
    },
    /// A hardware type that the platform does not have.
    #[error("{slot}: {ty} does not exist on {platform}")]
    PlatformType {
        /// The operand.
        slot: Slot,
        /// The hardware type.
        ty: Type,
        /// The platform.
        platform: Platform,
    },
    /// The mask control's channel offset is not aligned to the execution
    /// size, or runs past channel 31.
    #[error("mask control M{} (channel offset {offset}) with execution size {exec}: {reason}", offset / 4 + 1)]
    MaskAlign {
        /// The channel offset (0, 4, ..., 28).
        offset: u32,
        /// The execution size.
        exec: u32,
        /// The rule broken.
        reason: &'static str,
    },
    /// The instruction's predicate is unusable.
    #[error("predicate P{id}: {reason}")]
    Predicate {
        /// The predicate id.
        id: u16,
        /// Why.
        reason: &'static str,
    },
    /// The lowering needs a scratch register or flag the caller did not give.
    #[error("{what} needs {need}, which the lowering context does not provide")]
    NeedScratch {
        /// What needs it.
        what: &'static str,
        /// What is missing.
        need: &'static str,
    },
    /// A compare into a general variable writes flag bits through the
    /// scratch flag, and no subregister of its flag register takes them
    /// without overwriting a predicate variable or running past bit 31.
    #[error(
        "the scratch flag f{}.{}: writing flag bits {first}..{end} through either subregister of f{} would {reason}",
        flag.nr,
        flag.subnr,
        flag.nr
    )]
    ScratchFlag {
        /// The caller's scratch flag ([`super::LowerCtx::scratch_flag`]).
        flag: crate::model::FlagReg,
        /// The first flag bit written, counted from the scratch subregister.
        first: u32,
        /// One past the last.
        end: u32,
        /// What the write would do.
        reason: &'static str,
    },
    /// The combination is valid vISA that this lowering does not handle.
    #[error("{what}: {why}")]
    Unsupported {
        /// The construct.
        what: &'static str,
        /// Why.
        why: &'static str,
    },
    /// Cherryview cannot run the operation as given (64-bit restrictions).
    #[error("chv 64-bit restriction on {slot}: {rule}")]
    Chv64 {
        /// The operand.
        slot: Slot,
        /// The restriction that cannot be met.
        rule: &'static str,
    },
    /// A lowered instruction breaks a hardware rule and cannot be split
    /// into legal parts.
    #[error("lowered instruction breaks hardware rules: {0}")]
    Invalid(Violations),
    /// A lowered instruction does not encode.
    #[error("lowered instruction does not encode: {0}")]
    Encode(EncodeError),
    /// The message layer refuses the message (descriptor or payload).
    #[error("message: {0}")]
    Message(MsgError),
    /// The program builder refused an instruction.
    #[error("{0}")]
    Build(crate::build::BuildError),
}
