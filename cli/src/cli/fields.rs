//! `geneu fields` and `geneu diff`.

use std::fmt::Write as _;
use std::process::ExitCode;

use geneu::error::BitList;
use geneu::fields::{describe, diff as field_diff, uncovered_diff_bits};
use geneu::{decode_word, Platform, Word};
use serde_json::{json, Value};

use super::{emit, parse_words, CliError};

fn range(frags: &[(u32, u32)]) -> String {
    frags
        .iter()
        .map(|(h, l)| if h == l { format!("{h}") } else { format!("{h}:{l}") })
        .collect::<Vec<_>>()
        .join(",")
}

fn hex_bytes(w: Word) -> String {
    w.to_bytes()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect::<Vec<_>>()
        .join(" ")
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
            let fields: Vec<Value> = rows
                .iter()
                .map(|r| {
                    json!({
                        "name": r.field.name,
                        "bits": r.field.frags.iter().map(|(h, l)| json!([h, l])).collect::<Vec<_>>(),
                        "raw": r.raw,
                        "meaning": r.meaning,
                    })
                })
                .collect();
            docs.push(json!({
                "word": hex_bytes(w),
                "platform": p.name(),
                "decode_error": decoded.as_ref().err().map(|e| e.to_string()),
                "fields": fields,
            }));
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
        }
    }
    if json {
        out = serde_json::to_string_pretty(&Value::Array(docs)).unwrap_or_default();
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
    if json {
        let v = json!({
            "a": hex_bytes(a),
            "b": hex_bytes(b),
            "platform": p.name(),
            "fields": diffs.iter().map(|d| json!({
                "name": d.field.name,
                "bits": d.field.frags.iter().map(|(h, l)| json!([h, l])).collect::<Vec<_>>(),
                "a": {"raw": d.a.0, "meaning": d.a.1},
                "b": {"raw": d.b.0, "meaning": d.b.1},
                "changed_bits": d.bits,
            })).collect::<Vec<_>>(),
            "other_bits": (0..128u32).rev().filter(|i| (loose >> i) & 1 == 1).collect::<Vec<_>>(),
        });
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
    }
    emit(&out)?;
    Ok(if a == b { ExitCode::SUCCESS } else { ExitCode::from(1) })
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
        Err(CliError::Usage(format!("no table named `{}`", only.unwrap_or(""))))
    }
}
