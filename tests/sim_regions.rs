//! Operand addressing against hand-computed element addresses: align1
//! regions, compressed SIMD16, indirect (a0 + imm, VxH, Vx1), align16
//! swizzles and write masks, vector immediates, quarter control, NoMask,
//! the predicate controls, and Ivy Bridge's DF execution size.

// Channel-indexed loops compare arrays channel by channel.
#![allow(clippy::needless_range_loop)]

use crate::sim_common;

use geneu::build::{g, imm_ud, imm_uv, imm_v, imm_vf, indirect, swz, Builder, Chan::*, PredCtrl, Predicate, State};
use geneu::sim::Thread;
use geneu::{AccessMode, Addr, Dst, ExecSize, Instruction, Opcode, Platform, RegFile, Region, Src, Type, WriteMask};
use sim_common::*;

const PLATFORMS: [Platform; 3] = [Platform::Gen7, Platform::Gen75, Platform::Gen8];

/// A thread whose every dword holds its own byte address in the register
/// file: a UD read returns the address it read.
fn tagged() -> Thread {
    let mut t = Thread::new();
    for a in (0..4096u32).step_by(4) {
        t.write_ud((a / 32) as u8, a % 32, a);
    }
    t
}

#[test]
fn align1_regions_read_the_elements_the_formula_names() {
    // base + (i / width) * vstride + (i % width) * hstride, in elements.
    let cases: [(u8, u32, u32, u32, [u32; 8]); 4] = [
        (4, 4, 2, 1, [0, 1, 4, 5, 8, 9, 12, 13]),
        (3, 0, 4, 1, [0, 1, 2, 3, 0, 1, 2, 3]),
        (3, 0, 1, 0, [0; 8]),
        (4, 8, 4, 2, [0, 2, 4, 6, 8, 10, 12, 14]),
    ];
    for p in PLATFORMS {
        for (reg, v, w, h, elems) in cases {
            let mut t = tagged();
            let mut b = Builder::new(p);
            b.mov(g(20).ud(), g(reg).ud().subreg(1).unwrap().stride(v, w, h).unwrap())
                .unwrap();
            run_to_end(b, &mut t);
            let base = u32::from(reg) * 32 + 4;
            assert_eq!(
                t.read_ud8(20).unwrap(),
                elems.map(|e| base + e * 4),
                "{p} <{v};{w},{h}>"
            );
        }
    }
}

#[test]
fn compressed_simd16_reads_and_writes_two_registers() {
    for p in PLATFORMS {
        let mut t = tagged();
        let mut b = Builder::new(p);
        b.state_mut().exec_size = ExecSize::S16;
        b.mov(g(20).ud(), g(4).ud()).unwrap();
        // A scalar source stays one element for both halves.
        b.add(g(22).ud(), g(6).ud().subreg(3).unwrap().vec1(), imm_ud(0))
            .unwrap();
        run_to_end(b, &mut t);
        assert_eq!(
            t.read_ud8(20).unwrap(),
            core::array::from_fn(|k| 128 + 4 * k as u32),
            "{p} first half from g4"
        );
        assert_eq!(
            t.read_ud8(21).unwrap(),
            core::array::from_fn(|k| 160 + 4 * k as u32),
            "{p} second half from g5"
        );
        assert_eq!(t.read_ud8(22).unwrap(), [6 * 32 + 12; 8]);
        assert_eq!(t.read_ud8(23).unwrap(), [6 * 32 + 12; 8]);
    }
}

#[test]
fn destination_strides() {
    for p in PLATFORMS {
        let mut t = Thread::new();
        let mut b = Builder::new(p);
        b.mov(g(20).uw().stride(16, 8, 2).unwrap(), imm_ud(0xabcd)).unwrap();
        run_to_end(b, &mut t);
        // Stride 2 words: the low word of each dword.
        assert_eq!(t.read_ud8(20).unwrap(), [0xabcd; 8], "{p}");
    }
}

#[test]
fn indirect_operands_add_the_address_register() {
    for p in PLATFORMS {
        let mut t = tagged();
        t.set_a0(0, 5 * 32 + 8);
        let mut b = Builder::new(p);
        b.mov(g(20).ud(), indirect(0, 4).unwrap().ud()).unwrap();
        run_to_end(b, &mut t);
        assert_eq!(
            t.read_ud8(20).unwrap(),
            core::array::from_fn(|k| 172 + 4 * k as u32),
            "{p}"
        );
    }
}

/// `mov(8) g20<1>:UD g[a0.0]<width,hstride>:UD` with a VxH region, built
/// by hand (the builder has no VxH region).
fn vxh(p: Platform, width: u32, hstride: u32) -> Vec<u8> {
    let mut i = Instruction::new(Opcode::Mov, ExecSize::S8);
    i.dst = Dst::grf(20, 0, Type::UD);
    let r = Region::new(0, width, hstride).unwrap();
    i.src[0] = Src {
        file: RegFile::Grf,
        ty: Type::UD,
        addr: Addr::Indirect { subnr: 0, imm: 0 },
        region: Region {
            vstride: geneu::isa::region::VSTRIDE_VXH,
            ..r
        },
        ..Src::ZERO
    };
    geneu::encode_unchecked(p, &i).unwrap().to_vec()
}

#[test]
fn vxh_and_vx1_take_one_address_register_a_row() {
    for p in PLATFORMS {
        let addrs: [u16; 8] = [300, 4, 1000, 64, 2048, 96, 4092, 0];
        // Vx1: each channel its own address register.
        let mut t = tagged();
        for (k, &a) in addrs.iter().enumerate() {
            t.set_a0(k as u8, a);
        }
        run_traced(p, &vxh(p, 1, 0), &mut t).unwrap();
        assert_eq!(t.read_ud8(20).unwrap(), addrs.map(u32::from), "{p} Vx1");
        // VxH, rows of two: a0.0, a0.0+4, a0.1, a0.1+4, ...
        let mut t = tagged();
        for (k, &a) in addrs.iter().enumerate().take(4) {
            t.set_a0(k as u8, a);
        }
        run_traced(p, &vxh(p, 2, 1), &mut t).unwrap();
        let want: [u32; 8] = core::array::from_fn(|k| u32::from(addrs[k / 2]) + 4 * (k % 2) as u32);
        assert_eq!(t.read_ud8(20).unwrap(), want, "{p} VxH");
        // An address outside the register file is an error, not a panic.
        let mut t = tagged();
        t.set_a0(0, 4094);
        let e = run_traced(p, &vxh(p, 1, 0), &mut t).unwrap_err();
        assert!(
            matches!(e, geneu::sim::SimError::RegisterOutOfRange { operand: "src0", .. }),
            "{e}"
        );
    }
}

#[test]
fn align16_swizzles_and_write_masks() {
    for p in PLATFORMS {
        let mut t = tagged();
        let mut b = Builder::new(p);
        b.set_state(State::default().align16());
        b.mov(g(20).ud(), g(4).ud().swizzle(swz(W, Z, Y, X))).unwrap();
        b.mov(
            g(21).ud().writemask(WriteMask::X | WriteMask::Z),
            g(6).ud().swizzle(swz(Y, Y, Y, Y)),
        )
        .unwrap();
        run_to_end(b, &mut t);
        // Channel i: group i/4, component swizzle[i%4].
        let want: [u32; 8] = core::array::from_fn(|i| 128 + 16 * (i as u32 / 4) + 4 * (3 - i as u32 % 4));
        assert_eq!(t.read_ud8(20).unwrap(), want, "{p} swizzle");
        let want: [u32; 8] = core::array::from_fn(|i| {
            if i % 2 == 0 {
                192 + 16 * (i as u32 / 4) + 4
            } else {
                21 * 32 + 4 * i as u32 // untouched: its own tag
            }
        });
        assert_eq!(t.read_ud8(21).unwrap(), want, "{p} write mask");
    }
}

#[test]
fn vector_immediates_give_one_element_a_channel() {
    for p in PLATFORMS {
        let mut t = Thread::new();
        let mut b = Builder::new(p);
        let v = [-8i8, -1, 0, 1, 2, 3, 7, -3];
        b.mov(g(20).w(), imm_v(v).unwrap()).unwrap();
        b.mov(g(21).uw(), imm_uv([0, 1, 2, 3, 15, 14, 13, 12]).unwrap())
            .unwrap();
        let f = [0.0f32, 1.0, 0.5, -2.0];
        b.mov(g(22), imm_vf(f).unwrap()).unwrap();
        run_to_end(b, &mut t);
        let words = |t: &Thread, r: u8| -> [u16; 8] {
            core::array::from_fn(|k| t.reg(r).map(|b| u16::from_le_bytes([b[2 * k], b[2 * k + 1]])).unwrap())
        };
        assert_eq!(words(&t, 20), v.map(|x| x as i16 as u16), "{p} V");
        assert_eq!(words(&t, 21), [0, 1, 2, 3, 15, 14, 13, 12], "{p} UV");
        assert_eq!(
            t.read_ud8(22).unwrap(),
            core::array::from_fn(|i| f[i % 4].to_bits()),
            "{p} VF"
        );
    }
}

#[test]
fn quarter_control_dispatch_mask_nomask_and_flags() {
    for p in PLATFORMS {
        let mut t = Thread::new();
        t.set_dispatch_mask(0x0f0f);
        t.set_flag(0, 0x3300);
        let mut b = Builder::new(p);
        // 2Q: channels 8-15, of which the dispatch enables 8-11.
        b.set_state(State::default().group(8).unwrap());
        b.mov(g(20).ud(), imm_ud(1)).unwrap();
        // Predicated on f0.0 bits 8-15 (0x33): channels 8, 9, 12, 13; with the mask: 8, 9.
        b.set_state(State::default().group(8).unwrap().predicated(Predicate::normal(0, 0)));
        b.mov(g(21).ud(), imm_ud(2)).unwrap();
        // NoMask ignores the dispatch mask, not the predicate.
        b.set_state(
            State::default()
                .group(8)
                .unwrap()
                .no_mask()
                .predicated(Predicate::normal(0, 0)),
        );
        b.mov(g(22).ud(), imm_ud(3)).unwrap();
        run_to_end(b, &mut t);
        assert_eq!(t.read_ud8(20).unwrap(), [1, 1, 1, 1, 0, 0, 0, 0], "{p}");
        assert_eq!(t.read_ud8(21).unwrap(), [2, 2, 0, 0, 0, 0, 0, 0], "{p}");
        assert_eq!(t.read_ud8(22).unwrap(), [3, 3, 0, 0, 3, 3, 0, 0], "{p}");
    }
}

#[test]
fn any_and_all_predicates_combine_groups_of_flags() {
    let flags: u32 = 0b1111_0001_0011_0000;
    for p in PLATFORMS {
        for (ctrl, group, all) in [
            (PredCtrl::Any2h, 2, false),
            (PredCtrl::All2h, 2, true),
            (PredCtrl::Any4h, 4, false),
            (PredCtrl::All4h, 4, true),
            (PredCtrl::Any8h, 8, false),
            (PredCtrl::All8h, 8, true),
            (PredCtrl::Any16h, 16, false),
            (PredCtrl::All16h, 16, true),
        ] {
            for invert in [false, true] {
                let mut t = Thread::new();
                t.set_flag(0, flags);
                let mut b = Builder::new(p);
                let mut pr = Predicate::normal(0, 0).with(ctrl);
                pr.invert = invert;
                b.set_state(State::default().simd(ExecSize::S16).predicated(pr));
                b.mov(g(20).ud(), imm_ud(1)).unwrap();
                run_to_end(b, &mut t);
                let got: Vec<u32> = (0..16u32)
                    .map(|k| t.read_ud(20 + (k / 8) as u8, (k % 8) * 4).unwrap())
                    .collect();
                let want: Vec<u32> = (0..16u32)
                    .map(|k| {
                        let base = k - k % group;
                        let bits = (base..base + group).map(|c| flags >> c & 1 == 1);
                        let v = if all {
                            bits.clone().all(|b| b)
                        } else {
                            bits.clone().any(|b| b)
                        };
                        u32::from(v != invert)
                    })
                    .collect();
                assert_eq!(got, want, "{p} {ctrl:?} inverted {invert}");
            }
        }
    }
}

#[test]
fn align16_replicated_predicates() {
    let flags: u32 = 0b0110_1001;
    for p in PLATFORMS {
        for (ctrl, comp) in [(PredCtrl::X, 0), (PredCtrl::Y, 1), (PredCtrl::Z, 2), (PredCtrl::W, 3)] {
            let mut t = Thread::new();
            t.set_flag(0, flags);
            let mut b = Builder::new(p);
            b.set_state(
                State::default()
                    .align16()
                    .predicated(Predicate::normal(0, 0).with(ctrl)),
            );
            b.mov(g(20).ud(), imm_ud(1)).unwrap();
            run_to_end(b, &mut t);
            let want: [u32; 8] = core::array::from_fn(|k| flags >> (k - k % 4 + comp) & 1);
            assert_eq!(t.read_ud8(20).unwrap(), want, "{p} {ctrl:?}");
        }
    }
}

#[test]
fn ivy_bridge_df_counts_32_bit_channels_and_haswell_does_not() {
    // add(8) g10<1>:DF g4<8;8,1>:DF g6<8;8,1>:DF on Ivy Bridge: the
    // execution size, Width and VertStride count 32-bit halves and
    // HorzStride 1 keeps the halves packed (Mesa's elk generator doubles
    // only ExecSize, Width and VertStride), so 4 doubles are added; DF
    // channel k takes execution-mask channel k (see the next test).
    let a = [1.5f64, -2.25, 1e300, 3.0];
    let c = [0.25f64, 4.0, 1e300, -3.0];
    for p in [Platform::Gen7, Platform::Gen75] {
        let mut t = ieee_thread();
        for k in 0..4u32 {
            let (x, y) = (a[k as usize].to_bits(), c[k as usize].to_bits());
            t.write_ud(4, 8 * k, x as u32);
            t.write_ud(4, 8 * k + 4, (x >> 32) as u32);
            t.write_ud(6, 8 * k, y as u32);
            t.write_ud(6, 8 * k + 4, (y >> 32) as u32);
        }
        t.write_ud8(11, [0x5555_5555; 8]);
        let mut i = Instruction::new(Opcode::Add, ExecSize::S8);
        let (h, r) = if p == Platform::Gen7 {
            (1, Region::new(8, 8, 1).unwrap())
        } else {
            (1, Region::new(4, 4, 1).unwrap())
        };
        i.dst = Dst::grf(10, 0, Type::DF).with_hstride(h).unwrap();
        i.src[0] = Src::grf(4, 0, Type::DF, r);
        i.src[1] = Src::grf(6, 0, Type::DF, r);
        let bytes = geneu::encode_unchecked(p, &i).unwrap();
        t.set_dispatch_mask(0xff);
        run_traced(p, &bytes, &mut t).unwrap();
        for k in 0..4u32 {
            let got = u64::from(t.read_ud(10, 8 * k).unwrap()) | u64::from(t.read_ud(10, 8 * k + 4).unwrap()) << 32;
            assert_eq!(f64::from_bits(got), a[k as usize] + c[k as usize], "{p} {k}");
        }
        if p == Platform::Gen7 {
            assert_eq!(t.read_ud8(11).unwrap(), [0x5555_5555; 8], "IVB: 4 doubles only");
        } else {
            assert_ne!(t.read_ud8(11).unwrap(), [0x5555_5555; 8], "HSW: 8 doubles");
        }
    }
    // IVB: DF channel 2 runs on execution channel 2 (not the pair 4, 5):
    // g10 bytes 16-23 take g4's (tagged 128 + 16, 128 + 20).
    let p = Platform::Gen7;
    let mut i = Instruction::new(Opcode::Mov, ExecSize::S8);
    i.dst = Dst::grf(10, 0, Type::DF);
    i.src[0] = Src::grf(4, 0, Type::DF, Region::new(8, 8, 1).unwrap());
    let bytes = geneu::encode_unchecked(p, &i).unwrap();
    let mut t = tagged();
    t.set_dispatch_mask(0b0000_0100);
    run_traced(p, &bytes, &mut t).unwrap();
    assert_eq!(
        t.read_ud8(10).unwrap(),
        [320, 324, 328, 332, 128 + 16, 128 + 20, 344, 348]
    );
    let _ = AccessMode::Align1;
}

/// The four DF channels `(x0, x1, x2, x3)` at g`reg`.
fn write_df4(t: &mut Thread, reg: u8, v: [f64; 4]) {
    for (k, x) in v.into_iter().enumerate() {
        write_f64(t, reg, 8 * k as u32, x);
    }
}

#[test]
fn ivy_bridge_df_channels_take_the_mask_and_flag_bits_of_their_channel_group() {
    // Mesa's IVB DF (elk `get_fpu_lowered_simd_width`, elk_fs_generator):
    // a SIMD4 DF instruction at channel group 4 is encoded add(8) with
    // NibCtrl, and DF channel j is enabled by execution-mask and flag bit
    // 4 + j, the bits 32-bit code at that group uses.
    let p = Platform::Gen7;
    let a = [1.0f64, 2.0, 3.0, 4.0];
    let c = [10.0f64, 20.0, 30.0, 40.0];
    let add = |first: u32, exec: ExecSize, pred: bool| {
        let mut i = Instruction::new(Opcode::Add, exec);
        assert!(i.set_first_channel(0));
        i.qtr_control = (first / 8) as u8;
        i.controls.set(geneu::Controls::NIB_CTRL, first % 8 == 4);
        assert_eq!(i.first_channel(), first);
        let r = Region::new(8, 8, 1).unwrap();
        i.dst = Dst::grf(10, 0, Type::DF);
        i.src[0] = Src::grf(4, 0, Type::DF, r);
        i.src[1] = Src::grf(6, 0, Type::DF, r);
        if pred {
            i.pred_control = 1; // f0.0, sequential
        }
        geneu::encode_unchecked(p, &i).unwrap()
    };
    let setup = || {
        let mut t = ieee_thread();
        write_df4(&mut t, 4, a);
        write_df4(&mut t, 6, c);
        write_df4(&mut t, 10, [-1.0; 4]);
        t
    };
    let df4 = |t: &Thread| -> [f64; 4] { core::array::from_fn(|k| read_f64(t, 10, 8 * k as u32)) };

    // Dispatch mask 0b0101_0000: bits 4 and 6, so DF channels 0 and 2.
    let mut t = setup();
    t.set_dispatch_mask(0b0101_0000);
    run_traced(p, &add(4, ExecSize::S8, false), &mut t).unwrap();
    assert_eq!(df4(&t), [11.0, -1.0, 33.0, -1.0]);

    // The predicate reads f0.0 bits 4-7 (bits 0-3 and 8-15 are decoys).
    let mut t = setup();
    t.set_dispatch_mask(u32::MAX);
    t.set_flag(0, 0b1111_1111_1001_1111);
    run_traced(p, &add(4, ExecSize::S8, true), &mut t).unwrap();
    assert_eq!(df4(&t), [11.0, -1.0, -1.0, 44.0]);

    // At channel group 24 (4Q): bits 24-27.
    let mut t = setup();
    t.set_dispatch_mask(0b0010 << 24 | 0x00ff_ffff);
    run_traced(p, &add(24, ExecSize::S8, false), &mut t).unwrap();
    assert_eq!(df4(&t), [-1.0, 22.0, -1.0, -1.0]);

    // A compressed add(16) DF (eight DF channels) reuses the first four
    // bits for its second half: bit 1 enables DF channels 1 and 5.
    let mut t = setup();
    write_df4(&mut t, 5, a);
    write_df4(&mut t, 7, c);
    write_df4(&mut t, 11, [-1.0; 4]);
    t.set_dispatch_mask(0b0010 | 0xff00);
    run_traced(p, &add(0, ExecSize::S16, false), &mut t).unwrap();
    let hi: [f64; 4] = core::array::from_fn(|k| read_f64(&t, 11, 8 * k as u32));
    assert_eq!((df4(&t), hi), ([-1.0, 22.0, -1.0, -1.0], [-1.0, 22.0, -1.0, -1.0]));

    // A DF compare at channel group 4 writes f0.0 bits 4-7, one a channel.
    let mut t = setup();
    t.set_dispatch_mask(u32::MAX);
    t.set_flag(0, 0xffff_0000);
    let mut i = Instruction::new(Opcode::Cmp, ExecSize::S8);
    i.controls.set(geneu::Controls::NIB_CTRL, true);
    i.cond_modifier = geneu::CondMod::L.hw();
    i.dst = Dst {
        ty: Type::DF,
        ..Dst::null()
    };
    i.src[0] = Src::grf(4, 0, Type::DF, Region::new(8, 8, 1).unwrap());
    i.src[1] = Src::grf(6, 0, Type::DF, Region::new(8, 8, 1).unwrap());
    write_df4(&mut t, 6, [0.5, 3.0, 2.0, 5.0]);
    run_traced(p, &geneu::encode_unchecked(p, &i).unwrap(), &mut t).unwrap();
    // 1 < 0.5 no, 2 < 3 yes, 3 < 2 no, 4 < 5 yes: bits 5 and 7.
    assert_eq!(t.flag(0), 0xffff_0000 | 0b1010_0000);
}

/// Writes f64 `v` at GRF `reg`, byte `byte`.
fn write_f64(t: &mut Thread, reg: u8, byte: u32, v: f64) {
    let x = v.to_bits();
    t.write_ud(reg, byte, x as u32);
    t.write_ud(reg, byte + 4, (x >> 32) as u32);
}

fn read_f64(t: &Thread, reg: u8, byte: u32) -> f64 {
    f64::from_bits(u64::from(t.read_ud(reg, byte).unwrap()) | u64::from(t.read_ud(reg, byte + 4).unwrap()) << 32)
}

#[test]
fn ivy_bridge_df_regions_keep_horizontal_stride_one_packed() {
    // mov(4) g2.2<1>DF g3<4;4,1>DF on Ivy Bridge: two DF channels (float
    // channels 0-1 and 2-3 of the region <4;4,1> counted in floats), so
    // g3's first two doubles land at g2 bytes 16 and 24 (regression: a
    // halved HorzStride read g3.0 twice).
    let p = Platform::Gen7;
    let mut t = Thread::new();
    for k in 0..4u32 {
        write_f64(&mut t, 3, 8 * k, f64::from(k + 1));
    }
    for k in 0..4u32 {
        write_f64(&mut t, 2, 8 * k, -7.0);
    }
    let mut i = Instruction::new(Opcode::Mov, ExecSize::S4);
    i.dst = Dst::grf(2, 16, Type::DF);
    i.src[0] = Src::grf(3, 0, Type::DF, Region::new(4, 4, 1).unwrap());
    let bytes = geneu::encode_unchecked(p, &i).unwrap();
    t.set_dispatch_mask(0xff);
    run_traced(p, &bytes, &mut t).unwrap();
    let got: [f64; 4] = core::array::from_fn(|k| read_f64(&t, 2, 8 * k as u32));
    assert_eq!(got, [-7.0, -7.0, 1.0, 2.0]);

    // Scalars: <0;1,0> and Mesa's doubled form <0;2,1> both broadcast
    // g3.1:DF (bytes 8-15) to the four DF channels of mov(8).
    for r in [Region::new(0, 1, 0).unwrap(), Region::new(0, 2, 1).unwrap()] {
        let mut t = Thread::new();
        write_f64(&mut t, 3, 8, 2.5);
        let mut i = Instruction::new(Opcode::Mov, ExecSize::S8);
        i.dst = Dst::grf(4, 0, Type::DF);
        i.src[0] = Src::grf(3, 8, Type::DF, r);
        let bytes = geneu::encode_unchecked(p, &i).unwrap();
        t.set_dispatch_mask(0xff);
        run_traced(p, &bytes, &mut t).unwrap();
        let got: [f64; 4] = core::array::from_fn(|k| read_f64(&t, 4, 8 * k as u32));
        assert_eq!(got, [2.5; 4], "{r:?}");
        assert_eq!(t.read_ud8(5).unwrap(), [0; 8], "{r:?}: four doubles only");
    }
}

#[test]
fn address_and_flag_registers_as_operands() {
    for p in PLATFORMS {
        let mut t = tagged();
        t.write_ud(2, 0, 7 * 32 + 16);
        let mut b = Builder::new(p);
        // a0.0 = g2.0 (a byte address), then a read through it.
        b.set_state(State::default().simd(ExecSize::S1).no_mask());
        b.mov(geneu::build::addr(0).uw().vec1(), g(2).uw().vec1()).unwrap();
        b.mov(geneu::build::flag(0, 1).uw().vec1(), imm_ud(0xbeef).into_uw())
            .unwrap();
        b.set_state(State::default());
        b.mov(g(20).ud(), indirect(0, 0).unwrap().ud()).unwrap();
        b.set_state(State::default().simd(ExecSize::S1).no_mask());
        b.mov(g(21).ud().vec1(), geneu::build::flag(0, 0).ud().vec1()).unwrap();
        run_to_end(b, &mut t);
        assert_eq!(t.a0(0), 7 * 32 + 16, "{p}");
        assert_eq!(
            t.read_ud8(20).unwrap(),
            core::array::from_fn(|k| 240 + 4 * k as u32),
            "{p}"
        );
        assert_eq!(t.flag(0), 0xbeef_0000, "{p}");
        assert_eq!(t.read_ud(21, 0), Some(0xbeef_0000), "{p}");
    }
}

/// `imm_ud` as a UW immediate of the same low bits.
trait IntoUw {
    fn into_uw(self) -> geneu::build::Imm;
}

impl IntoUw for geneu::build::Imm {
    fn into_uw(self) -> geneu::build::Imm {
        geneu::build::imm_uw(self.bits() as u16)
    }
}

/// The region of an unread align16 source (align16 encodes the vertical
/// stride only).
const UNUSED_A16: Region = match Region::new(0, 4, 1) {
    Some(r) => r,
    None => Region::SCALAR,
};

/// An align16 DF source or destination of `nr` with vertical stride
/// `v` (elements) and swizzle / write mask.
fn a16_df(nr: u8, v: u32, swizzle: [u8; 4]) -> Src {
    let mut s = Src::grf(nr, 0, Type::DF, Region::new(v, 4, 1).unwrap());
    s.swizzle = geneu::Swizzle(swizzle[0] | swizzle[1] << 2 | swizzle[2] << 4 | swizzle[3] << 6);
    s
}

fn df_bits(t: &Thread, reg: u8, k: u32) -> u64 {
    u64::from(t.read_ud(reg, 8 * k).unwrap()) | u64::from(t.read_ud(reg, 8 * k + 4).unwrap()) << 32
}

#[test]
fn align16_df_swizzles_and_write_masks_count_32_bit_halves() {
    // add(4) g10.xy:DF g4.xyxy:DF g6.xyzw:DF {align16}. The align16
    // hardware swizzles and masks 32-bit components: a group of four is
    // 16 bytes, two doubles. So channel c (group c/2, half c%2) reads
    // src0's components x,y of its group (the double at byte 16*(c/2)):
    // a0, a0, a2, a2; src1's own double; and the mask .xy writes the first
    // double of each group: channels 0 and 2. Haswell and Broadwell count
    // VertStride in doubles (<2>), Ivy Bridge in dwords (<4>) with twice
    // the execution size (a DF channel is two execution channels).
    let a = [1.5f64, -2.25, 1e300, 3.0];
    let b = [0.25f64, 4.0, 1e300, -3.0];
    for p in PLATFORMS {
        let (exec, v) = if p == Platform::Gen7 {
            (ExecSize::S8, 4)
        } else {
            (ExecSize::S4, 2)
        };
        let mut t = ieee_thread();
        for k in 0..4u32 {
            write_f64(&mut t, 4, 8 * k, a[k as usize]);
            write_f64(&mut t, 6, 8 * k, b[k as usize]);
            write_f64(&mut t, 10, 8 * k, -7.0);
        }
        let mut i = Instruction::new(Opcode::Add, exec);
        i.access_mode = AccessMode::Align16;
        i.dst = Dst::grf(10, 0, Type::DF);
        i.dst.writemask = WriteMask::X | WriteMask::Y;
        i.src[0] = a16_df(4, v, [0, 1, 0, 1]);
        i.src[1] = a16_df(6, v, [0, 1, 2, 3]);
        let bytes = geneu::encode_unchecked(p, &i).unwrap();
        t.set_dispatch_mask(0xff);
        run_traced(p, &bytes, &mut t).unwrap();
        let got: [f64; 4] = core::array::from_fn(|k| read_f64(&t, 10, 8 * k as u32));
        assert_eq!(got, [a[0] + b[0], -7.0, a[2] + b[2], -7.0], "{p}");

        // .zwxy swaps the doubles of each group; .yxwz swaps the halves
        // of each double (channel 0's low dword is a0's high one).
        let mut m = Instruction::new(Opcode::Mov, exec);
        m.access_mode = AccessMode::Align16;
        m.dst = Dst::grf(12, 0, Type::DF);
        m.src[0] = a16_df(4, v, [2, 3, 0, 1]);
        m.src[1].region = UNUSED_A16;
        let mut n = m;
        n.dst = Dst::grf(13, 0, Type::DF);
        n.src[0] = a16_df(4, v, [1, 0, 3, 2]);
        let mut bytes = geneu::encode_unchecked(p, &m).unwrap().to_vec();
        bytes.extend_from_slice(&geneu::encode_unchecked(p, &n).unwrap());
        run_traced(p, &bytes, &mut t).unwrap();
        let got: [f64; 4] = core::array::from_fn(|k| read_f64(&t, 12, 8 * k as u32));
        assert_eq!(got, [a[1], a[0], a[3], a[2]], "{p} .zwxy");
        let got: [u64; 4] = core::array::from_fn(|k| df_bits(&t, 13, k as u32));
        assert_eq!(got, a.map(|x| x.to_bits().rotate_left(32)), "{p} .yxwz");

        // A mask of one half writes that dword only: .xw writes the low
        // dword of channel 0 and the high dword of channel 1.
        let mut h = Instruction::new(Opcode::Mov, exec);
        h.access_mode = AccessMode::Align16;
        h.dst = Dst::grf(14, 0, Type::DF);
        h.dst.writemask = WriteMask::X | WriteMask::W;
        h.src[0] = a16_df(6, v, [0, 1, 2, 3]);
        h.src[1].region = UNUSED_A16;
        t.write_ud8(14, [0x5555_5555; 8]);
        run_traced(p, &geneu::encode_unchecked(p, &h).unwrap(), &mut t).unwrap();
        let want = |k: usize, lo: bool| {
            let x = b[k].to_bits();
            if lo {
                x as u32
            } else {
                (x >> 32) as u32
            }
        };
        assert_eq!(
            t.read_ud8(14).unwrap(),
            [
                want(0, true),
                0x5555_5555,
                0x5555_5555,
                want(1, false),
                want(2, true),
                0x5555_5555,
                0x5555_5555,
                want(3, false)
            ],
            "{p} .xw"
        );
    }
}

#[test]
fn align16_df_three_source_groups_are_16_bytes() {
    // mad(4) g10:DF g4:DF g6:DF g8:DF {align16}: a 3-source operand has no
    // VertStride; .xyzw is the packed <2;1> (IGA's reading), and IGC's
    // scalar form mad(2) g10.xy:DF g4.xyxy g6.zwzw g8.xyxy reads the
    // double at byte 0, 8 and 0 of the group. Fused: Rust's mul_add.
    let (a, b, c) = (
        [1.0f64, 2.0, 3.0, 4.0],
        [0.1f64, 1.0 / 3.0, 1e-20, -2.5],
        [3.0f64, 3.0, 1e20, 7.0],
    );
    for p in PLATFORMS {
        // Ivy Bridge counts the execution size in 32-bit channels.
        let (wide, narrow) = if p == Platform::Gen7 {
            (ExecSize::S8, ExecSize::S4)
        } else {
            (ExecSize::S4, ExecSize::S2)
        };
        let mut t = ieee_thread();
        for k in 0..4u32 {
            write_f64(&mut t, 4, 8 * k, a[k as usize]);
            write_f64(&mut t, 6, 8 * k, b[k as usize]);
            write_f64(&mut t, 8, 8 * k, c[k as usize]);
        }
        let mut i = Instruction::new(Opcode::Mad, wide);
        i.access_mode = AccessMode::Align16;
        i.dst = Dst::grf(10, 0, Type::DF);
        for (k, nr) in [4u8, 6, 8].into_iter().enumerate() {
            i.src[k] = Src::grf(nr, 0, Type::DF, Region::THREE_SRC);
            i.src[k].swizzle = geneu::Swizzle::XYZW;
        }
        let mut s = i;
        s.exec_size = narrow;
        s.dst = Dst::grf(11, 0, Type::DF);
        s.dst.writemask = WriteMask::X | WriteMask::Y;
        s.src[0].swizzle = geneu::Swizzle(0b01_00_01_00);
        s.src[1].swizzle = geneu::Swizzle(0b11_10_11_10);
        s.src[2].swizzle = geneu::Swizzle(0b01_00_01_00);
        t.write_ud8(11, [0x5555_5555; 8]);
        let mut bytes = geneu::encode_unchecked(p, &i).unwrap().to_vec();
        bytes.extend_from_slice(&geneu::encode_unchecked(p, &s).unwrap());
        t.set_dispatch_mask(0xff);
        run_traced(p, &bytes, &mut t).unwrap();
        let got: [f64; 4] = core::array::from_fn(|k| read_f64(&t, 10, 8 * k as u32));
        let want: [f64; 4] = core::array::from_fn(|k| b[k].mul_add(c[k], a[k]));
        assert_eq!(got, want, "{p}");
        assert_eq!(read_f64(&t, 11, 0), b[1].mul_add(c[0], a[0]), "{p} scalar");
        assert_eq!(t.read_ud(11, 8), Some(0x5555_5555), "{p} scalar: one double");
    }
}

#[test]
fn align16_mixing_64_bit_and_narrower_operands_is_a_typed_error() {
    let mut i = Instruction::new(Opcode::Mov, ExecSize::S4);
    i.access_mode = AccessMode::Align16;
    i.dst = Dst::grf(10, 0, Type::F);
    i.src[0] = a16_df(4, 2, [0, 1, 2, 3]);
    i.src[1].region = UNUSED_A16;
    let bytes = geneu::encode_unchecked(Platform::Gen8, &i).unwrap();
    let e = run_traced(Platform::Gen8, &bytes, &mut Thread::new()).unwrap_err();
    assert!(matches!(e, geneu::sim::SimError::Unsupported { offset: 0, .. }), "{e}");
}
