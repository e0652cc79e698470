//! The data port message rules: `send_msg_type_defined` (a message type
//! of another shared function than the SEND's SFID) and
//! `send_surface_read_rlen` (a surface read's response length against its
//! enabled channels and SIMD mode), positive and negative, per platform.

use crate::validate_util;
use validate_util::*;

use geneu::validate::{find_rule, Basis};

const RENDER: u8 = 5;
const DC0: u8 = 10;
const DC1: u8 = 12;

/// A data port SEND: `ty` in the message type field (17:14, Gen8 18:14),
/// `ctrl` in message control (13:8), binding table index 1.
fn dp(sfid: u8, ty: u32, ctrl: u32, mlen: u32, rlen: u32) -> Instruction {
    send(sfid, mlen, rlen, false).with(|i| {
        i.imm |= u64::from(ty << 14 | ctrl << 8 | 1);
        if rlen == 0 {
            i.dst = Dst::null();
        }
    })
}

/// Align16 (SIMD4x2) with the payload read as `<4,4,1>`.
fn a16(i: &mut Instruction) {
    i.access_mode = AccessMode::Align16;
    i.src[0].region = rgn(4, 4, 1);
}

/// Surface message control: SIMD mode (or slot group) in bits 5:4 and the
/// channel disable mask in 3:0.
fn surf(mode: u32, disable: u32) -> u32 {
    mode << 4 | disable
}

#[test]
fn rules_are_documented_and_cited() {
    for id in ["send_msg_type_defined", "send_surface_read_rlen"] {
        let r = find_rule(id).unwrap();
        assert_eq!(r.basis, Basis::Documented, "{id}");
        assert!(r.source.contains("PRM"), "{id}: {}", r.source);
    }
}

#[test]
fn send_msg_type_defined() {
    // Data cache 1's untyped surface read (type 1), SIMD8 R: the render
    // cache has no type 1 on any platform.
    let untyped = |sfid| dp(sfid, 1, surf(2, 0xe), 1, 1);
    for p in [Gen75, Gen8, Chv] {
        ok(p, &untyped(DC1));
    }
    for p in ALL {
        bad(p, &untyped(RENDER), "send_msg_type_defined");
    }
    // Typed surface read (type 5): the render cache's on Ivy Bridge, data
    // cache 1's from Haswell on.
    let typed_rc = dp(RENDER, 5, 0xe, 2, 1);
    only_on(&typed_rc, "send_msg_type_defined", &[Gen7]);
    let typed_dc1 = dp(DC1, 5, surf(1, 0xe), 2, 1);
    for p in [Gen75, Gen8, Chv] {
        ok(p, &typed_dc1);
    }
    // Typed atomic, memory fence and typed write also left the render
    // cache after Ivy Bridge.
    for ty in [6, 7, 13] {
        only_on(&dp(RENDER, ty, 0, 2, 0), "send_msg_type_defined", &[Gen7]);
    }
    // Render target writes and media block messages stay everywhere.
    for p in ALL {
        ok(p, &dp(RENDER, 12, 0, 4, 0));
        ok(p, &dp(RENDER, 4, 0, 1, 1));
        ok(p, &dp(RENDER, 10, 0, 2, 0));
        for ty in [0, 1, 2, 3, 8, 9, 11, 14, 15] {
            bad(p, &dp(RENDER, ty, 0, 1, 0), "send_msg_type_defined");
        }
    }
}

#[test]
fn send_msg_type_defined_data_cache_0() {
    // Untyped surface messages are data cache 0's on Ivy Bridge only.
    let untyped_read = dp(DC0, 5, surf(2, 0xe), 1, 1);
    only_on(&untyped_read, "send_msg_type_defined", &[Gen7]);
    only_on(&dp(DC0, 13, surf(2, 0xe), 2, 0), "send_msg_type_defined", &[Gen7]);
    for p in ALL {
        // OWord block read and write, DWord scattered read, fence.
        ok(p, &dp(DC0, 0, 0, 1, 1));
        ok(p, &dp(DC0, 8, 2, 2, 0));
        ok(p, &dp(DC0, 3, 0x10, 1, 1));
        ok(p, &dp(DC0, 7, 0, 1, 0));
        // Types 9, 14 and 15 are reserved.
        for ty in [9, 14, 15] {
            bad(p, &dp(DC0, ty, 0, 1, 0), "send_msg_type_defined");
        }
        // A scratch message (bit 18) has no message type.
        ok(p, &send(DC0, 1, 1, true).with(|i| i.imm |= 1 << 18));
    }
}

#[test]
fn send_msg_type_defined_data_cache_1() {
    // A64 messages come with Gen8 (its 5-bit message type field).
    let a64 = dp(DC1, 0x11, surf(2, 0xe), 2, 1);
    // (Haswell's message type field is 17:14: there 0x11 reads as type 1.)
    ok(Gen8, &a64);
    ok(Chv, &a64);
    for p in [Gen75, Gen8, Chv] {
        for ty in [0, 8, 14, 15] {
            bad(p, &dp(DC1, ty, 0, 1, 0), "send_msg_type_defined");
        }
    }
    for p in [Gen8, Chv] {
        // The A64 scattered read (0x10) is Gen8's, as the write (0x1a) is
        // (Mesa emits it on Gen8 though it names it GFX9_; IGA decodes both).
        ok(p, &dp(DC1, 0x10, 1, 2, 1));
        ok(p, &dp(DC1, 0x1a, 1, 3, 0));
        for ty in [0x13, 0x18, 0x1f] {
            bad(p, &dp(DC1, ty, 0, 1, 0), "send_msg_type_defined");
        }
    }
    // Data cache 1 does not exist on Ivy Bridge: the SFID rule says so,
    // not this one.
    let v = validate(Gen7, &dp(DC1, 5, surf(1, 0xe), 2, 1)).unwrap_err();
    assert!(v.has("send_sfid_defined") && !v.has("send_msg_type_defined"), "{v}");
    // Other shared functions are not judged by message type.
    for p in ALL {
        ok(p, &send(2, 2, 4, false).with(|i| i.imm |= 0x1f << 12));
    }
}

#[test]
fn send_msg_type_defined_names_the_port_that_defines_it() {
    let v = validate(Gen75, &dp(RENDER, 5, 0xe, 2, 1)).unwrap_err();
    let m = v.0.iter().find(|x| x.rule == "send_msg_type_defined").unwrap();
    assert!(
        m.message.contains("render cache") && m.message.contains("data cache 1"),
        "{}",
        m.message
    );
}

#[test]
fn send_surface_read_rlen() {
    // SIMD16 RGBA: 8 registers; SIMD8 RGBA: 4; SIMD4x2: 1.
    let read = |sfid, mode, disable, rlen| dp(sfid, if sfid == DC0 { 5 } else { 1 }, surf(mode, disable), 2, rlen);
    for (p, sfid) in [(Gen7, DC0), (Gen75, DC1), (Gen8, DC1), (Chv, DC1)] {
        ok(p, &read(sfid, 1, 0, 8).exec(16));
        bad(p, &read(sfid, 1, 0, 4).exec(16), "send_surface_read_rlen");
        ok(p, &read(sfid, 2, 0, 4));
        bad(p, &read(sfid, 2, 0, 8), "send_surface_read_rlen");
        ok(p, &read(sfid, 2, 0xc, 2));
        bad(p, &read(sfid, 2, 0xc, 1), "send_surface_read_rlen");
        ok(p, &read(sfid, 1, 0xe, 2).exec(16));
        ok(p, &read(sfid, 0, 0, 1).with(a16));
        bad(p, &read(sfid, 0, 0, 4).with(a16), "send_surface_read_rlen");
    }
    // Gen8's A64 untyped surface read.
    for p in [Gen8, Chv] {
        ok(p, &dp(DC1, 0x11, surf(1, 0), 4, 8).exec(16));
        bad(p, &dp(DC1, 0x11, surf(1, 0), 4, 4).exec(16), "send_surface_read_rlen");
    }
}

#[test]
fn send_surface_read_rlen_typed() {
    // Haswell+: one register per enabled channel for either slot group.
    for p in [Gen75, Gen8, Chv] {
        for group in [1, 2] {
            ok(p, &dp(DC1, 5, surf(group, 0), 4, 4));
            bad(p, &dp(DC1, 5, surf(group, 0), 4, 8), "send_surface_read_rlen");
            ok(p, &dp(DC1, 5, surf(group, 0xc), 3, 2));
        }
        ok(p, &dp(DC1, 5, surf(0, 0), 2, 1).with(a16));
    }
    // Ivy Bridge (render cache, no SIMD mode field): one register per
    // channel in align1, one in all in align16.
    ok(Gen7, &dp(RENDER, 5, 0xe, 2, 1));
    ok(Gen7, &dp(RENDER, 5, 0x20, 4, 4));
    bad(Gen7, &dp(RENDER, 5, 0x20, 4, 2), "send_surface_read_rlen");
    ok(Gen7, &dp(RENDER, 5, 0, 2, 1).with(a16));
}

#[test]
fn send_surface_read_rlen_leaves_other_messages_alone() {
    for p in ALL {
        // Writes, atomics and block reads are not judged by this rule.
        ok(p, &dp(DC0, 0, 3, 1, 2));
        ok(p, &dp(RENDER, 12, 0, 8, 0));
    }
    for p in [Gen75, Gen8, Chv] {
        ok(p, &dp(DC1, 9, surf(2, 0), 5, 0));
        ok(p, &dp(DC1, 2, 0x17, 2, 1));
        ok(p, &dp(DC1, 2, 0x07, 2, 0));
    }
    // A reserved SIMD mode (3) gives no expected length.
    ok(Gen75, &dp(DC1, 1, surf(3, 0), 1, 5));
}

/// The examples as words: Mesa's corpus words validate, the same
/// words with the SFID or the response length changed do not, and checked
/// encoding refuses them.
#[test]
fn corpus_sends_and_their_mutations() {
    // gen7.5/send.asm: send(8) g5<1>UW g11<8,8,1>UD 0x06495001, a data
    // cache 1 typed surface read, RGBA, mlen 3 rlen 4.
    let mut i = send(DC1, 0, 0, false).with(|i| {
        i.dst = Dst::grf(5, 0, UW);
        i.src[0] = g(11, UD);
        i.imm = 0x0649_5001;
    });
    ok(Gen75, &i);
    assert!(encode(Gen75, &i).is_ok());
    i.cond_modifier = RENDER;
    bad(Gen75, &i, "send_msg_type_defined");
    assert!(encode(Gen75, &i).is_err());
    i.cond_modifier = DC1;
    i.imm = 0x0629_5001; // rlen 2 for four channels
    bad(Gen75, &i, "send_surface_read_rlen");
    assert!(encode(Gen75, &i).is_err());
    // gen7.5/send.asm: send(16) g120<1>UW g2<8,8,1>UD 0x04205e01, a SIMD16
    // untyped surface read of R: 2 registers.
    let mut u = send(DC1, 0, 0, false).with(|i| {
        i.dst = Dst::grf(120, 0, UW);
        i.src[0] = g(2, UD);
        i.imm = 0x0420_5e01;
    });
    u = u.exec(16);
    ok(Gen75, &u);
    u.imm = 0x0410_5e01;
    bad(Gen75, &u, "send_surface_read_rlen");
}
