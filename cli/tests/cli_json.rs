//! Every `--json` output against its documented form in `JSON.md`: the
//! test reads the examples there and checks that the real output of each
//! command has exactly the keys, and values of the types, that the
//! examples show (so the document and the output cannot drift apart), and
//! that every error and violation has a `kind` listed in `JSON.md`, a
//! `message` and a location.

use crate::cli_common;

use std::collections::BTreeMap;

use cli_common::{geneu, geneu_bytes, temp_file};
use geneu::Platform;
use serde_json::Value;

/// One command's section of `JSON.md`: its examples and the keys that may
/// be null (`key`, or `parent.key` where `parent` is the key of the
/// enclosing object or array).
#[derive(Default, Debug)]
struct Section {
    examples: Vec<Value>,
    nullable: Vec<String>,
}

/// `JSON.md`, read: the sections by title (the command, between
/// backquotes), the shared error form and the kinds listed.
struct Schema {
    sections: BTreeMap<String, Section>,
    /// The example error of "Errors and violations": every error and its
    /// `at` have this form.
    error: Value,
    /// The keys that may be null everywhere (those of `at`).
    nullable: Vec<String>,
    kinds: Vec<String>,
}

const ERRORS: &str = "Errors and violations";

/// The words between backquotes in `line`.
fn quoted(line: &str) -> Vec<String> {
    line.split('`').skip(1).step_by(2).map(str::to_string).collect()
}

fn schema() -> Schema {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../JSON.md")).unwrap();
    let mut sections: BTreeMap<String, Section> = BTreeMap::new();
    let mut kinds = Vec::new();
    let mut title = String::new();
    let mut block: Option<String> = None;
    for line in text.lines() {
        if let Some(b) = block.as_mut() {
            if line == "```" {
                let v: Value = serde_json::from_str(b).unwrap_or_else(|e| panic!("JSON.md, {title}: {e}\n{b}"));
                sections.entry(title.clone()).or_default().examples.push(v);
                block = None;
            } else {
                b.push_str(line);
                b.push('\n');
            }
        } else if line == "```json" {
            block = Some(String::new());
        } else if let Some(h) = line.strip_prefix("## ") {
            title = quoted(h).into_iter().next().unwrap_or_else(|| h.to_string());
        } else if let Some(rest) = line.strip_prefix("May be null:") {
            sections.entry(title.clone()).or_default().nullable.extend(quoted(rest));
        } else if title == ERRORS && line.starts_with("| `") {
            kinds.extend(quoted(line).into_iter().take(1));
        }
    }
    let errors = sections.remove(ERRORS).expect("JSON.md has the errors section");
    Schema {
        sections,
        error: errors.examples[0].clone(),
        nullable: errors.nullable,
        kinds,
    }
}

impl Schema {
    fn nullable(&self, sec: &Section, parent: &str, key: &str) -> bool {
        let dotted = format!("{parent}.{key}");
        sec.nullable
            .iter()
            .chain(&self.nullable)
            .any(|n| *n == key || *n == dotted)
    }

    /// Whether `real` has the form of `ex`, the value of `key` in an object
    /// or array under `parent`: `Err` says where it does not.
    fn conforms(&self, sec: &Section, real: &Value, ex: &Value, parent: &str, key: &str) -> Result<(), String> {
        // Every `at`, and every error given as `null` in an example, has
        // the shared form.
        let ex = match (key, ex) {
            ("at", _) => &self.error["at"],
            ("error", Value::Null) if !real.is_null() => &self.error,
            _ => ex,
        };
        let here = format!("{parent}.{key}");
        match (real, ex) {
            (Value::Null, Value::Null) => Ok(()),
            (Value::Null, _) if self.nullable(sec, parent, key) => Ok(()),
            (Value::Object(r), Value::Object(e)) => {
                let (rk, ek): (Vec<&String>, Vec<&String>) = (r.keys().collect(), e.keys().collect());
                let (mut rs, mut es) = (rk.clone(), ek.clone());
                rs.sort();
                es.sort();
                if rs != es {
                    return Err(format!("{here}: keys {rk:?}, documented {ek:?}"));
                }
                for (k, v) in r {
                    self.conforms(sec, v, &e[k], key, k)?;
                }
                Ok(())
            }
            (Value::Array(r), Value::Array(e)) => {
                for (i, v) in r.iter().enumerate() {
                    let mut why = Vec::new();
                    if !e.iter().any(|x| match self.conforms(sec, v, x, parent, key) {
                        Ok(()) => true,
                        Err(w) => {
                            why.push(w);
                            false
                        }
                    }) {
                        return Err(format!("{here}[{i}] matches no documented element: {why:?}\n{v}"));
                    }
                }
                Ok(())
            }
            (Value::Bool(_), Value::Bool(_)) | (Value::String(_), Value::String(_)) => Ok(()),
            (Value::Number(_), Value::Number(_)) => Ok(()),
            _ => Err(format!("{here}: {real} where JSON.md has {ex}")),
        }
    }
}

/// Checks every error and violation inside `v`: a documented `kind`, a
/// `message`, and an `at` that says something; a violation's rule,
/// basis and operand are names the text prints.
fn check_errors(s: &Schema, v: &Value) {
    match v {
        Value::Object(o) => {
            if let Some(kind) = o.get("kind") {
                let kind = kind.as_str().unwrap();
                assert!(
                    s.kinds.iter().any(|k| k == kind),
                    "kind `{kind}` is not in JSON.md: {v}"
                );
                assert!(!o["message"].as_str().unwrap().is_empty(), "{v}");
                let at = o["at"].as_object().unwrap();
                assert!(at.values().any(|x| !x.is_null()), "an error with no location: {v}");
                if kind == "violation" {
                    let rule = geneu::validate::find_rule(o["rule"].as_str().unwrap()).unwrap();
                    assert_eq!(o["basis"], rule.basis.name());
                    assert_eq!(o["source"], rule.source);
                    assert!(
                        ["instruction", "dst", "src0", "src1", "src2"].contains(&o["operand"].as_str().unwrap()),
                        "{v}"
                    );
                }
            }
            o.values().for_each(|x| check_errors(s, x));
        }
        Value::Array(a) => a.iter().for_each(|x| check_errors(s, x)),
        _ => {}
    }
}

/// Runs each `(section, args, stdin)` with `--json` given in `args`, and
/// checks its document: schema 1, the command, the documented form, the
/// errors. Returns how many runs each example of the section matched.
fn run_all(s: &Schema, runs: &[(&str, Vec<&str>, Vec<u8>)]) -> BTreeMap<(String, usize), usize> {
    let mut used = BTreeMap::new();
    for (title, args, stdin) in runs {
        let sec = s
            .sections
            .get(*title)
            .unwrap_or_else(|| panic!("JSON.md has no section `{title}`"));
        let (code, out, err) = geneu(args, stdin);
        assert!(code <= 2, "{args:?}: {code} {err}");
        let v: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{args:?}: {e}: {out}{err}"));
        assert_eq!(v["schema"], 1, "{args:?}");
        assert_eq!(v["command"], *title, "{args:?}");
        if let Some(p) = v.get("platform") {
            let names = [Platform::Gen7, Platform::Gen75, Platform::Gen8, Platform::Chv].map(Platform::name);
            assert!(names.contains(&p.as_str().unwrap()), "{p}");
        }
        let mut why = Vec::new();
        let matched: Vec<usize> = (0..sec.examples.len())
            .filter(|&i| match s.conforms(sec, &v, &sec.examples[i], "", "") {
                Ok(()) => true,
                Err(w) => {
                    why.push(w);
                    false
                }
            })
            .collect();
        assert!(!matched.is_empty(), "{args:?} is not of a form JSON.md shows: {why:#?}");
        for i in matched {
            *used.entry((title.to_string(), i)).or_insert(0) += 1;
        }
        check_errors(s, &v);
    }
    used
}

const MOV: &str = "01 00 60 00 e8 3a 40 21 40 00 8d 00 00 00 00 00";
/// `mov` with reserved bit 7 set.
const MOV_BIT7: &str = "81 00 60 00 e8 3a 40 21 40 00 8d 00 00 00 00 00";
const URB_WRITE: &str = "31 00 60 06 e0 3a 00 20 60 0f 8d 06 17 00 08 8a";
const URB_WRITE_2: &str = "31 00 60 06 e0 3a 00 20 60 0f 8d 06 27 00 08 8a";
const COMPACT_MOV: &str = "01 0b 01 20 07 0a 02 00";
const COMPACT_MUL: &str = "41 4b 02 20 07 0b 0a 03";
/// Execution size 7 (reserved).
const EXEC_7: &str = "01 00 e0 00 00 00 00 00 00 00 00 00 00 00 00 00";
/// Opcode 0x7f and reserved bit 7; CmptCtrl (bit 29) clear.
const UNDECODABLE: [u8; 16] = [
    0xff, 0xff, 0xff, 0xdf, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
];

const GOOD: &str = "mov(8) g2<1>F g3<8,8,1>F { align1 1Q };\n  add(8) g4<1>F g2<8,8,1>F 0x3f800000F { align1 1Q };\n";
const BAD: &str = "mov(8) g2<1>F g3<8,8,1>F { align1 1Q };\n\
                   mov(8) g2<0>F g3<8,8,1>F { align1 1Q };\n\
                   mov(8) g2<1>F bogus;\n";
/// A compacted `mov` and a `mov` whose region is wider than its
/// execution size.
const MIXED: &str = "mov(8) g10<1>F g2<8,8,1>F { align1 1Q };\nmov(1) g2<1>F g3<8,8,1>F { align1 1N };\n";

fn bin(args: &[&str], src: &str) -> Vec<u8> {
    let (code, out, err) = geneu_bytes(args, src.as_bytes());
    assert_eq!(code, 0, "{err}");
    out
}

fn hex_lines(b: &[u8], sizes: &[usize]) -> String {
    let mut s = String::new();
    let mut o = 0;
    for &n in sizes {
        let line: Vec<String> = b[o..o + n].iter().map(|x| format!("{x:02x}")).collect();
        s.push_str(&line.join(" "));
        s.push('\n');
        o += n;
    }
    s
}

#[test]
fn every_json_output_has_its_documented_form() {
    let s = schema();
    for cmd in [
        "fields",
        "diff",
        "desc",
        "disasm",
        "asm",
        "check",
        "check --list-rules",
        "run",
    ] {
        assert!(s.sections.contains_key(cmd), "JSON.md documents `{cmd}`");
    }
    // A compacted mov, a mov that breaks a rule (native), an undecodable
    // word; with four bytes left over.
    let mixed = bin(
        &["asm", "--gen", "bdw", "--compact", "--unchecked", "--type", "bin"],
        MIXED,
    );
    assert_eq!(mixed.len(), 24);
    let mut stream = mixed.clone();
    stream.extend_from_slice(&UNDECODABLE);
    let mut cut = stream.clone();
    cut.extend_from_slice(&[0; 4]);
    let hex = hex_lines(&stream, &[8, 16, 16]);
    let hex_file = temp_file("json.hex", hex.as_bytes());
    let hex_path = hex_file.to_str().unwrap();
    let looped = bin(
        &["asm", "--gen", "bdw", "--type", "bin"],
        "LABEL0:\nwhile(8) JIP: LABEL0 { align1 1Q };\n",
    );
    let marked = "mov(8) g17<1>F g12<8,8,1>F { align1 1Q compacted };\n\
                  send(8) g9<1>UD g2<8,8,1>UD 0x02280300\n    \
                  const MsgDesc: (0, 3, 0, 0) mlen 1 rlen 2 { align1 WE_all 1Q compacted };\n";
    let b = |x: &str| x.as_bytes().to_vec();
    let runs: Vec<(&str, Vec<&str>, Vec<u8>)> = vec![
        (
            "fields",
            vec!["fields", "--gen", "bdw", "--json", MOV, URB_WRITE, COMPACT_MUL, EXEC_7],
            vec![],
        ),
        ("fields", vec!["fields", "--gen", "hsw", "--json", URB_WRITE], vec![]),
        (
            "diff",
            vec!["diff", "--gen", "bdw", "--json", COMPACT_MUL, COMPACT_MOV],
            vec![],
        ),
        (
            "diff",
            vec!["diff", "--gen", "bdw", "--json", URB_WRITE, URB_WRITE_2],
            vec![],
        ),
        ("diff", vec!["diff", "--gen", "bdw", "--json", MOV, MOV_BIT7], vec![]),
        (
            "diff",
            vec!["diff", "--gen", "bdw", "--json", COMPACT_MOV, URB_WRITE],
            vec![],
        ),
        (
            "desc",
            vec!["desc", "--gen", "hsw", "--json", "--sfid", "render", "0x02106000"],
            vec![],
        ),
        (
            "desc",
            vec!["desc", "--gen", "bdw", "--json", "0x8a080017", "6"],
            vec![],
        ),
        (
            "desc",
            vec!["desc", "--gen", "ivb", "--json", "--sfid", "15", "0"],
            vec![],
        ),
        (
            "disasm",
            vec!["disasm", "--gen", "bdw", "--json", "--check"],
            cut.clone(),
        ),
        ("disasm", vec!["disasm", "--gen", "bdw", "--json"], stream.clone()),
        ("disasm", vec!["disasm", "--gen", "bdw", "--json"], looped),
        ("asm", vec!["asm", "--gen", "bdw", "--json", "--compact"], b(GOOD)),
        ("asm", vec!["asm", "--gen", "bdw", "--json"], b(GOOD)),
        ("asm", vec!["asm", "--gen", "bdw", "--json"], b(BAD)),
        (
            "asm",
            vec!["asm", "--gen", "bdw", "--json", "--compact=marked"],
            b(marked),
        ),
        ("check", vec!["check", "--gen", "bdw", "--json", hex_path], vec![]),
        ("check", vec!["check", "--gen", "bdw", "--json"], b(BAD)),
        ("check", vec!["check", "--gen", "bdw", "--json"], b(GOOD)),
        ("check", vec!["check", "--gen", "bdw", "--json", "--bin"], cut.clone()),
        (
            "check",
            vec!["check", "--gen", "bdw", "--json", "--bin"],
            stream.clone(),
        ),
        ("check", vec!["check", "--gen", "bdw", "--json", "--hex"], cut),
        (
            "check",
            vec!["check", "--gen", "bdw", "--json", "--hex"],
            b("01 02 03\n"),
        ),
        ("check --list-rules", vec!["check", "--list-rules", "--json"], vec![]),
        (
            "run",
            vec!["run", "--gen", "bdw", "--json", "--trace", "--grf", "g3=1,2"],
            b("add(8) g2<1>D g3<8,8,1>D g4<8,8,1>D { align1 1Q };\n"),
        ),
        (
            "run",
            vec!["run", "--gen", "bdw", "--json", "--steps", "2"],
            b("jmpi(1) -16D { align1 WE_all 1N };\n"),
        ),
        ("run", vec!["run", "--gen", "bdw", "--json", "--bin"], vec![0; 4]),
    ];
    let used = run_all(&s, &runs);
    let _ = std::fs::remove_file(&hex_file);
    // Every example is the form of some real output.
    for (title, sec) in &s.sections {
        for i in 0..sec.examples.len() {
            assert!(
                used.contains_key(&(title.clone(), i)),
                "JSON.md's example {i} of `{title}` is the form of no output tested"
            );
        }
    }
}

/// The values, not only the form: names as the text prints them, and
/// each error's place.
#[test]
fn json_names_and_places_are_those_of_the_text() {
    let (code, out, _) = geneu(&["check", "--gen", "bdw", "--json"], BAD.as_bytes());
    assert_eq!(code, 2, "the syntax error stops the check");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["platform"], "bdw");
    let e = &v["errors"][0];
    assert_eq!(e["kind"], "unexpected_token");
    assert!(e["message"].as_str().unwrap().starts_with("unexpected `bogus`"), "{e}");
    assert_eq!((&e["at"]["line"], &e["at"]["column"]), (&3.into(), &15.into()));
    // The text form says the same at the same place.
    let (_, _, err) = geneu(&["check", "--gen", "bdw"], BAD.as_bytes());
    assert!(
        err.contains(&format!("<stdin>:3:15: error: {}", e["message"].as_str().unwrap())),
        "{err}"
    );
    // A violation: the operand as the text prints it.
    let (_, out, _) = geneu(&["asm", "--gen", "bdw", "--json"], BAD.as_bytes());
    let v: Value = serde_json::from_str(&out).unwrap();
    let e = &v["errors"][0];
    assert_eq!(e["kind"], "rules_broken");
    let viol = &e["violations"][0];
    assert_eq!(
        (&viol["rule"], &viol["operand"], &viol["basis"]),
        (&"dst_hstride_nonzero".into(), &"dst".into(), &"documented".into())
    );
    // A reserved field: its name and bits as `fields` prints them
    // (`exec_size [23:21]`).
    let (_, out, _) = geneu(&["fields", "--gen", "bdw", "--json", MOV, EXEC_7], b"");
    let v: Value = serde_json::from_str(&out).unwrap();
    let e = &v["instructions"][1]["error"];
    assert_eq!(e["kind"], "reserved_encoding");
    assert_eq!(e["at"]["field"], "exec_size");
    assert_eq!(e["at"]["bits"], serde_json::json!([[23, 21]]));
    assert_eq!(e["at"]["offset"], 16);
    // Reserved bits: the runs of the mask, high first (bit 7 alone here).
    let (_, out, _) = geneu(&["disasm", "--gen", "bdw", "--json"], &UNDECODABLE);
    let v: Value = serde_json::from_str(&out).unwrap();
    let e = &v["instructions"][0]["error"];
    let want = geneu::decode(Platform::Gen8, &UNDECODABLE).unwrap_err();
    assert_eq!(e["kind"], want.kind());
    assert_eq!(e["message"], want.to_string());
    // Truncated binary input: the offset of the cut.
    let mut cut = UNDECODABLE.to_vec();
    cut.extend_from_slice(&[0; 4]);
    let (code, out, _) = geneu(&["check", "--gen", "bdw", "--bin", "--json"], &cut);
    assert_eq!(code, 2);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["errors"][0]["kind"], "truncated");
    assert_eq!(v["errors"][0]["at"]["offset"], 16);
}
