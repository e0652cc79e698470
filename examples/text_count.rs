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
//! bench), or `text` to print the input text; `N` is the number of passes. The instructions of one pass per
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
    if mode == "text" {
        print!("{text}");
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
