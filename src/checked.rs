//! Checked encoding: validate, then encode.
//!
//! This thin layer sits above both the codec ([`crate::codec`]) and the
//! validator ([`crate::validate`]), so that neither has to know the other.
//! Its functions are re-exported at the crate root.

use crate::codec::encode_unchecked;
use crate::error::EncodeError;
use crate::model::{Instruction, Platform};
use crate::validate::validate;

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
