//! General restrictions based on operand types, and vector immediates.
//! The tables follow Mesa's validator tests (SIMD8 `g0` operands unless
//! stated).

use crate::validate_util;
use validate_util::*;

#[test]
fn packed_byte_dst_raw_mov() {
    // (dst, src, negate, abs, saturate, legal)
    let moves = PACKED_BYTE_DESTINATION;
    for (d, s, neg, abs, sat, legal) in moves {
        let i = mov(d, s).with(|i| {
            i.src[0].mods.set(SrcMods::NEGATE, neg);
            i.src[0].mods.set(SrcMods::ABS, abs);
            i.controls.set(Controls::SATURATE, sat);
        });
        for p in ALL {
            expect(p, &i, "packed_byte_dst_raw_mov", legal);
        }
    }
    for t in [UB, B] {
        let sel = alu2(Opcode::Sel, t, t, t).with(|i| i.pred_control = 1);
        for p in ALL {
            bad(p, &sel, "packed_byte_dst_raw_mov");
        }
    }
    // A stride-2 byte destination is not packed.
    for p in ALL {
        ok(
            p,
            &alu2(Opcode::Sel, B, W, W).dst_stride(2).with(|i| i.pred_control = 1),
        );
    }
}

#[test]
fn dst_stride_matches_exec_type_ratio() {
    for p in ALL {
        bad(p, &alu2(Opcode::Add, W, D, D), "dst_stride_matches_exec_type_ratio");
        ok(p, &alu2(Opcode::Add, W, D, D).dst_stride(2));
        bad(
            p,
            &alu2(Opcode::Add, W, D, D).dst_stride(4),
            "dst_stride_matches_exec_type_ratio",
        );
        ok(p, &alu2(Opcode::Add, B, D, D).dst_stride(4));
        // A raw byte move is exempt (B's execution type is W).
        ok(p, &mov(B, B).dst_stride(4));
        // The execution type is F for a mixed D/W... no: D wins over W.
        bad(p, &alu2(Opcode::Add, W, D, W), "dst_stride_matches_exec_type_ratio");
    }
    // Gen8, mixed F and HF: the execution type is F. Cherryview's mixed
    // float rules replace this one there.
    let mixed = alu2(Opcode::Add, HF, HF, F);
    bad(Gen8, &mixed, "dst_stride_matches_exec_type_ratio");
    not(Chv, &mixed, "dst_stride_matches_exec_type_ratio");
    // Ivy Bridge writes a 32-bit result of a 64-bit execution as dword
    // pairs: the F destination counts as 8 bytes there.
    let df_to_f = mov(F, DF).exec(4).src_rgn(0, 4, 4, 1);
    ok(Gen7, &df_to_f);
    for p in [Gen75, Gen8] {
        bad(p, &df_to_f, "dst_stride_matches_exec_type_ratio");
        ok(p, &df_to_f.dst_stride(2));
    }
}

#[test]
fn dst_subreg_aligned_to_exec_type() {
    for p in ALL {
        bad(
            p,
            &alu2(Opcode::Add, W, D, D).dst_stride(2).dst_sub(2),
            "dst_subreg_aligned_to_exec_type",
        );
        let i = alu2(Opcode::Add, W, D, D)
            .exec(4)
            .dst_stride(2)
            .dst_sub(8)
            .src_rgn(0, 4, 4, 1)
            .src_rgn(1, 4, 4, 1);
        ok(p, &i);
        // Byte destinations may also sit one byte above the alignment.
        let sel = alu2(Opcode::Sel, B, W, W).dst_stride(2).with(|i| i.pred_control = 1);
        ok(p, &sel.dst_sub(1));
        let b_d = mov(B, D).exec(4).dst_stride(4).src_rgn(0, 4, 4, 1);
        ok(p, &b_d.dst_sub(1));
        bad(p, &b_d.dst_sub(2), "dst_subreg_aligned_to_exec_type");
        bad(p, &b_d.dst_sub(3), "dst_subreg_aligned_to_exec_type");
        ok(p, &b_d.dst_sub(5));
    }
}

#[test]
fn no_byte_64bit_conversion() {
    // Mesa's byte_64bit_conversion: every stride is refused.
    for (d, s) in [(B, Q), (B, UQ), (B, DF), (UB, Q), (UB, UQ), (UB, DF)] {
        for p in [Gen8, Chv] {
            // Stride 1 is a packed byte destination, refused first.
            assert!(validate(p, &mov(d, s)).is_err());
            for stride in [2, 4] {
                bad(p, &mov(d, s).dst_stride(stride), "no_byte_64bit_conversion");
            }
        }
    }
    // DF exists everywhere, so the rule holds on Gen7 too; and the other way.
    for p in ALL {
        bad(
            p,
            &mov(B, DF).exec(4).dst_stride(4).src_rgn(0, 4, 4, 1),
            "no_byte_64bit_conversion",
        );
        let from_bytes = mov(DF, B).exec(4).src_rgn(0, 16, 4, 4);
        bad(p, &from_bytes, "no_byte_64bit_conversion");
        ok(p, &mov(UB, UD).exec(4).dst_stride(4).src_rgn(0, 4, 4, 1));
    }
}

#[test]
fn no_hf_64bit_conversion() {
    for p in [Gen8, Chv] {
        ok(p, &mov(HF, F).exec(4).dst_stride(2).src_rgn(0, 4, 4, 1));
        bad(
            p,
            &mov(HF, DF).exec(4).dst_stride(2).src_rgn(0, 4, 4, 1),
            "no_hf_64bit_conversion",
        );
        bad(
            p,
            &mov(HF, Q).exec(4).dst_stride(2).src_rgn(0, 4, 4, 1),
            "no_hf_64bit_conversion",
        );
        bad(p, &mov(DF, HF).exec(4).src_rgn(0, 4, 4, 1), "no_hf_64bit_conversion");
        bad(p, &mov(UQ, HF).exec(4).src_rgn(0, 4, 4, 1), "no_hf_64bit_conversion");
    }
}

fn hf_mov(d: Type, s: Type, stride: u32, sub: u8) -> Instruction {
    let i = mov(d, s).exec(4).dst_stride(stride).dst_sub(sub);
    if s == B {
        i.src_rgn(0, 4, 2, 2)
    } else {
        i.src_rgn(0, 4, 4, 1)
    }
}

#[test]
fn half_float_conversion_table() {
    for (n, (d, s, stride, sub, bdw, chv)) in HALF_FLOAT_CONVERSION.into_iter().enumerate() {
        let i = hf_mov(d, s, stride, sub);
        assert_eq!(
            validate(Gen8, &i).is_ok(),
            bdw,
            "bdw case {n}: {:?}",
            validate(Gen8, &i)
        );
        assert_eq!(validate(Chv, &i).is_ok(), chv, "chv case {n}: {:?}", validate(Chv, &i));
    }
}

#[test]
fn int_hf_conversion_dst_dword() {
    for p in [Gen8, Chv] {
        ok(p, &hf_mov(HF, D, 2, 0));
        ok(p, &hf_mov(B, HF, 4, 0));
        ok(p, &hf_mov(W, HF, 2, 0));
        ok(p, &hf_mov(D, HF, 1, 4));
        bad(p, &hf_mov(HF, D, 1, 0), "int_hf_conversion_dst_dword");
        bad(p, &hf_mov(HF, W, 2, 2), "int_hf_conversion_dst_dword");
        bad(p, &hf_mov(HF, W, 4, 0), "int_hf_conversion_dst_dword");
        bad(p, &hf_mov(W, HF, 1, 0), "int_hf_conversion_dst_dword");
        bad(p, &hf_mov(B, HF, 4, 1), "int_hf_conversion_dst_dword");
    }
}

#[test]
fn chv_hf_dst_word_placement() {
    ok(Chv, &hf_mov(HF, F, 2, 0));
    ok(Chv, &hf_mov(HF, F, 2, 2));
    ok(Chv, &hf_mov(HF, F, 1, 0));
    bad(Chv, &hf_mov(HF, F, 4, 0), "chv_hf_dst_word_placement");
    // Packed HF is allowed only for mixed float with an OWord-aligned dst.
    bad(Chv, &hf_mov(HF, F, 1, 2), "chv_hf_dst_word_placement");
    ok(Chv, &hf_mov(HF, F, 1, 16));
    // Broadwell's general stride rule applies instead.
    not(Gen8, &hf_mov(HF, F, 4, 0), "chv_hf_dst_word_placement");
    bad(Gen8, &hf_mov(HF, F, 4, 0), "dst_stride_matches_exec_type_ratio");
}

#[test]
fn vector_imm_dst_oword_aligned() {
    // Mesa's vector_immediate_destination_alignment.
    for (d, t, sub, exec, legal) in VECTOR_IMMEDIATE_DESTINATION_ALIGNMENT {
        let i = mov(d, d).exec(exec).dst_sub(sub).with(|i| i.src[0] = Src::imm(t));
        for p in ALL {
            expect(p, &i, "vector_imm_dst_oword_aligned", legal);
        }
    }
    // Any other misalignment too.
    for p in ALL {
        let i = mov(W, W).dst_sub(8).with(|i| i.src[0] = Src::imm(V));
        bad(p, &i, "vector_imm_dst_oword_aligned");
    }
}

fn vmov(d: Type, t: Type, stride: u32) -> Instruction {
    mov(d, d).dst_stride(stride).with(|i| i.src[0] = Src::imm(t))
}

#[test]
fn vf_dst_dword_stride() {
    for (d, t, s, legal) in VECTOR_IMMEDIATE_DESTINATION_STRIDE.into_iter().filter(|c| c.1 == VF) {
        for p in ALL {
            expect(p, &vmov(d, t, s), "vf_dst_dword_stride", legal);
        }
    }
}

#[test]
fn v_uv_dst_word_stride() {
    for (d, t, s, legal) in VECTOR_IMMEDIATE_DESTINATION_STRIDE.into_iter().filter(|c| c.1 != VF) {
        for p in ALL {
            expect(p, &vmov(d, t, s), "v_uv_dst_word_stride", legal);
        }
    }
}
