//! Command implementations shared by the `geneu` binary.

pub mod asm;
mod asm_parallel;
pub mod check;
pub mod desc;
pub mod disasm;
pub mod fields;

use geneu::Word;

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

/// Parses words given as 16 two-digit hex bytes each (memory order, the
/// `.expected` form) or as four `0x`-prefixed 32-bit dwords each (DW0
/// first). Tokens may be split across arguments or joined by spaces.
pub fn parse_words(args: &[String]) -> Result<Vec<Word>, CliError> {
    let tokens: Vec<&str> = args
        .iter()
        .flat_map(|a| a.split(|c: char| c.is_whitespace() || c == ','))
        .filter(|t| !t.is_empty())
        .collect();
    if tokens.is_empty() {
        return Err(CliError::Hex("no words given".into()));
    }
    if tokens.iter().all(|t| t.starts_with("0x") || t.starts_with("0X")) {
        if tokens.len() % 4 != 0 {
            return Err(CliError::Hex(format!(
                "{} dwords given; a word is 4 dwords",
                tokens.len()
            )));
        }
        let mut d = Vec::with_capacity(tokens.len());
        for t in &tokens {
            let v = u32::from_str_radix(&t[2..], 16)
                .map_err(|_| CliError::Hex(format!("`{t}` is not a 32-bit hex dword")))?;
            d.push(v);
        }
        return Ok(d
            .chunks_exact(4)
            .map(|c| Word::from_dwords([c[0], c[1], c[2], c[3]]))
            .collect());
    }
    if tokens.len() % 16 != 0 {
        return Err(CliError::Hex(format!(
            "{} bytes given; a word is 16 bytes",
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
    Ok(Word::all_from_bytes(&bytes).collect())
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
