//! Region rules: the general regioning restrictions (A-H), align16, and
//! the region alignment rules. Vectors follow Mesa's validator tests:
//! `add(8) g0<1>F g0<8,8,1>F g0<8,8,1>F` modified one field at a time.

use crate::validate_util;
use validate_util::*;

fn add() -> Instruction {
    alu(Opcode::Add)
}

/// `add(n) g0<1>F g0<w,w,1>F g0<w,w,1>F` with w = min(n, 8) (scalar for n = 1).
fn add_n(n: u32) -> Instruction {
    let w = n.min(8);
    let i = add().exec(n);
    if n == 1 {
        i.src_rgn(0, 0, 1, 0).src_rgn(1, 0, 1, 0)
    } else {
        i.src_rgn(0, w, w, 1).src_rgn(1, w, w, 1)
    }
}

#[test]
fn sanity() {
    for p in ALL {
        ok(p, &add());
        ok(p, &add_n(16));
    }
}

#[test]
fn exec_size_ge_width() {
    for p in ALL {
        for k in 0..2 {
            bad(p, &add().src_rgn(k, 16, 16, 1), "exec_size_ge_width");
            bad(p, &add_n(4).src_rgn(k, 8, 8, 1), "exec_size_ge_width");
            ok(p, &add_n(4).src_rgn(k, 4, 4, 1));
        }
        // Edge: width equal to the execution size.
        ok(p, &mov(W, W).exec(16).src_rgn(0, 16, 16, 1));
        ok(p, &mov(F, F).exec(1).src_rgn(0, 0, 1, 0));
        bad(p, &mov(F, F).exec(1).src_rgn(0, 2, 2, 1), "exec_size_ge_width");
    }
}

#[test]
fn width_eq_exec_implies_vstride() {
    for p in ALL {
        for k in 0..2 {
            bad(p, &add().src_rgn(k, 4, 8, 1), "width_eq_exec_implies_vstride");
            bad(p, &add().src_rgn(k, 16, 8, 1), "width_eq_exec_implies_vstride");
            ok(p, &add_n(4).src_rgn(k, 8, 4, 2));
            // With HorzStride 0 there is no vertical stride restriction.
            ok(p, &add_n(4).src_rgn(k, 8, 4, 0).with(|i| i.src[k].region.vstride = 2));
        }
        // Width below the execution size: no restriction either.
        ok(p, &add().src_rgn(0, 4, 4, 1));
        ok(p, &add().src_rgn(0, 8, 4, 1));
    }
}

#[test]
fn width_one_implies_hstride_zero() {
    for p in ALL {
        for k in 0..2 {
            bad(p, &add().src_rgn(k, 0, 1, 1), "width_one_implies_hstride_zero");
            bad(p, &add().src_rgn(k, 1, 1, 4), "width_one_implies_hstride_zero");
            ok(p, &add_n(4).src_rgn(k, 1, 1, 0));
        }
    }
}

#[test]
fn scalar_region() {
    for p in ALL {
        let one = add_n(1).src_rgn(0, 0, 1, 0).src_rgn(1, 0, 1, 0);
        ok(p, &one);
        for k in 0..2 {
            bad(p, &one.src_rgn(k, 1, 1, 0), "scalar_region");
            bad(p, &one.src_rgn(k, 32, 1, 0), "scalar_region");
        }
        // With more channels <1;1,0> is a legal (linear) region.
        ok(p, &add_n(2).src_rgn(0, 1, 1, 0));
    }
}

/// Conservative: the issue's `mov(1) g4.2<1>UW g[a0.2]<VxH,1,0>UW`.
#[test]
fn scalar_region_vxh() {
    let i = mov(UW, UW).exec(1).dst_sub(4).with(|i| {
        i.dst.addr = Addr::Direct { nr: 4, subnr: 4 };
        i.src[0].addr = Addr::Indirect { subnr: 2, imm: 0 };
        i.src[0].region = Region {
            vstride: 0xf,
            width: 0,
            hstride: 0,
        };
    });
    for p in ALL {
        let v = validate(p, &i).unwrap_err();
        assert_eq!(v.rules().collect::<Vec<_>>(), ["scalar_region_vxh"], "{p}: {v}");
        assert!(!v.any_documented());
        not(p, &i, "scalar_region");
        // A VxH region with more channels is not concerned.
        not(p, &i.exec(2), "scalar_region_vxh");
    }
}

#[test]
fn zero_strides_imply_width_one() {
    for p in ALL {
        for k in 0..2 {
            bad(p, &add().src_rgn(k, 0, 2, 0), "zero_strides_imply_width_one");
            bad(p, &add().src_rgn(k, 0, 8, 0), "zero_strides_imply_width_one");
            ok(p, &add().src_rgn(k, 0, 1, 0));
        }
    }
}

#[test]
fn row_within_grf() {
    for p in ALL {
        for k in 0..2 {
            // g0.4<8,8,1>F: the row covers bytes 4..35.
            bad(p, &add().src_sub(k, 4), "row_within_grf");
            // <4,4,2>F: the second row covers bytes 16..47.
            bad(p, &add().src_rgn(k, 4, 4, 2), "row_within_grf");
            // Two rows of 8 dwords meet at the boundary: fine.
            ok(p, &add_n(16).src_rgn(k, 8, 8, 1));
            ok(p, &add_n(4).src_sub(k, 16).src_rgn(k, 4, 4, 1));
        }
        // A scalar element straddling a register boundary.
        bad(
            p,
            &mov(D, D).exec(1).src_sub(0, 30).src_rgn(0, 0, 1, 0),
            "row_within_grf",
        );
        ok(p, &mov(D, D).exec(1).src_sub(0, 28).src_rgn(0, 0, 1, 0));
    }
    // SEND payloads are judged by send_payload_row_within_grf.
    let send = send_payload(16, Src::grf(6, 4, F, rgn(8, 8, 1)));
    for p in ALL {
        not(p, &send, "row_within_grf");
    }
    // Ivy Bridge regions DF in 32-bit units: eight "elements" fill a register.
    let df = mov(DF, DF).exec(8).src_rgn(0, 8, 8, 1);
    ok(Gen7, &df);
    for p in [Gen75, Gen8] {
        bad(p, &df, "row_within_grf");
    }
}

#[test]
fn dst_hstride_nonzero() {
    for p in ALL {
        bad(p, &add().with(|i| i.dst.hstride = 0), "dst_hstride_nonzero");
        // The null destination is exempt.
        ok(
            p,
            &alu(Opcode::Cmp).with(|i| {
                i.dst = Dst {
                    hstride: 0,
                    ..Dst::null()
                };
                i.cond_modifier = CondMod::Z.hw();
                i.thread_control = ThreadControl::Switch;
            }),
        );
        // In align16 the align16 rule reports it.
        bad(p, &add().a16().with(|i| i.dst.hstride = 0), "align16_dst_hstride_one");
    }
}

#[test]
fn align16_dst_hstride_one() {
    for p in ALL {
        ok(p, &add().a16());
        bad(p, &add().a16().dst_stride(2), "align16_dst_hstride_one");
        bad(p, &add().a16().dst_stride(4), "align16_dst_hstride_one");
    }
}

#[test]
fn align16_src_vstride() {
    // Encodings: 0, 1, 2, 4, 8, 16, 32 elements, then VxH (15).
    let cases = [
        (0, true, true),
        (1, false, false),
        (2, false, true),
        (3, true, true),
        (4, false, false),
        (5, false, false),
        (6, false, false),
        (15, false, false),
    ];
    for (enc, ivb, hsw) in cases {
        for k in 0..2 {
            let i = add().a16().with(|i| i.src[k].region.vstride = enc);
            expect(Gen7, &i, "align16_src_vstride", ivb);
            for p in [Gen75, Gen8, Chv] {
                expect(p, &i, "align16_src_vstride", hsw);
            }
        }
    }
}

#[test]
fn vxh_addresses_in_a0() {
    let vxh = |exec: u32, subnr: u8| {
        mov(F, F).exec(exec).with(|i| {
            i.src[0].addr = Addr::Indirect { subnr, imm: 0 };
            i.src[0].region = Region {
                vstride: 0xf,
                width: 0,
                hstride: 0,
            };
        })
    };
    for p in ALL {
        ok(p, &vxh(8, 0));
        // Width 2: four addresses for eight channels.
        ok(
            p,
            &vxh(8, 4)
                .with(|i| i.src[0].region.width = 1)
                .with(|i| i.src[0].region.hstride = 1),
        );
    }
    // Sixteen addresses need Gen8's sixteen address subregisters.
    only_on(&vxh(16, 0), "vxh_addresses_in_a0", &[Gen8, Chv]);
    only_on(&vxh(8, 1), "vxh_addresses_in_a0", &[Gen8, Chv]);
    only_on(&vxh(16, 1), "vxh_addresses_in_a0", &[]);
}

#[test]
fn src_spans_at_most_two_grfs() {
    let w = |i: Instruction| i.types(W, W, W);
    for p in ALL {
        bad(p, &w(add_n(32)).src_rgn(1, 16, 8, 2), "src_spans_at_most_two_grfs");
        ok(p, &w(add_n(16)).src_rgn(1, 16, 8, 2).src_sub(1, 2));
        ok(p, &add_n(16));
        // Edge: the last element ends at byte 63, or at 65.
        ok(p, &mov(F, F).exec(2).src_rgn(0, 8, 1, 0).src_sub(0, 28));
        bad(
            p,
            &mov(D, D).exec(2).src_rgn(0, 8, 1, 0).src_sub(0, 30),
            "src_spans_at_most_two_grfs",
        );
    }
}

#[test]
fn dst_spans_at_most_two_grfs() {
    let w = |i: Instruction| i.types(W, W, W);
    for p in ALL {
        bad(p, &w(add_n(32)).dst_stride(2), "dst_spans_at_most_two_grfs");
        ok(
            p,
            &w(add())
                .dst_sub(6)
                .dst_stride(4)
                .src_rgn(0, 16, 4, 1)
                .src_rgn(1, 16, 4, 1),
        );
        // Edge: an element starting at byte 62 ends in the third register.
        // Edges: the last element at bytes 60..63, or at 64.
        let d = mov(D, D).exec(4).dst_stride(4).src_rgn(0, 0, 1, 0);
        ok(p, &d.dst_sub(12));
        bad(p, &d.dst_sub(16), "dst_spans_at_most_two_grfs");
        // An element straddling into a third register.
        bad(p, &d.dst_sub(14), "dst_spans_at_most_two_grfs");
    }
}

#[test]
fn dst_one_reg_src_two_regs_oword_split() {
    let base = || add().types(W, W, W).src_rgn(1, 16, 4, 2);
    for p in ALL {
        // All in the lower OWord, all in the upper OWord, split evenly.
        ok(p, &base());
        ok(p, &base().dst_sub(16));
        ok(p, &add().types(W, W, W).exec(16).src_rgn(1, 16, 8, 2));
        // Three channels below byte 16, one above.
        let uneven = add()
            .types(W, W, W)
            .exec(4)
            .dst_sub(10)
            .src_rgn(0, 4, 4, 1)
            .src_rgn(1, 16, 2, 1);
        bad(p, &uneven, "dst_one_reg_src_two_regs_oword_split");
    }
}

fn sin() -> Instruction {
    alu(Opcode::Math).with(|i| {
        i.cond_modifier = MathFunction::Sin.hw();
        i.src[1] = null_src(F);
    })
}

#[test]
fn dst_two_regs_evenly_split() {
    for p in ALL {
        ok(p, &add_n(16));
        ok(p, &sin());
    }
    // Gen8: whatever the sources.
    for p in [Gen8, Chv] {
        bad(p, &add().dst_sub(4), "dst_two_regs_evenly_split");
        bad(p, &sin().dst_sub(4), "dst_two_regs_evenly_split");
    }
    // Gen7: with a source spanning two registers (g0.4<8,8,1>F).
    for p in [Gen7, Gen75] {
        let i = add().dst_sub(4).src_sub(0, 4).src_rgn(0, 4, 4, 1).src_rgn(1, 0, 1, 0);
        bad(p, &i, "dst_two_regs_evenly_split");
        not(p, &sin().dst_sub(4), "dst_two_regs_evenly_split");
    }
}

/// Conservative: the even split on Gen7 with every source in one register.
#[test]
fn gen7_dst_two_regs_evenly_split_one_reg_srcs() {
    // A scalar source (exempt from the two-register source rule) and a
    // destination split 7/1 between g0 and g1.
    let i = mov(F, F).dst_sub(4).src_rgn(0, 0, 1, 0);
    for p in [Gen7, Gen75] {
        let v = validate(p, &i).unwrap_err();
        assert_eq!(
            v.rules().collect::<Vec<_>>(),
            ["gen7_dst_two_regs_evenly_split_one_reg_srcs"],
            "{v}"
        );
        assert!(!v.any_documented());
    }
    for p in [Gen8, Chv] {
        bad(p, &i, "dst_two_regs_evenly_split");
        not(p, &i, "gen7_dst_two_regs_evenly_split_one_reg_srcs");
    }
}

/// Conservative: the issue's `mul(16) g14<1>D g13<8,8,1>W g13<8,8,1>W`,
/// the packed-word exception on src1 (677 shipped words).
#[test]
fn gen7_packed_word_exception_src0_only() {
    let mul = alu(Opcode::Mul).exec(16).with(|i| {
        i.dst = Dst::grf(14, 0, D);
        i.src[0] = Src::grf(13, 0, W, rgn(8, 8, 1));
        i.src[1] = Src::grf(13, 0, W, rgn(8, 8, 1));
    });
    for p in [Gen7, Gen75] {
        let v = validate(p, &mul).unwrap_err();
        assert_eq!(
            v.rules().collect::<Vec<_>>(),
            ["gen7_packed_word_exception_src0_only"],
            "{v}"
        );
        assert_eq!(v.0[0].operand, validate::OperandId::Src(1));
        assert_eq!(v.0[0].basis, validate::Basis::Conservative);
        // The same on src0 is the documented exception.
        ok(p, &add_n(16).types(D, W, D));
        bad(p, &add_n(16).types(D, D, W), "gen7_packed_word_exception_src0_only");
    }
    for p in [Gen8, Chv] {
        ok(p, &mul);
    }
}

#[test]
fn gen7_two_src_regs_same_offset() {
    // src0 g0.4<2,1,0>F reads g0.4 and g1.0: offsets 16 and 0.
    let i = add()
        .exec(4)
        .dst_stride(4)
        .src_sub(0, 16)
        .src_rgn(0, 2, 1, 0)
        .src_rgn(1, 4, 4, 1);
    only_on(&i, "gen7_two_src_regs_same_offset", &[Gen8, Chv]);
    let same = add_n(4).dst_stride(4).src_rgn(0, 4, 1, 0).src_rgn(1, 8, 2, 1);
    for p in ALL {
        ok(p, &same);
    }
}

#[test]
fn gen7_dst_reg_from_one_src_reg() {
    let i = mov(W, W).exec(16).dst_stride(2).src_sub(0, 8).src_rgn(0, 4, 4, 1);
    only_on(&i, "gen7_dst_reg_from_one_src_reg", &[Gen8, Chv]);
    let j = mov(F, F).dst_sub(16).src_sub(0, 8).src_rgn(0, 2, 2, 1);
    only_on(&j, "gen7_dst_reg_from_one_src_reg", &[Gen8, Chv]);
    for p in ALL {
        ok(p, &mov(F, F).exec(16));
    }
}

#[test]
fn gen7_dst_two_regs_src_two_regs() {
    for p in ALL {
        // Scalar sources, and a packed word src0 into a packed dword dst.
        ok(p, &add_n(16).src_rgn(0, 0, 1, 0).src_rgn(1, 0, 1, 0));
        ok(p, &add_n(16).types(D, W, D));
    }
    // A word source in one register that is not packed (a repeated row).
    only_on(
        &add_n(16).types(D, W, D).src_rgn(0, 0, 8, 1),
        "gen7_dst_two_regs_src_two_regs",
        &[Gen8, Chv],
    );
    let w = add_n(16).types(W, W, W).dst_stride(2).src_rgn(1, 0, 1, 0);
    only_on(&w, "gen7_dst_two_regs_src_two_regs", &[Gen8, Chv]);
    let w0 = add_n(16).types(W, W, W).dst_stride(2).src_rgn(0, 0, 1, 0);
    only_on(&w0, "gen7_dst_two_regs_src_two_regs", &[Gen8, Chv]);
}

#[test]
fn validate_reg_runs_only_region_rules() {
    use geneu::validate::validate_reg;
    for p in ALL {
        // A region violation is found, an operand-type one is not.
        assert!(validate_reg(p, &add().src_rgn(0, 4, 8, 1))
            .unwrap_err()
            .has("width_eq_exec_implies_vstride"));
        let ratio = alu2(Opcode::Add, W, D, D);
        assert!(validate(p, &ratio).is_err());
        assert!(validate_reg(p, &ratio).is_ok());
    }
}

/// Conservative: the issue's `send(32) g8<1>W g6<16,16,1>F`, a SEND
/// payload region whose rows cross a register (read as whole registers).
#[test]
fn send_payload_row_within_grf() {
    let send = send_payload(32, Src::grf(6, 0, F, rgn(16, 16, 1)));
    for p in ALL {
        let v = validate(p, &send).unwrap_err();
        assert_eq!(
            v.rules().collect::<Vec<_>>(),
            ["send_payload_row_within_grf"],
            "{p}: {v}"
        );
        assert!(!v.any_documented());
        ok(p, &send.with(|i| i.src[0].region = rgn(8, 8, 1)));
    }
}

/// A data-cache SEND of `exec` channels to g8 with this payload source.
fn send_payload(exec: u32, payload: Src) -> Instruction {
    send(10, 4, 2, false).exec(exec).with(|i| {
        i.dst = Dst::grf(8, 0, W);
        i.src[0] = payload;
    })
}
