//! The simulator never panics: arbitrary instructions (encoded without
//! checks, so every field combination the codec can write) run on
//! arbitrary registers, with and without a trace.
#![cfg(feature = "arbitrary")]

use arbitrary::{Arbitrary, Unstructured};
use geneu::sim::{run, Memory, Program, RunOptions, Thread};
use geneu::{encode_unchecked, Instruction, Platform};

/// xorshift64*.
fn next(s: &mut u64) -> u64 {
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    s.wrapping_mul(0x2545_f491_4f6c_dd1d)
}

#[test]
fn arbitrary_instructions_never_panic() {
    let mut s = 0xfeed_f00d_u64;
    let mut ran = 0;
    for round in 0..4000 {
        let p = Platform::ALL[round % 4];
        let raw: Vec<u8> = (0..512).map(|_| next(&mut s) as u8).collect();
        let mut u = Unstructured::new(&raw);
        let mut bytes = Vec::new();
        for _ in 0..(1 + next(&mut s) % 6) {
            let Ok(i) = Instruction::arbitrary(&mut u) else { break };
            if let Ok(w) = encode_unchecked(p, &i) {
                bytes.extend_from_slice(&w);
            }
        }
        let Ok(prog) = Program::new(p, &bytes) else { continue };
        let mut t = Thread::new();
        for k in 0..128u8 {
            t.write_ud8(k, core::array::from_fn(|_| next(&mut s) as u32));
        }
        for k in 0..16 {
            t.set_a0(k, next(&mut s) as u16 % 4200);
        }
        t.set_flag(0, next(&mut s) as u32);
        t.set_flag(1, next(&mut s) as u32);
        t.set_cr0(next(&mut s) as u32);
        t.set_dispatch_mask(next(&mut s) as u32);
        let mut opts = RunOptions::default();
        opts.step_limit = 64;
        opts.trace = round % 2 == 0;
        opts.end_at_program_end = round % 3 != 0;
        if run(&prog, &mut t, &mut Memory::default(), &opts).is_ok() {
            ran += 1;
        }
    }
    assert!(ran > 50, "{ran} programs ran to their end");
}
