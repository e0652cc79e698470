//! The text layer's properties: disassembly of any word, and
//! disassembly and assembly as inverses, byte for byte.

use alloc::string::String;

use crate::compact::{CMPT_CONTROL_BYTE, CMPT_CONTROL_IN_BYTE_3};
use crate::model::Platform;
use crate::text::program::{Program, TextOptions};
use crate::text::{assemble_words_with, AsmOptions};

/// Property check for fuzzing: disassembling any 16-byte word never
/// panics; a word that decodes prints as one complete record (two lines
/// for SEND/SENDC) ending in `;`, and a word that does not decode prints
/// as an `// undecodable word` comment.
///
/// # Panics
///
/// Panics, with the word and the text, only if the property is violated.
pub fn check_disasm(p: Platform, bytes: &[u8; 16]) {
    if is_compacted(bytes) {
        return;
    }
    let prog = Program::decode(p, bytes);
    let mut text = String::new();
    let printed = prog.write_text(&mut text, &TextOptions::with_check(true));
    assert!(printed.is_ok(), "disassembly of {bytes:02x?} failed to format");
    match crate::codec::decode(p, bytes) {
        Ok(inst) => {
            let mut one = String::new();
            let r = inst.display(p).write_to(&mut one);
            assert!(r.is_ok(), "disassembly of {bytes:02x?} failed to format");
            let lines = if inst.opcode.is_send() { 2 } else { 1 };
            assert!(
                one.ends_with(';') && one.lines().count() == lines && !one.starts_with(' '),
                "disassembly of {bytes:02x?} is not one {lines}-line record: {one:?}"
            );
            // In a program, branches print labels instead of numbers.
            assert!(
                inst.opcode.is_branch() || text.contains(one.as_str()),
                "program text of {bytes:02x?} lacks the instruction: {text:?}"
            );
        }
        Err(_) => assert!(
            text.starts_with("// undecodable word"),
            "undecodable word {bytes:02x?} printed as {text:?}"
        ),
    }
}

/// Whether the word's CmptCtrl bit (29) is set: then it is no native word,
/// and a program reads its first 8 bytes as a compacted instruction (the
/// properties of those are `check::compact_roundtrip`'s).
fn is_compacted(bytes: &[u8; 16]) -> bool {
    bytes[CMPT_CONTROL_BYTE] & CMPT_CONTROL_IN_BYTE_3 != 0
}

/// The text of a one-word program (labels for jumps to itself or to its
/// end, numbers for other jumps).
fn program_text(p: Platform, bytes: &[u8; 16]) -> String {
    let mut text = String::new();
    let printed = Program::decode(p, bytes).write_text(&mut text, &TextOptions::default());
    assert!(printed.is_ok(), "disassembly of {bytes:02x?} failed to format");
    text
}

/// Property check for fuzzing: disassembly and assembly are inverse on
/// every word that decodes, byte for byte.
///
/// For a word `w` that decodes, with `t = disasm(w)` (a one-word
/// [`Program`]): `t` assembles, unchecked (a decoded word may break
/// hardware rules), to `w` exactly, bits Mesa's syntax does not show
/// included (they come back from the field annotation, see `hidden`);
/// and checked assembly of `t` gives `w` exactly when `w` passes
/// validation, and is refused otherwise.
///
/// # Panics
///
/// Panics, with the word, the text and the assembler's errors or words,
/// only if the property is violated.
// Panicking on a broken property is the point of a fuzzing check.
#[allow(clippy::panic)]
pub fn check_asm_roundtrip(p: Platform, bytes: &[u8; 16]) {
    if is_compacted(bytes) {
        return;
    }
    let Ok(inst) = crate::codec::decode(p, bytes) else {
        return;
    };
    let text = program_text(p, bytes);
    let back = assemble_words_with(p, &text, AsmOptions::UNCHECKED);
    if back.as_deref() != Ok(&[*bytes][..]) {
        let why = match &back {
            Ok(w) => alloc::format!("words {w:02x?}"),
            Err(e) => alloc::format!("errors: {e}"),
        };
        panic!("{p}: disassembly of {bytes:02x?} does not assemble back to it\n  text: {text}\n  {why}");
    }
    let checked = assemble_words_with(p, &text, AsmOptions::CHECKED);
    match crate::validate::validate(p, &inst) {
        Ok(()) => assert!(
            checked.as_deref().is_ok_and(|w| w == [*bytes]),
            "{p}: valid word {bytes:02x?} does not assemble checked to itself: {checked:02x?}\n  text: {text}"
        ),
        Err(v) => assert!(
            checked.is_err(),
            "{p}: checked assembly accepted {bytes:02x?}, which breaks {v}\n  text: {text}"
        ),
    }
}
