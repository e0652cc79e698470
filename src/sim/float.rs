//! Floating-point helpers that `core` lacks: rounding to an integer,
//! directed rounding from f64 to f32, denormal flushing, and the
//! transcendental functions (from `std`; without it they are not
//! modelled).

/// A rounding mode: `cr0`'s bits 5:4.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Rnd {
    /// Round to nearest, ties to even.
    Even,
    /// Toward +inf.
    Up,
    /// Toward -inf.
    Down,
    /// Toward zero.
    Zero,
}

impl Rnd {
    /// The mode of `cr0.0`'s field.
    pub(crate) fn of_cr0(cr0: u32) -> Rnd {
        use crate::isa::cr0::{RND_MODE_MASK, RND_MODE_SHIFT};
        match (cr0 >> RND_MODE_SHIFT) & RND_MODE_MASK {
            0 => Rnd::Even,
            1 => Rnd::Up,
            2 => Rnd::Down,
            _ => Rnd::Zero,
        }
    }
}

/// `x` rounded to an integral value by `mode` (exact; NaN and infinities
/// as they are).
pub(crate) fn round_int_f64(x: f64, mode: Rnd) -> f64 {
    const TWO52: f64 = 4503599627370496.0;
    if x.is_nan() || x.is_infinite() || x.abs() >= TWO52 {
        return x;
    }
    // Truncate through i64 (|x| < 2^52 fits).
    let t = x as i64 as f64;
    let t = if t == 0.0 { 0.0f64.copysign_like(x) } else { t };
    let frac = x - t; // exact
    let r = match mode {
        Rnd::Zero => t,
        Rnd::Down => {
            if frac < 0.0 {
                t - 1.0
            } else {
                t
            }
        }
        Rnd::Up => {
            if frac > 0.0 {
                t + 1.0
            } else {
                t
            }
        }
        Rnd::Even => {
            let a = frac.abs();
            if a > 0.5 || (a == 0.5 && (t as i64) % 2 != 0) {
                t + if frac > 0.0 { 1.0 } else { -1.0 }
            } else {
                t
            }
        }
    };
    // Keep the sign of zero (rndd(-0.3) is -1, rndu(-0.3) is -0).
    if r == 0.0 {
        0.0f64.copysign_like(x)
    } else {
        r
    }
}

/// `copysign` without `std`.
trait CopySignLike {
    fn copysign_like(self, sign: f64) -> f64;
}

impl CopySignLike for f64 {
    fn copysign_like(self, sign: f64) -> f64 {
        f64::from_bits(self.to_bits() & !(1 << 63) | sign.to_bits() & (1 << 63))
    }
}

/// `x` rounded to f32 by `mode`, where `x` is the result rounded to
/// nearest in f64 and `err` the exact result minus `x` (0 when `x` is
/// exact; only its sign matters).
pub(crate) fn f64_to_f32(x: f64, err: f64, mode: Rnd) -> f32 {
    let n = x as f32; // round to nearest even
    if x.is_nan() {
        return n;
    }
    let nd = f64::from(n);
    if mode == Rnd::Even {
        // x itself was rounded: where it is exactly halfway between two
        // f32 values, the exact value decides (no double rounding).
        if err != 0.0 && nd != x {
            let other = if x > nd { next_up(n) } else { next_down(n) };
            if (f64::from(other) - x).abs() == (x - nd).abs() && (err > 0.0) == (f64::from(other) > nd) {
                return other;
            }
        }
        return n;
    }
    // The sign of (exact - n): x and n differ by at least an f64 ulp when
    // they differ, more than the error of x.
    let above = if nd == x { err > 0.0 } else { x > nd };
    let below = if nd == x { err < 0.0 } else { x < nd };
    let positive = x > 0.0 || (x == 0.0 && err > 0.0);
    match mode {
        Rnd::Up if above => next_up(n),
        Rnd::Down if below => next_down(n),
        Rnd::Zero if positive && below => next_down(n),
        Rnd::Zero if !positive && above => next_up(n),
        _ => n,
    }
}

/// The next f32 toward +inf.
pub(crate) fn next_up(v: f32) -> f32 {
    if v.is_nan() || v == f32::INFINITY {
        return v;
    }
    if v == 0.0 {
        return f32::from_bits(1);
    }
    let b = v.to_bits();
    f32::from_bits(if v > 0.0 { b + 1 } else { b - 1 })
}

/// The next f32 toward -inf.
pub(crate) fn next_down(v: f32) -> f32 {
    -next_up(-v)
}

/// `a + b` in f64 and the sign of its rounding error (Knuth's TwoSum).
pub(crate) fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    if !s.is_finite() {
        return (s, 0.0);
    }
    let bb = s - a;
    let e = (a - (s - bb)) + (b - bb);
    (s, e)
}

/// Flushes a single-precision denormal to zero of its sign.
#[inline]
pub(crate) fn flush32(x: f32) -> f32 {
    // Exponent zero: a denormal, or a zero, which stays itself (a select,
    // not a branch: the simulator flushes whole registers).
    let b = x.to_bits();
    f32::from_bits(if b & 0x7f80_0000 == 0 { b & (1 << 31) } else { b })
}

/// Flushes a double-precision denormal to zero of its sign.
#[inline]
pub(crate) fn flush64(x: f64) -> f64 {
    if x.is_subnormal() {
        f64::from_bits(x.to_bits() & (1 << 63))
    } else {
        x
    }
}

/// The transcendental and root functions of `math`, in f64 (results are
/// rounded to the operand's precision by the caller). `None` without
/// `std`.
#[cfg(feature = "std")]
pub(crate) mod tr {
    pub(crate) fn sqrt(x: f64) -> Option<f64> {
        Some(x.sqrt())
    }
    pub(crate) fn log2(x: f64) -> Option<f64> {
        Some(x.log2())
    }
    pub(crate) fn exp2(x: f64) -> Option<f64> {
        Some(x.exp2())
    }
    pub(crate) fn sin(x: f64) -> Option<f64> {
        Some(x.sin())
    }
    pub(crate) fn cos(x: f64) -> Option<f64> {
        Some(x.cos())
    }
    pub(crate) fn pow(x: f64, y: f64) -> Option<f64> {
        Some(x.powf(y))
    }
    pub(crate) fn fma(a: f64, b: f64, c: f64) -> f64 {
        a.mul_add(b, c)
    }
}

/// Without `std`: no transcendental functions; `fma` is not fused.
#[cfg(not(feature = "std"))]
pub(crate) mod tr {
    pub(crate) fn sqrt(_: f64) -> Option<f64> {
        None
    }
    pub(crate) fn log2(_: f64) -> Option<f64> {
        None
    }
    pub(crate) fn exp2(_: f64) -> Option<f64> {
        None
    }
    pub(crate) fn sin(_: f64) -> Option<f64> {
        None
    }
    pub(crate) fn cos(_: f64) -> Option<f64> {
        None
    }
    pub(crate) fn pow(_: f64, _: f64) -> Option<f64> {
        None
    }
    pub(crate) fn fma(a: f64, b: f64, c: f64) -> f64 {
        a * b + c
    }
}
