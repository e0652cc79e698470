//! `Display` and `FromStr` for the vocabulary's enums, by the names Mesa
//! prints, and for [`Word`] as hexadecimal.
//!
//! Each name is written once, by the type's own `name()` (or
//! [`Sfid::mesa_name`]); parsing looks the name up among the type's values,
//! so printing and parsing cannot disagree.
//!
//! ```
//! use geneu::{CondMod, MathFunction, Opcode, PredCtrl, Sfid, Type, Word};
//! assert_eq!("mad".parse::<Opcode>(), Ok(Opcode::Mad));
//! assert_eq!(Opcode::Mad.to_string(), "mad");
//! assert_eq!("HF".parse::<Type>(), Ok(Type::HF));
//! assert_eq!("ge".parse::<CondMod>(), Ok(CondMod::Ge));
//! assert_eq!("rsq".parse::<MathFunction>(), Ok(MathFunction::Rsq));
//! assert_eq!("urb".parse::<Sfid>(), Ok(Sfid::Urb));
//! assert_eq!("any4h".parse::<PredCtrl>(), Ok(PredCtrl::Any4h));
//! assert!("movv".parse::<Opcode>().is_err());
//!
//! // mov(8) g17<1>F g12<8,8,1>F { align1 1Q };
//! let w: Word = "0x00000000_008d0180_22203ae8_00600001".parse().unwrap();
//! assert_eq!(w.to_bytes()[..4], [0x01, 0x00, 0x60, 0x00]);
//! assert_eq!(w.to_string(), "0x00000000008d018022203ae800600001");
//! assert_eq!(w.to_string().parse::<Word>(), Ok(w));
//! ```

use core::fmt;
use core::str::FromStr;

use crate::error::UnknownName;
use crate::isa::Sfid;
use crate::model::{CondMod, MathFunction, Opcode, PredCtrl, Type};
use crate::word::Word;

/// The value of `all` whose name is `s`, or an [`UnknownName`] error.
pub(crate) fn lookup<T: Copy>(
    all: &[T],
    name: impl Fn(T) -> Option<&'static str>,
    what: &'static str,
    s: &str,
) -> Result<T, UnknownName> {
    all.iter()
        .copied()
        .find(|&v| name(v) == Some(s))
        .ok_or_else(|| UnknownName { what, name: s.into() })
}

impl FromStr for Opcode {
    type Err = UnknownName;
    /// Mesa's mnemonic, as [`Opcode::name`] gives it.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        lookup(Opcode::ALL, |v| Some(v.name()), "opcode", s)
    }
}

impl FromStr for Type {
    type Err = UnknownName;
    /// Mesa's type suffix (`UD`, `HF`, ...), as [`Type::name`] gives it.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        lookup(&Type::ALL, |v| Some(v.name()), "type", s)
    }
}

impl fmt::Display for CondMod {
    /// Mesa's suffix without the dot; empty for [`CondMod::None`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for CondMod {
    type Err = UnknownName;
    /// Mesa's suffix without the dot (`z`, `ge`, ...); the empty string is
    /// [`CondMod::None`].
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        lookup(CondMod::ALL, |v| Some(v.name()), "conditional modifier", s)
    }
}

impl fmt::Display for PredCtrl {
    /// Mesa's suffix without the dot; empty for [`PredCtrl::Normal`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for PredCtrl {
    type Err = UnknownName;
    /// Mesa's suffix without the dot (`anyv`, `x`, ...); the empty string
    /// is [`PredCtrl::Normal`].
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        lookup(PredCtrl::ALL, |v| Some(v.name()), "predicate control", s)
    }
}

impl fmt::Display for MathFunction {
    /// Mesa's name; empty for [`MathFunction::None`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for MathFunction {
    type Err = UnknownName;
    /// Mesa's name (`inv`, `intdivmod`, ...); the empty string is
    /// [`MathFunction::None`].
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        lookup(MathFunction::ALL, |v| Some(v.name()), "math function", s)
    }
}

/// VME has no name in Mesa's text; it prints and parses as `vme`.
const VME: &str = "vme";

impl fmt::Display for Sfid {
    /// Mesa's name ([`Sfid::mesa_name`]), or `vme`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.mesa_name().unwrap_or(VME))
    }
}

impl FromStr for Sfid {
    type Err = UnknownName;
    /// Mesa's name ([`Sfid::mesa_name`]), or `vme`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        lookup(Sfid::ALL, |v| Some(v.mesa_name().unwrap_or(VME)), "shared function", s)
    }
}

impl fmt::Display for Word {
    /// `0x` and the 32 hex digits of the 128-bit value, most significant
    /// first (the bit numbering of the tables, not the byte order in
    /// memory).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:#034x}", self.0)
    }
}

impl fmt::LowerHex for Word {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::LowerHex::fmt(&self.0, f)
    }
}

impl FromStr for Word {
    type Err = UnknownName;
    /// Hex digits of the 128-bit value, most significant first, as
    /// [`Word`]'s `Display` prints them: an optional `0x`, at most 32
    /// digits, `_` allowed between them.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || UnknownName {
            what: "word (hex digits)",
            name: s.into(),
        };
        let t = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")).unwrap_or(s);
        let mut v: u128 = 0;
        let mut n = 0;
        for c in t.chars().filter(|&c| c != '_') {
            let d = c.to_digit(16).ok_or_else(bad)?;
            n += 1;
            if n > 32 {
                return Err(bad());
            }
            v = v << 4 | u128::from(d);
        }
        if n == 0 {
            return Err(bad());
        }
        Ok(Word(v))
    }
}
