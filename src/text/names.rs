//! Spellings of Mesa's assembly syntax that the disassembler prints and the
//! assembler parses: architecture register names, predicate and region
//! texts, write masks and instruction options.
//!
//! Opcode, type, conditional-modifier and math-function names live on the
//! model types ([`crate::Opcode::name`], [`crate::Type::name`],
//! [`crate::CondMod::name`], [`crate::MathFunction::name`]).

use crate::isa::{arf, Sfid, MATH_FN_SINCOS};
use crate::model::{CondMod, MathFunction, Opcode, Type};

/// An architecture register file (ARF) class, picked by the high nibble
/// of the ARF register number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArfClass {
    /// The register number with the low nibble clear (`0x10` for `a`).
    pub base: u8,
    /// The name Mesa prints (`a`, `acc`, `null`, `tdr0`).
    pub name: &'static str,
    /// Whether the low nibble follows the name as a number (`acc1`).
    pub numbered: bool,
    /// Whether Mesa prints the name alone, without subregister, region or
    /// type (`ip`, `tdr0`); geneu prints them, and reads the name alone
    /// too.
    pub bare: bool,
}

const fn class(base: u8, name: &'static str, numbered: bool, bare: bool) -> ArfClass {
    ArfClass {
        base,
        name,
        numbered,
        bare,
    }
}

/// Every named ARF class, in register-number order. Numbers whose high
/// nibble is not listed print as `ARF<nr>`.
pub const ARF_CLASSES: [ArfClass; 13] = [
    class(arf::NULL, "null", false, false),
    class(arf::ADDRESS, "a", true, false),
    class(arf::ACC, "acc", true, false),
    class(arf::FLAG, "f", true, false),
    class(arf::MASK, "mask", true, false),
    class(arf::MASK_STACK, "ms", true, false),
    class(arf::MASK_STACK_DEPTH, "msd", true, false),
    class(arf::STATE, "sr", true, false),
    class(arf::CONTROL, "cr", true, false),
    class(arf::NOTIFICATION, "n", true, false),
    class(arf::IP, "ip", false, true),
    class(arf::TDR, "tdr0", false, true),
    class(arf::TIMESTAMP, "tm", true, false),
];

/// The type of an `ip` or `tdr0` operand written bare (no region or
/// type), as Mesa's assembler reads it: `tdr0` is UW (its grammar's
/// `threadcontrolreg`), `ip` UD. The disassembler prints both with their
/// region and type.
pub(crate) fn bare_type(nr: u8) -> Type {
    if arf::class(nr) == arf::TDR {
        Type::UW
    } else {
        Type::UD
    }
}

/// Prefix Mesa prints for an ARF number outside [`ARF_CLASSES`].
pub const ARF_UNKNOWN: &str = "ARF";

/// The ARF class of a register number, if it has a name.
#[inline]
pub fn arf_class(nr: u8) -> Option<&'static ArfClass> {
    ARF_CLASSES
        .get(usize::from(arf::class(nr) >> arf::NUMBER_MAX.count_ones()))
        .filter(|c| c.base == arf::class(nr))
}

/// The ARF class with this name (`acc`, `null`, `ip`, ...).
pub fn arf_class_by_name(name: &str) -> Option<&'static ArfClass> {
    ARF_CLASSES.iter().find(|c| c.name == name)
}

/// The unit written after an indirect address subregister that is the
/// subregister itself (`g[a0.1:uw]`): the destination's form when Mesa's,
/// in units of the destination's type, would round it.
pub(crate) const ADDR_SUB_UNIT: &str = "uw";

/// Name of the general register file prefix (`g12`).
pub const GRF_PREFIX: &str = "g";

/// Destination write masks, indexed by the 4-bit mask (x = bit 0). The
/// full mask `xyzw` prints nothing; the empty mask prints a bare `.`.
pub const WRITEMASK: [&str; 16] = [
    ".", ".x", ".y", ".xy", ".z", ".xz", ".yz", ".xyz", ".w", ".xw", ".yw", ".xyw", ".zw", ".xzw", ".yzw", "",
];

/// Swizzle channel letters, indexed by the 2-bit selector.
pub const CHANNELS: [u8; 4] = *b"xyzw";

/// Vertical stride texts, indexed by the 4-bit encoding (`None` where
/// reserved; 15 is `VxH`).
pub const VSTRIDE: [Option<&str>; 16] = [
    Some("0"),
    Some("1"),
    Some("2"),
    Some("4"),
    Some("8"),
    Some("16"),
    Some("32"),
    None,
    None,
    None,
    None,
    None,
    None,
    None,
    None,
    Some("VxH"),
];

/// Width texts, indexed by the 3-bit encoding (`None` where reserved).
pub const WIDTH: [Option<&str>; 8] = [Some("1"), Some("2"), Some("4"), Some("8"), Some("16"), None, None, None];

/// Horizontal stride texts, indexed by the 2-bit encoding.
pub const HSTRIDE: [&str; 4] = ["0", "1", "2", "4"];

/// Access-mode option names, indexed by the encoding.
pub const ACCESS_MODE: [&str; 2] = ["align1", "align16"];

/// Thread-control option names, indexed by the encoding (`""` = normal).
pub const THREAD_CONTROL: [&str; 3] = ["", "atomic", "switch"];

/// Dependency-control option texts, indexed by `NoDDChk << 1 | NoDDClr`.
pub const DEP_CONTROL: [&str; 4] = ["", "NoDDClr", "NoDDChk", "NoDDClr,NoDDChk"];

/// Option: mask control set (execute on all channels).
pub const OPT_WE_ALL: &str = "WE_all";
/// Option: accumulator write enable (bit 28).
pub const OPT_ACC_WR: &str = "AccWrEnable";
/// Option: branch control, the Gen8 meaning of bit 28 on `if` and `else`.
pub const OPT_BRANCH_CTRL: &str = "BranchCtrl";
/// Option: end of thread (SEND/SENDC).
pub const OPT_EOT: &str = "EOT";
/// Option: compacted instruction.
pub const OPT_COMPACTED: &str = "compacted";
/// Opcode suffix: saturate.
pub const SUFFIX_SAT: &str = ".sat";
/// Opcode suffix: debug control (breakpoint).
pub const SUFFIX_BREAKPOINT: &str = ".breakpoint";
/// Source-modifier text for absolute value.
pub const MOD_ABS: &str = "(abs)";

/// The negate source modifier as both dialects print it: `~` on a Gen8
/// logic operation (where negate is a bitwise not), `-` otherwise.
pub(crate) const fn negate_modifier(p: crate::Platform, op: crate::Opcode) -> &'static str {
    if p.is_gen8() && op.is_logic() {
        "~"
    } else {
        "-"
    }
}

/// The `sincos` math function (encoding 8), which has no
/// [`crate::MathFunction`] value on Gen7+ but is still named by Mesa.
pub const MATH_SINCOS: &str = crate::model::MATH_SINCOS_NAME;

// Names read back by the assembler.

/// Opcodes sorted by Mesa name, for binary search.
/// (A unit test checks that it is sorted and lists every opcode.)
const BY_NAME: &[Opcode] = {
    use Opcode::*;
    &[
        Add, Addc, And, Asr, Avg, Bfe, Bfi1, Bfi2, Bfrev, Brc, Brd, Break, Call, Calla, Cbit, Cmp, Cmpn, Cont, Csel,
        Dim, Dp2, Dp3, Dp4, Dph, Else, Endif, F16to32, F32to16, Fbh, Fbl, Frc, Goto, Halt, If, Illegal, Jmpi, Join,
        Line, Lrp, Lzd, Mac, Mach, Mad, Madm, Math, Mov, Movi, Mul, Nop, Not, Or, Pln, Ret, Rndd, Rnde, Rndu, Rndz,
        Sad2, Sada2, Sel, Send, Sendc, Shl, Shr, Smov, Subb, Wait, While, Xor,
    ]
};

/// For each lowercase first letter, the range of [`BY_NAME`] whose names
/// start with it.
// Evaluated at compile time: the indices are in range.
#[allow(clippy::indexing_slicing)]
const BY_FIRST: [(u8, u8); 26] = {
    let mut t = [(0u8, 0u8); 26];
    let mut i = 0;
    while i < BY_NAME.len() {
        let c = (BY_NAME[i].name().as_bytes()[0] - b'a') as usize;
        if t[c].1 == 0 {
            t[c].0 = i as u8;
        }
        t[c].1 = i as u8 + 1;
        i += 1;
    }
    t
};

/// A name of at most eight bytes as one integer (its bytes in order from
/// the lowest, zero-padded), so that names compare as integers; `None`
/// for a longer name. Read in at most two overlapping loads rather than
/// byte by byte: it runs for every instruction assembled.
const fn pack_name(s: &[u8]) -> Option<u64> {
    let n = s.len();
    if n > 8 {
        return None;
    }
    // Four to eight bytes: the first four and the last four, which
    // overlap when there are fewer than eight (the shared bytes are the
    // same in both).
    if let (Some(lo), Some(hi)) = (s.first_chunk::<4>(), s.last_chunk::<4>()) {
        let lo = u32::from_le_bytes(*lo) as u64;
        let hi = u32::from_le_bytes(*hi) as u64;
        return Some(lo | hi << (8 * (n - 4)));
    }
    Some(match *s {
        [a] => a as u64,
        [a, b] => a as u64 | (b as u64) << 8,
        [a, b, c] => a as u64 | (b as u64) << 8 | (c as u64) << 16,
        _ => 0,
    })
}

/// [`BY_NAME`]'s names packed by [`pack_name`] (every opcode name has at
/// most eight bytes: checked here at compile time).
// Evaluated at compile time: the indices are in range.
#[allow(clippy::indexing_slicing)]
const BY_NAME_PACKED: [u64; BY_NAME.len()] = {
    let mut t = [0u64; BY_NAME.len()];
    let mut i = 0;
    while i < BY_NAME.len() {
        t[i] = match pack_name(BY_NAME[i].name().as_bytes()) {
            Some(v) => v,
            None => panic!("an opcode name longer than eight bytes"),
        };
        i += 1;
    }
    t
};

/// The opcode named `s` (on any platform).
pub(crate) fn opcode_by_name(s: &str) -> Option<Opcode> {
    opcode_by_bytes(s.as_bytes())
}

/// [`opcode_by_name`] for the name's bytes.
#[inline]
pub(crate) fn opcode_by_bytes(s: &[u8]) -> Option<Opcode> {
    let first = *s.first()?;
    let &(from, to) = BY_FIRST.get(usize::from(first.wrapping_sub(b'a')))?;
    let key = pack_name(s)?;
    let range = usize::from(from)..usize::from(to);
    let k = BY_NAME_PACKED.get(range.clone())?.iter().position(|&v| v == key)?;
    BY_NAME.get(range.start + k).copied()
}

/// Conditional modifiers by name (hardware values), with Mesa's aliases
/// `e` and `ne`.
pub(crate) fn cond_mod_by_name(s: &str) -> Option<u8> {
    let c = match s {
        "" => return None,
        "e" => CondMod::Z,
        "ne" => CondMod::Nz,
        _ => *CondMod::ALL.iter().find(|c| c.name() == s)?,
    };
    Some(c.hw())
}

/// Math functions by name (hardware values), `sincos` included.
pub(crate) fn math_fn_by_name(s: &str) -> Option<u8> {
    match s {
        "" => None,
        MATH_SINCOS => Some(MATH_FN_SINCOS),
        _ => MathFunction::ALL.iter().find(|f| f.name() == s).map(|f| f.hw()),
    }
}

/// Types by their suffix letters. `NF` is recognised so that it can be
/// refused with a clear message.
#[inline]
pub(crate) fn type_by_name(s: &str) -> Option<Option<Type>> {
    type_by_bytes(s.as_bytes())
}

/// [`type_by_name`] for the name's bytes.
#[inline(always)]
pub(crate) fn type_by_bytes(s: &[u8]) -> Option<Option<Type>> {
    // One or two letters as one integer (a single letter stays below
    // 256, two letters do not): one comparison per name.
    const fn key(s: &[u8]) -> u16 {
        match *s {
            [a] => a as u16,
            [a, b] => a as u16 | (b as u16) << 8,
            _ => 0,
        }
    }
    const UD: u16 = key(b"UD");
    const D: u16 = key(b"D");
    const UW: u16 = key(b"UW");
    const W: u16 = key(b"W");
    const UB: u16 = key(b"UB");
    const B: u16 = key(b"B");
    const DF: u16 = key(b"DF");
    const F: u16 = key(b"F");
    const UQ: u16 = key(b"UQ");
    const Q: u16 = key(b"Q");
    const HF: u16 = key(b"HF");
    const V: u16 = key(b"V");
    const UV: u16 = key(b"UV");
    const VF: u16 = key(b"VF");
    const NF: u16 = key(b"NF");
    let k = match *s {
        [a] => u16::from(a),
        [a, b] => u16::from(a) | u16::from(b) << 8,
        _ => return None,
    };
    Some(Some(match k {
        UD => Type::UD,
        D => Type::D,
        UW => Type::UW,
        W => Type::W,
        UB => Type::UB,
        B => Type::B,
        DF => Type::DF,
        F => Type::F,
        UQ => Type::UQ,
        Q => Type::Q,
        HF => Type::HF,
        V => Type::V,
        UV => Type::UV,
        VF => Type::VF,
        NF => return Some(None),
        _ => return None,
    }))
}

/// Message-descriptor shared-function names (single words).
pub(crate) fn sfid_by_name(s: &[u8]) -> Option<u8> {
    let sfid = match s {
        b"null" => Sfid::Null,
        b"math" => Sfid::Math,
        b"sampler" => Sfid::Sampler,
        b"gateway" => Sfid::Gateway,
        b"dp_sampler" | b"read" => Sfid::SamplerCache,
        b"render" | b"write" => Sfid::RenderCache,
        b"urb" => Sfid::Urb,
        b"thread_spawner" => Sfid::ThreadSpawner,
        b"vme" => Sfid::Vme,
        b"const" => Sfid::ConstantCache,
        b"data" => Sfid::DataCache,
        b"cre" => Sfid::Cre,
        _ => return None,
    };
    Some(sfid.hw())
}

/// The shared functions named by more than one word, by their first: the
/// second word, whether `1` follows it (`dp data 1`), and the number.
pub(crate) fn multi_word_sfid(first: &[u8]) -> Option<(&'static str, bool, u8)> {
    Some(match first {
        b"pixel" => ("interp", false, Sfid::PixelInterpolator.hw()),
        // Later platforms' name for the encoding of VME.
        b"rt" => ("accel", false, Sfid::Vme.hw()),
        b"dp" => ("data", true, Sfid::DataCache1.hw()),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opcode_table_is_sorted_and_complete() {
        let t = BY_NAME;
        assert!(
            t.windows(2).all(|w| w[0].name() < w[1].name()),
            "BY_NAME must be sorted by name"
        );
        for op in Opcode::ALL {
            assert_eq!(opcode_by_name(op.name()), Some(*op), "{op:?}");
        }
        assert_eq!(t.len(), Opcode::ALL.len());
        for name in ["mov2", "", "m", "movx", "addcarry", "illegal_", "ADD", "{", "é"] {
            assert_eq!(opcode_by_name(name), None, "{name:?}");
        }
    }

    #[test]
    fn packed_names_are_the_bytes_in_order_from_the_lowest() {
        let name = b"abcdefghi";
        for n in 0..=8 {
            let s = &name[..n];
            let want = s.iter().rev().fold(0u64, |v, &b| v << 8 | u64::from(b));
            assert_eq!(pack_name(s), Some(want), "{n} bytes");
        }
        assert_eq!(pack_name(name), None);
    }

    #[test]
    fn names_read_back_to_the_encodings_of_the_isa_floor() {
        for c in CondMod::ALL.iter().filter(|&&c| c != CondMod::None) {
            assert_eq!(cond_mod_by_name(c.name()), Some(c.hw()), "{c:?}");
        }
        assert_eq!(cond_mod_by_name("e"), Some(CondMod::Z.hw()));
        assert_eq!(cond_mod_by_name("ne"), Some(CondMod::Nz.hw()));
        assert_eq!(cond_mod_by_name(""), None);
        for f in MathFunction::ALL.iter().filter(|&&f| f != MathFunction::None) {
            assert_eq!(math_fn_by_name(f.name()), Some(f.hw()), "{f:?}");
        }
        assert_eq!(math_fn_by_name(MATH_SINCOS), Some(MATH_FN_SINCOS));
        assert_eq!(math_fn_by_name(""), None);
        for s in Sfid::ALL {
            let name = s.mesa_name().unwrap_or("vme");
            let first = name.split(' ').next().unwrap();
            let got = match multi_word_sfid(first.as_bytes()) {
                Some((_, _, v)) => Some(v),
                None => sfid_by_name(name.as_bytes()),
            };
            assert_eq!(got, Some(s.hw()), "{name}");
        }
        for c in &ARF_CLASSES {
            assert_eq!(arf_class(c.base).map(|k| k.name), Some(c.name));
            assert_eq!(arf_class_by_name(c.name).map(|k| k.base), Some(c.base));
        }
    }
}
