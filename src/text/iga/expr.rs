//! IGA's literals and constant expressions, as its parser reads them
//! (`KernelParser.cpp`: `parseBitwiseExpr` … `parsePrimary`, and the
//! lexical rules of `LexicalSpec.flex`), and the conversion of a value to
//! an immediate's type (`FinishSrcOpImmValue`).
//!
//! Literals: decimal, `0x` hexadecimal and `0b` binary integers; decimal
//! floats (`1.5`, `3e9`, `1.5e-3`; not `.5` or `1.`), hexadecimal floats
//! (`0x1.8p3`); `inf`, `nan`, `qnan`, `snan` and `qnan(payload)`,
//! `snan(payload)`. Operators, loosest first: `&` and `|` (one level,
//! grouping to the right: `a & b | c` is `a & (b | c)`), `<<` `>>`, `+`
//! `-`, `*` `/` `%`, then unary `-` and `~` (on a primary only), and
//! parentheses. Integers are 64-bit signed, floats doubles; an operator
//! takes two of one kind. `^` is no operator (IGA's parser evaluates it
//! but never reads it).

use crate::model::Type;
use crate::text::AsmErrorKind;

/// A value: an integer (IGA's `S64`) or a double given by its bits (so
/// that NaN payloads stay as written).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Val {
    Int(i64),
    Float(u64),
}

type R<T> = Result<T, (usize, AsmErrorKind)>;

const F64_SIGN: u64 = 1 << 63;
const F64_EXP: u64 = 0x7ff << 52;
const F64_QNAN: u64 = 1 << 51;

fn bad<T>(at: usize, why: &'static str) -> R<T> {
    Err((
        at,
        AsmErrorKind::Invalid {
            what: "constant expression",
            why,
        },
    ))
}

/// Each byte's value as a hexadecimal digit, either case (0xFF: none).
pub(super) const HEX_DIGIT: [u8; 256] = crate::text::lex::hex_digits(true);

/// The common integer literals at the start of `b`, read fast: a decimal
/// of at most 19 digits or a `0x` hexadecimal of at most 16 (no overflow
/// to check), not run into a letter, digit or `_`; the value and the
/// bytes read. `None` for anything else, which [`Ex::int_literal`] reads
/// in full (binary literals, longer ones, errors).
#[inline]
pub(super) fn short_literal(b: &[u8]) -> Option<(u64, usize)> {
    let mut v: u64 = 0;
    let mut n = 0;
    let (digits, max, skip) = match b {
        [b'0', b'x' | b'X', rest @ ..] => {
            for &c in rest {
                let d = HEX_DIGIT.get(usize::from(c)).copied().unwrap_or(0xff);
                if d >= 16 {
                    break;
                }
                v = v << 4 | u64::from(d);
                n += 1;
            }
            (rest, 16, 2)
        }
        _ => {
            for &c in b {
                let d = c.wrapping_sub(b'0');
                if d >= 10 {
                    break;
                }
                v = v.wrapping_mul(10).wrapping_add(u64::from(d));
                n += 1;
            }
            (b, 19, 0)
        }
    };
    if n == 0 || n > max || digits.get(n).is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_') {
        return None;
    }
    Some((v, skip + n))
}

/// Whether `c`, after an operand, continues a constant expression (one of
/// its binary operators).
pub(super) fn continues_expr(c: Option<u8>) -> bool {
    matches!(c, Some(b'&' | b'|' | b'<' | b'>' | b'+' | b'-' | b'*' | b'/' | b'%'))
}

/// A cursor over the bytes of one line's code.
pub(super) struct Ex<'a> {
    pub b: &'a [u8],
    pub i: usize,
    pub end: usize,
}

impl Ex<'_> {
    fn peek(&self) -> Option<u8> {
        if self.i < self.end {
            self.b.get(self.i).copied()
        } else {
            None
        }
    }
    fn peek_at(&self, k: usize) -> Option<u8> {
        if self.i + k < self.end {
            self.b.get(self.i + k).copied()
        } else {
            None
        }
    }
    fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\r')) {
            self.i += 1;
        }
    }
    fn found(&self) -> alloc::string::String {
        let mut j = self.i;
        while j < self.end
            && self
                .b
                .get(j)
                .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_' || *c == b'.')
        {
            j += 1;
        }
        if j == self.i {
            return match self.peek() {
                None => "end of line".into(),
                Some(c) => alloc::format!("`{}`", char::from(c)),
            };
        }
        let s = self.b.get(self.i..j).unwrap_or(&[]);
        alloc::format!("`{}`", core::str::from_utf8(s).unwrap_or(""))
    }
    fn unexpected<T>(&self, expected: &'static str) -> R<T> {
        Err((
            self.i,
            AsmErrorKind::Unexpected {
                found: self.found(),
                expected,
            },
        ))
    }
    /// The identifier at the cursor, without moving it.
    fn ident_here(&self) -> &[u8] {
        let mut j = self.i;
        if !self.peek().is_some_and(|c| c.is_ascii_alphabetic() || c == b'_') {
            return &[];
        }
        while j < self.end && self.b.get(j).is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_') {
            j += 1;
        }
        self.b.get(self.i..j).unwrap_or(&[])
    }

    /// An integer literal (`13`, `0x1F`, `0b101`) at the cursor, as IGA's
    /// `ConsumeIntLit` reads one: `None` (the cursor kept) when there is
    /// none; an error when it runs into letters or past 64 bits.
    #[inline(always)]
    pub fn int_literal(&mut self) -> R<Option<u64>> {
        let s = self.i;
        let b = self.b.get(..self.end).unwrap_or(self.b);
        if let Some((v, n)) = short_literal(b.get(s..).unwrap_or(&[])) {
            self.i = s + n;
            return Ok(Some(v));
        }
        let (radix, start) = match (b.get(s), b.get(s + 1), b.get(s + 2)) {
            (Some(b'0'), Some(b'x' | b'X'), Some(c)) if c.is_ascii_hexdigit() => (16u32, s + 2),
            (Some(b'0'), Some(b'b' | b'B'), Some(b'0' | b'1')) => (2, s + 2),
            (Some(c), _, _) if c.is_ascii_digit() => (10, s),
            _ => return Ok(None),
        };
        let digit = |c: u8| -> Option<u8> {
            let d = HEX_DIGIT.get(usize::from(c)).copied().unwrap_or(0xff);
            (u32::from(d) < radix).then_some(d)
        };
        let mut j = start;
        let mut v: u64 = 0;
        // Wrapping arithmetic while the digits cannot overflow; past that
        // many, the value is read again with checks.
        if radix == 10 {
            while let Some(d) = b.get(j).map(|c| c.wrapping_sub(b'0')).filter(|&d| d < 10) {
                v = v.wrapping_mul(10).wrapping_add(u64::from(d));
                j += 1;
            }
        } else {
            while let Some(d) = b.get(j).and_then(|&c| digit(c)) {
                v = v.wrapping_mul(u64::from(radix)).wrapping_add(u64::from(d));
                j += 1;
            }
        }
        let safe = match radix {
            10 => 19,
            16 => 16,
            _ => 64,
        };
        let mut big = false;
        if j - start > safe {
            let mut w: Option<u64> = Some(0);
            for &c in b.get(start..j).unwrap_or(&[]) {
                w = w
                    .and_then(|w| w.checked_mul(u64::from(radix)))
                    .and_then(|w| w.checked_add(u64::from(digit(c).unwrap_or(0))));
            }
            big = w.is_none();
        }
        if b.get(j).is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_') {
            return self.unexpected("a number");
        }
        if big {
            let text = b.get(s..j).and_then(|t| core::str::from_utf8(t).ok()).unwrap_or("");
            return Err((s, AsmErrorKind::NumberTooLarge(text.into())));
        }
        self.i = j;
        Ok(Some(v))
    }

    /// The end of a float literal starting at the cursor, if one is there
    /// (IGA's `FLTLIT`: `D+.D+`, `D+(.D+)?[eE][+-]?D+`, and hexadecimal
    /// `0x(H+.H*|H*.H+|H+)[pP][+-]?D+`).
    fn float_end(&self) -> Option<usize> {
        let at = |k: usize| self.b.get(k).copied().filter(|_| k < self.end);
        let digits = |mut k: usize, hex: bool| {
            while at(k).is_some_and(|c| if hex { c.is_ascii_hexdigit() } else { c.is_ascii_digit() }) {
                k += 1;
            }
            k
        };
        let exponent = |k: usize, marks: [u8; 2]| -> Option<usize> {
            if !at(k).is_some_and(|c| marks.contains(&c)) {
                return None;
            }
            let k = if matches!(at(k + 1), Some(b'+' | b'-')) {
                k + 2
            } else {
                k + 1
            };
            let e = digits(k, false);
            (e > k).then_some(e)
        };
        let s = self.i;
        if at(s) == Some(b'0') && matches!(at(s + 1), Some(b'x' | b'X')) {
            let a = digits(s + 2, true);
            let (b, frac) = if at(a) == Some(b'.') {
                (digits(a + 1, true), true)
            } else {
                (a, false)
            };
            let mantissa = b - (s + 2) - usize::from(frac);
            if mantissa == 0 {
                return None;
            }
            return exponent(b, [b'p', b'P']);
        }
        let a = digits(s, false);
        if a == s {
            return None;
        }
        let b = if at(a) == Some(b'.') && at(a + 1).is_some_and(|c| c.is_ascii_digit()) {
            digits(a + 1, false)
        } else {
            a
        };
        exponent(b, [b'e', b'E']).or((b > a).then_some(b))
    }

    /// `bitwise := shift (('&' | '|') bitwise)?`, the whole expression.
    pub fn expr(&mut self) -> R<Val> {
        // The common case first: an integer literal alone (`0x26`, `1`).
        let save = self.i;
        if let Ok(Some(v)) = self.int_literal() {
            if self.peek() != Some(b'.') {
                self.ws();
                if !continues_expr(self.peek()) {
                    // IGA reads literals as unsigned and keeps them as signed.
                    return Ok(Val::Int(v as i64));
                }
            }
        }
        self.i = save;
        let mut v = self.shift()?;
        loop {
            self.ws();
            let op = match self.peek() {
                Some(c @ (b'&' | b'|')) => c,
                _ => return Ok(v),
            };
            let at = self.i;
            self.i += 1;
            let r = self.expr()?;
            v = int_op(at, v, r, |a, b| Some(if op == b'&' { a & b } else { a | b }))?;
        }
    }

    fn shift(&mut self) -> R<Val> {
        let mut v = self.add()?;
        loop {
            self.ws();
            let left = match (self.peek(), self.peek_at(1)) {
                (Some(b'<'), Some(b'<')) => true,
                (Some(b'>'), Some(b'>')) => false,
                _ => return Ok(v),
            };
            let at = self.i;
            self.i += 2;
            let r = self.add()?;
            v = int_op(at, v, r, |a, b| {
                let n = u32::try_from(b).ok().filter(|&n| n < 64)?;
                Some(if left { a.wrapping_shl(n) } else { a >> n })
            })?;
        }
    }

    fn add(&mut self) -> R<Val> {
        let mut v = self.mul()?;
        loop {
            self.ws();
            let op = match self.peek() {
                Some(c @ (b'+' | b'-')) => c,
                _ => return Ok(v),
            };
            let at = self.i;
            self.i += 1;
            let r = self.mul()?;
            v = if op == b'+' {
                num_op(at, v, r, i64::wrapping_add, |a, b| a + b)?
            } else {
                num_op(at, v, r, i64::wrapping_sub, |a, b| a - b)?
            };
        }
    }

    fn mul(&mut self) -> R<Val> {
        let mut v = self.unary()?;
        loop {
            self.ws();
            let op = match self.peek() {
                Some(c @ (b'*' | b'/' | b'%')) => c,
                _ => return Ok(v),
            };
            let at = self.i;
            self.i += 1;
            let r = self.unary()?;
            v = match op {
                b'*' => num_op(at, v, r, i64::wrapping_mul, |a, b| a * b)?,
                b'/' => {
                    if r == Val::Int(0) {
                        return bad(at, "division by zero");
                    }
                    num_op(at, v, r, i64::wrapping_div, |a, b| a / b)?
                }
                _ => {
                    if r == Val::Int(0) {
                        return bad(at, "division by zero");
                    }
                    int_op(at, v, r, |a, b| Some(a.wrapping_rem(b)))?
                }
            };
        }
    }

    /// `('-' | '~') primary | primary`.
    fn unary(&mut self) -> R<Val> {
        self.ws();
        let at = self.i;
        match self.peek() {
            Some(b'-') => {
                self.i += 1;
                Ok(match self.primary()? {
                    Val::Int(v) => Val::Int(v.wrapping_neg()),
                    // IGA flips the sign bit (so that NaNs negate too).
                    Val::Float(b) => Val::Float(b ^ F64_SIGN),
                })
            }
            Some(b'~') => {
                self.i += 1;
                match self.primary()? {
                    Val::Int(v) => Ok(Val::Int(!v)),
                    Val::Float(_) => bad(at, "`~` takes an integer"),
                }
            }
            _ => self.primary(),
        }
    }

    fn primary(&mut self) -> R<Val> {
        self.ws();
        let at = self.i;
        if self.peek() == Some(b'(') {
            self.i += 1;
            let v = self.expr()?;
            self.ws();
            if self.peek() != Some(b')') {
                return self.unexpected("`)`");
            }
            self.i += 1;
            return Ok(v);
        }
        if let Some(e) = self.float_end() {
            let text = self
                .b
                .get(at..e)
                .and_then(|t| core::str::from_utf8(t).ok())
                .unwrap_or("");
            let v = if text.len() > 2 && matches!(text.as_bytes().get(1), Some(b'x' | b'X')) {
                hex_float(text)
            } else {
                text.parse::<f64>().ok().map(f64::to_bits)
            };
            let Some(v) = v else {
                return self.unexpected("a number");
            };
            self.i = e;
            return Ok(Val::Float(v));
        }
        if let Some(v) = self.int_literal()? {
            // IGA reads literals as unsigned and keeps them as signed.
            return Ok(Val::Int(v as i64));
        }
        let id = self.ident_here();
        let n = id.len();
        match id {
            b"inf" => {
                self.i += n;
                Ok(Val::Float(f64::INFINITY.to_bits()))
            }
            // IGA's `nan` is C++'s signaling NaN.
            b"nan" => {
                self.i += n;
                Ok(Val::Float(F64_EXP | (F64_QNAN >> 1)))
            }
            b"qnan" | b"snan" => {
                let quiet = id == b"qnan";
                self.i += n;
                self.ws();
                if self.peek() != Some(b'(') {
                    // Bare: the quiet bit, or the lowest payload bit.
                    return Ok(Val::Float(F64_EXP | if quiet { F64_QNAN } else { 1 }));
                }
                self.i += 1;
                self.ws();
                let pat = self.i;
                let payload = match self.expr()? {
                    Val::Int(v) => v as u64,
                    Val::Float(_) => return bad(pat, "a NaN payload is an integer"),
                };
                if payload >= F64_QNAN {
                    return bad(pat, "the NaN payload overflows");
                }
                if payload == 0 && !quiet {
                    return bad(pat, "an snan payload is not zero");
                }
                self.ws();
                if self.peek() != Some(b')') {
                    return self.unexpected("`)`");
                }
                self.i += 1;
                Ok(Val::Float(F64_EXP | payload | if quiet { F64_QNAN } else { 0 }))
            }
            _ => self.unexpected("a number or a constant expression"),
        }
    }
}

/// An operator on two integers (`None` from `f`: out of range).
fn int_op(at: usize, a: Val, b: Val, f: impl Fn(i64, i64) -> Option<i64>) -> R<Val> {
    match (a, b) {
        (Val::Int(x), Val::Int(y)) => f(x, y).map_or_else(|| bad(at, "a shift count is 0 to 63"), |v| Ok(Val::Int(v))),
        _ => bad(at, "this operator takes integers"),
    }
}

/// An arithmetic operator on two integers or two floats.
fn num_op(at: usize, a: Val, b: Val, i: fn(i64, i64) -> i64, f: fn(f64, f64) -> f64) -> R<Val> {
    match (a, b) {
        (Val::Int(x), Val::Int(y)) => Ok(Val::Int(i(x, y))),
        (Val::Float(x), Val::Float(y)) => Ok(Val::Float(f(f64::from_bits(x), f64::from_bits(y)).to_bits())),
        _ => bad(at, "both operands are integers or both floats"),
    }
}

/// The value of a hexadecimal float literal (`0x1.8p3`), rounded to the
/// nearest double (ties to even), as C's `strtod` reads it.
fn hex_float(text: &str) -> Option<u64> {
    let body = text.get(2..)?;
    let (mant, exp) = body.split_once(['p', 'P'])?;
    let exp: i64 = exp.parse().ok()?;
    let (int, frac) = mant.split_once('.').unwrap_or((mant, ""));
    let mut m: u64 = 0;
    let mut e2: i64 = 0;
    let mut sticky = false;
    for (k, c) in int.chars().chain(frac.chars()).enumerate() {
        let d = u64::from(c.to_digit(16)?);
        if k >= int.len() {
            e2 -= 4;
        }
        if m >> 60 == 0 {
            m = m << 4 | d;
        } else {
            // Digits past 60 bits only round.
            sticky |= d != 0;
            e2 += 4;
        }
    }
    Some(round_to_f64(m, sticky, e2.saturating_add(exp)))
}

/// The double nearest `m × 2^e2` (plus a little, when `sticky`), ties to
/// even.
fn round_to_f64(m: u64, sticky: bool, e2: i64) -> u64 {
    if m == 0 {
        return 0;
    }
    let lz = i64::from(m.leading_zeros());
    let m = m << lz;
    // The value is 1.f × 2^top, the leading 1 at bit 63 of `m`.
    let top = e2 + 63 - lz;
    if top > 1023 {
        return f64::INFINITY.to_bits();
    }
    // Bits kept: 53 for a normal result, fewer below 2^-1022.
    let keep = if top >= -1022 { 53 } else { 53 - (-1022 - top) };
    if keep <= 0 {
        // Below half the smallest subnormal, or exactly half (ties to
        // even: zero) unless there is more.
        let half = keep == 0 && (m << 1 != 0 || sticky);
        return u64::from(half);
    }
    let drop = 64 - keep as u32;
    let kept = m >> drop;
    let rest = m << (64 - drop);
    let halfway = 1u64 << 63;
    let up = rest > halfway || (rest == halfway && (sticky || kept & 1 == 1));
    let kept = kept + u64::from(up);
    if top >= -1022 {
        // A carry to 2^53 moves the exponent up by one.
        let (kept, top) = if kept >> 53 != 0 {
            (kept >> 1, top + 1)
        } else {
            (kept, top)
        };
        if top > 1023 {
            return f64::INFINITY.to_bits();
        }
        ((top + 1023) as u64) << 52 | (kept & ((1 << 52) - 1))
    } else {
        // Subnormal: the bits are the significand (a carry makes it the
        // smallest normal, which is the same arithmetic).
        kept
    }
}

/// A value as an immediate of `ty`: its bits (IGA's
/// `FinishSrcOpImmValue`). `dec_first`: the operand's first token is a
/// decimal integer (IGA refuses those as nonzero float bits: `2:f`).
///
/// An integer keeps the bits the type holds, as IGA's parser truncates
/// it (`0x10000:uw` is 0, `0x1FFFFFFFF:f` the bits 0xFFFFFFFF); only as
/// `:hf` bits above the type's are refused ("hex literal too big for
/// type"). IGA warns for one type only, `:b` out of -128..=127
/// (`CheckLiteralBounds`, which checks `:w` and `:d` after the
/// truncation), and `:b` has no immediate encoding.
pub(super) fn imm_bits(v: Val, ty: Type, dec_first: bool, at: usize) -> R<u64> {
    let width = if ty.is_vector_imm() { 32 } else { ty.size() * 8 };
    match (v, ty) {
        (Val::Int(x), Type::HF | Type::F | Type::DF) => {
            if dec_first && x != 0 {
                return bad(
                    at,
                    "an integer as a float immediate is its bits in hex or binary (0x3F800000:f); write 1.0:f for the value",
                );
            }
            if ty == Type::HF && x as u64 >> width != 0 {
                return bad(
                    at,
                    "a literal with bits above the type's 16 (IGA: hex literal too big for type)",
                );
            }
            Ok(low_bits(x, width))
        }
        (Val::Float(b), Type::DF) => Ok(b),
        (Val::Float(b), Type::F) => {
            // A NaN's payload must fit F's mantissa.
            if is_nan(b) && b & (F64_QNAN - 1) & !0x7f_ffff != 0 {
                return bad(at, "the NaN payload overflows the type");
            }
            Ok(u64::from(f64_to_f32_bits(b)))
        }
        (Val::Float(b), Type::HF) => {
            if is_nan(b) && b & (F64_QNAN - 1) & !0x3ff != 0 {
                return bad(at, "the NaN payload overflows the type");
            }
            Ok(u64::from(f32_to_f16_bits(f64_to_f32_bits(b))))
        }
        (Val::Float(_), _) => bad(at, "a float is no immediate of an integer type"),
        (Val::Int(x), _) => Ok(low_bits(x, width)),
    }
}

/// An integer's low `width` bits (all of them from 64 on).
fn low_bits(x: i64, width: u32) -> u64 {
    if width >= 64 {
        x as u64
    } else {
        x as u64 & ((1u64 << width) - 1)
    }
}

fn is_nan(b: u64) -> bool {
    b & F64_EXP == F64_EXP && b & ((1 << 52) - 1) != 0
}

/// IGA's `ConvertDoubleToFloatBits`: a NaN keeps its quiet bit and the
/// low payload bits (at least one set); other values round as C does.
fn f64_to_f32_bits(b: u64) -> u32 {
    if is_nan(b) {
        let mut m = (b & 0x7f_ffff) as u32 | ((b & F64_QNAN) >> 29) as u32;
        if m == 0 {
            m = 1;
        }
        return ((b >> 32) as u32 & 0x8000_0000) | 0x7f80_0000 | m;
    }
    (f64::from_bits(b) as f32).to_bits()
}

/// IGA's `ConvertFloatToHalf` for a NaN (quiet bit and the low nine
/// payload bits, at least one set); other values round to nearest even.
fn f32_to_f16_bits(w: u32) -> u16 {
    let sign = ((w >> 16) & 0x8000) as u16;
    if w & 0x7fff_ffff > 0x7f80_0000 {
        let mut m = ((w & 0x40_0000) >> 13) as u16 | (w & 0x1ff) as u16;
        if m == 0 {
            m = 1;
        }
        return sign | 0x7c00 | m;
    }
    // Other values: the `half` crate rounds to nearest even.
    half::f16::from_f32(f32::from_bits(w)).to_bits()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Against the half-precision decoding (`cfmt::half_value`), an
    /// independent reading of the format: every finite half maps back to
    /// its own bits, and IGA's NaN rule keeps the quiet bit and payload.
    #[test]
    fn halves_read_back() {
        for h in 0u16..=0xffff {
            let x = crate::text::cfmt::half_value(h);
            if x.is_nan() {
                continue;
            }
            assert_eq!(f32_to_f16_bits(x.to_bits()), h, "{h:#06x} {x}");
        }
        assert_eq!(f32_to_f16_bits(1.0f32.to_bits()), 0x3c00);
        assert_eq!(f32_to_f16_bits(65520.0f32.to_bits()), 0x7c00);
        assert_eq!(f32_to_f16_bits(0x7fc0_0000), 0x7e00);
    }

    fn eval(s: &str) -> Val {
        let mut e = Ex {
            b: s.as_bytes(),
            i: 0,
            end: s.len(),
        };
        let v = e.expr().unwrap();
        assert_eq!(e.i, s.len(), "{s}");
        v
    }

    /// Against Rust's own integer arithmetic, with IGA's grouping.
    #[test]
    fn integer_expressions() {
        assert_eq!(eval("(2*4+1)"), Val::Int(9));
        assert_eq!(eval("1 + 2 * 3 - 4 / 2"), Val::Int(5));
        assert_eq!(eval("1 << 4 + 1"), Val::Int(32));
        assert_eq!(eval("-7 % 3"), Val::Int(-1));
        assert_eq!(eval("~0"), Val::Int(-1));
        // `&` and `|` share a level and group to the right.
        assert_eq!(eval("6 | 1 & 3"), Val::Int(6 | (1 & 3)));
        assert_eq!(eval("6 & 1 | 3"), Val::Int(6 & (1 | 3)));
        assert_eq!(eval("0b101 + 0x10"), Val::Int(21));
        assert_eq!(eval("0xFFFFFFFFFFFFFFFF"), Val::Int(-1));
    }

    /// Against Rust's `u64` parsing: the largest values, and one past.
    #[test]
    fn literal_limits() {
        let lit = |s: &str| {
            let mut e = Ex {
                b: s.as_bytes(),
                i: 0,
                end: s.len(),
            };
            e.int_literal().ok().flatten()
        };
        assert_eq!(lit("18446744073709551615"), Some(u64::MAX));
        assert_eq!(lit("18446744073709551616"), None);
        assert_eq!(lit("99999999999999999999"), None);
        assert_eq!(lit("0x00000000000000001"), Some(1));
        assert_eq!(lit("0xFFFFFFFFFFFFFFFF"), Some(u64::MAX));
        assert_eq!(lit("0x10000000000000000"), None);
        assert_eq!(lit(&format!("0b{}", "1".repeat(64))), Some(u64::MAX));
        assert_eq!(lit(&format!("0b1{}", "0".repeat(64))), None);
        assert_eq!(lit("0b102"), None);
        assert_eq!(lit("12ab"), None);
    }

    /// Against Rust's float parsing and IEEE arithmetic.
    #[test]
    fn float_literals() {
        assert_eq!(eval("1.5e-3"), Val::Float(1.5e-3f64.to_bits()));
        assert_eq!(eval("3e9"), Val::Float(3e9f64.to_bits()));
        assert_eq!(eval("(1.0/10.0)"), Val::Float((1.0f64 / 10.0).to_bits()));
        assert_eq!(eval("0x1.8p1"), Val::Float(3.0f64.to_bits()));
        assert_eq!(eval("0x.8p-1"), Val::Float(0.25f64.to_bits()));
        assert_eq!(eval("0x1p-1074"), Val::Float(1));
        assert_eq!(eval("0x1p-1075"), Val::Float(0));
        assert_eq!(eval("0x1.8p-1075"), Val::Float(1));
        assert_eq!(eval("0x1p1024"), Val::Float(f64::INFINITY.to_bits()));
        // 0.1 in hexadecimal, and one past: ties round to even.
        assert_eq!(eval("0x1.999999999999ap-4"), Val::Float(0.1f64.to_bits()));
        assert_eq!(eval("0x1.00000000000008p0"), Val::Float(1.0f64.to_bits()));
        assert_eq!(eval("0x1.00000000000018p0"), Val::Float(1.0f64.to_bits() + 2));
        assert_eq!(eval("0x1.000000000000081p0"), Val::Float(1.0f64.to_bits() + 1));
        assert_eq!(eval("-inf"), Val::Float((-f64::INFINITY).to_bits()));
    }

    #[test]
    fn conversions() {
        let f = |s: &str, t: Type| imm_bits(eval(s), t, false, 0).unwrap();
        assert_eq!(f("1.0", Type::F), 0x3f80_0000);
        assert_eq!(f("-0x3F800000", Type::F), 0xc080_0000);
        assert_eq!(f("qnan(0x1)", Type::F), 0x7fc0_0001);
        assert_eq!(f("-snan(0x5)", Type::HF), 0xfc05);
        assert_eq!(f("1.0", Type::HF), 0x3c00);
        assert_eq!(f("-1", Type::UW), 0xffff);
        // Truncated as IGA truncates them.
        assert_eq!(f("0x10000", Type::UW), 0);
        assert_eq!(f("0x12345", Type::UW), 0x2345);
        assert_eq!(f("0x1FFFFFFFF", Type::F), 0xffff_ffff);
        assert_eq!(f("0x1FFFFFFFF", Type::D), 0xffff_ffff);
        assert_eq!(f("0x180", Type::B), 0x80);
        assert_eq!(f("0x123456789", Type::V), 0x2345_6789);
        // `:hf` refuses bits above its 16, even a sign's.
        assert_eq!(f("0x3C00", Type::HF), 0x3c00);
        assert!(imm_bits(eval("0x13C00"), Type::HF, false, 0).is_err());
        assert!(imm_bits(eval("-0x3C00"), Type::HF, false, 0).is_err());
        assert!(imm_bits(eval("2"), Type::F, true, 0).is_err());
        assert!(imm_bits(eval("1.5"), Type::D, false, 0).is_err());
    }
}
