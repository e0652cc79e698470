//! `geneu disasm`: a binary (or `.expected`-style hex, detected or forced
//! with `--hex`) to Mesa's text.
//!
//! Exit status: 0 when every word decodes (and, with `--check`, passes
//! validation); 1 when some word does not decode or breaks a rule; 2 for
//! unreadable or malformed input, including truncated binary input (the
//! complete words before the cut are still printed).

use std::process::ExitCode;

use geneu::compact::{pieces, uncompact_program, Piece};
use geneu::text::program::{Program, ProgramText, TextOptions};
use geneu::Platform;
use serde::Serialize;

use super::display_name;
use super::json::{self, hex_bytes};
use super::{looks_like_hex, parse_hex_text, piece_bytes, read_input, CliError, Input};

/// Hex text, one or more instructions per line, in either form `fields`
/// accepts (bytes in memory order, or `0x` dwords; 16 bytes per native
/// instruction, 8 per compacted one). Blank lines and lines starting with
/// `#` or `//` are skipped.
pub(super) fn parse_hex(text: &[u8]) -> Result<Vec<u8>, CliError> {
    let text = std::str::from_utf8(text).map_err(|_| {
        CliError::Hex("--hex expects hex text, and the input is not text (--bin reads raw binary)".into())
    })?;
    let h = parse_hex_text(text).map_err(|(n, e)| match e {
        CliError::Hex(m) => CliError::Hex(format!("line {n}: {m}")),
        e => e,
    })?;
    Ok(h.bytes)
}

/// One instruction of `disasm --json`: where it is, its bytes as stored
/// (8 when compacted), a compacted one's native form, the label of a
/// branch target, its text, why it does not decode, and (with `--check`)
/// the rules it breaks.
#[derive(Serialize)]
struct JsonEntry {
    offset: u64,
    bytes: String,
    compacted: bool,
    native: Option<String>,
    label: Option<String>,
    text: Option<String>,
    error: Option<json::Error>,
    violations: Vec<json::Violation>,
}

/// A branch target of `disasm --json`.
#[derive(Serialize)]
struct JsonLabel {
    name: String,
    offset: u64,
}

/// The document `disasm --json` prints: the platform, the input's name,
/// every instruction, the labels,
/// the bytes after the last complete instruction and the errors of the
/// input as a whole (a truncated last instruction).
#[derive(Serialize)]
struct JsonDoc<'a> {
    platform: &'static str,
    file: &'a str,
    instructions: Vec<JsonEntry>,
    labels: Vec<JsonLabel>,
    trailing_bytes: usize,
    errors: Vec<json::Error>,
}

fn json_doc<'a>(prog: &Program, file: &'a str, check: bool) -> (JsonDoc<'a>, bool) {
    let p = prog.platform();
    let mut bad = false;
    let instructions = prog
        .entries()
        .map(|e| {
            let at = json::At::offset(usize::try_from(e.offset).unwrap_or(usize::MAX)).with_file(file);
            let (text, error, violations) = match (prog.disasm(&e), e.inst) {
                (Some(d), Ok(i)) => {
                    let v = if check {
                        geneu::validate::validate(p, i)
                            .err()
                            .map(|vs| json::Violation::all(&vs, &at))
                            .unwrap_or_default()
                    } else {
                        Vec::new()
                    };
                    bad |= !v.is_empty();
                    (Some(d.to_string()), None, v)
                }
                (_, Err(err)) => {
                    bad = true;
                    (None, Some(json::Error::decode(err, at)), Vec::new())
                }
                (None, Ok(_)) => (None, None, Vec::new()),
            };
            let compacted = matches!(e.piece, Piece::Compact(_));
            JsonEntry {
                offset: e.offset,
                bytes: hex_bytes(&piece_bytes(&e.piece)),
                compacted,
                native: (compacted && e.inst.is_ok()).then(|| hex_bytes(&e.word.to_bytes())),
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
            platform: json::platform(p),
            file,
            instructions,
            labels,
            trailing_bytes: prog.trailing_bytes(),
            errors: Vec::new(),
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

/// The assembly syntax `disasm` prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Syntax {
    /// Mesa's (`brw_disasm.c`).
    Mesa,
    /// Intel's IGA (`iga64 -d`).
    Iga,
}

/// Runs `disasm`.
pub fn disasm(
    p: Platform,
    path: Option<&str>,
    input: Input,
    json: bool,
    uncompact: bool,
    opts: TextOptions,
    syntax: Syntax,
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
    let mut bytes = if hex { parse_hex(&raw)? } else { raw };
    if uncompact {
        // Every instruction native, branch offsets moved with them.
        let r =
            uncompact_program(p, &bytes).map_err(|e| CliError::Input(format!("cannot uncompact the program: {e}")))?;
        bytes = r.bytes;
    }
    // The complete instructions, and the bytes of a trailing piece too
    // short for its instruction.
    let (mut count, mut trailing, mut need, mut at) = (0usize, 0usize, 0usize, 0usize);
    for (o, piece) in pieces(&bytes) {
        match piece {
            Piece::Short { need: n, have } => (trailing, need, at) = (have, n, o),
            _ => count += 1,
        }
    }
    let truncated = (trailing != 0).then(|| {
        format!(
            "truncated input: {trailing} byte(s) at offset {at:#x}, where the instruction needs {need}; \
             the {count} complete instruction(s) before it were disassembled",
        )
    });
    let mut out = std::io::stdout().lock();
    let bad = if json {
        let prog = Program::decode(p, &bytes);
        let file = display_name(path);
        let (mut v, bad) = json_doc(&prog, file, check);
        if let Some(m) = &truncated {
            v.errors
                .push(json::Error::new("truncated", m, json::At::offset(at).with_file(file)));
        }
        if !put(&mut out, &json::document("disasm", &v))? {
            return Ok(ExitCode::SUCCESS);
        }
        bad
    } else if syntax == Syntax::Iga {
        let mut buf = String::with_capacity(bytes.len() * 8);
        let sum = geneu::text::iga::write_program(&mut buf, p, &bytes, true)
            .map_err(|_| CliError::Hex("formatting failed".into()))?;
        if !put(&mut out, &buf)? {
            return Ok(ExitCode::SUCCESS);
        }
        sum.undecodable > 0
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
    if let Some(m) = truncated {
        return Err(CliError::Io(std::io::Error::new(std::io::ErrorKind::InvalidData, m)));
    }
    Ok(if bad { ExitCode::from(1) } else { ExitCode::SUCCESS })
}
