//! The vISA vocabulary the binary format and the errors share: data
//! types, operand classes and source modifiers, with their encodings.
//! (Below both `format` and `error`, so neither imports the other back.)

use core::fmt;

use crate::model::{Platform, Type};

// ---------------------------------------------------------------------------
// Types
// ---------------------------------------------------------------------------

macro_rules! visa_types {
    ($( $(#[$m:meta])* $v:ident = $n:literal, $s:literal; )*) => {
        /// A vISA data type, with its 4-bit binary encoding.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u8)]
        #[non_exhaustive]
        pub enum VisaType { $( $(#[$m])* $v = $n, )* }

        impl VisaType {
            /// Every type, by encoding.
            pub const ALL: [VisaType; 16] = [$(VisaType::$v,)*];

            /// The type of a 4-bit encoding (every encoding is a type).
            pub const fn from_bits(n: u8) -> VisaType {
                match n & 15 { $( $n => VisaType::$v, )* _ => VisaType::UD }
            }

            /// The text-format name.
            pub const fn name(self) -> &'static str {
                match self { $( VisaType::$v => $s, )* }
            }
        }
    };
}

visa_types! {
    /// Unsigned doubleword.
    UD = 0, "ud";
    /// Signed doubleword.
    D = 1, "d";
    /// Unsigned word.
    UW = 2, "uw";
    /// Signed word.
    W = 3, "w";
    /// Unsigned byte.
    UB = 4, "ub";
    /// Signed byte.
    B = 5, "b";
    /// Double float.
    DF = 6, "df";
    /// Float.
    F = 7, "f";
    /// Packed signed half-byte vector (immediates).
    V = 8, "v";
    /// Packed restricted-float vector (immediates).
    VF = 9, "vf";
    /// Boolean (predicate variables only).
    Bool = 10, "bool";
    /// Unsigned quadword.
    UQ = 11, "uq";
    /// Packed unsigned half-byte vector (immediates).
    UV = 12, "uv";
    /// Signed quadword.
    Q = 13, "q";
    /// Half float.
    HF = 14, "hf";
    /// Bfloat16 (no Gen7/Gen8 hardware type).
    BF = 15, "bf";
}

impl VisaType {
    /// The 4-bit binary encoding.
    pub const fn bits(self) -> u8 {
        self as u8
    }

    /// Size in bytes of one element held in a register: the packed vector
    /// types count as their elements (V/UV as words, VF as a float).
    pub const fn size(self) -> u32 {
        match self {
            VisaType::UB | VisaType::B | VisaType::Bool => 1,
            VisaType::UW | VisaType::W | VisaType::HF | VisaType::BF | VisaType::V | VisaType::UV => 2,
            VisaType::UD | VisaType::D | VisaType::F | VisaType::VF => 4,
            VisaType::DF | VisaType::UQ | VisaType::Q => 8,
        }
    }

    /// DF, Q and UQ: the types whose constants carry a high dword.
    pub const fn is_64bit(self) -> bool {
        matches!(self, VisaType::DF | VisaType::Q | VisaType::UQ)
    }

    /// The packed vector immediate types.
    pub const fn is_packed(self) -> bool {
        matches!(self, VisaType::V | VisaType::UV | VisaType::VF)
    }

    /// The hardware type of a register operand of this type on `p`
    /// (`None` for the packed types, BOOL, BF, and 64-bit integers or HF
    /// before Gen8).
    pub const fn reg_type(self, p: Platform) -> Option<Type> {
        let t = match self {
            VisaType::UD => Type::UD,
            VisaType::D => Type::D,
            VisaType::UW => Type::UW,
            VisaType::W => Type::W,
            VisaType::UB => Type::UB,
            VisaType::B => Type::B,
            VisaType::DF => Type::DF,
            VisaType::F => Type::F,
            VisaType::UQ => Type::UQ,
            VisaType::Q => Type::Q,
            VisaType::HF => Type::HF,
            VisaType::V | VisaType::VF | VisaType::UV | VisaType::Bool | VisaType::BF => return None,
        };
        if t.reg_hw(p).is_some() {
            Some(t)
        } else {
            None
        }
    }
}

impl fmt::Display for VisaType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

// ---------------------------------------------------------------------------
// Operand tag
// ---------------------------------------------------------------------------

/// The operand class of a vector operand (tag bits 0-2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
#[non_exhaustive]
pub enum OperandClass {
    /// A general variable `V#`.
    General = 0,
    /// An address variable `A#`.
    Address = 1,
    /// A predicate variable `P#`.
    Predicate = 2,
    /// Indirect access to a general variable through an address variable.
    Indirect = 3,
    /// An immediate constant.
    Immediate = 5,
    /// A state variable (surface or sampler).
    State = 6,
}

impl OperandClass {
    /// The class of a 3-bit encoding; 4 and 7 are reserved.
    pub const fn from_bits(n: u8) -> Option<Self> {
        Some(match n {
            0 => OperandClass::General,
            1 => OperandClass::Address,
            2 => OperandClass::Predicate,
            3 => OperandClass::Indirect,
            5 => OperandClass::Immediate,
            6 => OperandClass::State,
            _ => return None,
        })
    }
}

/// An operand modifier (tag bits 3-5). `Sat` is the destination's
/// saturation; the others apply to sources.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[repr(u8)]
#[non_exhaustive]
pub enum Modifier {
    /// No modifier.
    #[default]
    None = 0,
    /// Absolute value, `(abs)`.
    Abs = 1,
    /// Negation, `(-)`.
    Neg = 2,
    /// Negated absolute value, `(-abs)`.
    NegAbs = 3,
    /// Saturation of a destination.
    Sat = 4,
    /// Bitwise not, `(~)`, for logic instructions only.
    Not = 5,
}

impl Modifier {
    /// The modifier of a 3-bit encoding; 6 and 7 are reserved.
    pub const fn from_bits(n: u8) -> Option<Self> {
        Some(match n {
            0 => Modifier::None,
            1 => Modifier::Abs,
            2 => Modifier::Neg,
            3 => Modifier::NegAbs,
            4 => Modifier::Sat,
            5 => Modifier::Not,
            _ => return None,
        })
    }

    /// The text-format spelling.
    pub const fn name(self) -> &'static str {
        match self {
            Modifier::None => "none",
            Modifier::Abs => "(abs)",
            Modifier::Neg => "(-)",
            Modifier::NegAbs => "(-abs)",
            Modifier::Sat => "sat",
            Modifier::Not => "(~)",
        }
    }
}
