//! The bring-up flags of the `geneu` command, run as the real binary:
//! platform aliases, hex detection and columns in `disasm`, SEND
//! descriptors field by field in `fields`, `diff` and `desc`, `--json`,
//! `--rule`, `--skip` and `--list-rules` in `check`, `asm --json`, error
//! messages that say what was expected, and examples in every `--help`.

use crate::cli_common;
use cli_common::*;

use geneu::Platform;
use serde_json::Value;

/// A Gen8 SIMD8 URB write (global offset 1, mlen 5, EOT) from the corpus.
const URB_WRITE: &str = "31 00 60 06 e0 3a 00 20 60 0f 8d 06 17 00 08 8a";
/// The same with global offset 2.
const URB_WRITE_2: &str = "31 00 60 06 e0 3a 00 20 60 0f 8d 06 27 00 08 8a";

fn json(s: &str) -> Value {
    serde_json::from_str(s).unwrap_or_else(|e| panic!("{e}: {s}"))
}

#[test]
fn platform_aliases_follow_mesa() {
    if corpus_absent() {
        return;
    }
    let hex = corpus("gen7/send.expected");
    let hex = hex.to_str().unwrap();
    let ivb = geneu(&["disasm", "--gen", "ivb", hex], b"");
    assert_eq!(ivb.0, 0, "{}", ivb.2);
    for alias in ["byt", "7", "IVB"] {
        assert_eq!(geneu(&["disasm", "--gen", alias, hex], b""), ivb, "{alias}");
    }
    let chv = geneu(&["fields", "--gen", "chv", URB_WRITE], b"");
    assert_eq!(geneu(&["fields", "--gen", "bsw", URB_WRITE], b""), chv);
    let hsw = geneu(&["fields", "--gen", "hsw", URB_WRITE], b"");
    assert_eq!(geneu(&["fields", "--gen", "7.5", URB_WRITE], b""), hsw);
    let (code, _, err) = geneu(&["fields", "--gen", "skl", URB_WRITE], b"");
    assert_eq!(code, 2);
    assert!(
        err.contains("expected ivb, byt, hsw, bdw, chv, bsw, 7, 7.5 or 8"),
        "{err}"
    );
}

#[test]
fn disasm_detects_hex_and_bin_forces_binary() {
    if corpus_absent() {
        return;
    }
    let hex = corpus("gen8/send.expected");
    let hex = hex.to_str().unwrap();
    let forced = geneu(&["disasm", "--gen", "bdw", "--hex", hex], b"");
    assert_eq!(forced.0, 0, "{}", forced.2);
    assert!(forced.1.contains("send(8)"), "{}", forced.1);
    assert_eq!(geneu(&["disasm", "--gen", "bdw", hex], b""), forced);
    // On stdin too.
    let text = std::fs::read(hex).unwrap();
    assert_eq!(geneu(&["disasm", "--gen", "bdw"], &text), forced);
    // --bin reads the hex text's own bytes as words: not the program.
    let (_, bin_out, _) = geneu(&["disasm", "--gen", "bdw", "--bin", hex], b"");
    assert_ne!(bin_out, forced.1);
    // Real binary stays binary.
    let bytes = corpus_bin("gen8/send.expected");
    assert_eq!(geneu(&["disasm", "--gen", "bdw"], &bytes), forced);
    let (code, _, err) = geneu(&["disasm", "--gen", "bdw", "--hex", "--bin"], b"");
    assert_eq!(code, 2, "{err}");
}

#[test]
fn disasm_offset_and_bytes_columns() {
    if corpus_absent() {
        return;
    }
    let bytes = corpus_bin("gen8/add.expected");
    let (code, plain, err) = geneu(&["disasm", "--gen", "bdw"], &bytes);
    assert_eq!(code, 0, "{err}");
    let (_, off, _) = geneu(&["disasm", "--gen", "bdw", "--print-offset"], &bytes);
    let (_, bits, _) = geneu(&["disasm", "--gen", "bdw", "--print-bytes"], &bytes);
    let (_, both, _) = geneu(&["disasm", "--gen", "bdw", "--print-offset", "--print-bytes"], &bytes);
    let plain: Vec<&str> = plain.lines().collect();
    for (k, ((o, b), ob)) in off.lines().zip(bits.lines()).zip(both.lines()).enumerate() {
        let word: Vec<String> = bytes[k * 16..k * 16 + 16].iter().map(|b| format!("{b:02x}")).collect();
        let word = word.join(" ");
        assert_eq!(o, format!("/* {:04x} */ {}", k * 16, plain[k]));
        assert_eq!(b, format!("/* {word} */ {}", plain[k]));
        assert_eq!(ob, format!("/* {:04x}: {word} */ {}", k * 16, plain[k]));
    }
    assert_eq!(both.lines().count(), plain.len());
    // The columns are comments: the text still assembles to the words.
    let (code, bin, err) = geneu_bytes(&["asm", "--gen", "bdw", "--type", "bin"], both.as_bytes());
    assert_eq!(code, 0, "{err}");
    assert_eq!(bin, bytes);
}

#[test]
fn fields_decode_a_send_descriptor_in_descriptor_bits() {
    let (code, out, err) = geneu(&["fields", "--gen", "bdw", URB_WRITE], b"");
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("descriptor 0x8a080017, SFID 6 (urb): urb MsgDesc: 1 SIMD8 write mlen 5 rlen 0"),
        "{out}"
    );
    for row in [
        "eot                    [    31]          0x1  1",
        "mlen                   [ 28:25]          0x5  5",
        "urb_opcode             [   3:0]          0x7  7",
        "global_offset          [  14:4]          0x1  1",
        "channel_mask_present   [    15]          0x0  0",
        "per_slot_offset        [    17]          0x0  0",
    ] {
        assert!(out.contains(row), "{row}: {out}");
    }
    // Not the SIMD8 opcode's alias of bit 15.
    assert!(!out.contains("swizzle_control"), "{out}");
    let (_, out, _) = geneu(&["fields", "--gen", "bdw", "--json", URB_WRITE], b"");
    let v = json(&out);
    let d = &v["instructions"][0]["descriptor"];
    assert_eq!(d["sfid"], 6);
    assert_eq!(d["desc"], "0x8a080017");
    // The descriptor's fields are the library's, by name, bits and value.
    let fields = geneu::msg::desc_fields(Platform::Gen8, 6, 0x8a08_0017);
    let f = d["fields"].as_array().unwrap();
    assert_eq!(f.len(), fields.len());
    for (j, lib) in f.iter().zip(&fields) {
        assert_eq!(j["name"], lib.field.name);
        assert_eq!(j["bits"], serde_json::to_value(lib.field.frags).unwrap());
        assert_eq!(j["raw"], lib.raw);
    }
    let off = f.iter().find(|f| f["name"] == "global_offset").unwrap();
    assert_eq!(off["bits"], serde_json::json!([[14, 4]]));
    assert_eq!(off["raw"], 1);
    // Typed: no error, and Mesa's text.
    assert!(d["error"].is_null(), "{d}");
    assert_eq!(d["text"], "urb MsgDesc: 1 SIMD8 write mlen 5 rlen 0");
    // A word that is not a SEND has no descriptor.
    let mov = "01 00 60 00 e8 3a 20 22 80 01 8d 00 00 00 00 00";
    let (_, out, _) = geneu(&["fields", "--gen", "bdw", mov], b"");
    assert!(!out.contains("descriptor"), "{out}");
}

#[test]
fn fields_split_data_port_message_control() {
    // Haswell untyped atomic OR, SIMD8, returning data (dp data 1).
    let (code, out, err) = geneu(&["desc", "--gen", "hsw", "--sfid", "dp data 1", "0x0410b201"], b"");
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("DC untyped atomic op, Surface = 1, SIMD8, or"), "{out}");
    for row in [
        "binding_table_index    [   7:0]          0x1  1",
        "atomic_op              [  11:8]          0x2  2",
        "atomic_simd8           [    12]          0x1  1",
        "return_data            [    13]          0x1  1",
        "msg_type               [ 17:14]          0x2  2",
    ] {
        assert!(out.contains(row), "{row}: {out}");
    }
    assert!(!out.contains("msg_control"), "split into its fields: {out}");
}

#[test]
fn diff_shows_differing_descriptor_fields() {
    let (code, out, err) = geneu(&["diff", "--gen", "bdw", URB_WRITE, URB_WRITE_2], b"");
    assert_eq!(code, 1, "{err}");
    assert!(out.contains("descriptor fields (descriptor bits 31:0):"), "{out}");
    assert!(
        out.contains("global_offset      [14:4] 0x1 (1) -> 0x2 (2)  bits 5,4"),
        "{out}"
    );
    let (_, out, _) = geneu(&["diff", "--gen", "bdw", "--json", URB_WRITE, URB_WRITE_2], b"");
    let v = json(&out);
    let d = v["descriptor_fields"].as_array().unwrap();
    assert_eq!(d.len(), 1, "{out}");
    assert_eq!(d[0]["name"], "global_offset");
    assert_eq!(d[0]["changed_bits"], serde_json::json!([5, 4]));
    assert_eq!((d[0]["a"].clone(), d[0]["b"].clone()), (1.into(), 2.into()));
}

#[test]
fn desc_decodes_a_bare_descriptor() {
    let by_name = geneu(&["desc", "--gen", "bdw", "--sfid", "urb", "0x8a080017"], b"");
    assert_eq!(by_name.0, 0, "{}", by_name.2);
    assert!(
        by_name.1.contains("urb MsgDesc: 1 SIMD8 write mlen 5 rlen 0"),
        "{}",
        by_name.1
    );
    assert_eq!(
        geneu(&["desc", "--gen", "bdw", "--sfid", "6", "0x8a080017"], b""),
        by_name
    );
    // The extended descriptor gives the SFID (3:0) and EOT (bit 5).
    assert_eq!(geneu(&["desc", "--gen", "bdw", "0x0a080017", "0x26"], b""), by_name);
    let (_, out, _) = geneu(&["desc", "--gen", "bdw", "--json", "0x8a080017", "6"], b"");
    let v = json(&out);
    assert_eq!(v["platform"], "bdw");
    assert!(v["error"].is_null(), "{out}");
    assert!(v["fields"]
        .as_array()
        .unwrap()
        .iter()
        .any(|f| f["name"] == "urb_opcode" && f["raw"] == 7));
    // A reserved encoding is shown raw, with the reason.
    let (code, out, _) = geneu(&["desc", "--gen", "hsw", "--sfid", "render", "0x02106000"], b"");
    assert_eq!(code, 0);
    assert!(
        out.contains("not typed: render cache message type 1 is reserved on hsw"),
        "{out}"
    );
    assert!(out.contains("function_control"), "{out}");
    for (args, expected) in [
        (
            vec!["desc", "--gen", "bdw", "0x8a080017"],
            "expected --sfid S or an extended descriptor",
        ),
        (
            vec!["desc", "--gen", "bdw", "--sfid", "nope", "1"],
            "expected a number 0..15 or a name",
        ),
        (
            vec!["desc", "--gen", "bdw", "--sfid", "6", "zz"],
            "expected a 32-bit number",
        ),
        (
            vec!["desc", "--gen", "bdw", "1", "0x100"],
            "expected only the SFID (bits 3:0) and EOT (bit 5)",
        ),
        (
            vec!["desc", "--gen", "bdw", "1", "0x16"],
            "expected only the SFID (bits 3:0) and EOT (bit 5)",
        ),
        (
            vec!["desc", "--gen", "bdw", "--sfid", "16", "1"],
            "expected a number 0..15 or a name",
        ),
        (
            vec!["desc", "--gen", "bdw", "--sfid", "5", "1", "6"],
            "expected the same shared function",
        ),
    ] {
        let (code, _, err) = geneu(&args, b"");
        assert_eq!(code, 2, "{args:?}");
        assert!(err.contains(expected), "{args:?}: {err}");
    }
}

const BAD: &str = "mov(8) g2<1>F g3<8,8,1>F { align1 1Q };\n\
                   mov(8) g2<0>F g3<8,8,1>F { align1 1Q };\n\
                   mov(4) g2<1>F g3<8,8,1>F { align1 1N };\n";

#[test]
fn check_json() {
    let (code, out, err) = geneu(&["check", "--gen", "bdw", "--json"], BAD.as_bytes());
    assert_eq!(code, 1, "{err}");
    assert!(err.is_empty(), "{err}");
    let v = json(&out);
    assert_eq!(v["instructions"], 3);
    assert_eq!(v["bad_instructions"], 2);
    let vs = v["violations"].as_array().unwrap();
    let rules: Vec<&str> = vs.iter().map(|v| v["rule"].as_str().unwrap()).collect();
    assert!(rules.contains(&"dst_hstride_nonzero"), "{out}");
    assert!(rules.contains(&"exec_size_ge_width"), "{out}");
    let first = vs.iter().find(|v| v["rule"] == "dst_hstride_nonzero").unwrap();
    assert_eq!(first["at"]["line"], 2);
    assert_eq!(first["at"]["column"], 1);
    // The operand and basis as the text prints them.
    assert_eq!(first["operand"], "dst");
    assert_eq!(first["basis"], "documented");
    // Binary input: word index and offset.
    let (_, bin, _) = geneu_bytes(&["asm", "--gen", "bdw", "--unchecked", "--type", "bin"], BAD.as_bytes());
    let (_, out, _) = geneu(&["check", "--gen", "bdw", "--json"], &bin);
    let v = json(&out);
    let at = &v["violations"][0]["at"];
    assert_eq!(
        (at["word"].clone(), at["offset"].clone()),
        (1.into(), 16.into()),
        "{out}"
    );
    // Clean input.
    let (code, out, _) = geneu(
        &["check", "--gen", "bdw", "--json"],
        b"mov(8) g2<1>F g3<8,8,1>F { align1 1Q };\n",
    );
    assert_eq!(code, 0);
    assert_eq!(json(&out)["violations"], serde_json::json!([]));
}

#[test]
fn check_rule_and_skip_filter() {
    let (code, out, _) = geneu(
        &["check", "--gen", "bdw", "--rule", "exec_size_ge_width"],
        BAD.as_bytes(),
    );
    assert_eq!(code, 1);
    assert!(out.contains("[exec_size_ge_width]"), "{out}");
    assert!(!out.contains("[dst_hstride_nonzero]"), "{out}");
    let (code, out, _) = geneu(
        &["check", "--gen", "bdw", "--skip", "exec_size_ge_width"],
        BAD.as_bytes(),
    );
    assert_eq!(code, 1);
    assert!(!out.contains("[exec_size_ge_width]"), "{out}");
    assert!(out.contains("[dst_hstride_nonzero]"), "{out}");
    // Skipping every rule broken leaves a clean run.
    let (code, out, err) = geneu(
        &[
            "check",
            "--gen",
            "bdw",
            "--skip",
            "exec_size_ge_width",
            "--skip",
            "dst_hstride_nonzero",
        ],
        BAD.as_bytes(),
    );
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.is_empty(), "{out}");
    let (code, _, err) = geneu(&["check", "--gen", "bdw", "--rule", "no_such_rule"], BAD.as_bytes());
    assert_eq!(code, 2);
    assert!(err.contains("unknown rule `no_such_rule`: expected a rule id as `geneu check --list-rules` prints"));
}

#[test]
fn check_lists_every_rule() {
    let (code, out, err) = geneu(&["check", "--list-rules"], b"");
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), geneu::validate::RULES.len());
    for r in geneu::validate::list_rules() {
        let line = out.lines().find(|l| l.split_whitespace().next() == Some(r.id)).unwrap();
        assert_eq!(line.split_whitespace().nth(1), Some(r.basis.name()), "{line}");
        assert!(line.ends_with(r.source), "{line}");
    }
    let (_, out, _) = geneu(&["check", "--list-rules", "--json"], b"");
    let v = json(&out);
    let rules = v["rules"].as_array().unwrap();
    assert_eq!(rules.len(), geneu::validate::RULES.len());
    for (r, info) in rules.iter().zip(geneu::validate::list_rules()) {
        assert_eq!(r["id"], info.id);
        assert_eq!(r["basis"], info.basis.name());
        assert_eq!(r["source"], info.source);
    }
}

#[test]
fn asm_json() {
    let src = "mov(8) g2<1>F g3<8,8,1>F { align1 1Q };\n\n  add(8) g4<1>F g2<8,8,1>F g3<8,8,1>F { align1 1Q };\n";
    let (code, hex, _) = geneu(&["asm", "--gen", "bdw"], src.as_bytes());
    assert_eq!(code, 0);
    let (code, out, err) = geneu(&["asm", "--gen", "bdw", "--json"], src.as_bytes());
    assert_eq!(code, 0, "{err}");
    let v = json(&out);
    let insts = v["instructions"].as_array().unwrap();
    assert_eq!(insts.len(), 2);
    assert_eq!(
        (insts[1]["line"].clone(), insts[1]["column"].clone()),
        (3.into(), 3.into())
    );
    assert_eq!(insts[1]["offset"], 16);
    let words: Vec<&str> = insts.iter().map(|i| i["bytes"].as_str().unwrap()).collect();
    assert_eq!(words.join("\n") + "\n", hex);
    // A rule violation: exit 1, the rule named.
    let (code, out, _) = geneu(&["asm", "--gen", "bdw", "--json"], BAD.as_bytes());
    assert_eq!(code, 1);
    let v = json(&out);
    let errs = v["errors"].as_array().unwrap();
    assert_eq!(errs.len(), 2, "{out}");
    assert_eq!(errs[0]["at"]["line"], 2);
    assert_eq!(errs[0]["violations"][0]["rule"], "dst_hstride_nonzero");
    // Malformed text: exit 2.
    let (code, out, _) = geneu(&["asm", "--gen", "bdw", "--json"], b"mov(8) g2<1>F bogus;\n");
    assert_eq!(code, 2);
    assert_eq!(json(&out)["errors"][0]["at"]["line"], 1);
}

#[test]
fn tables_bad_name_lists_the_names() {
    let (code, _, err) = geneu(&["tables", "nope"], b"");
    assert_eq!(code, 2);
    assert!(err.contains("no table named `nope`; expected one of: "), "{err}");
    for (name, _) in geneu::word::fields::TABLES {
        assert!(err.contains(name), "{name}: {err}");
    }
}

#[test]
fn every_command_help_has_an_example() {
    for cmd in ["fields", "disasm", "asm", "check", "diff", "desc", "tables"] {
        let (code, out, err) = geneu(&[cmd, "--help"], b"");
        assert_eq!(code, 0, "{cmd}: {err}");
        assert!(out.contains("Example"), "{cmd}: {out}");
        assert!(out.contains(&format!("geneu {cmd} ")), "{cmd}: {out}");
    }
}

fn snapshot(name: &str) -> String {
    std::fs::read_to_string(format!("{}/tests/snapshots/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

/// Reviewed JSON of `desc` and `check`, in the form JSON.md documents.
#[test]
fn json_snapshots_of_desc_and_check() {
    let (code, out, err) = geneu(&["desc", "--gen", "bdw", "--json", "--sfid", "urb", "0x8a080017"], b"");
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, snapshot("desc_gen8_urb_json.txt"));
    let (code, out, _) = geneu(&["check", "--gen", "bdw", "--json"], BAD.as_bytes());
    assert_eq!(code, 1);
    assert_eq!(out, snapshot("check_gen8_json.txt"));
    // Each violation record is the library's Violation by its names and
    // text, plus its place and the instruction's text.
    let v = json(&out);
    let rec = &v["violations"][1];
    let inst = geneu::text::assemble_listing(
        Platform::Gen8,
        "mov(4) g2<1>F g3<8,8,1>F { align1 1N };",
        geneu::text::AsmOptions::UNCHECKED,
    )
    .unwrap();
    let vs = geneu::validate::validate(Platform::Gen8, &inst[0].inst).unwrap_err();
    let want = &vs.0[0];
    assert_eq!(rec["kind"], "violation");
    assert_eq!(rec["rule"], want.rule);
    assert_eq!(rec["basis"], want.basis.name());
    assert_eq!(rec["operand"], want.operand.to_string());
    assert_eq!(rec["message"], want.message);
    assert_eq!(rec["source"], want.source);
}
