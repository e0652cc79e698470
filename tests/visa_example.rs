//! The example kernel (`examples/visa_program.rs`) lowers on every
//! platform to words that validate, decode to themselves, and whose
//! printed assembly assembles back to the same instructions.

#[path = "../examples/visa_program.rs"]
mod example;

use geneu::text::asm::assemble;
use geneu::{decode, encode, validate::validate, ExecSize, Opcode, Platform, Type};

#[test]
fn every_word_validates_and_round_trips() {
    for p in Platform::ALL {
        let prog = example::lower_program(p).unwrap_or_else(|e| panic!("{p}: {e}"));
        assert_eq!(prog.len(), 8);
        for l in &prog {
            assert!(!l.insts.is_empty(), "{p}: {}", l.visa);
            for i in &l.insts {
                validate(p, i).unwrap_or_else(|v| panic!("{p}: {}: {v}", l.visa));
                let bytes = encode(p, i).unwrap();
                assert_eq!(&decode(p, &bytes).unwrap(), i, "{p}: {}", l.visa);
            }
        }
    }
}

#[test]
fn printed_assembly_assembles_back() {
    for p in Platform::ALL {
        for l in example::lower_program(p).unwrap() {
            let text = example::assembly(p, &l.insts).unwrap();
            let back = assemble(p, &text).unwrap_or_else(|e| panic!("{p}: {}:\n{text}\n{e:?}", l.visa));
            assert_eq!(back, l.insts, "{p}: {}:\n{text}", l.visa);
        }
    }
}

#[test]
fn the_double_add_is_split_in_simd4_parts_on_ivy_bridge_only() {
    for p in Platform::ALL {
        let prog = example::lower_program(p).unwrap();
        let df = &prog[5].insts;
        // Ivy Bridge: four SIMD4 parts, each 4 doubles as 8 float
        // channels at channel group 4k (quarter k / 2, NibCtrl on odd k);
        // elsewhere two SIMD8 halves at 1Q and 2Q.
        let ivb = p == Platform::Gen7;
        assert_eq!(df.len(), if ivb { 4 } else { 2 }, "{p}");
        for (k, i) in df.iter().enumerate() {
            assert_eq!((i.opcode, i.dst.ty, i.exec_size), (Opcode::Add, Type::DF, ExecSize::S8));
            let (qtr, nib) = if ivb { (k / 2, k % 2 == 1) } else { (k, false) };
            assert_eq!(
                (i.qtr_control, i.controls.contains(geneu::Controls::NIB_CTRL)),
                (qtr as u8, nib),
                "{p} part {k}"
            );
        }
        // The gather ends in the SEND, after its payload moves.
        let g = &prog[7].insts;
        assert_eq!(g.last().unwrap().opcode, Opcode::Send);
        assert!(g[..g.len() - 1].iter().all(|i| i.opcode == Opcode::Mov));
    }
}
