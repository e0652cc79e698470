//! 64-bit restrictions: Cherryview's regioning, addressing, ARF and
//! dependency-control rules (also for integer dword multiplies), and the
//! Gen8 align16 execution-size limit. Tables follow Mesa's tests; every
//! case is legal on Broadwell and on Gen7/7.5 where the types exist.

use crate::validate_util;
use validate_util::*;

/// MOV or MUL (by an immediate 0 of the source type) in the layout of
/// Mesa's qword tests.
fn qword(op: Opcode, exec: u32, d: Type, s: Type) -> Instruction {
    let i = if op == Opcode::Mov {
        mov(d, s)
    } else {
        alu2(Opcode::Mul, d, s, s).with(|i| i.src[1] = Src::imm(s))
    };
    i.exec(exec)
}

/// Platforms where all of an instruction's types exist.
fn platforms(i: &Instruction) -> Vec<Platform> {
    let q = [i.dst.ty, i.src[0].ty].iter().any(|t| matches!(t, Q | UQ));
    ALL.into_iter().filter(|p| p.is_gen8() || !q).collect()
}

#[test]
fn chv_64bit_regioning_table() {
    // (op, exec, dst, dst subreg, dst stride, src, src subreg, v, w, h, legal on CHV)
    let table = QWORD_LOW_POWER_ALIGN1_REGIONING;
    for (n, (op, exec, d, dsub, dst, s, ssub, v, w, h, legal)) in table.into_iter().enumerate() {
        let i = qword(op, exec, d, s)
            .dst_sub(dsub)
            .src_sub(0, ssub)
            .dst_stride(dst)
            .src_rgn(0, v, w, h);
        assert_eq!(
            validate(Chv, &i).is_ok(),
            legal,
            "chv case {n}: {:?}",
            validate(Chv, &i)
        );
        assert!(validate(Gen8, &i).is_ok(), "bdw case {n}: {:?}", validate(Gen8, &i));
    }
}

#[test]
fn chv_64bit_align1_stride_qword_equal() {
    let i = qword(Opcode::Mov, 4, DF, DF).src_rgn(0, 4, 4, 1);
    ok(Chv, &i);
    bad(Chv, &i.dst_stride(2), "chv_64bit_align1_stride_qword_equal");
    bad(
        Chv,
        &qword(Opcode::Mov, 4, DF, F).src_rgn(0, 4, 4, 1),
        "chv_64bit_align1_stride_qword_equal",
    );
    ok(Chv, &qword(Opcode::Mov, 4, DF, F).src_rgn(0, 8, 4, 2));
    bad(
        Chv,
        &qword(Opcode::Mul, 4, D, D).dst_stride(2).src_rgn(0, 4, 4, 1),
        "chv_64bit_align1_stride_qword_equal",
    );
    for p in [Gen7, Gen75, Gen8] {
        not(p, &i.dst_stride(2), "chv_64bit_align1_stride_qword_equal");
    }
}

#[test]
fn chv_64bit_vstride_eq_width_hstride() {
    bad(
        Chv,
        &qword(Opcode::Mov, 4, DF, DF).src_rgn(0, 0, 2, 1),
        "chv_64bit_vstride_eq_width_hstride",
    );
    bad(
        Chv,
        &qword(Opcode::Mul, 8, D, D).dst_stride(2).src_rgn(0, 0, 4, 2),
        "chv_64bit_vstride_eq_width_hstride",
    );
    ok(Chv, &qword(Opcode::Mov, 4, DF, DF).src_rgn(0, 4, 4, 1));
    ok(Gen8, &qword(Opcode::Mov, 4, DF, DF).src_rgn(0, 0, 2, 1));
}

#[test]
fn chv_64bit_same_offset() {
    let i = qword(Opcode::Mov, 2, DF, DF).dst_sub(8).src_rgn(0, 2, 2, 1);
    bad(Chv, &i, "chv_64bit_same_offset");
    ok(Chv, &i.src_sub(0, 8));
    // A scalar source is exempt.
    ok(Chv, &i.src_rgn(0, 0, 1, 0));
    ok(Gen8, &i);
}

#[test]
fn chv_64bit_no_indirect() {
    // (op, exec, dst, dst indirect, dst stride, src, src indirect, v, w, h, legal on CHV)
    let table = QWORD_LOW_POWER_NO_INDIRECT_ADDRESSING;
    let ind = Addr::Indirect { subnr: 0, imm: 0 };
    for (n, (op, exec, d, di, dst, s, si, v, w, h, legal)) in table.into_iter().enumerate() {
        let i = qword(op, exec, d, s).dst_stride(dst).src_rgn(0, v, w, h).with(|i| {
            if di {
                i.dst.addr = ind;
            }
            if si {
                i.src[0].addr = ind;
            }
        });
        assert_eq!(
            validate(Chv, &i).is_ok(),
            legal,
            "chv case {n}: {:?}",
            validate(Chv, &i)
        );
        if !legal {
            bad(Chv, &i, "chv_64bit_no_indirect");
        }
        assert!(validate(Gen8, &i).is_ok(), "bdw case {n}: {:?}", validate(Gen8, &i));
    }
}

#[test]
fn chv_64bit_no_arf() {
    use Opcode::{Mov, Mul};
    let g0 = |t: Type| g(0, t);
    let acc0 = |t: Type| acc(t);
    let gd = |t: Type| Dst::grf(0, 0, t);
    let accd = |t: Type| arf_dst(0x20, t);
    let nulld = |t: Type| arf_dst(0, t);
    type S = fn(Type) -> Src;
    type D_ = fn(Type) -> Dst;
    type Row = (Opcode, u32, D_, Type, u32, S, Type, u32, u32, u32, bool, bool);
    // (op, exec, dst, dst type, dst stride, src, src type, v, w, h, AccWrEn, legal on CHV)
    let table: [Row; 34] = [
        (Mov, 4, gd, DF, 1, g0, F, 4, 2, 2, false, true),
        (Mov, 4, gd, F, 2, g0, DF, 4, 4, 1, false, true),
        (Mov, 4, gd, Q, 1, g0, D, 4, 2, 2, false, true),
        (Mov, 4, gd, D, 2, g0, Q, 4, 4, 1, false, true),
        (Mov, 4, gd, UQ, 1, g0, UD, 4, 2, 2, false, true),
        (Mov, 4, gd, UD, 2, g0, UQ, 4, 4, 1, false, true),
        (Mov, 4, nulld, F, 1, g0, F, 4, 4, 1, false, true),
        (Mov, 4, accd, F, 1, g0, F, 4, 4, 1, false, true),
        (Mov, 4, gd, F, 1, acc0, F, 4, 4, 1, false, true),
        (Mov, 4, nulld, D, 1, g0, D, 4, 4, 1, false, true),
        (Mov, 4, accd, D, 1, g0, D, 4, 4, 1, false, true),
        (Mov, 4, gd, D, 1, acc0, D, 4, 4, 1, false, true),
        (Mov, 4, nulld, UD, 1, g0, UD, 4, 4, 1, false, true),
        (Mov, 4, accd, UD, 1, g0, UD, 4, 4, 1, false, true),
        (Mov, 4, gd, UD, 1, acc0, UD, 4, 4, 1, false, true),
        (Mul, 4, gd, D, 2, g0, D, 4, 2, 2, false, true),
        (Mul, 4, gd, UD, 2, g0, UD, 4, 2, 2, false, true),
        (Mov, 4, accd, DF, 1, g0, F, 4, 2, 2, false, false),
        (Mov, 4, gd, DF, 1, acc0, F, 4, 2, 2, false, false),
        (Mov, 4, accd, Q, 1, g0, D, 4, 2, 2, false, false),
        (Mov, 4, gd, Q, 1, acc0, D, 4, 2, 2, false, false),
        (Mov, 4, accd, UQ, 1, g0, UD, 4, 2, 2, false, false),
        (Mov, 4, gd, UQ, 1, acc0, UD, 4, 2, 2, false, false),
        (Mov, 4, accd, F, 2, g0, DF, 4, 4, 1, false, false),
        (Mov, 4, gd, F, 2, acc0, DF, 4, 4, 1, false, false),
        (Mov, 4, accd, D, 2, g0, Q, 4, 4, 1, false, false),
        (Mov, 4, gd, D, 2, acc0, Q, 4, 4, 1, false, false),
        (Mov, 4, accd, UD, 2, g0, UQ, 4, 4, 1, false, false),
        (Mov, 4, gd, UD, 2, acc0, UQ, 4, 4, 1, false, false),
        (Mul, 4, accd, D, 2, g0, D, 4, 2, 2, false, false),
        (Mul, 4, accd, UD, 2, g0, UD, 4, 2, 2, false, false),
        (Mov, 4, nulld, DF, 1, g0, F, 4, 2, 2, false, true),
        (Mov, 4, nulld, Q, 1, g0, D, 4, 2, 2, false, true),
        (Mov, 4, nulld, DF, 1, g0, F, 4, 2, 2, true, false),
    ];
    for (n, (op, exec, dst, dt, dstride, src, st, v, w, h, accwr, legal)) in table.into_iter().enumerate() {
        let i = qword(op, exec, dt, st)
            .with(|i| {
                i.dst = dst(dt);
                i.src[0] = src(st);
                i.controls.set(Controls::ACC_WR, accwr);
            })
            .dst_stride(dstride)
            .src_rgn(0, v, w, h);
        assert_eq!(
            validate(Chv, &i).is_ok(),
            legal,
            "chv case {n}: {:?}",
            validate(Chv, &i)
        );
        // Broadwell: only a dword multiply into the accumulator is refused.
        let bdw_legal = legal || !(op == Mul && i.dst.file == RegFile::Arf);
        assert_eq!(
            validate(Gen8, &i).is_ok(),
            bdw_legal,
            "bdw case {n}: {:?}",
            validate(Gen8, &i)
        );
        for p in platforms(&i).into_iter().filter(|p| !p.is_gen8()) {
            not(p, &i, "chv_64bit_no_arf");
        }
    }
    // MUL DF <- F with AccWrEnable, and MAC reading the accumulator implicitly.
    let mul = qword(Mul, 4, DF, F)
        .with(|i| {
            i.dst = nulld(DF);
            i.controls.insert(Controls::ACC_WR);
        })
        .src_rgn(0, 4, 2, 2);
    bad(Chv, &mul, "chv_64bit_no_arf");
    ok(Gen8, &mul);
    let mac = alu2(Opcode::Mac, DF, DF, DF).src_rgn(0, 4, 4, 1).src_rgn(1, 4, 4, 1);
    bad(Chv, &mac, "chv_64bit_no_arf");
    for p in [Gen7, Gen75, Gen8] {
        ok(p, &mac);
    }
}

#[test]
fn chv_64bit_no_depctrl() {
    // (op, exec, dst, dst stride, src, v, w, h, NoDDChk, NoDDClr, legal on CHV)
    let table = QWORD_LOW_POWER_NO_DEPCTRL;
    for (op, exec, d, dstride, s, v, w, h, chk, clr, legal) in table {
        let i = qword(op, exec, d, s).dst_stride(dstride).src_rgn(0, v, w, h).with(|i| {
            i.controls.set(Controls::NO_DD_CHECK, chk);
            i.controls.set(Controls::NO_DD_CLEAR, clr);
        });
        expect(Chv, &i, "chv_64bit_no_depctrl", legal);
        for p in platforms(&i).into_iter().filter(|p| *p != Chv) {
            ok(p, &i);
        }
    }
}

#[test]
fn gen8_align16_qword_dst_nonqword_src_max_exec2() {
    // Mesa's align16_64_bit_integer.
    for (op, exec, d, s, legal) in [
        (Opcode::Mov, 2, Q, D, true),
        (Opcode::Mov, 2, UQ, UD, true),
        (Opcode::Mov, 2, DF, F, true),
        (Opcode::Add, 2, Q, D, true),
        (Opcode::Add, 2, UQ, UD, true),
        (Opcode::Add, 2, DF, F, true),
        (Opcode::Mov, 4, Q, D, false),
        (Opcode::Mov, 4, UQ, UD, false),
        (Opcode::Mov, 4, DF, F, false),
        (Opcode::Add, 4, Q, D, false),
        (Opcode::Add, 4, UQ, UD, false),
        (Opcode::Add, 4, DF, F, false),
    ] {
        let i = alu2(op, d, s, s).a16().exec(exec);
        for p in [Gen8, Chv] {
            expect(p, &i, "gen8_align16_qword_dst_nonqword_src_max_exec2", legal);
        }
    }
    // All-qword operands are not limited.
    ok(Gen8, &alu2(Opcode::Add, DF, DF, DF).a16().exec(4));
}
