//! The simulator's errors: every undefined situation is one of these, with
//! the byte offset of the instruction that met it.

use crate::error::DecodeError;
use crate::msg::MsgError;

/// Why a program could not be run to its end.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum SimError {
    /// A word of the program does not decode.
    #[error("offset {offset:#x}: {error}")]
    Decode {
        /// Byte offset of the word.
        offset: u32,
        /// Why it does not decode.
        error: DecodeError,
    },
    /// The step limit was reached before the end of thread.
    #[error("step limit of {steps} instructions reached at offset {offset:#x}")]
    StepLimit {
        /// The limit.
        steps: u64,
        /// Offset of the next instruction.
        offset: u32,
    },
    /// A jump lands outside the program or between two instructions.
    #[error("offset {offset:#x}: jump to {target:#x}, which is not the start of an instruction of the program")]
    BadJump {
        /// Offset of the jumping instruction.
        offset: u32,
        /// Where it jumps (byte offset, may be negative).
        target: i64,
    },
    /// The program ran off its end without an end of thread.
    #[error("offset {offset:#x}: the program ends without an end of thread")]
    RanOffEnd {
        /// The offset after the last instruction.
        offset: u32,
    },
    /// A register access outside g0-g127 (through an address register, or a
    /// region that runs past the last register).
    #[error("offset {offset:#x}: {operand} reaches byte {byte} of the register file, outside g0-g127")]
    RegisterOutOfRange {
        /// Offset of the instruction.
        offset: u32,
        /// `dst`, `src0`, `src1`, `src2`, `payload` or `response`.
        operand: &'static str,
        /// The byte address in the register file.
        byte: i64,
    },
    /// A SEND's descriptor does not decode.
    #[error("offset {offset:#x}: message descriptor: {error}")]
    Message {
        /// Offset of the SEND.
        offset: u32,
        /// Why the descriptor does not decode.
        error: MsgError,
    },
    /// A message the simulator does not model (never a silent no-op).
    #[error("offset {offset:#x}: SFID {sfid} message type {msg_type:#x} ({what}) is not modelled")]
    UnmodelledMessage {
        /// Offset of the SEND.
        offset: u32,
        /// The shared-function ID.
        sfid: u8,
        /// The message type field of the descriptor.
        msg_type: u32,
        /// What it is, as far as known.
        what: &'static str,
    },
    /// An instruction or operand form whose behaviour the documents leave
    /// undefined, or that the simulator does not model.
    #[error("offset {offset:#x}: {what}")]
    Unsupported {
        /// Offset of the instruction.
        offset: u32,
        /// What is not supported.
        what: &'static str,
    },
    /// A message's length does not match what it needs: its descriptor's
    /// `mlen` or `rlen`, or the payload the core handed over.
    #[error("offset {offset:#x}: {field} is {value}, but {what} needs {expected}")]
    Length {
        /// Offset of the SEND.
        offset: u32,
        /// `mlen`, `rlen` or `payload`.
        field: &'static str,
        /// The length given.
        value: u32,
        /// The length the message needs.
        expected: u32,
        /// The message.
        what: &'static str,
    },
    /// A message reaches a binding table index with no surface bound.
    #[error("offset {offset:#x}: no surface is bound at binding table index {bti}")]
    UnboundSurface {
        /// Offset of the SEND.
        offset: u32,
        /// The binding table index.
        bti: u8,
    },
    /// A message cannot use the surface bound at its binding table index
    /// (a typed message on a buffer, an atomic on a normalized format ...).
    #[error("offset {offset:#x}: surface {bti} ({format}): {what}")]
    Format {
        /// Offset of the SEND.
        offset: u32,
        /// The binding table index.
        bti: u8,
        /// The surface's format name (`buffer` for a buffer).
        format: &'static str,
        /// Why the message cannot use it.
        what: &'static str,
    },
    /// A stateless or A64 access outside every mapped range of flat memory.
    #[error("offset {offset:#x}: {bytes} bytes at flat address {address:#x} are not mapped")]
    Unmapped {
        /// Offset of the SEND.
        offset: u32,
        /// The flat address.
        address: u64,
        /// Bytes accessed.
        bytes: u32,
    },
    /// A payload value the message cannot carry out (a media block wider
    /// than the message allows, a header the message needs but lacks ...).
    #[error("offset {offset:#x}: {what}")]
    Payload {
        /// Offset of the SEND.
        offset: u32,
        /// What is wrong.
        what: &'static str,
    },
}

impl SimError {
    /// A stable snake_case name of the variant (the `kind` of the command
    /// line's JSON); a decode or descriptor error gives its own kind.
    pub const fn kind(&self) -> &'static str {
        match self {
            SimError::Decode { error, .. } => error.kind(),
            SimError::StepLimit { .. } => "step_limit",
            SimError::BadJump { .. } => "branch_target",
            SimError::RanOffEnd { .. } => "ran_off_end",
            SimError::RegisterOutOfRange { .. } => "register_out_of_range",
            SimError::Message { error, .. } => error.kind(),
            SimError::UnmodelledMessage { .. } => "unmodelled_message",
            SimError::Unsupported { .. } => "unsupported",
            SimError::Length { .. } => "message_length",
            SimError::UnboundSurface { .. } => "unbound_surface",
            SimError::Format { .. } => "surface_format",
            SimError::Unmapped { .. } => "unmapped_address",
            SimError::Payload { .. } => "message_payload",
        }
    }

    /// The byte offset of the instruction that met the error.
    pub const fn offset(&self) -> u32 {
        match *self {
            SimError::Decode { offset, .. }
            | SimError::StepLimit { offset, .. }
            | SimError::BadJump { offset, .. }
            | SimError::RanOffEnd { offset }
            | SimError::RegisterOutOfRange { offset, .. }
            | SimError::Message { offset, .. }
            | SimError::UnmodelledMessage { offset, .. }
            | SimError::Unsupported { offset, .. }
            | SimError::Length { offset, .. }
            | SimError::UnboundSurface { offset, .. }
            | SimError::Format { offset, .. }
            | SimError::Unmapped { offset, .. }
            | SimError::Payload { offset, .. } => offset,
        }
    }
}
