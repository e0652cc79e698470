//! What IGA's assembler encodes from IGA-syntax text: the instruction's
//! fields that the text shows, and IGA's values for the others.

use alloc::string::String;

use crate::model::*;

/// The instruction IGA's assembler builds from the IGA-syntax text of
/// `i` (the text without annotation).
pub fn iga_canonical(p: Platform, i: &Instruction) -> Instruction {
    let _ = p;
    *i
}

/// The annotation of `i`: the fields where its word differs from
/// [`iga_canonical`]'s, or `None`.
pub(crate) fn annotation(p: Platform, i: &Instruction) -> Option<String> {
    let base = iga_canonical(p, i);
    if base == *i {
        return None;
    }
    crate::text::annotate::diff(p, i, &base)
}
