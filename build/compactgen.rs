//! Compaction index tables (`tables/*.idx`): parsing, checking and code
//! generation, shared by `build.rs` and the tests of malformed tables
//! (tests/compact_tables.rs). The format is described at the top of
//! `tables/compact_gen7.idx`.
//!
//! Every table becomes a `crate::compact::IndexTable` constant holding its
//! native bit ranges, its entries and a perfect hash of the entries (found
//! here, at build time) so that compaction looks an entry up in constant
//! time. A malformed table is an error `file:line: reason`.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// A malformed index table: where and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IdxError {
    pub file: PathBuf,
    pub line: usize,
    pub msg: String,
}

impl std::fmt::Display for IdxError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}: {}", self.file.display(), self.line, self.msg)
    }
}

fn err<T>(file: &Path, line: usize, msg: impl Into<String>) -> Result<T, IdxError> {
    Err(IdxError {
        file: file.to_path_buf(),
        line,
        msg: msg.into(),
    })
}

/// One index table of a file.
#[derive(Clone, Debug)]
pub struct IdxTable {
    pub name: String,
    pub line: usize,
    pub index_bits: u32,
    /// Native `(hi, lo)` ranges, most significant first.
    pub bits: Vec<(u32, u32)>,
    /// With an immediate source, the entry bits compared (`hi`, `lo`).
    pub immediate: Option<(u32, u32)>,
    pub entries: Vec<u64>,
    pub doc: Vec<String>,
}

impl IdxTable {
    pub fn width(&self) -> u32 {
        self.bits.iter().map(|(h, l)| h - l + 1).sum()
    }
}

/// The tables of one file, in file order.
#[derive(Clone, Debug)]
pub struct IdxFile {
    pub name: String,
    pub file: PathBuf,
    pub doc: Vec<String>,
    pub tables: Vec<IdxTable>,
}

fn range(file: &Path, ln: usize, s: &str) -> Result<(u32, u32), IdxError> {
    let (h, l) = s.split_once(':').unwrap_or((s, s));
    let (Ok(h), Ok(l)) = (h.parse::<u32>(), l.parse::<u32>()) else {
        return err(file, ln, format!("`{s}` is not a bit range HI:LO"));
    };
    if h < l {
        return err(file, ln, format!("hi {h} < lo {l}"));
    }
    Ok((h, l))
}

/// Parses the text of an index-table file; `path` names it in errors.
pub fn parse_text(path: &Path, text: &str) -> Result<IdxFile, IdxError> {
    let name = path
        .file_stem()
        .and_then(|s| s.to_str())
        .map_or_else(|| err(path, 0, "file name is not UTF-8"), Ok)?
        .to_string();
    let mut f = IdxFile {
        name,
        file: path.to_path_buf(),
        doc: Vec::new(),
        tables: Vec::new(),
    };
    let mut block: Vec<String> = Vec::new();
    let mut seen_table = false;
    for (i, raw) in text.lines().enumerate() {
        let ln = i + 1;
        let (code, comment) = match raw.find('#') {
            Some(p) => (&raw[..p], Some(raw[p + 1..].trim())),
            None => (raw, None),
        };
        let words: Vec<&str> = code.split_whitespace().collect();
        let Some(&first) = words.first() else {
            match comment {
                // Comment lines gather into a block; a blank line ends it.
                Some(c) => block.push(c.to_string()),
                None if !seen_table && f.doc.is_empty() => f.doc = std::mem::take(&mut block),
                None => block.clear(),
            }
            continue;
        };
        match first {
            "table" => {
                seen_table = true;
                let (Some(n), Some(ib)) = (words.get(1), words.get(2).and_then(|w| w.parse::<u32>().ok())) else {
                    return err(path, ln, "table needs a name and an index width");
                };
                if !(1..=8).contains(&ib) {
                    return err(path, ln, "an index is 1 to 8 bits wide");
                }
                if !n
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
                {
                    return err(path, ln, format!("bad table name `{n}`"));
                }
                if f.tables.iter().any(|t| t.name == *n) {
                    return err(path, ln, format!("table {n} defined twice"));
                }
                f.tables.push(IdxTable {
                    name: n.to_string(),
                    line: ln,
                    index_bits: ib,
                    bits: Vec::new(),
                    immediate: None,
                    entries: Vec::new(),
                    doc: std::mem::take(&mut block),
                });
            }
            "bits" | "immediate" => {
                let Some(t) = f.tables.last_mut() else {
                    return err(path, ln, format!("`{first}` before any table"));
                };
                if !t.entries.is_empty() {
                    return err(path, ln, format!("`{first}` after the entries"));
                }
                let rs = words[1..]
                    .iter()
                    .map(|w| range(path, ln, w))
                    .collect::<Result<Vec<_>, _>>()?;
                if rs.is_empty() {
                    return err(path, ln, format!("`{first}` needs bit ranges"));
                }
                if first == "bits" {
                    for &(h, _) in &rs {
                        if h >= 128 {
                            return err(path, ln, format!("bit {h} outside the 128-bit native word"));
                        }
                    }
                    t.bits = rs;
                } else if let [r] = rs[..] {
                    t.immediate = Some(r);
                } else {
                    return err(path, ln, "immediate takes one range of entry bits");
                }
            }
            w if w.starts_with("0b") => {
                let Some(t) = f.tables.last_mut() else {
                    return err(path, ln, "an entry before any table");
                };
                if t.bits.is_empty() {
                    return err(path, ln, "an entry before the table's `bits`");
                }
                if words.len() != 1 {
                    return err(path, ln, "one entry per line");
                }
                let digits = &w[2..];
                if digits.len() as u32 != t.width() {
                    return err(
                        path,
                        ln,
                        format!(
                            "entry has {} bits; table {} entries have {}",
                            digits.len(),
                            t.name,
                            t.width()
                        ),
                    );
                }
                let Ok(v) = u64::from_str_radix(digits, 2) else {
                    return err(path, ln, format!("`{w}` is not a binary number"));
                };
                if let Some(k) = t.entries.iter().position(|&e| e == v) {
                    return err(
                        path,
                        ln,
                        format!("duplicate entry: the same as entry {k} of table {}", t.name),
                    );
                }
                t.entries.push(v);
            }
            w => return err(path, ln, format!("unknown line starting `{w}`")),
        }
    }
    Ok(f)
}

/// Checks a parsed file: widths, entry counts, overlaps.
pub fn check(f: &IdxFile) -> Result<(), IdxError> {
    if f.tables.is_empty() {
        return err(&f.file, 1, "no tables");
    }
    let mut owner: BTreeMap<u32, &str> = BTreeMap::new();
    for t in &f.tables {
        if t.bits.is_empty() {
            return err(&f.file, t.line, format!("table {} has no `bits`", t.name));
        }
        if t.width() > 64 {
            return err(
                &f.file,
                t.line,
                format!("table {} entries are wider than 64 bits", t.name),
            );
        }
        let n = 1usize << t.index_bits;
        if t.entries.len() != n {
            return err(
                &f.file,
                t.line,
                format!(
                    "table {} has {} entries; a {}-bit index needs {n}",
                    t.name,
                    t.entries.len(),
                    t.index_bits
                ),
            );
        }
        if let Some((h, _)) = t.immediate {
            if h >= t.width() {
                return err(
                    &f.file,
                    t.line,
                    format!("immediate bit {h} outside the {}-bit entry", t.width()),
                );
            }
        }
        for &(h, l) in &t.bits {
            for b in l..=h {
                if let Some(o) = owner.insert(b, &t.name) {
                    return err(
                        &f.file,
                        t.line,
                        format!("native bit {b} is in tables {o} and {}", t.name),
                    );
                }
            }
        }
    }
    Ok(())
}

/// A multiplier whose top `k` product bits tell the keys apart.
fn perfect_hash(keys: &[u64], k: u32) -> Option<u64> {
    // A fixed sequence (splitmix64), so the build is reproducible.
    let mut s: u64 = 0x9e37_79b9_7f4a_7c15;
    for _ in 0..1_000_000 {
        s = s.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = s;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        let m = (z ^ (z >> 31)) | 1;
        let mut seen = std::collections::BTreeSet::new();
        if keys.iter().all(|&v| seen.insert(v.wrapping_mul(m) >> (64 - k))) {
            return Some(m);
        }
    }
    None
}

/// The slots of a perfect hash: `(multiplier, shift, slots)`, a slot
/// holding the first index of its key, or 0xff.
fn slots(f: &IdxFile, t: &IdxTable, keys: &[(u64, usize)]) -> Result<(u64, u32, Vec<u8>), IdxError> {
    let k = t.index_bits + 2;
    let distinct: Vec<u64> = keys.iter().map(|&(v, _)| v).collect();
    let Some(m) = perfect_hash(&distinct, k) else {
        return err(&f.file, t.line, format!("no perfect hash for table {}", t.name));
    };
    let mut s = vec![0xffu8; 1 << k];
    for &(v, i) in keys {
        s[(v.wrapping_mul(m) >> (64 - k)) as usize] = i as u8;
    }
    Ok((m, 64 - k, s))
}

/// Writes the module generated from a checked file.
pub fn gen(f: &IdxFile, out: &mut String) -> Result<(), IdxError> {
    for d in &f.doc {
        let _ = writeln!(out, "/// {d}");
    }
    let _ = writeln!(out, "/// Generated from `tables/{}.idx`.", f.name);
    let _ = writeln!(out, "pub mod {} {{", f.name);
    let _ = writeln!(out, "    use crate::compact::{{scatter_all, Hash, IndexTable}};");
    let mut names = Vec::new();
    for t in &f.tables {
        let upper = t.name.to_uppercase();
        names.push(format!("&{upper}"));
        let keys: Vec<(u64, usize)> = t.entries.iter().copied().enumerate().map(|(i, v)| (v, i)).collect();
        let (m, sh, sl) = slots(f, t, &keys)?;
        let imm = match t.immediate {
            None => "None".to_string(),
            Some((h, l)) => {
                let mask = ((1u64 << (h - l + 1)) - 1) << l;
                let mut firsts: Vec<(u64, usize)> = Vec::new();
                for (i, &v) in t.entries.iter().enumerate() {
                    if !firsts.iter().any(|&(w, _)| w == v & mask) {
                        firsts.push((v & mask, i));
                    }
                }
                let (m2, sh2, sl2) = slots(f, t, &firsts)?;
                format!("Some(({mask:#x}, Hash {{ mul: {m2:#x}, shift: {sh2}, slots: &{sl2:?} }}))")
            }
        };
        for d in &t.doc {
            let _ = writeln!(out, "    /// {d}");
        }
        let ranges: Vec<String> = t.bits.iter().map(|(h, l)| format!("({h}, {l})")).collect();
        let entries: Vec<String> = t.entries.iter().map(|e| format!("{e:#x}")).collect();
        // The bits and entries are named once; `native` is worked out
        // from them at compile time.
        let _ = writeln!(out, "    const {upper}_BITS: &[(u32, u32)] = &[{}];", ranges.join(", "));
        let _ = writeln!(
            out,
            "    const {upper}_ENTRIES: &[u64; {}] = &[{}];",
            entries.len(),
            entries.join(", ")
        );
        let _ = writeln!(out, "    pub const {upper}: IndexTable = IndexTable {{");
        let _ = writeln!(out, "        name: {:?},", t.name);
        let _ = writeln!(
            out,
            "        source: {:?},",
            format!("tables/{}.idx:{}", f.name, t.line)
        );
        let _ = writeln!(out, "        bits: {upper}_BITS,");
        let _ = writeln!(out, "        width: {},", t.width());
        let _ = writeln!(out, "        entries: {upper}_ENTRIES,");
        let _ = writeln!(
            out,
            "        hash: Hash {{ mul: {m:#x}, shift: {sh}, slots: &{sl:?} }},"
        );
        let _ = writeln!(out, "        immediate: {imm},");
        let _ = writeln!(out, "        native: &scatter_all({upper}_BITS, {upper}_ENTRIES),");
        let _ = writeln!(out, "    }};");
    }
    let _ = writeln!(out, "    /// Every table of this file, in file order.");
    let _ = writeln!(out, "    pub const TABLES: &[&IndexTable] = &[{}];", names.join(", "));
    let _ = writeln!(out, "}}");
    Ok(())
}

/// Reads, checks and generates every `tables/*.idx` into one string.
pub fn run(dir: &Path) -> Result<String, IdxError> {
    let listing = std::fs::read_dir(dir).or_else(|e| err(dir, 0, format!("cannot list: {e}")))?;
    let mut paths: Vec<PathBuf> = listing
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "idx"))
        .collect();
    paths.sort();
    let mut out = String::from("// @generated by build.rs from tables/*.idx. Do not edit.\n\n");
    for p in &paths {
        println!("cargo:rerun-if-changed={}", p.display());
        let text = std::fs::read_to_string(p).or_else(|e| err(p, 0, format!("cannot read: {e}")))?;
        let f = parse_text(p, &text)?;
        check(&f)?;
        gen(&f, &mut out)?;
    }
    Ok(out)
}
