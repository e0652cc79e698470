//! The execution model: mask control and predication on the hardware.
//!
//! vISA's mask control `M1`..`M8` names the first channel (0, 4, ..., 28)
//! of both the execution mask and the predicate. The hardware's channel
//! group is chosen by quarter control (8-channel steps) and nibble control
//! (the upper 4 channels of the quarter), so `Mk` maps to quarter
//! `offset / 8` and nibble `(offset / 4) % 2`. The `_NM` forms also set
//! mask control (`WE_all`). A predicate variable placed at flag `fN.S`
//! keeps element `j` in bit `16·S + j` of `fN`; the hardware reads bit
//! `16·S + group + n` for channel `n`, so the same flag register serves
//! every mask offset.

use super::error::{Slot, VisaError};
use super::format::{ExecCtl, PredCombine, PredCtl};
use super::vars::VarTable;
use crate::model::{AccessMode, Controls, FlagReg, Instruction, PredCtrl};

/// Checks the mask control against the execution size: the first channel
/// must be aligned to the execution size and the channels must end by 32.
pub fn check_exec(exec: ExecCtl) -> Result<(), VisaError> {
    let n = exec.size.channels();
    let offset = exec.mask.offset();
    if offset % n != 0 {
        return Err(VisaError::MaskAlign {
            offset,
            exec: n,
            reason: "the starting channel is not aligned to the execution size",
        });
    }
    if offset + n > 32 {
        return Err(VisaError::MaskAlign {
            offset,
            exec: n,
            reason: "the channels run past channel 31",
        });
    }
    Ok(())
}

/// Makes `i` start at channel `first` ([`Instruction::set_first_channel`]),
/// or says why it cannot.
pub(crate) fn set_first_channel(i: &mut Instruction, first: u32) -> Result<(), VisaError> {
    if i.set_first_channel(first) {
        return Ok(());
    }
    Err(VisaError::MaskAlign {
        offset: first,
        exec: i.exec_size.channels(),
        reason: "the starting channel is not aligned to the execution size (at least 4), or the channels run past channel 31",
    })
}

/// Applies an execution-size byte's mask control to a hardware
/// instruction: channel group and `WE_all` for the `_NM` forms.
pub fn apply_mask(i: &mut Instruction, exec: ExecCtl) -> Result<(), VisaError> {
    check_exec(exec)?;
    set_first_channel(i, exec.mask.offset())?;
    i.controls.set(Controls::WE_ALL, exec.mask.no_mask);
    Ok(())
}

/// The align1 predicate control for a combine mode over `channels`
/// channels: [`PredCtrl::Normal`] for sequential, `anyNh`/`allNh` with N
/// the execution size (one channel needs no combining). Each encoding is
/// a constant.
pub const fn pred_control(combine: PredCombine, channels: u32) -> u8 {
    use PredCtrl::*;
    let (any, all) = match channels {
        2 => const { (align1(Any2h), align1(All2h)) },
        4 => const { (align1(Any4h), align1(All4h)) },
        8 => const { (align1(Any8h), align1(All8h)) },
        16 => const { (align1(Any16h), align1(All16h)) },
        32 => const { (align1(Any32h), align1(All32h)) },
        _ => return const { align1(Normal) },
    };
    match combine {
        PredCombine::Sequential => const { align1(Normal) },
        PredCombine::Any => any,
        PredCombine::All => all,
    }
}

/// The align1 encoding of predicate control `c`, for constants only.
#[allow(clippy::panic)] // evaluated at compile time: a failure fails the build
const fn align1(c: PredCtrl) -> u8 {
    match c.hw(AccessMode::Align1) {
        Some(n) => n,
        None => panic!("an align1 predicate control"),
    }
}

/// The flag register of predicate `pc` for an instruction whose channels
/// are `exec`, checking that those channels are elements of the predicate.
pub fn pred_flag(vars: &VarTable, pc: PredCtl, exec: ExecCtl) -> Result<FlagReg, VisaError> {
    let var = vars.predicate_var(Slot::Pred, pc.id)?;
    let end = exec.mask.offset() + exec.size.channels();
    if end > u32::from(var.elements) {
        return Err(VisaError::Predicate {
            id: pc.id,
            reason: "the mask offset and execution size run past the predicate's elements",
        });
    }
    Ok(var.flag)
}

/// Applies a predicate to a hardware instruction of the same channels as
/// `exec`: predicate control, inverse and flag register.
pub fn apply_pred(i: &mut Instruction, vars: &VarTable, pc: PredCtl, exec: ExecCtl) -> Result<(), VisaError> {
    i.flag = pred_flag(vars, pc, exec)?;
    i.pred_control = pred_control(pc.combine, exec.size.channels());
    i.controls.set(Controls::PRED_INV, pc.inverse);
    Ok(())
}
