//! The messages against hand-laid payloads (per the PRM layouts written in
//! each file's documentation, independently of the implementation) and
//! hand-computed memory and responses. Descriptors are built with the
//! typed `msg` constructors, so they are the real encodings.

use super::{execute, MessageCall, MessageReply};
use crate::msg::*;
use crate::sim::memory::{AddressMode, SamplerState, Surface, SurfaceFormat};
use crate::sim::{Memory, SimError};
use crate::{Platform, Sfid};
use alloc::vec;
use alloc::vec::Vec;

use Platform::{Gen7, Gen75, Gen8};

/// A register of eight dwords.
fn reg(d: [u32; 8]) -> [u8; 32] {
    let mut r = [0; 32];
    for (i, v) in d.iter().enumerate() {
        r[i * 4..i * 4 + 4].copy_from_slice(&v.to_le_bytes());
    }
    r
}

/// The dwords of a register.
fn dws(r: &[u8; 32]) -> [u32; 8] {
    core::array::from_fn(|i| u32::from_le_bytes(r[i * 4..i * 4 + 4].try_into().unwrap()))
}

fn f(v: f32) -> u32 {
    v.to_bits()
}

/// Runs message `m` with `payload`, channels `mask`, thread 3 of group 1.
fn run(p: Platform, m: Message, payload: &[[u8; 32]], mask: u32, mem: &mut Memory) -> Result<MessageReply, SimError> {
    let call = MessageCall {
        platform: p,
        offset: 0x40,
        sfid: Sfid::from_hw(m.sfid()).unwrap(),
        desc: m.desc().unwrap(),
        exec_size: if mask > 0xff { 16 } else { 8 },
        channel_mask: mask,
        payload,
        thread: 3,
        group: 1,
        eot: false,
    };
    execute(&call, mem)
}

fn ok(r: Result<MessageReply, SimError>) -> Vec<[u32; 8]> {
    let r = r.unwrap();
    assert!(!r.barrier && !r.end_of_thread);
    r.regs.iter().map(dws).collect()
}

/// A buffer whose byte i is i (mod 256).
fn counting(n: usize) -> Surface {
    Surface::buffer((0..n).map(|i| i as u8).collect())
}

/// The little-endian dword of bytes b, b+1, b+2, b+3 of a counting buffer.
fn cdw(b: u32) -> u32 {
    u32::from_le_bytes([b as u8, (b + 1) as u8, (b + 2) as u8, (b + 3) as u8])
}

fn dc0(p: Platform, mlen: u8, rlen: u8, header: bool, bti: u8, op: Dc0Op) -> Message {
    Message::DataCache0(DataCache0::new(p, Common::new(mlen, rlen, header), bti, op))
}

fn dc1(p: Platform, mlen: u8, rlen: u8, header: bool, bti: u8, op: Dc1Op) -> Message {
    Message::DataCache1(DataCache1::new(p, Common::new(mlen, rlen, header), bti, op))
}

fn header_dw2(v: u32) -> [u8; 32] {
    reg([0, 0, v, 0, 0, 0, 0, 0])
}

#[test]
fn oword_block_reads_count_owords_and_the_unaligned_one_bytes() {
    let mut mem = Memory::new();
    mem.bind(1, counting(256));
    // Two OWords at OWord 2 = bytes 32..64.
    let m = dc0(
        Gen75,
        1,
        1,
        true,
        1,
        Dc0Op::OwordBlockRead {
            size: OwordBlockSize::Two,
        },
    );
    let r = ok(run(Gen75, m, &[header_dw2(2)], 0, &mut mem));
    assert_eq!(r[0], core::array::from_fn(|i| cdw(32 + 4 * i as u32)));
    // One OWord into the high half: the low half is zeros.
    let m = dc0(
        Gen8,
        1,
        1,
        true,
        1,
        Dc0Op::OwordBlockRead {
            size: OwordBlockSize::OneHigh,
        },
    );
    let r = ok(run(Gen8, m, &[header_dw2(1)], 0, &mut mem));
    assert_eq!(r[0], [0, 0, 0, 0, cdw(16), cdw(20), cdw(24), cdw(28)]);
    // Unaligned: byte 4; the constant cache reads the same way.
    let m = Message::ConstantCache(DpRead::new(
        Gen7,
        Common::new(1, 2, true),
        1,
        DpReadOp::UnalignedOwordBlockRead {
            size: OwordBlockSize::Four,
        },
    ));
    let r = ok(run(Gen7, m, &[header_dw2(4)], 0, &mut mem));
    assert_eq!(r[1][7], cdw(4 + 60));
    assert_eq!(r[0][0], cdw(4));
    // Past the end of the 256-byte buffer: OWord 15 holds, 16 reads zero.
    let m = dc0(
        Gen7,
        1,
        1,
        true,
        1,
        Dc0Op::OwordBlockRead {
            size: OwordBlockSize::Two,
        },
    );
    let r = ok(run(Gen7, m, &[header_dw2(15)], 0, &mut mem));
    assert_eq!(r[0], [cdw(240), cdw(244), cdw(248), cdw(252), 0, 0, 0, 0]);
}

#[test]
fn oword_block_write_to_slm_reads_back_scattered() {
    let mut mem = Memory::new();
    let data: [u32; 8] = core::array::from_fn(|i| 0x100 + i as u32);
    let m = dc0(
        Gen8,
        2,
        0,
        true,
        BTI_SLM,
        Dc0Op::OwordBlockWrite {
            size: OwordBlockSize::Two,
        },
    );
    ok(run(Gen8, m, &[header_dw2(3), reg(data)], 0, &mut mem));
    let slm = mem.slm(1).unwrap();
    assert_eq!(slm[48..52], 0x100u32.to_le_bytes());
    assert_eq!(slm[76..80], 0x107u32.to_le_bytes());
    assert!(mem.slm(0).is_none(), "another group's SLM is untouched");
    // DWord scattered read, offsets in dwords, global offset 10 dwords.
    let m = dc0(Gen8, 2, 1, true, BTI_SLM, Dc0Op::DwordScatteredRead { simd16: false });
    let offs = reg([2, 9, 0, 1, 5, 4, 3, 0x4000]);
    let r = ok(run(Gen8, m, &[header_dw2(10), offs], 0b0111_1111, &mut mem));
    // Dwords 12, 19, 10, 11, 15, 14, 13: dword 12 + i holds 0x100 + i, dwords
    // 10 and 11 were never written; slot 7 is disabled.
    assert_eq!(r[0], [0x100, 0x107, 0, 0, 0x103, 0x102, 0x101, 0]);
}

#[test]
fn dword_scattered_simd16_reads_zero_out_of_bounds_and_drops_writes() {
    let mut mem = Memory::new();
    mem.bind(0, counting(64));
    let m = dc0(Gen7, 2, 2, false, 0, Dc0Op::DwordScatteredRead { simd16: true });
    let offs = [
        reg([0, 1, 2, 3, 15, 16, u32::MAX, 7]),
        reg([8, 9, 10, 11, 12, 13, 14, 0]),
    ];
    let r = ok(run(Gen7, m, &offs, 0xffff, &mut mem));
    assert_eq!(r[0], [cdw(0), cdw(4), cdw(8), cdw(12), cdw(60), 0, 0, cdw(28)]);
    assert_eq!(r[1][7], cdw(0));
    let m = dc0(Gen7, 4, 0, false, 0, Dc0Op::DwordScatteredWrite { simd16: true });
    let data = [reg([0xaaaa; 8]), reg([0xbbbb; 8])];
    let payload = [offs[0], offs[1], data[0], data[1]];
    ok(run(Gen7, m, &payload, 0x0021, &mut mem)); // slots 0 and 5 (dword 16: dropped)
    let b = mem.surface(0).unwrap().data();
    assert_eq!(b[0..4], 0xaaaau32.to_le_bytes());
    assert_eq!(b[4..8], [4, 5, 6, 7]);
    assert_eq!(b.len(), 64);
}

#[test]
fn byte_scattered_moves_bytes_words_and_dwords() {
    let mut mem = Memory::new();
    mem.map(0x1_0000, vec![0; 32]).unwrap();
    mem.stateless_base = 0x1_0000;
    let size = ScatteredDataSize::Word;
    let m = dc0(
        Gen75,
        2,
        0,
        false,
        BTI_STATELESS,
        Dc0Op::ByteScatteredWrite { simd16: false, size },
    );
    let payload = [
        reg([1, 6, 0, 0, 0, 0, 0, 0]),
        reg([0x1234_5678, 0xabcd, 0, 0, 0, 0, 0, 0]),
    ];
    ok(run(Gen75, m, &payload, 0b11, &mut mem));
    let b = mem.mapped(0x1_0000).unwrap();
    assert_eq!(b[..8], [0, 0x78, 0x56, 0, 0, 0, 0xcd, 0xab]);
    // Byte reads with a global offset of 1 byte, zero-extended.
    let size = ScatteredDataSize::Byte;
    let m = dc0(
        Gen75,
        2,
        1,
        true,
        BTI_STATELESS,
        Dc0Op::ByteScatteredRead { simd16: false, size },
    );
    let r = ok(run(
        Gen75,
        m,
        &[header_dw2(1), reg([0, 1, 5, 6, 0, 0, 0, 0])],
        0b1111,
        &mut mem,
    ));
    assert_eq!(r[0][..4], [0x78, 0x56, 0xcd, 0xab]);
    // Unmapped stateless memory is an error naming the flat address.
    let r = run(Gen75, m, &[header_dw2(1), reg([40, 0, 0, 0, 0, 0, 0, 0])], 1, &mut mem);
    assert!(
        matches!(
            r,
            Err(SimError::Unmapped {
                address: 0x1_0029,
                bytes: 1,
                offset: 0x40
            })
        ),
        "{:?}",
        r.err()
    );
}

#[test]
fn untyped_surface_read_and_write_take_only_enabled_channels() {
    let mut mem = Memory::new();
    mem.bind(2, counting(256));
    // SIMD8, channels R and B: response R = dword at a, B = dword at a + 8.
    let channels = Channels::R | Channels::B;
    let m = dc1(
        Gen8,
        1,
        2,
        false,
        2,
        Dc1Op::UntypedSurfaceRead {
            channels,
            simd: SurfaceSimd::Simd8,
        },
    );
    let r = ok(run(Gen8, m, &[reg([0, 16, 32, 48, 64, 80, 96, 252])], 0xff, &mut mem));
    assert_eq!(r[0][1], cdw(16));
    assert_eq!(r[1][1], cdw(24));
    assert_eq!(r[0][7], cdw(252));
    assert_eq!(r[1][7], 0, "252 + 8 is past the end");
    // SIMD16 write of RG on Ivy Bridge's data cache, header mask = slots 0 and 9.
    let channels = Channels::R | Channels::G;
    let m = dc0(
        Gen7,
        7,
        0,
        true,
        2,
        Dc0Op::UntypedSurfaceWrite {
            channels,
            simd: SurfaceSimd::Simd16,
        },
    );
    let mut hdr = [0u32; 8];
    hdr[7] = 1 | 1 << 9;
    let payload = [
        reg(hdr),
        reg([0; 8]),
        reg([0, 100, 0, 0, 0, 0, 0, 0]),
        reg([0x11; 8]),
        reg([0x12; 8]),
        reg([0x21; 8]),
        reg([0x22; 8]),
    ];
    ok(run(Gen7, m, &payload, 0xffff, &mut mem));
    let b = mem.surface(2).unwrap().data();
    assert_eq!(b[0..8], [0x11, 0, 0, 0, 0x21, 0, 0, 0]);
    assert_eq!(b[100..108], [0x12, 0, 0, 0, 0x22, 0, 0, 0]);
    assert_eq!(b[8], 8, "not written");
}

#[test]
fn simd4x2_untyped_messages_keep_channels_in_place() {
    let mut mem = Memory::new();
    mem.bind(2, counting(64));
    // Slot 0 reads XYZW at byte 8, slot 1 at byte 32; channel Z disabled.
    let channels = Channels::R | Channels::G | Channels::A;
    let m = dc1(
        Gen75,
        1,
        1,
        false,
        2,
        Dc1Op::UntypedSurfaceRead {
            channels,
            simd: SurfaceSimd::Simd4x2,
        },
    );
    let r = ok(run(Gen75, m, &[reg([8, 0, 0, 0, 32, 0, 0, 0])], 0xff, &mut mem));
    assert_eq!(r[0], [cdw(8), cdw(12), 0, cdw(20), cdw(32), cdw(36), 0, cdw(44)]);
    // Write XY of slot 1 only (execution channels 4 and 5) at byte 0.
    let channels = Channels::R | Channels::G;
    let m = dc1(
        Gen75,
        2,
        0,
        false,
        2,
        Dc1Op::UntypedSurfaceWrite {
            channels,
            simd: SurfaceSimd::Simd4x2,
        },
    );
    let payload = [
        reg([16, 0, 0, 0, 0, 0, 0, 0]),
        reg(core::array::from_fn(|i| 0xa0 + i as u32)),
    ];
    ok(run(Gen75, m, &payload, 0b0011_0000, &mut mem));
    let b = mem.surface(2).unwrap().data();
    assert_eq!(b[0..12], [0xa4, 0, 0, 0, 0xa5, 0, 0, 0, 8, 9, 10, 11]);
    assert_eq!(b[16..20], [16, 17, 18, 19], "slot 0 disabled");
}

#[test]
fn simd4x2_untyped_atomics_use_the_x_of_each_slot() {
    let mut mem = Memory::new();
    mem.bind(
        2,
        Surface::buffer([10u32, 20].iter().flat_map(|v| v.to_le_bytes()).collect()),
    );
    let op = Dc1Op::UntypedAtomicSimd4x2 {
        op: AtomicOp::Umax,
        return_data: true,
    };
    let m = dc1(Gen8, 2, 1, false, 2, op);
    let payload = [reg([0, 9, 9, 9, 4, 9, 9, 9]), reg([15, 99, 99, 99, 3, 99, 99, 99])];
    let r = ok(run(Gen8, m, &payload, 0b0001_0001, &mut mem));
    assert_eq!(r[0], [10, 0, 0, 0, 20, 0, 0, 0]);
    assert_eq!(mem.surface(2).unwrap().data()[..8], [15, 0, 0, 0, 20, 0, 0, 0]);
}

#[test]
fn untyped_atomics_apply_rust_arithmetic_and_return_the_old_value() {
    let mut mem = Memory::new();
    let init: [i32; 4] = [5, -7, 100, 42];
    mem.bind(4, Surface::buffer(init.iter().flat_map(|v| v.to_le_bytes()).collect()));
    let read = |mem: &Memory, i: usize| {
        i32::from_le_bytes(mem.surface(4).unwrap().data()[i * 4..i * 4 + 4].try_into().unwrap())
    };
    let addrs = reg([0, 4, 8, 12, 0, 0, 0, 0]);
    let cases: [(AtomicOp, [i32; 4], [i32; 4]); 5] = [
        (AtomicOp::Add, [1, 2, 3, 4], [6, -5, 103, 46]),
        (AtomicOp::Imax, [0, 0, 200, -1], [6, 0, 200, 46]),
        (AtomicOp::Umin, [3, -1, 1, 50], [3, 0, 1, 46]),
        (AtomicOp::Revsub, [10, 10, 10, 10], [7, 10, 9, -36]),
        (AtomicOp::Xor, [1, 1, 1, 1], [6, 11, 8, -35]),
    ];
    let mut old = init;
    for (op, src, want) in cases {
        let m = dc1(
            Gen75,
            2,
            1,
            false,
            4,
            Dc1Op::UntypedAtomic {
                op,
                simd8: true,
                return_data: true,
            },
        );
        let r = ok(run(
            Gen75,
            m,
            &[
                addrs,
                reg(core::array::from_fn(|i| src.get(i).copied().unwrap_or(0) as u32)),
            ],
            0x0f,
            &mut mem,
        ));
        assert_eq!(r[0][..4], old.map(|v| v as u32), "{op:?} returns the old values");
        assert_eq!([0, 1, 2, 3].map(|i| read(&mem, i)), want, "{op:?}");
        old = want;
    }
    // cmpwr: src0 is compared, src1 written; SIMD16 with slots 0 and 1 only.
    let m = dc1(
        Gen8,
        6,
        0,
        false,
        4,
        Dc1Op::UntypedAtomic {
            op: AtomicOp::Cmpwr,
            simd8: false,
            return_data: false,
        },
    );
    let payload = [
        addrs,
        reg([0; 8]),
        reg([6, 99, 0, 0, 0, 0, 0, 0]),
        reg([0; 8]),
        reg([77, 88, 0, 0, 0, 0, 0, 0]),
        reg([0; 8]),
    ];
    ok(run(Gen8, m, &payload, 0b11, &mut mem));
    assert_eq!([0, 1].map(|i| read(&mem, i)), [77, 11]);
    // inc on Ivy Bridge's data cache 0 takes no source.
    let m = dc0(
        Gen7,
        1,
        1,
        false,
        4,
        Dc0Op::UntypedAtomic {
            op: AtomicOp::Inc,
            simd8: true,
            return_data: true,
        },
    );
    let r = ok(run(Gen7, m, &[reg([8, 0, 0, 0, 0, 0, 0, 0])], 1, &mut mem));
    assert_eq!(r[0][0], 8);
    assert_eq!(read(&mem, 2), 9);
    // predec returns the decremented value (GLSL atomicCounterDecrement).
    let op = Dc0Op::UntypedAtomic {
        op: AtomicOp::Predec,
        simd8: true,
        return_data: true,
    };
    let r = ok(run(Gen7, dc0(Gen7, 1, 1, false, 4, op), &[addrs], 0b10, &mut mem));
    assert_eq!((r[0][1], read(&mem, 1)), (10, 10));
}

#[test]
fn a64_messages_address_flat_memory_with_64_bit_addresses() {
    let mut mem = Memory::new();
    let base = 0x7_0000_0000u64;
    mem.map(base, vec![0; 64]).unwrap();
    let addr = |i: u64| base + 8 * i;
    let lo = |a: u64| a as u32;
    let hi = |a: u64| (a >> 32) as u32;
    // Addresses: four qwords per register.
    let a = [
        reg([
            lo(addr(0)),
            hi(addr(0)),
            lo(addr(1)),
            hi(addr(1)),
            lo(addr(2)),
            hi(addr(2)),
            lo(addr(3)),
            hi(addr(3)),
        ]),
        reg([
            lo(addr(4)),
            hi(addr(4)),
            lo(addr(5)),
            hi(addr(5)),
            lo(addr(6)),
            hi(addr(6)),
            lo(addr(7)),
            hi(addr(7)),
        ]),
    ];
    let channels = Channels::R | Channels::G;
    let m = dc1(
        Gen8,
        4,
        0,
        false,
        BTI_STATELESS,
        Dc1Op::A64UntypedSurfaceWrite {
            channels,
            simd: SurfaceSimd::Simd8,
        },
    );
    let payload = [
        a[0],
        a[1],
        reg(core::array::from_fn(|i| i as u32)),
        reg(core::array::from_fn(|i| 0x10 + i as u32)),
    ];
    ok(run(Gen8, m, &payload, 0xff, &mut mem));
    let b = mem.mapped(base).unwrap();
    assert_eq!(b[8..16], [1, 0, 0, 0, 0x11, 0, 0, 0]);
    let m = dc1(
        Gen8,
        2,
        1,
        false,
        BTI_STATELESS,
        Dc1Op::A64UntypedSurfaceRead {
            channels: Channels::G,
            simd: SurfaceSimd::Simd8,
        },
    );
    let r = ok(run(Gen8, m, &a, 0xff, &mut mem));
    assert_eq!(r[0], core::array::from_fn(|i| 0x10 + i as u32));
    // A 64-bit add on qword 0 (bytes 0..8 = 0x10_0000_0000 read as u64).
    let m = dc1(
        Gen8,
        4,
        2,
        false,
        BTI_STATELESS,
        Dc1Op::A64UntypedAtomic {
            op: AtomicOp::Add,
            qword: true,
            return_data: true,
        },
    );
    let src = [reg([0xffff_ffff, 1, 0, 0, 0, 0, 0, 0]), reg([0; 8])];
    let r = ok(run(Gen8, m, &[a[0], a[1], src[0], src[1]], 1, &mut mem));
    let old = 0x10_0000_0000u64;
    assert_eq!([r[0][0], r[0][1]], [old as u32, (old >> 32) as u32]);
    let new = old + 0x1_ffff_ffff;
    assert_eq!(mem.mapped(base).unwrap()[..8], new.to_le_bytes());
    // A64 scattered write of two bytes per address.
    let m = dc1(
        Gen8,
        3,
        0,
        false,
        BTI_STATELESS,
        Dc1Op::A64ScatteredWrite {
            subtype: A64ScatteredSubtype::Byte,
            data_size: 1,
            simd16: false,
        },
    );
    ok(run(Gen8, m, &[a[0], a[1], reg([0xbeef; 8])], 0b100, &mut mem));
    assert_eq!(mem.mapped(base).unwrap()[16..21], [0xef, 0xbe, 0, 0, 0x12]);
}

/// The two address registers of a SIMD8 A64 message: slot i at `addr(i)`.
fn a64_addresses(addr: impl Fn(u64) -> u64) -> [[u8; 32]; 2] {
    let q = |r: u64| -> [u8; 32] {
        let mut d = [0u32; 8];
        for k in 0..4u64 {
            let a = addr(r * 4 + k);
            d[2 * k as usize] = a as u32;
            d[2 * k as usize + 1] = (a >> 32) as u32;
        }
        reg(d)
    };
    [q(0), q(1)]
}

fn a64_scattered(read: bool, subtype: A64ScatteredSubtype, data_size: u8, mlen: u8, rlen: u8) -> Message {
    let (subtype, simd16) = (subtype, false);
    let op = if read {
        Dc1Op::A64ScatteredRead {
            subtype,
            data_size,
            simd16,
        }
    } else {
        Dc1Op::A64ScatteredWrite {
            subtype,
            data_size,
            simd16,
        }
    };
    dc1(Gen8, mlen, rlen, false, BTI_STATELESS, op)
}

#[test]
fn a64_scattered_reads_gather_bytes_dwords_and_qwords() {
    // Flat bytes 0x1_0000_0000.. count up (byte i is i), above 4 GiB so a
    // dropped high address dword would miss the mapping.
    let base = 0x1_0000_0000u64;
    let mut mem = Memory::new();
    mem.map(base, (0..=255u8).collect()).unwrap();
    // Byte subtype, two bytes per address, at odd addresses 3i + 1:
    // slot i reads bytes 3i+1, 3i+2 into the low half of its dword.
    let a = a64_addresses(|i| base + 3 * i + 1);
    let m = a64_scattered(true, A64ScatteredSubtype::Byte, 1, 2, 1);
    let r = ok(run(Gen8, m, &a, 0b1011_1111, &mut mem));
    let want: [u32; 8] = core::array::from_fn(|i| {
        let b = 3 * i as u32 + 1;
        if i == 6 {
            0 // disabled slot
        } else {
            b | (b + 1) << 8
        }
    });
    assert_eq!(r[0], want);
    // One byte per address, zero-extended: slot i at 10i reads 10i.
    let a = a64_addresses(|i| base + 10 * i);
    let m = a64_scattered(true, A64ScatteredSubtype::Byte, 0, 2, 1);
    let r = ok(run(Gen8, m, &a, 0xff, &mut mem));
    assert_eq!(r[0], core::array::from_fn(|i| 10 * i as u32));
    // Dword subtype, two dwords per address (data_size 1): element 0 of
    // every slot in the first response register, element 1 in the second.
    let a = a64_addresses(|i| base + 16 * i);
    let m = a64_scattered(true, A64ScatteredSubtype::Dword, 1, 2, 2);
    let r = ok(run(Gen8, m, &a, 0xff, &mut mem));
    assert_eq!(r[0], core::array::from_fn(|i| cdw(16 * i as u32)));
    assert_eq!(r[1], core::array::from_fn(|i| cdw(16 * i as u32 + 4)));
    // Qword subtype, one per address: two registers, four slots each,
    // low dword first.
    let a = a64_addresses(|i| base + 24 * i);
    let m = a64_scattered(true, A64ScatteredSubtype::Qword, 0, 2, 2);
    let r = ok(run(Gen8, m, &a, 0xff, &mut mem));
    for slot in 0..8u32 {
        let b = 24 * slot;
        let (reg, dw) = ((slot / 4) as usize, (slot % 4 * 2) as usize);
        assert_eq!([r[reg][dw], r[reg][dw + 1]], [cdw(b), cdw(b + 4)], "slot {slot}");
    }
    // The response length is the elements': rlen 1 for two dwords is refused.
    let m = a64_scattered(true, A64ScatteredSubtype::Dword, 1, 2, 1);
    assert!(matches!(
        run(Gen8, m, &a, 0xff, &mut mem),
        Err(SimError::Length { field: "rlen", .. })
    ));
    // An address outside every mapping is an error, not zeros.
    let far = a64_addresses(|i| 0x9_0000_0000 + i);
    let m = a64_scattered(true, A64ScatteredSubtype::Byte, 0, 2, 1);
    assert!(matches!(
        run(Gen8, m, &far, 1, &mut mem),
        Err(SimError::Unmapped {
            address: 0x9_0000_0000,
            ..
        })
    ));
}

#[test]
fn a64_scattered_write_then_read_round_trips_dword_vectors() {
    let base = 0x2_0000_0000u64;
    let mut mem = Memory::new();
    mem.map(base, vec![0; 256]).unwrap();
    // Four dwords per address (data_size 2) at 32i: data register set e
    // holds element e; slots 1 and 5 disabled.
    let a = a64_addresses(|i| base + 32 * i);
    let data: [[u8; 32]; 4] = core::array::from_fn(|e| reg(core::array::from_fn(|i| (e * 100 + i) as u32)));
    let mut payload = a.to_vec();
    payload.extend_from_slice(&data);
    let mask = 0b1101_1101;
    let m = a64_scattered(false, A64ScatteredSubtype::Dword, 2, 6, 0);
    ok(run(Gen8, m, &payload, mask, &mut mem));
    let flat = mem.mapped(base).unwrap();
    for slot in 0..8usize {
        for e in 0..4usize {
            let at = 32 * slot + 4 * e;
            let want = if mask >> slot & 1 != 0 {
                (e * 100 + slot) as u32
            } else {
                0
            };
            assert_eq!(flat[at..at + 4], want.to_le_bytes(), "slot {slot} element {e}");
        }
    }
    let m = a64_scattered(true, A64ScatteredSubtype::Dword, 2, 2, 4);
    let r = ok(run(Gen8, m, &a, 0xff, &mut mem));
    for (e, got) in r.iter().enumerate() {
        let want: [u32; 8] = core::array::from_fn(|i| if mask >> i & 1 != 0 { (e * 100 + i) as u32 } else { 0 });
        assert_eq!(*got, want, "element {e}");
    }
}

#[test]
fn a64_scattered_read_descriptor_round_trips_and_is_gen8_only() {
    let op = Dc1Op::A64ScatteredRead {
        subtype: A64ScatteredSubtype::Dword,
        data_size: 0,
        simd16: false,
    };
    let m = DataCache1::new(Gen8, Common::new(2, 1, false), BTI_STATELESS, op);
    // The descriptor IGA prints as "A64 Scattered Read msc:1" (type 0x10
    // at bits 18:14, subtype 1 at bits 9:8, BTI 0xff, mlen 2, rlen 1).
    assert_eq!(m.desc(), Ok(0x0414_01ff));
    assert_eq!(DataCache1::decode_desc(Gen8, 0x0414_01ff), Ok(m));
    assert!(op.exists_on(Platform::Chv));
    assert!(!op.exists_on(Gen75));
    assert!(DataCache1::new(Gen75, Common::new(2, 1, false), 0, op).desc().is_err());
}

#[test]
fn typed_messages_convert_formats_and_mask_slots() {
    let mut mem = Memory::new();
    mem.bind(5, Surface::image_2d(SurfaceFormat::R8G8B8A8Unorm, 4, 2).unwrap());
    let mut hdr = [0u32; 8];
    hdr[7] = 0xffff;
    let hdr = reg(hdr);
    // Write RGBA floats to (1,0) and (3,1); slot 2 at (4,0) is outside.
    let op = Dc1Op::TypedSurfaceWrite {
        channels: Channels::RGBA,
        slot_group: TypedSlotGroup::Low,
    };
    let m = dc1(Gen75, 7, 0, true, 5, op);
    let u = reg([1, 3, 4, 0, 0, 0, 0, 0]);
    let v = reg([0, 1, 0, 0, 0, 0, 0, 0]);
    let rgba = [0.0f32, 0.5, 1.0, 2.0].map(|x| reg([f(x); 8]));
    ok(run(
        Gen75,
        m,
        &[hdr, u, v, rgba[0], rgba[1], rgba[2], rgba[3]],
        0b111,
        &mut mem,
    ));
    let s = mem.surface(5).unwrap();
    // 0.5 * 255 = 127.5 rounds to 128; 2.0 clamps to 255.
    assert_eq!(s.data()[4..8], [0, 128, 255, 255]);
    assert_eq!(s.data()[16 + 12..16 + 16], [0, 128, 255, 255]);
    // Read G and A back as floats through the IVB render cache.
    let op = RenderOp::TypedSurfaceRead {
        channels: Channels::G | Channels::A,
        high_slot_group: false,
    };
    let m = Message::Render(Render::new(Gen7, Common::new(3, 2, true), 5, op));
    let r = ok(run(Gen7, m, &[hdr, u, v], 0b111, &mut mem));
    assert_eq!([r[0][0], r[1][0]], [f(128.0 / 255.0), f(1.0)]);
    assert_eq!([r[0][2], r[1][2]], [0, f(1.0)], "outside the surface");
    // The high slot group reads its mask from header bits 15:8.
    let mut hdr_hi = [0u32; 8];
    hdr_hi[7] = 0x0100;
    let op = Dc1Op::TypedSurfaceRead {
        channels: Channels::G,
        slot_group: TypedSlotGroup::High,
    };
    let m = dc1(Gen8, 3, 1, true, 5, op);
    let r = ok(run(Gen8, m, &[reg(hdr_hi), u, v], 0b11, &mut mem));
    assert_eq!(r[0][..2], [f(128.0 / 255.0), 0]);
    // A typed atomic needs an R32 integer format.
    let op = Dc1Op::TypedAtomic {
        op: AtomicOp::Add,
        high_slot_group: false,
        return_data: true,
    };
    let m = dc1(Gen8, 4, 1, true, 5, op);
    assert!(matches!(
        run(Gen8, m, &[hdr, u, v, reg([1; 8])], 1, &mut mem),
        Err(SimError::Format {
            format: "R8G8B8A8_UNORM",
            bti: 5,
            ..
        })
    ));
    mem.bind(6, Surface::image_2d(SurfaceFormat::R32Uint, 2, 2).unwrap());
    let m = dc1(Gen8, 4, 1, true, 6, op);
    let uv = [reg([1, 1, 0, 0, 0, 0, 0, 0]), reg([1, 1, 0, 0, 0, 0, 0, 0])];
    let r = ok(run(
        Gen8,
        m,
        &[hdr, uv[0], uv[1], reg([5, 7, 0, 0, 0, 0, 0, 0])],
        0b11,
        &mut mem,
    ));
    assert_eq!(r[0][..2], [0, 5], "the second slot sees the first one's add");
    assert_eq!(mem.surface(6).unwrap().texel(1, 1), Some([12, 0, 0, 1]));
    // Typed messages on a buffer are refused.
    mem.bind(7, counting(16));
    let m = dc1(
        Gen8,
        2,
        1,
        true,
        7,
        Dc1Op::TypedSurfaceRead {
            channels: Channels::R,
            slot_group: TypedSlotGroup::Low,
        },
    );
    assert!(matches!(
        run(Gen8, m, &[hdr, u], 1, &mut mem),
        Err(SimError::Format { format: "buffer", .. })
    ));
}

#[test]
fn simd4x2_typed_messages_keep_channels_in_place() {
    let mut mem = Memory::new();
    let mut img = Surface::image_2d(SurfaceFormat::R32G32B32A32Uint, 2, 2).unwrap();
    img.set_texel(1, 0, [1, 2, 3, 4]);
    img.set_texel(0, 1, [5, 6, 7, 8]);
    mem.bind(3, img);
    mem.bind(4, Surface::image_2d(SurfaceFormat::R32Sint, 2, 2).unwrap());
    let hdr = reg([0; 8]);
    // Slot 0 at (1, 0), slot 1 at (0, 1); channels G and A.
    let addr = reg([1, 0, 0, 0, 0, 1, 0, 0]);
    let op = Dc1Op::TypedSurfaceRead {
        channels: Channels::G | Channels::A,
        slot_group: TypedSlotGroup::Simd4x2,
    };
    let r = ok(run(Gen75, dc1(Gen75, 2, 1, true, 3, op), &[hdr, addr], 0xff, &mut mem));
    assert_eq!(r[0], [0, 2, 0, 4, 0, 6, 0, 8]);
    // Write R and B of slot 1 only, channel B's execution channel (6) off.
    let op = Dc1Op::TypedSurfaceWrite {
        channels: Channels::R | Channels::B,
        slot_group: TypedSlotGroup::Simd4x2,
    };
    let data = reg([90, 91, 92, 93, 94, 95, 96, 97]);
    ok(run(
        Gen75,
        dc1(Gen75, 3, 0, true, 3, op),
        &[hdr, addr, data],
        0b1011_0000,
        &mut mem,
    ));
    assert_eq!(mem.surface(3).unwrap().texel(0, 1), Some([94, 6, 7, 8]));
    assert_eq!(mem.surface(3).unwrap().texel(1, 0), Some([1, 2, 3, 4]));
    // Atomic add on the R32_SINT surface: the source in dword 4s.
    let op = Dc1Op::TypedAtomicSimd4x2 {
        op: AtomicOp::Add,
        return_data: true,
    };
    let src = reg([5, 0, 0, 0, 7, 0, 0, 0]);
    let r = ok(run(
        Gen8,
        dc1(Gen8, 3, 1, true, 4, op),
        &[hdr, addr, src],
        0xff,
        &mut mem,
    ));
    assert_eq!(r[0], [0; 8]);
    let r = ok(run(
        Gen8,
        dc1(Gen8, 3, 1, true, 4, op),
        &[hdr, addr, src],
        0x0f,
        &mut mem,
    ));
    assert_eq!(r[0], [5, 0, 0, 0, 0, 0, 0, 0]);
    assert_eq!(mem.surface(4).unwrap().texel(1, 0), Some([10, 0, 0, 1]));
    assert_eq!(mem.surface(4).unwrap().texel(0, 1), Some([7, 0, 0, 1]));
}

#[test]
fn media_block_read_clamps_to_the_edge_and_write_drops_outside() {
    let mut mem = Memory::new();
    // 4x3 R8_UNORM texels, byte (x, y) = 10 * y + x.
    let data: Vec<u8> = (0..3).flat_map(|y| (0..4).map(move |x| 10 * y + x)).collect();
    mem.bind(
        3,
        Surface::image_2d_with_data(SurfaceFormat::R8Unorm, 4, 3, 4, data).unwrap(),
    );
    // A 6x2 block at (-1, 2): pitch 8, two rows in one register.
    let hdr = reg([(-1i32) as u32, 2, 1 << 16 | 5, 0, 0, 0, 0, 0]);
    let m = dc1(Gen75, 1, 1, true, 3, Dc1Op::MediaBlockRead { control: 0 });
    let r = ok(run(Gen75, m, &[hdr], 0, &mut mem));
    let bytes: Vec<u8> = r[0].iter().flat_map(|d| d.to_le_bytes()).collect();
    assert_eq!(bytes[0..6], [20, 20, 21, 22, 23, 23]);
    assert_eq!(bytes[8..14], [20, 20, 21, 22, 23, 23], "row 3 clamps to row 2");
    // Write a 2x2 block at (3, 2): only (3, 2) is inside. Pitch 4.
    let hdr = reg([3, 2, 1 << 16 | 1, 0, 0, 0, 0, 0]);
    let m = Message::Render(Render::new(
        Gen8,
        Common::new(2, 0, true),
        3,
        RenderOp::MediaBlockWrite { control: 0 },
    ));
    ok(run(
        Gen8,
        m,
        &[hdr, reg([0x0000_99aa, 0x0000_bbcc, 0, 0, 0, 0, 0, 0])],
        0,
        &mut mem,
    ));
    assert_eq!(mem.surface(3).unwrap().data()[8..12], [20, 21, 22, 0xaa]);
    // The response length follows the block: 16 bytes x 4 rows = 2 registers.
    let hdr = reg([0, 0, 3 << 16 | 15, 0, 0, 0, 0, 0]);
    let m = dc1(Gen75, 1, 1, true, 3, Dc1Op::MediaBlockRead { control: 0 });
    assert!(matches!(
        run(Gen75, m, &[hdr], 0, &mut mem),
        Err(SimError::Length {
            field: "rlen",
            value: 1,
            expected: 2,
            ..
        })
    ));
}

#[test]
fn scratch_is_per_thread_and_dword_mode_masks_channels() {
    let mut mem = Memory::new();
    let block = ScratchBlock {
        write: true,
        offset: 2,
        regs: ScratchRegs::Two,
        dword: true,
        invalidate_after_read: false,
    };
    let m = dc0(Gen7, 3, 0, true, 0, Dc0Op::Scratch(block));
    let data = [
        reg(core::array::from_fn(|i| 1 + i as u32)),
        reg(core::array::from_fn(|i| 11 + i as u32)),
    ];
    ok(run(Gen7, m, &[reg([0; 8]), data[0], data[1]], 0b1000_0001, &mut mem));
    let s = mem.scratch(3).unwrap();
    assert_eq!(s.len(), 4 * 32);
    assert_eq!(s[64..68], 1u32.to_le_bytes());
    assert_eq!(s[68..72], [0; 4]);
    assert_eq!(
        s[96..100],
        11u32.to_le_bytes(),
        "SIMD8: register 1 is channels 0-7 again"
    );
    assert_eq!(s[124..128], 18u32.to_le_bytes());
    let read = ScratchBlock {
        write: false,
        offset: 3,
        regs: ScratchRegs::Two,
        dword: false,
        invalidate_after_read: false,
    };
    let m = dc0(Gen8, 1, 2, true, 0, Dc0Op::Scratch(read));
    let r = ok(run(Gen8, m, &[reg([0; 8])], 0, &mut mem));
    assert_eq!(r[0][0], 11);
    assert_eq!(r[1], [0; 8], "never written");
    assert!(mem.scratch(0).is_none());
}

#[test]
fn fences_return_one_register_when_they_commit() {
    let mut mem = Memory::new();
    let m = dc0(Gen8, 1, 1, true, 0, Dc0Op::MemoryFence { commit: true });
    assert_eq!(ok(run(Gen8, m, &[reg([9; 8])], 1, &mut mem)), vec![[0; 8]]);
    let m = dc0(Gen8, 1, 0, true, 0, Dc0Op::MemoryFence { commit: false });
    assert!(ok(run(Gen8, m, &[reg([9; 8])], 1, &mut mem)).is_empty());
    let m = dc0(Gen8, 1, 0, true, 0, Dc0Op::MemoryFence { commit: true });
    assert!(matches!(
        run(Gen8, m, &[reg([0; 8])], 1, &mut mem),
        Err(SimError::Length {
            field: "rlen",
            value: 0,
            expected: 1,
            ..
        })
    ));
}

fn sampler(p: Platform, mlen: u8, rlen: u8, header: bool, ty: SamplerMsgType, simd: SamplerSimd, bti: u8) -> Message {
    Message::Sampler(Sampler::new(p, Common::new(mlen, rlen, header), ty, simd, 0, bti))
}

/// A 4x4 R32G32B32A32_FLOAT surface whose texel (x, y) is (x, y, x + 10 y, 1).
fn grid(mem: &mut Memory, bti: u8) {
    let mut s = Surface::image_2d(SurfaceFormat::R32G32B32A32Float, 4, 4).unwrap();
    for y in 0..4 {
        for x in 0..4 {
            s.set_texel(x, y, [f(x as f32), f(y as f32), f((x + 10 * y) as f32), f(1.0)]);
        }
    }
    mem.bind(bti, s);
}

#[test]
fn sampler_ld_fetches_integer_texels_and_zero_outside() {
    let mut mem = Memory::new();
    grid(&mut mem, 1);
    // SIMD8 ld: u, lod, v. Slot 2 asks LOD 1 (absent), slot 3 x = 4.
    let m = sampler(Gen7, 3, 4, false, SamplerMsgType::Ld, SamplerSimd::Simd8, 1);
    let payload = [
        reg([1, 3, 0, 4, 0, 0, 0, 0]),
        reg([0, 0, 1, 0, 0, 0, 0, 0]),
        reg([2, 0, 0, 0, 0, 0, 0, 0]),
    ];
    let r = ok(run(Gen7, m, &payload, 0b1111, &mut mem));
    assert_eq!([r[0][0], r[1][0], r[2][0], r[3][0]], [f(1.0), f(2.0), f(21.0), f(1.0)]);
    assert_eq!(r[2][1], f(3.0));
    assert_eq!([r[0][2], r[3][2]], [0, 0]);
    assert_eq!([r[0][3], r[3][3]], [0, 0]);
    // SIMD16 with a header: offset U +1 V -1 (bits 11:8, 7:4), only B and A.
    let m = sampler(Gen8, 7, 4, true, SamplerMsgType::Ld, SamplerSimd::Simd16, 1);
    let hdr = header_dw2(0b0011 << 12 | 1 << 8 | 0xf << 4);
    let z = reg([0; 8]);
    let payload = [
        hdr,
        reg([0; 8]),
        reg([0, 0, 0, 0, 0, 0, 0, 0]),
        z,
        z,
        reg([1; 8]),
        reg([3; 8]),
    ];
    let r = ok(run(Gen8, m, &payload, 0x8001, &mut mem));
    assert_eq!(r.len(), 4);
    assert_eq!([r[0][0], r[2][0]], [f(1.0), f(1.0)], "(1, 0): B = 1, A = 1");
    assert_eq!([r[1][7], r[3][7]], [f(21.0), f(1.0)], "slot 15 at (1, 2)");
}

#[test]
fn sampler_sample_is_point_sampling_with_address_modes() {
    let mut mem = Memory::new();
    grid(&mut mem, 2);
    mem.set_sampler(0, SamplerState::new(AddressMode::Wrap));
    // Normalized: u = 0.3 -> x = floor(1.2) = 1; u = 1.1 -> 4 wraps to 0;
    // u = -0.1 -> -1 wraps to 3.
    let m = sampler(Gen75, 2, 4, false, SamplerMsgType::Sample, SamplerSimd::Simd8, 2);
    let payload = [
        reg([f(0.3), f(1.1), f(-0.1), 0, 0, 0, 0, 0]),
        reg([f(0.5), f(0.0), f(0.99), 0, 0, 0, 0, 0]),
    ];
    let r = ok(run(Gen75, m, &payload, 0b111, &mut mem));
    assert_eq!([r[2][0], r[2][1], r[2][2]], [f(21.0), f(0.0), f(33.0)]);
    // Clamp, unnormalized texel coordinates, sample_l (lod first).
    mem.set_sampler(0, SamplerState::new(AddressMode::Clamp).unnormalized());
    let m = sampler(Gen8, 3, 4, false, SamplerMsgType::SampleL, SamplerSimd::Simd8, 2);
    let payload = [
        reg([f(3.0); 8]),
        reg([f(2.7), f(9.0), 0, 0, 0, 0, 0, 0]),
        reg([f(-5.0), f(1.5), 0, 0, 0, 0, 0, 0]),
    ];
    let r = ok(run(Gen8, m, &payload, 0b11, &mut mem));
    assert_eq!([r[2][0], r[2][1]], [f(2.0), f(13.0)]);
    // sample_b: the bias first, as sample_l's LOD.
    let m = sampler(Gen7, 3, 4, false, SamplerMsgType::SampleB, SamplerSimd::Simd8, 2);
    let r = ok(run(Gen7, m, &payload, 0b11, &mut mem));
    assert_eq!([r[2][0], r[2][1]], [f(2.0), f(13.0)]);
    // Border: outside reads zero in every channel.
    mem.set_sampler(0, SamplerState::new(AddressMode::Border));
    let m = sampler(Gen8, 2, 4, false, SamplerMsgType::Sample, SamplerSimd::Simd8, 2);
    let r = ok(run(Gen8, m, &[reg([f(1.5); 8]), reg([f(0.0); 8])], 1, &mut mem));
    assert_eq!([r[0][0], r[3][0]], [0, 0]);
}

#[test]
fn gather4_returns_the_bilinear_footprint() {
    let mut mem = Memory::new();
    grid(&mut mem, 2);
    mem.set_sampler(0, SamplerState::new(AddressMode::Clamp));
    // u = v = 0.5 on 4x4: x = y = 1.5 -> i0 = j0 = 1; footprint (1..2, 1..2).
    // Channel B (x + 10 y) chosen in header bits 17:16.
    let m = sampler(Gen75, 3, 4, true, SamplerMsgType::Gather4, SamplerSimd::Simd8, 2);
    let r = ok(run(
        Gen75,
        m,
        &[header_dw2(2 << 16), reg([f(0.5); 8]), reg([f(0.5); 8])],
        1,
        &mut mem,
    ));
    // (i0, j1) = (1, 2), (i1, j1) = (2, 2), (i1, j0) = (2, 1), (i0, j0) = (1, 1).
    assert_eq!(
        [r[0][0], r[1][0], r[2][0], r[3][0]],
        [f(21.0), f(22.0), f(12.0), f(11.0)]
    );
}

#[test]
fn resinfo_reports_the_size() {
    let mut mem = Memory::new();
    mem.bind(1, Surface::image_2d(SurfaceFormat::R8Uint, 7, 5).unwrap());
    mem.bind(2, counting(100));
    let m = sampler(Gen8, 1, 4, false, SamplerMsgType::Resinfo, SamplerSimd::Simd8, 1);
    let r = ok(run(Gen8, m, &[reg([0, 1, 0, 0, 0, 0, 0, 0])], 0b11, &mut mem));
    assert_eq!([r[0][0], r[1][0], r[2][0], r[3][0]], [7, 5, 1, 1]);
    assert_eq!([r[0][1], r[3][1]], [0, 1]);
    let m = sampler(Gen8, 1, 4, false, SamplerMsgType::Resinfo, SamplerSimd::Simd8, 2);
    assert_eq!(ok(run(Gen8, m, &[reg([0; 8])], 1, &mut mem))[0][0], 100);
}

#[test]
fn render_target_writes_land_in_the_colour_buffer() {
    let mut mem = Memory::new();
    mem.bind(0, Surface::image_2d(SurfaceFormat::R8G8B8A8Unorm, 8, 8).unwrap());
    // SIMD8 with a header: subspan 0 at (2, 4), subspan 1 at (6, 0).
    let op = RenderOp::RtWrite {
        subtype: RtWriteSubtype::Simd8,
        slot_group_high: false,
        last_rt: true,
    };
    let m = Message::Render(Render::new(Gen8, Common::new(6, 0, true).with_eot(), 0, op));
    let r1 = reg([0, 0, 4 << 16 | 2, 6, 0, 0, 0, 0]);
    let red = reg([f(1.0); 8]);
    let g = reg(core::array::from_fn(|i| f(i as f32 / 8.0)));
    let payload = [reg([0; 8]), r1, red, g, reg([0; 8]), reg([f(1.0); 8])];
    let reply = run(Gen8, m, &payload, 0b1000_1001, &mut mem).unwrap();
    assert!(reply.end_of_thread && reply.regs.is_empty());
    let s = mem.surface(0).unwrap();
    assert_eq!(s.texel(2, 4).map(|t| t.map(f32::from_bits)), Some([1.0, 0.0, 0.0, 1.0]));
    // Slot 3: subspan 0, lower right (3, 5); g = 3/8 -> 95.625 -> 96.
    assert_eq!(s.data()[(5 * 8 + 3) * 4..(5 * 8 + 3) * 4 + 4], [255, 96, 0, 255]);
    // Slot 7: subspan 1 lower right (7, 1), g = 7/8 -> 223.125 -> 223.
    assert_eq!(s.data()[(8 + 7) * 4 + 1], 223);
    assert_eq!(s.texel(3, 4), Some([0, 0, 0, 0]), "slot 1 disabled");
    let w = mem.rt_writes();
    assert_eq!(w.len(), 3);
    assert_eq!((w[1].slot, w[1].position, w[1].thread), (3, Some((3, 5)), 3));
    // SIMD16 without a header: captured, with no position.
    let op = RenderOp::RtWrite {
        subtype: RtWriteSubtype::Simd16,
        slot_group_high: false,
        last_rt: false,
    };
    let m = Message::Render(Render::new(Gen7, Common::new(8, 0, false), 0, op));
    let payload: Vec<[u8; 32]> = (0..8).map(|i| reg([i; 8])).collect();
    ok(run(Gen7, m, &payload, 1 << 9, &mut mem));
    let last = mem.rt_writes().last().unwrap();
    assert_eq!((last.slot, last.position, last.color), (9, None, [1, 3, 5, 7]));
    // The same with the thread's dispatch recorded: slot 9 is subspan 2's
    // upper right pixel.
    mem.set_subspans(3, [(0, 0), (2, 0), (4, 6), (6, 6)]);
    let payload: Vec<[u8; 32]> = (0..8).map(|i| reg([f(i as f32 / 8.0); 8])).collect();
    ok(run(Gen7, m, &payload, 1 << 9, &mut mem));
    assert_eq!(mem.rt_writes().last().unwrap().position, Some((5, 6)));
    // R = 1/8, G = 3/8, B = 5/8, A = 7/8 of 255: 31.875, 95.625, 159.375, 223.125.
    assert_eq!(
        mem.surface(0).unwrap().data()[(6 * 8 + 5) * 4..(6 * 8 + 5) * 4 + 4],
        [32, 96, 159, 223]
    );
}

#[test]
fn urb_writes_are_captured_per_slot() {
    let mut mem = Memory::new();
    // Gen8 SIMD8 write, offset 2, per-slot offsets, channel masks, 3 data registers.
    let mut u = Urb::new(Gen8, Common::new(6, 0, true).with_eot(), UrbOpcode::Simd8Write);
    u.global_offset = 2;
    u.per_slot_offset = true;
    u.channel_mask = true;
    let payload = [
        reg(core::array::from_fn(|i| 0x100 + i as u32)),
        reg([0, 1, 0, 0, 0, 0, 0, 0]),
        reg([0b101 << 16, 0b010 << 16, 0, 0, 0, 0, 0, 0]),
        reg([10, 20, 0, 0, 0, 0, 0, 0]),
        reg([11, 21, 0, 0, 0, 0, 0, 0]),
        reg([12, 22, 0, 0, 0, 0, 0, 0]),
    ];
    let reply = run(Gen8, Message::Urb(u), &payload, 0b11, &mut mem).unwrap();
    assert!(reply.end_of_thread);
    let got: Vec<(u32, u32, u32)> = mem.urb_writes().iter().map(|w| (w.handle, w.dword, w.value)).collect();
    // Slot 0: OWord 2 -> dword 8, channels 0 and 2; slot 1: OWord 3 -> dword 12, channel 1.
    assert_eq!(got, [(0x100, 8, 10), (0x100, 10, 12), (0x101, 13, 21)]);
    // Gen7 HWord write, interleaved: one OWord of each vertex per register.
    // Header: handles in dwords 0 and 4, vertex 1's per-slot offset (2) in
    // dword 7, dword 5 bits 15:8 masking vertex 0's DATA[3] out.
    let mut u = Urb::new(Gen7, Common::new(2, 0, true), UrbOpcode::WriteHWord);
    u.interleave = true;
    u.per_slot_offset = true;
    u.global_offset = 1;
    let hdr = reg([7, 0, 0, 0, 9, 0b1111_0111 << 8, 0, 2]);
    let payload = [hdr, reg(core::array::from_fn(|i| 50 + i as u32))];
    ok(run(Gen7, Message::Urb(u), &payload, 0xff, &mut mem));
    let got: Vec<(u32, u32, u32)> = mem.urb_writes()[3..]
        .iter()
        .map(|w| (w.handle, w.dword, w.value))
        .collect();
    let want = [
        (7, 4, 50),
        (7, 5, 51),
        (7, 6, 52),
        (9, 12, 54),
        (9, 13, 55),
        (9, 14, 56),
        (9, 15, 57),
    ];
    assert_eq!(got, want);
    // Gen7.5 OWord write, not interleaved: OWord 3 = dword 12, registers of
    // eight dwords back to back; channels 0-3 enabled.
    let mut u = Urb::new(Gen75, Common::new(3, 0, true), UrbOpcode::WriteOWord);
    u.global_offset = 3;
    let hdr = reg([5, 0, 0, 0, 0, 0xff << 8, 0, 0]);
    let payload = [hdr, reg([1; 8]), reg([2; 8])];
    ok(run(Gen75, Message::Urb(u), &payload, 0x0f, &mut mem));
    let got: Vec<u32> = mem.urb_writes()[10..].iter().map(|w| w.dword).collect();
    assert_eq!(got, [12, 13, 14, 15, 20, 21, 22, 23]);
}

#[test]
fn urb_reads_return_what_the_entries_hold() {
    let mut mem = Memory::new();
    for d in 0..12 {
        mem.set_urb(0x40, d, 100 + d);
        mem.set_urb(0x41, d, 200 + d);
    }
    // Gen8 SIMD8 read at OWord 1, slot 1 one OWord further: 2 registers.
    let mut u = Urb::new(Gen8, Common::new(2, 2, true), UrbOpcode::Simd8Read);
    u.global_offset = 1;
    u.per_slot_offset = true;
    let payload = [reg([0x40, 0x41, 0x99, 0, 0, 0, 0, 0]), reg([0, 1, 0, 0, 0, 0, 0, 0])];
    let r = ok(run(Gen8, Message::Urb(u), &payload, 0b111, &mut mem));
    assert_eq!(r[0][..3], [104, 208, 0]);
    assert_eq!(r[1][..3], [105, 209, 0]);
    // An entry written by a URB write reads back.
    let u = Urb::new(Gen8, Common::new(2, 0, true), UrbOpcode::Simd8Write);
    ok(run(Gen8, Message::Urb(u), &[reg([0x99; 8]), reg([7; 8])], 1, &mut mem));
    assert_eq!(mem.urb_entry(0x99), Some(&[7][..]));
    // Gen7 OWord read of vertex 0: OWord 2 = dword 8 on.
    let mut u = Urb::new(Gen7, Common::new(1, 1, true), UrbOpcode::ReadOWord);
    u.global_offset = 2;
    let r = ok(run(
        Gen7,
        Message::Urb(u),
        &[reg([0x41, 0, 0, 0, 0, 0, 0, 0])],
        0xff,
        &mut mem,
    ));
    assert_eq!(r[0], [208, 209, 210, 211, 0, 0, 0, 0]);
}

#[test]
fn barrier_and_end_of_thread() {
    let mut mem = Memory::new();
    let r = run(
        Gen8,
        Message::Gateway(Gateway::barrier(Gen8)),
        &[reg([0; 8])],
        1,
        &mut mem,
    )
    .unwrap();
    assert!(r.barrier && !r.end_of_thread && r.regs.is_empty());
    let r = run(
        Gen75,
        Message::ThreadSpawner(ThreadSpawner::end_of_thread(Gen75)),
        &[reg([0; 8])],
        1,
        &mut mem,
    )
    .unwrap();
    assert!(r.end_of_thread && !r.barrier);
    let g = Gateway::new(Gen8, Common::new(1, 1, false), GatewayOp::GetTimestamp);
    assert!(matches!(
        run(Gen8, Message::Gateway(g), &[reg([0; 8])], 1, &mut mem),
        Err(SimError::UnmodelledMessage {
            sfid: 3,
            msg_type: 3,
            offset: 0x40,
            ..
        })
    ));
}

#[test]
fn lengths_surfaces_and_unmodelled_messages_are_typed_errors() {
    let mut mem = Memory::new();
    // rlen 2 for a SIMD8 one-channel read.
    let m = dc1(
        Gen8,
        1,
        2,
        false,
        1,
        Dc1Op::UntypedSurfaceRead {
            channels: Channels::R,
            simd: SurfaceSimd::Simd8,
        },
    );
    assert!(matches!(
        run(Gen8, m, &[reg([0; 8])], 1, &mut mem),
        Err(SimError::UnboundSurface { bti: 1, .. })
    ));
    mem.bind(1, counting(4));
    assert!(matches!(
        run(Gen8, m, &[reg([0; 8])], 1, &mut mem),
        Err(SimError::Length {
            field: "rlen",
            value: 2,
            expected: 1,
            ..
        })
    ));
    // mlen 2 for a SIMD8 read with no header.
    let m = dc1(
        Gen8,
        2,
        1,
        false,
        1,
        Dc1Op::UntypedSurfaceRead {
            channels: Channels::R,
            simd: SurfaceSimd::Simd8,
        },
    );
    assert!(matches!(
        run(Gen8, m, &[reg([0; 8]); 2], 1, &mut mem),
        Err(SimError::Length {
            field: "mlen",
            value: 2,
            expected: 1,
            ..
        })
    ));
    // A payload shorter than mlen.
    assert!(matches!(
        run(Gen8, m, &[reg([0; 8])], 1, &mut mem),
        Err(SimError::Length {
            field: "payload",
            value: 1,
            expected: 2,
            ..
        })
    ));
    // A write with a response length fails before it writes.
    let m = dc1(
        Gen8,
        2,
        1,
        false,
        1,
        Dc1Op::UntypedSurfaceWrite {
            channels: Channels::R,
            simd: SurfaceSimd::Simd8,
        },
    );
    let r = run(Gen8, m, &[reg([0; 8]), reg([0xff; 8])], 1, &mut mem);
    assert!(matches!(
        r,
        Err(SimError::Length {
            field: "rlen",
            value: 1,
            expected: 0,
            ..
        })
    ));
    assert_eq!(mem.surface(1).unwrap().data(), [0, 1, 2, 3]);
    // OWord block reads need their header.
    let m = dc0(
        Gen8,
        1,
        1,
        false,
        1,
        Dc0Op::OwordBlockRead {
            size: OwordBlockSize::Two,
        },
    );
    assert!(matches!(
        run(Gen8, m, &[reg([0; 8])], 1, &mut mem),
        Err(SimError::Payload { .. })
    ));
    // Atomic counters, VME and the pixel interpolator are not modelled.
    let m = dc1(
        Gen8,
        1,
        1,
        false,
        1,
        Dc1Op::AtomicCounter {
            op: AtomicOp::Inc,
            simd8: true,
            return_data: true,
        },
    );
    assert!(matches!(
        run(Gen8, m, &[reg([0; 8])], 1, &mut mem),
        Err(SimError::UnmodelledMessage {
            sfid: 12,
            msg_type: 11,
            ..
        })
    ));
    let vme = Message::Unknown {
        sfid: Sfid::Vme.hw(),
        desc: Common::new(1, 1, false).encode().unwrap(),
    };
    assert!(matches!(
        run(Gen8, vme, &[reg([0; 8])], 1, &mut mem),
        Err(SimError::UnmodelledMessage { sfid: 8, .. })
    ));
    let pi = Message::PixelInterp(PixelInterp::new(Gen8, Common::new(1, 2, false), PiMessage::Centroid));
    assert!(matches!(
        run(Gen8, pi, &[reg([0; 8])], 1, &mut mem),
        Err(SimError::UnmodelledMessage { sfid: 11, .. })
    ));
    // A reserved descriptor: data cache 1 does not exist on Ivy Bridge.
    let call = MessageCall {
        platform: Gen7,
        offset: 8,
        sfid: Sfid::DataCache1,
        desc: 0x0210_4000,
        exec_size: 8,
        channel_mask: 0xff,
        payload: &[reg([0; 8])],
        thread: 0,
        group: 0,
        eot: false,
    };
    assert!(matches!(
        execute(&call, &mut mem),
        Err(SimError::UnmodelledMessage {
            sfid: 12,
            offset: 8,
            ..
        })
    ));
    let call = MessageCall {
        platform: Gen8,
        sfid: Sfid::DataCache,
        desc: 0x0210_0000 | 9 << 14,
        ..call
    };
    assert!(matches!(
        execute(&call, &mut mem),
        Err(SimError::Message { offset: 8, .. })
    ));
}

mod props {
    use super::*;
    use proptest::prelude::*;

    fn memory(seed: u8) -> Memory {
        let mut mem = Memory::new();
        mem.bind(0, counting(usize::from(seed)));
        mem.bind(1, Surface::image_2d(SurfaceFormat::R32Uint, 3, 2).unwrap());
        mem.bind(
            2,
            Surface::image_2d(SurfaceFormat::R8G8B8A8Unorm, 1 + u32::from(seed % 5), 2).unwrap(),
        );
        mem.bind(3, Surface::image_2d(SurfaceFormat::R16Sint, 5, 1).unwrap());
        mem.bind(4, Surface::buffer(Vec::new()));
        mem.map(0, vec![seed; 256]).unwrap();
        mem.map(u64::MAX - 64, vec![1; 64]).unwrap();
        mem.set_sampler(0, SamplerState::new(AddressMode::Wrap));
        mem.set_sampler(1, SamplerState::new(AddressMode::Border).unnormalized());
        mem.slm_size = u32::from(seed) * 3;
        mem.stateless_base = u64::from(seed) << 56;
        mem
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]
        /// Any descriptor, SFID, payload and mask: an answer or an error,
        /// never a panic; a reply has exactly rlen registers.
        #[test]
        fn never_panics(
            p in 0usize..4,
            sfid in 0u8..16,
            desc in any::<u32>(),
            low in any::<u16>(),
            mask in any::<u32>(),
            seed in any::<u8>(),
            payload in proptest::collection::vec(proptest::array::uniform32(any::<u8>()), 0..16),
        ) {
            let platform = Platform::ALL[p];
            // Mix random descriptors with ones whose low bits land on real messages.
            let desc = if seed % 2 == 0 { desc } else { desc & 0xffff_0000 | u32::from(low) & 0x7fff };
            let Some(sfid) = Sfid::from_hw(sfid) else { return Ok(()) };
            let mlen = Common::decode(desc).mlen as usize;
            let payload = if seed % 3 == 0 { &payload[..] } else { &payload[..mlen.min(payload.len())] };
            let mut mem = memory(seed);
            let call = MessageCall {
                platform, offset: 0, sfid, desc, exec_size: 16, channel_mask: mask,
                payload, thread: u32::from(seed), group: mask, eot: seed & 1 == 1,
            };
            if let Ok(r) = execute(&call, &mut mem) {
                prop_assert_eq!(r.regs.len(), usize::from(Common::decode(desc).rlen));
            }
        }
    }

    #[cfg(feature = "check")]
    /// Runs a message, retrying (at most three times) with the `mlen` and
    /// `rlen` the simulator says it needs, so that random descriptors reach
    /// the messages' bodies; checks the reply's length.
    pub(super) fn fitted(
        platform: Platform,
        sfid: Sfid,
        mut desc: u32,
        regs: &[[u32; 8]],
        mask: u32,
        mem: &mut Memory,
    ) -> Result<MessageReply, SimError> {
        let lengths = Common::new(15, 31, false).encode().unwrap();
        let mut r = Err(SimError::Payload { offset: 0, what: "" });
        for _ in 0..3 {
            let c = Common::decode(desc);
            let payload: Vec<[u8; 32]> = regs.iter().take(usize::from(c.mlen)).map(|r| reg(*r)).collect();
            let call = MessageCall {
                platform,
                offset: 0,
                sfid,
                desc,
                exec_size: 16,
                channel_mask: mask,
                payload: &payload,
                thread: mask,
                group: mask >> 4,
                eot: false,
            };
            r = execute(&call, mem);
            let mut c2 = c;
            match &r {
                Ok(reply) => {
                    assert_eq!(reply.regs.len(), usize::from(c.rlen));
                    break;
                }
                Err(SimError::Length {
                    field: "mlen",
                    expected,
                    ..
                }) if *expected < 16 => c2.mlen = *expected as u8,
                Err(SimError::Length {
                    field: "rlen",
                    expected,
                    ..
                }) if *expected < 32 => c2.rlen = *expected as u8,
                Err(_) => break,
            }
            desc = desc & !lengths | c2.encode().unwrap();
        }
        r
    }

    #[cfg(feature = "check")]
    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]
        /// Every typed message the fuzz generator builds (valid descriptors
        /// of every shared function), with any payload: no panic.
        #[test]
        fn typed_messages_never_panic(
            bytes in proptest::collection::vec(any::<u8>(), 0..48),
            mask in any::<u32>(),
            seed in any::<u8>(),
            regs in proptest::collection::vec(proptest::array::uniform8(any::<u32>()), 16),
        ) {
            let m = crate::check::msg::arbitrary_message(&mut crate::check::msg::ByteSource::new(&bytes));
            let (Some(platform), Ok(desc), Some(sfid)) = (m.platform(), m.desc(), Sfid::from_hw(m.sfid())) else {
                return Ok(());
            };
            let _ = fitted(platform, sfid, desc, &regs, mask, &mut memory(seed));
        }
    }
}

#[test]
fn typed_reads_outside_the_surface_return_zeros_and_alpha_one() {
    // vISA GATHER4_TYPED: "On read: ones are returned in the alpha
    // channel, zeros in the other channels" (1.0 for a float or normalized
    // format, 1 for an integer one). Slot 0 is inside, slot 1 past the
    // width, slot 2 below the height, slot 3 at R = 1 (one layer only).
    let mut hdr = [0u32; 8];
    hdr[7] = 0xffff;
    let hdr = reg(hdr);
    let u = reg([0, 2, 0, 0, 0, 0, 0, 0]);
    let v = reg([0, 0, 1, 0, 0, 0, 0, 0]);
    let r_ = reg([0, 0, 0, 1, 0, 0, 0, 0]);
    let op = Dc1Op::TypedSurfaceRead {
        channels: Channels::RGBA,
        slot_group: TypedSlotGroup::Low,
    };
    let m = dc1(Gen8, 4, 4, true, 5, op);
    for (format, one, texel) in [
        (SurfaceFormat::R32G32B32A32Uint, 1, [7, 8, 9, 10]),
        (SurfaceFormat::R32G32B32A32Sint, 1, [7, 8, 9, 10]),
        (
            SurfaceFormat::R32G32B32A32Float,
            f(1.0),
            [f(0.5), f(2.0), f(-3.0), f(4.0)],
        ),
        (SurfaceFormat::R8G8B8A8Unorm, f(1.0), [0, f(1.0), 0, f(1.0)]),
    ] {
        let mut mem = Memory::new();
        let mut s = Surface::image_2d(format, 2, 1).unwrap();
        let bytes: Vec<u8> = match format {
            SurfaceFormat::R8G8B8A8Unorm => vec![0, 255, 0, 255],
            _ => texel.iter().flat_map(|x| x.to_le_bytes()).collect(),
        };
        s.data_mut()[..bytes.len()].copy_from_slice(&bytes);
        mem.bind(5, s);
        let r = ok(run(Gen8, m, &[hdr, u, v, r_], 0b1111, &mut mem));
        for c in 0..4 {
            assert_eq!(r[c][0], texel[c], "{format:?} inside, channel {c}");
            let want = if c == 3 { one } else { 0 };
            assert_eq!(r[c][1..4], [want; 3], "{format:?} outside, channel {c}");
        }
    }
}

/// `ld_lz` (sampler message type 26) is Gen9's (Mesa's
/// `GFX9_SAMPLER_MESSAGE_SAMPLE_LD_LZ`): on Gen7-Gen8 the type is
/// reserved, so the descriptor is a typed error naming the offset, never
/// a load.
#[test]
fn ld_lz_is_reserved_before_gen9() {
    let mut mem = Memory::new();
    grid(&mut mem, 1);
    for p in [Gen7, Gen75, Gen8] {
        let ld = sampler(p, 1, 4, false, SamplerMsgType::Ld, SamplerSimd::Simd8, 1);
        let desc = ld.desc().unwrap() & !(0x1f << 12) | 26 << 12;
        let call = MessageCall {
            platform: p,
            offset: 0x30,
            sfid: Sfid::Sampler,
            desc,
            exec_size: 8,
            channel_mask: 0xff,
            payload: &[reg([0; 8])],
            thread: 0,
            group: 0,
            eot: false,
        };
        assert!(
            matches!(execute(&call, &mut mem), Err(SimError::Message { offset: 0x30, .. })),
            "{p:?}"
        );
    }
}
