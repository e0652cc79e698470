//! `geneu check`: validates every instruction of an assembly, hex or
//! binary input against the hardware rules and reports each violation
//! with where it is and the rule's stable identifier.
//!
//! Each violation names its rule's basis (documented or conservative).
//! Exit status: 0 when no instruction breaks a documented rule (with
//! `--strict`, nor a conservative one); 1 when some instruction does (or,
//! in binary/hex input, some word does not decode); 2
//! for unreadable or malformed input (assembly syntax errors, bad hex,
//! binary input whose last instruction is cut short; the complete
//! instructions before the cut are still checked). Compacted (8-byte)
//! instructions are validated through their native form and reported at
//! their own byte offset, marked `compacted`.

use std::fmt::Write as _;
use std::process::ExitCode;

use geneu::compact::{pieces, Piece};
use geneu::text::{assemble_listing, AsmOptions};
use geneu::validate::{find_rule, list_rules as rules, validate, Basis, Violations};
use geneu::Platform;
use serde::Serialize;

use super::asm::{display_name, write_error};
use super::json;
use super::{looks_like_hex, parse_hex_text, read_input, write_output, CliError, Input, SourceLines};

/// Which rules `check` reports: `--rule` (only these) and `--skip`.
#[derive(Clone, Debug, Default)]
pub struct RuleFilter {
    only: Vec<String>,
    skip: Vec<String>,
}

impl RuleFilter {
    /// A filter of known rule ids; an unknown id is an error that says
    /// where the ids are listed.
    pub fn new(only: Vec<String>, skip: Vec<String>) -> Result<Self, CliError> {
        for id in only.iter().chain(&skip) {
            if find_rule(id).is_none() {
                return Err(CliError::Usage(format!(
                    "unknown rule `{id}`: expected a rule id as `geneu check --list-rules` prints (e.g. {})",
                    rules().next().map_or("", |r| r.id)
                )));
            }
        }
        Ok(RuleFilter { only, skip })
    }

    /// Whether violations of rule `id` are reported.
    pub fn keeps(&self, id: &str) -> bool {
        (self.only.is_empty() || self.only.iter().any(|r| r == id)) && !self.skip.iter().any(|r| r == id)
    }
}

/// The options of one `check` run.
#[derive(Clone, Debug, Default)]
pub struct CheckOptions {
    /// Print one JSON document instead of lines.
    pub json: bool,
    /// Conservative violations fail the check too.
    pub strict: bool,
    /// The rules reported.
    pub filter: RuleFilter,
    /// The syntax of assembly text: Mesa's, IGA's, or (`None`) detected.
    pub syntax: Option<super::disasm::Syntax>,
}

/// Report accumulated for the whole input.
struct Report<'o> {
    opts: &'o CheckOptions,
    out: String,
    /// One JSON record per violation (or undecodable word), with `--json`.
    records: Vec<Record>,
    violations: usize,
    /// Violations of conservative rules, and errors that fail the check
    /// (documented violations and undecodable words).
    conservative: usize,
    failing: usize,
    bad_insts: usize,
    insts: usize,
}

/// Where an instruction is: a source position, or a word of hex or binary
/// input.
#[derive(Clone, Copy)]
enum Place<'a> {
    Text {
        file: &'a str,
        line: u32,
        column: u32,
    },
    Hex {
        file: &'a str,
        line: usize,
        word: usize,
        offset: usize,
        compacted: bool,
    },
    Bin {
        file: &'a str,
        word: usize,
        offset: usize,
        compacted: bool,
    },
}

impl Place<'_> {
    /// The place as a JSON location: file and line and column, or file,
    /// (line,) word and offset.
    fn at(&self) -> json::At {
        match *self {
            Place::Text { file, line, column } => json::At::line_column(line, column).with_file(file),
            Place::Hex {
                file,
                line,
                word,
                offset,
                ..
            } => json::At::offset(offset).with_file(file).with_line(line).with_word(word),
            Place::Bin { file, word, offset, .. } => json::At::offset(offset).with_file(file).with_word(word),
        }
    }

    /// Whether the instruction there is a compacted one.
    fn compacted(&self) -> bool {
        match *self {
            Place::Text { .. } => false,
            Place::Hex { compacted, .. } | Place::Bin { compacted, .. } => compacted,
        }
    }
}

/// One record of `check --json`: a violation with the instruction's text,
/// or a word that does not decode; both say whether the instruction is
/// compacted.
#[derive(Serialize)]
#[serde(untagged)]
enum Record {
    Violation {
        #[serde(flatten)]
        violation: json::Violation,
        instruction: String,
        compacted: bool,
    },
    Undecodable {
        #[serde(flatten)]
        error: json::Error,
        compacted: bool,
    },
}

/// The document `check --json` prints: the counts, every violation, and
/// the errors that stopped the check (unreadable or malformed input).
#[derive(Serialize)]
struct Doc<'a> {
    platform: &'static str,
    file: &'a str,
    instructions: usize,
    bad_instructions: usize,
    conservative: usize,
    violations: &'a [Record],
    errors: &'a [json::Error],
}

/// Input that cannot be checked (as a whole, or from some point on): the
/// text report, and each error for the JSON one.
struct Fail {
    text: String,
    errors: Vec<json::Error>,
}

impl Fail {
    /// One error: `text` for the text report (after `FILE: error: `
    /// there), `kind` and `at` for the JSON one.
    fn one(file: &str, kind: &'static str, text: String, at: json::At) -> Self {
        Fail {
            text: format!("{file}: error: {text}"),
            errors: vec![json::Error::new(kind, text, at.with_file(file))],
        }
    }
}

impl std::fmt::Display for Place<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Place::Text { file, line, column } => write!(f, "{file}:{line}:{column}"),
            Place::Hex {
                file,
                line,
                word,
                compacted,
                ..
            } => write!(
                f,
                "{file}:{line}: word {word}{}",
                if compacted { " (compacted)" } else { "" }
            ),
            Place::Bin {
                file,
                word,
                offset,
                compacted,
            } => write!(
                f,
                "{file}: word {word} (offset {offset:#x}{})",
                if compacted { ", compacted" } else { "" }
            ),
        }
    }
}

impl<'o> Report<'o> {
    fn new(opts: &'o CheckOptions) -> Self {
        Report {
            opts,
            out: String::new(),
            records: Vec::new(),
            violations: 0,
            conservative: 0,
            failing: 0,
            bad_insts: 0,
            insts: 0,
        }
    }

    /// Records the violations of one instruction (those the filter keeps),
    /// each at `at`; `context` is the instruction's text.
    fn violations(&mut self, at: &Place<'o>, vs: &Violations, context: &str) {
        let kept: Vec<_> = vs.0.iter().filter(|v| self.opts.filter.keeps(v.rule)).collect();
        if kept.is_empty() {
            return;
        }
        self.bad_insts += 1;
        for v in kept {
            self.violations += 1;
            if v.basis == Basis::Documented {
                self.failing += 1;
            } else {
                self.conservative += 1;
            }
            if self.opts.json {
                self.records.push(Record::Violation {
                    violation: json::Violation::new(v, at.at()),
                    instruction: context.to_string(),
                    compacted: at.compacted(),
                });
            } else {
                let _ = writeln!(
                    self.out,
                    "{at}: violation [{}] {}: {} ({}: {})",
                    v.rule, v.operand, v.message, v.basis, v.source
                );
            }
        }
        if !self.opts.json {
            let _ = writeln!(self.out, "    {context}");
        }
    }

    /// Records a word that does not decode.
    fn undecodable(&mut self, at: &Place<'o>, e: &geneu::DecodeError) {
        self.bad_insts += 1;
        self.violations += 1;
        self.failing += 1;
        if self.opts.json {
            self.records.push(Record::Undecodable {
                error: json::Error::decode(e, at.at()),
                compacted: at.compacted(),
            });
        } else {
            let _ = writeln!(self.out, "{at}: error [undecodable] {e}");
        }
    }
}

fn check_text<'a>(p: Platform, file: &'a str, src: &str, rep: &mut Report<'a>) -> Result<(), Fail> {
    let iga = match rep.opts.syntax {
        Some(s) => s == super::disasm::Syntax::Iga,
        None => geneu::text::iga::looks_like_iga(src),
    };
    let listing = if iga {
        geneu::text::iga::assemble_iga(p, src, AsmOptions::UNCHECKED)
    } else {
        assemble_listing(p, src, AsmOptions::UNCHECKED)
    };
    let listing = listing.map_err(|errs| {
        let lines = SourceLines::new(src);
        let mut msg = String::new();
        for e in &errs.0 {
            write_error(&mut msg, file, &lines, e);
        }
        let _ = write!(msg, "geneu: {} error(s); nothing checked", errs.0.len());
        Fail {
            text: msg,
            errors: errs.0.iter().map(|e| json::Error::asm(e, file)).collect(),
        }
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
            let at = Place::Text {
                file,
                line: a.line,
                column: a.column,
            };
            rep.violations(&at, &vs, line);
        }
    }
    Ok(())
}

/// Checks one instruction, native or compacted (validated through its
/// uncompacted form); `at` says where it is.
fn check_piece<'a>(p: Platform, piece: &Piece, at: &Place<'a>, rep: &mut Report<'a>) {
    rep.insts += 1;
    match piece.decode(p) {
        Ok(inst) => {
            if let Err(vs) = validate(p, &inst) {
                let text = inst.display(p).to_string();
                let first = text.lines().next().unwrap_or("");
                rep.violations(at, &vs, first);
            }
        }
        Err(e) => rep.undecodable(at, &e),
    }
}

/// Checks every instruction of a stream of 8- and 16-byte instructions;
/// `place` says where the instruction of index `k` at byte `offset` is.
/// A trailing piece too short for its instruction is an error.
fn check_stream<'a>(
    p: Platform,
    file: &str,
    bytes: &[u8],
    rep: &mut Report<'a>,
    place: impl Fn(usize, usize, bool) -> Place<'a>,
) -> Result<(), Fail> {
    for (k, (offset, piece)) in pieces(bytes).enumerate() {
        if let Piece::Short { need, have } = piece {
            return Err(Fail::one(
                file,
                "truncated",
                format!(
                    "truncated input: {have} byte(s) at offset {offset:#x}, where the instruction \
                     needs {need}; the {k} complete instruction(s) before it were checked"
                ),
                json::At::offset(offset).with_word(k),
            ));
        }
        let compacted = matches!(piece, Piece::Compact(_));
        check_piece(p, &piece, &place(k, offset, compacted), rep);
    }
    Ok(())
}

fn check_hex<'a>(p: Platform, file: &'a str, text: &str, rep: &mut Report<'a>) -> Result<(), Fail> {
    let hex = parse_hex_text(text).map_err(|(n, e)| Fail {
        text: format!("{file}:{n}: error: {e}"),
        errors: vec![json::Error::cli(&e, json::At::new().with_file(file).with_line(n))],
    })?;
    check_stream(p, file, &hex.bytes, rep, |word, offset, compacted| Place::Hex {
        file,
        line: hex.line_of(offset),
        word,
        offset,
        compacted,
    })
}

fn check_bin<'a>(p: Platform, file: &'a str, bytes: &[u8], rep: &mut Report<'a>) -> Result<(), Fail> {
    check_stream(p, file, bytes, rep, |word, offset, compacted| Place::Bin {
        file,
        word,
        offset,
        compacted,
    })
}

/// Runs `check`.
pub fn check(p: Platform, path: Option<&str>, input: Input, opts: &CheckOptions) -> Result<ExitCode, CliError> {
    let file = display_name(path);
    let bytes = read_input(path)?;
    let text = std::str::from_utf8(&bytes).ok().filter(|t| !t.contains('\0'));
    let mut rep = Report::new(opts);
    let r = match (input, text) {
        (Input::Bin, _) | (Input::Auto, None) => check_bin(p, file, &bytes, &mut rep),
        (Input::Hex, Some(t)) => check_hex(p, file, t, &mut rep),
        (Input::Hex, None) => {
            // The first byte that is not text: invalid UTF-8, or a NUL.
            let at = std::str::from_utf8(&bytes).map_or_else(|e| e.valid_up_to(), |t| t.find('\0').unwrap_or(0));
            Err(Fail::one(
                file,
                "not_text",
                "--hex expects hex text, and the input is not text (--bin reads raw binary)".into(),
                json::At::offset(at),
            ))
        }
        (Input::Auto, Some(t)) if looks_like_hex(t) => check_hex(p, file, t, &mut rep),
        (Input::Auto, Some(t)) => check_text(p, file, t, &mut rep),
    };
    if opts.json {
        let doc = Doc {
            platform: json::platform(p),
            file,
            instructions: rep.insts,
            bad_instructions: rep.bad_insts,
            conservative: rep.conservative,
            violations: &rep.records,
            errors: r.as_ref().err().map_or(&[], |f| &f.errors),
        };
        write_output(None, [json::document("check", &doc).as_bytes()])?;
    } else {
        write_output(None, [rep.out.as_bytes()])?;
    }
    if let Err(fail) = r {
        if !opts.json {
            eprintln!("{}", fail.text);
        }
        return Ok(ExitCode::from(2));
    }
    if rep.violations == 0 {
        return Ok(ExitCode::SUCCESS);
    }
    let fails = rep.failing > 0 || opts.strict;
    if !opts.json {
        eprintln!(
            "geneu: {} violation(s) ({} conservative) in {} of {} instruction(s)",
            rep.violations, rep.conservative, rep.bad_insts, rep.insts
        );
        if !fails {
            eprintln!("geneu: only conservative rules are broken; --strict fails on them");
        }
    }
    Ok(if fails { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

/// Runs `check --list-rules`: every rule with its id, basis, phase,
/// family and citation, in the order they run.
pub fn list_rules(json: bool) -> Result<ExitCode, CliError> {
    let mut out = String::new();
    if json {
        /// A rule of `check --list-rules --json` (the registry's entry
        /// without its check function).
        #[derive(Serialize)]
        struct RuleJson {
            id: &'static str,
            basis: &'static str,
            phase: &'static str,
            category: &'static str,
            source: &'static str,
        }
        /// The document `check --list-rules --json` prints.
        #[derive(Serialize)]
        struct RulesJson {
            rules: Vec<RuleJson>,
        }
        let v = RulesJson {
            rules: rules()
                .map(|r| RuleJson {
                    id: r.id,
                    basis: r.basis.name(),
                    phase: r.phase.name(),
                    category: r.category.name(),
                    source: r.source,
                })
                .collect(),
        };
        out = json::document("check --list-rules", &v);
    } else {
        for r in rules() {
            let _ = writeln!(
                out,
                "{:<36} {:<12} {:<12} {:<16} {}",
                r.id,
                r.basis.name(),
                r.phase.name(),
                r.category.name(),
                r.source
            );
        }
    }
    write_output(None, [out.as_bytes()])?;
    Ok(ExitCode::SUCCESS)
}
