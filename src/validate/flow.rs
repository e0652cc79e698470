//! Rules of the flow-control and special opcodes whose operands are
//! implied registers: JMPI, BRD/BRC, CALL/CALLA and WAIT. The model counts
//! no sources for them ([`Opcode::num_srcs`] is 0), so these rules read
//! the operand fields directly, as Intel's decoder does.

use crate::isa::{arf, region};

use super::*;

/// A directly addressed ARF operand of the register class `class`.
#[inline]
fn is_arf(file: RegFile, addr: Addr, class: u8) -> bool {
    file == RegFile::Arf && matches!(addr, Addr::Direct { nr, .. } if arf::class(nr) == class)
}

/// JMPI jumps the whole thread: one channel, with the execution mask off
/// ({NoMask}), as Mesa's `brw_JMPI` emits it.
pub fn jmpi_simd1_nomask(c: &mut Checker<'_>) {
    if c.i.opcode != Opcode::Jmpi {
        return;
    }
    c.check(c.exec() != 1, OperandId::Inst, "jmpi executes on one channel (SIMD1)");
    c.check(
        !c.i.controls.contains(Controls::WE_ALL),
        OperandId::Inst,
        "jmpi must be {NoMask}",
    );
}

/// JMPI's operands: src0 is the instruction pointer `ip`, the destination
/// the null register or `ip` (Intel's decoder names null, Mesa's
/// `brw_JMPI` writes `ip`: both are taken), and src1, the jump distance,
/// is a `:d`.
pub fn jmpi_operands(c: &mut Checker<'_>) {
    let i = c.i;
    if i.opcode != Opcode::Jmpi {
        return;
    }
    let d = &i.dst;
    let dst_ok = is_arf(d.file, d.addr, arf::IP) || is_null_dst(d);
    c.check(
        !dst_ok,
        OperandId::Dst,
        "the jmpi destination is the null register or ip",
    );
    let s0 = &i.src[0];
    c.check(
        !is_arf(s0.file, s0.addr, arf::IP),
        OperandId::Src(0),
        "jmpi reads the instruction pointer ip as src0",
    );
    c.check(
        i.src[1].ty != Type::D,
        OperandId::Src(1),
        "the jmpi distance (src1) is a :d",
    );
}

/// A BRD or BRC whose destination field is not the null ARF
/// ([`brd_brc_dst_null`]).
#[inline(always)]
pub(crate) fn brd_brc_dst_not_null(i: &Instruction) -> bool {
    matches!(i.opcode.form(), Form::BranchDiverging | Form::BranchConverging) && !is_null_dst(&i.dst)
}

/// BRD and BRC write no register: the destination field is the null ARF.
pub fn brd_brc_dst_null(c: &mut Checker<'_>) {
    let bad = brd_brc_dst_not_null(c.i);
    c.check(bad, OperandId::Dst, "the brd/brc destination is the null register");
}

/// A BRD or BRC that reads its jump offsets from src0's register reads
/// them from a directly addressed GRF, as dwords without modifiers (IGA's
/// forms: `brd (8) r11.1:ud`, one dword, the JIP; `brc (8) r11.0:ud`, two,
/// JIP and UIP). Other files and types are refused to be safe: no
/// document describes what the hardware would read from them.
pub fn brd_brc_src0_register(c: &mut Checker<'_>) {
    let i = c.i;
    if !i.offsets_from_register() {
        return;
    }
    let s = &i.src[0];
    let bad = s.file != RegFile::Grf
        || !matches!(s.addr, Addr::Direct { .. })
        || !matches!(s.ty, Type::D | Type::UD)
        || !s.mods.is_empty();
    c.check(
        bad,
        OperandId::Src(0),
        "a brd/brc register source is a directly addressed GRF :d or :ud without modifiers",
    );
}

/// CALL and CALLA read their src0 as dwords without modifiers: a D or UD
/// operand with the region `<2;2,1>` (the layout of the return address
/// they write, as shipped kernels encode it) or the scalar `<0;1,0>` (the
/// all-zero operand of a word that leaves src0 unset).
pub fn call_src0_two_dwords(c: &mut Checker<'_>) {
    let i = c.i;
    if !writes_two_dwords(i.opcode) || c.align16() {
        return;
    }
    let s = &i.src[0];
    const R221: Region = Region {
        vstride: region::VSTRIDE_2,
        width: region::WIDTH_2,
        hstride: region::HSTRIDE_1,
    };
    let region_ok = s.is_imm() || s.region == R221 || s.region == Region::SCALAR;
    let bad = !matches!(s.ty, Type::D | Type::UD) || !s.mods.is_empty() || !region_ok;
    c.check(
        bad,
        OperandId::Src(0),
        "call/calla src0 is a :d or :ud with region <2;2,1> (or <0;1,0>) and no source modifier",
    );
}

/// A WAIT src0 region `r` that is not scalar in its access mode
/// ([`wait_src0_scalar`]).
#[inline(always)]
pub(crate) fn wait_src0_not_scalar(align16: bool, r: Region) -> bool {
    if align16 {
        r.vstride != region::VSTRIDE_0
    } else {
        r != Region::SCALAR
    }
}

/// WAIT reads one notification count: a scalar src0 (`<0;1,0>`, or
/// vertical stride 0 in align16).
pub fn wait_src0_scalar(c: &mut Checker<'_>) {
    if c.i.opcode != Opcode::Wait {
        return;
    }
    let bad = wait_src0_not_scalar(c.align16(), c.i.src[0].region);
    c.check(bad, OperandId::Src(0), "wait reads a scalar src0 (<0;1,0>)");
}
