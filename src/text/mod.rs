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
mod parse;
pub mod program;

pub use asm::{
    assemble, assemble_with, assemble_words, assemble_words_with, AsmError, AsmErrorKind, AsmErrors, AsmOptions,
};
pub use disasm::{Disasm, Labels};

use alloc::string::String;

use crate::model::{Opcode, Platform};
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
