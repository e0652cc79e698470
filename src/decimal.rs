//! Unsigned decimal numbers (and hexadecimal digits) written without
//! `core::fmt`, for the printing hot paths (disassembly, `MsgDesc:` text,
//! C-style floats).
//!
//! Why not `itoa`: measured on 2026-11-26 with callgrind, `geneu disasm`
//! of 200,000 Gen8 words executes 446.9 M instructions with this module
//! and 478.2 M (+7%) with `write_dec` as `itoa::Buffer::format` (same
//! output). Register numbers and offsets are mostly one or two digits,
//! which the fast path below writes without a buffer.

use core::fmt::{self, Write};

/// Writes `v` in decimal, without leading zeros: one character, or up to
/// 99 one two-character piece of [`DEC_PAIRS`] (a copy of known length,
/// which compiles to a single store).
#[inline]
pub fn write_dec<W: Write + ?Sized>(out: &mut W, v: u64) -> fmt::Result {
    if v < 10 {
        return out.write_char(digit(v));
    }
    if v < 100 {
        return out.write_str(pair(DEC_PAIRS, v as usize));
    }
    write_long(out, v)
}

/// Writes text of up to four bytes (a name from a table) as a copy of
/// known length, which compiles to a store; a copy of unknown length
/// calls `memcpy`. Longer text is written as it is.
#[inline(always)]
pub fn write_short<W: Write + ?Sized>(out: &mut W, t: &str) -> fmt::Result {
    match (t.len(), t.get(..1), t.get(..2), t.get(..3), t.get(..4)) {
        (1, Some(p), _, _, _) => out.write_str(p),
        (2, _, Some(p), _, _) => out.write_str(p),
        (3, _, _, Some(p), _) => out.write_str(p),
        (4, _, _, _, Some(p)) => out.write_str(p),
        _ => out.write_str(t),
    }
}

/// Writes `(v)`: up to 99 one piece of a table (a copy of known length).
#[inline]
pub fn write_paren_dec<W: Write + ?Sized>(out: &mut W, v: u64) -> fmt::Result {
    if v < 10 {
        return out.write_str(PAREN_DIGITS.get(3 * v as usize..3 * v as usize + 3).unwrap_or("()"));
    }
    if v < 100 {
        return out.write_str(PAREN_PAIRS.get(4 * v as usize..4 * v as usize + 4).unwrap_or("()"));
    }
    out.write_char('(')?;
    write_long(out, v)?;
    out.write_char(')')
}

/// `(0)` to `(9)`: the digit `d` at `3d`.
const PAREN_DIGITS: &str = table(&PAREN_DIGIT_BYTES);
const PAREN_DIGIT_BYTES: [u8; 30] = numbers::<30>(10, 1, true);

/// `(00)` to `(99)`: the number `n` at `4n`.
const PAREN_PAIRS: &str = table(&PAREN_PAIR_BYTES);
const PAREN_PAIR_BYTES: [u8; 400] = numbers::<400>(10, 2, true);

/// `00` to `99`: the number `n` at `2n`.
const DEC_PAIRS: &str = table(&DEC_PAIR_BYTES);
const DEC_PAIR_BYTES: [u8; 200] = numbers::<200>(10, 2, false);

/// `00` to `ff`: the byte `b` at `2b`.
const HEX_PAIRS: &str = table(&HEX_PAIR_BYTES);
const HEX_PAIR_BYTES: [u8; 512] = numbers::<512>(16, 2, false);

/// The digits of bases up to 16, lowercase.
const DIGITS: [u8; 16] = *b"0123456789abcdef";

/// A table of numbers, `0` up, in base `base` with `digits` digits each
/// (leading zeros), in parentheses when `paren`: number `k` at `k` times
/// the width of one piece.
#[allow(clippy::indexing_slicing)] // evaluated at compile time: an index out of range fails the build
const fn numbers<const N: usize>(base: usize, digits: usize, paren: bool) -> [u8; N] {
    let open = if paren { 1 } else { 0 };
    let w = digits + 2 * open;
    let mut t = [0u8; N];
    let mut k = 0;
    while k < N / w {
        let at = k * w;
        if paren {
            t[at] = b'(';
            t[at + w - 1] = b')';
        }
        // The digits from the last.
        let (mut d, mut v) = (digits, k);
        while d > 0 {
            d -= 1;
            t[at + open + d] = DIGITS[v % base];
            v /= base;
        }
        k += 1;
    }
    t
}

/// A table of [`numbers`] as text.
#[allow(clippy::panic)] // evaluated at compile time: a failure fails the build
const fn table(b: &'static [u8]) -> &'static str {
    match core::str::from_utf8(b) {
        Ok(s) => s,
        Err(_) => panic!("the digits are ASCII"),
    }
}

/// Entry `n` of a table of two-character pieces (empty past its end).
#[inline(always)]
fn pair(table: &'static str, n: usize) -> &'static str {
    table.get(2 * n..2 * n + 2).unwrap_or("")
}

/// The two lowercase hexadecimal digits of `b`.
#[inline(always)]
pub fn hex_pair(b: u8) -> &'static str {
    pair(HEX_PAIRS, b.into())
}

/// `0` to `F`.
const DIGITS_UPPER: [u8; 16] = upper(DIGITS);

/// `0x0` to `0xf`: the digit `d` at `3d`.
const ZX_DIGITS: &str = table(&ZX_DIGIT_BYTES);
const ZX_DIGIT_BYTES: [u8; 48] = zx_digits();

/// `0x0` to `0xF`.
const ZX_DIGITS_UPPER: &str = table(&ZX_DIGIT_BYTES_UPPER);
const ZX_DIGIT_BYTES_UPPER: [u8; 48] = upper(ZX_DIGIT_BYTES);

/// The table `t` with its letters `a` to `f` in upper case (`x` stays).
#[allow(clippy::indexing_slicing)] // evaluated at compile time: an index out of range fails the build
const fn upper<const N: usize>(mut t: [u8; N]) -> [u8; N] {
    let mut k = 0;
    while k < N {
        if t[k] >= b'a' && t[k] <= b'f' {
            t[k] -= b'a' - b'A';
        }
        k += 1;
    }
    t
}

/// `0x0` to `0xf`, three bytes each.
#[allow(clippy::indexing_slicing)] // evaluated at compile time: an index out of range fails the build
const fn zx_digits() -> [u8; 48] {
    let mut t = [0u8; 48];
    let mut k = 0;
    while k < 16 {
        t[3 * k] = b'0';
        t[3 * k + 1] = b'x';
        t[3 * k + 2] = DIGITS[k];
        k += 1;
    }
    t
}

/// Writes `0x` and `v` in hexadecimal, zero-padded to at least `width`
/// digits (at least one), in upper or lower case: a one-digit number as
/// one piece of a table, longer ones built in a buffer and written in one
/// piece (one write and a short ASCII check cost fewer instructions than
/// a write per pair of digits: IGA's SEND descriptors have eight).
#[inline]
pub fn write_hex<W: Write + ?Sized>(out: &mut W, v: u64, width: usize, upper: bool) -> fmt::Result {
    let digits = ((64 - v.leading_zeros() as usize).div_ceil(4)).max(width).clamp(1, 16);
    let (one, letters) = if upper {
        (ZX_DIGITS_UPPER, &DIGITS_UPPER)
    } else {
        (ZX_DIGITS, &DIGITS)
    };
    if digits == 1 {
        let d = 3 * (v & 0xf) as usize;
        return out.write_str(one.get(d..d + 3).unwrap_or("0x0"));
    }
    let mut buf = [b'0'; 18];
    if let Some(b) = buf.get_mut(1) {
        *b = b'x';
    }
    let used = buf.get_mut(2..2 + digits).unwrap_or(&mut []);
    let mut x = v;
    for d in used.iter_mut().rev() {
        *d = letters.get((x & 0xf) as usize).copied().unwrap_or(b'0');
        x >>= 4;
    }
    out.write_str(core::str::from_utf8(buf.get(..2 + digits).unwrap_or(b"0x0")).unwrap_or("0x0"))
}

/// The ASCII digit of `d` (below 10).
#[inline(always)]
fn digit(d: u64) -> char {
    char::from(b'0' + (d % 10) as u8)
}

/// The lowercase hexadecimal digit of `v`'s low four bits.
#[inline(always)]
pub fn hex_digit(v: u8) -> char {
    let n = v & 0xf;
    char::from(if n < 10 { b'0' + n } else { b'a' + n - 10 })
}

/// [`write_dec`] of a number of three or more digits.
#[inline(never)]
fn write_long<W: Write + ?Sized>(out: &mut W, v: u64) -> fmt::Result {
    if v < 1000 {
        out.write_char(digit(v / 100))?;
        return out.write_str(pair(DEC_PAIRS, (v % 100) as usize));
    }
    // Digits from the last, then written from the first.
    let mut b = [0u8; 20];
    let mut n = 0;
    let mut v = v;
    while v != 0 {
        if let Some(d) = b.get_mut(n) {
            *d = (v % 10) as u8;
        }
        v /= 10;
        n += 1;
    }
    for &d in b.get(..n).unwrap_or(&[]).iter().rev() {
        out.write_char(digit(d.into()))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use alloc::string::String;

    #[test]
    fn pairs_are_every_two_digit_number() {
        for b in 0..=255u8 {
            assert_eq!(super::hex_pair(b), alloc::format!("{b:02x}"));
        }
        for n in 0..100 {
            assert_eq!(super::pair(super::DEC_PAIRS, n), alloc::format!("{n:02}"));
        }
        for v in (0..200).chain([999, 1000, u64::MAX]) {
            let mut s = String::new();
            super::write_paren_dec(&mut s, v).unwrap();
            assert_eq!(s, alloc::format!("({v})"));
        }
    }

    #[test]
    fn matches_core_fmt() {
        for v in (0..2000u64).chain([9999, 10_000, 123_456_789, u64::MAX - 1, u64::MAX]) {
            let mut s = String::new();
            super::write_dec(&mut s, v).unwrap();
            assert_eq!(s, alloc::format!("{v}"));
        }
    }

    #[test]
    fn hex_matches_core_fmt() {
        for v in [
            0u64,
            1,
            0xf,
            0x10,
            0x123,
            0xabc,
            0xabcde,
            0x0a08_0017,
            0xdead_beef,
            1 << 63,
            u64::MAX,
        ] {
            for width in [0usize, 1, 4, 8, 16] {
                let (mut lo, mut up) = (String::new(), String::new());
                super::write_hex(&mut lo, v, width, false).unwrap();
                super::write_hex(&mut up, v, width, true).unwrap();
                let w = width.max(1);
                assert_eq!(lo, alloc::format!("0x{v:0w$x}"));
                assert_eq!(up, alloc::format!("0x{v:0w$X}"));
            }
        }
    }
}

/// `prefix` and then `lo..=hi` in decimal, written at compile time (for
/// error messages whose range comes from the ISA floor's constants, see
/// [`range_text!`]): the bytes and how many of them are used.
#[allow(clippy::indexing_slicing)] // n < RANGE_TEXT for a prefix that fits (else a compile-time error)
pub(crate) const fn range_bytes(prefix: &str, lo: i64, hi: i64) -> ([u8; RANGE_TEXT], usize) {
    let mut b = [0u8; RANGE_TEXT];
    let mut n = 0;
    let p = prefix.as_bytes();
    while n < p.len() {
        b[n] = p[n];
        n += 1;
    }
    let mut part = 0;
    while part < 2 {
        let v = if part == 0 { lo } else { hi };
        if part == 1 {
            b[n] = b'.';
            b[n + 1] = b'.';
            b[n + 2] = b'=';
            n += 3;
        }
        if v < 0 {
            b[n] = b'-';
            n += 1;
        }
        let mut u = v.unsigned_abs();
        // Digits from the last, then reversed in place.
        let start = n;
        loop {
            b[n] = b'0' + (u % 10) as u8;
            n += 1;
            u /= 10;
            if u == 0 {
                break;
            }
        }
        let (mut i, mut j) = (start, n - 1);
        while i < j {
            let t = b[i];
            b[i] = b[j];
            b[j] = t;
            i += 1;
            j -= 1;
        }
        part += 1;
    }
    (b, n)
}

/// Room for a prefix of up to 64 bytes, then two `i64`s with signs and `..=`.
pub(crate) const RANGE_TEXT: usize = 64 + 2 * 20 + 3;

/// `lo..=hi` as a `&'static str`, from constant expressions, optionally
/// after a literal prefix (`range_text!("outside ", lo, hi)`).
macro_rules! range_text {
    ($lo:expr, $hi:expr) => {
        $crate::decimal::range_text!("", $lo, $hi)
    };
    ($prefix:literal, $lo:expr, $hi:expr) => {{
        const BYTES: ([u8; $crate::decimal::RANGE_TEXT], usize) =
            $crate::decimal::range_bytes($prefix, $lo as i64, $hi as i64);
        const TEXT: &str = match core::str::from_utf8(BYTES.0.split_at(BYTES.1).0) {
            Ok(s) => s,
            Err(_) => panic!("range_bytes writes a str and ASCII digits"),
        };
        TEXT
    }};
}
pub(crate) use range_text;

#[cfg(test)]
mod range_tests {
    #[test]
    fn range_text_writes_both_ends() {
        assert_eq!(range_text!(0, 143), "0..=143");
        assert_eq!(range_text!(-512, 1023), "-512..=1023");
        assert_eq!(range_text!("outside ", -512, 511), "outside -512..=511");
        assert_eq!(
            range_text!(i64::MIN, i64::MAX),
            "-9223372036854775808..=9223372036854775807"
        );
        assert_eq!(range_text!(-2147483648i64, 4294967295u32), "-2147483648..=4294967295");
    }
}
