//! Simulator throughput: a SIMD8 and a SIMD16 loop of ALU instructions
//! (integer and float add, mul, mad, cmp, sel, logic), a SIMD8 and a SIMD16
//! loop that reads and writes a buffer with untyped surface messages
//! between ALU instructions, and a dispatch of 64 thread groups of that
//! loop, one after another and on worker threads; in simulated
//! instructions per second.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use geneu::build::{g, imm_d, imm_f, imm_ud, null, Builder, Predicate, State};
use geneu::msg::Message;
use geneu::sim::{run, run_dispatch, run_dispatch_parallel, Dispatch, Memory, Program, RunOptions, Surface, Thread};
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

/// Bytes of the mixed loop's buffer, and where its writes go.
const BUFFER: usize = 16 * 1024;
const WRITES_AT: u32 = 8 * 1024;

/// A loop of `iters` iterations that reads `simd` dwords of the buffer at
/// binding table index 0 (at g30's per-channel offsets plus the iteration's
/// offset, which wraps at 2 KiB) with an untyped surface read, computes
/// with them, and writes the result 8 KiB further with an untyped surface
/// write: 12 instructions, 2 of them SENDs, per iteration. The
/// instructions executed.
fn mixed(simd: ExecSize, iters: i32) -> (Program, u64) {
    let p = Platform::Gen8;
    let s16 = simd == ExecSize::S16;
    // Untyped surface read and write, red only, of BTI 0 (`geneu desc`).
    let (read, write) = if s16 {
        (0x0420_5e00, 0x0802_5e00)
    } else {
        (0x0210_6e00, 0x0402_6e00)
    };
    let msg = |desc| Message::decode_typed(p, 12, desc).unwrap();
    let data = if s16 { 6 } else { 5 };
    let mut b = Builder::new(p);
    b.set_state(State::default().simd(simd));
    // The counter in g40 (g40-g41 in SIMD16), the offset in g42.
    // The counter in g40 (g40-g41 in SIMD16), the offset in g42.
    b.mov(g(40).d(), imm_d(0)).unwrap();
    b.mov(g(42).ud(), imm_ud(0)).unwrap();
    b.do_();
    b.add(g(2).ud(), g(30).ud(), g(42).ud().scalar()).unwrap();
    b.send(g(20).ud(), g(2).ud(), &msg(read)).unwrap();
    b.mul(g(22).ud(), g(20).ud(), imm_ud(3)).unwrap();
    b.add(g(24).ud(), g(22).ud(), g(20).ud()).unwrap();
    b.add(g(4).ud(), g(2).ud(), imm_ud(WRITES_AT)).unwrap();
    b.mov(g(data).ud(), g(24).ud()).unwrap();
    b.send(null().ud(), g(4).ud(), &msg(write)).unwrap();
    b.add(g(42).ud(), g(42).ud(), imm_ud(if s16 { 64 } else { 32 }))
        .unwrap();
    b.and(g(42).ud(), g(42).ud(), imm_ud(0x7ff)).unwrap();
    b.add(g(40).d(), g(40).d(), imm_d(1)).unwrap();
    b.cmp(CondMod::L, null().d(), g(40).d(), imm_d(iters)).unwrap();
    b.state_mut().predicate = Some(Predicate::normal(0, 0));
    b.while_().unwrap();
    let prog = Program::new(p, b.finish().unwrap().bytes()).unwrap();
    (prog, 2 + 12 * iters as u64)
}

/// A thread of the mixed loop whose offsets start at byte `base`.
fn mixed_thread(simd: ExecSize, base: u32) -> Thread {
    let mut t = Thread::new();
    let n = simd.channels();
    t.set_dispatch_mask(if n == 16 { 0xffff } else { 0xff });
    for ch in 0..n {
        t.write_ud(30, ch * 4, base + ch * 4);
    }
    t
}

fn mixed_memory() -> Memory {
    let mut mem = Memory::new();
    mem.bind(0, Surface::buffer((0..BUFFER).map(|b| b as u8).collect()));
    mem
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
    for (name, simd) in [("simd8_mixed", ExecSize::S8), ("simd16_mixed", ExecSize::S16)] {
        let (prog, steps) = mixed(simd, 1000);
        let mut opts = RunOptions::default();
        opts.end_at_program_end = true;
        opts.step_limit = steps + 1;
        let t0 = mixed_thread(simd, 0);
        let mem0 = mixed_memory();
        g.throughput(Throughput::Elements(steps));
        g.bench_function(name, |b| {
            b.iter(|| {
                let mut t = t0.clone();
                let out = run(&prog, &mut t, &mut mem0.clone(), &opts).unwrap();
                assert_eq!(out.steps, steps);
                out.steps
            })
        });
    }
    // 64 groups of one SIMD16 thread, each reading and writing its own
    // bytes (offsets 64 bytes apart): no group reads another's writes.
    let groups = 64u32;
    let (prog, steps) = mixed(ExecSize::S16, 200);
    let mut opts = RunOptions::default();
    opts.end_at_program_end = true;
    opts.step_limit = steps + 1;
    let mut d0 = Dispatch::new();
    for k in 0..groups {
        d0.push(k, mixed_thread(ExecSize::S16, 64 * k));
    }
    let mem0 = mixed_memory();
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
    g.throughput(Throughput::Elements(steps * u64::from(groups)));
    g.bench_function("dispatch64_sequential", |b| {
        b.iter(|| {
            let (mut d, mut mem) = (d0.clone(), mem0.clone());
            run_dispatch(&prog, &mut d, &mut mem, &opts).unwrap().len()
        })
    });
    g.bench_function(format!("dispatch64_parallel_{workers}"), |b| {
        b.iter(|| {
            let (mut d, mut mem) = (d0.clone(), mem0.clone());
            let (out, stats) = run_dispatch_parallel(&prog, &mut d, &mut mem, &opts, workers).unwrap();
            assert_eq!(stats.sequential, 0);
            out.len()
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
