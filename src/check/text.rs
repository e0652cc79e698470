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
            text.lines().any(|l| l.starts_with("// undecodable word")) && !text.contains(" // "),
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

// ---------------------------------------------------------------------------
// IGA's syntax
// ---------------------------------------------------------------------------

/// The IGA-syntax text of a one-word program (`iga64 -d`'s block labels
/// included), with the field annotation when `annotate`.
fn iga_program_text(p: Platform, bytes: &[u8; 16], annotate: bool) -> String {
    let mut text = String::new();
    let printed = crate::text::iga::write_program(&mut text, p, bytes, annotate);
    assert!(
        printed.is_ok(),
        "{p}: IGA-syntax disassembly of {bytes:02x?} failed to format"
    );
    text
}

/// Property check for fuzzing: IGA's syntax ([`crate::text::iga`]) keeps
/// every word that decodes, byte for byte.
///
/// For any 16 bytes, the IGA-syntax disassembly never panics, and a word
/// that does not decode prints as an `// undecodable word` comment line
/// (between IGA's block labels). For a
/// word `w` that decodes, with `t` its annotated IGA text (a one-word
/// program, labels as `iga64 -d` prints them):
///
/// - `t` assembles (unchecked) to `w` exactly; checked, to `w` when `w`
///   passes validation, and is refused otherwise;
/// - `t` without its annotation (IGA's own text) assembles to the
///   instruction that text stands for, [`crate::text::iga::iga_canonical`]
///   of `w`'s, whose annotated text is that same text again: a fixpoint.
///
/// # Panics
///
/// Panics, with the word, the text and the assembler's errors or words,
/// only if the property is violated.
#[allow(clippy::panic)]
pub fn check_iga_roundtrip(p: Platform, bytes: &[u8; 16]) {
    use crate::text::iga::{assemble_iga_words, iga_canonical};
    if is_compacted(bytes) {
        return;
    }
    let text = iga_program_text(p, bytes, true);
    let Ok(inst) = crate::codec::decode(p, bytes) else {
        assert!(
            text.lines().any(|l| l.starts_with("// undecodable word")) && !text.contains(" // "),
            "{p}: undecodable word {bytes:02x?} printed in IGA's syntax as {text:?}"
        );
        return;
    };
    let back = assemble_iga_words(p, &text, AsmOptions::UNCHECKED);
    if back.as_deref() != Ok(&[*bytes][..]) {
        let why = match &back {
            Ok(w) => alloc::format!("words {w:02x?}"),
            Err(e) => alloc::format!("errors: {e}"),
        };
        panic!("{p}: IGA-syntax disassembly of {bytes:02x?} does not assemble back to it\n  text: {text}\n  {why}");
    }
    let checked = assemble_iga_words(p, &text, AsmOptions::CHECKED);
    match crate::validate::validate(p, &inst) {
        Ok(()) => assert!(
            checked.as_deref().is_ok_and(|w| w == [*bytes]),
            "{p}: valid word {bytes:02x?} does not assemble checked from IGA's syntax: {checked:02x?}\n  text: {text}"
        ),
        Err(v) => assert!(
            checked.is_err(),
            "{p}: checked IGA-syntax assembly accepted {bytes:02x?}, which breaks {v}\n  text: {text}"
        ),
    }
    // IGA's own text (no annotation) stands for the canonical form.
    let plain = iga_program_text(p, bytes, false);
    let canonical = crate::codec::encode_word(p, &iga_canonical(p, &inst)).map(|w| w.to_bytes());
    let read = assemble_iga_words(p, &plain, AsmOptions::UNCHECKED);
    assert!(
        matches!((&read, &canonical), (Ok(r), Ok(c)) if r == &[*c]),
        "{p}: IGA's text of {bytes:02x?} does not assemble to its canonical form {canonical:02x?}: {read:02x?}\n  text: {plain}"
    );
    if let Ok([c]) = read.as_deref() {
        let again = iga_program_text(p, c, true);
        assert!(
            again == plain,
            "{p}: IGA's text of {bytes:02x?} is no fixpoint\n  text:  {plain}\n  again: {again}"
        );
    }
}

/// Property check for fuzzing: the IGA-syntax reader never panics,
/// whatever the text. A failed assembly reports at least one error, each
/// displayable and inside the text, the same from both entry points; a
/// successful one gives a word per instruction, the native encoding of
/// its instruction, which decodes back to it; checked assembly gives only
/// instructions that pass [`crate::validate::validate`], lenient ones
/// without a documented violation.
pub fn check_iga_assemble(p: Platform, src: &str) {
    use crate::text::iga::{assemble_iga, assemble_iga_words};
    let lines = src.split('\n').count();
    for opts in [AsmOptions::CHECKED, AsmOptions::LENIENT, AsmOptions::UNCHECKED] {
        match (assemble_iga(p, src, opts), assemble_iga_words(p, src, opts)) {
            (Ok(insts), Ok(words)) => {
                assert_eq!(insts.len(), words.len(), "{p}: instructions and words differ in number");
                for (a, w) in insts.iter().zip(&words) {
                    assert_eq!(&a.word, w, "{p}: the two IGA entry points give different words");
                    assert_eq!(
                        crate::codec::native_word(p, &a.inst).map(|w| w.to_bytes()).as_ref(),
                        Ok(w),
                        "{p}: IGA-assembled word is not the native encoding of {:?}",
                        a.inst
                    );
                    assert_eq!(
                        crate::codec::decode(p, w).as_ref(),
                        Ok(&a.inst.native()),
                        "{p}: IGA-assembled word {w:02x?} does not decode back"
                    );
                    match opts.strictness {
                        crate::Strictness::Strict => assert_eq!(
                            crate::validate::validate(p, &a.inst),
                            Ok(()),
                            "{p}: checked IGA-syntax assembly gave an invalid {:?}",
                            a.inst
                        ),
                        crate::Strictness::Lenient => {
                            let warned = crate::validate::validate(p, &a.inst).err().unwrap_or_default();
                            assert!(
                                !warned.any_documented(),
                                "{p}: lenient IGA-syntax assembly let through {warned}"
                            );
                        }
                        _ => {}
                    }
                }
            }
            (Err(a), Err(b)) => {
                assert_eq!(a, b, "{p}: the two IGA entry points report different errors");
                assert!(!a.0.is_empty(), "{p}: IGA-syntax assembly failed without an error");
                for e in &a.0 {
                    assert!(
                        e.line >= 1 && e.line as usize <= lines && e.column >= 1,
                        "{p}: IGA-syntax error outside the text: {e}"
                    );
                }
                let _ = a.to_string();
            }
            (a, b) => panic!("{p}: the two IGA entry points disagree: {a:?} vs {b:?}"),
        }
    }
}
