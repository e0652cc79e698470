//! SIMD control flow: small programs with divergent per-channel
//! conditions, built with the builder (whose JIP/UIP follow Mesa's
//! `patch_IF_ELSE` and `brw_set_uip_jip`), checked channel by channel
//! against a direct Rust evaluation of the same structure, on every
//! platform (8-byte branch units on Gen7/7.5, bytes on Gen8), SIMD8 and
//! SIMD16.

// Channel-indexed loops compare arrays channel by channel.
#![allow(clippy::needless_range_loop)]

use crate::sim_common;

use geneu::build::{g, imm_d, null, Builder, Predicate, State};
use geneu::sim::{run, Memory, Program, RunOptions, SimError, Thread};
use geneu::{CondMod, ExecSize, Platform};
use sim_common::*;

const PLATFORMS: [Platform; 4] = [Platform::Gen7, Platform::Gen75, Platform::Gen8, Platform::Chv];

fn pred() -> Option<Predicate> {
    Some(Predicate::normal(0, 0))
}

/// A thread with per-channel D inputs in g3 (SIMD8) or g3-g4 (SIMD16).
fn thread_with(inputs: &[i32]) -> Thread {
    let mut t = Thread::new();
    for (k, &v) in inputs.iter().enumerate() {
        t.write_ud(3 + (k / 8) as u8, (k % 8) as u32 * 4, v as u32);
    }
    t.set_dispatch_mask(if inputs.len() > 8 { 0xffff } else { 0xff });
    t
}

fn outputs(t: &Thread, reg: u8, n: usize) -> Vec<i32> {
    (0..n)
        .map(|k| t.read_ud(reg + (k / 8) as u8, (k % 8) as u32 * 4).unwrap() as i32)
        .collect()
}

fn simd(b: &mut Builder, n: usize) {
    b.state_mut().exec_size = if n > 8 { ExecSize::S16 } else { ExecSize::S8 };
}

#[test]
fn if_else_endif_diverges_per_channel() {
    for p in PLATFORMS {
        for n in [8usize, 16] {
            let inputs: Vec<i32> = (0..n as i32).map(|k| (k * 7) % 11 - 3).collect();
            let mut b = Builder::new(p);
            simd(&mut b, n);
            b.cmp(CondMod::L, null().d(), g(3).d(), imm_d(2)).unwrap();
            b.state_mut().predicate = pred();
            b.if_().unwrap();
            b.state_mut().predicate = None;
            b.add(g(5).d(), g(3).d(), imm_d(100)).unwrap();
            b.else_().unwrap();
            b.add(g(5).d(), g(3).d(), imm_d(200)).unwrap();
            b.endif().unwrap();
            b.add(g(7).d(), g(5).d(), imm_d(1)).unwrap();
            let mut t = thread_with(&inputs);
            run_to_end(b, &mut t);
            let want: Vec<i32> = inputs.iter().map(|&x| if x < 2 { x + 100 } else { x + 200 }).collect();
            assert_eq!(outputs(&t, 5, n), want, "{p} SIMD{n}");
            assert_eq!(
                outputs(&t, 7, n),
                want.iter().map(|x| x + 1).collect::<Vec<_>>(),
                "{p} SIMD{n} after"
            );
        }
    }
}

#[test]
fn nested_ifs_with_uniform_and_divergent_conditions() {
    for p in PLATFORMS {
        for n in [8usize, 16] {
            let inputs: Vec<i32> = (0..n as i32).map(|k| (k * 5) % 9).collect();
            let mut b = Builder::new(p);
            simd(&mut b, n);
            b.mov(g(5).d(), imm_d(0)).unwrap();
            // if (x > 2) { if (x > 6) r = 1 else r = 2; if (x == 4) r += 10 } else { if (x == 0) r = 3 }
            b.cmp(CondMod::G, null().d(), g(3).d(), imm_d(2)).unwrap();
            b.state_mut().predicate = pred();
            b.if_().unwrap();
            b.state_mut().predicate = None;
            b.cmp(CondMod::G, null().d(), g(3).d(), imm_d(6)).unwrap();
            b.state_mut().predicate = pred();
            b.if_().unwrap();
            b.state_mut().predicate = None;
            b.mov(g(5).d(), imm_d(1)).unwrap();
            b.else_().unwrap();
            b.mov(g(5).d(), imm_d(2)).unwrap();
            b.endif().unwrap();
            b.cmp(CondMod::Z, null().d(), g(3).d(), imm_d(4)).unwrap();
            b.state_mut().predicate = pred();
            b.if_().unwrap();
            b.state_mut().predicate = None;
            b.add(g(5).d(), g(5).d(), imm_d(10)).unwrap();
            b.endif().unwrap();
            b.else_().unwrap();
            b.cmp(CondMod::Z, null().d(), g(3).d(), imm_d(0)).unwrap();
            b.state_mut().predicate = pred();
            b.if_().unwrap();
            b.state_mut().predicate = None;
            b.mov(g(5).d(), imm_d(3)).unwrap();
            b.endif().unwrap();
            b.endif().unwrap();
            let mut t = thread_with(&inputs);
            run_to_end(b, &mut t);
            let want: Vec<i32> = inputs
                .iter()
                .map(|&x| {
                    let mut r = 0;
                    if x > 2 {
                        r = if x > 6 { 1 } else { 2 };
                        if x == 4 {
                            r += 10;
                        }
                    } else if x == 0 {
                        r = 3;
                    }
                    r
                })
                .collect();
            assert_eq!(outputs(&t, 5, n), want, "{p} SIMD{n}");
        }
    }
}

/// do { i++; if (i >= n) break; if (i odd) continue; sum += i; if (i == 6) { sum += 1000 } } while (true)
#[test]
fn loops_with_divergent_break_and_continue() {
    for p in PLATFORMS {
        for n in [8usize, 16] {
            let inputs: Vec<i32> = (0..n as i32).map(|k| (k * 3) % 11).collect();
            let mut b = Builder::new(p);
            simd(&mut b, n);
            b.mov(g(5).d(), imm_d(0)).unwrap(); // sum
            b.mov(g(7).d(), imm_d(0)).unwrap(); // i
            b.do_();
            b.add(g(7).d(), g(7).d(), imm_d(1)).unwrap();
            b.cmp(CondMod::Ge, null().d(), g(7).d(), g(3).d()).unwrap();
            b.state_mut().predicate = pred();
            b.break_().unwrap();
            b.state_mut().predicate = None;
            b.and(g(9).d(), g(7).d(), imm_d(1)).unwrap();
            b.cmp(CondMod::Nz, null().d(), g(9).d(), imm_d(0)).unwrap();
            b.state_mut().predicate = pred();
            b.cont().unwrap();
            b.state_mut().predicate = None;
            b.add(g(5).d(), g(5).d(), g(7).d()).unwrap();
            b.cmp(CondMod::Z, null().d(), g(7).d(), imm_d(6)).unwrap();
            b.state_mut().predicate = pred();
            b.if_().unwrap();
            b.state_mut().predicate = None;
            b.add(g(5).d(), g(5).d(), imm_d(1000)).unwrap();
            b.endif().unwrap();
            b.while_().unwrap();
            b.add(g(11).d(), g(5).d(), g(7).d()).unwrap();
            let mut t = thread_with(&inputs);
            run_to_end(b, &mut t);
            let mut want_sum = Vec::new();
            let mut want_i = Vec::new();
            for &lim in &inputs {
                let (mut sum, mut i) = (0, 0);
                loop {
                    i += 1;
                    if i >= lim {
                        break;
                    }
                    if i % 2 != 0 {
                        continue;
                    }
                    sum += i;
                    if i == 6 {
                        sum += 1000;
                    }
                }
                want_sum.push(sum);
                want_i.push(i);
            }
            assert_eq!(outputs(&t, 5, n), want_sum, "{p} SIMD{n} sums");
            assert_eq!(outputs(&t, 7, n), want_i, "{p} SIMD{n} counters");
            let after: Vec<i32> = want_sum.iter().zip(&want_i).map(|(s, i)| s + i).collect();
            assert_eq!(outputs(&t, 11, n), after, "{p} SIMD{n} after the loop");
        }
    }
}

/// A predicated WHILE loop: do { x = x * 2 + 1; } while (x < 50) with
/// per-channel starts, and a nested loop inside.
#[test]
fn predicated_while_and_nested_loops() {
    for p in PLATFORMS {
        let inputs: Vec<i32> = vec![0, 1, 5, 20, 49, 50, 100, 3];
        let mut b = Builder::new(p);
        b.mov(g(5).d(), g(3).d()).unwrap();
        b.mov(g(6).d(), imm_d(0)).unwrap();
        b.mov(g(10).d(), imm_d(3)).unwrap();
        b.do_();
        b.add(g(5).d(), g(5).d(), g(5).d()).unwrap();
        b.add(g(5).d(), g(5).d(), imm_d(1)).unwrap();
        // inner: do { c++ } while (c % 3 != 0)
        b.do_();
        b.add(g(6).d(), g(6).d(), imm_d(1)).unwrap();
        b.math(
            geneu::MathFunction::IntDivRemainder,
            g(8).d(),
            g(6).d(),
            Some(g(10).d().into()),
        )
        .unwrap();
        b.cmp(CondMod::Nz, null().d(), g(8).d(), imm_d(0)).unwrap();
        b.state_mut().predicate = pred();
        b.while_().unwrap();
        b.state_mut().predicate = None;
        b.cmp(CondMod::L, null().d(), g(5).d(), imm_d(50)).unwrap();
        b.state_mut().predicate = pred();
        b.while_().unwrap();
        let mut t = thread_with(&inputs);
        run_to_end(b, &mut t);
        let mut want_x = Vec::new();
        let mut want_c = Vec::new();
        for &x0 in &inputs {
            let (mut x, mut c) = (x0, 0);
            loop {
                x = x * 2 + 1;
                loop {
                    c += 1;
                    if c % 3 == 0 {
                        break;
                    }
                }
                if x >= 50 {
                    break;
                }
            }
            want_x.push(x);
            want_c.push(c);
        }
        assert_eq!(outputs(&t, 5, 8), want_x, "{p}");
        assert_eq!(outputs(&t, 6, 8), want_c, "{p}");
    }
}

#[test]
fn halt_parks_channels_until_its_target() {
    for p in PLATFORMS {
        let inputs: Vec<i32> = vec![0, 1, 2, 3, 4, 5, 6, 7];
        let mut b = Builder::new(p);
        let end = b.label();
        b.mov(g(5).d(), imm_d(0)).unwrap();
        b.cmp(CondMod::G, null().d(), g(3).d(), imm_d(4)).unwrap();
        b.state_mut().predicate = pred();
        b.halt(end).unwrap();
        b.state_mut().predicate = None;
        b.mov(g(5).d(), imm_d(1)).unwrap();
        b.bind(end).unwrap();
        // Mesa's halt target: a HALT whose JIP and UIP are the next
        // instruction (`patch_halt_jumps`).
        b.halt(geneu::build::Target::Rel(1)).unwrap();
        b.add(g(6).d(), g(5).d(), imm_d(10)).unwrap();
        let mut t = thread_with(&inputs);
        run_to_end(b, &mut t);
        assert_eq!(outputs(&t, 5, 8), vec![1, 1, 1, 1, 1, 0, 0, 0], "{p}");
        assert_eq!(outputs(&t, 6, 8), vec![11, 11, 11, 11, 11, 10, 10, 10], "{p}");
    }
}

#[test]
fn all_channels_off_jumps_to_the_jip() {
    // No channel takes the IF: its body is never executed (the trace shows
    // the jump), even its NoMask instructions.
    for p in PLATFORMS {
        let mut b = Builder::new(p);
        b.cmp(CondMod::L, null().d(), g(3).d(), imm_d(-100)).unwrap();
        b.state_mut().predicate = pred();
        b.if_().unwrap();
        b.set_state(State::default().no_mask());
        b.mov(g(5).d(), imm_d(7)).unwrap();
        b.set_state(State::default());
        b.endif().unwrap();
        b.mov(g(6).d(), imm_d(1)).unwrap();
        let bytes = b.finish().unwrap().bytes().to_vec();
        let mut t = thread_with(&[0; 8]);
        t.set_flag(0, 0xff);
        let out = run_traced(p, &bytes, &mut t).unwrap();
        assert_eq!(outputs(&t, 5, 8), vec![0; 8], "{p}");
        assert_eq!(outputs(&t, 6, 8), vec![1; 8], "{p}");
        assert_eq!(out.steps, 4, "{p}: cmp, if, endif, mov");
        let offsets: Vec<u32> = out.trace.iter().map(|e| e.offset).collect();
        assert_eq!(offsets, vec![0, 16, 48, 64]);
        assert_eq!(out.trace[0].channels, 0xff);
        assert_eq!(out.trace[1].channels, 0, "{p}: no channel stays in the IF");
        // The cmp changed f0 (bits 0-7 set) and nothing in the GRF.
        assert!(out.trace[0]
            .changes
            .iter()
            .all(|c| matches!(c.at, geneu::sim::Loc::Arf { .. })));
        assert!(!out.trace[0].changes.is_empty());
        // The last mov wrote g6's 32 bytes, 1 in each dword's low byte.
        let grf: Vec<_> = out.trace[3].changes.iter().collect();
        assert_eq!(grf.len(), 8, "{p}");
        assert!(grf.iter().all(|c| c.at
            == geneu::sim::Loc::Grf {
                reg: 6,
                byte: match c.at {
                    geneu::sim::Loc::Grf { byte, .. } => byte,
                    _ => 99,
                }
            }
            && c.new == 1));
    }
}

#[test]
fn jmpi_and_call_return() {
    for p in PLATFORMS {
        let mut b = Builder::new(p);
        let skip = b.label();
        let func = b.label();
        let end = b.label();
        b.mov(g(5).d(), imm_d(1)).unwrap();
        b.jmpi(skip).unwrap();
        b.mov(g(5).d(), imm_d(2)).unwrap();
        b.bind(skip).unwrap();
        b.call(g(120).ud().vec1(), func).unwrap();
        b.add(g(5).d(), g(5).d(), imm_d(100)).unwrap();
        b.jmpi(end).unwrap();
        b.bind(func).unwrap();
        b.add(g(5).d(), g(5).d(), imm_d(10)).unwrap();
        b.ret(g(120).ud().vec1()).unwrap();
        b.bind(end).unwrap();
        b.nop().unwrap();
        let mut t = thread_with(&[0; 8]);
        run_to_end(b, &mut t);
        assert_eq!(outputs(&t, 5, 8), vec![111; 8], "{p}");
    }
}

#[test]
fn infinite_loops_stop_at_the_step_limit_and_bad_jumps_fail() {
    for p in PLATFORMS {
        let mut b = Builder::new(p);
        b.do_();
        b.add(g(5).d(), g(5).d(), imm_d(1)).unwrap();
        b.while_().unwrap();
        let prog = program(b);
        let mut t = thread_with(&[0; 8]);
        let mut opts = RunOptions::default();
        opts.step_limit = 101;
        let e = run(&prog, &mut t, &mut Memory::default(), &opts).unwrap_err();
        assert_eq!(e, SimError::StepLimit { steps: 101, offset: 16 }, "{p}");
        assert_eq!(outputs(&t, 5, 8), vec![51; 8]);
        // A program without EOT runs off its end.
        let mut b = Builder::new(p);
        b.nop().unwrap();
        let prog = program(b);
        let e = run(&prog, &mut t, &mut Memory::default(), &RunOptions::default()).unwrap_err();
        assert_eq!(e, SimError::RanOffEnd { offset: 16 });
    }
    // A WHILE whose JIP lands between two instructions (hand-made).
    let p = Platform::Gen8;
    let mut w = geneu::Instruction::new(geneu::Opcode::While, ExecSize::S8);
    assert!(w.set_branch(p, -8, None));
    let mut words = geneu::encode(p, &geneu::Instruction::new(geneu::Opcode::Nop, ExecSize::S1))
        .unwrap()
        .to_vec();
    words.extend(geneu::encode_unchecked(p, &w).unwrap());
    let prog = Program::new(p, &words).unwrap();
    let e = run(
        &prog,
        &mut Thread::new(),
        &mut Memory::default(),
        &RunOptions::default(),
    )
    .unwrap_err();
    assert_eq!(e, SimError::BadJump { offset: 16, target: 8 });
}

#[test]
fn arbitrary_bytes_never_panic() {
    let mut r = Rng(0x5eed);
    for p in PLATFORMS {
        for _ in 0..3000 {
            let len = (r.next() % 12) as usize * 8;
            let bytes: Vec<u8> = (0..len).map(|_| r.next() as u8).collect();
            let Ok(prog) = Program::new(p, &bytes) else { continue };
            let mut t = Thread::new();
            for k in 0..128u8 {
                t.write_ud8(k, core::array::from_fn(|_| r.next() as u32));
            }
            for k in 0..16 {
                t.set_a0(k, r.next() as u16);
            }
            t.set_flag(0, r.next() as u32);
            t.set_cr0(r.next() as u32);
            let mut opts = RunOptions::default();
            opts.step_limit = 200;
            opts.trace = r.next() % 2 == 0;
            let _ = run(&prog, &mut t, &mut Memory::default(), &opts);
        }
    }
}

/// Gen8's GOTO and JOIN as the vISA specification shows an if/else and a
/// do-while loop with them: a forward GOTO parks its channels at its
/// UIP, a JOIN wakes them; a backward GOTO loops the channels it takes.
#[test]
fn gen8_goto_and_join() {
    for p in [Platform::Gen8, Platform::Chv] {
        let inputs: Vec<i32> = vec![0, 3, -1, 8, 2, 0, 5, 1];
        let mut b = Builder::new(p);
        let else1 = b.label();
        let endif1 = b.label();
        b.cmp(CondMod::Nz, null().d(), g(3).d(), imm_d(0)).unwrap();
        b.state_mut().predicate = Some(Predicate::normal(0, 0).inverted());
        b.branch_to(geneu::Opcode::Goto, else1, Some(else1.into())).unwrap();
        b.state_mut().predicate = None;
        b.mul(g(5).d(), g(3).d(), geneu::build::imm_w(10)).unwrap();
        b.branch_to(geneu::Opcode::Goto, endif1, Some(endif1.into())).unwrap();
        b.bind(else1).unwrap();
        b.branch_to(geneu::Opcode::Join, endif1, None).unwrap();
        b.mov(g(5).d(), imm_d(-7)).unwrap();
        b.bind(endif1).unwrap();
        b.branch_to(geneu::Opcode::Join, geneu::build::Target::Rel(1), None)
            .unwrap();
        // A loop: do { x += 3 } while (x < 10), with a backward goto.
        let top = b.label();
        let out = b.label();
        b.mov(g(7).d(), g(3).d()).unwrap();
        b.bind(top).unwrap();
        b.add(g(7).d(), g(7).d(), imm_d(3)).unwrap();
        b.cmp(CondMod::L, null().d(), g(7).d(), imm_d(10)).unwrap();
        b.state_mut().predicate = pred();
        b.branch_to(geneu::Opcode::Goto, out, Some(top.into())).unwrap();
        b.state_mut().predicate = None;
        b.bind(out).unwrap();
        b.add(g(9).d(), g(7).d(), imm_d(1)).unwrap();
        let mut t = thread_with(&inputs);
        run_to_end(b, &mut t);
        let want: Vec<i32> = inputs.iter().map(|&x| if x != 0 { x * 10 } else { -7 }).collect();
        assert_eq!(outputs(&t, 5, 8), want, "{p}");
        let want: Vec<i32> = inputs
            .iter()
            .map(|&x| {
                let mut y = x;
                loop {
                    y += 3;
                    if y >= 10 {
                        break y;
                    }
                }
            })
            .collect();
        assert_eq!(outputs(&t, 7, 8), want, "{p} loop");
        assert_eq!(
            outputs(&t, 9, 8),
            want.iter().map(|y| y + 1).collect::<Vec<_>>(),
            "{p} after"
        );
    }
}

/// A CALL under divergent control flow: only the channels that call run
/// the subroutine; the others wait at the return address.
#[test]
fn divergent_call() {
    for p in PLATFORMS {
        let inputs: Vec<i32> = vec![0, 1, 2, 3, 4, 5, 6, 7];
        let mut b = Builder::new(p);
        let func = b.label();
        let end = b.label();
        b.cmp(CondMod::G, null().d(), g(3).d(), imm_d(3)).unwrap();
        b.state_mut().predicate = pred();
        b.call(g(120).ud().vec1(), func).unwrap();
        b.state_mut().predicate = None;
        b.add(g(5).d(), g(5).d(), imm_d(1)).unwrap();
        b.set_state(State::default().simd(ExecSize::S1).no_mask());
        b.jmpi(end).unwrap();
        b.set_state(State::default());
        b.bind(func).unwrap();
        b.add(g(5).d(), g(5).d(), imm_d(100)).unwrap();
        b.ret(g(120).ud().vec1()).unwrap();
        b.bind(end).unwrap();
        b.nop().unwrap();
        let mut t = thread_with(&inputs);
        run_to_end(b, &mut t);
        let want: Vec<i32> = inputs.iter().map(|&x| if x > 3 { 101 } else { 1 }).collect();
        assert_eq!(outputs(&t, 5, 8), want, "{p}");
    }
}

#[test]
fn unmodelled_opcodes_fail_even_without_channels() {
    // An illegal instruction with every channel off still fails.
    for p in PLATFORMS {
        let mut i = geneu::Instruction::new(geneu::Opcode::Illegal, ExecSize::S8);
        i.dst = geneu::Dst::grf(2, 0, geneu::Type::UD);
        let bytes = geneu::encode_unchecked(p, &i).unwrap();
        let prog = Program::new(p, &bytes).unwrap();
        let mut t = Thread::new();
        t.set_dispatch_mask(0);
        let e = run(&prog, &mut t, &mut Memory::default(), &RunOptions::default()).unwrap_err();
        assert!(matches!(e, SimError::Unsupported { offset: 0, .. }), "{p}: {e}");
    }
}

/// The opcodes the simulator leaves unmodelled fail with a typed error that
/// names them, never a silent no-op: brd and brc (every platform, both
/// offset forms), movi outside the one form a source defines (here a
/// direct source; see tests/sim_ops.rs), and Gen8's smov.
#[test]
fn unmodelled_opcodes_name_themselves() {
    use geneu::{Dst, Instruction, Opcode, Src, Type};
    let mut cases: Vec<(geneu::Platform, Instruction, &str)> = Vec::new();
    for p in PLATFORMS {
        for op in [Opcode::Brd, Opcode::Brc] {
            // Immediate offsets (src0 an immediate) and register offsets.
            let mut i = Instruction::new(op, ExecSize::S8);
            i.dst = Dst::null();
            i.src[0] = Src::imm(Type::D);
            cases.push((p, i, "brd and brc"));
            let mut r = i;
            r.src[0] = Src::grf(11, 0, Type::D, geneu::Region::SCALAR);
            cases.push((p, r, "brd and brc"));
        }
        let mut m = Instruction::new(Opcode::Movi, ExecSize::S8);
        m.dst = Dst::grf(2, 0, Type::UD);
        m.src[0] = Src::grf(3, 0, Type::UD, geneu::Region::new(8, 8, 1).unwrap());
        m.src[1] = Src::grf(4, 0, Type::UD, geneu::Region::new(8, 8, 1).unwrap());
        cases.push((p, m, "movi"));
    }
    cases.push((Platform::Gen8, Instruction::new(Opcode::Smov, ExecSize::S8), "smov"));
    for (p, i, name) in cases {
        let bytes = geneu::encode_unchecked(p, &i).unwrap();
        let prog = Program::new(p, &bytes).unwrap();
        let mut t = Thread::new();
        let e = run(&prog, &mut t, &mut Memory::default(), &RunOptions::default()).unwrap_err();
        match e {
            SimError::Unsupported { offset: 0, what } => assert!(what.starts_with(name), "{p} {:?}: {what}", i.opcode),
            e => panic!("{p} {:?}: {e}", i.opcode),
        }
    }
}

/// A `jmpi` word's jump, counted from the next instruction, is in bytes
/// on Gen8 and on Haswell (IGA's encoder and decoder keep only JIP and
/// UIP in 8-byte units there, `Encoder::arePcsInQWords`; Beignet's
/// Haswell encoder: "the HSW's offset of jmpi is in byte"), and in 8-byte
/// units on Ivy Bridge (Mesa's `brw_land_fwd_jump`, Beignet's Gen7
/// encoder): the jump of one instruction is 16 and 2.
#[test]
fn jmpi_jumps_bytes_on_haswell_and_qwords_on_ivy_bridge() {
    use Platform::*;
    for (p, one) in [(Gen7, 2), (Gen75, 16), (Gen8, 16), (Chv, 16)] {
        let text = format!(
            "mov(8) g5<1>D 1D {{ align1 1Q }};\n\
             jmpi(1) {one}D {{ align1 WE_all 1N }};\n\
             mov(8) g5<1>D 2D {{ align1 1Q }};\n\
             add(8) g5<1>D g5<8,8,1>D 100D {{ align1 1Q }};\n"
        );
        let bytes: Vec<u8> = geneu::text::assemble_words(p, &text)
            .unwrap_or_else(|e| panic!("{p}: {e}"))
            .concat();
        let mut t = thread_with(&[0; 8]);
        run_traced(p, &bytes, &mut t).unwrap_or_else(|e| panic!("{p}: {e}"));
        assert_eq!(outputs(&t, 5, 8), vec![101; 8], "{p}: the jmpi skips one instruction");
    }
}
