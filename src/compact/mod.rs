//! Compaction: the 64-bit compacted form of an instruction (CmptCtrl, bit
//! 29, set), and programs that mix 8- and 16-byte instructions.
//!
//! A compacted word stands for one native word: a few of its fields are
//! copied, the others are indices into the platform's tables
//! (`tables/compact_*.idx`, checked and hashed by `build.rs`), and a small
//! immediate is kept as 13 bits whose top bit is repeated. The compacted
//! word's own layout is `tables/compact_word.tbl` (and `compact_3src.tbl`
//! for the 3-source instructions of Gen8; Gen7 and Gen7.5 have none).
//!
//! - [`compact_word`] / [`uncompact_word`]: native word ⇄ compacted word.
//!   `compact_word` succeeds exactly when some compacted word uncompacts
//!   to the native word (and refuses a SEND with EOT, as Mesa does).
//! - [`compact`] / [`decode_compact`]: the same for an [`Instruction`].
//!   Decoding a compacted word gives what decoding its native form gives,
//!   with [`Controls::COMPACTED`] set (and, beside an immediate, a
//!   subregister index other than the lowest standing for that word in
//!   [`Instruction::compact_subreg`]), and `compact` of that gives the same
//!   eight bytes back.
//! - [`describe`]: a compacted word's own fields, each table index with
//!   the entry it selects and the native fields it fills.
//! - [`Pieces`] and [`decode_stream`]: a byte stream of both sizes.
//! - `compact_program` / `uncompact_program` (and `compact_marked`, which
//!   compacts the instructions chosen): whole programs, every
//!   branch offset moved so that each branch lands where it did.
//!
//! ```
//! use geneu::compact::{compact, decode_compact};
//! use geneu::{decode, Controls, Platform};
//! // mov(8) g17<1>F g12<8,8,1>F { align1 1Q };
//! let bytes = [0x01, 0x00, 0x60, 0x00, 0xe8, 0x3a, 0x20, 0x22,
//!              0x80, 0x01, 0x8d, 0x00, 0x00, 0x00, 0x00, 0x00];
//! let inst = decode(Platform::Gen8, &bytes).unwrap();
//! let c = compact(Platform::Gen8, &inst).unwrap();
//! let back = decode_compact(Platform::Gen8, &c.to_bytes()).unwrap();
//! assert_eq!(back.controls, inst.controls | Controls::COMPACTED);
//! assert_eq!(back.dst, inst.dst);
//! ```

use core::fmt;

pub mod program;
mod view;

pub use program::{compact_instructions, compact_marked, compact_program, uncompact_program, ProgramError, Rewritten};
pub use view::{describe, CompactFieldRow, IndexSelection};

use crate::codec::decode_word;
use crate::error::DecodeError;
use crate::model::{Controls, Instruction, Opcode, Platform, RegFile};
use crate::word::fields::{compact_3src as c3, compact_word as cw, gen7_native, gen8_3src, gen8_native, gen8_send};
use crate::word::{FieldInfo, Word};

/// Bytes of a compacted instruction.
pub const COMPACT_BYTES: usize = 8;
/// Bytes of a native instruction.
pub const NATIVE_BYTES: usize = 16;

/// A 64-bit compacted instruction word. Bit `i` is bit `i` of the
/// compacted instruction as the documentation numbers it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct CompactWord(pub u64);

// A compacted word is exactly the 8 bytes of a compacted instruction.
static_assertions::assert_eq_size!(CompactWord, [u8; 8]);

impl CompactWord {
    /// The word stored in memory as 8 little-endian bytes.
    #[inline]
    pub const fn from_bytes(b: [u8; 8]) -> Self {
        CompactWord(u64::from_le_bytes(b))
    }

    /// The 8 bytes as stored in memory.
    #[inline]
    pub const fn to_bytes(self) -> [u8; 8] {
        self.0.to_le_bytes()
    }
}

impl fmt::Debug for CompactWord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "CompactWord({:08x} {:08x})", (self.0 >> 32) as u32, self.0 as u32)
    }
}

/// A perfect hash of a table's entries, found by `build.rs`: the entry
/// `v` can only be at index `slots[(v * mul) >> shift]` (0xff: nowhere).
#[derive(Clone, Copy, Debug)]
pub struct Hash {
    /// The multiplier.
    pub mul: u64,
    /// 64 minus the number of slot bits.
    pub shift: u32,
    /// Entry index per slot, 0xff for none.
    pub slots: &'static [u8],
}

impl Hash {
    #[inline(always)]
    fn slot(&self, v: u64) -> Option<u8> {
        let k = (v.wrapping_mul(self.mul) >> self.shift) as usize;
        match self.slots.get(k) {
            Some(&i) if i != 0xff => Some(i),
            _ => None,
        }
    }
}

/// A compaction index table: the native bits an index stands for.
#[derive(Clone, Copy, Debug)]
pub struct IndexTable {
    /// The table's name in its file (`control`, `datatype`, ...).
    pub name: &'static str,
    /// Where it is written: `tables/FILE.idx:LINE`.
    pub source: &'static str,
    /// The native bit ranges of an entry, most significant first.
    pub bits: &'static [(u32, u32)],
    /// Bits per entry.
    pub width: u32,
    /// The entries, by index.
    pub entries: &'static [u64],
    /// Perfect hash of the entries.
    pub hash: Hash,
    /// With an immediate source: the entry bits compared, and a perfect
    /// hash of the entries so masked (first index of each value).
    pub immediate: Option<(u64, Hash)>,
    /// Each entry's native bits (its [`IndexTable::scatter`], worked out
    /// at compile time from `bits` and `entries`): what uncompacting ORs in.
    pub native: &'static [u128],
}

/// The native bits of entry value `v` of a table over the native bit
/// ranges `bits` (most significant first).
#[inline(always)]
const fn scatter_bits(bits: &[(u32, u32)], mut v: u64) -> u128 {
    let mut w = 0u128;
    let mut i = bits.len();
    while i > 0 {
        i -= 1;
        #[allow(clippy::indexing_slicing)] // i < len by the loop condition
        let (hi, lo) = bits[i];
        let n = hi - lo + 1;
        w |= ((v & ((1u64 << n) - 1)) as u128) << lo;
        v >>= n;
    }
    w
}

/// Every entry's native bits, for the generated tables' `native` field
/// (evaluated at compile time; `N` is the number of entries).
pub(crate) const fn scatter_all<const N: usize>(bits: &[(u32, u32)], entries: &[u64; N]) -> [u128; N] {
    let mut out = [0u128; N];
    let mut i = 0;
    while i < N {
        #[allow(clippy::indexing_slicing)] // i < N by the loop condition; evaluated at compile time
        {
            out[i] = scatter_bits(bits, entries[i]);
        }
        i += 1;
    }
    out
}

impl IndexTable {
    /// The native bits the table covers.
    pub const fn mask(&self) -> u128 {
        let mut m = 0u128;
        let mut i = 0;
        while i < self.bits.len() {
            #[allow(clippy::indexing_slicing)] // i < len by the loop condition
            let (hi, lo) = self.bits[i];
            m |= ((1u128 << (hi - lo + 1)) - 1) << lo;
            i += 1;
        }
        m
    }

    /// The entry value held by the native word `w`.
    #[inline(always)]
    pub fn gather(&self, w: u128) -> u64 {
        let mut v = 0u64;
        for &(hi, lo) in self.bits {
            let n = hi - lo + 1;
            v = (v << n) | ((w >> lo) as u64 & ((1u64 << n) - 1));
        }
        v
    }

    /// The native bits of entry value `v`.
    #[inline(always)]
    pub const fn scatter(&self, v: u64) -> u128 {
        scatter_bits(self.bits, v)
    }

    /// The native bits of the entry at `index` (none past the end, which
    /// cannot happen for an index read from its field).
    #[inline(always)]
    fn native_at(&self, index: u8) -> u128 {
        self.native.get(usize::from(index)).copied().unwrap_or(0)
    }

    /// The entry at `index` (0 past the end, which cannot happen for an
    /// index read from its field: a table has an entry for every value).
    #[inline(always)]
    pub fn entry(&self, index: u8) -> u64 {
        self.entries.get(usize::from(index)).copied().unwrap_or(0)
    }

    /// The index of entry `v`.
    #[inline(always)]
    pub fn find(&self, v: u64) -> Option<u8> {
        let i = self.hash.slot(v)?;
        (self.entry(i) == v).then_some(i)
    }

    /// The first index whose entry agrees with `v` in the bits compared
    /// with an immediate source.
    #[inline(always)]
    fn find_immediate(&self, v: u64) -> Option<u8> {
        let Some((m, h)) = &self.immediate else {
            return self.find(v);
        };
        let i = h.slot(v & m)?;
        (self.entry(i) & m == v & m).then_some(i)
    }
}

/// The generated tables, one module per `tables/*.idx` file.
#[allow(clippy::all, missing_docs)]
pub mod tables {
    include!(concat!(env!("OUT_DIR"), "/compact_tables.rs"));
}

/// The five tables of a platform's native compaction.
struct NativeTables {
    control: &'static IndexTable,
    datatype: &'static IndexTable,
    subreg: &'static IndexTable,
    src0: &'static IndexTable,
    src1: &'static IndexTable,
    /// Every native bit that the compacted form can express, besides the
    /// immediate: the tables' bits and the copied fields.
    covered: u128,
}

/// Native bits copied to or from the compacted word's own fields.
const COPIED: u128 = gen8_native::OPCODE.mask()
    | gen8_native::DEBUG_CONTROL.mask()
    | gen8_native::ACC_WR_CONTROL.mask()
    | gen8_native::COND_MODIFIER.mask()
    | gen8_native::DST_DA_REG_NR.mask()
    | gen8_native::SRC0_DA_REG_NR.mask()
    | gen8_native::SRC1_DA_REG_NR.mask();
// The copied fields sit at the same bits on Gen7 and Gen8.
const _: () = assert!(
    COPIED
        == gen7_native::OPCODE.mask()
            | gen7_native::DEBUG_CONTROL.mask()
            | gen7_native::ACC_WR_CONTROL.mask()
            | gen7_native::COND_MODIFIER.mask()
            | gen7_native::DST_DA_REG_NR.mask()
            | gen7_native::SRC0_DA_REG_NR.mask()
            | gen7_native::SRC1_DA_REG_NR.mask()
);

/// DW3, which an immediate source fills.
const DW3: u128 = gen8_native::IMM32.mask();

const fn native_tables(
    control: &'static IndexTable,
    datatype: &'static IndexTable,
    subreg: &'static IndexTable,
    src0: &'static IndexTable,
    src1: &'static IndexTable,
) -> NativeTables {
    NativeTables {
        control,
        datatype,
        subreg,
        src0,
        src1,
        covered: COPIED | control.mask() | datatype.mask() | subreg.mask() | src0.mask() | src1.mask(),
    }
}

static GEN7: NativeTables = native_tables(
    &tables::compact_gen7::CONTROL,
    &tables::compact_gen7::DATATYPE,
    &tables::compact_gen7::SUBREG,
    &tables::compact_gen7::SRC0,
    &tables::compact_gen7::SRC1,
);
static GEN8: NativeTables = native_tables(
    &tables::compact_gen8::CONTROL,
    &tables::compact_gen8::DATATYPE,
    &tables::compact_gen8::SUBREG,
    &tables::compact_gen8::SRC0,
    &tables::compact_gen8::SRC1,
);

/// The two tables of 3-source compaction and the native bits it expresses.
struct ThreeTables {
    control: &'static IndexTable,
    source: &'static IndexTable,
    covered: u128,
}

/// The bits of a register number that the compacted 3-source word holds
/// (bits 6:0, `tables/compact_3src.tbl`): its bit 7 comes from the source
/// table, or is zero.
const C3_REG_NR_BITS: u8 = (1 << c3::DST_REG_NR.width) - 1;
const _: () = assert!(
    c3::SRC0_REG_NR.width == c3::DST_REG_NR.width
        && c3::SRC1_REG_NR.width == c3::DST_REG_NR.width
        && c3::SRC2_REG_NR.width == c3::DST_REG_NR.width
);

/// Native 3-source bits copied from the compacted word (register numbers
/// only up to bit 6: bit 7 comes from the source table, or is zero).
const COPIED_3SRC: u128 = gen8_3src::OPCODE.mask()
    | gen8_3src::DEBUG_CONTROL.mask()
    | gen8_3src::SATURATE.mask()
    | gen8_3src::SRC0_REP_CTRL.mask()
    | gen8_3src::SRC1_REP_CTRL.mask()
    | gen8_3src::SRC2_REP_CTRL.mask()
    | gen8_3src::SRC0_SUBREG_NR.mask()
    | gen8_3src::SRC1_SUBREG_NR.mask()
    | gen8_3src::SRC2_SUBREG_NR.mask()
    | (gen8_3src::DST_REG_NR.mask() & ((C3_REG_NR_BITS as u128) << gen8_3src::DST_REG_NR_LO))
    | (gen8_3src::SRC0_REG_NR.mask() & ((C3_REG_NR_BITS as u128) << gen8_3src::SRC0_REG_NR_LO))
    | (gen8_3src::SRC1_REG_NR.mask() & ((C3_REG_NR_BITS as u128) << gen8_3src::SRC1_REG_NR_LO))
    | (gen8_3src::SRC2_REG_NR.mask() & ((C3_REG_NR_BITS as u128) << gen8_3src::SRC2_REG_NR_LO));

static BDW_3SRC: ThreeTables = ThreeTables {
    control: &tables::compact_3src_bdw::CONTROL,
    source: &tables::compact_3src_bdw::SOURCE,
    covered: COPIED_3SRC | tables::compact_3src_bdw::CONTROL.mask() | tables::compact_3src_bdw::SOURCE.mask(),
};
static CHV_3SRC: ThreeTables = ThreeTables {
    control: &tables::compact_3src_chv::CONTROL,
    source: &tables::compact_3src_chv::SOURCE,
    covered: COPIED_3SRC | tables::compact_3src_chv::CONTROL.mask() | tables::compact_3src_chv::SOURCE.mask(),
};

#[inline(always)]
fn tables_of(p: Platform) -> &'static NativeTables {
    if p.is_gen8() {
        &GEN8
    } else {
        &GEN7
    }
}

/// The 3-source tables of `p`; `None` on Gen7 and Gen7.5, which have no
/// 3-source compaction (Mesa: "Gen 8 adds support for compacting 3-src
/// instructions").
fn three_tables_of(p: Platform) -> Option<&'static ThreeTables> {
    match p {
        Platform::Gen8 => Some(&BDW_3SRC),
        Platform::Chv => Some(&CHV_3SRC),
        _ => None,
    }
}

/// Whether the native word has an immediate source (src0's or src1's
/// register file is [`RegFile::Imm`]).
#[inline(always)]
pub(super) fn has_immediate(p: Platform, w: &Word) -> bool {
    const IMM: u8 = RegFile::Imm.hw();
    if p.is_gen8() {
        gen8_native::src0_reg_file(w) == IMM || gen8_native::src1_reg_file(w) == IMM
    } else {
        gen7_native::src0_reg_file(w) == IMM || gen7_native::src1_reg_file(w) == IMM
    }
}

/// The bits of a compacted immediate (`imm13`), which uncompacting
/// sign-extends to the native immediate, DW3.
const IMM13_BITS: u32 = cw::IMM13.width;
/// Their mask.
const IMM13_MASK: u32 = (1 << IMM13_BITS) - 1;
/// `imm13` is `src1_index` (its high bits) above `src1_reg_nr` (the low
/// ones, this many).
const IMM13_LOW_BITS: u32 = cw::SRC1_REG_NR.width;
/// The mask of the low bits.
const IMM13_LOW_MASK: u16 = (1 << IMM13_LOW_BITS) - 1;
const _: () = assert!(
    cw::IMM13.mask() == cw::SRC1_INDEX.mask() | cw::SRC1_REG_NR.mask()
        && cw::imm13(cw::SRC1_REG_NR.mask() as u64) == IMM13_LOW_MASK
        && IMM13_BITS == cw::SRC1_INDEX.width + IMM13_LOW_BITS
);

/// Sign-extends a 13-bit immediate to 32 bits.
#[inline(always)]
const fn sext13(v: u16) -> u32 {
    const S: u32 = u32::BITS - IMM13_BITS;
    (((v as u32) << S) as i32 >> S) as u32
}

/// Compacts a native word, or `None` when no compacted word stands for it.
///
/// The native word must not have CmptCtrl set. The conditions are Mesa's
/// (`brw_try_compact_instruction`): every native bit outside the tables
/// and copied fields is zero (NibCtrl, Gen8's bit 9 of address immediates,
/// bits 95:91 on Gen7, bits 127:121 of a register src1), each table holds
/// its bits, an immediate fits 13 bits sign-extended, and a SEND does not
/// end the thread. 3-source instructions compact on Gen8 only.
#[inline]
pub fn compact_word(p: Platform, w: Word) -> Option<CompactWord> {
    let opcode = Opcode::from_hw(p, gen8_native::opcode(&w))?;
    if w.0 & gen8_native::CMPT_CONTROL.mask() != 0 {
        return None;
    }
    if opcode.is_three_src() {
        return compact_3src(three_tables_of(p)?, w);
    }
    let t = tables_of(p);
    let imm = has_immediate(p, &w);
    // EOT has no place in the compacted form (Mesa refuses it even where
    // the immediate would carry bit 127).
    if opcode.is_send() && gen8_send::eot(&w) != 0 {
        return None;
    }
    let covered = if imm {
        (t.covered & !t.src1.mask() & !gen8_native::SRC1_DA_REG_NR.mask()) | DW3
    } else {
        t.covered
    };
    if w.0 & !covered != 0 {
        return None;
    }
    let mut c = 0u64;
    let (src1_index, src1_reg_nr, subreg) = if imm {
        let dw3 = gen8_native::imm32(&w);
        let low = (dw3 & IMM13_MASK) as u16;
        if sext13(low) != dw3 {
            return None;
        }
        (
            low >> IMM13_LOW_BITS,
            low & IMM13_LOW_MASK,
            t.subreg.find_immediate(t.subreg.gather(w.0))?,
        )
    } else {
        (
            u16::from(t.src1.find(t.src1.gather(w.0))?),
            u16::from(gen8_native::src1_da_reg_nr(&w)),
            t.subreg.find(t.subreg.gather(w.0))?,
        )
    };
    // Every value below fits its field: indices are below the table
    // lengths (32), the copied fields have the native widths.
    cw::or_opcode_unchecked(&mut c, opcode.hw());
    cw::or_debug_control_unchecked(&mut c, gen8_native::debug_control(&w));
    cw::or_control_index_unchecked(&mut c, t.control.find(t.control.gather(w.0))?);
    cw::or_datatype_index_unchecked(&mut c, t.datatype.find(t.datatype.gather(w.0))?);
    cw::or_subreg_index_unchecked(&mut c, subreg);
    cw::or_acc_wr_control_unchecked(&mut c, gen8_native::acc_wr_control(&w));
    cw::or_cond_modifier_unchecked(&mut c, gen8_native::cond_modifier(&w));
    cw::or_cmpt_control_unchecked(&mut c, 1);
    cw::or_src0_index_unchecked(&mut c, t.src0.find(t.src0.gather(w.0))?);
    cw::or_src1_index_unchecked(&mut c, src1_index as u8);
    cw::or_dst_reg_nr_unchecked(&mut c, gen8_native::dst_da_reg_nr(&w));
    cw::or_src0_reg_nr_unchecked(&mut c, gen8_native::src0_da_reg_nr(&w));
    cw::or_src1_reg_nr_unchecked(&mut c, src1_reg_nr as u8);
    Some(CompactWord(c))
}

/// Compacts a native 3-source word of Gen8.
#[inline]
fn compact_3src(t: &ThreeTables, w: Word) -> Option<CompactWord> {
    if w.0 & !t.covered != 0 {
        return None;
    }
    let w = &w;
    let mut c = 0u64;
    // Register numbers are below 128 here: their bit 7 is in `covered`
    // only through the source table.
    c3::or_opcode_unchecked(&mut c, gen8_3src::opcode(w));
    c3::or_control_index_unchecked(&mut c, t.control.find(t.control.gather(w.0))?);
    c3::or_source_index_unchecked(&mut c, t.source.find(t.source.gather(w.0))?);
    c3::or_dst_reg_nr_unchecked(&mut c, gen8_3src::dst_reg_nr(w) & C3_REG_NR_BITS);
    c3::or_src0_rep_ctrl_unchecked(&mut c, gen8_3src::src0_rep_ctrl(w));
    c3::or_cmpt_control_unchecked(&mut c, 1);
    c3::or_debug_control_unchecked(&mut c, gen8_3src::debug_control(w));
    c3::or_saturate_unchecked(&mut c, gen8_3src::saturate(w));
    c3::or_src1_rep_ctrl_unchecked(&mut c, gen8_3src::src1_rep_ctrl(w));
    c3::or_src2_rep_ctrl_unchecked(&mut c, gen8_3src::src2_rep_ctrl(w));
    c3::or_src0_subreg_nr_unchecked(&mut c, gen8_3src::src0_subreg_nr(w));
    c3::or_src1_subreg_nr_unchecked(&mut c, gen8_3src::src1_subreg_nr(w));
    c3::or_src2_subreg_nr_unchecked(&mut c, gen8_3src::src2_subreg_nr(w));
    c3::or_src0_reg_nr_unchecked(&mut c, gen8_3src::src0_reg_nr(w) & C3_REG_NR_BITS);
    c3::or_src1_reg_nr_unchecked(&mut c, gen8_3src::src1_reg_nr(w) & C3_REG_NR_BITS);
    c3::or_src2_reg_nr_unchecked(&mut c, gen8_3src::src2_reg_nr(w) & C3_REG_NR_BITS);
    Some(CompactWord(c))
}

const fn bad(field: &'static FieldInfo, value: u64, reason: &'static str) -> DecodeError {
    DecodeError::Field { field, value, reason }
}

/// The native word a compacted word stands for, with CmptCtrl clear.
///
/// Refused, naming the compacted word's field: CmptCtrl clear (not a
/// compacted word), an opcode the platform does not have, a 3-source
/// opcode on Gen7/Gen7.5, reserved bits set (bit 28; bits 27:19 and 7 of a
/// 3-source word).
#[inline]
pub fn uncompact_word(p: Platform, c: CompactWord) -> Result<Word, DecodeError> {
    let v = c.0;
    if cw::cmpt_control(v) == 0 {
        return Err(bad(&cw::CMPT_CONTROL, 0, "not a compacted word"));
    }
    let hw = cw::opcode(v);
    let Some(opcode) = Opcode::from_hw(p, hw) else {
        return Err(bad(&cw::OPCODE, u64::from(hw), "undefined opcode on this platform"));
    };
    if opcode.is_three_src() {
        let Some(t) = three_tables_of(p) else {
            return Err(bad(
                &cw::OPCODE,
                u64::from(hw),
                "3-source instructions have no compacted form before Gen8",
            ));
        };
        return uncompact_3src(t, v);
    }
    if v & cw::ZERO_MASK != 0 {
        return Err(DecodeError::ReservedBits(u128::from(v & cw::ZERO_MASK)));
    }
    let t = tables_of(p);
    let mut w = Word(
        t.control.native_at(cw::control_index(v))
            | t.datatype.native_at(cw::datatype_index(v))
            | t.subreg.native_at(cw::subreg_index(v))
            | t.src0.native_at(cw::src0_index(v)),
    );
    let n = &mut w;
    gen8_native::or_opcode_unchecked(n, hw);
    gen8_native::or_debug_control_unchecked(n, cw::debug_control(v));
    gen8_native::or_acc_wr_control_unchecked(n, cw::acc_wr_control(v));
    gen8_native::or_cond_modifier_unchecked(n, cw::cond_modifier(v));
    gen8_native::or_dst_da_reg_nr_unchecked(n, cw::dst_reg_nr(v));
    gen8_native::or_src0_da_reg_nr_unchecked(n, cw::src0_reg_nr(v));
    if has_immediate(p, n) {
        let imm = cw::imm13(v);
        // Mesa never compacts a SEND that ends the thread; bit 12 of the
        // immediate, its sign, would set EOT (bit 127).
        if opcode.is_send() && imm >> (IMM13_BITS - 1) != 0 {
            return Err(bad(
                &cw::IMM13,
                u64::from(imm),
                "a compacted SEND cannot end the thread",
            ));
        }
        // The immediate covers the entry's src1 bits: an index that
        // repeats an earlier entry under the immediate gives the same
        // native word (the hardware runs it; decoding keeps the index).
        n.0 = (n.0 & !DW3) | u128::from(sext13(imm)) << gen8_native::IMM32_LO;
    } else {
        n.0 |= t.src1.native_at(cw::src1_index(v));
        gen8_native::or_src1_da_reg_nr_unchecked(n, cw::src1_reg_nr(v));
    }
    Ok(w)
}

fn uncompact_3src(t: &ThreeTables, v: u64) -> Result<Word, DecodeError> {
    if v & c3::ZERO_MASK != 0 {
        return Err(DecodeError::ReservedBits(u128::from(v & c3::ZERO_MASK)));
    }
    let mut w = Word(t.control.native_at(c3::control_index(v)) | t.source.native_at(c3::source_index(v)));
    let n = &mut w;
    // The 7-bit register numbers go to bits 6:0 of the native fields, whose
    // bit 7 the source table has written (or left zero).
    gen8_3src::or_opcode_unchecked(n, c3::opcode(v));
    gen8_3src::or_debug_control_unchecked(n, c3::debug_control(v));
    gen8_3src::or_saturate_unchecked(n, c3::saturate(v));
    gen8_3src::or_dst_reg_nr_unchecked(n, c3::dst_reg_nr(v));
    gen8_3src::or_src0_rep_ctrl_unchecked(n, c3::src0_rep_ctrl(v));
    gen8_3src::or_src1_rep_ctrl_unchecked(n, c3::src1_rep_ctrl(v));
    gen8_3src::or_src2_rep_ctrl_unchecked(n, c3::src2_rep_ctrl(v));
    gen8_3src::or_src0_subreg_nr_unchecked(n, c3::src0_subreg_nr(v));
    gen8_3src::or_src1_subreg_nr_unchecked(n, c3::src1_subreg_nr(v));
    gen8_3src::or_src2_subreg_nr_unchecked(n, c3::src2_subreg_nr(v));
    gen8_3src::or_src0_reg_nr_unchecked(n, c3::src0_reg_nr(v));
    gen8_3src::or_src1_reg_nr_unchecked(n, c3::src1_reg_nr(v));
    gen8_3src::or_src2_reg_nr_unchecked(n, c3::src2_reg_nr(v));
    Ok(w)
}

/// Compacts an instruction: `None` unless the platform can express it in
/// 8 bytes. [`Controls::COMPACTED`] in `inst` is ignored (the native word
/// compacted is the instruction without it); everything else must encode
/// ([`crate::codec::encode_unchecked`]) and fit the compacted form. The
/// subregister index is the lowest that stands for the native word, or
/// [`Instruction::compact_subreg`] when that is set, which must then be
/// another index standing for the same word (else `None`).
#[inline]
pub fn compact(p: Platform, inst: &Instruction) -> Option<CompactWord> {
    let c = compact_word(p, crate::codec::native_word(p, inst).ok()?)?;
    match inst.compact_subreg {
        0 => Some(c),
        k => with_subreg_index(p, c, k),
    }
}

/// The subregister index of a compacted word with an immediate source
/// when it is not the lowest standing for its native word (see
/// [`Instruction::compact_subreg`]); 0 otherwise.
fn other_subreg_index(p: Platform, c: CompactWord, native: &Word) -> u8 {
    let three = Opcode::from_hw(p, cw::opcode(c.0)).is_some_and(Opcode::is_three_src);
    if three || !has_immediate(p, native) {
        return 0;
    }
    let t = tables_of(p).subreg;
    let sub = cw::subreg_index(c.0);
    if t.find_immediate(t.entry(sub)) == Some(sub) {
        0
    } else {
        sub
    }
}

/// `c`, a word [`compact_word`] wrote (its lowest subregister index), with
/// the subregister index `k` instead, if `k` is another index that stands
/// for the same native word: `c` has an immediate source and entry `k`
/// agrees with `c`'s entry in the bits compared beside an immediate.
pub(crate) fn with_subreg_index(p: Platform, c: CompactWord, k: u8) -> Option<CompactWord> {
    let native = uncompact_word(p, c).ok()?;
    if !has_immediate(p, &native) || Opcode::from_hw(p, cw::opcode(c.0)).is_some_and(Opcode::is_three_src) {
        return None;
    }
    let t = tables_of(p).subreg;
    let lowest = cw::subreg_index(c.0);
    let (m, _) = t.immediate.as_ref()?;
    let same = usize::from(k) < t.entries.len() && t.entry(k) & m == t.entry(lowest) & m;
    if k == lowest || !same {
        return None;
    }
    let mut v = c.0 & !cw::SUBREG_INDEX.mask() as u64;
    cw::or_subreg_index_unchecked(&mut v, k);
    Some(CompactWord(v))
}

/// Decodes an 8-byte compacted instruction as stored in memory.
#[inline]
pub fn decode_compact(p: Platform, bytes: &[u8; 8]) -> Result<Instruction, DecodeError> {
    decode_compact_word(p, CompactWord::from_bytes(*bytes))
}

/// Decodes a compacted word: the instruction its native form decodes to,
/// with [`Controls::COMPACTED`] set, and the subregister index in
/// [`Instruction::compact_subreg`] when it is not the lowest that stands
/// for the native word (so that [`compact`] gives the same 8 bytes back).
#[inline]
pub fn decode_compact_word(p: Platform, c: CompactWord) -> Result<Instruction, DecodeError> {
    let native = uncompact_word(p, c)?;
    let mut i = decode_word(p, native)?;
    i.controls.insert(Controls::COMPACTED);
    i.compact_subreg = other_subreg_index(p, c, &native);
    Ok(i)
}

/// One instruction's bytes in a stream: a native or a compacted word, or
/// a trailing piece shorter than the instruction it starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Piece {
    /// A 16-byte native word (CmptCtrl clear).
    Native(Word),
    /// An 8-byte compacted word (CmptCtrl set).
    Compact(CompactWord),
    /// The last `have` bytes, fewer than the `need` their CmptCtrl bit
    /// asks for (8 when fewer than 4 bytes are left to tell).
    Short {
        /// Bytes the instruction needs.
        need: usize,
        /// Bytes left.
        have: usize,
    },
}

impl Piece {
    /// Bytes the piece takes in the stream.
    pub const fn len(&self) -> usize {
        match self {
            Piece::Native(_) => NATIVE_BYTES,
            Piece::Compact(_) => COMPACT_BYTES,
            Piece::Short { have, .. } => *have,
        }
    }

    /// Whether the piece takes no bytes (never: a piece has at least one).
    pub const fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// [`Piece::decode`] into `r` where it lies (a native word straight
    /// there, see [`crate::codec::decode_word_in_place`]).
    #[inline]
    pub(crate) fn decode_in_place(&self, p: Platform, r: &mut Result<Instruction, DecodeError>) {
        match *self {
            Piece::Native(w) => crate::codec::decode_word_in_place(p, w, r),
            _ => *r = self.decode(p),
        }
    }

    /// Decodes the piece.
    #[inline]
    pub fn decode(&self, p: Platform) -> Result<Instruction, DecodeError> {
        match *self {
            Piece::Native(w) => decode_word(p, w),
            Piece::Compact(c) => decode_compact_word(p, c),
            Piece::Short { need, have } => Err(DecodeError::Truncated { need, have }),
        }
    }
}

/// The pieces of a stream of 8- and 16-byte instructions, with their byte
/// offsets: each instruction's CmptCtrl bit (bit 29, in its fourth byte)
/// gives its size, on every platform.
#[derive(Clone, Debug)]
pub struct Pieces<'a> {
    bytes: &'a [u8],
    offset: usize,
}

/// The byte of an instruction that holds CmptCtrl (bit 29): its fourth.
pub(crate) const CMPT_CONTROL_BYTE: usize = (gen8_native::CMPT_CONTROL_LO / u8::BITS) as usize;
/// CmptCtrl (bit 29) as it stands in an instruction's fourth byte: it
/// tells the size of the instruction that starts there.
pub(crate) const CMPT_CONTROL_IN_BYTE_3: u8 =
    (gen8_native::CMPT_CONTROL.mask() >> (CMPT_CONTROL_BYTE as u32 * u8::BITS)) as u8;
const _: () = assert!(
    (CMPT_CONTROL_IN_BYTE_3 as u128) << (CMPT_CONTROL_BYTE as u32 * u8::BITS) == gen8_native::CMPT_CONTROL.mask()
);
const _: () = assert!(gen8_native::CMPT_CONTROL.mask() == cw::CMPT_CONTROL.mask());

/// The pieces of `bytes`.
pub fn pieces(bytes: &[u8]) -> Pieces<'_> {
    Pieces { bytes, offset: 0 }
}

impl Iterator for Pieces<'_> {
    type Item = (usize, Piece);

    #[inline]
    fn next(&mut self) -> Option<(usize, Piece)> {
        let rest = self.bytes.get(self.offset..).filter(|r| !r.is_empty())?;
        let at = self.offset;
        let piece = match (
            rest.get(CMPT_CONTROL_BYTE),
            rest.first_chunk::<NATIVE_BYTES>(),
            rest.first_chunk::<COMPACT_BYTES>(),
        ) {
            (Some(b3), Some(w), _) if b3 & CMPT_CONTROL_IN_BYTE_3 == 0 => Piece::Native(Word::from_bytes(*w)),
            (Some(b3), _, Some(c)) if b3 & CMPT_CONTROL_IN_BYTE_3 != 0 => Piece::Compact(CompactWord::from_bytes(*c)),
            (Some(b3), _, _) => Piece::Short {
                need: if b3 & CMPT_CONTROL_IN_BYTE_3 != 0 {
                    COMPACT_BYTES
                } else {
                    NATIVE_BYTES
                },
                have: rest.len(),
            },
            (None, _, _) => Piece::Short {
                need: COMPACT_BYTES,
                have: rest.len(),
            },
        };
        self.offset += piece.len();
        Some((at, piece))
    }
}

/// Decodes a stream of 8- and 16-byte instructions: `(byte offset,
/// instruction or error)` for each. A word that does not decode is skipped
/// by the size its CmptCtrl bit gives; a trailing piece shorter than its
/// instruction is a [`DecodeError::Truncated`], the last item.
///
/// ```
/// use geneu::compact::decode_stream;
/// use geneu::Platform;
/// // A compacted nop, then 3 stray bytes.
/// let bytes = [0x7e, 0, 0, 0x20, 0, 0, 0, 0, 1, 2, 3];
/// let items: Vec<_> = decode_stream(Platform::Gen8, &bytes).collect();
/// assert_eq!(items.len(), 2);
/// assert_eq!(items[0].0, 0);
/// assert!(items[0].1.is_ok());
/// assert_eq!(items[1].0, 8);
/// assert!(items[1].1.is_err());
/// ```
pub fn decode_stream(
    p: Platform,
    bytes: &[u8],
) -> impl Iterator<Item = (usize, Result<Instruction, DecodeError>)> + '_ {
    pieces(bytes).map(move |(o, piece)| (o, piece.decode(p)))
}
