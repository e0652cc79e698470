//! Whole programs of 8- and 16-byte instructions: compacting and
//! uncompacting them with every branch offset moved, so that each branch
//! still lands on the same instruction.
//!
//! The offsets moved, in the platform's units (8 bytes on Gen7/Gen7.5,
//! bytes on Gen8):
//! - JIP of every branch (`if`, `else`, `endif`, `while`, `break`, `cont`,
//!   `halt`, `brd`, `brc`, `goto`, `join`) and `call`, from the
//!   instruction itself; UIP where the opcode has one (not Gen7's `else`,
//!   whose UIP is unused, as in Mesa's `update_uip_jip`);
//! - the immediate of `jmpi`, from the instruction after it.
//!
//! A branch whose target is outside the program or between two
//! instructions, or a `jmpi` whose distance is in a register, is an error
//! naming it: its meaning could not be kept.
//!
//! Unlike Mesa's `brw_compact_instructions`, which compacts each
//! instruction with its old offsets and then fixes them in place, a branch
//! here is compacted only if it still compacts with its final offsets
//! (a Gen8 UIP lies under table indices): branches that stop fitting are
//! written native and the layout is computed again, until nothing changes.
//! Gen7 and Gen8 require no alignment of branch targets beyond the 8 bytes
//! every instruction has (only G45 wanted 16); the end of the program is not
//! padded.

use alloc::vec::Vec;

use super::{compact_word, pieces, CompactWord, Piece, COMPACT_BYTES, NATIVE_BYTES};
use crate::codec::decode_word;
use crate::error::DecodeError;
use crate::model::{Instruction, Opcode, Platform};
use crate::word::fields::{gen7_flow, gen8_flow, gen8_native};
use crate::word::Word;

/// Why a program cannot be compacted or uncompacted.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ProgramError {
    /// An instruction does not decode.
    #[error("offset {offset}: {error}")]
    Decode {
        /// Byte offset of the instruction.
        offset: usize,
        /// Why it does not decode.
        error: DecodeError,
    },
    /// A branch lands outside the program or between instructions.
    #[error("offset {offset}: {opcode} {field} lands on byte {target}, {why}")]
    Target {
        /// Byte offset of the branch.
        offset: usize,
        /// Its opcode.
        opcode: Opcode,
        /// `JIP`, `UIP` or `jump`.
        field: &'static str,
        /// The byte offset it lands on.
        target: i64,
        /// Why that is refused.
        why: &'static str,
    },
    /// A moved offset does not fit its field (16 bits on Gen7/Gen7.5).
    #[error("offset {offset}: {opcode} {field} of {value} units does not fit its field")]
    Range {
        /// Byte offset of the branch in the input.
        offset: usize,
        /// Its opcode.
        opcode: Opcode,
        /// `JIP`, `UIP` or `jump`.
        field: &'static str,
        /// The offset that does not fit.
        value: i64,
    },
    /// A `jmpi` or `call` whose distance is not an immediate, or a `brd` or
    /// `brc` whose offsets are in a register.
    #[error("offset {offset}: {opcode} jumps by a register value, whose target cannot be kept")]
    Indirect {
        /// Byte offset of the branch.
        offset: usize,
        /// Its opcode.
        opcode: Opcode,
    },
    /// An instruction asked to be compacted ([`compact_marked`]) has no
    /// 8-byte form with its offsets in the new layout.
    #[error("offset {offset}: {opcode} is marked compacted but the platform cannot express it in 8 bytes")]
    NotCompactable {
        /// Byte offset of the instruction in the input.
        offset: usize,
        /// Its opcode.
        opcode: Opcode,
    },
    /// A Haswell `calla`: it calls an absolute instruction address, which
    /// moving the instructions would break and which the program alone
    /// cannot place (it depends on where the kernel is loaded).
    #[error("offset {offset}: calla calls an absolute address, which moving instructions would break")]
    Absolute {
        /// Byte offset of the `calla`.
        offset: usize,
    },
}

impl ProgramError {
    /// A stable snake_case name of the variant (see
    /// [`DecodeError::kind`]); an instruction that does not decode is
    /// named by its [`DecodeError::kind`].
    pub const fn kind(&self) -> &'static str {
        match self {
            ProgramError::Decode { error, .. } => error.kind(),
            ProgramError::Target { .. } => "branch_target",
            ProgramError::Range { .. } => "branch_out_of_range",
            ProgramError::Indirect { .. } => "indirect_branch",
            ProgramError::NotCompactable { .. } => "not_compactable",
            ProgramError::Absolute { .. } => "absolute_call",
        }
    }

    /// The byte offset of the instruction concerned.
    pub const fn offset(&self) -> usize {
        match *self {
            ProgramError::Decode { offset, .. }
            | ProgramError::Target { offset, .. }
            | ProgramError::Range { offset, .. }
            | ProgramError::Indirect { offset, .. }
            | ProgramError::NotCompactable { offset, .. }
            | ProgramError::Absolute { offset } => offset,
        }
    }
}

/// A program rewritten by [`compact_program`] or [`uncompact_program`]
/// (serialized without its bytes: the counts).
#[non_exhaustive]
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Rewritten {
    /// The new program.
    #[cfg_attr(feature = "serde", serde(skip))]
    pub bytes: Vec<u8>,
    /// Instructions in it.
    pub instructions: usize,
    /// Instructions written compacted.
    pub compacted: usize,
    /// Input length minus output length (negative when the program grew).
    pub saved_bytes: i64,
}

use crate::model::{NoStaticTarget, OffsetField as Field};

/// One offset of a branch: which field, the target (an instruction index,
/// or the number of instructions for the end), and whether it counts from
/// the next instruction (`jmpi`).
#[derive(Clone, Copy, Debug)]
struct Jump {
    field: Field,
    target: usize,
    from_next: bool,
}

#[derive(Clone, Debug)]
struct Item {
    offset: usize,
    opcode: Opcode,
    word: Word,
    jumps: [Option<Jump>; 2],
}

/// Writes an offset; `false` if it does not fit.
fn set(p: Platform, w: &mut Word, f: Field, v: i64) -> bool {
    match (p.is_gen8(), f) {
        (_, Field::Imm32) | (true, _) => {
            let Ok(v) = i32::try_from(v) else { return false };
            match f {
                Field::Jip => gen8_flow::set_jip_unchecked(w, v as u32),
                Field::Uip => gen8_flow::set_uip_unchecked(w, v as u32),
                // DW3, at the same bits on every platform.
                Field::Imm32 => gen8_native::set_imm32_unchecked(w, v as u32),
            }
        }
        (false, Field::Jip | Field::Uip) => {
            let Ok(v) = i16::try_from(v) else { return false };
            if f == Field::Jip {
                gen7_flow::set_jip_unchecked(w, v as u16);
            } else {
                gen7_flow::set_uip_unchecked(w, v as u16);
            }
        }
    }
    true
}

const fn field_name(f: Field, from_next: bool) -> &'static str {
    match (f, from_next) {
        (_, true) | (Field::Imm32, _) => "jump",
        (Field::Jip, false) => "JIP",
        (Field::Uip, false) => "UIP",
    }
}

/// Reads a program into native words with their offsets, and resolves
/// every branch to the instruction it lands on.
fn read(p: Platform, bytes: &[u8]) -> Result<Vec<Item>, ProgramError> {
    let mut items = Vec::new();
    let mut raw: Vec<[Option<(Field, bool, i64)>; 2]> = Vec::new();
    for (offset, piece) in pieces(bytes) {
        let (word, size) = match piece {
            Piece::Native(w) => (w, NATIVE_BYTES),
            Piece::Compact(c) => (
                super::uncompact_word(p, c).map_err(|error| ProgramError::Decode { offset, error })?,
                COMPACT_BYTES,
            ),
            Piece::Short { need, have } => {
                return Err(ProgramError::Decode {
                    offset,
                    error: DecodeError::Truncated { need, have },
                })
            }
        };
        let inst = decode_word(p, word).map_err(|error| ProgramError::Decode { offset, error })?;
        // The instruction's offsets and what they land on: the model's
        // one reading of them (`Instruction::branch_offsets`).
        let offsets = inst.branch_offsets(p).map_err(|e| match e {
            NoStaticTarget::Absolute => ProgramError::Absolute { offset },
            NoStaticTarget::Indirect => ProgramError::Indirect {
                offset,
                opcode: inst.opcode,
            },
        })?;
        raw.push(offsets.map(|o| o.map(|o| (o.field, o.from_next, o.target(offset as i64, size as i64)))));
        items.push(Item {
            offset,
            opcode: inst.opcode,
            word,
            jumps: [None, None],
        });
    }
    let end = bytes.len() as i64;
    for (k, r) in raw.iter().enumerate() {
        for (slot, j) in r.iter().enumerate() {
            let Some((field, from_next, target)) = *j else { continue };
            let found = if target == end {
                Ok(items.len())
            } else {
                items.binary_search_by(|it| (it.offset as i64).cmp(&target))
            };
            let Some(item) = items.get(k) else { continue };
            let target_index = found.map_err(|_| ProgramError::Target {
                offset: item.offset,
                opcode: item.opcode,
                field: field_name(field, from_next),
                target,
                why: if target < 0 || target > end {
                    "outside the program"
                } else {
                    "between two instructions"
                },
            })?;
            if let Some(it) = items.get_mut(k) {
                if let Some(s) = it.jumps.get_mut(slot) {
                    *s = Some(Jump {
                        field,
                        target: target_index,
                        from_next,
                    });
                }
            }
        }
    }
    Ok(items)
}

/// The words of a layout: each item's word with its offsets for the new
/// offsets `at` (one per item, then the end).
fn moved(p: Platform, it: &Item, k: usize, at: &[usize], size: usize) -> Result<Word, ProgramError> {
    let mut w = it.word;
    let here = at.get(k).copied().unwrap_or(0) as i64;
    for j in it.jumps.iter().flatten() {
        let base = here + if j.from_next { size as i64 } else { 0 };
        let target = at.get(j.target).copied().unwrap_or(0) as i64;
        // Targets are instruction starts, 8-byte aligned: the division is exact.
        let v = (target - base) / p.jump_unit_bytes(it.opcode);
        if !set(p, &mut w, j.field, v) {
            return Err(ProgramError::Range {
                offset: it.offset,
                opcode: it.opcode,
                field: field_name(j.field, j.from_next),
                value: v,
            });
        }
    }
    Ok(w)
}

fn layout(small: &[bool]) -> Vec<usize> {
    let mut at = Vec::with_capacity(small.len() + 1);
    let mut o = 0;
    for &s in small {
        at.push(o);
        o += if s { COMPACT_BYTES } else { NATIVE_BYTES };
    }
    at.push(o);
    at
}

/// Writes the program with the instructions marked `small` compacted. One
/// of them that does not compact is written native (the layout computed
/// again), or, if `strict`, refused.
/// `hints` holds, per instruction, the subregister index its compacted
/// word is to hold ([`Instruction::compact_subreg`]; 0 or missing: the
/// lowest).
fn rewrite(
    p: Platform,
    bytes: &[u8],
    items: &[Item],
    mut small: Vec<bool>,
    strict: bool,
    hints: &[u8],
) -> Result<Rewritten, ProgramError> {
    let mut words: Vec<(Word, Option<CompactWord>)> = Vec::with_capacity(items.len());
    loop {
        let at = layout(&small);
        words.clear();
        let mut changed = false;
        for (k, it) in items.iter().enumerate() {
            let s = small.get(k).copied().unwrap_or(false);
            let size = if s { COMPACT_BYTES } else { NATIVE_BYTES };
            let w = moved(p, it, k, &at, size)?;
            let c = match hints.get(k).copied().unwrap_or(0) {
                _ if !s => None,
                0 => compact_word(p, w),
                hint => compact_word(p, w).and_then(|c| super::with_subreg_index(p, c, hint)),
            };
            if s && c.is_none() {
                if strict {
                    return Err(ProgramError::NotCompactable {
                        offset: it.offset,
                        opcode: it.opcode,
                    });
                }
                // Sizes only grow from here, so this ends.
                if let Some(x) = small.get_mut(k) {
                    *x = false;
                }
                changed = true;
            }
            words.push((w, c));
        }
        if !changed {
            break;
        }
    }
    let mut out = Rewritten::default();
    for (w, c) in &words {
        match c {
            Some(c) => {
                out.bytes.extend_from_slice(&c.to_bytes());
                out.compacted += 1;
            }
            None => out.bytes.extend_from_slice(&w.to_bytes()),
        }
    }
    out.instructions = words.len();
    out.saved_bytes = bytes.len() as i64 - out.bytes.len() as i64;
    Ok(out)
}

/// Compacts every instruction of a program of 8- and 16-byte instructions
/// that the platform can express in 8 bytes, moving branch offsets so that
/// every branch lands on the same instruction (see the module docs).
///
/// ```
/// use geneu::compact::program::compact_program;
/// use geneu::Platform;
/// // mov(8) g17<1>F g12<8,8,1>F, twice.
/// let mov = [0x01, 0x00, 0x60, 0x00, 0xe8, 0x3a, 0x20, 0x22,
///            0x80, 0x01, 0x8d, 0x00, 0x00, 0x00, 0x00, 0x00];
/// let r = compact_program(Platform::Gen8, &[mov, mov].concat()).unwrap();
/// assert_eq!((r.instructions, r.compacted, r.saved_bytes), (2, 2, 16));
/// ```
pub fn compact_program(p: Platform, bytes: &[u8]) -> Result<Rewritten, ProgramError> {
    let items = read(p, bytes)?;
    // Branches start hopeful: whether they compact depends on the layout.
    let small = items
        .iter()
        .map(|it| it.jumps.iter().any(Option::is_some) || compact_word(p, it.word).is_some())
        .collect();
    rewrite(p, bytes, &items, small, false, &[])
}

/// Compacts exactly the instructions whose index is marked `true` in
/// `marked` (a missing mark is `false`), moving branch offsets as
/// [`compact_program`] does; a marked instruction that has no 8-byte form
/// in that layout is [`ProgramError::NotCompactable`]. This is how a
/// disassembled program that mixes both sizes is written back as it was:
/// the text marks its compacted instructions `compacted`.
///
/// ```
/// use geneu::compact::program::{compact_marked, compact_program};
/// use geneu::Platform;
/// // mov(8) g17<1>F g12<8,8,1>F, twice; only the second compacted.
/// let mov = [0x01, 0x00, 0x60, 0x00, 0xe8, 0x3a, 0x20, 0x22,
///            0x80, 0x01, 0x8d, 0x00, 0x00, 0x00, 0x00, 0x00];
/// let r = compact_marked(Platform::Gen8, &[mov, mov].concat(), &[false, true]).unwrap();
/// assert_eq!((r.instructions, r.compacted, r.bytes.len()), (2, 1, 24));
/// assert_eq!(&r.bytes[..16], &mov);
/// ```
pub fn compact_marked(p: Platform, bytes: &[u8], marked: &[bool]) -> Result<Rewritten, ProgramError> {
    let items = read(p, bytes)?;
    let small = (0..items.len())
        .map(|k| marked.get(k).copied().unwrap_or(false))
        .collect();
    rewrite(p, bytes, &items, small, true, &[])
}

/// Compacts the instructions of `insts` marked [`Controls::COMPACTED`],
/// exactly as [`compact_marked`] does, each compacted word holding the
/// subregister index its instruction names
/// ([`Instruction::compact_subreg`]): how a disassembled program whose
/// text keeps such an index (`[subreg_index=..]`) is written back as it
/// was. `bytes` is the program's native form, `insts` its instructions in
/// order (as the text assembler gives both).
///
/// [`Controls::COMPACTED`]: crate::Controls::COMPACTED
pub fn compact_instructions(p: Platform, bytes: &[u8], insts: &[Instruction]) -> Result<Rewritten, ProgramError> {
    let items = read(p, bytes)?;
    let small = (0..items.len())
        .map(|k| insts.get(k).is_some_and(Instruction::marked_compacted))
        .collect();
    let hints: Vec<u8> = insts.iter().map(|i| i.compact_subreg).collect();
    rewrite(p, bytes, &items, small, true, &hints)
}

/// Writes every instruction of a program native, moving branch offsets so
/// that every branch lands on the same instruction.
pub fn uncompact_program(p: Platform, bytes: &[u8]) -> Result<Rewritten, ProgramError> {
    let items = read(p, bytes)?;
    let small = alloc::vec![false; items.len()];
    rewrite(p, bytes, &items, small, false, &[])
}
