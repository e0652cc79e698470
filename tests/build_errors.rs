//! Every misuse of the builder returns the typed error that names it,
//! with the instruction index (or the operand being built); nothing panics.

use geneu::build::*;
use geneu::msg::{Channels, Common, DataCache1, Dc1Op, Message, SurfaceSimd, Urb, UrbOpcode};
use geneu::{ExecSize, Opcode, Platform};

const P: Platform = Platform::Gen8;

#[test]
fn unbound_label() {
    let mut b = Builder::new(P);
    let l = b.label();
    b.nop().unwrap();
    b.jmpi(l).unwrap();
    let e = b.finish().unwrap_err();
    assert_eq!(e.0, vec![BuildError::UnboundLabel { label: 0, index: 1 }]);
}

#[test]
fn label_bound_twice_and_foreign_label() {
    let mut b = Builder::new(P);
    let l = b.label();
    b.bind(l).unwrap();
    b.nop().unwrap();
    assert_eq!(
        b.bind(l),
        Err(BuildError::LabelBoundTwice {
            label: 0,
            first: 0,
            second: 1
        })
    );
    let mut other = Builder::new(P);
    let foreign = other.label();
    assert_eq!(b.jmpi(foreign), Err(BuildError::ForeignLabel { label: 0, index: 1 }));
}

#[test]
fn else_endif_while_without_opener() {
    let mut b = Builder::new(P);
    b.nop().unwrap();
    assert_eq!(b.else_(), Err(BuildError::ElseWithoutIf { index: 1 }));
    assert_eq!(b.endif(), Err(BuildError::EndifWithoutIf { index: 1 }));
    assert_eq!(b.while_(), Err(BuildError::WhileWithoutDo { index: 1 }));
    // A second else in one if.
    b.if_().unwrap();
    b.else_().unwrap();
    assert_eq!(b.else_(), Err(BuildError::ElseWithoutIf { index: 3 }));
    // An if open inside a loop: while closes nothing.
    let mut b = Builder::new(P);
    b.do_();
    b.if_().unwrap();
    assert_eq!(b.while_(), Err(BuildError::WhileWithoutDo { index: 1 }));
}

#[test]
fn break_and_cont_outside_a_loop() {
    let mut b = Builder::new(P);
    assert_eq!(
        b.break_(),
        Err(BuildError::OutsideLoop {
            index: 0,
            opcode: Opcode::Break
        })
    );
    assert_eq!(
        b.cont(),
        Err(BuildError::OutsideLoop {
            index: 0,
            opcode: Opcode::Cont
        })
    );
}

#[test]
fn unclosed_if_and_do() {
    let mut b = Builder::new(P);
    b.nop().unwrap();
    b.do_();
    b.nop().unwrap();
    b.if_().unwrap();
    let e = b.finish().unwrap_err();
    assert_eq!(
        e.0,
        vec![BuildError::UnclosedDo { index: 1 }, BuildError::UnclosedIf { index: 2 }]
    );
}

#[test]
fn branch_leaving_the_program() {
    let mut b = Builder::new(P);
    b.nop().unwrap();
    b.branch_to(Opcode::Endif, Target::Rel(2), None).unwrap();
    let e = b.finish().unwrap_err();
    assert_eq!(
        e.0,
        vec![BuildError::LeavesProgram {
            index: 1,
            opcode: Opcode::Endif,
            target: 3,
            len: 2
        }]
    );
    let mut b = Builder::new(P);
    b.branch_to(Opcode::While, Target::Rel(-1), None).unwrap();
    assert!(matches!(
        b.finish().unwrap_err().0[..],
        [BuildError::LeavesProgram { target: -1, .. }]
    ));
}

#[test]
fn jump_too_far_for_gen7() {
    let mut b = Builder::new(Platform::Gen7);
    b.if_().unwrap();
    for _ in 0..16_400 {
        b.nop().unwrap();
    }
    b.endif().unwrap();
    let e = b.finish().unwrap_err();
    assert!(
        matches!(
            e.0[0],
            BuildError::JumpRange {
                index: 0,
                offset: 32_802,
                ..
            }
        ),
        "{e}"
    );
}

#[test]
fn wrong_branch_opcode_or_uip() {
    let mut b = Builder::new(P);
    let l = b.label();
    assert!(matches!(
        b.branch_to(Opcode::Add, l, None),
        Err(BuildError::Opcode {
            index: 0,
            opcode: Opcode::Add,
            ..
        })
    ));
    assert!(matches!(
        b.branch_to(Opcode::While, l, Some(l.into())),
        Err(BuildError::Opcode {
            opcode: Opcode::While,
            why: "this branch has no UIP",
            ..
        })
    ));
    assert!(matches!(
        b.alu(Opcode::If, g(2), &[], None),
        Err(BuildError::Opcode { .. })
    ));
    assert!(matches!(
        b.alu(Opcode::Add, g(2), &[g(3).into()], None),
        Err(BuildError::Opcode { .. })
    ));
}

#[test]
fn region_and_register_errors_at_construction() {
    assert_eq!(
        g(2).stride(8, 3, 1),
        Err(BuildError::Region {
            vstride: 8,
            width: 3,
            hstride: 1
        })
    );
    assert!(matches!(
        g(2).stride(64, 8, 1),
        Err(BuildError::Region { vstride: 64, .. })
    ));
    assert!(matches!(
        g(2).stride(8, 8, 8),
        Err(BuildError::Region { hstride: 8, .. })
    ));
    assert!(matches!(
        g(2).f().subreg(8),
        Err(BuildError::Register {
            what: "subregister",
            ..
        })
    ));
    assert!(matches!(
        g(255).offset(8),
        Err(BuildError::Register { what: "offset", .. })
    ));
    assert!(matches!(
        g(0).offset(-1),
        Err(BuildError::Register { what: "offset", .. })
    ));
    assert!(matches!(
        imm_v([0, 0, -9, 0, 0, 0, 0, 0]),
        Err(BuildError::VectorImmediate { element: 2, .. })
    ));
    assert!(matches!(
        imm_uv([0, 0, 0, 0, 0, 0, 0, 16]),
        Err(BuildError::VectorImmediate { element: 7, .. })
    ));
    assert!(matches!(
        imm_vf([1.0, 100.0, 0.0, 0.0]),
        Err(BuildError::VectorImmediate { element: 1, .. })
    ));
}

#[test]
fn operand_errors_name_the_operand() {
    use geneu::validate::OperandId;
    let mut b = Builder::new(P);
    assert_eq!(
        b.mov(g(200), g(2)),
        Err(BuildError::Operand {
            index: 0,
            operand: OperandId::Dst,
            why: "general registers are g0-g127"
        })
    );
    assert!(matches!(
        b.mov(g(2), g(130)),
        Err(BuildError::Operand {
            operand: OperandId::Src(0),
            ..
        })
    ));
    assert!(matches!(
        b.mov(g(2).neg(), g(3)),
        Err(BuildError::Operand {
            operand: OperandId::Dst,
            ..
        })
    ));
    assert!(matches!(
        b.add(g(2), imm_f(1.0), imm_f(2.0)),
        Err(BuildError::Operand {
            operand: OperandId::Src(1),
            ..
        })
    ));
    assert!(matches!(
        b.math(geneu::MathFunction::Sqrt, g(2), g(3), Some(g(4).into())),
        Err(BuildError::Operand {
            operand: OperandId::Src(1),
            ..
        })
    ));
    assert!(b.is_empty(), "a refused instruction is not emitted");
}

#[test]
fn immediates_and_opcodes_the_platform_lacks() {
    let mut b = Builder::new(Platform::Gen7);
    assert_eq!(
        b.mov(g(2).df(), imm_df(1.0)),
        Err(BuildError::Immediate {
            index: 0,
            ty: geneu::Type::DF,
            platform: Platform::Gen7
        })
    );
    assert!(matches!(
        b.mov(g(2).hf(), imm_hf(0x3c00)),
        Err(BuildError::Immediate { .. })
    ));
    assert!(matches!(b.mov(g(2).q(), imm_q(1)), Err(BuildError::Immediate { .. })));
    assert!(matches!(
        b.csel(geneu::CondMod::Z, g(2), g(3), g(4), g(5)),
        Err(BuildError::Opcode {
            opcode: Opcode::Csel,
            ..
        })
    ));
    // Gen8 has them.
    let mut b = Builder::new(P);
    b.mov(g(2).df(), imm_df(1.0)).unwrap();
}

#[test]
fn state_errors() {
    let mut b = Builder::new(P);
    assert_eq!(b.pop_state(), Err(BuildError::StateUnderflow { index: 0 }));
    b.state_mut().predicate = Some(Predicate::normal(0, 0).with(PredCtrl::X));
    assert!(matches!(b.mov(g(2), g(3)), Err(BuildError::State { index: 0, .. })));
    assert!(matches!(
        State::default().simd(ExecSize::S16).group(8),
        Err(BuildError::Group {
            first: 8,
            channels: 16,
            ..
        })
    ));
    assert!(matches!(
        State::default().visa_mask(0, false),
        Err(BuildError::Group { .. })
    ));
    assert!(matches!(
        State::default().simd(ExecSize::S32).group(4),
        Err(BuildError::Group { .. })
    ));
}

fn simd16_read(rlen: u8) -> Message {
    Message::DataCache1(DataCache1 {
        platform: P,
        common: Common::new(2, rlen, false),
        bti: 1,
        op: Dc1Op::UntypedSurfaceRead {
            channels: Channels::RGBA,
            simd: SurfaceSimd::Simd16,
        },
    })
}

#[test]
fn messages_that_do_not_fit() {
    let mut b = Builder::new(P);
    b.state_mut().exec_size = ExecSize::S16;
    // A SIMD16 RGBA read returns 8 registers, not 4.
    assert!(matches!(
        b.send(g(10), g(2), &simd16_read(4)),
        Err(BuildError::MessageShape { index: 0, .. })
    ));
    b.send(g(10), g(2), &simd16_read(8)).unwrap();
    // ... and needs SIMD16.
    b.state_mut().exec_size = ExecSize::S8;
    assert!(matches!(
        b.send(g(10), g(2), &simd16_read(8)),
        Err(BuildError::MessageShape { index: 1, .. })
    ));
    // A descriptor for another platform.
    let urb = Urb::new(Platform::Gen7, Common::new(1, 0, true), UrbOpcode::WriteHWord);
    assert!(matches!(
        b.send(null(), g(2), &Message::Urb(urb)),
        Err(BuildError::MessageShape {
            why: "the descriptor was built for another platform",
            ..
        })
    ));
    // A descriptor that does not build.
    let bad = Urb::new(P, Common::new(16, 0, true), UrbOpcode::Simd8Write);
    assert!(matches!(
        b.send(null(), g(2), &Message::Urb(bad)),
        Err(BuildError::Message { index: 1, .. })
    ));
    // Reserved SFIDs.
    assert!(matches!(
        b.send(
            null(),
            g(2),
            &Message::Unknown {
                sfid: 15,
                desc: 0x0200_0000
            }
        ),
        Err(BuildError::MessageShape { .. })
    ));
}

#[test]
fn sfid_comes_from_the_message() {
    let mut b = Builder::new(P);
    b.state_mut().exec_size = ExecSize::S16;
    b.send(g(10), g(2), &simd16_read(8)).unwrap();
    let i = b.instructions()[0];
    assert_eq!(i.sfid(), Some(geneu::msg::Sfid::DataCache1));
    assert_eq!(Message::of_instruction(P, &i), Some(simd16_read(8)));
}

#[test]
fn eot_payload_must_be_in_g112_g127() {
    let mut b = Builder::new(P);
    let urb = Urb::new(P, Common::new(1, 0, true).with_eot(), UrbOpcode::Simd8Write);
    assert_eq!(
        b.send(null(), g(111), &Message::Urb(urb)),
        Err(BuildError::EotPayload { index: 0, nr: 111 })
    );
    b.send(null(), g(112), &Message::Urb(urb)).unwrap();
}

#[test]
fn finish_reports_every_violation_with_index_and_rule() {
    let mut b = Builder::new(P);
    b.add(g(2), g(4), g(6)).unwrap();
    b.add(g(2), g(4), g(6).subreg(1).unwrap()).unwrap(); // a row straddles g6/g7
    b.mov(g(3), g(4)).unwrap();
    b.add(g(2), g(5).subreg(1).unwrap(), g(6)).unwrap();
    let e = b.finish().unwrap_err();
    let idx: Vec<_> = e.0.iter().map(|e| e.index()).collect();
    assert_eq!(idx, vec![Some(1), Some(3)]);
    assert!(e.has_rule("row_within_grf"), "{e}");
    assert!(matches!(&e.0[0], BuildError::Invalid { index: 1, violations } if violations.has("row_within_grf")));
}

#[test]
fn misuse_never_panics_on_odd_values() {
    // Every constructor and method on extreme values returns, Ok or Err.
    for p in Platform::ALL {
        let mut b = Builder::new(p);
        for nr in [0u8, 127, 128, 255] {
            let _ = b.mov(g(nr), g(nr));
            let _ = b.mov(arf(nr), acc(nr));
            let _ = b.wait(notification(nr));
            let _ = b.mad(g(nr), flag(nr, nr).f(), addr(nr), ip());
            let _ = b.send(
                g(nr),
                g(nr),
                &Message::Unknown {
                    sfid: nr,
                    desc: u32::MAX,
                },
            );
        }
        for es in ExecSize::ALL {
            b.state_mut().exec_size = *es;
            let _ = b.add(g(2).stride(32, 16, 4).unwrap(), g(3), imm_uv([15; 8]).unwrap());
        }
        let _ = b.finish();
    }
}
