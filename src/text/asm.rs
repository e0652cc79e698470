//! The assembler: Mesa's EU assembly text → [`Instruction`]s → words.
//!
//! [`assemble`] parses the text with the grammar of `text::parse`,
//! lowers each instruction to the typed model, resolves labels, and
//! encodes every instruction with [`crate::encode`] (validated against
//! the hardware rules) or, as [`AsmOptions::strictness`] chooses, with
//! [`crate::encode_with`]: leniently (a conservative violation is a
//! warning, kept with the instruction) or unchecked. All errors are collected and returned
//! together, each with its line and column.
//!
//! # What the text decides, and what Mesa decides
//!
//! Everything the text shows is taken from the text. Bits that Mesa's
//! printer does not show are set by [`crate::canon::canonicalize`], the
//! one home of Mesa's defaults (the program builder uses it too), so that
//! text printed by Mesa assembles back to the same word. What the text
//! itself decides beyond that:
//!
//! - `send` with an immediate descriptor: src1 is an immediate holding the
//!   descriptor, with bit 31 replaced by the `EOT` option; the shared
//!   function comes from its name after the descriptor, and the
//!   `MsgDesc: ...` description is skipped;
//! - `send` with a register descriptor (`a0<0,1,0>UD 0x00000200`): the
//!   descriptor dword *is* the encoding of that register operand (and must
//!   match it); src1's file and type fields stay zero;
//! - `math` written with one source: src1 is `null<8,8,1>F`;
//! - flow control: JIP/UIP from the labels.
//!
//! Where Mesa's assembler would *change* something the text shows (for
//! example it encodes every `acc<n>` as `acc0`, or rewrites the predicate's
//! flag register on some opcodes), the text wins: such text can only come
//! from a word Mesa did not produce, and keeping it makes
//! disassemble → assemble a fixpoint. One exception is the predicate flag
//! of a Gen7 three-source instruction: Mesa's printer shows bits that
//! belong to src1's swizzle there, so the flag is taken from the
//! conditional modifier (or f0.0), as Mesa does.

use alloc::string::String;
use alloc::vec::Vec;

pub use super::error::{AsmError, AsmErrorKind, AsmErrors};
use super::hidden::RawField;
pub use super::lower::AsmOptions;
use super::lower::{encode_raw, Lower};
use super::parse::Parser;
use super::syntax::{Inst, Target};
use crate::model::*;

/// Assembles `src` for `p` into instructions, checking hardware rules.
pub fn assemble(p: Platform, src: &str) -> Result<Vec<Instruction>, AsmErrors> {
    assemble_with(p, src, AsmOptions::CHECKED)
}

/// Assembles `src` for `p` into 16-byte words (memory order), checking
/// hardware rules.
pub fn assemble_words(p: Platform, src: &str) -> Result<Vec<[u8; 16]>, AsmErrors> {
    assemble_words_with(p, src, AsmOptions::CHECKED)
}

/// [`assemble`] with options.
pub fn assemble_with(p: Platform, src: &str, opts: AsmOptions) -> Result<Vec<Instruction>, AsmErrors> {
    let mut out = Vec::with_capacity(estimated_count(src));
    run::<false>(p, src, opts, |k, a| put(&mut out, k, a.inst))?;
    Ok(out)
}

/// [`assemble_words`] with options.
pub fn assemble_words_with(p: Platform, src: &str, opts: AsmOptions) -> Result<Vec<[u8; 16]>, AsmErrors> {
    let mut out = Vec::with_capacity(estimated_count(src));
    run::<false>(p, src, opts, |k, a| put(&mut out, k, a.word))?;
    Ok(out)
}

/// A guess at the number of instructions in `src` (Mesa's lines are
/// around 80 bytes), to size the output once.
fn estimated_count(src: &str) -> usize {
    src.len() / 96 + 1
}

/// Stores `x` as item `k` of `out`: appended when `k` is the next index,
/// replacing the placeholder otherwise.
#[inline]
pub(crate) fn put<T>(out: &mut Vec<T>, k: usize, x: T) {
    match out.get_mut(k) {
        Some(slot) => *slot = x,
        None => out.push(x),
    }
}

/// One assembled instruction and where its text starts.
#[non_exhaustive]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Assembled {
    /// Line of the instruction's first token, from 1.
    pub line: u32,
    /// Column of that token in characters, from 1.
    pub column: u32,
    /// The instruction.
    pub inst: Instruction,
    /// Its 16-byte encoding (memory order).
    pub word: [u8; 16],
    /// The conservative rules it breaks, assembled anyway
    /// ([`AsmOptions::LENIENT`]); empty otherwise.
    pub warnings: crate::error::Violations,
}

/// [`assemble_with`], keeping each instruction's source position and word:
/// what a tool needs to report on the text line by line (for example
/// validating with [`AsmOptions::UNCHECKED`] and reporting every
/// violation at its line).
pub fn assemble_listing(p: Platform, src: &str, opts: AsmOptions) -> Result<Vec<Assembled>, AsmErrors> {
    let mut out = Vec::new();
    run::<true>(p, src, opts, |k, a| put(&mut out, k, a.clone()))?;
    Ok(out)
}

/// Assembles the whole of `src` with an [`Assembler`]; with `COLUMNS`
/// off, the sink is given no columns (0): it keeps only instructions or
/// words, and a column costs a search for the line's start.
fn run<const COLUMNS: bool>(
    p: Platform,
    src: &str,
    opts: AsmOptions,
    mut sink: impl FnMut(usize, &Assembled),
) -> Result<(), AsmErrors> {
    let mut a = Assembler::new(p, opts);
    a.feed_with::<COLUMNS>(src, true, &mut sink);
    a.finish(sink).map(|_| ())
}

/// A jump target with where it was written.
#[derive(Clone, Debug)]
enum Jump {
    Label(String, u32, u32),
    Offset(i64, u32, u32),
}

impl Jump {
    fn new(src: &str, t: Target<'_>) -> Self {
        match t {
            Target::Label(name, pos) => Jump::Label(name.into(), pos.line, pos.column(src)),
            Target::Offset(v, pos) => Jump::Offset(v, pos.line, pos.column(src)),
        }
    }
}

/// A flow-control instruction waiting for the labels: its index, the
/// instruction without its jump offsets, and its targets.
#[derive(Clone, Debug)]
struct Pending {
    idx: usize,
    inst: Instruction,
    jip: Option<Jump>,
    uip: Option<Jump>,
    /// The field annotation's fields, written after encoding.
    raw: Option<Vec<(RawField, u64)>>,
    line: u32,
    column: u32,
}

/// A label: its name, the index of the instruction it marks, where it is
/// written (line, column) and its byte offset in the whole text.
#[derive(Clone, Debug)]
struct Label {
    name: String,
    idx: usize,
    line: u32,
    column: u32,
    at: u64,
}

/// Assembly of a text that arrives in pieces (for example a large file
/// read a block at a time), giving each instruction as soon as it is
/// encoded.
///
/// [`Assembler::feed`] assembles the complete statements of a piece and
/// says how much of it it used; the next piece must begin with the rest.
/// [`Assembler::finish`] then resolves the jumps to labels and gives the
/// result: the same instructions, words and errors as [`assemble_listing`]
/// on the whole text, wherever the text was cut.
///
/// The sink `sink(k, a)` receives instruction `k` (from 0, in order) as
/// soon as it is encoded. A flow-control instruction arrives first as a
/// placeholder (its word not yet right) and again, with the same `k`, from
/// [`Assembler::finish`]. After the first error the sink is no longer
/// called and what it was given must be discarded: the result is then
/// `Err` with every error.
#[derive(Clone, Debug)]
pub struct Assembler {
    p: Platform,
    opts: AsmOptions,
    /// Instructions so far.
    count: usize,
    labels: Vec<Label>,
    pending: Vec<Pending>,
    errors: Vec<AsmError>,
    /// Where the next piece resumes: its byte offset in that piece, and
    /// the line of the piece's first byte.
    resume: usize,
    line: u32,
    /// Byte offset in the whole text of the next piece's first byte.
    base: u64,
    /// Where this assembler began: byte offset and line (see
    /// [`Assembler::starting_at`]).
    origin: (u64, u32),
}

impl Assembler {
    /// An assembler for `p` at the start of a text.
    pub fn new(p: Platform, opts: AsmOptions) -> Self {
        Self::starting_at(p, opts, 0, 1)
    }

    /// An assembler for the part of a text that begins at byte `offset`
    /// of the whole text, on line `line`. The part must begin where a
    /// statement may begin, at a line start: its results are then joined
    /// to those of the text before it with [`Assembler::append`], which
    /// checks that the text before ended exactly there. This lets parts of
    /// one text be assembled at the same time (`geneu asm` uses one thread
    /// per core). Instruction indices given to the sink count from 0 at
    /// this part's start; `line` may be a guess (see
    /// [`Assembler::append`]).
    pub fn starting_at(p: Platform, opts: AsmOptions, offset: u64, line: u32) -> Self {
        Assembler {
            p,
            opts,
            count: 0,
            labels: Vec::new(),
            pending: Vec::new(),
            errors: Vec::new(),
            resume: 0,
            line,
            base: offset,
            origin: (offset, line),
        }
    }

    /// The platform assembled for.
    pub fn platform(&self) -> Platform {
        self.p
    }

    /// The options assembled with.
    pub fn options(&self) -> AsmOptions {
        self.opts
    }

    /// The number of instructions so far.
    pub fn count(&self) -> usize {
        self.count
    }

    /// Where the next piece of text begins: its byte offset in the whole
    /// text and its line.
    pub fn position(&self) -> (u64, u32) {
        (self.base, self.line)
    }

    /// Joins `next`, an assembler that began (see
    /// [`Assembler::starting_at`]) at the byte offset where this one
    /// stands, with nothing of an unfinished statement left over here:
    /// afterwards this assembler holds the instructions, labels, jumps and
    /// errors of both, as if it had been fed `next`'s text itself, and
    /// stands where `next` stood. Instruction `k` of `next` becomes
    /// `self.count() + k`.
    ///
    /// `next`'s lines are renumbered to continue this assembler's, so it
    /// may have been started on any line (line 1, say, by a caller that
    /// did not count the lines before it); only what its sink was given
    /// keeps the lines it was started with. Gives `next` back, with
    /// nothing changed, if it did not begin where this one stands or is
    /// for another platform or options.
    ///
    /// As after any error, what a sink was given is to be discarded if the
    /// result is an error: `next`'s sink was called without knowing about
    /// errors found here.
    pub fn append(&mut self, next: Assembler) -> Result<(), Assembler> {
        if self.resume != 0 || self.base != next.origin.0 || self.p != next.p || self.opts != next.opts {
            return Err(next);
        }
        let renumber = |line: u32| -> u32 {
            let l = i64::from(line) + i64::from(self.line) - i64::from(next.origin.1);
            u32::try_from(l.max(1)).unwrap_or(u32::MAX)
        };
        let shift = self.count;
        self.labels.extend(next.labels.into_iter().map(|mut l| {
            l.idx += shift;
            l.line = renumber(l.line);
            l
        }));
        self.pending.extend(next.pending.into_iter().map(|mut pd| {
            pd.idx += shift;
            pd.line = renumber(pd.line);
            for jump in [&mut pd.jip, &mut pd.uip].into_iter().flatten() {
                let (Jump::Label(_, line, _) | Jump::Offset(_, line, _)) = jump;
                *line = renumber(*line);
            }
            pd
        }));
        self.errors.extend(next.errors.into_iter().map(|mut e| {
            e.line = renumber(e.line);
            e
        }));
        self.count += next.count;
        self.resume = next.resume;
        self.line = renumber(next.line);
        self.base = next.base;
        Ok(())
    }

    /// Whether an error has been found so far.
    pub fn has_errors(&self) -> bool {
        !self.errors.is_empty()
    }

    /// Assembles the statements of `text` (the next piece of the whole
    /// text, beginning with what the previous call left) and returns how
    /// many of its bytes it used up: the next piece must begin at that
    /// offset of `text`, a line start. With `last`, `text` is the rest of
    /// the whole text and all of it is used.
    ///
    /// Statements may span lines; a statement that is not complete in
    /// `text` is left for the next piece. Cut pieces at line ends, so
    /// that a piece does not end inside a character or a `//` comment.
    pub fn feed(&mut self, text: &str, last: bool, sink: impl FnMut(usize, &Assembled)) -> usize {
        self.feed_with::<true>(text, last, sink)
    }

    /// [`Assembler::feed`]; with `COLUMNS` off, the sink is given no
    /// columns (see [`run`]).
    fn feed_with<const COLUMNS: bool>(
        &mut self,
        text: &str,
        last: bool,
        mut sink: impl FnMut(usize, &Assembled),
    ) -> usize {
        let p = self.p;
        let mut parser = Parser::at(p, text, self.resume, self.line);
        let lower = Lower { p, src: text };
        // What is kept if the piece ends inside a statement.
        let mut resume = parser.resume_point();
        let mut kept_errors = 0;
        let mut fed_labels = self.labels.len();
        let mut fed_count = self.count;
        let mut fed_pending = self.pending.len();
        let mut fed_errors = self.errors.len();
        let mut ast = Inst::EMPTY;
        let mut out = Assembled {
            line: 0,
            column: 0,
            inst: Instruction::new(Opcode::Nop, ExecSize::S1),
            word: [0; 16],
            warnings: crate::error::Violations::default(),
        };
        while let Some(stmt) = parser.next_statement_into(&mut ast) {
            match stmt {
                Some((name, pos)) => self.labels.push(Label {
                    name: name.into(),
                    idx: self.count,
                    line: pos.line,
                    column: pos.column(text),
                    at: self.base + u64::from(pos.offset),
                }),
                None => {
                    let idx = self.count;
                    self.count += 1;
                    let clean = self.errors.is_empty() && parser.errors.is_empty();
                    // Lowered and encoded in place: the instruction is
                    // large, and copying it whole right after it was
                    // written field by field is slow.
                    out.line = ast.pos.line;
                    out.column = if COLUMNS { ast.pos.column(text) } else { 0 };
                    out.word = [0; 16];
                    let lowered = lower.inst_into(&ast, &mut out.inst).and_then(|fix| {
                        // Most statements have no field annotation.
                        let raw = if ast.annotated {
                            lower.raw_fields(&ast, parser.annotation())?
                        } else {
                            None
                        };
                        Ok((fix, raw))
                    });
                    match lowered {
                        Ok((None, raw)) => {
                            match lower.encode(&mut out.inst, raw.as_deref(), ast.pos, self.opts, &mut out.warnings) {
                                Ok(word) if clean => {
                                    out.word = word.to_bytes();
                                    sink(idx, &out);
                                }
                                Ok(_) => {}
                                Err(e) => self.errors.push(e),
                            }
                        }
                        Ok((Some(fix), raw)) => {
                            if clean {
                                // A placeholder: its warnings come with it
                                // from `finish`.
                                out.warnings.0.clear();
                                sink(idx, &out);
                            }
                            self.pending.push(Pending {
                                idx,
                                inst: out.inst,
                                jip: fix.jip.map(|t| Jump::new(text, t)),
                                uip: fix.uip.map(|t| Jump::new(text, t)),
                                raw,
                                line: out.line,
                                column: ast.pos.column(text),
                            });
                        }
                        Err(e) => self.errors.push(e),
                    }
                }
            }
            // Needed only if the piece may end inside a statement.
            if !last {
                resume = parser.resume_point();
                kept_errors = parser.errors.len();
                fed_labels = self.labels.len();
                fed_count = self.count;
                fed_pending = self.pending.len();
                fed_errors = self.errors.len();
            }
        }
        if last {
            self.errors.append(&mut parser.errors);
            self.resume = 0;
            return text.len();
        }
        // Forget the unfinished statement: it is parsed again, whole,
        // from the next piece.
        parser.errors.truncate(kept_errors);
        self.labels.truncate(fed_labels);
        self.count = fed_count;
        self.pending.truncate(fed_pending);
        self.errors.truncate(fed_errors);
        self.errors.append(&mut parser.errors);
        let off = (resume.offset as usize).min(text.len());
        let line_start = text
            .as_bytes()
            .get(..off)
            .and_then(|b| b.iter().rposition(|&c| c == b'\n'))
            .map_or(0, |i| i + 1);
        self.resume = off - line_start;
        self.line = resume.line;
        self.base += line_start as u64;
        line_start
    }

    /// Resolves the jumps (calling the sink again for each flow-control
    /// instruction) and gives the number of instructions, or every error
    /// in source order.
    pub fn finish(mut self, mut sink: impl FnMut(usize, &Assembled)) -> Result<usize, AsmErrors> {
        let mut labels = core::mem::take(&mut self.labels);
        labels.sort_by(|a, b| a.name.cmp(&b.name).then(a.at.cmp(&b.at)));
        for w in labels.windows(2) {
            if let [a, b] = w {
                if a.name == b.name {
                    self.errors.push(AsmError {
                        line: b.line,
                        column: b.column,
                        kind: AsmErrorKind::DuplicateLabel(b.name.clone()),
                    });
                }
            }
        }
        for pd in &mut self.pending {
            if let Err(e) = resolve(self.p, pd, &labels) {
                self.errors.push(e);
                continue;
            }
            let mut warnings = crate::error::Violations::default();
            match encode_raw(self.p, &mut pd.inst, pd.raw.as_deref(), self.opts, &mut warnings) {
                Ok(word) if self.errors.is_empty() => sink(
                    pd.idx,
                    &Assembled {
                        line: pd.line,
                        column: pd.column,
                        inst: pd.inst,
                        word: word.to_bytes(),
                        warnings,
                    },
                ),
                Ok(_) => {}
                Err(kind) => self.errors.push(AsmError {
                    line: pd.line,
                    column: pd.column,
                    kind,
                }),
            }
        }
        if !self.errors.is_empty() {
            let mut errors = self.errors;
            errors.sort_by_key(|e| (e.line, e.column));
            errors.dedup();
            return Err(AsmErrors(errors));
        }
        Ok(self.count)
    }
}

/// Fills in a flow-control instruction's JIP/UIP once every label is
/// known (`labels` sorted by name): a label is the offset of its
/// instruction, a number is the offset itself; both are checked against
/// the field and written where the platform keeps them by the builder's
/// branch code (`build::flow`), the one home of branch offsets.
fn resolve(p: Platform, pd: &mut Pending, labels: &[Label]) -> Result<(), AsmError> {
    use crate::build::flow;
    let idx = pd.idx;
    let off = |t: &Jump| -> Result<i64, AsmError> {
        let (r, line, column) = match t {
            Jump::Offset(v, line, column) => (flow::fits(p, pd.inst.opcode, *v), *line, *column),
            Jump::Label(name, line, column) => {
                let k = labels.partition_point(|l| l.name.as_str() < name.as_str());
                match labels.get(k) {
                    Some(l) if l.name == *name => {
                        let d = i64::try_from(l.idx).unwrap_or(i64::MAX) - i64::try_from(idx).unwrap_or(0);
                        (flow::units(p, pd.inst.opcode, d), *line, *column)
                    }
                    _ => {
                        return Err(AsmError {
                            line: *line,
                            column: *column,
                            kind: AsmErrorKind::UnknownLabel(name.clone()),
                        })
                    }
                }
            }
        };
        r.map_err(|e| AsmError {
            line,
            column,
            kind: AsmErrorKind::OutOfRange {
                what: "jump offset",
                value: e.offset,
                range: e.range,
            },
        })
    };
    let jip = match &pd.jip {
        Some(t) => off(t)?,
        None => 0,
    };
    let uip = match &pd.uip {
        Some(t) => Some(off(t)?),
        None => None,
    };
    // Without a UIP, its bits keep what canonicalization put there.
    flow::set_jip(p, &mut pd.inst, jip);
    if let Some(u) = uip {
        flow::set_uip(p, &mut pd.inst, u);
    }
    Ok(())
}
