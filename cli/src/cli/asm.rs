//! `geneu asm`: Mesa-syntax assembly to words, as `.expected`-style hex,
//! raw binary or a C array.
//!
//! Exit status: 0 on success; 1 when the text is well-formed but some
//! instruction breaks a hardware rule (checked assembly refuses it; see
//! `--lenient` and `--unchecked`); 2 for malformed text (every error is
//! reported as `FILE:LINE:COL: error: ...`) and for unreadable input or
//! unwritable output. Nothing is written to the output unless everything
//! assembled. With `--lenient`, an instruction that breaks only
//! conservative rules is assembled and reported as `FILE:LINE:COL:
//! warning: ...`.

use std::fmt::Write as _;
use std::process::ExitCode;

use geneu::compact::{compact_instructions, compact_program, pieces, Piece, ProgramError, Rewritten};
use geneu::text::{AsmError, AsmErrorKind, AsmErrors, AsmOptions, Assembled, Assembler};
use geneu::{Controls, Instruction, Platform, Strictness};

use super::asm_parallel;
use super::disasm::Syntax;
pub use super::display_name;
use super::json::{self, hex_bytes};
use super::record::format_record;
pub use super::record::OutType;
use super::{piece_bytes, read_input, write_output, CliError, SourceLines};

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
    write_error_at(out, file, src, (e.line, e.column), &e.kind);
}

/// [`write_error`] of any message at a line and column.
fn write_error_at(out: &mut String, file: &str, src: &SourceLines<'_>, at: (u32, u32), msg: &dyn std::fmt::Display) {
    write_message_at(out, "error", file, src, at, msg);
}

/// Writes the warnings of a lenient assembly, one per instruction that
/// breaks conservative rules: `FILE:LINE:COL: warning: [rule] ...`.
fn write_warnings(out: &mut String, file: &str, src: &SourceLines<'_>, list: &[Assembled]) -> usize {
    let mut n = 0;
    for a in list.iter().filter(|a| !a.warnings.0.is_empty()) {
        let msg = format!("assembled despite conservative rules: {}", a.warnings);
        write_message_at(out, "warning", file, src, (a.line, a.column), &msg);
        n += 1;
    }
    n
}

/// A message of a `kind` (`error`, `warning`) at a line and column, with
/// the source line and a caret.
fn write_message_at(
    out: &mut String,
    kind: &str,
    file: &str,
    src: &SourceLines<'_>,
    at: (u32, u32),
    msg: &dyn std::fmt::Display,
) {
    let _ = writeln!(out, "{file}:{}:{}: {kind}: {msg}", at.0, at.1);
    if let Some(line) = src.get(at.0) {
        let col = (at.1 as usize).saturating_sub(1);
        let pad: String = line
            .chars()
            .take(col)
            .map(|c| if c == '\t' { '\t' } else { ' ' })
            .collect();
        let _ = writeln!(out, "    {line}\n    {pad}^");
    }
}

/// The first lines of the C form, before the records.
fn c_header(p: Platform, count: usize) -> String {
    format!(
        "/* {count} instruction(s) for {}, assembled by geneu */\n#include <stdint.h>\n\nstatic const uint32_t program[] = {{\n",
        p.name()
    )
}

/// The assembler's options for a strictness.
fn options(strictness: Strictness) -> AsmOptions {
    match strictness {
        Strictness::Lenient => AsmOptions::LENIENT,
        Strictness::Unchecked => AsmOptions::UNCHECKED,
        _ => AsmOptions::CHECKED,
    }
}

/// Runs `asm`.
pub fn asm(
    p: Platform,
    path: Option<&str>,
    ty: OutType,
    strictness: Strictness,
    compact: Option<Compaction>,
    output: Option<&str>,
    syntax: Option<Syntax>,
) -> Result<ExitCode, CliError> {
    let opts = options(strictness);
    // IGA's syntax (asked for, or detected from the text's start) is
    // assembled whole, on one thread.
    let iga = match syntax {
        Some(s) => s == Syntax::Iga,
        None => peek_iga(path)?,
    };
    // The warnings of a lenient assembly are reported at their lines: the
    // text is assembled whole, on one thread (the regions of the
    // parallel path keep lines only for errors).
    if iga || compact == Some(Compaction::Marked) || strictness == Strictness::Lenient {
        return asm_listing(p, path, ty, opts, compact, output, iga);
    }
    let compact = compact.is_some();
    let mut src = None;
    let a = Assembler::new(p, opts);
    let threads = asm_parallel::threads();
    // Compaction works on the native words: assembled as binary first.
    let native_ty = if compact { OutType::Bin } else { ty };
    let (a, mut out) = match path {
        Some(f) if f != "-" => asm_parallel::assemble_file(f, a, threads, native_ty)?,
        _ => {
            let text = read_text(path)?;
            let r = asm_parallel::assemble_text(text.as_bytes(), display_name(path), a, threads, native_ty)?;
            src = Some(text);
            r
        }
    };
    let result = a.finish(|k, x| out.put(native_ty, k, &x.word));
    let count = match result {
        Ok(n) => n,
        Err(errs) => {
            // The messages quote the source lines: read the file again.
            let src = match src {
                Some(s) => s,
                None => read_text(path)?,
            };
            return Ok(report_errors(path, &src, &errs));
        }
    };
    if compact {
        let native: Vec<u8> = out.slices().flatten().copied().collect();
        return write_compacted(p, ty, output, compact_program(p, &native));
    }
    let (header, footer) = frame(p, ty, count);
    let parts = std::iter::once(header.as_bytes())
        .chain(out.slices())
        .chain(std::iter::once(footer));
    write_output(output, parts)?;
    Ok(ExitCode::SUCCESS)
}

/// Whether the input (a regular file's first 64 KiB; standard input and
/// pipes are not looked at, and are read as Mesa's unless `--syntax
/// iga`) is IGA's syntax. A file that cannot be read is left to the
/// reading that reports it.
fn peek_iga(path: Option<&str>) -> Result<bool, CliError> {
    use std::io::Read;
    let Some(f) = path.filter(|f| *f != "-") else {
        return Ok(false);
    };
    if !std::fs::metadata(f).is_ok_and(|m| m.is_file()) {
        return Ok(false);
    }
    let mut buf = Vec::with_capacity(1 << 16);
    let read = std::fs::File::open(f).and_then(|h| h.take(1 << 16).read_to_end(&mut buf));
    Ok(read.is_ok() && geneu::text::iga::looks_like_iga(&String::from_utf8_lossy(&buf)))
}

/// Runs `convert`: assembles the text (either syntax, detected) and
/// prints the words in the other syntax (`to`), annotated where the
/// target syntax does not show a field, so that the bytes are kept.
pub fn convert(p: Platform, path: Option<&str>, to: Syntax, output: Option<&str>) -> Result<ExitCode, CliError> {
    let src = read_text(path)?;
    let list = if geneu::text::iga::looks_like_iga(&src) {
        geneu::text::iga::assemble_iga(p, &src, AsmOptions::UNCHECKED)
    } else {
        geneu::text::assemble_listing(p, &src, AsmOptions::UNCHECKED)
    };
    let list = match list {
        Ok(l) => l,
        Err(errs) => return Ok(report_errors(path, &src, &errs)),
    };
    let bytes: Vec<u8> = list.iter().flat_map(|a| a.word).collect();
    let mut text = String::with_capacity(bytes.len() * 8);
    match to {
        Syntax::Iga => {
            geneu::text::iga::write_program(&mut text, p, &bytes, true)
                .map_err(|_| CliError::Hex("formatting failed".into()))?;
        }
        Syntax::Mesa => {
            let mut t = geneu::text::program::ProgramText::new(p, &bytes, geneu::text::program::TextOptions::default());
            while t
                .write_next(&mut text, 1 << 12)
                .map_err(|_| CliError::Hex("formatting failed".into()))?
            {}
        }
    }
    write_output(output, [text.as_bytes()])?;
    Ok(ExitCode::SUCCESS)
}

/// Which instructions `asm --compact` compacts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Compaction {
    /// Every instruction the platform can express in 8 bytes.
    All,
    /// Exactly those the text marks `compacted` (as `disasm` prints a
    /// compacted one), so that a disassembled program assembles back to
    /// its bytes; a marked one with no 8-byte form is an error.
    Marked,
}

/// The C form's first lines and last line around `count` records (empty
/// for the other forms).
fn frame(p: Platform, ty: OutType, count: usize) -> (String, &'static [u8]) {
    if ty == OutType::C {
        (c_header(p, count), b"};\n")
    } else {
        (String::new(), b"")
    }
}

/// Prints every assembler error with its source line; the exit status.
fn report_errors(path: Option<&str>, src: &str, errs: &AsmErrors) -> ExitCode {
    let file = display_name(path);
    let lines = SourceLines::new(src);
    let mut msg = String::new();
    for e in &errs.0 {
        write_error(&mut msg, file, &lines, e);
    }
    let rules_only = errs.0.iter().all(|e| matches!(e.kind, AsmErrorKind::Rules(_)));
    let documented = errs
        .0
        .iter()
        .any(|e| matches!(&e.kind, AsmErrorKind::Rules(v) if v.any_documented()));
    let _ = writeln!(
        msg,
        "geneu: {} error(s); nothing written{}",
        errs.0.len(),
        match (rules_only, documented) {
            (true, false) => " (conservative rule violations; --lenient assembles them with warnings)",
            (true, true) => " (hardware rule violations; --unchecked assembles anyway)",
            _ => "",
        }
    );
    eprint!("{msg}");
    ExitCode::from(if rules_only { 1 } else { 2 })
}

/// Writes a compacted program's records (8 or 16 bytes each) and reports
/// the compaction on stderr, or reports why it could not be made.
fn write_compacted(
    p: Platform,
    ty: OutType,
    output: Option<&str>,
    r: Result<Rewritten, ProgramError>,
) -> Result<ExitCode, CliError> {
    let r = match r {
        Ok(r) => r,
        Err(e) => {
            eprintln!("geneu: cannot compact: {e}; nothing written");
            return Ok(ExitCode::from(2));
        }
    };
    let (header, footer) = frame(p, ty, r.instructions);
    let mut body = Vec::with_capacity(r.bytes.len() * 3);
    for (_, piece) in pieces(&r.bytes) {
        let (rec, len) = format_record(ty, &piece_bytes(&piece));
        body.extend_from_slice(rec.get(..len).unwrap_or(&[]));
    }
    write_output(output, [header.as_bytes(), &body, footer])?;
    eprintln!("{}", compaction_report(&r));
    Ok(ExitCode::SUCCESS)
}

/// The compaction an assembly gets: the one asked for; else, for IGA's
/// syntax, IGA's own default (`iga64 -a` compacts exactly the
/// instructions marked `{Compacted}`, and refuses a marked one that has no
/// compacted form; it compacts unmarked ones only with `-Xauto-compact`),
/// so that the bytes are those `iga64` gives; else none.
fn compaction(asked: Option<Compaction>, iga: bool, list: &[Assembled]) -> Option<Compaction> {
    asked.or_else(|| {
        let marked = list.iter().any(|a| a.inst.controls.contains(Controls::COMPACTED));
        (iga && marked).then_some(Compaction::Marked)
    })
}

/// Compacts an assembled listing's native words (branch offsets moved):
/// every instruction that compacts, or exactly those marked `compacted`.
fn compact_listing(p: Platform, list: &[Assembled], how: Compaction) -> Result<Rewritten, ProgramError> {
    let native: Vec<u8> = list.iter().flat_map(|a| a.word).collect();
    match how {
        Compaction::All => compact_program(p, &native),
        Compaction::Marked => {
            // The marks, and each compacted word's subregister index
            // (`[subreg_index=..]`), ride on the instructions.
            let insts: Vec<Instruction> = list.iter().map(|a| a.inst).collect();
            compact_instructions(p, &native, &insts)
        }
    }
}

/// The line and column of the instruction a marked compaction refused
/// (0, 0 for any other error): its offset is the native one, 16 bytes each.
fn marked_at(list: &[Assembled], e: &ProgramError) -> (u32, u32) {
    match e {
        ProgramError::NotCompactable { offset, .. } => list.get(offset / 16).map_or((0, 0), |a| (a.line, a.column)),
        _ => (0, 0),
    }
}

/// `asm --compact=marked` and `asm --lenient`: the whole text assembled
/// in one piece (the marks and the warnings ride on the instructions),
/// warnings reported, then compacted as asked.
fn asm_listing(
    p: Platform,
    path: Option<&str>,
    ty: OutType,
    opts: AsmOptions,
    compact: Option<Compaction>,
    output: Option<&str>,
    iga: bool,
) -> Result<ExitCode, CliError> {
    let src = read_text(path)?;
    let list = if iga {
        geneu::text::iga::assemble_iga(p, &src, opts)
    } else {
        geneu::text::assemble_listing(p, &src, opts)
    };
    let list = match list {
        Ok(list) => list,
        Err(errs) => return Ok(report_errors(path, &src, &errs)),
    };
    let mut msg = String::new();
    let warned = write_warnings(&mut msg, display_name(path), &SourceLines::new(&src), &list);
    if warned > 0 {
        let _ = writeln!(msg, "geneu: {warned} warning(s)");
        eprint!("{msg}");
    }
    let Some(how) = compaction(compact, iga, &list) else {
        let (header, footer) = frame(p, ty, list.len());
        let mut body = Vec::with_capacity(list.len() * 48);
        for a in &list {
            let (rec, len) = format_record(ty, &a.word);
            body.extend_from_slice(rec.get(..len).unwrap_or(&[]));
        }
        write_output(output, [header.as_bytes(), &body, footer])?;
        return Ok(ExitCode::SUCCESS);
    };
    match compact_listing(p, &list, how) {
        Err(e @ ProgramError::NotCompactable { .. }) => {
            let mut msg = String::new();
            write_error_at(
                &mut msg,
                display_name(path),
                &SourceLines::new(&src),
                marked_at(&list, &e),
                &e,
            );
            eprintln!("{msg}geneu: 1 error(s); nothing written");
            Ok(ExitCode::from(2))
        }
        r => write_compacted(p, ty, output, r),
    }
}

/// The line `asm --compact` prints on stderr.
fn compaction_report(r: &Rewritten) -> String {
    format!(
        "geneu: compacted {} of {} instruction(s), {} bytes saved",
        r.compacted, r.instructions, r.saved_bytes
    )
}

/// One instruction of `asm --json`: where its text is, its byte offset,
/// its bytes (8 when compacted) and whether it was compacted.
#[derive(serde::Serialize)]
struct AsmJsonInst {
    line: u32,
    column: u32,
    offset: usize,
    bytes: String,
    compacted: bool,
    /// The conservative rules it breaks (`--lenient`; empty otherwise).
    warnings: Vec<json::Violation>,
}

/// One error of `asm --json`, with the rules a hardware-rule error breaks
/// (empty for the others).
#[derive(serde::Serialize)]
struct AsmJsonError {
    #[serde(flatten)]
    error: json::Error,
    violations: Vec<json::Violation>,
}

/// What `--compact` did: instructions written, how many compacted, and
/// the bytes saved.
#[derive(serde::Serialize)]
struct CompactionJson {
    instructions: usize,
    compacted: usize,
    saved_bytes: i64,
}

/// The document `asm --json` prints; `compaction` is `null` without
/// `--compact`.
#[derive(serde::Serialize)]
struct AsmJson<'a> {
    platform: &'static str,
    file: &'a str,
    instructions: Vec<AsmJsonInst>,
    errors: Vec<AsmJsonError>,
    compaction: Option<CompactionJson>,
}

/// Runs `asm --json`: one JSON document, on success every instruction
/// with its line, column, byte offset and bytes, otherwise every error
/// with its line and column (and, for hardware-rule violations, each
/// rule). Exit status as for `asm`.
pub fn asm_json(
    p: Platform,
    path: Option<&str>,
    strictness: Strictness,
    compact: Option<Compaction>,
    output: Option<&str>,
    syntax: Option<Syntax>,
) -> Result<ExitCode, CliError> {
    let opts = options(strictness);
    let file = display_name(path);
    let src = read_text(path)?;
    // The whole text is read here: IGA's syntax is detected from it
    // (standard input included).
    let iga = match syntax {
        Some(s) => s == Syntax::Iga,
        None => geneu::text::iga::looks_like_iga(&src),
    };
    let result = if iga {
        geneu::text::iga::assemble_iga(p, &src, opts)
    } else {
        geneu::text::assemble_listing(p, &src, opts)
    };
    let mut doc = AsmJson {
        platform: json::platform(p),
        file,
        instructions: Vec::new(),
        errors: Vec::new(),
        compaction: None,
    };
    let compact = result.as_ref().map_or(compact, |list| compaction(compact, iga, list));
    let code = match (&result, compact) {
        (Ok(list), Some(how)) => match compact_listing(p, list, how) {
            Ok(r) => {
                doc.instructions = list
                    .iter()
                    .zip(pieces(&r.bytes))
                    .map(|(a, (offset, piece))| AsmJsonInst {
                        line: a.line,
                        column: a.column,
                        offset,
                        bytes: hex_bytes(&piece_bytes(&piece)),
                        compacted: matches!(piece, Piece::Compact(_)),
                        warnings: json::Violation::all(&a.warnings, &json::At::line_column(a.line, a.column)),
                    })
                    .collect();
                eprintln!("{}", compaction_report(&r));
                doc.compaction = Some(CompactionJson {
                    instructions: r.instructions,
                    compacted: r.compacted,
                    saved_bytes: r.saved_bytes,
                });
                ExitCode::SUCCESS
            }
            Err(e) => {
                let at = match marked_at(list, &e) {
                    (0, _) => json::At::new(),
                    (line, column) => json::At::line_column(line, column),
                };
                doc.errors.push(AsmJsonError {
                    error: json::Error::program(&e, at.with_file(file)),
                    violations: Vec::new(),
                });
                ExitCode::from(2)
            }
        },
        (Ok(list), None) => {
            doc.instructions = list
                .iter()
                .enumerate()
                .map(|(k, a)| AsmJsonInst {
                    line: a.line,
                    column: a.column,
                    offset: k * 16,
                    bytes: hex_bytes(&a.word),
                    compacted: false,
                    warnings: json::Violation::all(&a.warnings, &json::At::line_column(a.line, a.column)),
                })
                .collect();
            ExitCode::SUCCESS
        }
        (Err(errs), _) => {
            let rules_only = errs.0.iter().all(|e| matches!(e.kind, AsmErrorKind::Rules(_)));
            doc.errors = errs
                .0
                .iter()
                .map(|e| {
                    let error = json::Error::asm(e, file);
                    let violations = match &e.kind {
                        AsmErrorKind::Rules(vs) => {
                            json::Violation::all(vs, &json::At::line_column(e.line, e.column).with_file(file))
                        }
                        _ => Vec::new(),
                    };
                    AsmJsonError { error, violations }
                })
                .collect();
            ExitCode::from(if rules_only { 1 } else { 2 })
        }
    };
    write_output(output, [json::document("asm", &doc).as_bytes()])?;
    Ok(code)
}
