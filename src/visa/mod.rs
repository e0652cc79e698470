//! vISA operands and instructions, lowered to the instruction model.
//!
//! - [`format`]: the vISA operand formats, typed and as bytes.
//! - [`vars`]: the caller's variable table (types, sizes, placements).
//! - [`operand`]: operand lowering to hardware registers and regions.
//! - [`exec`]: mask control and predication.
//! - [`inst`]: instruction lowering, with DF pair channels and splitting.

pub mod error;
pub mod exec;
pub mod format;
pub mod inst;
pub mod operand;
pub mod vars;

pub use error::{Slot, VarKind, VisaError};
pub use exec::{apply_mask, apply_pred, check_exec, pred_control, set_group};
pub use format::*;
pub use inst::{lower, LowerCtx, RelOp, VisaInst, VisaOp};
pub use operand::{df_pairs, lower_dst, lower_raw, lower_scalar_src, lower_src, HwSrc};
pub use vars::{AddressVar, GeneralVar, Placement, PredicateVar, VarTable, GRF_BYTES, GRF_COUNT};
