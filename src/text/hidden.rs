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
//!
//! One item names a field of the compacted word instead: `subreg_index`
//! (`tables/compact_word.tbl`), on an instruction marked `compacted`
//! whose compacted word holds a subregister index other than the lowest
//! that stands for its native word ([`Instruction::compact_subreg`]).

use alloc::string::String;

use crate::model::*;
use crate::word::FieldInfo;

/// A field of an annotation: a named field of the layout, or a bit range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RawField {
    /// A field of the word's layout table.
    Named(&'static FieldInfo),
    /// Bits `hi..=lo` that no field names.
    Bits(u32, u32),
    /// The compacted word's `subreg_index` ([`Instruction::compact_subreg`]):
    /// no bit of the native word.
    CompactSubreg,
}

/// An annotation's fields as one write to a word: the bits they cover
/// and the values they give there (each field written as
/// [`RawField::put`] writes it, a later one over an earlier), and the
/// compacted word's subregister index if it names it. Built once per
/// annotation, applied to each word that carries it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Patch {
    mask: u128,
    bits: u128,
    compact_subreg: Option<u8>,
}

impl Patch {
    /// The patch of the fields `items`, in order.
    pub(crate) fn of(items: &[(RawField, u64)]) -> Patch {
        let mut p = Patch::default();
        for &(f, v) in items {
            p.push(f, v);
        }
        p
    }

    /// Adds the field `f` set to `v` (which fits its width).
    pub(crate) fn push(&mut self, f: RawField, v: u64) {
        match f {
            // (Truncated to the compacted word's field: it fits it.)
            RawField::CompactSubreg => self.compact_subreg = Some(v as u8),
            _ => {
                self.mask |= f.mask();
                self.bits = f.put(self.bits, v);
            }
        }
    }

    /// `w` with the fields written.
    #[inline]
    pub(crate) fn apply(&self, w: u128) -> u128 {
        w & !self.mask | self.bits
    }

    /// The compacted word's subregister index it names, or `k`.
    #[inline]
    pub(crate) fn compact_subreg(&self, k: u8) -> u8 {
        self.compact_subreg.unwrap_or(k)
    }
}

/// The compacted word's field that [`RawField::CompactSubreg`] names.
const COMPACT_SUBREG: &crate::word::FieldInfo = &crate::word::fields::compact_word::SUBREG_INDEX;

impl RawField {
    /// The field `name` of the layout of a word with opcode `op`.
    pub(crate) fn by_name(p: Platform, op: Opcode, name: &str) -> Option<RawField> {
        if let Some(f) = crate::fields::field_named(p, Some(op), name) {
            return Some(RawField::Named(f));
        }
        if name == COMPACT_SUBREG.name {
            return Some(RawField::CompactSubreg);
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
            RawField::CompactSubreg => 0,
        }
    }

    /// Its width in bits.
    pub(crate) fn width(self) -> u32 {
        match self {
            RawField::Named(f) => f.width,
            RawField::Bits(hi, lo) => hi - lo + 1,
            RawField::CompactSubreg => COMPACT_SUBREG.width,
        }
    }

    /// Its value in `w`.
    pub(crate) fn get(self, w: u128) -> u64 {
        match self {
            RawField::Named(f) => f.get(w),
            RawField::Bits(_, lo) => ((w & self.mask()) >> lo) as u64,
            RawField::CompactSubreg => 0,
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
            RawField::CompactSubreg => w,
        }
    }

    /// Writes `name=0xvalue` for word `w`.
    pub(crate) fn write<W: core::fmt::Write + ?Sized>(self, out: &mut W, w: u128) -> core::fmt::Result {
        use crate::decimal::{write_dec, write_hex};
        let v = self.get(w);
        match self {
            RawField::Named(f) => out.write_str(f.name)?,
            RawField::Bits(hi, lo) => {
                out.write_str("bits_")?;
                write_dec(out, hi.into())?;
                out.write_str("_")?;
                write_dec(out, lo.into())?;
            }
            // Not a bit of the native word: written by `write_compact_subreg`.
            RawField::CompactSubreg => return Ok(()),
        }
        out.write_str("=")?;
        write_hex(out, v, 1, false)
    }

    /// Writes `subreg_index=0xvalue`, the compacted word's index `k`.
    pub(crate) fn write_compact_subreg(out: &mut String, k: u8) {
        use core::fmt::Write;
        // Writing to a String does not fail.
        let _ = write!(out, "{}={k:#x}", COMPACT_SUBREG.name);
    }
}
