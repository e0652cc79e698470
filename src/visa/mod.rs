//! vISA operands and instructions, lowered to the instruction model.
//!
//! - [`format`](mod@format): the vISA operand formats, typed and as bytes.
//! - [`vars`]: the caller's variable table (types, sizes, placements).
//! - [`types`]: data types, operand classes and modifiers (below both
//!   `format` and `error`).
//! - [`operand`]: operand lowering to hardware registers and regions.
//! - [`exec`]: mask control and predication.
//! - [`inst`]: instruction lowering, with Ivy Bridge DF (regions in
//!   pairs of floats, SIMD4 parts under the execution mask) and splitting.
//! - [`gather`]: `GATHER4_TYPED`, payload moves and the typed-read SEND.
//! - [`kernel`]: a whole kernel lowered through the program builder, with
//!   labels, `JMP`, `CALL`/`RET`, Gen8 `GOTO` and the EOT send.
//!
//! `examples/visa_program.rs` lowers a small kernel end to end and prints
//! it as Mesa-syntax assembly (`cargo run --release --example visa_program`).

pub mod error;
pub mod exec;
pub mod format;
pub mod gather;
pub mod inst;
pub mod kernel;
pub mod operand;
pub mod types;
pub mod vars;

pub use crate::msg::Surface;
pub use error::{Slot, VarKind, VisaError};
pub use exec::{apply_mask, apply_pred, check_exec, pred_control};
pub use format::*;
pub use gather::{lower_gather4_typed, VisaGather4Typed, GATHER4_HEADER_MASK, GATHER4_PAYLOAD_GRFS};
pub use inst::{lower, LowerCtx, RelOp, VisaInst, VisaOp};
pub use kernel::Kernel;
pub use operand::{df_pairs, lower_dst, lower_raw, lower_scalar_src, lower_src, HwSrc};
pub use types::{Modifier, OperandClass, VisaType};
pub use vars::{AddressVar, GeneralVar, Placement, PredicateVar, VarTable, GRF_BYTES, GRF_COUNT};
