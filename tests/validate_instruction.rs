//! Rules of single instructions: CMP, SEL, MUL, logic, BFI2, CSEL,
//! 3-source opcodes, MATH and Gen8 branches.

use crate::validate_util;
use validate_util::*;

const GEN7: [Platform; 2] = [Gen7, Gen75];
const GEN8: [Platform; 2] = [Gen8, Chv];

fn cmp(cm: CondMod) -> Instruction {
    alu(Opcode::Cmp).with(|i| i.cond_modifier = cm.hw())
}

#[test]
fn cmp_requires_cond_mod() {
    for p in ALL {
        ok(p, &cmp(CondMod::L));
        bad(p, &cmp(CondMod::None), "cmp_requires_cond_mod");
        bad(
            p,
            &cmp(CondMod::None).with(|i| i.opcode = Opcode::Cmpn),
            "cmp_requires_cond_mod",
        );
    }
}

#[test]
fn gen7_cmp_dst_not_arf() {
    let i = cmp(CondMod::Ge).with(|i| i.dst = arf_dst(0x20, F));
    only_on(&i, "gen7_cmp_dst_not_arf", &GEN8);
    for p in ALL {
        ok(p, &cmp(CondMod::Ge));
    }
}

#[test]
fn gen7_cmp_null_dst_requires_switch() {
    let null = cmp(CondMod::L).with(|i| i.dst = arf_dst(0, F));
    only_on(&null, "gen7_cmp_null_dst_requires_switch", &GEN8);
    let switch = null.with(|i| i.thread_control = ThreadControl::Switch);
    for p in ALL {
        ok(p, &switch);
    }
}

#[test]
fn sel_pred_xor_cond_mod() {
    let sel = alu(Opcode::Sel);
    for p in ALL {
        ok(p, &sel.with(|i| i.pred_control = 1));
        ok(p, &sel.with(|i| i.cond_modifier = CondMod::L.hw()));
        bad(p, &sel, "sel_pred_xor_cond_mod");
        bad(
            p,
            &sel.with(|i| {
                i.pred_control = 1;
                i.cond_modifier = CondMod::L.hw();
            }),
            "sel_pred_xor_cond_mod",
        );
    }
}

#[test]
fn mul_dword_operand_on_src0() {
    for p in ALL {
        ok(p, &alu2(Opcode::Mul, D, D, W));
        bad(p, &alu2(Opcode::Mul, D, W, D), "mul_dword_operand_on_src0");
        bad(p, &alu2(Opcode::Mul, D, UW, UD), "mul_dword_operand_on_src0");
        // An immediate dword src1 counts too.
        bad(
            p,
            &alu2(Opcode::Mul, D, W, D).with(|i| i.src[1] = Src::imm(D)),
            "mul_dword_operand_on_src0",
        );
    }
}

#[test]
fn gen7_mul_no_acc_source() {
    let i = alu(Opcode::Mul).with(|i| i.src[0] = acc(F));
    let j = alu(Opcode::Mul).with(|i| i.src[1] = acc(F));
    for k in [&i, &j] {
        bad(Gen7, k, "gen7_mul_no_acc_source");
        not(Gen75, k, "gen7_mul_no_acc_source");
        ok(Gen8, k);
        ok(Chv, k);
    }
}

/// Conservative: Haswell keeps Ivy Bridge's MUL accumulator rule.
#[test]
fn hsw_mul_no_acc_source() {
    let i = alu(Opcode::Mul).with(|i| i.src[1] = acc(F));
    let v = validate(Gen75, &i).unwrap_err();
    assert_eq!(v.rules().collect::<Vec<_>>(), ["hsw_mul_no_acc_source"]);
    assert!(!v.any_documented(), "{v}");
    not(Gen7, &i, "hsw_mul_no_acc_source");
}

#[test]
fn gen8_mul_no_int_acc_source() {
    for p in GEN8 {
        ok(p, &alu(Opcode::Mul).with(|i| i.src[0] = acc(F)));
        bad(
            p,
            &alu2(Opcode::Mul, D, D, W).with(|i| i.src[0] = acc(D)),
            "gen8_mul_no_int_acc_source",
        );
    }
}

#[test]
fn gen7_mul_dword_src_no_float_dst() {
    let i = alu2(Opcode::Mul, F, D, D);
    for p in GEN7 {
        bad(p, &i, "gen7_mul_dword_src_no_float_dst");
    }
    for p in GEN8 {
        not(p, &i, "gen7_mul_dword_src_no_float_dst");
    }
    for p in ALL {
        ok(p, &alu2(Opcode::Mul, F, F, F));
    }
}

#[test]
fn gen8_mul_dwxdw_dst_not_acc() {
    let i = alu2(Opcode::Mul, D, D, D).with(|i| i.dst = arf_dst(0x20, D));
    for p in GEN8 {
        bad(p, &i, "gen8_mul_dwxdw_dst_not_acc");
    }
    // D x W into the accumulator is how Mesa computes the high half.
    let dw = alu2(Opcode::Mul, D, D, UW).with(|i| {
        i.dst = arf_dst(0x20, D);
        i.src[1] = Src::imm(UW);
    });
    for p in ALL {
        ok(p, &dw);
        not(
            p,
            &i,
            if p.is_gen8() {
                "gen7_cmp_dst_not_arf"
            } else {
                "gen8_mul_dwxdw_dst_not_acc"
            },
        );
    }
}

#[test]
fn mul_dword_no_sat_no_cond_mod() {
    for p in ALL {
        // (D x D is a 64-bit operation on Cherryview; D x W is not.)
        ok(p, &alu2(Opcode::Mul, D, D, W));
        bad(
            p,
            &alu2(Opcode::Mul, D, D, W).with(|i| i.controls.insert(Controls::SATURATE)),
            "mul_dword_no_sat_no_cond_mod",
        );
        bad(
            p,
            &alu2(Opcode::Mul, D, D, W).with(|i| i.cond_modifier = CondMod::Z.hw()),
            "mul_dword_no_sat_no_cond_mod",
        );
        // A float multiply may saturate and compare.
        ok(
            p,
            &alu(Opcode::Mul).with(|i| {
                i.controls.insert(Controls::SATURATE);
                i.cond_modifier = CondMod::Z.hw();
            }),
        );
    }
}

fn and() -> Instruction {
    alu2(Opcode::And, UD, UD, UD)
}

#[test]
fn gen8_logic_no_abs() {
    let abs0 = and().with(|i| i.src[0].mods = SrcMods::ABS);
    let abs1 = and().with(|i| i.src[1].mods = SrcMods::ABS);
    only_on(&abs0, "gen8_logic_no_abs", &GEN7);
    only_on(&abs1, "gen8_logic_no_abs", &GEN7);
    for p in ALL {
        // Negate means bitwise not.
        ok(p, &and().with(|i| i.src[0].mods = SrcMods::NEGATE));
    }
}

#[test]
fn gen8_logic_no_src_mod_on_acc() {
    let not = mov(UD, UD).with(|i| {
        i.opcode = Opcode::Not;
        i.src[0] = acc(UD);
    });
    for p in ALL {
        ok(p, &not);
    }
    let neg = not.with(|i| i.src[0].mods = SrcMods::NEGATE);
    only_on(&neg, "gen8_logic_no_src_mod_on_acc", &GEN7);
}

#[test]
fn logic_no_o_r_u_cond_mod() {
    for p in ALL {
        let with = |cm: CondMod| and().with(|i| i.cond_modifier = cm.hw());
        ok(p, &with(CondMod::Nz));
        ok(p, &with(CondMod::G));
        for cm in [CondMod::O, CondMod::U] {
            bad(p, &with(cm), "logic_no_o_r_u_cond_mod");
        }
        // .r exists only before Gen6: the encoding rule refuses it first.
        bad(p, &with(CondMod::R), "cond_modifier_valid");
    }
}

#[test]
fn bfi2_no_cond_mod_or_saturate() {
    for p in ALL {
        let b = alu3(Opcode::Bfi2, UD);
        ok(p, &b);
        bad(
            p,
            &b.with(|i| i.cond_modifier = CondMod::Z.hw()),
            "bfi2_no_cond_mod_or_saturate",
        );
        bad(
            p,
            &b.with(|i| i.controls.insert(Controls::SATURATE)),
            "bfi2_no_cond_mod_or_saturate",
        );
    }
}

#[test]
fn bfi2_types() {
    for p in ALL {
        ok(p, &alu3(Opcode::Bfi2, D));
        bad(p, &alu3(Opcode::Bfi2, F), "bfi2_types");
        bad(p, &alu3(Opcode::Bfi2, UD).with(|i| i.dst.ty = D), "bfi2_types");
    }
}

fn csel() -> Instruction {
    alu3(Opcode::Csel, F).with(|i| i.cond_modifier = CondMod::L.hw())
}

#[test]
fn csel_not_predicated() {
    for p in GEN8 {
        ok(p, &csel());
        bad(p, &csel().with(|i| i.pred_control = 1), "csel_not_predicated");
    }
}

#[test]
fn csel_requires_cond_mod() {
    for p in GEN8 {
        bad(p, &csel().with(|i| i.cond_modifier = 0), "csel_requires_cond_mod");
    }
}

#[test]
fn csel_types() {
    for p in GEN8 {
        ok(p, &alu3(Opcode::Csel, D).with(|i| i.cond_modifier = 1));
        ok(p, &alu3(Opcode::Csel, HF).with(|i| i.cond_modifier = 1));
        bad(p, &alu3(Opcode::Csel, UD).with(|i| i.cond_modifier = 1), "csel_types");
        bad(p, &alu3(Opcode::Csel, DF).with(|i| i.cond_modifier = 1), "csel_types");
    }
}

#[test]
fn three_src_opcode_types() {
    for p in ALL {
        ok(p, &alu3(Opcode::Mad, F));
        ok(p, &alu3(Opcode::Lrp, F));
        ok(p, &alu3(Opcode::Bfe, UD));
        bad(p, &alu3(Opcode::Mad, D), "three_src_opcode_types");
        bad(p, &alu3(Opcode::Lrp, UD), "three_src_opcode_types");
        bad(p, &alu3(Opcode::Bfe, F), "three_src_opcode_types");
    }
}

#[test]
fn ivb_three_src_max_one_grf() {
    let simd16 = alu3(Opcode::Mad, F).exec(16);
    only_on(&simd16, "ivb_three_src_max_one_grf", &[Gen75, Gen8, Chv]);
    // IVB regions DF in 32-bit units: exec 8 is four doubles.
    ok(Gen7, &alu3(Opcode::Mad, DF).exec(8));
    ok(Gen7, &alu3(Opcode::Mad, F).exec(8));
}

fn math(f: MathFunction, d: Type, s: Type) -> Instruction {
    alu2(Opcode::Math, d, s, s).with(|i| {
        i.cond_modifier = f.hw();
        if f.num_srcs() == 1 {
            i.src[1] = null_src(s);
        }
    })
}

#[test]
fn math_int_div_no_src_mods() {
    for p in ALL {
        for f in [
            MathFunction::IntDivQuotient,
            MathFunction::IntDivRemainder,
            MathFunction::IntDivQuotientAndRemainder,
        ] {
            ok(p, &math(f, D, D));
            bad(
                p,
                &math(f, D, D).with(|i| i.src[0].mods = SrcMods::NEGATE),
                "math_int_div_no_src_mods",
            );
            bad(
                p,
                &math(f, D, D).with(|i| i.src[1].mods = SrcMods::ABS),
                "math_int_div_no_src_mods",
            );
        }
        // Other functions take modifiers.
        ok(
            p,
            &math(MathFunction::Pow, F, F).with(|i| i.src[0].mods = SrcMods::NEGATE),
        );
    }
}

#[test]
fn math_operand_types() {
    for p in ALL {
        ok(p, &math(MathFunction::IntDivQuotient, UD, UD));
        ok(p, &math(MathFunction::Sqrt, F, F));
        bad(p, &math(MathFunction::IntDivQuotient, F, F), "math_operand_types");
        bad(p, &math(MathFunction::Sqrt, D, D), "math_operand_types");
        bad(p, &math(MathFunction::Sin, F, D), "math_operand_types");
    }
}

#[test]
fn gen8_branch_offset_aligned() {
    let br = |jip: i32, uip: i32| {
        Instruction::new(Opcode::If, ExecSize::S8).with(|i| {
            assert!(i.set_branch(Gen8, jip, Some(uip)));
            i.src[0] = Src::imm(D);
            i.dst.ty = D;
        })
    };
    for p in GEN8 {
        ok(p, &br(32, 96));
        ok(p, &br(-8, 8));
        bad(p, &br(4, 96), "gen8_branch_offset_aligned");
        bad(p, &br(32, 12), "gen8_branch_offset_aligned");
    }
}
