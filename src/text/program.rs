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
use crate::error::DecodeError;
use crate::model::{Instruction, Platform};
use crate::word::Word;

/// Bytes per native instruction.
pub const WORD_BYTES: usize = 16;

/// A decoded program.
#[derive(Clone, Debug)]
pub struct Program {
    platform: Platform,
    words: Vec<(Word, Result<Instruction, DecodeError>)>,
    labels: Labels,
    trailing: usize,
}

/// One word of a program.
#[derive(Clone, Copy, Debug)]
pub struct Entry<'a> {
    /// Byte offset in the program.
    pub offset: u64,
    /// The raw word.
    pub word: Word,
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
}

impl TextOptions {
    /// Options with validation comments on or off.
    pub fn with_check(check: bool) -> Self {
        TextOptions { check }
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
    /// Decodes every complete 16-byte word of `bytes`; bytes after the
    /// last complete word are counted by [`Program::trailing_bytes`].
    pub fn decode(p: Platform, bytes: &[u8]) -> Self {
        let chunks = bytes.chunks_exact(WORD_BYTES);
        let trailing = chunks.remainder().len();
        let words: Vec<_> = chunks
            .map(|c| {
                let mut b = [0u8; WORD_BYTES];
                b.copy_from_slice(c);
                let w = Word::from_bytes(b);
                (w, decode_word(p, w))
            })
            .collect();
        Self::from_parts(p, words, trailing)
    }

    /// A program of already-split words.
    pub fn from_words(p: Platform, words: impl IntoIterator<Item = Word>) -> Self {
        let words = words.into_iter().map(|w| (w, decode_word(p, w))).collect();
        Self::from_parts(p, words, 0)
    }

    fn from_parts(p: Platform, words: Vec<(Word, Result<Instruction, DecodeError>)>, trailing: usize) -> Self {
        let len = (words.len() * WORD_BYTES) as u64;
        let labels = Labels::for_program(
            p,
            words
                .iter()
                .enumerate()
                .filter_map(|(k, (_, r))| r.as_ref().ok().map(|i| ((k * WORD_BYTES) as u64, i))),
            len,
        );
        Program {
            platform: p,
            words,
            labels,
            trailing,
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
        (self.words.len() * WORD_BYTES) as u64
    }

    /// The words in order.
    pub fn entries(&self) -> impl Iterator<Item = Entry<'_>> + '_ {
        self.words.iter().enumerate().map(|(k, (w, r))| {
            let offset = (k * WORD_BYTES) as u64;
            Entry {
                offset,
                word: *w,
                inst: r.as_ref(),
                label: self.labels.get(offset),
            }
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
        let mut sum = Summary::default();
        for e in self.entries() {
            if let Some(n) = e.label {
                writeln!(out, "LABEL{n}:")?;
            }
            match e.inst {
                Ok(i) => {
                    sum.instructions += 1;
                    Disasm::new(self.platform, i)
                        .with_labels(&self.labels, e.offset)
                        .write_to(out)?;
                    if opts.check {
                        if let Err(v) = crate::validate::validate(self.platform, i) {
                            sum.invalid += 1;
                            write!(out, " // {v}")?;
                        }
                    }
                    out.write_char('\n')?;
                }
                Err(err) => {
                    sum.undecodable += 1;
                    write_undecodable(out, e.word, err)?;
                    out.write_char('\n')?;
                }
            }
        }
        if let Some(n) = self.labels.get(self.byte_len()) {
            writeln!(out, "LABEL{n}:")?;
        }
        Ok(sum)
    }
}

/// The comment printed for a word that does not decode: its 16 bytes in
/// memory order and the reason.
pub fn write_undecodable<W: Write + ?Sized>(out: &mut W, w: Word, err: &DecodeError) -> fmt::Result {
    out.write_str("// undecodable word")?;
    for b in w.to_bytes() {
        write!(out, " {b:02x}")?;
    }
    write!(out, ": {err}")
}
