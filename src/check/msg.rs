//! The shared property check of the message descriptors, for fuzzers and
//! property tests.

use alloc::string::String;
use core::fmt::Write;

use crate::model::Platform;
use crate::msg::*;
use crate::word::fields::{desc_common, desc_dp_scratch, desc_urb_gen8, gen7_send};
use crate::word::FieldInfo;

/// The low bits of `v` that hold a value of field `f`.
fn within(v: u64, f: &FieldInfo) -> u64 {
    v & ((1 << f.width) - 1)
}

/// The low bits of `v` that hold a value of field `f` and one bit more:
/// values up to twice past the field's range.
fn past(v: u64, f: &FieldInfo) -> u64 {
    v & ((2 << f.width) - 1)
}

use crate::model::SFID_MAX;

/// Reads values from fuzzer bytes; reads past the end give zeros.
#[derive(Clone, Debug)]
pub struct ByteSource<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> ByteSource<'a> {
    /// A source over `data`.
    pub const fn new(data: &'a [u8]) -> Self {
        ByteSource { data, pos: 0 }
    }

    /// The next byte (0 once the data is exhausted).
    pub fn u8(&mut self) -> u8 {
        let b = self.data.get(self.pos).copied().unwrap_or(0);
        self.pos = self.pos.saturating_add(1);
        b
    }

    /// The next little-endian `u16`.
    pub fn u16(&mut self) -> u16 {
        u16::from_le_bytes([self.u8(), self.u8()])
    }

    /// The next little-endian `u32`.
    pub fn u32(&mut self) -> u32 {
        u32::from_le_bytes([self.u8(), self.u8(), self.u8(), self.u8()])
    }

    /// The next boolean.
    pub fn bool(&mut self) -> bool {
        self.u8() & 1 == 1
    }

    /// One of `items`, chosen by the next byte; `None` if `items` is empty.
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> Option<T> {
        if items.is_empty() {
            return None;
        }
        let i = self.u8() as usize % items.len();
        items.get(i).copied()
    }
}

fn platform(src: &mut ByteSource<'_>) -> Platform {
    src.pick(&Platform::ALL).unwrap_or(Platform::Gen7)
}

fn common(src: &mut ByteSource<'_>) -> Common {
    // Mostly in range; sometimes out of range, to exercise the errors.
    let b = src.u8();
    let (mlen, rlen) = if b & 0xf0 == 0xf0 {
        (src.u8(), src.u8())
    } else {
        (
            within(src.u8().into(), &desc_common::MLEN) as u8,
            within(src.u8().into(), &desc_common::RLEN) as u8,
        )
    };
    Common {
        mlen,
        rlen,
        header: src.bool(),
        eot: b & 1 == 1,
    }
}

fn channels(src: &mut ByteSource<'_>) -> Channels {
    Channels::from_bits_truncate(src.u8())
}

fn atomic(src: &mut ByteSource<'_>) -> AtomicOp {
    src.pick(AtomicOp::ALL).unwrap_or(AtomicOp::Add)
}

fn oword(src: &mut ByteSource<'_>) -> OwordBlockSize {
    src.pick(OwordBlockSize::ALL).unwrap_or(OwordBlockSize::Two)
}

fn dual(src: &mut ByteSource<'_>) -> DualBlockSize {
    src.pick(DualBlockSize::ALL).unwrap_or(DualBlockSize::One)
}

fn bytes_size(src: &mut ByteSource<'_>) -> ScatteredDataSize {
    src.pick(ScatteredDataSize::ALL).unwrap_or(ScatteredDataSize::Byte)
}

fn simd(src: &mut ByteSource<'_>) -> SurfaceSimd {
    src.pick(SurfaceSimd::ALL).unwrap_or(SurfaceSimd::Simd8)
}

fn small(src: &mut ByteSource<'_>, bits: u32) -> u8 {
    // Usually within `bits`, now and then one bit wider.
    let v = src.u8();
    if v & 0x80 != 0 {
        v & ((2u16 << bits) - 1) as u8
    } else {
        v & ((1u16 << bits) - 1) as u8
    }
}

/// An arbitrary typed message built from fuzzer bytes. It may be invalid
/// (a field out of range, a message reserved on its platform); building
/// it must then fail cleanly.
pub fn arbitrary_message(src: &mut ByteSource<'_>) -> Message {
    let p = platform(src);
    let common = common(src);
    let bti = src.u8();
    match src.u8() % 11 {
        0 => Message::Urb(Urb {
            platform: p,
            common,
            opcode: src.pick(UrbOpcode::ALL).unwrap_or(UrbOpcode::WriteHWord),
            global_offset: past(src.u16().into(), &desc_urb_gen8::GLOBAL_OFFSET) as u16,
            per_slot_offset: src.bool(),
            interleave: src.bool(),
            channel_mask: src.bool(),
            complete: src.bool(),
        }),
        1 => Message::Sampler(Sampler {
            platform: p,
            common,
            msg_type: src.pick(SamplerMsgType::ALL).unwrap_or(SamplerMsgType::Sample),
            simd: src.pick(SamplerSimd::ALL).unwrap_or(SamplerSimd::Simd8),
            sampler: small(src, 4),
            bti,
            return_format: src.pick(ReturnFormat::ALL).unwrap_or(ReturnFormat::Bits32),
        }),
        2 | 3 => {
            let op = match src.u8() % 5 {
                0 => DpReadOp::OwordBlockRead { size: oword(src) },
                1 => DpReadOp::UnalignedOwordBlockRead { size: oword(src) },
                2 => DpReadOp::OwordDualBlockRead { size: dual(src) },
                3 => DpReadOp::DwordScatteredRead { simd16: src.bool() },
                _ => DpReadOp::MediaBlockRead { control: small(src, 6) },
            };
            let m = DpRead {
                platform: p,
                common,
                bti,
                op,
            };
            if src.bool() {
                Message::SamplerCache(m)
            } else {
                Message::ConstantCache(m)
            }
        }
        4 => {
            let op = match src.u8() % 8 {
                0 => RenderOp::RtWrite {
                    subtype: src.pick(RtWriteSubtype::ALL).unwrap_or(RtWriteSubtype::Simd8),
                    slot_group_high: src.bool(),
                    last_rt: src.bool(),
                },
                1 => RenderOp::RtRead {
                    simd8: src.bool(),
                    slot_group_high: src.bool(),
                    per_sample: src.bool(),
                },
                2 => RenderOp::MediaBlockRead { control: small(src, 6) },
                3 => RenderOp::MediaBlockWrite { control: small(src, 6) },
                4 => RenderOp::TypedSurfaceRead {
                    channels: channels(src),
                    high_slot_group: src.bool(),
                },
                5 => RenderOp::TypedSurfaceWrite {
                    channels: channels(src),
                    high_slot_group: src.bool(),
                },
                6 => RenderOp::TypedAtomic {
                    op: atomic(src),
                    high_slot_group: src.bool(),
                    return_data: src.bool(),
                },
                _ => RenderOp::MemoryFence { commit: src.bool() },
            };
            Message::Render(Render {
                platform: p,
                common,
                bti,
                op,
            })
        }
        5 => {
            let (bti, op) = match src.u8() % 14 {
                0 => (bti, Dc0Op::OwordBlockRead { size: oword(src) }),
                1 => (bti, Dc0Op::UnalignedOwordBlockRead { size: oword(src) }),
                2 => (bti, Dc0Op::OwordDualBlockRead { size: dual(src) }),
                3 => (bti, Dc0Op::DwordScatteredRead { simd16: src.bool() }),
                4 => (
                    bti,
                    Dc0Op::ByteScatteredRead {
                        simd16: src.bool(),
                        size: bytes_size(src),
                    },
                ),
                5 => (
                    bti,
                    Dc0Op::UntypedSurfaceRead {
                        channels: channels(src),
                        simd: simd(src),
                    },
                ),
                6 => (
                    bti,
                    Dc0Op::UntypedAtomic {
                        op: atomic(src),
                        simd8: src.bool(),
                        return_data: src.bool(),
                    },
                ),
                7 => (bti, Dc0Op::MemoryFence { commit: src.bool() }),
                8 => (bti, Dc0Op::OwordBlockWrite { size: oword(src) }),
                9 => (bti, Dc0Op::OwordDualBlockWrite { size: dual(src) }),
                10 => (bti, Dc0Op::DwordScatteredWrite { simd16: src.bool() }),
                11 => (
                    bti,
                    Dc0Op::ByteScatteredWrite {
                        simd16: src.bool(),
                        size: bytes_size(src),
                    },
                ),
                12 => (
                    bti,
                    Dc0Op::UntypedSurfaceWrite {
                        channels: channels(src),
                        simd: simd(src),
                    },
                ),
                _ => (
                    bti & src.u8() & 1,
                    Dc0Op::Scratch(ScratchBlock {
                        write: src.bool(),
                        offset: past(src.u16().into(), &desc_dp_scratch::SCRATCH_OFFSET) as u16,
                        regs: src.pick(ScratchRegs::ALL).unwrap_or(ScratchRegs::One),
                        dword: src.bool(),
                        invalidate_after_read: src.bool(),
                    }),
                ),
            };
            Message::DataCache0(DataCache0 {
                platform: p,
                common,
                bti,
                op,
            })
        }
        6 => {
            let op = match src.u8() % 17 {
                0 => Dc1Op::UntypedSurfaceRead {
                    channels: channels(src),
                    simd: simd(src),
                },
                1 => Dc1Op::UntypedAtomic {
                    op: atomic(src),
                    simd8: src.bool(),
                    return_data: src.bool(),
                },
                2 => Dc1Op::UntypedAtomicSimd4x2 {
                    op: atomic(src),
                    return_data: src.bool(),
                },
                3 => Dc1Op::MediaBlockRead { control: small(src, 6) },
                4 => Dc1Op::TypedSurfaceRead {
                    channels: channels(src),
                    slot_group: src.pick(TypedSlotGroup::ALL).unwrap_or(TypedSlotGroup::Low),
                },
                5 => Dc1Op::TypedAtomic {
                    op: atomic(src),
                    high_slot_group: src.bool(),
                    return_data: src.bool(),
                },
                6 => Dc1Op::TypedAtomicSimd4x2 {
                    op: atomic(src),
                    return_data: src.bool(),
                },
                7 => Dc1Op::UntypedSurfaceWrite {
                    channels: channels(src),
                    simd: simd(src),
                },
                8 => Dc1Op::MediaBlockWrite { control: small(src, 6) },
                9 => Dc1Op::AtomicCounter {
                    op: atomic(src),
                    simd8: src.bool(),
                    return_data: src.bool(),
                },
                10 => Dc1Op::AtomicCounterSimd4x2 {
                    op: atomic(src),
                    return_data: src.bool(),
                },
                11 => Dc1Op::TypedSurfaceWrite {
                    channels: channels(src),
                    slot_group: src.pick(TypedSlotGroup::ALL).unwrap_or(TypedSlotGroup::Low),
                },
                12 => Dc1Op::A64UntypedSurfaceRead {
                    channels: channels(src),
                    simd: simd(src),
                },
                13 => Dc1Op::A64UntypedAtomic {
                    op: atomic(src),
                    qword: src.bool(),
                    return_data: src.bool(),
                },
                14 => Dc1Op::A64UntypedSurfaceWrite {
                    channels: channels(src),
                    simd: simd(src),
                },
                15 => Dc1Op::A64ScatteredRead {
                    subtype: src.pick(A64ScatteredSubtype::ALL).unwrap_or(A64ScatteredSubtype::Byte),
                    data_size: small(src, 2),
                    simd16: src.bool(),
                },
                _ => Dc1Op::A64ScatteredWrite {
                    subtype: src.pick(A64ScatteredSubtype::ALL).unwrap_or(A64ScatteredSubtype::Byte),
                    data_size: small(src, 2),
                    simd16: src.bool(),
                },
            };
            Message::DataCache1(DataCache1 {
                platform: p,
                common,
                bti,
                op,
            })
        }
        7 => Message::Gateway(Gateway {
            platform: p,
            common,
            op: src.pick(GatewayOp::ALL).unwrap_or(GatewayOp::Barrier),
            notify: small(src, 2),
        }),
        8 => Message::ThreadSpawner(ThreadSpawner {
            platform: p,
            common,
            opcode: src.pick(TsOpcode::ALL).unwrap_or(TsOpcode::DereferenceResource),
            child: src.bool(),
            keep_urb: src.bool(),
        }),
        9 => {
            let msg = match src.u8() % 4 {
                0 => PiMessage::PerMessageOffset {
                    x: (src.u8() as i8) >> 3,
                    y: (src.u8() as i8) >> 3,
                },
                1 => PiMessage::SamplePosition { sample: small(src, 4) },
                2 => PiMessage::Centroid,
                _ => PiMessage::PerSlotOffset,
            };
            Message::PixelInterp(PixelInterp {
                platform: p,
                common,
                msg,
                linear: src.bool(),
                simd16: src.bool(),
                slot_group_high: src.bool(),
            })
        }
        _ => Message::Unknown {
            sfid: within(src.u8().into(), &gen7_send::SFID) as u8,
            desc: src.u32(),
        },
    }
}

/// Checks the descriptor properties on fuzzer bytes; panics only when a
/// property is violated (a bug):
///
/// 1. `Message::decode` of an arbitrary (platform, SFID, descriptor) never
///    panics, fails only for an SFID above 15, and a typed result re-builds
///    to the same 32 bits and decodes again to itself;
/// 2. for an arbitrary typed message that builds, decoding the built
///    descriptor gives the message back (`decode(build(d)) == d`; raw
///    [`Message::Unknown`] bits keep their value);
/// 3. the Mesa text of any descriptor writes without error, and its counted
///    width never exceeds its length.
pub fn fuzz_check(data: &[u8]) {
    let mut src = ByteSource::new(data);

    // 1. Raw bits.
    let p = platform(&mut src);
    let sfid = past(src.u8().into(), &gen7_send::SFID) as u8;
    let desc = src.u32();
    match Message::decode(p, sfid, desc) {
        Err(e) => {
            assert!(sfid > SFID_MAX, "decode({p}, {sfid}, {desc:#x}) failed: {e}");
            let _ = alloc::format!("{e}");
        }
        Ok(m) => {
            assert!(sfid <= SFID_MAX, "decode accepted sfid {sfid}");
            assert_eq!(m.sfid(), sfid, "sfid of {m:?}");
            let built = m.desc();
            assert_eq!(built, Ok(desc), "{m:?} does not re-build to {desc:#010x}");
            if m.is_typed() {
                assert_eq!(m.platform(), Some(p));
                assert_eq!(Message::decode(p, sfid, desc), Ok(m));
            } else {
                assert!(
                    Message::decode_typed(p, sfid, desc).is_err(),
                    "Unknown but typed: {desc:#x}"
                );
            }
        }
    }
    let sfid4 = within(sfid.into(), &gen7_send::SFID) as u8;
    check_text(p, sfid4, Some(desc));
    check_text(p, sfid4, None);

    // 2. Typed values.
    let m = arbitrary_message(&mut src);
    match m.desc() {
        Ok(d) => {
            let p = m.platform().unwrap_or(p);
            let back = Message::decode(p, m.sfid(), d);
            if m.is_typed() {
                assert_eq!(back, Ok(m), "decode(build({m:?})) = {back:?} (descriptor {d:#010x})");
            } else {
                // Raw bits may well decode to a typed message; they must
                // keep their value.
                assert_eq!(back.and_then(|b| b.desc()), Ok(d), "raw {d:#010x}");
            }
            check_text(p, m.sfid(), Some(d));
        }
        Err(e) => {
            let _ = alloc::format!("{e}");
        }
    }
}

fn check_text(p: Platform, sfid: u8, desc: Option<u32>) {
    let mut s = String::new();
    let n = write_msg_desc_raw(&mut s, p, sfid, desc);
    assert!(n.is_ok(), "writing the text of {sfid}/{desc:?} failed");
    let n = n.unwrap_or(0);
    assert!(n <= s.chars().count(), "counted {n} > text `{s}`");
    assert_eq!(MsgDescDisplay::new(p, sfid, desc).counted_width(), n);
    let mut t = String::new();
    let _ = write!(t, "{}", MsgDescDisplay::new(p, sfid, desc));
    assert_eq!(s, t);
}
