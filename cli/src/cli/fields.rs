//! `geneu fields` and `geneu diff`.

use std::fmt::Write as _;
use std::process::ExitCode;

use geneu::error::BitList;
use geneu::fields::{describe, diff as field_diff, uncovered_diff_bits};
use geneu::{decode_word, Platform, Word};

use super::desc::{self, range, send_desc, DescJson};
use super::{emit, parse_words, CliError};
use geneu::word::FieldInfo;
use geneu::DecodeError;
use serde::Serialize;

fn hex_bytes(w: Word) -> String {
    w.to_bytes()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// One field of `fields --json`: the library's [`FieldInfo`] (name, bit
/// fragments, width, aliases) with the raw value and its meaning.
#[derive(Serialize)]
struct RowJson {
    #[serde(flatten)]
    field: &'static FieldInfo,
    raw: u64,
    meaning: String,
}

/// One word of `fields --json`.
#[derive(Serialize)]
struct WordJson {
    word: String,
    platform: Platform,
    decode_error: Option<DecodeError>,
    fields: Vec<RowJson>,
    #[serde(skip_serializing_if = "Option::is_none")]
    descriptor: Option<DescJson>,
}

/// Prints every field of each word.
pub fn fields(p: Platform, args: &[String], json: bool) -> Result<ExitCode, CliError> {
    let words = parse_words(args)?;
    let mut out = String::new();
    let mut docs = Vec::new();
    for w in words {
        let decoded = decode_word(p, w);
        let rows = describe(p, w);
        if json {
            docs.push(WordJson {
                word: hex_bytes(w),
                platform: p,
                decode_error: decoded.as_ref().err().copied(),
                fields: rows
                    .iter()
                    .map(|r| RowJson {
                        field: r.field,
                        raw: r.raw,
                        meaning: r.meaning.clone(),
                    })
                    .collect(),
                descriptor: send_desc(p, w).map(|(sfid, d)| DescJson::new(p, sfid, d)),
            });
        } else {
            let _ = writeln!(out, "word {}", hex_bytes(w));
            if let Err(e) = &decoded {
                let _ = writeln!(out, "  does not decode: {e}");
            }
            for r in &rows {
                let _ = writeln!(
                    out,
                    "  {:<20} [{:>8}] {:>#12x}  {}",
                    r.field.name,
                    range(r.field.frags),
                    r.raw,
                    r.meaning
                );
            }
            if let Some((sfid, d)) = send_desc(p, w) {
                let _ = writeln!(out, "  {}", desc::header(p, sfid, d));
                for f in geneu::msg::desc_fields(p, sfid, d) {
                    desc::write_row(&mut out, &f);
                }
            }
        }
    }
    if json {
        out = serde_json::to_string_pretty(&docs).unwrap_or_default();
        out.push('\n');
    }
    emit(&out)?;
    Ok(ExitCode::SUCCESS)
}

/// Prints the fields that differ between two words. Exit status 1 when the
/// words differ, 0 when they are equal.
pub fn diff(p: Platform, args: &[String], json: bool) -> Result<ExitCode, CliError> {
    let words = parse_words(args)?;
    let [a, b] = words[..] else {
        return Err(CliError::Hex(format!(
            "diff takes exactly two words, got {}",
            words.len()
        )));
    };
    let diffs = field_diff(p, a, b);
    let mut out = String::new();
    let loose = uncovered_diff_bits(p, a, b);
    let descs = desc_diff(p, a, b);
    if json {
        let v = DiffJson {
            a: hex_bytes(a),
            b: hex_bytes(b),
            platform: p,
            fields: diffs
                .iter()
                .map(|d| FieldDiffJson {
                    field: d.field,
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
            descriptor_fields: &descs,
        };
        out.push_str(&serde_json::to_string_pretty(&v).unwrap_or_default());
        out.push('\n');
    } else {
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
    Ok(if a == b { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

/// One side of a differing field in `diff --json`.
#[derive(Serialize)]
struct Side<'a> {
    raw: u64,
    meaning: &'a str,
}

/// A differing field in `diff --json`: the library's [`FieldInfo`] with
/// both values.
#[derive(Serialize)]
struct FieldDiffJson<'a> {
    #[serde(flatten)]
    field: &'static FieldInfo,
    a: Side<'a>,
    b: Side<'a>,
    changed_bits: &'a [u32],
}

/// The document `diff --json` prints; `descriptor_fields` only for SENDs,
/// whose descriptors are split into fields.
#[derive(Serialize)]
struct DiffJson<'a> {
    a: String,
    b: String,
    platform: Platform,
    fields: Vec<FieldDiffJson<'a>>,
    other_bits: Vec<u32>,
    #[serde(skip_serializing_if = "<[DescDiff]>::is_empty")]
    descriptor_fields: &'a [DescDiff],
}

/// A message-descriptor field that differs between two SENDs (absent,
/// `None`, on a side whose message has no such field).
#[derive(Serialize)]
struct DescDiff {
    #[serde(flatten)]
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
