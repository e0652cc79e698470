//! The execution model: every execution size, mask control and predicate
//! combination, lowered and checked field by field.

use crate::visa_common;

use geneu::visa::*;
use geneu::*;
use visa_common::*;

fn vars() -> VarTable {
    let mut v = VarTable::new();
    v.add_general(VisaType::W, 64, 10 * 32); // V0
    v.add_general(VisaType::W, 64, 20 * 32); // V1
    v.add_predicate(32, FlagReg { nr: 1, subnr: 0 }); // P1: f1
    v.add_predicate(16, FlagReg { nr: 0, subnr: 1 }); // P2: f0.1
    v
}

fn mov(n: u32, exec: ExecCtl) -> VisaInst {
    let w = n.min(16);
    VisaInst::new(VisaOp::Mov, exec, dst(0, 0, 0, 1), &[gen(1, 0, 0, w, w, 1)])
}

#[test]
fn every_mask_control_maps_to_quarter_nibble_and_mask_control() {
    let vars = vars();
    for p in Platform::ALL {
        for n in [1u32, 2, 4, 8, 16, 32] {
            for m in 1u8..=8 {
                for nm in [false, true] {
                    let e = exec_m(n, m, nm);
                    let offset = u32::from(m - 1) * 4;
                    let r = lower(p, &vars, &LowerCtx::default(), &mov(n, e));
                    if offset % n != 0 || offset + n > 32 {
                        let err = r.unwrap_err();
                        assert!(matches!(err, VisaError::MaskAlign { .. }), "{p} {n} M{m}: {err}");
                        assert!(check_exec(e).is_err());
                        continue;
                    }
                    let out = r.unwrap_or_else(|e| panic!("{p} SIMD{n} M{m}: {e}"));
                    check_all(p, &out);
                    assert_eq!(out.len(), 1, "{p} SIMD{n} M{m}");
                    let i = &out[0];
                    assert_eq!(i.exec_size.channels(), n);
                    assert_eq!(u32::from(i.qtr_control), offset / 8, "{p} SIMD{n} M{m}");
                    assert_eq!(i.controls.contains(Controls::NIB_CTRL), offset % 8 == 4);
                    assert_eq!(i.controls.contains(Controls::WE_ALL), nm);
                    assert_eq!(i.pred_control, 0);
                }
            }
        }
    }
}

#[test]
fn every_predicate_combination() {
    let vars = vars();
    let combos = [PredCombine::Sequential, PredCombine::Any, PredCombine::All];
    for p in Platform::ALL {
        for n in [1u32, 2, 4, 8, 16, 32] {
            for combine in combos {
                for inverse in [false, true] {
                    for m in [1u8, 2, 3, 5] {
                        let offset = u32::from(m - 1) * 4;
                        if offset % n != 0 || offset + n > 32 {
                            continue;
                        }
                        let pc = PredCtl {
                            id: 1,
                            combine,
                            inverse,
                        };
                        let inst = mov(n, exec_m(n, m, false)).with_pred(pc);
                        let out = lower_ok(p, &vars, &LowerCtx::default(), &inst);
                        assert_eq!(out.len(), 1);
                        let i = &out[0];
                        let want = match (combine, n) {
                            (PredCombine::Sequential, _) | (_, 1) => 1,
                            (PredCombine::Any, n) => 2 + 2 * n.trailing_zeros() as u8,
                            (PredCombine::All, n) => 3 + 2 * n.trailing_zeros() as u8,
                            _ => unreachable!(),
                        };
                        assert_eq!(i.pred_control, want, "{p} SIMD{n} {combine:?}");
                        assert_eq!(pred_control(combine, n), want);
                        assert_eq!(i.controls.contains(Controls::PRED_INV), inverse);
                        assert_eq!(i.flag, FlagReg { nr: 1, subnr: 0 });
                        assert_eq!(u32::from(i.qtr_control), offset / 8);
                    }
                }
            }
        }
    }
}

#[test]
fn any_and_all_use_the_platform_forms() {
    // any8h = 8, all8h = 9, any16h = 10, all16h = 11, any32h = 12, all32h = 13.
    assert_eq!(pred_control(PredCombine::Any, 8), 8);
    assert_eq!(pred_control(PredCombine::All, 8), 9);
    assert_eq!(pred_control(PredCombine::Any, 16), 10);
    assert_eq!(pred_control(PredCombine::All, 32), 13);
    assert_eq!(pred_control(PredCombine::Any, 2), 4);
    assert_eq!(pred_control(PredCombine::All, 4), 7);
    assert_eq!(pred_control(PredCombine::Sequential, 16), 1);
}

#[test]
fn predicate_flag_placement_and_bounds() {
    let vars = vars();
    // P2 lives in f0.1 and has 16 elements.
    let ok = mov(8, exec_m(8, 3, false)).with_pred(PredCtl::new(2));
    let out = lower_ok(Platform::Gen8, &vars, &LowerCtx::default(), &ok);
    assert_eq!(out[0].flag, FlagReg { nr: 0, subnr: 1 });
    assert_eq!(out[0].qtr_control, 1);
    // M5 with 8 channels needs elements 16..23 of P2: out of range.
    let bad = mov(8, exec_m(8, 5, false)).with_pred(PredCtl::new(2));
    let err = lower(Platform::Gen8, &vars, &LowerCtx::default(), &bad).unwrap_err();
    assert!(matches!(err, VisaError::Predicate { id: 2, .. }), "{err}");
    // Unknown and reserved predicates.
    let err = lower(
        Platform::Gen8,
        &vars,
        &LowerCtx::default(),
        &mov(8, exec(8)).with_pred(PredCtl::new(9)),
    )
    .unwrap_err();
    assert!(
        matches!(
            err,
            VisaError::UnknownVariable {
                kind: VarKind::Predicate,
                ..
            }
        ),
        "{err}"
    );
    let err = lower(
        Platform::Gen8,
        &vars,
        &LowerCtx::default(),
        &mov(8, exec(8)).with_pred(PredCtl::new(0)),
    )
    .unwrap_err();
    assert!(matches!(err, VisaError::Predicate { id: 0, .. }), "{err}");
}

#[test]
fn apply_helpers_match_lowering() {
    let vars = vars();
    let mut i = Instruction::new(Opcode::Mov, ExecSize::S4);
    apply_mask(&mut i, exec_m(4, 4, true)).unwrap();
    assert_eq!((i.qtr_control, i.controls.contains(Controls::NIB_CTRL)), (1, true));
    assert!(i.controls.contains(Controls::WE_ALL));
    apply_pred(
        &mut i,
        &vars,
        PredCtl {
            id: 1,
            combine: PredCombine::All,
            inverse: true,
        },
        exec_m(4, 4, true),
    )
    .unwrap();
    assert_eq!((i.pred_control, i.flag), (7, FlagReg { nr: 1, subnr: 0 }));
    assert!(i.controls.contains(Controls::PRED_INV));
    let mut j = Instruction::new(Opcode::Mov, ExecSize::S16);
    assert!(matches!(
        apply_mask(&mut j, exec_m(16, 2, false)),
        Err(VisaError::MaskAlign {
            offset: 4,
            exec: 16,
            ..
        })
    ));
    assert!(j.set_first_channel(16));
    assert_eq!(j.qtr_control, 2);
}

/// The flag bits a hardware instruction with a conditional modifier
/// writes, as `(register, bits)`: channel `n` of its channel group at
/// subregister `S` is bit `16·S + first + n` of the 32-bit flag register
/// (the `fN.S` / quarter-control rule of the PRM's flag description).
fn written_flag_bits(i: &Instruction) -> (u8, u64) {
    let first = u32::from(i.qtr_control) * 8 + if i.controls.contains(Controls::NIB_CTRL) { 4 } else { 0 };
    let lo = 16 * u32::from(i.flag.subnr) + first;
    let n = i.exec_size.channels();
    (i.flag.nr, ((1u64 << n) - 1) << lo)
}

/// The bits of predicate variables in flag register `nr`, but for the
/// scratch subregister's 16, which the caller gave to the lowering.
fn pred_bits(vars: &VarTable, nr: u8, scratch: FlagReg) -> u64 {
    let live = vars
        .predicate
        .iter()
        .filter(|p| p.flag.nr == nr)
        .map(|p| ((1u64 << p.elements) - 1) << (16 * u32::from(p.flag.subnr)))
        .fold(0, |a, b| a | b);
    if scratch.nr == nr {
        live & !(0xffff << (16 * u32::from(scratch.subnr)))
    } else {
        live
    }
}

/// A compare into a general variable writes its flag bits through the
/// scratch flag; those bits never reach a predicate variable nor run past
/// bit 31 of the flag register (the bits of the scratch subregister itself
/// excepted: the caller gave them up), and where no subregister can take
/// them the lowering says so. `cmp.lt (8) M5` with P1 in f1.1 and scratch f1.0 used
/// to write f1 bits 16..23 (P1's elements 0..7).
#[test]
fn a_compare_through_the_scratch_flag_spares_every_predicate() {
    let cmp = |n: u32, m: u8| {
        let w = n.min(16);
        VisaInst::new(
            VisaOp::Cmp(RelOp::Lt),
            exec_m(n, m, false),
            dst(0, 0, 0, 1),
            &[gen(1, 0, 0, w, w, 1), gen(0, 0, 0, w, w, 1)],
        )
    };
    let table = |elements: u8, flag: FlagReg| {
        let mut v = VarTable::new();
        v.add_general(VisaType::D, 64, 10 * 32);
        v.add_general(VisaType::D, 64, 20 * 32);
        v.add_predicate(elements, flag);
        v
    };
    let f = |nr, subnr| FlagReg { nr, subnr };
    let ctx = |scratch| LowerCtx {
        scratch_flag: Some(scratch),
        ..LowerCtx::default()
    };
    // (predicate elements and flag, scratch, SIMD, Mk, the flag expected or
    // None for a refusal).
    let cases = [
        // The reported case: f1.0 at 3Q writes bits 16..23 = P1's; f1.1
        // at 3Q would be bits 32..39.
        (16, f(1, 1), f(1, 0), 8, 5, None),
        (16, f(1, 1), f(1, 0), 32, 1, None),
        (16, f(1, 1), f(1, 0), 8, 1, Some(f(1, 0))),
        (8, f(1, 1), f(1, 0), 8, 7, Some(f(1, 0))),
        // Scratch f1.1 at M5 runs past bit 31; f1.0 puts the bits at 16..23,
        // clear of P1 in bits 0..15.
        (16, f(1, 0), f(1, 1), 8, 5, Some(f(1, 0))),
        (16, f(1, 0), f(1, 1), 16, 5, Some(f(1, 0))),
        (16, f(1, 0), f(1, 1), 32, 1, None),
        // A predicate over the scratch subregister gave those bits up.
        (32, f(1, 0), f(1, 1), 8, 5, Some(f(1, 0))),
        (32, f(1, 0), f(1, 1), 8, 1, Some(f(1, 1))),
        // A predicate in the other flag register is no obstacle.
        (32, f(0, 0), f(1, 0), 32, 1, Some(f(1, 0))),
        (16, f(0, 1), f(1, 1), 4, 2, Some(f(1, 1))),
    ];
    for p in Platform::ALL {
        for &(elements, pflag, scratch, n, m, want) in &cases {
            let vars = table(elements, pflag);
            let r = lower(p, &vars, &ctx(scratch), &cmp(n, m));
            let what = format!("{p} P1 {elements} at {pflag:?}, scratch {scratch:?}, SIMD{n} M{m}");
            match want {
                None => assert!(matches!(r, Err(VisaError::ScratchFlag { .. })), "{what}: {r:?}"),
                Some(flag) => {
                    let out = r.unwrap_or_else(|e| panic!("{what}: {e}"));
                    check_all(p, &out);
                    for i in out.iter().filter(|i| i.opcode == Opcode::Cmp) {
                        assert_eq!(i.flag, flag, "{what}");
                        let (nr, bits) = written_flag_bits(i);
                        assert_eq!(bits >> 32, 0, "{what}: past bit 31");
                        assert_eq!(bits & pred_bits(&vars, nr, scratch), 0, "{what}: a predicate's bits");
                    }
                }
            }
        }
    }
}
