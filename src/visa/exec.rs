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
//!
//! Ivy Bridge DF follows the same rule: a DF instruction's execution size
//! is encoded doubled (it counts 32-bit halves), but its channel group
//! counts DF channels, so DF channel `n` of an instruction at group `g`
//! takes execution-mask and flag bit `g + n`, as 32-bit code does, for up
//! to four channels (the simulator's `Geo::bit` gives the basis). Under
//! the execution mask, [`super::inst`] emits Ivy Bridge DF in parts of at
//! most four channels (`set_df_channel_group`), as Mesa does.

use super::error::{Slot, VisaError};
use super::format::{ExecCtl, PredCombine, PredCtl};
use super::vars::VarTable;
use crate::model::{AccessMode, Controls, ExecSize, FlagReg, Instruction, PredCtrl};

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

/// Ivy Bridge DF: makes `i`, whose encoded execution size counts the 32-bit
/// halves of its `df` DF channels, start at channel `first`. Quarter and
/// nibble control name the DF channels' group, as Mesa's elk generator
/// sets them from the logical instruction (`elk_set_default_group`), so a
/// SIMD4 DF part at channel 4 is an `(8)` word with NibCtrl; the alignment
/// rule is the model's, on the DF channel count (as the validator's
/// `channel_offset_misaligned` counts it on Ivy Bridge).
pub(crate) fn set_df_channel_group(i: &mut Instruction, first: u32, df: u32) -> Result<(), VisaError> {
    let codes = ExecSize::from_channels(df).and_then(|e| crate::model::channel_group_codes(e, first));
    let Some((qtr, nib)) = codes else {
        return Err(VisaError::MaskAlign {
            offset: first,
            exec: df,
            reason: "the starting channel is not aligned to the DF channel count (at least 4), or the channels run past channel 31",
        });
    };
    i.qtr_control = qtr;
    i.controls.set(Controls::NIB_CTRL, nib);
    Ok(())
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

/// The flag subregister a compare into a general variable writes through,
/// given the caller's scratch flag: the compare writes the `bits` flag
/// bits from `16·S + first` of the scratch's flag register (the rule in
/// this module's doc: channel `n` of a hardware instruction at subregister
/// `S` is bit `16·S + n`, `n` counting from channel 0 of the thread, so
/// the channel group is part of the bit number), where `first` and `bits`
/// count hardware channels.
///
/// The scratch subregister is tried first, then the other subregister of
/// the same flag register (`fN.0` at channel group 3Q writes the bits
/// `fN.1` holds; through `fN.1` instead it would run past bit 31, and
/// through `fN.0` the bits of `fN.1`). A choice is safe when its bits end
/// by 31 (a flag register has 32 bits) and overlap no predicate
/// variable's elements (`16·T .. 16·T + elements` of its register)
/// outside the scratch subregister's own 16 bits, which the caller gave
/// up: vISA keeps live values in flags only as predicate variables, so
/// other bits are free. The other flag register is not tried: the caller
/// set aside only the scratch's. Otherwise the compare is refused with
/// [`VisaError::ScratchFlag`].
pub(crate) fn scratch_cond_flag(
    vars: &VarTable,
    scratch: FlagReg,
    first: u32,
    bits: u32,
) -> Result<FlagReg, VisaError> {
    let written = |s: u8| {
        let lo = 16 * u32::from(s) + first;
        (lo, lo + bits)
    };
    let bits_of = |lo: u32, n: u32| ((1u64 << n) - 1) << lo;
    let given = bits_of(16 * u32::from(scratch.subnr.min(1)), 16);
    let live = vars
        .predicate
        .iter()
        .filter(|p| p.flag.nr == scratch.nr)
        .map(|p| bits_of(16 * u32::from(p.flag.subnr.min(1)), u32::from(p.elements).min(32)))
        .fold(0, |a, b| a | b)
        & !given;
    let clear = |s: u8| {
        let (lo, hi) = written(s);
        hi <= 32 && bits_of(lo, bits.min(32)) & live == 0
    };
    let other = FlagReg {
        nr: scratch.nr,
        subnr: 1 - scratch.subnr.min(1),
    };
    for f in [scratch, other] {
        if clear(f.subnr) {
            return Ok(f);
        }
    }
    let (lo, hi) = written(scratch.subnr);
    let base = 16 * u32::from(scratch.subnr);
    Err(VisaError::ScratchFlag {
        flag: scratch,
        first: lo - base,
        end: hi - base,
        reason: if hi > 32 {
            "run past bit 31 or overwrite a predicate variable's elements"
        } else {
            "overwrite a predicate variable's elements"
        },
    })
}
