//! DF: Ivy Bridge (regions in pairs of floats, SIMD4 parts at the vISA
//! channel group under the execution mask, NoMask SIMD8, predicates,
//! immediates through a temporary), native DF on Haswell and Gen8, and
//! Cherryview's 64-bit restrictions. Words are decoded back and checked
//! field by field.

use crate::visa_common;

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

/// The channel group of an instruction (quarter and nibble control), and
/// its channel count: on Ivy Bridge DF, its DF channels (half the encoded
/// execution size), which take the execution-mask and flag bits from the
/// group on.
fn group(p: Platform, i: &Instruction) -> core::ops::Range<u32> {
    let first = 8 * u32::from(i.qtr_control) + if i.controls.contains(Controls::NIB_CTRL) { 4 } else { 0 };
    let n = i.exec_size.channels();
    let df = p == Platform::Gen7 && i.dst.ty == Type::DF && n >= 2;
    first..first + if df { n / 2 } else { n }
}

#[test]
fn ivb_df_parts_start_at_the_visa_channel_group() {
    // Mesa's IVB DF: under the execution mask, SIMD4 parts (elk
    // get_fpu_lowered_simd_width), each encoded with its ExecSize doubled
    // and the quarter and nibble control of its logical channel group
    // (elk_fs_generator), so vISA channel c is execution-mask bit c, as
    // for 32-bit code, up to channel 31. NoMask DF runs 8 channels a word.
    let p = Platform::Gen7;
    // (SIMD, mask control, NoMask, DF channels a part, the parts' first
    // channels)
    let cases: [(u32, u8, bool, u32, &[u32]); 10] = [
        (4, 1, false, 4, &[0]),
        (4, 2, false, 4, &[4]),
        (4, 6, false, 4, &[20]),
        (4, 8, true, 4, &[28]),
        (8, 3, false, 4, &[8, 12]),
        (8, 3, true, 8, &[8]),
        (8, 7, false, 4, &[24, 28]),
        (16, 5, false, 4, &[16, 20, 24, 28]),
        (16, 5, true, 8, &[16, 24]),
        (2, 4, false, 2, &[12]),
    ];
    for (n, m, nm, df, firsts) in cases {
        let inst = add(exec_m(n, m, nm), gen(0, 0, 0, 1, 1, 0), gen(1, 0, 0, 1, 1, 0));
        let out = lower_ok(p, &vars(), &ctx(), &inst);
        let got: Vec<_> = out.iter().map(|i| group(p, &word(p, i))).collect();
        let want: Vec<_> = firsts.iter().map(|&f| f..f + df).collect();
        assert_eq!(got, want, "SIMD{n} M{m} NoMask {nm}");
        for i in &out {
            assert_eq!(i.exec_size.channels(), 2 * df, "SIMD{n} M{m}: doubled");
            assert_eq!(i.controls.contains(Controls::WE_ALL), nm);
        }
    }
    // SIMD4 at M2 is an (8) word with NibCtrl, the form Mesa emits.
    let out = lower_ok(
        p,
        &vars(),
        &ctx(),
        &add(exec_m(4, 2, false), gen(0, 0, 0, 4, 4, 1), gen(1, 0, 0, 4, 4, 1)),
    );
    let i = word(p, &out[0]);
    assert_eq!(
        (i.exec_size, i.qtr_control, i.controls.contains(Controls::NIB_CTRL)),
        (ExecSize::S8, 0, true)
    );
}

#[test]
fn ivb_df_predicate_is_the_predicate_variables_own_flag() {
    let p = Platform::Gen7;
    let vars = vars();
    // SIMD4 at M2: DF channel n reads bit 4 + n of P1's flag (f0.0), the
    // bits 32-bit code reads; nothing is spread, so no scratch is needed.
    let inst = add(exec_m(4, 2, false), gen(0, 0, 0, 4, 4, 1), gen(1, 0, 0, 4, 4, 1)).with_pred(PredCtl {
        id: 1,
        combine: PredCombine::Sequential,
        inverse: true,
    });
    let out = lower_ok(p, &vars, &LowerCtx::default(), &inst);
    assert_eq!(out.len(), 1);
    let i = word(p, &out[0]);
    assert_eq!(group(p, &i), 4..8);
    assert_eq!((i.pred_control, i.flag), (1, FlagReg { nr: 0, subnr: 0 }));
    assert!(i.controls.contains(Controls::PRED_INV));
    // Past channel 15: SIMD8 at M7, two parts at 24 and 28, still f0.0.
    let inst = add(exec_m(8, 7, false), gen(0, 0, 0, 4, 4, 1), gen(1, 0, 0, 4, 4, 1)).with_pred(PredCtl::new(1));
    let out = lower_ok(p, &vars, &LowerCtx::default(), &inst);
    let got: Vec<_> = out.iter().map(|i| (group(p, i), i.pred_control, i.flag)).collect();
    assert_eq!(got, [(24..28, 1, FlagReg::default()), (28..32, 1, FlagReg::default())]);
    // A predicated NoMask SIMD8 is cut too: both halves of a compressed DF
    // word would read the first half's four flag bits.
    let inst = add(exec_m(8, 1, true), gen(0, 0, 0, 4, 4, 1), gen(1, 0, 0, 4, 4, 1)).with_pred(PredCtl::new(1));
    let out = lower_ok(p, &vars, &LowerCtx::default(), &inst);
    assert_eq!(out.iter().map(|i| group(p, i)).collect::<Vec<_>>(), [0..4, 4..8]);
}

#[test]
fn ivb_simd8_nomask_df_is_one_sixteen_channel_instruction() {
    let p = Platform::Gen7;
    let out = lower_ok(
        p,
        &vars(),
        &ctx(),
        &add(exec_m(8, 1, true), gen(0, 0, 0, 4, 4, 1), gen(1, 0, 0, 4, 4, 1)),
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
fn ivb_simd16_df_splits_into_four_simd4_parts() {
    let p = Platform::Gen7;
    let inst = add(exec(16), gen(0, 0, 0, 4, 4, 1), gen(1, 0, 0, 4, 4, 1)).with_pred(PredCtl::new(1));
    let out = lower_ok(p, &vars(), &ctx(), &inst);
    assert_eq!(out.len(), 4);
    for (h, i) in out.iter().enumerate() {
        let i = word(p, i);
        let h = h as u8;
        assert_eq!(i.exec_size, ExecSize::S8, "each part: 4 DF = 8 float channels");
        assert_eq!(group(p, &i), 4 * u32::from(h)..4 * u32::from(h) + 4);
        assert_eq!((i.pred_control, i.flag), (1, FlagReg { nr: 0, subnr: 0 }));
        // Each part starts 4 DF = 32 bytes = 1 GRF further.
        assert_eq!(i.dst.addr, grf(30 + h, 0));
        assert_eq!(i.src[0].addr, grf(10 + h, 0));
        assert_eq!(i.src[1].addr, grf(20 + h, 0));
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
    assert_eq!(out.len(), 4, "two 32-bit moves, then two SIMD4 parts");
    assert_eq!(out[2].exec_size, ExecSize::S8);
    assert_eq!(out[3].exec_size, ExecSize::S8);
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
    // Ivy Bridge writes one flag bit per DF channel, at its channel
    // group, as the predicate holds it: two SIMD4 parts (a compressed DF
    // word would give both halves the first half's bits).
    for p in Platform::ALL {
        let out = lower_ok(p, &vars, &ctx(), &cmp);
        let parts = if p == Platform::Gen7 { 2 } else { 1 };
        assert_eq!(out.len(), parts, "{p}");
        for (k, i) in out.iter().enumerate() {
            let i = word(p, i);
            assert_eq!(i.cond_mod(), Some(CondMod::L));
            assert_eq!(i.flag, FlagReg::default());
            assert_eq!((i.dst.file, i.dst.ty), (RegFile::Arf, Type::DF));
            assert_eq!(i.exec_size, ExecSize::S8);
            let k = k as u32;
            let want = if parts == 2 { 4 * k..4 * k + 4 } else { 0..8 };
            assert_eq!(group(p, &i), want, "{p}");
        }
    }
}
