//! Encoding rules: opcodes, field ranges, types and register numbers.
//! Encodings the model cannot hold (reserved execution sizes, the MRF
//! file, reserved type numbers) are refused by the decoder, naming the
//! field; the tests named after those rules show it.

use crate::validate_util;
use validate_util::*;

use geneu::word::fields::{gen7_native, gen8_3src, gen8_native};

/// `mov(8) g17<1>F g12<8,8,1>F { align1 1Q }` from the Gen8 corpus.
const MOV8: [u8; 16] = [
    0x01, 0x00, 0x60, 0x00, 0xe8, 0x3a, 0x20, 0x22, 0x80, 0x01, 0x8d, 0x00, 0x00, 0x00, 0x00, 0x00,
];

fn field_error(r: Result<Instruction, DecodeError>) -> &'static str {
    match r {
        Err(DecodeError::Field { field, .. }) => field.name,
        other => panic!("expected a field error, got {other:?}"),
    }
}

#[test]
fn opcode_exists() {
    // goto and join are Gen8 only; opcode 46 is reserved on Gen7.
    let goto = Instruction::new(Opcode::Goto, ExecSize::S8);
    only_on(&goto, "opcode_exists", &[Gen8, Chv]);
    // calla from Gen7.5; dim on Gen7.5 only; f32to16 before Gen8.
    only_on(
        &Instruction::new(Opcode::Calla, ExecSize::S1),
        "opcode_exists",
        &[Gen75, Gen8, Chv],
    );
    let f32to16 = mov(W, F).with(|i| i.opcode = Opcode::F32to16).dst_stride(2);
    only_on(&f32to16, "opcode_exists", &[Gen7, Gen75]);
    let csel = alu3(Opcode::Csel, F).with(|i| i.cond_modifier = CondMod::L.hw());
    only_on(&csel, "opcode_exists", &[Gen8, Chv]);
    // illegal exists nowhere, and nothing else is checked then.
    for p in ALL {
        let v = validate(p, &Instruction::new(Opcode::Illegal, ExecSize::S1)).unwrap_err();
        assert_eq!(v.rules().collect::<Vec<_>>(), ["opcode_exists"]);
    }
}

#[test]
fn exec_size_encoding_valid() {
    // Encodings 0..=5 are 1..32 channels; Mesa's vector uses <2,2,1>W.
    for n in [2, 4, 8, 16, 32] {
        for p in ALL {
            ok(p, &mov(W, W).exec(n).src_rgn(0, 2, 2, 1));
        }
    }
    for p in ALL {
        ok(p, &mov(W, W).exec(1).src_rgn(0, 0, 1, 0));
    }
    // 6 and 7 are reserved: such a word does not decode.
    for e in [6, 7] {
        let mut w = Word::from_bytes(MOV8);
        gen8_native::set_exec_size(&mut w, e).unwrap();
        assert_eq!(field_error(decode_word(Gen8, w)), "exec_size");
        let mut w = Word::from_bytes(MOV8);
        gen7_native::set_exec_size(&mut w, e).unwrap();
        assert_eq!(field_error(decode_word(Gen7, w)), "exec_size");
    }
}

#[test]
fn reg_file_not_mrf() {
    // The MRF file (2) does not exist on Gen7+: the decoder refuses it.
    let mut w = Word::from_bytes(MOV8);
    gen8_native::set_dst_reg_file(&mut w, 2).unwrap();
    assert_eq!(field_error(decode_word(Gen8, w)), "dst_reg_file");
    let mut w = Word::from_bytes(MOV8);
    gen8_native::set_src0_reg_file(&mut w, 2).unwrap();
    assert_eq!(field_error(decode_word(Gen8, w)), "src0_reg_file");
    ok(Gen8, &decode(Gen8, &MOV8).unwrap());
}

#[test]
fn reg_type_encoding_valid() {
    // Register types (Mesa's invalid_type_encoding, MOV(4) <4,4,1>).
    let cases: [(Type, &[Platform]); 13] = [
        (DF, &ALL),
        (F, &ALL),
        (HF, &[Gen8, Chv]),
        (Q, &[Gen8, Chv]),
        (UQ, &[Gen8, Chv]),
        (D, &ALL),
        (UD, &ALL),
        (W, &ALL),
        (UW, &ALL),
        (B, &ALL),
        (UB, &ALL),
        (V, &[]),
        (VF, &[]),
    ];
    for (t, legal) in cases {
        let i = mov(t, t).exec(4).src_rgn(0, 4, 4, 1);
        only_on(&i, "reg_type_encoding_valid", legal);
    }
    // Immediate types: B/UB never, DF/Q/UQ/HF only on Gen8; vector types
    // move into W, UW and F.
    let imm: [(Type, Type, &[Platform]); 12] = [
        (DF, DF, &[Gen8, Chv]),
        (F, F, &ALL),
        (HF, HF, &[Gen8, Chv]),
        (Q, Q, &[Gen8, Chv]),
        (UQ, UQ, &[Gen8, Chv]),
        (D, D, &ALL),
        (UD, UD, &ALL),
        (W, W, &ALL),
        (UW, UW, &ALL),
        (W, V, &ALL),
        (UW, UV, &ALL),
        (F, VF, &ALL),
    ];
    for (d, t, legal) in imm {
        let i = mov(d, d).exec(4).with(|i| i.src[0] = Src::imm(t));
        only_on(&i, "reg_type_encoding_valid", legal);
    }
    for t in [B, UB] {
        let i = mov(W, W).exec(4).with(|i| i.src[0] = Src::imm(t));
        only_on(&i, "reg_type_encoding_valid", &[]);
    }
    // A reserved Gen8 type number (11..15 for registers) does not decode.
    let mut w = Word::from_bytes(MOV8);
    gen8_native::set_dst_reg_type(&mut w, 12).unwrap();
    assert_eq!(field_error(decode_word(Gen8, w)), "dst_reg_type");
}

#[test]
fn three_src_type_encoding_valid() {
    // Mesa's invalid_type_encoding_3src_a16: MAD for floats, BFE for D/UD.
    for (op, t, legal) in [
        (Opcode::Mad, F, &ALL[..]),
        (Opcode::Mad, DF, &ALL[..]),
        (Opcode::Mad, HF, &[Gen8, Chv][..]),
        (Opcode::Bfe, D, &ALL[..]),
        (Opcode::Bfe, UD, &ALL[..]),
    ] {
        only_on(&alu3(op, t).exec(4), "three_src_type_encoding_valid", legal);
    }
    // W has no 3-source encoding.
    only_on(&alu3(Opcode::Bfe, W).exec(4), "three_src_type_encoding_valid", &[]);
    // Gen8: src1/src2 may be HF with an F src0; Gen7 sources share one type.
    let mixed = alu3(Opcode::Mad, F).with(|i| i.src[1].ty = HF);
    only_on(&mixed, "three_src_type_encoding_valid", &[Gen8, Chv]);
    let bad_mix = alu3(Opcode::Mad, F).with(|i| i.src[2].ty = D);
    only_on(&bad_mix, "three_src_type_encoding_valid", &[]);
    // Gen8 3-source type numbers 5..7 are reserved: the word does not decode.
    let mad = encode(Gen8, &alu3(Opcode::Mad, F)).unwrap();
    let mut w = Word::from_bytes(mad);
    gen8_3src::set_dst_type(&mut w, 5).unwrap();
    assert_eq!(field_error(decode_word(Gen8, w)), "dst_type");
}

#[test]
fn three_src_align16_only() {
    let mad = alu3(Opcode::Mad, F);
    for p in ALL {
        ok(p, &mad);
        let a1 = mad.with(|i| i.access_mode = AccessMode::Align1);
        bad(p, &a1, "three_src_align16_only");
    }
}

#[test]
fn dst_not_immediate() {
    for p in ALL {
        ok(p, &mov(F, F));
        bad(p, &mov(F, F).with(|i| i.dst.file = RegFile::Imm), "dst_not_immediate");
    }
}

#[test]
fn three_src_operands_grf_direct() {
    for p in ALL {
        ok(p, &alu3(Opcode::Mad, F));
        let arf = alu3(Opcode::Mad, F).with(|i| i.src[1].file = RegFile::Arf);
        bad(p, &arf, "three_src_operands_grf_direct");
        let imm = alu3(Opcode::Mad, F).with(|i| i.src[2].file = RegFile::Imm);
        bad(p, &imm, "three_src_operands_grf_direct");
        let ind = alu3(Opcode::Mad, F).with(|i| i.dst.addr = Addr::Indirect { subnr: 0, imm: 0 });
        bad(p, &ind, "three_src_operands_grf_direct");
    }
}

#[test]
fn three_src_region_valid() {
    for p in ALL {
        ok(p, &alu3(Opcode::Mad, F).with(|i| i.src[0].region = Region::SCALAR));
        let r = alu3(Opcode::Mad, F).with(|i| i.src[1].region = rgn(8, 8, 1));
        bad(p, &r, "three_src_region_valid");
        let d = alu3(Opcode::Mad, F).with(|i| i.dst.hstride = 2);
        bad(p, &d, "three_src_region_valid");
    }
}

#[test]
fn width_encoding_valid() {
    for p in ALL {
        // The widest legal row: 16 words.
        ok(p, &mov(W, W).exec(16).src_rgn(0, 16, 16, 1));
        for w in 5..=7 {
            let i = mov(W, W).with(|i| i.src[0].region.width = w);
            bad(p, &i, "width_encoding_valid");
        }
    }
}

#[test]
fn vstride_encoding_valid() {
    for p in ALL {
        // The largest legal vertical stride: 32 elements.
        ok(p, &mov(B, B).exec(2).src_rgn(0, 32, 1, 0));
        for v in [7, 10, 14, 16, 255] {
            let i = mov(F, F).with(|i| i.src[0].region.vstride = v);
            bad(p, &i, "vstride_encoding_valid");
        }
    }
}

#[test]
fn hstride_encoding_valid() {
    for p in ALL {
        ok(p, &mov(F, F).exec(2).src_rgn(0, 8, 2, 4));
        bad(
            p,
            &mov(F, F).with(|i| i.src[0].region.hstride = 4),
            "hstride_encoding_valid",
        );
        bad(p, &mov(F, F).with(|i| i.dst.hstride = 200), "hstride_encoding_valid");
    }
}

/// `mov(8) g0<1>F g[a0.{subnr}]<1,0>F`: one address per channel (VxH).
fn vxh(subnr: u8) -> Instruction {
    mov(F, F).with(|i| {
        i.src[0].addr = Addr::Indirect { subnr, imm: 0 };
        i.src[0].region = Region {
            vstride: 0xf,
            width: 0,
            hstride: 0,
        };
    })
}

#[test]
fn vxh_only_indirect_align1() {
    for p in ALL {
        ok(p, &vxh(0));
        let direct = mov(F, F).with(|i| i.src[0].region.vstride = 0xf);
        bad(p, &direct, "vxh_only_indirect_align1");
    }
}

#[test]
fn subreg_in_range() {
    for p in ALL {
        ok(p, &mov(B, B).exec(1).dst_sub(31).src_sub(0, 31).src_rgn(0, 0, 1, 0));
        bad(p, &mov(B, B).exec(1).dst_sub(32).src_rgn(0, 0, 1, 0), "subreg_in_range");
        bad(
            p,
            &mov(B, B).exec(1).src_sub(0, 40).src_rgn(0, 0, 1, 0),
            "subreg_in_range",
        );
        // align16: byte 0 or 16.
        ok(p, &alu(Opcode::Add).a16().dst_sub(16).src_sub(1, 16));
        bad(p, &alu(Opcode::Add).a16().src_sub(0, 8), "subreg_in_range");
        // 3-source: dword offsets 0..28.
        ok(p, &alu3(Opcode::Mad, F).exec(4).src_sub(2, 28).dst_sub(16));
        bad(p, &alu3(Opcode::Mad, F).src_sub(1, 2), "subreg_in_range");
        bad(p, &alu3(Opcode::Mad, F).dst_sub(32), "subreg_in_range");
    }
}

#[test]
fn indirect_address_in_range() {
    let at = |subnr: u8, imm: i16| {
        mov(F, F)
            .exec(1)
            .src_rgn(0, 0, 1, 0)
            .with(|i| i.src[0].addr = Addr::Indirect { subnr, imm })
    };
    for p in ALL {
        ok(p, &at(7, -512));
        ok(p, &at(0, 511));
        bad(p, &at(0, 512), "indirect_address_in_range");
        bad(p, &at(0, -513), "indirect_address_in_range");
        bad(p, &at(16, 0), "indirect_address_in_range");
    }
    // a0.8..a0.15 exist from Gen8.
    only_on(&at(8, 0), "indirect_address_in_range", &[Gen8, Chv]);
    only_on(&at(15, 0), "indirect_address_in_range", &[Gen8, Chv]);
    // align16 offsets are multiples of 16.
    let a16 = |imm: i16| {
        alu(Opcode::Add)
            .a16()
            .with(|i| i.dst.addr = Addr::Indirect { subnr: 0, imm })
    };
    for p in ALL {
        ok(p, &a16(32));
        bad(p, &a16(8), "indirect_address_in_range");
    }
}

#[test]
fn grf_number_in_range() {
    for p in ALL {
        ok(
            p,
            &mov(F, F).with(|i| {
                i.dst = Dst::grf(127, 0, F);
                i.src[0] = g(127, F);
            }),
        );
        bad(
            p,
            &mov(F, F).with(|i| i.dst = Dst::grf(128, 0, F)),
            "grf_number_in_range",
        );
        bad(p, &mov(F, F).with(|i| i.src[0] = g(255, F)), "grf_number_in_range");
        // SIMD16 from g127 reaches g128.
        bad(
            p,
            &mov(F, F).exec(16).with(|i| i.dst = Dst::grf(127, 0, F)),
            "grf_number_in_range",
        );
        bad(
            p,
            &mov(F, F).exec(16).with(|i| i.src[0] = g(127, F)),
            "grf_number_in_range",
        );
        ok(p, &mov(F, F).exec(16).with(|i| i.src[0] = g(126, F)));
        bad(
            p,
            &alu3(Opcode::Mad, F).with(|i| i.src[2].addr = Addr::Direct { nr: 200, subnr: 0 }),
            "grf_number_in_range",
        );
    }
}

#[test]
fn control_fields_in_range() {
    for p in ALL {
        ok(
            p,
            &alu(Opcode::Add).with(|i| {
                i.qtr_control = 3;
                i.pred_control = 13;
                i.flag = FlagReg { nr: 1, subnr: 1 };
            }),
        );
        ok(p, &alu(Opcode::Add).a16().with(|i| i.pred_control = 7));
        bad(
            p,
            &alu(Opcode::Add).with(|i| i.qtr_control = 4),
            "control_fields_in_range",
        );
        bad(
            p,
            &alu(Opcode::Add).with(|i| i.pred_control = 14),
            "control_fields_in_range",
        );
        bad(
            p,
            &alu(Opcode::Add).a16().with(|i| i.pred_control = 8),
            "control_fields_in_range",
        );
        bad(p, &alu(Opcode::Add).with(|i| i.flag.nr = 2), "control_fields_in_range");
        bad(
            p,
            &alu(Opcode::Add).with(|i| i.flag.subnr = 2),
            "control_fields_in_range",
        );
        bad(
            p,
            &alu(Opcode::Add).with(|i| i.cond_modifier = 16),
            "control_fields_in_range",
        );
    }
}

#[test]
fn cond_modifier_valid() {
    for p in ALL {
        ok(p, &alu(Opcode::Cmp).with(|i| i.cond_modifier = CondMod::U.hw()));
        for cm in 10..=15 {
            bad(
                p,
                &alu(Opcode::Cmp).with(|i| i.cond_modifier = cm),
                "cond_modifier_valid",
            );
        }
    }
}

fn math(f: MathFunction, ty: Type) -> Instruction {
    let mut i = alu(Opcode::Math).types(ty, ty, ty);
    i.cond_modifier = f.hw();
    if f.num_srcs() == 1 {
        i.src[1] = null_src(ty);
    }
    i
}

#[test]
fn math_function_valid() {
    for p in ALL {
        ok(p, &math(MathFunction::Sqrt, F));
        ok(p, &math(MathFunction::Pow, F));
        for f in [0, 8] {
            bad(
                p,
                &math(MathFunction::Sqrt, F).with(|i| i.cond_modifier = f),
                "math_function_valid",
            );
        }
    }
    // INVM and RSQRTM (the IEEE DF macro helpers) exist from Gen8.
    // INVM reads the dividend and the divisor (IGA's source count).
    let invm = math(MathFunction::Invm, DF)
        .exec(4)
        .src_rgn(0, 4, 4, 1)
        .src_rgn(1, 4, 4, 1);
    only_on(&invm, "math_function_valid", &[Gen8, Chv]);
    let rsqrtm = math(MathFunction::Rsqrtm, DF).exec(4).src_rgn(0, 4, 4, 1);
    only_on(&rsqrtm, "math_function_valid", &[Gen8, Chv]);
}
