//! A program made for execution: decoded once, each instruction with its
//! byte offset, the index of the next one and its branch targets resolved
//! to instruction indices.

use alloc::vec::Vec;

use super::SimError;
use crate::compact::{decode_stream, COMPACT_BYTES};
use crate::error::DecodeError;
use crate::model::{BranchOffset, Instruction, NoStaticTarget, Platform};

/// Where a branch goes: an instruction index (the program's length for
/// its end), or the byte offset that is not an instruction's start.
pub(crate) type Target = Result<u32, i64>;

/// One instruction of a [`Program`].
#[derive(Clone, Debug)]
pub(crate) struct Slot {
    /// Byte offset in the program.
    pub offset: u32,
    /// Bytes the instruction takes (8 compacted, 16 native).
    pub size: u32,
    /// The decoded instruction, or why its word does not decode (the
    /// error is raised only if the word is executed).
    pub inst: Result<Instruction, DecodeError>,
    /// JIP's target (branches), JMPI's, CALL's and CALLA's target.
    pub jip: Option<Target>,
    /// UIP's target (branches that use a UIP).
    pub uip: Option<Target>,
    /// The hot path's plan, for the common ALU forms.
    pub plan: Option<super::fast::Plan>,
    /// The channel geometry.
    pub geo: super::exec::Geo,
}

/// A decoded program for one platform, ready to run with [`super::run`].
///
/// ```
/// use geneu::sim::Program;
/// use geneu::Platform;
/// // A compacted nop.
/// let p = Program::new(Platform::Gen8, &[0x7e, 0, 0, 0x20, 0, 0, 0, 0]).unwrap();
/// assert_eq!(p.len(), 1);
/// assert_eq!(p.offset_of(0), Some(0));
/// ```
#[derive(Clone, Debug)]
pub struct Program {
    platform: Platform,
    pub(crate) slots: Vec<Slot>,
    /// Instruction index by byte offset / 8 (`u32::MAX` between
    /// instructions); the entry past the last is the end.
    index: Vec<u32>,
    len_bytes: u32,
}

/// The unit of the offset → index map: every instruction starts on a
/// multiple of a compacted instruction's size.
const GRAIN: u32 = COMPACT_BYTES as u32;

impl Program {
    /// Decodes `bytes` (native and compacted instructions mixed) for
    /// `platform`. Fails on a trailing piece shorter than its instruction
    /// ([`SimError::Decode`]) and on a program too large for 32-bit
    /// offsets; a word that does not decode fails only when executed.
    pub fn new(platform: Platform, bytes: &[u8]) -> Result<Program, SimError> {
        let len_bytes = u32::try_from(bytes.len()).map_err(|_| SimError::Unsupported {
            offset: 0,
            what: "a program of 4 GiB or more",
        })?;
        let mut slots = Vec::new();
        for (off, r) in decode_stream(platform, bytes) {
            let offset = off as u32;
            if let Err(e @ DecodeError::Truncated { .. }) = &r {
                return Err(SimError::Decode { offset, error: *e });
            }
            slots.push(Slot {
                offset,
                size: 0,
                jip: None,
                uip: None,
                plan: r.as_ref().ok().and_then(|i| super::fast::Plan::of(platform, i)),
                geo: match &r {
                    Ok(i) => super::exec::Geo::of(platform, i),
                    Err(_) => super::exec::Geo {
                        n: 1,
                        first: 0,
                        ivb_df: false,
                    },
                },
                inst: r,
            });
        }
        // Sizes from the offsets (a word that did not decode still has its
        // CmptCtrl size).
        let n = slots.len();
        for k in 0..n {
            let next = slots.get(k + 1).map_or(len_bytes, |s| s.offset);
            if let Some(s) = slots.get_mut(k) {
                s.size = next - s.offset;
            }
        }
        let mut index = alloc::vec![u32::MAX; (len_bytes / GRAIN) as usize + 1];
        for (k, s) in slots.iter().enumerate() {
            if let Some(x) = index.get_mut((s.offset / GRAIN) as usize) {
                *x = k as u32;
            }
        }
        if let Some(x) = index.get_mut((len_bytes / GRAIN) as usize) {
            if len_bytes % GRAIN == 0 {
                *x = n as u32;
            }
        }
        let mut prog = Program {
            platform,
            slots,
            index,
            len_bytes,
        };
        for k in 0..n {
            let (jip, uip) = match prog.slots.get(k) {
                Some(s) => prog.targets(s),
                None => (None, None),
            };
            if let Some(s) = prog.slots.get_mut(k) {
                s.jip = jip;
                s.uip = uip;
            }
        }
        Ok(prog)
    }

    /// The branch targets of an instruction, as indices: where the
    /// model's offsets land ([`Instruction::branch_offsets`], which says
    /// where each opcode keeps them and what they count from), and a
    /// CALLA's absolute target. A register operand is read when executed.
    fn targets(&self, s: &Slot) -> (Option<Target>, Option<Target>) {
        let Ok(i) = &s.inst else { return (None, None) };
        let (base, size) = (i64::from(s.offset), i64::from(s.size));
        match i.branch_offsets(self.platform) {
            Ok([jip, uip]) => {
                let at = |o: Option<BranchOffset>| o.map(|o| self.resolve(o.target(base, size)));
                (at(jip), at(uip))
            }
            Err(NoStaticTarget::Absolute) => (
                i.imm_value().map(|(_, v)| self.resolve(i64::from(v as u32 as i32))),
                None,
            ),
            Err(NoStaticTarget::Indirect) => (None, None),
        }
    }

    /// The index of the instruction at byte offset `target` (the length
    /// for the program's end).
    pub(crate) fn resolve(&self, target: i64) -> Target {
        if target < 0 || target > i64::from(self.len_bytes) || target % i64::from(GRAIN) != 0 {
            return Err(target);
        }
        match self.index.get((target / i64::from(GRAIN)) as usize) {
            Some(&k) if k != u32::MAX => Ok(k),
            _ => Err(target),
        }
    }

    /// The platform the program was decoded for.
    pub fn platform(&self) -> Platform {
        self.platform
    }

    /// Number of instructions.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Whether the program has no instruction.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Bytes in the program.
    pub fn len_bytes(&self) -> u32 {
        self.len_bytes
    }

    /// Byte offset of instruction `k`.
    pub fn offset_of(&self, k: usize) -> Option<u32> {
        self.slots.get(k).map(|s| s.offset)
    }

    /// Instruction `k`, decoded (`None` past the end or for a word that
    /// does not decode).
    pub fn instruction(&self, k: usize) -> Option<&Instruction> {
        self.slots.get(k).and_then(|s| s.inst.as_ref().ok())
    }

    /// The index of the instruction that starts at byte `offset`.
    pub fn index_of(&self, offset: u32) -> Option<usize> {
        match self.resolve(i64::from(offset)) {
            Ok(k) if (k as usize) < self.slots.len() => Some(k as usize),
            _ => None,
        }
    }
}
