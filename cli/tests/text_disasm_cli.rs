//! `geneu disasm`, run as the real binary: input forms, exit codes,
//! truncated input, undecodable words, `--json` and `--check`.

use crate::cli_common;
use cli_common::{corpus, corpus_absent, corpus_bin, corpus_text, geneu, temp_file};

use geneu::{encode_unchecked, ExecSize, Instruction, Opcode, Platform, Region, Src, Type};

#[test]
fn binary_file_prints_mesa_text() {
    if corpus_absent() {
        return;
    }
    let f = temp_file("mov.bin", &corpus_bin("gen8/mov.expected"));
    let (code, out, err) = geneu(&["disasm", "--gen", "bdw", f.to_str().unwrap()], b"");
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, corpus_text("gen8/mov.asm"));
}

#[test]
fn stdin_binary_with_dash_and_without_path() {
    if corpus_absent() {
        return;
    }
    let bin = corpus_bin("gen7.5/mad.expected");
    let want = corpus_text("gen7.5/mad.asm");
    for args in [&["disasm", "--gen", "hsw", "-"][..], &["disasm", "--gen", "7.5"][..]] {
        let (code, out, _) = geneu(args, &bin);
        assert_eq!(code, 0);
        assert_eq!(out, want);
    }
}

#[test]
fn hex_input_in_expected_form() {
    if corpus_absent() {
        return;
    }
    let path = corpus("gen7/add.expected");
    let (code, out, _) = geneu(&["disasm", "--gen", "ivb", "--hex", path.to_str().unwrap()], b"");
    assert_eq!(code, 0);
    assert_eq!(out, corpus_text("gen7/add.asm"));
}

#[test]
fn hex_input_accepts_dwords_and_comments() {
    // mov(8) g17<1>F g12<8,8,1>F as four dwords, between a comment and a blank line.
    let text = b"# a comment\n\n0x00600001 0x22203ae8 0x008d0180 0x00000000\n";
    let (code, out, _) = geneu(&["disasm", "--gen", "8", "--hex"], text);
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "mov(8)          g17<1>F         g12<8,8,1>F                     { align1 1Q };\n"
    );
}

#[test]
fn bad_hex_names_the_line() {
    let (code, out, err) = geneu(&["disasm", "--gen", "8", "--hex"], b"00 11\n");
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert!(err.contains("line 1"), "{err}");
}

#[test]
fn truncated_binary_is_an_error_after_the_complete_words() {
    if corpus_absent() {
        return;
    }
    let mut bin = corpus_bin("gen8/add.expected");
    bin.truncate(16 * 3 + 5);
    let (code, out, err) = geneu(&["disasm", "--gen", "bdw"], &bin);
    assert_eq!(code, 2);
    let asm = corpus_text("gen8/add.asm");
    let want: Vec<&str> = asm.lines().take(3).collect();
    assert_eq!(out.lines().collect::<Vec<_>>(), want);
    assert!(err.contains("truncated"), "{err}");
    assert!(err.contains("5 byte"), "{err}");
    assert!(err.contains("0x30"), "{err}");
}

#[test]
fn undecodable_word_is_a_comment_and_disassembly_continues() {
    if corpus_absent() {
        return;
    }
    let mut bin = corpus_bin("gen8/mov.expected");
    bin.truncate(32);
    // Opcode 0x7f does not exist; bit 7 is reserved as well. CmptCtrl
    // (bit 29) is clear: a native word.
    let mut bad = [0xffu8; 16];
    bad[3] = 0xdf;
    bin.splice(16..16, bad);
    let (code, out, _) = geneu(&["disasm", "--gen", "bdw"], &bin);
    assert_eq!(code, 1);
    let lines: Vec<&str> = out.lines().collect();
    let asm = corpus_text("gen8/mov.asm");
    let want: Vec<&str> = asm.lines().take(2).collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0], want[0]);
    assert!(
        lines[1].starts_with("// undecodable word ff ff ff df ff ff ff ff ff ff ff ff ff ff ff ff: "),
        "{}",
        lines[1]
    );
    assert_eq!(lines[2], want[1]);
}

#[test]
fn labels_are_defined_before_their_targets() {
    if corpus_absent() {
        return;
    }
    let path = corpus("gen8/else.expected");
    let (code, out, _) = geneu(&["disasm", "--gen", "bdw", "--hex", path.to_str().unwrap()], b"");
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4);
    assert_eq!(lines[3], "LABEL0:");
    assert!(lines[0].starts_with("else(8)         JIP: LABEL0"), "{}", lines[0]);
    assert!(lines[0].contains("UIP: LABEL0"), "{}", lines[0]);
}

#[test]
fn json_has_stable_keys() {
    if corpus_absent() {
        return;
    }
    let path = corpus("gen8/while.expected");
    let (code, out, _) = geneu(
        &["disasm", "--gen", "bdw", "--hex", "--json", path.to_str().unwrap()],
        b"",
    );
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let mut keys: Vec<&str> = v.as_object().unwrap().keys().map(|k| k.as_str()).collect();
    keys.sort();
    assert_eq!(
        keys,
        [
            "command",
            "errors",
            "file",
            "instructions",
            "labels",
            "platform",
            "schema",
            "trailing_bytes"
        ]
    );
    // The platform as --gen names it.
    assert_eq!(v["platform"], Platform::Gen8.name());
    let insts = v["instructions"].as_array().unwrap();
    assert_eq!(insts.len(), 4);
    let mut k: Vec<&str> = insts[0].as_object().unwrap().keys().map(|k| k.as_str()).collect();
    k.sort();
    assert_eq!(
        k,
        [
            "bytes",
            "compacted",
            "error",
            "label",
            "native",
            "offset",
            "text",
            "violations"
        ]
    );
    assert_eq!(insts[0]["compacted"], false);
    // The loop target is the first instruction.
    assert_eq!(v["labels"], serde_json::json!([{"name": "LABEL0", "offset": 0}]));
    assert_eq!(insts[0]["label"], "LABEL0");
    assert_eq!(insts[1]["offset"], 16);
    assert!(insts[1]["text"]
        .as_str()
        .unwrap()
        .starts_with("while(16)       JIP: LABEL0"));
    assert_eq!(insts[1]["error"], serde_json::Value::Null);
}

#[test]
fn json_reports_undecodable_words() {
    // A native word (CmptCtrl, bit 29, clear): with it set the stream
    // reader takes the first 8 bytes as a compacted instruction.
    let mut word = [0xff; 16];
    word[3] &= !0x20;
    let (code, out, _) = geneu(&["disasm", "--gen", "ivb", "--json"], &word);
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["instructions"][0]["text"], serde_json::Value::Null);
    // The library's DecodeError by its kind and text, at the word's offset.
    let err = geneu::decode(Platform::Gen7, &word).unwrap_err();
    let e = &v["instructions"][0]["error"];
    assert_eq!(e["kind"], err.kind());
    assert_eq!(e["message"], err.to_string());
    assert_eq!(e["at"]["offset"], 0);
}

/// `mov(1)` reading an 8-wide row: the region is wider than the execution size.
fn bad_region_mov() -> [u8; 16] {
    let mut i = Instruction::new(Opcode::Mov, ExecSize::S1);
    i.dst = geneu::Dst::grf(2, 0, Type::F);
    i.src[0] = Src::grf(3, 0, Type::F, Region::new(8, 8, 1).unwrap());
    encode_unchecked(Platform::Gen8, &i).unwrap()
}

#[test]
fn check_appends_violations_as_comments() {
    let word = bad_region_mov();
    let (code, out, _) = geneu(&["disasm", "--gen", "bdw"], &word);
    assert_eq!(code, 0);
    assert!(!out.contains("//"));
    let (code, out, _) = geneu(&["disasm", "--gen", "bdw", "--check"], &word);
    assert_eq!(code, 1);
    let line = out.lines().next().unwrap();
    assert!(line.starts_with("mov(1)          g2<1>F          g3<8,8,1>F"), "{line}");
    let (_, comment) = line.split_once(" }; // ").unwrap();
    assert!(comment.contains("exec_size_ge_width"), "{comment}");
    // Each violation shows its basis.
    assert!(comment.contains("(documented: "), "{comment}");
    let (code, out, _) = geneu(&["disasm", "--gen", "bdw", "--check", "--json"], &word);
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let vs = v["instructions"][0]["violations"].as_array().unwrap();
    let rules: Vec<&str> = vs.iter().map(|x| x["rule"].as_str().unwrap()).collect();
    assert!(rules.contains(&"exec_size_ge_width"), "{rules:?}");
    for x in vs {
        // The basis as the text prints it.
        let basis = &x["basis"];
        let want = geneu::validate::find_rule(x["rule"].as_str().unwrap()).unwrap().basis;
        assert_eq!(basis, want.name(), "{x}");
    }
}

#[test]
fn valid_program_passes_check() {
    if corpus_absent() {
        return;
    }
    let (code, out, _) = geneu(&["disasm", "--gen", "bdw", "--check"], &corpus_bin("gen8/add.expected"));
    assert_eq!(code, 0, "{out}");
    assert_eq!(out, corpus_text("gen8/add.asm"));
}

#[test]
fn missing_file_and_bad_platform_exit_2() {
    let (code, _, err) = geneu(&["disasm", "--gen", "bdw", "/nonexistent/geneu-input.bin"], b"");
    assert_eq!(code, 2);
    assert!(err.contains("/nonexistent/geneu-input.bin"), "{err}");
    let (code, _, err) = geneu(&["disasm", "--gen", "skl"], b"");
    assert_eq!(code, 2);
    assert!(err.contains("skl"), "{err}");
}

#[test]
fn empty_input_prints_nothing() {
    let (code, out, err) = geneu(&["disasm", "--gen", "bdw"], b"");
    assert_eq!((code, out.as_str(), err.as_str()), (0, "", ""));
}

/// `--syntax iga` prints `iga64`'s own text of the Mesa words of
/// `gen8/add` (`../iga/gen8/add.iga`), with the field annotation on
/// exactly the words `iga64 -a` does not give back from that text
/// (`add.iga.expected`).
#[test]
fn syntax_iga_prints_iga64_text_annotating_the_words_it_would_not_encode() {
    if corpus_absent() {
        return;
    }
    let path = corpus("gen8/add.expected");
    let (code, out, err) = geneu(
        &[
            "disasm",
            "--gen",
            "bdw",
            "--syntax",
            "iga",
            "--hex",
            path.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(code, 0, "{err}");
    let iga = std::fs::read_to_string(corpus("../iga/gen8/add.iga")).unwrap();
    let assembled = std::fs::read_to_string(corpus("../iga/gen8/add.iga.expected")).unwrap();
    let mesa: Vec<&str> = corpus_text("gen8/add.expected").leak().lines().collect();
    let got: Vec<&str> = out.lines().collect();
    let want: Vec<&str> = iga.lines().collect();
    assert_eq!(got.len(), want.len());
    let (mut word, mut annotated) = (0, 0);
    for (g, w) in got.iter().zip(&want) {
        // The annotation: ` [...]` after the operands and options.
        let (plain, note) = match (g.rfind(" ["), g.ends_with(']')) {
            (Some(k), true) => (&g[..k], true),
            _ => (*g, false),
        };
        assert_eq!(plain.trim_end(), w.trim_end());
        if w.ends_with(':') {
            assert!(!note, "a label line: {g}");
            continue;
        }
        let same = mesa[word]
            .split_whitespace()
            .eq(assembled.lines().nth(word).unwrap().split_whitespace());
        assert_eq!(note, !same, "word {}: {g}", word + 1);
        annotated += usize::from(note);
        word += 1;
    }
    assert_eq!(word, mesa.len());
    assert!(annotated > 0);
}
