//! Unsigned decimal numbers written without `core::fmt`, for the printing
//! hot paths (disassembly, `MsgDesc:` text, C-style floats).

use core::fmt::{self, Write};

/// "00" to "99": a number below 100 is one slice of this.
const TWO_DIGITS: &str = "00010203040506070809101112131415161718192021222324252627282930313233343536373839\
                          40414243444546474849505152535455565758596061626364656667686970717273747576777879\
                          8081828384858687888990919293949596979899";

/// Writes `v` in decimal, without leading zeros.
#[inline]
pub fn write_dec<W: Write + ?Sized>(out: &mut W, v: u64) -> fmt::Result {
    if v < 100 {
        let k = v as usize * 2;
        let from = if v < 10 { k + 1 } else { k };
        if let Some(t) = TWO_DIGITS.get(from..k + 2) {
            return out.write_str(t);
        }
    }
    let mut b = [0u8; 20];
    let mut i = b.len();
    let mut v = v;
    loop {
        i -= 1;
        if let Some(d) = b.get_mut(i) {
            *d = b'0' + (v % 10) as u8;
        }
        v /= 10;
        if v == 0 || i == 0 {
            break;
        }
    }
    // The buffer holds ASCII digits only.
    out.write_str(core::str::from_utf8(b.get(i..).unwrap_or(&[])).unwrap_or(""))
}

#[cfg(test)]
mod tests {
    use alloc::string::String;

    #[test]
    fn matches_core_fmt() {
        for v in (0..2000u64).chain([9999, 10_000, 123_456_789, u64::MAX - 1, u64::MAX]) {
            let mut s = String::new();
            super::write_dec(&mut s, v).unwrap();
            assert_eq!(s, alloc::format!("{v}"));
        }
    }
}
