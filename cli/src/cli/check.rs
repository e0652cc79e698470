//! `geneu check`: validates every instruction of an assembly, hex or
//! binary input against the hardware rules and reports each violation
//! with where it is and the rule's stable identifier.
//!
//! Each violation names its rule's basis (documented or conservative).
//! Exit status: 0 when no instruction breaks a documented rule (with
//! `--strict`, nor a conservative one); 1 when some instruction does (or,
//! in binary/hex input, some word does not decode); 2
//! for unreadable or malformed input (assembly syntax errors, bad hex,
//! binary input that is not a multiple of 16 bytes; the complete words
//! before the cut are still checked).

use std::fmt::Write as _;
use std::process::ExitCode;

use geneu::text::{assemble_listing, AsmOptions};
use geneu::validate::{validate, Basis, Violations};
use geneu::{decode, Platform, Word};

use super::asm::{display_name, write_error};
use super::{hex_lines, parse_words, read_input, write_output, CliError, SourceLines};

/// How `check` reads its input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Input {
    /// Assembly text, unless the text is hex words; binary if not text.
    Auto,
    /// Hex words (either form `fields` accepts), one or more per line.
    Hex,
    /// Raw binary.
    Bin,
}

/// Whether a line holds only hex word tokens (two-digit bytes or `0x`
/// dwords).
fn is_hex_line(line: &str) -> bool {
    line.split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
        .all(|t| {
            let digits = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X"));
            match digits {
                Some(d) => !d.is_empty() && d.len() <= 8 && d.bytes().all(|b| b.is_ascii_hexdigit()),
                None => t.len() == 2 && t.bytes().all(|b| b.is_ascii_hexdigit()),
            }
        })
}

/// Whether a text is hex words rather than assembly.
fn looks_like_hex(text: &str) -> bool {
    let mut any = false;
    for (_, line) in hex_lines(text) {
        if !is_hex_line(line) {
            return false;
        }
        any = true;
    }
    any
}

/// Report accumulated for the whole input.
struct Report {
    out: String,
    violations: usize,
    /// Violations of conservative rules, and errors that fail the check
    /// (documented violations and undecodable words).
    conservative: usize,
    failing: usize,
    bad_insts: usize,
    insts: usize,
}

impl Report {
    fn new() -> Self {
        Report {
            out: String::new(),
            violations: 0,
            conservative: 0,
            failing: 0,
            bad_insts: 0,
            insts: 0,
        }
    }

    /// Records the violations of one instruction, each prefixed by `at`.
    fn violations(&mut self, at: &str, vs: &Violations, context: &str) {
        self.bad_insts += 1;
        for v in &vs.0 {
            self.violations += 1;
            if v.basis == Basis::Documented {
                self.failing += 1;
            } else {
                self.conservative += 1;
            }
            let _ = writeln!(
                self.out,
                "{at}: violation [{}] {}: {} ({}: {})",
                v.rule, v.operand, v.message, v.basis, v.source
            );
        }
        let _ = writeln!(self.out, "    {context}");
    }
}

fn check_text(p: Platform, file: &str, src: &str, rep: &mut Report) -> Result<(), String> {
    let listing = assemble_listing(p, src, AsmOptions::UNCHECKED).map_err(|errs| {
        let lines = SourceLines::new(src);
        let mut msg = String::new();
        for e in &errs.0 {
            write_error(&mut msg, file, &lines, e);
        }
        let _ = write!(msg, "geneu: {} error(s); nothing checked", errs.0.len());
        msg
    })?;
    // Split into lines only once some instruction needs quoting.
    let mut lines = None;
    for a in &listing {
        rep.insts += 1;
        if let Err(vs) = validate(p, &a.inst) {
            let line = lines
                .get_or_insert_with(|| SourceLines::new(src))
                .get(a.line)
                .unwrap_or("")
                .trim();
            rep.violations(&format!("{file}:{}:{}", a.line, a.column), &vs, line);
        }
    }
    Ok(())
}

/// Checks one word; `at` says where it is.
fn check_word(p: Platform, w: Word, at: &str, rep: &mut Report) {
    rep.insts += 1;
    match decode(p, &w.to_bytes()) {
        Ok(inst) => {
            if let Err(vs) = validate(p, &inst) {
                let text = inst.display(p).to_string();
                let first = text.lines().next().unwrap_or("");
                rep.violations(at, &vs, first);
            }
        }
        Err(e) => {
            rep.bad_insts += 1;
            rep.violations += 1;
            rep.failing += 1;
            let _ = writeln!(rep.out, "{at}: error [undecodable] {e}");
        }
    }
}

fn check_hex(p: Platform, file: &str, text: &str, rep: &mut Report) -> Result<(), String> {
    let mut index = 0usize;
    for (n, line) in hex_lines(text) {
        let words = parse_words(&[line.to_string()]).map_err(|e| format!("{file}:{n}: error: {e}"))?;
        for w in words {
            check_word(p, w, &format!("{file}:{n}: word {index}"), rep);
            index += 1;
        }
    }
    Ok(())
}

fn check_bin(p: Platform, file: &str, bytes: &[u8], rep: &mut Report) -> Result<(), String> {
    let rest = bytes.len() % 16;
    for (k, w) in Word::all_from_bytes(bytes).enumerate() {
        check_word(p, w, &format!("{file}: word {k} (offset {:#x})", k * 16), rep);
    }
    if rest != 0 {
        return Err(format!(
            "{file}: error: truncated input: {rest} byte(s) after the last complete 16-byte word at offset {:#x}; \
             the {} complete word(s) before it were checked",
            bytes.len() - rest,
            bytes.len() / 16
        ));
    }
    Ok(())
}

/// Runs `check`; with `strict`, conservative violations fail it too.
pub fn check(p: Platform, path: Option<&str>, input: Input, strict: bool) -> Result<ExitCode, CliError> {
    let file = display_name(path);
    let bytes = read_input(path)?;
    let text = std::str::from_utf8(&bytes).ok().filter(|t| !t.contains('\0'));
    let mut rep = Report::new();
    let r = match (input, text) {
        (Input::Bin, _) | (Input::Auto, None) => check_bin(p, file, &bytes, &mut rep),
        (Input::Hex, Some(t)) => check_hex(p, file, t, &mut rep),
        (Input::Hex, None) => Err(format!("{file}: error: --hex input is not text")),
        (Input::Auto, Some(t)) if looks_like_hex(t) => check_hex(p, file, t, &mut rep),
        (Input::Auto, Some(t)) => check_text(p, file, t, &mut rep),
    };
    write_output(None, [rep.out.as_bytes()])?;
    if let Err(msg) = r {
        eprintln!("{msg}");
        return Ok(ExitCode::from(2));
    }
    if rep.violations == 0 {
        return Ok(ExitCode::SUCCESS);
    }
    eprintln!(
        "geneu: {} violation(s) ({} conservative) in {} of {} instruction(s)",
        rep.violations, rep.conservative, rep.bad_insts, rep.insts
    );
    if rep.failing > 0 || strict {
        Ok(ExitCode::from(1))
    } else {
        eprintln!("geneu: only conservative rules are broken; --strict fails on them");
        Ok(ExitCode::SUCCESS)
    }
}
