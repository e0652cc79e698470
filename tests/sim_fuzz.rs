//! The simulator never panics: arbitrary instructions (encoded without
//! checks, so every field combination the codec can write) run on
//! arbitrary registers, with and without a trace.
#![cfg(feature = "arbitrary")]

use arbitrary::{Arbitrary, Unstructured};
use geneu::sim::{run, Memory, Program, RunOptions, Thread};
use geneu::{encode_unchecked, Addr, Instruction, Opcode, Platform, Region, Src};

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

/// The opcodes the simulator defines only in part (`movi`) or not at all
/// (`brd`, `brc`, `smov`): arbitrary instructions with those opcodes, and
/// `movi` in the indirect `r[a0.j, imm]<1;1,0>` form it executes, with
/// random types, execution sizes, masks, destinations and address
/// registers that often stay within one half GRF. They run or fail with
/// an error, never panic, and some `movi` run.
#[test]
fn partly_defined_opcodes_never_panic() {
    use geneu::{AccessMode, Controls, Dst, ExecSize, Type};
    let mut s = 0x5eed_0003_u64;
    let mut movi_ran = 0;
    for round in 0..3000 {
        let p = Platform::ALL[round % 4];
        let i = if round % 2 == 0 {
            let raw: Vec<u8> = (0..256).map(|_| next(&mut s) as u8).collect();
            let mut u = Unstructured::new(&raw);
            let Ok(mut i) = Instruction::arbitrary(&mut u) else {
                continue;
            };
            i.opcode = [Opcode::Movi, Opcode::Brd, Opcode::Brc, Opcode::Smov][(next(&mut s) % 4) as usize];
            i
        } else {
            let pick = |s: &mut u64, n: u64| (next(s) % n) as usize;
            let ty = [
                Type::UD,
                Type::D,
                Type::UW,
                Type::W,
                Type::F,
                Type::B,
                Type::UB,
                Type::DF,
            ][pick(&mut s, 8)];
            let n = [ExecSize::S1, ExecSize::S2, ExecSize::S4, ExecSize::S8, ExecSize::S16][pick(&mut s, 5)];
            let mut i = Instruction::new(Opcode::Movi, n);
            i.dst = Dst::grf(
                (next(&mut s) % 128) as u8,
                (next(&mut s) % 4) as u8 * ty.size() as u8,
                ty,
            );
            i.dst.hstride = 1 + (next(&mut s) % 2) as u8;
            let mut src = Src::grf(0, 0, ty, Region::new(1, 1, 0).unwrap());
            src.addr = Addr::Indirect {
                subnr: (next(&mut s) % 16) as u8,
                imm: (next(&mut s) % 64) as i16 - 32,
            };
            i.src[0] = src;
            i.src[1] = Src::ZERO;
            if next(&mut s) % 8 == 0 {
                i.access_mode = AccessMode::Align16;
            }
            if next(&mut s) % 4 == 0 {
                i.controls |= Controls::WE_ALL;
            }
            if next(&mut s) % 8 == 0 {
                i.controls |= Controls::SATURATE;
            }
            i
        };
        let Ok(w) = encode_unchecked(p, &i) else { continue };
        let Ok(prog) = Program::new(p, &w) else { continue };
        let mut t = Thread::new();
        for k in 0..128u8 {
            t.write_ud8(k, core::array::from_fn(|_| next(&mut s) as u32));
        }
        // One base for every address register, plus up to 15 bytes (or
        // 63, now and then).
        let base = (next(&mut s) % 4200) as u16 & !15;
        for k in 0..16 {
            let spread = if next(&mut s) % 8 == 0 { 64 } else { 16 };
            t.set_a0(k, base + (next(&mut s) % spread) as u16);
        }
        t.set_flag(0, next(&mut s) as u32);
        t.set_dispatch_mask(next(&mut s) as u32);
        let mut opts = RunOptions::default();
        opts.step_limit = 8;
        opts.trace = round % 3 == 0;
        opts.end_at_program_end = true;
        if run(&prog, &mut t, &mut Memory::default(), &opts).is_ok() && i.opcode == Opcode::Movi {
            movi_ran += 1;
        }
    }
    assert!(movi_ran > 20, "{movi_ran} movi ran");
}
