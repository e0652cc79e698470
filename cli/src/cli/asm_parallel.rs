//! `geneu asm` on several threads.
//!
//! The text is cut into one region per thread at guessed statement
//! boundaries ([`split_points`]). Each thread assembles its region on its
//! own, reading it a piece at a time, with an [`Assembler`] that starts
//! there ([`Assembler::starting_at`]). The results are joined in order
//! with [`Assembler::append`], which checks that the region before really
//! ended at the cut; where a guess was wrong, the region after it is
//! assembled again on this thread, from where the text before it ended,
//! and joining goes on after it. So the output, errors included, is what
//! one [`Assembler`] fed the whole text gives (`geneu::check`'s
//! `assemble_in_parts` is the same join on one thread, checked against the
//! whole text by the tests and the `text_roundtrip` fuzz target).

use std::io::{Read, Seek as _, SeekFrom};

use geneu::text::Assembler;

use super::record::{put_record, OutType};
use super::CliError;

/// Bytes read at a time; a piece grows when one statement does not fit.
const PIECE: usize = 1 << 20;

/// The most room reserved for a region's records before they are written.
const MAX_ROOM: usize = 64 << 20;

/// Text shorter than this is assembled on one thread.
pub const MIN_SPLIT: u64 = 256 << 10;

/// The start of the first line after the one byte `from` of `text` is on
/// that begins with a letter or `(`, as an instruction or label line does
/// in Mesa's text (its continuation lines are indented), among the next
/// sixteen lines.
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
        // Where no such line is found, the region before grows.
        if let Some(cut) = peek(at).and_then(|b| statement_line_after(&b, 0)) {
            cuts.push(at + cut as u64);
        }
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
    // Mesa's text takes about two bytes per byte of hex; `len` may be
    // wrong (a file that changed), so the room is bounded.
    let mut records = Vec::with_capacity(usize::try_from(len / 2).unwrap_or(0).min(MAX_ROOM));
    let (mut buf, mut used_all, mut size) = (Vec::new(), 0u64, PIECE);
    loop {
        // `buf` begins with what the last piece left.
        let want = size.saturating_sub(buf.len());
        buf.reserve(want);
        let before = buf.len();
        (&mut src)
            .take(want as u64)
            .read_to_end(&mut buf)
            .map_err(|e| io_error(name, e))?;
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

/// Assembles a text of `len` bytes (as far as is known: the last region
/// is read to the end, however long), which `open(at)` reads from offset
/// `at` on, on up to `threads` threads, with `a` (at the text's start).
/// Gives the assembler, ready for [`Assembler::finish`], and the records.
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
    let (p, opts) = (a.platform(), a.options());
    // Region `k` runs from its start to the next cut; the last to the end.
    let end_of = |k: usize| cuts.get(k).copied();
    let region = |start: u64, end: Option<u64>, a: Assembler| -> Region {
        let src = open(start).map_err(|e| io_error(name, e))?;
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
                let region = &region;
                // A region's lines are renumbered when it is joined.
                let job = move || region(start, end_of(k + 1), Assembler::starting_at(p, opts, start, 1));
                // Without a thread, the region is assembled when joined.
                std::thread::Builder::new().spawn_scoped(s, job).ok()
            })
            .collect();
        let first = region(0, end_of(0), a);
        let rest: Vec<Option<Region>> = handles.into_iter().map(|h| h.and_then(|h| h.join().ok())).collect();
        (first, rest)
    });
    let mut out = Records::default();
    let (mut a, records, used) = first?;
    out.push(0, records);
    // Where the joined text has reached.
    let mut at = used;
    for (k, (&start, r)) in cuts.iter().zip(rest).enumerate() {
        let first = a.count();
        if let Some(Ok((b, records, used))) = r {
            if at == start && a.append(b).is_ok() {
                out.push(first, records);
                at = start + used;
                continue;
            }
        }
        // The region before ended inside a statement (or this one could
        // not be read): this region is assembled again, from where the
        // text before it ended, here.
        let (b, records, used) = region(at, end_of(k + 1), a)?;
        a = b;
        out.push(first, records);
        at += used;
    }
    Ok((a, out))
}

/// An I/O error, with the name of the input.
fn io_error(name: &str, e: std::io::Error) -> CliError {
    CliError::Io(std::io::Error::new(e.kind(), format!("{name}: {e}")))
}

/// [`assemble`] for the file at `path`. Only a regular file is cut into
/// regions (a pipe cannot be read from the middle).
pub fn assemble_file(path: &str, a: Assembler, threads: usize, ty: OutType) -> Result<(Assembler, Records), CliError> {
    let meta = std::fs::metadata(path).map_err(|e| io_error(path, e))?;
    let (len, threads) = if meta.is_file() { (meta.len(), threads) } else { (0, 1) };
    let open = |at: u64| -> std::io::Result<std::fs::File> {
        let mut f = std::fs::File::open(path)?;
        if at > 0 {
            f.seek(SeekFrom::Start(at))?;
        }
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

/// Where the test data is (the library's `tests/corpus/mod.rs`).
#[cfg(test)]
#[path = "../../../tests/corpus/mod.rs"]
mod corpus;

#[cfg(test)]
mod tests {
    use super::super::disasm::parse_hex;
    use super::corpus;
    use super::*;
    use geneu::text::program::{Program, TextOptions};
    use geneu::text::{assemble_listing, AsmErrors, AsmOptions};
    use geneu::Platform;

    /// Every Gen8 corpus word (without the corpus, after a note, the
    /// bundled example kernel's), repeated to `n` instructions, as Mesa's
    /// text (one program: its labels are unique).
    fn big_text(n: usize) -> String {
        static WORDS: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();
        let words = WORDS.get_or_init(|| {
            let Some(dir) = corpus::mesa_else("tested on the bundled example kernel instead") else {
                return corpus::example_words().concat();
            };
            let mut files: Vec<_> = std::fs::read_dir(dir.join("gen8"))
                .unwrap()
                .map(|e| e.unwrap().path())
                .collect();
            files.sort();
            files
                .iter()
                .filter(|f| f.extension().is_some_and(|e| e == "expected"))
                .flat_map(|f| parse_hex(&std::fs::read(f).unwrap()).unwrap())
                .collect()
        });
        let bytes: Vec<u8> = words.iter().copied().cycle().take(16 * n).collect();
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

    /// The cuts `asm` makes in `text` for `threads` threads, and how many
    /// of the regions after them join (`geneu::check::assemble_in_parts`,
    /// the same join on one thread).
    fn cuts_and_joins(text: &str, threads: usize) -> (Vec<usize>, usize) {
        let cuts: Vec<usize> = split_points(text.len() as u64, threads, |at| {
            text.as_bytes().get(at as usize..).map(<[u8]>::to_vec)
        })
        .into_iter()
        .map(|c| c as usize)
        .collect();
        let (_, joined) = geneu::check::assemble_in_parts(Platform::Gen8, text, &cuts, AsmOptions::CHECKED, false);
        (cuts, joined)
    }

    /// `asm`'s records for `text` on each of `threads`, all `want`.
    fn same_on_threads(text: &str, threads: impl IntoIterator<Item = usize>, want: &Result<Vec<u8>, AsmErrors>) {
        for n in threads {
            assert_eq!(&records(text, n, OutType::Bin), want, "{n} threads");
        }
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
        same_on_threads(&text, 1..=5, &Ok(want.clone()));
        // Hex records, patched across segments for the jumps.
        let mut hex = Vec::new();
        for (k, w) in want.chunks_exact(16).enumerate() {
            put_record(&mut hex, OutType::Hex, k, &w.try_into().unwrap());
        }
        assert_eq!(records(&text, 3, OutType::Hex), Ok(hex));
    }

    #[test]
    fn mesa_text_is_cut_where_statements_begin() {
        let text = big_text(6000);
        for threads in 2..=5 {
            let (cuts, joined) = cuts_and_joins(&text, threads);
            assert_eq!((cuts.len(), joined), (threads - 1, threads - 1), "{threads} threads");
        }
    }

    #[test]
    fn wrong_guesses_are_assembled_again() {
        // Continuation lines not indented: many guessed cuts fall on a
        // SEND's `MsgDesc` line, inside a statement.
        let text: String = big_text(6000).lines().flat_map(|l| [l.trim_start(), "\n"]).collect();
        assert!(text.lines().any(|l| l.starts_with("urb MsgDesc")));
        let wrong: usize = (2..=8)
            .map(|threads| {
                let (cuts, joined) = cuts_and_joins(&text, threads);
                cuts.len() - joined
            })
            .sum();
        assert!(wrong > 0, "some guess is wrong");
        same_on_threads(&text, 2..=8, &one_assembler(&text));
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
        let want = one_assembler(&text);
        assert!(want.as_ref().is_err_and(|e| e.0.len() >= 8), "{want:?}");
        same_on_threads(&text, 1..=4, &want);
    }

    #[test]
    fn a_comment_over_a_cut_is_read_whole() {
        // A block comment over the middle, of lines that look like
        // statements: the cut falls in it, the first region ends inside
        // it, and the second is assembled again from the comment's line.
        let text = big_text(6000);
        let open = text[..text.len() / 2 - 2000].rfind('\n').unwrap() + 1;
        let filler = "filler(8) g1<1>F g2<8,8,1>F { align1 1Q };\n".repeat(100);
        let commented = format!("{}/*\n{filler}*/\n{}", &text[..open], &text[open..]);
        let (cuts, joined) = cuts_and_joins(&commented, 2);
        assert_eq!((cuts.len(), joined), (1, 0));
        let want = one_assembler(&commented).unwrap();
        assert_eq!(want, one_assembler(&text).unwrap());
        assert_eq!(records(&commented, 2, OutType::Bin), Ok(want));
    }

    #[test]
    fn bad_utf8_in_a_later_region_is_reported_at_its_offset() {
        let mut text = big_text(6000).into_bytes();
        let at = text.len() * 3 / 4;
        text[at] = 0xff;
        let a = Assembler::new(Platform::Gen8, AsmOptions::CHECKED);
        let err = assemble_text(&text, "t.asm", a, 3, OutType::Bin)
            .map(|_| ())
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            format!("t.asm: not UTF-8 text (invalid byte at offset {at:#x})")
        );
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
