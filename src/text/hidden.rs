//! The field annotation: what keeps every bit of a word that Mesa's
//! syntax does not show.
//!
//! A word Mesa's emitter produces prints exactly as Mesa prints it. Any
//! other word (one that differs from its canonical form, see
//! [`crate::canon::canonicalize`], or one whose shown fields Mesa's
//! printer rounds) prints with a trailing annotation before the `;`:
//!
//! ```text
//! mov(8)          g2<1>W          0x1234W                         { align1 1Q } [imm32=0x56781234];
//! ```
//!
//! Each item is `name=value`: a field of the word's layout by its table
//! name (`geneu fields` lists them), or `bits_HI_LO` for bits no field
//! names, with the value the word holds there. The assembler builds the
//! word from the rest of the text as usual and then writes these fields,
//! so disassembly followed by assembly gives the same 16 bytes for every
//! word that decodes. Only the fields that differ from what the text alone
//! assembles to are listed.

use alloc::string::String;
use alloc::vec::Vec;

use crate::model::*;
use crate::word::{FieldInfo, Word};

/// A field of an annotation: a named field of the layout, or a bit range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RawField {
    /// A field of the word's layout table.
    Named(&'static FieldInfo),
    /// Bits `hi..=lo` that no field names.
    Bits(u32, u32),
}

impl RawField {
    /// The field `name` of the layout of a word with opcode `op`.
    pub(crate) fn by_name(p: Platform, op: Opcode, name: &str) -> Option<RawField> {
        if let Some(f) = crate::fields::field_named(p, Some(op), name) {
            return Some(RawField::Named(f));
        }
        let rest = name.strip_prefix("bits_")?;
        let (hi, lo) = rest.split_once('_')?;
        let (hi, lo): (u32, u32) = (hi.parse().ok()?, lo.parse().ok()?);
        (lo <= hi && hi < 128 && hi - lo < 64).then_some(RawField::Bits(hi, lo))
    }

    /// The bits it covers.
    pub(crate) fn mask(self) -> u128 {
        match self {
            RawField::Named(f) => f.mask(),
            RawField::Bits(hi, lo) => (u128::MAX >> (127 - (hi - lo))) << lo,
        }
    }

    /// Its width in bits.
    pub(crate) fn width(self) -> u32 {
        match self {
            RawField::Named(f) => f.width,
            RawField::Bits(hi, lo) => hi - lo + 1,
        }
    }

    /// Its value in `w`.
    pub(crate) fn get(self, w: u128) -> u64 {
        match self {
            RawField::Named(f) => f.get(w),
            RawField::Bits(_, lo) => ((w & self.mask()) >> lo) as u64,
        }
    }

    /// `w` with the field set to `v` (which fits its width).
    pub(crate) fn put(self, w: u128, v: u64) -> u128 {
        match self {
            RawField::Named(f) => {
                let mut w = w & !f.mask();
                // Fragments are listed most significant first.
                let mut v = v;
                for &(hi, lo) in f.frags.iter().rev() {
                    let n = hi - lo + 1;
                    let m = if n >= 64 { u64::MAX } else { (1u64 << n) - 1 };
                    w |= u128::from(v & m) << lo;
                    v = v.checked_shr(n).unwrap_or(0);
                }
                w
            }
            RawField::Bits(_, lo) => w & !self.mask() | (u128::from(v) << lo) & self.mask(),
        }
    }

    /// Writes `name=0xvalue` for word `w`.
    fn write(self, out: &mut String, w: u128) {
        use core::fmt::Write;
        let v = self.get(w);
        // Writing to a String does not fail.
        let _ = match self {
            RawField::Named(f) => write!(out, "{}={v:#x}", f.name),
            RawField::Bits(hi, lo) => write!(out, "bits_{hi}_{lo}={v:#x}"),
        };
    }
}

/// Whether Mesa's printer shows every shown field of `inst` exactly (no
/// rounded subregister, no dropped register-number bits, no quarter
/// control it leaves out): then a canonical `inst` needs no annotation.
/// Conservative: `false` only costs an assembly of the printed text.
fn prints_exactly(inst: &Instruction) -> bool {
    use crate::canon::shows_no_operands;
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
    let a16 = inst.access_mode == AccessMode::Align16;
    let fits = |file: RegFile, addr: Addr, size: u32| -> bool {
        let size = u8::try_from(size).unwrap_or(1).max(1);
        match addr {
            Addr::Direct { nr, subnr } => {
                subnr % size == 0
                    && (file != RegFile::Arf
                        || !super::names::arf_class(nr).is_some_and(|c| c.bare || (!c.numbered && nr & 0xf != 0)))
            }
            Addr::Indirect { .. } => !a16,
        }
    };
    if op.is_three_src() {
        // Mesa prints src0's type for all three sources.
        if inst.src.iter().any(|s| s.ty != inst.src[0].ty) {
            return false;
        }
        let ty = inst.src[0].ty.size();
        return matches!(inst.dst.addr, Addr::Direct { .. })
            && fits(inst.dst.file, inst.dst.addr, inst.dst.ty.size())
            && inst
                .src
                .iter()
                .all(|s| matches!(s.addr, Addr::Direct { .. }) && fits(s.file, s.addr, ty));
    }
    let dst_ok = match inst.dst.addr {
        Addr::Indirect { subnr, .. } => !a16 && u32::from(subnr) % inst.dst.ty.size() == 0,
        a => fits(inst.dst.file, a, inst.dst.ty.size()),
    };
    if !dst_ok || (a16 && inst.dst.writemask.is_empty()) {
        return false;
    }
    let shown = match op {
        Opcode::Wait => 0..0,
        Opcode::Jmpi => 1..2,
        _ if op.is_send() => 0..2,
        _ => 0..usize::from(op.num_srcs()),
    };
    inst.src
        .get(shown)
        .unwrap_or(&[])
        .iter()
        .all(|s| s.is_imm() || fits(s.file, s.addr, s.ty.size()))
}

/// The annotation of `inst` (the text between `[` and `]`), or `None`
/// when the text shows everything: when `inst` is canonical and printed
/// exactly, or when the text assembles to its word anyway.
pub(crate) fn annotation(p: Platform, inst: &Instruction) -> Option<String> {
    let mut c = *inst;
    crate::canon::canonicalize(p, &mut c);
    if c == *inst && prints_exactly(inst) {
        return None;
    }
    let w = crate::codec::encode_word(p, inst).ok()?;
    // What the text alone assembles to.
    let mut text = String::new();
    super::disasm::Disasm::new(p, inst)
        .without_annotation()
        .write_to(&mut text)
        .ok()?;
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
