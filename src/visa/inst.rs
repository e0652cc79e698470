//! Instruction lowering: one vISA instruction to validated hardware
//! instructions.
//!
//! A vISA instruction becomes, in order:
//! 1. moves of immediates that the hardware cannot take where they are
//!    into the caller's temporary register (a 64-bit immediate outside a
//!    Gen8 one-source instruction, an immediate math operand on Gen7, a
//!    src0 immediate of a non-commutative opcode);
//! 2. the operation itself, split into halves with the right channel
//!    groups and register offsets wherever one hardware instruction cannot
//!    hold it (an operand spanning more than two GRFs, Ivy Bridge DF beyond
//!    4 channels under the execution mask, a predicate or a flag write, 8
//!    otherwise, integer division beyond 8, and any word
//!    [`crate::validate`] refuses).
//!
//! Every emitted instruction passes [`crate::validate::validate`] and
//! encodes; anything that cannot be made legal is a [`VisaError`].

use alloc::vec::Vec;

use super::error::{Slot, VisaError};
use super::exec::{check_exec, pred_control, pred_flag, scratch_cond_flag, set_df_channel_group, set_first_channel};
use super::format::*;
use super::operand::*;
use super::types::*;
use super::vars::{VarTable, GRF_BYTES, GRF_COUNT};
use crate::isa::region::HSTRIDE_1;
use crate::isa::IVB_DF_CHANNELS;
use crate::model::*;

/// A vISA comparison (CMP's `Rel_op`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
#[non_exhaustive]
pub enum RelOp {
    /// Equal.
    Eq = 0,
    /// Not equal.
    Ne = 1,
    /// Greater than.
    Gt = 2,
    /// Greater than or equal.
    Ge = 3,
    /// Less than.
    Lt = 4,
    /// Less than or equal.
    Le = 5,
}

impl RelOp {
    /// Every comparison, by encoding.
    pub const ALL: [RelOp; 6] = [RelOp::Eq, RelOp::Ne, RelOp::Gt, RelOp::Ge, RelOp::Lt, RelOp::Le];

    /// The comparison of a 3-bit encoding; 6 and 7 are reserved.
    pub const fn from_bits(n: u8) -> Option<Self> {
        Some(match n {
            0 => RelOp::Eq,
            1 => RelOp::Ne,
            2 => RelOp::Gt,
            3 => RelOp::Ge,
            4 => RelOp::Lt,
            5 => RelOp::Le,
            _ => return None,
        })
    }

    /// The hardware conditional modifier.
    pub const fn cond(self) -> CondMod {
        match self {
            RelOp::Eq => CondMod::Z,
            RelOp::Ne => CondMod::Nz,
            RelOp::Gt => CondMod::G,
            RelOp::Ge => CondMod::Ge,
            RelOp::Lt => CondMod::L,
            RelOp::Le => CondMod::Le,
        }
    }

    /// The comparison with its operands exchanged.
    pub const fn swapped(self) -> Self {
        match self {
            RelOp::Gt => RelOp::Lt,
            RelOp::Lt => RelOp::Gt,
            RelOp::Ge => RelOp::Le,
            RelOp::Le => RelOp::Ge,
            r => r,
        }
    }
}

/// The vISA opcodes this lowering handles: moves, arithmetic, logic, shifts
/// and bit operations, comparison and selection, and extended math.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
#[allow(missing_docs)] // the names are vISA's mnemonics
pub enum VisaOp {
    Mov,
    Add,
    Mul,
    Avg,
    Frc,
    Rndd,
    Rndu,
    Rnde,
    Rndz,
    Lzd,
    Fbh,
    Fbl,
    Cbit,
    Bfrev,
    And,
    Or,
    Xor,
    Not,
    Shl,
    Shr,
    Asr,
    Min,
    Max,
    Cmp(RelOp),
    Sel,
    Inv,
    Log,
    Exp,
    Sqrt,
    Rsqrt,
    Sin,
    Cos,
    Pow,
    Div,
    Mod,
    /// ADDR_ADD: address arithmetic into an address variable.
    AddrAdd,
}

/// How an opcode treats types.
#[derive(Clone, Copy, PartialEq, Eq)]
enum TypeRule {
    Any,
    Float,
    Int,
    /// Float (F) or 32-bit integer (D/UD), by the operands.
    Div,
}

impl VisaOp {
    /// Every opcode (comparisons with `Eq`).
    pub const ALL: [VisaOp; 36] = [
        VisaOp::Mov,
        VisaOp::Add,
        VisaOp::Mul,
        VisaOp::Avg,
        VisaOp::Frc,
        VisaOp::Rndd,
        VisaOp::Rndu,
        VisaOp::Rnde,
        VisaOp::Rndz,
        VisaOp::Lzd,
        VisaOp::Fbh,
        VisaOp::Fbl,
        VisaOp::Cbit,
        VisaOp::Bfrev,
        VisaOp::And,
        VisaOp::Or,
        VisaOp::Xor,
        VisaOp::Not,
        VisaOp::Shl,
        VisaOp::Shr,
        VisaOp::Asr,
        VisaOp::Min,
        VisaOp::Max,
        VisaOp::Cmp(RelOp::Eq),
        VisaOp::Sel,
        VisaOp::Inv,
        VisaOp::Log,
        VisaOp::Exp,
        VisaOp::Sqrt,
        VisaOp::Rsqrt,
        VisaOp::Sin,
        VisaOp::Cos,
        VisaOp::Pow,
        VisaOp::Div,
        VisaOp::Mod,
        VisaOp::AddrAdd,
    ];

    /// Number of sources.
    pub const fn num_srcs(self) -> usize {
        match self {
            VisaOp::Mov
            | VisaOp::Frc
            | VisaOp::Rndd
            | VisaOp::Rndu
            | VisaOp::Rnde
            | VisaOp::Rndz
            | VisaOp::Lzd
            | VisaOp::Fbh
            | VisaOp::Fbl
            | VisaOp::Cbit
            | VisaOp::Bfrev
            | VisaOp::Not
            | VisaOp::Inv
            | VisaOp::Log
            | VisaOp::Exp
            | VisaOp::Sqrt
            | VisaOp::Rsqrt
            | VisaOp::Sin
            | VisaOp::Cos => 1,
            _ => 2,
        }
    }

    /// The logic opcodes: the only ones taking the "not" modifier and
    /// predicate operands.
    pub const fn is_logic(self) -> bool {
        matches!(self, VisaOp::And | VisaOp::Or | VisaOp::Xor | VisaOp::Not)
    }

    const fn is_bitop(self) -> bool {
        matches!(
            self,
            VisaOp::Lzd | VisaOp::Fbh | VisaOp::Fbl | VisaOp::Cbit | VisaOp::Bfrev
        )
    }

    /// Whether abs/neg modifiers are allowed on sources.
    const fn arith_mods(self) -> bool {
        !self.is_logic() && !self.is_bitop() && !matches!(self, VisaOp::AddrAdd)
    }

    /// Whether the destination may saturate.
    const fn saturates(self) -> bool {
        !self.is_logic() && !self.is_bitop() && !matches!(self, VisaOp::Cmp(_) | VisaOp::AddrAdd)
    }

    /// Whether the instruction may be predicated.
    const fn predicable(self) -> bool {
        !matches!(self, VisaOp::Cmp(_) | VisaOp::Min | VisaOp::Max)
    }

    const fn commutes(self) -> bool {
        matches!(
            self,
            VisaOp::Add
                | VisaOp::Mul
                | VisaOp::Avg
                | VisaOp::And
                | VisaOp::Or
                | VisaOp::Xor
                | VisaOp::Min
                | VisaOp::Max
        )
    }

    /// Whether the operation takes integer operands only (logic, shifts,
    /// bit counts, `avg`, `mod`, `addr_add`).
    pub const fn integer_only(self) -> bool {
        matches!(self.type_rule(), TypeRule::Int)
    }

    const fn type_rule(self) -> TypeRule {
        match self {
            VisaOp::Frc
            | VisaOp::Rndd
            | VisaOp::Rndu
            | VisaOp::Rnde
            | VisaOp::Rndz
            | VisaOp::Inv
            | VisaOp::Log
            | VisaOp::Exp
            | VisaOp::Sqrt
            | VisaOp::Rsqrt
            | VisaOp::Sin
            | VisaOp::Cos
            | VisaOp::Pow => TypeRule::Float,
            VisaOp::Avg
            | VisaOp::And
            | VisaOp::Or
            | VisaOp::Xor
            | VisaOp::Not
            | VisaOp::Shl
            | VisaOp::Shr
            | VisaOp::Asr
            | VisaOp::Lzd
            | VisaOp::Fbh
            | VisaOp::Fbl
            | VisaOp::Cbit
            | VisaOp::Bfrev
            | VisaOp::Mod
            | VisaOp::AddrAdd => TypeRule::Int,
            VisaOp::Div => TypeRule::Div,
            _ => TypeRule::Any,
        }
    }

    /// The hardware opcode and, for math, the function (decided by type
    /// for DIV).
    fn hw(self, float: bool) -> (Opcode, u8) {
        let math = |f: MathFunction| (Opcode::Math, f.hw());
        match self {
            VisaOp::Mov => (Opcode::Mov, 0),
            VisaOp::Add => (Opcode::Add, 0),
            VisaOp::Mul => (Opcode::Mul, 0),
            VisaOp::Avg => (Opcode::Avg, 0),
            VisaOp::Frc => (Opcode::Frc, 0),
            VisaOp::Rndd => (Opcode::Rndd, 0),
            VisaOp::Rndu => (Opcode::Rndu, 0),
            VisaOp::Rnde => (Opcode::Rnde, 0),
            VisaOp::Rndz => (Opcode::Rndz, 0),
            VisaOp::Lzd => (Opcode::Lzd, 0),
            VisaOp::Fbh => (Opcode::Fbh, 0),
            VisaOp::Fbl => (Opcode::Fbl, 0),
            VisaOp::Cbit => (Opcode::Cbit, 0),
            VisaOp::Bfrev => (Opcode::Bfrev, 0),
            VisaOp::And => (Opcode::And, 0),
            VisaOp::Or => (Opcode::Or, 0),
            VisaOp::Xor => (Opcode::Xor, 0),
            VisaOp::Not => (Opcode::Not, 0),
            VisaOp::Shl => (Opcode::Shl, 0),
            VisaOp::Shr => (Opcode::Shr, 0),
            VisaOp::Asr => (Opcode::Asr, 0),
            VisaOp::Min => (Opcode::Sel, CondMod::L.hw()),
            VisaOp::Max => (Opcode::Sel, CondMod::Ge.hw()),
            VisaOp::Cmp(r) => (Opcode::Cmp, r.cond().hw()),
            VisaOp::Sel => (Opcode::Sel, 0),
            VisaOp::Inv => math(MathFunction::Inv),
            VisaOp::Log => math(MathFunction::Log),
            VisaOp::Exp => math(MathFunction::Exp),
            VisaOp::Sqrt => math(MathFunction::Sqrt),
            VisaOp::Rsqrt => math(MathFunction::Rsq),
            VisaOp::Sin => math(MathFunction::Sin),
            VisaOp::Cos => math(MathFunction::Cos),
            VisaOp::Pow => math(MathFunction::Pow),
            VisaOp::Div if float => math(MathFunction::Fdiv),
            VisaOp::Div => math(MathFunction::IntDivQuotient),
            VisaOp::Mod => math(MathFunction::IntDivRemainder),
            VisaOp::AddrAdd => (Opcode::Add, 0),
        }
    }

    const fn is_math(self) -> bool {
        matches!(
            self,
            VisaOp::Inv
                | VisaOp::Log
                | VisaOp::Exp
                | VisaOp::Sqrt
                | VisaOp::Rsqrt
                | VisaOp::Sin
                | VisaOp::Cos
                | VisaOp::Pow
                | VisaOp::Div
                | VisaOp::Mod
        )
    }
}

/// A vISA instruction: opcode, execution size and mask, predicate,
/// destination (with saturation as its modifier) and sources.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VisaInst {
    /// The opcode.
    pub op: VisaOp,
    /// Execution size and mask control.
    pub exec: ExecCtl,
    /// Predication, if any.
    pub pred: Option<PredCtl>,
    /// The destination.
    pub dst: VecOperand,
    /// The sources, as many as the opcode takes.
    pub src: Vec<VecOperand>,
}

impl VisaInst {
    /// An unpredicated instruction.
    pub fn new(op: VisaOp, exec: ExecCtl, dst: VecOperand, src: &[VecOperand]) -> Self {
        VisaInst {
            op,
            exec,
            pred: None,
            dst,
            src: src.to_vec(),
        }
    }

    /// The same instruction, predicated.
    pub fn with_pred(mut self, pred: PredCtl) -> Self {
        self.pred = Some(pred);
        self
    }
}

/// Registers the caller sets aside for lowering.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct LowerCtx {
    /// A whole GRF the lowering may overwrite to hold immediates the
    /// hardware cannot take in place (up to four 8-byte slots).
    pub temp_grf: Option<u8>,
    /// A flag subregister the lowering may overwrite: a CMP into a general
    /// variable still writes a flag on the hardware.
    pub scratch_flag: Option<FlagReg>,
    /// The first of up to five consecutive GRFs the lowering may
    /// overwrite to build a message payload (header and address operands
    /// of `GATHER4_TYPED`, see [`super::gather`]).
    pub payload_grf: Option<u8>,
}

/// Lowers one vISA instruction to hardware instructions for `p`.
pub fn lower(p: Platform, vars: &VarTable, ctx: &LowerCtx, inst: &VisaInst) -> Result<Vec<Instruction>, VisaError> {
    check_exec(inst.exec)?;
    if inst.src.len() != inst.op.num_srcs() {
        return Err(VisaError::OperandClass {
            slot: Slot::Src(inst.src.len().min(255) as u8),
            reason: "the number of sources does not match the opcode",
        });
    }
    let has_pred_operand = matches!(inst.dst.kind, OperandKind::Predicate(_))
        || inst.src.iter().any(|s| matches!(s.kind, OperandKind::Predicate(_)));
    if inst.op.is_logic() && has_pred_operand {
        return lower_pred_logic(p, vars, inst);
    }
    Lowering::plan(p, vars, ctx, inst)?.run()
}

/// The exec type of sources: the widest, with bytes and packed vectors
/// read as their execution types.
fn exec_type(srcs: &[SrcOp]) -> Type {
    let norm = |t: Type| match t {
        Type::B | Type::V => Type::W,
        Type::UB | Type::UV => Type::UW,
        Type::VF => Type::F,
        t => t,
    };
    srcs.iter()
        .map(|s| norm(s.ty()))
        .reduce(|a, b| if b.size() > a.size() { b } else { a })
        .unwrap_or(Type::UD)
}

/// Everything needed to emit the operation's hardware instructions.
struct Lowering {
    p: Platform,
    opcode: Opcode,
    /// Conditional modifier or math function.
    cond: u8,
    sat: bool,
    no_mask: bool,
    /// Predicate: flag, combine and inverse.
    pred: Option<(FlagReg, PredCombine, bool)>,
    /// Flag written by a conditional modifier.
    cond_flag: Option<FlagReg>,
    dst: DstOp,
    srcs: Vec<SrcOp>,
    /// Ivy Bridge DF: operand regions in pairs of float channels, the
    /// execution size doubled.
    pairs: bool,
    /// Cherryview with a 64-bit operation.
    chv64: bool,
    /// Integer division (SIMD8 at most).
    int_div: bool,
    /// First channel (mask offset).
    base: u32,
    exec: u32,
    /// Moves into the temporary register, emitted first.
    pre: Vec<Instruction>,
    /// Whether the operation may be cut into parts.
    splittable: Result<(), &'static str>,
}

impl Lowering {
    fn plan(p: Platform, vars: &VarTable, ctx: &LowerCtx, inst: &VisaInst) -> Result<Self, VisaError> {
        let op = inst.op;
        let e = inst.exec.size.channels();

        // Predicate.
        let pred = match inst.pred {
            None => None,
            Some(pc) => {
                if !op.predicable() {
                    return Err(VisaError::Predicate {
                        id: pc.id,
                        reason: "this opcode cannot be predicated",
                    });
                }
                Some((pred_flag(vars, pc, inst.exec)?, pc.combine, pc.inverse))
            }
        };

        // Address operands belong to address instructions, whose
        // destination is one.
        let is_addr = |v: &VecOperand| matches!(v.kind, OperandKind::Address(_));
        if op == VisaOp::AddrAdd && !is_addr(&inst.dst) {
            return Err(VisaError::OperandClass {
                slot: Slot::Dst,
                reason: "ADDR_ADD writes an address variable",
            });
        }
        if op != VisaOp::AddrAdd {
            let bad = core::iter::once((Slot::Dst, &inst.dst))
                .chain(inst.src.iter().enumerate().map(|(k, s)| (Slot::Src(k as u8), s)))
                .find(|(_, v)| is_addr(v));
            if let Some((slot, _)) = bad {
                return Err(VisaError::OperandClass {
                    slot,
                    reason: "address variables appear only in address instructions",
                });
            }
        }

        // Sources.
        let mut srcs = Vec::with_capacity(2);
        for (k, s) in inst.src.iter().enumerate() {
            let slot = Slot::Src(k as u8);
            check_modifier(op, s.modifier, slot)?;
            srcs.push(resolve_src(p, vars, slot, s, e, false)?);
        }

        // Destination: a predicate for CMP writes the flag through null.
        let mut cond_flag = None;
        let (dst, sat) = match (&inst.dst.kind, op) {
            (OperandKind::Predicate(pc), VisaOp::Cmp(_)) => {
                if pc.combine != PredCombine::Sequential || pc.inverse || inst.dst.modifier != Modifier::None {
                    return Err(VisaError::Predicate {
                        id: pc.id,
                        reason: "a destination predicate has no combine, inverse or modifier",
                    });
                }
                cond_flag = Some(pred_flag(vars, *pc, inst.exec)?);
                (
                    DstOp {
                        loc: Loc::Arf(ARF_NULL, 0),
                        ty: exec_type(&srcs),
                        h: 1,
                    },
                    false,
                )
            }
            _ => resolve_dst(p, vars, Slot::Dst, &inst.dst, e)?,
        };
        if sat && !op.saturates() {
            return Err(VisaError::Modifier {
                slot: Slot::Dst,
                modifier: Modifier::Sat.name(),
                reason: "this opcode does not saturate",
            });
        }
        // A compare into a general variable writes the scratch flag; the
        // subregister is chosen once the channels are known (below).
        let scratch = if matches!(op, VisaOp::Cmp(_)) && cond_flag.is_none() {
            Some(ctx.scratch_flag.ok_or(VisaError::NeedScratch {
                what: "cmp into a general variable",
                need: "a scratch flag (LowerCtx::scratch_flag)",
            })?)
        } else {
            None
        };
        if matches!(op, VisaOp::Min | VisaOp::Max) {
            // sel.l / sel.ge do not write the flag; name f0.0 as Mesa does.
            cond_flag = Some(FlagReg::default());
        }

        let float = check_types(p, op, &dst, &srcs)?;
        let (opcode, cond) = op.hw(float);
        if op == VisaOp::Sel && pred.is_none() {
            return Err(VisaError::Unsupported {
                what: "SEL without a predicate",
                why: "the hardware selects by a predicate (or a conditional modifier: use MIN or MAX)",
            });
        }
        if op.is_math() && !float {
            let modified = inst.src.iter().position(|s| s.modifier != Modifier::None);
            if let (Some(k), Some(s)) = (modified, modified.and_then(|k| inst.src.get(k))) {
                return Err(VisaError::Modifier {
                    slot: Slot::Src(k as u8),
                    modifier: s.modifier.name(),
                    reason: "integer division takes no source modifier",
                });
            }
        }

        let mut l = Lowering {
            p,
            opcode,
            cond,
            sat,
            no_mask: inst.exec.mask.no_mask,
            pred,
            cond_flag,
            dst,
            srcs,
            pairs: false,
            chv64: false,
            int_div: op.is_math() && !float,
            base: inst.exec.mask.offset(),
            exec: e,
            pre: Vec::new(),
            splittable: Ok(()),
        };
        l.place_immediates(op, ctx)?;
        l.check_df()?;
        if let Some(f) = scratch {
            l.cond_flag = Some(scratch_cond_flag(vars, f, l.base, e)?);
        }
        l.splittable = l.split_safety();
        Ok(l)
    }

    /// Moves immediates the hardware cannot take where they are: src0 of
    /// a two-source opcode (exchanged with src1 when the opcode allows),
    /// 64-bit values outside a Gen8 one-source instruction, and math
    /// operands on Gen7/Gen7.5.
    fn place_immediates(&mut self, op: VisaOp, ctx: &LowerCtx) -> Result<(), VisaError> {
        let is_imm = |s: Option<&SrcOp>| matches!(s, Some(SrcOp::Imm { .. }));
        if self.srcs.len() == 2 && is_imm(self.srcs.first()) && !is_imm(self.srcs.get(1)) {
            let swapped = match op {
                _ if op.commutes() => true,
                VisaOp::Cmp(r) => {
                    self.cond = r.swapped().cond().hw();
                    true
                }
                VisaOp::Sel => match &mut self.pred {
                    Some((_, _, inv)) => {
                        *inv = !*inv;
                        true
                    }
                    None => false,
                },
                _ => false,
            };
            if swapped {
                self.srcs.swap(0, 1);
            }
        }
        let two = self.srcs.len() == 2;
        let mut slot_byte = 0;
        for k in 0..self.srcs.len() {
            let Some(SrcOp::Imm { ty, bits, visa }) = self.srcs.get(k).copied() else {
                continue;
            };
            let must_move = (two && k == 0)
                || (ty.is_64bit() && (two || !self.p.is_gen8()))
                || (self.opcode == Opcode::Math && !self.p.is_gen8());
            if !must_move {
                continue;
            }
            if visa.is_packed() {
                return Err(VisaError::Unsupported {
                    what: "packed vector immediate in this position",
                    why: "it would need a temporary of one element per channel",
                });
            }
            let grf = ctx.temp_grf.ok_or(VisaError::NeedScratch {
                what: "an immediate the hardware cannot take in this position",
                need: "a temporary GRF (LowerCtx::temp_grf)",
            })?;
            if u32::from(grf) >= GRF_COUNT {
                return Err(VisaError::Unsupported {
                    what: "LowerCtx::temp_grf",
                    why: "the temporary register is past g127",
                });
            }
            if slot_byte >= GRF_BYTES {
                return Err(VisaError::Unsupported {
                    what: "immediates",
                    why: "more than four need the temporary GRF",
                });
            }
            let at = u32::from(grf) * GRF_BYTES + slot_byte;
            self.emit_temp_move(at, ty, bits)?;
            slot_byte += 8;
            if let Some(s) = self.srcs.get_mut(k) {
                *s = SrcOp::Reg(RegOp {
                    loc: Loc::Grf(at),
                    ty,
                    v: 0,
                    w: 1,
                    h: 0,
                    mods: SrcMods::empty(),
                });
            }
        }
        Ok(())
    }

    /// `mov(1) tmp imm {WE_all}`, or on Gen7/Gen7.5 for DF the two 32-bit
    /// halves as UD moves.
    fn emit_temp_move(&mut self, at: u32, ty: Type, bits: u64) -> Result<(), VisaError> {
        let mv = |byte: u32, ty: Type, imm: u64| -> Result<Instruction, VisaError> {
            let mut i = Instruction::new(Opcode::Mov, ExecSize::S1);
            i.controls = Controls::WE_ALL;
            i.dst = dst_to_hw(
                self.p,
                &DstOp {
                    loc: Loc::Grf(byte),
                    ty,
                    h: 1,
                },
                false,
                Slot::Dst,
            )?;
            i.src[0] = Src::imm(ty);
            i.imm = imm;
            Ok(i)
        };
        if ty.is_64bit() && !self.p.is_gen8() {
            let lo = mv(at, Type::UD, bits & 0xffff_ffff)?;
            let hi = mv(at + 4, Type::UD, bits >> 32)?;
            self.push_checked_pre(lo)?;
            self.push_checked_pre(hi)
        } else {
            let imm = if ty.is_64bit() { bits } else { bits & 0xffff_ffff };
            let i = mv(at, ty, imm)?;
            self.push_checked_pre(i)
        }
    }

    fn push_checked_pre(&mut self, i: Instruction) -> Result<(), VisaError> {
        crate::validate::validate(self.p, &i).map_err(VisaError::Invalid)?;
        crate::codec::encode_word(self.p, &i).map_err(VisaError::Encode)?;
        self.pre.push(i);
        Ok(())
    }

    /// DF rules: pair regions on Ivy Bridge; Cherryview's 64-bit
    /// restrictions.
    fn check_df(&mut self) -> Result<(), VisaError> {
        let tys = || core::iter::once(self.dst.ty).chain(self.srcs.iter().map(SrcOp::ty));
        let df = tys().any(|t| t == Type::DF);
        if df && df_pairs(self.p) {
            if tys().any(|t| t != Type::DF) {
                return Err(VisaError::Unsupported {
                    what: "Ivy Bridge DF with other types",
                    why: "every operand of a pair-channel DF operation must be DF",
                });
            }
            // The regions count floats ("Each DF operand uses a pair of
            // channels": element size 4, region parameters doubled); the
            // execution mask and the flag do not: DF channel n of a part
            // at channel group g takes bit g + n, as 32-bit code does
            // (Mesa's reading, see the simulator's `Geo::bit`), so
            // predicates and compares use the vISA predicate's own bits
            // and every channel up to 31 exists. `must_split` keeps parts
            // under the execution mask to four channels.
            if self.dst.h != 1 && self.dst.loc != Loc::Arf(ARF_NULL, 0) {
                return Err(VisaError::IllegalRegion {
                    slot: Slot::Dst,
                    reason: "a Gen7 DF destination must be contiguous (HorzStride 1)",
                });
            }
            self.pairs = true;
        }
        let int_dword_mul = self.opcode == Opcode::Mul
            && self
                .srcs
                .iter()
                .all(|s| matches!(s, SrcOp::Reg(r) if matches!(r.ty, Type::D | Type::UD)));
        self.chv64 =
            self.p == Platform::Chv && (self.dst.ty.is_64bit() || exec_type(&self.srcs).is_64bit() || int_dword_mul);
        if self.chv64 {
            let indirect = self.dst.loc.is_indirect()
                || self
                    .srcs
                    .iter()
                    .any(|s| matches!(s, SrcOp::Reg(r) if r.loc.is_indirect()));
            if indirect {
                return Err(VisaError::Chv64 {
                    slot: Slot::Dst,
                    rule: "indirect addressing is not allowed when the execution type is 64-bit",
                });
            }
            let arf = |l: Loc| matches!(l, Loc::Arf(nr, _) if nr != ARF_NULL);
            if arf(self.dst.loc) || self.srcs.iter().any(|s| matches!(s, SrcOp::Reg(r) if arf(r.loc))) {
                return Err(VisaError::Chv64 {
                    slot: Slot::Dst,
                    rule: "architecture registers cannot be used when the execution type is 64-bit",
                });
            }
        }
        Ok(())
    }

    /// Whether cutting the operation into channel ranges keeps its
    /// meaning: no any/all predicate, and no part reading what an earlier
    /// part wrote.
    fn split_safety(&self) -> Result<(), &'static str> {
        if matches!(self.pred, Some((_, c, _)) if c != PredCombine::Sequential) {
            return Err("an any/all predicate combines every channel");
        }
        let dst_grf = matches!(self.dst.loc, Loc::Grf(_));
        if self.dst.loc.is_indirect() {
            return Err("the destination is indirect");
        }
        let Some((dlo, dhi)) = self.dst.grf_span(self.exec) else {
            return Ok(());
        };
        for s in &self.srcs {
            let SrcOp::Reg(r) = s else { continue };
            if r.loc.is_indirect() && dst_grf {
                return Err("an indirect source may read the destination");
            }
            let Some((lo, hi)) = r.grf_span(self.exec) else {
                continue;
            };
            if lo >= dhi || dlo >= hi {
                continue;
            }
            // Overlapping: safe only if each channel reads exactly the
            // element it writes.
            let same = r.ty.size() == self.dst.ty.size()
                && matches!(r.loc, Loc::Grf(b) if Loc::Grf(b) == self.dst.loc)
                && (0..self.exec).all(|c| r.elem(c) == c * self.dst.h);
            if !same {
                return Err("a later part would read what an earlier part wrote");
            }
        }
        Ok(())
    }

    fn run(mut self) -> Result<Vec<Instruction>, VisaError> {
        let mut out = core::mem::take(&mut self.pre);
        self.emit(0, self.exec, &mut out)?;
        Ok(out)
    }

    /// Whether channels `k..k+n` can be cut in two representable halves.
    fn can_split(&self, k: u32, n: u32) -> Result<(), &'static str> {
        self.splittable?;
        if n < 2 || (self.base + k + n / 2) % 4 != 0 {
            return Err("the halves would not start on a 4-channel group");
        }
        Ok(())
    }

    /// A hardware rule that forces channels `k..k+n` into smaller parts.
    fn must_split(&self, k: u32, n: u32) -> Result<Option<&'static str>, VisaError> {
        if self.pairs && n > self.ivb_df_width() {
            return Ok(Some(
                "Ivy Bridge runs DF under the execution mask, a predicate or a flag write at most 4 channels at once (else 8)",
            ));
        }
        if self.int_div && n > 8 {
            return Ok(Some("integer division runs at most 8 channels"));
        }
        if !self.p.is_gen8() && n == 32 && self.cond != CondMod::None.hw() && self.opcode != Opcode::Math {
            return Ok(Some(
                "Gen7 instructions with a conditional modifier cannot run 32 channels",
            ));
        }
        let regs = |lo: u32, hi: u32| (hi - 1) / GRF_BYTES - lo / GRF_BYTES + 1;
        let dst = self.dst.shifted(k, Slot::Dst)?;
        let dst_regs = dst.grf_span(n).map(|(lo, hi)| regs(lo, hi));
        if dst_regs.is_some_and(|r| r > 2) {
            return Ok(Some("the destination would span more than two registers"));
        }
        for (i, s) in self.srcs.iter().enumerate() {
            let SrcOp::Reg(r) = s else { continue };
            let r = r.shifted(k, Slot::Src(i as u8))?;
            let Some((lo, hi)) = r.grf_span(n) else { continue };
            let src_regs = regs(lo, hi);
            if src_regs > 2 {
                return Ok(Some("a source would span more than two registers"));
            }
            // Gen7/Gen7.5: a destination over two registers needs every
            // non-scalar source over two (packed word to packed dword
            // expansion excepted).
            let widening = r.ty.size() == 2 && r.h == 1 && self.dst.ty.size() == 4 && self.dst.h == 1;
            if !self.p.is_gen8() && dst_regs == Some(2) && src_regs == 1 && !r.is_scalar(n) && !widening {
                return Ok(Some("a destination over two registers needs its sources over two"));
            }
        }
        Ok(None)
    }

    /// Ivy Bridge DF: the most channels one instruction runs. Under the
    /// execution mask, a predicate or a flag write, [`IVB_DF_CHANNELS`]:
    /// the hardware gives both halves of a compressed DF instruction the
    /// same four channel enables (Mesa's elk lowers every DF instruction
    /// that is not `WE_all` to SIMD4 on IVB/BYT, `get_fpu_lowered_simd_width`;
    /// a predicate and a flag write are taken to follow the same four bits,
    /// see the simulator's `Geo::bit`). Otherwise (NoMask, neither) a
    /// compressed SIMD16 word, eight DF channels, as Mesa allows for
    /// `WE_all`.
    fn ivb_df_width(&self) -> u32 {
        if self.no_mask && self.pred.is_none() && self.cond_flag.is_none() {
            ExecSize::S16.channels() / 2
        } else {
            IVB_DF_CHANNELS
        }
    }

    fn emit(&self, k: u32, n: u32, out: &mut Vec<Instruction>) -> Result<(), VisaError> {
        let rule = self.must_split(k, n)?;
        let mut invalid = None;
        if rule.is_none() {
            let inst = self.build(k, n)?;
            match crate::validate::validate(self.p, &inst) {
                Ok(()) => {
                    crate::codec::encode_word(self.p, &inst).map_err(VisaError::Encode)?;
                    out.push(inst);
                    return Ok(());
                }
                Err(v) => invalid = Some(v),
            }
        }
        match (self.can_split(k, n), rule, invalid) {
            (Ok(()), _, _) => {
                let half = n / 2;
                self.emit(k, half, out)?;
                self.emit(k + half, half, out)
            }
            (Err(why), Some(what), _) => Err(VisaError::Unsupported { what, why }),
            (Err(_), None, Some(v)) => Err(VisaError::Invalid(v)),
            (Err(why), None, None) => Err(VisaError::Unsupported {
                what: "splitting the instruction",
                why,
            }),
        }
    }

    /// The hardware instruction for channels `k..k+n`.
    fn build(&self, k: u32, n: u32) -> Result<Instruction, VisaError> {
        let hw_n = if self.pairs { 2 * n } else { n };
        let es = ExecSize::from_channels(hw_n).ok_or(VisaError::Unsupported {
            what: "execution size",
            why: "no hardware encoding",
        })?;
        // Ivy Bridge DF: the execution size counts floats, the channel
        // group DF channels (vISA channel c is execution-mask and flag bit
        // c), so a SIMD4 part at channel 4 is an (8) word with NibCtrl.
        let first = self.base + k;
        let mut i = Instruction::new(self.opcode, es);
        if self.pairs {
            set_df_channel_group(&mut i, first, n)?;
        } else {
            set_first_channel(&mut i, first)?;
        }
        i.controls.set(Controls::WE_ALL, self.no_mask);
        i.controls.set(Controls::SATURATE, self.sat);
        i.cond_modifier = self.cond;
        if let Some(f) = self.cond_flag {
            i.flag = f;
        }
        if let Some((flag, combine, inv)) = self.pred {
            i.flag = flag;
            i.pred_control = pred_control(combine, n);
            i.controls.set(Controls::PRED_INV, inv);
        }
        let dst = self.dst.shifted(k, Slot::Dst)?;
        i.dst = dst_to_hw(self.p, &dst, self.pairs, Slot::Dst)?;
        // Gen7 workaround (WaCMPInstNullDstForcesThreadSwitch): a compare
        // into the null register must switch threads.
        if !self.p.is_gen8()
            && self.opcode == Opcode::Cmp
            && i.dst.file == RegFile::Arf
            && i.dst.addr == (Addr::Direct { nr: ARF_NULL, subnr: 0 })
        {
            i.thread_control = ThreadControl::Switch;
        }
        for (j, s) in self.srcs.iter().enumerate() {
            let slot = Slot::Src(j as u8);
            let hw = match s {
                SrcOp::Reg(r) => {
                    let src = src_to_hw(self.p, &r.shifted(k, slot)?, n, self.pairs, slot)?;
                    if self.chv64 {
                        chv_region(src, &i.dst, n, slot)?
                    } else {
                        src
                    }
                }
                SrcOp::Imm { ty, bits, .. } => {
                    i.imm = if ty.is_64bit() { *bits } else { bits & 0xffff_ffff };
                    Src::imm(*ty)
                }
            };
            if let Some(d) = i.src.get_mut(j) {
                *d = hw;
            }
        }
        Ok(i)
    }
}

/// Cherryview 64-bit rules for an align1 source: VertStride = Width ×
/// HorzStride (a 1-D region is rewritten so), source and destination
/// strides equal and a multiple of 8 bytes, and the same subregister
/// offset, scalars excepted.
fn chv_region(mut src: Src, dst: &Dst, n: u32, slot: Slot) -> Result<Src, VisaError> {
    let r = src.region;
    if r == Region::SCALAR {
        return Ok(src);
    }
    let rule = |rule| VisaError::Chv64 { slot, rule };
    let (w, h) = (r.width_elems().unwrap_or(1), r.hstride_elems());
    if r.vstride_elems() != Some(w * h) {
        let stride = match r.vstride_elems() {
            Some(v) if w == 1 => v,
            Some(_) if n <= w => h,
            _ => return Err(rule("a 64-bit region must be 1-D (VertStride = Width × HorzStride)")),
        };
        if stride == 0 {
            src.region = Region::SCALAR;
            return Ok(src);
        }
        let size = src.ty.size();
        let mut w2 = n.min(16);
        while w2 > 1 && w2 * stride * size > GRF_BYTES {
            w2 /= 2;
        }
        src.region =
            Region::new(w2 * stride, w2, stride).ok_or(rule("a 64-bit source stride must be 1, 2 or 4 elements"))?;
    }
    let src_stride = src.region.hstride_elems() * src.ty.size();
    let dst_stride = dst.hstride_elems() * dst.ty.size();
    if src_stride != dst_stride || src_stride % 8 != 0 {
        return Err(rule(
            "source and destination strides must be equal and a multiple of 8 bytes when the execution type is 64-bit",
        ));
    }
    let sub = |a: Addr| match a {
        Addr::Direct { subnr, .. } => subnr,
        Addr::Indirect { .. } => 0,
    };
    if sub(src.addr) != sub(dst.addr) {
        return Err(rule(
            "source and destination must start at the same register offset when the execution type is 64-bit",
        ));
    }
    Ok(src)
}

/// vISA's modifier rules: "not" only on logic opcodes, the arithmetic
/// modifiers only on arithmetic, shift, move, compare and select.
fn check_modifier(op: VisaOp, m: Modifier, slot: Slot) -> Result<(), VisaError> {
    let bad = |reason| {
        Err(VisaError::Modifier {
            slot,
            modifier: m.name(),
            reason,
        })
    };
    match m {
        Modifier::None => Ok(()),
        Modifier::Not if !op.is_logic() => bad("\"not\" is for logic instructions only"),
        Modifier::Abs | Modifier::Neg | Modifier::NegAbs if !op.arith_mods() => {
            bad("arithmetic modifiers are not for logic or bit instructions")
        }
        _ => Ok(()),
    }
}

/// Checks operand types against the opcode; returns whether the operation
/// is a float one.
fn check_types(p: Platform, op: VisaOp, dst: &DstOp, srcs: &[SrcOp]) -> Result<bool, VisaError> {
    let float = srcs.iter().any(|s| s.ty().is_float()) || (srcs.is_empty() && dst.ty.is_float());
    for (k, s) in srcs.iter().enumerate() {
        let ty = s.ty();
        let err = |reason| {
            Err(VisaError::HwType {
                slot: Slot::Src(k as u8),
                ty,
                reason,
            })
        };
        match op.type_rule() {
            TypeRule::Float if !ty.is_float() => return err("this opcode takes float operands"),
            TypeRule::Int if ty.is_float() => return err("this opcode takes integer operands"),
            TypeRule::Div if ty.is_float() && ty != Type::F && ty != Type::VF => {
                return err("extended math divides F only")
            }
            TypeRule::Div if !ty.is_float() && ty.is_64bit() => return err("extended math divides 32-bit integers"),
            _ => {}
        }
        if op.is_math() && ty == Type::DF {
            return err("extended math has no DF on Gen7/Gen8");
        }
        if float != ty.is_float() && op != VisaOp::Mov {
            return err("sources mix integer and float types");
        }
        if op == VisaOp::Mul && ty.is_64bit() && !ty.is_float() {
            return err("Gen7/Gen8 have no 64-bit integer multiply");
        }
    }
    if !p.is_gen8() && matches!(dst.ty, Type::Q | Type::UQ | Type::HF) {
        return Err(VisaError::PlatformType {
            slot: Slot::Dst,
            ty: dst.ty,
            platform: p,
        });
    }
    // Extended math converts nothing: it writes F (HF) for the float
    // functions and 32-bit integers for integer division.
    if op.is_math() {
        let err = |reason| {
            Err(VisaError::HwType {
                slot: Slot::Dst,
                ty: dst.ty,
                reason,
            })
        };
        if dst.ty.is_64bit() {
            return err("extended math has no 64-bit destination on Gen7/Gen8");
        }
        if float && !dst.ty.is_float() {
            return err("float extended math writes a float destination");
        }
        if !float && dst.ty.is_float() {
            return err("integer division writes an integer destination");
        }
    }
    Ok(float)
}

/// AND, OR, XOR and NOT on predicates: one scalar operation on the flag
/// words, `WE_all`. The channels `offset..offset+exec` of each predicate
/// must be a whole, aligned flag word (16 or 32 channels).
fn lower_pred_logic(p: Platform, vars: &VarTable, inst: &VisaInst) -> Result<Vec<Instruction>, VisaError> {
    if let Some(pc) = inst.pred {
        return Err(VisaError::Predicate {
            id: pc.id,
            reason: "logic on predicates cannot be predicated",
        });
    }
    let n = inst.exec.size.channels();
    let ty = match n {
        16 => Type::UW,
        32 => Type::UD,
        _ => {
            return Err(VisaError::Unsupported {
                what: "logic on predicates",
                why: "only 16 or 32 channels (a whole flag word) are supported",
            })
        }
    };
    let flag_word = |op: &VecOperand, slot: Slot| -> Result<(Addr, bool), VisaError> {
        let OperandKind::Predicate(pc) = op.kind else {
            return Err(VisaError::OperandClass {
                slot,
                reason: "logic on predicates needs every operand to be a predicate",
            });
        };
        if pc.combine != PredCombine::Sequential {
            return Err(VisaError::Predicate {
                id: pc.id,
                reason: "a predicate operand has no combine mode",
            });
        }
        let flag = pred_flag(vars, PredCtl::new(pc.id), inst.exec)?;
        let bit = u32::from(flag.subnr) * 16 + inst.exec.mask.offset();
        if bit % n != 0 {
            return Err(VisaError::Unsupported {
                what: "logic on predicates",
                why: "the channels must start a flag word",
            });
        }
        Ok((
            Addr::Direct {
                nr: ARF_F0 + flag.nr,
                subnr: (bit / 8) as u8,
            },
            pc.inverse,
        ))
    };
    let (dst_addr, dst_inv) = flag_word(&inst.dst, Slot::Dst)?;
    if dst_inv {
        return Err(VisaError::Predicate {
            id: 0,
            reason: "a destination predicate cannot be inverted",
        });
    }
    let (opcode, _) = inst.op.hw(false);
    let mut i = Instruction::new(opcode, ExecSize::S1);
    i.controls = Controls::WE_ALL;
    i.dst = Dst {
        file: RegFile::Arf,
        ty,
        addr: dst_addr,
        hstride: HSTRIDE_1,
        writemask: WriteMask::XYZW,
    };
    for (k, s) in inst.src.iter().enumerate() {
        let slot = Slot::Src(k as u8);
        check_modifier(inst.op, s.modifier, slot)?;
        let (addr, inv) = flag_word(s, slot)?;
        let mut mods = SrcMods::empty();
        mods.set(SrcMods::NEGATE, inv);
        if let Some(d) = i.src.get_mut(k) {
            *d = Src {
                file: RegFile::Arf,
                ty,
                addr,
                region: Region::SCALAR,
                swizzle: Swizzle(0),
                mods,
            };
        }
    }
    crate::validate::validate(p, &i).map_err(VisaError::Invalid)?;
    crate::codec::encode_word(p, &i).map_err(VisaError::Encode)?;
    Ok(alloc::vec![i])
}
