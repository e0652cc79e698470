//! Null and immediate sources; SEND and SENDC restrictions.

use crate::validate_util;
use validate_util::*;

fn math(f: MathFunction, s0: Src, s1: Src) -> Instruction {
    alu(Opcode::Math).with(|i| {
        i.cond_modifier = f.hw();
        i.src[0] = s0;
        i.src[1] = s1;
    })
}

#[test]
fn src0_not_null() {
    for p in ALL {
        ok(p, &mov(F, F));
        bad(p, &mov(F, F).with(|i| i.src[0] = null_src(F)), "src0_not_null");
        // MATH reads src0 whatever its function.
        ok(p, &math(MathFunction::Sin, g(0, F), null_src(F)));
        bad(p, &math(MathFunction::Sin, null_src(F), null_src(F)), "src0_not_null");
    }
}

#[test]
fn src1_not_null() {
    for p in ALL {
        ok(p, &alu(Opcode::Add));
        bad(p, &alu(Opcode::Add).with(|i| i.src[1] = null_src(F)), "src1_not_null");
        // 1-source math functions leave src1 null; POW reads it.
        ok(p, &math(MathFunction::Sin, g(0, F), null_src(F)));
        bad(p, &math(MathFunction::Pow, g(0, F), null_src(F)), "src1_not_null");
    }
}

#[test]
fn imm_only_last_source() {
    for p in ALL {
        ok(p, &alu(Opcode::Add).with(|i| i.src[1] = Src::imm(F)));
        ok(p, &mov(F, F).with(|i| i.src[0] = Src::imm(F)));
        let i = alu(Opcode::Add).with(|i| i.src[0] = Src::imm(F));
        bad(p, &i, "imm_only_last_source");
    }
}

#[test]
fn imm64_only_single_source() {
    for p in [Gen8, Chv] {
        ok(p, &mov(DF, DF).exec(1).with(|i| i.src[0] = Src::imm(DF)));
        let i = alu2(Opcode::Add, DF, DF, DF)
            .exec(4)
            .src_rgn(0, 4, 4, 1)
            .with(|i| i.src[1] = Src::imm(DF));
        bad(p, &i, "imm64_only_single_source");
    }
}

const URB: u8 = 6;
const SAMPLER: u8 = 2;

#[test]
fn send_src0_direct() {
    for p in ALL {
        ok(p, &send(SAMPLER, 2, 4, true));
        let i = send(SAMPLER, 2, 4, true).with(|i| i.src[0].addr = Addr::Indirect { subnr: 0, imm: 0 });
        bad(p, &i, "send_src0_direct");
    }
}

#[test]
fn send_src0_grf() {
    for p in ALL {
        let arf = send(SAMPLER, 2, 4, true).with(|i| i.src[0].file = RegFile::Arf);
        bad(p, &arf, "send_src0_grf");
    }
}

#[test]
fn send_eot_src_g112_g127() {
    let eot = |nr: u8| {
        send(URB, 3, 0, true).with(|i| {
            i.dst = Dst::null();
            i.src[0] = g(nr, UD);
            i.imm |= 1 << 31;
        })
    };
    for p in ALL {
        ok(p, &eot(112));
        ok(p, &eot(114));
        ok(p, &eot(125));
        bad(p, &eot(111), "send_eot_src_g112_g127");
        bad(p, &eot(2), "send_eot_src_g112_g127");
        // Without EOT any payload register will do.
        ok(p, &send(URB, 3, 0, true).with(|i| i.src[0] = g(2, UD)));
    }
}

#[test]
fn send_dst_src_overlap_r127() {
    // Response g120..g127 with payload g118..g121 overlapping it.
    let overlap = send(SAMPLER, 4, 8, true).with(|i| {
        i.dst = Dst::grf(120, 0, UW);
        i.src[0] = g(118, UD);
    });
    only_on(&overlap, "send_dst_src_overlap_r127", &[Gen7, Gen75]);
    // No overlap, or the response stops before r127.
    let apart = overlap.with(|i| i.src[0] = g(100, UD));
    let low = send(SAMPLER, 4, 7, true).with(|i| {
        i.dst = Dst::grf(120, 0, UW);
        i.src[0] = g(118, UD);
    });
    for p in ALL {
        ok(p, &apart);
        ok(p, &low);
    }
}

#[test]
fn send_mlen_range() {
    for p in ALL {
        ok(p, &send(SAMPLER, 1, 4, true));
        ok(p, &send(SAMPLER, 15, 4, true));
        bad(p, &send(SAMPLER, 0, 4, true), "send_mlen_range");
    }
}

#[test]
fn send_rlen_range() {
    for p in ALL {
        ok(p, &send(SAMPLER, 2, 0, true).with(|i| i.dst = Dst::null()));
        ok(p, &send(SAMPLER, 2, 16, true));
        bad(p, &send(SAMPLER, 2, 17, true), "send_rlen_range");
        bad(p, &send(SAMPLER, 2, 31, true), "send_rlen_range");
    }
}

#[test]
fn send_payload_in_grf_range() {
    for p in ALL {
        ok(p, &send(SAMPLER, 4, 4, true).with(|i| i.src[0] = g(124, UD)));
        bad(
            p,
            &send(SAMPLER, 5, 4, true).with(|i| i.src[0] = g(124, UD)),
            "send_payload_in_grf_range",
        );
    }
}

#[test]
fn send_response_in_grf_range() {
    for p in ALL {
        ok(p, &send(SAMPLER, 2, 8, true).with(|i| i.dst = Dst::grf(100, 0, UW)));
        ok(p, &send(SAMPLER, 2, 8, true).with(|i| i.dst = Dst::grf(120, 0, UW)));
        bad(
            p,
            &send(SAMPLER, 2, 9, true).with(|i| i.dst = Dst::grf(120, 0, UW)),
            "send_response_in_grf_range",
        );
    }
}

#[test]
fn send_urb_header_present() {
    for p in ALL {
        ok(p, &send(URB, 2, 0, true).with(|i| i.dst = Dst::null()));
        bad(
            p,
            &send(URB, 2, 0, false).with(|i| i.dst = Dst::null()),
            "send_urb_header_present",
        );
        // Other shared functions may omit the header.
        ok(p, &send(SAMPLER, 2, 4, false));
    }
}

#[test]
fn send_urb_opcode_valid() {
    let urb = |op: u64, rlen: u32| {
        send(URB, 2, rlen, true).with(|i| {
            i.imm |= op;
            if rlen == 0 {
                i.dst = Dst::null();
            }
        })
    };
    for op in 0..=5 {
        for p in ALL {
            ok(p, &urb(op, 0));
        }
    }
    // ATOMIC_ADD from Gen7.5; SIMD8 write and read on Gen8.
    only_on(&urb(6, 0), "send_urb_opcode_valid", &[Gen75, Gen8, Chv]);
    only_on(&urb(7, 0), "send_urb_opcode_valid", &[Gen8, Chv]);
    for p in ALL {
        ok(p, &urb(8, 1));
    }
    // A SIMD8 read reads some data (on Gen7, whose opcode field is 3
    // bits, 8 reads as 0: HWORD write).
    only_on(&urb(8, 0), "send_urb_opcode_valid", &[Gen7, Gen75]);
    // Opcodes above 8 do not exist (Gen7's field is 3 bits: 8 reads as 0).
    for op in 9..=15 {
        bad(Gen8, &urb(op, 0), "send_urb_opcode_valid");
        bad(Chv, &urb(op, 0), "send_urb_opcode_valid");
    }
}
