//! The index-table checker refuses malformed tables with `file:line:
//! reason`, the same code build.rs runs on tables/*.idx.

#[allow(dead_code)]
#[path = "../build/compactgen.rs"]
mod compactgen;

use std::path::Path;

fn load(text: &str) -> Result<compactgen::IdxFile, compactgen::IdxError> {
    let f = compactgen::parse_text(Path::new("tables/bad.idx"), text)?;
    compactgen::check(&f)?;
    Ok(f)
}

fn error(text: &str) -> String {
    load(text).unwrap_err().to_string()
}

#[test]
fn a_good_table_generates_a_hashed_constant() {
    let f = load("# doc\n\ntable t 1\nbits 9:8 3\n0b101\n0b011\n").unwrap();
    let mut out = String::new();
    compactgen::gen(&f, &mut out).unwrap();
    assert!(out.contains("pub const T: IndexTable"), "{out}");
    assert!(
        out.contains("const T_BITS: &[(u32, u32)] = &[(9, 8), (3, 3)];"),
        "{out}"
    );
    assert!(out.contains("const T_ENTRIES: &[u64; 2] = &[0x5, 0x3];"), "{out}");
    assert!(out.contains("bits: T_BITS,"), "{out}");
    assert!(out.contains("native: &scatter_all(T_BITS, T_ENTRIES),"), "{out}");
    assert!(out.contains("source: \"tables/bad.idx:3\""), "{out}");
}

#[test]
fn malformed_tables_are_refused_with_file_and_line() {
    assert_eq!(
        error("table t 1\nbits 2:0\n0b101\n0b11\n"),
        "tables/bad.idx:4: entry has 2 bits; table t entries have 3"
    );
    assert_eq!(
        error("table t 1\nbits 2:0\n0b101\n0b101\n"),
        "tables/bad.idx:4: duplicate entry: the same as entry 0 of table t"
    );
    assert_eq!(
        error("table t 2\nbits 2:0\n0b101\n0b100\n"),
        "tables/bad.idx:1: table t has 2 entries; a 2-bit index needs 4"
    );
    assert_eq!(error("table t 1\nbits 1:2\n"), "tables/bad.idx:2: hi 1 < lo 2");
    assert_eq!(
        error("table t 1\nbits 128:127\n"),
        "tables/bad.idx:2: bit 128 outside the 128-bit native word"
    );
    assert_eq!(
        error("table a 1\nbits 3:0\n0b0000\n0b0001\ntable b 1\nbits 5:3\n0b000\n0b001\n"),
        "tables/bad.idx:5: native bit 3 is in tables a and b"
    );
    assert_eq!(error("0b1\n"), "tables/bad.idx:1: an entry before any table");
    assert_eq!(
        error("table t 1\n0b1\n"),
        "tables/bad.idx:2: an entry before the table's `bits`"
    );
    assert_eq!(error("frob\n"), "tables/bad.idx:1: unknown line starting `frob`");
}
