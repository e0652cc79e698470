//! The canonical encoding (`geneu::canon::canonicalize`): Mesa's values
//! for the fields its syntax does not show, in one function that the text
//! assembler and the program builder share.

use crate::text_common;
use text_common::corpus;

use geneu::canon::canonicalize;
use geneu::text::{assemble_with, assemble_words_with, AsmOptions};
use geneu::*;

/// Every word Mesa's emitter produced is canonical already.
#[test]
fn corpus_words_are_canonical() {
    if corpus::absent() {
        return;
    }
    let mut n = 0;
    for &(p, w) in text_common::corpus_words() {
        let Ok(inst) = decode(p, &w) else { continue };
        let mut c = inst;
        canonicalize(p, &mut c);
        assert_eq!(encode_unchecked(p, &c).ok(), Some(w), "{p}: {w:02x?} is not canonical");
        n += 1;
    }
    assert!(n > 2000, "only {n} corpus words decoded");
}

/// Canonicalizing twice changes nothing more, on any decodable word.
#[test]
fn canonicalize_is_idempotent() {
    if corpus::absent() {
        return;
    }
    text_common::check(|u| {
        let (p, w) = text_common::mutated_corpus_word(u, 8)?;
        if let Ok(mut i) = decode(p, &w) {
            canonicalize(p, &mut i);
            let once = i;
            canonicalize(p, &mut i);
            assert_eq!(i, once, "{p}: {w:02x?}");
        }
        Ok(())
    });
}

/// The assembler's instructions are canonical: it calls the same function.
#[test]
fn assembled_instructions_are_canonical() {
    if corpus::absent() {
        return;
    }
    for (name, path) in text_common::corpus_files() {
        let p = text_common::platform(&name);
        let Ok(text) = std::fs::read_to_string(path.with_extension("asm")) else {
            continue;
        };
        let insts = assemble_with(p, &text, AsmOptions::UNCHECKED).unwrap();
        for i in insts {
            let mut c = i;
            canonicalize(p, &mut c);
            assert_eq!(encode_unchecked(p, &c), encode_unchecked(p, &i), "{name}: {i:?}");
        }
    }
}

/// Issue 17's two examples: an ENDIF built by hand and a W immediate built
/// by hand get, once canonical, the bytes the same text assembles to.
#[test]
fn hand_built_instructions_encode_as_their_text() {
    let p = Platform::Gen8;
    // endif(8) JIP: 16 — operands left as `Instruction::new` gives them.
    let mut endif = Instruction::new(Opcode::Endif, ExecSize::S8);
    endif.imm = 16;
    canonicalize(p, &mut endif);
    let text = assemble_words_with(p, "endif(8) JIP: 16 { align1 1Q };", AsmOptions::UNCHECKED).unwrap();
    assert_eq!(encode_unchecked(p, &endif).unwrap(), text[0]);

    // mov(8) g2<1>W 0x1234W: the immediate's low half only.
    let mut mov = Instruction::new(Opcode::Mov, ExecSize::S8);
    mov.dst = Dst::grf(2, 0, Type::W);
    mov.src[0] = Src::imm(Type::W);
    mov.imm = 0x1234;
    canonicalize(p, &mut mov);
    assert_eq!(mov.imm, 0x1234_1234);
    let text = assemble_words_with(p, "mov(8) g2<1>W 0x1234W { align1 1Q };", AsmOptions::UNCHECKED).unwrap();
    assert_eq!(encode_unchecked(p, &mov).unwrap(), text[0]);

    // Gen7: the same ENDIF, with Gen7's hidden operands.
    let p = Platform::Gen7;
    let mut endif = Instruction::new(Opcode::Endif, ExecSize::S8);
    endif.imm = 2;
    canonicalize(p, &mut endif);
    let text = assemble_words_with(p, "endif(8) JIP: 2 { align1 1Q };", AsmOptions::UNCHECKED).unwrap();
    assert_eq!(encode_unchecked(p, &endif).unwrap(), text[0]);
}
