//! Decode and encode throughput over every corpus word.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use geneu::{decode, encode_unchecked, Platform};

mod common;

fn bench(c: &mut Criterion) {
    let sets = [
        ("gen7", Platform::Gen7),
        ("gen7.5", Platform::Gen75),
        ("gen8", Platform::Gen8),
    ];
    let all: Vec<(Platform, [u8; 16])> = sets
        .iter()
        .flat_map(|(g, p)| common::corpus_words(g).into_iter().map(move |w| (*p, w)))
        .collect();
    let insts: Vec<(Platform, geneu::Instruction)> = all.iter().map(|(p, w)| (*p, decode(*p, w).unwrap())).collect();
    let mut g = c.benchmark_group("codec");
    g.throughput(Throughput::Elements(all.len() as u64));
    g.bench_function("decode", |b| {
        b.iter(|| {
            let mut n = 0u32;
            for (p, w) in &all {
                if let Ok(i) = decode(*p, std::hint::black_box(w)) {
                    n = n.wrapping_add(i.opcode as u32);
                }
            }
            n
        })
    });
    g.bench_function("encode", |b| {
        b.iter(|| {
            let mut n = 0u8;
            for (p, i) in &insts {
                if let Ok(w) = encode_unchecked(*p, std::hint::black_box(i)) {
                    n = n.wrapping_add(w[0]);
                }
            }
            n
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
