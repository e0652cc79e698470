//! The operand and instruction constructors that the builder's methods and
//! the text assembler's lowering ([`crate::text`], which sits above this
//! layer) both call: an operand value ([`Reg`], [`Operand`]) becomes the
//! model's [`Dst`] or [`Src`] for an access mode, and a destination with
//! its sources fills an instruction of the 1- and 2-source ALU family or of
//! the 3-source family. What they refuse is a [`Fault`] naming the
//! operand, with one wording: the builder turns it into a [`BuildError`]
//! at the instruction's index, the text into an error at the operand's
//! line and column.
//!
//! They take operands as the word holds them. What Mesa's emitter decides
//! on top (`brw_set_dest`/`brw_set_src0`: a destination stride 0 becomes 1,
//! an align16 vertical stride 8 becomes 4, a width-1 source of a SIMD1
//! instruction becomes scalar) is the builder's, applied to its operands
//! before they come here: text states every field it means, and must give
//! back every word it reads.

use super::error::BuildError;
use super::operand::{null, Operand, Reg};
use crate::canon::{A16_HSTRIDE, A16_WIDTH};
use crate::model::*;
use crate::validate::OperandId;

/// An operand a constructor refuses: which operand, and why. Small (it
/// travels back through every constructor in registers); its words come
/// from [`Why`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Fault {
    /// The operand refused.
    pub(crate) operand: OperandId,
    /// Why.
    pub(crate) why: Why,
}

/// The reasons a constructor refuses an operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Why {
    /// A source modifier on a destination.
    DstModifier,
    /// A general register above g127 (the builder's operands).
    GrfRange,
    /// A second immediate.
    TwoImmediates,
    /// A 64-bit immediate beside another source.
    Imm64NotAlone,
    /// A 3-source instruction in align1.
    ThreeSrcAlign1,
    /// A 3-source destination that is not a direct GRF.
    ThreeSrcDst,
    /// A 3-source instruction without three sources.
    ThreeSrcCount,
    /// A 3-source source that is not a direct GRF.
    ThreeSrcSource,
    /// 3-source sources of different types.
    ThreeSrcTypes,
    /// An immediate of a type the platform does not have.
    ImmType(Type),
}

impl Why {
    /// The part of the instruction refused, as the text assembler names it.
    pub(crate) const fn what(self) -> &'static str {
        match self {
            Why::DstModifier | Why::ThreeSrcDst => "destination",
            Why::GrfRange => "register",
            Why::TwoImmediates | Why::ThreeSrcSource | Why::ImmType(_) => "source",
            Why::Imm64NotAlone => "src1",
            Why::ThreeSrcAlign1 => "access mode",
            Why::ThreeSrcCount => "operands",
            Why::ThreeSrcTypes => "source type",
        }
    }

    /// Why it is refused.
    pub(crate) const fn why(self) -> &'static str {
        match self {
            Why::DstModifier => "source modifiers do not apply to a destination",
            Why::GrfRange => "general registers are g0-g127",
            Why::TwoImmediates => "an instruction holds one immediate",
            Why::Imm64NotAlone => "64-bit immediates are allowed only in one-source instructions",
            Why::ThreeSrcAlign1 => "3-source instructions are align16 only on Gen7/Gen8 (add `{ align16 }`)",
            Why::ThreeSrcDst => "3-source destinations are direct GRF registers",
            Why::ThreeSrcCount => "3-source instructions take three sources",
            Why::ThreeSrcSource => "3-source operands are direct GRF registers",
            Why::ThreeSrcTypes => "3-source sources share one type (Gen8: src1/src2 may be HF with F)",
            Why::ImmType(_) => "the platform has no immediate of this type",
        }
    }
}

impl Fault {
    /// The builder's error for instruction `index` on `p`.
    #[cold]
    pub(crate) const fn at(self, p: Platform, index: usize) -> BuildError {
        match self.why {
            Why::ImmType(ty) => BuildError::Immediate { index, ty, platform: p },
            why => BuildError::Operand {
                index,
                operand: self.operand,
                why: why.why(),
            },
        }
    }
}

#[inline]
const fn fault(operand: OperandId, why: Why) -> Fault {
    Fault { operand, why }
}

/// How a source is addressed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    /// Align1: the region as given.
    Align1,
    /// Align16: the vertical stride and the swizzle (width and horizontal
    /// stride are implied).
    Align16,
    /// A 3-source operand: `<4;4,1>` or, for a scalar region, replicated;
    /// and the swizzle.
    ThreeSrc,
}

impl Mode {
    /// The mode of a 1- or 2-source operand of an instruction in `am`.
    #[inline]
    pub(crate) const fn of(am: AccessMode) -> Mode {
        match am {
            AccessMode::Align1 => Mode::Align1,
            AccessMode::Align16 => Mode::Align16,
        }
    }
}

/// The bits an immediate of type `t` holds: a vector immediate packs 32, a
/// 64-bit type 64, the others their size.
#[inline]
pub(crate) const fn imm_bits(t: Type) -> u32 {
    if t.is_vector_imm() {
        32
    } else {
        t.size() * 8
    }
}

/// Whether `p` has immediates of type `ty` (source `k`).
#[inline]
pub(crate) const fn imm_type(p: Platform, k: u8, ty: Type) -> Result<(), Fault> {
    match ty.imm_hw(p) {
        Some(_) => Ok(()),
        None => Err(fault(OperandId::Src(k), Why::ImmType(ty))),
    }
}

/// `r` as a destination, written into `d` (in place: a `Dst` returned
/// through a `Result` is read back wider than it was written, which
/// stalls). The write mask counts in align16 only.
#[inline]
pub(crate) fn dst_into(a16: bool, r: &Reg, d: &mut Dst) -> Result<(), Fault> {
    if !r.mods().is_empty() {
        return Err(fault(OperandId::Dst, Why::DstModifier));
    }
    *d = Dst {
        file: r.file(),
        ty: r.ty(),
        addr: r.address(),
        hstride: r.region().hstride,
        writemask: if a16 { r.writemask_of() } else { WriteMask::XYZW },
    };
    Ok(())
}

/// `o` as source `k` in `mode`, written into `s`; an immediate's bits come
/// back (16-bit values not yet replicated: canonicalization does that).
#[inline]
pub(crate) fn src_into(p: Platform, mode: Mode, k: u8, o: &Operand, s: &mut Src) -> Result<Option<u64>, Fault> {
    match o {
        Operand::Imm(imm) => {
            imm_type(p, k, imm.ty())?;
            *s = Src::imm(imm.ty());
            Ok(Some(imm.bits()))
        }
        Operand::Reg(r) => {
            *s = r.as_src();
            match mode {
                Mode::Align1 => s.swizzle = Swizzle(0),
                // Align16 encodes only the vertical stride.
                Mode::Align16 => {
                    s.region.width = A16_WIDTH;
                    s.region.hstride = A16_HSTRIDE;
                }
                Mode::ThreeSrc if s.region == Region::SCALAR => {}
                Mode::ThreeSrc => s.region = Region::THREE_SRC,
            }
            Ok(None)
        }
    }
}

/// src1 of a one-source MATH function: `null<8;8,1>F` (align16:
/// `null<4>F`, rows of four), as Mesa's emitter sets it.
#[inline]
pub(crate) const fn math_null_src1(a16: bool) -> Operand {
    Operand::Reg(if a16 { null().vec4() } else { null() })
}

/// Fills the destination, sources and immediate of `i`, a 1- or 2-source
/// instruction whose header (opcode, access mode, ...) is set: one
/// immediate at most, and a 64-bit one only as the only source.
#[inline]
pub(crate) fn alu_operands(p: Platform, i: &mut Instruction, dst: &Reg, srcs: &[Operand]) -> Result<(), Fault> {
    let a16 = i.access_mode == AccessMode::Align16;
    let mode = Mode::of(i.access_mode);
    dst_into(a16, dst, &mut i.dst)?;
    let mut imm = None;
    for (k, (o, slot)) in srcs.iter().zip(i.src.iter_mut()).enumerate() {
        let k = k as u8;
        if let Some(bits) = src_into(p, mode, k, o, slot)? {
            if imm.is_some() {
                return Err(fault(OperandId::Src(k), Why::TwoImmediates));
            }
            if k > 0 && slot.ty.is_64bit() {
                return Err(fault(OperandId::Src(k), Why::Imm64NotAlone));
            }
            imm = Some(bits);
        }
    }
    i.imm = imm.unwrap_or(0);
    Ok(())
}

/// Fills the destination and the three sources of `i`, a 3-source
/// instruction whose header is set: align16, direct GRF operands, one
/// source type (Gen8: src1 and src2 may be HF beside an F src0).
#[inline]
pub(crate) fn three_src_operands(p: Platform, i: &mut Instruction, dst: &Reg, srcs: &[Operand]) -> Result<(), Fault> {
    if i.access_mode != AccessMode::Align16 {
        return Err(fault(OperandId::Dst, Why::ThreeSrcAlign1));
    }
    dst_into(true, dst, &mut i.dst)?;
    if i.dst.file != RegFile::Grf || !matches!(i.dst.addr, Addr::Direct { .. }) {
        return Err(fault(OperandId::Dst, Why::ThreeSrcDst));
    }
    if srcs.len() != 3 {
        return Err(fault(OperandId::Dst, Why::ThreeSrcCount));
    }
    let mut shared = None;
    for (k, (o, slot)) in srcs.iter().zip(i.src.iter_mut()).enumerate() {
        let k = k as u8;
        let direct_grf = matches!(o, Operand::Reg(r)
            if r.file() == RegFile::Grf && matches!(r.address(), Addr::Direct { .. }));
        if !direct_grf {
            return Err(fault(OperandId::Src(k), Why::ThreeSrcSource));
        }
        src_into(p, Mode::ThreeSrc, k, o, slot)?;
        let st = *shared.get_or_insert(slot.ty);
        if slot.ty != st && !(p.is_gen8() && st == Type::F && slot.ty == Type::HF && k > 0) {
            return Err(fault(OperandId::Src(k), Why::ThreeSrcTypes));
        }
    }
    i.imm = 0;
    Ok(())
}
