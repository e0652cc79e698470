//! The restrictions Intel's decoder enforces (issue 14, section 2) and the
//! conditional-modifier and SFID classes of section 1: one test per rule,
//! named after it, with the example words where it gives one.

use crate::validate_util;
use validate_util::*;

use geneu::isa::arf;

/// A word in the byte order, decoded.
fn word(p: Platform, hex: &str) -> Instruction {
    let bytes: Vec<u8> = hex
        .split_whitespace()
        .map(|b| u8::from_str_radix(b, 16).unwrap())
        .collect();
    decode(p, &bytes.try_into().unwrap()).unwrap()
}

/// A directly addressed ARF register of class `nr`, scalar, as a source.
fn arf_src(nr: u8, ty: Type) -> Src {
    Src {
        file: RegFile::Arf,
        addr: Addr::Direct { nr, subnr: 0 },
        region: Region::SCALAR,
        ..null_src(ty)
    }
}

/// `.r` (7) exists on Gen4-5 only: flagged on every opcode that carries a
/// conditional modifier (the issue's `10 00 60 07 c8 32 60 27 …` is a
/// `cmp.r`), consistently, and never on MATH or SEND whose bits 27:24 are
/// the function and the SFID.
#[test]
fn cond_modifier_valid_refuses_r() {
    let mut cmp = Instruction::new(Opcode::Cmp, ExecSize::S8);
    cmp.cond_modifier = 7;
    cmp.dst = Dst::grf(25, 0, F);
    cmp.src[0] = Src::grf(12, 0, F, rgn(8, 8, 1));
    cmp.src[1] = Src::grf(19, 0, F, rgn(8, 8, 1));
    for p in ALL {
        let w = encode_unchecked(p, &cmp).unwrap();
        // The word begins `10 00 60 07`: cmp(8), condition 7.
        assert_eq!(w[..4], [0x10, 0x00, 0x60, 0x07][..]);
        let back = decode(p, &w).unwrap();
        let v = validate(p, &back).unwrap_err();
        assert_eq!(v.rules().collect::<Vec<_>>(), ["cond_modifier_valid"], "{p}: {v}");
    }
    for op in [
        Opcode::Mov,
        Opcode::Add,
        Opcode::And,
        Opcode::Sel,
        Opcode::Mul,
        Opcode::If,
        Opcode::Mad,
    ] {
        for p in ALL {
            let mut i = if op.num_srcs() == 3 { alu3(op, F) } else { alu(op) };
            i.cond_modifier = 7;
            bad(p, &i, "cond_modifier_valid");
            for cm in [0, 1, 6, 8, 9] {
                i.cond_modifier = cm;
                not(p, &i, "cond_modifier_valid");
            }
        }
    }
    for p in ALL {
        // The same bits: a math function (7 is EXP) and an SFID (7, the
        // thread spawner).
        let mut exp = alu(Opcode::Math);
        exp.cond_modifier = 7;
        exp.src[1] = null_src(F);
        ok(p, &exp);
        let ts = send(7, 1, 0, false);
        not(p, &ts, "cond_modifier_valid");
    }
}

/// Reserved SFIDs: 1, 14 and 15 everywhere, 12 and 13 on Ivy Bridge. The
/// issue's `31 00 60 0e …` sends to SFID 14 (Gen8).
#[test]
fn send_sfid_defined() {
    let w = word(Gen8, "31 00 60 0e e0 3a 00 20 60 0f 8d 06 17 00 08 8a");
    let v = validate(Gen8, &w).unwrap_err();
    assert!(v.has("send_sfid_defined"), "{v}");
    assert!(v.any_documented());
    for p in ALL {
        for sfid in 0..16u8 {
            let reserved = matches!(sfid, 1 | 14 | 15) || (p == Gen7 && matches!(sfid, 12 | 13));
            let i = send(sfid, 1, 1, true);
            if reserved {
                bad(p, &i, "send_sfid_defined");
            } else {
                not(p, &i, "send_sfid_defined");
            }
        }
    }
}

/// The descriptor is an immediate or an address register.
#[test]
fn send_desc_imm_or_a0() {
    for p in ALL {
        let imm = send(10, 1, 1, false);
        ok(p, &imm);
        let a0 = imm.with(|i| i.src[1] = arf_src(arf::ADDRESS, UD));
        ok(p, &a0);
        let grf = imm.with(|i| i.src[1] = scalar(4, UD));
        bad(p, &grf, "send_desc_imm_or_a0");
        let acc = imm.with(|i| i.src[1] = arf_src(arf::ACC, UD));
        bad(p, &acc, "send_desc_imm_or_a0");
    }
}

/// Gen7 MATH: directly addressed GRF operands only.
#[test]
fn gen7_math_operands_direct_grf() {
    let pow = alu(Opcode::Math).with(|i| i.cond_modifier = MathFunction::Pow.hw());
    let sin = alu(Opcode::Math).with(|i| {
        i.cond_modifier = MathFunction::Sin.hw();
        i.src[1] = null_src(F);
    });
    for p in ALL {
        ok(p, &pow);
        // A one-source function's src1 is not read.
        ok(p, &sin);
    }
    let imm = pow.with(|i| i.src[1] = Src::imm(F));
    let acc_src = pow.with(|i| i.src[0] = acc(F));
    let ind = pow.with(|i| i.src[0].addr = Addr::Indirect { subnr: 0, imm: 0 });
    let acc_dst = pow.with(|i| i.dst = arf_dst(arf::ACC, F));
    for i in [imm, acc_src, ind, acc_dst] {
        for p in [Gen7, Gen75] {
            bad(p, &i, "gen7_math_operands_direct_grf");
        }
        for p in [Gen8, Chv] {
            not(p, &i, "gen7_math_operands_direct_grf");
        }
    }
    ok(Gen8, &imm);
}

/// `jmpi(1) ip ip 16D {NoMask}`, as Mesa's `brw_JMPI` builds it.
fn jmpi() -> Instruction {
    let mut i = Instruction::new(Opcode::Jmpi, ExecSize::S1);
    i.controls = Controls::WE_ALL;
    i.dst = arf_dst(arf::IP, UD);
    i.src[0] = arf_src(arf::IP, UD);
    i.src[1] = Src::imm(D);
    i.imm = 16;
    i
}

#[test]
fn jmpi_simd1_nomask() {
    for p in ALL {
        ok(p, &jmpi());
        bad(p, &jmpi().exec(8), "jmpi_simd1_nomask");
        bad(p, &jmpi().with(|i| i.controls = Controls::empty()), "jmpi_simd1_nomask");
    }
}

#[test]
fn jmpi_operands() {
    for p in ALL {
        ok(p, &jmpi().with(|i| i.dst = arf_dst(arf::NULL, UD)));
        bad(p, &jmpi().with(|i| i.dst = Dst::grf(2, 0, UD)), "jmpi_operands");
        bad(p, &jmpi().with(|i| i.src[0] = scalar(2, UD)), "jmpi_operands");
        bad(p, &jmpi().with(|i| i.src[1] = Src::imm(UD)), "jmpi_operands");
        // A distance in a register, :d.
        ok(p, &jmpi().with(|i| i.src[1] = scalar(3, D)));
    }
}

#[test]
fn brd_brc_dst_null() {
    for op in [Opcode::Brd, Opcode::Brc] {
        let mut i = Instruction::new(op, ExecSize::S8);
        i.dst = arf_dst(arf::NULL, D);
        // The offsets in the payload (an immediate src0).
        i.src[0] = Src::imm(D);
        for p in ALL {
            ok(p, &i);
            // The offsets in a register.
            ok(p, &i.with(|i| i.src[0] = scalar(11, UD)));
            bad(p, &i.with(|i| i.dst = arf_dst(arf::IP, D)), "brd_brc_dst_null");
            bad(p, &i.with(|i| i.dst = Dst::grf(4, 0, D)), "brd_brc_dst_null");
        }
    }
}

/// The shipped `call(16)` passes; a modifier, another type or region on
/// src0 does not.
#[test]
fn call_src0_two_dwords() {
    let call = word(Gen8, "2c 00 80 00 08 00 d0 2f 00 00 45 0e 50 34 00 00");
    ok(Gen8, &call);
    bad(
        Gen8,
        &call.with(|i| i.src[0].mods = SrcMods::NEGATE),
        "call_src0_two_dwords",
    );
    bad(Gen8, &call.with(|i| i.src[0].ty = F), "call_src0_two_dwords");
    bad(
        Gen8,
        &call.with(|i| i.src[0].region = rgn(8, 8, 1)),
        "call_src0_two_dwords",
    );
    ok(Gen8, &call.with(|i| i.src[0].region = Region::SCALAR));
    let calla = call.with(|i| i.opcode = Opcode::Calla);
    for p in [Gen75, Gen8, Chv] {
        ok(p, &calla);
        bad(p, &calla.with(|i| i.src[0].mods = SrcMods::ABS), "call_src0_two_dwords");
    }
}

/// Mesa's `wait` words (corpus) pass; a wait reading a region does not.
#[test]
fn wait_src0_scalar() {
    let a1 = word(Gen8, "30 00 00 00 04 00 08 32 08 12 00 38 00 00 8d 00");
    let a16 = word(Gen7, "30 03 00 00 00 70 02 32 05 12 05 00 04 00 6e 00");
    ok(Gen8, &a1);
    ok(Gen7, &a16);
    bad(Gen8, &a1.with(|i| i.src[0].region = rgn(8, 8, 1)), "wait_src0_scalar");
    bad(Gen7, &a16.with(|i| i.src[0].region.vstride = 3), "wait_src0_scalar");
}
