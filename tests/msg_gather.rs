//! vISA GATHER4_TYPED lowered to a typed surface read SEND.

use geneu::msg::*;
use geneu::{decode, encode, Controls, FlagReg, Opcode, Platform, RegFile, Type};

fn uv() -> GatherOffsets {
    GatherOffsets {
        v: true,
        r: false,
        lod: false,
    }
}

#[test]
fn haswell_red_only_2d() {
    // R only, 2D (U, V), surface 1: header + U + V, one channel back.
    let g = Gather4Typed::new(0b0001, Surface::Bti(1), uv(), 10, 20);
    let out = gather4_typed(Platform::Gen75, &g).unwrap();
    // mlen 3, rlen 1, header, DC1 typed read (5), low slot group (1 << 12),
    // disable mask 0xe, BTI 1: the descriptor of the Gen7.5 corpus.
    assert_eq!(out.send.imm as u32, 0x0619_5e01);
    assert_eq!(out.send.opcode, Opcode::Send);
    assert_eq!(out.send.cond_modifier, 12);
    assert_eq!(out.send.exec_size, geneu::ExecSize::S8);
    assert_eq!(
        (out.header, out.u, out.v, out.r, out.lod),
        (10, 11, Some(12), None, None)
    );
    assert_eq!(out.send.src[0].file, RegFile::Grf);
    assert_eq!(out.send.src[1].file, RegFile::Imm);
    assert_eq!(out.send.dst.ty, Type::UD);
    match out.message {
        Message::DataCache1(DataCache1 {
            op: Dc1Op::TypedSurfaceRead { channels, slot_group },
            bti: 1,
            ..
        }) => {
            assert_eq!(channels, Channels::R);
            assert_eq!(slot_group, TypedSlotGroup::Low);
        }
        m => panic!("{m:?}"),
    }
    // The SEND encodes (validated), decodes back, and prints as Mesa does.
    let bytes = encode(Platform::Gen75, &out.send).unwrap();
    let back = decode(Platform::Gen75, &bytes).unwrap();
    assert_eq!(back, out.send);
    assert_eq!(
        msg_desc_text(Platform::Gen75, &back).0,
        "dp data 1 MsgDesc: ( DC typed surface read, Surface = 1, SIMD16, Mask = 0xe) mlen 3 rlen 1"
    );
}

#[test]
fn broadwell_rgba_high_group() {
    // RGBA, channels 8-15 (vISA M3): high slot group, quarter 2Q.
    let mut g = Gather4Typed::new(0b1111, Surface::Bti(1), uv(), 2, 30);
    g.channel_offset = 8;
    g.dst_type = Type::F;
    let out = gather4_typed(Platform::Gen8, &g).unwrap();
    assert_eq!(out.send.imm as u32, 0x0649_6001);
    assert_eq!(out.send.qtr_control, 1);
    let bytes = encode(Platform::Gen8, &out.send).unwrap();
    assert_eq!(decode(Platform::Gen8, &bytes).unwrap(), out.send);
    assert_eq!(
        msg_desc_text(Platform::Gen8, &out.send).0,
        "dp data 1 MsgDesc: ( DC typed surface read, Surface = 1, SIMD8, Mask = 0x0) mlen 3 rlen 4"
    );
}

#[test]
fn ivy_bridge_uses_the_render_cache() {
    // 1D, R only, surface 2: render cache typed read (Mesa's IVB encoding).
    let g = Gather4Typed::new(0b0001, Surface::Bti(2), GatherOffsets::default(), 4, 8);
    let out = gather4_typed(Platform::Gen7, &g).unwrap();
    assert_eq!(out.send.cond_modifier, 5);
    assert_eq!(out.send.imm as u32, 0x0419_4e02);
    assert_eq!((out.v, out.r, out.lod), (None, None, None));
    encode(Platform::Gen7, &out.send).unwrap();
    assert_eq!(
        msg_desc_text(Platform::Gen7, &out.send).0,
        "render MsgDesc: typed surface read MsgCtrl = 0x14 Surface = 2 mlen 2 rlen 1"
    );
}

#[test]
fn payload_layout_and_lengths() {
    // LOD given without V and R: their GRFs are still in the payload.
    let offsets = GatherOffsets {
        v: false,
        r: false,
        lod: true,
    };
    for (channels, rlen) in [(0b0001u8, 1u32), (0b0101, 2), (0b1110, 3), (0b1111, 4)] {
        let g = Gather4Typed::new(channels, Surface::Bti(7), offsets, 40, 50);
        let out = gather4_typed(Platform::Gen8, &g).unwrap();
        let c = out.message.common();
        assert_eq!((c.mlen, c.rlen as u32, c.header), (5, rlen, true));
        assert_eq!((out.u, out.v, out.r, out.lod), (41, Some(42), Some(43), Some(44)));
        // The disable mask is the complement of the vISA enables.
        let desc = out.send.imm as u32;
        assert_eq!((desc >> 8) & 0xf, (!channels & 0xf) as u32);
    }
    // U, V, R (3D).
    let g = Gather4Typed::new(
        0b0011,
        Surface::Bti(3),
        GatherOffsets {
            v: true,
            r: true,
            lod: false,
        },
        40,
        50,
    );
    let out = gather4_typed(Platform::Gen75, &g).unwrap();
    assert_eq!(out.message.common().mlen, 4);
    assert_eq!(out.lod, None);
}

#[test]
fn predication_and_no_mask() {
    let mut g = Gather4Typed::new(0b0001, Surface::Bti(1), uv(), 10, 20);
    g.pred = Some(Predicate {
        flag: FlagReg { nr: 1, subnr: 0 },
        invert: true,
    });
    g.no_mask = true;
    let out = gather4_typed(Platform::Gen8, &g).unwrap();
    assert_eq!(out.send.pred_control, 1);
    assert!(out.send.controls.contains(Controls::PRED_INV | Controls::WE_ALL));
    assert_eq!(out.send.flag, FlagReg { nr: 1, subnr: 0 });
    let bytes = encode(Platform::Gen8, &out.send).unwrap();
    assert_eq!(decode(Platform::Gen8, &bytes).unwrap(), out.send);
}

#[test]
fn refusals() {
    let ok = Gather4Typed::new(0b0001, Surface::Bti(1), uv(), 10, 20);
    let err = |g: Gather4Typed, p: Platform| gather4_typed(p, &g).unwrap_err();
    // No channel enabled; a channel bit above A.
    let e = err(Gather4Typed { channels: 0, ..ok }, Platform::Gen8);
    assert!(matches!(e, MsgError::Invalid { field: "channels", .. }), "{e}");
    let e = err(Gather4Typed { channels: 0x11, ..ok }, Platform::Gen8);
    assert!(matches!(e, MsgError::Range { field: "channels", .. }), "{e}");
    // SLM and stateless surfaces, by name or by reserved index.
    for s in [Surface::Slm, Surface::Stateless, Surface::Bti(254), Surface::Bti(255)] {
        let e = err(Gather4Typed { surface: s, ..ok }, Platform::Gen75);
        assert!(matches!(e, MsgError::Invalid { field: "surface", .. }), "{s:?}: {e}");
    }
    let e = err(
        Gather4Typed {
            surface: Surface::Bti(253),
            ..ok
        },
        Platform::Gen8,
    );
    assert!(matches!(e, MsgError::Invalid { field: "surface", .. }), "{e}");
    // 253 is an ordinary surface on Ivy Bridge.
    assert!(gather4_typed(
        Platform::Gen7,
        &Gather4Typed {
            surface: Surface::Bti(253),
            ..ok
        }
    )
    .is_ok());
    // A binding table index that does not fit 8 bits.
    let e = err(
        Gather4Typed {
            surface: Surface::Bti(256),
            ..ok
        },
        Platform::Gen8,
    );
    assert!(
        matches!(
            e,
            MsgError::Range {
                field: "binding table index",
                ..
            }
        ),
        "{e}"
    );
    assert!(e.to_string().contains("binding table index"));
    // Execution sizes other than 8.
    for es in [
        geneu::ExecSize::S1,
        geneu::ExecSize::S4,
        geneu::ExecSize::S16,
        geneu::ExecSize::S32,
    ] {
        let e = err(Gather4Typed { exec_size: es, ..ok }, Platform::Gen8);
        assert!(matches!(e, MsgError::Invalid { field: "exec size", .. }), "{es:?}: {e}");
    }
    // Destination types other than UD, D, F.
    for t in [Type::UW, Type::W, Type::HF, Type::DF, Type::UB] {
        let e = err(Gather4Typed { dst_type: t, ..ok }, Platform::Gen8);
        assert!(matches!(e, MsgError::Invalid { field: "dst type", .. }), "{t:?}: {e}");
    }
    for t in [Type::UD, Type::D, Type::F] {
        assert!(gather4_typed(Platform::Gen8, &Gather4Typed { dst_type: t, ..ok }).is_ok());
    }
    // Registers past g127; a channel offset that is not a multiple of 8.
    let e = err(Gather4Typed { payload: 126, ..ok }, Platform::Gen8);
    assert!(matches!(e, MsgError::Range { field: "payload", .. }), "{e}");
    let e = err(
        Gather4Typed {
            dst: 125,
            channels: 0xf,
            ..ok
        },
        Platform::Gen8,
    );
    assert!(matches!(e, MsgError::Range { field: "dst", .. }), "{e}");
    let e = err(
        Gather4Typed {
            channel_offset: 4,
            ..ok
        },
        Platform::Gen8,
    );
    assert!(
        matches!(
            e,
            MsgError::Range {
                field: "channel offset",
                ..
            }
        ),
        "{e}"
    );
}
