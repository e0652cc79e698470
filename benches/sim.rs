//! Simulator throughput: a SIMD8 and a SIMD16 loop of ALU instructions
//! (integer and float add, mul, mad, cmp, sel, logic), in simulated
//! instructions per second.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use geneu::build::{g, imm_d, imm_f, null, Builder, Predicate, State};
use geneu::sim::{run, Memory, Program, RunOptions, Thread};
use geneu::{CondMod, ExecSize, Platform};

/// A loop of `iters` iterations of ten ALU instructions and the loop's
/// counter, compare and while: the instructions executed.
fn program(simd: ExecSize, iters: i32) -> (Program, u64) {
    let p = Platform::Gen8;
    let mut b = Builder::new(p);
    b.set_state(State::default().simd(simd));
    b.mov(g(40).d(), imm_d(0)).unwrap();
    b.do_();
    b.add(g(2), g(4), g(6)).unwrap();
    b.mul(g(8), g(2), imm_f(0.5)).unwrap();
    b.add(g(10).d(), g(12).d(), g(14).d()).unwrap();
    b.and(g(16).ud(), g(10).ud(), g(12).ud()).unwrap();
    b.sel_cond(CondMod::L, g(18), g(2), g(8)).unwrap();
    b.mul(g(20).d(), g(12).d(), g(14).w().stride(16, 8, 2).unwrap())
        .unwrap();
    b.xor(g(22).ud(), g(16).ud(), g(10).ud()).unwrap();
    b.add(g(24), g(18).abs(), g(2).neg()).unwrap();
    b.shl(g(26).ud(), g(22).ud(), imm_d(3)).unwrap();
    b.mov(g(28), g(24)).unwrap();
    b.add(g(40).d(), g(40).d(), imm_d(1)).unwrap();
    b.cmp(CondMod::L, null().d(), g(40).d(), imm_d(iters)).unwrap();
    b.state_mut().predicate = Some(Predicate::normal(0, 0));
    b.while_().unwrap();
    let prog = Program::new(p, b.finish().unwrap().bytes()).unwrap();
    (prog, 1 + 13 * iters as u64)
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("sim");
    for (name, simd, mask) in [("simd8_alu", ExecSize::S8, 0xff), ("simd16_alu", ExecSize::S16, 0xffff)] {
        let (prog, steps) = program(simd, 1000);
        let mut opts = RunOptions::default();
        opts.end_at_program_end = true;
        opts.step_limit = steps + 1;
        let mut t0 = Thread::new();
        t0.set_dispatch_mask(mask);
        g.throughput(Throughput::Elements(steps));
        g.bench_function(name, |b| {
            b.iter(|| {
                let mut t = t0.clone();
                let out = run(&prog, &mut t, &mut Memory::default(), &opts).unwrap();
                assert_eq!(out.steps, steps);
                out.steps
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
