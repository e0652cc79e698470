//! Control flow, semantically: random structured programs (nested
//! if/else, bounded loops with break and continue, halt, calls, every
//! condition per channel) are built with `geneu::build`, simulated at
//! SIMD8 and SIMD16 on every platform, and each channel's registers are
//! compared with `semantic_common::flow_ref`'s direct evaluation of the
//! program as that channel's scalar code.

use crate::semantic_common;

use geneu::{ExecSize, Platform};
use semantic_common::flow_ref::*;

fn prog(main: Vec<Stmt>) -> Prog {
    Prog { main, subs: vec![] }
}

/// if/else by an input bit: each channel takes one side.
#[test]
fn an_if_else_takes_the_side_of_each_channels_bit() {
    let p = prog(vec![Stmt::If(
        Cond::Input(1),
        vec![Stmt::Op(Update::Add(5))],
        Some(vec![Stmt::Op(Update::Xor(0x30))]),
    )]);
    assert_eq!(eval_channel(&p, 0b10, 1).acc, 6);
    assert_eq!(eval_channel(&p, 0b01, 1).acc, 0x31);
}

/// A loop runs until its break condition or its bound: `acc += 1` each
/// time, breaking when bit 2 is set: 1 -> 2 -> 3 -> 4, stop after 3 rounds.
#[test]
fn a_loop_stops_at_its_break_or_its_bound() {
    let body = vec![Stmt::Op(Update::Add(1)), Stmt::Break(Cond::Acc(2))];
    let p = prog(vec![Stmt::Loop(10, body.clone())]);
    let c = eval_channel(&p, 0, 1);
    assert_eq!((c.acc, c.counters[0]), (4, 3));
    // The bound of 2 comes first.
    let p = prog(vec![Stmt::Loop(2, body)]);
    let c = eval_channel(&p, 0, 1);
    assert_eq!((c.acc, c.counters[0]), (3, 2));
}

/// continue skips the rest of the body; the bound still counts.
#[test]
fn continue_skips_the_rest_of_the_body() {
    let p = prog(vec![Stmt::Loop(
        3,
        vec![
            Stmt::Op(Update::Add(1)),
            Stmt::Cont(Cond::Input(0)),
            Stmt::Op(Update::Add(100)),
        ],
    )]);
    assert_eq!(eval_channel(&p, 1, 0).acc, 3);
    assert_eq!(eval_channel(&p, 0, 0).acc, 303);
}

/// halt stops the channel for good, from inside a loop too.
#[test]
fn halt_stops_the_channel() {
    let p = prog(vec![
        Stmt::Loop(5, vec![Stmt::Op(Update::Add(1)), Stmt::Halt(Cond::Input(3))]),
        Stmt::Op(Update::Xor(0x100)),
    ]);
    assert_eq!(eval_channel(&p, 8, 0).acc, 1);
    assert_eq!(eval_channel(&p, 0, 0).acc, 0x105);
}

/// A goto skips its body for the channels whose condition holds.
#[test]
fn a_goto_skips_its_body_where_the_condition_holds() {
    let p = prog(vec![
        Stmt::Goto(Cond::Input(2), vec![Stmt::Op(Update::Add(7))]),
        Stmt::Op(Update::Mul(3)),
    ]);
    assert_eq!(eval_channel(&p, 4, 1).acc, 3);
    assert_eq!(eval_channel(&p, 0, 1).acc, 24);
}

/// A call runs the subroutine for the calling channel, and returns.
#[test]
fn a_call_runs_the_subroutine() {
    let p = Prog {
        main: vec![Stmt::Op(Update::Add(2)), Stmt::Call(0), Stmt::Op(Update::Mul(3))],
        subs: vec![vec![Stmt::If(Cond::Input(0), vec![Stmt::Op(Update::Xor(1))], None)]],
    };
    assert_eq!(eval_channel(&p, 1, 0).acc, 9);
    assert_eq!(eval_channel(&p, 0, 0).acc, 6);
}

/// Random programs build (the builder validates every instruction) on
/// every platform at SIMD8 and SIMD16, and the generator reaches every
/// kind of statement.
#[test]
fn random_programs_build_everywhere() {
    let mut kinds = [0u32; 8];
    fn count(stmts: &[Stmt], k: &mut [u32; 8]) {
        for s in stmts {
            match s {
                Stmt::Op(_) => k[0] += 1,
                Stmt::If(_, t, e) => {
                    k[1] += 1;
                    count(t, k);
                    if let Some(e) = e {
                        count(e, k);
                    }
                }
                Stmt::Loop(_, b) => {
                    k[2] += 1;
                    count(b, k);
                }
                Stmt::Break(_) => k[3] += 1,
                Stmt::Cont(_) => k[4] += 1,
                Stmt::Halt(_) => k[5] += 1,
                Stmt::Call(_) => k[6] += 1,
                Stmt::Goto(_, b) => {
                    k[7] += 1;
                    count(b, k);
                }
            }
        }
    }
    for seed in 1..200u64 {
        let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let p = gen_prog(&mut rng, 12);
        count(&p.main, &mut kinds);
        for pf in Platform::ALL {
            for simd in [ExecSize::S8, ExecSize::S16] {
                build(pf, simd, &p).unwrap_or_else(|e| panic!("seed {seed} {pf} {simd:?}: {e}\n{p:#?}"));
            }
        }
    }
    assert!(kinds.iter().all(|&k| k > 10), "statement kinds reached: {kinds:?}");
}

// ---------------------------------------------------------------------------
// Simulated: every channel's registers against its scalar evaluation.
// ---------------------------------------------------------------------------

use semantic_common::machine::{self, Machine};

/// Byte of channel `c`'s UD in the value starting at register `reg`.
fn at(reg: u8, c: u32) -> usize {
    usize::from(reg) * 32 + 4 * c as usize
}

/// Runs `p` built for `pf` at `simd` in the simulator, with per-channel
/// inputs and accumulators from `rng` and dispatch mask `dispatch`, and
/// compares each channel's accumulator and loop counters (a channel off
/// at dispatch keeps its initial values).
fn check_prog(pf: Platform, simd: ExecSize, p: &Prog, rng: &mut Rng, dispatch: u32) -> Result<(), String> {
    let bytes = build(pf, simd, p).map_err(|e| e.to_string())?;
    let n = simd.channels();
    let mut m = Machine::new(dispatch);
    let mut inputs = Vec::new();
    for c in 0..n {
        let (input, acc) = (rng.next() as u32, rng.next() as u32);
        m.set_ud(at(INPUT, c), input);
        m.set_ud(at(ACC, c), acc);
        inputs.push((input, acc));
    }
    machine::run(pf, &bytes, &mut m)?;
    let depth = max_depth(&p.main) + 1;
    let mut diffs = Vec::new();
    for c in 0..n {
        let (input, acc) = inputs[c as usize];
        let want = if dispatch >> c & 1 != 0 {
            eval_channel(p, input, acc)
        } else {
            Chan {
                input,
                acc,
                counters: vec![0; depth],
            }
        };
        let got_acc = m.ud(at(ACC, c));
        if got_acc != want.acc {
            diffs.push(format!("channel {c}: acc {got_acc:#x}, reference {:#x}", want.acc));
        }
        for (d, &w) in want.counters.iter().enumerate() {
            let got = m.ud(at(counter_reg(d), c));
            if got != w {
                diffs.push(format!("channel {c}: loop counter at depth {d} {got}, reference {w}"));
            }
        }
        if m.ud(at(INPUT, c)) != input {
            diffs.push(format!("channel {c}: the input changed"));
        }
    }
    if diffs.is_empty() {
        Ok(())
    } else {
        Err(diffs.join("\n"))
    }
}

/// Random structured programs compute, per channel, what the channel's
/// scalar evaluation computes: SIMD8 and SIMD16, every platform, all
/// channels dispatched or some.
#[test]
fn random_programs_run_as_each_channels_scalar_code() {
    let mut failures = Vec::new();
    for seed in 1..400u64 {
        let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let p = gen_prog(&mut rng, 12);
        for pf in Platform::ALL {
            for simd in [ExecSize::S8, ExecSize::S16] {
                let all = if simd == ExecSize::S8 { 0xff } else { 0xffff };
                let dispatch = if seed % 4 == 0 { rng.next() as u32 & all } else { all };
                if let Err(e) = check_prog(pf, simd, &p, &mut rng, dispatch) {
                    failures.push(format!("seed {seed} {pf} {simd:?} dispatch {dispatch:#x}:\n{e}\n{p:?}"));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures; the first:\n{}",
        failures.len(),
        failures[0]
    );
}
