//! The builder's errors: each says what went wrong and where (the
//! instruction index, counted from 0, or the operand being built).

use alloc::vec::Vec;
use core::fmt;

use crate::error::EncodeError;
use crate::model::{Opcode, Platform, Type};
use crate::msg::MsgError;
use crate::validate::{OperandId, Violations};

/// A misuse of the builder, or an instruction the hardware would reject.
///
/// ```
/// use geneu::build::{g, BuildError, Builder};
/// // A region with no encoding is refused when the operand is built.
/// assert!(matches!(g(2).stride(3, 8, 1), Err(BuildError::Region { vstride: 3, .. })));
/// // An `else` without an `if` names the instruction it would have been.
/// let mut b = Builder::new(geneu::Platform::Gen8);
/// b.mov(g(10), g(2))?;
/// assert_eq!(b.else_(), Err(BuildError::ElseWithoutIf { index: 1 }));
/// # Ok::<(), BuildError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BuildError {
    /// A region whose vertical stride, width or horizontal stride has no
    /// encoding (raised when the operand is built).
    #[error("region <{vstride};{width},{hstride}> has no encoding (vstride 0,1,2,4,8,16,32; width 1,2,4,8,16; hstride 0,1,2,4)")]
    Region {
        /// Vertical stride asked for, in elements.
        vstride: u32,
        /// Width asked for, in elements.
        width: u32,
        /// Horizontal stride asked for, in elements.
        hstride: u32,
    },
    /// A register or subregister that does not exist (raised when the
    /// operand is built).
    #[error("{what}: {value} is out of range ({why})")]
    Register {
        /// Which part of the operand.
        what: &'static str,
        /// The refused value.
        value: i64,
        /// The range that applies.
        why: &'static str,
    },
    /// A vector immediate element that the packed format cannot hold
    /// (raised when the immediate is built).
    #[error("vector immediate element {element} = {value}: {why}")]
    VectorImmediate {
        /// Element index.
        element: usize,
        /// The value, as text of its type.
        value: i64,
        /// The range that applies.
        why: &'static str,
    },
    /// An operand that cannot stand where it was given.
    #[error("instruction {index}, {operand}: {why}")]
    Operand {
        /// Instruction index.
        index: usize,
        /// The operand.
        operand: OperandId,
        /// Why it is refused.
        why: &'static str,
    },
    /// An immediate type the platform does not have.
    #[error("instruction {index}: {platform} has no {ty} immediate")]
    Immediate {
        /// Instruction index.
        index: usize,
        /// The immediate's type.
        ty: Type,
        /// The platform.
        platform: Platform,
    },
    /// An opcode the platform does not have, or the wrong builder method.
    #[error("instruction {index}: {opcode}: {why}")]
    Opcode {
        /// Instruction index.
        index: usize,
        /// The opcode.
        opcode: Opcode,
        /// Why it is refused.
        why: &'static str,
    },
    /// A state value that does not fit (predicate control in the wrong
    /// access mode, a channel group not aligned to the execution size).
    #[error("instruction {index}: {why}")]
    State {
        /// Instruction index (the next one when the state was set).
        index: usize,
        /// Why it is refused.
        why: &'static str,
    },
    /// A channel group (or vISA mask control) that does not fit the
    /// execution size (raised when the state is built).
    #[error("channel group starting at {first} for {channels} channels: {why}")]
    Group {
        /// The first channel (or the vISA mask number).
        first: u32,
        /// The execution size.
        channels: u32,
        /// What is wrong.
        why: &'static str,
    },
    /// `pop_state` without a matching `push_state`.
    #[error("pop_state without a matching push_state (before instruction {index})")]
    StateUnderflow {
        /// The next instruction index.
        index: usize,
    },
    /// A message descriptor that does not build.
    #[error("instruction {index}: message: {error}")]
    Message {
        /// Instruction index.
        index: usize,
        /// The descriptor's error.
        error: MsgError,
    },
    /// A message that does not fit the instruction sending it.
    #[error("instruction {index}: message: {why}")]
    MessageShape {
        /// Instruction index.
        index: usize,
        /// What does not fit.
        why: &'static str,
    },
    /// An end-of-thread SEND whose payload is not in g112-g127.
    #[error("instruction {index}: an EOT send takes its payload from g112-g127, not g{nr}")]
    EotPayload {
        /// Instruction index.
        index: usize,
        /// The payload register.
        nr: u8,
    },
    /// A label that is used but never bound.
    #[error("instruction {index}: label {label} is never bound")]
    UnboundLabel {
        /// The label's number.
        label: usize,
        /// The first instruction that jumps to it.
        index: usize,
    },
    /// A label bound twice.
    #[error("label {label} is bound twice (at instructions {first} and {second})")]
    LabelBoundTwice {
        /// The label's number.
        label: usize,
        /// Where it was bound first.
        first: usize,
        /// Where it was bound again.
        second: usize,
    },
    /// A label of another builder.
    #[error("instruction {index}: label {label} does not belong to this builder")]
    ForeignLabel {
        /// The label's number.
        label: usize,
        /// The instruction index.
        index: usize,
    },
    /// `else_` with no open `if_` (or a second `else_`).
    #[error("instruction {index}: else without an open if")]
    ElseWithoutIf {
        /// Where the ELSE would go.
        index: usize,
    },
    /// `endif` with no open `if_`.
    #[error("instruction {index}: endif without an open if")]
    EndifWithoutIf {
        /// Where the ENDIF would go.
        index: usize,
    },
    /// `while_` with no open `do_`.
    #[error("instruction {index}: while without an open do")]
    WhileWithoutDo {
        /// Where the WHILE would go.
        index: usize,
    },
    /// `break_` or `cont` outside every loop.
    #[error("instruction {index}: {opcode} outside a do/while loop")]
    OutsideLoop {
        /// Where the instruction would go.
        index: usize,
        /// BREAK or CONT.
        opcode: Opcode,
    },
    /// An `if_` never closed by `endif`.
    #[error("the if at instruction {index} is never closed")]
    UnclosedIf {
        /// The IF's index.
        index: usize,
    },
    /// A `do_` never closed by `while_`.
    #[error("the do before instruction {index} is never closed")]
    UnclosedDo {
        /// The index of the loop's first instruction.
        index: usize,
    },
    /// A branch whose target lies outside the program.
    #[error("instruction {index}: {opcode} jumps to instruction {target}, outside the program (0..={len})")]
    LeavesProgram {
        /// The branch.
        index: usize,
        /// Its opcode.
        opcode: Opcode,
        /// The target instruction index.
        target: i64,
        /// The program's length (a jump to it ends the program).
        len: usize,
    },
    /// A jump offset that does not fit the platform's field.
    #[error("instruction {index}: jump of {offset} does not fit {range}")]
    JumpRange {
        /// The branch.
        index: usize,
        /// The offset in the platform's units.
        offset: i64,
        /// The field's range.
        range: &'static str,
    },
    /// A BREAK, CONT or ENDIF with no block end after it, which Mesa's
    /// `brw_set_uip_jip` needs to place its JIP.
    #[error("instruction {index}: {opcode} has no enclosing block end after it")]
    NoBlockEnd {
        /// The branch.
        index: usize,
        /// Its opcode.
        opcode: Opcode,
    },
    /// An instruction that breaks hardware rules; every broken rule is listed.
    #[error("instruction {index}: {violations}")]
    Invalid {
        /// Instruction index.
        index: usize,
        /// The broken rules, with their identifiers.
        violations: Violations,
    },
    /// An instruction the codec cannot encode.
    #[error("instruction {index}: {error}")]
    Encode {
        /// Instruction index.
        index: usize,
        /// The codec's error.
        error: EncodeError,
    },
}

impl BuildError {
    /// The instruction index the error concerns, if it concerns one.
    ///
    /// ```
    /// use geneu::build::{g, BuildError};
    /// assert_eq!(BuildError::UnclosedIf { index: 3 }.index(), Some(3));
    /// assert_eq!(g(2).stride(3, 8, 1).unwrap_err().index(), None); // an operand
    /// ```
    pub fn index(&self) -> Option<usize> {
        use BuildError::*;
        match self {
            Region { .. } | Register { .. } | VectorImmediate { .. } | LabelBoundTwice { .. } | Group { .. } => None,
            Operand { index, .. }
            | Immediate { index, .. }
            | Opcode { index, .. }
            | State { index, .. }
            | StateUnderflow { index }
            | Message { index, .. }
            | MessageShape { index, .. }
            | EotPayload { index, .. }
            | UnboundLabel { index, .. }
            | ForeignLabel { index, .. }
            | ElseWithoutIf { index }
            | EndifWithoutIf { index }
            | WhileWithoutDo { index }
            | OutsideLoop { index, .. }
            | UnclosedIf { index }
            | UnclosedDo { index }
            | LeavesProgram { index, .. }
            | JumpRange { index, .. }
            | NoBlockEnd { index, .. }
            | Invalid { index, .. }
            | Encode { index, .. } => Some(*index),
        }
    }
}

/// Every error [`crate::build::Builder::finish`] found, in instruction order.
///
/// ```
/// use geneu::build::{g, Builder};
/// let mut b = Builder::new(geneu::Platform::Gen8);
/// b.if_().unwrap();
/// b.mov(g(10), g(2)).unwrap();
/// let errors = b.finish().unwrap_err();
/// assert_eq!(errors.0.len(), 1);
/// assert_eq!(errors.to_string(), errors.0[0].to_string());
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BuildErrors(pub Vec<BuildError>);

impl BuildErrors {
    /// Whether some instruction broke the validation rule `rule`.
    ///
    /// ```
    /// use geneu::build::{g, Builder};
    /// let mut b = Builder::new(geneu::Platform::Gen8);
    /// b.if_().unwrap();
    /// let errors = b.finish().unwrap_err(); // unclosed, not a rule violation
    /// assert!(!errors.has_rule("grf_number_in_range"));
    /// ```
    pub fn has_rule(&self, rule: &str) -> bool {
        self.0
            .iter()
            .any(|e| matches!(e, BuildError::Invalid { violations, .. } if violations.has(rule)))
    }
}

impl fmt::Display for BuildErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (k, e) in self.0.iter().enumerate() {
            if k > 0 {
                f.write_str("\n")?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

#[cfg(feature = "std")]
impl std::error::Error for BuildErrors {}

impl From<BuildError> for BuildErrors {
    fn from(e: BuildError) -> Self {
        BuildErrors(alloc::vec![e])
    }
}
