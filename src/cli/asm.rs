//! `geneu asm`: Mesa-syntax assembly to words, as `.expected`-style hex,
//! raw binary or a C array.
//!
//! Exit status: 0 on success; 1 when the text is well-formed but some
//! instruction breaks a hardware rule (checked assembly refuses it; see
//! `--unchecked`); 2 for malformed text (every error is reported as
//! `FILE:LINE:COL: error: ...`) and for unreadable input or unwritable
//! output. Nothing is written to the output unless everything assembled.

use std::fmt::Write as _;
use std::process::ExitCode;

use geneu::text::{AsmError, AsmErrorKind, AsmErrors, AsmOptions, Assembler};
use geneu::Platform;

use super::{read_input, write_output, CliError, SourceLines};

/// Output format of `asm`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum OutType {
    /// One word per line, 16 two-digit hex bytes in memory order (the
    /// corpus's `.expected` form).
    Hex,
    /// The words' raw bytes.
    Bin,
    /// A C array of 32-bit words (`uint32_t`), four per instruction.
    C,
}

/// The name shown for an input path in messages.
pub fn display_name(path: Option<&str>) -> &str {
    match path {
        None | Some("-") => "<stdin>",
        Some(p) => p,
    }
}

/// Reads the input as UTF-8 text.
pub fn read_text(path: Option<&str>) -> Result<String, CliError> {
    String::from_utf8(read_input(path)?).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        CliError::Input(format!(
            "{}: not UTF-8 text (invalid byte at offset {at:#x})",
            display_name(path)
        ))
    })
}

/// Writes one assembler error as `FILE:LINE:COL: error: MESSAGE`, followed
/// by the source line (from `src`'s lines) and a caret under the column.
pub fn write_error(out: &mut String, file: &str, src: &SourceLines<'_>, e: &AsmError) {
    let _ = writeln!(out, "{file}:{}:{}: error: {}", e.line, e.column, e.kind);
    if let Some(line) = src.get(e.line) {
        let col = (e.column as usize).saturating_sub(1);
        let pad: String = line
            .chars()
            .take(col)
            .map(|c| if c == '\t' { '\t' } else { ' ' })
            .collect();
        let _ = writeln!(out, "    {line}\n    {pad}^");
    }
}

/// Bytes of one instruction in each output form (the C form's body).
fn record_len(ty: OutType) -> usize {
    match ty {
        OutType::Hex => 48,
        OutType::Bin => 16,
        OutType::C => 52,
    }
}

/// Writes instruction `k`'s record of the output form `ty` into `out`,
/// appending it or, for a flow-control instruction given again once its
/// jumps are resolved, replacing its placeholder. Every record of a form
/// has the same length, so record `k` starts at `k` times that length.
fn put_record(out: &mut Vec<u8>, ty: OutType, k: usize, w: &[u8; 16]) {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    /// Each byte's two hex digits and a space.
    const HEX: [[u8; 4]; 256] = {
        let mut t = [[b' '; 4]; 256];
        let mut i = 0;
        while i < 256 {
            t[i][0] = DIGITS[i >> 4];
            t[i][1] = DIGITS[i & 15];
            i += 1;
        }
        t
    };
    let mut rec = [b' '; 52];
    let len = record_len(ty);
    match ty {
        OutType::Hex => {
            // `xx xx ... xx\n`: four bytes per byte written, the fourth
            // (a space) overwritten by the next.
            for (i, &b) in w.iter().enumerate() {
                rec[3 * i..3 * i + 4].copy_from_slice(&HEX[usize::from(b)]);
            }
            rec[47] = b'\n';
        }
        OutType::Bin => rec[..16].copy_from_slice(w),
        OutType::C => {
            // `    0x%08x, 0x%08x, 0x%08x, 0x%08x,\n`, DW0 first.
            for (o, d) in rec[3..51].chunks_exact_mut(12).zip(w.chunks_exact(4)) {
                o[1] = b'0';
                o[2] = b'x';
                for (i, b) in d.iter().rev().enumerate() {
                    o[3 + 2 * i] = DIGITS[usize::from(b >> 4)];
                    o[4 + 2 * i] = DIGITS[usize::from(b & 15)];
                }
                o[11] = b',';
            }
            rec[51] = b'\n';
        }
    }
    let rec = &rec[..len];
    let at = k * len;
    match out.get_mut(at..at + len) {
        Some(slot) => slot.copy_from_slice(rec),
        None => out.extend_from_slice(rec),
    }
}

/// The first lines of the C form, before the records.
fn c_header(p: Platform, count: usize) -> String {
    format!(
        "/* {count} instruction(s) for {}, assembled by geneu */\n#include <stdint.h>\n\nstatic const uint32_t program[] = {{\n",
        p.name()
    )
}

/// Bytes read from a file at a time; a piece grows when one statement
/// does not fit.
const PIECE: usize = 1 << 20;

/// Assembles a file a piece at a time (so that a large input is never
/// held whole), writing each record into `out`. `Ok(Err(errors))` when the
/// text does not assemble.
fn assemble_file(
    path: &str,
    mut a: Assembler,
    ty: OutType,
    out: &mut Vec<u8>,
) -> Result<Result<usize, AsmErrors>, CliError> {
    use std::io::Read as _;
    let io_err = |e: std::io::Error| CliError::Io(std::io::Error::new(e.kind(), format!("{path}: {e}")));
    let mut file = std::fs::File::open(path).map_err(io_err)?;
    if let Ok(m) = file.metadata() {
        // Mesa's text takes about two bytes per byte of hex.
        out.reserve(usize::try_from(m.len() / 2).unwrap_or(0));
    }
    let mut buf = vec![0u8; PIECE];
    let (mut filled, mut eof, mut base) = (0usize, false, 0usize);
    loop {
        while filled < buf.len() && !eof {
            match file.read(&mut buf[filled..]) {
                Ok(0) => eof = true,
                Ok(n) => filled += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(io_err(e)),
            }
        }
        // Cut after the last line end: never inside a character.
        let cut = if eof {
            filled
        } else {
            match buf[..filled].iter().rposition(|&b| b == b'\n') {
                Some(i) => i + 1,
                None => {
                    buf.resize(buf.len() * 2, 0);
                    continue;
                }
            }
        };
        let text = std::str::from_utf8(&buf[..cut]).map_err(|e| {
            CliError::Input(format!(
                "{path}: not UTF-8 text (invalid byte at offset {:#x})",
                base + e.valid_up_to()
            ))
        })?;
        let used = a.feed(text, eof, |k, x| put_record(out, ty, k, &x.word));
        if eof {
            break;
        }
        buf.copy_within(used..filled, 0);
        filled -= used;
        base += used;
        if filled > buf.len() / 2 {
            // One statement fills most of a piece: read more at a time.
            buf.resize(buf.len() * 2, 0);
        }
    }
    Ok(a.finish(|k, x| put_record(out, ty, k, &x.word)))
}

/// Runs `asm`.
pub fn asm(
    p: Platform,
    path: Option<&str>,
    ty: OutType,
    unchecked: bool,
    output: Option<&str>,
) -> Result<ExitCode, CliError> {
    let opts = if unchecked {
        AsmOptions::UNCHECKED
    } else {
        AsmOptions::CHECKED
    };
    let mut out = Vec::new();
    let mut src = None;
    let result = match path {
        Some(f) if f != "-" => assemble_file(f, Assembler::new(p, opts), ty, &mut out)?,
        _ => {
            let text = read_text(path)?;
            let mut a = Assembler::new(p, opts);
            out.reserve(text.len() / 2);
            a.feed(&text, true, |k, x| put_record(&mut out, ty, k, &x.word));
            let r = a.finish(|k, x| put_record(&mut out, ty, k, &x.word));
            src = Some(text);
            r
        }
    };
    let count = match result {
        Ok(n) => n,
        Err(errs) => {
            // The messages quote the source lines: read the file again.
            let src = match src {
                Some(s) => s,
                None => read_text(path)?,
            };
            let file = display_name(path);
            let lines = SourceLines::new(&src);
            let mut msg = String::new();
            for e in &errs.0 {
                write_error(&mut msg, file, &lines, e);
            }
            let rules_only = errs.0.iter().all(|e| matches!(e.kind, AsmErrorKind::Rules(_)));
            let _ = writeln!(
                msg,
                "geneu: {} error(s); nothing written{}",
                errs.0.len(),
                if rules_only {
                    " (hardware rule violations; --unchecked assembles anyway)"
                } else {
                    ""
                }
            );
            eprint!("{msg}");
            return Ok(ExitCode::from(if rules_only { 1 } else { 2 }));
        }
    };
    if ty == OutType::C {
        let mut all = c_header(p, count).into_bytes();
        all.extend_from_slice(&out);
        all.extend_from_slice(b"};\n");
        out = all;
    }
    write_output(output, &out)?;
    Ok(ExitCode::SUCCESS)
}
