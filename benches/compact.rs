//! Compaction speed, side by side in one run (issue 16's targets):
//! - decoding the corpus compacted as a program (a mixed stream of 8- and
//!   16-byte instructions) against decoding the same instructions as
//!   native words, per instruction (target: at most 1.5x);
//!   The same for only the instructions that compact (all compacted, or
//!   all native), the cost of a compacted instruction itself;
//! - `compact` of every corpus instruction against `encode_unchecked` of
//!   the same instructions (target: compact at least half as fast).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use geneu::compact::{compact, compact_program, compact_word, decode_stream};
use geneu::{decode, encode_unchecked, Platform, Word};

mod common;

fn bench(c: &mut Criterion) {
    let sets = [
        ("gen7", Platform::Gen7),
        ("gen7.5", Platform::Gen75),
        ("gen8", Platform::Gen8),
    ];
    // Each platform's corpus as one native program, and compacted.
    let streams: Vec<(Platform, Vec<u8>, Vec<u8>)> = sets
        .iter()
        .map(|(g, p)| {
            let native: Vec<u8> = common::corpus_words(g).concat();
            let small = compact_program(*p, &native)
                .expect("the corpus compacts as a program")
                .bytes;
            (*p, native, small)
        })
        .collect();
    let count: usize = streams.iter().map(|(_, n, _)| n.len() / 16).sum();
    // Only the words that compact, native and compacted: the cost of a
    // compacted instruction itself (the corpus compacts 8-16%).
    let only: Vec<(Platform, Vec<u8>, Vec<u8>)> = sets
        .iter()
        .map(|(g, p)| {
            let (mut native, mut small) = (Vec::new(), Vec::new());
            for w in common::corpus_words(g) {
                if let Some(c) = compact_word(*p, Word::from_bytes(w)) {
                    native.extend_from_slice(&w);
                    small.extend_from_slice(&c.to_bytes());
                }
            }
            (*p, native, small)
        })
        .collect();
    let only_count: usize = only.iter().map(|(_, n, _)| n.len() / 16).sum();
    let insts: Vec<(Platform, geneu::Instruction)> = streams
        .iter()
        .flat_map(|(p, n, _)| {
            n.chunks_exact(16)
                .map(move |w| (*p, decode(*p, w.try_into().unwrap()).unwrap()))
        })
        .collect();
    let mut g = c.benchmark_group("compact");
    g.throughput(Throughput::Elements(count as u64));
    let decode_all = |streams: &[(Platform, Vec<u8>, Vec<u8>)], mixed: bool| {
        let mut n = 0u32;
        for (p, native, small) in streams {
            let bytes = if mixed { small } else { native };
            for (_, r) in decode_stream(*p, std::hint::black_box(bytes)) {
                if let Ok(i) = r {
                    n = n.wrapping_add(i.opcode as u32);
                }
            }
        }
        n
    };
    g.bench_function("decode native stream", |b| b.iter(|| decode_all(&streams, false)));
    g.bench_function("decode mixed stream", |b| b.iter(|| decode_all(&streams, true)));
    g.bench_function("encode_unchecked", |b| {
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
    g.bench_function("compact", |b| {
        b.iter(|| {
            let mut n = 0u64;
            for (p, i) in &insts {
                if let Some(w) = compact(*p, std::hint::black_box(i)) {
                    n = n.wrapping_add(w.0);
                }
            }
            n
        })
    });
    g.finish();
    let mut g = c.benchmark_group("compact only");
    g.throughput(Throughput::Elements(only_count as u64));
    g.bench_function("decode as native words", |b| b.iter(|| decode_all(&only, false)));
    g.bench_function("decode as compacted words", |b| b.iter(|| decode_all(&only, true)));
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
