//! vISA `GATHER4_TYPED`: a typed surface read, on the message layer's
//! [`crate::msg::gather4_typed`].
//!
//! ```text
//! [(<P>)] GATHER4_TYPED.<channels> (8) <surface> <u> <v> <r> <lod> <dst>
//! ```
//!
//! The SEND reads its message payload from consecutive GRFs: a header,
//! then U, then V, R and LOD up to the last one given. The vISA operands
//! are separate raw operands that may live anywhere, so the lowering
//! builds the payload in an area the caller sets aside,
//! [`LowerCtx::payload_grf`] (up to five GRFs), and emits, in order:
//!
//! 1. `mov(8) gP<1>:UD 0x0:UD` and `mov(1) gP.7<1>:UD 0xffff:UD`, both
//!    `WE_all`: the header (required before Gen9) with every slot enabled
//!    in its pixel/sample mask, so that the execution mask and the
//!    predicate alone choose the channels;
//! 2. `mov(8) gP+1+k<1>:UD gX<8,8,1>:UD` (`WE_all`) for each address
//!    operand given, unless it already sits in its payload GRF (a caller
//!    that places U, V, R and LOD right after a header GRF saves the
//!    copies);
//! 3. the SEND, with the instruction's channel group, mask control and
//!    predicate.
//!
//! An address operand that lies elsewhere in the payload area would be
//! overwritten before it is read; that is an error. An offset operand
//! that is not given (vISA's null variable, or `None`) but precedes a
//! given one still takes its payload GRF, which the hardware ignores and
//! the lowering leaves as it is.

use alloc::vec::Vec;

use super::error::{Slot, VisaError};
use super::exec::{check_exec, pred_control, pred_flag};
use super::format::{ExecCtl, PredCtl, RawOperand};
use super::inst::LowerCtx;
use super::operand::lower_raw;
use super::vars::{Placement, VarTable, GRF_BYTES};
use crate::isa::region::{HSTRIDE_1, VSTRIDE_8, WIDTH_8};
use crate::model::{Controls, Dst, ExecSize, Instruction, Opcode, Platform, Region, Src, Type};
use crate::msg::{gather4_typed, Gather4Typed, GatherOffsets, Predicate, Surface};

/// Payload GRFs [`lower_gather4_typed`] may need: header, U, V, R, LOD.
pub const GATHER4_PAYLOAD_GRFS: u8 = 5;

/// Pixel/sample mask written in header dword 7: every slot enabled.
pub const GATHER4_HEADER_MASK: u32 = 0xffff;

/// A vISA `GATHER4_TYPED` instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct VisaGather4Typed {
    /// Execution size (8) and mask control (`M1`, `M3`, `M5`, `M7`, with
    /// or without `_NM`).
    pub exec: ExecCtl,
    /// Predication, if any.
    pub pred: Option<PredCtl>,
    /// Channel enable mask: bit 0 R, bit 1 G, bit 2 B, bit 3 A; at least
    /// one set.
    pub channels: u8,
    /// The surface: a binding table index (SLM `T0` and stateless `T5`
    /// are refused).
    pub surface: Surface,
    /// U offsets: 8 UD elements.
    pub u: RawOperand,
    /// V offsets (`None` or the null variable: not given).
    pub v: Option<RawOperand>,
    /// R offsets (`None` or the null variable: not given).
    pub r: Option<RawOperand>,
    /// LOD (`None` or the null variable: not given).
    pub lod: Option<RawOperand>,
    /// Destination: one GRF per enabled channel, type UD, D or F.
    pub dst: RawOperand,
}

impl VisaGather4Typed {
    /// An 8-channel, unpredicated gather (mask control `M1`) of `channels`
    /// from `surface` at U only, into `dst`.
    pub const fn new(channels: u8, surface: Surface, u: RawOperand, dst: RawOperand) -> Self {
        VisaGather4Typed {
            exec: ExecCtl::new(ExecSize::S8),
            pred: None,
            channels,
            surface,
            u,
            v: None,
            r: None,
            lod: None,
            dst,
        }
    }
}

/// Whether a raw operand names something (not `None`, not the null variable).
fn given(vars: &VarTable, op: Option<RawOperand>) -> Option<RawOperand> {
    let op = op?;
    match vars.general.get(op.id as usize) {
        Some(v) if v.placement == Placement::Null => None,
        _ => Some(op),
    }
}

/// Lowers `GATHER4_TYPED` on `p`: payload moves into
/// [`LowerCtx::payload_grf`], then the typed surface read SEND. Every
/// instruction returned passes [`crate::validate::validate`] and encodes.
pub fn lower_gather4_typed(
    p: Platform,
    vars: &VarTable,
    ctx: &LowerCtx,
    g: &VisaGather4Typed,
) -> Result<Vec<Instruction>, VisaError> {
    check_exec(g.exec)?;
    if g.exec.size != ExecSize::S8 {
        return Err(VisaError::Unsupported {
            what: "GATHER4_TYPED",
            why: "typed surface messages take 8 channels before Gen9",
        });
    }
    let pred = match g.pred {
        Some(pc) => Some((pred_flag(vars, pc, g.exec)?, pc)),
        None => None,
    };

    // Address operands: 8 dwords each, GRF-aligned, UD (or D).
    let names = ["U", "V", "R", "LOD"];
    let ops = [Some(g.u), given(vars, g.v), given(vars, g.r), given(vars, g.lod)];
    let mut regs = [None; 4];
    for ((name, op), reg) in names.into_iter().zip(ops).zip(regs.iter_mut()) {
        let Some(op) = op else { continue };
        let slot = Slot::Raw(name);
        let (nr, ty) = lower_raw(p, vars, &op, 8 * 4, slot)?;
        if !matches!(ty, Type::UD | Type::D) {
            return Err(VisaError::HwType {
                slot,
                ty,
                reason: "GATHER4_TYPED offsets are UD",
            });
        }
        *reg = Some(nr);
    }
    let offsets = GatherOffsets {
        v: regs[1].is_some(),
        r: regs[2].is_some(),
        lod: regs[3].is_some(),
    };

    // Destination: one GRF per enabled channel.
    let rlen = (g.channels & 0xf).count_ones().max(1);
    let dst_slot = Slot::Raw("Dst");
    let (dst, dst_type) = lower_raw(p, vars, &g.dst, rlen * GRF_BYTES, dst_slot)?;

    let payload = ctx.payload_grf.ok_or(VisaError::NeedScratch {
        what: "GATHER4_TYPED",
        need: "a payload area (LowerCtx::payload_grf)",
    })?;

    let msg = Gather4Typed {
        exec_size: ExecSize::S8,
        channel_offset: g.exec.mask.offset() as u8,
        no_mask: g.exec.mask.no_mask,
        pred: pred.map(|(flag, pc)| Predicate {
            flag,
            invert: pc.inverse,
        }),
        channels: g.channels,
        surface: g.surface,
        offsets,
        payload,
        dst,
        dst_type,
    };
    let typed = gather4_typed(p, &msg).map_err(VisaError::Message)?;
    let mut send = typed.send;
    if let Some((_, pc)) = pred {
        send.pred_control = pred_control(pc.combine, msg.exec_size.channels());
    }

    // The payload area must not hold an operand anywhere but in its own
    // GRF: the moves would overwrite it first.
    let mlen = 1 + u32::from(offsets.regs());
    let area = u32::from(payload)..u32::from(payload) + mlen;
    let slots = [Some(typed.u), typed.v, typed.r, typed.lod];
    for ((name, reg), slot) in names.into_iter().zip(regs).zip(slots) {
        let Some(reg) = reg else { continue };
        if area.contains(&u32::from(reg)) && slot != Some(reg) {
            return Err(VisaError::IllegalRegion {
                slot: Slot::Raw(name),
                reason: "the operand lies in the payload area, which the payload moves overwrite",
            });
        }
    }

    let mut out = Vec::with_capacity(6);
    let mov = |es: ExecSize, dst: Dst, src: Src, imm: u64| {
        let mut i = Instruction::new(Opcode::Mov, es);
        i.controls = Controls::WE_ALL;
        i.dst = dst;
        i.src[0] = src;
        i.imm = imm;
        i
    };
    out.push(mov(
        ExecSize::S8,
        Dst::grf(typed.header, 0, Type::UD),
        Src::imm(Type::UD),
        0,
    ));
    out.push(mov(
        ExecSize::S1,
        Dst::grf(typed.header, 7 * 4, Type::UD),
        Src::imm(Type::UD),
        u64::from(GATHER4_HEADER_MASK),
    ));
    let contiguous = Region {
        vstride: VSTRIDE_8,
        width: WIDTH_8,
        hstride: HSTRIDE_1,
    };
    for (reg, slot) in regs.iter().zip(slots) {
        if let (Some(reg), Some(slot)) = (*reg, slot) {
            if reg != slot {
                out.push(mov(
                    ExecSize::S8,
                    Dst::grf(slot, 0, Type::UD),
                    Src::grf(reg, 0, Type::UD, contiguous),
                    0,
                ));
            }
        }
    }
    out.push(send);
    for i in &out {
        crate::validate::validate(p, i).map_err(VisaError::Invalid)?;
        crate::codec::encode_word(p, i).map_err(VisaError::Encode)?;
    }
    Ok(out)
}
