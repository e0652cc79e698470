//! Every corpus program with labels (if, else, endif, while, break, cont,
//! halt), rebuilt through the builder, gives the corpus words bit for bit
//! on each platform.
//!
//! The program text gives the labels and, through the text assembler, each
//! instruction's opcode and state; the builder places the labels and
//! computes every JIP and UIP itself.

use crate::corpus;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use geneu::build::{g, Builder, State};
use geneu::compact::{compact_program, decode_stream, uncompact_program};
use geneu::{Controls, Platform};

fn corpus_dir(gen: &str) -> PathBuf {
    corpus::dir().join(gen)
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

/// The builder of a corpus program, every instruction and label added;
/// with `pad`, a `mov(8) g10<1>F g2<8,8,1>F` (the default state) before each
/// branch, so that labels sit on instructions that compact.
fn builder(p: Platform, text: &str, pad: bool) -> Builder {
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
        if pad {
            b.set_state(State::default());
            b.mov(g(10), g(2)).unwrap();
        }
        b.set_state(State::of(i).unwrap());
        let mut target = |name: &str| *labels.entry(name.to_string()).or_insert_with(|| b.label());
        let jip = target(label_after(line, "JIP:").expect("a branch with JIP"));
        let uip = label_after(line, "UIP:").map(|n| target(n).into());
        b.branch_to(i.opcode, jip, uip).unwrap();
    }
    assert_eq!(k, insts.len());
    b
}

fn rebuild(p: Platform, text: &str) -> Vec<u8> {
    builder(p, text, false).finish().unwrap().into_bytes()
}

/// The corpus programs with labels, each with its platform.
fn label_programs() -> Vec<(Platform, PathBuf)> {
    let mut out = Vec::new();
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
            if text
                .lines()
                .any(|l| l.trim_end().ends_with(':') && l.starts_with("LABEL"))
            {
                out.push((p, f));
            }
        }
    }
    out
}

#[test]
fn corpus_programs_with_labels_rebuild_bit_for_bit() {
    if corpus::absent() {
        return;
    }
    let programs = label_programs();
    for (p, f) in &programs {
        let text = std::fs::read_to_string(f).unwrap();
        let want = expected(&f.with_extension("expected"));
        let got = rebuild(*p, &text);
        assert_eq!(got, want, "{}", f.display());
    }
    assert_eq!(programs.len(), 12, "the corpus programs with labels");
}

/// `finish_compacted` of each corpus program with labels (and of it with a
/// `mov` before each branch) gives what `compact_program` gives for the
/// native program, every branch lands on the same instruction (uncompacting gives
/// the native program back), and the instructions come with the offsets
/// and contents the bytes hold.
#[test]
fn corpus_programs_with_labels_finish_compacted() {
    if corpus::absent() {
        return;
    }
    let mut compacted = 0;
    for ((p, f), pad) in label_programs()
        .into_iter()
        .flat_map(|x| [(x.clone(), false), (x, true)])
    {
        let text = std::fs::read_to_string(&f).unwrap();
        let b = builder(p, &text, pad);
        let native = b.clone().finish().unwrap();
        let small = b.finish_compacted().unwrap();
        let want = compact_program(p, native.bytes()).unwrap();
        assert_eq!(small.bytes(), want.bytes, "{}", f.display());
        assert_eq!(small.len(), native.len());
        assert_eq!(
            uncompact_program(p, small.bytes()).unwrap().bytes,
            native.bytes(),
            "{}: branches land where they did",
            f.display()
        );
        let stream: Vec<_> = decode_stream(p, small.bytes()).collect();
        assert_eq!(stream.len(), small.len());
        for ((o, r), (offset, inst)) in stream.into_iter().zip(small.instructions()) {
            assert_eq!(o, offset);
            assert_eq!(&r.unwrap(), inst);
            compacted += usize::from(inst.controls.contains(Controls::COMPACTED));
        }
        assert_eq!(
            small
                .instructions()
                .filter(|(_, i)| i.controls.contains(Controls::COMPACTED))
                .count(),
            want.compacted
        );
    }
    assert!(compacted > 0, "some branch programs compact");
}
