//! What IGA's assembler encodes from IGA-syntax text: the fields the
//! text shows as they are, and IGA's own values for the fields it does
//! not show ([`IGA`], the dialect's defaults as data).
//!
//! Mesa's defaults live in [`crate::canon`]; the fields differ between
//! the two syntaxes, and so do the values (IGA leaves a SEND's src0
//! region zero where Mesa writes `<8;8,1>`, and src1's type clear beside
//! an immediate where Mesa copies the immediate's type).

use alloc::string::String;

use crate::isa::region::HSTRIDE_1;
use crate::model::*;

/// The values IGA's assembler gives the fields its syntax does not show.
pub(crate) struct Defaults {
    /// A SEND's src0 region (IGA shows no region on SEND operands).
    pub(crate) send_src0_region: Region,
    /// src1's type beside an immediate src0 of a one-source instruction,
    /// and src1 of a one-source MATH function.
    pub(crate) unread_src1: Src,
    /// The swizzle of a replicated (scalar) 3-source operand.
    pub(crate) ternary_scalar_swizzle: Swizzle,
    /// The destination type of the flow-control instructions IGA writes
    /// without operand types.
    pub(crate) branch_dst_type: Type,
    /// An align16 source converted to align1 (`<1;1,0>`).
    pub(crate) a16_src_region: Region,
    /// The immediate type of a Gen7/7.5 branch's src0 (its jumps in DW3).
    pub(crate) gen7_branch_src0_type: Type,
    /// The immediate type of a Gen8 one-jump branch's src1 (its JIP).
    pub(crate) gen8_branch_src1_type: Type,
}

/// IGA 1.1.0's values (from what `iga64 -a` encodes of its own text).
pub(crate) const IGA: Defaults = Defaults {
    send_src0_region: Region {
        vstride: 0,
        width: 0,
        hstride: 0,
    },
    unread_src1: Src::ZERO,
    ternary_scalar_swizzle: Swizzle::XYZW,
    branch_dst_type: Type::UD,
    a16_src_region: Region {
        vstride: crate::isa::region::VSTRIDE_1,
        width: crate::isa::region::WIDTH_1,
        hstride: crate::isa::region::HSTRIDE_0,
    },
    gen7_branch_src0_type: Type::W,
    gen8_branch_src1_type: Type::D,
};

/// The instruction IGA's assembler builds from the IGA-syntax text of
/// `i` (the text without annotation): the reader of IGA's syntax builds
/// this from the text, then applies the annotation's fields.
pub fn iga_canonical(p: Platform, i: &Instruction) -> Instruction {
    with_defaults(p, i, &IGA)
}

fn with_defaults(p: Platform, i: &Instruction, d: &Defaults) -> Instruction {
    let mut c = *i;
    let op = c.opcode;
    // Align16 operands IGA reads as align1 ones (every two-source form,
    // SEND and flow control included); then the fields the text does not
    // show get Mesa's values (the reader builds the same from the text),
    // and IGA's own where they differ, below.
    if !op.is_three_src() && c.access_mode == AccessMode::Align16 {
        c.access_mode = AccessMode::Align1;
        c.dst.hstride = HSTRIDE_1;
        c.dst.writemask = WriteMask::XYZW;
        let n = usize::from(c.num_srcs()).min(2);
        for (k, s) in c.src.iter_mut().take(2).enumerate() {
            // Unread sources and immediates keep no region (align16's
            // implied width and stride included).
            s.region = if k < n && !s.is_imm() {
                d.a16_src_region
            } else {
                Region {
                    vstride: s.region.vstride,
                    width: 0,
                    hstride: 0,
                }
            };
            s.swizzle = Swizzle(0);
        }
    }
    crate::canon::canonicalize(p, &mut c);
    if op.is_three_src() {
        // The text shows `<2;1>` (all channels in order) or the scalar
        // `<0;0>`, and writes every channel of the destination.
        c.dst.writemask = WriteMask::XYZW;
        for s in &mut c.src {
            if s.region == Region::SCALAR {
                s.swizzle = d.ternary_scalar_swizzle;
            } else {
                s.swizzle = Swizzle::XYZW;
            }
        }
        return c;
    }
    if op.is_send() {
        c.src[0].region = d.send_src0_region;
        return c;
    }
    if crate::canon::shows_jip(op) {
        c.dst.ty = d.branch_dst_type;
        if !p.is_gen8() {
            // The jumps sit in DW3: src0 is typed as an immediate.
            c.src[0] = Src::imm(d.gen7_branch_src0_type);
            c.src[1] = Src::ZERO;
        } else if !crate::canon::shows_uip(p, op) {
            // One jump: IGA writes it as src1's immediate (src1's file
            // and type sit in bits 95:64, the payload's high half).
            use crate::word::fields::gen8_native as f;
            c.src[0] = Src::ZERO;
            let ty = u64::from(d.gen8_branch_src1_type.imm_hw(p).unwrap_or(0));
            let src1 = u64::from(RegFile::Imm.hw()) << (f::SRC1_REG_FILE_LO - 64) | ty << (f::SRC1_REG_TYPE_LO - 64);
            let jip = u64::from(u32::MAX) << Instruction::GEN8_JIP_SHIFT;
            c.imm = c.imm & jip | src1 << Instruction::GEN8_UIP_SHIFT;
        }
        return c;
    }
    if op == Opcode::Wait {
        c.src[1] = d.unread_src1;
        return c;
    }
    if op.is_branch() {
        return c;
    }
    // Subregisters print in units of the type: a rounded one is lost.
    round_dst(&mut c.dst);
    for s in &mut c.src[..2] {
        round_src(s);
    }
    let unary_math = op == Opcode::Math && c.math_function().is_some_and(|f| f.num_srcs() == 1);
    if unary_math || (c.src[0].is_imm() && op.num_srcs() == 1) {
        if unary_math {
            c.src[1] = Src {
                file: c.src[1].file,
                ..d.unread_src1
            };
        } else {
            c.src[1].ty = d.unread_src1.ty;
        }
    }
    let _ = p;
    c
}

fn round_dst(d: &mut Dst) {
    if let Addr::Direct { nr, subnr } = d.addr {
        let size = d.ty.size() as u8;
        d.addr = Addr::Direct {
            nr,
            subnr: subnr - subnr % size.max(1),
        };
    }
}

fn round_src(s: &mut Src) {
    if s.is_imm() {
        return;
    }
    if let Addr::Direct { nr, subnr } = s.addr {
        let size = s.ty.size() as u8;
        s.addr = Addr::Direct {
            nr,
            subnr: subnr - subnr % size.max(1),
        };
    }
}

/// The annotation of `i`: the fields where its word differs from
/// [`iga_canonical`]'s, or `None`.
pub(crate) fn annotation(p: Platform, i: &Instruction) -> Option<String> {
    let base = iga_canonical(p, i);
    if base == *i {
        return None;
    }
    crate::text::annotate::diff(p, i, &base)
}
