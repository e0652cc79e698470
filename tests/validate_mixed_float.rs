//! Mixed-mode float (F with HF) restrictions on Gen8 and Cherryview.
//! Tables follow Mesa's validator tests; half floats do not exist before
//! Gen8, where these instructions do not even encode.

use crate::validate_util;
use validate_util::*;

const GEN8: [Platform; 2] = [Gen8, Chv];

#[test]
fn mixed_float_no_indirect_src() {
    // (dst, src0, src1, dst stride, dst indirect, src0 indirect, legal)
    let table = MIXED_FLOAT_SOURCE_INDIRECT_ADDRESSING;
    let ind = Addr::Indirect { subnr: 0, imm: 0 };
    for (d, s0, s1, st, di, si, legal) in table {
        let i = alu2(Opcode::Add, d, s0, s1).dst_stride(st).with(|i| {
            if di {
                i.dst.addr = ind;
            }
            if si {
                i.src[0].addr = ind;
            }
        });
        for p in GEN8 {
            expect(p, &i, "mixed_float_no_indirect_src", legal);
        }
    }
}

#[test]
fn mixed_float_f_dst_max_simd8() {
    // (exec, dst, src0, src1, dst stride, legal): Mesa's mixed_float_align1_simd16.
    let table = MIXED_FLOAT_ALIGN1_SIMD16;
    for (exec, d, s0, s1, st, legal) in table {
        let i = alu2(Opcode::Add, d, s0, s1).exec(exec).dst_stride(st);
        for p in GEN8 {
            let rule = if d == F {
                "mixed_float_f_dst_max_simd8"
            } else {
                "mixed_float_a1_packed_hf_dst_max_simd8"
            };
            expect(p, &i, rule, legal);
        }
    }
}

#[test]
fn mixed_float_a1_packed_hf_dst_max_simd8() {
    for p in GEN8 {
        ok(p, &alu2(Opcode::Add, HF, HF, F).exec(16).dst_stride(2));
        bad(
            p,
            &alu2(Opcode::Add, HF, HF, F).exec(16),
            "mixed_float_a1_packed_hf_dst_max_simd8",
        );
        bad(
            p,
            &alu2(Opcode::Add, HF, F, HF).exec(16),
            "mixed_float_a1_packed_hf_dst_max_simd8",
        );
    }
}

#[test]
fn mixed_float_packed_hf_dst_acc_offset0() {
    // (dst stride, read acc, src0 subreg, legal on BDW, legal on CHV):
    // Mesa's mixed_float_align1_packed_fp16_dst_acc_read_offset_0.
    let mut table = Vec::new();
    for sub in [0u8, 2, 4, 8, 16] {
        table.push((2, true, sub, true, true));
        table.push((1, false, sub, false, true));
        table.push((1, true, sub, false, false));
    }
    for (st, read_acc, sub, bdw, chv) in table {
        let i = alu2(Opcode::Add, HF, HF, F).dst_stride(st).with(|i| {
            if read_acc {
                i.src[0] = acc(HF);
            }
        });
        let i = i.src_sub(0, sub);
        assert_eq!(
            validate(Gen8, &i).is_ok(),
            bdw,
            "bdw {st} {read_acc} {sub}: {:?}",
            validate(Gen8, &i)
        );
        assert_eq!(
            validate(Chv, &i).is_ok(),
            chv,
            "chv {st} {read_acc} {sub}: {:?}",
            validate(Chv, &i)
        );
    }
    // The rule itself: an F/HF accumulator read at an offset with a packed HF dst.
    let i = alu2(Opcode::Add, HF, HF, F).exec(4).src_rgn(1, 4, 4, 1).with(|i| {
        i.src[0] = acc(HF).with_region(rgn(4, 4, 1));
    });
    not(Chv, &i, "mixed_float_packed_hf_dst_acc_offset0");
    bad(Chv, &i.src_sub(0, 8), "mixed_float_packed_hf_dst_acc_offset0");
}

trait WithRegion {
    fn with_region(self, r: Region) -> Self;
}
impl WithRegion for Src {
    fn with_region(mut self, r: Region) -> Self {
        self.region = r;
        self
    }
}

#[test]
fn mixed_float_hf_dst_acc_needs_stride2() {
    // (opcode, dst, src0, src1, dst stride, read acc, BDW, CHV):
    // Mesa's mixed_float_fp16_dest_with_acc.
    let table = [
        (Opcode::Mac, HF, HF, F, 1, false, false, false),
        (Opcode::Mac, HF, HF, F, 2, false, true, true),
        (Opcode::Mac, HF, F, HF, 1, false, false, false),
        (Opcode::Mac, HF, F, HF, 2, false, true, true),
        (Opcode::Add, HF, HF, F, 1, true, false, false),
        (Opcode::Add, HF, HF, F, 2, true, true, true),
        (Opcode::Add, HF, F, HF, 1, true, false, false),
        (Opcode::Add, HF, F, HF, 2, true, true, true),
        (Opcode::Mac, F, HF, F, 1, false, true, true),
        (Opcode::Mac, F, HF, F, 2, false, true, true),
        (Opcode::Add, HF, HF, F, 1, false, false, true),
        (Opcode::Add, HF, HF, F, 2, false, true, true),
        (Opcode::Add, HF, F, HF, 1, false, false, true),
        (Opcode::Add, HF, F, HF, 2, false, true, true),
        (Opcode::Add, F, HF, F, 1, false, true, true),
        (Opcode::Add, F, HF, F, 2, false, true, true),
    ];
    for (op, d, s0, s1, st, read_acc, bdw, chv) in table {
        let i = alu2(op, d, s0, s1).dst_stride(st).with(|i| {
            if read_acc {
                i.src[0] = acc(s0);
            }
        });
        assert_eq!(
            validate(Gen8, &i).is_ok(),
            bdw,
            "bdw {op} {d} {st}: {:?}",
            validate(Gen8, &i)
        );
        assert_eq!(
            validate(Chv, &i).is_ok(),
            chv,
            "chv {op} {d} {st}: {:?}",
            validate(Chv, &i)
        );
    }
    for p in GEN8 {
        bad(p, &alu2(Opcode::Mac, HF, HF, F), "mixed_float_hf_dst_acc_needs_stride2");
        bad(
            p,
            &alu2(Opcode::Mac, HF, HF, F).dst_stride(4),
            "mixed_float_hf_dst_acc_needs_stride2",
        );
    }
}

#[test]
fn mixed_float_packed_hf_dst_oword() {
    // (exec, dst stride, dst subreg, BDW, CHV): Mesa's
    // mixed_float_align1_packed_fp16_dst, sources <4,4,1>.
    let table = [
        (8, 1, 0, false, true),
        (8, 1, 2, false, false),
        (8, 1, 4, false, false),
        (8, 1, 8, false, false),
        (8, 1, 16, false, true),
        (16, 1, 0, false, false),
        (16, 1, 2, false, false),
        (16, 1, 4, false, false),
        (16, 1, 8, false, false),
        (16, 1, 16, false, false),
        (8, 2, 0, true, true),
    ];
    for (exec, st, sub, bdw, chv) in table {
        let i = alu2(Opcode::Add, HF, HF, F)
            .exec(exec)
            .dst_stride(st)
            .dst_sub(sub)
            .src_rgn(0, 4, 4, 1)
            .src_rgn(1, 4, 4, 1);
        assert_eq!(
            validate(Gen8, &i).is_ok(),
            bdw,
            "bdw {exec} {st} {sub}: {:?}",
            validate(Gen8, &i)
        );
        assert_eq!(
            validate(Chv, &i).is_ok(),
            chv,
            "chv {exec} {st} {sub}: {:?}",
            validate(Chv, &i)
        );
    }
    let f = alu2(Opcode::Add, F, HF, F).src_rgn(0, 4, 4, 1).src_rgn(1, 4, 4, 1);
    for p in GEN8 {
        ok(p, &f);
    }
    bad(
        Chv,
        &alu2(Opcode::Add, HF, HF, F).dst_sub(2),
        "mixed_float_packed_hf_dst_oword",
    );
    bad(
        Gen8,
        &alu2(Opcode::Add, HF, HF, F).dst_sub(8),
        "mixed_float_packed_hf_dst_oword",
    );
}

#[test]
fn mixed_float_a1_math_hf_src_strided() {
    // Mesa only tests this on Gen9+ (no half-float math on Gen8); the rule
    // is stated for mixed mode in general.
    let pow = |d: Type, s0: Type, s1: Type, h0: u32, h1: u32| {
        alu2(Opcode::Math, d, s0, s1)
            .exec(4)
            .dst_stride(2)
            .src_rgn(0, 4 * h0, 4, h0)
            .src_rgn(1, 4 * h1, 4, h1)
            .with(|i| i.cond_modifier = MathFunction::Pow.hw())
    };
    for p in GEN8 {
        not(p, &pow(HF, HF, F, 2, 1), "mixed_float_a1_math_hf_src_strided");
        bad(p, &pow(HF, HF, F, 1, 1), "mixed_float_a1_math_hf_src_strided");
        bad(p, &pow(F, F, HF, 1, 1), "mixed_float_a1_math_hf_src_strided");
        not(p, &pow(F, F, HF, 1, 2), "mixed_float_a1_math_hf_src_strided");
    }
}

#[test]
fn mixed_float_a16_packed_vstride4() {
    // (dst, src0, src1, src0 vstride, src1 vstride, legal): encodings 3 = 4,
    // 2 = 2, 0 = 0.
    let table = [
        (F, F, HF, 3, 3, true),
        (F, F, HF, 2, 3, false),
        (F, F, HF, 3, 2, false),
        (F, F, HF, 0, 3, false),
        (F, F, HF, 3, 0, false),
        (F, HF, F, 3, 3, true),
        (F, HF, F, 3, 2, false),
        (F, HF, F, 2, 3, false),
        (F, HF, F, 0, 3, false),
        (F, HF, F, 3, 0, false),
    ];
    for (d, s0, s1, v0, v1, legal) in table {
        let i = alu2(Opcode::Add, d, s0, s1).a16().with(|i| {
            i.src[0].region.vstride = v0;
            i.src[1].region.vstride = v1;
        });
        for p in GEN8 {
            expect(p, &i, "mixed_float_a16_packed_vstride4", legal);
        }
    }
}

#[test]
fn mixed_float_a16_max_simd8() {
    for (exec, s0, s1, legal) in [
        (8, F, HF, true),
        (8, HF, F, true),
        (16, F, HF, false),
        (16, HF, F, false),
    ] {
        let i = alu2(Opcode::Add, F, s0, s1).a16().exec(exec);
        for p in GEN8 {
            expect(p, &i, "mixed_float_a16_max_simd8", legal);
        }
    }
}

#[test]
fn mixed_float_a16_no_acc_src() {
    for (s0, s1, read_acc, legal) in [
        (F, HF, false, true),
        (F, HF, true, false),
        (HF, F, false, true),
        (HF, F, true, false),
    ] {
        let i = alu2(Opcode::Add, F, s0, s1).a16().with(|i| {
            if read_acc {
                i.src[0] = Src {
                    swizzle: Swizzle::XYZW,
                    ..acc(s0).with_region(Region {
                        vstride: 3,
                        width: 2,
                        hstride: 1,
                    })
                };
            }
        });
        for p in GEN8 {
            expect(p, &i, "mixed_float_a16_no_acc_src", legal);
        }
    }
}
