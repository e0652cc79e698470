//! The simulator's ALU against Rust's own integer and IEEE arithmetic:
//! each opcode and type on generated values (wrapping, saturation, NaN,
//! signed zero, rounding modes through cr0, denormals).

// Channel-indexed loops compare arrays channel by channel.
#![allow(clippy::needless_range_loop)]

use crate::sim_common;

use geneu::build::{acc, g, imm_d, imm_f, imm_ud, null, Builder, Predicate, State};
use geneu::isa::cr0;
use geneu::sim::Thread;
use geneu::{CondMod, ExecSize, MathFunction, Platform};
use sim_common::*;

const PLATFORMS: [Platform; 3] = [Platform::Gen7, Platform::Gen75, Platform::Gen8];

/// Runs a SIMD8 two-source integer operation on 8 generated pairs (g3,
/// g4 → g2) and checks it against `f`.
fn int2(
    p: Platform,
    emit: impl Fn(&mut Builder) -> Result<usize, geneu::build::BuildError>,
    f: impl Fn(u32, u32) -> u32,
    seed: u64,
) {
    let mut r = Rng(seed);
    for _ in 0..20 {
        let a: [u32; 8] = core::array::from_fn(|_| r.u32());
        let b: [u32; 8] = core::array::from_fn(|_| r.u32());
        let mut t = Thread::new();
        t.write_ud8(3, a);
        t.write_ud8(4, b);
        let mut bld = Builder::new(p);
        emit(&mut bld).unwrap();
        run_to_end(bld, &mut t);
        let got = t.read_ud8(2).unwrap();
        for k in 0..8 {
            assert_eq!(got[k], f(a[k], b[k]), "{p} channel {k}: {:#x} {:#x}", a[k], b[k]);
        }
    }
}

#[test]
fn integer_arithmetic_wraps_like_rust() {
    for p in PLATFORMS {
        int2(p, |b| b.add(g(2).d(), g(3).d(), g(4).d()), |a, b| a.wrapping_add(b), 1);
        int2(
            p,
            |b| b.mul(g(2).d(), g(3).d(), g(4).w().stride(16, 8, 2).unwrap()),
            |a, b| (a as i32).wrapping_mul((b as u16) as i16 as i32) as u32,
            2,
        );
        int2(
            p,
            |b| b.add(g(2).ud(), g(3).ud().neg(), g(4).ud()),
            |a, b| b.wrapping_sub(a),
            3,
        );
        int2(
            p,
            |b| b.avg(g(2).d(), g(3).d(), g(4).d()),
            |a, b| ((a as i32 as i64 + b as i32 as i64 + 1) >> 1) as u32,
            4,
        );
        int2(p, |b| b.and(g(2).ud(), g(3).ud(), g(4).ud().neg()), |a, b| a & !b, 5);
        int2(p, |b| b.or(g(2).ud(), g(3).ud(), g(4).ud()), |a, b| a | b, 6);
        int2(p, |b| b.xor(g(2).ud(), g(3).ud(), g(4).ud()), |a, b| a ^ b, 7);
        int2(p, |b| b.not(g(2).ud(), g(3).ud()), |a, _| !a, 8);
        int2(p, |b| b.shl(g(2).ud(), g(3).ud(), g(4).ud()), |a, b| a << (b & 31), 9);
        int2(p, |b| b.shr(g(2).ud(), g(3).d(), g(4).ud()), |a, b| a >> (b & 31), 10);
        int2(
            p,
            |b| b.asr(g(2).d(), g(3).d(), g(4).ud()),
            |a, b| ((a as i32) >> (b & 31)) as u32,
            11,
        );
        int2(
            p,
            |b| b.add(g(2).d(), g(3).d().abs(), g(4).d()),
            |a, b| (a as i32).wrapping_abs().wrapping_add(b as i32) as u32,
            12,
        );
        int2(p, |b| b.bfrev(g(2).ud(), g(3).ud()), |a, _| a.reverse_bits(), 13);
        int2(p, |b| b.cbit(g(2).ud(), g(3).ud()), |a, _| a.count_ones(), 14);
        int2(p, |b| b.lzd(g(2).ud(), g(3).ud()), |a, _| a.leading_zeros(), 15);
        int2(
            p,
            |b| b.fbl(g(2).ud(), g(3).ud()),
            |a, _| if a == 0 { u32::MAX } else { a.trailing_zeros() },
            16,
        );
        int2(
            p,
            |b| b.fbh(g(2).ud(), g(3).ud()),
            |a, _| if a == 0 { u32::MAX } else { a.leading_zeros() },
            17,
        );
        int2(
            p,
            |b| b.fbh(g(2).ud(), g(3).d()),
            |a, _| {
                let x = if (a as i32) < 0 { !a } else { a };
                if x == 0 {
                    u32::MAX
                } else {
                    x.leading_zeros()
                }
            },
            18,
        );
        int2(
            p,
            |b| b.bfi1(g(2).ud(), g(3).ud(), g(4).ud()),
            |w, o| (((1u64 << (w & 31)) - 1) as u32) << (o & 31),
            19,
        );
    }
}

#[test]
fn saturation_clamps_to_the_destination_range() {
    for p in PLATFORMS {
        let mut st = State::default();
        st.saturate = true;
        int2(
            p,
            |b| {
                b.set_state(st);
                b.add(g(2).d(), g(3).d(), g(4).d())
            },
            |a, b| (a as i32).saturating_add(b as i32) as u32,
            21,
        );
        int2(
            p,
            |b| {
                b.set_state(st);
                b.add(g(2).ud(), g(3).ud(), g(4).ud())
            },
            |a, b| a.saturating_add(b),
            22,
        );
        // D into a W destination (stride 2 keeps one word a dword).
        int2(
            p,
            |b| {
                b.set_state(st);
                b.mov(g(2).w().stride(16, 8, 2).unwrap(), g(3).d())
            },
            |a, _| (a as i32).clamp(i16::MIN as i32, i16::MAX as i32) as i16 as u16 as u32,
            23,
        );
        // Without saturation the word wraps; the upper word of each dword is untouched (zero).
        int2(
            p,
            |b| b.mov(g(2).uw().stride(16, 8, 2).unwrap(), g(3).d()),
            |a, _| a & 0xffff,
            24,
        );
    }
}

#[test]
fn addc_subb_and_mach_keep_their_wide_results() {
    for p in PLATFORMS {
        // addc writes the carry to the accumulator; mov reads it back.
        int2(
            p,
            |b| {
                b.addc(g(5).ud(), g(3).ud(), g(4).ud())?;
                b.mov(g(2).ud(), acc(0).ud())
            },
            |a, b| a.overflowing_add(b).1 as u32,
            31,
        );
        int2(
            p,
            |b| {
                b.subb(g(5).ud(), g(3).ud(), g(4).ud())?;
                b.mov(g(2).ud(), acc(0).ud())
            },
            |a, b| (a < b) as u32,
            32,
        );
        int2(
            p,
            |b| b.subb(g(2).ud(), g(3).ud(), g(4).ud()),
            |a, b| a.wrapping_sub(b),
            33,
        );
        // Mesa's imul_high: mul into the accumulator, then mach.
        int2(
            p,
            |b| {
                // As Mesa emits it: the low words of src1 into acc.
                b.mul(acc(0).d(), g(3).d(), g(4).uw().stride(16, 8, 2).unwrap())?;
                b.mach(g(2).d(), g(3).d(), g(4).d())
            },
            |a, b| ((a as i32 as i64 * b as i32 as i64) >> 32) as u32,
            34,
        );
        int2(
            p,
            |b| {
                b.mul(acc(0).ud(), g(3).ud(), g(4).uw().stride(16, 8, 2).unwrap())?;
                b.mach(g(2).ud(), g(3).ud(), g(4).ud())
            },
            |a, b| ((a as u64 * b as u64) >> 32) as u32,
            35,
        );
    }
}

#[test]
fn mac_adds_the_accumulator() {
    for p in PLATFORMS {
        int2(
            p,
            |b| {
                b.mov(acc(0).d(), g(3).d())?;
                b.mac(g(2).d(), g(3).d(), g(4).d())
            },
            |a, b| a.wrapping_add(a.wrapping_mul(b)),
            36,
        );
    }
}

#[test]
fn integer_division_gives_quotient_and_remainder() {
    for p in PLATFORMS {
        int2(
            p,
            |b| b.math(MathFunction::IntDivQuotient, g(2).d(), g(3).d(), Some(g(4).d().into())),
            |a, b| {
                if b == 0 {
                    u32::MAX
                } else {
                    (a as i32).wrapping_div(b as i32) as u32
                }
            },
            41,
        );
        int2(
            p,
            |b| {
                b.math(
                    MathFunction::IntDivRemainder,
                    g(2).ud(),
                    g(3).ud(),
                    Some(g(4).ud().into()),
                )
            },
            |a, b| if b == 0 { a } else { a % b },
            42,
        );
    }
}

/// Runs a SIMD8 float operation on generated values and checks it.
fn float2(
    p: Platform,
    t0: &Thread,
    emit: impl Fn(&mut Builder) -> Result<usize, geneu::build::BuildError>,
    f: impl Fn(f32, f32) -> f32,
    seed: u64,
) {
    let mut r = Rng(seed);
    for _ in 0..30 {
        let a: [f32; 8] = core::array::from_fn(|_| r.f32());
        let b: [f32; 8] = core::array::from_fn(|_| r.f32());
        let mut t = t0.clone();
        t.write_ud8(3, bits8(a));
        t.write_ud8(4, bits8(b));
        let mut bld = Builder::new(p);
        emit(&mut bld).unwrap();
        run_to_end(bld, &mut t);
        let got = t.read_ud8(2).unwrap();
        for k in 0..8 {
            assert!(
                same_f32(got[k], f(a[k], b[k])),
                "{p} channel {k}: f({:?}, {:?}) = {:?}, not {:?}",
                a[k],
                b[k],
                f32::from_bits(got[k]),
                f(a[k], b[k])
            );
        }
    }
}

#[test]
fn float_arithmetic_is_ieee_with_denormals_kept() {
    let t = ieee_thread();
    for p in PLATFORMS {
        float2(p, &t, |b| b.add(g(2), g(3), g(4)), |a, b| a + b, 51);
        float2(p, &t, |b| b.mul(g(2), g(3), g(4)), |a, b| a * b, 52);
        float2(p, &t, |b| b.add(g(2), g(3).neg(), g(4).abs()), |a, b| -a + b.abs(), 53);
        float2(
            p,
            &t,
            |b| b.math(MathFunction::Fdiv, g(2), g(3), Some(g(4).into())),
            |a, b| a / b,
            54,
        );
        float2(
            p,
            &t,
            |b| b.math(MathFunction::Sqrt, g(2), g(3), None),
            |a, _| a.sqrt(),
            55,
        );
        float2(
            p,
            &t,
            |b| b.math(MathFunction::Inv, g(2), g(3), None),
            |a, _| 1.0 / a,
            56,
        );
        float2(p, &t, |b| b.rndd(g(2), g(3)), |a, _| a.floor(), 57);
        float2(p, &t, |b| b.rndu(g(2), g(3)), |a, _| a.ceil(), 58);
        float2(p, &t, |b| b.rndz(g(2), g(3)), |a, _| a.trunc(), 59);
        float2(p, &t, |b| b.rnde(g(2), g(3)), |a, _| a.round_ties_even(), 60);
        float2(p, &t, |b| b.frc(g(2), g(3)), |a, _| a - a.floor(), 61);
        float2(p, &t, |b| b.sel_cond(CondMod::L, g(2), g(3), g(4)), |a, b| a.min(b), 62);
        float2(
            p,
            &t,
            |b| b.sel_cond(CondMod::Ge, g(2), g(3), g(4)),
            |a, b| a.max(b),
            63,
        );
        let mut st = State::default();
        st.saturate = true;
        float2(
            p,
            &t,
            |b| {
                b.set_state(st);
                b.add(g(2), g(3), g(4))
            },
            |a, b| {
                let x = a + b;
                if x.is_nan() {
                    0.0
                } else {
                    x.clamp(0.0, 1.0)
                }
            },
            64,
        );
    }
}

#[test]
fn mad_is_fused() {
    let t0 = ieee_thread();
    let mut r = Rng(71);
    for p in PLATFORMS {
        for _ in 0..30 {
            let v: [[f32; 8]; 3] = core::array::from_fn(|_| core::array::from_fn(|_| r.f32()));
            let mut t = t0.clone();
            for (k, x) in v.iter().enumerate() {
                t.write_ud8(3 + k as u8, bits8(*x));
            }
            let mut b = Builder::new(p);
            b.state_mut().access_mode = geneu::AccessMode::Align16;
            b.mad(g(2), g(3), g(4), g(5)).unwrap();
            run_to_end(b, &mut t);
            let got = t.read_ud8(2).unwrap();
            for k in 0..8 {
                let want = v[1][k].mul_add(v[2][k], v[0][k]);
                assert!(same_f32(got[k], want), "{p} {k}: {:?}", (v[0][k], v[1][k], v[2][k]));
            }
        }
    }
}

#[test]
fn denormals_flush_unless_cr0_keeps_them() {
    for p in PLATFORMS {
        let tiny = f32::MIN_POSITIVE; // 2^-126
        let mut t = Thread::new(); // cr0 = 0: flush
        t.write_ud8(3, bits8([tiny; 8]));
        t.write_ud8(4, bits8([0.5, -0.5, 1.0, 2.0, 0.25, -0.25, 0.125, 1.0]));
        let mut b = Builder::new(p);
        b.mul(g(2), g(3), g(4)).unwrap();
        run_to_end(b, &mut t);
        let got = t.read_ud8(2).unwrap();
        let want = [0.0, -0.0, tiny, tiny * 2.0, 0.0, -0.0, 0.0, tiny];
        for k in 0..8 {
            assert_eq!(got[k], want[k].to_bits(), "{p} flush {k}");
        }
        let mut t = ieee_thread();
        t.write_ud8(3, bits8([tiny; 8]));
        t.write_ud8(4, bits8([0.5, -0.5, 1.0, 2.0, 0.25, -0.25, 0.125, 1.0]));
        let mut b = Builder::new(p);
        b.mul(g(2), g(3), g(4)).unwrap();
        run_to_end(b, &mut t);
        let got = t.read_ud8(2).unwrap();
        for k in 0..8 {
            let w = tiny * [0.5, -0.5, 1.0, 2.0, 0.25, -0.25, 0.125, 1.0][k];
            assert_eq!(got[k], w.to_bits(), "{p} retain {k}");
        }
    }
}

/// The f32 neighbours of an exactly representable f64 value: directed
/// rounding by search, independent of the simulator's method.
fn directed(x: f64, mode: u32) -> f32 {
    // Largest f32 <= x and smallest >= x, by walking from the nearest.
    let mut lo = x as f32;
    while f64::from(lo) > x {
        lo = f32::from_bits(if lo > 0.0 {
            lo.to_bits() - 1
        } else if lo == 0.0 {
            0x8000_0001
        } else {
            lo.to_bits() + 1
        });
    }
    let mut hi = x as f32;
    while f64::from(hi) < x {
        hi = f32::from_bits(if hi > 0.0 {
            hi.to_bits() + 1
        } else if hi == 0.0 {
            1
        } else {
            hi.to_bits() - 1
        });
    }
    match mode {
        1 => hi,
        2 => lo,
        _ => {
            if x >= 0.0 {
                lo
            } else {
                hi
            }
        }
    }
}

#[test]
fn rounding_modes_of_cr0_round_sums_and_products() {
    let mut r = Rng(81);
    for p in PLATFORMS {
        for mode in 1..=3u32 {
            for _ in 0..20 {
                // Values whose exact sums and products f64 holds.
                let a: [f32; 8] = core::array::from_fn(|_| (r.next() as u32 as f32) * 1.000_001 - 2.0e9);
                let b: [f32; 8] = core::array::from_fn(|_| (r.next() % 100_000) as f32 / 7.0);
                for add in [true, false] {
                    let mut t = ieee_thread();
                    t.set_cr0(t.cr0() | mode << cr0::RND_MODE_SHIFT);
                    t.write_ud8(3, bits8(a));
                    t.write_ud8(4, bits8(b));
                    let mut bld = Builder::new(p);
                    if add {
                        bld.add(g(2), g(3), g(4)).unwrap();
                    } else {
                        bld.mul(g(2), g(3), g(4)).unwrap();
                    }
                    run_to_end(bld, &mut t);
                    let got = t.read_ud8(2).unwrap();
                    for k in 0..8 {
                        let exact = if add {
                            f64::from(a[k]) + f64::from(b[k])
                        } else {
                            f64::from(a[k]) * f64::from(b[k])
                        };
                        assert_eq!(
                            f32::from_bits(got[k]),
                            directed(exact, mode),
                            "{p} mode {mode} add {add}: {} {}",
                            a[k],
                            b[k]
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn conversions_truncate_saturate_and_round() {
    let mut r = Rng(91);
    for p in PLATFORMS {
        for _ in 0..20 {
            let a: [f32; 8] = core::array::from_fn(|_| r.f32());
            let mut t = ieee_thread();
            t.write_ud8(3, bits8(a));
            let mut b = Builder::new(p);
            b.mov(g(2).d(), g(3)).unwrap();
            b.mov(g(5).ud(), g(3)).unwrap();
            run_to_end(b, &mut t);
            // Rust's `as` also truncates, saturates and sends NaN to 0.
            assert_eq!(t.read_ud8(2).unwrap(), a.map(|x| x as i32 as u32), "{p} F to D");
            assert_eq!(t.read_ud8(5).unwrap(), a.map(|x| x as u32), "{p} F to UD");
            let d: [u32; 8] = core::array::from_fn(|_| r.u32());
            let mut t = ieee_thread();
            t.write_ud8(3, d);
            let mut b = Builder::new(p);
            b.mov(g(2), g(3).d()).unwrap();
            b.mov(g(5), g(3).ud()).unwrap();
            run_to_end(b, &mut t);
            assert_eq!(
                t.read_ud8(2).unwrap(),
                d.map(|x| (x as i32 as f32).to_bits()),
                "{p} D to F"
            );
            assert_eq!(t.read_ud8(5).unwrap(), d.map(|x| (x as f32).to_bits()), "{p} UD to F");
        }
    }
    // Signed bytes extend their sign; an immediate's value converts.
    let mut t = Thread::new();
    t.write_ud8(3, [0x80ff_7f01, 0, 0, 0, 0, 0, 0, 0]);
    let mut b = Builder::new(Platform::Gen8);
    b.mov(
        g(2).d(),
        g(3).b()
            .stride(1, 1, 0)
            .unwrap()
            .subreg(0)
            .unwrap()
            .stride(0, 1, 0)
            .unwrap(),
    )
    .unwrap();
    b.mov(g(4).d(), g(3).b().stride(4, 4, 1).unwrap()).unwrap();
    b.mov(g(5), imm_d(-7)).unwrap();
    run_to_end(b, &mut t);
    assert_eq!(t.read_ud8(2).unwrap(), [1; 8]);
    assert_eq!(t.read_ud8(4).unwrap()[..4], [1, 0x7f, (-1i32) as u32, (-128i32) as u32]);
    assert_eq!(t.read_ud8(5).unwrap(), [(-7.0f32).to_bits(); 8]);
}

#[test]
fn half_floats_convert_on_every_platform() {
    use half::f16;
    let mut r = Rng(95);
    for p in [Platform::Gen7, Platform::Gen75] {
        let a: [f32; 8] = core::array::from_fn(|_| r.f32());
        let mut t = ieee_thread();
        t.write_ud8(3, bits8(a));
        let mut b = Builder::new(p);
        b.alu(geneu::Opcode::F32to16, g(2).ud(), &[g(3).into()], None).unwrap();
        b.alu(geneu::Opcode::F16to32, g(4), &[g(2).ud().into()], None).unwrap();
        run_to_end(b, &mut t);
        let h = a.map(|x| u32::from(f16::from_f32(x).to_bits()));
        assert_eq!(t.read_ud8(2).unwrap(), h, "{p} f32to16");
        let back = h.map(|x| f16::from_bits(x as u16).to_f32());
        for k in 0..8 {
            assert!(same_f32(t.read_ud8(4).unwrap()[k], back[k]), "{p} f16to32");
        }
    }
    // Gen8: HF registers.
    let a: [f32; 8] = core::array::from_fn(|_| r.f32());
    let mut t = ieee_thread();
    t.write_ud8(3, bits8(a));
    let mut b = Builder::new(Platform::Gen8);
    b.mov(g(2).hf().stride(16, 8, 2).unwrap(), g(3)).unwrap();
    run_to_end(b, &mut t);
    let got = t.read_ud8(2).unwrap();
    for k in 0..8 {
        let want = f16::from_f32(a[k]);
        let h = f16::from_bits(got[k] as u16);
        assert!(
            h.to_bits() == want.to_bits() || (h.is_nan() && want.is_nan()),
            "HF {k}: {:?}",
            a[k]
        );
    }
}

#[test]
fn compares_write_flags_and_nan_is_unordered() {
    let t0 = ieee_thread();
    let mut r = Rng(101);
    for p in PLATFORMS {
        for cm in [
            CondMod::Z,
            CondMod::Nz,
            CondMod::G,
            CondMod::Ge,
            CondMod::L,
            CondMod::Le,
        ] {
            let a: [f32; 8] = core::array::from_fn(|_| r.f32());
            let mut bb: [f32; 8] = core::array::from_fn(|_| r.f32());
            bb[0] = a[0];
            let mut t = t0.clone();
            t.set_flag(0, 0xffff_0000);
            t.write_ud8(3, bits8(a));
            t.write_ud8(4, bits8(bb));
            let mut b = Builder::new(p);
            b.cmp(cm, g(2).ud(), g(3), g(4)).unwrap();
            run_to_end(b, &mut t);
            let want: [bool; 8] = core::array::from_fn(|k| {
                let (x, y) = (a[k], bb[k]);
                match cm {
                    CondMod::Z => x == y,
                    CondMod::Nz => x != y,
                    CondMod::G => x > y,
                    CondMod::Ge => x >= y,
                    CondMod::L => x < y,
                    _ => x <= y,
                }
            });
            let flags = want.iter().enumerate().fold(0u32, |m, (k, &w)| m | (w as u32) << k);
            assert_eq!(t.flag(0), 0xffff_0000 | flags, "{p} {cm:?} flags");
            assert_eq!(
                t.read_ud8(2).unwrap(),
                want.map(|w| if w { u32::MAX } else { 0 }),
                "{p} {cm:?} dst"
            );
        }
    }
}

#[test]
fn predication_and_conditional_modifiers_on_results() {
    for p in PLATFORMS {
        let mut t = Thread::new();
        t.write_ud8(3, [5, 0, (-3i32) as u32, 7, 0, 1, 2, (-1i32) as u32]);
        t.write_ud8(2, [100; 8]);
        let mut b = Builder::new(p);
        // Flags from the result: nz.
        b.alu(geneu::Opcode::Mov, g(4).d(), &[g(3).d().into()], Some(CondMod::G))
            .unwrap();
        b.state_mut().predicate = Some(Predicate::normal(0, 0));
        b.mov(g(2).d(), imm_d(1)).unwrap();
        b.state_mut().predicate = Some(Predicate::normal(0, 0).inverted());
        b.mov(g(2).d(), imm_d(-1)).unwrap();
        b.state_mut().predicate = Some(Predicate::normal(0, 0));
        b.sel(g(5).d(), g(3).d(), imm_d(42)).unwrap();
        run_to_end(b, &mut t);
        assert_eq!(t.flag(0) & 0xff, 0b0110_1001, "{p}");
        assert_eq!(t.read_ud8(2).unwrap().map(|x| x as i32), [1, -1, -1, 1, -1, 1, 1, -1]);
        assert_eq!(t.read_ud8(5).unwrap().map(|x| x as i32), [5, 42, 42, 7, 42, 1, 2, 42]);
    }
}

#[test]
fn bit_field_extract_and_insert() {
    let mut r = Rng(111);
    for p in PLATFORMS {
        for _ in 0..10 {
            let w: [u32; 8] = core::array::from_fn(|_| r.u32() % 33);
            let o: [u32; 8] = core::array::from_fn(|_| r.u32() % 32);
            let v: [u32; 8] = core::array::from_fn(|_| r.u32());
            let mut t = Thread::new();
            t.write_ud8(3, w);
            t.write_ud8(4, o);
            t.write_ud8(5, v);
            let mut b = Builder::new(p);
            b.state_mut().access_mode = geneu::AccessMode::Align16;
            b.bfe(g(2).ud(), g(3).ud(), g(4).ud(), g(5).ud()).unwrap();
            b.bfe(g(6).d(), g(3).d(), g(4).d(), g(5).d()).unwrap();
            b.bfi2(g(7).ud(), g(3).ud(), g(4).ud(), g(5).ud()).unwrap();
            run_to_end(b, &mut t);
            for k in 0..8 {
                let (wk, ok) = (w[k] & 31, o[k]);
                // A reference written from the definition: bits ok..ok+wk of v (to bit 31).
                let n = wk.min(32 - ok);
                let field = if wk == 0 {
                    0
                } else {
                    ((v[k] as u64 >> ok) & ((1u64 << n) - 1)) as u32
                };
                let sfield = if wk == 0 || n == 0 {
                    0
                } else {
                    ((field << (32 - n)) as i32 >> (32 - n)) as u32
                };
                assert_eq!(
                    t.read_ud8(2).unwrap()[k],
                    field,
                    "{p} bfe ud {k} w {wk} o {ok} v {:#x}",
                    v[k]
                );
                assert_eq!(
                    t.read_ud8(6).unwrap()[k],
                    sfield,
                    "{p} bfe d {k} w {wk} o {ok} v {:#x}",
                    v[k]
                );
                assert_eq!(
                    t.read_ud8(7).unwrap()[k],
                    (w[k] & o[k]) | (!w[k] & v[k]),
                    "{p} bfi2 {k}"
                );
            }
        }
    }
}

#[test]
fn dot_products_in_align16() {
    let mut t = ieee_thread();
    let a = [1.0f32, 2.0, 3.0, 4.0, -1.0, 0.5, 2.0, 8.0];
    let c = [0.5f32, 0.25, 2.0, 1.0, 4.0, 2.0, -1.0, 0.5];
    t.write_ud8(3, bits8(a));
    t.write_ud8(4, bits8(c));
    let mut b = Builder::new(Platform::Gen75);
    b.state_mut().access_mode = geneu::AccessMode::Align16;
    b.dp4(g(2), g(3), g(4)).unwrap();
    b.dp3(g(5), g(3), g(4)).unwrap();
    b.dph(g(6), g(3), g(4)).unwrap();
    b.dp2(g(7), g(3), g(4)).unwrap();
    run_to_end(b, &mut t);
    let dp = |n: usize, h: bool, grp: usize| -> f32 {
        let mut s = 0.0;
        for j in 0..n {
            s += a[grp * 4 + j] * c[grp * 4 + j];
        }
        if h {
            s += c[grp * 4 + 3];
        }
        s
    };
    for (reg, n, h) in [(2u8, 4, false), (5, 3, false), (6, 3, true), (7, 2, false)] {
        let got = t.read_ud8(reg).unwrap();
        for k in 0..8 {
            assert_eq!(f32::from_bits(got[k]), dp(n, h, k / 4), "dp g{reg} {k}");
        }
    }
    let _ = (imm_f(0.0), imm_ud(0), null());
}

#[test]
fn transcendental_math_matches_rust_to_f32() {
    let t0 = ieee_thread();
    for p in PLATFORMS {
        float2(
            p,
            &t0,
            |b| b.math(MathFunction::Log, g(2), g(3), None),
            |a, _| (f64::from(a).log2()) as f32,
            121,
        );
        float2(
            p,
            &t0,
            |b| b.math(MathFunction::Exp, g(2), g(3), None),
            |a, _| (f64::from(a).exp2()) as f32,
            122,
        );
        float2(
            p,
            &t0,
            |b| b.math(MathFunction::Sin, g(2), g(3), None),
            |a, _| (f64::from(a).sin()) as f32,
            123,
        );
        float2(
            p,
            &t0,
            |b| b.math(MathFunction::Pow, g(2), g(3), Some(g(4).into())),
            |a, b| (f64::from(a).powf(f64::from(b))) as f32,
            124,
        );
    }
}

/// A compressed SIMD16 add: channels 0-7 read g2 and g4 and write g10,
/// channels 8-15 the registers after them (g3, g5, g11), as the PRM's
/// compressed-instruction rule and Rust's wrapping addition say.
#[test]
fn simd16_on_two_registers() {
    for p in PLATFORMS {
        let mut t = Thread::new();
        let a: Vec<u32> = (0..16).map(|k| 0x1000_0000u32.wrapping_mul(k) ^ 0x55).collect();
        let b: Vec<u32> = (0..16).map(|k| u32::MAX - 3 * k).collect();
        for (reg, v) in [(2, &a), (4, &b)] {
            for half in 0..2 {
                let mut d = [0u32; 8];
                d.copy_from_slice(&v[half * 8..half * 8 + 8]);
                t.write_ud8(reg + half as u8, d);
            }
        }
        let mut bld = Builder::new(p);
        bld.set_state(State::default().simd(ExecSize::S16));
        bld.add(g(10).ud(), g(2).ud(), g(4).ud()).unwrap();
        run_to_end(bld, &mut t);
        let got: Vec<u32> = [10u8, 11].iter().flat_map(|&r| t.read_ud8(r).unwrap()).collect();
        let want: Vec<u32> = a.iter().zip(&b).map(|(x, y)| x.wrapping_add(*y)).collect();
        assert_eq!(got, want, "{p}");
    }
}

#[test]
fn csel_lrp_line_and_plane() {
    let mut t = ieee_thread();
    let a = [1.0f32, -2.0, 0.0, -0.0, 3.5, f32::NAN, -1.0, 8.0];
    let c = [0.5f32, 0.25, 2.0, 1.0, 4.0, 2.0, -1.0, 0.5];
    let w = [0.0f32, 0.25, 0.5, 0.75, 1.0, -1.0, 2.0, 0.125];
    t.write_ud8(3, bits8(a));
    t.write_ud8(4, bits8(c));
    t.write_ud8(5, bits8(w));
    let mut b = Builder::new(Platform::Gen8);
    b.set_state(State::default().align16());
    // csel.g: c where w > 0, else a.
    b.csel(CondMod::G, g(2), g(4), g(3), g(5)).unwrap();
    // lrp: w * c + (1 - w) * a.
    b.lrp(g(6), g(5), g(4), g(3)).unwrap();
    run_to_end(b, &mut t);
    let got = t.read_ud8(2).unwrap();
    for k in 0..8 {
        let want = if w[k] > 0.0 { c[k] } else { a[k] };
        assert!(same_f32(got[k], want), "csel {k}");
    }
    let got = t.read_ud8(6).unwrap();
    for k in 0..8 {
        let want = (f64::from(w[k]) * f64::from(c[k]) + (1.0 - f64::from(w[k])) * f64::from(a[k])) as f32;
        assert!(same_f32(got[k], want), "lrp {k}: {} {}", f32::from_bits(got[k]), want);
    }
    // line and pln: plane coefficients in g3.0, .1 and .3 (p, q, -, r):
    // line = p*x + r, pln = p*x + q*y + r, with x in g4 and y in g5.
    let mut t = ieee_thread();
    let pl = [2.0f32, -3.0, 99.0, 0.5, 0.0, 0.0, 0.0, 0.0];
    let x = [0.0f32, 1.0, 2.0, 3.0, -1.0, 0.5, 10.0, -7.25];
    let y = [1.0f32, 1.0, -2.0, 0.0, 4.0, 0.25, 3.0, 1.5];
    t.write_ud8(3, bits8(pl));
    t.write_ud8(4, bits8(x));
    t.write_ud8(5, bits8(y));
    let mut b = Builder::new(Platform::Gen75);
    b.line(g(6), g(3).vec1(), g(4)).unwrap();
    b.pln(g(7), g(3).vec1(), g(4)).unwrap();
    run_to_end(b, &mut t);
    for k in 0..8 {
        assert_eq!(f32::from_bits(t.read_ud8(6).unwrap()[k]), 2.0 * x[k] + 0.5, "line {k}");
        assert_eq!(
            f32::from_bits(t.read_ud8(7).unwrap()[k]),
            2.0 * x[k] - 3.0 * y[k] + 0.5,
            "pln {k}"
        );
    }
}

#[test]
fn quadword_arithmetic_on_gen8() {
    let mut r = Rng(131);
    for _ in 0..10 {
        let a: [u64; 4] = core::array::from_fn(|_| r.next());
        let c: [u64; 4] = core::array::from_fn(|_| r.next());
        let mut t = Thread::new();
        for k in 0..4u32 {
            t.write_ud(3, 8 * k, a[k as usize] as u32);
            t.write_ud(3, 8 * k + 4, (a[k as usize] >> 32) as u32);
            t.write_ud(4, 8 * k, c[k as usize] as u32);
            t.write_ud(4, 8 * k + 4, (c[k as usize] >> 32) as u32);
        }
        let mut b = Builder::new(Platform::Gen8);
        b.set_state(State::default().simd(ExecSize::S4));
        b.add(
            g(2).q(),
            g(3).q().stride(4, 4, 1).unwrap(),
            g(4).q().stride(4, 4, 1).unwrap(),
        )
        .unwrap();
        run_to_end(b, &mut t);
        for k in 0..4u32 {
            let got = u64::from(t.read_ud(2, 8 * k).unwrap()) | u64::from(t.read_ud(2, 8 * k + 4).unwrap()) << 32;
            assert_eq!(got, a[k as usize].wrapping_add(c[k as usize]), "{k}");
        }
    }
}

#[test]
fn unordered_compares_and_nan_aware_cmpn() {
    let t0 = ieee_thread();
    for p in PLATFORMS {
        let a = [1.0f32, f32::NAN, 2.0, f32::NAN, 0.0, -1.0, f32::INFINITY, 3.0];
        let c = [f32::NAN, 1.0, 2.0, f32::NAN, -0.0, 5.0, f32::INFINITY, 1.0];
        let mut t = t0.clone();
        t.write_ud8(3, bits8(a));
        t.write_ud8(4, bits8(c));
        let mut b = Builder::new(p);
        b.cmp(CondMod::U, g(2).ud(), g(3), g(4)).unwrap();
        b.state_mut().flag = geneu::FlagReg { nr: 1, subnr: 0 };
        // cmpn.l: a NaN src1 compares true, a NaN src0 (alone) false.
        b.cmpn(CondMod::L, g(5).ud(), g(3), g(4)).unwrap();
        run_to_end(b, &mut t);
        let unordered: [u32; 8] = core::array::from_fn(|k| u32::from(a[k].is_nan() || c[k].is_nan()));
        assert_eq!(t.read_ud8(2).unwrap(), unordered.map(|u| u * u32::MAX), "{p} .u");
        assert_eq!(
            t.flag(0) & 0xff,
            unordered.iter().enumerate().fold(0, |m, (k, &u)| m | u << k),
            "{p}"
        );
        let lt: [u32; 8] = core::array::from_fn(|k| {
            u32::from(if c[k].is_nan() {
                true
            } else if a[k].is_nan() {
                false
            } else {
                a[k] < c[k]
            })
        });
        assert_eq!(t.read_ud8(5).unwrap(), lt.map(|u| u * u32::MAX), "{p} cmpn");
    }
}

/// SAD2 and SADA2 against the PRM's pseudo-code written out here: each
/// even channel n gets |a[n] - b[n]| + |a[n+1] - b[n+1]| (plus acc0's
/// channel n for SADA2), its odd neighbour is left as it was.
#[test]
fn sad2_and_sada2_sum_pairs_of_byte_differences() {
    for p in PLATFORMS {
        let mut r = Rng(141);
        for round in 0..10 {
            let a: [u8; 8] = core::array::from_fn(|_| r.next() as u8);
            let c: [u8; 8] = core::array::from_fn(|_| r.next() as u8);
            let acc0: [i16; 8] = core::array::from_fn(|_| r.next() as i16 >> 4);
            let signed = round % 2 == 1;
            let mut t = Thread::new();
            // The bytes of g3 and g4 are the sources (one per channel), g5's
            // words the accumulator's start, g2 and g6 hold a marker the odd
            // channels keep.
            let pack = |v: [u8; 8]| -> [u32; 8] {
                core::array::from_fn(|k| {
                    if k < 2 {
                        u32::from_le_bytes(v[4 * k..4 * k + 4].try_into().unwrap())
                    } else {
                        0
                    }
                })
            };
            t.write_ud8(3, pack(a));
            t.write_ud8(4, pack(c));
            let words: [u32; 8] = core::array::from_fn(|k| {
                if k < 4 {
                    u32::from(acc0[2 * k] as u16) | u32::from(acc0[2 * k + 1] as u16) << 16
                } else {
                    0
                }
            });
            t.write_ud8(5, words);
            t.write_ud8(2, [0xbeef_beef; 8]);
            t.write_ud8(6, [0xbeef_beef; 8]);
            let mut b = Builder::new(p);
            if signed {
                b.sad2(g(2).w(), g(3).b(), g(4).b()).unwrap();
                b.mov(acc(0).w(), g(5).w()).unwrap();
                b.sada2(g(6).w(), g(3).b(), g(4).b()).unwrap();
            } else {
                b.sad2(g(2).uw(), g(3).ub(), g(4).ub()).unwrap();
                b.mov(acc(0).w(), g(5).w()).unwrap();
                b.sada2(g(6).uw(), g(3).ub(), g(4).ub()).unwrap();
            }
            run_to_end(b, &mut t);
            let val = |x: u8| if signed { i32::from(x as i8) } else { i32::from(x) };
            let word = |reg: u8, k: usize| -> u16 {
                let d = t.read_ud(reg, (2 * k as u32) & !3).unwrap();
                (d >> (16 * (k % 2))) as u16
            };
            for n in 0..8 {
                if n % 2 == 1 {
                    assert_eq!(word(2, n), 0xbeef, "{p} sad2 odd channel {n} is not written");
                    assert_eq!(word(6, n), 0xbeef, "{p} sada2 odd channel {n} is not written");
                    continue;
                }
                let sad = (val(a[n]) - val(c[n])).abs() + (val(a[n + 1]) - val(c[n + 1])).abs();
                assert_eq!(word(2, n), sad as u16, "{p} sad2 channel {n}: {a:?} {c:?}");
                let sada = i32::from(acc0[n]) + sad;
                assert_eq!(word(6, n), sada as u16, "{p} sada2 channel {n}");
            }
        }
    }
}

/// The MATH functions no other test runs: RSQ and COS (the correctly
/// rounded f32 of Rust's f64 results, as the module documents), and INT
/// DIV's quotient-and-remainder form, which writes the quotient to the
/// destination and the remainder to the register after it (PRM Vol 2a,
/// MATH: "INT DIV both").
#[test]
fn rsq_cos_and_int_div_both() {
    let t0 = ieee_thread();
    for p in PLATFORMS {
        float2(
            p,
            &t0,
            |b| b.math(MathFunction::Rsq, g(2), g(3), None),
            |a, _| (1.0 / f64::from(a).sqrt()) as f32,
            151,
        );
        float2(
            p,
            &t0,
            |b| b.math(MathFunction::Cos, g(2), g(3), None),
            |a, _| f64::from(a).cos() as f32,
            152,
        );
        let mut r = Rng(153);
        for _ in 0..20 {
            let a: [u32; 8] = core::array::from_fn(|_| r.u32());
            let c: [u32; 8] = core::array::from_fn(|_| r.u32() | 1);
            let mut t = Thread::new();
            t.write_ud8(3, a);
            t.write_ud8(4, c);
            let mut b = Builder::new(p);
            b.math(
                MathFunction::IntDivQuotientAndRemainder,
                g(6).ud(),
                g(3).ud(),
                Some(g(4).ud().into()),
            )
            .unwrap();
            run_to_end(b, &mut t);
            let q: [u32; 8] = core::array::from_fn(|k| a[k] / c[k]);
            let m: [u32; 8] = core::array::from_fn(|k| a[k] % c[k]);
            assert_eq!(t.read_ud8(6).unwrap(), q, "{p} quotient");
            assert_eq!(t.read_ud8(7).unwrap(), m, "{p} remainder");
        }
    }
}

/// Haswell's DIM writes its 64-bit immediate to every enabled DF channel
/// (PRM Vol 2a, DIM: the immediate is a double, "F" in the syntax).
#[test]
fn dim_moves_its_double_immediate_on_haswell() {
    for x in [2.0f64, -0.1, f64::MAX, 1.0e-310] {
        let src = format!("dim(4) g2<1>DF 0x{:016x}F {{ align1 1Q }};", x.to_bits());
        let words = geneu::text::assemble_words(Platform::Gen75, &src).unwrap();
        let bytes: Vec<u8> = words.iter().flatten().copied().collect();
        let mut t = Thread::new();
        t.set_cr0(cr0::DP_DENORM_RETAIN);
        run_traced(Platform::Gen75, &bytes, &mut t).unwrap();
        for k in 0..4u32 {
            let got = u64::from(t.read_ud(2, 8 * k).unwrap()) | u64::from(t.read_ud(2, 8 * k + 4).unwrap()) << 32;
            assert_eq!(got, x.to_bits(), "channel {k} of dim {x}");
        }
    }
}

/// Writes four u64 at GRF `reg`.
fn write_u64x4(t: &mut Thread, reg: u8, v: [u64; 4]) {
    for k in 0..4u32 {
        t.write_ud(reg, 8 * k, v[k as usize] as u32);
        t.write_ud(reg, 8 * k + 4, (v[k as usize] >> 32) as u32);
    }
}

fn read_u64x4(t: &Thread, reg: u8) -> [u64; 4] {
    core::array::from_fn(|k| {
        let k = k as u32;
        u64::from(t.read_ud(reg, 8 * k).unwrap()) | u64::from(t.read_ud(reg, 8 * k + 4).unwrap()) << 32
    })
}

#[test]
fn unsigned_quadwords_compare_select_and_convert_as_unsigned() {
    // UQ values from 2^63 up are unsigned: compares, min/max, (abs) and
    // conversions to float agree with Rust's u64 (regression: they were
    // held and compared as i64, so 2^63 < 1).
    let p = Platform::Gen8;
    let mut r = Rng(177);
    let mut rows = vec![([1u64 << 63, u64::MAX, 1, 5], [1u64, 1 << 63, u64::MAX, 5])];
    for _ in 0..8 {
        rows.push((core::array::from_fn(|_| r.next()), core::array::from_fn(|_| r.next())));
    }
    for (a, c) in rows {
        let vec4 = |n: u8| g(n).uq().stride(4, 4, 1).unwrap();
        for cm in [
            CondMod::Z,
            CondMod::Nz,
            CondMod::G,
            CondMod::Ge,
            CondMod::L,
            CondMod::Le,
        ] {
            let mut t = Thread::new();
            write_u64x4(&mut t, 3, a);
            write_u64x4(&mut t, 4, c);
            let mut b = Builder::new(p);
            b.set_state(State::default().simd(ExecSize::S4));
            b.cmp(cm, null().uq(), vec4(3), vec4(4)).unwrap();
            b.sel_cond(cm, g(5).uq(), vec4(3), vec4(4)).unwrap();
            run_to_end(b, &mut t);
            let want: [bool; 4] = core::array::from_fn(|k| {
                let (x, y) = (a[k], c[k]);
                match cm {
                    CondMod::Z => x == y,
                    CondMod::Nz => x != y,
                    CondMod::G => x > y,
                    CondMod::Ge => x >= y,
                    CondMod::L => x < y,
                    _ => x <= y,
                }
            });
            let flags = want.iter().enumerate().fold(0u32, |m, (k, &w)| m | (w as u32) << k);
            assert_eq!(t.flag(0) & 0xf, flags, "cmp.{cm:?} {a:x?} {c:x?}");
            // SEL with a condition: src0 where it holds, else src1.
            let sel: [u64; 4] = core::array::from_fn(|k| if want[k] { a[k] } else { c[k] });
            assert_eq!(read_u64x4(&t, 5), sel, "sel.{cm:?} {a:x?} {c:x?}");
        }
        let mut t = Thread::new();
        write_u64x4(&mut t, 3, a);
        write_u64x4(&mut t, 4, c);
        let mut b = Builder::new(p);
        b.set_state(State::default().simd(ExecSize::S4));
        // (abs) of an unsigned value is the value; mov.g on a UQ result.
        b.alu(geneu::Opcode::Mov, g(6).uq(), &[vec4(3).abs().into()], Some(CondMod::G))
            .unwrap();
        // UQ to DF and to F: round to nearest, as Rust's `as`.
        b.mov(g(7).df(), vec4(3)).unwrap();
        b.mov(g(8).f().stride(8, 4, 2).unwrap(), vec4(3)).unwrap();
        run_to_end(b, &mut t);
        assert_eq!(read_u64x4(&t, 6), a, "(abs) {a:x?}");
        let g0 = a.iter().enumerate().fold(0u32, |m, (k, &x)| m | ((x > 0) as u32) << k);
        assert_eq!(t.flag(0) & 0xf, g0, "mov.g {a:x?}");
        assert_eq!(read_u64x4(&t, 7), a.map(|x| (x as f64).to_bits()), "DF {a:x?}");
        let f: [u32; 4] = core::array::from_fn(|k| t.read_ud(8, 8 * k as u32).unwrap());
        assert_eq!(f, a.map(|x| (x as f32).to_bits()), "F {a:x?}");
    }
}
