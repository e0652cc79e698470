//! A fixed amount of text work on the Gen8 corpus, for counting machine
//! instructions with callgrind (load-independent, unlike timings):
//!
//! ```text
//! cargo build --release --example text_count
//! valgrind --tool=callgrind --callgrind-out-file=/dev/null \
//!     target/release/examples/text_count asm 10
//! ```
//!
//! The input is the text bench's (`benches/text.rs`): every Gen8 corpus
//! word, repeated to about 10,000 instructions, and its disassembly.
//! `MODE` is `asm` (checked assembly), `asm-unchecked`, `disasm`,
//! `disasm-program`, `validate` or `encode` (checked, as the validate
//! bench), the IGA-syntax modes `disasm-iga` (annotated, the corpus
//! words), `disasm-iga-plain` (the same words, no annotation),
//! `disasm-iga-own` (the words IGA's syntax assembles its own plain text
//! to: no annotation needed, printed with the annotation check) and
//! `asm-iga` (unchecked, reading `disasm-iga`'s text, as the text
//! bench), `asm-iga-plain` (unchecked, reading `disasm-iga-plain`'s
//! text: IGA's own, as users write it), or `text` / `text-iga` /
//! `text-iga-plain` to print the input text; `N` is the number of passes. The instructions of one pass per
//! word are the difference between the counts of two runs (say `N` = 10
//! and `N` = 0) divided by the passes and the words, which the program
//! prints.

use geneu::text::program::{write_bytes_text, Program, TextOptions};
use geneu::text::{assemble_words, assemble_words_with, AsmOptions};
use geneu::validate::validate;
use geneu::{decode, encode, Platform};

#[path = "../benches/common/mod.rs"]
mod common;

fn main() {
    let mut args = std::env::args().skip(1);
    let mode = args.next().unwrap_or_else(|| "asm".into());
    let passes: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(1);
    let p = Platform::Gen8;
    let base = common::corpus_words("gen8");
    let words: Vec<[u8; 16]> = base
        .iter()
        .copied()
        .cycle()
        .take(base.len() * (10_000 / base.len()).max(1))
        .collect();
    let bytes: Vec<u8> = words.iter().flatten().copied().collect();
    let mut text = String::new();
    Program::decode(p, &bytes)
        .write_text(&mut text, &TextOptions::default())
        .unwrap();
    let insts: Vec<_> = words.iter().map(|w| decode(p, w).unwrap()).collect();
    let mut iga = String::new();
    geneu::text::iga::write_program(&mut iga, p, &bytes, true).unwrap();
    // IGA's own text of the words (no annotation): what users feed the
    // reader, read by `asm-iga-plain`.
    let mut iga_plain = String::new();
    if mode == "asm-iga-plain" || mode == "text-iga-plain" {
        geneu::text::iga::write_program(&mut iga_plain, p, &bytes, false).unwrap();
    }
    // The words IGA's own text stands for (its encoder's output): what
    // the corpus's plain IGA text assembles to.
    let own: Vec<u8> = if mode == "disasm-iga-own" {
        let mut plain = String::new();
        geneu::text::iga::write_program(&mut plain, p, &bytes, false).unwrap();
        geneu::text::iga::assemble_iga_words(p, &plain, AsmOptions::UNCHECKED)
            .unwrap()
            .into_iter()
            .flatten()
            .collect()
    } else {
        Vec::new()
    };
    if mode == "text" {
        print!("{text}");
        return;
    }
    if mode == "text-iga" {
        print!("{iga}");
        return;
    }
    if mode == "text-iga-plain" {
        print!("{iga_plain}");
        return;
    }
    let mut sum = 0usize;
    for _ in 0..passes {
        let text = std::hint::black_box(text.as_str());
        sum += match mode.as_str() {
            "asm" => assemble_words(p, text).unwrap().len(),
            "asm-unchecked" => assemble_words_with(p, text, AsmOptions::UNCHECKED).unwrap().len(),
            "disasm" => {
                let mut out = String::with_capacity(text.len() + 1024);
                write_bytes_text(p, std::hint::black_box(&bytes), &mut out, &TextOptions::default()).unwrap();
                out.len()
            }
            "disasm-program" => {
                let mut out = String::with_capacity(text.len() + 1024);
                Program::decode(p, std::hint::black_box(&bytes))
                    .write_text(&mut out, &TextOptions::default())
                    .unwrap();
                out.len()
            }
            "disasm-iga" | "disasm-iga-plain" | "disasm-iga-own" => {
                let (input, annotate) = match mode.as_str() {
                    "disasm-iga" => (&bytes, true),
                    "disasm-iga-plain" => (&bytes, false),
                    _ => (&own, true),
                };
                let mut out = String::with_capacity(iga.len() + 1024);
                geneu::text::iga::write_program(&mut out, p, std::hint::black_box(input), annotate).unwrap();
                out.len()
            }
            "asm-iga" => geneu::text::iga::assemble_iga_words(p, std::hint::black_box(&iga), AsmOptions::UNCHECKED)
                .unwrap()
                .len(),
            "asm-iga-plain" => {
                geneu::text::iga::assemble_iga_words(p, std::hint::black_box(&iga_plain), AsmOptions::UNCHECKED)
                    .unwrap()
                    .len()
            }
            "validate" => insts
                .iter()
                .filter(|i| validate(p, std::hint::black_box(i)).is_ok())
                .count(),
            "encode" => insts
                .iter()
                .filter(|i| encode(p, std::hint::black_box(i)).is_ok())
                .count(),
            m => panic!("unknown mode {m}"),
        };
    }
    println!("{mode}: {passes} passes over {} words ({sum})", words.len());
}
