//! Instruction lowering: moves, arithmetic, logic, compare and select, math,
//! logic on predicates, splitting, and the errors of every rule.

use crate::visa_common;

use geneu::visa::*;
use geneu::*;
use visa_common::*;

fn vars() -> VarTable {
    let mut v = VarTable::new();
    v.add_general(VisaType::F, 32, 10 * 32); // V0: g10-g13
    v.add_general(VisaType::F, 32, 20 * 32); // V1: g20-g23
    v.add_general(VisaType::D, 32, 30 * 32); // V2: g30-g33
    v.add_general(VisaType::D, 32, 40 * 32); // V3: g40-g43
    v.add_general(VisaType::W, 32, 50 * 32); // V4: g50-g51
    v.add_predicate(16, FlagReg { nr: 0, subnr: 0 }); // P1: f0.0
    v.add_predicate(16, FlagReg { nr: 0, subnr: 1 }); // P2: f0.1
    v.add_predicate(32, FlagReg { nr: 1, subnr: 0 }); // P3: f1
    v
}

fn ctx() -> LowerCtx {
    LowerCtx {
        temp_grf: Some(120),
        scratch_flag: Some(FlagReg { nr: 1, subnr: 1 }),
        ..LowerCtx::default()
    }
}

fn grf(nr: u8, subnr: u8) -> Addr {
    Addr::Direct { nr, subnr }
}

fn f_imm(v: f32) -> VecOperand {
    VecOperand::imm(Immediate::f(v))
}

fn d_imm(v: i64) -> VecOperand {
    VecOperand::imm(Immediate::int(VisaType::D, v))
}

fn one(p: Platform, inst: &VisaInst) -> Instruction {
    let out = lower_ok(p, &vars(), &ctx(), inst);
    assert_eq!(out.len(), 1, "{out:?}");
    out[0]
}

#[test]
fn mov_and_arithmetic() {
    for p in Platform::ALL {
        let i = one(
            p,
            &VisaInst::new(VisaOp::Mov, exec(8), dst(1, 0, 0, 1), &[gen(0, 1, 0, 8, 8, 1)]),
        );
        assert_eq!((i.opcode, i.exec_size), (Opcode::Mov, ExecSize::S8));
        assert_eq!((i.dst.addr, i.src[0].addr), (grf(20, 0), grf(11, 0)));
        assert_eq!(i.src[0].region, Region::new(8, 8, 1).unwrap());
        assert_eq!(i.src[1], Src::ZERO);

        // SIMD16 float add: rows of 8, one compressed instruction.
        let add = VisaInst::new(
            VisaOp::Add,
            exec(16),
            dst(1, 0, 0, 1).with_modifier(Modifier::Sat),
            &[
                gen(0, 0, 0, 8, 8, 1),
                gen(1, 2, 0, 8, 8, 1).with_modifier(Modifier::NegAbs),
            ],
        );
        let i = one(p, &add);
        assert_eq!((i.opcode, i.exec_size, i.qtr_control), (Opcode::Add, ExecSize::S16, 0));
        assert!(i.controls.contains(Controls::SATURATE));
        assert_eq!(i.src[1].mods, SrcMods::NEGATE | SrcMods::ABS);
        assert_eq!(i.src[1].addr, grf(22, 0));
    }
}

#[test]
fn immediates_go_where_the_hardware_wants_them() {
    let p = Platform::Gen8;
    // add is commutative: the immediate moves to src1.
    let i = one(
        p,
        &VisaInst::new(
            VisaOp::Add,
            exec(8),
            dst(0, 0, 0, 1),
            &[f_imm(2.0), gen(1, 0, 0, 8, 8, 1)],
        ),
    );
    assert_eq!((i.src[0].file, i.src[0].addr), (RegFile::Grf, grf(20, 0)));
    assert_eq!(
        (i.src[1].file, i.src[1].ty, i.imm),
        (RegFile::Imm, Type::F, 2.0f32.to_bits().into())
    );
    // cmp exchanges its operands and mirrors the relation: 3 > x is x < 3.
    let cmp = VisaInst::new(
        VisaOp::Cmp(RelOp::Gt),
        exec(8),
        VecOperand::pred(1),
        &[d_imm(3), gen(2, 0, 0, 8, 8, 1)],
    );
    let i = one(p, &cmp);
    assert_eq!(i.cond_mod(), Some(CondMod::L));
    assert_eq!((i.src[0].addr, i.src[1].file), (grf(30, 0), RegFile::Imm));
    // sel with a predicate exchanges its operands and inverts the predicate.
    let sel = VisaInst::new(
        VisaOp::Sel,
        exec(8),
        dst(0, 0, 0, 1),
        &[f_imm(1.0), gen(1, 0, 0, 8, 8, 1)],
    )
    .with_pred(PredCtl::new(2));
    let i = one(p, &sel);
    assert_eq!(
        (i.opcode, i.pred_control, i.flag),
        (Opcode::Sel, 1, FlagReg { nr: 0, subnr: 1 })
    );
    assert!(i.controls.contains(Controls::PRED_INV));
    assert_eq!(i.src[1].file, RegFile::Imm);
    // A shift cannot exchange: the immediate goes through the temporary.
    let shl = VisaInst::new(
        VisaOp::Shl,
        exec(8),
        dst(2, 0, 0, 1),
        &[d_imm(1), gen(3, 0, 0, 8, 8, 1)],
    );
    let out = lower_ok(p, &vars(), &ctx(), &shl);
    assert_eq!(out.len(), 2);
    assert_eq!(
        (out[0].opcode, out[0].exec_size, out[0].dst.addr, out[0].imm),
        (Opcode::Mov, ExecSize::S1, grf(120, 0), 1)
    );
    assert!(out[0].controls.contains(Controls::WE_ALL));
    assert_eq!(
        (out[1].src[0].addr, out[1].src[0].region),
        (grf(120, 0), Region::SCALAR)
    );
    assert_eq!(out[1].src[1].addr, grf(40, 0));
    let err = lower(p, &vars(), &LowerCtx::default(), &shl).unwrap_err();
    assert!(matches!(err, VisaError::NeedScratch { .. }), "{err}");
}

#[test]
fn logic_takes_not_and_arithmetic_takes_the_rest() {
    let p = Platform::Gen7;
    let and = VisaInst::new(
        VisaOp::And,
        exec(8),
        dst(2, 0, 0, 1),
        &[gen(2, 0, 0, 8, 8, 1).with_modifier(Modifier::Not), d_imm(0xff)],
    );
    let i = one(p, &and);
    assert_eq!((i.opcode, i.src[0].mods), (Opcode::And, SrcMods::NEGATE));
    let bad = |op, m: Modifier| {
        let inst = VisaInst::new(
            op,
            exec(8),
            dst(2, 0, 0, 1),
            &[gen(2, 0, 0, 8, 8, 1).with_modifier(m), d_imm(1)],
        );
        let err = lower(p, &vars(), &ctx(), &inst).unwrap_err();
        assert!(
            matches!(err, VisaError::Modifier { slot: Slot::Src(0), .. }),
            "{op:?} {m:?}: {err}"
        );
    };
    bad(VisaOp::And, Modifier::Abs);
    bad(VisaOp::Or, Modifier::Neg);
    bad(VisaOp::Add, Modifier::Not);
    bad(VisaOp::Shl, Modifier::Not);
    // Shifts take arithmetic modifiers.
    let shr = VisaInst::new(
        VisaOp::Shr,
        exec(8),
        dst(2, 0, 0, 1),
        &[gen(2, 0, 0, 8, 8, 1).with_modifier(Modifier::Neg), d_imm(2)],
    );
    assert_eq!(one(p, &shr).src[0].mods, SrcMods::NEGATE);
    // Saturating a logic result or a comparison.
    let sat = VisaInst::new(
        VisaOp::Xor,
        exec(8),
        dst(2, 0, 0, 1).with_modifier(Modifier::Sat),
        &[gen(2, 0, 0, 8, 8, 1), d_imm(1)],
    );
    assert!(matches!(
        lower(p, &vars(), &ctx(), &sat),
        Err(VisaError::Modifier { slot: Slot::Dst, .. })
    ));
    // Logic on floats.
    let f = VisaInst::new(
        VisaOp::Or,
        exec(8),
        dst(0, 0, 0, 1),
        &[gen(0, 0, 0, 8, 8, 1), gen(1, 0, 0, 8, 8, 1)],
    );
    assert!(matches!(lower(p, &vars(), &ctx(), &f), Err(VisaError::HwType { .. })));
}

#[test]
fn compare_and_select() {
    for p in Platform::ALL {
        // Into a predicate: null destination of the execution type, the
        // predicate's flag.
        for r in RelOp::ALL {
            let cmp = VisaInst::new(
                VisaOp::Cmp(r),
                exec_m(8, 3, false),
                VecOperand::pred(2),
                &[gen(0, 0, 0, 8, 8, 1), f_imm(0.5)],
            );
            let i = one(p, &cmp);
            assert_eq!(i.cond_mod(), Some(r.cond()));
            assert_eq!(
                (i.dst.file, i.dst.ty, i.flag, i.qtr_control),
                (RegFile::Arf, Type::F, FlagReg { nr: 0, subnr: 1 }, 1)
            );
            assert_eq!(i.pred_control, 0);
        }
        // Into a general variable: the scratch flag takes the hardware's flag write.
        let cmp = VisaInst::new(
            VisaOp::Cmp(RelOp::Ne),
            exec(8),
            dst(2, 0, 0, 1),
            &[gen(2, 0, 0, 8, 8, 1), gen(3, 0, 0, 8, 8, 1)],
        );
        let i = one(p, &cmp);
        assert_eq!((i.dst.addr, i.flag), (grf(30, 0), FlagReg { nr: 1, subnr: 1 }));
        let err = lower(p, &vars(), &LowerCtx::default(), &cmp).unwrap_err();
        assert!(matches!(err, VisaError::NeedScratch { .. }), "{err}");
        // vISA compares are not predicated.
        let err = lower(p, &vars(), &ctx(), &cmp.clone().with_pred(PredCtl::new(1))).unwrap_err();
        assert!(matches!(err, VisaError::Predicate { .. }), "{err}");
        // min / max are sel.l / sel.ge.
        for (op, c) in [(VisaOp::Min, CondMod::L), (VisaOp::Max, CondMod::Ge)] {
            let i = one(
                p,
                &VisaInst::new(op, exec(8), dst(0, 0, 0, 1), &[gen(0, 0, 0, 8, 8, 1), f_imm(1.0)]),
            );
            assert_eq!((i.opcode, i.cond_mod(), i.pred_control), (Opcode::Sel, Some(c), 0));
        }
    }
}

#[test]
fn extended_math() {
    let fns = [
        (VisaOp::Inv, MathFunction::Inv),
        (VisaOp::Log, MathFunction::Log),
        (VisaOp::Exp, MathFunction::Exp),
        (VisaOp::Sqrt, MathFunction::Sqrt),
        (VisaOp::Rsqrt, MathFunction::Rsq),
        (VisaOp::Sin, MathFunction::Sin),
        (VisaOp::Cos, MathFunction::Cos),
    ];
    for p in Platform::ALL {
        for (op, f) in fns {
            let i = one(
                p,
                &VisaInst::new(op, exec(16), dst(0, 0, 0, 1), &[gen(1, 0, 0, 8, 8, 1)]),
            );
            assert_eq!(
                (i.opcode, i.math_function(), i.exec_size),
                (Opcode::Math, Some(f), ExecSize::S16)
            );
        }
        let pow = VisaInst::new(
            VisaOp::Pow,
            exec(8),
            dst(0, 0, 0, 1),
            &[gen(1, 0, 0, 8, 8, 1), f_imm(2.0)],
        );
        let out = lower_ok(p, &vars(), &ctx(), &pow);
        // Gen7 math takes no immediate: it goes through the temporary.
        assert_eq!(out.len(), if p.is_gen8() { 1 } else { 2 }, "{p}");
        assert_eq!(out.last().unwrap().math_function(), Some(MathFunction::Pow));
        // Float division is one instruction; integer division runs 8 wide.
        let fdiv = VisaInst::new(
            VisaOp::Div,
            exec(16),
            dst(0, 0, 0, 1),
            &[gen(0, 0, 0, 8, 8, 1), gen(1, 0, 0, 8, 8, 1)],
        );
        let out = lower_ok(p, &vars(), &ctx(), &fdiv);
        assert_eq!((out.len(), out[0].math_function()), (1, Some(MathFunction::Fdiv)));
        for (op, f) in [
            (VisaOp::Div, MathFunction::IntDivQuotient),
            (VisaOp::Mod, MathFunction::IntDivRemainder),
        ] {
            let idiv = VisaInst::new(
                op,
                exec(16),
                dst(2, 0, 0, 1),
                &[gen(2, 0, 0, 8, 8, 1), gen(3, 0, 0, 8, 8, 1)],
            );
            let out = lower_ok(p, &vars(), &ctx(), &idiv);
            assert_eq!(out.len(), 2);
            for (h, i) in out.iter().enumerate() {
                assert_eq!(
                    (i.exec_size, i.math_function(), i.qtr_control),
                    (ExecSize::S8, Some(f), h as u8)
                );
                assert_eq!(
                    (i.dst.addr, i.src[0].addr, i.src[1].addr),
                    (grf(30 + h as u8, 0), grf(30 + h as u8, 0), grf(40 + h as u8, 0))
                );
            }
        }
        // Math on integers where floats are wanted.
        let bad = VisaInst::new(VisaOp::Sqrt, exec(8), dst(2, 0, 0, 1), &[gen(2, 0, 0, 8, 8, 1)]);
        assert!(matches!(lower(p, &vars(), &ctx(), &bad), Err(VisaError::HwType { .. })));
        // Math converts nothing: a float function into an integer or DF
        // destination, and integer division into a float one, are refused
        // (found by the property test: math into DF lowered).
        let mut v = vars();
        let df = v.add_general(VisaType::DF, 8, 60 * 32);
        for (op, d, s) in [(VisaOp::Sqrt, 2, 1), (VisaOp::Exp, df, 1), (VisaOp::Inv, df, 0)] {
            let bad = VisaInst::new(op, exec(8), dst(d, 0, 0, 1), &[gen(s, 0, 0, 8, 8, 1)]);
            let e = lower(p, &v, &ctx(), &bad).unwrap_err();
            assert!(
                matches!(e, VisaError::HwType { slot: Slot::Dst, .. }),
                "{p} {op:?}: {e}"
            );
        }
        let bad = VisaInst::new(
            VisaOp::Mod,
            exec(8),
            dst(0, 0, 0, 1),
            &[gen(2, 0, 0, 8, 8, 1), gen(3, 0, 0, 8, 8, 1)],
        );
        let e = lower(p, &v, &ctx(), &bad).unwrap_err();
        assert!(matches!(e, VisaError::HwType { slot: Slot::Dst, .. }), "{p}: {e}");
    }
}

#[test]
fn simd32_splits_only_when_an_operand_would_span_more_than_two_registers() {
    for p in Platform::ALL {
        // 32 words are two GRFs: one instruction.
        let w = VisaInst::new(
            VisaOp::Add,
            exec(32),
            dst(4, 0, 0, 1),
            &[gen(4, 0, 0, 16, 16, 1), VecOperand::imm(Immediate::int(VisaType::W, 1))],
        );
        let i = one(p, &w);
        assert_eq!(i.exec_size, ExecSize::S32);
        // 32 floats are four GRFs: two SIMD16 halves, the second one 2H.
        let f = VisaInst::new(
            VisaOp::Add,
            exec(32),
            dst(0, 0, 0, 1),
            &[gen(0, 0, 0, 8, 8, 1), gen(1, 0, 0, 8, 8, 1)],
        );
        let out = lower_ok(p, &vars(), &ctx(), &f);
        assert_eq!(out.len(), 2);
        assert_eq!((out[1].exec_size, out[1].qtr_control), (ExecSize::S16, 2));
        assert_eq!(
            (out[1].dst.addr, out[1].src[0].addr, out[1].src[1].addr),
            (grf(12, 0), grf(12, 0), grf(22, 0))
        );
    }
}

#[test]
fn splitting_refuses_to_change_the_meaning() {
    // dst V0(0,1)<1> over src V0(0,0): the second half would read what the
    // first half wrote.
    let inst = VisaInst::new(VisaOp::Mov, exec(16), dst(0, 0, 1, 1), &[gen(0, 0, 0, 8, 8, 1)]);
    let err = lower(Platform::Gen8, &vars(), &ctx(), &inst).unwrap_err();
    assert!(matches!(err, VisaError::Unsupported { .. }), "{err}");
    // In place, channel for channel, is fine.
    let inst = VisaInst::new(
        VisaOp::Add,
        exec(32),
        dst(0, 0, 0, 1),
        &[gen(0, 0, 0, 8, 8, 1), f_imm(1.0)],
    );
    assert_eq!(lower_ok(Platform::Gen8, &vars(), &ctx(), &inst).len(), 2);
    // An any/all predicate combines every channel: no split.
    let inst = VisaInst::new(
        VisaOp::Add,
        exec(32),
        dst(0, 0, 0, 1),
        &[gen(0, 0, 0, 8, 8, 1), f_imm(1.0)],
    )
    .with_pred(PredCtl {
        id: 3,
        combine: PredCombine::Any,
        inverse: false,
    });
    assert!(matches!(
        lower(Platform::Gen8, &vars(), &ctx(), &inst),
        Err(VisaError::Unsupported { .. })
    ));
}

#[test]
fn logic_on_predicates() {
    for p in Platform::ALL {
        // and (16) P1 P2 ~P1 on flag words.
        let mut inv = PredCtl::new(1);
        inv.inverse = true;
        let and = VisaInst::new(
            VisaOp::And,
            exec(16),
            VecOperand::pred(1),
            &[VecOperand::pred(2), VecOperand::from(OperandKind::Predicate(inv))],
        );
        let i = one(p, &and);
        assert_eq!((i.opcode, i.exec_size), (Opcode::And, ExecSize::S1));
        assert!(i.controls.contains(Controls::WE_ALL));
        assert_eq!(
            (i.dst.file, i.dst.ty, i.dst.addr),
            (RegFile::Arf, Type::UW, grf(0x30, 0))
        );
        assert_eq!((i.src[0].addr, i.src[0].mods), (grf(0x30, 2), SrcMods::empty()));
        assert_eq!((i.src[1].addr, i.src[1].mods), (grf(0x30, 0), SrcMods::NEGATE));
        // The upper half of P3 (f1.1) at M5.
        let not = VisaInst::new(
            VisaOp::Not,
            exec_m(16, 5, false),
            VecOperand::pred(3),
            &[VecOperand::pred(3)],
        );
        let i = one(p, &not);
        assert_eq!((i.dst.addr, i.src[0].addr), (grf(0x31, 2), grf(0x31, 2)));
        // The whole of P3.
        let or = VisaInst::new(
            VisaOp::Or,
            exec(32),
            VecOperand::pred(3),
            &[VecOperand::pred(3), VecOperand::pred(3)],
        );
        assert_eq!(one(p, &or).dst.ty, Type::UD);
        // Predicates mixed with registers, or predicated, are refused.
        let mixed = VisaInst::new(
            VisaOp::And,
            exec(16),
            VecOperand::pred(1),
            &[VecOperand::pred(2), gen(2, 0, 0, 8, 8, 1)],
        );
        assert!(matches!(
            lower(p, &vars(), &ctx(), &mixed),
            Err(VisaError::OperandClass { .. })
        ));
        assert!(matches!(
            lower(p, &vars(), &ctx(), &and.clone().with_pred(PredCtl::new(2))),
            Err(VisaError::Predicate { .. })
        ));
        let narrow = VisaInst::new(VisaOp::Not, exec(8), VecOperand::pred(1), &[VecOperand::pred(2)]);
        assert!(matches!(
            lower(p, &vars(), &ctx(), &narrow),
            Err(VisaError::Unsupported { .. })
        ));
    }
}

#[test]
fn instruction_errors() {
    let p = Platform::Gen8;
    let v = vars();
    let err = |inst: &VisaInst| lower(p, &v, &ctx(), inst).unwrap_err();
    // Wrong number of sources.
    assert!(matches!(
        err(&VisaInst::new(
            VisaOp::Add,
            exec(8),
            dst(0, 0, 0, 1),
            &[gen(0, 0, 0, 8, 8, 1)]
        )),
        VisaError::OperandClass { .. }
    ));
    // Immediate destination.
    let e = err(&VisaInst::new(
        VisaOp::Mov,
        exec(8),
        f_imm(1.0),
        &[gen(0, 0, 0, 8, 8, 1)],
    ));
    assert!(matches!(e, VisaError::OperandClass { slot: Slot::Dst, .. }), "{e}");
    // Multi-address destination.
    let ind = VecOperand::from(OperandKind::Indirect(IndirectOperand {
        addr: 0,
        addr_offset: 0,
        offset: 0,
        ty: VisaType::F,
        region: region(None, 1, 1),
    }));
    let mut v2 = vars();
    v2.add_address(8, 0);
    let e = lower(
        p,
        &v2,
        &ctx(),
        &VisaInst::new(VisaOp::Mov, exec(8), ind, &[gen(0, 0, 0, 8, 8, 1)]),
    )
    .unwrap_err();
    assert!(e.to_string().contains("multi-address"), "{e}");
    // Unaligned mask offset.
    let e = err(&VisaInst::new(
        VisaOp::Mov,
        exec_m(8, 2, false),
        dst(0, 0, 0, 1),
        &[gen(0, 0, 0, 8, 8, 1)],
    ));
    assert!(matches!(e, VisaError::MaskAlign { offset: 4, exec: 8, .. }), "{e}");
    // Mixed integer and float sources.
    let e = err(&VisaInst::new(
        VisaOp::Add,
        exec(8),
        dst(0, 0, 0, 1),
        &[gen(0, 0, 0, 8, 8, 1), gen(2, 0, 0, 8, 8, 1)],
    ));
    assert!(matches!(e, VisaError::HwType { slot: Slot::Src(1), .. }), "{e}");
    // Address operands belong to address instructions.
    let a = VecOperand::from(OperandKind::Address(AddrOperand {
        id: 0,
        offset: 0,
        width: ExecSize::S1,
    }));
    let e = lower(
        p,
        &v2,
        &ctx(),
        &VisaInst::new(VisaOp::Mov, exec(1), dst(4, 0, 0, 1), &[a]),
    )
    .unwrap_err();
    assert!(matches!(e, VisaError::OperandClass { slot: Slot::Src(0), .. }), "{e}");
    let e = lower(
        p,
        &v2,
        &ctx(),
        &VisaInst::new(VisaOp::AddrAdd, exec(1), dst(4, 0, 0, 1), &[a, d_imm(1)]),
    )
    .unwrap_err();
    assert!(matches!(e, VisaError::OperandClass { slot: Slot::Dst, .. }), "{e}");
}

#[test]
fn address_arithmetic() {
    let mut v = vars();
    let a = v.add_address(4, 4); // A0: a0.4-a0.7
    let addr = |offset, width| VecOperand::from(OperandKind::Address(AddrOperand { id: a, offset, width }));
    let uw = |x| VecOperand::imm(Immediate::int(VisaType::UW, x));
    for p in Platform::ALL {
        // addr_add (1) A0(1)<1> A0(0)<1> 8:uw {NM}
        let inst = VisaInst::new(
            VisaOp::AddrAdd,
            exec_m(1, 1, true),
            addr(1, ExecSize::S1),
            &[addr(0, ExecSize::S1), uw(8)],
        );
        let out = lower_ok(p, &v, &ctx(), &inst);
        assert_eq!(out.len(), 1);
        let i = out[0];
        assert_eq!((i.opcode, i.exec_size), (Opcode::Add, ExecSize::S1));
        assert!(i.controls.contains(Controls::WE_ALL));
        assert_eq!(
            (i.dst.file, i.dst.ty, i.dst.addr),
            (RegFile::Arf, Type::UW, grf(0x10, 10))
        );
        assert_eq!(
            (i.src[0].file, i.src[0].addr, i.src[0].region),
            (RegFile::Arf, grf(0x10, 8), Region::SCALAR)
        );
        assert_eq!((i.src[1].ty, i.imm), (Type::UW, 0x0008_0008));
        // Four address elements at once, the offset replicated from one.
        let inst = VisaInst::new(
            VisaOp::AddrAdd,
            exec(4),
            addr(0, ExecSize::S1),
            &[addr(0, ExecSize::S1), uw(4)],
        );
        let i = lower_ok(p, &v, &ctx(), &inst)[0];
        assert_eq!((i.exec_size, i.src[0].region), (ExecSize::S4, Region::SCALAR));
        // Past the variable.
        let inst = VisaInst::new(
            VisaOp::AddrAdd,
            exec(4),
            addr(1, ExecSize::S1),
            &[addr(0, ExecSize::S1), uw(4)],
        );
        assert!(matches!(
            lower(p, &v, &ctx(), &inst),
            Err(VisaError::OutOfBounds { .. })
        ));
    }
}

/// The errors of the operand chapter, through instruction lowering: each
/// names the operand at fault.
#[test]
fn chapter_rule_errors_name_the_operand() {
    let p = Platform::Gen7;
    let v = vars();
    let err = |inst: VisaInst| lower(p, &v, &ctx(), &inst).unwrap_err();
    // Row offset beyond the variable (V1 has 4 rows), in src1.
    let e = err(VisaInst::new(
        VisaOp::Add,
        exec(8),
        dst(0, 0, 0, 1),
        &[gen(0, 0, 0, 8, 8, 1), gen(1, 4, 0, 8, 8, 1)],
    ));
    assert!(
        matches!(
            e,
            VisaError::RowOffset {
                slot: Slot::Src(1),
                id: 1,
                row: 4,
                rows: 4
            }
        ),
        "{e}"
    );
    // Column offset crossing the GRF (8 floats a row), in the destination.
    let e = err(VisaInst::new(
        VisaOp::Mov,
        exec(1),
        dst(0, 0, 8, 1),
        &[gen(1, 0, 0, 0, 1, 0)],
    ));
    assert!(
        matches!(
            e,
            VisaError::ColumnOffset {
                slot: Slot::Dst,
                col: 8,
                per_row: 8,
                ..
            }
        ),
        "{e}"
    );
    // Illegal region: width beyond the execution size, in src0.
    let e = err(VisaInst::new(
        VisaOp::Mov,
        exec(4),
        dst(0, 0, 0, 1),
        &[gen(1, 0, 0, 8, 8, 1)],
    ));
    assert!(matches!(e, VisaError::IllegalRegion { slot: Slot::Src(0), .. }), "{e}");
    // A destination stride of 0.
    let e = err(VisaInst::new(
        VisaOp::Mov,
        exec(8),
        VecOperand::general(0, 0, 0, region(Some(8), 8, 0)),
        &[gen(1, 0, 0, 8, 8, 1)],
    ));
    assert!(matches!(e, VisaError::IllegalRegion { slot: Slot::Dst, .. }), "{e}");
    // Immediate destination.
    let e = err(VisaInst::new(
        VisaOp::Mov,
        exec(8),
        f_imm(0.0),
        &[gen(1, 0, 0, 8, 8, 1)],
    ));
    assert!(matches!(e, VisaError::OperandClass { slot: Slot::Dst, .. }), "{e}");
    // A modifier on a raw operand.
    let e = RawOperand::from_vec(&gen(0, 0, 0, 8, 8, 1).with_modifier(Modifier::Abs), 4, Slot::Raw("U")).unwrap_err();
    assert!(
        matches!(
            e,
            VisaError::Modifier {
                slot: Slot::Raw("U"),
                ..
            }
        ),
        "{e}"
    );
}

/// Found by the property test: inputs that used to reach validation and
/// come back as `Invalid` now get the error of the rule they break.
#[test]
fn rule_errors_found_by_the_property_test() {
    for p in Platform::ALL {
        let v = vars();
        // SEL needs a predicate.
        let sel = VisaInst::new(
            VisaOp::Sel,
            exec(8),
            dst(0, 0, 0, 1),
            &[gen(0, 0, 0, 8, 8, 1), gen(1, 0, 0, 8, 8, 1)],
        );
        let e = lower(p, &v, &ctx(), &sel).unwrap_err();
        assert!(matches!(e, VisaError::Unsupported { .. }), "{p}: {e}");
        lower_ok(p, &v, &ctx(), &sel.with_pred(PredCtl::new(1)));
        // Integer division takes no source modifier.
        for m in [Modifier::Neg, Modifier::Abs] {
            let div = VisaInst::new(
                VisaOp::Div,
                exec(8),
                dst(2, 0, 0, 1),
                &[gen(2, 0, 0, 8, 8, 1), gen(3, 0, 0, 8, 8, 1).with_modifier(m)],
            );
            let e = lower(p, &v, &ctx(), &div).unwrap_err();
            assert!(matches!(e, VisaError::Modifier { slot: Slot::Src(1), .. }), "{p}: {e}");
        }
        // A temporary register past g127.
        let far = LowerCtx {
            temp_grf: Some(200),
            ..ctx()
        };
        let sub = VisaInst::new(
            VisaOp::Shl,
            exec(8),
            dst(2, 0, 0, 1),
            &[d_imm(1), gen(3, 0, 0, 8, 8, 1)],
        );
        let e = lower(p, &v, &far, &sub).unwrap_err();
        assert!(matches!(e, VisaError::Unsupported { .. }), "{p}: {e}");
        lower_ok(p, &v, &ctx(), &sub);
    }
}
