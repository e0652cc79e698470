//! `geneu asm` on several threads.
//!
//! The text is cut into one region per thread at guessed statement
//! boundaries ([`split_points`]). Each thread assembles its region on its
//! own, reading it a piece at a time, with an [`Assembler`] that starts
//! there ([`Assembler::starting_at`]). The results are joined in order
//! with [`Assembler::append`], which checks that the region before really
//! ended at the cut; where a guess was wrong, the text from there on is
//! assembled again on one thread. So the output, errors included, is
//! always what one [`Assembler`] fed the whole text gives.

use std::io::{Read, Seek as _, SeekFrom};

use geneu::text::Assembler;

use super::asm::{put_record, OutType};
use super::CliError;

/// Bytes read at a time; a piece grows when one statement does not fit.
const PIECE: usize = 1 << 20;

/// Text shorter than this is assembled on one thread.
pub const MIN_SPLIT: u64 = 256 << 10;

/// The start of the first line at or after `from` in `text` that begins
/// with a letter or `(`, as an instruction or label line does in Mesa's
/// text (its continuation lines are indented); a few lines at most.
fn statement_line_after(text: &[u8], mut from: usize) -> Option<usize> {
    for _ in 0..16 {
        let start = from + memchr::memchr(b'\n', text.get(from..)?)? + 1;
        match text.get(start) {
            Some(b) if b.is_ascii_alphabetic() || *b == b'(' => return Some(start),
            Some(_) => from = start,
            None => return None,
        }
    }
    None
}

/// Where to cut a text of `len` bytes into `parts` regions: up to
/// `parts - 1` offsets, evenly spread, each found by
/// [`statement_line_after`] in the bytes `peek(at)` gives from offset
/// `at`. Only a guess, checked when the regions are joined.
fn split_points(len: u64, parts: usize, mut peek: impl FnMut(u64) -> Option<Vec<u8>>) -> Vec<u64> {
    let mut cuts: Vec<u64> = Vec::new();
    for k in 1..parts {
        let at = (len / parts as u64 * k as u64).max(cuts.last().copied().unwrap_or(0));
        let Some(cut) = peek(at).and_then(|b| statement_line_after(&b, 0)) else {
            break;
        };
        cuts.push(at + cut as u64);
    }
    cuts
}

/// A region assembled: its assembler, its records (its first
/// instruction's first), how many of its bytes it used, or why it
/// stopped.
type Region = Result<(Assembler, Vec<u8>, u64), CliError>;

/// Assembles what `src` gives (text from byte `base` of the whole, read a
/// piece at a time) with `a`; `last`: it is the rest of the text.
/// `len` is about how many bytes there are, for the records' room.
fn assemble_stream(
    mut src: impl Read,
    name: &str,
    base: u64,
    len: u64,
    mut a: Assembler,
    last: bool,
    ty: OutType,
) -> Region {
    let io_err = |e: std::io::Error| CliError::Io(std::io::Error::new(e.kind(), format!("{name}: {e}")));
    // Mesa's text takes about two bytes per byte of hex.
    let mut records = Vec::with_capacity(usize::try_from(len / 2).unwrap_or(0));
    let (mut buf, mut used_all, mut size) = (Vec::new(), 0u64, PIECE);
    loop {
        // `buf` begins with what the last piece left.
        let want = size.saturating_sub(buf.len());
        buf.reserve(want);
        let before = buf.len();
        (&mut src).take(want as u64).read_to_end(&mut buf).map_err(io_err)?;
        let eof = buf.len() - before < want;
        // Cut after the last line end: never inside a character.
        let cut = match memchr::memrchr(b'\n', &buf) {
            _ if eof => buf.len(),
            Some(i) => i + 1,
            None => {
                size *= 2;
                continue;
            }
        };
        let text = std::str::from_utf8(buf.get(..cut).unwrap_or(&[])).map_err(|e| {
            CliError::Input(format!(
                "{name}: not UTF-8 text (invalid byte at offset {:#x})",
                base + used_all + e.valid_up_to() as u64
            ))
        })?;
        let used = a.feed(text, eof && last, |k, x| put_record(&mut records, ty, k, &x.word));
        used_all += used as u64;
        if eof {
            return Ok((a, records, used_all));
        }
        buf.drain(..used);
        if buf.len() > size / 2 {
            // One statement fills most of a piece: read more at a time.
            size *= 2;
        }
    }
}

/// The output records of consecutive instructions: those from
/// instruction `first` on.
pub struct Segment {
    pub first: usize,
    pub records: Vec<u8>,
}

/// The records of a whole text, in segments that follow each other.
#[derive(Default)]
pub struct Records(pub Vec<Segment>);

impl Records {
    fn push(&mut self, first: usize, records: Vec<u8>) {
        if !records.is_empty() {
            self.0.push(Segment { first, records });
        }
    }

    /// Writes instruction `k`'s record (see [`put_record`]) into its
    /// segment: for the flow-control instructions that
    /// [`Assembler::finish`] gives again.
    pub fn put(&mut self, ty: OutType, k: usize, w: &[u8; 16]) {
        let i = self.0.partition_point(|s| s.first <= k);
        if let Some(s) = i.checked_sub(1).and_then(|i| self.0.get_mut(i)) {
            put_record(&mut s.records, ty, k - s.first, w);
        }
    }

    /// The segments' bytes, in order.
    pub fn slices(&self) -> impl Iterator<Item = &[u8]> {
        self.0.iter().map(|s| s.records.as_slice())
    }
}

/// Assembles a text of `len` bytes, which `open(at)` reads from offset
/// `at` to its end, on up to `threads` threads, with `a` (at the text's
/// start). Gives the assembler, ready for [`Assembler::finish`], and the
/// records.
pub fn assemble<R: Read>(
    len: u64,
    open: impl Fn(u64) -> std::io::Result<R> + Sync,
    name: &str,
    a: Assembler,
    threads: usize,
    ty: OutType,
) -> Result<(Assembler, Records), CliError> {
    let peek = |at: u64| {
        let mut b = Vec::new();
        open(at).ok()?.take(64 << 10).read_to_end(&mut b).ok()?;
        Some(b)
    };
    let cuts = if threads > 1 && len >= MIN_SPLIT {
        split_points(len, threads, peek)
    } else {
        Vec::new()
    };
    let io_err = |e: std::io::Error| CliError::Io(std::io::Error::new(e.kind(), format!("{name}: {e}")));
    let (p, opts) = (a.platform(), a.options());
    // Each region from its cut to the next; the last to the end.
    let region = |start: u64, end: Option<u64>, a: Assembler| -> Region {
        let src = open(start).map_err(io_err)?;
        match end {
            Some(end) => assemble_stream(src.take(end - start), name, start, end - start, a, false, ty),
            None => assemble_stream(src, name, start, len.saturating_sub(start), a, true, ty),
        }
    };
    let (first, rest) = std::thread::scope(|s| {
        let handles: Vec<_> = cuts
            .iter()
            .enumerate()
            .map(|(k, &start)| {
                let end = cuts.get(k + 1).copied();
                let region = &region;
                // A region's lines are renumbered when it is joined.
                s.spawn(move || region(start, end, Assembler::starting_at(p, opts, start, 1)))
            })
            .collect();
        let first = region(0, cuts.first().copied(), a);
        let rest: Vec<Option<Region>> = handles.into_iter().map(|h| h.join().ok()).collect();
        (first, rest)
    });
    let mut out = Records::default();
    let (mut a, records, used) = first?;
    out.push(0, records);
    // Where the joined text has reached.
    let mut at = used;
    for (&start, r) in cuts.iter().zip(rest) {
        let Some(Ok((b, records, used))) = r else { break };
        let first = a.count();
        if at != start || a.append(b).is_err() {
            break;
        }
        out.push(first, records);
        at = start + used;
    }
    if at < len {
        // What could not be joined, to the end, on this thread.
        let first = a.count();
        let (b, records, _) = region(at, None, a)?;
        a = b;
        out.push(first, records);
    }
    Ok((a, out))
}

/// [`assemble`] for the file at `path`.
pub fn assemble_file(path: &str, a: Assembler, threads: usize, ty: OutType) -> Result<(Assembler, Records), CliError> {
    let io_err = |e: std::io::Error| CliError::Io(std::io::Error::new(e.kind(), format!("{path}: {e}")));
    let len = std::fs::metadata(path).map_err(io_err)?.len();
    let open = |at: u64| -> std::io::Result<std::fs::File> {
        let mut f = std::fs::File::open(path)?;
        f.seek(SeekFrom::Start(at))?;
        Ok(f)
    };
    assemble(len, open, path, a, threads, ty)
}

/// [`assemble`] for text already in memory.
pub fn assemble_text(
    text: &[u8],
    name: &str,
    a: Assembler,
    threads: usize,
    ty: OutType,
) -> Result<(Assembler, Records), CliError> {
    let open = |at: u64| -> std::io::Result<&[u8]> {
        Ok(text.get(usize::try_from(at).unwrap_or(usize::MAX)..).unwrap_or(&[]))
    };
    assemble(text.len() as u64, open, name, a, threads, ty)
}

/// How many threads `asm` uses: one per core, up to eight.
pub fn threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get().min(8))
}

#[cfg(test)]
mod tests {
    use super::*;
    use geneu::text::program::{Program, TextOptions};
    use geneu::text::{assemble_listing, AsmErrors, AsmOptions};
    use geneu::Platform;

    /// Every Gen8 corpus word, repeated to `n` instructions, as Mesa's
    /// text (one program: its labels are unique).
    fn big_text(n: usize) -> String {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/mesa/gen8");
        let mut files: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
        files.sort();
        let mut words = Vec::new();
        for f in files.iter().filter(|f| f.extension().is_some_and(|e| e == "expected")) {
            for line in std::fs::read_to_string(f).unwrap().lines() {
                let bytes: Vec<u8> = line
                    .split_whitespace()
                    .map(|b| u8::from_str_radix(b, 16).unwrap())
                    .collect();
                if bytes.len() == 16 {
                    words.push(bytes);
                }
            }
        }
        let bytes: Vec<u8> = words.iter().cycle().take(n).flatten().copied().collect();
        let mut text = String::new();
        Program::decode(Platform::Gen8, &bytes)
            .write_text(&mut text, &TextOptions::default())
            .unwrap();
        text
    }

    /// `geneu asm`'s records for `text` on `threads` threads, or the errors.
    fn records(text: &str, threads: usize, ty: OutType) -> Result<Vec<u8>, AsmErrors> {
        let a = Assembler::new(Platform::Gen8, AsmOptions::CHECKED);
        let (a, mut out) = assemble_text(text.as_bytes(), "text", a, threads, ty).unwrap();
        a.finish(|k, x| out.put(ty, k, &x.word))?;
        Ok(out.slices().flatten().copied().collect())
    }

    /// What one assembler gives for `text`: its words, or the errors.
    fn one_assembler(text: &str) -> Result<Vec<u8>, AsmErrors> {
        let listing = assemble_listing(Platform::Gen8, text, AsmOptions::CHECKED)?;
        Ok(listing.iter().flat_map(|x| x.word).collect())
    }

    #[test]
    fn regions_joined_are_what_one_assembler_gives() {
        let text = big_text(6000);
        assert!(text.len() as u64 > 2 * MIN_SPLIT);
        let want = one_assembler(&text).unwrap();
        for threads in 1..=5 {
            assert_eq!(
                records(&text, threads, OutType::Bin),
                Ok(want.clone()),
                "{threads} threads"
            );
        }
        // Hex records, patched across segments for the jumps.
        let mut hex = Vec::new();
        for (k, w) in want.chunks_exact(16).enumerate() {
            put_record(&mut hex, OutType::Hex, k, &w.try_into().unwrap());
        }
        assert_eq!(records(&text, 3, OutType::Hex), Ok(hex));
    }

    #[test]
    fn wrong_guesses_are_assembled_again() {
        // Continuation lines not indented: many guessed cuts fall on a
        // SEND's `MsgDesc` line, inside a statement.
        let text: String = big_text(6000).lines().flat_map(|l| [l.trim_start(), "\n"]).collect();
        assert!(text.lines().any(|l| l.starts_with("urb MsgDesc")));
        let want = one_assembler(&text).unwrap();
        for threads in 2..=6 {
            assert_eq!(
                records(&text, threads, OutType::Bin),
                Ok(want.clone()),
                "{threads} threads"
            );
        }
    }

    #[test]
    fn errors_are_what_one_assembler_reports_on_the_same_lines() {
        let mut text = String::new();
        for (n, line) in big_text(6000).lines().enumerate() {
            match n % 1500 {
                100 => text.push_str(&line.replacen('g', "q", 1)),
                700 => text.push_str("if(8) JIP: nowhere { align1 1Q };\n"),
                _ => text.push_str(line),
            }
            text.push('\n');
        }
        let want = one_assembler(&text).unwrap_err();
        assert!(want.0.len() >= 8, "{want}");
        for threads in 1..=4 {
            assert_eq!(
                records(&text, threads, OutType::Bin),
                Err(want.clone()),
                "{threads} threads"
            );
        }
    }

    #[test]
    fn small_or_unlikely_text_is_not_cut() {
        assert_eq!(statement_line_after(b"a\nb\n", 0), Some(2));
        assert_eq!(statement_line_after(b"a\n  b\n(+f0.0) c\n", 0), Some(6));
        assert_eq!(statement_line_after(b"a\n  b\n  c\n", 0), None);
        assert_eq!(statement_line_after(b"abc", 0), None);
        let text = big_text(50);
        assert!(text.len() < MIN_SPLIT as usize);
        assert_eq!(records(&text, 4, OutType::Bin), one_assembler(&text));
        // Every cut lands at a line that starts a statement.
        let text = big_text(6000);
        let cuts = split_points(text.len() as u64, 4, |at| {
            text.as_bytes().get(at as usize..).map(<[u8]>::to_vec)
        });
        assert_eq!(cuts.len(), 3);
        for c in cuts {
            assert_eq!(text.as_bytes()[c as usize - 1], b'\n');
            assert!(text.as_bytes()[c as usize].is_ascii_alphabetic());
        }
    }
}
