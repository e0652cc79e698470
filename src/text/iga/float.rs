//! Floating-point immediates as IGA prints them (`Floats.cpp`): C++'s
//! default stream format (`%g`, six significant digits) when that reads
//! back to the same value, with `.0` added where it shows neither a point
//! nor an exponent; else scientific (`%e`) when that reads back; else the
//! bits in hexadecimal. Infinities print as `inf`, NaNs as
//! `qnan(0x…)`/`snan(0x…)` with the payload below the quiet bit.

use core::fmt::{self, Write};

use crate::text::cfmt;

/// A small stack buffer.
struct Buf {
    b: [u8; 48],
    len: usize,
}

impl Buf {
    const fn new() -> Self {
        Buf { b: [0; 48], len: 0 }
    }
    fn as_str(&self) -> &str {
        self.b
            .get(..self.len)
            .and_then(|s| core::str::from_utf8(s).ok())
            .unwrap_or("")
    }
}

impl Write for Buf {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let end = self.len.checked_add(s.len()).ok_or(fmt::Error)?;
        self.b
            .get_mut(self.len..end)
            .ok_or(fmt::Error)?
            .copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

/// `%e` with six digits after the point (`1.234568e+00`).
fn write_e(out: &mut Buf, x: f64) -> fmt::Result {
    let mut t = Buf::new();
    write!(t, "{x:.6e}")?;
    let (mant, exp) = t.as_str().split_once('e').ok_or(fmt::Error)?;
    let exp: i32 = exp.parse().map_err(|_| fmt::Error)?;
    out.write_str(mant)?;
    out.write_str(if exp < 0 { "e-" } else { "e+" })?;
    write!(out, "{:02}", exp.unsigned_abs())
}

/// The decimal or scientific text of a finite value, if one reads back
/// (`same` compares the value read back as a double).
fn decimal(out: &mut impl Write, x: f64, same: impl Fn(f64) -> bool) -> Result<bool, fmt::Error> {
    let mut g = Buf::new();
    cfmt::write_g(&mut g, x)?;
    if g.as_str().parse::<f64>().is_ok_and(&same) {
        let s = g.as_str();
        out.write_str(s)?;
        if !s.contains('.') && !s.contains('e') {
            out.write_str(".0")?;
        }
        return Ok(true);
    }
    let mut e = Buf::new();
    write_e(&mut e, x)?;
    if e.as_str().parse::<f64>().is_ok_and(&same) {
        out.write_str(e.as_str())?;
        return Ok(true);
    }
    Ok(false)
}

/// A NaN: sign, `qnan`/`snan` and the payload below the quiet bit.
fn nan(out: &mut impl Write, negative: bool, quiet: bool, payload: u64) -> fmt::Result {
    if negative {
        out.write_str("-")?;
    }
    out.write_str(if quiet { "qnan(" } else { "snan(" })?;
    crate::decimal::write_hex(out, payload, 0, true)?;
    out.write_str(")")
}

/// An F immediate given by its bits.
pub(crate) fn write_f32(out: &mut impl Write, bits: u32) -> fmt::Result {
    let x = f32::from_bits(bits);
    if x.is_nan() {
        return nan(out, bits >> 31 == 1, bits >> 22 & 1 == 1, u64::from(bits & 0x3f_ffff));
    }
    if x.is_infinite() {
        return out.write_str(if x < 0.0 { "-inf" } else { "inf" });
    }
    if decimal(out, f64::from(x), |y| (y as f32) == x)? {
        return Ok(());
    }
    crate::decimal::write_hex(out, bits.into(), 0, true)
}

/// A DF immediate given by its bits.
pub(crate) fn write_f64(out: &mut impl Write, bits: u64) -> fmt::Result {
    let x = f64::from_bits(bits);
    if x.is_nan() {
        return nan(out, bits >> 63 == 1, bits >> 51 & 1 == 1, bits & ((1 << 51) - 1));
    }
    if x.is_infinite() {
        return out.write_str(if x < 0.0 { "-inf" } else { "inf" });
    }
    if decimal(out, x, |y| y == x)? {
        return Ok(());
    }
    crate::decimal::write_hex(out, bits, 0, true)
}

/// An HF immediate given by its bits.
pub(crate) fn write_f16(out: &mut impl Write, bits: u16) -> fmt::Result {
    let x = cfmt::half_value(bits);
    if x.is_nan() {
        return nan(out, bits >> 15 == 1, bits >> 9 & 1 == 1, u64::from(bits & 0x1ff));
    }
    if x.is_infinite() {
        return out.write_str(if x < 0.0 { "-inf" } else { "inf" });
    }
    if decimal(out, f64::from(x), |y| (y as f32) == x)? {
        return Ok(());
    }
    crate::decimal::write_hex(out, bits.into(), 0, true)
}

#[cfg(test)]
mod tests {
    use alloc::string::String;

    fn f(x: f32) -> String {
        let mut s = String::new();
        super::write_f32(&mut s, x.to_bits()).unwrap();
        s
    }

    /// Worked examples of C++'s stream output (`std::cout << x`).
    #[test]
    fn floats_print_as_cpp_streams_do() {
        assert_eq!(f(0.0), "0.0");
        assert_eq!(f(-0.0), "-0.0");
        assert_eq!(f(1.0), "1.0");
        assert_eq!(f(0.25), "0.25");
        assert_eq!(f(1e-5), "1e-05");
        assert_eq!(f(126.2), "126.2");
        assert_eq!(f(f32::INFINITY), "inf");
        // Needs more than six digits: scientific with six after the point.
        assert_eq!(f(0.1 + 1e-7), "1.000001e-01");
        assert_eq!(f(f32::from_bits(0xffff_ffe0)), "-qnan(0x3FFFE0)");
    }
}
