//! Control flow, semantically: random structured programs (nested
//! if/else, bounded loops with break and continue, halt, calls, every
//! condition per channel) are built with `geneu::build`, simulated at
//! SIMD8 and SIMD16 on every platform, and each channel's registers are
//! compared with `sim_common::flow_ref`'s direct evaluation of the
//! program as that channel's scalar code.

mod sim_common;

use geneu::{ExecSize, Platform};
use sim_common::flow_ref::*;

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
    let mut kinds = [0u32; 7];
    fn count(stmts: &[Stmt], k: &mut [u32; 7]) {
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
