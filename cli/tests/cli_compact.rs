//! Compaction on the command line, run as the real binary: `asm
//! --compact`, `disasm` of mixed streams and `--uncompact`, `check` at a
//! compacted instruction's own offset, `fields` and `diff` of compacted
//! words, each with `--json`.

use crate::cli_common;
use cli_common::*;

/// Every corpus assembly file of a platform directory.
fn corpus_asm(gen: &str) -> Vec<std::path::PathBuf> {
    let mut v: Vec<_> = std::fs::read_dir(corpus(gen))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "asm"))
        .collect();
    v.sort();
    v
}

const GENS: [(&str, &str); 3] = [("gen7", "ivb"), ("gen7.5", "hsw"), ("gen8", "bdw")];

/// The instruction sizes of a stream, by each one's CmptCtrl bit.
fn sizes(bytes: &[u8]) -> Vec<usize> {
    let mut v = Vec::new();
    let mut o = 0;
    while o < bytes.len() {
        let n = if bytes[o + 3] & 0x20 != 0 { 8 } else { 16 };
        v.push(n);
        o += n;
    }
    assert_eq!(o, bytes.len());
    v
}

fn run_ok(args: &[&str], stdin: &[u8]) -> (Vec<u8>, String) {
    let (code, out, err) = geneu_bytes(args, stdin);
    assert_eq!(code, 0, "{args:?}: {err}");
    (out, err)
}

fn text(b: Vec<u8>) -> String {
    String::from_utf8(b).unwrap()
}

/// For every corpus program: `asm --compact` compacts some instructions,
/// reports how many and the bytes saved, and the stream disassembles to
/// the text of the native program apart from the `compacted` option (so
/// every branch lands on the same instruction); `disasm --uncompact` gives
/// the native program's text exactly, and re-assembling the compacted
/// text (with its `compacted` options) with `--compact` gives the same
/// bytes.
#[test]
fn asm_compact_keeps_every_program_s_meaning() {
    if corpus_absent() {
        return;
    }
    let mut total = 0;
    for (gen, p) in GENS {
        for f in corpus_asm(gen) {
            let f = f.to_str().unwrap();
            let (native, err) = run_ok(&["asm", "--gen", p, "--type", "bin", f], b"");
            assert!(err.is_empty(), "{err}");
            assert!(
                sizes(&native).iter().all(|&n| n == 16),
                "{f}: asm without --compact gives native words"
            );
            let (small, report) = run_ok(&["asm", "--gen", p, "--compact", "--type", "bin", f], b"");
            let s = sizes(&small);
            let compacted = s.iter().filter(|&&n| n == 8).count();
            total += compacted;
            assert_eq!(s.len(), native.len() / 16, "{f}");
            assert_eq!(
                report,
                format!(
                    "geneu: compacted {compacted} of {} instruction(s), {} bytes saved\n",
                    s.len(),
                    native.len() - small.len()
                ),
                "{f}"
            );
            let want = text(run_ok(&["disasm", "--gen", p], &native).0);
            let got = text(run_ok(&["disasm", "--gen", p], &small).0);
            assert_eq!(got.matches(" compacted").count(), compacted, "{f}");
            assert_eq!(got.replace(" compacted", ""), want, "{f}");
            let unc = text(run_ok(&["disasm", "--gen", p, "--uncompact"], &small).0);
            assert_eq!(unc, want, "{f}");
            let again = run_ok(&["asm", "--gen", p, "--compact", "--type", "bin"], got.as_bytes()).0;
            assert_eq!(
                again, small,
                "{f}: the disassembly of a compacted stream assembles back to it"
            );
        }
    }
    assert!(total > 100, "the corpus compacts ({total} instructions)");
}

/// A stream that compacts only some of the instructions that could be
/// (every second one here, as a compiler may choose) survives `disasm`
/// then `asm --compact=marked` byte for byte, for every corpus program;
/// `--compact` (all) would compact the others too.
#[test]
fn asm_compact_marked_gives_a_mixed_stream_back() {
    if corpus_absent() {
        return;
    }
    let mut mixed = 0;
    for (gen, p) in GENS {
        for f in corpus_asm(gen) {
            let f = f.to_str().unwrap();
            let native = run_ok(&["asm", "--gen", p, "--type", "bin", f], b"").0;
            let all = run_ok(&["asm", "--gen", p, "--compact", "--type", "bin", f], b"").0;
            // Every second compacted instruction of `all`, written native.
            let (mut stream, mut at, mut k, mut n) = (Vec::new(), 0, 0, 0);
            for size in sizes(&all) {
                let piece = if size == 8 && n % 2 == 1 {
                    // The native word: no branch in between moves (the
                    // corpus's label programs are kept whole below).
                    &native[k * 16..k * 16 + 16]
                } else {
                    &all[at..at + size]
                };
                n += usize::from(size == 8);
                stream.extend_from_slice(piece);
                at += size;
                k += 1;
            }
            // Writing a word native moves later branch offsets, so in a
            // program with branches only the all-compacted form is real.
            let has_branches = std::fs::read_to_string(f).unwrap().contains("JIP");
            let program = if has_branches { &all } else { &stream };
            let text_of = text(run_ok(&["disasm", "--gen", p], program).0);
            let (code, back, err) = geneu_bytes(
                &["asm", "--gen", p, "--compact=marked", "--type", "bin"],
                text_of.as_bytes(),
            );
            assert_eq!(code, 0, "{f}: {err}");
            assert_eq!(&back, program, "{f}: disasm then asm --compact=marked");
            mixed += usize::from(!has_branches && stream != all && stream != native);
        }
    }
    assert!(mixed > 10, "mixed streams: {mixed}");
}

/// An instruction marked `compacted` that has no 8-byte form is an error
/// at its line with `--compact=marked`; `--compact` (all) writes it native.
#[test]
fn asm_compact_marked_names_the_line_that_cannot_compact() {
    let text = "mov(8)          g17<1>F         g12<8,8,1>F                     { align1 1Q compacted };\n\
                send(8)         g9<1>UD         g2<8,8,1>UD     0x02280300\n    \
                const MsgDesc: (0, 3, 0, 0) mlen 1 rlen 2 { align1 WE_all 1Q compacted };\n";
    let (code, out, err) = geneu(&["asm", "--gen", "bdw", "--compact=marked"], text.as_bytes());
    assert_eq!(code, 2, "{out}");
    assert!(out.is_empty());
    assert!(
        err.starts_with(
            "<stdin>:2:1: error: offset 16: send is marked compacted but the platform cannot express it in 8 bytes\n"
        ),
        "{err}"
    );
    let (code, out, _) = geneu(&["asm", "--gen", "bdw", "--compact=marked", "--json"], text.as_bytes());
    assert_eq!(code, 2);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let at = &v["errors"][0]["at"];
    assert_eq!((&at["line"], &at["column"]), (&2.into(), &1.into()));
    assert_eq!(v["errors"][0]["kind"], "not_compactable");
    let (code, _, err) = geneu(&["asm", "--gen", "bdw", "--compact"], text.as_bytes());
    assert_eq!(code, 0);
    assert_eq!(err, "geneu: compacted 1 of 2 instruction(s), 8 bytes saved\n");
}

#[test]
fn asm_compact_hex_and_c_forms_write_8_byte_records() {
    let src = "mov(8) g10<1>F g2<8,8,1>F { align1 1Q };\n\
               add(8) g12<1>F g11<8,8,1>F 0x3f800000F { align1 1Q };\n";
    let (hex, _) = run_ok(&["asm", "--gen", "bdw", "--compact"], src.as_bytes());
    let lines: Vec<&str> = std::str::from_utf8(&hex).unwrap().lines().collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0].split(' ').count(), 8, "{hex:?}");
    assert_eq!(lines[1].split(' ').count(), 16);
    let (c, _) = run_ok(&["asm", "--gen", "bdw", "--compact", "--type", "c"], src.as_bytes());
    let c = text(c);
    let rows: Vec<&str> = c.lines().filter(|l| l.starts_with("    0x")).collect();
    assert_eq!(rows.len(), 2, "{c}");
    assert_eq!(rows[0].matches("0x").count(), 2, "{c}");
    assert_eq!(rows[1].matches("0x").count(), 4, "{c}");
    // The C dwords are the hex bytes, DW0 first.
    let b: Vec<u8> = lines[0]
        .split(' ')
        .map(|t| u8::from_str_radix(t, 16).unwrap())
        .collect();
    let dw0 = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
    assert!(rows[0].trim_start().starts_with(&format!("0x{dw0:08x},")), "{c}");
}

#[test]
fn asm_compact_json_reports_the_compaction() {
    // The kernel example: if/else/endif and a SEND among ALU instructions.
    let f = std::path::PathBuf::from(format!("{}/../examples/kernel.asm", env!("CARGO_MANIFEST_DIR")));
    let (out, err) = run_ok(
        &["asm", "--gen", "bdw", "--compact", "--json", f.to_str().unwrap()],
        b"",
    );
    assert!(err.starts_with("geneu: compacted "), "{err}");
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    let insts = v["instructions"].as_array().unwrap();
    let c = &v["compaction"];
    assert_eq!(c["instructions"], insts.len());
    let flagged = insts.iter().filter(|i| i["compacted"] == true).count();
    assert_eq!(c["compacted"], flagged);
    assert!(flagged > 0);
    assert!(c.get("bytes").is_none(), "the counts, not the bytes");
    let mut at = 0;
    for i in insts {
        assert_eq!(i["offset"], at);
        let n = i["bytes"].as_str().unwrap().split(' ').count();
        assert_eq!(n, if i["compacted"] == true { 8 } else { 16 });
        at += n;
    }
    assert_eq!(c["saved_bytes"], insts.len() * 16 - at);
    // Without --compact: no compaction document, every word 16 bytes.
    let (out, err) = run_ok(&["asm", "--gen", "bdw", "--json", f.to_str().unwrap()], b"");
    assert!(err.is_empty());
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert!(v["compaction"].is_null());
    assert_eq!(v["instructions"][0]["compacted"], false);
}

/// A Gen8 program of a compacted mov, a native add with an immediate and
/// a compacted mov whose source region is wider than its execution size
/// (`exec_size_ge_width`): the violation is the third instruction's, at
/// byte 0x18.
fn bad_stream() -> Vec<u8> {
    let src = "mov(8) g10<1>F g2<8,8,1>F { align1 1Q };\n\
               add(8) g12<1>F g11<8,8,1>F 0x3f800000F { align1 1Q };\n\
               mov(8) g10<1>F g2<16,16,1>F { align1 1Q };\n";
    let (b, _) = run_ok(
        &["asm", "--gen", "bdw", "--compact", "--unchecked", "--type", "bin"],
        src.as_bytes(),
    );
    assert_eq!(sizes(&b), [8, 16, 8]);
    b
}

#[test]
fn check_reports_a_compacted_violation_at_its_own_offset() {
    let b = bad_stream();
    let (code, out, err) = geneu(&["check", "--gen", "bdw", "--bin"], &b);
    assert_eq!(code, 1, "{err}");
    assert!(
        out.starts_with("<stdin>: word 2 (offset 0x18, compacted): violation [exec_size_ge_width] src0:"),
        "{out}"
    );
    assert!(out.contains("{ align1 1Q compacted };"), "{out}");
    let (code, out, _) = geneu(&["check", "--gen", "bdw", "--bin", "--json"], &b);
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["instructions"], 3);
    let r = &v["violations"][0];
    assert_eq!(r["at"]["offset"], 0x18);
    assert_eq!(r["at"]["word"], 2);
    assert_eq!(r["compacted"], true);
    assert_eq!(r["rule"], "exec_size_ge_width");
    // The same stream as hex, 8- and 16-byte lines: the line of the word.
    let hex: String = {
        let mut s = String::new();
        let mut o = 0;
        for n in sizes(&b) {
            let line: Vec<String> = b[o..o + n].iter().map(|x| format!("{x:02x}")).collect();
            s.push_str(&line.join(" "));
            s.push('\n');
            o += n;
        }
        s
    };
    let (code, out, _) = geneu(&["check", "--gen", "bdw", "--json"], hex.as_bytes());
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let at = &v["violations"][0]["at"];
    assert_eq!(
        (at["line"].as_u64(), at["offset"].as_u64()),
        (Some(3), Some(0x18)),
        "{out}"
    );
    // A native violation is not marked.
    let (_, out, _) = geneu(
        &["check", "--gen", "bdw"],
        b"mov(8) g10<1>UB g2<8,8,1>F { align1 1Q };\n",
    );
    assert!(!out.contains("compacted"), "{out}");
}

#[test]
fn disasm_marks_compacted_instructions_and_uncompacts() {
    let b = bad_stream();
    let (code, out, _) = geneu(&["disasm", "--gen", "bdw", "--print-offset", "--print-bytes"], &b);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("/* 0000: "), "{out}");
    assert!(lines[0].ends_with("{ align1 1Q compacted };"), "{out}");
    assert!(lines[1].starts_with("/* 0008: "), "{out}");
    assert!(lines[2].starts_with("/* 0018: "), "{out}");
    // --uncompact: native words, 16 bytes each.
    let (code, out, _) = geneu(&["disasm", "--gen", "bdw", "--uncompact", "--print-bytes"], &b);
    assert_eq!(code, 0);
    for l in out.lines() {
        let bytes = l.trim_start_matches("/* ").split(" */").next().unwrap();
        assert_eq!(bytes.split(' ').count(), 16, "{l}");
        assert!(!l.contains("compacted"), "{l}");
    }
    // --json: each instruction's own bytes, whether compacted, and a
    // compacted one's native form.
    let (_, out, _) = geneu(&["disasm", "--gen", "bdw", "--json", "--check"], &b);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let insts = v["instructions"].as_array().unwrap();
    assert_eq!(insts.len(), 3);
    assert_eq!(insts[0]["compacted"], true);
    assert_eq!(insts[0]["bytes"].as_str().unwrap().split(' ').count(), 8);
    assert_eq!(insts[0]["native"].as_str().unwrap().split(' ').count(), 16);
    assert_eq!(insts[1]["compacted"], false);
    assert!(insts[1]["native"].is_null());
    assert_eq!(insts[2]["offset"], 0x18);
    assert_eq!(insts[2]["violations"][0]["rule"], "exec_size_ge_width");
}

#[test]
fn truncated_mixed_streams_say_what_is_missing() {
    let b = bad_stream();
    // Cut inside the native add: 4 of its 16 bytes are left.
    let cut = &b[..12];
    let (code, out, err) = geneu(&["disasm", "--gen", "bdw"], cut);
    assert_eq!(code, 2);
    assert_eq!(out.lines().count(), 1);
    assert!(
        err.contains("truncated input: 4 byte(s) at offset 0x8, where the instruction needs 16"),
        "{err}"
    );
    let (code, _, err) = geneu(&["check", "--gen", "bdw", "--bin"], cut);
    assert_eq!(code, 2);
    assert!(err.contains("truncated input: 4 byte(s) at offset 0x8"), "{err}");
    // A native word given as 8 bytes to `fields`.
    let (code, _, err) = geneu(&["fields", "--gen", "bdw", "01 00 60 00 e8 3a 40 21"], b"");
    assert_eq!(code, 2);
    assert!(
        err.contains("needs 16 bytes (its CmptCtrl bit 29 is 0), and 8 are left"),
        "{err}"
    );
    // --uncompact of a stream that does not decode names the offset.
    let (code, _, err) = geneu(
        &["disasm", "--gen", "bdw", "--uncompact"],
        &[0x7f, 0, 0, 0x20, 0, 0, 0, 0],
    );
    assert_eq!(code, 2);
    assert!(err.contains("cannot uncompact the program: offset 0:"), "{err}");
}

/// The compacted mov of the Gen8 kernel example: `mov(8) g10<1>F
/// g2<8,8,1>F`.
const COMPACT_MOV: &str = "01 0b 01 20 07 0a 02 00";
/// The compacted mul after it: `mul(8) g11<1>F g10<8,8,1>F g3<0,1,0>F`.
const COMPACT_MUL: &str = "41 4b 02 20 07 0b 0a 03";
/// The native form of COMPACT_MOV.
const NATIVE_MOV: &str = "01 00 60 00 e8 3a 40 21 40 00 8d 00 00 00 00 00";

fn snapshot(name: &str) -> String {
    std::fs::read_to_string(format!("{}/tests/snapshots/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

#[test]
fn fields_of_a_compacted_word_show_indices_and_their_entries() {
    let (code, out, _) = geneu(&["fields", "--gen", "bdw", COMPACT_MOV], b"");
    assert_eq!(code, 0);
    assert_eq!(out, snapshot("fields_gen8_compact_mov.txt"));
    assert!(out.starts_with("compacted word 01 0b 01 20 07 0a 02 00 (byte 0)\n"));
    assert!(out.contains(&format!("native form {NATIVE_MOV}\n")));
    // The dword form (2 dwords) is the same word.
    let (_, dw, _) = geneu(&["fields", "--gen", "bdw", "0x20010b01", "0x00020a07"], b"");
    assert_eq!(dw, out);
    // Its native form alone gives the native half of the listing.
    let (_, native, _) = geneu(&["fields", "--gen", "bdw", NATIVE_MOV], b"");
    let tail = out.split_once("native form ").unwrap().1;
    assert_eq!(native.split_once("word ").unwrap().1, tail);
    // A mixed stream: both instructions, in order.
    let (code, out, _) = geneu(&["fields", "--gen", "bdw", COMPACT_MOV, NATIVE_MOV, COMPACT_MUL], b"");
    assert_eq!(code, 0);
    assert!(out.contains("compacted word 01 0b 01 20 07 0a 02 00 (byte 0)"));
    assert!(out.contains(&format!("\nword {NATIVE_MOV}\n")));
    assert!(
        out.contains("compacted word 41 4b 02 20 07 0b 0a 03 (byte 24)"),
        "{out}"
    );
}

#[test]
fn fields_json_of_a_compacted_word() {
    let (code, out, _) = geneu(&["fields", "--gen", "bdw", "--json", COMPACT_MUL], b"");
    assert_eq!(code, 0);
    assert_eq!(out, snapshot("fields_gen8_compact_mul_json.txt"));
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let w = &v["instructions"][0];
    assert_eq!(w["compacted"], true);
    assert_eq!(w["bytes"], COMPACT_MUL);
    let control = w["compact_fields"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["name"] == "control_index")
        .unwrap();
    assert_eq!(control["selects"]["table"], "control");
    assert!(control["selects"]["source"]
        .as_str()
        .unwrap()
        .starts_with("tables/compact_gen8.idx:"));
    let exec = control["selects"]["native_fields"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["name"] == "exec_size")
        .unwrap();
    assert_eq!(exec["raw"], 3);
    assert_eq!(w["fields"][0]["meaning"], "mul");
    assert!(w["error"].is_null());
}

#[test]
fn diff_of_compacted_words() {
    let (code, out, _) = geneu(&["diff", "--gen", "bdw", COMPACT_MOV, COMPACT_MUL], b"");
    assert_eq!(code, 1);
    assert_eq!(out, snapshot("diff_gen8_compact.txt"));
    assert!(out.contains("datatype_index     [17:13] 0x8 (datatype[8] = "), "{out}");
    let (code, out, _) = geneu(&["diff", "--gen", "bdw", "--json", COMPACT_MOV, COMPACT_MUL], b"");
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["compacted"], serde_json::json!([true, true]));
    let dt = v["compact_fields"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["name"] == "datatype_index")
        .unwrap();
    assert_eq!((dt["a"]["raw"].as_u64(), dt["b"]["raw"].as_u64()), (Some(8), Some(18)));
    assert_eq!(dt["a"]["selects"]["table"], "datatype");
    assert!(v["fields"].as_array().unwrap().iter().any(|f| f["name"] == "opcode"));
    // A compacted word and its own native form: equal native forms.
    let (code, out, _) = geneu(&["diff", "--gen", "bdw", COMPACT_MOV, NATIVE_MOV], b"");
    assert_eq!(code, 1, "the bytes differ");
    assert_eq!(out, "a is compacted, b is native\nnative forms: equal\n");
    // Two native words: neither compacted, no compacted fields.
    let (_, out, _) = geneu(&["diff", "--gen", "bdw", "--json", NATIVE_MOV, NATIVE_MOV], b"");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["compacted"], serde_json::json!([false, false]));
    assert_eq!(v["compact_fields"], serde_json::json!([]));
}

#[test]
fn help_shows_the_compaction_flags_with_examples() {
    for (cmd, flag) in [
        ("asm", "--compact"),
        ("disasm", "--uncompact"),
        ("fields", "compacted"),
        ("check", "compacted"),
        ("diff", "compacted"),
    ] {
        let (code, out, _) = geneu(&[cmd, "--help"], b"");
        assert_eq!(code, 0);
        assert!(out.contains(flag), "{cmd}: {out}");
    }
    let (_, out, _) = geneu(&["asm", "--help"], b"");
    assert!(out.contains("geneu asm --gen bdw --compact"), "{out}");
    assert!(out.contains("--compact=marked"), "{out}");
    let (_, out, _) = geneu(&["disasm", "--help"], b"");
    assert!(out.contains("geneu disasm --gen bdw --uncompact"), "{out}");
}
