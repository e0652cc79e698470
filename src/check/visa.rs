//! The shared bad-input property of the vISA layer, for fuzz targets and
//! property tests.
//!
//! Arbitrary bytes given as vISA operands, and arbitrary typed operands
//! against an arbitrary variable table, give `Ok` or a typed
//! [`VisaError`](crate::visa::VisaError): never a panic, and never an instruction that fails
//! [`crate::validate::validate`] or does not round-trip through the codec.
//!
//! [`arbitrary_case`] builds a whole lowering problem from bytes (platform,
//! variable table, lowering context, and a vISA instruction or
//! `GATHER4_TYPED`); [`check`] runs every property on one input and
//! panics when one is violated. Both are deterministic functions of the
//! bytes, so a failing input found by a fuzzer replays in a test.
// Panicking on a broken property is the point of `check`.
#![allow(clippy::panic)]

use alloc::format;
use alloc::vec::Vec;

use super::msg::ByteSource;
use crate::codec::decode;
use crate::encode;
use crate::isa::{ADDR_SUBREGS, EOT_PAYLOAD_FIRST, GRF_BYTES};
use crate::model::{ExecSize, FlagReg, Instruction, Platform};
use crate::msg::Surface;
use crate::visa::format::*;
use crate::visa::gather::{lower_gather4_typed, VisaGather4Typed};
use crate::visa::inst::{lower, LowerCtx, RelOp, VisaInst, VisaOp};
use crate::visa::operand::{lower_dst, lower_scalar_src, lower_src};
use crate::visa::types::*;
use crate::visa::vars::{AddressVar, GeneralVar, Placement, PredicateVar, VarTable};

/// What a case lowers.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum CaseOp {
    /// An ALU, compare, select, math or address instruction.
    Inst(VisaInst),
    /// A typed gather.
    Gather(VisaGather4Typed),
}

/// A lowering problem built from bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case {
    /// The platform.
    pub platform: Platform,
    /// The caller's variables.
    pub vars: VarTable,
    /// The caller's scratch registers.
    pub ctx: LowerCtx,
    /// The instruction.
    pub op: CaseOp,
}

/// Mostly small values, sometimes any byte.
fn small(src: &mut ByteSource<'_>, below: u8) -> u8 {
    let b = src.u8();
    if b & 0xe0 == 0xe0 {
        src.u8()
    } else {
        b % below.max(1)
    }
}

fn visa_type(src: &mut ByteSource<'_>) -> VisaType {
    // Register types more often than the packed and unusable ones.
    const COMMON: [VisaType; 8] = [
        VisaType::UD,
        VisaType::D,
        VisaType::F,
        VisaType::W,
        VisaType::UW,
        VisaType::DF,
        VisaType::B,
        VisaType::Q,
    ];
    let b = src.u8();
    if b & 3 == 0 {
        VisaType::from_bits(b >> 2)
    } else {
        COMMON
            .get(usize::from(b >> 2) % COMMON.len())
            .copied()
            .unwrap_or(VisaType::UD)
    }
}

/// The general registers, g0-g127.
use crate::isa::GRF_COUNT as GRFS;

fn general_var(src: &mut ByteSource<'_>, theme: Option<VisaType>) -> GeneralVar {
    let ty = match theme {
        Some(t) if src.u8() % 4 != 0 => t,
        _ => visa_type(src),
    };
    let elements = match src.u8() % 8 {
        0 => 1,
        1 => 8,
        2 | 3 => 32,
        4 => 64,
        5 => u32::from(src.u8()),
        6 => u32::from(src.u16()),
        _ => 1 << (src.u8() % 8),
    };
    let b = src.u8();
    let placement = if b % 16 == 0 {
        Placement::Null
    } else {
        // Below the registers of an end-of-thread payload.
        let reg = u32::from(src.u8() % EOT_PAYLOAD_FIRST);
        let sub = match b % 8 {
            0 => u32::from(src.u8()) % GRF_BYTES,
            1 => ty.size() * u32::from(src.u8() % 8),
            _ => 0,
        };
        if b & 0x80 != 0 && b % 16 == 1 {
            // Anywhere up to twice past the register file.
            Placement::Grf(src.u32() % (2 * GRFS * GRF_BYTES))
        } else {
            Placement::Grf(reg * GRF_BYTES + sub)
        }
    };
    GeneralVar {
        ty,
        elements,
        placement,
    }
}

fn flag(src: &mut ByteSource<'_>) -> FlagReg {
    let b = src.u8();
    let nr = if b & 0x40 != 0 && b & 0x80 != 0 { 2 } else { b & 1 };
    FlagReg {
        nr,
        subnr: (b >> 1) & 1,
    }
}

fn var_table(src: &mut ByteSource<'_>) -> VarTable {
    let mut v = VarTable::new();
    let b = src.u8();
    let theme = (b & 1 != 0).then(|| visa_type(src));
    for _ in 0..1 + (b >> 1) % 8 {
        v.general.push(general_var(src, theme));
    }
    for _ in 0..src.u8() % 4 {
        v.address.push(AddressVar {
            elements: small(src, ADDR_SUBREGS + 1),
            subreg: small(src, ADDR_SUBREGS),
        });
    }
    for _ in 0..src.u8() % 4 {
        let elements = src.pick(&[32, 32, 16, 8, 1, 0]).unwrap_or(8);
        let elements = if src.u8() == 0xff { src.u8() } else { elements };
        v.predicate.push(PredicateVar {
            elements,
            flag: flag(src),
        });
    }
    v
}

fn lower_ctx(src: &mut ByteSource<'_>) -> LowerCtx {
    let b = src.u8();
    LowerCtx {
        // A register, or (with bit 7) a number past the last one.
        temp_grf: (b & 1 != 0).then(|| {
            let past = if b & 0x80 != 0 { GRFS as u8 } else { 0 };
            src.u8() % GRFS as u8 + past
        }),
        scratch_flag: (b & 2 != 0).then(|| flag(src)),
        payload_grf: (b & 4 != 0).then(|| src.u8()),
    }
}

fn region_val(src: &mut ByteSource<'_>) -> RegionVal {
    RegionVal::from_bits(src.u8() % 8).unwrap_or(RegionVal::R1)
}

fn region(src: &mut ByteSource<'_>) -> VisaRegion {
    let b = src.u8();
    let common = [
        (Some(8), 8, 1),
        (Some(0), 1, 0),
        (Some(16), 8, 2),
        (Some(4), 4, 1),
        (Some(1), 1, 0),
    ];
    if b % 4 == 1 {
        if let Some(&(v, w, h)) = common.get(usize::from(b >> 2) % common.len()) {
            if let Some(r) = VisaRegion::new(v, w, h) {
                return r;
            }
        }
    }
    if b % 4 > 1 {
        // A well-formed <V;W,H> from small values.
        let w = 1 << (src.u8() % 4);
        let h = src.pick(&[0, 1, 2, 4]).unwrap_or(1);
        let v = src.pick(&[0, 1, 2, 4, 8, 16, 32]).unwrap_or(8);
        let v = if b & 0xf0 == 0xf0 { None } else { Some(v) };
        if let Some(r) = VisaRegion::new(v, w, h) {
            return r;
        }
    }
    VisaRegion {
        vstride: region_val(src),
        width: region_val(src),
        hstride: region_val(src),
    }
}

fn pred_ctl(src: &mut ByteSource<'_>) -> PredCtl {
    let b = src.u8();
    PredCtl {
        id: u16::from(b % 4) + u16::from(b & 0x40 == 0),
        combine: match (b >> 3) % 4 {
            1 => PredCombine::Any,
            2 => PredCombine::All,
            _ => PredCombine::Sequential,
        },
        inverse: b & 0x80 != 0,
    }
}

fn exec_ctl(src: &mut ByteSource<'_>) -> ExecCtl {
    let b = src.u8();
    ExecCtl {
        size: ExecSize::ALL.get(usize::from(b % 6)).copied().unwrap_or(ExecSize::S8),
        mask: match b >> 5 {
            0..=4 => MaskCtl::default(),
            5 | 6 => {
                // An offset aligned to the size (when there is one).
                let n = ExecSize::ALL.get(usize::from(b % 6)).map_or(8, |e| e.channels());
                let k = u32::from(src.u8()) % (32 / n.max(1)).max(1);
                MaskCtl::from_bits(((k * n / 4) as u8 & 7) | (b & 0x10) >> 1)
            }
            _ => MaskCtl::from_bits(src.u8()),
        },
    }
}

fn operand(src: &mut ByteSource<'_>, dst: bool, vars: &VarTable) -> VecOperand {
    let nvars = u8::try_from(vars.general.len()).unwrap_or(8).max(1);
    let b = src.u8();
    let modifier = if b & 0xc0 == 0xc0 && src.u8() % 2 == 0 {
        Modifier::from_bits(src.u8() % 6).unwrap_or(Modifier::None)
    } else {
        Modifier::None
    };
    let kind = match b % 64 {
        // Bytes parsed as an operand: whatever they say.
        0 => {
            let mut bytes = [0u8; 16];
            for x in &mut bytes {
                *x = src.u8();
            }
            if let Ok((op, _)) = VecOperand::parse(&bytes) {
                return op;
            }
            OperandKind::General(GenOperand::default())
        }
        1..=7 => OperandKind::Immediate(Immediate {
            ty: visa_type(src),
            value: if b & 0x20 != 0 {
                u64::from(src.u32()) | u64::from(src.u32()) << 32
            } else {
                u64::from(src.u32())
            },
        }),
        8 | 9 => OperandKind::Indirect(IndirectOperand {
            addr: u16::from(small(src, 4)),
            addr_offset: small(src, 8),
            offset: if b & 0x20 != 0 {
                src.u16() as i16
            } else {
                i16::from(src.u8() as i8)
            },
            ty: visa_type(src),
            region: region(src),
        }),
        10 => OperandKind::Address(AddrOperand {
            id: u16::from(small(src, 4)),
            offset: small(src, 8),
            width: ExecSize::ALL
                .get(usize::from(src.u8() % 5))
                .copied()
                .unwrap_or(ExecSize::S1),
        }),
        11 => OperandKind::Predicate(pred_ctl(src)),
        12 => OperandKind::State(StateOperand {
            class: StateClass::Surface,
            id: u16::from(src.u8()),
            offset: src.u8(),
        }),
        _ => {
            let region = if dst && b & 0x10 == 0 {
                VisaRegion::dst(1 << (src.u8() % 3)).unwrap_or_default()
            } else {
                region(src)
            };
            OperandKind::General(GenOperand {
                id: u32::from(small(src, nvars)),
                row: if b & 0x20 != 0 { small(src, 4) } else { 0 },
                col: if b & 0x10 != 0 { small(src, 16) } else { 0 },
                region,
            })
        }
    };
    VecOperand { modifier, kind }
}

fn visa_inst(src: &mut ByteSource<'_>, vars: &VarTable) -> VisaInst {
    let op = match src.pick(&VisaOp::ALL).unwrap_or(VisaOp::Mov) {
        VisaOp::Cmp(_) => VisaOp::Cmp(RelOp::from_bits(src.u8() % 6).unwrap_or(RelOp::Eq)),
        op => op,
    };
    let exec = exec_ctl(src);
    let pred = (src.u8() % 6 == 0).then(|| pred_ctl(src));
    let dst = operand(src, true, vars);
    // Usually the opcode's number of sources, sometimes not.
    let n = if src.u8() == 0xff {
        usize::from(src.u8() % 4)
    } else {
        op.num_srcs()
    };
    let srcs: Vec<VecOperand> = (0..n).map(|_| operand(src, false, vars)).collect();
    VisaInst {
        op,
        exec,
        pred,
        dst,
        src: srcs,
    }
}

fn raw_operand(src: &mut ByteSource<'_>, nvars: u8) -> RawOperand {
    let b = src.u8();
    RawOperand {
        id: u32::from(small(src, nvars)),
        offset: if b & 0x80 != 0 {
            src.u16()
        } else {
            u16::from(b % 4) * 32
        },
    }
}

fn gather(src: &mut ByteSource<'_>, vars: &VarTable) -> VisaGather4Typed {
    let nvars = u8::try_from(vars.general.len()).unwrap_or(8).max(1);
    let b = src.u8();
    let exec = if b & 0x61 == 0x61 {
        exec_ctl(src)
    } else {
        ExecCtl {
            size: ExecSize::S8,
            mask: MaskCtl::from_bits(src.u8()),
        }
    };
    let surface = match src.u8() % 8 {
        0 => Surface::Slm,
        1 => Surface::Stateless,
        2 => Surface::Bti(src.u32()),
        _ => Surface::Bti(u32::from(src.u8())),
    };
    let opt = |src: &mut ByteSource<'_>| (src.u8() % 3 != 0).then(|| raw_operand(src, nvars));
    VisaGather4Typed {
        exec,
        pred: (b & 2 != 0).then(|| pred_ctl(src)),
        channels: if b & 4 != 0 { src.u8() } else { src.u8() % 16 },
        surface,
        u: raw_operand(src, nvars),
        v: opt(src),
        r: opt(src),
        lod: opt(src),
        dst: raw_operand(src, nvars),
    }
}

/// A table of well-placed variables of one type, a predicate, and
/// scratch registers out of their way: most instructions on it lower.
fn tame_vars(src: &mut ByteSource<'_>, p: Platform) -> (VarTable, LowerCtx) {
    let mut types = alloc::vec![
        VisaType::UD,
        VisaType::D,
        VisaType::F,
        VisaType::W,
        VisaType::UW,
        VisaType::DF
    ];
    if p.is_gen8() {
        types.extend([VisaType::Q, VisaType::UQ, VisaType::HF]);
    }
    let ty = src.pick(&types).unwrap_or(VisaType::F);
    let mut v = VarTable::new();
    for k in 0..7u32 {
        // Mostly the theme type; sometimes another one (conversions).
        let t = if src.u8() % 4 == 0 {
            src.pick(&types).unwrap_or(ty)
        } else {
            ty
        };
        let elements = 512 / t.size();
        v.add_general(t, elements, k * 16 * 32);
    }
    v.add_null(ty);
    v.add_address(8, 0);
    v.add_predicate(32, FlagReg { nr: 0, subnr: 0 });
    v.add_predicate(16, FlagReg { nr: 1, subnr: 1 });
    let ctx = LowerCtx {
        temp_grf: Some(120),
        scratch_flag: Some(FlagReg { nr: 1, subnr: 0 }),
        payload_grf: Some(122),
    };
    (v, ctx)
}

fn tame_exec(src: &mut ByteSource<'_>) -> ExecCtl {
    let b = src.u8();
    let size = [
        ExecSize::S1,
        ExecSize::S4,
        ExecSize::S8,
        ExecSize::S8,
        ExecSize::S16,
        ExecSize::S16,
        ExecSize::S32,
        ExecSize::S2,
    ]
    .get(usize::from(b % 8))
    .copied()
    .unwrap_or(ExecSize::S8);
    let n = size.channels();
    let k = u32::from(b >> 3) % (32 / n).max(1);
    let index = if b & 0x80 != 0 { (k * n / 4) as u8 & 7 } else { 0 };
    ExecCtl {
        size,
        mask: MaskCtl {
            index,
            no_mask: src.u8() % 8 == 0,
        },
    }
}

fn tame_operand(src: &mut ByteSource<'_>, dst: bool, exec: u32, vars: &VarTable) -> VecOperand {
    let b = src.u8();
    let id = u32::from(b % 8);
    let ty = vars.general.get(id as usize).map_or(VisaType::F, |v| v.ty);
    if !dst && b & 0xe0 == 0xe0 {
        let value = match ty {
            VisaType::F => u64::from((f32::from(src.u8()) - 100.0).to_bits()),
            VisaType::DF => (f64::from(src.u8()) * 0.5).to_bits(),
            t if t.is_64bit() => u64::from(src.u32()) | u64::from(src.u8()) << 40,
            _ => u64::from(src.u16()),
        };
        return VecOperand::imm(Immediate { ty, value });
    }
    if b % 16 == 1 {
        // Indirect through A0 (8 elements at a0.0), single- or multi-address.
        let c = src.u8();
        let region = match c % 4 {
            0 => VisaRegion::new(None, 1 << (c / 4 % 3), 1),
            1 if dst => VisaRegion::dst(1),
            _ => VisaRegion::new(Some(exec.min(8)), exec.min(8), 1),
        };
        return VecOperand::from(OperandKind::Indirect(IndirectOperand {
            addr: 0,
            addr_offset: src.u8() % 3,
            offset: i16::from(src.u8() % 8) * ty.size() as i16,
            ty,
            region: region.unwrap_or_default(),
        }));
    }
    let row = if b & 0x10 != 0 { src.u8() % 4 } else { 0 };
    let col = if b & 0x08 != 0 { src.u8() % 4 } else { 0 };
    let region = if dst {
        VisaRegion::dst(if src.u8() % 4 == 0 { 2 } else { 1 })
    } else {
        let (v, w, h) = match src.u8() % 6 {
            0 => (0, 1, 0),
            1 => (exec.min(8) * 2, exec.min(8), 2),
            2 => (4, 4, 1),
            3 => (1, 1, 0),
            _ => (exec.min(8), exec.min(8), 1),
        };
        VisaRegion::new(Some(v), w.min(exec).max(1), h)
    };
    let mut op = VecOperand::general(id, row, col, region.unwrap_or_default());
    op.modifier = match src.u8() % 16 {
        0 if dst => Modifier::Sat,
        0 => Modifier::Neg,
        1 if !dst => Modifier::Abs,
        2 if !dst => Modifier::Not,
        _ => Modifier::None,
    };
    op
}

/// P1 or P2, any combine and inverse.
fn tame_pred(src: &mut ByteSource<'_>) -> PredCtl {
    let mut pc = pred_ctl(src);
    pc.id = 1 + pc.id % 2;
    pc
}

fn tame_case(src: &mut ByteSource<'_>, p: Platform) -> (VarTable, LowerCtx, CaseOp) {
    let (vars, ctx) = tame_vars(src, p);
    if src.u8() % 8 == 0 {
        let raw = |k: u8| RawOperand {
            id: u32::from(k % 7),
            offset: 0,
        };
        let b = src.u8();
        let mut g = VisaGather4Typed::new(src.u8() % 15 + 1, Surface::Bti(u32::from(b % 8)), raw(b), raw(b / 7));
        let m = src.u8();
        g.exec.mask = MaskCtl::from_bits((m & 6) | (m >> 7) << 3);
        g.v = (m & 0x10 != 0).then(|| raw(m));
        g.lod = (m & 0x20 != 0).then(|| raw(m / 3));
        g.pred = (m & 0x40 != 0).then(|| tame_pred(src));
        return (vars, ctx, CaseOp::Gather(g));
    }
    let op = match src.pick(&VisaOp::ALL).unwrap_or(VisaOp::Mov) {
        VisaOp::Cmp(_) => VisaOp::Cmp(RelOp::from_bits(src.u8() % 6).unwrap_or(RelOp::Eq)),
        op => op,
    };
    let exec = tame_exec(src);
    let n = exec.size.channels();
    let pred = (src.u8() % 4 == 0).then(|| tame_pred(src));
    let dst = if matches!(op, VisaOp::Cmp(_)) && src.u8() % 2 == 0 {
        VecOperand::pred(1 + u16::from(src.u8() % 2))
    } else {
        tame_operand(src, true, n, &vars)
    };
    let mut srcs: Vec<VecOperand> = (0..op.num_srcs()).map(|_| tame_operand(src, false, n, &vars)).collect();
    let dst = if op == VisaOp::AddrAdd {
        // addr_add A0(k) A0(j)|V src1
        let addr = |src: &mut ByteSource<'_>| {
            VecOperand::from(OperandKind::Address(AddrOperand {
                id: 0,
                offset: src.u8() % 8,
                width: if src.bool() { ExecSize::S1 } else { exec.size },
            }))
        };
        if let Some(s0) = srcs.first_mut() {
            if src.bool() {
                *s0 = addr(src);
            }
        }
        if let Some(s1) = srcs.get_mut(1) {
            *s1 = VecOperand::imm(Immediate::int(VisaType::UW, i64::from(src.u8())));
        }
        addr(src)
    } else {
        dst
    };
    let inst = VisaInst {
        op,
        exec,
        pred,
        dst,
        src: srcs,
    };
    (vars, ctx, CaseOp::Inst(inst))
}

/// Builds a lowering problem from `data`: platform, variable table,
/// context, and an instruction. Half the cases are tame (well-placed
/// variables of one type, common regions, so that most lower); the others
/// are wild (any table, operands from typed generators or from the bytes
/// parsed as a vISA operand).
pub fn arbitrary_case(data: &[u8]) -> Case {
    let mut src = ByteSource::new(data);
    let platform = src.pick(&Platform::ALL).unwrap_or(Platform::Gen8);
    if src.u8() % 2 == 0 {
        let (vars, ctx, op) = tame_case(&mut src, platform);
        return Case {
            platform,
            vars,
            ctx,
            op,
        };
    }
    let vars = var_table(&mut src);
    let ctx = lower_ctx(&mut src);
    let op = if src.u8() % 8 == 0 {
        CaseOp::Gather(gather(&mut src, &vars))
    } else {
        CaseOp::Inst(visa_inst(&mut src, &vars))
    };
    Case {
        platform,
        vars,
        ctx,
        op,
    }
}

/// Every instruction lowered validates, and decodes from its encoding to
/// itself (also [`crate::check::visa_lower`]'s check).
pub(crate) fn check_lowered(p: Platform, insts: &[Instruction], what: &dyn core::fmt::Debug) {
    assert!(!insts.is_empty(), "{p}: lowering {what:?} gave no instruction");
    for i in insts {
        if let Err(v) = crate::validate::validate(p, i) {
            panic!("{p}: lowering {what:?} gave an invalid instruction: {v}\n{i:?}");
        }
        let bytes = match encode(p, i) {
            Ok(b) => b,
            Err(e) => panic!("{p}: lowering {what:?} gave an instruction that does not encode: {e}\n{i:?}"),
        };
        match decode(p, &bytes) {
            Ok(back) => assert_eq!(&back, i, "{p}: decode(encode(i)) != i, lowering {what:?}"),
            Err(e) => panic!("{p}: lowering {what:?}: encoded word does not decode: {e}\n{i:?}"),
        }
    }
}

/// Byte round trips of the binary formats: whatever parses writes back to
/// bytes that parse to the same value.
fn check_formats(data: &[u8]) {
    if let Ok((op, n)) = VecOperand::parse(data) {
        assert!(n <= data.len(), "parse consumed {n} of {} bytes", data.len());
        match op.to_bytes() {
            Ok(bytes) => {
                assert_eq!(VecOperand::parse(&bytes), Ok((op, bytes.len())), "operand {op:?}");
            }
            Err(e) => panic!("a parsed operand does not write back: {e}: {op:?}"),
        }
    }
    if let Ok((raw, n)) = RawOperand::parse(data) {
        let mut out = Vec::new();
        raw.write(&mut out);
        assert_eq!(RawOperand::parse(&out), Ok((raw, n)));
    }
    if let Some(&b) = data.first() {
        if let Ok(e) = ExecCtl::from_byte(b) {
            assert_eq!(e.to_byte(), b, "exec byte {b:#x}");
        }
    }
    if let [a, b, ..] = data {
        let uw = u16::from_le_bytes([*a, *b]);
        if let Ok(pc) = PredCtl::from_uw(uw) {
            assert_eq!(pc.to_uw(), Ok(uw), "pred {uw:#x}");
        }
        if let Ok(r) = VisaRegion::from_uw(uw) {
            assert_eq!(VisaRegion::from_uw(r.to_uw()), Ok(r), "region {uw:#x}");
        }
    }
}

/// Checks every property on `data`; panics when one is violated:
///
/// 1. the binary formats (operand, raw operand, exec byte, predicate and
///    region words) parse without panicking, and what parses writes back
///    and parses again to the same value;
/// 2. the bytes read as an operand, lowered against an arbitrary table as
///    source, scalar source and destination, give a result or an error;
/// 3. the case of [`arbitrary_case`] lowers to instructions that all pass
///    `validate` and round-trip through the codec, or to a typed error
///    whose message formats.
pub fn check(data: &[u8]) {
    check_formats(data);
    let case = arbitrary_case(data);
    let p = case.platform;

    // 2. Parsed bytes as operands of an 8-channel instruction.
    if let Some((_, rest)) = data.split_first() {
        if let Ok((op, _)) = VecOperand::parse(rest) {
            for es in [ExecSize::S1, ExecSize::S8, ExecSize::S16] {
                let src = lower_src(p, &case.vars, es, &op);
                let scalar = lower_scalar_src(p, &case.vars, es, &op);
                for r in [src, scalar] {
                    if let Err(e) = r {
                        let _ = format!("{e}");
                    }
                }
                if let Err(e) = lower_dst(p, &case.vars, es, &op) {
                    let _ = format!("{e}");
                }
            }
        }
    }

    // 3. The whole case.
    let result = match &case.op {
        CaseOp::Inst(inst) => lower(p, &case.vars, &case.ctx, inst),
        CaseOp::Gather(g) => lower_gather4_typed(p, &case.vars, &case.ctx, g),
    };
    match result {
        Ok(insts) => check_lowered(p, &insts, &case),
        Err(e) => {
            let _ = format!("{e}");
        }
    }
}
