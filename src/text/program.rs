//! Disassembly of a whole program: every word in order, `LABELn:` lines
//! before branch targets, comments for words that do not decode.
//!
//! ```
//! use geneu::text::program::{Program, TextOptions};
//! use geneu::Platform;
//! let bytes = [0x01, 0x00, 0x60, 0x00, 0xe8, 0x3a, 0x20, 0x22,
//!              0x80, 0x01, 0x8d, 0x00, 0x00, 0x00, 0x00, 0x00, 0xaa];
//! let prog = Program::decode(Platform::Gen8, &bytes);
//! assert_eq!(prog.trailing_bytes(), 1);
//! let mut text = String::new();
//! prog.write_text(&mut text, &TextOptions::default()).unwrap();
//! assert!(text.starts_with("mov(8)          g17<1>F"));
//! ```

use core::fmt::{self, Write};

use alloc::vec::Vec;

use super::disasm::{Disasm, Labels};
use crate::codec::decode_word;
use crate::compact::{pieces, uncompact_word, Piece, COMPACT_BYTES, NATIVE_BYTES};
use crate::error::DecodeError;
use crate::model::{Instruction, Opcode, Platform};
use crate::word::Word;

/// Bytes per native instruction ([`NATIVE_BYTES`]).
pub const WORD_BYTES: usize = NATIVE_BYTES;

/// One instruction of a program: its offset, its bytes, and its decoding.
type Decoded = (u64, Piece, Result<Instruction, DecodeError>);

/// The native word of a piece: a compacted word's uncompacted form (its
/// own 64 bits when it has none).
pub(crate) fn native_of(p: Platform, piece: &Piece) -> Word {
    match *piece {
        Piece::Native(w) => w,
        Piece::Compact(c) => uncompact_word(p, c).unwrap_or(Word(u128::from(c.0))),
        Piece::Short { .. } => Word(0),
    }
}

/// A decoded program.
#[derive(Clone, Debug)]
pub struct Program {
    platform: Platform,
    words: Vec<Decoded>,
    labels: Labels,
    trailing: usize,
    /// Bytes of the complete instructions.
    len: u64,
}

/// One word of a program.
#[derive(Clone, Copy, Debug)]
pub struct Entry<'a> {
    /// Byte offset in the program.
    pub offset: u64,
    /// The raw word (for a compacted instruction, the native word it
    /// stands for; its own bytes are in `piece`).
    pub word: Word,
    /// The instruction's bytes as stored: native or compacted.
    pub piece: Piece,
    /// The instruction, or why the word does not decode.
    pub inst: Result<&'a Instruction, &'a DecodeError>,
    /// The label defined at this offset, if a branch targets it.
    pub label: Option<u32>,
}

/// What to print besides the instructions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct TextOptions {
    /// Append the validation violations of each instruction as a comment.
    pub check: bool,
    /// Start each record with its byte offset in hex, as a comment
    /// (`/* 0010 */`; iga64's `-Xprint-pc`).
    pub print_offset: bool,
    /// Start each record with its 16 bytes in memory order, as a comment
    /// (iga64's `-Xprint-bits`).
    pub print_bytes: bool,
}

impl TextOptions {
    /// Options with validation comments on or off.
    pub fn with_check(check: bool) -> Self {
        TextOptions {
            check,
            ..TextOptions::default()
        }
    }

    /// These options with the offset column on or off.
    #[must_use]
    pub fn with_offset(mut self, on: bool) -> Self {
        self.print_offset = on;
        self
    }

    /// These options with the bytes column on or off.
    #[must_use]
    pub fn with_bytes(mut self, on: bool) -> Self {
        self.print_bytes = on;
        self
    }
}

/// Counts from printing a program.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Words printed as instructions.
    pub instructions: usize,
    /// Words printed as comments because they do not decode.
    pub undecodable: usize,
    /// Instructions with validation violations (only counted with
    /// [`TextOptions::check`]).
    pub invalid: usize,
}

impl Program {
    /// Decodes every complete instruction of `bytes`, a stream of 16-byte
    /// native and 8-byte compacted instructions (each one's CmptCtrl bit
    /// gives its size); bytes after the last complete instruction are
    /// counted by [`Program::trailing_bytes`].
    pub fn decode(p: Platform, bytes: &[u8]) -> Self {
        // Each piece decoded straight into the program's vector (no
        // intermediate vector of pieces to move them through).
        let mut words = Vec::with_capacity(bytes.len() / NATIVE_BYTES);
        let mut trailing = 0;
        for (o, piece) in pieces(bytes) {
            if let Piece::Short { have, .. } = piece {
                trailing = have;
                continue;
            }
            // Decoded where it lies in the vector: a decoded instruction
            // moved in would be copied with wide loads right over the
            // decoder's narrow stores (a store-forwarding stall per word).
            words.push((o as u64, piece, Err(DecodeError::Length(0))));
            if let Some((_, piece, r)) = words.last_mut() {
                piece.decode_in_place(p, r);
            }
        }
        Self::from_parts(p, words, trailing)
    }

    /// A program of already-split native words.
    pub fn from_words(p: Platform, words: impl IntoIterator<Item = Word>) -> Self {
        let words = words
            .into_iter()
            .enumerate()
            .map(|(k, w)| ((k * WORD_BYTES) as u64, Piece::Native(w), decode_word(p, w)))
            .collect();
        Self::from_parts(p, words, 0)
    }

    fn from_parts(p: Platform, words: Vec<Decoded>, trailing: usize) -> Self {
        let len = words.last().map_or(0, |(o, piece, _)| o + piece.len() as u64);
        let starts = if words.iter().any(|(_, piece, _)| matches!(piece, Piece::Compact(_))) {
            Starts::Listed(words.iter().map(|(o, _, _)| *o).collect())
        } else {
            Starts::EveryWord
        };
        let mut labels = Labels::new();
        for (o, _, r) in &words {
            if let Ok(i) = r {
                starts.add_targets(&mut labels, p, i, *o, len);
            }
        }
        Program {
            platform: p,
            words,
            labels,
            trailing,
            len,
        }
    }

    /// The platform.
    pub fn platform(&self) -> Platform {
        self.platform
    }

    /// Number of complete words.
    pub fn len(&self) -> usize {
        self.words.len()
    }

    /// Whether there are no complete words.
    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    /// Bytes after the last complete word (non-zero means the input was
    /// truncated).
    pub fn trailing_bytes(&self) -> usize {
        self.trailing
    }

    /// The branch labels.
    pub fn labels(&self) -> &Labels {
        &self.labels
    }

    /// Size in bytes of the complete words.
    pub fn byte_len(&self) -> u64 {
        self.len
    }

    /// The words in order.
    pub fn entries(&self) -> impl Iterator<Item = Entry<'_>> + '_ {
        self.words.iter().map(|(offset, piece, r)| Entry {
            offset: *offset,
            word: native_of(self.platform, piece),
            piece: *piece,
            inst: r.as_ref(),
            label: self.labels.get(*offset),
        })
    }

    /// The text of one decoded instruction of this program, with labels.
    pub fn disasm<'a>(&'a self, e: &Entry<'a>) -> Option<Disasm<'a>> {
        e.inst
            .ok()
            .map(|i| Disasm::new(self.platform, i).with_labels(&self.labels, e.offset))
    }

    /// Writes the whole program: one record per word (a SEND takes two
    /// lines), `LABELn:` lines before labelled instructions and at the end
    /// if a branch targets the end.
    pub fn write_text<W: Write + ?Sized>(&self, out: &mut W, opts: &TextOptions) -> Result<Summary, fmt::Error> {
        let mut t = Records::new(self.platform, &self.labels, *opts);
        for (o, piece, r) in &self.words {
            t.entry(out, &self.labels, *o, piece, r.as_ref())?;
        }
        t.label(out, self.byte_len())?;
        Ok(t.sum)
    }
}

/// Writes the text of the complete 16-byte words of `bytes`, exactly as
/// [`Program::write_text`] writes `Program::decode(p, bytes)`, without
/// keeping the decoded instructions (see [`ProgramText`]). The bytes after
/// the last complete word are ignored.
///
/// ```
/// use geneu::text::program::{write_bytes_text, Program, TextOptions};
/// use geneu::Platform;
/// let bytes = [0x01, 0x00, 0x60, 0x00, 0xe8, 0x3a, 0x20, 0x22,
///              0x80, 0x01, 0x8d, 0x00, 0x00, 0x00, 0x00, 0x00];
/// let (mut a, mut b) = (String::new(), String::new());
/// let opts = TextOptions::default();
/// write_bytes_text(Platform::Gen8, &bytes, &mut a, &opts).unwrap();
/// Program::decode(Platform::Gen8, &bytes).write_text(&mut b, &opts).unwrap();
/// assert_eq!(a, b);
/// ```
pub fn write_bytes_text<W: Write + ?Sized>(
    p: Platform,
    bytes: &[u8],
    out: &mut W,
    opts: &TextOptions,
) -> Result<Summary, fmt::Error> {
    let mut t = ProgramText::new(p, bytes, *opts);
    while t.write_next(out, usize::MAX)? {}
    Ok(t.summary())
}

/// The text of a binary program, written a few words at a time: the
/// output of [`Program::write_text`] for `Program::decode(p, bytes)`, in
/// pieces, so that a long program can go out while it is printed. Each
/// word is decoded as it is printed; only branches are decoded up front
/// (to number the labels), and no decoded instruction is kept.
///
/// ```
/// use geneu::text::program::{ProgramText, TextOptions};
/// use geneu::Platform;
/// let word = [0x01, 0x00, 0x60, 0x00, 0xe8, 0x3a, 0x20, 0x22,
///             0x80, 0x01, 0x8d, 0x00, 0x00, 0x00, 0x00, 0x00];
/// let bytes = [word, word, word].concat();
/// let mut t = ProgramText::new(Platform::Gen8, &bytes, TextOptions::default());
/// let mut piece = String::new();
/// assert!(t.write_next(&mut piece, 2).unwrap());
/// assert_eq!(piece.lines().count(), 2);
/// piece.clear();
/// assert!(!t.write_next(&mut piece, 2).unwrap());
/// assert_eq!(piece.lines().count(), 1);
/// assert_eq!(t.summary().instructions, 3);
/// ```
#[derive(Clone, Debug)]
pub struct ProgramText<'a> {
    bytes: &'a [u8],
    labels: Labels,
    /// The byte offset of the next instruction to print.
    next: usize,
    /// Bytes of the complete instructions.
    len: usize,
    records: Records,
}

impl<'a> ProgramText<'a> {
    /// The text of the complete words of `bytes` (bytes after the last
    /// complete word are ignored).
    pub fn new(p: Platform, bytes: &'a [u8], opts: TextOptions) -> Self {
        let (labels, len) = scan_labels(p, bytes, false);
        ProgramText {
            bytes,
            records: Records::new(p, &labels, opts),
            labels,
            next: 0,
            len,
        }
    }

    /// The branch labels.
    pub fn labels(&self) -> &Labels {
        &self.labels
    }

    /// Writes the records of the next `max_words` words (fewer at the end
    /// of the program, followed then by the final label if any); returns
    /// whether words remain.
    pub fn write_next<W: Write + ?Sized>(&mut self, out: &mut W, max_words: usize) -> Result<bool, fmt::Error> {
        let p = self.records.platform;
        let rest = self.bytes.get(self.next..self.len).unwrap_or(&[]);
        let mut taken = 0;
        // One instruction's place, which each word is decoded into (see
        // `Program::decode`).
        let mut decoded = Err(DecodeError::Length(0));
        for (o, piece) in pieces(rest).take(max_words) {
            let offset = (self.next + o) as u64;
            taken = o + piece.len();
            piece.decode_in_place(p, &mut decoded);
            self.records
                .entry(out, &self.labels, offset, &piece, decoded.as_ref())?;
        }
        self.next += taken;
        if self.next < self.len {
            return Ok(true);
        }
        self.records.label(out, self.next as u64)?;
        Ok(false)
    }

    /// The counts of the records written so far.
    pub fn summary(&self) -> Summary {
        self.records.sum
    }
}

/// The branch labels of the complete instructions of `bytes` (bytes after
/// the last one are left out) and those instructions' length in bytes:
/// those of `Program::decode(p, bytes)`, from one pass over the pieces
/// that decodes only the branches. With `iga`, the targets of the
/// immediate jumps of `jmpi`, `call` and `calla` too (IGA labels them,
/// [`Instruction::label_jump`]; Mesa prints a number).
pub(crate) fn scan_labels(p: Platform, bytes: &[u8], iga: bool) -> (Labels, usize) {
    // One pass over the pieces: the branches, and whether any word is
    // compacted; then the branches' labels.
    let mut branches = Vec::new();
    let mut compacted = false;
    let mut len = 0;
    for (o, piece) in pieces(bytes) {
        // Only a word whose opcode field (bits 6:0 of either size) names
        // a branch decodes to one.
        let op = match piece {
            Piece::Native(w) => raw_opcode(w),
            Piece::Compact(c) => {
                compacted = true;
                crate::word::fields::compact_word::opcode(c.0)
            }
            // Only the last piece is short: its bytes are left out.
            Piece::Short { .. } => break,
        };
        len = o + piece.len();
        let labelled = |op: Opcode| matches!(op.form(), crate::isa::Form::Jump | crate::isa::Form::Call);
        if Opcode::from_hw(p, op).is_some_and(|op| op.is_branch() || (iga && labelled(op))) {
            branches.push((o as u64, piece));
        }
    }
    let starts = match bytes.get(..len) {
        Some(whole) if compacted => Starts::Listed(pieces(whole).map(|(o, _)| o as u64).collect()),
        _ => Starts::EveryWord,
    };
    let mut labels = Labels::new();
    for (o, piece) in branches {
        match piece.decode(p) {
            Ok(i) if !i.opcode.is_branch() => {
                // jmpi's counted from the next instruction, call's from
                // the call (`BranchOffset::target`).
                if let Some(b) = i.label_jump(p) {
                    let t = b.target(o as i64, piece.len() as i64);
                    starts.add_target(&mut labels, t, len as u64);
                }
            }
            Ok(i) => starts.add_targets(&mut labels, p, &i, o, len as u64),
            Err(_) => {}
        }
    }
    (labels, len)
}

/// Where a program's instructions start, which a branch target must be
/// to get a label: every 16 bytes in a program of native words (no list
/// needed), else at the listed byte offsets (native and compacted words
/// mixed).
enum Starts {
    EveryWord,
    Listed(Vec<u64>),
}

impl Starts {
    /// Labels the targets of `inst`, at byte `offset` of a program of
    /// `len` bytes that starts its instructions here.
    fn add_targets(&self, labels: &mut Labels, p: Platform, inst: &Instruction, offset: u64, len: u64) {
        match self {
            Starts::EveryWord => labels.add_targets(p, inst, offset, len),
            Starts::Listed(starts) => labels.add_targets_at(p, inst, offset, starts, len),
        }
    }

    /// Labels byte `t` if an instruction starts there, or it is the end.
    fn add_target(&self, labels: &mut Labels, t: i64, len: u64) {
        let Ok(t) = u64::try_from(t) else { return };
        let start = match self {
            Starts::EveryWord => t % NATIVE_BYTES as u64 == 0,
            Starts::Listed(starts) => starts.binary_search(&t).is_ok(),
        };
        if t == len || t < len && start {
            labels.add(t);
        }
    }
}

/// The state of writing a program's records in offset order: the label to
/// print next and the counts so far.
#[derive(Clone, Debug)]
struct Records {
    platform: Platform,
    /// `(offset, number)` of every label, by offset.
    by_offset: Vec<(u64, u32)>,
    /// The index in `by_offset` of the first label not yet printed.
    next_label: usize,
    opts: TextOptions,
    sum: Summary,
}

impl Records {
    fn new(platform: Platform, labels: &Labels, opts: TextOptions) -> Self {
        Records {
            platform,
            by_offset: labels.iter().collect(),
            next_label: 0,
            opts,
            sum: Summary::default(),
        }
    }

    /// Prints the `LABELn:` line of the label at `offset`, if any, after
    /// skipping labels before it (offsets come in increasing order).
    #[inline]
    fn label<W: Write + ?Sized>(&mut self, out: &mut W, offset: u64) -> fmt::Result {
        match self.by_offset.get(self.next_label) {
            Some(&(o, _)) if o <= offset => self.print_labels(out, offset),
            _ => Ok(()),
        }
    }

    #[inline(never)]
    fn print_labels<W: Write + ?Sized>(&mut self, out: &mut W, offset: u64) -> fmt::Result {
        while let Some(&(o, n)) = self.by_offset.get(self.next_label) {
            if o > offset {
                break;
            }
            self.next_label += 1;
            if o == offset {
                out.write_str("LABEL")?;
                crate::decimal::write_dec(out, n.into())?;
                out.write_str(":\n")?;
            }
        }
        Ok(())
    }

    /// One word's record at byte `offset`, after its label.
    fn entry<W: Write + ?Sized>(
        &mut self,
        out: &mut W,
        labels: &Labels,
        offset: u64,
        piece: &Piece,
        r: Result<&Instruction, &DecodeError>,
    ) -> fmt::Result {
        self.label(out, offset)?;
        if self.opts.print_offset || self.opts.print_bytes {
            let (bytes, n) = piece_bytes(piece);
            write_columns(out, &self.opts, offset, bytes.get(..n).unwrap_or(&bytes))?;
        }
        match r {
            Ok(i) => {
                self.sum.instructions += 1;
                Disasm::new(self.platform, i)
                    .with_labels(labels, offset)
                    .write_to(out)?;
                if self.opts.check {
                    if let Err(v) = crate::validate::validate(self.platform, i) {
                        self.sum.invalid += 1;
                        write!(out, " // {v}")?;
                    }
                }
            }
            Err(err) => {
                self.sum.undecodable += 1;
                match *piece {
                    Piece::Compact(c) => write_undecodable_bytes(out, &c.to_bytes(), err)?,
                    _ => write_undecodable(out, native_of(self.platform, piece), err)?,
                }
            }
        }
        out.write_char('\n')
    }
}

/// The offset and bytes columns before a record, as one comment (so the
/// text still assembles): `/* 0010 */`, `/* 01 00 .. 00 */` or both,
/// `/* 0010: 01 00 .. 00 */`.
#[inline(never)]
fn write_columns<W: Write + ?Sized>(out: &mut W, opts: &TextOptions, offset: u64, bytes: &[u8]) -> fmt::Result {
    out.write_str("/*")?;
    if opts.print_offset {
        write!(out, " {offset:04x}")?;
        if opts.print_bytes {
            out.write_char(':')?;
        }
    }
    if opts.print_bytes {
        for b in bytes {
            write!(out, " {b:02x}")?;
        }
    }
    out.write_str(" */ ")
}

/// An instruction's bytes as stored (the first 16, or 8 when compacted).
fn piece_bytes(piece: &Piece) -> ([u8; NATIVE_BYTES], usize) {
    let mut b = [0u8; NATIVE_BYTES];
    match *piece {
        Piece::Native(w) => (w.to_bytes(), NATIVE_BYTES),
        Piece::Compact(c) => {
            for (d, s) in b.iter_mut().zip(c.to_bytes()) {
                *d = s;
            }
            (b, COMPACT_BYTES)
        }
        Piece::Short { .. } => (b, 0),
    }
}

/// The opcode field, bits 6:0 on every platform.
fn raw_opcode(w: Word) -> u8 {
    crate::word::fields::gen8_native::opcode(&w)
}

/// The comment printed for a word that does not decode: its 16 bytes in
/// memory order and the reason.
pub fn write_undecodable<W: Write + ?Sized>(out: &mut W, w: Word, err: &DecodeError) -> fmt::Result {
    write_undecodable_bytes(out, &w.to_bytes(), err)
}

/// The comment printed for an instruction that does not decode, from its
/// bytes in memory order (16, or 8 for a compacted word).
pub fn write_undecodable_bytes<W: Write + ?Sized>(out: &mut W, bytes: &[u8], err: &DecodeError) -> fmt::Result {
    out.write_str("// undecodable word")?;
    for b in bytes {
        write!(out, " {b:02x}")?;
    }
    write!(out, ": {err}")
}
