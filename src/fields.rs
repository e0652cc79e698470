//! Field-by-field views of a word, for bring-up: every field the word's
//! layout uses, with its bit range, raw value and meaning, and the fields
//! that differ between two words.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use crate::isa::ADDRESS_MODE_INDIRECT;
use crate::model::*;
use crate::word::fields::{gen7_3src, gen7_flow, gen7_native, gen8_3src, gen8_flow, gen8_native};
use crate::word::{FieldInfo, Word};

/// One field of a word.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct FieldRow {
    /// The field's table entry (name and bit fragments).
    pub field: &'static FieldInfo,
    /// The raw value of the bits.
    pub raw: u64,
    /// What the value means, as far as the field alone tells.
    pub meaning: String,
}

/// Whether a field of the native layout is part of the word's view, given
/// its access mode, addressing modes and immediates.
fn native_field_used(name: &str, w: &Word, p: Platform) -> bool {
    const A16: u8 = AccessMode::Align16.hw();
    let (a16, dst_ind, s0_ind, s1_ind, f0, f1, op) = if p.is_gen8() {
        (
            gen8_native::access_mode(w) == A16,
            gen8_native::dst_address_mode(w) == ADDRESS_MODE_INDIRECT,
            gen8_native::src0_address_mode(w) == ADDRESS_MODE_INDIRECT,
            gen8_native::src1_address_mode(w) == ADDRESS_MODE_INDIRECT,
            gen8_native::src0_reg_file(w),
            gen8_native::src1_reg_file(w),
            gen8_native::opcode(w),
        )
    } else {
        (
            gen7_native::access_mode(w) == A16,
            gen7_native::dst_address_mode(w) == ADDRESS_MODE_INDIRECT,
            gen7_native::src0_address_mode(w) == ADDRESS_MODE_INDIRECT,
            gen7_native::src1_address_mode(w) == ADDRESS_MODE_INDIRECT,
            gen7_native::src0_reg_file(w),
            gen7_native::src1_reg_file(w),
            gen7_native::opcode(w),
        )
    };
    let opcode = Opcode::from_hw(p, op);
    let branch = opcode.is_some_and(|o| o.is_branch());
    let send = opcode.is_some_and(|o| o.is_send());
    let math = opcode == Some(Opcode::Math);
    let imm0 = f0 == RegFile::Imm.hw();
    // A branch whose offsets fill the payload (not a `brd`/`brc` that
    // reads them from its src0 register).
    let payload = opcode.is_some_and(|o| o.offsets_in_payload(imm0));
    let dw3_imm = imm0 || f1 == RegFile::Imm.hw() || branch;
    let gen8_wide = p.is_gen8() && (payload || imm0);
    // Aliases of bits 27:24: keep the one the opcode means.
    match name {
        "cond_modifier" => return !send && !math,
        "math_function" => return math,
        "sfid" => return send,
        "acc_wr_control" => return !(p.is_gen8() && branch),
        "branch_control" => return p.is_gen8() && branch,
        "imm32" => return dw3_imm && !gen8_wide,
        "imm64_low" => return gen8_wide,
        _ => {}
    }
    let operand_ok = |prefix: &str, ind: bool| -> bool {
        let rest = name.get(prefix.len()..).unwrap_or("");
        match rest {
            "_da1_subreg_nr" => !ind && !a16,
            "_da16_subreg_nr" => !ind && a16,
            "_da_reg_nr" => !ind,
            "_ia_subreg_nr" => ind,
            "_ia_addr_imm9" => false,
            "_ia1_addr_imm" => ind && !a16,
            "_ia16_addr_imm" => ind && a16,
            "_hstride" => prefix == "dst" || !a16,
            "_width" => !a16,
            r if r.starts_with("_da16_swiz") => a16,
            _ => true,
        }
    };
    if name == "da16_writemask" {
        return a16;
    }
    if name.starts_with("dst_") {
        return operand_ok("dst", dst_ind);
    }
    if let Some(rest) = name.strip_prefix("src0") {
        if gen8_wide {
            return rest == "_reg_file" || rest == "_reg_type";
        }
        if p.is_gen8() && imm0 {
            return rest == "_reg_file" || rest == "_reg_type";
        }
        return operand_ok("src0", s0_ind);
    }
    if let Some(rest) = name.strip_prefix("src1") {
        if gen8_wide {
            return false;
        }
        if rest == "_reg_file" || rest == "_reg_type" {
            return !(p.is_gen8() && payload);
        }
        if dw3_imm {
            return false;
        }
        if rest == "_spare" {
            return true;
        }
        return operand_ok("src1", s1_ind);
    }
    true
}

fn meaning(p: Platform, name: &str, raw: u64, w: &Word) -> String {
    let r8 = raw as u8;
    let file_of = |prefix: &str| -> u8 {
        match (p.is_gen8(), prefix) {
            (true, "dst") => gen8_native::dst_reg_file(w),
            (true, "src0") => gen8_native::src0_reg_file(w),
            (true, _) => gen8_native::src1_reg_file(w),
            (false, "dst") => gen7_native::dst_reg_file(w),
            (false, "src0") => gen7_native::src0_reg_file(w),
            (false, _) => gen7_native::src1_reg_file(w),
        }
    };
    let opt = |o: Option<&str>| o.map(ToString::to_string).unwrap_or_else(|| "reserved".into());
    match name {
        "opcode" => opt(Opcode::from_hw(p, r8).map(|o| o.name())),
        "exec_size" => ExecSize::from_hw(r8)
            .map(|e| format!("{} channels", e.channels()))
            .unwrap_or_else(|| "reserved".into()),
        "access_mode" => match AccessMode::from_hw(r8) {
            Some(AccessMode::Align1) => "align1".into(),
            _ => "align16".into(),
        },
        "mask_control" => (if raw == 0 { "enabled channels" } else { "WE_all" }).into(),
        "thread_control" => opt(ThreadControl::from_hw(r8).map(|t| match t {
            ThreadControl::Normal => "normal",
            ThreadControl::Atomic => "atomic",
            _ => "switch",
        })),
        "qtr_control" => format!("{}Q / {}H", raw + 1, raw / 2 + 1),
        // 0 is no predicate; Normal has the same code in both access modes.
        "pred_control" => match raw {
            0 => "none".into(),
            _ if PredCtrl::from_hw(AccessMode::Align1, r8) == Some(PredCtrl::Normal) => "sequential".into(),
            n => format!("mode {n}"),
        },
        "cond_modifier" => opt(CondMod::from_hw(r8).map(|c| if c == CondMod::None { "none" } else { c.name() })),
        "math_function" => {
            opt(MathFunction::from_hw(r8).map(|f| if f == MathFunction::None { "none" } else { f.name() }))
        }
        "dst_reg_file" | "src0_reg_file" | "src1_reg_file" => match RegFile::from_hw(r8) {
            Some(RegFile::Arf) => "ARF".into(),
            Some(RegFile::Grf) => "GRF".into(),
            Some(_) => "IMM".into(),
            // Gen4-6's message register file; Gen7+ has none.
            None => "MRF (reserved)".into(),
        },
        "dst_reg_type" | "src0_reg_type" | "src1_reg_type" => {
            let prefix = name.split('_').next().unwrap_or("dst");
            let t = if file_of(prefix) == RegFile::Imm.hw() {
                Type::from_imm_hw(p, r8)
            } else {
                Type::from_reg_hw(p, r8)
            };
            opt(t.map(|t| t.name()))
        }
        "src_type" | "dst_type" => opt(Type::from_three_src_hw(p, r8).map(|t| t.name())),
        n if n.ends_with("hstride") => {
            let r = Region {
                hstride: r8,
                ..Region::SCALAR
            };
            format!("{}", r.hstride_elems())
        }
        n if n.ends_with("_width") => format!("{}", 1u32 << raw),
        n if n.ends_with("vstride") => {
            let r = Region {
                vstride: r8,
                ..Region::SCALAR
            };
            match r.vstride_elems() {
                Some(e) => format!("{e}"),
                None if r.is_vxh() => "VxH".into(),
                None => "reserved".into(),
            }
        }
        "da16_writemask" | "dst_writemask" => {
            let mut s = String::from(".");
            let m = WriteMask::from_bits_truncate(r8);
            for (bit, c) in [
                (WriteMask::X, 'x'),
                (WriteMask::Y, 'y'),
                (WriteMask::Z, 'z'),
                (WriteMask::W, 'w'),
            ] {
                if m.contains(bit) {
                    s.push(c);
                }
            }
            s
        }
        n if n.contains("swizzle") || n.contains("swiz_") => {
            let chans = ['x', 'y', 'z', 'w'];
            // One channel selector, or four, packed as [`Swizzle`] packs them.
            let z = Swizzle(r8);
            if n.contains("swiz_") {
                chans
                    .get(usize::from(z.get(0)))
                    .map(|c| c.to_string())
                    .unwrap_or_default()
            } else {
                (0..chans.len() as u32)
                    .filter_map(|k| chans.get(usize::from(z.get(k))))
                    .collect()
            }
        }
        "jip" | "uip" => {
            let v = if p.is_gen8() {
                raw as u32 as i32 as i64
            } else {
                raw as u16 as i16 as i64
            };
            let op = if p.is_gen8() {
                gen8_native::opcode(w)
            } else {
                gen7_native::opcode(w)
            };
            // The unit of the word's opcode (a branch's, when the
            // opcode is none).
            let op = Opcode::from_hw(p, op).unwrap_or(Opcode::If);
            match p.jump_unit_bytes(op) {
                1 => format!("{v} bytes"),
                unit => format!("{v} × {unit} bytes"),
            }
        }
        "imm32" => format!("{raw:#010x}"),
        "imm64_low" => format!("{raw:#010x}"),
        _ => format!("{raw}"),
    }
}

/// Every field the word's layout uses, in table order, with meanings.
///
/// Works on any word, also one that does not decode: the layout is chosen
/// from the opcode and access-mode bits alone.
pub fn describe(p: Platform, w: Word) -> Vec<FieldRow> {
    view_fields(p, w)
        .map(|f| {
            let raw = f.get(w.0);
            FieldRow {
                field: f,
                raw,
                meaning: meaning(p, f.name, raw, &w),
            }
        })
        .collect()
}

/// The fields [`describe`] shows for `w`, in its order, without their
/// meanings (for the text's field annotation, which needs only the
/// fields).
pub(crate) fn view_fields(p: Platform, w: Word) -> impl Iterator<Item = &'static FieldInfo> {
    view_fields_in(p, w, u128::MAX)
}

/// The bits of a word that [`view_fields_in`] and [`layout`] read to
/// choose its fields (what `native_field_used` reads: the opcode, access
/// mode, addressing modes and the sources' register files): two words
/// equal on these bits have the same fields, so a caller may keep the
/// choice for the next word (the annotation's `Items`).
pub(crate) const fn view_context_bits(p: Platform) -> u128 {
    if p.is_gen8() {
        gen8_native::OPCODE.mask()
            | gen8_native::ACCESS_MODE.mask()
            | gen8_native::DST_ADDRESS_MODE.mask()
            | gen8_native::SRC0_ADDRESS_MODE.mask()
            | gen8_native::SRC1_ADDRESS_MODE.mask()
            | gen8_native::SRC0_REG_FILE.mask()
            | gen8_native::SRC1_REG_FILE.mask()
    } else {
        gen7_native::OPCODE.mask()
            | gen7_native::ACCESS_MODE.mask()
            | gen7_native::DST_ADDRESS_MODE.mask()
            | gen7_native::SRC0_ADDRESS_MODE.mask()
            | gen7_native::SRC1_ADDRESS_MODE.mask()
            | gen7_native::SRC0_REG_FILE.mask()
            | gen7_native::SRC1_REG_FILE.mask()
    }
}

/// [`view_fields`] that cover some bit of `mask` (the others skipped
/// before their use is judged).
pub(crate) fn view_fields_in(p: Platform, w: Word, mask: u128) -> impl Iterator<Item = &'static FieldInfo> {
    // The opcode field is bits 6:0 on every layout.
    const _: () = assert!(gen7_native::OPCODE.mask() == gen8_native::OPCODE.mask());
    let op = Opcode::from_hw(p, gen8_native::opcode(&w));
    let three = op.is_some_and(|o| o.is_three_src());
    // The flow-control fields of a branch whose offsets are in the payload
    // (a `brd`/`brc` with a register src0 has none).
    let src0_file = if p.is_gen8() {
        gen8_native::src0_reg_file(&w)
    } else {
        gen7_native::src0_reg_file(&w)
    };
    let branch = op.is_some_and(|o| o.offsets_in_payload(src0_file == RegFile::Imm.hw()));
    let [table, flow] = layout(p, op);
    let flow: &'static [&'static FieldInfo] = if branch && !three { flow } else { &[] };
    table
        .iter()
        .copied()
        .filter(move |f| f.mask() & mask != 0 && (three || native_field_used(f.name, &w, p)))
        .chain(flow.iter().copied().filter(move |f| f.mask() & mask != 0))
}

/// The tables of the layout of a word with opcode `op` (read from bits
/// 6:0; `None` if they name no opcode): the native or 3-source table, and
/// the flow-control table of a branch (empty otherwise).
pub fn layout(p: Platform, op: Option<Opcode>) -> [&'static [&'static FieldInfo]; 2] {
    let three = op.is_some_and(|o| o.is_three_src());
    let branch = op.is_some_and(|o| o.is_branch());
    let table: &'static [&'static FieldInfo] = match (p.is_gen8(), three) {
        (true, true) => gen8_3src::FIELDS,
        (true, false) => gen8_native::FIELDS,
        (false, true) => gen7_3src::FIELDS,
        (false, false) => gen7_native::FIELDS,
    };
    let flow: &'static [&'static FieldInfo] = match (branch && !three, p.is_gen8()) {
        (true, true) => gen8_flow::FIELDS,
        (true, false) => gen7_flow::FIELDS,
        _ => &[],
    };
    [table, flow]
}

/// The field called `name` in the layout of a word with opcode `op` (see
/// [`layout`]): the first of that name, the native or 3-source table
/// searched before the flow-control one.
pub fn field_named(p: Platform, op: Option<Opcode>, name: &str) -> Option<&'static FieldInfo> {
    layout(p, op).into_iter().flatten().copied().find(|f| f.name == name)
}

/// A field that differs between two words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldDiff {
    /// The field.
    pub field: &'static FieldInfo,
    /// Its value in the first word, with meaning.
    pub a: (u64, String),
    /// Its value in the second word, with meaning.
    pub b: (u64, String),
    /// The differing bit positions within the field's range, high first.
    pub bits: Vec<u32>,
}

/// The fields that differ between two words, from the union of both
/// words' views; bits that no viewed field covers are reported by
/// [`uncovered_diff_bits`].
pub fn diff(p: Platform, a: Word, b: Word) -> Vec<FieldDiff> {
    let changed = a.0 ^ b.0;
    let ra = describe(p, a);
    let rb = describe(p, b);
    let mut out: Vec<FieldDiff> = Vec::new();
    for f in ra.iter().map(|r| r.field).chain(rb.iter().map(|r| r.field)) {
        let m = f.mask() & changed;
        if m == 0 || out.iter().any(|d| d.field.name == f.name) {
            continue;
        }
        let (va, vb) = (f.get(a.0), f.get(b.0));
        let bits = (0..128u32).rev().filter(|&i| (m >> i) & 1 == 1).collect();
        out.push(FieldDiff {
            field: f,
            a: (va, meaning(p, f.name, va, &a)),
            b: (vb, meaning(p, f.name, vb, &b)),
            bits,
        });
    }
    out
}

/// Differing bits that none of the fields of either view covers.
pub fn uncovered_diff_bits(p: Platform, a: Word, b: Word) -> u128 {
    let covered = describe(p, a)
        .iter()
        .chain(describe(p, b).iter())
        .fold(0u128, |m, r| m | r.field.mask());
    (a.0 ^ b.0) & !covered
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `view_context_bits` names every bit that chooses a word's fields:
    /// words that agree on those bits (the rest random) get the same
    /// fields for every difference mask. Random words from a fixed
    /// xorshift sequence, each opcode code forced in turn.
    #[test]
    fn view_context_bits_choose_the_fields() {
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for p in Platform::ALL {
            let ctx = view_context_bits(p);
            for op in 0u128..128 {
                for _ in 0..20 {
                    let a = (u128::from(next()) << 64 | u128::from(next())) & !0x7f | op;
                    let r = u128::from(next()) << 64 | u128::from(next());
                    let b = a & ctx | r & !ctx;
                    let mask = u128::from(next()) << 64 | u128::from(next());
                    let fa: Vec<_> = view_fields_in(p, Word(a), mask).map(|f| f.name).collect();
                    let fb: Vec<_> = view_fields_in(p, Word(b), mask).map(|f| f.name).collect();
                    assert_eq!(fa, fb, "{p}: {a:#034x} vs {b:#034x}");
                }
            }
        }
    }
}
