//! Disassembly and assembly throughput on the Gen8 corpus, in
//! instructions per second.
//!
//! The input is every Gen8 corpus word, repeated to about 10,000
//! instructions; disassembly prints the whole program (labels and SEND
//! descriptions included) into one `String`, from the bytes as `geneu
//! disasm` does (`disasm_gen8`) or through a decoded `Program`
//! (`disasm_gen8_program`); assembly parses that text
//! (the corpus's own syntax) and encodes it with checked encoding, as
//! `geneu asm` does.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use geneu::text::program::{write_bytes_text, Program, TextOptions};
use geneu::text::{assemble_words, assemble_words_with, AsmOptions};
use geneu::{Platform, Word};

mod common;

fn gen8_words() -> Vec<Word> {
    common::corpus_words("gen8").into_iter().map(Word::from_bytes).collect()
}

fn bench(c: &mut Criterion) {
    let p = Platform::Gen8;
    let base = gen8_words();
    let words: Vec<Word> = base
        .iter()
        .copied()
        .cycle()
        .take(base.len() * (10_000 / base.len()).max(1))
        .collect();
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_bytes()).collect();
    let n = words.len() as u64;

    let mut text = String::new();
    Program::decode(p, &bytes)
        .write_text(&mut text, &TextOptions::default())
        .unwrap();
    assert_eq!(assemble_words(p, &text).unwrap().len() as u64, n);

    let mut g = c.benchmark_group("text");
    g.throughput(Throughput::Elements(n));
    g.bench_function("disasm_gen8", |b| {
        let mut out = String::with_capacity(text.len() + 1024);
        b.iter(|| {
            out.clear();
            write_bytes_text(p, std::hint::black_box(&bytes), &mut out, &TextOptions::default()).unwrap();
            out.len()
        })
    });
    // The same bytes in IGA's syntax (field annotations included).
    g.bench_function("disasm_gen8_iga", |b| {
        let mut out = String::with_capacity(2 * text.len() + 1024);
        b.iter(|| {
            out.clear();
            geneu::text::iga::write_program(&mut out, p, std::hint::black_box(&bytes), true).unwrap();
            out.len()
        })
    });
    // The same, IGA's text only (no annotation).
    g.bench_function("disasm_gen8_iga_plain", |b| {
        let mut out = String::with_capacity(2 * text.len() + 1024);
        b.iter(|| {
            out.clear();
            geneu::text::iga::write_program(&mut out, p, std::hint::black_box(&bytes), false).unwrap();
            out.len()
        })
    });
    g.bench_function("disasm_gen8_program", |b| {
        let mut out = String::with_capacity(text.len() + 1024);
        b.iter(|| {
            out.clear();
            let prog = Program::decode(p, std::hint::black_box(&bytes));
            prog.write_text(&mut out, &TextOptions::default()).unwrap();
            out.len()
        })
    });
    g.bench_function("asm_gen8", |b| {
        b.iter(|| assemble_words(p, std::hint::black_box(&text)).unwrap().len())
    });
    g.bench_function("asm_gen8_unchecked", |b| {
        b.iter(|| {
            assemble_words_with(p, std::hint::black_box(&text), AsmOptions::UNCHECKED)
                .unwrap()
                .len()
        })
    });
    // The same words in IGA's syntax (annotated, so the bytes are the
    // same), read back side by side with Mesa's.
    let mut iga = String::new();
    geneu::text::iga::write_program(&mut iga, p, &bytes, true).unwrap();
    assert_eq!(
        geneu::text::iga::assemble_iga_words(p, &iga, AsmOptions::UNCHECKED)
            .unwrap()
            .len() as u64,
        n
    );
    g.bench_function("asm_gen8_iga_unchecked", |b| {
        b.iter(|| {
            geneu::text::iga::assemble_iga_words(p, std::hint::black_box(&iga), AsmOptions::UNCHECKED)
                .unwrap()
                .len()
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
