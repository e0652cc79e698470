//! The few C `printf` conversions Mesa's disassembler output depends on,
//! reproduced exactly: `%g` of floats and the bit-level float views of
//! immediates (VF bytes, half floats).

use core::fmt::{self, Write};

/// A small stack buffer that collects formatted text.
struct Buf<const N: usize> {
    b: [u8; N],
    len: usize,
}

impl<const N: usize> Buf<N> {
    const fn new() -> Self {
        Buf { b: [0; N], len: 0 }
    }

    fn as_str(&self) -> &str {
        // Only whole `&str` pieces are ever appended, so this cannot fail;
        // an empty string is a harmless fallback.
        self.b
            .get(..self.len)
            .and_then(|s| core::str::from_utf8(s).ok())
            .unwrap_or("")
    }
}

impl<const N: usize> Write for Buf<N> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let end = self.len.checked_add(s.len()).ok_or(fmt::Error)?;
        let dst = self.b.get_mut(self.len..end).ok_or(fmt::Error)?;
        dst.copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

/// Strips trailing zeros of a fraction, and then a trailing `.`.
fn trim_fraction(s: &str) -> &str {
    if !s.contains('.') {
        return s;
    }
    s.trim_end_matches('0').trim_end_matches('.')
}

/// Writes a float given by its bits as [`write_g`] does; a NaN's sign is
/// taken from the bits, since converting a NaN between float widths need
/// not keep it.
pub fn write_g_f32<W: Write + ?Sized>(out: &mut W, bits: u32) -> fmt::Result {
    let x = f32::from_bits(bits);
    if x.is_nan() {
        return out.write_str(if bits >> 31 == 1 { "-nan" } else { "nan" });
    }
    write_g(out, f64::from(x))
}

/// Writes `x` as C's `printf("%g", x)` does with glibc: six significant
/// digits, exponent form when the decimal exponent is below -4 or at least
/// 6, trailing zeros removed, `inf`/`nan` with their sign.
pub fn write_g<W: Write + ?Sized>(out: &mut W, x: f64) -> fmt::Result {
    if x.is_nan() {
        return out.write_str(if x.is_sign_negative() { "-nan" } else { "nan" });
    }
    if x.is_infinite() {
        return out.write_str(if x < 0.0 { "-inf" } else { "inf" });
    }
    // Fast path: integers below 10^6 print all their digits, no point.
    let a = if x.is_sign_negative() { -x } else { x };
    if a < 1e6 && f64::from(a as u32) == a {
        if x.is_sign_negative() {
            out.write_str("-")?;
        }
        return crate::decimal::write_dec(out, u64::from(a as u32));
    }
    // Round to six significant digits first: the exponent of the rounded
    // value decides the form, as in C.
    let mut e = Buf::<40>::new();
    write!(e, "{x:.5e}")?;
    let es = e.as_str();
    let (mant, exp) = es.split_once('e').ok_or(fmt::Error)?;
    let exp: i32 = exp.parse().map_err(|_| fmt::Error)?;
    if (-4..6).contains(&exp) {
        let prec = usize::try_from(5 - exp).map_err(|_| fmt::Error)?;
        let mut f = Buf::<48>::new();
        write!(f, "{x:.prec$}")?;
        out.write_str(trim_fraction(f.as_str()))
    } else {
        out.write_str(trim_fraction(mant))?;
        out.write_str(if exp < 0 { "e-" } else { "e+" })?;
        let a = exp.unsigned_abs();
        if a < 10 {
            out.write_char('0')?;
        }
        write!(out, "{a}")
    }
}

/// The value of one packed restricted-float (VF) byte: sign, 3-bit
/// exponent with bias 3, 4-bit mantissa; exponent and mantissa zero is ±0.
pub fn vf_value(b: u8) -> f32 {
    let sign = u32::from(b >> 7) << 31;
    if b & 0x7f == 0 {
        return f32::from_bits(sign);
    }
    let exp = u32::from((b >> 4) & 7) + 124;
    let mant = u32::from(b & 0xf);
    f32::from_bits(sign | exp << 23 | mant << 19)
}

/// The value of an IEEE half float (the `half` crate's conversion).
pub fn half_value(h: u16) -> f32 {
    half::f16::from_bits(h).to_f32()
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::String;

    fn g(x: f64) -> String {
        let mut s = String::new();
        write_g(&mut s, x).unwrap();
        s
    }

    #[test]
    fn g_matches_c() {
        assert_eq!(g(0.0), "0");
        assert_eq!(g(-0.0), "-0");
        assert_eq!(g(1.0), "1");
        assert_eq!(g(0.5), "0.5");
        assert_eq!(g(0.25), "0.25");
        assert_eq!(g(100000.0), "100000");
        assert_eq!(g(1000000.0), "1e+06");
        assert_eq!(g(999999.5), "1e+06");
        assert_eq!(g(1e18), "1e+18");
        assert_eq!(g(4e-9), "4e-09");
        assert_eq!(g(0.0001), "0.0001");
        assert_eq!(g(0.00001), "1e-05");
        assert_eq!(g(f64::from(f32::from_bits(5))), "7.00649e-45");
        assert_eq!(g(1234565.0), "1.23456e+06");
        assert_eq!(g(1.234_567_8), "1.23457");
        assert_eq!(g(-2.5e100), "-2.5e+100");
        assert_eq!(g(f64::INFINITY), "inf");
        assert_eq!(g(f64::NEG_INFINITY), "-inf");
        assert_eq!(g(-f64::NAN), "-nan");
        assert_eq!(g(f64::NAN), "nan");
        let g32 = |bits: u32| {
            let mut s = String::new();
            write_g_f32(&mut s, bits).unwrap();
            s
        };
        assert_eq!(g32(0xffff_ffe0), "-nan");
        assert_eq!(g32(0x7fc0_0000), "nan");
        assert_eq!(g32(0x3f80_0000), "1");
        // Integers take a shortcut up to 999999; 10^6 switches to the
        // exponent form.
        assert_eq!(g(0.0), "0");
        assert_eq!(g(-0.0), "-0");
        assert_eq!(g(-3.0), "-3");
        assert_eq!(g(123456.0), "123456");
        assert_eq!(g(999999.0), "999999");
        assert_eq!(g(-999999.0), "-999999");
        assert_eq!(g(1e6), "1e+06");
        assert_eq!(g(999999.5), "1e+06");
        assert_eq!(g(65504.0), "65504");
    }

    #[test]
    fn vf_bytes() {
        assert_eq!(vf_value(0x30), 1.0);
        assert_eq!(vf_value(0x20), 0.5);
        assert_eq!(vf_value(0x7e), 30.0);
        assert_eq!(vf_value(0x00), 0.0);
        assert!(vf_value(0x80).is_sign_negative());
        assert_eq!(vf_value(0xb0), -1.0);
    }

    #[test]
    fn half_floats() {
        assert_eq!(half_value(0x3c00), 1.0);
        assert_eq!(half_value(0xc000), -2.0);
        assert_eq!(half_value(0x0001), 5.960_464_5e-8);
        assert_eq!(half_value(0x7c00), f32::INFINITY);
        assert!(half_value(0x7e00).is_nan());
        assert_eq!(half_value(0x7bff), 65504.0);
    }
}
