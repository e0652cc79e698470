//! Table parsing, checking and code generation, shared by `build.rs` and
//! the tests of malformed tables (tests/tables.rs).
//!
//! Every table becomes a module with, per field, a getter, a checked
//! setter that refuses a value that does not fit, unchecked setters for
//! values already proven to fit, and a `FieldInfo` constant. A malformed
//! table is an error `file:line: reason`.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

#[derive(Clone, Debug)]
pub struct Field {
    pub name: String,
    pub frags: Vec<(u32, u32)>,
    pub aliases: Vec<String>,
    pub line: usize,
}

#[derive(Clone, Debug)]
pub struct Table {
    pub name: String,
    pub file: PathBuf,
    pub width: u32,
    pub fields: Vec<Field>,
    pub zero: Vec<((u32, u32), usize)>,
    pub extends: Option<(String, usize)>,
    pub drops: Vec<(String, usize)>,
    pub doc: Vec<String>,
}

/// A malformed table: where and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableError {
    pub file: PathBuf,
    pub line: usize,
    pub msg: String,
}

impl std::fmt::Display for TableError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}: {}", self.file.display(), self.line, self.msg)
    }
}

fn err<T>(file: &Path, line: usize, msg: &str) -> Result<T, TableError> {
    Err(TableError {
        file: file.to_path_buf(),
        line,
        msg: msg.to_string(),
    })
}

/// Reads and parses one table file: one table, or one per name of its
/// `@tables` line (see [`parse_file`]).
pub fn parse_table(path: &Path) -> Result<Vec<Table>, TableError> {
    let text = std::fs::read_to_string(path).or_else(|e| err(path, 0, &format!("cannot read: {e}")))?;
    parse_file(path, &text)
}

/// Parses a table file. Without `@tables` it is one table, named after the
/// file. With `@tables a b ...` it holds one table per name, side by side:
/// each field or `zero` line gives, after the field name, one column per
/// table separated by `|` (the usual `hi lo ... [alias ...]`, or `-` where
/// that table has no such field), so a field's position on every platform
/// reads on one line. Other lines (`@width`, comments, `drop`) apply to
/// every table. Errors name the file and line.
pub fn parse_file(path: &Path, text: &str) -> Result<Vec<Table>, TableError> {
    let mut names: Option<(Vec<String>, usize)> = None;
    for (i, raw) in text.lines().enumerate() {
        let words: Vec<&str> = code_of(raw).split_whitespace().collect();
        if words.first() == Some(&"@tables") {
            if names.is_some() {
                return err(path, i + 1, "a second @tables line");
            }
            if words.len() < 2 {
                return err(path, i + 1, "@tables needs table names");
            }
            names = Some((words[1..].iter().map(|w| w.to_string()).collect(), i + 1));
        }
    }
    let Some((names, _)) = names else {
        return Ok(vec![parse_text(path, text)?]);
    };
    let mut tables = Vec::new();
    for (col, name) in names.iter().enumerate() {
        // This table's own text, line for line (so errors keep their line).
        let mut own = String::new();
        for (i, raw) in text.lines().enumerate() {
            let code = code_of(raw);
            let first = code.split_whitespace().next();
            match first {
                Some("@tables") => {}
                Some(w) if w.starts_with('@') || w == "drop" => own.push_str(raw),
                None => own.push_str(raw),
                Some(field) => {
                    let rest = &code[code.find(field).unwrap_or(0) + field.len()..];
                    let cols: Vec<&str> = rest.split('|').map(str::trim).collect();
                    if cols.len() != names.len() {
                        return err(
                            path,
                            i + 1,
                            &format!("{} columns, but @tables names {} tables", cols.len(), names.len()),
                        );
                    }
                    match cols.get(col) {
                        Some(&"-") | None => {}
                        Some(c) => {
                            own.push_str(field);
                            own.push(' ');
                            own.push_str(c);
                        }
                    }
                }
            }
            own.push('\n');
        }
        tables.push(parse_named(path, name.clone(), &own)?);
    }
    Ok(tables)
}

/// A line without its `#` comment.
fn code_of(raw: &str) -> &str {
    raw.find('#').map_or(raw, |p| &raw[..p])
}

/// Parses the text of a table; `path` names it in errors and gives its name.
pub fn parse_text(path: &Path, text: &str) -> Result<Table, TableError> {
    let name = path
        .file_stem()
        .and_then(|s| s.to_str())
        .map_or_else(|| err(path, 0, "table file name is not UTF-8"), Ok)?
        .to_string();
    parse_named(path, name, text)
}

/// Parses the text of table `name`; `path` names the file in errors.
fn parse_named(path: &Path, name: String, text: &str) -> Result<Table, TableError> {
    let mut t = Table {
        name,
        file: path.to_path_buf(),
        width: 0,
        fields: Vec::new(),
        zero: Vec::new(),
        extends: None,
        drops: Vec::new(),
        doc: Vec::new(),
    };
    for (i, raw) in text.lines().enumerate() {
        let ln = i + 1;
        let (code, comment) = match raw.find('#') {
            Some(p) => (&raw[..p], Some(raw[p + 1..].trim())),
            None => (raw, None),
        };
        let words: Vec<&str> = code.split_whitespace().collect();
        if words.is_empty() {
            if let (Some(c), true) = (comment, t.fields.is_empty() && t.zero.is_empty()) {
                t.doc.push(c.to_string());
            }
            continue;
        }
        match words[0] {
            "@width" => {
                let w = words
                    .get(1)
                    .and_then(|w| w.parse::<u32>().ok())
                    .map_or_else(|| err(path, ln, "@width needs a number"), Ok)?;
                if w != 32 && w != 64 && w != 128 {
                    return err(path, ln, "@width must be 32, 64 or 128");
                }
                t.width = w;
            }
            "@extends" => {
                let b = words
                    .get(1)
                    .map_or_else(|| err(path, ln, "@extends needs a table name"), Ok)?;
                t.extends = Some((b.to_string(), ln));
            }
            "drop" => {
                let n = words
                    .get(1)
                    .map_or_else(|| err(path, ln, "drop needs a field name"), Ok)?;
                t.drops.push((n.to_string(), ln));
            }
            w if w.starts_with('@') => return err(path, ln, &format!("unknown directive {w}")),
            _ => {
                let name = words[0];
                if !name
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
                    || name.starts_with(|c: char| c.is_ascii_digit())
                {
                    return err(path, ln, &format!("bad field name `{name}`"));
                }
                let mut nums = Vec::new();
                let mut k = 1;
                while k < words.len() && words[k] != "alias" {
                    let v = words[k]
                        .parse::<u32>()
                        .or_else(|_| err(path, ln, &format!("`{}` is not a bit number", words[k])))?;
                    nums.push(v);
                    k += 1;
                }
                let aliases: Vec<String> = if k < words.len() {
                    if k + 1 == words.len() {
                        return err(path, ln, "alias needs at least one field name");
                    }
                    words[k + 1..].iter().map(|s| s.to_string()).collect()
                } else {
                    Vec::new()
                };
                if nums.is_empty() || nums.len() % 2 != 0 {
                    return err(path, ln, "a field needs pairs of `hi lo` bit numbers");
                }
                let frags: Vec<(u32, u32)> = nums.chunks(2).map(|c| (c[0], c[1])).collect();
                for &(hi, lo) in &frags {
                    if hi < lo {
                        return err(path, ln, &format!("hi {hi} < lo {lo}"));
                    }
                }
                if name == "zero" {
                    if !aliases.is_empty() {
                        return err(path, ln, "zero ranges take no alias");
                    }
                    for f in frags {
                        t.zero.push((f, ln));
                    }
                } else {
                    let width: u32 = frags.iter().map(|(h, l)| h - l + 1).sum();
                    if width > 64 {
                        return err(path, ln, "a field is at most 64 bits wide");
                    }
                    t.fields.push(Field {
                        name: name.to_string(),
                        frags,
                        aliases,
                        line: ln,
                    });
                }
            }
        }
    }
    Ok(t)
}

/// Applies `@extends` and `drop`.
pub fn resolve(name: &str, raw: &BTreeMap<String, Table>, stack: &mut Vec<String>) -> Result<Table, TableError> {
    let t = raw
        .get(name)
        .cloned()
        .map_or_else(|| err(Path::new("tables"), 0, &format!("no table {name}")), Ok)?;
    let Some((base, ln)) = t.extends.clone() else {
        return Ok(t);
    };
    if stack.contains(&base) || base == name {
        return err(&t.file, ln, &format!("@extends cycle through {base}"));
    }
    if !raw.contains_key(&base) {
        return err(&t.file, ln, &format!("@extends names unknown table {base}"));
    }
    stack.push(name.to_string());
    let b = resolve(&base, raw, stack)?;
    stack.pop();
    if t.width != b.width {
        return err(&t.file, ln, "@extends a table of another @width");
    }
    let mut fields: Vec<Field> = b.fields.clone();
    for (d, dl) in &t.drops {
        let before = fields.len();
        fields.retain(|f| &f.name != d);
        if fields.len() == before {
            return err(&t.file, *dl, &format!("drop of unknown field {d}"));
        }
    }
    for f in &t.fields {
        fields.retain(|g| g.name != f.name);
        fields.push(f.clone());
    }
    let mut zero = b.zero.clone();
    zero.extend(t.zero.iter().cloned());
    let mut doc = t.doc.clone();
    doc.push(format!("Extends `{base}`."));
    Ok(Table { fields, zero, doc, ..t })
}

/// Checks ranges, names and overlaps.
pub fn check(t: &Table) -> Result<(), TableError> {
    if t.width == 0 {
        return err(&t.file, 1, "missing @width");
    }
    let mut seen = BTreeMap::new();
    for f in &t.fields {
        if let Some(prev) = seen.insert(f.name.clone(), f.line) {
            return err(
                &t.file,
                f.line,
                &format!("field {} defined twice (first at line {prev})", f.name),
            );
        }
        for &(hi, _) in &f.frags {
            if hi >= t.width {
                return err(&t.file, f.line, &format!("bit {hi} outside 0..{}", t.width - 1));
            }
        }
    }
    for f in &t.fields {
        for a in &f.aliases {
            if !seen.contains_key(a) {
                return err(&t.file, f.line, &format!("alias of unknown field {a}"));
            }
        }
    }
    let mask = |frags: &[(u32, u32)]| -> u128 {
        frags.iter().fold(0u128, |m, &(hi, lo)| {
            let w = hi - lo + 1;
            let ones = if w == 128 { u128::MAX } else { (1u128 << w) - 1 };
            m | (ones << lo)
        })
    };
    for ((hi, lo), ln) in &t.zero {
        if *hi >= t.width {
            return err(&t.file, *ln, &format!("bit {hi} outside 0..{}", t.width - 1));
        }
        let zm = mask(&[(*hi, *lo)]);
        for f in &t.fields {
            if mask(&f.frags) & zm != 0 {
                return err(&t.file, *ln, &format!("zero range {hi}:{lo} overlaps field {}", f.name));
            }
        }
    }
    for (i, a) in t.fields.iter().enumerate() {
        // A field's own fragments must not overlap each other.
        let mut own = 0u128;
        for &fr in &a.frags {
            let m = mask(&[fr]);
            if own & m != 0 {
                return err(&t.file, a.line, "fragments of one field overlap");
            }
            own |= m;
        }
        for b in &t.fields[i + 1..] {
            if mask(&a.frags) & mask(&b.frags) != 0 && !a.aliases.contains(&b.name) && !b.aliases.contains(&a.name) {
                return err(
                    &t.file,
                    b.line,
                    &format!(
                        "field {} overlaps {} (line {}) but is not declared an alias",
                        b.name, a.name, a.line
                    ),
                );
            }
        }
    }
    Ok(())
}

/// The debug-build check that an unchecked value fits.
fn debug_fit(width: u32) -> String {
    if width >= 64 {
        String::from("        // Every value fits 64 bits.")
    } else {
        format!("        debug_assert!((v as u64) >> {width} == 0);")
    }
}

/// `v`'s fragment: shifted down past the lower fragments, then masked.
fn masked(shift: u32, m: u128) -> String {
    if shift == 0 {
        format!("(v & {m:#x})")
    } else {
        format!("((v >> {shift}) & {m:#x})")
    }
}

fn rust_ty(width: u32) -> &'static str {
    match width {
        0..=8 => "u8",
        9..=16 => "u16",
        17..=32 => "u32",
        _ => "u64",
    }
}

/// Writes the module generated from a checked table.
pub fn gen(t: &Table, out: &mut String) {
    let (word, raw) = match t.width {
        128 => ("Word", "u128"),
        64 => ("u64", "u64"),
        _ => ("u32", "u32"),
    };
    let get_raw = if t.width == 128 { "w.0" } else { "w" };
    let get_raw_mut = if t.width == 128 { "w.0" } else { "*w" };
    for d in &t.doc {
        let _ = writeln!(out, "/// {d}");
    }
    let _ = writeln!(out, "/// Generated from `tables/{}.tbl`.", t.name);
    let _ = writeln!(out, "pub mod {} {{", t.name);
    let _ = writeln!(out, "    #[allow(unused_imports)]");
    let _ = writeln!(out, "    use crate::word::{{FieldError, FieldInfo, Word}};");
    let _ = writeln!(out);
    for f in &t.fields {
        let width: u32 = f.frags.iter().map(|(h, l)| h - l + 1).sum();
        let ty = rust_ty(width);
        let upper = f.name.to_uppercase();
        let ranges: Vec<String> = f.frags.iter().map(|(h, l)| format!("{h}:{l}")).collect();
        let frags: Vec<String> = f.frags.iter().map(|(h, l)| format!("({h}, {l})")).collect();
        let aliases: Vec<String> = f.aliases.iter().map(|a| format!("{a:?}")).collect();
        let bits: u128 = f
            .frags
            .iter()
            .map(|&(h, l)| {
                let n = h - l + 1;
                (if n >= 128 { u128::MAX } else { (1u128 << n) - 1 }) << l
            })
            .fold(0, |m, b| m | b);
        let _ = writeln!(out, "    /// `{}`: bits {}.", f.name, ranges.join(", "));
        let _ = writeln!(
            out,
            "    pub const {upper}: FieldInfo = FieldInfo {{ name: {:?}, frags: &[{}], width: {width}, aliases: &[{}], bits: {bits:#x} }};",
            f.name,
            frags.join(", "),
            aliases.join(", ")
        );
        if let [(_, lo)] = f.frags[..] {
            let _ = writeln!(out, "    /// Lowest bit of `{}`.", f.name);
            let _ = writeln!(out, "    pub const {upper}_LO: u32 = {lo};");
        }
        // getter
        let mut parts = Vec::new();
        let mut shift_acc = width;
        for &(hi, lo) in &f.frags {
            let w = hi - lo + 1;
            shift_acc -= w;
            let m = if w == 128 { u128::MAX } else { (1u128 << w) - 1 };
            let piece = if lo == 0 {
                format!("({get_raw} & {m:#x})")
            } else {
                format!("(({get_raw} >> {lo}) & {m:#x})")
            };
            parts.push(if shift_acc > 0 {
                format!("({piece} << {shift_acc})")
            } else {
                piece
            });
        }
        let _ = writeln!(out, "    #[inline(always)]");
        let _ = writeln!(
            out,
            "    pub const fn {}(w: {}{word}) -> {ty} {{ {} as {ty} }}",
            f.name,
            if t.width == 128 { "&" } else { "" },
            if parts.len() == 1 {
                parts.join("")
            } else {
                format!("({})", parts.join(" | "))
            }
        );
        // unchecked setter
        let _ = writeln!(
            out,
            "    /// Writes `{}` without a range check: the caller has proven that `v` fits in {width} bit(s).",
            f.name
        );
        let _ = writeln!(out, "    #[inline(always)]");
        let _ = writeln!(out, "    pub fn set_{}_unchecked(w: &mut {word}, v: {ty}) {{", f.name);
        let _ = writeln!(out, "{}", debug_fit(width));
        let _ = writeln!(out, "        let v = v as {raw};");
        let mut shift_acc = width;
        for &(hi, lo) in &f.frags {
            let w = hi - lo + 1;
            shift_acc -= w;
            let m = if w == 128 { u128::MAX } else { (1u128 << w) - 1 };
            let _ = writeln!(
                out,
                "        {get_raw_mut} = ({get_raw_mut} & !({m:#x} << {lo})) | ({} << {lo});",
                masked(shift_acc, m)
            );
        }
        let _ = writeln!(out, "    }}");
        // or-in setters, for building a word from zero
        let mut or_lines = String::new();
        let mut shift_acc = width;
        for &(hi, lo) in &f.frags {
            let w = hi - lo + 1;
            shift_acc -= w;
            let m = if w == 128 { u128::MAX } else { (1u128 << w) - 1 };
            let _ = writeln!(or_lines, "        {get_raw_mut} |= {} << {lo};", masked(shift_acc, m));
        }
        let _ = writeln!(
            out,
            "    /// ORs `{}` into bits known to be zero, without a range check: the caller has proven that `v` fits.",
            f.name
        );
        let _ = writeln!(out, "    #[inline(always)]");
        let _ = writeln!(out, "    pub fn or_{}_unchecked(w: &mut {word}, v: {ty}) {{", f.name);
        let _ = writeln!(out, "{}", debug_fit(width));
        let _ = writeln!(out, "        let v = v as {raw};");
        out.push_str(&or_lines);
        let _ = writeln!(out, "    }}");
        let _ = writeln!(
            out,
            "    /// ORs `{}` into bits known to be zero; a value wider than {width} bits is refused.",
            f.name
        );
        let _ = writeln!(out, "    #[inline(always)]");
        let _ = writeln!(
            out,
            "    pub fn or_{}(w: &mut {word}, v: {ty}) -> Result<(), FieldError> {{",
            f.name
        );
        if width < 64 {
            let _ = writeln!(
                out,
                "        if (v as u64) >> {width} != 0 {{ return Err(FieldError {{ field: &{upper}, value: v as u64 }}); }}"
            );
        }
        let _ = writeln!(out, "        or_{}_unchecked(w, v);", f.name);
        let _ = writeln!(out, "        Ok(())");
        let _ = writeln!(out, "    }}");
        // checked setter
        let _ = writeln!(
            out,
            "    /// Writes `{}`; a value wider than {width} bits is refused.",
            f.name
        );
        let _ = writeln!(out, "    #[inline]");
        let _ = writeln!(
            out,
            "    pub fn set_{}(w: &mut {word}, v: {ty}) -> Result<(), FieldError> {{",
            f.name
        );
        if width < 64 {
            let _ = writeln!(
                out,
                "        if (v as u64) >> {width} != 0 {{ return Err(FieldError {{ field: &{upper}, value: v as u64 }}); }}"
            );
        }
        let _ = writeln!(out, "        set_{}_unchecked(w, v);", f.name);
        let _ = writeln!(out, "        Ok(())");
        let _ = writeln!(out, "    }}");
        let _ = writeln!(out);
    }
    let names: Vec<String> = t.fields.iter().map(|f| format!("&{}", f.name.to_uppercase())).collect();
    let _ = writeln!(out, "    /// Every field of this table, in table order.");
    let _ = writeln!(out, "    pub const FIELDS: &[&FieldInfo] = &[{}];", names.join(", "));
    let zm = t.zero.iter().fold(0u128, |m, ((hi, lo), _)| {
        let w = hi - lo + 1;
        m | (((1u128 << w) - 1) << lo)
    });
    let _ = writeln!(out, "    /// Bits that must be zero (reserved).");
    let _ = writeln!(out, "    pub const ZERO_MASK: {raw} = {zm:#x};");
    let _ = writeln!(out, "}}");
    let _ = writeln!(out);
}
