//! The table checker refuses malformed tables with `file:line: reason`,
//! the same code build.rs runs on tables/*.tbl.

#[allow(dead_code)]
#[path = "../build/tablegen.rs"]
mod tablegen;

use std::collections::BTreeMap;
use std::path::Path;

fn load(name: &str, text: &str) -> Result<tablegen::Table, tablegen::TableError> {
    let t = tablegen::parse_text(Path::new(&format!("tables/{name}.tbl")), text)?;
    let mut raw = BTreeMap::new();
    raw.insert(t.name.clone(), t);
    let t = tablegen::resolve(name, &raw, &mut Vec::new())?;
    tablegen::check(&t)?;
    Ok(t)
}

fn error(text: &str) -> String {
    load("bad", text).unwrap_err().to_string()
}

#[test]
fn a_good_table_generates_accessors() {
    let t = load(
        "good",
        "@width 128\nopcode 6 0\nsfid 27 24\ncond 27 24 alias sfid\nsplit 47 47 56 48\n",
    )
    .unwrap();
    let mut out = String::new();
    tablegen::gen(&t, &mut out);
    assert!(out.contains("pub mod good {"));
    assert!(out.contains("pub const fn split(w: &Word) -> u16"));
    assert!(out.contains("pub fn set_split(w: &mut Word, v: u16) -> Result<(), FieldError>"));
    assert!(
        out.contains("if (v as u64) >> 10 != 0"),
        "a 10-bit split field refuses wider values"
    );
}

#[test]
fn undeclared_overlap_is_refused() {
    assert_eq!(
        error("@width 128\nsfid 27 24\ncond 26 24\n"),
        "tables/bad.tbl:3: field cond overlaps sfid (line 2) but is not declared an alias"
    );
}

#[test]
fn bit_outside_the_word_is_refused() {
    assert_eq!(
        error("@width 128\nimm 128 96\n"),
        "tables/bad.tbl:2: bit 128 outside 0..127"
    );
    assert_eq!(
        error("@width 32\nmlen 32 25\n"),
        "tables/bad.tbl:2: bit 32 outside 0..31"
    );
}

#[test]
fn hi_below_lo_is_refused() {
    assert_eq!(error("@width 128\nopcode 0 6\n"), "tables/bad.tbl:2: hi 0 < lo 6");
}

#[test]
fn other_mistakes_are_refused_with_their_line() {
    assert_eq!(error("opcode 6 0\n"), "tables/bad.tbl:1: missing @width");
    assert_eq!(
        error("@width 128\n\nopcode 6\n"),
        "tables/bad.tbl:3: a field needs pairs of `hi lo` bit numbers"
    );
    assert_eq!(
        error("@width 128\nopcode 6 x\n"),
        "tables/bad.tbl:2: `x` is not a bit number"
    );
    assert_eq!(
        error("@width 128\na 1 0\na 3 2\n"),
        "tables/bad.tbl:3: field a defined twice (first at line 2)"
    );
    assert_eq!(
        error("@width 128\na 1 0 alias b\n"),
        "tables/bad.tbl:2: alias of unknown field b"
    );
    assert_eq!(
        error("@width 128\nzero 7 7\na 7 0\n"),
        "tables/bad.tbl:2: zero range 7:7 overlaps field a"
    );
    assert_eq!(
        error("@width 128\nwide 127 0\n"),
        "tables/bad.tbl:2: a field is at most 64 bits wide"
    );
    assert_eq!(error("@width 100\n"), "tables/bad.tbl:1: @width must be 32, 64 or 128");
    assert_eq!(
        error("@width 128\n@frob\n"),
        "tables/bad.tbl:2: unknown directive @frob"
    );
}

#[test]
fn the_real_tables_check_clean() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tables");
    let mut raw = BTreeMap::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "tbl") {
            for t in tablegen::parse_table(&p).unwrap() {
                assert!(
                    raw.insert(t.name.clone(), t).is_none(),
                    "{} defines a table twice",
                    p.display()
                );
            }
        }
    }
    assert!(raw.len() >= 9);
    for name in raw.keys() {
        let t = tablegen::resolve(name, &raw, &mut Vec::new()).unwrap();
        tablegen::check(&t).unwrap();
    }
}

/// A file with `@tables` holds one table per name, side by side: each line
/// gives a field's ranges per table, `-` where a table lacks it.
#[test]
fn side_by_side_tables_split_per_column() {
    let text = "# Two layouts.\n@width 32\n@tables old new\nop  3 0 | 3 0\nmoved 7 4 | 11 8\nnewf - | 7 4 alias moved_not\nzero 31 8 | 31 12\n";
    let text = text.replace("alias moved_not", "");
    let ts = tablegen::parse_file(Path::new("tables/two.tbl"), &text).unwrap();
    let names: Vec<&str> = ts.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["old", "new"]);
    let field = |t: &tablegen::Table, n: &str| t.fields.iter().find(|f| f.name == n).map(|f| f.frags.clone());
    assert_eq!(field(&ts[0], "moved"), Some(vec![(7, 4)]));
    assert_eq!(field(&ts[1], "moved"), Some(vec![(11, 8)]));
    assert_eq!(field(&ts[0], "newf"), None);
    assert_eq!(field(&ts[1], "newf"), Some(vec![(7, 4)]));
    assert_eq!(ts[1].zero.first().map(|z| z.0), Some((31, 12)));
    assert_eq!(ts[0].doc, ["Two layouts."]);
    for t in &ts {
        tablegen::check(t).unwrap();
    }
    // Errors keep the file's own line numbers.
    let e = tablegen::parse_file(Path::new("tables/two.tbl"), "@width 32\n@tables a b\nop 3 0\n").unwrap_err();
    assert_eq!(e.to_string(), "tables/two.tbl:3: 1 columns, but @tables names 2 tables");
    let e = tablegen::parse_file(Path::new("tables/two.tbl"), "@width 32\n@tables a b\nop 3 0 | 2 3\n").unwrap_err();
    assert_eq!(e.to_string(), "tables/two.tbl:3: hi 2 < lo 3");
}
