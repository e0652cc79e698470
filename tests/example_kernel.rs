//! The bundled example kernel (`examples/kernel.{asm,hex}`, the README's
//! first command) stays consistent: its text assembles to its words and
//! its words disassemble to its text.

use geneu::text::assemble_words;
use geneu::text::program::{Program, TextOptions};
use geneu::{Platform, Word};

fn files() -> (String, Vec<[u8; 16]>) {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let text = std::fs::read_to_string(dir.join("kernel.asm")).unwrap();
    let hex = std::fs::read_to_string(dir.join("kernel.hex")).unwrap();
    let words = hex
        .lines()
        .map(|l| {
            let b: Vec<u8> = l
                .split_whitespace()
                .map(|t| u8::from_str_radix(t, 16).unwrap())
                .collect();
            b.try_into().unwrap()
        })
        .collect();
    (text, words)
}

#[test]
fn example_kernel_assembles_to_its_words() {
    let (text, words) = files();
    assert_eq!(assemble_words(Platform::Gen8, &text).unwrap(), words);
}

#[test]
fn example_kernel_disassembles_to_its_text() {
    let (text, words) = files();
    let prog = Program::from_words(Platform::Gen8, words.into_iter().map(Word::from_bytes));
    let mut out = String::new();
    prog.write_text(&mut out, &TextOptions::default()).unwrap();
    assert_eq!(out, text);
}
