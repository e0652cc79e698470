//! Mesa-syntax disassembler and assembler.
//!
//! [`Disasm`] prints one instruction exactly as Mesa's `brw_disasm.c`
//! does; [`program`] prints a whole binary with branch labels;
//! [`assemble`] parses that syntax back into instructions and words.

mod annotate;
pub mod asm;
pub(crate) mod cfmt;
pub mod disasm;
mod error;
mod hidden;
pub mod iga;
pub(crate) mod lex;
mod lower;
pub mod names;
pub(crate) mod parse;
pub mod program;
mod syntax;

pub use asm::{
    assemble, assemble_listing, assemble_with, assemble_words, assemble_words_with, AsmError, AsmErrorKind, AsmErrors,
    AsmOptions, Assembled, Assembler,
};
pub use disasm::{Disasm, Labels};
