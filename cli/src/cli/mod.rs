//! Command implementations shared by the `geneu` binary.

pub mod asm;
mod asm_parallel;
pub mod cfg;
pub mod check;
pub mod desc;
pub mod disasm;
pub mod fields;
pub mod json;
mod record;
pub mod run;

use geneu::compact::{pieces, Piece, COMPACT_BYTES};

/// A command-line failure, printed as `geneu: <message>`.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// Hex input that is neither 16 bytes nor four dwords per word.
    #[error("bad hex input: {0}")]
    Hex(String),
    /// Reading or writing failed.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// A name or option that does not exist.
    #[error("{0}")]
    Usage(String),
    /// Input that cannot be used at all (not text where text is needed).
    #[error("{0}")]
    Input(String),
}

/// The lines of a source text, split once so that messages quoting many
/// lines do not rescan the text for each (the same lines as
/// [`str::lines`]: without their `\n` or `\r\n`).
pub struct SourceLines<'a>(Vec<&'a str>);

impl<'a> SourceLines<'a> {
    /// Splits `src` into its lines.
    pub fn new(src: &'a str) -> Self {
        SourceLines(src.lines().collect())
    }

    /// Line `line`, counted from 1 (0 is taken as 1), if the text has it.
    pub fn get(&self, line: u32) -> Option<&'a str> {
        self.0.get((line as usize).saturating_sub(1)).copied()
    }
}

/// The name shown for an input path in messages.
pub fn display_name(path: Option<&str>) -> &str {
    match path {
        None | Some("-") => "<stdin>",
        Some(p) => p,
    }
}

/// Reads the whole input: a file, or stdin for `-` or no path.
pub fn read_input(path: Option<&str>) -> Result<Vec<u8>, CliError> {
    use std::io::Read as _;
    let mut buf = Vec::new();
    match path {
        None | Some("-") => {
            std::io::stdin().lock().read_to_end(&mut buf)?;
        }
        Some(p) => {
            buf = std::fs::read(p).map_err(|e| CliError::Io(std::io::Error::new(e.kind(), format!("{p}: {e}"))))?;
        }
    }
    Ok(buf)
}

/// Writes `parts`, one after another, to the file `path`, or to stdout
/// for `-` or no path (a reader that closed the pipe early is not an
/// error).
pub fn write_output<'a>(path: Option<&str>, parts: impl IntoIterator<Item = &'a [u8]>) -> Result<(), CliError> {
    let write = |out: &mut dyn std::io::Write| -> std::io::Result<()> {
        for part in parts {
            out.write_all(part)?;
        }
        out.flush()
    };
    match path {
        None | Some("-") => match write(&mut std::io::stdout().lock()) {
            Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(CliError::Io(e)),
            _ => Ok(()),
        },
        Some(p) => std::fs::File::create(p)
            .and_then(|f| write(&mut std::io::BufWriter::new(f)))
            .map_err(|e| CliError::Io(std::io::Error::new(e.kind(), format!("{p}: {e}")))),
    }
}

/// Writes `text` to standard output. A reader that closed the pipe early
/// (`geneu … | head`) is not an error.
pub fn emit(text: &str) -> Result<(), CliError> {
    write_output(None, [text.as_bytes()])
}

/// The lines of hex text that may hold words, trimmed, each with its
/// number (from 1): blank lines and lines starting with `#` or `//` are
/// skipped.
pub fn hex_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines().enumerate().filter_map(|(n, line)| {
        let t = line.trim();
        let skipped = t.is_empty() || t.starts_with('#') || t.starts_with("//");
        (!skipped).then_some((n + 1, t))
    })
}

/// Parses instructions given as two-digit hex bytes (memory order, the
/// `.expected` form: 16 per native instruction, 8 per compacted one) or
/// as `0x`-prefixed 32-bit dwords (DW0 first: four per native
/// instruction, two per compacted one) into their bytes. Tokens may be
/// split across arguments or joined by spaces. Which instruction is which
/// size is left to the stream's reader (each one's CmptCtrl bit).
pub fn parse_bytes(args: &[String]) -> Result<Vec<u8>, CliError> {
    let tokens: Vec<&str> = args
        .iter()
        .flat_map(|a| a.split(|c: char| c.is_whitespace() || c == ','))
        .filter(|t| !t.is_empty())
        .collect();
    if tokens.is_empty() {
        return Err(CliError::Hex("no words given".into()));
    }
    if tokens.iter().all(|t| t.starts_with("0x") || t.starts_with("0X")) {
        if tokens.len() % 2 != 0 {
            return Err(CliError::Hex(format!(
                "{} dwords given; an instruction is 4 dwords (2 when compacted)",
                tokens.len()
            )));
        }
        let mut bytes = Vec::with_capacity(tokens.len() * 4);
        for t in &tokens {
            let v = u32::from_str_radix(&t[2..], 16)
                .map_err(|_| CliError::Hex(format!("`{t}` is not a 32-bit hex dword")))?;
            bytes.extend_from_slice(&v.to_le_bytes());
        }
        return Ok(bytes);
    }
    if tokens.len() % 8 != 0 {
        return Err(CliError::Hex(format!(
            "{} bytes given; an instruction is 16 bytes (8 when compacted)",
            tokens.len()
        )));
    }
    let mut bytes = Vec::with_capacity(tokens.len());
    for t in &tokens {
        if t.len() != 2 {
            return Err(CliError::Hex(format!("`{t}` is not a two-digit hex byte")));
        }
        bytes.push(u8::from_str_radix(t, 16).map_err(|_| CliError::Hex(format!("`{t}` is not a hex byte")))?);
    }
    Ok(bytes)
}

/// The instructions of a stream given on the command line: each with its
/// byte offset and piece. A trailing piece shorter than its instruction
/// (a native word cut to 8 bytes, say) is an error that says so.
pub fn parse_pieces(args: &[String]) -> Result<Vec<(usize, Piece)>, CliError> {
    let bytes = parse_bytes(args)?;
    let mut out = Vec::new();
    for (offset, piece) in pieces(&bytes) {
        if let Piece::Short { need, have } = piece {
            return Err(CliError::Hex(format!(
                "the instruction at byte {offset} needs {need} bytes (its CmptCtrl bit 29 is {}), and {have} are left",
                u8::from(need == COMPACT_BYTES)
            )));
        }
        out.push((offset, piece));
    }
    Ok(out)
}

/// The bytes of an instruction as stored (8 when compacted).
pub fn piece_bytes(piece: &Piece) -> Vec<u8> {
    match piece {
        Piece::Native(w) => w.to_bytes().to_vec(),
        Piece::Compact(c) => c.to_bytes().to_vec(),
        Piece::Short { .. } => Vec::new(),
    }
}

/// Hex text (either form [`parse_bytes`] reads, one or more instructions
/// per line; blank lines and lines starting with `#` or `//` skipped) as
/// bytes, with the line number of each line's first byte; an error comes
/// with its line number.
pub fn parse_hex_text(text: &str) -> Result<HexText, (usize, CliError)> {
    let mut h = HexText::default();
    for (n, t) in hex_lines(text) {
        let b = parse_bytes(&[t.to_string()]).map_err(|e| (n, e))?;
        h.lines.push((h.bytes.len(), n));
        h.bytes.extend_from_slice(&b);
    }
    Ok(h)
}

/// Bytes read from hex text, and where each line's bytes start.
#[derive(Debug, Default)]
pub struct HexText {
    /// The bytes of every line, in order.
    pub bytes: Vec<u8>,
    /// `(byte offset, line number)` of each line with bytes.
    lines: Vec<(usize, usize)>,
}

impl HexText {
    /// The line holding byte `offset`.
    pub fn line_of(&self, offset: usize) -> usize {
        let k = self.lines.partition_point(|&(o, _)| o <= offset);
        self.lines.get(k.saturating_sub(1)).map_or(0, |&(_, n)| n)
    }
}

/// How `check` and `disasm` read their input.
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

/// Whether a text is hex words rather than assembly or binary.
pub fn looks_like_hex(text: &str) -> bool {
    let mut any = false;
    for (_, line) in hex_lines(text) {
        if !is_hex_line(line) {
            return false;
        }
        any = true;
    }
    any
}

/// The program's bytes from the input, read as `check` reads it: raw
/// binary, hex words, or assembly text (assembled unchecked: running and
/// graphs need only the words). The outer error is the command line's;
/// the inner one the message of assembly text that does not assemble.
pub fn program_bytes(
    p: geneu::Platform,
    path: Option<&str>,
    input: Input,
) -> Result<Result<Vec<u8>, String>, CliError> {
    use std::fmt::Write as _;
    let raw = read_input(path)?;
    let text = std::str::from_utf8(&raw).ok().filter(|t| !t.contains('\0'));
    Ok(Ok(match (input, text) {
        (Input::Bin, _) | (Input::Auto, None) => raw,
        (Input::Hex, _) => disasm::parse_hex(&raw)?,
        (Input::Auto, Some(t)) if looks_like_hex(t) => disasm::parse_hex(&raw)?,
        (Input::Auto, Some(t)) => match geneu::text::assemble_listing(p, t, geneu::text::AsmOptions::UNCHECKED) {
            Ok(list) => list.iter().flat_map(|a| a.word).collect(),
            Err(errs) => {
                let (file, lines) = (display_name(path), SourceLines::new(t));
                let mut msg = String::new();
                for e in &errs.0 {
                    asm::write_error(&mut msg, file, &lines, e);
                }
                let _ = write!(msg, "geneu: {} error(s)", errs.0.len());
                return Ok(Err(msg));
            }
        },
    }))
}
