//! `geneu asm`, run as the real binary: output forms, stdin/stdout and
//! `-o`, exit codes, and error messages with file, line, column, the
//! offending token and what was expected.

use crate::cli_common;
use cli_common::*;

#[test]
fn hex_output_equals_the_corpus_expected_file() {
    if corpus_absent() {
        return;
    }
    for (gen, p) in [("gen7", "ivb"), ("gen7.5", "hsw"), ("gen8", "bdw")] {
        for name in ["add", "mov", "send", "if"] {
            let asm = corpus(&format!("{gen}/{name}.asm"));
            if !asm.exists() {
                continue;
            }
            let (code, out, err) = geneu(&["asm", "--gen", p, asm.to_str().unwrap()], b"");
            assert_eq!(code, 0, "{gen}/{name}: {err}");
            assert_eq!(out, corpus_text(&format!("{gen}/{name}.expected")), "{gen}/{name}");
            assert!(err.is_empty(), "{err}");
        }
    }
}

#[test]
fn stdin_and_stdout_with_dash_and_without_path() {
    if corpus_absent() {
        return;
    }
    let src = corpus_text("gen7.5/mad.asm");
    let want = corpus_text("gen7.5/mad.expected");
    for args in [
        &["asm", "--gen", "hsw"][..],
        &["asm", "--gen", "7.5", "-"],
        &["asm", "--gen", "hsw", "-o", "-", "-"],
    ] {
        let (code, out, err) = geneu(args, src.as_bytes());
        assert_eq!((code, out.as_str()), (0, want.as_str()), "{args:?}: {err}");
    }
}

#[test]
fn bin_output_is_the_raw_words() {
    if corpus_absent() {
        return;
    }
    let (code, out, err) = geneu_bytes(
        &["asm", "--gen", "bdw", "--type", "bin"],
        corpus_text("gen8/mov.asm").as_bytes(),
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, corpus_bin("gen8/mov.expected"));
}

#[test]
fn output_file() {
    if corpus_absent() {
        return;
    }
    let out = std::env::temp_dir().join(format!("geneu-cli-{}-out.bin", std::process::id()));
    let src = temp_file("in.asm", corpus_text("gen8/add.asm").as_bytes());
    let (code, stdout, err) = geneu(
        &[
            "asm",
            "--gen",
            "bdw",
            "--type",
            "bin",
            "-o",
            out.to_str().unwrap(),
            src.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(code, 0, "{err}");
    assert!(stdout.is_empty());
    assert_eq!(std::fs::read(&out).unwrap(), corpus_bin("gen8/add.expected"));
}

#[test]
fn c_output_is_an_array_of_dwords() {
    if corpus_absent() {
        return;
    }
    let (code, out, err) = geneu(
        &["asm", "--gen", "bdw", "--type", "c"],
        corpus_text("gen8/add.asm").as_bytes(),
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("#include <stdint.h>"), "{out}");
    assert!(out.contains("static const uint32_t program[] = {"), "{out}");
    assert!(out.trim_end().ends_with("};"), "{out}");
    // Every 0x... token is an 8-digit dword; read back DW0 first, they are
    // the corpus words.
    let dwords: Vec<u32> = out
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter_map(|t| t.strip_prefix("0x"))
        .map(|t| {
            assert_eq!(t.len(), 8, "{t}");
            u32::from_str_radix(t, 16).unwrap()
        })
        .collect();
    let bytes: Vec<u8> = dwords.iter().flat_map(|d| d.to_le_bytes()).collect();
    assert_eq!(bytes, corpus_bin("gen8/add.expected"));
    // Four dwords per line, one line per instruction.
    let rows = out.lines().filter(|l| l.contains("0x")).count();
    assert_eq!(rows * 4, dwords.len());
}

#[test]
fn every_error_is_reported_with_file_line_column() {
    let src = "mov(8) g2<1>F g3<8,8,1>F { align1 1Q };\n\
               foo(8) g1<1>F g2<8,8,1>F { align1 1Q };\n\
               add(8)   g2<1>F g3<8,8,1>F g4<8,8,1>Q { align1 1Q };\n\
               mov(8) g2<1>F g3<8,8,1>F { align1 1Q }\n\
               mov(8) g2<1>F g3<8,8,1>F { align1 3Z };\n";
    let f = temp_file("bad.asm", src.as_bytes());
    let path = f.to_str().unwrap();
    let (code, out, err) = geneu(&["asm", "--gen", "bdw", path], b"");
    assert_eq!(code, 2, "{err}");
    assert!(out.is_empty(), "nothing is written on error: {out}");
    let errors: Vec<&str> = err.lines().filter(|l| l.contains(": error: ")).collect();
    assert!(errors.len() >= 3, "{err}");
    // The unknown opcode: line 2, column 1, the token named.
    assert!(
        errors
            .iter()
            .any(|l| l.starts_with(&format!("{path}:2:1: error: unknown opcode `foo`, expected"))),
        "{err}"
    );
    // The missing `;`: the token found after line 4 (the next `mov`) and
    // what was expected.
    assert!(
        errors
            .iter()
            .any(|l| l.starts_with(&format!("{path}:5:1: error: unexpected `mov`, expected"))),
        "{err}"
    );
    // Errors come in line order, each with a caret line.
    let lines: Vec<u32> = errors
        .iter()
        .map(|l| l[path.len() + 1..].split(':').next().unwrap().parse().unwrap())
        .collect();
    assert!(lines.windows(2).all(|w| w[0] <= w[1]), "{lines:?}");
    assert!(err.contains("    ^"), "{err}");
    assert!(err.contains("error(s); nothing written"), "{err}");
}

#[test]
fn stdin_errors_name_stdin() {
    let (code, _, err) = geneu(
        &["asm", "--gen", "bdw"],
        b"\n  mov(8) g2<1>F g3<8,8,1>F { align1 1Q } ;\n  add(8) g2<1>F ) ;\n",
    );
    assert_eq!(code, 2);
    assert!(
        err.starts_with("<stdin>:3:17: error: unexpected `)`, expected"),
        "{err}"
    );
}

#[test]
fn rule_violations_exit_1_and_unchecked_assembles() {
    // A destination horizontal stride of 0 breaks a region rule.
    let src = b"mov(8) g2<0>F g3<8,8,1>F { align1 1Q };\n";
    let (code, out, err) = geneu(&["asm", "--gen", "bdw"], src);
    assert_eq!(code, 1, "{err}");
    assert!(out.is_empty());
    assert!(
        err.starts_with("<stdin>:1:1: error: instruction breaks hardware rules: [dst_hstride_nonzero]"),
        "{err}"
    );
    let (code, out, err) = geneu(&["asm", "--gen", "bdw", "--unchecked"], src);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 1);
    assert_eq!(out.split_whitespace().count(), 16);
}

#[test]
fn bad_input_never_panics() {
    let cases: [&[u8]; 8] = [
        b"",
        b"\xff\xfe not text",
        b"mov(",
        b"/* never closed",
        b"(((((((((",
        b"send(8) g1<1>UW g2<8,8,1>UD 0xffffffffffffffffffff sampler { align1 };",
        b"LABEL0:\nLABEL0:\njmpi(1) LABEL9 { align1 };",
        b"mov(8) g999999999999<1>F g3<8,8,1>F { align1 1Q };",
    ];
    for src in cases {
        let (code, _, err) = geneu(&["asm", "--gen", "ivb"], src);
        assert!(
            code == 0 || code == 2,
            "{:?}: exit {code}: {err}",
            String::from_utf8_lossy(src)
        );
        assert!(!err.contains("panicked"), "{err}");
    }
    // Non-UTF-8 input is refused with a message.
    let (code, _, err) = geneu(&["asm", "--gen", "ivb"], b"\xff\xfe");
    assert_eq!(code, 2);
    assert!(err.contains("not UTF-8"), "{err}");
    // Empty input is an empty program.
    assert_eq!(geneu(&["asm", "--gen", "ivb"], b"").0, 0);
}

#[test]
fn missing_file_exits_2() {
    let (code, _, err) = geneu(&["asm", "--gen", "bdw", "/nonexistent/x.asm"], b"");
    assert_eq!(code, 2);
    assert!(err.contains("/nonexistent/x.asm"), "{err}");
}

#[test]
fn help_documents_exit_codes() {
    let (code, out, _) = geneu(&["asm", "--help"], b"");
    assert_eq!(code, 0);
    assert!(out.contains("Exit status"), "{out}");
    assert!(out.contains("--type"), "{out}");
}

#[test]
fn large_input_on_several_threads_gives_the_words_and_errors_of_one() {
    if corpus_absent() {
        return;
    }
    // Every Gen8 corpus word, about 1 MB of text: `asm` cuts it into one
    // region per core (when there are several) and joins the results.
    let words: Vec<u8> = std::fs::read_dir(corpus("gen8"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|f| f.extension().is_some_and(|e| e == "expected"))
        .flat_map(|f| corpus_bin(&format!("gen8/{}", f.file_name().unwrap().to_str().unwrap())))
        .collect();
    let bin: Vec<u8> = words.iter().copied().cycle().take(words.len() * 6).collect();
    let bin_file = temp_file("large.bin", &bin);
    let (code, text, err) = geneu(&["disasm", "--gen", "bdw", bin_file.to_str().unwrap()], b"");
    assert_eq!(code, 0, "{err}");
    assert!(text.len() > 1 << 20, "{}", text.len());
    let want = geneu::text::assemble_words(geneu::Platform::Gen8, &text)
        .unwrap()
        .concat();
    let asm_file = temp_file("large.asm", text.as_bytes());
    let (code, out, err) = geneu_bytes(
        &["asm", "--gen", "bdw", "--type", "bin", asm_file.to_str().unwrap()],
        b"",
    );
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(out, bin);
    assert_eq!(out, want);
    let (code, out, _) = geneu_bytes(&["asm", "--gen", "bdw", "--type", "bin"], text.as_bytes());
    assert_eq!((code, out), (0, bin.clone()));
    // A path that is a pipe: read through, not cut in regions.
    if std::path::Path::new("/dev/stdin").exists() {
        let (code, out, err) = geneu_bytes(&["asm", "--gen", "bdw", "--type", "bin", "/dev/stdin"], text.as_bytes());
        assert_eq!((code, err.as_str()), (0, ""));
        assert_eq!(out, bin);
    }
    // Errors near the end are reported on their lines.
    let lines = text.lines().count();
    let broken = format!("{text}frob(8) g1<1>F;\nmov(8) g1<1>Q7;\n");
    let broken_file = temp_file("large-broken.asm", broken.as_bytes());
    let path = broken_file.to_str().unwrap();
    let (code, _, err) = geneu(&["asm", "--gen", "bdw", path], b"");
    assert_eq!(code, 2);
    assert!(
        err.contains(&format!("{path}:{}:1: error: unknown opcode", lines + 1)),
        "{err}"
    );
    assert!(err.contains(&format!("{path}:{}:", lines + 2)), "{err}");
    for f in [bin_file, asm_file, broken_file] {
        let _ = std::fs::remove_file(f);
    }
}

/// Mesa's own Broadwell word `mov(16) g10<1>F g4<0,1,0>HF`: only the
/// mixed-float rule borrowed from Skylake's documentation (conservative)
/// refuses it. Checked `asm` refuses it (exit 1, pointing at --lenient);
/// `--lenient` assembles it to the word `--unchecked` gives, with a
/// warning on stderr naming the rule at its line.
#[test]
fn lenient_assembles_a_conservative_violation_with_a_warning() {
    let text = "mov(8) g2<1>F g3<8,8,1>F { align1 1Q };\nmov(16) g10<1>F g4<0,1,0>HF { align1 1H };\n";
    let (code, out, err) = geneu(&["asm", "--gen", "bdw"], text.as_bytes());
    assert_eq!((code, out.as_str()), (1, ""), "{err}");
    assert!(
        err.contains("<stdin>:2:1: error: ") && err.contains("[mixed_float_f_dst_max_simd8]"),
        "{err}"
    );
    assert!(err.contains("--lenient"), "{err}");

    let (code, unchecked, err) = geneu(&["asm", "--gen", "bdw", "--unchecked"], text.as_bytes());
    assert_eq!(code, 0, "{err}");
    assert_eq!(unchecked.lines().count(), 2);
    for args in [
        &["asm", "--gen", "bdw", "--lenient"][..],
        &["asm", "--gen", "bdw", "--lenient", "--compact"],
    ] {
        let (code, out, err) = geneu(args, text.as_bytes());
        assert_eq!(code, 0, "{args:?}: {err}");
        if !args.contains(&"--compact") {
            assert_eq!(out, unchecked, "{args:?}");
        }
        let warning = err.lines().find(|l| l.contains("warning")).unwrap_or_default();
        assert!(warning.starts_with("<stdin>:2:1: warning: "), "{args:?}: {err}");
        assert!(warning.contains("[mixed_float_f_dst_max_simd8]"), "{err}");
        assert!(!err.contains("<stdin>:1:"), "the clean line warns: {err}");
    }

    // JSON: the warning rides on its instruction.
    let (code, out, err) = geneu(&["asm", "--gen", "bdw", "--lenient", "--json"], text.as_bytes());
    assert_eq!(code, 0, "{err}");
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    let insts = doc["instructions"].as_array().unwrap();
    assert_eq!(insts[0]["warnings"], serde_json::json!([]), "{out}");
    assert_eq!(insts[1]["warnings"][0]["rule"], "mixed_float_f_dst_max_simd8", "{out}");
}

/// `--lenient` still refuses a documented violation (a row of eight floats
/// from g3.1 straddles two registers), and conflicts with --unchecked.
#[test]
fn lenient_refuses_a_documented_violation() {
    let text = "mov(8) g2<1>F g3.1<8,8,1>F { align1 1Q };\n";
    let (code, out, err) = geneu(&["asm", "--gen", "bdw", "--lenient"], text.as_bytes());
    assert_eq!((code, out.as_str()), (1, ""), "{err}");
    assert!(err.contains("[row_within_grf]") && err.contains("error:"), "{err}");
    assert!(!err.contains("warning"), "{err}");
    let (code, _, err) = geneu(&["asm", "--gen", "bdw", "--lenient", "--unchecked"], text.as_bytes());
    assert_eq!(code, 2, "{err}");
}
