//! IGA's syntax on the command line: `asm` detects it (or `--syntax iga`
//! asks for it) and gives `iga64 -a`'s bytes; `convert` turns Mesa's
//! syntax into IGA's and back keeping the bytes; `check` reads it.

use crate::cli_common;
use cli_common::*;

/// The IGA corpus directory (beside Mesa's, as the library's IGA tests
/// find it), or `None` after the corpus module's note when absent.
#[track_caller]
fn iga_corpus() -> Option<std::path::PathBuf> {
    corpus::mesa().map(|mesa| mesa.join("../iga"))
}

#[test]
fn asm_detects_iga_and_gives_iga64s_bytes() {
    let Some(dir) = iga_corpus() else { return };
    let iga = dir.join("gen8/add.iga");
    let want = std::fs::read_to_string(dir.join("gen8/add.iga.expected")).unwrap();
    let (code, out, err) = geneu(&["asm", "--gen", "bdw", iga.to_str().unwrap()], b"");
    assert_eq!((code, out.as_str()), (0, want.as_str()), "{err}");
    // Standard input is Mesa's syntax unless asked.
    let text = std::fs::read(&iga).unwrap();
    let (code, out, err) = geneu(&["asm", "--gen", "bdw", "--syntax", "iga"], &text);
    assert_eq!((code, out.as_str()), (0, want.as_str()), "{err}");
    let (code, _, _) = geneu(&["asm", "--gen", "bdw", "--syntax", "mesa"], &text);
    assert_eq!(code, 2);
}

#[test]
fn convert_keeps_the_bytes_both_ways() {
    if iga_corpus().is_none() {
        return;
    }
    for (gen, p) in [("gen7.5", "hsw"), ("gen8", "bdw")] {
        for name in ["send", "if", "mad", "mov"] {
            let asm = corpus(&format!("{gen}/{name}.asm"));
            if !asm.exists() {
                continue;
            }
            let want = corpus_text(&format!("{gen}/{name}.expected"));
            let (code, iga, err) = geneu(&["convert", "--gen", p, "--to", "iga", asm.to_str().unwrap()], b"");
            assert_eq!(code, 0, "{gen}/{name}: {err}");
            let (code, out, err) = geneu(&["asm", "--gen", p, "--unchecked", "--syntax", "iga"], iga.as_bytes());
            assert_eq!((code, out.as_str()), (0, want.as_str()), "{gen}/{name} via IGA: {err}");
            let (code, mesa, err) = geneu(&["convert", "--gen", p, "--to", "mesa"], iga.as_bytes());
            assert_eq!(code, 0, "{gen}/{name}: {err}");
            let (code, out, err) = geneu(&["asm", "--gen", p, "--unchecked"], mesa.as_bytes());
            assert_eq!(
                (code, out.as_str()),
                (0, want.as_str()),
                "{gen}/{name} back to Mesa: {err}"
            );
        }
    }
}

#[test]
fn errors_name_file_line_and_column() {
    let src = temp_file(
        "bad.iga",
        b"  add (8|M0) r1.0<1>:f r2.0<8;8,1>:f 1.0:f\n  add (8|M0) r1.0<1>:f r2.0<8;8,1>:zz 1.0:f\n",
    );
    let (code, out, err) = geneu(&["asm", "--gen", "bdw", src.to_str().unwrap()], b"");
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(err.contains("bad.iga:2:36: error: unexpected `zz`"), "{err}");
}

#[test]
fn check_reads_iga_text() {
    let src = temp_file("ok.iga", b"(W) mov (8|M0) r1.0<1>:ud r2.0<8;8,1>:ud\n");
    let (code, _, err) = geneu(&["check", "--gen", "bdw", src.to_str().unwrap()], b"");
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = geneu(
        &["check", "--gen", "bdw", "--syntax", "mesa", src.to_str().unwrap()],
        b"",
    );
    assert_eq!(code, 2, "{err}");
}

#[test]
fn asm_json_detects_iga_from_stdin() {
    let text = b"L0:\n(W)     mov (8|M0)               r1.0<1>:ud    r2.0<8;8,1>:ud\n";
    let (code, out, err) = geneu(&["asm", "--gen", "bdw", "--json"], text);
    assert_eq!(code, 0, "{err}");
    let mesa = b"mov(8) g1<1>UD g2<8,8,1>UD { align1 WE_all 1Q };\n";
    let (code, want, err) = geneu(&["asm", "--gen", "bdw", "--json"], mesa);
    assert_eq!(code, 0, "{err}");
    // The same word (the documents differ only in where the text is).
    let bytes = |doc: &str| {
        doc.split("\"bytes\"")
            .nth(1)
            .map(|s| s.split('"').nth(1).unwrap_or("").to_owned())
    };
    assert_eq!(bytes(&out), bytes(&want), "{out}\n{want}");
    assert!(bytes(&out).is_some_and(|b| !b.is_empty()), "{out}");
}

/// `brd`/`brc` in both of their forms (offsets in src0's register, or in
/// the word) convert both ways keeping the bytes, on every platform; IGA's
/// text shows the register form's source as IGA prints it.
#[test]
fn convert_keeps_brd_brc_both_ways() {
    let mesa = b"brd(8) null<1>UD g11.1<0,1,0>UD { align1 1Q };\n\
brc(8) null<1>UD g11<0,1,0>UD { align1 1Q };\n\
brd(8) { align1 1Q };\n\
brc(8) { align1 1Q };\n";
    for p in ["ivb", "hsw", "bdw", "chv"] {
        let (code, want, err) = geneu(&["asm", "--gen", p, "--unchecked"], mesa);
        assert_eq!(code, 0, "{p}: {err}");
        assert_eq!(want.lines().count(), 4, "{p}");
        let (code, iga, err) = geneu(&["convert", "--gen", p, "--to", "iga"], mesa);
        assert_eq!(code, 0, "{p}: {err}");
        let squeezed: Vec<String> = iga
            .lines()
            .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
            .collect();
        assert!(squeezed.iter().any(|l| l == "brd (8|M0) r11.1:ud"), "{p}: {iga}");
        assert!(
            squeezed.iter().any(|l| l.starts_with("brc (8|M0) r11.0:ud null")),
            "{p}: {iga}"
        );
        let (code, out, err) = geneu(&["asm", "--gen", p, "--unchecked", "--syntax", "iga"], iga.as_bytes());
        assert_eq!((code, out.as_str()), (0, want.as_str()), "{p} via IGA: {err}\n{iga}");
        let (code, back, err) = geneu(&["convert", "--gen", p, "--to", "mesa"], iga.as_bytes());
        assert_eq!(code, 0, "{p}: {err}");
        let (code, out, err) = geneu(&["asm", "--gen", p, "--unchecked"], back.as_bytes());
        assert_eq!(
            (code, out.as_str()),
            (0, want.as_str()),
            "{p} back to Mesa: {err}\n{back}"
        );
    }
}

/// IGA's compaction default: `iga64 -a` compacts exactly the instructions
/// marked `{Compacted}` (and refuses a marked one with no compacted form),
/// so `asm` in IGA's syntax does too without `--compact`.
#[test]
fn asm_compacts_what_iga_marks_compacted() {
    let add = "add (8|M0) r2.0<1>:f r3.0<8;8,1>:f r4.0<8;8,1>:f";
    let marked = format!("{add} {{Compacted}}\n{add}\n");
    let (code, out, err) = geneu(&["asm", "--gen", "bdw", "--syntax", "iga"], marked.as_bytes());
    assert_eq!(code, 0, "{err}");
    let records: Vec<usize> = out.lines().map(|l| l.split_whitespace().count()).collect();
    assert_eq!(records, [8, 16], "{out}");
    assert!(err.contains("compacted 1 of 2"), "{err}");
    // The same as asking for exactly the marked ones.
    let (code, asked, _) = geneu(
        &["asm", "--gen", "bdw", "--syntax", "iga", "--compact=marked"],
        marked.as_bytes(),
    );
    assert_eq!((code, asked.as_str()), (0, out.as_str()));
    // The compacted word is the marked instruction's: it reads back as the
    // unmarked one's native word.
    let (code, back, err) = geneu(&["disasm", "--gen", "bdw", "--uncompact", "--hex"], out.as_bytes());
    assert_eq!(code, 0, "{err}");
    let (_, native, _) = geneu(
        &["asm", "--gen", "bdw", "--syntax", "iga"],
        format!("{add}\n{add}\n").as_bytes(),
    );
    let (_, native_text, _) = geneu(&["disasm", "--gen", "bdw", "--hex"], native.as_bytes());
    assert_eq!(back, native_text);
    // Nothing marked: nothing compacted, and no report.
    let (code, out, err) = geneu(
        &["asm", "--gen", "bdw", "--syntax", "iga"],
        format!("{add}\n").as_bytes(),
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.split_whitespace().count(), 16, "{out}");
    assert!(!err.contains("compacted"), "{err}");
    // The document says so too.
    let (code, doc, err) = geneu(&["asm", "--gen", "bdw", "--syntax", "iga", "--json"], marked.as_bytes());
    assert_eq!(code, 0, "{err}");
    let doc: serde_json::Value = serde_json::from_str(&doc).unwrap();
    assert_eq!(doc["compaction"]["compacted"], 1, "{doc}");
    // A marked instruction with no 8-byte form (an immediate no table
    // entry holds) is an error at its line, as in IGA.
    let text = format!("{add}\nmov (8|M0) r2.0<1>:ud 0x12345678:ud {{Compacted}}\n");
    let (code, out, err) = geneu(&["asm", "--gen", "bdw", "--syntax", "iga"], text.as_bytes());
    assert_eq!((code, out.as_str()), (2, ""), "{err}");
    assert!(
        err.starts_with("<stdin>:2:1: error:") && err.contains("marked compacted"),
        "{err}"
    );
}
