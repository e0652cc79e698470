//! Operand lowering: every operand class against a variable table, the
//! spec's region example, and the errors of every rule.

use crate::visa_common;

use geneu::visa::*;
use geneu::*;
use visa_common::*;

/// The spec's region figure: V1 ub[32], V2 ub[64], V3 w[32], and
/// `add(16) V3(0,0)<2> V1(0,1)<16;8,2> V2(1,0)<0;1,0>`.
fn fig3() -> (VarTable, VisaInst) {
    let mut vars = VarTable::new();
    let v1 = vars.add_general(VisaType::UB, 32, 10 * 32);
    let v2 = vars.add_general(VisaType::UB, 64, 11 * 32);
    let v3 = vars.add_general(VisaType::W, 32, 13 * 32);
    let inst = VisaInst::new(
        VisaOp::Add,
        exec(16),
        dst(v3, 0, 0, 2),
        &[gen(v1, 0, 1, 16, 8, 2), gen(v2, 1, 0, 0, 1, 0)],
    );
    (vars, inst)
}

#[test]
fn spec_region_example_on_gen8_is_one_instruction() {
    let (vars, inst) = fig3();
    let out = lower_ok(Platform::Gen8, &vars, &LowerCtx::default(), &inst);
    assert_eq!(out.len(), 1);
    let i = &out[0];
    assert_eq!(i.opcode, Opcode::Add);
    assert_eq!(i.exec_size, ExecSize::S16);
    assert_eq!(i.qtr_control, 0);
    assert_eq!(i.dst.addr, Addr::Direct { nr: 13, subnr: 0 });
    assert_eq!((i.dst.ty, i.dst.hstride), (Type::W, 2)); // stride 2 encodes as 2
    assert_eq!(i.src[0].addr, Addr::Direct { nr: 10, subnr: 1 });
    assert_eq!(i.src[0].ty, Type::UB);
    assert_eq!(i.src[0].region, Region::new(16, 8, 2).unwrap());
    // V2(1,0): row 1 of a ub variable is element 32, one GRF further.
    assert_eq!(i.src[1].addr, Addr::Direct { nr: 12, subnr: 0 });
    assert_eq!(i.src[1].region, Region::SCALAR);
}

#[test]
fn spec_region_example_on_gen7_splits_where_the_destination_spans_two_registers() {
    let (vars, inst) = fig3();
    for p in [Platform::Gen7, Platform::Gen75] {
        let out = lower_ok(p, &vars, &LowerCtx::default(), &inst);
        assert_eq!(out.len(), 2, "{p}");
        for (half, i) in out.iter().enumerate() {
            let h = half as u8;
            assert_eq!(i.exec_size, ExecSize::S8);
            assert_eq!(i.qtr_control, h, "second half is Q2");
            assert_eq!(i.dst.addr, Addr::Direct { nr: 13 + h, subnr: 0 });
            // Channel 8 of <16;8,2> is element 16: byte 1 + 16.
            assert_eq!(
                i.src[0].addr,
                Addr::Direct {
                    nr: 10,
                    subnr: 1 + 16 * h
                }
            );
            assert_eq!(i.src[0].region, Region::new(16, 8, 2).unwrap());
            assert_eq!(i.src[1].addr, Addr::Direct { nr: 12, subnr: 0 });
        }
    }
}

fn table() -> VarTable {
    let mut vars = VarTable::new();
    vars.add_general(VisaType::F, 32, 20 * 32); // V0: g20-g23
    vars.add_general(VisaType::W, 8, 30 * 32 + 16); // V1: g30.16, 16 bytes
    vars.add_general(VisaType::D, 16, 40 * 32); // V2: g40-g41
    vars.add_null(VisaType::UD); // V3
    vars.add_address(4, 2); // A0: a0.2-a0.5
    vars.add_address(1, 7); // A1: a0.7
    vars.add_predicate(16, FlagReg { nr: 0, subnr: 1 }); // P1: f0.1
    vars
}

#[test]
fn general_source_origin_and_region() {
    let vars = table();
    for p in Platform::ALL {
        // V0(1,3)<8;4,2>: element 8 + 3 = 11 -> byte 44 -> g21.12.
        let HwSrc::Reg(s) = lower_src(p, &vars, ExecSize::S8, &gen(0, 1, 3, 8, 4, 2)).unwrap() else {
            panic!()
        };
        assert_eq!(s.file, RegFile::Grf);
        assert_eq!(s.ty, Type::F);
        assert_eq!(s.addr, Addr::Direct { nr: 21, subnr: 12 });
        // The rows of <8;4,2> from g21.12 would cross into g22 (bytes
        // 12..39): the same elements are read as <2;1,0>.
        assert_eq!(s.region, Region::new(2, 1, 0).unwrap());
        assert!(s.mods.is_empty());
        // From a register start the region stays as written.
        let HwSrc::Reg(s) = lower_src(p, &vars, ExecSize::S8, &gen(0, 1, 0, 8, 4, 2)).unwrap() else {
            panic!()
        };
        assert_eq!(s.addr, Addr::Direct { nr: 21, subnr: 0 });
        assert_eq!(s.region, Region::new(8, 4, 2).unwrap());
        // A variable that starts mid-register: V1(0,2) is g30.20.
        let HwSrc::Reg(s) = lower_src(p, &vars, ExecSize::S4, &gen(1, 0, 2, 4, 4, 1)).unwrap() else {
            panic!()
        };
        assert_eq!(s.addr, Addr::Direct { nr: 30, subnr: 20 });
        assert_eq!((s.ty, s.region), (Type::W, Region::new(4, 4, 1).unwrap()));
    }
}

#[test]
fn regions_that_cannot_matter_take_the_legal_encoding() {
    let vars = table();
    let p = Platform::Gen8;
    let reg = |op| match lower_src(p, &vars, ExecSize::S8, &op).unwrap() {
        HwSrc::Reg(s) => s.region,
        _ => panic!(),
    };
    // One row (Width = ExecSize): VertStride is Width * HorzStride.
    assert_eq!(reg(gen(0, 0, 0, 0, 8, 1)), Region::new(8, 8, 1).unwrap());
    // Width 1: HorzStride is 0.
    assert_eq!(reg(gen(0, 0, 0, 2, 1, 4)), Region::new(2, 1, 0).unwrap());
    // Zero strides: width 1.
    assert_eq!(reg(gen(0, 0, 0, 0, 4, 0)), Region::SCALAR);
    // One channel reads one element: <0;1,0>.
    let HwSrc::Reg(s) = lower_src(p, &vars, ExecSize::S1, &gen(0, 0, 5, 0, 1, 0)).unwrap() else {
        panic!()
    };
    assert_eq!(s.region, Region::SCALAR);
}

#[test]
fn scalar_operands_force_the_scalar_region() {
    let vars = table();
    let HwSrc::Reg(s) = lower_scalar_src(Platform::Gen8, &vars, ExecSize::S16, &gen(0, 2, 1, 16, 8, 2)).unwrap() else {
        panic!()
    };
    assert_eq!(s.region, Region::SCALAR);
    assert_eq!(s.addr, Addr::Direct { nr: 22, subnr: 4 });
    // The region is ignored, even an illegal one.
    let odd = VecOperand::general(0, 0, 0, VisaRegion::default());
    assert!(lower_scalar_src(Platform::Gen8, &vars, ExecSize::S8, &odd).is_ok());
    assert!(lower_src(Platform::Gen8, &vars, ExecSize::S8, &odd).is_err());
}

#[test]
fn destination_is_one_dimensional() {
    let vars = table();
    for (h, enc) in [(1, 1), (2, 2), (4, 3)] {
        let (d, sat) = lower_dst(Platform::Gen7, &vars, ExecSize::S4, &dst(0, 1, 0, h)).unwrap();
        assert!(!sat);
        assert_eq!(d.addr, Addr::Direct { nr: 21, subnr: 0 });
        assert_eq!((d.ty, d.hstride), (Type::F, enc));
    }
    // Vertical stride and width are ignored, whatever they are.
    let op = VecOperand::general(0, 0, 0, region(Some(32), 16, 1));
    assert!(lower_dst(Platform::Gen7, &vars, ExecSize::S8, &op).is_ok());
    // Saturation is the destination's modifier.
    let (_, sat) = lower_dst(
        Platform::Gen7,
        &vars,
        ExecSize::S8,
        &dst(0, 0, 0, 1).with_modifier(Modifier::Sat),
    )
    .unwrap();
    assert!(sat);
    // The null variable lowers to null.
    let (d, _) = lower_dst(Platform::Gen8, &vars, ExecSize::S8, &dst(3, 0, 0, 1)).unwrap();
    assert_eq!((d.file, d.addr), (RegFile::Arf, Addr::Direct { nr: 0, subnr: 0 }));
}

fn indirect(addr: u16, addr_offset: u8, offset: i16, ty: VisaType, r: VisaRegion) -> VecOperand {
    VecOperand::from(OperandKind::Indirect(IndirectOperand {
        addr,
        addr_offset,
        offset,
        ty,
        region: r,
    }))
}

#[test]
fn single_address_indirect() {
    let vars = table();
    // r[A0(1), 16]<4;2,1>:w -> [a0.3 + 16]
    let op = indirect(0, 1, 16, VisaType::W, region(Some(4), 2, 1));
    for p in Platform::ALL {
        let HwSrc::Reg(s) = lower_src(p, &vars, ExecSize::S8, &op).unwrap() else {
            panic!()
        };
        assert_eq!(s.addr, Addr::Indirect { subnr: 3, imm: 16 });
        assert_eq!(s.region, Region::new(4, 2, 1).unwrap());
        assert_eq!(s.ty, Type::W);
        let (d, _) = lower_dst(
            p,
            &vars,
            ExecSize::S8,
            &indirect(0, 1, -8, VisaType::W, VisaRegion::dst(2).unwrap()),
        )
        .unwrap();
        assert_eq!(d.addr, Addr::Indirect { subnr: 3, imm: -8 });
        assert_eq!(d.hstride, 2);
    }
}

#[test]
fn multi_address_indirect_is_vxh_or_vx1() {
    let vars = table();
    // r[A0(0), 4]<;2,1>: four rows of 2, one address each (a0.2-a0.5).
    let op = indirect(0, 0, 4, VisaType::D, region(None, 2, 1));
    let HwSrc::Reg(s) = lower_src(Platform::Gen8, &vars, ExecSize::S8, &op).unwrap() else {
        panic!()
    };
    assert_eq!(s.addr, Addr::Indirect { subnr: 2, imm: 4 });
    assert_eq!((s.region.vstride, s.region.width, s.region.hstride), (0xf, 1, 1));
    // Width 1: one address per channel (Vx1), four channels.
    let op = indirect(0, 0, 0, VisaType::D, region(None, 1, 0));
    let HwSrc::Reg(s) = lower_src(Platform::Gen8, &vars, ExecSize::S4, &op).unwrap() else {
        panic!()
    };
    assert_eq!((s.region.vstride, s.region.width, s.region.hstride), (0xf, 0, 0));
    // Eight channels of Vx1 need eight address elements; A0 has four.
    let err = lower_src(Platform::Gen8, &vars, ExecSize::S8, &op).unwrap_err();
    assert!(
        matches!(
            err,
            VisaError::OutOfBounds {
                kind: VarKind::Address,
                ..
            }
        ),
        "{err}"
    );
    // One channel of a multi-address operand is the single-address scalar
    // (the property test found <V;1,0> VxH forms at execution size 1).
    for p in Platform::ALL {
        let HwSrc::Reg(s) = lower_src(p, &vars, ExecSize::S1, &op).unwrap() else {
            panic!()
        };
        assert_eq!(s.addr, Addr::Indirect { subnr: 2, imm: 0 });
        assert_eq!(s.region, Region::SCALAR, "{p}");
    }
    // Never a destination.
    let err = lower_dst(
        Platform::Gen8,
        &vars,
        ExecSize::S4,
        &indirect(0, 0, 0, VisaType::D, region(None, 1, 0)),
    )
    .unwrap_err();
    assert!(
        matches!(
            err,
            VisaError::OperandClass {
                slot: Slot::Operand,
                ..
            }
        ),
        "{err}"
    );
    assert!(err.to_string().contains("multi-address"));
}

#[test]
fn indirect_rules() {
    let vars = table();
    let p = Platform::Gen7;
    // Packed and boolean types are not indirect types.
    for ty in [VisaType::V, VisaType::UV, VisaType::VF, VisaType::Bool] {
        let err = lower_src(p, &vars, ExecSize::S8, &indirect(0, 0, 0, ty, region(Some(8), 8, 1))).unwrap_err();
        assert!(matches!(err, VisaError::Type { .. }), "{err}");
    }
    // Offset range.
    let err = lower_src(
        p,
        &vars,
        ExecSize::S8,
        &indirect(0, 0, 512, VisaType::D, region(Some(8), 8, 1)),
    )
    .unwrap_err();
    assert!(matches!(
        err,
        VisaError::TooLarge {
            field: "indirect_opnd.indirect_offset",
            ..
        }
    ));
    // Address element past the variable.
    let err = lower_src(
        p,
        &vars,
        ExecSize::S8,
        &indirect(1, 1, 0, VisaType::D, region(Some(8), 8, 1)),
    )
    .unwrap_err();
    assert!(
        matches!(
            err,
            VisaError::OutOfBounds {
                kind: VarKind::Address,
                ..
            }
        ),
        "{err}"
    );
    // Unknown address variable.
    let err = lower_src(
        p,
        &vars,
        ExecSize::S8,
        &indirect(9, 0, 0, VisaType::D, region(Some(8), 8, 1)),
    )
    .unwrap_err();
    assert!(matches!(
        err,
        VisaError::UnknownVariable {
            kind: VarKind::Address,
            id: 9,
            ..
        }
    ));
}

#[test]
fn address_operands_offset_and_width() {
    let vars = table();
    let a = |offset, width| VecOperand::from(OperandKind::Address(AddrOperand { id: 0, offset, width }));
    // A0(1)<2>: a0.3 as words, two elements replicated across channels.
    let HwSrc::Reg(s) = lower_src(Platform::Gen8, &vars, ExecSize::S4, &a(1, ExecSize::S2)).unwrap() else {
        panic!()
    };
    assert_eq!((s.file, s.ty), (RegFile::Arf, Type::UW));
    assert_eq!(s.addr, Addr::Direct { nr: 0x10, subnr: 6 });
    assert_eq!(s.region, Region::new(0, 2, 1).unwrap());
    // Offset + width must stay within the variable's four elements.
    assert!(lower_src(Platform::Gen8, &vars, ExecSize::S4, &a(0, ExecSize::S4)).is_ok());
    let err = lower_src(Platform::Gen8, &vars, ExecSize::S4, &a(1, ExecSize::S4)).unwrap_err();
    assert!(
        matches!(
            err,
            VisaError::OutOfBounds {
                kind: VarKind::Address,
                element: 5,
                ..
            }
        ),
        "{err}"
    );
    // As a destination the width is ignored; the execution size counts.
    let (d, _) = lower_dst(Platform::Gen8, &vars, ExecSize::S2, &a(2, ExecSize::S1)).unwrap();
    assert_eq!(d.addr, Addr::Direct { nr: 0x10, subnr: 8 });
    assert!(lower_dst(Platform::Gen8, &vars, ExecSize::S4, &a(2, ExecSize::S1)).is_err());
}

#[test]
fn immediates() {
    let vars = table();
    let imm = |ty, value| VecOperand::imm(Immediate { ty, value });
    let get = |p, n, op| match lower_src(p, &vars, n, &op).unwrap() {
        HwSrc::Imm(s, v) => (s.ty, v),
        _ => panic!(),
    };
    let p = Platform::Gen7;
    assert_eq!(
        get(p, ExecSize::S8, imm(VisaType::F, 0x3f80_0000)),
        (Type::F, 0x3f80_0000)
    );
    assert_eq!(
        get(p, ExecSize::S8, imm(VisaType::D, 0xffff_fff0)),
        (Type::D, 0xffff_fff0)
    );
    // Words are replicated into both halves; bytes widen to words.
    assert_eq!(get(p, ExecSize::S8, imm(VisaType::UW, 0x1234)), (Type::UW, 0x1234_1234));
    assert_eq!(get(p, ExecSize::S8, imm(VisaType::B, 0xfe)), (Type::W, 0xfffe_fffe));
    assert_eq!(get(p, ExecSize::S8, imm(VisaType::UB, 0xfe)), (Type::UW, 0x00fe_00fe));
    // Packed vectors: 8 V/UV elements, 4 VF elements.
    assert_eq!(
        get(p, ExecSize::S8, imm(VisaType::V, 0x7654_3210)),
        (Type::V, 0x7654_3210)
    );
    assert_eq!(
        get(p, ExecSize::S8, imm(VisaType::UV, 0x7654_3210)),
        (Type::UV, 0x7654_3210)
    );
    assert_eq!(
        get(p, ExecSize::S4, imm(VisaType::VF, 0x3830_2000)),
        (Type::VF, 0x3830_2000)
    );
    assert!(lower_src(p, &vars, ExecSize::S16, &imm(VisaType::V, 0)).is_err());
    assert!(lower_src(p, &vars, ExecSize::S8, &imm(VisaType::VF, 0)).is_err());
    // 64-bit immediates are Gen8's.
    let d = Immediate::df(-2.5);
    assert_eq!(
        get(Platform::Gen8, ExecSize::S8, VecOperand::imm(d)),
        (Type::DF, (-2.5f64).to_bits())
    );
    assert_eq!(
        get(Platform::Gen8, ExecSize::S1, imm(VisaType::Q, u64::MAX)),
        (Type::Q, u64::MAX)
    );
    assert!(matches!(
        lower_src(Platform::Gen7, &vars, ExecSize::S8, &VecOperand::imm(d)),
        Err(VisaError::PlatformType { ty: Type::DF, .. })
    ));
    assert!(matches!(
        lower_src(Platform::Gen75, &vars, ExecSize::S8, &imm(VisaType::UQ, 1)),
        Err(VisaError::PlatformType { ty: Type::UQ, .. })
    ));
    assert!(matches!(
        lower_src(Platform::Gen7, &vars, ExecSize::S8, &imm(VisaType::HF, 0x3c00)),
        Err(VisaError::PlatformType { ty: Type::HF, .. })
    ));
    assert!(matches!(
        lower_src(p, &vars, ExecSize::S8, &imm(VisaType::Bool, 1)),
        Err(VisaError::Type { ty: VisaType::Bool, .. })
    ));
    // An immediate destination.
    let err = lower_dst(p, &vars, ExecSize::S8, &imm(VisaType::D, 1)).unwrap_err();
    assert!(matches!(err, VisaError::OperandClass { .. }));
    assert!(err.to_string().contains("immediate cannot be a destination"));
}

#[test]
fn modifiers() {
    let vars = table();
    let src = gen(0, 0, 0, 8, 8, 1);
    for (m, mods) in [
        (Modifier::None, SrcMods::empty()),
        (Modifier::Abs, SrcMods::ABS),
        (Modifier::Neg, SrcMods::NEGATE),
        (Modifier::NegAbs, SrcMods::NEGATE | SrcMods::ABS),
        (Modifier::Not, SrcMods::NEGATE),
    ] {
        let HwSrc::Reg(s) = lower_src(Platform::Gen8, &vars, ExecSize::S8, &src.with_modifier(m)).unwrap() else {
            panic!()
        };
        assert_eq!(s.mods, mods, "{m:?}");
    }
    assert!(matches!(
        lower_src(Platform::Gen8, &vars, ExecSize::S8, &src.with_modifier(Modifier::Sat)),
        Err(VisaError::Modifier { .. })
    ));
    assert!(matches!(
        lower_dst(
            Platform::Gen8,
            &vars,
            ExecSize::S8,
            &dst(0, 0, 0, 1).with_modifier(Modifier::Neg)
        ),
        Err(VisaError::Modifier {
            slot: Slot::Operand,
            ..
        })
    ));
}

#[test]
fn raw_operands() {
    let vars = table();
    // V0.64: two GRFs from g22.
    let (nr, ty) = lower_raw(
        Platform::Gen8,
        &vars,
        &RawOperand { id: 0, offset: 64 },
        64,
        Slot::Raw("U"),
    )
    .unwrap();
    assert_eq!((nr, ty), (22, Type::F));
    // Not GRF-aligned.
    let err = lower_raw(
        Platform::Gen8,
        &vars,
        &RawOperand { id: 0, offset: 4 },
        32,
        Slot::Raw("U"),
    )
    .unwrap_err();
    assert!(
        matches!(
            err,
            VisaError::IllegalRegion {
                slot: Slot::Raw("U"),
                ..
            }
        ),
        "{err}"
    );
    // Past the variable.
    let err = lower_raw(
        Platform::Gen8,
        &vars,
        &RawOperand { id: 0, offset: 96 },
        64,
        Slot::Raw("V"),
    )
    .unwrap_err();
    assert!(matches!(err, VisaError::OutOfBounds { .. }), "{err}");
    // A modifier on a raw operand.
    let err = RawOperand::from_vec(&gen(0, 1, 0, 8, 8, 1).with_modifier(Modifier::Neg), 4, Slot::Raw("R")).unwrap_err();
    assert!(
        matches!(
            err,
            VisaError::Modifier {
                slot: Slot::Raw("R"),
                ..
            }
        ),
        "{err}"
    );
}

#[test]
fn offsets_beyond_the_variable() {
    let vars = table();
    let p = Platform::Gen8;
    // V0 is 4 rows of 8 floats.
    let err = lower_src(p, &vars, ExecSize::S8, &gen(0, 4, 0, 8, 8, 1)).unwrap_err();
    assert_eq!(
        err,
        VisaError::RowOffset {
            slot: Slot::Operand,
            id: 0,
            row: 4,
            rows: 4
        }
    );
    let err = lower_dst(p, &vars, ExecSize::S8, &dst(0, 7, 0, 1)).unwrap_err();
    assert!(matches!(err, VisaError::RowOffset { row: 7, .. }));
    // A row holds 8 floats: column 8 crosses the GRF.
    let err = lower_src(p, &vars, ExecSize::S1, &gen(0, 0, 8, 0, 1, 0)).unwrap_err();
    assert_eq!(
        err,
        VisaError::ColumnOffset {
            slot: Slot::Operand,
            id: 0,
            col: 8,
            per_row: 8
        }
    );
    // The last row, read 16 wide, runs out of the variable.
    let err = lower_src(p, &vars, ExecSize::S16, &gen(0, 3, 0, 8, 8, 1)).unwrap_err();
    assert!(
        matches!(
            err,
            VisaError::OutOfBounds {
                element: 39,
                elements: 32,
                ..
            }
        ),
        "{err}"
    );
    // V1 has 8 words; column 8 is past it though inside the row.
    let err = lower_src(p, &vars, ExecSize::S1, &gen(1, 0, 8, 0, 1, 0)).unwrap_err();
    assert!(matches!(err, VisaError::OutOfBounds { element: 8, .. }), "{err}");
    // Unknown ids.
    assert!(matches!(
        lower_src(p, &vars, ExecSize::S1, &gen(99, 0, 0, 0, 1, 0)),
        Err(VisaError::UnknownVariable { id: 99, .. })
    ));
}

#[test]
fn illegal_regions() {
    let vars = table();
    let p = Platform::Gen8;
    let bad = |n, op: VecOperand, why: &str| {
        let err = lower_src(p, &vars, n, &op).unwrap_err();
        assert!(matches!(err, VisaError::IllegalRegion { .. }), "{err}");
        assert!(err.to_string().contains(why), "{err} / {why}");
    };
    bad(
        ExecSize::S4,
        gen(0, 0, 0, 8, 8, 1),
        "ExecSize must be greater than or equal to Width",
    );
    bad(ExecSize::S32, gen(0, 0, 0, 32, 32, 1), "Width must be 1, 2, 4, 8 or 16");
    bad(ExecSize::S8, gen(0, 0, 0, 8, 0, 1), "Width must be 1, 2, 4, 8 or 16");
    bad(ExecSize::S8, gen(0, 0, 0, 8, 8, 8), "HorzStride must be 0, 1, 2 or 4");
    bad(
        ExecSize::S8,
        VecOperand::general(0, 0, 0, region(None, 8, 1)),
        "multi-address",
    );
    let err = lower_dst(
        p,
        &vars,
        ExecSize::S8,
        &VecOperand::general(0, 0, 0, region(Some(8), 8, 0)),
    )
    .unwrap_err();
    assert!(
        err.to_string().contains("HorzStride of a destination must not be 0"),
        "{err}"
    );
}

#[test]
fn variable_placement_rules() {
    let mut vars = VarTable::new();
    vars.add_general(VisaType::F, 16, 32 + 4); // two GRFs, not GRF-aligned
    vars.add_general(VisaType::D, 4, 32 + 24); // 16 bytes crossing a GRF
    vars.add_general(VisaType::D, 4, 2); // misaligned for its type
    vars.add_general(VisaType::DF, 8, 127 * 32); // past the GRF file
    vars.add_general(VisaType::Q, 4, 0); // Gen8 type
    vars.add_general(VisaType::F, 0, 0); // empty
    let p = Platform::Gen7;
    for id in 0..6 {
        let err = lower_src(p, &vars, ExecSize::S1, &gen(id, 0, 0, 0, 1, 0)).unwrap_err();
        assert!(
            matches!(err, VisaError::BadVariable { .. } | VisaError::Type { .. }),
            "V{id}: {err}"
        );
    }
    assert!(lower_src(Platform::Gen8, &vars, ExecSize::S1, &gen(4, 0, 0, 0, 1, 0)).is_ok());
    // Predicates: P0 is reserved, ids start at 1.
    vars.add_predicate(8, FlagReg { nr: 1, subnr: 1 });
    assert!(vars.predicate_var(Slot::Pred, 1).is_ok());
    assert!(matches!(
        vars.predicate_var(Slot::Pred, 0),
        Err(VisaError::Predicate { id: 0, .. })
    ));
    assert!(matches!(
        vars.predicate_var(Slot::Pred, 2),
        Err(VisaError::UnknownVariable {
            kind: VarKind::Predicate,
            ..
        })
    ));
    vars.add_predicate(32, FlagReg { nr: 0, subnr: 1 });
    assert!(matches!(
        vars.predicate_var(Slot::Pred, 2),
        Err(VisaError::BadVariable { .. })
    ));
}

#[test]
fn other_classes_are_refused_as_alu_operands() {
    let vars = table();
    let state = VecOperand::from(OperandKind::State(StateOperand {
        class: StateClass::Surface,
        id: 0,
        offset: 0,
    }));
    for op in [state, VecOperand::pred(1)] {
        assert!(matches!(
            lower_src(Platform::Gen8, &vars, ExecSize::S8, &op),
            Err(VisaError::OperandClass { .. })
        ));
    }
    // Reading the null variable.
    assert!(matches!(
        lower_src(Platform::Gen8, &vars, ExecSize::S1, &gen(3, 0, 0, 0, 1, 0)),
        Err(VisaError::OperandClass { .. })
    ));
}
