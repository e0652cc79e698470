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

use geneu::text::{assemble_words_with, AsmError, AsmErrorKind, AsmOptions};
use geneu::Platform;

use super::{read_input, write_output, CliError};

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
/// by the source line and a caret under the column.
pub fn write_error(out: &mut String, file: &str, src: &str, e: &AsmError) {
    let _ = writeln!(out, "{file}:{}:{}: error: {}", e.line, e.column, e.kind);
    if let Some(line) = src.lines().nth((e.line as usize).saturating_sub(1)) {
        let col = (e.column as usize).saturating_sub(1);
        let pad: String = line
            .chars()
            .take(col)
            .map(|c| if c == '\t' { '\t' } else { ' ' })
            .collect();
        let _ = writeln!(out, "    {line}\n    {pad}^");
    }
}

/// `.expected`-form hex: one word per line.
pub fn hex_text(words: &[[u8; 16]]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(words.len() * 48);
    for w in words {
        for (k, b) in w.iter().enumerate() {
            if k > 0 {
                s.push(' ');
            }
            s.push(char::from(DIGITS[usize::from(b >> 4)]));
            s.push(char::from(DIGITS[usize::from(b & 15)]));
        }
        s.push('\n');
    }
    s
}

/// A C array of the words' dwords (DW0 first), one instruction per line.
pub fn c_text(p: Platform, words: &[[u8; 16]]) -> String {
    let mut s = String::with_capacity(words.len() * 56 + 128);
    let _ = writeln!(
        s,
        "/* {} instruction(s) for {}, assembled by geneu */",
        words.len(),
        p.name()
    );
    s.push_str("#include <stdint.h>\n\nstatic const uint32_t program[] = {\n");
    for w in words {
        s.push_str("   ");
        for d in w.chunks_exact(4) {
            let v = u32::from_le_bytes([d[0], d[1], d[2], d[3]]);
            let _ = write!(s, " 0x{v:08x},");
        }
        s.push('\n');
    }
    s.push_str("};\n");
    s
}

/// Runs `asm`.
pub fn asm(
    p: Platform,
    path: Option<&str>,
    ty: OutType,
    unchecked: bool,
    output: Option<&str>,
) -> Result<ExitCode, CliError> {
    let src = read_text(path)?;
    let opts = if unchecked {
        AsmOptions::UNCHECKED
    } else {
        AsmOptions::CHECKED
    };
    let words = match assemble_words_with(p, &src, opts) {
        Ok(w) => w,
        Err(errs) => {
            let file = display_name(path);
            let mut msg = String::new();
            for e in &errs.0 {
                write_error(&mut msg, file, &src, e);
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
    match ty {
        OutType::Hex => write_output(output, hex_text(&words).as_bytes())?,
        OutType::C => write_output(output, c_text(p, &words).as_bytes())?,
        OutType::Bin => write_output(output, &words.concat())?,
    }
    Ok(ExitCode::SUCCESS)
}
