//! `geneu check`, run as the real binary: assembly, hex and binary input,
//! each violation with its place and rule id, exit codes.

use crate::cli_common;
use cli_common::*;

#[test]
fn corpus_files_are_clean_in_every_form() {
    if corpus_absent() {
        return;
    }
    for (gen, p) in [("gen7", "ivb"), ("gen7.5", "hsw"), ("gen8", "bdw")] {
        let asm = corpus(&format!("{gen}/send.asm"));
        let hex = corpus(&format!("{gen}/send.expected"));
        for args in [
            vec!["check", "--gen", p, asm.to_str().unwrap()],
            vec!["check", "--gen", p, hex.to_str().unwrap()],
            vec!["check", "--gen", p, "--hex", hex.to_str().unwrap()],
        ] {
            let (code, out, err) = geneu(&args, b"");
            assert_eq!(code, 0, "{args:?}: {out}{err}");
            assert!(out.is_empty(), "{out}");
        }
        let bin = corpus_bin(&format!("{gen}/send.expected"));
        let (code, out, err) = geneu(&["check", "--gen", p], &bin);
        assert_eq!(code, 0, "{gen} binary on stdin: {out}{err}");
        let (code, _, err) = geneu(&["check", "--gen", p, "--bin", "-"], &bin);
        assert_eq!(code, 0, "{err}");
    }
}

#[test]
fn every_violation_with_line_and_rule() {
    let src = "mov(8)          g2<1>F          g3<8,8,1>F                      { align1 1Q };\n\
               mov(8)          g2<0>F          g3<8,8,1>F                      { align1 1Q };\n\
               \n\
               mov(4)          g2<1>F          g3<8,8,1>F                      { align1 1N };\n";
    let f = temp_file("rules.asm", src.as_bytes());
    let path = f.to_str().unwrap();
    let (code, out, err) = geneu(&["check", "--gen", "bdw", path], b"");
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains(&format!("{path}:2:1: violation [dst_hstride_nonzero] dst: ")),
        "{out}"
    );
    assert!(
        out.contains(&format!("{path}:4:1: violation [exec_size_ge_width] src0: ")),
        "{out}"
    );
    assert!(!out.contains(&format!("{path}:1:")), "line 1 is valid: {out}");
    // The offending line is quoted under its violations.
    assert!(out.contains("    mov(8)          g2<0>F"), "{out}");
    assert!(err.contains("in 2 of 3 instruction(s)"), "{err}");
}

#[test]
fn binary_violations_give_word_index_and_offset() {
    // The second instruction, assembled unchecked, breaks a rule.
    let src = b"mov(8) g2<1>F g3<8,8,1>F { align1 1Q };\nmov(8) g2<0>F g3<8,8,1>F { align1 1Q };\n";
    let (code, bin, err) = geneu_bytes(&["asm", "--gen", "ivb", "--unchecked", "--type", "bin"], src);
    assert_eq!(code, 0, "{err}");
    let (code, out, _) = geneu(&["check", "--gen", "ivb"], &bin);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.starts_with("<stdin>: word 1 (offset 0x10): violation [dst_hstride_nonzero] dst: "),
        "{out}"
    );
    // Its disassembly is quoted.
    assert!(out.contains("    mov(8)          g2<0>F"), "{out}");
    // The same words as hex: line and word index.
    let (_, hex, _) = geneu(&["asm", "--gen", "ivb", "--unchecked"], src);
    let (code, out, _) = geneu(&["check", "--gen", "ivb"], hex.as_bytes());
    assert_eq!(code, 1, "{out}");
    assert!(
        out.starts_with("<stdin>:2: word 1: violation [dst_hstride_nonzero]"),
        "{out}"
    );
}

#[test]
fn undecodable_words_are_reported() {
    if corpus_absent() {
        return;
    }
    let mut bin = corpus_bin("gen8/mov.expected");
    // Opcode 0x7f is undefined; CmptCtrl (bit 29) clear: a native word.
    let mut bad = [0xff; 16];
    bad[3] = 0xdf;
    bin.extend_from_slice(&bad);
    let words = bin.len() / 16;
    let (code, out, _) = geneu(&["check", "--gen", "bdw", "--bin"], &bin);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains(&format!(
            "word {} (offset {:#x}): error [undecodable]",
            words - 1,
            (words - 1) * 16
        )),
        "{out}"
    );
}

#[test]
fn malformed_input_exits_2() {
    if corpus_absent() {
        return;
    }
    // Assembly syntax errors: reported with file:line:col, nothing checked.
    let (code, out, err) = geneu(
        &["check", "--gen", "bdw"],
        b"mov(8) g2<1>F g3<8,8,1>F { align1 1Q };\nmov(8) ) ;\n",
    );
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert!(err.starts_with("<stdin>:2:8: error: unexpected `)`, expected"), "{err}");
    // Truncated binary: the complete words are checked, then exit 2.
    let mut bin = corpus_bin("gen8/mov.expected");
    bin.extend_from_slice(&[0x01, 0x00, 0x60]);
    let (code, _, err) = geneu(&["check", "--gen", "bdw", "--bin"], &bin);
    assert_eq!(code, 2);
    assert!(err.contains("truncated input: 3 byte(s)"), "{err}");
    // Bad hex.
    let (code, _, err) = geneu(&["check", "--gen", "bdw", "--hex"], b"01 02 03\n");
    assert_eq!(code, 2);
    assert!(err.contains("<stdin>:1: error:"), "{err}");
    // Unreadable file.
    let (code, _, _) = geneu(&["check", "--gen", "bdw", "/nonexistent/y"], b"");
    assert_eq!(code, 2);
}

#[test]
fn exec_size_below_width_in_a_hex_word() {
    // g3<8,8,1> read by a SIMD4 instruction, built unchecked.
    let (code, hex, err) = geneu(
        &["asm", "--gen", "hsw", "--unchecked"],
        b"add(4) g2<1>D g3<8,8,1>D g4<4,4,1>D { align1 1N };",
    );
    assert_eq!(code, 0, "{err}");
    let f = temp_file("w.hex", hex.as_bytes());
    let (code, out, _) = geneu(&["check", "--gen", "hsw", "--hex", f.to_str().unwrap()], b"");
    assert_eq!(code, 1);
    assert!(out.contains("violation [exec_size_ge_width] src0"), "{out}");
    assert!(!out.contains("src1"), "src1 is legal: {out}");
}

/// Conservative violations are shown with their basis and fail only with
/// `--strict`; documented ones always fail.
#[test]
fn conservative_violations_fail_only_with_strict() {
    // mov(16) g6<1>F g2<0,1,0>HF: mixed float SIMD16 (a Skylake rule).
    let src = "mov(16)         g6<1>F          g2<0,1,0>HF                     { align1 1H };\n";
    let f = temp_file("conservative.asm", src.as_bytes());
    let path = f.to_str().unwrap();
    let (code, out, err) = geneu(&["check", "--gen", "bdw", path], b"");
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("violation [mixed_float_f_dst_max_simd8] instruction: ") && out.contains("(conservative: "),
        "{out}"
    );
    assert!(err.contains("--strict"), "{err}");
    let (code, _, _) = geneu(&["check", "--gen", "bdw", "--strict", path], b"");
    assert_eq!(code, 1);
    // A documented violation fails without --strict and shows its basis.
    let src = "mov(8)          g2<0>F          g3<8,8,1>F                      { align1 1Q };\n";
    let f = temp_file("documented.asm", src.as_bytes());
    let (code, out, _) = geneu(&["check", "--gen", "bdw", f.to_str().unwrap()], b"");
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("(documented: "), "{out}");
}
