//! Shared helpers of the simulator's tests: build a program with the
//! builder, run it as a fragment (the end of the program ends the thread),
//! and a deterministic generator of test values.
#![allow(dead_code)]

use geneu::build::Builder;
use geneu::sim::{run, End, Memory, Outcome, Program, RunOptions, SimError, Thread};
use geneu::Platform;

/// The builder's program, finished (validated) and decoded for the simulator.
pub fn program(b: Builder) -> Program {
    let p = b.platform();
    let built = b.finish().expect("the test program builds");
    Program::new(p, built.bytes()).expect("the program decodes")
}

/// Runs `b`'s program on `t` to its end.
pub fn run_to_end(b: Builder, t: &mut Thread) -> Outcome {
    try_run(b, t).expect("the program runs")
}

/// Runs `b`'s program on `t`, returning the error if it fails.
pub fn try_run(b: Builder, t: &mut Thread) -> Result<Outcome, SimError> {
    let prog = program(b);
    let mut opts = RunOptions::default();
    opts.end_at_program_end = true;
    opts.step_limit = 100_000;
    let out = run(&prog, t, &mut Memory::default(), &opts)?;
    assert_eq!(out.end, End::ProgramEnd);
    Ok(out)
}

/// Runs a program's bytes with a trace.
pub fn run_traced(p: Platform, bytes: &[u8], t: &mut Thread) -> Result<Outcome, SimError> {
    let prog = Program::new(p, bytes)?;
    let mut opts = RunOptions::default();
    opts.end_at_program_end = true;
    opts.trace = true;
    run(&prog, t, &mut Memory::default(), &opts)
}

/// A thread whose float operations keep denormals (cr0 bits 7 and 6), so
/// results compare with Rust's IEEE arithmetic.
pub fn ieee_thread() -> Thread {
    let mut t = Thread::new();
    t.set_cr0(geneu::isa::cr0::SP_DENORM_RETAIN | geneu::isa::cr0::DP_DENORM_RETAIN);
    t
}

/// xorshift64*: deterministic test values.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    pub fn u32(&mut self) -> u32 {
        // Mix small, edge and random values.
        match self.next() % 8 {
            0 => [0, 1, u32::MAX, 0x8000_0000, 0x7fff_ffff, 2, 0xffff, 0x1_0000][(self.next() % 8) as usize],
            1 => (self.next() % 64) as u32,
            _ => self.next() as u32,
        }
    }

    pub fn f32(&mut self) -> f32 {
        match self.next() % 10 {
            0 => [
                0.0,
                -0.0,
                1.0,
                -1.0,
                f32::INFINITY,
                f32::NEG_INFINITY,
                f32::NAN,
                f32::MIN_POSITIVE,
                1e-40,
                -3.5,
            ][(self.next() % 10) as usize],
            1..=4 => ((self.next() % 2001) as f32 - 1000.0) / 8.0,
            _ => f32::from_bits(self.next() as u32),
        }
    }
}

/// Eight f32 as their bits.
pub fn bits8(v: [f32; 8]) -> [u32; 8] {
    v.map(f32::to_bits)
}

/// The same f32 value or both NaN.
pub fn same_f32(a: u32, b: f32) -> bool {
    let a = f32::from_bits(a);
    (a.is_nan() && b.is_nan()) || a.to_bits() == b.to_bits()
}
