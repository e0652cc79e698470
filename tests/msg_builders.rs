//! Typed descriptor builders checked against descriptors worked out by hand
//! from the documented bit layouts (descriptor bits: EOT 31, mlen 28:25,
//! rlen 24:20, header 19, function control 18:0), and the refusal of bad
//! input with the field named.

use geneu::msg::*;
use geneu::Platform::{self, Chv, Gen7, Gen75, Gen8};

/// Builds, checks the descriptor, and checks that it decodes back.
fn check(m: Message, p: Platform, want: u32) {
    assert_eq!(m.desc(), Ok(want), "{m:?}: built {:#010x?}", m.desc());
    assert_eq!(Message::decode(p, m.sfid(), want), Ok(m), "{want:#010x}");
}

fn hdr(mlen: u8, rlen: u8) -> Common {
    Common::new(mlen, rlen, true)
}

#[test]
fn urb() {
    // Gen7: write HWord (0), interleave (14), complete (15), header.
    let mut m = Urb::new(Gen7, hdr(3, 0), UrbOpcode::WriteHWord);
    m.interleave = true;
    m.complete = true;
    check(Message::Urb(m), Gen7, 3 << 25 | 1 << 19 | 1 << 15 | 1 << 14);
    // Gen7.5: read OWord (3), offset 5 in 13:3, per-slot (16).
    let mut m = Urb::new(Gen75, hdr(2, 1), UrbOpcode::ReadOWord);
    m.global_offset = 5;
    m.per_slot_offset = true;
    check(
        Message::Urb(m),
        Gen75,
        2 << 25 | 1 << 20 | 1 << 19 | 1 << 16 | 5 << 3 | 3,
    );
    // Gen8: SIMD8 write (7), offset 1 in 14:4, EOT.
    let mut m = Urb::new(Gen8, hdr(5, 0).with_eot(), UrbOpcode::Simd8Write);
    m.global_offset = 1;
    check(Message::Urb(m), Gen8, 0x8a08_0017);
    // Gen8: SIMD8 write, per-slot (17), channel mask present (15), offset 9.
    let mut m = Urb::new(Chv, hdr(6, 0), UrbOpcode::Simd8Write);
    m.global_offset = 9;
    m.per_slot_offset = true;
    m.channel_mask = true;
    check(Message::Urb(m), Chv, 6 << 25 | 1 << 19 | 1 << 17 | 1 << 15 | 9 << 4 | 7);
    // Gen7.5: atomic add (6), which the Haswell PRM lists (Mesa's
    // validator, citing its page 317); Ivy Bridge has no such opcode.
    let m = Urb::new(Gen75, hdr(2, 1), UrbOpcode::AtomicAdd);
    check(Message::Urb(m), Gen75, 2 << 25 | 1 << 20 | 1 << 19 | 6);
    let m = Urb::new(Gen7, hdr(2, 1), UrbOpcode::AtomicAdd);
    assert!(matches!(
        m.desc(),
        Err(MsgError::Reserved {
            field: "URB opcode",
            value: 6,
            ..
        })
    ));
    // Gen8: OWord write with interleave uses bit 15 too.
    let mut m = Urb::new(Gen8, hdr(2, 0), UrbOpcode::WriteOWord);
    m.interleave = true;
    check(Message::Urb(m), Gen8, 2 << 25 | 1 << 19 | 1 << 15 | 1);
}

#[test]
fn urb_refusals() {
    let mut m = Urb::new(Gen7, hdr(1, 0), UrbOpcode::Simd8Read);
    assert!(matches!(
        m.desc(),
        Err(MsgError::Reserved {
            field: "URB opcode",
            value: 8,
            ..
        })
    ));
    m.opcode = UrbOpcode::WriteHWord;
    m.global_offset = 2048;
    let e = m.desc().unwrap_err();
    assert!(e.to_string().contains("global_offset"), "{e}");
    let mut m = Urb::new(Gen8, hdr(1, 0), UrbOpcode::WriteHWord);
    m.complete = true;
    assert!(matches!(m.desc(), Err(MsgError::Invalid { field: "complete", .. })));
    let mut m = Urb::new(Gen8, hdr(1, 0), UrbOpcode::Simd8Write);
    m.interleave = true;
    assert!(matches!(m.desc(), Err(MsgError::Invalid { .. })));
    // Gen8 opcode 9 is reserved: decoding gives the raw bits back.
    let d = 1 << 25 | 1 << 19 | 9;
    assert_eq!(Message::decode(Gen8, 6, d), Ok(Message::Unknown { sfid: 6, desc: d }));
}

#[test]
fn sampler() {
    // ld (7) SIMD16 (2), surface 1: 0x10847001 in the Gen8 corpus.
    let m = Sampler::new(
        Gen8,
        Common::new(8, 8, false),
        SamplerMsgType::Ld,
        SamplerSimd::Simd16,
        0,
        1,
    );
    check(Message::Sampler(m), Gen8, 0x1084_7001);
    // gather4_c (16) SIMD4x2 (0), sampler 3, surface 7, header.
    let m = Sampler::new(Gen7, hdr(3, 1), SamplerMsgType::Gather4C, SamplerSimd::Simd4x2, 3, 7);
    check(
        Message::Sampler(m),
        Gen7,
        3 << 25 | 1 << 20 | 1 << 19 | 16 << 12 | 3 << 8 | 7,
    );
    // Gen8 16-bit return format in bit 30.
    let mut m = Sampler::new(
        Gen8,
        Common::new(2, 4, false),
        SamplerMsgType::Sample,
        SamplerSimd::Simd8,
        2,
        3,
    );
    m.return_format = ReturnFormat::Bits16;
    check(
        Message::Sampler(m),
        Gen8,
        1 << 30 | 2 << 25 | 4 << 20 | 1 << 17 | 2 << 8 | 3,
    );
    m.platform = Gen7;
    assert!(matches!(
        m.desc(),
        Err(MsgError::Reserved {
            field: "return format",
            ..
        })
    ));
    // sample_d_c exists from Haswell on.
    let m = Sampler::new(Gen75, hdr(5, 4), SamplerMsgType::SampleDC, SamplerSimd::Simd8, 0, 0);
    check(
        Message::Sampler(m),
        Gen75,
        5 << 25 | 4 << 20 | 1 << 19 | 1 << 17 | 20 << 12,
    );
    let m = Sampler { platform: Gen7, ..m };
    assert!(matches!(m.desc(), Err(MsgError::Reserved { value: 20, .. })));
    // Sampler index 16 does not fit 11:8.
    let m = Sampler::new(Gen8, hdr(1, 1), SamplerMsgType::Sample, SamplerSimd::Simd8, 16, 0);
    assert!(m.desc().unwrap_err().to_string().contains("sampler_index"));
    // A sampler message type without a definition decodes to raw bits.
    let d = 1 << 25 | 4 << 20 | 12 << 12 | 1 << 17;
    assert!(!Message::decode(Gen8, 2, d).unwrap().is_typed());
}

#[test]
fn read_only_ports() {
    // Constant cache OWord block read of 4 OWords (3) from surface 2.
    let m = DpRead {
        platform: Gen8,
        common: hdr(1, 2),
        bti: 2,
        op: DpReadOp::OwordBlockRead {
            size: OwordBlockSize::Four,
        },
    };
    check(Message::ConstantCache(m), Gen8, 0x0228_0302);
    // Sampler cache DWord scattered read, SIMD16: type 3, control 0b11.
    let m = DpRead {
        platform: Gen7,
        common: hdr(2, 2),
        bti: 9,
        op: DpReadOp::DwordScatteredRead { simd16: true },
    };
    check(
        Message::SamplerCache(m),
        Gen7,
        2 << 25 | 2 << 20 | 1 << 19 | 3 << 14 | 3 << 8 | 9,
    );
    // Unaligned (1), dual block (2) and media block (4) reads.
    let m = DpRead {
        op: DpReadOp::OwordDualBlockRead {
            size: DualBlockSize::Four,
        },
        ..m
    };
    check(
        Message::SamplerCache(m),
        Gen7,
        2 << 25 | 2 << 20 | 1 << 19 | 2 << 14 | 2 << 8 | 9,
    );
    let m = DpRead {
        op: DpReadOp::UnalignedOwordBlockRead {
            size: OwordBlockSize::OneHigh,
        },
        ..m
    };
    check(
        Message::ConstantCache(m),
        Gen7,
        2 << 25 | 2 << 20 | 1 << 19 | 1 << 14 | 1 << 8 | 9,
    );
    let m = DpRead {
        op: DpReadOp::MediaBlockRead { control: 0 },
        ..m
    };
    check(
        Message::SamplerCache(m),
        Gen7,
        2 << 25 | 2 << 20 | 1 << 19 | 4 << 14 | 9,
    );
}

#[test]
fn render_cache() {
    // RT write SIMD8 dual source high (3), last RT (12), type 12.
    let rt = |p, subtype, hi, last| {
        Message::Render(Render {
            platform: p,
            common: Common::new(10, 0, false),
            bti: 0,
            op: RenderOp::RtWrite {
                subtype,
                slot_group_high: hi,
                last_rt: last,
            },
        })
    };
    let want = 10 << 25 | 12 << 14 | 1 << 12 | 3 << 8;
    check(rt(Gen7, RtWriteSubtype::Simd8DualSrcHigh, false, true), Gen7, want);
    check(rt(Gen8, RtWriteSubtype::Simd8DualSrcHigh, false, true), Gen8, want);
    check(
        rt(Gen75, RtWriteSubtype::Simd16RepData, true, false),
        Gen75,
        10 << 25 | 12 << 14 | 1 << 11 | 1 << 8,
    );
    // IVB typed surface read: channel disable mask 0xe, slot group in 13.
    let m = Render {
        platform: Gen7,
        common: hdr(2, 1),
        bti: 2,
        op: RenderOp::TypedSurfaceRead {
            channels: Channels::R,
            high_slot_group: false,
        },
    };
    check(Message::Render(m), Gen7, 0x0419_4e02);
    // IVB typed atomic add, high slot group, return: control 0b110111.
    let m = Render {
        platform: Gen7,
        common: hdr(3, 1),
        bti: 1,
        op: RenderOp::TypedAtomic {
            op: AtomicOp::Add,
            high_slot_group: true,
            return_data: true,
        },
    };
    check(Message::Render(m), Gen7, 0x0619_b701);
    // Typed messages left the render cache after Ivy Bridge.
    let m = Render { platform: Gen75, ..m };
    assert!(matches!(m.desc(), Err(MsgError::Reserved { value: 6, .. })));
    // Render target reads need Gen9.
    let m = Render {
        platform: Gen8,
        common: hdr(1, 4),
        bti: 0,
        op: RenderOp::RtRead {
            simd8: true,
            slot_group_high: false,
            per_sample: false,
        },
    };
    assert!(matches!(m.desc(), Err(MsgError::Reserved { value: 13, .. })));
}

#[test]
fn data_cache_0() {
    let dc0 = |p, common, bti, op| {
        Message::DataCache0(DataCache0 {
            platform: p,
            common,
            bti,
            op,
        })
    };
    // OWord block write, 2 OWords, stateless.
    check(
        dc0(
            Gen7,
            hdr(2, 0),
            BTI_STATELESS,
            Dc0Op::OwordBlockWrite {
                size: OwordBlockSize::Two,
            },
        ),
        Gen7,
        0x040a_02ff,
    );
    // Memory fence with commit (Gen7 corpus) and without (Gen8 corpus).
    check(
        dc0(Gen7, hdr(1, 1), 0, Dc0Op::MemoryFence { commit: true }),
        Gen7,
        0x0219_e000,
    );
    check(
        dc0(Gen8, hdr(1, 0), 0, Dc0Op::MemoryFence { commit: false }),
        Gen8,
        0x0209_c000,
    );
    // DWord scattered write SIMD8: type 11, control 0b10.
    check(
        dc0(
            Gen75,
            Common::new(3, 0, false),
            4,
            Dc0Op::DwordScatteredWrite { simd16: false },
        ),
        Gen75,
        3 << 25 | 11 << 14 | 2 << 8 | 4,
    );
    // Byte scattered read SIMD16 of dwords: type 4, control 2 << 2 | 1.
    check(
        dc0(
            Gen8,
            Common::new(2, 2, false),
            BTI_STATELESS_NON_COHERENT,
            Dc0Op::ByteScatteredRead {
                simd16: true,
                size: ScatteredDataSize::Dword,
            },
        ),
        Gen8,
        2 << 25 | 2 << 20 | 4 << 14 | 0b1001 << 8 | 253,
    );
    // OWord dual block read/write, unaligned block read.
    check(
        dc0(
            Gen7,
            hdr(2, 1),
            3,
            Dc0Op::OwordDualBlockRead {
                size: DualBlockSize::One,
            },
        ),
        Gen7,
        2 << 25 | 1 << 20 | 1 << 19 | 2 << 14 | 3,
    );
    check(
        dc0(
            Gen8,
            hdr(3, 0),
            3,
            Dc0Op::OwordDualBlockWrite {
                size: DualBlockSize::Four,
            },
        ),
        Gen8,
        3 << 25 | 1 << 19 | 10 << 14 | 2 << 8 | 3,
    );
    check(
        dc0(
            Gen8,
            hdr(1, 4),
            3,
            Dc0Op::UnalignedOwordBlockRead {
                size: OwordBlockSize::Eight,
            },
        ),
        Gen8,
        1 << 25 | 4 << 20 | 1 << 19 | 1 << 14 | 4 << 8 | 3,
    );
    // Ivy Bridge untyped atomic add, SIMD8, with return: control 0b110111.
    let atomic = Dc0Op::UntypedAtomic {
        op: AtomicOp::Add,
        simd8: true,
        return_data: true,
    };
    check(dc0(Gen7, Common::new(2, 1, false), 1, atomic), Gen7, 0x0411_b701);
    assert!(matches!(
        DataCache0 {
            platform: Gen75,
            common: Common::new(2, 1, false),
            bti: 1,
            op: atomic
        }
        .desc(),
        Err(MsgError::Reserved { value: 6, .. })
    ));
    // Ivy Bridge untyped surface read, SIMD8 (2), R only: control 0x2e.
    check(
        dc0(
            Gen7,
            Common::new(1, 1, false),
            4,
            Dc0Op::UntypedSurfaceRead {
                channels: Channels::R,
                simd: SurfaceSimd::Simd8,
            },
        ),
        Gen7,
        1 << 25 | 1 << 20 | 5 << 14 | 0x2e << 8 | 4,
    );
}

#[test]
fn scratch() {
    let read = |p, offset, regs| {
        Message::DataCache0(DataCache0 {
            platform: p,
            common: hdr(1, 1),
            bti: 0,
            op: Dc0Op::Scratch(ScratchBlock {
                write: false,
                offset,
                regs,
                dword: false,
                invalidate_after_read: false,
            }),
        })
    };
    // Category bit 18, offset in 11:0 (Gen8 corpus: 0x021c001b).
    check(read(Gen8, 27, ScratchRegs::One), Gen8, 0x021c_001b);
    check(read(Gen7, 7, ScratchRegs::One), Gen7, 0x021c_0007);
    // Block size: Gen7 registers - 1, Gen8 log2.
    check(read(Gen7, 1, ScratchRegs::Four), Gen7, 0x021c_0000 | 3 << 12 | 1);
    check(read(Gen8, 1, ScratchRegs::Four), Gen8, 0x021c_0000 | 2 << 12 | 1);
    check(read(Gen8, 1, ScratchRegs::Eight), Gen8, 0x021c_0000 | 3 << 12 | 1);
    assert!(matches!(
        read(Gen75, 1, ScratchRegs::Eight).desc(),
        Err(MsgError::Reserved {
            field: "scratch block size",
            ..
        })
    ));
    // Write: bit 17, DWord mode bit 16.
    let w = Message::DataCache0(DataCache0 {
        platform: Gen75,
        common: hdr(3, 0),
        bti: 0,
        op: Dc0Op::Scratch(ScratchBlock {
            write: true,
            offset: 0x123,
            regs: ScratchRegs::Two,
            dword: true,
            invalidate_after_read: false,
        }),
    });
    check(
        w,
        Gen75,
        3 << 25 | 1 << 19 | 1 << 18 | 1 << 17 | 1 << 16 | 1 << 12 | 0x123,
    );
    // Gen7.5 block size 2 (three registers) is reserved.
    let d = 0x021c_0000 | 2 << 12;
    assert!(!Message::decode(Gen75, 10, d).unwrap().is_typed());
}

#[test]
fn data_cache_1() {
    let dc1 = |p, common, bti, op| {
        Message::DataCache1(DataCache1 {
            platform: p,
            common,
            bti,
            op,
        })
    };
    // Typed surface write, high slot group (2), all channels: 0x0e0b6001.
    let tw = Dc1Op::TypedSurfaceWrite {
        channels: Channels::RGBA,
        slot_group: TypedSlotGroup::High,
    };
    check(dc1(Gen8, hdr(7, 0), 1, tw), Gen8, 0x0e0b_6001);
    check(dc1(Gen75, hdr(7, 0), 1, tw), Gen75, 0x0e0b_6001);
    // Untyped surface read SIMD8 R only (control 0x2e).
    let ur = Dc1Op::UntypedSurfaceRead {
        channels: Channels::R,
        simd: SurfaceSimd::Simd8,
    };
    check(dc1(Gen8, Common::new(1, 1, false), 1, ur), Gen8, 0x0210_6e01);
    // Untyped atomic SIMD4x2 inc with return: type 3, control 0b100101.
    let a = Dc1Op::UntypedAtomicSimd4x2 {
        op: AtomicOp::Inc,
        return_data: true,
    };
    check(dc1(Gen75, Common::new(1, 1, false), 0, a), Gen75, 0x0210_e500);
    // Every atomic operation, SIMD16 untyped atomic to SLM.
    for &op in AtomicOp::ALL {
        let m = dc1(
            Gen8,
            Common::new(2, 0, false),
            BTI_SLM,
            Dc1Op::UntypedAtomic {
                op,
                simd8: false,
                return_data: false,
            },
        );
        check(m, Gen8, 2 << 25 | 2 << 14 | (op.hw() as u32) << 8 | 254);
    }
    // Typed atomic high slot group; atomic counters.
    check(
        dc1(
            Gen75,
            hdr(3, 1),
            5,
            Dc1Op::TypedAtomic {
                op: AtomicOp::Cmpwr,
                high_slot_group: true,
                return_data: true,
            },
        ),
        Gen75,
        3 << 25 | 1 << 20 | 1 << 19 | 6 << 14 | 0x3e << 8 | 5,
    );
    check(
        dc1(
            Gen8,
            Common::new(1, 1, false),
            5,
            Dc1Op::AtomicCounter {
                op: AtomicOp::Predec,
                simd8: true,
                return_data: true,
            },
        ),
        Gen8,
        1 << 25 | 1 << 20 | 11 << 14 | 0x3f << 8 | 5,
    );
    // Typed surface read slot groups: SIMD4x2 (0), low (1).
    check(
        dc1(
            Gen75,
            hdr(2, 1),
            1,
            Dc1Op::TypedSurfaceRead {
                channels: Channels::R | Channels::G,
                slot_group: TypedSlotGroup::Low,
            },
        ),
        Gen75,
        2 << 25 | 1 << 20 | 1 << 19 | 5 << 14 | 0x1c << 8 | 1,
    );
    // Media block read/write pass their control through.
    check(
        dc1(Gen8, hdr(1, 1), 6, Dc1Op::MediaBlockWrite { control: 0 }),
        Gen8,
        1 << 25 | 1 << 20 | 1 << 19 | 10 << 14 | 6,
    );
    // A64 messages need Gen8 and use 5-bit types.
    let a64 = Dc1Op::A64UntypedSurfaceWrite {
        channels: Channels::RGBA,
        simd: SurfaceSimd::Simd8,
    };
    check(
        dc1(Gen8, Common::new(6, 0, false), 253, a64),
        Gen8,
        6 << 25 | 0x19 << 14 | 0x20 << 8 | 253,
    );
    assert!(matches!(
        DataCache1 {
            platform: Gen75,
            common: Common::new(6, 0, false),
            bti: 253,
            op: a64
        }
        .desc(),
        Err(MsgError::Reserved { value: 0x19, .. })
    ));
    // No data cache 1 on Ivy Bridge; no channel at all is refused.
    assert!(matches!(
        DataCache1 {
            platform: Gen7,
            common: hdr(7, 0),
            bti: 1,
            op: tw
        }
        .desc(),
        Err(MsgError::Function { sfid: 12, .. })
    ));
    let none = Dc1Op::TypedSurfaceWrite {
        channels: Channels::empty(),
        slot_group: TypedSlotGroup::Low,
    };
    assert!(matches!(
        DataCache1 {
            platform: Gen8,
            common: hdr(7, 0),
            bti: 1,
            op: none
        }
        .desc(),
        Err(MsgError::Invalid {
            field: "channel mask",
            ..
        })
    ));
    // Reserved type 8, and mask 0xf (no channel), decode to raw bits.
    for d in [1 << 25 | 8 << 14, 1 << 25 | 1 << 14 | 0x2f << 8] {
        assert_eq!(Message::decode(Gen8, 12, d), Ok(Message::Unknown { sfid: 12, desc: d }));
    }
}

#[test]
fn gateway_spawner_pixel_interpolator() {
    check(Message::Gateway(Gateway::barrier(Gen7)), Gen7, 0x0200_0004);
    let g = Gateway {
        platform: Gen8,
        common: Common::new(1, 0, false).with_eot(),
        op: GatewayOp::CloseGateway,
        notify: 0,
    };
    check(Message::Gateway(g), Gen8, 1 << 31 | 1 << 25 | 1);
    let g = Gateway {
        op: GatewayOp::OpenGateway,
        notify: 2,
        ..g
    };
    check(Message::Gateway(g), Gen8, 1 << 31 | 1 << 25 | 2 << 15);
    check(
        Message::ThreadSpawner(ThreadSpawner::end_of_thread(Gen8)),
        Gen8,
        0x8200_0010,
    );
    // SIMD16 (16) sample position (1 in 13:12) of sample 2 (data 0x20).
    let pi = PixelInterp {
        platform: Gen8,
        common: Common::new(1, 4, false),
        msg: PiMessage::SamplePosition { sample: 2 },
        linear: false,
        simd16: true,
        slot_group_high: false,
    };
    check(Message::PixelInterp(pi), Gen8, 0x0241_1020);
    // Per-message offset -8, +3: X in 3:0, Y in 7:4, linear (14).
    let pi = PixelInterp {
        platform: Gen75,
        common: Common::new(1, 2, false),
        msg: PiMessage::PerMessageOffset { x: -8, y: 3 },
        linear: true,
        simd16: false,
        slot_group_high: false,
    };
    check(Message::PixelInterp(pi), Gen75, 1 << 25 | 2 << 20 | 1 << 14 | 0x38);
    let bad = PixelInterp {
        msg: PiMessage::PerMessageOffset { x: 8, y: 0 },
        ..pi
    };
    assert!(matches!(bad.desc(), Err(MsgError::Range { field: "x offset", .. })));
    let centroid = PixelInterp {
        msg: PiMessage::Centroid,
        ..pi
    };
    check(
        Message::PixelInterp(centroid),
        Gen75,
        1 << 25 | 2 << 20 | 1 << 14 | 2 << 12,
    );
    // No typed pixel interpolator on Ivy Bridge.
    assert!(!Message::decode(Gen7, 11, 0x0241_1020).unwrap().is_typed());
}

#[test]
fn common_fields_out_of_range_are_named() {
    let m = |common| {
        Message::Gateway(Gateway {
            common,
            ..Gateway::barrier(Gen8)
        })
    };
    let e = m(Common::new(16, 0, false)).desc().unwrap_err();
    assert!(matches!(e, MsgError::Field { value: 16, .. }));
    assert!(e.to_string().contains("mlen"), "{e}");
    let e = m(Common::new(1, 32, false)).desc().unwrap_err();
    assert!(e.to_string().contains("rlen"), "{e}");
}

#[test]
fn unknown_functions_keep_their_bits() {
    for p in Platform::ALL {
        for sfid in [0u8, 1, 8, 13, 14, 15] {
            let d = 0x8765_4321;
            let m = Message::decode(p, sfid, d).unwrap();
            assert_eq!(m, Message::Unknown { sfid, desc: d });
            assert_eq!(m.desc(), Ok(d));
            assert_eq!(m.sfid(), sfid);
        }
    }
    assert!(matches!(
        Message::decode(Gen8, 16, 0),
        Err(MsgError::Range { field: "sfid", .. })
    ));
    // The typed decoder says why.
    let e = Message::decode_typed(Gen8, 2, 1 << 29).unwrap_err();
    assert!(matches!(e, MsgError::Unmodelled { mask, .. } if mask == 1 << 29), "{e}");
}

#[test]
fn reserved_binding_table_indices() {
    assert_eq!(ReservedBti::of(Gen7, 254), Some(ReservedBti::Slm));
    assert_eq!(ReservedBti::of(Gen7, 255), Some(ReservedBti::Stateless));
    assert_eq!(ReservedBti::of(Gen7, 253), None);
    assert_eq!(ReservedBti::of(Gen75, 253), Some(ReservedBti::StatelessNonCoherent));
    assert_eq!(ReservedBti::of(Gen75, 250), Some(ReservedBti::StatelessL3Uncached));
    assert_eq!(ReservedBti::of(Gen8, 253), Some(ReservedBti::StatelessNonCoherent));
    assert_eq!(ReservedBti::of(Gen8, 252), None);
    assert_eq!(ReservedBti::of(Chv, 1), None);
}

#[test]
fn per_function_decoders_check_the_sfid() {
    let d = 0x8a08_0017;
    let u = Urb::decode(Gen8, 6, d).unwrap();
    assert_eq!(
        (u.opcode, u.global_offset, u.common.eot),
        (UrbOpcode::Simd8Write, 1, true)
    );
    assert_eq!(u.desc(), Ok(d));
    assert!(matches!(
        Urb::decode(Gen8, 2, d),
        Err(MsgError::Function { sfid: 2, .. })
    ));
    // The read-only port type serves both the sampler and constant caches.
    assert!(DpRead::decode(Gen8, 4, 0x0228_0302).is_ok());
    assert!(DpRead::decode(Gen8, 9, 0x0228_0302).is_ok());
    assert!(DpRead::decode(Gen8, 10, 0x0228_0302).is_err());
    // A reserved message type is an error naming the field.
    let e = DataCache1::decode(Gen8, 12, 1 << 25 | 8 << 14).unwrap_err();
    assert_eq!(
        e,
        MsgError::Reserved {
            field: "data cache 1 message type",
            value: 8,
            platform: Gen8
        }
    );
    assert_eq!(e.to_string(), "data cache 1 message type 8 is reserved on bdw");
}
