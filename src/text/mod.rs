//! Mesa-syntax disassembler and assembler.
//!
//! [`Disasm`] prints one instruction exactly as Mesa's `brw_disasm.c`
//! does; [`program`] prints a whole binary with branch labels;
//! [`assemble`] parses that syntax back into instructions and words.

pub mod asm;
pub mod cfmt;
pub mod disasm;
pub mod lex;
pub mod names;
pub(crate) mod parse;
pub mod program;

pub use asm::{
    assemble, assemble_listing, assemble_with, assemble_words, assemble_words_with, AsmError, AsmErrorKind, AsmErrors,
    AsmOptions, Assembled, Assembler,
};
pub use disasm::{Disasm, Labels};

use alloc::string::String;

use crate::model::{Addr, Instruction, Opcode, Platform, Type};
use program::{Program, TextOptions};

/// Property check for fuzzing: disassembling any 16-byte word never
/// panics; a word that decodes prints as one complete record (two lines
/// for SEND/SENDC) ending in `;`, and a word that does not decode prints
/// as an `// undecodable word` comment.
///
/// # Panics
///
/// Panics, with the word and the text, only if the property is violated.
pub fn check_disasm(p: Platform, bytes: &[u8; 16]) {
    let prog = Program::decode(p, bytes);
    let mut text = String::new();
    let printed = prog.write_text(&mut text, &TextOptions::with_check(true));
    assert!(printed.is_ok(), "disassembly of {bytes:02x?} failed to format");
    match crate::codec::decode(p, bytes) {
        Ok(inst) => {
            let mut one = String::new();
            let r = inst.display(p).write_to(&mut one);
            assert!(r.is_ok(), "disassembly of {bytes:02x?} failed to format");
            let lines = if matches!(inst.opcode, Opcode::Send | Opcode::Sendc) {
                2
            } else {
                1
            };
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

/// The text of a one-word program (labels for jumps to itself or to its
/// end, numbers for other jumps).
fn program_text(p: Platform, bytes: &[u8; 16]) -> String {
    let mut text = String::new();
    let printed = Program::decode(p, bytes).write_text(&mut text, &TextOptions::default());
    assert!(printed.is_ok(), "disassembly of {bytes:02x?} failed to format");
    text
}

/// `inst` with every subregister that Mesa's text prints in units of the
/// operand's type (`.N` is the byte offset divided by the type size)
/// rounded down to a multiple of that size: what the text can show.
/// Indirect source address subregisters print in bytes and stay.
fn shown_subregs(inst: &Instruction) -> Instruction {
    let round = |addr: Addr, ty: Type, indirect_too: bool| -> Addr {
        let size = u8::try_from(ty.size()).unwrap_or(1).max(1);
        match addr {
            Addr::Direct { nr, subnr } => Addr::Direct {
                nr,
                subnr: subnr - subnr % size,
            },
            Addr::Indirect { subnr, imm } if indirect_too => Addr::Indirect {
                subnr: subnr - subnr % size,
                imm,
            },
            a => a,
        }
    };
    let mut i = *inst;
    i.dst.addr = round(i.dst.addr, i.dst.ty, true);
    let three = i.opcode.is_three_src();
    let shared = i.src[0].ty;
    // A SEND's register descriptor shows whole in the descriptor dword.
    let n = if i.opcode.is_send() { 1 } else { 3 };
    for s in i.src.iter_mut().take(n) {
        if !s.is_imm() {
            s.addr = round(s.addr, if three { shared } else { s.ty }, false);
        }
    }
    i
}

/// What Mesa prints for an align16 indirect operand.
const A16_INDIRECT: &str = "Indirect align16 address mode not supported";

/// Property check for fuzzing: disassembly and assembly are inverse on
/// every word that decodes.
///
/// Mesa's syntax does not show every bit of a word: bits no field uses
/// (e.g. the src1 fields of a one-source instruction, the high immediate
/// dword of a 32-bit immediate, src1 of a SEND with an immediate
/// descriptor) print nothing, and the assembler sets them as Mesa's
/// emitter does. So, for a word `w` that decodes, with `t = disasm(w)`
/// (a one-word [`Program`]) and `w' = asm(t)`:
///
/// - `t` assembles, unchecked (a decoded word may break hardware rules);
/// - `disasm(w') == t`: the text is a fixpoint, no shown bit is lost or
///   changed by the assembler;
/// - `asm(disasm(w')) == w'`: on words whose unshown bits are as Mesa sets
///   them (which every word the assembler produces, and every corpus
///   word, are) the round trip is exact, byte for byte;
/// - checked assembly of `t` gives `w'` exactly when `w'` passes
///   validation, and is refused otherwise.
///
/// So `w' != w` only where `w` and `w'` are two decodable words with the
/// same text, which no assembler of this syntax can tell apart; `w'` is
/// then the canonical one. On mutated corpus words that happens for about
/// a quarter of them, nearly always in bits of these kinds: src1's type
/// beside a SEND's immediate descriptor, a SEND's saturate bit, the flag
/// register or predicate-inverse bit with neither predicate nor
/// conditional modifier, the low number bits of `null`/`ip`, src1 of a
/// one-source instruction, the spare bits of DW3, a branch's hidden
/// operands, an odd quarter control at SIMD16, swizzles of scalar 3-source
/// operands.
///
/// One exception: Mesa prints a subregister as its byte offset divided by
/// the operand's type size, so the remainder of an offset that is not a
/// multiple of the type size (which no compiler emits) does not show:
/// `g3.0<1>UD` is printed for bytes 1..=3. For such a word `w`, with `c`
/// the same word with those subregisters rounded down, the text of `w`
/// must assemble to the same word as the text of `c`, and the properties
/// above are checked on `c`.
///
/// And one limit: Mesa prints an align16 indirect operand as `Indirect
/// align16 address mode not supported`, without its address; the text of
/// such a word must be refused by the assembler (it is, at that phrase).
///
/// # Panics
///
/// Panics, with the word, the texts and the assembler's errors or words,
/// only if the property is violated.
// Panicking on a broken property is the point of a fuzzing check.
#[allow(clippy::panic)]
pub fn check_asm_roundtrip(p: Platform, bytes: &[u8; 16]) {
    let Ok(inst) = crate::codec::decode(p, bytes) else {
        return;
    };
    let shown = shown_subregs(&inst);
    let canonical;
    let bytes = if shown == inst {
        bytes
    } else {
        canonical = match crate::codec::encode_unchecked(p, &shown) {
            Ok(c) => c,
            Err(e) => panic!("{p}: {bytes:02x?} with aligned subregisters does not encode: {e}"),
        };
        let (t, tc) = (program_text(p, bytes), program_text(p, &canonical));
        let (a, ac) = (
            assemble_words_with(p, &t, AsmOptions::UNCHECKED),
            assemble_words_with(p, &tc, AsmOptions::UNCHECKED),
        );
        assert!(
            a == ac,
            "{p}: misaligned subregisters: the text of {bytes:02x?} assembles unlike that of {canonical:02x?}\n  text:  {t}\n  text': {tc}"
        );
        &canonical
    };
    let text = program_text(p, bytes);
    let back = assemble_words_with(p, &text, AsmOptions::UNCHECKED);
    if text.contains(A16_INDIRECT) {
        assert!(
            back.is_err(),
            "{p}: the text of {bytes:02x?} hides an align16 indirect address, yet assembles\n  text: {text}"
        );
        return;
    }
    let w1 = match back.as_deref() {
        Ok([w1]) => *w1,
        _ => {
            let why = match &back {
                Ok(w) => alloc::format!("{} words", w.len()),
                Err(e) => alloc::format!("errors: {e}"),
            };
            panic!("{p}: disassembly of {bytes:02x?} does not assemble to one word\n  text: {text}\n  {why}");
        }
    };
    let text1 = program_text(p, &w1);
    assert!(
        text1 == text,
        "{p}: disasm(asm(disasm(w))) != disasm(w)\n  w:     {bytes:02x?}\n  text:  {text}\n  asm:   {w1:02x?}\n  text': {text1}"
    );
    let again = assemble_words_with(p, &text1, AsmOptions::UNCHECKED);
    assert!(
        again.as_deref().is_ok_and(|w| w == [w1]),
        "{p}: asm(disasm(w')) != w' on the assembler's own word\n  w':   {w1:02x?}\n  text: {text1}\n  asm:  {again:02x?}"
    );
    let checked = assemble_words_with(p, &text, AsmOptions::CHECKED);
    match crate::codec::decode(p, &w1).map(|i| crate::validate::validate(p, &i)) {
        Ok(Ok(())) => assert!(
            checked.as_deref().is_ok_and(|w| w == [w1]),
            "{p}: valid word {w1:02x?} does not assemble checked to itself: {checked:02x?}\n  text: {text}"
        ),
        Ok(Err(v)) => assert!(
            checked.is_err(),
            "{p}: checked assembly accepted {w1:02x?}, which breaks {v}\n  text: {text}"
        ),
        Err(e) => panic!("{p}: the assembler's word {w1:02x?} does not decode: {e}\n  text: {text}"),
    }
}
