//! What IGA's assembler encodes from IGA-syntax text: the fields the
//! text shows as they are, and IGA's own values for the fields it does
//! not show (`crate::canon::IGA`, the dialect's defaults as data, beside
//! Mesa's in `crate::canon`).
//!
//! The fields differ between
//! the two syntaxes, and so do the values (IGA leaves a SEND's src0
//! region zero where Mesa writes `<8;8,1>`, and src1's type clear beside
//! an immediate where Mesa copies the immediate's type).

use crate::isa::region::HSTRIDE_1;
use crate::model::*;

use crate::canon::{IgaDefaults as Defaults, IGA};

/// The instruction IGA's assembler builds from the IGA-syntax text of
/// `i` (the text without annotation): the fields the text shows, copied
/// from `i`, and IGA's values (or, for the operands IGA's syntax
/// hides as Mesa's does, [`crate::canon`]'s) everywhere else. It depends
/// only on the text (a test checks this over random words), so the
/// reader of IGA's syntax builds the same instruction from the text and
/// then applies the annotation's fields.
#[inline]
pub fn iga_canonical(p: Platform, i: &Instruction) -> Instruction {
    with_defaults(p, i, &IGA)
}

/// The controls the text shows whatever the opcode.
const SHOWN_CONTROLS: Controls = Controls::WE_ALL
    .union(Controls::BREAKPOINT)
    .union(Controls::COMPACTED)
    .union(Controls::NO_DD_CLEAR)
    .union(Controls::NO_DD_CHECK);

/// Inlined into its two callers: the instruction is built in the
/// caller's place, not copied out (a copy of 64 bytes a word for the
/// printer's check).
#[inline(always)]
fn with_defaults(p: Platform, i: &Instruction, d: &Defaults) -> Instruction {
    use super::print::{implicit_exec, no_operands, shown_cond, shown_srcs};
    let op = i.opcode;
    let mut c = Instruction::new(op, ExecSize::S1);
    // The header.
    let mut controls = i.controls & SHOWN_CONTROLS;
    if op == Opcode::Jmpi {
        // IGA's parser gives jmpi NoMask, `(W)` written or not.
        controls |= Controls::WE_ALL;
    }
    if !implicit_exec(op) {
        c.exec_size = i.exec_size;
        c.qtr_control = i.qtr_control;
        controls |= i.controls & Controls::NIB_CTRL;
    }
    c.thread_control = i.thread_control;
    if !op.is_send() {
        controls |= i.controls & Controls::ACC_WR;
    }
    if i.pred_control != crate::isa::PRED_CONTROL_NONE {
        controls |= i.controls & Controls::PRED_INV;
        let mode = super::print::text_mode(op);
        c.pred_control = match PredCtrl::from_hw(mode, i.pred_control) {
            Some(PredCtrl::Reserved(_)) | None => PredCtrl::Normal.hw(mode).unwrap_or(1),
            Some(_) => i.pred_control,
        };
        c.flag = i.flag;
    }
    if shown_cond(i).is_some() {
        c.cond_modifier = i.cond_modifier;
        c.flag = i.flag;
    }
    if super::print::early_out(i) {
        c.flag = i.flag;
    }
    if op.is_send() {
        c.cond_modifier = i.cond_modifier;
    }
    if op == Opcode::Math {
        c.cond_modifier = match i.math_function() {
            Some(_) => i.cond_modifier,
            None => MathFunction::None.hw(),
        };
    }
    let shows_dst =
        !op.is_send() && !no_operands(op) && !crate::canon::shows_jip(op) && op != Opcode::Wait && op != Opcode::Jmpi;
    if shows_dst {
        controls |= i.controls & Controls::SATURATE;
    }
    c.controls = controls;

    if super::print::macro_form(i) {
        return macro_operands(c, i, d);
    }
    if op.is_three_src() {
        c.access_mode = AccessMode::Align16;
        c.dst = Dst {
            hstride: HSTRIDE_1,
            writemask: WriteMask::XYZW,
            ..i.dst
        };
        round_dst(&mut c.dst);
        for (t_out, s) in c.src.iter_mut().zip(&i.src) {
            let mut t = Src {
                region: if s.region == Region::SCALAR {
                    Region::SCALAR
                } else {
                    Region {
                        vstride: crate::isa::region::VSTRIDE_4,
                        width: crate::isa::region::WIDTH_4,
                        hstride: HSTRIDE_1,
                    }
                },
                swizzle: d.ternary_swizzle,
                ..*s
            };
            round_src(&mut t);
            *t_out = t;
        }
        return c;
    }
    if op.offsets_may_be_register() {
        return brd_brc(p, i, c, d);
    }
    if no_operands(op) || crate::canon::shows_jip(op) || op == Opcode::Jmpi {
        // Operands as Mesa's syntax hides or shows them (the jumps, and
        // jmpi's source, stay as the word has them).
        let mut m = c;
        m.dst = i.dst;
        m.src = i.src;
        m.imm = i.imm;
        crate::canon::canonicalize(p, &mut m);
        if let Some(b) = i.jmpi_jump(p) {
            // An immediate jump shows as a label (`print`): the jump as
            // the reader writes it, 32 bits, whatever src1's type.
            m.imm = 0;
            crate::build::flow::set_imm32(&mut m, b.units);
        }
        c.dst = m.dst;
        c.src = m.src;
        c.imm = m.imm;
        c.flag = if c.pred_control != 0 || shown_cond(i).is_some() {
            i.flag
        } else {
            FlagReg::default()
        };
        if op == Opcode::Jmpi && !i.src[1].is_imm() {
            let mut unused = 0;
            c.src[1] = shown_src(i, 1, d, &mut unused);
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
                let src1 =
                    u64::from(RegFile::Imm.hw()) << (f::SRC1_REG_FILE_LO - 64) | ty << (f::SRC1_REG_TYPE_LO - 64);
                let jip = u64::from(u32::MAX) << Instruction::GEN8_JIP_SHIFT;
                c.imm = c.imm & jip | src1 << Instruction::GEN8_UIP_SHIFT;
            }
        }
        return c;
    }
    if op == Opcode::Wait {
        // IGA writes the notification register to the destination too.
        let t = shown_src(i, 0, d, &mut c.imm);
        c.src[0] = t;
        c.dst = if t.is_imm() {
            Dst::null()
        } else {
            Dst {
                file: t.file,
                ty: t.ty,
                addr: t.addr,
                hstride: HSTRIDE_1,
                writemask: WriteMask::XYZW,
            }
        };
        return c;
    }
    if op.is_send() {
        c.dst = Dst {
            hstride: HSTRIDE_1,
            writemask: WriteMask::XYZW,
            ..i.dst
        };
        round_dst(&mut c.dst);
        if i.src[0].is_imm() {
            // The payload as an immediate (a word no compiler writes):
            // the descriptor's place is the immediate's.
            c.src[0] = shown_src(i, 0, d, &mut c.imm);
            c.src[1] = Src::ZERO;
            // The text shows the value's bits, and EOT (the dword's top
            // bit).
            let t = i.src[0].ty;
            let eot = i.imm & 0x8000_0000;
            c.imm = match t.size() {
                8 => i.imm,
                2 if !t.is_vector_imm() => i.imm & 0xffff | eot,
                1 => i.imm & 0xff | eot,
                _ => i.imm & 0xffff_ffff,
            };
            return c;
        }
        let mut s0 = Src {
            region: d.send_src0_region,
            mods: SrcMods::empty(),
            swizzle: Swizzle(0),
            ..i.src[0]
        };
        round_src(&mut s0);
        c.src[0] = s0;
        let eot = u64::from(i.eot()) << crate::model::SEND_EOT_BIT;
        match i.send_desc() {
            Some(desc) => {
                c.src[1] = Src::imm(Type::UD);
                c.imm = u64::from(desc) | eot;
            }
            None => {
                let (nr, subnr) = match i.src[1].addr {
                    Addr::Direct { nr, subnr } => (nr, subnr),
                    Addr::Indirect { subnr, .. } => (crate::isa::arf::ADDRESS, subnr),
                };
                c.src[1] = Src {
                    file: RegFile::Arf,
                    ty: Type::UD,
                    addr: Addr::Direct {
                        nr: crate::isa::arf::ADDRESS | nr & crate::isa::arf::NUMBER_MAX,
                        subnr,
                    },
                    region: Region::SCALAR,
                    ..Src::ZERO
                };
                c.imm = eot;
            }
        }
        return c;
    }
    // The ALU form (and call, calla, ret): destination and the sources
    // the text shows; IGA reads align16 operands as align1 ones.
    let a16 = i.access_mode == AccessMode::Align16;
    c.dst = Dst {
        hstride: if a16 { HSTRIDE_1 } else { i.dst.hstride },
        writemask: WriteMask::XYZW,
        ..i.dst
    };
    round_dst(&mut c.dst);
    let n = shown_srcs(i).min(2);
    let mut imm = c.imm;
    for (k, t) in c.src.iter_mut().enumerate().take(n) {
        *t = shown_src(i, k, d, &mut imm);
    }
    c.imm = imm;
    c
}

/// `brd` and `brc` (`c` holds the header): the text shows src0's register
/// (file, address, modifiers, type), which holds the jump offsets, or the
/// jumps themselves as labels (JIP; brc's UIP too) with src0's immediate
/// type. Everything else takes IGA's values: src0's implicit region, src1
/// `null` (brc's register form prints it; its file and type beside a
/// label are the payload's), a zero payload beside a register.
///
/// The destination is the null register, with the stride 1 IGA's encoder
/// gives all flow control. IGA's encoder writes `ip` there (its comment:
/// "the ip register must be used as dst"), but the PRM's rule that the
/// validator checks (`brd_brc_dst_null`) says null, which is what
/// Mesa's canonical form writes too; the PRM's rule is the one followed.
fn brd_brc(p: Platform, i: &Instruction, mut c: Instruction, d: &Defaults) -> Instruction {
    c.dst = Dst::null();
    if i.offsets_from_register() {
        let mut s = Src {
            region: if i.opcode == Opcode::Brc {
                d.brc_src0_region
            } else {
                d.brd_src0_region
            },
            swizzle: Swizzle(0),
            ..i.src[0]
        };
        round_src(&mut s);
        c.src[0] = s;
        return c;
    }
    c.src[0] = Src::imm(i.src[0].ty);
    // The payload's jumps (the UIP only where the opcode has one).
    let (jip, uip) = if p.is_gen8() {
        (
            u64::from(u32::MAX) << Instruction::GEN8_JIP_SHIFT,
            u64::from(u32::MAX) << Instruction::GEN8_UIP_SHIFT,
        )
    } else {
        (
            u64::from(u16::MAX) << Instruction::GEN7_JIP_SHIFT,
            u64::from(u16::MAX) << Instruction::GEN7_UIP_SHIFT,
        )
    };
    c.imm = i.imm & if i.opcode.has_uip() { jip | uip } else { jip };
    c
}

/// The operands of a math macro in IGA's macro form: registers and
/// specifiers as shown, no subregisters; IGA's regions (`madm`'s the
/// 3-source `<2;1>`/`<1>`, MATH's align16 `<2>` for 64-bit types and
/// `<4>` for others, the vertical strides IGA's decoder requires) and the
/// specifiers in the write mask and the swizzles' low bits.
fn macro_operands(mut c: Instruction, i: &Instruction, d: &Defaults) -> Instruction {
    use super::print::{shown_mme, shown_srcs};
    use crate::isa::region::{VSTRIDE_2, VSTRIDE_4, WIDTH_4};
    let direct = |a: Addr| match a {
        Addr::Direct { nr, .. } => Addr::Direct { nr, subnr: 0 },
        a => a,
    };
    c.access_mode = AccessMode::Align16;
    c.dst = Dst {
        addr: direct(i.dst.addr),
        hstride: HSTRIDE_1,
        writemask: WriteMask::from_bits_truncate(shown_mme(i.dst.writemask.bits()).hw()),
        ..i.dst
    };
    let three = i.opcode.is_three_src();
    let n = if three { 3 } else { shown_srcs(i) };
    for (k, (t, s)) in c.src.iter_mut().zip(&i.src).enumerate() {
        *t = if k < n {
            Src {
                addr: direct(s.addr),
                region: if three {
                    Region::THREE_SRC
                } else {
                    Region {
                        vstride: if s.ty.is_64bit() { VSTRIDE_2 } else { VSTRIDE_4 },
                        width: WIDTH_4,
                        hstride: HSTRIDE_1,
                    }
                },
                swizzle: Swizzle(shown_mme(s.swizzle.0 & MathMacro::SWIZZLE_BITS).hw()),
                ..*s
            }
        } else if k == 1 && !three {
            d.macro_unread_src
        } else {
            *t
        };
    }
    c
}

/// Source `k` of an ALU-form instruction as the text shows it (an
/// immediate's value goes to `imm`): a register beside an immediate src0
/// keeps only its file and type, an immediate its value's shown bits (a
/// 16-bit one in both halves of the dword), a register its register,
/// modifiers, align1 region and type.
fn shown_src(i: &Instruction, k: usize, d: &Defaults, imm: &mut u64) -> Src {
    let Some(s) = i.src.get(k) else {
        return Src::ZERO;
    };
    if super::print::beside_imm(i, k) {
        return Src {
            file: s.file,
            ty: s.ty,
            ..Src::ZERO
        };
    }
    if s.is_imm() {
        let t = s.ty;
        *imm = match t.size() {
            8 => i.imm,
            2 if !t.is_vector_imm() => {
                let v = i.imm & 0xffff;
                v | v << 16
            }
            1 => i.imm & 0xff,
            _ => i.imm & 0xffff_ffff,
        };
        return Src::imm(t);
    }
    let mut t = Src {
        swizzle: Swizzle(0),
        region: if i.access_mode == AccessMode::Align16 {
            d.a16_src_region
        } else {
            super::print::shown_region(s.region)
        },
        ..*s
    };
    round_src(&mut t);
    t
}

/// A direct destination's subregister as the text shows it: in units of
/// the type.
fn round_dst(d: &mut Dst) {
    if let Addr::Indirect { .. } = d.addr {
        // `r[a0.N,IMM]` names no register file: IGA's is the GRF.
        d.file = RegFile::Grf;
    }
    if let Addr::Direct { nr, subnr } = d.addr {
        // A type's size is a power of two.
        d.addr = Addr::Direct {
            nr,
            subnr: subnr & !((d.ty.size() as u8).max(1) - 1),
        };
    }
}

/// A direct source's subregister as the text shows it.
fn round_src(s: &mut Src) {
    if let Addr::Indirect { .. } = s.addr {
        s.file = RegFile::Grf;
    }
    if let Addr::Direct { nr, subnr } = s.addr {
        s.addr = Addr::Direct {
            nr,
            subnr: subnr & !((s.ty.size() as u8).max(1) - 1),
        };
    }
}

/// Writes ` [annotation]` of `i` (see the module documentation), or
/// nothing when `i` is what its text stands for; `word` is the native
/// word `i` was decoded from, if known.
pub(crate) fn write_annotation<W: core::fmt::Write + ?Sized>(
    out: &mut W,
    p: Platform,
    i: &Instruction,
    word: Option<crate::word::Word>,
    items: &mut crate::text::annotate::Items,
) -> core::fmt::Result {
    let base = with_defaults(p, i, &IGA);
    if base == *i {
        return Ok(());
    }
    crate::text::annotate::write_diff(out, p, i, word, &base, items)
}
