//! `geneu disasm`: a binary (or `.expected`-style hex, detected or forced
//! with `--hex`) to Mesa's text.
//!
//! Exit status: 0 when every word decodes (and, with `--check`, passes
//! validation); 1 when some word does not decode or breaks a rule; 2 for
//! unreadable or malformed input, including truncated binary input (the
//! complete words before the cut are still printed).

use std::fmt::Write as _;
use std::process::ExitCode;

use geneu::text::program::{Program, ProgramText, TextOptions, WORD_BYTES};
use geneu::validate::Violation;
use geneu::DecodeError;
use geneu::{Platform, Word};
use serde::Serialize;

use super::{hex_lines, looks_like_hex, parse_words, read_input, CliError, Input};

/// Hex text, one or more words per line, in either form `fields` accepts
/// (16 bytes in memory order, or four `0x` dwords). Blank lines and lines
/// starting with `#` or `//` are skipped.
pub(super) fn parse_hex(text: &[u8]) -> Result<Vec<u8>, CliError> {
    let text = std::str::from_utf8(text).map_err(|_| {
        CliError::Hex("--hex expects hex text, and the input is not text (--bin reads raw binary)".into())
    })?;
    let mut bytes = Vec::new();
    for (n, t) in hex_lines(text) {
        let words = parse_words(&[t.to_string()]).map_err(|e| match e {
            CliError::Hex(m) => CliError::Hex(format!("line {n}: {m}")),
            e => e,
        })?;
        bytes.extend(words.iter().flat_map(|w: &Word| w.to_bytes()));
    }
    Ok(bytes)
}

fn hex_bytes(w: Word) -> String {
    let mut s = String::with_capacity(48);
    for (k, b) in w.to_bytes().iter().enumerate() {
        if k > 0 {
            s.push(' ');
        }
        let _ = write!(s, "{b:02x}");
    }
    s
}

/// One word of `disasm --json`: the library's [`DecodeError`] and
/// [`Violation`]s by their Serialize derives.
#[derive(Serialize)]
struct JsonEntry {
    offset: u64,
    bytes: String,
    label: Option<String>,
    text: Option<String>,
    error: Option<DecodeError>,
    violations: Vec<Violation>,
}

/// A branch target of `disasm --json`.
#[derive(Serialize)]
struct JsonLabel {
    name: String,
    offset: u64,
}

/// The document `disasm --json` prints.
#[derive(Serialize)]
struct JsonDoc {
    platform: Platform,
    instructions: Vec<JsonEntry>,
    labels: Vec<JsonLabel>,
    trailing_bytes: usize,
}

fn json_doc(prog: &Program, check: bool) -> (JsonDoc, bool) {
    let p = prog.platform();
    let mut bad = false;
    let instructions = prog
        .entries()
        .map(|e| {
            let (text, error, violations) = match (prog.disasm(&e), e.inst) {
                (Some(d), Ok(i)) => {
                    let v = if check {
                        geneu::validate::validate(p, i).err().map(|vs| vs.0).unwrap_or_default()
                    } else {
                        Vec::new()
                    };
                    bad |= !v.is_empty();
                    (Some(d.to_string()), None, v)
                }
                (_, Err(err)) => {
                    bad = true;
                    (None, Some(*err), Vec::new())
                }
                (None, Ok(_)) => (None, None, Vec::new()),
            };
            JsonEntry {
                offset: e.offset,
                bytes: hex_bytes(e.word),
                label: e.label.map(|n| format!("LABEL{n}")),
                text,
                error,
                violations,
            }
        })
        .collect();
    let labels = prog
        .labels()
        .iter()
        .map(|(offset, n)| JsonLabel {
            name: format!("LABEL{n}"),
            offset,
        })
        .collect();
    (
        JsonDoc {
            platform: p,
            instructions,
            labels,
            trailing_bytes: prog.trailing_bytes(),
        },
        bad,
    )
}

/// Words printed into the buffer before it is written out (about 150 KB
/// of text for typical code).
const CHUNK_WORDS: usize = 1024;

/// Writes `text` to `out`; a reader that closed the pipe early ends the
/// output without error (`Ok(false)`: stop writing).
fn put(out: &mut impl std::io::Write, text: &str) -> Result<bool, CliError> {
    match out.write_all(text.as_bytes()) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(false),
        Err(e) => Err(e.into()),
    }
}

/// Runs `disasm`.
pub fn disasm(
    p: Platform,
    path: Option<&str>,
    input: Input,
    json: bool,
    opts: TextOptions,
) -> Result<ExitCode, CliError> {
    let check = opts.check;
    let raw = read_input(path)?;
    // Hex is detected as `check` detects it: text whose every line holds
    // only hex word tokens.
    let hex = match input {
        Input::Hex => true,
        Input::Bin => false,
        Input::Auto => std::str::from_utf8(&raw).is_ok_and(|t| !t.contains('\0') && looks_like_hex(t)),
    };
    let bytes = if hex { parse_hex(&raw)? } else { raw };
    let words = bytes.len() / WORD_BYTES;
    let trailing = bytes.len() % WORD_BYTES;
    let mut out = std::io::stdout().lock();
    let bad = if json {
        let prog = Program::decode(p, &bytes);
        let (v, bad) = json_doc(&prog, check);
        let mut s = serde_json::to_string_pretty(&v).unwrap_or_default();
        s.push('\n');
        if !put(&mut out, &s)? {
            return Ok(ExitCode::SUCCESS);
        }
        bad
    } else {
        // The text goes out a chunk at a time, printed into one buffer.
        let mut text = ProgramText::new(p, &bytes, opts);
        let mut buf = String::with_capacity(CHUNK_WORDS * 256);
        loop {
            buf.clear();
            let more = text
                .write_next(&mut buf, CHUNK_WORDS)
                .map_err(|_| CliError::Hex("formatting failed".into()))?;
            if !put(&mut out, &buf)? {
                return Ok(ExitCode::SUCCESS);
            }
            if !more {
                break;
            }
        }
        let sum = text.summary();
        sum.undecodable > 0 || sum.invalid > 0
    };
    match std::io::Write::flush(&mut out) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return Ok(ExitCode::SUCCESS),
        r => r?,
    }
    if trailing != 0 {
        return Err(CliError::Io(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!(
                "truncated input: {trailing} byte(s) after the last complete 16-byte word at offset {:#x}; \
                 the {words} complete word(s) before it were disassembled",
                words * WORD_BYTES,
            ),
        )));
    }
    Ok(if bad { ExitCode::from(1) } else { ExitCode::SUCCESS })
}
