//! The builder's cost: building, validating and encoding a
//! 10,000-instruction structured program through `geneu::build`, beside
//! validating and encoding the same instructions directly (the issue's
//! bound: at most 2x). The two are timed in turn within each iteration,
//! each function counting its own routine only.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use geneu::build::{g, imm_f, imm_ud, imm_w, null, Builder, Predicate};
use geneu::{CondMod, MathFunction, Platform};
use std::hint::black_box;
use std::time::{Duration, Instant};

const N: usize = 10_000;

/// A program of about `N` instructions: ALU runs in nested if/else blocks
/// and loops with break: 23 instructions per block, 6 of them flow
/// control (a heavier share than a typical shader's).
fn build(p: Platform) -> Builder {
    // Room for the last block, which may end 22 instructions past N.
    let mut b = Builder::with_capacity(p, N + 32);
    let pred = Predicate::normal(0, 0);
    let mut k = 0u8;
    while b.len() < N {
        let r = 2 + (k % 60) * 2;
        k = k.wrapping_add(1);
        b.cmp(CondMod::L, null(), g(r), g(r + 1)).unwrap();
        b.push_state();
        b.state_mut().predicate = Some(pred);
        b.if_().unwrap();
        b.pop_state().unwrap();
        b.add(g(r), g(r + 1), imm_f(1.5)).unwrap();
        b.mul(g(r + 2), g(r), g(r + 1).vec1()).unwrap();
        b.mad(g(r + 3), g(r), g(r + 1), g(r + 2)).unwrap();
        b.add(g(r + 4), g(r + 3).neg(), g(r + 2)).unwrap();
        b.else_().unwrap();
        b.mov(g(r).w(), imm_w(-3)).unwrap();
        b.mul(g(r + 2), g(r + 4), imm_f(0.25)).unwrap();
        b.add(g(r + 3), g(r + 2), g(r + 4).abs()).unwrap();
        b.do_();
        b.and(g(r).ud(), g(r + 1).ud(), imm_ud(7)).unwrap();
        b.add(g(r + 2), g(r + 2), imm_f(1.0)).unwrap();
        b.push_state();
        b.state_mut().predicate = Some(pred);
        b.break_().unwrap();
        b.pop_state().unwrap();
        b.mad(g(r), g(r + 1), g(r + 2), g(r + 3).vec1()).unwrap();
        b.push_state();
        b.state_mut().predicate = Some(pred);
        b.while_().unwrap();
        b.pop_state().unwrap();
        b.endif().unwrap();
        b.math(MathFunction::Inv, g(r + 4), g(r + 5), None).unwrap();
        b.sel_cond(CondMod::Ge, g(r + 6), g(r + 7), imm_f(0.0)).unwrap();
        b.mul(g(r + 5), g(r + 6), g(r + 7)).unwrap();
        b.add(g(r + 6), g(r + 5), g(r + 4)).unwrap();
        b.mov(g(r + 7).ud(), g(r + 6).ud()).unwrap();
    }
    b
}

/// Validates and encodes `insts` as a caller without the builder would.
fn validate_encode(p: Platform, insts: &[geneu::Instruction]) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(insts.len() * 16);
    for i in insts {
        geneu::validate::validate(p, i).unwrap();
        bytes.extend_from_slice(&geneu::encode_word(p, i).unwrap().to_bytes());
    }
    bytes
}

fn bench(c: &mut Criterion) {
    let p = Platform::Gen8;
    let insts: Vec<_> = build(p).finish().unwrap().instructions().map(|(_, i)| *i).collect();
    let mut g = c.benchmark_group("build");
    g.throughput(Throughput::Elements(insts.len() as u64));
    // Each function runs both routines in turn and times only its own, so
    // that both are measured under the same load (on a shared machine the
    // load changes between two benches run one after the other, and their
    // ratio with it).
    let build_run = || black_box(build(black_box(p)).finish().unwrap());
    let direct_run = || black_box(validate_encode(p, black_box(&insts)));
    g.bench_function("build_validate_encode_10k", |bch| {
        bch.iter_custom(|iters| {
            let mut own = Duration::ZERO;
            for _ in 0..iters {
                let t = Instant::now();
                build_run();
                own += t.elapsed();
                direct_run();
            }
            own
        })
    });
    g.bench_function("validate_encode_same_10k", |bch| {
        bch.iter_custom(|iters| {
            let mut own = Duration::ZERO;
            for _ in 0..iters {
                build_run();
                let t = Instant::now();
                direct_run();
                own += t.elapsed();
            }
            own
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
