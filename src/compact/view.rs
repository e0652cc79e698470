//! A compacted word field by field, for bring-up: each of its own fields
//! with its raw value, and for a table index the entry it selects and the
//! native fields that entry fills.

use alloc::vec::Vec;

use super::{has_immediate, tables_of, three_tables_of, uncompact_word, CompactWord, IndexTable};
use crate::fields::{describe as describe_native, FieldRow};
use crate::model::{Opcode, Platform};
use crate::word::fields::{compact_3src as c3, compact_word as cw};
use crate::word::{FieldInfo, Word};

/// What a compaction table index selects.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct IndexSelection {
    /// The table's name in its file (`control`, `datatype`, `subreg`,
    /// `src0`, `src1`; `control`, `source` for 3-source words).
    pub table: &'static str,
    /// Where the table is written: `tables/FILE.idx:LINE`.
    pub source: &'static str,
    /// The entry at the index: the native bits it stands for, the first
    /// range's bits highest.
    pub entry: u64,
    /// Bits in the entry.
    pub width: u32,
    /// The native bit ranges the entry fills, most significant first.
    pub native_bits: &'static [(u32, u32)],
    /// The fields of the native word that lie in those bits, with their
    /// values (empty when the word does not uncompact).
    pub native_fields: Vec<FieldRow>,
}

/// One field of a compacted word.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct CompactFieldRow {
    /// The field in the compacted word's table (`tables/compact_word.tbl`
    /// or `compact_3src.tbl`).
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub field: &'static FieldInfo,
    /// The raw value of its bits.
    pub raw: u64,
    /// For a table index, what it selects.
    pub selects: Option<IndexSelection>,
}

/// The table a compacted word's field indexes, by the field's name.
fn table_of(p: Platform, three: bool, name: &str) -> Option<&'static IndexTable> {
    if three {
        let t = three_tables_of(p)?;
        return match name {
            "control_index" => Some(t.control),
            "source_index" => Some(t.source),
            _ => None,
        };
    }
    let t = tables_of(p);
    match name {
        "control_index" => Some(t.control),
        "datatype_index" => Some(t.datatype),
        "subreg_index" => Some(t.subreg),
        "src0_index" => Some(t.src0),
        "src1_index" => Some(t.src1),
        _ => None,
    }
}

/// Every field of a compacted word, in table order: its own fields (the
/// 3-source layout for a 3-source opcode), each table index with the entry
/// it selects and the native fields in that entry's bits. With an
/// immediate source, `imm13` stands where `src1_index` and `src1_reg_nr`
/// would be. Works on any word, also one that does not uncompact (its
/// indices then show their entries without native fields).
///
/// ```
/// use geneu::compact::{compact_word, describe};
/// use geneu::{Platform, Word};
/// // mov(8) g17<1>F g12<8,8,1>F { align1 1Q };
/// let w = Word::from_bytes([0x01, 0x00, 0x60, 0x00, 0xe8, 0x3a, 0x20, 0x22,
///                           0x80, 0x01, 0x8d, 0x00, 0x00, 0x00, 0x00, 0x00]);
/// let c = compact_word(Platform::Gen8, w).unwrap();
/// let rows = describe(Platform::Gen8, c);
/// let control = rows.iter().find(|r| r.field.name == "control_index").unwrap();
/// let sel = control.selects.as_ref().unwrap();
/// assert!(sel.native_fields.iter().any(|f| f.field.name == "exec_size" && f.raw == 3));
/// ```
pub fn describe(p: Platform, c: CompactWord) -> Vec<CompactFieldRow> {
    let v = c.0;
    let three = Opcode::from_hw(p, cw::opcode(v)).is_some_and(Opcode::is_three_src);
    let native: Option<Word> = uncompact_word(p, c).ok();
    let native_rows = native.map(|w| describe_native(p, w)).unwrap_or_default();
    let imm = !three && native.is_some_and(|w| has_immediate(p, &w));
    let fields: &'static [&'static FieldInfo] = if three { c3::FIELDS } else { cw::FIELDS };
    let mut rows = Vec::with_capacity(fields.len());
    for &f in fields {
        let shown = match f.name {
            "imm13" => imm,
            "src1_index" | "src1_reg_nr" => !imm,
            _ => true,
        };
        if !shown {
            continue;
        }
        let raw = f.get(u128::from(v));
        let selects = table_of(p, three, f.name).map(|t| {
            let entry = t.entry(raw as u8);
            let mask = t.mask();
            IndexSelection {
                table: t.name,
                source: t.source,
                entry,
                width: t.width,
                native_bits: t.bits,
                native_fields: native_rows
                    .iter()
                    .filter(|r| r.field.mask() & mask != 0)
                    .cloned()
                    .collect(),
            }
        });
        rows.push(CompactFieldRow { field: f, raw, selects });
    }
    rows
}
