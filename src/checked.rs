//! Checked encoding: validate, then encode.
//!
//! This thin layer sits above both the codec ([`crate::codec`]) and the
//! validator ([`crate::validate`]), so that neither has to know the other.
//! Its functions are re-exported at the crate root.

use crate::codec::encode_unchecked;
use crate::error::{Basis, EncodeError, Violations};
use crate::model::{Instruction, Platform};
use crate::validate::validate;

/// How strictly the validator's rules are applied when instructions are
/// encoded: by [`encode_with`], the text assembler
/// ([`crate::text::AsmOptions`]) and the program builder
/// ([`crate::build::Builder::set_strictness`]).
///
/// Each rule has a [`Basis`]: documented (the platform's documentation
/// states it) or conservative (stricter than the documentation, or
/// borrowed from another platform's, as Mesa's validator is).
///
/// ```
/// assert_eq!(geneu::Strictness::default(), geneu::Strictness::Strict);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub enum Strictness {
    /// Refuse every violation, documented or conservative (the default).
    #[default]
    Strict,
    /// Refuse a documented violation; conservative ones are given back as
    /// warnings.
    Lenient,
    /// Do not validate: refuse only what the platform cannot express.
    Unchecked,
}

impl Strictness {
    /// Whether the rules run at all (not [`Strictness::Unchecked`]).
    pub(crate) const fn validates(self) -> bool {
        !matches!(self, Strictness::Unchecked)
    }

    /// Sorts what validation found: `Err` with every violation if this
    /// strictness refuses them (a strict one refuses any, a lenient one a
    /// documented one), otherwise `Ok` with the violations to warn about
    /// (empty when there are none, and always for
    /// [`Strictness::Unchecked`]).
    pub(crate) fn split(self, found: Violations) -> Result<Violations, Violations> {
        match self {
            _ if found.0.is_empty() => Ok(found),
            Strictness::Strict => Err(found),
            Strictness::Lenient if found.0.iter().any(|v| v.basis == Basis::Documented) => Err(found),
            Strictness::Lenient => Ok(found),
            Strictness::Unchecked => Ok(Violations::default()),
        }
    }

    /// Validates `inst` at this strictness: the violations to warn about,
    /// or every violation if it is refused.
    pub(crate) fn check(self, p: Platform, inst: &Instruction) -> Result<Violations, Violations> {
        if !self.validates() {
            return Ok(Violations::default());
        }
        match validate(p, inst) {
            Ok(()) => Ok(Violations::default()),
            Err(found) => self.split(found),
        }
    }
}

/// Encodes an instruction after validating it against every hardware rule
/// of the platform ([`crate::validate::validate`]); an instruction that
/// breaks a rule is refused with [`EncodeError::Invalid`] and every
/// violation found. [`crate::encode_unchecked`] skips validation.
///
/// An instruction with [`Controls::COMPACTED`](crate::Controls::COMPACTED) is refused with
/// [`EncodeError::Unencodable`]: the hardware reads a word whose CmptCtrl
/// bit (29) is set as an 8-byte compacted instruction, so a 16-byte word
/// with it set would be read as something else. Compact it with
/// [`crate::compact::compact`] instead; [`crate::encode_unchecked`] keeps
/// the bit, so that every decoded word encodes back to itself.
///
/// ```
/// use geneu::{encode, Dst, EncodeError, ExecSize, Instruction, Opcode, Platform, Region, Src, Type};
/// let mut mov = Instruction::new(Opcode::Mov, ExecSize::S8);
/// mov.dst = Dst::grf(17, 0, Type::F);
/// mov.src[0] = Src::grf(12, 0, Type::F, Region::new(8, 8, 1).unwrap());
/// let bytes = encode(Platform::Gen8, &mov).unwrap();
/// assert_eq!(geneu::decode(Platform::Gen8, &bytes).unwrap(), mov);
///
/// // g12.1<8,8,1>F: a row of eight floats straddles two registers.
/// mov.src[0] = Src::grf(12, 4, Type::F, Region::new(8, 8, 1).unwrap());
/// match encode(Platform::Gen8, &mov) {
///     Err(EncodeError::Invalid(v)) => assert!(v.has("row_within_grf")),
///     other => panic!("{other:?}"),
/// }
/// ```
pub fn encode(p: Platform, inst: &Instruction) -> Result<[u8; 16], EncodeError> {
    if inst.marked_compacted() {
        return Err(EncodeError::Unencodable {
            what: "CmptCtrl (bit 29)",
            why: "a word with the compaction bit set is an 8-byte compacted instruction; compact it with compact::compact",
        });
    }
    validate(p, inst).map_err(EncodeError::Invalid)?;
    encode_unchecked(p, inst)
}

/// [`encode`] at a chosen [`Strictness`]: with the word, the violations
/// it was let through with (conservative ones, when lenient).
///
/// [`Strictness::Strict`] is [`encode`] (no warnings);
/// [`Strictness::Unchecked`] is [`crate::encode_unchecked`];
/// [`Strictness::Lenient`] refuses an instruction that breaks a documented
/// rule (with [`EncodeError::Invalid`] and every violation, conservative
/// ones too) and encodes one that breaks only conservative rules, giving
/// those back.
///
/// ```
/// use geneu::{encode_with, text::assemble_with, text::AsmOptions, EncodeError, Platform, Strictness};
/// // Broadwell: a SIMD16 float move from a half-float scalar. Only the
/// // mixed-float rule borrowed from Skylake's documentation refuses it.
/// let text = "mov(16) g10<1>F g4<0,1,0>HF { align1 1H };";
/// let mov = assemble_with(Platform::Gen8, text, AsmOptions::UNCHECKED).unwrap()[0];
/// assert!(matches!(geneu::encode(Platform::Gen8, &mov), Err(EncodeError::Invalid(_))));
/// let (word, warnings) = encode_with(Platform::Gen8, &mov, Strictness::Lenient).unwrap();
/// assert_eq!(word, geneu::encode_unchecked(Platform::Gen8, &mov).unwrap());
/// assert!(warnings.has("mixed_float_f_dst_max_simd8"));
/// ```
pub fn encode_with(
    p: Platform,
    inst: &Instruction,
    strictness: Strictness,
) -> Result<([u8; 16], Violations), EncodeError> {
    match strictness {
        Strictness::Strict => encode(p, inst).map(|w| (w, Violations::default())),
        Strictness::Unchecked => encode_unchecked(p, inst).map(|w| (w, Violations::default())),
        Strictness::Lenient => {
            if inst.marked_compacted() {
                // Refused as `encode` refuses it.
                return encode(p, inst).map(|w| (w, Violations::default()));
            }
            let warnings = strictness.check(p, inst).map_err(EncodeError::Invalid)?;
            encode_unchecked(p, inst).map(|w| (w, warnings))
        }
    }
}
