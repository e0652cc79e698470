//! Operand lowering: vISA operands to hardware register regions.
//!
//! A vISA operand is first *resolved* against the variable table into a
//! placed operand (a register file location, a hardware type, and a
//! region in elements) with every vISA rule checked. Instruction lowering
//! then cuts placed operands into the channel ranges of the hardware
//! instructions it emits and converts them with `src_to_hw` /
//! `dst_to_hw`, which pick legal encodings of the same elements.
//!
//! The public functions ([`lower_src`], [`lower_dst`], [`lower_raw`]) do
//! both steps for an operand of an instruction that is not split.

use super::error::{Slot, VarKind, VisaError};
use super::format::*;
use super::types::*;
use super::vars::{a0_elements, Placement, VarTable, GRF_BYTES};
use crate::isa::region::{HSTRIDE_1, HSTRIDE_2, HSTRIDE_4};
use crate::model::*;

/// The ARF numbers of `null`, the address register `a0` and flag register
/// `f0` (`f1` is one more).
pub(crate) use crate::isa::arf::{ADDRESS as ARF_A0, FLAG as ARF_F0, NULL as ARF_NULL};

/// Where a placed register operand's data is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Loc {
    /// A GRF byte offset.
    Grf(u32),
    /// An ARF register and subregister byte.
    Arf(u8, u32),
    /// Single-address indirect: `a0` element and byte offset.
    Ind { sub: u32, imm: i32 },
    /// Multi-address indirect: first `a0` element and byte offset.
    IndMulti { sub: u32, imm: i32 },
}

impl Loc {
    pub(crate) const fn is_indirect(self) -> bool {
        matches!(self, Loc::Ind { .. } | Loc::IndMulti { .. })
    }
}

/// A placed register source: location of the first element, hardware
/// type, region in elements, modifiers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct RegOp {
    pub loc: Loc,
    pub ty: Type,
    /// Vertical stride; ignored for multi-address operands.
    pub v: u32,
    pub w: u32,
    pub h: u32,
    pub mods: SrcMods,
}

impl RegOp {
    /// Element index (from the origin) read by channel `c`.
    pub(crate) fn elem(&self, c: u32) -> u32 {
        if self.w == 0 {
            return 0;
        }
        (c / self.w) * self.v + (c % self.w) * self.h
    }

    /// Whether every channel reads the same element.
    pub(crate) fn is_scalar(&self, n: u32) -> bool {
        (0..n).all(|c| self.elem(c) == 0) && !matches!(self.loc, Loc::IndMulti { .. })
    }

    /// The operand as seen by channels `k..`: origin moved to channel `k`.
    pub(crate) fn shifted(&self, k: u32, slot: Slot) -> Result<RegOp, VisaError> {
        let mut r = *self;
        let size = self.ty.size();
        match &mut r.loc {
            Loc::Grf(b) | Loc::Arf(_, b) => *b += self.elem(k) * size,
            Loc::Ind { imm, .. } => *imm = shift_imm(*imm, self.elem(k) * size, slot)?,
            Loc::IndMulti { sub, imm } => {
                *sub += k / self.w.max(1);
                *imm = shift_imm(*imm, (k % self.w.max(1)) * self.h * size, slot)?;
            }
        }
        Ok(r)
    }

    /// Byte range `[lo, hi)` of a direct GRF operand read by `n` channels.
    pub(crate) fn grf_span(&self, n: u32) -> Option<(u32, u32)> {
        let Loc::Grf(b) = self.loc else { return None };
        let last = (0..n).map(|c| self.elem(c)).max().unwrap_or(0);
        Some((b, b + (last + 1) * self.ty.size()))
    }
}

fn shift_imm(imm: i32, by: u32, slot: Slot) -> Result<i32, VisaError> {
    let v = imm.saturating_add(i32::try_from(by).unwrap_or(i32::MAX));
    if v > i32::from(crate::isa::ADDR_IMM_MAX) {
        return Err(VisaError::IllegalRegion {
            slot,
            reason: crate::decimal::range_text!(
                "the indirect offset of a split part leaves ",
                crate::isa::ADDR_IMM_MIN,
                crate::isa::ADDR_IMM_MAX
            ),
        });
    }
    Ok(v)
}

/// A placed destination: location of the first element, type, stride.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct DstOp {
    pub loc: Loc,
    pub ty: Type,
    pub h: u32,
}

impl DstOp {
    pub(crate) fn shifted(&self, k: u32, slot: Slot) -> Result<DstOp, VisaError> {
        let mut d = *self;
        let by = k * self.h * self.ty.size();
        match &mut d.loc {
            Loc::Arf(ARF_NULL, _) => {}
            Loc::Grf(b) | Loc::Arf(_, b) => *b += by,
            Loc::Ind { imm, .. } | Loc::IndMulti { imm, .. } => *imm = shift_imm(*imm, by, slot)?,
        }
        Ok(d)
    }

    /// Byte range `[lo, hi)` written by `n` channels, for a GRF destination.
    pub(crate) fn grf_span(&self, n: u32) -> Option<(u32, u32)> {
        let Loc::Grf(b) = self.loc else { return None };
        Some((b, b + (n.max(1) - 1) * self.h * self.ty.size() + self.ty.size()))
    }
}

/// A placed source.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SrcOp {
    /// A register region.
    Reg(RegOp),
    /// An immediate: the hardware type and its bits as [`Instruction::imm`]
    /// holds them (W/UW replicated into both halves), and the vISA type.
    Imm { ty: Type, bits: u64, visa: VisaType },
}

impl SrcOp {
    pub(crate) fn ty(&self) -> Type {
        match self {
            SrcOp::Reg(r) => r.ty,
            SrcOp::Imm { ty, .. } => *ty,
        }
    }
}

/// The element count of a region value that must not be Null.
fn count(v: RegionVal, slot: Slot, what: &'static str) -> Result<u32, VisaError> {
    v.elems().ok_or(VisaError::IllegalRegion { slot, reason: what })
}

/// Checks a source region against the vISA rules; returns (V, W, H) with
/// `None` for a Null vertical stride when `multi_ok`.
fn src_region(r: VisaRegion, exec: u32, slot: Slot, multi_ok: bool) -> Result<(Option<u32>, u32, u32), VisaError> {
    let ill = |reason| VisaError::IllegalRegion { slot, reason };
    let w = count(r.width, slot, "Width must be 1, 2, 4, 8 or 16")?;
    if !matches!(w, 1 | 2 | 4 | 8 | 16) {
        return Err(ill("Width must be 1, 2, 4, 8 or 16"));
    }
    let h = count(r.hstride, slot, "HorzStride must be 0, 1, 2 or 4")?;
    if h > 4 {
        return Err(ill("HorzStride must be 0, 1, 2 or 4"));
    }
    let v = match r.vstride.elems() {
        Some(v) => Some(v),
        None if multi_ok => None,
        None => return Err(ill("a Null VertStride is only for multi-address indirect operands")),
    };
    if w > exec {
        return Err(ill("ExecSize must be greater than or equal to Width"));
    }
    Ok((v, w, h))
}

/// Checks a destination's horizontal stride (1, 2 or 4).
fn dst_hstride(r: VisaRegion, slot: Slot) -> Result<u32, VisaError> {
    match r.hstride.elems() {
        Some(0) => Err(VisaError::IllegalRegion {
            slot,
            reason: "HorzStride of a destination must not be 0",
        }),
        Some(h @ (1 | 2 | 4)) => Ok(h),
        _ => Err(VisaError::IllegalRegion {
            slot,
            reason: "a destination HorzStride must be 1, 2 or 4",
        }),
    }
}

/// Source modifiers from a vISA modifier (NOT becomes the hardware negate,
/// which logic opcodes read as bitwise not; the opcode check is the
/// instruction's).
pub(crate) fn src_mods(m: Modifier, slot: Slot) -> Result<SrcMods, VisaError> {
    Ok(match m {
        Modifier::None => SrcMods::empty(),
        Modifier::Abs => SrcMods::ABS,
        Modifier::Neg | Modifier::Not => SrcMods::NEGATE,
        Modifier::NegAbs => SrcMods::NEGATE | SrcMods::ABS,
        Modifier::Sat => {
            return Err(VisaError::Modifier {
                slot,
                modifier: m.name(),
                reason: "saturation applies to destinations only",
            })
        }
    })
}

/// Resolves a general operand's origin: checks the row and column
/// offsets, returns the variable's type, base placement and first element.
fn general_origin(
    p: Platform,
    vars: &VarTable,
    slot: Slot,
    g: &GenOperand,
) -> Result<(Placement, Type, u32, u32), VisaError> {
    let (var, ty) = vars.general_var(p, slot, g.id)?;
    let size = ty.size();
    let per_row = GRF_BYTES / size;
    let rows = (u64::from(var.elements) * u64::from(size)).div_ceil(u64::from(GRF_BYTES));
    let (row, col) = (u32::from(g.row), u32::from(g.col));
    if u64::from(row) >= rows {
        return Err(VisaError::RowOffset {
            slot,
            id: g.id,
            row,
            rows: rows as u32,
        });
    }
    if col >= per_row {
        return Err(VisaError::ColumnOffset {
            slot,
            id: g.id,
            col,
            per_row,
        });
    }
    let first = row * per_row + col;
    Ok((var.placement, ty, first, var.elements))
}

fn out_of_bounds(slot: Slot, kind: VarKind, id: u32, element: u64, elements: u32) -> VisaError {
    VisaError::OutOfBounds {
        slot,
        kind,
        id,
        element: element.min(i64::MAX as u64) as i64,
        elements,
    }
}

/// Resolves a source operand of an instruction with `exec` channels.
/// `scalar` forces the region to `<0;1,0>` (the spec's scalar operands).
pub(crate) fn resolve_src(
    p: Platform,
    vars: &VarTable,
    slot: Slot,
    op: &VecOperand,
    exec: u32,
    scalar: bool,
) -> Result<SrcOp, VisaError> {
    let mods = src_mods(op.modifier, slot)?;
    let region = |r: VisaRegion, multi_ok: bool| {
        if scalar {
            Ok((Some(0), 1, 0))
        } else {
            src_region(r, exec, slot, multi_ok)
        }
    };
    match &op.kind {
        OperandKind::General(g) => {
            let (placement, ty, first, elements) = general_origin(p, vars, slot, g)?;
            let (v, w, h) = region(g.region, false)?;
            let r = RegOp {
                loc: Loc::Grf(0),
                ty,
                v: v.unwrap_or(0),
                w,
                h,
                mods,
            };
            let last = u64::from(first) + u64::from((0..exec).map(|c| r.elem(c)).max().unwrap_or(0));
            if last >= u64::from(elements) {
                return Err(out_of_bounds(slot, VarKind::General, g.id, last, elements));
            }
            let Placement::Grf(base) = placement else {
                return Err(VisaError::OperandClass {
                    slot,
                    reason: "the null variable cannot be read",
                });
            };
            Ok(SrcOp::Reg(RegOp {
                loc: Loc::Grf(base + first * ty.size()),
                ..r
            }))
        }
        OperandKind::Indirect(ind) => {
            let (loc, ty) = indirect_loc(p, vars, slot, ind)?;
            let (v, w, h) = region(ind.region, true)?;
            let loc = match (loc, v) {
                (Loc::Ind { sub, imm }, None) => {
                    let rows = exec / w;
                    let a = vars.address_var(p, slot, ind.addr)?;
                    let end = u32::from(ind.addr_offset) + rows;
                    if end > u32::from(a.elements) {
                        return Err(out_of_bounds(
                            slot,
                            VarKind::Address,
                            ind.addr.into(),
                            end.into(),
                            a.elements.into(),
                        ));
                    }
                    if sub + rows > a0_elements(p) {
                        return Err(VisaError::IllegalRegion {
                            slot,
                            reason: "the row addresses run past the address register a0",
                        });
                    }
                    Loc::IndMulti { sub, imm }
                }
                (l, _) => l,
            };
            Ok(SrcOp::Reg(RegOp {
                loc,
                ty,
                v: v.unwrap_or(0),
                w,
                h,
                mods,
            }))
        }
        OperandKind::Immediate(c) => {
            if op.modifier != Modifier::None {
                return Err(VisaError::Modifier {
                    slot,
                    modifier: op.modifier.name(),
                    reason: "immediates take no modifier",
                });
            }
            immediate(p, slot, c, exec)
        }
        OperandKind::Address(a) => {
            let var = vars.address_var(p, slot, a.id)?;
            if op.modifier != Modifier::None {
                return Err(VisaError::Modifier {
                    slot,
                    modifier: op.modifier.name(),
                    reason: "only general and indirect operands take modifiers",
                });
            }
            let width = a.width.channels().min(exec);
            let end = u32::from(a.offset) + width;
            if end > u32::from(var.elements) {
                return Err(out_of_bounds(
                    slot,
                    VarKind::Address,
                    a.id.into(),
                    end.into(),
                    var.elements.into(),
                ));
            }
            Ok(SrcOp::Reg(RegOp {
                loc: Loc::Arf(ARF_A0, 2 * (u32::from(var.subreg) + u32::from(a.offset))),
                ty: Type::UW,
                v: 0,
                w: width,
                h: 1,
                mods: SrcMods::empty(),
            }))
        }
        OperandKind::Predicate(_) => Err(VisaError::OperandClass {
            slot,
            reason: "predicate operands appear only in logic instructions on predicates",
        }),
        OperandKind::State(_) => Err(VisaError::OperandClass {
            slot,
            reason: "state operands appear only in ADDR_ADD and MOVS",
        }),
    }
}

/// The location and type of an indirect operand (single-address form;
/// the caller turns it multi-address when the region says so).
fn indirect_loc(p: Platform, vars: &VarTable, slot: Slot, ind: &IndirectOperand) -> Result<(Loc, Type), VisaError> {
    let a = vars.address_var(p, slot, ind.addr)?;
    if ind.addr_offset >= a.elements {
        return Err(out_of_bounds(
            slot,
            VarKind::Address,
            ind.addr.into(),
            ind.addr_offset.into(),
            a.elements.into(),
        ));
    }
    if ind.ty.is_packed() || matches!(ind.ty, VisaType::Bool | VisaType::BF) {
        return Err(VisaError::Type {
            slot,
            ty: ind.ty,
            reason: "an indirect operand may not be V, UV, VF or BOOL",
        });
    }
    let ty = ind.ty.reg_type(p).ok_or(VisaError::Type {
        slot,
        ty: ind.ty,
        reason: "the platform has no register type for it",
    })?;
    if !(crate::isa::ADDR_IMM_MIN..=crate::isa::ADDR_IMM_MAX).contains(&ind.offset) {
        return Err(VisaError::TooLarge {
            field: "indirect_opnd.indirect_offset",
            value: ind.offset as u16 as u64,
        });
    }
    Ok((
        Loc::Ind {
            sub: u32::from(a.subreg) + u32::from(ind.addr_offset),
            imm: ind.offset.into(),
        },
        ty,
    ))
}

/// An immediate source: hardware type and payload bits.
fn immediate(p: Platform, slot: Slot, c: &Immediate, exec: u32) -> Result<SrcOp, VisaError> {
    let tyerr = |reason| VisaError::Type { slot, ty: c.ty, reason };
    if !c.ty.is_64bit() && c.value >> 32 != 0 {
        return Err(VisaError::TooLarge {
            field: "const_opnd.high",
            value: c.value >> 32,
        });
    }
    let low = c.value as u32;
    let half = |v: u16| u64::from(v) | u64::from(v) << 16;
    let (ty, bits) = match c.ty {
        VisaType::Bool => return Err(tyerr("an immediate may not be BOOL")),
        VisaType::BF => return Err(tyerr("Gen7/Gen8 have no bfloat16 type")),
        VisaType::UD => (Type::UD, u64::from(low)),
        VisaType::D => (Type::D, u64::from(low)),
        VisaType::F => (Type::F, u64::from(low)),
        VisaType::UW => (Type::UW, half(low as u16)),
        VisaType::W => (Type::W, half(low as u16)),
        VisaType::UB => (Type::UW, half(u16::from(low as u8))),
        VisaType::B => (Type::W, half(low as u8 as i8 as i16 as u16)),
        VisaType::HF => (Type::HF, half(low as u16)),
        VisaType::V | VisaType::UV => {
            if exec > 8 {
                return Err(tyerr("a packed V/UV immediate holds 8 elements"));
            }
            (if c.ty == VisaType::V { Type::V } else { Type::UV }, u64::from(low))
        }
        VisaType::VF => {
            if exec > 4 {
                return Err(tyerr("a packed VF immediate holds 4 elements"));
            }
            (Type::VF, u64::from(low))
        }
        VisaType::DF => (Type::DF, c.value),
        VisaType::Q => (Type::Q, c.value),
        VisaType::UQ => (Type::UQ, c.value),
    };
    // Q and UQ exist only on Gen8; DF exists everywhere (its immediate
    // form only on Gen8, which instruction lowering works around).
    if ty.reg_hw(p).is_none() && ty.imm_hw(p).is_none() {
        return Err(VisaError::PlatformType { slot, ty, platform: p });
    }
    Ok(SrcOp::Imm { ty, bits, visa: c.ty })
}

/// Resolves a destination operand of an instruction with `exec` channels.
/// Returns the placed destination and whether it saturates.
pub(crate) fn resolve_dst(
    p: Platform,
    vars: &VarTable,
    slot: Slot,
    op: &VecOperand,
    exec: u32,
) -> Result<(DstOp, bool), VisaError> {
    let sat = match op.modifier {
        Modifier::None => false,
        Modifier::Sat => true,
        m => {
            return Err(VisaError::Modifier {
                slot,
                modifier: m.name(),
                reason: "a destination takes only saturation",
            })
        }
    };
    let d = match &op.kind {
        OperandKind::General(g) => {
            let (placement, ty, first, elements) = general_origin(p, vars, slot, g)?;
            let h = dst_hstride(g.region, slot)?;
            match placement {
                Placement::Null => DstOp {
                    loc: Loc::Arf(ARF_NULL, 0),
                    ty,
                    h,
                },
                Placement::Grf(base) => {
                    let last = u64::from(first) + u64::from(exec - 1) * u64::from(h);
                    if last >= u64::from(elements) {
                        return Err(out_of_bounds(slot, VarKind::General, g.id, last, elements));
                    }
                    DstOp {
                        loc: Loc::Grf(base + first * ty.size()),
                        ty,
                        h,
                    }
                }
            }
        }
        OperandKind::Indirect(ind) => {
            // A destination ignores VertStride and Width and is written
            // with both Null; a Null VertStride with a Width is the
            // multi-address form, which a destination cannot take.
            if ind.region.vstride == RegionVal::Null && ind.region.width != RegionVal::Null {
                return Err(VisaError::OperandClass {
                    slot,
                    reason: "a multi-address indirect operand cannot be a destination",
                });
            }
            let (loc, ty) = indirect_loc(p, vars, slot, ind)?;
            DstOp {
                loc,
                ty,
                h: dst_hstride(ind.region, slot)?,
            }
        }
        OperandKind::Address(a) => {
            let var = vars.address_var(p, slot, a.id)?;
            let end = u32::from(a.offset) + exec;
            if end > u32::from(var.elements) {
                return Err(out_of_bounds(
                    slot,
                    VarKind::Address,
                    a.id.into(),
                    end.into(),
                    var.elements.into(),
                ));
            }
            DstOp {
                loc: Loc::Arf(ARF_A0, 2 * (u32::from(var.subreg) + u32::from(a.offset))),
                ty: Type::UW,
                h: 1,
            }
        }
        OperandKind::Immediate(_) => {
            return Err(VisaError::OperandClass {
                slot,
                reason: "an immediate cannot be a destination",
            })
        }
        OperandKind::Predicate(_) => {
            return Err(VisaError::OperandClass {
                slot,
                reason: "a predicate destination is written only by cmp and logic instructions on predicates",
            })
        }
        OperandKind::State(_) => {
            return Err(VisaError::OperandClass {
                slot,
                reason: "a state operand cannot be a destination here",
            })
        }
    };
    Ok((d, sat))
}

/// The legal hardware region for `n` channels reading elements
/// `(c / w) * v + (c % w) * h`: parameters that cannot matter are set to
/// the values the region rules require (`<0;1,0>` for one channel, the
/// vertical stride of a single row is `w * h`, width 1 has stride 0, and
/// zero strides have width 1).
pub(crate) fn hw_region(v: Option<u32>, w: u32, h: u32, n: u32, slot: Slot) -> Result<Region, VisaError> {
    let ill = VisaError::IllegalRegion {
        slot,
        reason: "the hardware cannot express this region",
    };
    let mut w = w.min(n).max(1);
    let mut h = if w == 1 { 0 } else { h };
    let Some(mut v) = v else {
        // Multi-address: each row from its own address, VxH / Vx1.
        let r = Region::new(0, w, h).ok_or(ill)?;
        return Ok(Region {
            vstride: crate::isa::region::VSTRIDE_VXH,
            ..r
        });
    };
    if n == 1 {
        return Ok(Region::SCALAR);
    }
    if v == 0 && h == 0 {
        w = 1;
        h = 0;
    }
    if w == n && h != 0 && Region::new(w * h, w, h).is_some() {
        v = w * h;
    }
    Region::new(v, w, h).ok_or(ill)
}

/// Converts a placed source for a hardware instruction of `n` channels.
/// With `pairs` (Gen7 DF), `n` counts DF channels and the region is
/// rewritten in float channels: each DF is a pair of adjacent floats, so
/// ExecSize, Width and VertStride double and the pair-to-pair step, 2H
/// floats, is expressed with HorzStride 1 (or as rows of one pair).
pub(crate) fn src_to_hw(p: Platform, r: &RegOp, n: u32, pairs: bool, slot: Slot) -> Result<Src, VisaError> {
    // One channel reads one address: the single-address scalar form.
    let multi = matches!(r.loc, Loc::IndMulti { .. }) && n > 1;
    let mut region = hw_region(if multi { None } else { Some(r.v) }, r.w, r.h, n, slot)?;
    if pairs && r.ty == Type::DF {
        region = pair_region(region, n, slot)?;
    }
    if let Loc::Grf(b) = r.loc {
        let es = if pairs && r.ty == Type::DF { 4 } else { r.ty.size() };
        let channels = if pairs && r.ty == Type::DF { 2 * n } else { n };
        region = rows_within_grf(region, b % GRF_BYTES, es, channels);
    }
    let addr = match r.loc {
        Loc::Grf(b) => Addr::Direct {
            nr: reg_nr(b)?,
            subnr: (b % GRF_BYTES) as u8,
        },
        Loc::Arf(nr, b) => Addr::Direct {
            nr: nr + (b / GRF_BYTES) as u8,
            subnr: (b % GRF_BYTES) as u8,
        },
        Loc::Ind { sub, imm } | Loc::IndMulti { sub, imm } => Addr::Indirect {
            subnr: a0_sub(p, sub, slot)?,
            imm: imm as i16,
        },
    };
    let file = match r.loc {
        Loc::Arf(..) => RegFile::Arf,
        _ => RegFile::Grf,
    };
    Ok(Src {
        file,
        ty: r.ty,
        addr,
        region,
        swizzle: Swizzle(0),
        mods: r.mods,
    })
}

/// Elements of one region row cannot cross a register boundary. A 1-D
/// region (VertStride = Width × HorzStride) reads the same elements with
/// any width, so a row that would cross is narrowed until none does.
fn rows_within_grf(r: Region, sub: u32, es: u32, n: u32) -> Region {
    let (Some(w), h) = (r.width_elems(), r.hstride_elems()) else {
        return r;
    };
    if h == 0 || r.vstride_elems() != Some(w * h) {
        return r;
    }
    let crosses = |w: u32| {
        let span = ((w - 1) * h + 1) * es;
        (0..n.div_ceil(w)).any(|k| {
            let start = sub + k * w * h * es;
            start / GRF_BYTES != (start + span - 1) / GRF_BYTES
        })
    };
    let mut w2 = w;
    while w2 > 1 && crosses(w2) {
        w2 /= 2;
    }
    if w2 == w {
        return r;
    }
    let h2 = if w2 == 1 { 0 } else { h };
    Region::new(w2 * h, w2, h2).unwrap_or(r)
}

/// Rewrites a DF region (in DF channels, `n` of them) in float channels.
fn pair_region(r: Region, n: u32, slot: Slot) -> Result<Region, VisaError> {
    let ill = |reason| VisaError::IllegalRegion { slot, reason };
    let w = r.width_elems().unwrap_or(1);
    let h = r.hstride_elems();
    let (v2, w2) = match r.vstride_elems() {
        // Multi-address rows of W DFs: 2W floats each.
        None => {
            if w > 1 && h != 1 {
                return Err(ill("Gen7 DF rows from an address must be contiguous"));
            }
            let nr = Region::new(0, 2 * w, 1).ok_or(ill("Gen7 DF region too wide for pair channels"))?;
            return Ok(Region {
                vstride: crate::isa::region::VSTRIDE_VXH,
                ..nr
            });
        }
        Some(v) if w == 1 || h == 1 => (2 * v, 2 * w),
        Some(v) if v == w * h => (2 * h, 2),
        Some(_) => return Err(ill("a Gen7 DF region must be 1-D or have HorzStride 1")),
    };
    hw_region(Some(v2), w2, 1, 2 * n, slot).map_err(|_| ill("Gen7 DF region too wide for pair channels"))
}

fn reg_nr(b: u32) -> Result<u8, VisaError> {
    u8::try_from(b / GRF_BYTES).map_err(|_| VisaError::Unsupported {
        what: "register",
        why: "past the end of the GRF file",
    })
}

fn a0_sub(p: Platform, sub: u32, slot: Slot) -> Result<u8, VisaError> {
    if sub >= a0_elements(p) {
        return Err(VisaError::IllegalRegion {
            slot,
            reason: "the address element is past the address register a0",
        });
    }
    Ok(sub as u8)
}

/// Hardware horizontal-stride encoding of 1, 2 or 4.
fn hstride_enc(h: u32) -> u8 {
    match h {
        2 => HSTRIDE_2,
        4 => HSTRIDE_4,
        _ => HSTRIDE_1,
    }
}

/// Converts a placed destination. With `pairs` (Gen7 DF) a DF destination
/// must be contiguous: its pairs of floats are written with stride 1.
pub(crate) fn dst_to_hw(p: Platform, d: &DstOp, pairs: bool, slot: Slot) -> Result<Dst, VisaError> {
    if pairs && d.ty == Type::DF && d.h != 1 && d.loc != Loc::Arf(ARF_NULL, 0) {
        return Err(VisaError::IllegalRegion {
            slot,
            reason: "a Gen7 DF destination must be contiguous (HorzStride 1)",
        });
    }
    let (file, addr) = match d.loc {
        Loc::Grf(b) => (
            RegFile::Grf,
            Addr::Direct {
                nr: reg_nr(b)?,
                subnr: (b % GRF_BYTES) as u8,
            },
        ),
        Loc::Arf(nr, b) => (
            RegFile::Arf,
            Addr::Direct {
                nr: nr + (b / GRF_BYTES) as u8,
                subnr: (b % GRF_BYTES) as u8,
            },
        ),
        Loc::Ind { sub, imm } | Loc::IndMulti { sub, imm } => (
            RegFile::Grf,
            Addr::Indirect {
                subnr: a0_sub(p, sub, slot)?,
                imm: imm as i16,
            },
        ),
    };
    Ok(Dst {
        file,
        ty: d.ty,
        addr,
        hstride: if pairs && d.ty == Type::DF {
            HSTRIDE_1
        } else {
            hstride_enc(d.h)
        },
        writemask: WriteMask::XYZW,
    })
}

/// Whether `p` runs DF as pairs of float channels (Ivy Bridge): regions
/// and the execution size count floats; the channel group, the execution
/// mask and the flag count DF channels (see [`super::exec`]).
///
/// Mesa applies the pair rules to Ivy Bridge (and Bay Trail) only, and
/// emits Haswell DF natively (`cmp.z.f0.0(8) g11<1>DF g8<4,4,1>DF`); the
/// corpus words confirm it. Haswell is lowered like Gen8 here, except that
/// it has no 64-bit immediates.
pub const fn df_pairs(p: Platform) -> bool {
    matches!(p, Platform::Gen7)
}

/// A lowered source: a register region, or an immediate whose value goes
/// in [`Instruction::imm`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum HwSrc {
    /// A register source.
    Reg(Src),
    /// An immediate source (`src.file == Imm`) and its payload.
    Imm(Src, u64),
}

/// Lowers a source operand of an instruction of execution size `exec` that
/// is not split. On Ivy Bridge a DF source comes back in float channels,
/// for a hardware execution size of twice `exec`.
pub fn lower_src(p: Platform, vars: &VarTable, exec: ExecSize, op: &VecOperand) -> Result<HwSrc, VisaError> {
    lower_src_impl(p, vars, exec, op, false)
}

/// Lowers a scalar source operand: the region is ignored and forced to
/// `<0;1,0>`, only the first element is read.
pub fn lower_scalar_src(p: Platform, vars: &VarTable, exec: ExecSize, op: &VecOperand) -> Result<HwSrc, VisaError> {
    lower_src_impl(p, vars, exec, op, true)
}

fn lower_src_impl(
    p: Platform,
    vars: &VarTable,
    exec: ExecSize,
    op: &VecOperand,
    scalar: bool,
) -> Result<HwSrc, VisaError> {
    let slot = Slot::Operand;
    let n = exec.channels();
    match resolve_src(p, vars, slot, op, n, scalar)? {
        SrcOp::Reg(r) => Ok(HwSrc::Reg(src_to_hw(p, &r, n, df_pairs(p), slot)?)),
        SrcOp::Imm { ty, bits, .. } => {
            if ty.imm_hw(p).is_none() {
                return Err(VisaError::PlatformType { slot, ty, platform: p });
            }
            Ok(HwSrc::Imm(Src::imm(ty), bits))
        }
    }
}

/// Lowers a destination operand of an instruction of execution size
/// `exec`; returns it and whether it saturates.
pub fn lower_dst(p: Platform, vars: &VarTable, exec: ExecSize, op: &VecOperand) -> Result<(Dst, bool), VisaError> {
    let (d, sat) = resolve_dst(p, vars, Slot::Operand, op, exec.channels())?;
    Ok((dst_to_hw(p, &d, df_pairs(p), Slot::Operand)?, sat))
}

/// Lowers a raw operand covering `bytes` bytes: it must be GRF-aligned and
/// inside its variable. Returns the first register and the variable's type.
pub fn lower_raw(
    p: Platform,
    vars: &VarTable,
    raw: &RawOperand,
    bytes: u32,
    slot: Slot,
) -> Result<(u8, Type), VisaError> {
    let (var, ty) = vars.general_var(p, slot, raw.id)?;
    let Placement::Grf(base) = var.placement else {
        return Err(VisaError::OperandClass {
            slot,
            reason: "the null variable has no registers",
        });
    };
    let size = u64::from(var.elements) * u64::from(ty.size());
    let end = u64::from(raw.offset) + u64::from(bytes.max(1));
    if end > size {
        return Err(out_of_bounds(
            slot,
            VarKind::General,
            raw.id,
            (end - 1) / u64::from(ty.size()),
            var.elements,
        ));
    }
    let b = base + u32::from(raw.offset);
    if b % GRF_BYTES != 0 {
        return Err(VisaError::IllegalRegion {
            slot,
            reason: "a raw operand must be GRF-aligned",
        });
    }
    Ok((reg_nr(b)?, ty))
}
