//! vISA GATHER4_TYPED lowered to payload moves and a typed surface read
//! SEND; the words are decoded and checked field by field.

use crate::visa_common;

use geneu::msg::{Channels, DataCache1, Dc1Op, Message, Render, RenderOp, TypedSlotGroup};
use geneu::visa::*;
use geneu::{decode, encode, Addr, Controls, ExecSize, FlagReg, Instruction, Opcode, Platform, RegFile, Type};
use visa_common::{check_all, exec_m};

const U: u32 = 0;
const V: u32 = 1;
const R: u32 = 2;
const LOD: u32 = 3;
const DST: u32 = 4;
const NULL: u32 = 5;
const FDST: u32 = 6;
const WDST: u32 = 7;

/// U in g10, V in g11, R in g12, LOD in g13, four result GRFs at g20,
/// a null variable, F results at g30, W results at g40; predicate P1 at f1.0.
fn vars() -> VarTable {
    let mut v = VarTable::new();
    v.add_general(VisaType::UD, 8, 10 * 32);
    v.add_general(VisaType::UD, 8, 11 * 32);
    v.add_general(VisaType::D, 8, 12 * 32);
    v.add_general(VisaType::UD, 8, 13 * 32);
    v.add_general(VisaType::UD, 32, 20 * 32);
    v.add_null(VisaType::UD);
    v.add_general(VisaType::F, 32, 30 * 32);
    v.add_general(VisaType::W, 64, 40 * 32);
    v.add_predicate(32, FlagReg { nr: 1, subnr: 0 });
    v
}

fn ctx() -> LowerCtx {
    LowerCtx {
        payload_grf: Some(100),
        ..LowerCtx::default()
    }
}

fn raw(id: u32) -> RawOperand {
    RawOperand { id, offset: 0 }
}

fn uv(channels: u8) -> VisaGather4Typed {
    let mut g = VisaGather4Typed::new(channels, Surface::Bti(3), raw(U), raw(DST));
    g.v = Some(raw(V));
    g
}

/// Decodes the words of `out` and returns them, after the common checks.
fn words(p: Platform, out: &[Instruction]) -> Vec<Instruction> {
    check_all(p, out);
    out.iter().map(|i| decode(p, &encode(p, i).unwrap()).unwrap()).collect()
}

fn direct(nr: u8, subnr: u8) -> Addr {
    Addr::Direct { nr, subnr }
}

/// The header moves: zeros, then the sample mask in dword 7, `WE_all`.
fn check_header(insts: &[Instruction], payload: u8) {
    let [zero, mask, ..] = insts else { panic!("{insts:?}") };
    assert_eq!(zero.opcode, Opcode::Mov);
    assert_eq!(zero.exec_size, ExecSize::S8);
    assert!(zero.controls.contains(Controls::WE_ALL));
    assert_eq!(zero.dst.addr, direct(payload, 0));
    assert_eq!(zero.dst.ty, Type::UD);
    assert_eq!(zero.imm_value(), Some((Type::UD, 0)));
    assert_eq!(mask.exec_size, ExecSize::S1);
    assert!(mask.controls.contains(Controls::WE_ALL));
    assert_eq!(mask.dst.addr, direct(payload, 28));
    assert_eq!(mask.imm_value(), Some((Type::UD, u64::from(GATHER4_HEADER_MASK))));
}

/// A payload copy `mov(8) g<to><1>:UD g<from><8,8,1>:UD`, `WE_all`.
fn check_copy(i: &Instruction, from: u8, to: u8) {
    assert_eq!(i.opcode, Opcode::Mov);
    assert_eq!(i.exec_size, ExecSize::S8);
    assert!(i.controls.contains(Controls::WE_ALL));
    assert_eq!(i.dst.addr, direct(to, 0));
    assert_eq!(i.src[0].file, RegFile::Grf);
    assert_eq!(i.src[0].addr, direct(from, 0));
    assert_eq!(i.src[0].ty, Type::UD);
}

#[test]
fn gen8_and_haswell_use_data_cache_1() {
    for p in [Platform::Gen75, Platform::Gen8, Platform::Chv] {
        let out = words(p, &lower_gather4_typed(p, &vars(), &ctx(), &uv(0b0011)).unwrap());
        // Header (2 moves), U and V copies, SEND.
        assert_eq!(out.len(), 5, "{p}");
        check_header(&out, 100);
        check_copy(&out[2], 10, 101);
        check_copy(&out[3], 11, 102);
        let send = &out[4];
        assert_eq!(send.opcode, Opcode::Send);
        assert_eq!(send.exec_size, ExecSize::S8);
        assert_eq!(send.cond_modifier, 12, "SFID: data cache 1");
        assert_eq!(send.qtr_control, 0);
        assert_eq!(send.pred_control, 0);
        assert!(!send.controls.contains(Controls::WE_ALL));
        assert_eq!(send.src[0].addr, direct(100, 0));
        assert_eq!(send.dst.addr, direct(20, 0));
        assert_eq!(send.dst.ty, Type::UD);
        let msg = Message::decode(p, send.cond_modifier, send.imm as u32).unwrap();
        let c = msg.common();
        assert_eq!((c.mlen, c.rlen, c.header, c.eot), (3, 2, true, false));
        match msg {
            Message::DataCache1(DataCache1 {
                bti: 3,
                op: Dc1Op::TypedSurfaceRead { channels, slot_group },
                ..
            }) => {
                assert_eq!(channels, Channels::R | Channels::G);
                assert_eq!(slot_group, TypedSlotGroup::Low);
            }
            m => panic!("{p}: {m:?}"),
        }
    }
}

#[test]
fn ivy_bridge_uses_the_render_cache() {
    let p = Platform::Gen7;
    let mut g = uv(0b1111);
    g.r = Some(raw(R));
    g.lod = Some(raw(LOD));
    g.exec = exec_m(8, 3, false);
    g.dst = raw(FDST);
    let out = words(p, &lower_gather4_typed(p, &vars(), &ctx(), &g).unwrap());
    assert_eq!(out.len(), 7);
    check_header(&out, 100);
    for (k, i) in out[2..6].iter().enumerate() {
        check_copy(i, 10 + k as u8, 101 + k as u8);
    }
    let send = &out[6];
    assert_eq!(send.cond_modifier, 5, "SFID: render cache");
    // M3: channels 8-15, the second quarter and the high slot group.
    assert_eq!(send.qtr_control, 1);
    assert_eq!(send.dst.ty, Type::F);
    assert_eq!(send.dst.addr, direct(30, 0));
    let msg = Message::decode(p, send.cond_modifier, send.imm as u32).unwrap();
    let c = msg.common();
    assert_eq!((c.mlen, c.rlen, c.header), (5, 4, true));
    match msg {
        Message::Render(Render {
            bti: 3,
            op: RenderOp::TypedSurfaceRead {
                channels,
                high_slot_group,
            },
            ..
        }) => {
            assert_eq!(channels, Channels::all());
            assert!(high_slot_group);
        }
        m => panic!("{m:?}"),
    }
}

#[test]
fn predicate_and_mask_control() {
    let p = Platform::Gen8;
    for (m, nm) in [(1, false), (3, true), (5, false), (7, true)] {
        for (inverse, combine) in [
            (false, PredCombine::Sequential),
            (true, PredCombine::Sequential),
            (false, PredCombine::Any),
            (true, PredCombine::All),
        ] {
            let mut g = uv(0b0001);
            g.exec = exec_m(8, m, nm);
            g.pred = Some(PredCtl {
                id: 1,
                combine,
                inverse,
            });
            let out = words(p, &lower_gather4_typed(p, &vars(), &ctx(), &g).unwrap());
            let send = out.last().unwrap();
            assert_eq!(send.opcode, Opcode::Send);
            assert_eq!(send.flag, FlagReg { nr: 1, subnr: 0 });
            let want = match combine {
                PredCombine::Sequential => 1,
                PredCombine::Any => 8,
                _ => 9,
            };
            assert_eq!(send.pred_control, want, "any8h = 8, all8h = 9");
            assert_eq!(send.controls.contains(Controls::PRED_INV), inverse);
            assert_eq!(send.controls.contains(Controls::WE_ALL), nm);
            assert_eq!(u32::from(send.qtr_control), (u32::from(m) - 1) / 2);
            let msg = Message::decode(p, send.cond_modifier, send.imm as u32).unwrap();
            let high = matches!(
                msg,
                Message::DataCache1(DataCache1 {
                    op: Dc1Op::TypedSurfaceRead {
                        slot_group: TypedSlotGroup::High,
                        ..
                    },
                    ..
                })
            );
            assert_eq!(high, m == 3 || m == 7, "M{m}");
            // The payload moves ignore the mask and the predicate.
            for i in &out[..out.len() - 1] {
                assert_eq!(i.pred_control, 0);
                assert!(i.controls.contains(Controls::WE_ALL));
            }
        }
    }
}

#[test]
fn operands_already_in_place_are_not_copied() {
    // U and V placed right after the payload header: no copies.
    let p = Platform::Gen75;
    let mut v = vars();
    let u = v.add_general(VisaType::UD, 16, 101 * 32);
    let mut g = VisaGather4Typed::new(0b0001, Surface::Bti(0), raw(u), raw(DST));
    g.v = Some(RawOperand { id: u, offset: 32 });
    let out = words(p, &lower_gather4_typed(p, &v, &ctx(), &g).unwrap());
    assert_eq!(out.len(), 3);
    check_header(&out, 100);
    assert_eq!(out[2].opcode, Opcode::Send);
    // Only R missing before LOD: R's GRF is taken but left alone.
    let mut g = VisaGather4Typed::new(0b0001, Surface::Bti(0), raw(U), raw(DST));
    g.lod = Some(raw(LOD));
    g.r = Some(raw(NULL));
    let out = words(p, &lower_gather4_typed(p, &v, &ctx(), &g).unwrap());
    assert_eq!(out.len(), 5);
    check_copy(&out[2], 10, 101);
    check_copy(&out[3], 13, 104);
    let send = &out[4];
    let msg = Message::decode(p, send.cond_modifier, send.imm as u32).unwrap();
    assert_eq!(msg.common().mlen, 5);
}

#[test]
fn errors() {
    let p = Platform::Gen8;
    let v = vars();
    let err = |g: &VisaGather4Typed| lower_gather4_typed(p, &v, &ctx(), g).unwrap_err();
    let g = uv(0b0001);
    // SLM and stateless surfaces, and BTIs that name them.
    for s in [Surface::Slm, Surface::Stateless, Surface::Bti(254), Surface::Bti(255)] {
        let e = err(&VisaGather4Typed { surface: s, ..g });
        assert!(matches!(e, VisaError::Message(_)), "{s:?}: {e}");
    }
    assert!(matches!(
        err(&VisaGather4Typed {
            surface: Surface::Bti(300),
            ..g
        }),
        VisaError::Message(_)
    ));
    // No channel enabled.
    assert!(matches!(
        err(&VisaGather4Typed { channels: 0, ..g }),
        VisaError::Message(_)
    ));
    // Not 8 channels; mask offset not aligned to 8.
    for e in [exec_m(16, 1, false), exec_m(4, 1, false)] {
        assert!(matches!(
            err(&VisaGather4Typed { exec: e, ..g }),
            VisaError::Unsupported { .. }
        ));
    }
    assert!(matches!(
        err(&VisaGather4Typed {
            exec: exec_m(8, 2, false),
            ..g
        }),
        VisaError::MaskAlign { offset: 4, .. }
    ));
    // No payload area.
    let e = lower_gather4_typed(p, &v, &LowerCtx::default(), &g).unwrap_err();
    assert!(matches!(e, VisaError::NeedScratch { .. }), "{e}");
    // Payload area past g127.
    let hi = LowerCtx {
        payload_grf: Some(126),
        ..LowerCtx::default()
    };
    assert!(matches!(
        lower_gather4_typed(p, &v, &hi, &g).unwrap_err(),
        VisaError::Message(_)
    ));
    // An operand in the payload area, not in its own GRF.
    let in_area = LowerCtx {
        payload_grf: Some(8),
        ..LowerCtx::default()
    };
    let e = lower_gather4_typed(p, &v, &in_area, &g).unwrap_err();
    assert!(
        matches!(
            e,
            VisaError::IllegalRegion {
                slot: Slot::Raw("U"),
                ..
            }
        ),
        "{e}"
    );
    // Offsets of the wrong type; a destination of the wrong type.
    let e = err(&VisaGather4Typed { u: raw(FDST), ..g });
    assert!(
        matches!(
            e,
            VisaError::HwType {
                slot: Slot::Raw("U"),
                ..
            }
        ),
        "{e}"
    );
    let e = err(&VisaGather4Typed { dst: raw(WDST), ..g });
    assert!(matches!(e, VisaError::Message(_)), "{e}");
    // A destination too small for the channels; null; not GRF-aligned.
    let e = err(&VisaGather4Typed {
        channels: 0b1111,
        dst: RawOperand { id: DST, offset: 64 },
        ..g
    });
    assert!(
        matches!(
            e,
            VisaError::OutOfBounds {
                slot: Slot::Raw("Dst"),
                ..
            }
        ),
        "{e}"
    );
    let e = err(&VisaGather4Typed { dst: raw(NULL), ..g });
    assert!(matches!(e, VisaError::OperandClass { .. }), "{e}");
    let e = err(&VisaGather4Typed {
        dst: RawOperand { id: DST, offset: 4 },
        ..g
    });
    assert!(
        matches!(
            e,
            VisaError::IllegalRegion {
                slot: Slot::Raw("Dst"),
                ..
            }
        ),
        "{e}"
    );
    // U is required: the null variable is not an address.
    let e = err(&VisaGather4Typed { u: raw(NULL), ..g });
    assert!(
        matches!(
            e,
            VisaError::OperandClass {
                slot: Slot::Raw("U"),
                ..
            }
        ),
        "{e}"
    );
    // Unknown variables and predicates.
    let e = err(&VisaGather4Typed { v: Some(raw(99)), ..g });
    assert!(matches!(e, VisaError::UnknownVariable { .. }), "{e}");
    let e = err(&VisaGather4Typed {
        pred: Some(PredCtl::new(2)),
        ..g
    });
    assert!(matches!(e, VisaError::UnknownVariable { .. }), "{e}");
}
