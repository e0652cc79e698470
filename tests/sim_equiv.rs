//! Equivalent forms of a program run identically in the simulator: the
//! program, its compacted form, and its disassembly assembled again
//! (`geneu::check::sim`, the same check as the `sim_equiv` fuzz target).
#![cfg(feature = "check")]

use crate::semantic_common;

use geneu::check::sim::{arbitrary_program, forms};
use semantic_common::Rng;

fn data(seed: u64) -> Vec<u8> {
    let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    (0..2048).map(|_| rng.next() as u8).collect()
}

/// The generator makes programs of some length on every platform, and
/// each has its four forms, which decode to the same instructions
/// (compaction and text change the encoding only).
#[test]
fn generated_programs_have_their_forms() {
    let mut made = [0u32; 4];
    let mut insts = 0;
    for seed in 0..300 {
        let Some(prog) = arbitrary_program(&data(seed)) else {
            continue;
        };
        let k = geneu::Platform::ALL.iter().position(|&p| p == prog.platform).unwrap();
        made[k] += 1;
        insts += prog.bytes.len() / 16;
        let decoded = |b: &[u8]| -> Vec<geneu::Instruction> {
            geneu::compact::decode_stream(prog.platform, b)
                .map(|(_, r)| {
                    let mut i = r.unwrap();
                    i.controls.remove(geneu::Controls::COMPACTED);
                    i
                })
                .collect()
        };
        let fs = forms(prog.platform, &prog.bytes);
        assert_eq!(fs.len(), 4);
        let base = decoded(&fs[0].1);
        for (name, b) in &fs[1..] {
            let d = decoded(b);
            assert_eq!(d.len(), base.len(), "{name}");
            for (x, y) in d.iter().zip(&base) {
                if !x.opcode.is_branch() {
                    assert_eq!(x, y, "{name}");
                }
            }
        }
    }
    eprintln!("{made:?} {insts}");
    assert!(made.iter().all(|&n| n >= 30), "programs per platform: {made:?}");
    assert!(insts >= 300 * 8, "{insts} instructions in all");
}

/// Every form of a generated program runs in the simulator as the program
/// does (the check of the `sim_equiv` fuzz target), on every platform; and
/// the programs run to their end of thread (forms that all fail alike
/// would be equivalent without saying much).
#[test]
fn equivalent_forms_run_alike() {
    let (mut ran, mut ended) = (0, 0);
    for seed in 0..400 {
        if let Some(r) = geneu::check::sim::check_equiv(&data(seed)) {
            ran += 1;
            ended += u32::from(r.error.is_none());
        }
    }
    assert!(ran >= 300 && ended == ran, "{ended} of {ran} programs ran to their end");
}
