//! Properties of the builder:
//! - random structured programs (nested if/else and loops with break,
//!   cont and ALU bodies) give the same bytes as the text assembler gives
//!   for the builder's own disassembly;
//! - a hand-built `Instruction` with the fields the syntax does not show
//!   left at their zero values, passed through the builder (and so the
//!   canonical function), encodes as the text of the same instruction
//!   assembles: every corpus instruction, stripped of its hidden fields.

use crate::corpus;

use geneu::build::{g, imm_d, imm_f, imm_w, null, Builder, Predicate};
use geneu::text::program::{Program, TextOptions};
use geneu::{CondMod, Platform};
use proptest::prelude::*;

#[derive(Clone, Debug)]
enum Stmt {
    Alu(u8, u8),
    If(Vec<Stmt>, Option<Vec<Stmt>>),
    Loop(Vec<Stmt>),
    Break,
    Cont,
}

fn stmt() -> impl Strategy<Value = Stmt> {
    let leaf = prop_oneof![
        6 => (0u8..6, 2u8..100).prop_map(|(k, r)| Stmt::Alu(k, r)),
        1 => Just(Stmt::Break),
        1 => Just(Stmt::Cont),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            (
                prop::collection::vec(inner.clone(), 0..5),
                prop::option::of(prop::collection::vec(inner.clone(), 0..5))
            )
                .prop_map(|(t, e)| Stmt::If(t, e)),
            prop::collection::vec(inner, 0..5).prop_map(Stmt::Loop),
        ]
    })
}

fn emit(b: &mut Builder, s: &Stmt, in_loop: bool) {
    match s {
        Stmt::Alu(k, r) => {
            let r = *r;
            match k {
                0 => b.add(g(r), g(r + 1), imm_f(1.5)).map(drop),
                1 => b.mul(g(r), g(r + 1), g(r + 2).vec1()).map(drop),
                2 => b.mov(g(r).w(), imm_w(-3)).map(drop),
                3 => b.and(g(r).ud(), g(r + 1).ud(), imm_d(7)).map(drop),
                4 => b.cmp(CondMod::L, null(), g(r), g(r + 1)).map(drop),
                _ => b.mad(g(r), g(r + 1), g(r + 2), g(r + 3).vec1()).map(drop),
            }
            .unwrap();
        }
        Stmt::Break if in_loop => {
            b.break_().unwrap();
        }
        Stmt::Cont if in_loop => {
            b.cont().unwrap();
        }
        Stmt::Break | Stmt::Cont => {
            b.nop().unwrap();
        }
        Stmt::If(t, e) => {
            b.push_state();
            b.state_mut().predicate = Some(Predicate::normal(0, 0));
            b.if_().unwrap();
            b.pop_state().unwrap();
            for s in t {
                emit(b, s, in_loop);
            }
            if let Some(e) = e {
                b.else_().unwrap();
                for s in e {
                    emit(b, s, in_loop);
                }
            }
            b.endif().unwrap();
        }
        Stmt::Loop(body) => {
            b.do_();
            for s in body {
                emit(b, s, true);
            }
            b.push_state();
            b.state_mut().predicate = Some(Predicate::normal(0, 0));
            b.while_().unwrap();
            b.pop_state().unwrap();
        }
    }
}

fn platform() -> impl Strategy<Value = Platform> {
    prop::sample::select(vec![Platform::Gen7, Platform::Gen75, Platform::Gen8, Platform::Chv])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn builder_output_is_the_assembly_of_its_disassembly(p in platform(), prog in prop::collection::vec(stmt(), 1..8)) {
        let mut b = Builder::new(p);
        for s in &prog {
            emit(&mut b, s, false);
        }
        let built = b.finish().unwrap().into_bytes();
        let mut text = String::new();
        Program::decode(p, &built).write_text(&mut text, &TextOptions::default()).unwrap();
        let assembled: Vec<u8> = geneu::text::assemble_words(p, &text)
            .unwrap_or_else(|e| panic!("{e}\n{text}"))
            .concat();
        prop_assert_eq!(built, assembled, "{}", text);
    }
}

/// What a caller building an `Instruction` by hand leaves: every field the
/// syntax does not show at its zero (or `Instruction::new`) value.
fn strip_hidden(p: Platform, mut i: geneu::Instruction) -> geneu::Instruction {
    use geneu::{Dst, Opcode, Src, Type};
    let op = i.opcode;
    if op.is_branch() {
        i.dst = Dst::null();
        i.src = [Src::ZERO; 3];
        if p.is_gen8() && !op.has_uip() {
            i.imm &= 0xffff_ffff;
        }
    } else if matches!(op, Opcode::Nop) {
        i.dst = Dst::null();
    } else if matches!(op, Opcode::Wait) {
        i.src = [Src::ZERO; 3];
    } else if matches!(op, Opcode::Jmpi) {
        i.dst = Dst::null();
        if !i.src[0].is_imm() {
            i.src[0] = Src::ZERO;
        }
    } else if !op.is_three_src() && !op.is_send() && op.num_srcs() == 1 && i.src[0].is_imm() && op != Opcode::Dim {
        i.src[1] = Src::ZERO;
    }
    if let Some((ty, _)) = i.imm_value() {
        if matches!(ty, Type::W | Type::UW | Type::HF) && !op.is_send() {
            i.imm &= 0xffff;
        }
    }
    i
}

#[test]
fn hand_built_corpus_instructions_encode_as_their_text_assembles() {
    if corpus::absent() {
        return;
    }
    let root = corpus::dir();
    let mut n = 0;
    for (gen, p) in [
        ("gen7", Platform::Gen7),
        ("gen7.5", Platform::Gen75),
        ("gen8", Platform::Gen8),
    ] {
        for e in std::fs::read_dir(root.join(gen)).unwrap() {
            let f = e.unwrap().path();
            if f.extension().is_none_or(|x| x != "expected") {
                continue;
            }
            let words: Vec<u8> = std::fs::read_to_string(&f)
                .unwrap()
                .split_whitespace()
                .map(|b| u8::from_str_radix(b, 16).unwrap())
                .collect();
            for w in words.chunks(16) {
                let i = geneu::decode_slice(p, w).unwrap();
                let mut b = Builder::new(p);
                b.emit(strip_hidden(p, i)).unwrap();
                let built = b
                    .finish()
                    .unwrap_or_else(|e| panic!("{}: {e}", f.display()))
                    .into_bytes();
                assert_eq!(built, w, "{} {:?}", f.display(), i);
                n += 1;
            }
        }
    }
    assert!(n > 2000, "{n} corpus instructions");
}

/// Subroutines: `call`, `ret` and `jmpi` built on each platform give the
/// bytes that the text assembler gives for their disassembly (the call and
/// ret operands print, so the canonical function applies to them as to
/// every other instruction).
#[test]
fn calls_and_returns_are_the_assembly_of_their_disassembly() {
    for p in [Platform::Gen7, Platform::Gen75, Platform::Gen8, Platform::Chv] {
        let mut b = Builder::new(p);
        let sub = b.label();
        let end = b.label();
        b.call(g(120).ud().vec1(), sub).unwrap();
        b.add(g(2), g(3), imm_f(1.0)).unwrap();
        b.jmpi(end).unwrap();
        b.bind(sub).unwrap();
        b.mul(g(4), g(5), g(6)).unwrap();
        b.ret(g(120).ud().vec1()).unwrap();
        b.bind(end).unwrap();
        b.mov(g(7), g(8)).unwrap();
        let built = b.finish().unwrap().into_bytes();
        let mut text = String::new();
        Program::decode(p, &built)
            .write_text(&mut text, &TextOptions::default())
            .unwrap();
        let assembled: Vec<u8> = geneu::text::assemble_words(p, &text)
            .unwrap_or_else(|e| panic!("{p:?}: {e}\n{text}"))
            .concat();
        assert_eq!(built, assembled, "{p:?}\n{text}");
        assert!(!text.contains('['), "{p:?}: no field annotation expected\n{text}");
    }
}
