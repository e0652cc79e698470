//! The text assembler lowers through the builder's operand and instruction
//! constructors: the same operand is refused by both with the same words,
//! and an operand only text could write before (an indirect register, an
//! align16 swizzle and write mask, a modifier) gives the same bytes built
//! as assembled.

use geneu::build::*;
use geneu::text::{assemble, AsmErrorKind};
use geneu::validate::OperandId;
use geneu::{Addr, ExecSize, Opcode, Platform, WriteMask};

/// The one error of assembling `line` for `p`.
fn asm_error(p: Platform, line: &str) -> AsmErrorKind {
    let mut e = assemble(p, line).unwrap_err().0;
    assert_eq!(e.len(), 1, "{e:?}");
    e.remove(0).kind
}

/// The builder's `why` for an operand error, and the text's `why` for the
/// same operand written as text, are the same words.
fn same_why(built: Result<usize, BuildError>, operand: OperandId, text: AsmErrorKind) {
    let Err(BuildError::Operand { operand: o, why, .. }) = built else {
        panic!("builder: {built:?}");
    };
    assert_eq!(o, operand);
    let AsmErrorKind::Invalid { why: twhy, .. } = text else {
        panic!("text: {text:?}");
    };
    assert_eq!(why, twhy);
}

#[test]
fn a_destination_modifier_is_refused_in_the_same_words() {
    let p = Platform::Gen8;
    let mut b = Builder::new(p);
    same_why(
        b.mov(g(2).neg(), g(3)),
        OperandId::Dst,
        asm_error(p, "mov(8) -g2<1>F g3<8,8,1>F { align1 1Q };"),
    );
}

#[test]
fn three_source_operands_are_refused_in_the_same_words() {
    for p in [Platform::Gen7, Platform::Gen8] {
        let mut b = Builder::new(p);
        // Sources of two types.
        same_why(
            b.mad(g(2), g(3), g(4).d(), g(5)),
            OperandId::Src(1),
            asm_error(p, "mad(8) g2<1>F g3<4,4,1>F g4<4,4,1>D g5<4,4,1>F { align16 1Q };"),
        );
        // An immediate source.
        same_why(
            b.alu(Opcode::Mad, g(2), &[g(3).into(), imm_f(1.0).into(), g(5).into()], None),
            OperandId::Src(1),
            asm_error(p, "mad(8) g2<1>F g3<4,4,1>F 1F g5<4,4,1>F { align16 1Q };"),
        );
        // An architecture register.
        same_why(
            b.mad(g(2), acc(0), g(4), g(5)),
            OperandId::Src(0),
            asm_error(p, "mad(8) g2<1>F acc0<4,4,1>F g4<4,4,1>F g5<4,4,1>F { align16 1Q };"),
        );
        assert!(b.is_empty());
    }
}

#[test]
fn a_64_bit_src1_immediate_is_refused_in_the_same_words() {
    let p = Platform::Gen8;
    let mut b = Builder::new(p);
    same_why(
        b.add(g(2).df(), g(3).df(), imm_df(1.0)),
        OperandId::Src(1),
        asm_error(p, "add(8) g2<1>DF g3<4,4,1>DF 1DF { align1 1Q };"),
    );
}

#[test]
fn an_immediate_the_platform_lacks_is_refused_by_both() {
    let p = Platform::Gen7;
    let mut b = Builder::new(p);
    assert_eq!(
        b.mov(g(2).ud(), imm_v([0, 1, 2, 3, 4, 5, 6, 7]).unwrap()).map(|_| ()),
        Ok(()),
        "V exists on Gen7"
    );
    assert!(matches!(
        b.mov(g(2).df(), imm_df(1.0)),
        Err(BuildError::Immediate {
            ty: geneu::Type::DF,
            ..
        })
    ));
    assert!(matches!(
        asm_error(p, "mov(8) g2<1>DF 1DF { align1 1Q };"),
        AsmErrorKind::TypeNotOnPlatform { ty: "DF", .. }
    ));
}

/// Instruction `k` of `b`'s program, and the same instruction assembled
/// from its disassembly.
fn built_and_assembled(p: Platform, b: Builder) -> Vec<(geneu::Instruction, geneu::Instruction)> {
    let prog = b.finish().unwrap();
    prog.instructions()
        .map(|(_, i)| {
            let text = format!("{}", i.display(p));
            let back = assemble(p, &text).unwrap_or_else(|e| panic!("{text}: {e}"));
            (*i, back[0])
        })
        .collect()
}

#[test]
fn indirect_registers_swizzles_and_write_masks_build_as_text_assembles() {
    for p in [Platform::Gen7, Platform::Gen75, Platform::Gen8] {
        let mut b = Builder::new(p);
        // Indirect source and destination (align1).
        b.mov(indirect(1, 64).unwrap().ud(), indirect(2, -32).unwrap().ud())
            .unwrap();
        b.add(g(4), indirect(0, 0).unwrap().offset(4).unwrap(), g(6).abs())
            .unwrap();
        // Align16: swizzle, write mask, modifiers.
        b.push_state();
        b.state_mut().access_mode = geneu::AccessMode::Align16;
        b.state_mut().exec_size = ExecSize::S8;
        b.mul(
            g(7).writemask(WriteMask::X | WriteMask::Z),
            g(8).swizzle(swz(Chan::W, Chan::Z, Chan::Y, Chan::X)).neg(),
            g(9).vec4(),
        )
        .unwrap();
        b.pop_state().unwrap();
        let pairs = built_and_assembled(p, b);
        assert_eq!(pairs.len(), 3);
        for (built, asm) in &pairs {
            assert_eq!(built, asm, "{p:?}");
        }
        assert_eq!(
            pairs[0].0.src[0].addr,
            Addr::Indirect { subnr: 2, imm: -32 },
            "the indirect address is kept"
        );
        assert_eq!(pairs[1].0.src[0].addr, Addr::Indirect { subnr: 0, imm: 16 });
    }
}

#[test]
fn indirect_address_ranges() {
    assert!(matches!(
        indirect(16, 0),
        Err(BuildError::Register {
            what: "address subregister",
            ..
        })
    ));
    assert!(matches!(
        indirect(0, -513),
        Err(BuildError::Register {
            what: "address offset",
            ..
        })
    ));
    assert!(indirect(15, 511).is_ok());
    assert!(matches!(
        indirect(0, 508).unwrap().ud().offset(1),
        Err(BuildError::Register { what: "offset", .. })
    ));
    assert!(matches!(
        indirect(0, 0).unwrap().subreg(1),
        Err(BuildError::Register {
            what: "subregister",
            ..
        })
    ));
}

#[test]
fn the_address_ranges_are_the_isa_floors_for_both() {
    let p = Platform::Gen8;
    // The builder refuses a0.16 at construction, the text where it is written.
    assert!(matches!(
        indirect(geneu::isa::ADDR_SUBREGS, 0),
        Err(BuildError::Register { .. })
    ));
    assert!(matches!(
        asm_error(p, "mov(8) g[a0.16 0]<1>UD g2<8,8,1>UD { align1 1Q };"),
        AsmErrorKind::OutOfRange {
            what: "address subregister",
            ..
        }
    ));
    assert!(matches!(
        asm_error(p, "mov(8) g[a0.1 1024]<1>UD g2<8,8,1>UD { align1 1Q };"),
        AsmErrorKind::OutOfRange {
            what: "address offset",
            ..
        }
    ));
    // Mesa's raw 10-bit field: 1023 reads back as -1, as the builder's -1
    // (a destination's text counts the address subregister in units of its
    // type: `a0.1` of a UD destination is field value 4).
    let text = assemble(p, "mov(8) g[a0.1 1023]<1>UD g2<8,8,1>UD { align1 1Q };").unwrap();
    let mut b = Builder::new(p);
    b.mov(indirect(4, -1).unwrap().ud(), g(2).ud()).unwrap();
    assert_eq!(b.finish().unwrap().instructions().next().unwrap().1, &text[0]);
}
