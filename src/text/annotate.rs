//! When a word needs the field annotation, and what it says: the fields
//! where the word differs from what its text alone assembles to (see
//! `hidden` for the annotation's syntax). Above the assembler and below
//! the disassembler, which passes in its own annotation-free text.

use alloc::string::String;
use alloc::vec::Vec;

use super::hidden::RawField;
use crate::model::*;
use crate::word::Word;

/// The annotation of `inst` (the text between `[` and `]`), or `None`
/// when the text shows everything: when `inst` is canonical and its text
/// shows every field it prints `exactly` (no rounded subregister, no
/// dropped register-number bits or quarter control: the printer notes
/// them as it prints), or when the text assembles to its word anyway.
///
/// `plain` writes Mesa's text of `inst` without the annotation (the
/// disassembler passes its own printer, so this module stays below it).
#[inline]
pub(crate) fn annotation(
    p: Platform,
    inst: &Instruction,
    exactly: bool,
    plain: impl FnOnce(&mut String) -> core::fmt::Result,
) -> Option<String> {
    if inst.compact_subreg != 0 {
        return with_compact_subreg(p, inst, exactly, plain);
    }
    if exactly && crate::canon::is_canonical(p, inst) {
        return None;
    }
    differences(p, inst, plain)
}

/// The annotation of a compacted instruction whose subregister index is
/// not the lowest: that of its native word, then `subreg_index=`.
#[cold]
#[inline(never)]
fn with_compact_subreg(
    p: Platform,
    inst: &Instruction,
    exactly: bool,
    plain: impl FnOnce(&mut String) -> core::fmt::Result,
) -> Option<String> {
    let mut native = *inst;
    native.compact_subreg = 0;
    let mut out = annotation(p, &native, exactly, plain).unwrap_or_default();
    if !out.is_empty() {
        out.push(' ');
    }
    RawField::write_compact_subreg(&mut out, inst.compact_subreg);
    Some(out)
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
    // What the text alone assembles to.
    let mut text = String::new();
    plain(&mut text).ok()?;
    let words = super::assemble_words_with(p, &text, super::AsmOptions::UNCHECKED).ok()?;
    let base = Word::from_bytes(*words.first()?);
    items(p, inst, base)
}

/// Writes the annotation of `inst` against the instruction `base` its
/// text stands for in some dialect (IGA's syntax: [`super::iga`]), which
/// is `inst` with the bytes `changed` changed ([`crate::canon::Note`]), as
/// ` [`, the items and `]`; writes nothing when their words agree or
/// either does not encode.
///
/// `items` keeps the fields chosen for the last word, for the next one
/// with the same difference and view (a program's SENDs, most of them).
/// `word` is the native word `inst` was decoded from, if the caller has
/// it (the codec is lossless: it is `inst`'s encoding, which is then not
/// computed again).
pub(crate) fn write_diff<W: core::fmt::Write + ?Sized>(
    out: &mut W,
    p: Platform,
    inst: &Instruction,
    word: Option<Word>,
    base: &Instruction,
    changed: u64,
    items: &mut Items,
) -> core::fmt::Result {
    // Native words, as the text assembles them (no CmptCtrl bit for an
    // instruction marked `compacted`, no compacted word's own field).
    let w = match word {
        Some(w) => {
            debug_assert_eq!(crate::codec::native_word(p, inst).ok(), Some(w));
            w
        }
        None => match crate::codec::native_word(p, inst) {
            Ok(w) => w,
            Err(_) => return Ok(()),
        },
    };
    let Ok(b) = crate::codec::native_word_changed(p, inst, w, base, changed) else {
        return Ok(());
    };
    if w == b {
        return Ok(());
    }
    items.write(out, p, inst.opcode, w, b)
}

/// The fields [`choose_items`] chose for the differences written: they
/// depend only on the platform, the bits that choose the word's view
/// ([`crate::fields::view_context_bits`]) and the bits that differ, so a
/// later word equal on those reuses them and only their values are
/// written; and each one's last text, which a word with the same fields
/// and the same bits in them writes again as it is. Several are kept, in
/// places found from their key: a program's SENDs, most of its annotated
/// words, come between other instructions with other differences.
#[derive(Debug, Default)]
pub(crate) struct Items {
    /// [`Self::PLACES`] places once the first choice is made (none
    /// before: an `Items` made for one instruction allocates only if it
    /// writes an annotation); a key's place is [`Self::place`].
    choices: Vec<Option<Choice>>,
}

/// The items chosen for one difference, and their last text.
#[derive(Debug)]
struct Choice {
    /// Platform, the word's view bits, the differing bits.
    key: (Platform, u128, u128),
    fields: Vec<RawField>,
    /// The bits of the chosen fields.
    mask: u128,
    /// The word's bits under `mask` that `text` was written from.
    text_bits: u128,
    /// The annotation's text: ` [`, the items, `]`.
    text: String,
}

impl Items {
    /// How many choices are kept (a power of two).
    const PLACES: usize = 512;

    /// The place of `key`'s choice: a hash of its bits.
    #[inline]
    fn place(key: &(Platform, u128, u128)) -> usize {
        let h = key.1 ^ key.2.rotate_left(29);
        let h = (h as u64 ^ (h >> 64) as u64 ^ key.0 as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        (h >> (u64::BITS - Self::PLACES.trailing_zeros())) as usize
    }

    /// Writes ` [`, the items where word `w` differs from `base`,
    /// separated by spaces ([`choose_items`]), and `]`, choosing the
    /// fields only for a difference not kept, and writing them only when
    /// their bits changed.
    fn write<W: core::fmt::Write + ?Sized>(
        &mut self,
        out: &mut W,
        p: Platform,
        op: Opcode,
        w: Word,
        base: Word,
    ) -> core::fmt::Result {
        let left = w.0 ^ base.0;
        let key = (p, w.0 & crate::fields::view_context_bits(p), left);
        let k = Self::place(&key);
        let c = match self.choices.get_mut(k) {
            Some(Some(c)) if c.key == key => c,
            _ => self.choose(p, op, w, key, k)?,
        };
        let bits = w.0 & c.mask;
        if c.text_bits != bits || c.text.is_empty() {
            c.text.clear();
            c.text.push_str(" [");
            for (n, rf) in c.fields.iter().enumerate() {
                if n > 0 {
                    c.text.push(' ');
                }
                rf.write(&mut c.text, w.0)?;
            }
            c.text.push(']');
            c.text_bits = bits;
        }
        out.write_str(&c.text)
    }

    /// Chooses the fields for `key` into place `k`, replacing what was
    /// there.
    #[cold]
    fn choose(
        &mut self,
        p: Platform,
        op: Opcode,
        w: Word,
        key: (Platform, u128, u128),
        k: usize,
    ) -> Result<&mut Choice, core::fmt::Error> {
        let mut fields = Vec::new();
        choose_items(p, op, w, key.2, |rf| {
            fields.push(rf);
            Ok(())
        })?;
        let c = Choice {
            key,
            mask: fields.iter().fold(0, |m, rf| m | rf.mask()),
            fields,
            text_bits: 0,
            text: String::new(),
        };
        if self.choices.is_empty() {
            self.choices.resize_with(Self::PLACES, || None);
        }
        match self.choices.get_mut(k) {
            Some(place) => Ok(place.insert(c)),
            None => Err(core::fmt::Error),
        }
    }
}

/// The items of the annotation of `inst`, whose text stands for the word
/// `base`.
fn items(p: Platform, inst: &Instruction, base: Word) -> Option<String> {
    // The native word, as the text assembles it (no CmptCtrl bit for an
    // instruction marked `compacted`, no compacted word's own field).
    let w = crate::codec::native_word(p, inst).ok()?;
    if w == base {
        return None;
    }
    let mut out = String::new();
    choose_items(p, inst.opcode, w, w.0 ^ base.0, |rf| {
        if !out.is_empty() {
            out.push(' ');
        }
        rf.write(&mut out, w.0)
    })
    .ok()?;
    Some(out)
}

/// The items covering the bits `left` of word `w`, in order, to `item`:
/// the fields the word's view uses first, then any field of its layout,
/// then bit ranges no field names.
fn choose_items(
    p: Platform,
    op: Opcode,
    w: Word,
    mut left: u128,
    mut item: impl FnMut(RawField) -> core::fmt::Result,
) -> core::fmt::Result {
    let [table, flow] = crate::fields::layout(p, Some(op));
    let candidates = crate::fields::view_fields_in(p, w, left)
        .chain(table.iter().copied())
        .chain(flow.iter().copied());
    for f in candidates {
        if left == 0 {
            break;
        }
        let rf = RawField::Named(f);
        // Only a name the reader finds as this same field.
        if rf.mask() & left != 0 && f.width <= 64 && first_of_name(p, op, f) {
            item(rf)?;
            left &= !rf.mask();
        }
    }
    while left != 0 {
        let lo = left.trailing_zeros();
        let run = (left >> lo).trailing_ones().min(64);
        let rf = RawField::Bits(lo + run - 1, lo);
        item(rf)?;
        left &= !rf.mask();
    }
    Ok(())
}

/// Whether `f` is the field the reader finds by its name
/// (`RawField::by_name`): the first of that name in the layout. Names are
/// unique within a table (the build checks), so only a field of the
/// flow-control table can be shadowed, by a native one of its name.
fn first_of_name(p: Platform, op: Opcode, f: &'static crate::word::FieldInfo) -> bool {
    let [table, flow] = crate::fields::layout(p, Some(op));
    if !flow.iter().any(|g| core::ptr::eq(*g, f)) {
        return true;
    }
    !table.iter().any(|g| g.name == f.name)
}
