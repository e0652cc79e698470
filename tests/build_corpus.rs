//! Every corpus program with labels (if, else, endif, while, break, cont,
//! halt), rebuilt through the builder, gives the corpus words bit for bit
//! on each platform.
//!
//! The program text gives the labels and, through the text assembler, each
//! instruction's opcode and state; the builder places the labels and
//! computes every JIP and UIP itself.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use geneu::build::{Builder, State};
use geneu::Platform;

fn corpus_dir(gen: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpus/mesa")
        .join(gen)
}

fn expected(path: &Path) -> Vec<u8> {
    std::fs::read_to_string(path)
        .unwrap()
        .split_whitespace()
        .map(|b| u8::from_str_radix(b, 16).unwrap())
        .collect()
}

/// The label after `key` on a line (`JIP: LABEL3` → `LABEL3`).
fn label_after<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let rest = &line[line.find(key)? + key.len()..];
    rest.split_whitespace().next()
}

fn rebuild(p: Platform, text: &str) -> Vec<u8> {
    let insts = geneu::text::assemble(p, text).unwrap();
    let mut b = Builder::new(p);
    let mut labels = HashMap::new();
    let mut k = 0;
    for line in text.lines() {
        if line.is_empty() || line.starts_with(' ') {
            continue;
        }
        if let Some(name) = line.trim_end().strip_suffix(':') {
            let l = *labels.entry(name.to_string()).or_insert_with(|| b.label());
            b.bind(l).unwrap();
            continue;
        }
        let i = &insts[k];
        k += 1;
        b.set_state(State::of(i).unwrap());
        let mut target = |name: &str| *labels.entry(name.to_string()).or_insert_with(|| b.label());
        let jip = target(label_after(line, "JIP:").expect("a branch with JIP"));
        let uip = label_after(line, "UIP:").map(|n| target(n).into());
        b.branch_to(i.opcode, jip, uip).unwrap();
    }
    assert_eq!(k, insts.len());
    b.finish().unwrap().into_bytes()
}

#[test]
fn corpus_programs_with_labels_rebuild_bit_for_bit() {
    let mut files = 0;
    for (gen, p) in [
        ("gen7", Platform::Gen7),
        ("gen7.5", Platform::Gen75),
        ("gen8", Platform::Gen8),
    ] {
        let mut names: Vec<_> = std::fs::read_dir(corpus_dir(gen))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|f| f.extension().is_some_and(|e| e == "asm"))
            .collect();
        names.sort();
        for f in names {
            let text = std::fs::read_to_string(&f).unwrap();
            if !text
                .lines()
                .any(|l| l.trim_end().ends_with(':') && l.starts_with("LABEL"))
            {
                continue;
            }
            let want = expected(&f.with_extension("expected"));
            let got = rebuild(p, &text);
            assert_eq!(got, want, "{}", f.display());
            files += 1;
        }
    }
    assert_eq!(files, 12, "the corpus programs with labels");
}
