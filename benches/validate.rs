//! Validation of a typical instruction, and checked encoding (encode +
//! validate) throughput over every corpus instruction.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use geneu::validate::validate;
use geneu::{decode, encode, Dst, ExecSize, Instruction, Opcode, Platform, Region, Src, Type};

mod common;

fn corpus(gen: &str, p: Platform) -> Vec<(Platform, Instruction)> {
    common::corpus_words(gen)
        .into_iter()
        .map(|w| (p, decode(p, &w).unwrap()))
        .collect()
}

fn bench(c: &mut Criterion) {
    // add(16) g2<1>F g4<8,8,1>F g6<8,8,1>F: the most common shape.
    let mut add = Instruction::new(Opcode::Add, ExecSize::S16);
    add.dst = Dst::grf(2, 0, Type::F);
    add.src[0] = Src::grf(4, 0, Type::F, Region::new(8, 8, 1).unwrap());
    add.src[1] = Src::grf(6, 0, Type::F, Region::new(8, 8, 1).unwrap());
    assert!(validate(Platform::Gen8, &add).is_ok());

    let insts: Vec<(Platform, Instruction)> = [
        ("gen7", Platform::Gen7),
        ("gen7.5", Platform::Gen75),
        ("gen8", Platform::Gen8),
    ]
    .iter()
    .flat_map(|(g, p)| corpus(g, *p))
    .collect();
    assert!(insts.iter().all(|(p, i)| validate(*p, i).is_ok()));

    let mut g = c.benchmark_group("validate");
    g.throughput(Throughput::Elements(1));
    g.bench_function("validate_add_simd16", |b| {
        b.iter(|| validate(Platform::Gen8, std::hint::black_box(&add)).is_ok())
    });
    g.throughput(Throughput::Elements(insts.len() as u64));
    g.bench_function("validate_corpus", |b| {
        b.iter(|| {
            insts
                .iter()
                .filter(|(p, i)| validate(*p, std::hint::black_box(i)).is_ok())
                .count()
        })
    });
    g.bench_function("encode_checked_corpus", |b| {
        b.iter(|| {
            let mut n = 0u8;
            for (p, i) in &insts {
                if let Ok(w) = encode(*p, std::hint::black_box(i)) {
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
