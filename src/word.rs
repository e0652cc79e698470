//! The raw 128-bit instruction word and the accessors generated from
//! `tables/*.tbl` by `build.rs`.
//!
//! Bit `i` of the word is bit `i` of the instruction as the hardware
//! documentation numbers it; byte 0 of the stored form holds bits 7:0.

use core::fmt;

/// A native (uncompacted) 128-bit instruction word.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Word(pub u128);

// A native word is exactly the 16 bytes of an instruction.
static_assertions::assert_eq_size!(Word, [u8; 16]);

impl Word {
    /// The word stored in memory as 16 little-endian bytes.
    #[inline]
    pub const fn from_bytes(b: [u8; 16]) -> Self {
        Word(u128::from_le_bytes(b))
    }

    /// The complete words stored one after another in `bytes` (16 bytes
    /// each, as [`Word::from_bytes`] reads them); bytes after the last
    /// complete word are left out.
    pub fn all_from_bytes(bytes: &[u8]) -> impl Iterator<Item = Word> + '_ {
        bytes.chunks_exact(16).map(|c| {
            let mut b = [0u8; 16];
            b.copy_from_slice(c);
            Word::from_bytes(b)
        })
    }

    /// The 16 bytes as stored in memory.
    #[inline]
    pub const fn to_bytes(self) -> [u8; 16] {
        self.0.to_le_bytes()
    }

    /// The four 32-bit dwords, DW0 first.
    pub const fn dwords(self) -> [u32; 4] {
        [
            self.0 as u32,
            (self.0 >> 32) as u32,
            (self.0 >> 64) as u32,
            (self.0 >> 96) as u32,
        ]
    }

    /// Builds a word from four 32-bit dwords, DW0 first.
    pub const fn from_dwords(d: [u32; 4]) -> Self {
        Word(d[0] as u128 | (d[1] as u128) << 32 | (d[2] as u128) << 64 | (d[3] as u128) << 96)
    }

    /// Bits `hi:lo` (inclusive), at most 64 of them.
    #[inline]
    pub const fn bits(self, hi: u32, lo: u32) -> u64 {
        let w = hi - lo + 1;
        ((self.0 >> lo) & ((1u128 << w) - 1)) as u64
    }
}

impl fmt::Debug for Word {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = self.dwords();
        write!(f, "Word({:08x} {:08x} {:08x} {:08x})", d[3], d[2], d[1], d[0])
    }
}

/// A field of a bit-range table: its name and its fragments, most
/// significant first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct FieldInfo {
    /// The field's name in the table.
    pub name: &'static str,
    /// `(hi, lo)` inclusive bit ranges, most significant fragment first.
    pub frags: &'static [(u32, u32)],
    /// Total width in bits.
    pub width: u32,
    /// Fields declared to share bits with this one.
    pub aliases: &'static [&'static str],
    /// The bits it covers (the union of `frags`, computed by the build).
    pub bits: u128,
}

impl FieldInfo {
    /// Reads the field from a 128-bit word (or a descriptor widened to it).
    pub fn get(&self, w: u128) -> u64 {
        let mut v: u64 = 0;
        for &(hi, lo) in self.frags {
            let n = hi - lo + 1;
            let m = if n >= 64 { u64::MAX } else { (1u64 << n) - 1 };
            v = (v.checked_shl(n).unwrap_or(0)) | ((w >> lo) as u64 & m);
        }
        v
    }

    /// The mask of the bits the field occupies.
    #[inline]
    pub const fn mask(&self) -> u128 {
        self.bits
    }
}

impl fmt::Display for FieldInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)?;
        for (i, (hi, lo)) in self.frags.iter().enumerate() {
            f.write_str(if i == 0 { " " } else { "," })?;
            if hi == lo {
                write!(f, "[{hi}]")?;
            } else {
                write!(f, "[{hi}:{lo}]")?;
            }
        }
        Ok(())
    }
}

/// A value that does not fit its field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[error("value {value:#x} does not fit field {field} ({} bits)", field.width)]
pub struct FieldError {
    /// The field that refused the value.
    pub field: &'static FieldInfo,
    /// The refused value.
    pub value: u64,
}

/// The Rust source that `build.rs` generated from `tables/*.tbl`, as
/// compiled into this crate (`geneu tables --source` prints it).
pub const GENERATED_SOURCE: &str = include_str!(concat!(env!("OUT_DIR"), "/fields.rs"));

/// Every bit-range table, by name, with its fields.
pub const TABLES: &[(&str, &[&FieldInfo])] = fields::TABLES;

/// The generated accessors, one module per table.
///
/// **Unstable, not part of the public API**: the names, signatures and
/// tables change from one release to the next. Hidden from the
/// documentation; public only so that the command line and the tests can
/// plant raw field values. Use [`TABLES`] and [`FieldInfo`] to read fields
/// by name.
#[doc(hidden)]
#[allow(clippy::all, missing_docs)]
pub mod fields {
    include!(concat!(env!("OUT_DIR"), "/fields.rs"));
}

#[cfg(test)]
mod tests {
    /// The build's `bits` of every field is the union of its fragments.
    #[test]
    fn field_bits_are_the_union_of_the_fragments() {
        for (_, table) in super::TABLES {
            for f in table.iter() {
                let mut m = 0u128;
                for &(hi, lo) in f.frags {
                    let n = hi - lo + 1;
                    m |= (if n >= 128 { u128::MAX } else { (1u128 << n) - 1 }) << lo;
                }
                assert_eq!(f.bits, m, "{}", f.name);
            }
        }
    }
}
