//! Helpers shared by the vISA tests.
#![allow(dead_code)]

use geneu::visa::*;
use geneu::{decode, encode, validate::validate, ExecSize, Instruction, Platform};

pub fn region(v: Option<u32>, w: u32, h: u32) -> VisaRegion {
    VisaRegion::new(v, w, h).unwrap()
}

pub fn gen(id: u32, row: u8, col: u8, v: u32, w: u32, h: u32) -> VecOperand {
    VecOperand::general(id, row, col, region(Some(v), w, h))
}

pub fn dst(id: u32, row: u8, col: u8, h: u32) -> VecOperand {
    VecOperand::general_dst(id, row, col, h).unwrap()
}

pub fn exec(n: u32) -> ExecCtl {
    ExecCtl::new(ExecSize::from_channels(n).unwrap())
}

pub fn exec_m(n: u32, m: u8, nm: bool) -> ExecCtl {
    ExecCtl {
        size: ExecSize::from_channels(n).unwrap(),
        mask: MaskCtl::m(m, nm).unwrap(),
    }
}

/// Every lowered instruction validates, encodes, and decodes back to itself.
pub fn check_all(p: Platform, insts: &[Instruction]) {
    for i in insts {
        validate(p, i).unwrap_or_else(|v| panic!("{i:?} fails validate: {v}"));
        let bytes = encode(p, i).unwrap();
        assert_eq!(&decode(p, &bytes).unwrap(), i, "decode(encode(i)) != i");
    }
}

pub fn lower_ok(p: Platform, vars: &VarTable, ctx: &LowerCtx, inst: &VisaInst) -> Vec<Instruction> {
    let out = lower(p, vars, ctx, inst).unwrap_or_else(|e| panic!("{p}: {inst:?}: {e}"));
    check_all(p, &out);
    out
}
