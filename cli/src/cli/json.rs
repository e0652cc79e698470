//! The one JSON vocabulary of every `--json` output (documented in
//! `JSON.md` at the repository root).
//!
//! - Every document, and every record of a line-delimited stream, is an
//!   object that starts with `"schema": SCHEMA` and `"command"`: use
//!   [`document`] (one pretty-printed document) or [`line`] (one record on
//!   one line) to write it.
//! - Names are those the command line and the text print: the platform
//!   `bdw` ([`platform`]), the operand `dst`/`src0`, the basis
//!   `documented`; bytes are two-digit hex, space-separated ([`hex_bytes`]).
//! - A field is its name, its bits as `[hi, lo]` ranges (high first), its
//!   width and aliases ([`Field`]).
//! - Every error and violation is an object with a stable snake_case
//!   `kind`, its `message` (the Display text) and its location `at`
//!   ([`Error`], [`Violation`], [`At`]).
//!
//! The JSON is built here from the library's public accessors (names,
//! Display text, `kind()`), never from the library types' own Serialize
//! derives, so that the documented form does not follow internal changes.

use std::fmt::Display;

use geneu::compact::ProgramError;
use geneu::msg::MsgError;
use geneu::text::AsmError;
use geneu::word::FieldInfo;
use geneu::{DecodeError, Platform};
use serde::Serialize;

use super::CliError;

/// The version of the documented form. It changes only when a key is
/// removed, renamed or changes type (adding a key does not).
pub const SCHEMA: u32 = 1;

/// A document: the schema version and the command, then the command's
/// own keys.
#[derive(Serialize)]
struct Doc<'a, T: Serialize> {
    schema: u32,
    command: &'a str,
    #[serde(flatten)]
    body: &'a T,
}

/// The whole document `command --json` prints: `body`'s keys (a struct
/// that serializes as an object) after `schema` and `command`,
/// pretty-printed, with a final line end.
pub fn document<T: Serialize>(command: &str, body: &T) -> String {
    let mut s = serde_json::to_string_pretty(&Doc {
        schema: SCHEMA,
        command,
        body,
    })
    .unwrap_or_default();
    s.push('\n');
    s
}

/// One record of a line-delimited (JSON Lines) output: `body`'s keys
/// after `schema` and `command`, on one line, with a line end.
// For the line-delimited outputs of commands to come; none streams yet.
#[allow(dead_code)]
pub fn line<T: Serialize>(command: &str, body: &T) -> String {
    let mut s = serde_json::to_string(&Doc {
        schema: SCHEMA,
        command,
        body,
    })
    .unwrap_or_default();
    s.push('\n');
    s
}

/// The platform's name as `--gen` takes it and the text prints it (`bdw`).
pub fn platform(p: Platform) -> &'static str {
    p.name()
}

/// Bytes as two-digit hex, space-separated, in memory order (the
/// `.expected` form).
pub fn hex_bytes(b: &[u8]) -> String {
    let mut s = String::with_capacity(b.len() * 3);
    for (k, b) in b.iter().enumerate() {
        if k > 0 {
            s.push(' ');
        }
        s.push_str(&format!("{b:02x}"));
    }
    s
}

/// A field of a bit-range table: name, bits, width, aliases. Flattened
/// into rows that add the field's value.
#[derive(Clone, Copy, Serialize)]
pub struct Field {
    name: &'static str,
    /// `[hi, lo]` inclusive ranges, the most significant first.
    bits: &'static [(u32, u32)],
    width: u32,
    aliases: &'static [&'static str],
}

impl From<&'static FieldInfo> for Field {
    fn from(f: &'static FieldInfo) -> Self {
        Field {
            name: f.name,
            bits: f.frags,
            width: f.width,
            aliases: f.aliases,
        }
    }
}

/// Where an error or violation is. Every key is always present, `null`
/// when it does not apply: the input's `file`, the source `line` and
/// `column` (from 1), the instruction's index (`word`) and byte `offset`,
/// and the `field` and `bits` (`[hi, lo]` ranges) of the instruction or
/// descriptor concerned.
#[derive(Clone, Debug, Default, Serialize)]
pub struct At {
    file: Option<String>,
    line: Option<u32>,
    column: Option<u32>,
    word: Option<usize>,
    offset: Option<usize>,
    field: Option<&'static str>,
    bits: Option<Vec<(u32, u32)>>,
}

impl At {
    /// Nowhere yet.
    pub fn new() -> Self {
        At::default()
    }

    /// At byte `offset` of the instructions.
    pub fn offset(offset: usize) -> Self {
        At::new().with_offset(offset)
    }

    /// At a source `line` and `column`.
    pub fn line_column(line: u32, column: u32) -> Self {
        At {
            line: Some(line),
            column: Some(column),
            ..At::default()
        }
    }

    /// In the input `file`.
    pub fn with_file(mut self, file: &str) -> Self {
        self.file = Some(file.to_string());
        self
    }

    /// On source line `line`.
    pub fn with_line(mut self, line: usize) -> Self {
        self.line = Some(u32::try_from(line).unwrap_or(u32::MAX));
        self
    }

    /// At byte `offset`.
    pub fn with_offset(mut self, offset: usize) -> Self {
        self.offset = Some(offset);
        self
    }

    /// The instruction of index `word` (from 0).
    pub fn with_word(mut self, word: usize) -> Self {
        self.word = Some(word);
        self
    }

    /// In the field `f` (its name and bits).
    pub fn with_field(mut self, f: &'static FieldInfo) -> Self {
        self.field = Some(f.name);
        self.bits = Some(f.frags.to_vec());
        self
    }

    /// In the field named `name` (bits not known).
    pub fn with_field_name(mut self, name: &'static str) -> Self {
        self.field = Some(name);
        self
    }

    /// In the bits of `mask`.
    pub fn with_bits(mut self, mask: u128) -> Self {
        self.bits = Some(ranges(mask));
        self
    }
}

/// The runs of set bits of `mask` as `(hi, lo)` ranges, the most
/// significant first.
fn ranges(mask: u128) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    let mut i = 128u32;
    while i > 0 {
        i -= 1;
        if (mask >> i) & 1 == 1 {
            let hi = i;
            while i > 0 && (mask >> (i - 1)) & 1 == 1 {
                i -= 1;
            }
            out.push((hi, i));
        }
    }
    out
}

/// An error: its stable `kind` (the library's `kind()` name, or one of
/// the command line's own), its `message` (the Display text) and where.
#[derive(Clone, Debug, Serialize)]
pub struct Error {
    kind: &'static str,
    message: String,
    at: At,
}

impl Error {
    /// An error of `kind` with the text `message`, at `at`.
    pub fn new(kind: &'static str, message: impl Display, at: At) -> Self {
        Error {
            kind,
            message: message.to_string(),
            at,
        }
    }

    /// A word that does not decode, at `at` (the instruction's place);
    /// the field or bits concerned are added to it.
    pub fn decode(e: &DecodeError, at: At) -> Self {
        let at = match *e {
            DecodeError::Field { field, .. } => at.with_field(field),
            DecodeError::ReservedBits(mask) => at.with_bits(mask),
            _ => at,
        };
        Error::new(e.kind(), e, at)
    }

    /// Why a descriptor has no typed message: the field (and, where
    /// known, its descriptor bits) concerned.
    pub fn msg(e: &MsgError, at: At) -> Self {
        let at = match *e {
            MsgError::Field { field, .. } => at.with_field(field),
            MsgError::Range { field, .. } | MsgError::Reserved { field, .. } | MsgError::Invalid { field, .. } => {
                at.with_field_name(field)
            }
            MsgError::Unmodelled { mask, .. } => at.with_bits(u128::from(mask)),
            MsgError::Function { .. } => at.with_field_name("sfid"),
            _ => at,
        };
        Error::new(e.kind(), e, at)
    }

    /// An assembler error at its line and column of `file`; the message
    /// is the error's text without the position.
    pub fn asm(e: &AsmError, file: &str) -> Self {
        Error::new(
            e.kind.kind(),
            &e.kind,
            At::line_column(e.line, e.column).with_file(file),
        )
    }

    /// A program that cannot be compacted or uncompacted, at `at` (the
    /// offset of the instruction concerned is added).
    pub fn program(e: &ProgramError, at: At) -> Self {
        Error::new(e.kind(), e, at.with_offset(e.offset()))
    }

    /// A command-line failure reading the input.
    pub fn cli(e: &CliError, at: At) -> Self {
        let kind = match e {
            CliError::Hex(_) => "bad_hex",
            CliError::Io(_) => "io",
            CliError::Usage(_) => "usage",
            CliError::Input(_) => "bad_input",
        };
        Error::new(kind, e, at)
    }
}

/// A broken hardware rule: `kind` is `violation`, `message` the rule's
/// explanation, `rule` its stable id, `basis` `documented` or
/// `conservative`, `operand` `instruction`, `dst`, `src0`..`src2`, and
/// `source` the citation.
#[derive(Clone, Debug, Serialize)]
pub struct Violation {
    kind: &'static str,
    message: String,
    at: At,
    rule: &'static str,
    basis: &'static str,
    operand: String,
    source: &'static str,
}

impl Violation {
    /// The library's violation `v`, at `at`.
    pub fn new(v: &geneu::validate::Violation, at: At) -> Self {
        Violation {
            kind: "violation",
            message: v.message.clone(),
            at,
            rule: v.rule,
            basis: v.basis.name(),
            operand: v.operand.to_string(),
            source: v.source,
        }
    }

    /// Each of `vs`, at `at`.
    pub fn all(vs: &geneu::validate::Violations, at: &At) -> Vec<Self> {
        vs.0.iter().map(|v| Violation::new(v, at.clone())).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_are_runs_of_set_bits_high_first() {
        assert_eq!(ranges(0), vec![]);
        assert_eq!(ranges(1), vec![(0, 0)]);
        assert_eq!(ranges(0b1011_0000), vec![(7, 7), (5, 4)]);
        assert_eq!(ranges(u128::MAX), vec![(127, 0)]);
        assert_eq!(ranges((0xf8u128 << 88) | 0x80), vec![(95, 91), (7, 7)]);
    }
}
