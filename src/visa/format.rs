//! The vISA operand formats: typed values and their byte layouts.
//!
//! Every structure parses from and writes to the little-endian byte form
//! of the vISA object file. The fixed-width packed fields (the operand
//! tag, regions, predicate control, execution size, type bytes) are
//! declared as bitfields; a reserved value is refused with the field
//! named (`vec_operand.tag.operand_class`, `gen_opnd.region.width`, ...).

use alloc::vec::Vec;
use core::fmt;

use super::error::{Slot, VisaError};
use super::types::{Modifier, OperandClass, VisaType};
use crate::model::ExecSize;

// ---------------------------------------------------------------------------
// Bit layouts
// ---------------------------------------------------------------------------

/// The packed layouts. The generated getters cannot fail (every bit
/// pattern of a `B<n>` field is a value); the generated setters panic only
/// on a value wider than the field, and every call site passes a value
/// masked or enumerated to fit, or uses the `_checked` form.
#[allow(clippy::expect_used, clippy::panic, clippy::indexing_slicing, clippy::unwrap_used)]
mod bits {
    use modular_bitfield::prelude::*;

    /// `vec_operand.tag`: operand class, modifiers, two reserved bits.
    #[bitfield]
    #[derive(Clone, Copy)]
    pub(super) struct TagBits {
        pub(super) class: B3,
        pub(super) modifier: B3,
        pub(super) reserved: B2,
    }

    /// A region UW: three 4-bit region values and a reserved nibble.
    #[bitfield]
    #[derive(Clone, Copy)]
    pub(super) struct RegionBits {
        pub(super) vstride: B4,
        pub(super) width: B4,
        pub(super) hstride: B4,
        pub(super) reserved: B4,
    }

    /// The predicate UW: id, one reserved bit, combine, inverse.
    #[bitfield]
    #[derive(Clone, Copy)]
    pub(super) struct PredBits {
        pub(super) id: B12,
        pub(super) reserved: B1,
        pub(super) combine: B2,
        pub(super) inverse: B1,
    }

    /// The execution-size byte: size, one reserved bit, mask control.
    #[bitfield]
    #[derive(Clone, Copy)]
    pub(super) struct ExecBits {
        pub(super) size: B3,
        pub(super) reserved: B1,
        pub(super) mask: B4,
    }

    /// A type byte (`const_opnd.type`, `indirect_opnd.bit_properties`).
    #[bitfield]
    #[derive(Clone, Copy)]
    pub(super) struct TypeBits {
        pub(super) ty: B4,
        pub(super) reserved: B4,
    }

    /// `state_opnd.class`: storage class and six reserved bits.
    #[bitfield]
    #[derive(Clone, Copy)]
    pub(super) struct StateClassBits {
        pub(super) class: B2,
        pub(super) reserved: B6,
    }
}

use bits::*;

// ---------------------------------------------------------------------------
// Byte cursor
// ---------------------------------------------------------------------------

/// Reads little-endian fields from a byte slice, refusing to run past its end.
pub(crate) struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    pub(crate) fn new(bytes: &'a [u8]) -> Self {
        Reader { bytes, pos: 0 }
    }

    pub(crate) fn pos(&self) -> usize {
        self.pos
    }

    fn take<const N: usize>(&mut self, what: &'static str) -> Result<[u8; N], VisaError> {
        let rest = self.bytes.get(self.pos..).unwrap_or(&[]);
        let chunk: [u8; N] = rest
            .get(..N)
            .and_then(|c| c.try_into().ok())
            .ok_or(VisaError::Truncated {
                what,
                needed: N,
                got: rest.len(),
            })?;
        self.pos += N;
        Ok(chunk)
    }

    pub(crate) fn u8(&mut self, what: &'static str) -> Result<u8, VisaError> {
        Ok(self.take::<1>(what)?[0])
    }

    pub(crate) fn u16(&mut self, what: &'static str) -> Result<u16, VisaError> {
        Ok(u16::from_le_bytes(self.take(what)?))
    }

    pub(crate) fn u32(&mut self, what: &'static str) -> Result<u32, VisaError> {
        Ok(u32::from_le_bytes(self.take(what)?))
    }
}

fn reserved(field: &'static str, value: impl Into<u32>) -> VisaError {
    VisaError::Reserved {
        field,
        value: value.into(),
    }
}

// ---------------------------------------------------------------------------
// Regions
// ---------------------------------------------------------------------------

/// One region parameter: the shared 4-bit encoding of vertical stride,
/// width and horizontal stride.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[repr(u8)]
#[non_exhaustive]
pub enum RegionVal {
    /// Null (a multi-address indirect operand's vertical stride).
    #[default]
    Null = 0,
    /// 0 elements.
    R0 = 1,
    /// 1 element.
    R1 = 2,
    /// 2 elements.
    R2 = 3,
    /// 4 elements.
    R4 = 4,
    /// 8 elements.
    R8 = 5,
    /// 16 elements.
    R16 = 6,
    /// 32 elements.
    R32 = 7,
}

impl RegionVal {
    /// The value of a 4-bit encoding; 8-15 are reserved.
    pub const fn from_bits(n: u8) -> Option<Self> {
        Some(match n {
            0 => RegionVal::Null,
            1 => RegionVal::R0,
            2 => RegionVal::R1,
            3 => RegionVal::R2,
            4 => RegionVal::R4,
            5 => RegionVal::R8,
            6 => RegionVal::R16,
            7 => RegionVal::R32,
            _ => return None,
        })
    }

    /// The value for an element count; `None` if it has no encoding.
    pub const fn from_elems(n: u32) -> Option<Self> {
        Some(match n {
            0 => RegionVal::R0,
            1 => RegionVal::R1,
            2 => RegionVal::R2,
            4 => RegionVal::R4,
            8 => RegionVal::R8,
            16 => RegionVal::R16,
            32 => RegionVal::R32,
            _ => return None,
        })
    }

    /// The element count; `None` for Null.
    pub const fn elems(self) -> Option<u32> {
        match self {
            RegionVal::Null => None,
            RegionVal::R0 => Some(0),
            n => Some(1 << (n as u32 - 2)),
        }
    }
}

/// The names of a region UW's fields, for errors.
struct RegionNames {
    vstride: &'static str,
    width: &'static str,
    hstride: &'static str,
    reserved: &'static str,
}

const GEN_REGION: RegionNames = RegionNames {
    vstride: "gen_opnd.region.vertical_stride",
    width: "gen_opnd.region.width",
    hstride: "gen_opnd.region.horizontal_stride",
    reserved: "gen_opnd.region.reserved",
};

const IND_REGION: RegionNames = RegionNames {
    vstride: "indirect_opnd.region.vertical_stride",
    width: "indirect_opnd.region.width",
    hstride: "indirect_opnd.region.horizontal_stride",
    reserved: "indirect_opnd.region.reserved",
};

/// A region `<VertStride; Width, HorzStride>` as stored in a region UW.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct VisaRegion {
    /// Vertical stride (bits 0-3); Null marks a multi-address indirect operand.
    pub vstride: RegionVal,
    /// Width (bits 4-7).
    pub width: RegionVal,
    /// Horizontal stride (bits 8-11).
    pub hstride: RegionVal,
}

impl VisaRegion {
    /// The scalar region `<0;1,0>`.
    pub const SCALAR: VisaRegion = VisaRegion {
        vstride: RegionVal::R0,
        width: RegionVal::R1,
        hstride: RegionVal::R0,
    };

    /// A region from element counts (`None` vertical stride = Null);
    /// `None` if a value has no encoding.
    pub const fn new(vstride: Option<u32>, width: u32, hstride: u32) -> Option<Self> {
        let v = match vstride {
            None => RegionVal::Null,
            Some(v) => match RegionVal::from_elems(v) {
                Some(r) => r,
                None => return None,
            },
        };
        let (Some(w), Some(h)) = (RegionVal::from_elems(width), RegionVal::from_elems(hstride)) else {
            return None;
        };
        Some(VisaRegion {
            vstride: v,
            width: w,
            hstride: h,
        })
    }

    /// A destination region `<HorzStride>` (vertical stride and width,
    /// which a destination ignores, are stored as Null).
    pub const fn dst(hstride: u32) -> Option<Self> {
        match RegionVal::from_elems(hstride) {
            Some(h) => Some(VisaRegion {
                vstride: RegionVal::Null,
                width: RegionVal::Null,
                hstride: h,
            }),
            None => None,
        }
    }

    /// Parses a region UW of a `gen_opnd`.
    pub fn from_uw(v: u16) -> Result<Self, VisaError> {
        Self::decode(v, &GEN_REGION)
    }

    fn decode(v: u16, names: &RegionNames) -> Result<Self, VisaError> {
        let b = RegionBits::from_bytes(v.to_le_bytes());
        let one = |n: u8, name: &'static str| RegionVal::from_bits(n).ok_or_else(|| reserved(name, n));
        if b.reserved() != 0 {
            return Err(reserved(names.reserved, b.reserved()));
        }
        Ok(VisaRegion {
            vstride: one(b.vstride(), names.vstride)?,
            width: one(b.width(), names.width)?,
            hstride: one(b.hstride(), names.hstride)?,
        })
    }

    /// The region UW.
    pub fn to_uw(self) -> u16 {
        let b = RegionBits::new()
            .with_vstride(self.vstride as u8)
            .with_width(self.width as u8)
            .with_hstride(self.hstride as u8);
        u16::from_le_bytes(b.into_bytes())
    }
}

impl fmt::Display for VisaRegion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let show = |r: RegionVal| r.elems().map(|n| alloc::format!("{n}")).unwrap_or_default();
        write!(
            f,
            "<{};{},{}>",
            show(self.vstride),
            show(self.width),
            show(self.hstride)
        )
    }
}

// ---------------------------------------------------------------------------
// Predication and execution size
// ---------------------------------------------------------------------------

/// How predicate bits map to channels (predicate UW bits 13-14).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[repr(u8)]
#[non_exhaustive]
pub enum PredCombine {
    /// Channel n uses predicate bit n.
    #[default]
    Sequential = 0,
    /// Every channel gets "any predicate bit set".
    Any = 1,
    /// Every channel gets "all predicate bits set".
    All = 2,
}

/// A predicate UW: predicate id, combine mode and inverse.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct PredCtl {
    /// Predicate variable id, 0-4095 (0 is vISA's reserved P0).
    pub id: u16,
    /// Combine mode, applied before the inverse.
    pub combine: PredCombine,
    /// Use the inverse of the (combined) predicate.
    pub inverse: bool,
}

impl PredCtl {
    /// Sequential, non-inverted use of predicate `id`.
    pub const fn new(id: u16) -> Self {
        PredCtl {
            id,
            combine: PredCombine::Sequential,
            inverse: false,
        }
    }

    /// Parses a predicate UW.
    pub fn from_uw(v: u16) -> Result<Self, VisaError> {
        let b = PredBits::from_bytes(v.to_le_bytes());
        if b.reserved() != 0 {
            return Err(reserved("pred.reserved", b.reserved()));
        }
        let combine = match b.combine() {
            0 => PredCombine::Sequential,
            1 => PredCombine::Any,
            2 => PredCombine::All,
            n => return Err(reserved("pred.combine", n)),
        };
        Ok(PredCtl {
            id: b.id(),
            combine,
            inverse: b.inverse() != 0,
        })
    }

    /// The predicate UW.
    pub fn to_uw(self) -> Result<u16, VisaError> {
        let b = PredBits::new()
            .with_id_checked(self.id)
            .map_err(|_| VisaError::TooLarge {
                field: "pred.id",
                value: self.id.into(),
            })?
            .with_combine(self.combine as u8)
            .with_inverse(self.inverse as u8);
        Ok(u16::from_le_bytes(b.into_bytes()))
    }

    /// The predication field of an instruction: 0 means "not predicated".
    pub fn from_inst_uw(v: u16) -> Result<Option<Self>, VisaError> {
        if v == 0 {
            Ok(None)
        } else {
            PredCtl::from_uw(v).map(Some)
        }
    }
}

/// Execution mask control: `M1`..`M8` (EM offsets 0, 4, ..., 28), with or
/// without `_NM` (NoMask).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct MaskCtl {
    /// 0 for M1 up to 7 for M8.
    pub index: u8,
    /// The `_NM` forms: ignore the execution mask.
    pub no_mask: bool,
}

impl MaskCtl {
    /// `M<n>` for n in 1..=8 (`None` otherwise).
    pub const fn m(n: u8, no_mask: bool) -> Option<Self> {
        if n >= 1 && n <= 8 {
            Some(MaskCtl { index: n - 1, no_mask })
        } else {
            None
        }
    }

    /// The first execution-mask and predicate channel: 0, 4, ..., 28.
    pub const fn offset(self) -> u32 {
        (self.index as u32 & 7) * 4
    }

    /// The 4-bit encoding (bit 3 is NoMask).
    pub const fn bits(self) -> u8 {
        (self.index & 7) | (self.no_mask as u8) << 3
    }

    /// The mask control of a 4-bit encoding (every encoding is valid).
    pub const fn from_bits(n: u8) -> Self {
        MaskCtl {
            index: n & 7,
            no_mask: n & 8 != 0,
        }
    }
}

impl fmt::Display for MaskCtl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "M{}{}", self.index + 1, if self.no_mask { "_NM" } else { "" })
    }
}

/// The execution-size byte: size and mask control.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct ExecCtl {
    /// Execution size, 1 to 32.
    pub size: ExecSize,
    /// Mask control.
    pub mask: MaskCtl,
}

impl ExecCtl {
    /// Execution size `size` with mask control M1.
    pub const fn new(size: ExecSize) -> Self {
        ExecCtl {
            size,
            mask: MaskCtl {
                index: 0,
                no_mask: false,
            },
        }
    }

    /// Parses the execution-size byte.
    pub fn from_byte(v: u8) -> Result<Self, VisaError> {
        let b = ExecBits::from_bytes([v]);
        if b.reserved() != 0 {
            return Err(reserved("exec_size.reserved", b.reserved()));
        }
        let size = ExecSize::from_hw(b.size()).ok_or_else(|| reserved("exec_size.size", b.size()))?;
        Ok(ExecCtl {
            size,
            mask: MaskCtl::from_bits(b.mask()),
        })
    }

    /// The execution-size byte.
    pub fn to_byte(self) -> u8 {
        ExecBits::new()
            .with_size(self.size.hw() & 7)
            .with_mask(self.mask.bits())
            .into_bytes()[0]
    }
}

// ---------------------------------------------------------------------------
// Vector operands
// ---------------------------------------------------------------------------

/// `gen_opnd`: a general variable with an origin and a region.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct GenOperand {
    /// Index in the general-variable table.
    pub id: u32,
    /// Row offset (rows of 32 bytes).
    pub row: u8,
    /// Column offset (elements).
    pub col: u8,
    /// Region (only the horizontal stride matters for a destination).
    pub region: VisaRegion,
}

/// `addr_opnd`: elements of an address variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AddrOperand {
    /// Index in the address-variable table.
    pub id: u16,
    /// First element.
    pub offset: u8,
    /// Number of elements: an execution size other than 32.
    pub width: ExecSize,
}

/// `indirect_opnd`: a general variable reached through address elements.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct IndirectOperand {
    /// Index in the address-variable table.
    pub addr: u16,
    /// Element of the address variable to start from.
    pub addr_offset: u8,
    /// Byte offset added to the address, -512..=511.
    pub offset: i16,
    /// Type of the accessed data (not V, UV, VF or BOOL).
    pub ty: VisaType,
    /// Region; a Null vertical stride makes it multi-address.
    pub region: VisaRegion,
}

/// `const_opnd`: an immediate constant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Immediate {
    /// Type of the constant (not BOOL).
    pub ty: VisaType,
    /// The bits: `low` in bits 31:0, `high` (DF, Q, UQ only) in 63:32.
    pub value: u64,
}

impl Immediate {
    /// A float constant.
    pub fn f(v: f32) -> Self {
        Immediate {
            ty: VisaType::F,
            value: v.to_bits().into(),
        }
    }

    /// A double constant.
    pub fn df(v: f64) -> Self {
        Immediate {
            ty: VisaType::DF,
            value: v.to_bits(),
        }
    }

    /// An integer constant of a 32-bit-or-smaller integer type, stored in
    /// the low dword (two's complement).
    pub fn int(ty: VisaType, v: i64) -> Self {
        let value = if ty.is_64bit() { v as u64 } else { v as u32 as u64 };
        Immediate { ty, value }
    }
}

/// The storage class of a state operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
#[non_exhaustive]
pub enum StateClass {
    /// A surface.
    Surface = 0,
    /// A sampler.
    Sampler = 1,
}

/// `state_opnd`: a surface or sampler variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct StateOperand {
    /// Storage class.
    pub class: StateClass,
    /// Index in that class's state-variable table.
    pub id: u16,
    /// Element offset.
    pub offset: u8,
}

/// The class-specific part of a vector operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum OperandKind {
    /// A general variable.
    General(GenOperand),
    /// An address variable.
    Address(AddrOperand),
    /// A predicate variable (its UW: id, combine, inverse).
    Predicate(PredCtl),
    /// Indirect access.
    Indirect(IndirectOperand),
    /// An immediate.
    Immediate(Immediate),
    /// A state variable.
    State(StateOperand),
}

impl OperandKind {
    /// The operand class.
    pub const fn class(&self) -> OperandClass {
        match self {
            OperandKind::General(_) => OperandClass::General,
            OperandKind::Address(_) => OperandClass::Address,
            OperandKind::Predicate(_) => OperandClass::Predicate,
            OperandKind::Indirect(_) => OperandClass::Indirect,
            OperandKind::Immediate(_) => OperandClass::Immediate,
            OperandKind::State(_) => OperandClass::State,
        }
    }
}

/// `vec_operand`: a tag (class and modifier) and the class's fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct VecOperand {
    /// Modifier (only general and indirect operands may have one).
    pub modifier: Modifier,
    /// Class and fields.
    pub kind: OperandKind,
}

impl From<OperandKind> for VecOperand {
    fn from(kind: OperandKind) -> Self {
        VecOperand {
            modifier: Modifier::None,
            kind,
        }
    }
}

impl VecOperand {
    /// A general operand `V<id>(row,col)<region>`.
    pub const fn general(id: u32, row: u8, col: u8, region: VisaRegion) -> Self {
        VecOperand {
            modifier: Modifier::None,
            kind: OperandKind::General(GenOperand { id, row, col, region }),
        }
    }

    /// A general destination `V<id>(row,col)<hstride>`; `None` if the
    /// stride has no encoding.
    pub const fn general_dst(id: u32, row: u8, col: u8, hstride: u32) -> Option<Self> {
        match VisaRegion::dst(hstride) {
            Some(region) => Some(VecOperand::general(id, row, col, region)),
            None => None,
        }
    }

    /// An immediate.
    pub const fn imm(imm: Immediate) -> Self {
        VecOperand {
            modifier: Modifier::None,
            kind: OperandKind::Immediate(imm),
        }
    }

    /// A predicate operand (sequential, not inverted).
    pub const fn pred(id: u16) -> Self {
        VecOperand {
            modifier: Modifier::None,
            kind: OperandKind::Predicate(PredCtl::new(id)),
        }
    }

    /// The same operand with a modifier.
    pub const fn with_modifier(mut self, modifier: Modifier) -> Self {
        self.modifier = modifier;
        self
    }

    /// Parses one vector operand from the start of `bytes`; returns it and
    /// the number of bytes it took.
    pub fn parse(bytes: &[u8]) -> Result<(Self, usize), VisaError> {
        let mut r = Reader::new(bytes);
        let op = Self::read(&mut r)?;
        Ok((op, r.pos()))
    }

    pub(crate) fn read(r: &mut Reader<'_>) -> Result<Self, VisaError> {
        let tag = TagBits::from_bytes([r.u8("vec_operand.tag")?]);
        if tag.reserved() != 0 {
            return Err(reserved("vec_operand.tag.reserved", tag.reserved()));
        }
        let class = OperandClass::from_bits(tag.class())
            .ok_or_else(|| reserved("vec_operand.tag.operand_class", tag.class()))?;
        let modifier =
            Modifier::from_bits(tag.modifier()).ok_or_else(|| reserved("vec_operand.tag.modifiers", tag.modifier()))?;
        let kind = match class {
            OperandClass::General => {
                let id = r.u32("gen_opnd.id")?;
                let row = r.u8("gen_opnd.row_offset")?;
                let col = r.u8("gen_opnd.col_offset")?;
                let region = VisaRegion::decode(r.u16("gen_opnd.region")?, &GEN_REGION)?;
                OperandKind::General(GenOperand { id, row, col, region })
            }
            OperandClass::Address => {
                let id = r.u16("addr_opnd.id")?;
                let offset = r.u8("addr_opnd.offset")?;
                let w = r.u8("addr_opnd.width")?;
                let width = match ExecSize::from_hw(w) {
                    Some(e) if e != ExecSize::S32 => e,
                    _ => return Err(reserved("addr_opnd.width", w)),
                };
                OperandKind::Address(AddrOperand { id, offset, width })
            }
            OperandClass::Predicate => OperandKind::Predicate(PredCtl::from_uw(r.u16("pred_opnd.val")?)?),
            OperandClass::Indirect => {
                let addr = r.u16("indirect_opnd.id")?;
                let addr_offset = r.u8("indirect_opnd.addr_offset")?;
                let offset = r.u16("indirect_opnd.indirect_offset")? as i16;
                let props = TypeBits::from_bytes([r.u8("indirect_opnd.bit_properties")?]);
                if props.reserved() != 0 {
                    return Err(reserved("indirect_opnd.bit_properties.reserved", props.reserved()));
                }
                let region = VisaRegion::decode(r.u16("indirect_opnd.region")?, &IND_REGION)?;
                OperandKind::Indirect(IndirectOperand {
                    addr,
                    addr_offset,
                    offset,
                    ty: VisaType::from_bits(props.ty()),
                    region,
                })
            }
            OperandClass::Immediate => {
                let tb = TypeBits::from_bytes([r.u8("const_opnd.type")?]);
                if tb.reserved() != 0 {
                    return Err(reserved("const_opnd.type.reserved", tb.reserved()));
                }
                let ty = VisaType::from_bits(tb.ty());
                let low = r.u32("const_opnd.low")? as u64;
                let high = if ty.is_64bit() {
                    r.u32("const_opnd.high")? as u64
                } else {
                    0
                };
                OperandKind::Immediate(Immediate {
                    ty,
                    value: low | high << 32,
                })
            }
            OperandClass::State => {
                let cb = StateClassBits::from_bytes([r.u8("state_opnd.class")?]);
                if cb.reserved() != 0 {
                    return Err(reserved("state_opnd.class.reserved", cb.reserved()));
                }
                let class = match cb.class() {
                    0 => StateClass::Surface,
                    1 => StateClass::Sampler,
                    n => return Err(reserved("state_opnd.class", n)),
                };
                let id = r.u16("state_opnd.id")?;
                let offset = r.u8("state_opnd.offset")?;
                OperandKind::State(StateOperand { class, id, offset })
            }
        };
        let op = VecOperand { modifier, kind };
        op.check_modifier_class()?;
        Ok(op)
    }

    /// Only general and indirect operands carry a modifier.
    fn check_modifier_class(&self) -> Result<(), VisaError> {
        if self.modifier != Modifier::None && !matches!(self.kind, OperandKind::General(_) | OperandKind::Indirect(_)) {
            return Err(VisaError::Modifier {
                slot: Slot::Operand,
                modifier: self.modifier.name(),
                reason: "only general and indirect operands take modifiers",
            });
        }
        Ok(())
    }

    /// Appends the operand's bytes to `out`.
    pub fn write(&self, out: &mut Vec<u8>) -> Result<(), VisaError> {
        self.check_modifier_class()?;
        let tag = TagBits::new()
            .with_class(self.kind.class() as u8)
            .with_modifier(self.modifier as u8);
        let mut body: Vec<u8> = Vec::with_capacity(12);
        match &self.kind {
            OperandKind::General(g) => {
                body.extend_from_slice(&g.id.to_le_bytes());
                body.push(g.row);
                body.push(g.col);
                body.extend_from_slice(&g.region.to_uw().to_le_bytes());
            }
            OperandKind::Address(a) => {
                if a.width == ExecSize::S32 {
                    return Err(VisaError::TooLarge {
                        field: "addr_opnd.width",
                        value: 32,
                    });
                }
                body.extend_from_slice(&a.id.to_le_bytes());
                body.push(a.offset);
                body.push(a.width.hw());
            }
            OperandKind::Predicate(pc) => body.extend_from_slice(&pc.to_uw()?.to_le_bytes()),
            OperandKind::Indirect(i) => {
                body.extend_from_slice(&i.addr.to_le_bytes());
                body.push(i.addr_offset);
                body.extend_from_slice(&i.offset.to_le_bytes());
                body.push(TypeBits::new().with_ty(i.ty.bits()).into_bytes()[0]);
                body.extend_from_slice(&i.region.to_uw().to_le_bytes());
            }
            OperandKind::Immediate(c) => {
                body.push(TypeBits::new().with_ty(c.ty.bits()).into_bytes()[0]);
                body.extend_from_slice(&(c.value as u32).to_le_bytes());
                if c.ty.is_64bit() {
                    body.extend_from_slice(&((c.value >> 32) as u32).to_le_bytes());
                } else if c.value >> 32 != 0 {
                    return Err(VisaError::TooLarge {
                        field: "const_opnd.high",
                        value: c.value >> 32,
                    });
                }
            }
            OperandKind::State(s) => {
                body.push(StateClassBits::new().with_class(s.class as u8).into_bytes()[0]);
                body.extend_from_slice(&s.id.to_le_bytes());
                body.push(s.offset);
            }
        }
        out.push(tag.into_bytes()[0]);
        out.extend_from_slice(&body);
        Ok(())
    }

    /// The operand's bytes.
    pub fn to_bytes(&self) -> Result<Vec<u8>, VisaError> {
        let mut v = Vec::new();
        self.write(&mut v)?;
        Ok(v)
    }
}

// ---------------------------------------------------------------------------
// Raw operands
// ---------------------------------------------------------------------------

/// `raw_operand`: a contiguous, GRF-aligned part of a general variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct RawOperand {
    /// Index in the general-variable table.
    pub id: u32,
    /// Byte offset from the start of the variable.
    pub offset: u16,
}

impl RawOperand {
    /// Parses a raw operand from the start of `bytes`; returns it and the
    /// number of bytes it took (always 6).
    pub fn parse(bytes: &[u8]) -> Result<(Self, usize), VisaError> {
        let mut r = Reader::new(bytes);
        let id = r.u32("raw_operand.id")?;
        let offset = r.u16("raw_operand.offset")?;
        Ok((RawOperand { id, offset }, r.pos()))
    }

    /// Appends the operand's 6 bytes to `out`.
    pub fn write(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.id.to_le_bytes());
        out.extend_from_slice(&self.offset.to_le_bytes());
    }

    /// The raw operand a general vector operand names (its origin, in
    /// bytes). Raw operands take no modifier and are contiguous: a
    /// modifier, another class or a strided region is an error.
    pub fn from_vec(op: &VecOperand, elem_size: u32, slot: Slot) -> Result<Self, VisaError> {
        if op.modifier != Modifier::None {
            return Err(VisaError::Modifier {
                slot,
                modifier: op.modifier.name(),
                reason: "raw operands take no modifier",
            });
        }
        let OperandKind::General(g) = op.kind else {
            return Err(VisaError::OperandClass {
                slot,
                reason: "a raw operand is a general variable",
            });
        };
        if !matches!(g.region.hstride, RegionVal::R1 | RegionVal::R0 | RegionVal::Null) {
            return Err(VisaError::IllegalRegion {
                slot,
                reason: "raw operands are contiguous",
            });
        }
        let offset = u32::from(g.row) * super::vars::GRF_BYTES + u32::from(g.col) * elem_size;
        let offset = u16::try_from(offset).map_err(|_| VisaError::TooLarge {
            field: "raw_operand.offset",
            value: offset.into(),
        })?;
        Ok(RawOperand { id: g.id, offset })
    }
}
