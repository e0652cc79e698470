//! DF: pair channels on Ivy Bridge (SIMD4, SIMD8, the SIMD16 split, masks,
//! immediates through a temporary), native DF on Haswell and Gen8, and
//! Cherryview's 64-bit restrictions. Words are decoded back and checked
//! field by field.

mod visa_common;

use geneu::visa::*;
use geneu::*;
use visa_common::*;

fn vars() -> VarTable {
    let mut v = VarTable::new();
    v.add_general(VisaType::DF, 16, 10 * 32); // V0: g10-g13
    v.add_general(VisaType::DF, 16, 20 * 32); // V1: g20-g23
    v.add_general(VisaType::DF, 16, 30 * 32); // V2: g30-g33
    v.add_general(VisaType::F, 16, 40 * 32); // V3: g40-g41
    v.add_general(VisaType::D, 16, 50 * 32); // V4: g50-g51
    v.add_predicate(32, FlagReg { nr: 0, subnr: 0 }); // P1
    v
}

fn ctx() -> LowerCtx {
    LowerCtx {
        temp_grf: Some(100),
        scratch_flag: Some(FlagReg { nr: 1, subnr: 1 }),
        ..LowerCtx::default()
    }
}

fn add(e: ExecCtl, a: VecOperand, b: VecOperand) -> VisaInst {
    VisaInst::new(VisaOp::Add, e, dst(2, 0, 0, 1), &[a, b])
}

/// Decodes the word of `i` and returns it, after checking it is `i`.
fn word(p: Platform, i: &Instruction) -> Instruction {
    let d = decode(p, &encode(p, i).unwrap()).unwrap();
    assert_eq!(&d, i);
    d
}

fn grf(nr: u8, subnr: u8) -> Addr {
    Addr::Direct { nr, subnr }
}

#[test]
fn ivb_simd4_df_doubles_exec_size_width_and_vertical_stride() {
    let p = Platform::Gen7;
    let out = lower_ok(
        p,
        &vars(),
        &ctx(),
        &add(exec(4), gen(0, 0, 0, 4, 4, 1), gen(1, 0, 0, 4, 4, 1)),
    );
    assert_eq!(out.len(), 1);
    let i = word(p, &out[0]);
    assert_eq!(i.opcode, Opcode::Add);
    assert_eq!(i.exec_size, ExecSize::S8, "4 DF channels are 8 float channels");
    assert_eq!((i.qtr_control, i.controls.contains(Controls::NIB_CTRL)), (0, false));
    assert_eq!((i.dst.ty, i.dst.addr, i.dst.hstride), (Type::DF, grf(30, 0), 1));
    for (s, nr) in i.src[..2].iter().zip([10, 20]) {
        assert_eq!((s.ty, s.addr), (Type::DF, grf(nr, 0)));
        assert_eq!(
            s.region,
            Region::new(8, 8, 1).unwrap(),
            "<4;4,1> in DF is <8;8,1> in floats"
        );
    }
}

/// The instructions of `out` that spread a predicate into pairs of flag
/// bits come first: two moves into the temporary GRF, then compares.
fn split_spread(out: &[Instruction]) -> (&[Instruction], &[Instruction]) {
    let n = out.iter().position(|i| i.opcode == Opcode::Add).unwrap();
    out.split_at(n)
}

/// The hardware channels an instruction covers: quarter and nibble control
/// give the first, the execution size the count.
fn hw_channels(i: &Instruction) -> core::ops::Range<u32> {
    let first = 8 * u32::from(i.qtr_control) + if i.controls.contains(Controls::NIB_CTRL) { 4 } else { 0 };
    first..first + i.exec_size.channels()
}

#[test]
fn ivb_df_channel_groups_count_pairs() {
    // Each DF channel takes a pair of the 32 hardware channels (IVB PRM,
    // "Each DF operand uses a pair of channels"): vISA channel c is
    // hardware channels 2c and 2c+1, of the execution mask and the flag.
    let p = Platform::Gen7;
    // (SIMD, mask control, hardware channels)
    for (n, m, want) in [
        (4u32, 1u8, 0..8),
        (4, 2, 8..16),
        (4, 3, 16..24),
        (4, 4, 24..32),
        (8, 3, 16..32),
    ] {
        for nm in [false, true] {
            let inst = add(exec_m(n, m, nm), gen(0, 0, 0, 4, 4, 1), gen(1, 0, 0, 4, 4, 1));
            let out = lower_ok(p, &vars(), &ctx(), &inst);
            assert_eq!(out.len(), 1);
            let i = word(p, &out[0]);
            assert_eq!(hw_channels(&i), want, "SIMD{n} M{m}");
            assert_eq!(i.controls.contains(Controls::WE_ALL), nm);
        }
    }
    // Channels 16 and up would be hardware channels 32 and up.
    for (n, m) in [(4u32, 5u8), (4, 8), (8, 5), (16, 5)] {
        let inst = add(exec_m(n, m, false), gen(0, 0, 0, 4, 4, 1), gen(1, 0, 0, 4, 4, 1));
        let err = lower(p, &vars(), &ctx(), &inst).unwrap_err();
        assert!(matches!(err, VisaError::Unsupported { .. }), "SIMD{n} M{m}: {err}");
    }
}

#[test]
fn ivb_df_predicate_is_spread_into_pairs_of_flag_bits() {
    let p = Platform::Gen7;
    let vars = vars();
    // SIMD4 at M2: elements 4..7 of P1 (f0) are read by hardware channels
    // 8..15; the spread puts element c in bits 2c and 2c+1 of a scratch
    // flag subregister (f1.1 holds 16 + 8..16 + 16, within f1).
    let inst = add(exec_m(4, 2, false), gen(0, 0, 0, 4, 4, 1), gen(1, 0, 0, 4, 4, 1)).with_pred(PredCtl {
        id: 1,
        combine: PredCombine::Sequential,
        inverse: true,
    });
    let out = lower_ok(p, &vars, &ctx(), &inst);
    let (spread, op) = split_spread(&out);
    assert_eq!(op.len(), 1);
    let i = word(p, &op[0]);
    assert_eq!(hw_channels(&i), 8..16);
    assert_eq!((i.pred_control, i.flag), (1, FlagReg { nr: 1, subnr: 1 }));
    assert!(
        i.controls.contains(Controls::PRED_INV),
        "the inverse reads both bits of a pair"
    );
    // The moves copy elements 4..7 of P1 into words 0..3 of the temporary.
    let [zero, copy, cmp] = spread else {
        panic!("{spread:?}")
    };
    for (mv, value) in [(zero, 0u64), (copy, 0x0001_0001)] {
        let mv = word(p, mv);
        assert_eq!((mv.opcode, hw_channels(&mv)), (Opcode::Mov, 4..8));
        assert!(mv.controls.contains(Controls::WE_ALL));
        assert_eq!((mv.dst.addr, mv.dst.ty, mv.imm), (grf(100, 0), Type::UW, value));
    }
    assert_eq!((copy.pred_control, copy.flag), (1, FlagReg { nr: 0, subnr: 0 }));
    assert!(!copy.controls.contains(Controls::PRED_INV));
    // The compare writes hardware channels 8..15 of f1.1, channel h from
    // word h / 2 (<1;2,0>).
    let cmp = word(p, cmp);
    assert_eq!(cmp.cond_mod(), Some(CondMod::Nz));
    assert_eq!((hw_channels(&cmp), cmp.flag), (8..16, FlagReg { nr: 1, subnr: 1 }));
    assert!(cmp.controls.contains(Controls::WE_ALL));
    assert_eq!(
        (cmp.src[0].addr, cmp.src[0].region),
        (grf(100, 0), Region::new(1, 2, 0).unwrap())
    );
    // Without a temporary GRF or a scratch flag there is nowhere to spread.
    for ctx in [
        LowerCtx {
            temp_grf: None,
            ..ctx()
        },
        LowerCtx {
            scratch_flag: None,
            ..ctx()
        },
    ] {
        let err = lower(p, &vars, &ctx, &inst).unwrap_err();
        assert!(matches!(err, VisaError::NeedScratch { .. }), "{err}");
    }
}

#[test]
fn ivb_simd8_df_is_one_sixteen_channel_instruction() {
    let p = Platform::Gen7;
    let out = lower_ok(
        p,
        &vars(),
        &ctx(),
        &add(exec(8), gen(0, 0, 0, 4, 4, 1), gen(1, 0, 0, 4, 4, 1)),
    );
    assert_eq!(out.len(), 1);
    let i = word(p, &out[0]);
    assert_eq!(i.exec_size, ExecSize::S16);
    assert_eq!(i.qtr_control, 0);
    assert_eq!(i.dst.addr, grf(30, 0));
    assert_eq!(i.src[0].region, Region::new(8, 8, 1).unwrap());
    assert_eq!(i.src[1].addr, grf(20, 0));
}

#[test]
fn ivb_simd16_df_splits_into_two_simd8_halves() {
    let p = Platform::Gen7;
    let inst = add(exec(16), gen(0, 0, 0, 4, 4, 1), gen(1, 0, 0, 4, 4, 1)).with_pred(PredCtl::new(1));
    let out = lower_ok(p, &vars(), &ctx(), &inst);
    let (spread, op) = split_spread(&out);
    // 32 hardware channels of flag bits: two SIMD16 compares (Gen7 runs no
    // 32-channel conditional modifier), writing all of f1 through f1.0.
    let cmps: Vec<_> = spread.iter().filter(|i| i.opcode == Opcode::Cmp).collect();
    assert_eq!(cmps.len(), 2);
    for (h, c) in cmps.iter().enumerate() {
        assert_eq!(hw_channels(c), 16 * h as u32..16 * h as u32 + 16);
        assert_eq!(c.flag, FlagReg { nr: 1, subnr: 0 });
        // Channel 16h + j reads word 8h + j / 2.
        assert_eq!(c.src[0].addr, grf(100, 16 * h as u8));
    }
    assert_eq!(op.len(), 2);
    for (h, i) in op.iter().enumerate() {
        let i = word(p, i);
        let h = h as u8;
        assert_eq!(i.exec_size, ExecSize::S16, "each half: 8 DF = 16 float channels");
        assert_eq!(
            hw_channels(&i),
            16 * u32::from(h)..16 * u32::from(h) + 16,
            "pairs of DF channels 8h..8h+7"
        );
        assert_eq!((i.pred_control, i.flag), (1, FlagReg { nr: 1, subnr: 0 }));
        // The second half starts 8 DF = 64 bytes = 2 GRFs further.
        assert_eq!(i.dst.addr, grf(30 + 2 * h, 0));
        assert_eq!(i.src[0].addr, grf(10 + 2 * h, 0));
        assert_eq!(i.src[1].addr, grf(20 + 2 * h, 0));
        assert_eq!(i.src[0].region, Region::new(8, 8, 1).unwrap());
    }
}

#[test]
fn ivb_df_scalars_and_strides_in_pairs() {
    let p = Platform::Gen7;
    let vars = vars();
    // A scalar DF is one pair of floats, <0;2,1>.
    let inst = VisaInst::new(
        VisaOp::Mul,
        exec(4),
        dst(2, 0, 0, 1),
        &[gen(0, 0, 0, 4, 4, 1), gen(1, 0, 2, 0, 1, 0)],
    );
    let i = word(p, &lower_ok(p, &vars, &ctx(), &inst)[0]);
    assert_eq!(i.src[1].addr, grf(20, 16));
    assert_eq!(i.src[1].region, Region::new(0, 2, 1).unwrap());
    // One DF channel: two float channels reading one pair, <2;2,1>.
    let inst = VisaInst::new(VisaOp::Mov, exec(1), dst(2, 0, 1, 1), &[gen(0, 0, 3, 0, 1, 0)]);
    let i = word(p, &lower_ok(p, &vars, &ctx(), &inst)[0]);
    assert_eq!(i.exec_size, ExecSize::S2);
    assert_eq!((i.dst.addr, i.src[0].addr), (grf(30, 8), grf(10, 24)));
    assert_eq!(i.src[0].region, Region::new(2, 2, 1).unwrap());
    // Every other DF: rows of one pair, <4;2,1>.
    let inst = VisaInst::new(VisaOp::Mov, exec(4), dst(2, 0, 0, 1), &[gen(0, 0, 0, 8, 4, 2)]);
    let i = word(p, &lower_ok(p, &vars, &ctx(), &inst)[0]);
    assert_eq!(i.src[0].region, Region::new(4, 2, 1).unwrap());
    // A strided DF destination cannot be written in pairs.
    let inst = VisaInst::new(VisaOp::Mov, exec(4), dst(2, 0, 0, 2), &[gen(0, 0, 0, 4, 4, 1)]);
    let err = lower(p, &vars, &ctx(), &inst).unwrap_err();
    assert!(matches!(err, VisaError::IllegalRegion { slot: Slot::Dst, .. }), "{err}");
    // Conversions are not pair-channel operations.
    let inst = VisaInst::new(VisaOp::Mov, exec(4), dst(2, 0, 0, 1), &[gen(3, 0, 0, 4, 4, 1)]);
    assert!(matches!(
        lower(p, &vars, &ctx(), &inst),
        Err(VisaError::Unsupported { .. })
    ));
}

#[test]
fn ivb_df_immediate_goes_through_32_bit_moves() {
    let p = Platform::Gen7;
    let v = 1.5f64.to_bits();
    let inst = add(exec(4), gen(0, 0, 0, 4, 4, 1), VecOperand::imm(Immediate::df(1.5)));
    let out = lower_ok(p, &vars(), &ctx(), &inst);
    assert_eq!(out.len(), 3);
    for (k, half) in [(0usize, v & 0xffff_ffff), (1, v >> 32)] {
        let i = word(p, &out[k]);
        assert_eq!((i.opcode, i.exec_size), (Opcode::Mov, ExecSize::S1));
        assert!(i.controls.contains(Controls::WE_ALL));
        assert_eq!(i.pred_control, 0);
        assert_eq!((i.dst.ty, i.dst.addr), (Type::UD, grf(100, 4 * k as u8)));
        assert_eq!((i.src[0].file, i.src[0].ty), (RegFile::Imm, Type::UD));
        assert_eq!(i.imm, half);
    }
    let i = word(p, &out[2]);
    assert_eq!((i.opcode, i.exec_size), (Opcode::Add, ExecSize::S8));
    assert_eq!(
        (i.src[1].file, i.src[1].ty, i.src[1].addr),
        (RegFile::Grf, Type::DF, grf(100, 0))
    );
    assert_eq!(i.src[1].region, Region::new(0, 2, 1).unwrap());
    // Without a temporary the lowering says what it needs.
    let err = lower(p, &vars(), &LowerCtx::default(), &inst).unwrap_err();
    assert!(matches!(err, VisaError::NeedScratch { .. }), "{err}");
    // A DF move of an immediate needs it too on Gen7.
    let mv = VisaInst::new(
        VisaOp::Mov,
        exec(8),
        dst(2, 0, 0, 1),
        &[VecOperand::imm(Immediate::df(-0.5))],
    );
    let out = lower_ok(p, &vars(), &ctx(), &mv);
    assert_eq!(out.len(), 3);
    assert_eq!(out[2].exec_size, ExecSize::S16);
}

#[test]
fn haswell_df_is_native_but_has_no_64_bit_immediates() {
    let p = Platform::Gen75;
    let out = lower_ok(
        p,
        &vars(),
        &ctx(),
        &add(exec(8), gen(0, 0, 0, 4, 4, 1), gen(1, 0, 0, 4, 4, 1)),
    );
    assert_eq!(out.len(), 1);
    let i = word(p, &out[0]);
    assert_eq!(i.exec_size, ExecSize::S8);
    assert_eq!(i.src[0].region, Region::new(4, 4, 1).unwrap());
    let inst = add(exec(4), gen(0, 0, 0, 4, 4, 1), VecOperand::imm(Immediate::df(1.5)));
    let out = lower_ok(p, &vars(), &ctx(), &inst);
    assert_eq!(out.len(), 3);
    assert_eq!((out[0].dst.ty, out[1].dst.ty), (Type::UD, Type::UD));
    assert_eq!(out[2].exec_size, ExecSize::S4);
    assert_eq!(out[2].src[1].region, Region::SCALAR);
}

#[test]
fn gen8_df_is_native_with_64_bit_immediates() {
    let p = Platform::Gen8;
    let out = lower_ok(
        p,
        &vars(),
        &ctx(),
        &add(exec(8), gen(0, 0, 0, 4, 4, 1), gen(1, 0, 0, 4, 4, 1)),
    );
    assert_eq!(out.len(), 1);
    let i = word(p, &out[0]);
    assert_eq!((i.exec_size, i.dst.ty, i.dst.hstride), (ExecSize::S8, Type::DF, 1));
    assert_eq!(i.src[0].region, Region::new(4, 4, 1).unwrap());
    // SIMD16 DF spans four GRFs per operand: two halves.
    let out = lower_ok(
        p,
        &vars(),
        &ctx(),
        &add(exec(16), gen(0, 0, 0, 4, 4, 1), gen(1, 0, 0, 4, 4, 1)),
    );
    assert_eq!(out.len(), 2);
    assert_eq!(
        (out[1].qtr_control, out[1].dst.addr, out[1].src[0].addr),
        (1, grf(32, 0), grf(12, 0))
    );
    // A one-source move takes the 64-bit immediate directly.
    let mv = VisaInst::new(
        VisaOp::Mov,
        exec(8),
        dst(2, 0, 0, 1),
        &[VecOperand::imm(Immediate::df(2.5))],
    );
    let out = lower_ok(p, &vars(), &ctx(), &mv);
    assert_eq!(out.len(), 1);
    let i = word(p, &out[0]);
    assert_eq!(
        (i.src[0].file, i.src[0].ty, i.imm),
        (RegFile::Imm, Type::DF, 2.5f64.to_bits())
    );
    // A two-source instruction has no room for it: one move to the temporary.
    let out = lower_ok(
        p,
        &vars(),
        &ctx(),
        &add(exec(8), gen(0, 0, 0, 4, 4, 1), VecOperand::imm(Immediate::df(2.5))),
    );
    assert_eq!(out.len(), 2);
    let t = word(p, &out[0]);
    assert_eq!(
        (t.exec_size, t.dst.ty, t.dst.addr, t.imm),
        (ExecSize::S1, Type::DF, grf(100, 0), 2.5f64.to_bits())
    );
    assert_eq!(
        (out[1].src[1].addr, out[1].src[1].region),
        (grf(100, 0), Region::SCALAR)
    );
}

#[test]
fn chv_picks_legal_64_bit_regions_or_says_why_not() {
    let p = Platform::Chv;
    let vars = vars();
    // Aligned, contiguous: legal as is.
    let out = lower_ok(
        p,
        &vars,
        &ctx(),
        &add(exec(8), gen(0, 0, 0, 4, 4, 1), gen(1, 0, 0, 4, 4, 1)),
    );
    assert_eq!(out.len(), 1);
    // A stride-2 source written as <2;1,0> becomes <4;2,2> (VertStride =
    // Width × HorzStride) for a stride-2 destination.
    let inst = VisaInst::new(VisaOp::Mov, exec(4), dst(2, 0, 0, 2), &[gen(0, 0, 0, 2, 1, 0)]);
    let i = word(p, &lower_ok(p, &vars, &ctx(), &inst)[0]);
    assert_eq!(i.src[0].region, Region::new(4, 2, 2).unwrap());
    assert_eq!(i.dst.hstride, 2);
    // F to DF with the float source at a qword stride is legal; the 64-byte
    // row <16;8,2>F is cut into rows that each stay inside one register.
    let inst = VisaInst::new(VisaOp::Mov, exec(8), dst(2, 0, 0, 1), &[gen(3, 0, 0, 16, 8, 2)]);
    let out = lower_ok(p, &vars, &ctx(), &inst);
    assert_eq!(out.len(), 1);
    let i = word(p, &out[0]);
    assert_eq!((i.src[0].ty, i.src[0].region), (Type::F, Region::new(8, 4, 2).unwrap()));
    // Scalars are exempt.
    lower_ok(
        p,
        &vars,
        &ctx(),
        &add(exec(4), gen(0, 0, 0, 4, 4, 1), gen(1, 1, 3, 0, 1, 0)),
    );

    let chv_err = |inst: &VisaInst, what: &str| {
        let err = lower(p, &vars, &ctx(), inst).unwrap_err();
        assert!(matches!(err, VisaError::Chv64 { .. }), "{err}");
        assert!(err.to_string().contains(what), "{err}");
        // Gen8 takes the same instruction.
        lower_ok(Platform::Gen8, &vars, &ctx(), inst);
    };
    // Different offsets in the register.
    chv_err(
        &add(exec(2), gen(0, 0, 0, 2, 2, 1), gen(1, 0, 1, 2, 2, 1)),
        "same register offset",
    );
    // A contiguous float source is a dword stride.
    chv_err(
        &VisaInst::new(VisaOp::Mov, exec(8), dst(2, 0, 0, 1), &[gen(3, 0, 0, 8, 8, 1)]),
        "multiple of 8 bytes",
    );
    // Source and destination strides differ.
    chv_err(
        &VisaInst::new(VisaOp::Mov, exec(4), dst(2, 0, 0, 1), &[gen(0, 0, 0, 8, 4, 2)]),
        "strides must be equal",
    );
    // A true 2-D region.
    chv_err(
        &VisaInst::new(VisaOp::Mov, exec(8), dst(2, 0, 0, 1), &[gen(0, 0, 0, 4, 2, 1)]),
        "1-D",
    );
    // Integer dword multiply counts as 64-bit on Cherryview.
    let mul = VisaInst::new(
        VisaOp::Mul,
        exec(8),
        dst(4, 0, 0, 1),
        &[gen(4, 0, 0, 8, 8, 1), gen(4, 1, 0, 8, 8, 1)],
    );
    chv_err(&mul, "multiple of 8 bytes");
}

#[test]
fn df_compare_into_a_predicate() {
    let vars = vars();
    let cmp = VisaInst::new(
        VisaOp::Cmp(RelOp::Lt),
        exec(8),
        VecOperand::pred(1),
        &[gen(0, 0, 0, 4, 4, 1), gen(1, 0, 0, 4, 4, 1)],
    );
    // Ivy Bridge writes a pair of flag bits per DF channel where the
    // predicate holds one: refused.
    let err = lower(Platform::Gen7, &vars, &ctx(), &cmp).unwrap_err();
    assert!(matches!(err, VisaError::Unsupported { .. }), "{err}");
    for p in Platform::ALL.into_iter().filter(|&p| p != Platform::Gen7) {
        let out = lower_ok(p, &vars, &ctx(), &cmp);
        assert_eq!(out.len(), 1);
        let i = word(p, &out[0]);
        assert_eq!(i.cond_mod(), Some(CondMod::L));
        assert_eq!(i.flag, FlagReg::default());
        assert_eq!((i.dst.file, i.dst.ty), (RegFile::Arf, Type::DF));
        let hw = if p == Platform::Gen7 {
            ExecSize::S16
        } else {
            ExecSize::S8
        };
        assert_eq!(i.exec_size, hw);
    }
}
