//! SEND message descriptors field by field: `geneu desc`, and the
//! descriptor rows that `fields` and `diff` add for a SEND.

use std::fmt::Write as _;
use std::process::ExitCode;

use geneu::msg::Sfid;
use geneu::msg::{desc_fields, DescField, Message};
use geneu::word::fields::{desc_common, desc_ex, gen7_native};
use geneu::{decode_word, Platform, Word};
use serde::Serialize;

use super::json::{self, Field};
use super::{emit, CliError};

/// The SFID and immediate descriptor of a word that decodes to a SEND or
/// SENDC with its descriptor in the instruction (not in `a0.0`).
pub fn send_desc(p: Platform, w: Word) -> Option<(u8, u32)> {
    let inst = decode_word(p, w).ok()?;
    // The SFID field (bits 27:24) is the conditional-modifier field, kept
    // raw so that the reserved SFIDs 14 and 15 still print.
    (inst.opcode.is_send() && inst.src[1].is_imm()).then_some((inst.cond_modifier, inst.imm as u32))
}

/// `hi:lo` (or `n` for one bit) of each fragment, joined by commas.
pub fn range(frags: &[(u32, u32)]) -> String {
    frags
        .iter()
        .map(|(h, l)| if h == l { format!("{h}") } else { format!("{h}:{l}") })
        .collect::<Vec<_>>()
        .join(",")
}

/// The SFID's name as Mesa prints it (the library's `Display`), or its
/// number for a reserved encoding.
pub fn sfid_name(sfid: u8) -> String {
    Sfid::from_hw(sfid).map_or_else(|| format!("sfid {sfid}"), |f| f.to_string())
}

/// The message's text as Mesa's disassembler prints it after `MsgDesc:`'s
/// SFID name, or why it cannot be printed.
pub fn message_text(p: Platform, sfid: u8, desc: u32) -> String {
    match Message::decode(p, sfid, desc).and_then(|m| m.mesa(p)) {
        Ok(t) => t.to_string(),
        Err(e) => format!("({e})"),
    }
}

/// The line `fields` prints before the descriptor's rows.
pub fn header(p: Platform, sfid: u8, desc: u32) -> String {
    format!(
        "descriptor {desc:#010x}, SFID {sfid} ({}): {}",
        sfid_name(sfid),
        message_text(p, sfid, desc)
    )
}

/// One descriptor row: name, descriptor bits, raw value in hex and decimal.
pub fn write_row(out: &mut String, f: &DescField) {
    let _ = writeln!(
        out,
        "    {:<22} [{:>6}] {:>#12x}  {}",
        f.field.name,
        range(f.field.frags),
        f.raw,
        f.raw
    );
}

/// One descriptor field in JSON: the field (in descriptor bits) and its
/// value.
#[derive(Serialize)]
struct DescFieldJson {
    #[serde(flatten)]
    field: Field,
    raw: u32,
}

/// The JSON of a descriptor: the SFID by number and name, the bits,
/// Mesa's text, why it has no typed message (`error`, `null` when it has
/// one) and every field.
#[derive(Serialize)]
pub struct DescJson {
    sfid: u8,
    sfid_name: String,
    desc: String,
    text: String,
    error: Option<json::Error>,
    fields: Vec<DescFieldJson>,
}

impl DescJson {
    /// The descriptor `desc` of a message to `sfid` on `p`.
    pub fn new(p: Platform, sfid: u8, desc: u32) -> Self {
        DescJson {
            sfid,
            sfid_name: sfid_name(sfid),
            desc: format!("{desc:#010x}"),
            text: message_text(p, sfid, desc),
            error: Message::decode_typed(p, sfid, desc)
                .err()
                .map(|e| json::Error::msg(&e, json::At::new())),
            fields: desc_fields(p, sfid, desc)
                .iter()
                .map(|f| DescFieldJson {
                    field: f.field.into(),
                    raw: f.raw,
                })
                .collect(),
        }
    }
}

/// The document `desc --json` prints: the platform and the descriptor.
#[derive(Serialize)]
struct DescDoc {
    platform: &'static str,
    #[serde(flatten)]
    desc: DescJson,
}

/// Parses a 32-bit number: `0x` hex, or decimal.
fn parse_u32(what: &str, s: &str) -> Result<u32, CliError> {
    let r = match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(h) => u32::from_str_radix(&h.replace('_', ""), 16),
        None => s.replace('_', "").parse(),
    };
    r.map_err(|_| {
        CliError::Usage(format!(
            "bad {what} `{s}`: expected a 32-bit number, 0x-prefixed hex or decimal"
        ))
    })
}

/// Parses an SFID: its number (0..=15) or its name as the library's
/// `FromStr` reads it (Mesa's: `urb`, `sampler`, `data`, `dp data 1`,
/// `render`, `const`, `gateway`, ...; `_` may stand for a space).
pub fn parse_sfid(s: &str) -> Result<u8, CliError> {
    let t = s.trim();
    if let Ok(n) = parse_u32("SFID", t) {
        if n >> gen7_native::SFID.width == 0 {
            return Ok(n as u8);
        }
    }
    if let Ok(f) = t.parse::<Sfid>().or_else(|_| t.replace('_', " ").parse::<Sfid>()) {
        return Ok(f.hw());
    }
    let names: Vec<String> = Sfid::ALL.iter().map(|f| format!("{} = {f}", f.hw())).collect();
    Err(CliError::Usage(format!(
        "unknown SFID `{s}`: expected a number 0..15 or a name ({})",
        names.join(", ")
    )))
}

/// Runs `desc`: decodes a bare descriptor. On Gen7/Gen8 the extended
/// descriptor holds only the SFID (bits 3:0) and EOT (bit 5, the
/// descriptor's bit 31 here); it may stand in for `--sfid`.
pub fn desc(
    p: Platform,
    sfid: Option<&str>,
    desc: &str,
    exdesc: Option<&str>,
    json: bool,
) -> Result<ExitCode, CliError> {
    let mut d = parse_u32("descriptor", desc)?;
    let mut sfid = sfid.map(parse_sfid).transpose()?;
    if let Some(x) = exdesc {
        let x = parse_u32("extended descriptor", x)?;
        let xs = desc_ex::sfid(x);
        let eot = desc_ex::eot(x);
        let mut known = 0;
        desc_ex::set_sfid_unchecked(&mut known, xs);
        desc_ex::set_eot_unchecked(&mut known, eot);
        if x != known {
            return Err(CliError::Usage(format!(
                "extended descriptor {x:#x} sets bits Gen7/Gen8 do not have: expected only the SFID (bits 3:0) and EOT (bit 5)"
            )));
        }
        if sfid.is_some_and(|s| s != xs) {
            return Err(CliError::Usage(format!(
                "--sfid {} disagrees with the extended descriptor's SFID {xs}: expected the same shared function",
                sfid.unwrap_or(0)
            )));
        }
        sfid = Some(xs);
        if eot == 1 {
            desc_common::set_eot_unchecked(&mut d, 1);
        }
    }
    let Some(sfid) = sfid else {
        return Err(CliError::Usage(
            "no shared function: expected --sfid S or an extended descriptor holding the SFID".into(),
        ));
    };
    let mut out = String::new();
    if json {
        let v = DescDoc {
            platform: json::platform(p),
            desc: DescJson::new(p, sfid, d),
        };
        out = json::document("desc", &v);
    } else {
        let _ = writeln!(out, "{}", header(p, sfid, d));
        if let Err(e) = Message::decode_typed(p, sfid, d) {
            let _ = writeln!(out, "  not typed: {e}");
        }
        for f in desc_fields(p, sfid, d) {
            write_row(&mut out, &f);
        }
    }
    emit(&out)?;
    Ok(ExitCode::SUCCESS)
}
