//! Round trips and reserved values of the vISA operand formats.

use geneu::visa::*;
use geneu::ExecSize;
use proptest::prelude::*;

fn region(v: u8, w: u8, h: u8) -> VisaRegion {
    VisaRegion {
        vstride: RegionVal::from_bits(v).unwrap(),
        width: RegionVal::from_bits(w).unwrap(),
        hstride: RegionVal::from_bits(h).unwrap(),
    }
}

#[test]
fn gen_opnd_bytes_match_the_spec_layout() {
    // V33(1,2)<8;4,2>, negated.
    let op = VecOperand::general(33, 1, 2, VisaRegion::new(Some(8), 4, 2).unwrap()).with_modifier(Modifier::Neg);
    let b = op.to_bytes().unwrap();
    // tag: class 000, modifier 010 in bits 3-5.
    assert_eq!(b[0], 0b0001_0000);
    assert_eq!(&b[1..5], &33u32.to_le_bytes());
    assert_eq!(b[5], 1);
    assert_eq!(b[6], 2);
    // region: vstride 8 -> 0101 (bits 0-3), width 4 -> 0100 (bits 4-7), hstride 2 -> 0011 (bits 8-11).
    assert_eq!(u16::from_le_bytes([b[7], b[8]]), 0x0345);
    assert_eq!(b.len(), 9);
    assert_eq!(VecOperand::parse(&b).unwrap(), (op, 9));
}

#[test]
fn region_encodings_cover_null_and_zero_to_32() {
    let expect = [None, Some(0), Some(1), Some(2), Some(4), Some(8), Some(16), Some(32)];
    for (bits, want) in expect.iter().enumerate() {
        let r = RegionVal::from_bits(bits as u8).unwrap();
        assert_eq!(r.elems(), *want);
        assert_eq!(r as u8, bits as u8);
        if let Some(n) = want {
            assert_eq!(RegionVal::from_elems(*n), Some(r));
        }
    }
    for bits in 8..16 {
        assert_eq!(RegionVal::from_bits(bits), None);
    }
    assert_eq!(RegionVal::from_elems(3), None);
}

#[test]
fn pred_uw_layout() {
    let p = PredCtl {
        id: 0x123,
        combine: PredCombine::All,
        inverse: true,
    };
    let uw = p.to_uw().unwrap();
    assert_eq!(uw, 0x123 | 2 << 13 | 1 << 15);
    assert_eq!(PredCtl::from_uw(uw).unwrap(), p);
    assert_eq!(PredCtl::from_inst_uw(0).unwrap(), None);
    // Bit 12 is reserved; combine 11 is reserved.
    assert_eq!(
        PredCtl::from_uw(1 << 12).unwrap_err(),
        VisaError::Reserved {
            field: "pred.reserved",
            value: 1
        }
    );
    assert_eq!(
        PredCtl::from_uw(3 << 13 | 5).unwrap_err(),
        VisaError::Reserved {
            field: "pred.combine",
            value: 3
        }
    );
    let too_big = PredCtl::new(4096).to_uw().unwrap_err();
    assert!(matches!(too_big, VisaError::TooLarge { field: "pred.id", .. }));
}

#[test]
fn exec_size_byte() {
    for (bits, size) in [(0u8, 1u32), (1, 2), (2, 4), (3, 8), (4, 16), (5, 32)] {
        for mask in 0u8..16 {
            let e = ExecCtl::from_byte(bits | mask << 4).unwrap();
            assert_eq!(e.size.channels(), size);
            assert_eq!(e.mask.index, mask & 7);
            assert_eq!(e.mask.no_mask, mask >= 8);
            assert_eq!(e.mask.offset(), u32::from(mask & 7) * 4);
            assert_eq!(e.to_byte(), bits | mask << 4);
        }
    }
    for bad in [6u8, 7] {
        let err = ExecCtl::from_byte(bad).unwrap_err();
        assert_eq!(
            err,
            VisaError::Reserved {
                field: "exec_size.size",
                value: bad.into()
            }
        );
    }
    assert_eq!(
        ExecCtl::from_byte(0x08).unwrap_err(),
        VisaError::Reserved {
            field: "exec_size.reserved",
            value: 1
        }
    );
    assert_eq!(MaskCtl::m(3, true).unwrap().to_string(), "M3_NM");
    assert_eq!(MaskCtl::m(0, false), None);
    assert_eq!(MaskCtl::m(9, false), None);
}

#[test]
fn const_opnd_has_high_only_for_64bit_types() {
    for ty in VisaType::ALL {
        let imm = Immediate {
            ty,
            value: if ty.is_64bit() {
                0x1122_3344_5566_7788
            } else {
                0x5566_7788
            },
        };
        let b = VecOperand::imm(imm).to_bytes().unwrap();
        assert_eq!(b[0], 5, "tag of an immediate");
        assert_eq!(b[1], ty.bits());
        assert_eq!(
            b.len(),
            if matches!(ty, VisaType::DF | VisaType::Q | VisaType::UQ) {
                10
            } else {
                6
            }
        );
        assert_eq!(VecOperand::parse(&b).unwrap().0, VecOperand::imm(imm));
    }
    let bad = VecOperand::imm(Immediate {
        ty: VisaType::F,
        value: 1 << 40,
    });
    assert!(matches!(
        bad.to_bytes(),
        Err(VisaError::TooLarge {
            field: "const_opnd.high",
            ..
        })
    ));
}

#[test]
fn every_class_round_trips() {
    let ops = [
        VecOperand::general(7, 0, 3, region(4, 3, 2)),
        VecOperand::from(OperandKind::Address(AddrOperand {
            id: 2,
            offset: 1,
            width: ExecSize::S4,
        })),
        VecOperand::from(OperandKind::Predicate(PredCtl {
            id: 9,
            combine: PredCombine::Any,
            inverse: false,
        })),
        VecOperand::from(OperandKind::Indirect(IndirectOperand {
            addr: 3,
            addr_offset: 2,
            offset: -512,
            ty: VisaType::W,
            region: region(0, 3, 2),
        }))
        .with_modifier(Modifier::Abs),
        VecOperand::imm(Immediate::df(1.5)),
        VecOperand::from(OperandKind::State(StateOperand {
            class: StateClass::Sampler,
            id: 300,
            offset: 4,
        })),
    ];
    let sizes = [9, 5, 3, 9, 10, 5];
    for (op, n) in ops.iter().zip(sizes) {
        let b = op.to_bytes().unwrap();
        assert_eq!(b.len(), n, "{op:?}");
        let (back, used) = VecOperand::parse(&b).unwrap();
        assert_eq!(&back, op);
        assert_eq!(used, n);
        // A truncated operand is refused, naming what was being read.
        for cut in 0..n {
            assert!(matches!(VecOperand::parse(&b[..cut]), Err(VisaError::Truncated { .. })));
        }
    }
}

#[test]
fn reserved_values_name_their_field() {
    let cases: &[(&[u8], &str, u32)] = &[
        (&[0x04], "vec_operand.tag.operand_class", 4),
        (&[0x07], "vec_operand.tag.operand_class", 7),
        (&[0x30], "vec_operand.tag.modifiers", 6),
        (&[0x38], "vec_operand.tag.modifiers", 7),
        (&[0x40], "vec_operand.tag.reserved", 1),
        (&[0, 1, 0, 0, 0, 0, 0, 0x08, 0x00], "gen_opnd.region.vertical_stride", 8),
        (&[0, 1, 0, 0, 0, 0, 0, 0x90, 0x00], "gen_opnd.region.width", 9),
        (
            &[0, 1, 0, 0, 0, 0, 0, 0x00, 0x0f],
            "gen_opnd.region.horizontal_stride",
            15,
        ),
        (&[0, 1, 0, 0, 0, 0, 0, 0x00, 0x10], "gen_opnd.region.reserved", 1),
        (&[1, 0, 0, 0, 5], "addr_opnd.width", 5),
        (&[1, 0, 0, 0, 0x13], "addr_opnd.width", 0x13),
        (&[2, 0x00, 0x10], "pred.reserved", 1),
        (
            &[3, 0, 0, 0, 0, 0, 0x12, 0, 0],
            "indirect_opnd.bit_properties.reserved",
            1,
        ),
        (
            &[3, 0, 0, 0, 0, 0, 0x02, 0x0a, 0x00],
            "indirect_opnd.region.vertical_stride",
            10,
        ),
        (&[5, 0x20, 0, 0, 0, 0], "const_opnd.type.reserved", 2),
        (&[6, 2, 0, 0, 0], "state_opnd.class", 2),
        (&[6, 4, 0, 0, 0], "state_opnd.class.reserved", 1),
    ];
    for (bytes, field, value) in cases {
        let err = VecOperand::parse(bytes).unwrap_err();
        assert_eq!(err, VisaError::Reserved { field, value: *value }, "{bytes:02x?}");
        assert!(err.to_string().contains(field));
    }
}

#[test]
fn modifiers_only_on_general_and_indirect() {
    // Immediate with a negate modifier.
    let err = VecOperand::parse(&[5 | 2 << 3, 7, 0, 0, 0x80, 0x3f]).unwrap_err();
    assert!(matches!(err, VisaError::Modifier { .. }), "{err}");
    let op = VecOperand::pred(3).with_modifier(Modifier::Not);
    assert!(matches!(op.to_bytes(), Err(VisaError::Modifier { .. })));
}

#[test]
fn raw_operand_round_trip_and_from_vec() {
    let raw = RawOperand { id: 40, offset: 64 };
    let mut b = Vec::new();
    raw.write(&mut b);
    assert_eq!(b, [40, 0, 0, 0, 64, 0]);
    assert_eq!(RawOperand::parse(&b).unwrap(), (raw, 6));
    assert!(matches!(RawOperand::parse(&b[..5]), Err(VisaError::Truncated { .. })));

    let v = VecOperand::general(40, 2, 0, VisaRegion::new(Some(8), 8, 1).unwrap());
    assert_eq!(RawOperand::from_vec(&v, 4, Slot::Raw("U")).unwrap(), raw);
    let err = RawOperand::from_vec(&v.with_modifier(Modifier::Abs), 4, Slot::Raw("U")).unwrap_err();
    assert!(
        matches!(
            err,
            VisaError::Modifier {
                slot: Slot::Raw("U"),
                ..
            }
        ),
        "{err}"
    );
    let strided = VecOperand::general(40, 0, 0, VisaRegion::new(Some(16), 8, 2).unwrap());
    assert!(matches!(
        RawOperand::from_vec(&strided, 4, Slot::Raw("U")),
        Err(VisaError::IllegalRegion { .. })
    ));
}

fn arb_region() -> impl Strategy<Value = VisaRegion> {
    (0u8..8, 0u8..8, 0u8..8).prop_map(|(v, w, h)| region(v, w, h))
}

fn arb_type() -> impl Strategy<Value = VisaType> {
    (0u8..16).prop_map(VisaType::from_bits)
}

fn arb_pred() -> impl Strategy<Value = PredCtl> {
    (0u16..4096, 0u8..3, any::<bool>()).prop_map(|(id, c, inverse)| PredCtl {
        id,
        combine: [PredCombine::Sequential, PredCombine::Any, PredCombine::All][c as usize],
        inverse,
    })
}

fn arb_operand() -> impl Strategy<Value = VecOperand> {
    let modifier = (0u8..6).prop_map(|m| Modifier::from_bits(m).unwrap());
    let general = (any::<u32>(), any::<u8>(), any::<u8>(), arb_region(), modifier.clone())
        .prop_map(|(id, row, col, r, m)| VecOperand::general(id, row, col, r).with_modifier(m));
    let address = (any::<u16>(), any::<u8>(), 0u8..5).prop_map(|(id, offset, w)| {
        VecOperand::from(OperandKind::Address(AddrOperand {
            id,
            offset,
            width: ExecSize::from_hw(w).unwrap(),
        }))
    });
    let pred = arb_pred().prop_map(|p| VecOperand::from(OperandKind::Predicate(p)));
    let indirect = (
        any::<u16>(),
        any::<u8>(),
        any::<i16>(),
        arb_type(),
        arb_region(),
        modifier,
    )
        .prop_map(|(addr, addr_offset, offset, ty, region, m)| {
            VecOperand::from(OperandKind::Indirect(IndirectOperand {
                addr,
                addr_offset,
                offset,
                ty,
                region,
            }))
            .with_modifier(m)
        });
    let imm = (arb_type(), any::<u64>()).prop_map(|(ty, v)| {
        VecOperand::imm(Immediate {
            ty,
            value: if ty.is_64bit() { v } else { v & 0xffff_ffff },
        })
    });
    let state = (any::<bool>(), any::<u16>(), any::<u8>()).prop_map(|(s, id, offset)| {
        VecOperand::from(OperandKind::State(StateOperand {
            class: if s { StateClass::Sampler } else { StateClass::Surface },
            id,
            offset,
        }))
    });
    prop_oneof![general, address, pred, indirect, imm, state]
}

proptest! {
    #[test]
    fn typed_operands_round_trip(op in arb_operand()) {
        let b = op.to_bytes().unwrap();
        let (back, used) = VecOperand::parse(&b).unwrap();
        prop_assert_eq!(back, op);
        prop_assert_eq!(used, b.len());
    }

    #[test]
    fn parsed_bytes_write_back_identically(bytes in proptest::collection::vec(any::<u8>(), 0..16)) {
        if let Ok((op, used)) = VecOperand::parse(&bytes) {
            prop_assert_eq!(op.to_bytes().unwrap(), bytes[..used].to_vec());
        }
    }

    #[test]
    fn regions_and_preds_round_trip(uw in any::<u16>()) {
        if let Ok(r) = VisaRegion::from_uw(uw) {
            prop_assert_eq!(r.to_uw(), uw);
        }
        if let Ok(p) = PredCtl::from_uw(uw) {
            prop_assert_eq!(p.to_uw().unwrap(), uw);
        }
    }

    #[test]
    fn exec_bytes_round_trip(b in any::<u8>()) {
        if let Ok(e) = ExecCtl::from_byte(b) {
            prop_assert_eq!(e.to_byte(), b);
        }
    }
}
