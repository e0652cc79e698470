//! Gen8's math macros: `madm` and MATH `invm` and `rsqrtm`, the building
//! blocks of the IEEE-correct division and square root sequences (IGC's
//! `translateVISAArithmeticDoubleInst`, `translateVISAArithmeticDoubleSQRTInst`
//! and their single-precision siblings).
//!
//! Each operand names a [`MathMacro`] register (`mme0`-`mme7`, IGA's names
//! for acc2-acc9) or `nomme`. The macro sequences keep every intermediate
//! value in the GRF *and* in such a register, which widens its exponent
//! (IGA's dependency analysis: "2 bits of exponent each"), so that an
//! intermediate of a quotient of normal or denormal operands never
//! overflows, underflows or loses bits to denormalization; the last
//! `madm` of a sequence names `nomme` and rounds once, in `cr0`'s mode, to
//! the destination type.
//!
//! # The model
//!
//! - A value here is an [`MmeValue`]: a significand of the operand type's
//!   precision (53 bits for DF, 24 for F) and an unbounded exponent. The
//!   hardware's extension is a few bits wide; how wide, and how its bits
//!   and the GRF's combine, is not in the documents the simulator
//!   follows, so every intermediate the sequences produce is exact here
//!   where the hardware's is, and wider ranges than the hardware's are
//!   possible.
//! - `madm dst src0 src1 src2` is `src0 + src1 * src2`, fused: computed
//!   exactly, rounded once in `cr0`'s rounding mode (the sequences set
//!   round-to-nearest-even for every step but the last). To an `mmeN`
//!   destination it rounds to the precision only (no overflow, underflow
//!   or denormal); the GRF receives that value as the type holds it
//!   (rounded to nearest even into its range) and `mmeN` the whole value.
//!   To `nomme` it rounds to the type, denormals and overflow included,
//!   and flushes a denormal result to zero unless `cr0` keeps denormals.
//! - A source `rN.mmeK` reads `mmeK`'s value of its channel when the GRF
//!   element still holds the bits that value was written with, else the
//!   GRF element as the type reads it (the combination of the two for a
//!   changed GRF is not documented). A source `.nomme` reads the GRF.
//! - `invm src0 src1` (dividend, divisor) and `rsqrtm src0`: when the
//!   operands are ones the macro cannot refine — for `invm` a NaN, an
//!   infinity or a zero among them, for `rsqrtm` a NaN, a zero, a negative
//!   number or +infinity — the result is the final IEEE quotient
//!   `src0 / src1` or square root `sqrt(src0)`, and the channel's bit of
//!   the instruction's flag register is set ("early out": IGA's decoder,
//!   "math.inv and math.rsqrtm both implicitly support EO", prints it
//!   `(eo)`; IGC's sequences branch on it, `(-f0.0) if`, and write it as
//!   an `.o` modifier, which MATH has no field for). Otherwise the flag
//!   bit is cleared and the result is an initial
//!   approximation of `1 / src1` or `1 / sqrt(src0)`. The hardware's
//!   approximation (its bits and error) is not documented; the model
//!   gives `1 / src1` correctly rounded to the precision, and `1 /
//!   sqrt(src0)` within an ulp of it. The sequences refine either to the
//!   correctly rounded quotient and square root, which is what the tests
//!   check against Rust's `a / b` and `sqrt`; a program that reads the
//!   approximation itself sees the model's value, not the hardware's.
//! - NaN results are the type's canonical quiet NaN.
//!
//! Not modelled (a [`SimError::Unsupported`]): operand types other than
//! DF and F or mixed, immediates, align1 macros (Gen8 has align16 ones
//! only), a conditional modifier on `madm`, saturation to an `mmeN`
//! destination, AccWrEn, and specifier bits that name no register
//! (9-15).

use super::float::Rnd;
use crate::isa::MAX_CHANNELS as MAX_CH;

/// Math-macro registers (`mme0`-`mme7`).
pub(crate) const MME_REGS: usize = 8;

/// A floating-point format: significand bits, the exponent of the least
/// significant bit of its smallest denormal, and the power of two that
/// overflows.
#[derive(Clone, Copy, Debug)]
pub(super) struct Fmt {
    pub(super) prec: u32,
    emin: i32,
    emax: i32,
}

pub(super) const F64: Fmt = Fmt {
    prec: 53,
    emin: -1074,
    emax: 1024,
};

pub(super) const F32: Fmt = Fmt {
    prec: 24,
    emin: -149,
    emax: 128,
};

/// One channel of a math-macro register (`mme0`-`mme7`) as the model
/// keeps it ([`super::Thread::mme`]): NaN, a signed infinity or zero, or
/// `sig * 2^exp` with `sig` nonzero and below `2^53` (DF) or `2^24` (F),
/// and an exponent wider than the type's (the hardware's extension is a
/// few bits; the model's is unbounded, see the module's notes).
///
/// It prints as `nan`, `inf`, `-inf`, `0`, `-0` or the exact
/// `[-]0xSIGp±EXP` (`0x18p-4` is 1.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum MmeValue {
    /// Not a number.
    Nan,
    /// An infinity, negative when `true`.
    Inf(bool),
    /// A zero, negative when `true`.
    Zero(bool),
    /// `(-1)^neg * sig * 2^exp`.
    Fin {
        /// Negative.
        neg: bool,
        /// The significand, nonzero, below `2^53`.
        sig: u64,
        /// The power of two of its least significant bit.
        exp: i32,
    },
}

impl core::fmt::Display for MmeValue {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let sign = |neg: bool| if neg { "-" } else { "" };
        match *self {
            MmeValue::Nan => f.write_str("nan"),
            MmeValue::Inf(neg) => write!(f, "{}inf", sign(neg)),
            MmeValue::Zero(neg) => write!(f, "{}0", sign(neg)),
            MmeValue::Fin { neg, sig, exp } => write!(f, "{}{sig:#x}p{exp:+}", sign(neg)),
        }
    }
}

/// Bytes of one channel of a math-macro register in a trace
/// ([`super::Arf::Mme`]): see [`MmeSlot::image`].
pub(crate) const MME_IMAGE_BYTES: usize = 16;

impl Default for MmeValue {
    fn default() -> MmeValue {
        MmeValue::Zero(false)
    }
}

/// One channel of a math-macro register: the value last written to it
/// and the GRF bits written beside it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) struct MmeSlot {
    pub value: MmeValue,
    pub image: u64,
    pub valid: bool,
}

impl MmeSlot {
    /// The slot as a trace shows it ([`super::Arf::Mme`]): bytes 0-7 the
    /// significand and 8-11 the exponent (little-endian; zero unless
    /// finite), 12 the class (0 zero, 1 finite, 2 infinity, 3 NaN), 13
    /// the sign, 14 one once the slot is written, 15 zero.
    pub(crate) fn image(&self) -> [u8; MME_IMAGE_BYTES] {
        let (class, neg, sig, exp) = match self.value {
            MmeValue::Zero(neg) => (0, neg, 0, 0),
            MmeValue::Fin { neg, sig, exp } => (1, neg, sig, exp),
            MmeValue::Inf(neg) => (2, neg, 0, 0),
            MmeValue::Nan => (3, false, 0, 0),
        };
        let mut b = [0; MME_IMAGE_BYTES];
        b[..8].copy_from_slice(&sig.to_le_bytes());
        b[8..12].copy_from_slice(&exp.to_le_bytes());
        b[12] = class;
        b[13] = u8::from(neg);
        b[14] = u8::from(self.valid);
        b
    }
}

/// The math-macro registers of a thread, per channel.
pub(crate) type MmeFile = [[MmeSlot; MAX_CH]; MME_REGS];

impl MmeValue {
    pub(super) fn neg(self) -> MmeValue {
        match self {
            MmeValue::Nan => MmeValue::Nan,
            MmeValue::Inf(s) => MmeValue::Inf(!s),
            MmeValue::Zero(s) => MmeValue::Zero(!s),
            MmeValue::Fin { neg, sig, exp } => MmeValue::Fin { neg: !neg, sig, exp },
        }
    }

    pub(super) fn abs(self) -> MmeValue {
        match self {
            MmeValue::Nan => MmeValue::Nan,
            MmeValue::Inf(_) => MmeValue::Inf(false),
            MmeValue::Zero(_) => MmeValue::Zero(false),
            MmeValue::Fin { sig, exp, .. } => MmeValue::Fin { neg: false, sig, exp },
        }
    }

    fn sign(self) -> bool {
        match self {
            MmeValue::Nan => false,
            MmeValue::Inf(s) | MmeValue::Zero(s) => s,
            MmeValue::Fin { neg, .. } => neg,
        }
    }

    /// The value of IEEE bits of format `f` (a denormal flushed to zero
    /// when `flush`).
    pub(super) fn from_bits(bits: u64, f: Fmt, flush: bool) -> MmeValue {
        let mbits = f.prec - 1;
        let ebits = if f.prec == F64.prec { 11 } else { 8 };
        let bias = (1i32 << (ebits - 1)) - 1;
        let neg = bits >> (mbits + ebits) & 1 != 0;
        let e = (bits >> mbits) & ((1 << ebits) - 1);
        let m = bits & ((1 << mbits) - 1);
        if e == (1 << ebits) - 1 {
            return if m == 0 { MmeValue::Inf(neg) } else { MmeValue::Nan };
        }
        if e == 0 {
            if m == 0 || flush {
                return MmeValue::Zero(neg);
            }
            return MmeValue::Fin {
                neg,
                sig: m,
                exp: 1 - bias - mbits as i32,
            };
        }
        MmeValue::Fin {
            neg,
            sig: m | 1 << mbits,
            exp: e as i32 - bias - mbits as i32,
        }
    }

    /// The IEEE bits of format `f` of a value that format holds (one
    /// [`round`] gave with `bounded`).
    pub(super) fn to_bits(self, f: Fmt) -> u64 {
        let mbits = f.prec - 1;
        let ebits = if f.prec == F64.prec { 11 } else { 8 };
        let bias = (1i32 << (ebits - 1)) - 1;
        let sign = |neg: bool| u64::from(neg) << (mbits + ebits);
        let inf = ((1u64 << ebits) - 1) << mbits;
        match self {
            MmeValue::Nan => inf | 1 << (mbits - 1),
            MmeValue::Inf(neg) => sign(neg) | inf,
            MmeValue::Zero(neg) => sign(neg),
            MmeValue::Fin { neg, mut sig, mut exp } => {
                while sig < 1 << mbits && exp > f.emin {
                    sig <<= 1;
                    exp -= 1;
                }
                if sig < 1 << mbits {
                    // A denormal (exp is emin).
                    sign(neg) | sig
                } else {
                    let biased = (exp + mbits as i32 + bias) as u64;
                    sign(neg) | biased << mbits | (sig & ((1 << mbits) - 1))
                }
            }
        }
    }
}

/// Bits of `x` (0 for 0).
pub(super) fn bit_len(x: u128) -> i32 {
    128 - x.leading_zeros() as i32
}

/// `(-1)^neg * mag * 2^exp` rounded to `f`'s precision by `rnd`; with
/// `bounded`, to the format itself (denormals and overflow), else with an
/// unbounded exponent.
fn round(neg: bool, mag: u128, exp: i32, f: Fmt, bounded: bool, rnd: Rnd) -> MmeValue {
    if mag == 0 {
        return MmeValue::Zero(neg);
    }
    let prec = f.prec as i32;
    let mut lsb = exp + bit_len(mag) - prec;
    if bounded && lsb < f.emin {
        lsb = f.emin;
    }
    let sh = i64::from(lsb) - i64::from(exp);
    // The kept bits and where the dropped ones lie: 0 none, 1 below half
    // an ulp, 2 half, 3 above.
    let (mut q, rest) = if sh <= 0 {
        (mag << (-sh) as u32, 0)
    } else if sh > 128 {
        (0, 1)
    } else {
        let sh = sh as u32;
        let q = if sh == 128 { 0 } else { mag >> sh };
        let rem = if sh == 128 { mag } else { mag & ((1u128 << sh) - 1) };
        let half = 1u128 << (sh - 1);
        let rest = match rem.cmp(&half) {
            _ if rem == 0 => 0,
            core::cmp::Ordering::Less => 1,
            core::cmp::Ordering::Equal => 2,
            core::cmp::Ordering::Greater => 3,
        };
        (q, rest)
    };
    let up = match rnd {
        Rnd::Even => rest == 3 || (rest == 2 && q & 1 == 1),
        Rnd::Up => rest != 0 && !neg,
        Rnd::Down => rest != 0 && neg,
        Rnd::Zero => false,
    };
    if up {
        q += 1;
        if q == 1 << f.prec {
            q >>= 1;
            lsb += 1;
        }
    }
    if q == 0 {
        return MmeValue::Zero(neg);
    }
    if bounded && lsb + bit_len(q) > f.emax {
        let max = MmeValue::Fin {
            neg,
            sig: (1 << f.prec) - 1,
            exp: f.emax - prec,
        };
        return match rnd {
            Rnd::Even => MmeValue::Inf(neg),
            Rnd::Zero => max,
            Rnd::Up if neg => max,
            Rnd::Down if !neg => max,
            _ => MmeValue::Inf(neg),
        };
    }
    MmeValue::Fin {
        neg,
        sig: q as u64,
        exp: lsb,
    }
}

/// `x` rounded to `f` (as [`round`]).
pub(super) fn reround(x: MmeValue, f: Fmt, bounded: bool, rnd: Rnd) -> MmeValue {
    match x {
        MmeValue::Fin { neg, sig, exp } => round(neg, u128::from(sig), exp, f, bounded, rnd),
        x => x,
    }
}

/// `a + b * c`, exact, rounded once to `f` (as [`round`]); IEEE 754's
/// fusedMultiplyAdd on the extended values.
pub(super) fn fma(a: MmeValue, b: MmeValue, c: MmeValue, f: Fmt, bounded: bool, rnd: Rnd) -> MmeValue {
    // The product.
    let prod = match (b, c) {
        (MmeValue::Nan, _) | (_, MmeValue::Nan) => return MmeValue::Nan,
        (MmeValue::Inf(_), MmeValue::Zero(_)) | (MmeValue::Zero(_), MmeValue::Inf(_)) => return MmeValue::Nan,
        (MmeValue::Inf(_), _) | (_, MmeValue::Inf(_)) => MmeValue::Inf(b.sign() ^ c.sign()),
        (MmeValue::Zero(_), _) | (_, MmeValue::Zero(_)) => MmeValue::Zero(b.sign() ^ c.sign()),
        (
            MmeValue::Fin {
                neg: nb,
                sig: sb,
                exp: eb,
            },
            MmeValue::Fin {
                neg: nc,
                sig: sc,
                exp: ec,
            },
        ) => {
            // Held exactly: 53-bit significands make a product below 2^106.
            let pm = u128::from(sb) * u128::from(sc);
            return match a {
                MmeValue::Nan | MmeValue::Inf(_) => a,
                _ => sum(a, nb ^ nc, pm, eb + ec, f, bounded, rnd),
            };
        }
    };
    match (a, prod) {
        (MmeValue::Nan, _) => MmeValue::Nan,
        (MmeValue::Inf(s), MmeValue::Inf(t)) if s != t => MmeValue::Nan,
        (_, MmeValue::Inf(t)) => MmeValue::Inf(t),
        (MmeValue::Inf(s), _) => MmeValue::Inf(s),
        (MmeValue::Zero(s), MmeValue::Zero(t)) => MmeValue::Zero(if s == t { s } else { rnd == Rnd::Down }),
        (a, _) => reround(a, f, bounded, rnd),
    }
}

/// `a + (-1)^pneg * pm * 2^pe`, `a` not NaN or infinite, exact, rounded
/// once.
fn sum(a: MmeValue, pneg: bool, pm: u128, pe: i32, f: Fmt, bounded: bool, rnd: Rnd) -> MmeValue {
    let (aneg, am, ae) = match a {
        MmeValue::Fin { neg, sig, exp } => (neg, u128::from(sig), exp),
        MmeValue::Zero(_) => return round(pneg, pm, pe, f, bounded, rnd),
        // Not reached: the caller handles NaN and infinite addends.
        _ => return MmeValue::Nan,
    };
    // Place the operand whose leading bit is higher with that bit at bit
    // 125 of a 128-bit window; the other shifted into it keeps every bit
    // down to 19 places below the first one's last, and ORs what falls
    // off into the window's lowest bit (a sticky bit, far below any
    // rounding position).
    let top_p = pe + bit_len(pm);
    let top_a = ae + bit_len(am);
    let ((bn, bm, be), (sn, sm, se)) = if top_p >= top_a {
        ((pneg, pm, pe), (aneg, am, ae))
    } else {
        ((aneg, am, ae), (pneg, pm, pe))
    };
    let shift_big = 126 - bit_len(bm);
    let w = be - shift_big;
    let big = bm << shift_big as u32;
    let d = i64::from(se) - i64::from(w);
    let small = if d >= 0 {
        sm << d as u32
    } else if -d >= 128 {
        u128::from(sm != 0)
    } else {
        let s = (-d) as u32;
        (sm >> s) | u128::from(sm & ((1u128 << s) - 1) != 0)
    };
    let (neg, mag) = if bn == sn {
        (bn, big + small)
    } else if big >= small {
        (bn, big - small)
    } else {
        (sn, small - big)
    };
    if mag == 0 {
        // An exact cancellation: +0, or -0 rounding toward -infinity.
        return MmeValue::Zero(rnd == Rnd::Down);
    }
    round(neg, mag, w, f, bounded, rnd)
}

/// `1 / x` of a finite nonzero `x`, correctly rounded to nearest in the
/// precision, exponent unbounded.
fn recip(neg: bool, sig: u64, exp: i32, f: Fmt) -> MmeValue {
    const K: u32 = 120;
    let num = 1u128 << K;
    let d = u128::from(sig);
    let (q, r) = (num / d, num % d);
    round(
        neg,
        q << 1 | u128::from(r != 0),
        -exp - K as i32 - 1,
        f,
        false,
        Rnd::Even,
    )
}

/// `2^k` for `k` in f64's normal range.
fn pow2(k: i32) -> f64 {
    f64::from_bits(((k + 1023) as u64) << 52)
}

/// An approximation of `1 / sqrt(x)` of a positive finite `x`, within an
/// ulp, rounded to the precision, exponent unbounded (Newton's iteration
/// in f64 on the significand, without `std`).
fn rsqrt_approx(sig: u64, exp: i32, f: Fmt) -> MmeValue {
    let len = bit_len(u128::from(sig));
    // x = m * 2^e with m in [1, 4) and e even.
    let mut m = sig as f64 * pow2(1 - len);
    let mut e = exp + len - 1;
    if e % 2 != 0 {
        m *= 2.0;
        e -= 1;
    }
    let mut y = 0.5f64;
    for _ in 0..12 {
        y *= 1.5 - 0.5 * m * y * y;
    }
    match MmeValue::from_bits(y.to_bits(), F64, false) {
        MmeValue::Fin { sig, exp, .. } => round(false, u128::from(sig), exp - e / 2, f, false, Rnd::Even),
        x => x,
    }
}

/// INVM of one channel: (result, whether it is final).
pub(super) fn invm(a: MmeValue, b: MmeValue, f: Fmt) -> (MmeValue, bool) {
    let s = a.sign() ^ b.sign();
    match (a, b) {
        (MmeValue::Nan, _) | (_, MmeValue::Nan) => (MmeValue::Nan, true),
        (MmeValue::Inf(_), MmeValue::Inf(_)) | (MmeValue::Zero(_), MmeValue::Zero(_)) => (MmeValue::Nan, true),
        (MmeValue::Inf(_), _) | (_, MmeValue::Zero(_)) => (MmeValue::Inf(s), true),
        (MmeValue::Zero(_), _) | (_, MmeValue::Inf(_)) => (MmeValue::Zero(s), true),
        (_, MmeValue::Fin { neg, sig, exp }) => (recip(neg, sig, exp, f), false),
    }
}

/// RSQRTM of one channel: (result, whether it is final).
pub(super) fn rsqrtm(x: MmeValue, f: Fmt) -> (MmeValue, bool) {
    match x {
        MmeValue::Nan | MmeValue::Inf(true) | MmeValue::Fin { neg: true, .. } => (MmeValue::Nan, true),
        MmeValue::Zero(s) => (MmeValue::Zero(s), true),
        MmeValue::Inf(false) => (MmeValue::Inf(false), true),
        MmeValue::Fin { sig, exp, .. } => (rsqrt_approx(sig, exp, f), false),
    }
}

/// Saturation to [0, 1] (NaN to 0).
pub(super) fn saturate(x: MmeValue) -> MmeValue {
    const ONE: MmeValue = MmeValue::Fin {
        neg: false,
        sig: 1,
        exp: 0,
    };
    match x {
        MmeValue::Nan | MmeValue::Zero(_) | MmeValue::Inf(true) | MmeValue::Fin { neg: true, .. } => {
            MmeValue::Zero(false)
        }
        MmeValue::Inf(false) => ONE,
        MmeValue::Fin { sig, exp, .. } if exp + bit_len(u128::from(sig)) > 0 => ONE,
        x => x,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(x: f64) -> MmeValue {
        MmeValue::from_bits(x.to_bits(), F64, false)
    }

    fn back(x: MmeValue) -> f64 {
        f64::from_bits(reround(x, F64, true, Rnd::Even).to_bits(F64))
    }

    #[test]
    fn bits_round_trip() {
        for x in [
            0.0,
            -0.0,
            1.0,
            -2.5,
            f64::MIN_POSITIVE,
            5e-324,
            -4.9e-320,
            f64::MAX,
            f64::INFINITY,
        ] {
            assert_eq!(back(d(x)).to_bits(), x.to_bits(), "{x}");
        }
        assert!(back(d(f64::NAN)).is_nan());
        for x in [0.0f32, -1.5, f32::MIN_POSITIVE, 1e-45, f32::MAX] {
            let e = MmeValue::from_bits(u64::from(x.to_bits()), F32, false);
            assert_eq!(
                reround(e, F32, true, Rnd::Even).to_bits(F32),
                u64::from(x.to_bits()),
                "{x}"
            );
        }
    }

    #[test]
    fn fma_matches_rust_mul_add() {
        let mut s = 0x1234_5678_9abc_def1u64;
        let mut next = || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        let special = [
            0.0,
            -0.0,
            1.0,
            -1.0,
            5e-324,
            f64::MAX,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            1e-310,
        ];
        for _ in 0..20_000 {
            let mut pick = || {
                let r = next();
                if r % 5 == 0 {
                    special[(r >> 8) as usize % special.len()]
                } else {
                    f64::from_bits(next())
                }
            };
            let (a, b, c) = (pick(), pick(), pick());
            let want = b.mul_add(c, a);
            let got = back(fma(d(a), d(b), d(c), F64, true, Rnd::Even));
            assert!(
                got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan()),
                "{a:e} + {b:e} * {c:e}: {got:e} vs {want:e}"
            );
        }
    }

    /// Directed rounding, against Rust's round-to-nearest sum and its
    /// exact error (Knuth's two-sum): with an exact product `b * c`, `a +
    /// b * c` is `s + e` exactly, and each mode's result is `s` or its
    /// neighbour on `e`'s side.
    #[test]
    fn fma_rounds_in_every_mode() {
        fn next(x: f64, up: bool) -> f64 {
            let b = x.to_bits();
            let toward_larger_magnitude = (x > 0.0) == up || x == 0.0;
            f64::from_bits(if x == 0.0 {
                if up {
                    1
                } else {
                    1 | 1 << 63
                }
            } else if toward_larger_magnitude {
                b + 1
            } else {
                b - 1
            })
        }
        let mut st = 0x9e37_79b9_7f4a_7c15u64;
        let mut rnd = || {
            st ^= st << 13;
            st ^= st >> 7;
            st ^= st << 17;
            st
        };
        let mut checked = 0;
        for _ in 0..20_000 {
            // Significands of 26 bits: the product is exact.
            let small = |r: u64| {
                let m = (r & ((1 << 26) - 1)) as f64 + 1.0;
                let e = ((r >> 26) % 40) as i32 - 20;
                let v = m * pow2(e);
                if r >> 63 == 1 {
                    -v
                } else {
                    v
                }
            };
            let (b, c) = (small(rnd()), small(rnd()));
            // An addend from far below the product to far above it.
            let a = f64::from_bits(rnd() & 0xbfff_ffff_ffff_ffff | 0x3ff0_0000_0000_0000)
                * pow2((rnd() % 160) as i32 - 100);
            let p = b * c;
            let s = a + p;
            let t = s - a;
            let e = (a - (s - t)) + (p - t);
            if !s.is_normal() || s.abs() > 1e300 {
                continue;
            }
            checked += 1;
            for mode in [Rnd::Even, Rnd::Zero, Rnd::Up, Rnd::Down] {
                let want = match mode {
                    _ if e == 0.0 => s,
                    Rnd::Even => s,
                    Rnd::Up => {
                        if e > 0.0 {
                            next(s, true)
                        } else {
                            s
                        }
                    }
                    Rnd::Down => {
                        if e < 0.0 {
                            next(s, false)
                        } else {
                            s
                        }
                    }
                    Rnd::Zero => {
                        if (e > 0.0) != (s > 0.0) {
                            next(s, s < 0.0)
                        } else {
                            s
                        }
                    }
                };
                let got = fma(d(a), d(b), d(c), F64, true, mode).to_bits(F64);
                assert_eq!(got, want.to_bits(), "{a:e} + {b:e} * {c:e} {mode:?}");
            }
        }
        assert!(checked > 10_000, "{checked}");
    }

    #[test]
    fn reciprocal_is_correctly_rounded() {
        for x in [3.0f64, 7.0, 1e-310, 5e-324, 1.0 / 3.0, 12345.678] {
            let MmeValue::Fin { neg, sig, exp } = d(x) else {
                panic!()
            };
            let r = recip(neg, sig, exp, F64);
            if x > 1e-300 {
                assert_eq!(back(r), 1.0 / x, "{x}");
            } else {
                // 1 / x overflows f64: the extended value does not.
                assert!(matches!(r, MmeValue::Fin { .. }));
            }
        }
    }
}
