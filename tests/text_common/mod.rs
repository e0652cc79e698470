//! Shared helpers of the text and property tests: reading the Mesa
//! corpus, running a property (proptest) within its time budget, splitting
//! text into records, and the one documented normalisation of
//! flow-control records (see [`Compare`]).
//!
//! Without the corpus (see `tests/corpus/mod.rs`), [`corpus_files`] and
//! [`corpus_words`] give the bundled example kernel instead, after a note,
//! so the properties drawn from them still run.
#![allow(dead_code)]

pub(crate) use crate::corpus;

use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use std::cell::RefCell;
use std::time::{Duration, Instant};

use arbitrary::{Result, Unstructured};
use geneu::{Platform, Word};
use proptest::collection::vec;
use proptest::prelude::any;
use proptest::test_runner::{Config, TestRunner};

/// Time budget of each property, in milliseconds, unless the
/// `PROPERTY_BUDGET_MS` environment variable sets another.
pub const BUDGET_MS: u64 = 2_000;

/// Runs a property for the time budget: proptest draws byte strings (up
/// to 4 KiB), and the property reads them through `arbitrary`'s
/// `Unstructured`, exactly as the fuzz targets read their input. The
/// cases run in rounds of 64 until the budget is spent; a failure is
/// shrunk by proptest and reported with its minimal bytes.
pub fn check(prop: impl FnMut(&mut Unstructured<'_>) -> Result<()>) {
    let budget = std::env::var("PROPERTY_BUDGET_MS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(BUDGET_MS);
    let budget = Duration::from_millis(budget);
    let prop = RefCell::new(prop);
    let bytes = vec(any::<u8>(), 0..4096);
    let start = Instant::now();
    loop {
        let config = Config {
            cases: 64,
            failure_persistence: None,
            ..Config::default()
        };
        let outcome = TestRunner::new(config).run(&bytes, |data| {
            // Running out of bytes ends a case early; that is no failure.
            let _ = (prop.borrow_mut())(&mut Unstructured::new(&data));
            Ok(())
        });
        if let Err(e) = outcome {
            panic!("property failed: {e}");
        }
        if start.elapsed() >= budget {
            break;
        }
    }
}

/// A line starting in column 0 and its indented continuation lines, or a
/// label line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Item {
    Label(String),
    Record(Vec<String>),
}

/// The records and labels of a text, blank lines dropped.
pub fn items(text: &str) -> Vec<Item> {
    let mut out: Vec<Item> = Vec::new();
    for line in text.lines() {
        if line.trim().is_empty() {
            continue;
        }
        if line.starts_with(' ') {
            if let Some(Item::Record(r)) = out.last_mut() {
                r.push(line.to_string());
                continue;
            }
        }
        let t = line.trim_end();
        if let Some(l) = t.strip_suffix(':').filter(|l| l.starts_with("LABEL")) {
            out.push(Item::Label(l.to_string()));
        } else {
            out.push(Item::Record(vec![line.to_string()]));
        }
    }
    out
}

/// Where the corpus is looked for (see `tests/corpus/mod.rs`).
pub fn corpus_dir() -> PathBuf {
    corpus::dir()
}

pub fn platform(dir: &str) -> Platform {
    match dir {
        "gen7" => Platform::Gen7,
        "gen7.5" => Platform::Gen75,
        _ => Platform::Gen8,
    }
}

/// The words of an `.expected` file.
pub fn read_words(path: &Path) -> Vec<Word> {
    fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let b: Vec<u8> = l
                .split_whitespace()
                .map(|t| u8::from_str_radix(t, 16).unwrap())
                .collect();
            Word::from_bytes(b.try_into().unwrap())
        })
        .collect()
}

/// Every (platform dir, `.asm` path) pair of the corpus, sorted; without
/// the corpus, after a note, the bundled example kernel alone (`gen8`,
/// `examples/kernel.asm`). [`expected_of`] names each one's words.
#[track_caller]
pub fn corpus_files() -> Vec<(String, PathBuf)> {
    let Some(root) = corpus::mesa_else("tested on the bundled example kernel instead") else {
        return vec![("gen8".to_string(), corpus::example_asm())];
    };
    let v = corpus_files_in(&root);
    assert!(
        v.len() > 100,
        "corpus too small at {}: {} files",
        root.display(),
        v.len()
    );
    v
}

/// The words file of a [`corpus_files`] entry: the corpus's `.expected`
/// beside the `.asm`, or the bundled example's `examples/kernel.hex`.
pub fn expected_of(asm: &Path) -> PathBuf {
    if asm == corpus::example_asm() {
        corpus::example_hex()
    } else {
        asm.with_extension("expected")
    }
}

/// Every (platform dir, `.asm` file) pair of a corpus of the same layout
/// under `root` (missing platform directories are skipped).
pub fn corpus_files_in(root: &Path) -> Vec<(String, PathBuf)> {
    let mut v = Vec::new();
    for dir in ["gen7", "gen7.5", "gen8"] {
        let Ok(rd) = fs::read_dir(root.join(dir)) else {
            continue;
        };
        let mut files: Vec<PathBuf> = rd
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "asm"))
            .collect();
        files.sort();
        for f in files {
            v.push((dir.to_string(), f));
        }
    }
    v
}

/// Every Mesa corpus word, with the platform it belongs to, in
/// [`corpus_files`] order (read once); without the corpus, the bundled
/// example kernel's words.
pub fn corpus_words() -> &'static [(Platform, [u8; 16])] {
    static WORDS: OnceLock<Vec<(Platform, [u8; 16])>> = OnceLock::new();
    WORDS.get_or_init(|| {
        let files = corpus_files();
        let mut out = Vec::new();
        for (dir, asm) in &files {
            let p = platform(dir);
            let words = read_words(&expected_of(asm));
            out.extend(words.into_iter().map(|w| (p, w.to_bytes())));
        }
        let least = if files.len() > 1 { 300 } else { 1 };
        assert!(out.len() >= least, "corpus too small: {} words", out.len());
        out
    })
}

/// A corpus word (on its platform, or Cherryview for Gen8 words) with up
/// to `max_flips` random bits flipped: mostly decodable, and close to what
/// compilers emit.
pub fn mutated_corpus_word(u: &mut Unstructured<'_>, max_flips: u32) -> Result<(Platform, [u8; 16])> {
    let &(mut p, mut w) = u.choose(corpus_words())?;
    if p == Platform::Gen8 && u.arbitrary()? {
        p = Platform::Chv;
    }
    for _ in 0..u.int_in_range(0..=max_flips)? {
        let bit = u.int_in_range(0..=127u32)?;
        w[(bit / 8) as usize] ^= 1 << (bit % 8);
    }
    Ok((p, w))
}

pub fn squash(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Whether a whitespace-separated token is a label name.
pub fn is_label(t: &str) -> bool {
    t.strip_prefix("LABEL")
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// Comparison of our text with the corpus's, one file at a time.
///
/// The one documented exception: the flow-control records (those with
/// `JIP:`) and the label numbering were edited by hand in the corpus and
/// follow no single rule (the column of `UIP:` and `{` varies between files
/// for identical lengths, and label numbers follow neither address order
/// nor Mesa's creation order in every file). For those records only,
/// whitespace runs are compared as one space, and label names are matched
/// up to a consistent renaming (a bijection between our numbers and the
/// corpus's, which also has to hold for the `LABELn:` lines). Everything
/// else — label placement, opcode, operands, options — must match.
#[derive(Default)]
pub struct Compare {
    ours_to_theirs: HashMap<String, String>,
    theirs_to_ours: HashMap<String, String>,
}

impl Compare {
    /// Rewrites our text (whitespace squashed) with the corpus's label
    /// names, extending the renaming; `Err` if the renaming would stop
    /// being a bijection or the label counts differ.
    pub fn rename(&mut self, ours: &str, theirs: &str) -> Result<String, String> {
        let a: Vec<&str> = ours.split_whitespace().filter(|t| is_label(t)).collect();
        let b: Vec<&str> = theirs.split_whitespace().filter(|t| is_label(t)).collect();
        if a.len() != b.len() {
            return Err(format!("label count differs: {a:?} vs {b:?}"));
        }
        for (o, t) in a.iter().zip(&b) {
            let x = self
                .ours_to_theirs
                .entry(o.to_string())
                .or_insert_with(|| t.to_string())
                .clone();
            let y = self
                .theirs_to_ours
                .entry(t.to_string())
                .or_insert_with(|| o.to_string())
                .clone();
            if x != *t || y != *o {
                return Err(format!("inconsistent label renaming: ours {o} ~ corpus {t}"));
            }
        }
        Ok(ours
            .split_whitespace()
            .map(|t| {
                if is_label(t) {
                    self.ours_to_theirs[t].as_str()
                } else {
                    t
                }
            })
            .collect::<Vec<_>>()
            .join(" "))
    }

    /// Compares the first line of two records (flow control normalised as
    /// documented) or two label lines; `Err` describes the difference.
    pub fn first_lines(&mut self, ours: &Item, theirs: &Item) -> Result<(), String> {
        match (ours, theirs) {
            (Item::Label(x), Item::Label(y)) => self.rename(x, y).map(|_| ()),
            (Item::Record(x), Item::Record(y)) => {
                let (a, b) = (&x[0], &y[0]);
                let ok = if b.contains("JIP:") {
                    self.rename(&squash(a), &squash(b))? == squash(b)
                } else {
                    a == b
                };
                if ok {
                    Ok(())
                } else {
                    Err(format!("\n  ours:   {a:?}\n  corpus: {b:?}"))
                }
            }
            _ => Err(format!("ours {ours:?}, corpus {theirs:?}")),
        }
    }
}
