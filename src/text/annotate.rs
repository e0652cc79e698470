//! When a word needs the field annotation, and what it says: the fields
//! where the word differs from what its text alone assembles to (see
//! `hidden` for the annotation's syntax). Above the assembler and below
//! the disassembler, which passes in its own annotation-free text.

use alloc::string::String;
use alloc::vec::Vec;

use super::hidden::RawField;
use crate::model::*;
use crate::word::Word;

/// Whether `bytes` is a whole number of elements of `size` bytes, a
/// type's size (a power of two, see the test): a mask, not a division,
/// which would cost more than the rest of the decision.
#[inline]
fn whole(bytes: u32, size: u32) -> bool {
    bytes & size.wrapping_sub(1) == 0
}

/// Whether Mesa's printer shows every shown field of `inst` exactly (no
/// rounded subregister, no dropped register-number bits, no quarter
/// control it leaves out): then a canonical `inst` needs no annotation.
/// Conservative: `false` only costs an assembly of the printed text.
#[inline(always)]
fn prints_exactly(inst: &Instruction) -> bool {
    use crate::canon::{shown_sources, shows_no_operands};
    let op = inst.opcode;
    // `nop` prints no options block; Haswell's `dim` immediate spans
    // src1's bits.
    if op == Opcode::Nop || op == Opcode::Dim {
        return false;
    }
    let q = inst.qtr_control;
    if !inst.controls.contains(Controls::NIB_CTRL)
        && ((inst.exec_size == ExecSize::S16 && q & 1 != 0) || (inst.exec_size == ExecSize::S32 && q != 0))
    {
        return false;
    }
    if op.is_branch() || shows_no_operands(op) {
        return true;
    }
    // Rare shapes whose printing has corners: always checked.
    let indirect = |a: Addr| matches!(a, Addr::Indirect { .. });
    if indirect(inst.dst.addr) || inst.src.iter().any(|s| indirect(s.addr)) {
        return false;
    }
    if op.is_send() && (inst.src[0].is_imm() || !inst.src[1].is_imm()) {
        return false;
    }
    if inst.src[0].is_imm() && inst.src[1].is_imm() {
        return false;
    }
    if op.is_three_src() {
        // Mesa prints src0's type for all three sources.
        let ty = inst.src[0].ty;
        if inst.src.iter().any(|s| s.ty != ty) {
            return false;
        }
        let size = ty.size();
        return fits(inst.dst.file, inst.dst.addr, inst.dst.ty.size())
            && inst.src.iter().all(|s| fits(s.file, s.addr, size));
    }
    let a16 = inst.access_mode == AccessMode::Align16;
    if !fits(inst.dst.file, inst.dst.addr, inst.dst.ty.size()) || (a16 && inst.dst.writemask.is_empty()) {
        return false;
    }
    let (from, to) = match op {
        Opcode::Wait => (0, 0),
        Opcode::Jmpi => (1, 2),
        _ if op.is_send() => (0, 2),
        _ => (0, usize::from(shown_sources(op))),
    };
    // A loop over the three sources the compiler unrolls (an iterator
    // adapter here stayed a call).
    let mut ok = true;
    for (k, s) in inst.src.iter().enumerate() {
        ok &= k < from || k >= to || s.is_imm() || fits(s.file, s.addr, s.ty.size());
    }
    ok
}

/// Whether Mesa prints a direct operand's register exactly: a subregister
/// that is a whole number of `size`-byte elements, and no register-number
/// bits its ARF class name leaves out. (Indirect operands: `false`.)
#[inline(always)]
fn fits(file: RegFile, addr: Addr, size: u32) -> bool {
    let Addr::Direct { nr, subnr } = addr else {
        return false;
    };
    whole(subnr.into(), size)
        && (file != RegFile::Arf
            || !super::names::arf_class(nr).is_some_and(|c| !c.numbered && nr & crate::isa::arf::NUMBER_MAX != 0))
}

/// The annotation of `inst` (the text between `[` and `]`), or `None`
/// when the text shows everything: when `inst` is canonical and printed
/// exactly, or when the text assembles to its word anyway.
///
/// `plain` writes Mesa's text of `inst` without the annotation (the
/// disassembler passes its own printer, so this module stays below it).
#[inline]
pub(crate) fn annotation(
    p: Platform,
    inst: &Instruction,
    plain: impl FnOnce(&mut String) -> core::fmt::Result,
) -> Option<String> {
    if prints_exactly(inst) && crate::canon::is_canonical(p, inst) {
        return None;
    }
    differences(p, inst, plain)
}

/// The annotation of `inst` from the word and what its text assembles to
/// (the rare case: kept out of line).
#[cold]
#[inline(never)]
fn differences(
    p: Platform,
    inst: &Instruction,
    plain: impl FnOnce(&mut String) -> core::fmt::Result,
) -> Option<String> {
    let w = crate::codec::encode_word(p, inst).ok()?;
    // What the text alone assembles to.
    let mut text = String::new();
    plain(&mut text).ok()?;
    let words = super::assemble_words_with(p, &text, super::AsmOptions::UNCHECKED).ok()?;
    let base = Word::from_bytes(*words.first()?);
    let mut left = w.0 ^ base.0;
    if left == 0 {
        return None;
    }
    let mut items: Vec<RawField> = Vec::new();
    // The fields the word's view uses first, then any field of its layout.
    let rows = crate::fields::describe(p, w);
    let [table, flow] = crate::fields::layout(p, Some(inst.opcode));
    let candidates = rows
        .iter()
        .map(|r| r.field)
        .chain(table.iter().copied())
        .chain(flow.iter().copied());
    for f in candidates {
        let rf = RawField::Named(f);
        // Only a name the reader finds as this same field.
        if rf.mask() & left != 0 && RawField::by_name(p, inst.opcode, f.name) == Some(rf) && f.width <= 64 {
            items.push(rf);
            left &= !rf.mask();
        }
    }
    while left != 0 {
        let lo = left.trailing_zeros();
        let run = (left >> lo).trailing_ones().min(64);
        let rf = RawField::Bits(lo + run - 1, lo);
        items.push(rf);
        left &= !rf.mask();
    }
    let mut out = String::new();
    for (k, rf) in items.iter().enumerate() {
        if k > 0 {
            out.push(' ');
        }
        rf.write(&mut out, w.0);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use crate::model::Type;

    /// `whole` masks by the size: every type's size is a power of two.
    #[test]
    fn type_sizes_are_powers_of_two() {
        for t in Type::ALL {
            assert!(t.size().is_power_of_two(), "{t:?}");
            for bytes in 0..64 {
                assert_eq!(super::whole(bytes, t.size()), bytes % t.size() == 0);
            }
        }
    }
}
