//! The typed instruction model.
//!
//! An [`Instruction`] is a faithful, typed view of the native 128-bit word:
//! every bit the hardware defines has a home here, so decoding and
//! re-encoding is lossless. Platform-specific views (immediate values,
//! branch offsets, send descriptors) are methods taking a [`Platform`].

use core::fmt;

pub use crate::isa::{Platform, UnknownPlatform};

pub use crate::isa::opcode::{Form, Opcode};

use crate::isa::hw_enum;
pub use crate::isa::Sfid;
use crate::isa::{NIBBLE_CHANNELS, PRED_CONTROL_NONE, QUARTER_CHANNELS};

hw_enum! {
    /// Execution size: the number of channels.
    #[derive(Default)]
    #[allow(missing_docs)] // variant names are the hardware mnemonics
    ExecSize { #[default] S1 = 0, S2 = 1, S4 = 2, S8 = 3, S16 = 4, S32 = 5 }
}

impl ExecSize {
    /// The number of channels.
    #[inline]
    pub const fn channels(self) -> u32 {
        1 << (self as u32)
    }

    /// The execution size for a channel count.
    pub const fn from_channels(n: u32) -> Option<Self> {
        match n {
            1 => Some(ExecSize::S1),
            2 => Some(ExecSize::S2),
            4 => Some(ExecSize::S4),
            8 => Some(ExecSize::S8),
            16 => Some(ExecSize::S16),
            32 => Some(ExecSize::S32),
            _ => None,
        }
    }
}

hw_enum! {
    /// Operand access mode.
    #[derive(Default)]
    #[allow(missing_docs)] // variant names are the hardware mnemonics
    AccessMode { #[default] Align1 = 0, Align16 = 1 }
}

hw_enum! {
    /// Thread control.
    #[derive(Default)]
    #[allow(missing_docs)] // variant names are the hardware mnemonics
    ThreadControl { #[default] Normal = 0, Atomic = 1, Switch = 2 }
}

hw_enum! {
    /// The register file of an operand. `Imm` is only for sources.
    #[derive(Default)]
    #[allow(missing_docs)] // variant names are the hardware mnemonics
    RegFile { #[default] Arf = 0, Grf = 1, Imm = 3 }
}

hw_enum! {
    /// Conditional modifier (bits 27:24 of non-MATH, non-SEND instructions).
    #[derive(Default)]
    #[allow(missing_docs)] // variant names are the hardware mnemonics
    CondMod { #[default] None = 0, Z = 1, Nz = 2, G = 3, Ge = 4, L = 5, Le = 6, R = 7, O = 8, U = 9 }
}

impl CondMod {
    /// Mesa's suffix, without the dot.
    pub const fn name(self) -> &'static str {
        match self {
            CondMod::None => "",
            CondMod::Z => "z",
            CondMod::Nz => "nz",
            CondMod::G => "g",
            CondMod::Ge => "ge",
            CondMod::L => "l",
            CondMod::Le => "le",
            CondMod::R => "r",
            CondMod::O => "o",
            CondMod::U => "u",
        }
    }
}

/// Mesa's name of the math function code [`crate::isa::MATH_FN_SINCOS`]
/// (Gen4-5's SINCOS, which [`MathFunction`] has no value for).
pub(crate) const MATH_SINCOS_NAME: &str = "sincos";

hw_enum! {
    /// Extended math function (bits 27:24 of MATH).
    #[derive(Default)]
    #[allow(missing_docs)] // variant names are the hardware mnemonics
    MathFunction {
        #[default] None = 0, Inv = 1, Log = 2, Exp = 3, Sqrt = 4, Rsq = 5, Sin = 6, Cos = 7,
        Fdiv = 9, Pow = 10, IntDivQuotientAndRemainder = 11, IntDivQuotient = 12,
        IntDivRemainder = 13, Invm = 14, Rsqrtm = 15,
    }
}

impl MathFunction {
    /// Mesa's name.
    pub const fn name(self) -> &'static str {
        match self {
            MathFunction::None => "",
            MathFunction::Inv => "inv",
            MathFunction::Log => "log",
            MathFunction::Exp => "exp",
            MathFunction::Sqrt => "sqrt",
            MathFunction::Rsq => "rsq",
            MathFunction::Sin => "sin",
            MathFunction::Cos => "cos",
            MathFunction::Fdiv => "fdiv",
            MathFunction::Pow => "pow",
            MathFunction::IntDivQuotientAndRemainder => "intdivmod",
            MathFunction::IntDivQuotient => "intdiv",
            MathFunction::IntDivRemainder => "intmod",
            MathFunction::Invm => "invm",
            MathFunction::Rsqrtm => "rsqrtm",
        }
    }

    /// Whether the function reads src1.
    pub const fn num_srcs(self) -> u8 {
        match self {
            MathFunction::Fdiv
            | MathFunction::Pow
            | MathFunction::IntDivQuotientAndRemainder
            | MathFunction::IntDivQuotient
            | MathFunction::IntDivRemainder
            // INVM reads the dividend (src0) and the divisor (src1): for
            // the operands the IEEE division macro cannot refine (a NaN,
            // infinity or zero) it gives the quotient itself (IGC's
            // `translateVISAArithmeticDoubleInst` passes both; IGA's
            // `GetSourceCount` gives 2). Mesa's disassembler counts 1
            // (Mesa never emits INVM); IGA and IGC are right.
            | MathFunction::Invm => 2,
            _ => 1,
        }
    }

    /// Whether the function is an INT DIV one (quotient, remainder or
    /// both), which takes integer operands.
    pub const fn is_int_div(self) -> bool {
        matches!(
            self,
            MathFunction::IntDivQuotientAndRemainder | MathFunction::IntDivQuotient | MathFunction::IntDivRemainder
        )
    }

    /// Mesa's name of a MATH function code (bits 27:24): a function's
    /// [`name`](Self::name), or [`MATH_SINCOS_NAME`] for Gen4-5's SINCOS
    /// ([`crate::isa::MATH_FN_SINCOS`]), which Mesa still names on Gen7+;
    /// `None` for 0 (no function). The disassembler and the descriptor
    /// printer both print with it.
    #[inline]
    pub(crate) const fn mesa_name_of_code(code: u8) -> Option<&'static str> {
        match MathFunction::from_hw(code) {
            Some(MathFunction::None) => None,
            Some(f) => Some(f.name()),
            None if code == crate::isa::MATH_FN_SINCOS => Some(MATH_SINCOS_NAME),
            None => None,
        }
    }

    /// Whether the platform defines the function: INVM and RSQRTM are
    /// Gen8's, and [`MathFunction::None`] (0) is no function.
    pub const fn defined_on(self, p: Platform) -> bool {
        match self {
            MathFunction::None => false,
            MathFunction::Invm | MathFunction::Rsqrtm => p.is_gen8(),
            _ => true,
        }
    }
}

/// The data type of an operand, independent of its hardware encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[repr(u8)]
#[non_exhaustive]
pub enum Type {
    /// Unsigned doubleword.
    #[default]
    UD,
    /// Signed doubleword.
    D,
    /// Unsigned word.
    UW,
    /// Signed word.
    W,
    /// Unsigned byte.
    UB,
    /// Signed byte.
    B,
    /// Double float.
    DF,
    /// Float.
    F,
    /// Unsigned quadword (Gen8).
    UQ,
    /// Signed quadword (Gen8).
    Q,
    /// Half float (Gen8).
    HF,
    /// Packed signed half-byte vector immediate.
    V,
    /// Packed unsigned half-byte vector immediate.
    UV,
    /// Packed restricted-float vector immediate.
    VF,
}

/// [`Type::size`] by `t as usize`, evaluated at compile time.
#[allow(clippy::indexing_slicing)] // k < len by the loop; t as usize < ALL's length
const TYPE_SIZES: [u8; Type::ALL.len()] = {
    let mut t = [0u8; Type::ALL.len()];
    let mut k = 0;
    while k < Type::ALL.len() {
        let ty = Type::ALL[k];
        t[ty as usize] = ty.size_by_kind() as u8;
        k += 1;
    }
    t
};

impl Type {
    /// Every type.
    pub const ALL: [Type; 14] = [
        Type::UD,
        Type::D,
        Type::UW,
        Type::W,
        Type::UB,
        Type::B,
        Type::DF,
        Type::F,
        Type::UQ,
        Type::Q,
        Type::HF,
        Type::V,
        Type::UV,
        Type::VF,
    ];

    /// Mesa's suffix letters.
    pub const fn name(self) -> &'static str {
        match self {
            Type::UD => "UD",
            Type::D => "D",
            Type::UW => "UW",
            Type::W => "W",
            Type::UB => "UB",
            Type::B => "B",
            Type::DF => "DF",
            Type::F => "F",
            Type::UQ => "UQ",
            Type::Q => "Q",
            Type::HF => "HF",
            Type::V => "V",
            Type::UV => "UV",
            Type::VF => "VF",
        }
    }

    /// Size of one element in bytes (vector immediates count as their
    /// element in a register: 2 bytes for V/UV, 4 for VF).
    #[inline]
    pub const fn size(self) -> u32 {
        // One load from the table built from `size_by_kind` (a match here
        // compiles to a jump table the hardware mispredicts).
        let k = self as usize;
        #[allow(clippy::indexing_slicing)] // every type's index is below ALL's length
        if k < TYPE_SIZES.len() {
            TYPE_SIZES[k] as u32
        } else {
            self.size_by_kind()
        }
    }

    /// [`Type::size`], by the type's kind.
    const fn size_by_kind(self) -> u32 {
        match self {
            Type::UB | Type::B => 1,
            Type::UW | Type::W | Type::HF | Type::V | Type::UV => 2,
            Type::UD | Type::D | Type::F | Type::VF => 4,
            Type::DF | Type::UQ | Type::Q => 8,
        }
    }

    /// Floating-point types.
    pub const fn is_float(self) -> bool {
        matches!(self, Type::F | Type::DF | Type::HF | Type::VF)
    }

    /// Integer types (vector immediates V/UV included).
    pub const fn is_int(self) -> bool {
        !self.is_float()
    }

    /// Signed integer types.
    pub const fn is_signed_int(self) -> bool {
        matches!(self, Type::D | Type::W | Type::B | Type::Q | Type::V)
    }

    /// Vector immediate types.
    pub const fn is_vector_imm(self) -> bool {
        matches!(self, Type::V | Type::UV | Type::VF)
    }

    /// 64-bit types.
    pub const fn is_64bit(self) -> bool {
        self.size() == 8
    }

    /// Hardware encoding of a register (non-immediate) operand type.
    #[inline(always)]
    pub const fn reg_hw(self, p: Platform) -> Option<u8> {
        let gen8 = p.is_gen8();
        Some(match self {
            Type::UD => 0,
            Type::D => 1,
            Type::UW => 2,
            Type::W => 3,
            Type::UB => 4,
            Type::B => 5,
            Type::DF => 6,
            Type::F => 7,
            Type::UQ if gen8 => 8,
            Type::Q if gen8 => 9,
            Type::HF if gen8 => 10,
            _ => return None,
        })
    }

    /// The register operand type of a hardware encoding.
    #[inline]
    #[allow(clippy::indexing_slicing)] // guarded by n < 16, the table's length
    pub const fn from_reg_hw(p: Platform, n: u8) -> Option<Type> {
        let t = if p.is_gen8() { &REG_TYPES_GEN8 } else { &REG_TYPES_GEN7 };
        if n < 16 {
            t[n as usize]
        } else {
            None
        }
    }

    /// Hardware encoding of an immediate operand type.
    #[inline(always)]
    pub const fn imm_hw(self, p: Platform) -> Option<u8> {
        let gen8 = p.is_gen8();
        Some(match self {
            Type::UD => 0,
            Type::D => 1,
            Type::UW => 2,
            Type::W => 3,
            Type::UV => 4,
            Type::VF => 5,
            Type::V => 6,
            Type::F => 7,
            Type::UQ if gen8 => 8,
            Type::Q if gen8 => 9,
            Type::DF if gen8 => 10,
            Type::HF if gen8 => 11,
            _ => return None,
        })
    }

    /// The immediate type of a hardware encoding.
    #[inline]
    #[allow(clippy::indexing_slicing)] // guarded by n < 16, the table's length
    pub const fn from_imm_hw(p: Platform, n: u8) -> Option<Type> {
        let t = if p.is_gen8() { &IMM_TYPES_GEN8 } else { &IMM_TYPES_GEN7 };
        if n < 16 {
            t[n as usize]
        } else {
            None
        }
    }

    /// Hardware encoding in the 3-source instruction's type fields.
    pub const fn three_src_hw(self, p: Platform) -> Option<u8> {
        Some(match self {
            Type::F => 0,
            Type::D => 1,
            Type::UD => 2,
            Type::DF => 3,
            Type::HF if p.is_gen8() => 4,
            _ => return None,
        })
    }

    /// The Gen8 Src1Type/Src2Type bit (instruction bits 36 and 35) that gives
    /// a 3-source source of type `t` beside src0 of type `src0`, or `None`
    /// if the pair cannot be encoded.
    ///
    /// The documentation (3D Media GPGPU, Instruction fields, SrcType, as
    /// quoted in Mesa's `brw_alu3`): "When SrcType field is set to :f or
    /// :hf it defines precision for source 0 only, and fields Src1Type and
    /// Src2Type define precision for other source operands: 0b = :f,
    /// 1b = :hf." With another SrcType (and on Gen7, which has no such
    /// bits) every source has src0's type and the bits are zero.
    pub const fn three_src_precision_bit(p: Platform, src0: Type, t: Type) -> Option<u8> {
        match (p.is_gen8() && matches!(src0, Type::F | Type::HF), t) {
            (true, Type::F) => Some(0),
            (true, Type::HF) => Some(1),
            (true, _) => None,
            (false, _) if t as u8 == src0 as u8 => Some(0),
            (false, _) => None,
        }
    }

    /// The type of a 3-source type encoding.
    pub const fn from_three_src_hw(p: Platform, n: u8) -> Option<Type> {
        Some(match n {
            0 => Type::F,
            1 => Type::D,
            2 => Type::UD,
            3 => Type::DF,
            4 if p.is_gen8() => Type::HF,
            _ => return None,
        })
    }
}

/// Type lookup by hardware encoding, built at compile time from
/// [`Type::reg_hw`] and [`Type::imm_hw`] so the two directions agree.
#[allow(clippy::indexing_slicing)] // k < len by the loop; hardware codes are masked to 0..15
const fn type_table(p: Platform, imm: bool) -> [Option<Type>; 16] {
    let mut t = [None; 16];
    let mut k = 0;
    while k < Type::ALL.len() {
        let ty = Type::ALL[k];
        let hw = if imm { ty.imm_hw(p) } else { ty.reg_hw(p) };
        if let Some(h) = hw {
            t[h as usize & 15] = Some(ty);
        }
        k += 1;
    }
    t
}

const REG_TYPES_GEN7: [Option<Type>; 16] = type_table(Platform::Gen7, false);
const REG_TYPES_GEN8: [Option<Type>; 16] = type_table(Platform::Gen8, false);
const IMM_TYPES_GEN7: [Option<Type>; 16] = type_table(Platform::Gen7, true);
const IMM_TYPES_GEN8: [Option<Type>; 16] = type_table(Platform::Gen8, true);

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Where a register operand lives: a direct register, or an address
/// register plus an immediate offset.
#[derive(Clone, Copy, Debug, Eq, Hash)]
// The equality compares as the derived one would (so the derived hash
// agrees with it); it is written out only to be inlined, see `Src`'s.
#[allow(clippy::derived_hash_with_manual_eq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Addr {
    /// Direct addressing: register number and subregister byte offset.
    Direct {
        /// Register number (for ARF, the encoded ARF number such as 0x10 for acc0).
        nr: u8,
        /// Subregister offset in bytes.
        subnr: u8,
    },
    /// Register-indirect addressing: `[a0.subnr + imm]`.
    Indirect {
        /// Address subregister (a0.N, in 2-byte units).
        subnr: u8,
        /// Signed byte offset added to the address register.
        imm: i16,
    },
}

impl Default for Addr {
    fn default() -> Self {
        Addr::Direct { nr: 0, subnr: 0 }
    }
}

/// The derived equality, always inlined: [`Src`]'s inlined equality
/// compares an `Addr`, and left to itself the compiler kept this a call in
/// the encoder's check that a missing source is zero (+6% of encoding's
/// instructions).
impl PartialEq for Addr {
    #[inline(always)]
    fn eq(&self, o: &Addr) -> bool {
        match (*self, *o) {
            (Addr::Direct { nr, subnr }, Addr::Direct { nr: n, subnr: s }) => nr == n && subnr == s,
            (Addr::Indirect { subnr, imm }, Addr::Indirect { subnr: s, imm: i }) => subnr == s && imm == i,
            _ => false,
        }
    }
}

/// Region description: raw encodings of vertical stride, width and
/// horizontal stride (`<vstride;width,hstride>`).
///
/// Encodings: vstride 0 → 0, n → 2^(n-1) for n in 1..=6, 0xF → VxH;
/// width n → 2^n; hstride 0 → 0, n → 2^(n-1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Region {
    /// Vertical stride encoding (4 bits).
    pub vstride: u8,
    /// Width encoding (3 bits).
    pub width: u8,
    /// Horizontal stride encoding (2 bits).
    pub hstride: u8,
}

impl Region {
    /// The scalar region `<0;1,0>`.
    pub const SCALAR: Region = Region {
        vstride: 0,
        width: 0,
        hstride: 0,
    };

    /// The 3-source region without replicate control, `<4;4,1>`.
    pub const THREE_SRC: Region = Region {
        vstride: crate::isa::region::VSTRIDE_4,
        width: crate::isa::region::WIDTH_4,
        hstride: crate::isa::region::HSTRIDE_1,
    };

    /// Builds a region from element counts; `None` if a value has no encoding.
    pub const fn new(vstride: u32, width: u32, hstride: u32) -> Option<Region> {
        use crate::isa::region::{hstride_defined, vstride_is_stride, width_defined};
        // The strides are 0 or a power of two (encoded as one more than
        // its exponent: the bit length), the width a power of two
        // (encoded as its exponent), each up to its last code; tested
        // together rather than value by value.
        const fn zero_or_pow2(n: u32) -> bool {
            n & n.wrapping_sub(1) == 0
        }
        const fn bit_length(n: u32) -> u8 {
            (u32::BITS - n.leading_zeros()) as u8
        }
        if !(zero_or_pow2(vstride) && width.is_power_of_two() && zero_or_pow2(hstride)) {
            return None;
        }
        let (v, w, h) = (bit_length(vstride), bit_length(width) - 1, bit_length(hstride));
        if !(vstride_is_stride(v) && width_defined(w) && hstride_defined(h)) {
            return None;
        }
        Some(Region {
            vstride: v,
            width: w,
            hstride: h,
        })
    }

    /// Vertical stride in elements; `None` for VxH (0xF) or a reserved encoding.
    pub const fn vstride_elems(self) -> Option<u32> {
        match self.vstride {
            0 => Some(0),
            v if crate::isa::region::vstride_is_stride(v) => Some(1 << (v - 1)),
            _ => None,
        }
    }

    /// Width in elements; `None` for a reserved encoding.
    pub const fn width_elems(self) -> Option<u32> {
        if crate::isa::region::width_defined(self.width) {
            Some(1 << self.width)
        } else {
            None
        }
    }

    /// Whether the region is the scalar `<0;1,0>`.
    #[inline(always)]
    pub const fn is_scalar(self) -> bool {
        self.vstride == Region::SCALAR.vstride
            && self.width == Region::SCALAR.width
            && self.hstride == Region::SCALAR.hstride
    }

    /// Whether the region is VxH (vertical stride code 0xF): one address
    /// register per row, no vertical stride.
    #[inline(always)]
    pub const fn is_vxh(self) -> bool {
        self.vstride == crate::isa::region::VSTRIDE_VXH
    }

    /// Whether every code names a count of elements: no VxH and no
    /// reserved code.
    #[inline(always)]
    pub const fn has_element_counts(self) -> bool {
        use crate::isa::region::{hstride_defined, vstride_is_stride, width_defined};
        vstride_is_stride(self.vstride) && width_defined(self.width) && hstride_defined(self.hstride)
    }

    /// Horizontal stride in elements.
    pub const fn hstride_elems(self) -> u32 {
        match self.hstride {
            0 => 0,
            n => 1 << (n - 1),
        }
    }
}

/// Align16 swizzle: four 2-bit channel selectors, x in the low bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Swizzle(pub u8);

impl Swizzle {
    /// The identity swizzle `.xyzw`.
    pub const XYZW: Swizzle = Swizzle(0b11_10_01_00);

    /// The selector (0..=3) for channel `i` (0..=3).
    pub const fn get(self, i: u32) -> u8 {
        (self.0 >> ((i & 3) * 2)) & 3
    }

    /// The bits of a Gen7/7.5 3-source src1 swizzle that overlap the
    /// native word's flag register fields (bits 90 and 89): swizzle bits
    /// 4 (register) and 3 (subregister), where Mesa reads the flag it
    /// prints.
    pub(crate) const GEN7_FLAG_BITS: u8 = 0x18;

    /// The flag register that [`Swizzle::GEN7_FLAG_BITS`] name.
    pub(crate) const fn gen7_flag(self) -> FlagReg {
        FlagReg {
            nr: (self.0 >> 4) & 1,
            subnr: (self.0 >> 3) & 1,
        }
    }

    /// This swizzle with [`Swizzle::GEN7_FLAG_BITS`] naming `f`.
    pub(crate) const fn with_gen7_flag(self, f: FlagReg) -> Swizzle {
        Swizzle(self.0 & !Self::GEN7_FLAG_BITS | (f.nr & 1) << 4 | (f.subnr & 1) << 3)
    }
}

impl Default for Swizzle {
    fn default() -> Self {
        Swizzle::XYZW
    }
}

bitflags::bitflags! {
    /// Align16 destination write mask (channel enables).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
    pub struct WriteMask: u8 {
        /// Channel x.
        const X = 1;
        /// Channel y.
        const Y = 2;
        /// Channel z.
        const Z = 4;
        /// Channel w.
        const W = 8;
        /// All four channels.
        const XYZW = 0xf;
    }
}

impl Default for WriteMask {
    fn default() -> Self {
        WriteMask::XYZW
    }
}

#[cfg(feature = "arbitrary")]
impl<'a> arbitrary::Arbitrary<'a> for WriteMask {
    fn arbitrary(u: &mut arbitrary::Unstructured<'a>) -> arbitrary::Result<Self> {
        Ok(WriteMask::from_bits_truncate(u8::arbitrary(u)?))
    }
}

hw_enum! {
    /// A math-macro operand specifier: which of the extended-precision
    /// registers `mme0`-`mme7` (the accumulators acc2-acc9) holds the rest
    /// of an operand of Gen8's `madm` and MATH `invm` and `rsqrtm`, or
    /// `nomme` for none. The IEEE division and square root macros (IGC's
    /// `translateVISAArithmeticDoubleInst` and its float and square-root
    /// siblings) chain intermediate values through them.
    ///
    /// The encoding is IGA's and GED's (`MathMacroExt`, values 0-8): a
    /// macro instruction's align16 destination write mask holds the
    /// destination's, and the low four bits of each source's swizzle
    /// field (channel selectors x and y) the source's; IGC's encoder
    /// writes the same values there (`ACC2` = 0 ... `ACC9` = 7, `NOACC` =
    /// 8). No separate field exists: [`Dst::math_macro`] and
    /// [`Src::math_macro`] read the specifier out of those bits, which
    /// the codec keeps as the write mask and swizzle, so every word still
    /// decodes and encodes to itself.
    #[allow(missing_docs)] // `MmeN` is register mmeN (accN+2)
    MathMacro {
        Mme0 = 0, Mme1 = 1, Mme2 = 2, Mme3 = 3, Mme4 = 4, Mme5 = 5, Mme6 = 6, Mme7 = 7,
        /// No extended-precision register.
        NoMme = 8,
    }
}

impl MathMacro {
    /// IGA's name (`mme0`-`mme7`, `nomme`), also geneu's spelling in Mesa's
    /// syntax, which has none of its own.
    pub const fn name(self) -> &'static str {
        match self {
            MathMacro::Mme0 => "mme0",
            MathMacro::Mme1 => "mme1",
            MathMacro::Mme2 => "mme2",
            MathMacro::Mme3 => "mme3",
            MathMacro::Mme4 => "mme4",
            MathMacro::Mme5 => "mme5",
            MathMacro::Mme6 => "mme6",
            MathMacro::Mme7 => "mme7",
            MathMacro::NoMme => "nomme",
        }
    }

    /// The register number of `mmeN` (`None` for `nomme`).
    pub const fn register(self) -> Option<u8> {
        match self {
            MathMacro::NoMme => None,
            m => Some(m as u8),
        }
    }

    /// The specifier of IGA's name.
    pub fn from_name(s: &str) -> Option<MathMacro> {
        MathMacro::ALL.iter().copied().find(|m| m.name() == s)
    }

    /// The bits of a source swizzle field that hold a specifier (channel
    /// selectors x and y).
    pub const SWIZZLE_BITS: u8 = 0x0f;
}

/// The destination operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Dst {
    /// Register file (ARF or GRF).
    pub file: RegFile,
    /// Data type.
    pub ty: Type,
    /// Direct or indirect register.
    pub addr: Addr,
    /// Horizontal stride encoding (0..=3: 0, 1, 2, 4 elements).
    pub hstride: u8,
    /// Align16 write mask (ignored in align1).
    pub writemask: WriteMask,
}

impl Default for Dst {
    fn default() -> Self {
        Dst::null()
    }
}

impl Dst {
    /// The null register, `null<1>UD`.
    pub const fn null() -> Dst {
        Dst {
            file: RegFile::Arf,
            ty: Type::UD,
            addr: Addr::Direct { nr: 0, subnr: 0 },
            hstride: 1,
            writemask: WriteMask::XYZW,
        }
    }

    /// The horizontal stride in elements (0, 1, 2 or 4), from its code.
    pub const fn hstride_elems(&self) -> u32 {
        match self.hstride {
            0 => 0,
            n => 1 << (n - 1),
        }
    }

    /// The same destination with a horizontal stride of `elems` elements,
    /// so that no caller writes the stride's code; `None` if the stride has
    /// no encoding (0, 1, 2 and 4 have one; 0 is for the validator to judge).
    pub const fn with_hstride(mut self, elems: u32) -> Option<Dst> {
        self.hstride = match elems {
            0 => 0,
            1 => 1,
            2 => 2,
            4 => 3,
            _ => return None,
        };
        Some(self)
    }

    /// The math-macro specifier the write mask holds (meaningful for a
    /// macro instruction, [`Instruction::is_math_macro`]); `None` for a
    /// write mask that names none (9-15).
    pub const fn math_macro(&self) -> Option<MathMacro> {
        MathMacro::from_hw(self.writemask.bits())
    }

    /// The same destination with math-macro specifier `m` in its write
    /// mask.
    pub const fn with_math_macro(mut self, m: MathMacro) -> Dst {
        self.writemask = WriteMask::from_bits_truncate(m.hw());
        self
    }

    /// A GRF destination `g{nr}.{subnr}<hstride>{ty}` with an align1 stride of 1.
    pub const fn grf(nr: u8, subnr: u8, ty: Type) -> Dst {
        Dst {
            file: RegFile::Grf,
            ty,
            addr: Addr::Direct { nr, subnr },
            hstride: 1,
            writemask: WriteMask::XYZW,
        }
    }
}

bitflags::bitflags! {
    /// Source modifiers.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
    #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
    pub struct SrcMods: u8 {
        /// Negate (bitwise not for logic opcodes).
        const NEGATE = 1;
        /// Absolute value.
        const ABS = 2;
    }
}

#[cfg(feature = "arbitrary")]
impl<'a> arbitrary::Arbitrary<'a> for SrcMods {
    fn arbitrary(u: &mut arbitrary::Unstructured<'a>) -> arbitrary::Result<Self> {
        Ok(SrcMods::from_bits_truncate(u8::arbitrary(u)?))
    }
}

/// A source operand. For an immediate source (`file == Imm`) only `ty`
/// matters here: the value lives in [`Instruction::imm`].
#[derive(Clone, Copy, Debug, Eq, Hash)]
// The equality compares every field, as the derived one would (so the
// derived hash agrees with it); it is written out only to be inlined.
#[allow(clippy::derived_hash_with_manual_eq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Src {
    /// Register file, or `Imm`.
    pub file: RegFile,
    /// Data type.
    pub ty: Type,
    /// Direct or indirect register.
    pub addr: Addr,
    /// Align1 region (in align16 only `vstride` is encoded).
    pub region: Region,
    /// Align16 swizzle (ignored in align1).
    pub swizzle: Swizzle,
    /// Negate and absolute-value modifiers.
    pub mods: SrcMods,
}

impl Default for Src {
    fn default() -> Self {
        Src::ZERO
    }
}

/// The derived equality, always inlined: the disassembler checks for
/// every word that a source holds a constant (its canonical value, see
/// `canon`), and inlined those compares fold against it. The region and
/// type first, where a source most often differs from IGA's canonical one
/// (a SEND's payload region), the address (a compare per variant) last.
impl PartialEq for Src {
    #[inline(always)]
    fn eq(&self, o: &Src) -> bool {
        self.region == o.region
            && self.ty == o.ty
            && self.file == o.file
            && self.swizzle == o.swizzle
            && self.mods == o.mods
            && self.addr == o.addr
    }
}

impl Src {
    /// The all-zero source encoding (`null<0,1,0>UD`), which the hardware
    /// ignores when the opcode does not read the source.
    pub const ZERO: Src = Src {
        file: RegFile::Arf,
        ty: Type::UD,
        addr: Addr::Direct { nr: 0, subnr: 0 },
        region: Region::SCALAR,
        swizzle: Swizzle(0),
        mods: SrcMods::empty(),
    };

    /// A direct GRF source with an align1 region.
    pub const fn grf(nr: u8, subnr: u8, ty: Type, region: Region) -> Src {
        Src {
            file: RegFile::Grf,
            ty,
            addr: Addr::Direct { nr, subnr },
            region,
            swizzle: Swizzle(0),
            mods: SrcMods::empty(),
        }
    }

    /// An immediate source of type `ty` (the value is in [`Instruction::imm`]).
    pub const fn imm(ty: Type) -> Src {
        Src {
            file: RegFile::Imm,
            ..Src::ZERO
        }
        .with_ty(ty)
    }

    /// The same source with another type.
    pub const fn with_ty(mut self, ty: Type) -> Src {
        self.ty = ty;
        self
    }

    /// Whether the source is an immediate.
    pub const fn is_imm(&self) -> bool {
        matches!(self.file, RegFile::Imm)
    }

    /// The math-macro specifier the swizzle's low four bits hold
    /// (meaningful for a macro instruction, [`Instruction::is_math_macro`]);
    /// `None` for bits that name none (9-15).
    pub const fn math_macro(&self) -> Option<MathMacro> {
        MathMacro::from_hw(self.swizzle.0 & MathMacro::SWIZZLE_BITS)
    }

    /// The same source with math-macro specifier `m` in its swizzle's low
    /// four bits (the high four are kept).
    pub const fn with_math_macro(mut self, m: MathMacro) -> Src {
        self.swizzle = Swizzle(self.swizzle.0 & !MathMacro::SWIZZLE_BITS | m.hw());
        self
    }
}

bitflags::bitflags! {
    /// Single-bit instruction controls.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
    #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
    pub struct Controls: u16 {
        /// Mask control: execute on all channels (WE_all).
        const WE_ALL = 1 << 0;
        /// Accumulator write enable (Gen8 branches: branch control).
        const ACC_WR = 1 << 1;
        /// Saturate the result.
        const SATURATE = 1 << 2;
        /// Debug control: breakpoint.
        const BREAKPOINT = 1 << 3;
        /// Compaction control (set only in compacted words).
        const COMPACTED = 1 << 4;
        /// No destination dependency clear.
        const NO_DD_CLEAR = 1 << 5;
        /// No destination dependency check.
        const NO_DD_CHECK = 1 << 6;
        /// Invert the predicate.
        const PRED_INV = 1 << 7;
        /// Nibble control: second 4-channel half of the quarter.
        const NIB_CTRL = 1 << 8;
    }
}

#[cfg(feature = "arbitrary")]
impl<'a> arbitrary::Arbitrary<'a> for Controls {
    fn arbitrary(u: &mut arbitrary::Unstructured<'a>) -> arbitrary::Result<Self> {
        Ok(Controls::from_bits_truncate(u16::arbitrary(u)?))
    }
}

/// A flag subregister `f{nr}.{subnr}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FlagReg {
    /// Flag register (0 or 1).
    pub nr: u8,
    /// Subregister (0 or 1).
    pub subnr: u8,
}

/// How a predicate combines flag bits (the predicate control field).
/// The encoding depends on the access mode: [`PredCtrl::hw`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
#[allow(missing_docs)] // Mesa's mnemonics
pub enum PredCtrl {
    /// One flag bit per channel (`(+f0.0)`).
    #[default]
    Normal,
    AnyV,
    AllV,
    Any2h,
    All2h,
    Any4h,
    All4h,
    Any8h,
    All8h,
    Any16h,
    All16h,
    Any32h,
    All32h,
    /// Align16 replicate x (`.x`).
    X,
    Y,
    Z,
    W,
    /// An encoding given by its number (1..=15), such as one the access
    /// mode reserves (a decoded word may hold it; Mesa prints `*** invalid
    /// predicate control`). The validator refuses a reserved one. Not in
    /// [`PredCtrl::ALL`]; [`PredCtrl::from_hw`] names the others.
    Reserved(u8),
}

impl PredCtrl {
    /// The predicate control encoding in `mode`, if the combination exists.
    ///
    /// ```
    /// use geneu::{AccessMode, PredCtrl};
    /// assert_eq!(PredCtrl::X.hw(AccessMode::Align16), Some(2));
    /// assert_eq!(PredCtrl::X.hw(AccessMode::Align1), None);
    /// assert_eq!(PredCtrl::Any4h.hw(AccessMode::Align1), Some(6));
    /// ```
    pub const fn hw(self, mode: AccessMode) -> Option<u8> {
        use PredCtrl::*;
        let a16 = matches!(mode, AccessMode::Align16);
        Some(match (self, a16) {
            (Normal, _) => 1,
            (Any4h, _) => 6,
            (All4h, _) => 7,
            (AnyV, false) => 2,
            (AllV, false) => 3,
            (Any2h, false) => 4,
            (All2h, false) => 5,
            (Any8h, false) => 8,
            (All8h, false) => 9,
            (Any16h, false) => 10,
            (All16h, false) => 11,
            (Any32h, false) => 12,
            (All32h, false) => 13,
            (X, true) => 2,
            (Y, true) => 3,
            (Z, true) => 4,
            (W, true) => 5,
            (Reserved(n), _) if n != 0 && n <= 15 => n,
            _ => return None,
        })
    }
}

impl PredCtrl {
    /// The predicate control of encoding `n` in `mode` (`None` for 0, no
    /// predicate, and for reserved encodings).
    ///
    /// ```
    /// use geneu::{AccessMode, PredCtrl};
    /// assert_eq!(PredCtrl::from_hw(AccessMode::Align16, 2), Some(PredCtrl::X));
    /// assert_eq!(PredCtrl::from_hw(AccessMode::Align1, 2), Some(PredCtrl::AnyV));
    /// ```
    pub fn from_hw(mode: AccessMode, n: u8) -> Option<PredCtrl> {
        let table = match mode {
            AccessMode::Align16 => &PRED_BY_HW_ALIGN16,
            _ => &PRED_BY_HW_ALIGN1,
        };
        table.get(usize::from(n)).copied().flatten()
    }

    /// Every predicate control.
    pub const ALL: &'static [PredCtrl] = {
        use PredCtrl::*;
        &[
            Normal, AnyV, AllV, Any2h, All2h, Any4h, All4h, Any8h, All8h, Any16h, All16h, Any32h, All32h, X, Y, Z, W,
        ]
    };

    /// Mesa's suffix without the dot (`anyv`, `x`, ...); empty for
    /// [`PredCtrl::Normal`], which has none, and for a
    /// [`PredCtrl::Reserved`] number, which has no name.
    pub const fn name(self) -> &'static str {
        use PredCtrl::*;
        match self {
            Normal => "",
            AnyV => "anyv",
            AllV => "allv",
            Any2h => "any2h",
            All2h => "all2h",
            Any4h => "any4h",
            All4h => "all4h",
            Any8h => "any8h",
            All8h => "all8h",
            Any16h => "any16h",
            All16h => "all16h",
            Any32h => "any32h",
            All32h => "all32h",
            X => "x",
            Y => "y",
            Z => "z",
            W => "w",
            Reserved(_) => "",
        }
    }
}

impl PredCtrl {
    /// The largest encoding `mode` defines (13 in align1, 7 in align16),
    /// from [`PredCtrl::hw`]; every encoding from 1 up to it names a
    /// control (checked below at compile time), so a larger one is
    /// reserved.
    #[allow(clippy::indexing_slicing)] // k < len by the loop; evaluated at compile time
    pub(crate) const fn max_hw(mode: AccessMode) -> u8 {
        let mut max = 0;
        let mut k = 0;
        while k < PredCtrl::ALL.len() {
            if let Some(n) = PredCtrl::ALL[k].hw(mode) {
                if n > max {
                    max = n;
                }
            }
            k += 1;
        }
        max
    }
}

// The encodings of each access mode have no gap: a predicate control is
// reserved exactly when it is above `PredCtrl::max_hw`.
#[allow(clippy::indexing_slicing)]
const _: () = {
    let modes = [AccessMode::Align1, AccessMode::Align16];
    let mut m = 0;
    while m < modes.len() {
        let t = pred_by_hw(modes[m]);
        let max = PredCtrl::max_hw(modes[m]) as usize;
        let mut n = 1;
        while n < t.len() {
            assert!(t[n].is_some() == (n <= max));
            n += 1;
        }
        m += 1;
    }
};

/// [`PredCtrl::from_hw`]'s tables, derived from [`PredCtrl::hw`] at
/// compile time (index: the 4-bit field).
const PRED_BY_HW_ALIGN1: [Option<PredCtrl>; 16] = pred_by_hw(AccessMode::Align1);
const PRED_BY_HW_ALIGN16: [Option<PredCtrl>; 16] = pred_by_hw(AccessMode::Align16);

// Evaluated only at compile time, where an index out of bounds is a build
// error, not a panic (`k < ALL.len()`, and `hw` gives a 4-bit code).
#[allow(clippy::indexing_slicing)]
const fn pred_by_hw(mode: AccessMode) -> [Option<PredCtrl>; 16] {
    let mut t = [None; 16];
    let mut k = 0;
    while k < PredCtrl::ALL.len() {
        let c = PredCtrl::ALL[k];
        if let Some(n) = c.hw(mode) {
            t[n as usize] = Some(c);
        }
        k += 1;
    }
    t
}

/// The quarter control and NibCtrl that make an instruction of `exec`
/// channels start at channel `first` (Mesa's `1Q`..`4Q`, `1H`/`2H`,
/// `1N`..`8N`): `None` unless `first` is a multiple of the execution size
/// (at least 4) and the group ends by channel 32.
pub(crate) const fn channel_group_codes(exec: ExecSize, first: u32) -> Option<(u8, bool)> {
    let n = exec.channels();
    let align = if n > NIBBLE_CHANNELS { n } else { NIBBLE_CHANNELS };
    if first % align != 0 || first + n > ExecSize::S32.channels() {
        return None;
    }
    Some(channel_group_of(first))
}

/// The quarter-control and nibble-control codes of a channel group that
/// starts at channel `first` (a multiple of [`NIBBLE_CHANNELS`] below 32),
/// whatever the execution size: [`channel_group_codes`] once it is known,
/// the assembler's `nN`/`nQ`/`nH` options before.
pub(crate) const fn channel_group_of(first: u32) -> (u8, bool) {
    (
        ((first / QUARTER_CHANNELS) & QTR_CONTROL_MAX as u32) as u8,
        (first / NIBBLE_CHANNELS) % 2 == 1,
    )
}

/// The operands of the 3-source layout differ only in encoding; they use
/// [`Src`] with `file == Grf`, direct addressing, and a region that is
/// either `<4;4,1>` or, with replicate control, the scalar `<0;1,0>`.
///
/// A decoded or encodable instruction.
#[derive(Clone, Copy, Debug, Eq, Hash)]
// The equality compares as the derived one would (so the derived hash
// agrees with it); it is written out to compare the sources one by one,
// inlined, where the derived one calls a slice loop (see `Src`'s).
#[allow(clippy::derived_hash_with_manual_eq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Instruction {
    /// Opcode.
    pub opcode: Opcode,
    /// Execution size.
    pub exec_size: ExecSize,
    /// Access mode.
    pub access_mode: AccessMode,
    /// Thread control.
    pub thread_control: ThreadControl,
    /// Quarter control, raw (0..=3: 1Q..4Q, or 1H/2H for SIMD16 in steps
    /// of 2); typed: [`Instruction::first_channel`] and
    /// [`Instruction::set_first_channel`].
    pub qtr_control: u8,
    /// Predicate control, raw (0 none, 1 sequential, 2.. per access mode);
    /// typed: [`Instruction::pred_ctrl`] and [`Instruction::set_pred_ctrl`].
    pub pred_control: u8,
    /// Bits 27:24: conditional modifier, math function or SFID, per opcode.
    pub cond_modifier: u8,
    /// Single-bit controls.
    pub controls: Controls,
    /// Flag register for predication and conditional modifiers.
    pub flag: FlagReg,
    /// Destination.
    pub dst: Dst,
    /// Sources; `src[2]` is used only by 3-source opcodes.
    pub src: [Src; 3],
    /// Immediate payload (see [`Instruction::imm_value`]): for a 32-bit
    /// immediate its value is in the low 32 bits; on Gen8 a src0 immediate
    /// also carries bits 95:64 in the high 32 bits (UIP for branches), and a
    /// 64-bit immediate is the whole value.
    pub imm: u64,
    /// The subregister index of the compacted word this instruction was
    /// read from, when it is not the one compaction picks: with an
    /// immediate source, the immediate covers the bits that tell several
    /// entries of the subregister table apart (src1's subregister), so
    /// several indices stand for the same native word, and the hardware
    /// runs each. 0 (the default) stands for the lowest such index, which
    /// [`crate::compact::compact`] writes (a repeated index is never 0: an
    /// earlier entry comes before it). Only a compacted word holds it: the
    /// 16-byte encoders refuse an instruction that sets it. (A byte, not an
    /// `Option`, so that the instruction keeps its 64 bytes.)
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "is_zero"))]
    pub compact_subreg: u8,
}

/// Whether a byte is zero (serde's test for [`Instruction::compact_subreg`]).
#[cfg(feature = "serde")]
#[allow(clippy::trivially_copy_pass_by_ref)] // serde passes a reference
const fn is_zero(v: &u8) -> bool {
    *v == 0
}

/// The derived equality, the sources unrolled: the IGA printer compares
/// every word's instruction with its canonical form. The fields where a
/// word most often differs from it come first (the sources' regions and
/// types, the access mode): the test stops there.
impl PartialEq for Instruction {
    #[inline(always)]
    fn eq(&self, o: &Instruction) -> bool {
        self.src[0] == o.src[0]
            && self.src[1] == o.src[1]
            && self.access_mode == o.access_mode
            && self.src[2] == o.src[2]
            && self.dst == o.dst
            && self.opcode == o.opcode
            && self.exec_size == o.exec_size
            && self.thread_control == o.thread_control
            && self.qtr_control == o.qtr_control
            && self.pred_control == o.pred_control
            && self.cond_modifier == o.cond_modifier
            && self.controls == o.controls
            && self.flag == o.flag
            && self.imm == o.imm
            && self.compact_subreg == o.compact_subreg
    }
}

impl Default for Instruction {
    fn default() -> Self {
        Instruction::new(Opcode::Nop, ExecSize::S1)
    }
}

impl Instruction {
    /// A new instruction with everything else zero/null.
    pub const fn new(opcode: Opcode, exec_size: ExecSize) -> Self {
        Instruction {
            opcode,
            exec_size,
            access_mode: AccessMode::Align1,
            thread_control: ThreadControl::Normal,
            qtr_control: 0,
            pred_control: PRED_CONTROL_NONE,
            cond_modifier: 0,
            controls: Controls::empty(),
            flag: FlagReg { nr: 0, subnr: 0 },
            dst: Dst::null(),
            src: [Src::ZERO; 3],
            imm: 0,
            compact_subreg: 0,
        }
    }

    /// The instruction as its native word stands for it: without
    /// [`Controls::COMPACTED`] and [`Instruction::compact_subreg`], what
    /// decoding the 16-byte word gives.
    #[cfg(feature = "check")]
    #[inline]
    pub(crate) fn native(&self) -> Instruction {
        let mut i = *self;
        i.controls.remove(Controls::COMPACTED);
        i.compact_subreg = 0;
        i
    }

    /// Whether the instruction is marked [`Controls::COMPACTED`]: stored
    /// as 8 bytes by compaction. Its native word has CmptCtrl clear
    /// (`codec::native_word`), and it is never written as a 16-byte word
    /// by checked encoding or the builder.
    #[inline]
    pub(crate) fn marked_compacted(&self) -> bool {
        self.controls.contains(Controls::COMPACTED)
    }

    /// The conditional modifier, for opcodes other than MATH and SEND.
    pub fn cond_mod(&self) -> Option<CondMod> {
        if !self.opcode.form().has_cond_modifier_field() {
            None
        } else {
            CondMod::from_hw(self.cond_modifier)
        }
    }

    /// The math function of a MATH instruction.
    pub fn math_function(&self) -> Option<MathFunction> {
        if matches!(self.opcode, Opcode::Math) {
            MathFunction::from_hw(self.cond_modifier)
        } else {
            None
        }
    }

    /// The shared function a SEND/SENDC goes to; `None` for other opcodes
    /// and for the reserved encodings 14 and 15 (which stay readable, raw,
    /// in [`Instruction::cond_modifier`]).
    #[inline]
    pub fn sfid(&self) -> Option<Sfid> {
        if self.opcode.is_send() {
            Sfid::from_hw(self.cond_modifier)
        } else {
            None
        }
    }

    /// Sends the instruction to shared function `sfid` (bits 27:24, which
    /// the SFID shares with the conditional modifier of other opcodes).
    #[inline]
    pub fn set_sfid(&mut self, sfid: Sfid) {
        self.cond_modifier = sfid.hw();
    }

    /// The predicate control, typed for the access mode: `Ok(None)` when
    /// the instruction is not predicated, `Err(code)` for a raw code that
    /// the access mode does not define (which `validate` refuses).
    ///
    /// ```
    /// use geneu::{ExecSize, Instruction, Opcode, PredCtrl};
    /// let mut i = Instruction::new(Opcode::Mov, ExecSize::S8);
    /// assert_eq!(i.pred_ctrl(), Ok(None));
    /// assert!(i.set_pred_ctrl(Some(PredCtrl::Any8h)));
    /// assert_eq!((i.pred_control, i.pred_ctrl()), (8, Ok(Some(PredCtrl::Any8h))));
    /// assert!(!i.set_pred_ctrl(Some(PredCtrl::X))); // align16 only
    /// ```
    pub fn pred_ctrl(&self) -> Result<Option<PredCtrl>, u8> {
        match self.pred_control {
            0 => Ok(None),
            n => PredCtrl::from_hw(self.access_mode, n).map(Some).ok_or(n),
        }
    }

    /// Predicates the instruction with `ctrl` (on [`Instruction::flag`]),
    /// or clears the predicate with `None`; `false`, changing nothing, for
    /// a control the access mode does not have.
    #[must_use]
    pub fn set_pred_ctrl(&mut self, ctrl: Option<PredCtrl>) -> bool {
        match ctrl.map(|c| c.hw(self.access_mode)) {
            None => self.pred_control = PRED_CONTROL_NONE,
            Some(Some(n)) => self.pred_control = n,
            Some(None) => return false,
        }
        true
    }

    /// The first channel the instruction executes (quarter control and
    /// NibCtrl: Mesa's `1Q` is 0, `2H` is 16, `3N` is 8).
    pub fn first_channel(&self) -> u32 {
        u32::from(self.qtr_control) * QUARTER_CHANNELS
            + if self.controls.contains(Controls::NIB_CTRL) {
                NIBBLE_CHANNELS
            } else {
                0
            }
    }

    /// Makes the instruction start at channel `first`, a multiple of its
    /// execution size (at least 4) whose group ends by channel 32; `false`,
    /// changing nothing, when its execution size cannot start there.
    ///
    /// ```
    /// use geneu::{ExecSize, Instruction, Opcode};
    /// let mut i = Instruction::new(Opcode::Add, ExecSize::S8);
    /// assert!(i.set_first_channel(24)); // 4Q
    /// assert_eq!((i.qtr_control, i.first_channel()), (3, 24));
    /// assert!(!i.set_first_channel(4)); // SIMD8 starts on a quarter
    /// ```
    #[must_use]
    pub fn set_first_channel(&mut self, first: u32) -> bool {
        let Some((qtr, nib)) = channel_group_codes(self.exec_size, first) else {
            return false;
        };
        self.qtr_control = qtr;
        self.controls.set(Controls::NIB_CTRL, nib);
        true
    }

    /// Whether the instruction is a math macro, whose operands carry
    /// [`MathMacro`] specifiers in place of write masks and swizzles:
    /// Gen8's `madm`, and MATH `invm` and `rsqrtm` (IGA's `isMacro`).
    pub fn is_math_macro(&self) -> bool {
        self.opcode == Opcode::Madm
            || (self.opcode == Opcode::Math
                && matches!(self.math_function(), Some(MathFunction::Invm | MathFunction::Rsqrtm)))
    }

    /// Number of sources the instruction reads.
    pub fn num_srcs(&self) -> u8 {
        match self.math_function() {
            Some(f) => f.num_srcs(),
            None => self.opcode.num_srcs(),
        }
    }

    /// Whether source `k`'s type field holds an immediate type code rather
    /// than a register type code: an immediate source, and the unread src1
    /// beside an immediate src0 ([`Instruction::src1_type_copies_imm0`]),
    /// whose type field Mesa fills with the immediate's own type code (so
    /// that Gen8's HF immediate, code 11, which no register type has, reads
    /// back).
    #[inline(always)]
    pub const fn src_type_is_imm_code(&self, k: usize) -> bool {
        match k {
            0 => self.src[0].is_imm(),
            1 => self.src[1].is_imm() || self.src1_type_copies_imm0(),
            _ => false,
        }
    }

    /// Whether src1's type field holds a copy of an immediate src0's type
    /// code: the opcode reads exactly one source (not SEND, whose src1 is
    /// its descriptor, nor MATH, whose src1 its syntax shows), so src1 is
    /// unused and Mesa's `brw_set_src0` fills the field with the
    /// immediate's code. Any other src1 keeps a register type code.
    #[inline(always)]
    pub const fn src1_type_copies_imm0(&self) -> bool {
        self.src[0].is_imm() && !self.opcode.is_send() && self.opcode.num_srcs() == 1
    }

    /// The hardware code of source `k`'s type in its type field on `p`
    /// (see [`Instruction::src_type_is_imm_code`]), or `None` if the type
    /// has no code there.
    #[inline(always)]
    pub fn src_type_hw(&self, p: Platform, k: usize) -> Option<u8> {
        let t = self.src.get(k)?.ty;
        if self.src_type_is_imm_code(k) {
            t.imm_hw(p)
        } else {
            t.reg_hw(p)
        }
    }

    /// Index of the immediate source, if any.
    pub fn imm_src(&self) -> Option<usize> {
        if self.opcode.is_three_src() {
            return None;
        }
        if self.src[0].is_imm() {
            Some(0)
        } else if self.src[1].is_imm() {
            Some(1)
        } else {
            None
        }
    }

    /// The immediate value's bits as its type sees them (32-bit types in
    /// the low half), if the instruction has an immediate.
    pub fn imm_value(&self) -> Option<(Type, u64)> {
        let i = self.imm_src()?;
        let ty = self.src.get(i)?.ty;
        Some((
            ty,
            if ty.is_64bit() {
                self.imm
            } else {
                self.imm & 0xffff_ffff
            },
        ))
    }

    /// Where a Gen7/7.5 branch's payload keeps JIP: the payload is DW3 as
    /// it stands (`imm32`), so the `jip` field of `tables/gen7_flow.tbl`
    /// counted from DW3's first bit. JIP and UIP are 16 bits each there.
    pub(crate) const GEN7_JIP_SHIFT: u32 = {
        use crate::word::fields::gen7_flow as f;
        assert!(f::JIP.width == u16::BITS && f::UIP.width == u16::BITS);
        f::JIP_LO - IMM32_LO
    };
    /// Where a Gen7/7.5 branch's payload keeps UIP: `gen7_flow`'s `uip`
    /// field counted from DW3's first bit.
    pub(crate) const GEN7_UIP_SHIFT: u32 = crate::word::fields::gen7_flow::UIP_LO - IMM32_LO;
    /// Where a Gen8 branch's payload keeps JIP: the payload's low half holds
    /// DW3, which is `tables/gen8_flow.tbl`'s `jip`. JIP and UIP are 32 bits
    /// each there.
    pub(crate) const GEN8_JIP_SHIFT: u32 = {
        use crate::word::fields::gen8_flow as f;
        assert!(f::JIP.width == u32::BITS && f::UIP.width == u32::BITS);
        f::JIP_LO - IMM32_LO
    };
    /// Where a Gen8 branch's payload keeps UIP: in the high half, above
    /// JIP; `gen8_flow`'s `uip` is DW2, the dword below DW3.
    pub(crate) const GEN8_UIP_SHIFT: u32 = {
        use crate::word::fields::gen8_flow as f;
        assert!(f::UIP_LO + f::UIP.width == IMM32_LO);
        f::JIP.width
    };

    /// Whether the instruction is a `brd` or `brc` that takes its jump
    /// offsets from src0's register (src0 is not an immediate; see
    /// [`Opcode::offsets_in_payload`]): it has no JIP or UIP of its own.
    #[inline]
    pub const fn offsets_from_register(&self) -> bool {
        self.opcode.offsets_may_be_register() && !self.src[0].is_imm()
    }

    /// JIP of a branch, in the platform's units (bytes on Gen8, 8-byte
    /// units on Gen7/7.5), from the immediate payload; `None` for a
    /// branch whose offsets are in a register
    /// ([`Instruction::offsets_from_register`]).
    pub fn jip(&self, p: Platform) -> Option<i32> {
        if !self.opcode.offsets_in_payload(self.src[0].is_imm()) {
            return None;
        }
        Some(self.payload_offset(p, OffsetField::Jip))
    }

    /// UIP of a branch that has one, in the platform's units.
    pub fn uip(&self, p: Platform) -> Option<i32> {
        if !self.opcode.offsets_in_payload(self.src[0].is_imm()) || !self.opcode.has_uip() {
            return None;
        }
        Some(self.payload_offset(p, OffsetField::Uip))
    }

    /// The offset field `f` holds in the immediate payload, whatever the
    /// opcode: the flow tables' `jip` or `uip`, or the payload's low
    /// dword (DW3, `imm32`), where `jmpi` and `call` keep their distance.
    const fn payload_offset(&self, p: Platform, f: OffsetField) -> i32 {
        match (p.is_gen8(), f) {
            (true, OffsetField::Jip) => (self.imm >> Self::GEN8_JIP_SHIFT) as u32 as i32,
            (true, OffsetField::Uip) => (self.imm >> Self::GEN8_UIP_SHIFT) as u32 as i32,
            (false, OffsetField::Jip) => (self.imm >> Self::GEN7_JIP_SHIFT) as u16 as i16 as i32,
            (false, OffsetField::Uip) => (self.imm >> Self::GEN7_UIP_SHIFT) as u16 as i16 as i32,
            (_, OffsetField::Imm32) => self.imm as u32 as i32,
        }
    }

    /// Writes `v` where [`Self::payload_offset`] reads field `f`, keeping
    /// the payload's other bits (a 16-bit field takes `v`'s low 16 bits:
    /// the caller checks the range).
    pub(crate) const fn set_payload_offset(&mut self, p: Platform, f: OffsetField, v: i32) {
        let (shift, mask) = match (p.is_gen8(), f) {
            (_, OffsetField::Imm32) => (0, u32::MAX as u64),
            (true, OffsetField::Jip) => (Self::GEN8_JIP_SHIFT, u32::MAX as u64),
            (true, OffsetField::Uip) => (Self::GEN8_UIP_SHIFT, u32::MAX as u64),
            (false, OffsetField::Jip) => (Self::GEN7_JIP_SHIFT, u16::MAX as u64),
            (false, OffsetField::Uip) => (Self::GEN7_UIP_SHIFT, u16::MAX as u64),
        };
        self.imm = self.imm & !(mask << shift) | (v as u32 as u64 & mask) << shift;
    }

    /// The jump offsets of a flow-control instruction, in the platform's
    /// units: JIP (and UIP where the hardware uses it,
    /// [`Opcode::uses_uip`]) of a branch, the distance of `jmpi` and
    /// `call`; none for other opcodes. The one home of what each opcode's
    /// offsets are and where they count from, for the program rewrites of
    /// [`crate::compact`] and the control-flow graph ([`crate::cfg`]).
    ///
    /// Not Gen7's `else` UIP, which the hardware ignores (Mesa's
    /// `update_uip_jip` leaves it too). A `calla` target is an absolute
    /// instruction pointer, and a `jmpi` or `call` distance in a register
    /// is known only when the program runs: both are errors.
    pub(crate) fn branch_offsets(&self, p: Platform) -> Result<[Option<BranchOffset>; 2], NoStaticTarget> {
        let op = self.opcode;
        let at = |field: OffsetField, from_next: bool| {
            Some(BranchOffset {
                field,
                from_next,
                units: i64::from(self.payload_offset(p, field)),
                unit_bytes: p.jump_unit_bytes(op),
            })
        };
        Ok(match op.form() {
            Form::Call if op.jumps_absolute() => return Err(NoStaticTarget::Absolute),
            Form::Jump | Form::Call if self.imm_src().is_none() => return Err(NoStaticTarget::Indirect),
            Form::Jump | Form::Call => [at(OffsetField::Imm32, op.counts_from_next()), None],
            // `brd`/`brc` with the offsets in src0's register.
            _ if self.offsets_from_register() => return Err(NoStaticTarget::Indirect),
            _ if op.is_branch() => [
                at(OffsetField::Jip, false),
                if op.uses_uip(p) {
                    at(OffsetField::Uip, false)
                } else {
                    None
                },
            ],
            _ => [None, None],
        })
    }

    /// The jump in src1's immediate of `jmpi`, `call` or `calla`, which
    /// IGA's syntax prints as a label: `jmpi`'s counted from the next
    /// instruction, `call`'s and `calla`'s from the instruction itself
    /// (IGA's `Decoder::decodeBranchInstruction` reads `calla`'s
    /// absolute target as such an offset too, through the same JIP
    /// field). None for a jump in a register (or with the immediate in
    /// src0: IGA's decoder reads src1).
    pub(crate) fn label_jump(&self, p: Platform) -> Option<BranchOffset> {
        let op = self.opcode;
        if !matches!(op.form(), Form::Jump | Form::Call) || !self.src[1].is_imm() {
            return None;
        }
        Some(BranchOffset {
            field: OffsetField::Imm32,
            from_next: op.counts_from_next(),
            units: i64::from(self.payload_offset(p, OffsetField::Imm32)),
            unit_bytes: p.jump_unit_bytes(op),
        })
    }

    /// Sets JIP (and UIP where given) in the immediate payload, in the
    /// platform's units ([`Platform::jump_unit_bytes`]); for `jmpi`,
    /// `call` and `calla`, `jip` is their distance (or target), the whole
    /// immediate dword on every platform, and they take no UIP. Returns
    /// `false` if a value does not fit (Gen7/7.5 JIP and UIP are 16-bit),
    /// or for a UIP on those three, leaving the payload as it was.
    #[must_use = "a false result means the offsets did not fit and were not set"]
    pub fn set_branch(&mut self, p: Platform, jip: i32, uip: Option<i32>) -> bool {
        if matches!(self.opcode.form(), Form::Jump | Form::Call) {
            if uip.is_some() {
                return false;
            }
            self.set_payload_offset(p, OffsetField::Imm32, jip);
            return true;
        }
        let uip = uip.unwrap_or(0);
        if p.is_gen8() {
            self.imm = (jip as u32 as u64) << Self::GEN8_JIP_SHIFT | (uip as u32 as u64) << Self::GEN8_UIP_SHIFT;
            true
        } else {
            let (Ok(j), Ok(u)) = (i16::try_from(jip), i16::try_from(uip)) else {
                return false;
            };
            self.imm = (j as u16 as u64) << Self::GEN7_JIP_SHIFT | (u as u16 as u64) << Self::GEN7_UIP_SHIFT;
            true
        }
    }

    /// The message descriptor immediate of a SEND/SENDC: bits 126:96 of the
    /// word as descriptor bits 30:0 (mlen, rlen, header present, function
    /// control, and bits 30:29, which Gen8's sampler uses for its return
    /// format and which the codec keeps whatever their value), without EOT
    /// (bit 127, see [`Instruction::eot`]), as Mesa's `brw_inst_send_desc`
    /// reads it; `None` if the descriptor is in a register.
    #[inline]
    pub fn send_desc(&self) -> Option<u32> {
        if self.opcode.is_send() && self.src[1].is_imm() {
            Some(self.imm as u32 & SEND_DESC_MASK)
        } else {
            None
        }
    }

    /// End of thread, for a SEND/SENDC: bit 127 of the word, which is bit 31
    /// of the immediate payload, or bit 63 when src0 is a 64-bit immediate
    /// (whose value fills bits 127:64).
    #[inline]
    pub fn eot(&self) -> bool {
        let bit = if self.src[0].is_imm() && self.src[0].ty.is_64bit() {
            SEND_EOT_BIT + 32
        } else {
            SEND_EOT_BIT
        };
        self.opcode.is_send() && (self.imm >> bit) & 1 == 1
    }
}

/// Where a SEND's descriptor and EOT sit in the immediate payload dword
/// (`imm`'s low 32 bits, instruction bits 127:96): the SEND layout's
/// `desc` and `eot` fields, counted from that dword's first bit.
pub(crate) const SEND_DESC_MASK: u32 =
    (((1u64 << gen7_send::DESC.width) - 1) << (gen7_send::DESC_LO - IMM32_LO)) as u32;
/// The largest quarter control: all ones in its field.
pub(crate) const QTR_CONTROL_MAX: u8 = ((1u32 << crate::word::fields::gen7_native::QTR_CONTROL.width) - 1) as u8;
/// The largest SFID: all ones in the SEND layout's `sfid` field.
pub(crate) const SFID_MAX: u8 = ((1u32 << gen7_send::SFID.width) - 1) as u8;
/// EOT's bit in the immediate payload dword (see [`SEND_DESC_MASK`]).
pub(crate) const SEND_EOT_BIT: u32 = gen7_send::EOT_LO - IMM32_LO;
/// The first instruction bit of the immediate payload dword (`imm32`).
const IMM32_LO: u32 = crate::word::fields::gen7_native::IMM32_LO;
/// Which offset field of a flow-control instruction: the flow tables'
/// `jip` or `uip` of a branch, or the whole immediate dword of `jmpi` and
/// `call` (their distance, a 32-bit D immediate on every platform:
/// Mesa's `brw_JMPI` and Beignet's `patchJMPI` write `immd(distance)`;
/// Gen7's 16-bit JIP field is the branches' only).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum OffsetField {
    Jip,
    Uip,
    Imm32,
}

/// One jump offset of a flow-control instruction
/// ([`Instruction::branch_offsets`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct BranchOffset {
    /// The field holding it.
    pub(crate) field: OffsetField,
    /// Whether it counts from the next instruction (`jmpi`) rather than
    /// from the instruction itself.
    pub(crate) from_next: bool,
    /// Its value, in the units of the platform and opcode.
    pub(crate) units: i64,
    /// Bytes per unit ([`Platform::jump_unit_bytes`]).
    pub(crate) unit_bytes: i64,
}

impl BranchOffset {
    /// The byte offset it lands on, for an instruction of `size` bytes
    /// (16, or 8 compacted) at byte `offset`.
    pub(crate) const fn target(self, offset: i64, size: i64) -> i64 {
        let base = if self.from_next {
            offset.saturating_add(size)
        } else {
            offset
        };
        base.saturating_add(self.units.saturating_mul(self.unit_bytes))
    }
}

/// Why a jump's target is not found in the program's bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NoStaticTarget {
    /// `calla`: an absolute instruction pointer.
    Absolute,
    /// `jmpi` or `call` by a register's value.
    Indirect,
}

use crate::word::fields::gen7_send;
static_assertions::const_assert_eq!(crate::word::fields::gen8_native::IMM32_LO, IMM32_LO);
static_assertions::const_assert_eq!(crate::word::fields::gen8_send::EOT_LO, gen7_send::EOT_LO);
static_assertions::const_assert_eq!(crate::word::fields::gen8_send::DESC_LO, gen7_send::DESC_LO);
static_assertions::const_assert_eq!(SEND_DESC_MASK | 1 << SEND_EOT_BIT, u32::MAX);

// An instruction stays a small value: backends keep thousands in vectors
// and the codec passes it by value.
static_assertions::const_assert!(core::mem::size_of::<Instruction>() <= 64);
// The model's values cross threads (the CLI assembles in parallel) and
// are copied freely.
static_assertions::assert_impl_all!(Instruction: Copy, Send, Sync);
static_assertions::assert_impl_all!(Region: Copy, Send, Sync, Eq, core::hash::Hash);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn region_new_takes_exactly_the_encodable_counts() {
        // The PRM's encodable element counts.
        let (vs, ws, hs) = ([0, 1, 2, 4, 8, 16, 32], [1, 2, 4, 8, 16], [0, 1, 2, 4]);
        for v in 0..=70u32 {
            for w in 0..=70u32 {
                for h in 0..=70u32 {
                    let r = Region::new(v, w, h);
                    let ok = vs.contains(&v) && ws.contains(&w) && hs.contains(&h);
                    assert_eq!(r.is_some(), ok, "<{v},{w},{h}>");
                    if let Some(r) = r {
                        assert_eq!(
                            (r.vstride_elems(), r.width_elems(), r.hstride_elems()),
                            (Some(v), Some(w), h),
                            "<{v},{w},{h}>"
                        );
                    }
                }
            }
        }
        for big in [u32::MAX, 1 << 31, 64, 128] {
            assert_eq!(Region::new(big, 1, 0), None);
            assert_eq!(Region::new(0, big, 0), None);
            assert_eq!(Region::new(0, 1, big), None);
        }
    }

    #[test]
    fn math_function_codes_are_named_as_mesa_names_them() {
        let names: Vec<_> = (0..16).map(MathFunction::mesa_name_of_code).collect();
        assert_eq!(
            names,
            [
                None,
                Some("inv"),
                Some("log"),
                Some("exp"),
                Some("sqrt"),
                Some("rsq"),
                Some("sin"),
                Some("cos"),
                Some("sincos"),
                Some("fdiv"),
                Some("pow"),
                Some("intdivmod"),
                Some("intdiv"),
                Some("intmod"),
                Some("invm"),
                Some("rsqrtm"),
            ]
        );
        assert_eq!(MathFunction::mesa_name_of_code(16), None);
    }

    #[test]
    fn type_size_table_follows_the_kinds() {
        for t in Type::ALL {
            assert_eq!(t.size(), t.size_by_kind(), "{t:?}");
        }
    }

    #[test]
    fn dst_stride_in_elements() {
        let d = Dst::grf(2, 0, Type::W);
        assert_eq!(d.hstride_elems(), 1);
        for e in [0, 1, 2, 4] {
            assert_eq!(d.with_hstride(e).map(|d| d.hstride_elems()), Some(e));
        }
        assert_eq!(d.with_hstride(2).map(|d| d.hstride), Some(2));
        assert_eq!(d.with_hstride(4).map(|d| d.hstride), Some(3));
        assert_eq!(d.with_hstride(3), None);
        assert_eq!(d.with_hstride(8), None);
    }

    #[test]
    fn sfid_accessor_reads_and_writes_bits_27_24() {
        let mut send = Instruction::new(Opcode::Send, ExecSize::S8);
        send.set_sfid(Sfid::Urb);
        assert_eq!(send.cond_modifier, 6);
        assert_eq!(send.sfid(), Some(Sfid::Urb));
        send.cond_modifier = 14; // reserved: no name
        assert_eq!(send.sfid(), None);
        let mut mov = Instruction::new(Opcode::Mov, ExecSize::S8);
        mov.cond_modifier = 6;
        assert_eq!(mov.sfid(), None, "only SEND/SENDC have an SFID");
    }
}
