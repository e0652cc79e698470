//! `geneu fields` and `geneu diff`.

use std::fmt::Write as _;
use std::process::ExitCode;

use geneu::error::BitList;
use geneu::fields::{describe, diff as field_diff, uncovered_diff_bits, FieldRow};
use geneu::{decode_word, Platform, Word};

use super::desc::{self, range, send_desc, DescJson};
use super::json::{self, hex_bytes, Field};
use super::{emit, parse_pieces, CliError};
use geneu::compact::{
    describe as describe_compact, uncompact_word, CompactFieldRow, CompactWord, IndexSelection, Piece,
};
use geneu::word::FieldInfo;
use geneu::DecodeError;
use serde::Serialize;

/// One field of a native word in `fields --json`: the field, its raw
/// value and its meaning.
#[derive(Serialize)]
struct RowJson {
    #[serde(flatten)]
    field: Field,
    raw: u64,
    meaning: String,
}

impl From<&FieldRow> for RowJson {
    fn from(r: &FieldRow) -> Self {
        RowJson {
            field: r.field.into(),
            raw: r.raw,
            meaning: r.meaning.clone(),
        }
    }
}

/// The entry a compacted word's table index selects: the table, where
/// it is written, the entry, its width, the native bits it fills and the
/// native fields in those bits.
#[derive(Serialize)]
struct SelectsJson {
    table: &'static str,
    source: &'static str,
    entry: u64,
    width: u32,
    native_bits: &'static [(u32, u32)],
    native_fields: Vec<RowJson>,
}

impl From<&IndexSelection> for SelectsJson {
    fn from(s: &IndexSelection) -> Self {
        SelectsJson {
            table: s.table,
            source: s.source,
            entry: s.entry,
            width: s.width,
            native_bits: s.native_bits,
            native_fields: s.native_fields.iter().map(RowJson::from).collect(),
        }
    }
}

/// One field of a compacted word: the field, its raw value and, for a
/// table index, what it selects.
#[derive(Serialize)]
struct CompactRowJson {
    #[serde(flatten)]
    field: Field,
    raw: u64,
    selects: Option<SelectsJson>,
}

impl From<&CompactFieldRow> for CompactRowJson {
    fn from(r: &CompactFieldRow) -> Self {
        CompactRowJson {
            field: r.field.into(),
            raw: r.raw,
            selects: r.selects.as_ref().map(SelectsJson::from),
        }
    }
}

/// One instruction of `fields --json`: its bytes as given, and for a
/// compacted one its own fields and its native form.
#[derive(Serialize)]
struct WordJson {
    offset: usize,
    bytes: String,
    compacted: bool,
    native: Option<String>,
    error: Option<json::Error>,
    compact_fields: Vec<CompactRowJson>,
    fields: Vec<RowJson>,
    descriptor: Option<DescJson>,
}

/// The document `fields --json` prints.
#[derive(Serialize)]
struct FieldsJson {
    platform: &'static str,
    instructions: Vec<WordJson>,
}

/// An instruction as given, and its native form: the word itself, or the
/// word a compacted one uncompacts to (`Err` when it does not).
struct Given {
    bytes: Vec<u8>,
    compact: Option<CompactWord>,
    native: Result<Word, DecodeError>,
}

fn given(p: Platform, piece: Piece) -> Given {
    match piece {
        Piece::Compact(c) => Given {
            bytes: c.to_bytes().to_vec(),
            compact: Some(c),
            native: uncompact_word(p, c),
        },
        Piece::Native(w) => Given {
            bytes: w.to_bytes().to_vec(),
            compact: None,
            native: Ok(w),
        },
        // parse_pieces refuses short pieces.
        Piece::Short { need, have } => Given {
            bytes: Vec::new(),
            compact: None,
            native: Err(DecodeError::Truncated { need, have }),
        },
    }
}

/// One field of a native word: name, bits, raw value, meaning.
fn write_field_row(out: &mut String, indent: &str, r: &FieldRow) {
    let _ = writeln!(
        out,
        "{indent}{:<20} [{:>8}] {:>#12x}  {}",
        r.field.name,
        range(r.field.frags),
        r.raw,
        r.meaning
    );
}

/// Writes a compacted word's own fields: each table index with the entry
/// it selects and the native fields in the entry's bits.
fn write_compact_rows(out: &mut String, rows: &[CompactFieldRow]) {
    for r in rows {
        let _ = write!(
            out,
            "  {:<20} [{:>8}] {:>#12x}",
            r.field.name,
            range(r.field.frags),
            r.raw
        );
        match &r.selects {
            Some(s) => {
                let _ = writeln!(
                    out,
                    "  {}[{}] = {:#0w$b} (native bits {}; {})",
                    s.table,
                    r.raw,
                    s.entry,
                    range(s.native_bits),
                    s.source,
                    w = s.width as usize + 2
                );
                for f in &s.native_fields {
                    write_field_row(out, "      ", f);
                }
            }
            None => out.push('\n'),
        }
    }
}

/// Prints every field of each instruction; a compacted one's own fields
/// first, then its native form's.
pub fn fields(p: Platform, args: &[String], json: bool) -> Result<ExitCode, CliError> {
    let pieces = parse_pieces(args)?;
    let mut out = String::new();
    let mut docs = Vec::new();
    for (offset, piece) in pieces {
        let g = given(p, piece);
        let decoded = g.native.and_then(|w| decode_word(p, w));
        let rows = g.native.map(|w| describe(p, w)).unwrap_or_default();
        let compact_rows = g.compact.map(|c| describe_compact(p, c));
        if json {
            let at = json::At::offset(offset);
            docs.push(WordJson {
                offset,
                bytes: hex_bytes(&g.bytes),
                compacted: g.compact.is_some(),
                native: g.compact.and(g.native.ok()).map(|w| hex_bytes(&w.to_bytes())),
                error: decoded.as_ref().err().map(|e| json::Error::decode(e, at)),
                compact_fields: compact_rows.iter().flatten().map(CompactRowJson::from).collect(),
                fields: rows.iter().map(RowJson::from).collect(),
                descriptor: g
                    .native
                    .ok()
                    .and_then(|w| send_desc(p, w))
                    .map(|(sfid, d)| DescJson::new(p, sfid, d)),
            });
            continue;
        }
        if let Some(crows) = &compact_rows {
            let _ = writeln!(out, "compacted word {} (byte {offset})", hex_bytes(&g.bytes));
            write_compact_rows(&mut out, crows);
            match g.native {
                Ok(w) => {
                    let _ = writeln!(out, "native form {}", hex_bytes(&w.to_bytes()));
                }
                Err(e) => {
                    let _ = writeln!(out, "  does not uncompact: {e}");
                    continue;
                }
            }
        } else {
            let _ = writeln!(out, "word {}", hex_bytes(&g.bytes));
        }
        if let Err(e) = &decoded {
            let _ = writeln!(out, "  does not decode: {e}");
        }
        for r in &rows {
            write_field_row(&mut out, "  ", r);
        }
        if let Some((sfid, d)) = g.native.ok().and_then(|w| send_desc(p, w)) {
            let _ = writeln!(out, "  {}", desc::header(p, sfid, d));
            for f in geneu::msg::desc_fields(p, sfid, d) {
                desc::write_row(&mut out, &f);
            }
        }
    }
    if json {
        out = json::document(
            "fields",
            &FieldsJson {
                platform: json::platform(p),
                instructions: docs,
            },
        );
    }
    emit(&out)?;
    Ok(ExitCode::SUCCESS)
}

/// A compacted word's field that differs between two compacted words in
/// `diff --json`: both raw values and, for an index, both selected entries.
#[derive(Serialize)]
struct CompactDiffJson {
    #[serde(flatten)]
    field: Field,
    a: CompactSide,
    b: CompactSide,
}

/// One side of a differing compacted field in `diff --json`: the raw
/// value and, for an index, what it selects.
#[derive(Serialize)]
struct CompactSide {
    raw: u64,
    selects: Option<SelectsJson>,
}

impl From<&CompactFieldRow> for CompactSide {
    fn from(r: &CompactFieldRow) -> Self {
        CompactSide {
            raw: r.raw,
            selects: r.selects.as_ref().map(SelectsJson::from),
        }
    }
}

/// The compacted words' own fields that differ (by name; a field only one
/// side shows, such as `imm13`, differs when shown).
fn compact_diff<'a>(
    a: &'a [CompactFieldRow],
    b: &'a [CompactFieldRow],
) -> Vec<(&'a CompactFieldRow, &'a CompactFieldRow)> {
    a.iter()
        .filter_map(|ra| {
            let rb = b.iter().find(|rb| rb.field.name == ra.field.name)?;
            (ra.raw != rb.raw).then_some((ra, rb))
        })
        .collect()
}

fn side_name(g: &Given) -> &'static str {
    if g.compact.is_some() {
        "compacted"
    } else {
        "native"
    }
}

/// Prints the fields that differ between two instructions: for compacted
/// ones, their own fields first, then the fields of the native forms.
/// Exit status 1 when the instructions differ, 0 when they are equal.
pub fn diff(p: Platform, args: &[String], json: bool) -> Result<ExitCode, CliError> {
    let pieces = parse_pieces(args)?;
    let [(_, pa), (_, pb)] = pieces[..] else {
        return Err(CliError::Hex(format!(
            "diff takes exactly two instructions, got {}",
            pieces.len()
        )));
    };
    let (ga, gb) = (given(p, pa), given(p, pb));
    let native = |g: &Given, which: &str| {
        g.native.map_err(|e| {
            CliError::Input(format!(
                "instruction {which} ({}) does not uncompact: {e}",
                hex_bytes(&g.bytes)
            ))
        })
    };
    let (a, b) = (native(&ga, "a")?, native(&gb, "b")?);
    let (ca, cb) = (
        ga.compact.map(|c| describe_compact(p, c)).unwrap_or_default(),
        gb.compact.map(|c| describe_compact(p, c)).unwrap_or_default(),
    );
    let cdiff = compact_diff(&ca, &cb);
    let diffs = field_diff(p, a, b);
    let mut out = String::new();
    let loose = uncovered_diff_bits(p, a, b);
    let descs = desc_diff(p, a, b);
    let mixed = ga.compact.is_some() || gb.compact.is_some();
    if json {
        let v = DiffJson {
            platform: json::platform(p),
            a: hex_bytes(&ga.bytes),
            b: hex_bytes(&gb.bytes),
            compacted: [ga.compact.is_some(), gb.compact.is_some()],
            native: [hex_bytes(&a.to_bytes()), hex_bytes(&b.to_bytes())],
            compact_fields: cdiff
                .iter()
                .map(|&(ra, rb)| CompactDiffJson {
                    field: ra.field.into(),
                    a: ra.into(),
                    b: rb.into(),
                })
                .collect(),
            fields: diffs
                .iter()
                .map(|d| FieldDiffJson {
                    field: d.field.into(),
                    a: Side {
                        raw: d.a.0,
                        meaning: &d.a.1,
                    },
                    b: Side {
                        raw: d.b.0,
                        meaning: &d.b.1,
                    },
                    changed_bits: &d.bits,
                })
                .collect(),
            other_bits: (0..128u32).rev().filter(|i| (loose >> i) & 1 == 1).collect(),
            descriptor_fields: descs
                .iter()
                .map(|d| DescDiffJson {
                    field: d.field.into(),
                    a: d.a,
                    b: d.b,
                    changed_bits: &d.changed_bits,
                })
                .collect(),
        };
        out.push_str(&json::document("diff", &v));
    } else {
        if mixed {
            let _ = writeln!(out, "a is {}, b is {}", side_name(&ga), side_name(&gb));
        }
        if !cdiff.is_empty() {
            let _ = writeln!(out, "compacted fields:");
        }
        for (ra, rb) in &cdiff {
            let sel = |r: &CompactFieldRow| {
                r.selects
                    .as_ref()
                    .map_or_else(String::new, |s| format!(" ({}[{}] = {:#x})", s.table, r.raw, s.entry))
            };
            let _ = writeln!(
                out,
                "  {:<18} [{}] {:#x}{} -> {:#x}{}",
                ra.field.name,
                range(ra.field.frags),
                ra.raw,
                sel(ra),
                rb.raw,
                sel(rb)
            );
        }
        if mixed {
            let _ = writeln!(out, "native forms:{}", if a == b { " equal" } else { "" });
        }
        for d in &diffs {
            let bits: Vec<String> = d.bits.iter().map(|b| b.to_string()).collect();
            let _ = writeln!(
                out,
                "{:<20} [{}] {:#x} ({}) -> {:#x} ({})  bits {}",
                d.field.name,
                range(d.field.frags),
                d.a.0,
                d.a.1,
                d.b.0,
                d.b.1,
                bits.join(",")
            );
        }
        if loose != 0 {
            let _ = writeln!(out, "bits outside any field: {}", BitList(loose));
        }
        if !descs.is_empty() {
            let _ = writeln!(out, "descriptor fields (descriptor bits 31:0):");
        }
        for d in &descs {
            let v = |x: Option<u32>| x.map_or_else(|| "-".to_string(), |x| format!("{x:#x} ({x})"));
            let bits: Vec<String> = d.changed_bits.iter().map(|b| b.to_string()).collect();
            let _ = writeln!(
                out,
                "  {:<18} [{}] {} -> {}  bits {}",
                d.field.name,
                range(d.field.frags),
                v(d.a),
                v(d.b),
                bits.join(",")
            );
        }
    }
    emit(&out)?;
    Ok(if ga.bytes == gb.bytes {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// One side of a differing field in `diff --json`.
#[derive(Serialize)]
struct Side<'a> {
    raw: u64,
    meaning: &'a str,
}

/// A differing field in `diff --json`: the field with both values.
#[derive(Serialize)]
struct FieldDiffJson<'a> {
    #[serde(flatten)]
    field: Field,
    a: Side<'a>,
    b: Side<'a>,
    changed_bits: &'a [u32],
}

/// A differing descriptor field in `diff --json`: `null` on a side whose
/// message has no such field.
#[derive(Serialize)]
struct DescDiffJson<'a> {
    #[serde(flatten)]
    field: Field,
    a: Option<u32>,
    b: Option<u32>,
    changed_bits: &'a [u32],
}

/// The document `diff --json` prints: both instructions as given,
/// whether each is compacted, the native forms compared, the differing
/// fields of the compacted words (both compacted), of the native forms,
/// the differing bits outside any field and, for SENDs, the differing
/// descriptor fields.
#[derive(Serialize)]
struct DiffJson<'a> {
    platform: &'static str,
    a: String,
    b: String,
    compacted: [bool; 2],
    native: [String; 2],
    compact_fields: Vec<CompactDiffJson>,
    fields: Vec<FieldDiffJson<'a>>,
    other_bits: Vec<u32>,
    descriptor_fields: Vec<DescDiffJson<'a>>,
}

/// A message-descriptor field that differs between two SENDs (absent,
/// `None`, on a side whose message has no such field).
struct DescDiff {
    field: &'static FieldInfo,
    a: Option<u32>,
    b: Option<u32>,
    /// The differing descriptor bits within the field, high first.
    changed_bits: Vec<u32>,
}

/// The descriptor fields that differ between two words, when either is a
/// SEND with an immediate descriptor: the fields of both messages' layouts,
/// in descriptor bits.
fn desc_diff(p: Platform, a: Word, b: Word) -> Vec<DescDiff> {
    let (da, db) = (send_desc(p, a), send_desc(p, b));
    if da.is_none() && db.is_none() {
        return Vec::new();
    }
    let fa = da.map(|(s, d)| geneu::msg::desc_fields(p, s, d)).unwrap_or_default();
    let fb = db.map(|(s, d)| geneu::msg::desc_fields(p, s, d)).unwrap_or_default();
    let changed = da.map_or(0, |x| x.1) ^ db.map_or(0, |x| x.1);
    let mut out: Vec<DescDiff> = Vec::new();
    for f in fa.iter().chain(fb.iter()) {
        if out.iter().any(|d| d.field.name == f.field.name) {
            continue;
        }
        let find = |fs: &[geneu::msg::DescField]| fs.iter().find(|g| g.field.name == f.field.name).map(|g| g.raw);
        let (va, vb) = (find(&fa), find(&fb));
        let m = f.field.mask() as u32 & changed;
        if va == vb && m == 0 {
            continue;
        }
        out.push(DescDiff {
            field: f.field,
            a: va,
            b: vb,
            changed_bits: (0..32u32).rev().filter(|&i| (m >> i) & 1 == 1).collect(),
        });
    }
    out
}

/// Lists the tables and their fields, or prints the generated source.
pub fn tables(only: Option<&str>, source: bool) -> Result<ExitCode, CliError> {
    if source {
        emit(geneu::word::GENERATED_SOURCE)?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut found = false;
    let mut out = String::new();
    for (name, fields) in geneu::word::fields::TABLES {
        if only.is_some_and(|o| o != *name) {
            continue;
        }
        found = true;
        let _ = writeln!(out, "{name}");
        for f in fields.iter() {
            let alias = if f.aliases.is_empty() {
                String::new()
            } else {
                format!("  alias {}", f.aliases.join(" "))
            };
            let _ = writeln!(out, "  {:<22} {}{alias}", f.name, range(f.frags));
        }
    }
    if found {
        emit(&out)?;
        Ok(ExitCode::SUCCESS)
    } else {
        let names: Vec<&str> = geneu::word::fields::TABLES.iter().map(|(n, _)| *n).collect();
        Err(CliError::Usage(format!(
            "no table named `{}`; expected one of: {}",
            only.unwrap_or(""),
            names.join(", ")
        )))
    }
}
