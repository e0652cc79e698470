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

use crate::canon::{put, Check, Differs, IgaDefaults as Defaults, Note, Set, Slots, IGA};

/// The instruction IGA's assembler builds from the IGA-syntax text of
/// `i` (the text without annotation): the fields the text shows, copied
/// from `i`, and IGA's values (or, for the operands IGA's syntax
/// hides as Mesa's does, [`crate::canon`]'s) everywhere else. It depends
/// only on the text (a test checks this over random words), so the
/// reader of IGA's syntax builds the same instruction from the text and
/// then applies the annotation's fields.
#[inline]
pub fn iga_canonical(p: Platform, i: &Instruction) -> Instruction {
    let mut c = *i;
    // Setting never stops early.
    let _ = walk(p, i, &mut Set(&mut c), &IGA);
    c
}

/// Whether `i` is its own [`iga_canonical`] (a word IGA's assembler
/// produces from its text, which prints without annotation): the same
/// walk, stopping at the first field that differs from IGA's value
/// instead of building the instruction (see [`crate::canon`]'s
/// `is_canonical`, whose walks these mirror; a test compares the two
/// over random words).
#[inline]
pub fn is_iga_canonical(p: Platform, i: &Instruction) -> bool {
    walk(p, i, &mut Check(i), &IGA).is_ok()
}

/// The controls the text shows whatever the opcode.
const SHOWN_CONTROLS: Controls = Controls::WE_ALL
    .union(Controls::BREAKPOINT)
    .union(Controls::COMPACTED)
    .union(Controls::NO_DD_CLEAR)
    .union(Controls::NO_DD_CHECK);

/// `round!(s, [dst], &i.dst)`: gives the operand at that place (a
/// destination or source, `o` as `i` has it) the register file and
/// address the text shows: `r[a0.N,IMM]` names no register file (IGA's is
/// the GRF), a direct subregister counts in units of the type (a power of
/// two: lower bits are not shown).
macro_rules! round {
    ($s:expr, [$($f:tt)+], $o:expr) => {{
        let o = $o;
        match o.addr {
            Addr::Indirect { .. } => put!($s, [$($f)+.file], RegFile::Grf),
            // Shown as it is, whatever the type (most operands: no
            // type size read).
            Addr::Direct { subnr: 0, .. } => Ok(()),
            Addr::Direct { nr, subnr } => {
                let shown = subnr & !((o.ty.size() as u8).max(1) - 1);
                if shown == subnr {
                    Ok(())
                } else {
                    put!($s, [$($f)+.addr], Addr::Direct { nr, subnr: shown })
                }
            }
        }
    }};
}

/// The bits of `i`'s immediate that its text shows as a value of type
/// `t`: a 16-bit one in both halves of the dword.
const fn shown_imm(i: &Instruction, t: Type) -> u64 {
    match t.size() {
        8 => i.imm,
        2 if !t.is_vector_imm() => {
            let v = i.imm & 0xffff;
            v | v << 16
        }
        1 => i.imm & 0xff,
        _ => i.imm & 0xffff_ffff,
    }
}

/// `shown_src!(s, i, K, d, imm)`: gives source `K` (a literal index) of
/// an ALU-form instruction what the text shows of it (an immediate's
/// value goes to `imm`): a register beside an immediate src0 keeps only
/// its file and type, an immediate its value's shown bits (a 16-bit one
/// in both halves of the dword), a register its register, modifiers,
/// align1 region and type.
macro_rules! shown_src {
    ($s:expr, $i:expr, $k:tt, $d:expr, $imm:expr) => {{
        let i: &Instruction = $i;
        let o = &i.src[$k];
        if super::print::beside_imm(i, $k) {
            put!(
                $s,
                [src[$k]],
                Src {
                    file: o.file,
                    ty: o.ty,
                    ..Src::ZERO
                }
            )
        } else if o.is_imm() {
            *$imm = shown_imm(i, o.ty);
            put!($s, [src[$k]], Src::imm(o.ty))
        } else {
            let region = if i.access_mode == AccessMode::Align16 {
                $d.a16_src_region
            } else {
                super::print::shown_region(o.region)
            };
            put!($s, [src[$k].region], region)?;
            put!($s, [src[$k].swizzle], Swizzle(0))?;
            round!($s, [src[$k]], o)
        }
    }};
}

/// `branch_src!(s, i, K, region)`: gives source `K` (a literal index) of
/// `call`, `calla` or `ret` what the text shows of it, and evaluates to
/// the payload it shows: an immediate's value (a call's, src1, is the
/// label of its jump, the whole dword; `ret`'s shows the bits its type
/// holds), or for a register its file, address and type, with `region`
/// (IGA's implicit one: the text shows none) and no modifier, and 0.
macro_rules! branch_src {
    ($s:expr, $i:expr, $k:tt, $region:expr) => {{
        let i: &Instruction = $i;
        let o = &i.src[$k];
        if o.is_imm() {
            put!($s, [src[$k]], Src::imm(o.ty))?;
            if $k == 1 {
                i.imm & 0xffff_ffff
            } else {
                shown_imm(i, o.ty)
            }
        } else {
            put!($s, [src[$k].region], $region)?;
            put!($s, [src[$k].swizzle], Swizzle(0))?;
            put!($s, [src[$k].mods], SrcMods::empty())?;
            round!($s, [src[$k]], o)?;
            0
        }
    }};
}

/// [`iga_canonical`] (through [`Set`], on a copy of `i`) or
/// [`is_iga_canonical`] (through [`Check`], on `i` itself): gives every
/// field the text does not show, and every shown one it rounds, IGA's
/// value, each at most once on any path; the fields it leaves stay as
/// `i` has them. Reads `i` as it was given (the flow-control path reads
/// the header back after writing it). The operands come first (a
/// Mesa-built SEND's src0 region differs: the check stops there).
#[inline(always)]
fn walk(p: Platform, i: &Instruction, s: &mut impl Slots, d: &Defaults) -> Result<(), Differs> {
    use super::print::no_operands;
    let op = i.opcode;
    if op.is_send() {
        // Most words (and never a macro, 3-source or flow form).
        send(i, s, d)?;
        return header(i, s, true);
    }
    if super::print::macro_form(i) {
        macro_operands(i, s, d)?;
    } else if op.is_three_src() {
        three_src(i, s, d)?;
    } else if matches!(
        op.form(),
        crate::isa::Form::Unary | crate::isa::Form::Binary | crate::isa::Form::Math
    ) {
        // Most words: told by one look at the form, before the flow
        // forms' tests.
        alu(i, s, d)?;
    } else if op.offsets_may_be_register() {
        brd_brc(p, i, s, d)?;
    } else if no_operands(op) || crate::canon::shows_jip(op) || op == Opcode::Jmpi {
        // Reads the header back (Mesa's canonical form of the operands
        // depends on it): written first.
        header(i, s, false)?;
        return flow(p, i, s, d);
    } else if op == Opcode::Wait {
        wait(i, s, d)?;
    } else if super::print::call_ret(op) {
        call_ret(i, s, d)?;
    } else {
        alu(i, s, d)?;
    }
    header(i, s, false)
}

/// The header: the controls, execution size, predicate, flag and
/// conditional modifier the text shows, IGA's values for the others.
/// `send`: whether the opcode is SEND or SENDC (the caller has asked).
#[inline(always)]
fn header(i: &Instruction, s: &mut impl Slots, send: bool) -> Result<(), Differs> {
    use super::print::{implicit_exec, shown_cond};
    let op = i.opcode;
    let mut controls = i.controls & SHOWN_CONTROLS;
    if op == Opcode::Jmpi {
        // IGA's parser gives jmpi NoMask, `(W)` written or not.
        controls |= Controls::WE_ALL;
    }
    if implicit_exec(op) {
        put!(s, [exec_size], ExecSize::S1)?;
        put!(s, [qtr_control], 0)?;
    } else {
        controls |= i.controls & Controls::NIB_CTRL;
    }
    if !send && !super::print::call_ret(op) {
        controls |= i.controls & Controls::ACC_WR;
    }
    let predicated = i.pred_control != crate::isa::PRED_CONTROL_NONE;
    if predicated {
        controls |= i.controls & Controls::PRED_INV;
        let mode = super::print::text_mode(op);
        if let Some(PredCtrl::Reserved(_)) | None = PredCtrl::from_hw(mode, i.pred_control) {
            put!(s, [pred_control], PredCtrl::Normal.hw(mode).unwrap_or(1))?;
        }
    }
    // (None on SEND, whose field is the shared function.)
    let cond = !send && shown_cond(i).is_some();
    if !predicated && !cond && !super::print::early_out(i) {
        put!(s, [flag], FlagReg::default())?;
    }
    let cond_modifier = if send || cond {
        i.cond_modifier
    } else if op == Opcode::Math {
        match i.math_function() {
            Some(_) => i.cond_modifier,
            None => MathFunction::None.hw(),
        }
    } else {
        0
    };
    put!(s, [cond_modifier], cond_modifier)?;
    let shows_dst = !send
        && !super::print::no_operands(op)
        && !crate::canon::shows_jip(op)
        && op != Opcode::Wait
        && op != Opcode::Jmpi
        && !super::print::call_ret(op);
    if shows_dst {
        controls |= i.controls & Controls::SATURATE;
    }
    put!(s, [controls], controls)?;
    put!(s, [compact_subreg], 0)
}

/// The 3-source form: align16, the destination and sources as shown,
/// IGA's swizzles and the region `<4;4,1>` where not replicated.
#[inline(always)]
fn three_src(i: &Instruction, s: &mut impl Slots, d: &Defaults) -> Result<(), Differs> {
    let region = |s: &Src| {
        if s.region == Region::SCALAR {
            Region::SCALAR
        } else {
            Region {
                vstride: crate::isa::region::VSTRIDE_4,
                width: crate::isa::region::WIDTH_4,
                hstride: HSTRIDE_1,
            }
        }
    };
    let [s0, s1, s2] = &i.src;
    put!(s, [src[0].region], region(s0))?;
    put!(s, [src[0].swizzle], d.ternary_swizzle)?;
    round!(s, [src[0]], s0)?;
    put!(s, [src[1].region], region(s1))?;
    put!(s, [src[1].swizzle], d.ternary_swizzle)?;
    round!(s, [src[1]], s1)?;
    put!(s, [src[2].region], region(s2))?;
    put!(s, [src[2].swizzle], d.ternary_swizzle)?;
    round!(s, [src[2]], s2)?;
    put!(s, [access_mode], AccessMode::Align16)?;
    put!(s, [dst.hstride], HSTRIDE_1)?;
    put!(s, [dst.writemask], WriteMask::XYZW)?;
    round!(s, [dst], &i.dst)?;
    put!(s, [imm], 0)
}

/// The flow-control instructions shown as Mesa's syntax shows them, and
/// `jmpi` (after the header, which [`crate::canon::canonicalize`] reads):
/// operands as Mesa's syntax hides or shows them (the jumps, and jmpi's
/// source, stay as the word has them).
#[inline(never)]
fn flow(p: Platform, i: &Instruction, s: &mut impl Slots, d: &Defaults) -> Result<(), Differs> {
    let op = i.opcode;
    put!(s, [access_mode], AccessMode::Align1)?;
    // The header as written, the operands as the word has them.
    let mut m = *s.i();
    crate::canon::canonicalize(p, &mut m);
    if let Some(b) = i.label_jump(p) {
        // An immediate jump shows as a label (`print`): the jump as
        // the reader writes it, 32 bits, whatever src1's type.
        m.imm = 0;
        crate::build::flow::set_imm32(&mut m, b.units);
    }
    if crate::canon::shows_jip(op) {
        m.dst.ty = d.branch_dst_type;
        if !p.is_gen8() {
            // The jumps sit in DW3: src0 is typed as an immediate.
            m.src[0] = Src::imm(d.gen7_branch_src0_type);
            m.src[1] = Src::ZERO;
        } else if !crate::canon::shows_uip(p, op) {
            // One jump: IGA writes it as src1's immediate (src1's file
            // and type sit in bits 95:64, the payload's high half).
            use crate::word::fields::gen8_native as f;
            m.src[0] = Src::ZERO;
            let ty = u64::from(d.gen8_branch_src1_type.imm_hw(p).unwrap_or(0));
            let src1 = u64::from(RegFile::Imm.hw()) << (f::SRC1_REG_FILE_LO - 64) | ty << (f::SRC1_REG_TYPE_LO - 64);
            let jip = u64::from(u32::MAX) << Instruction::GEN8_JIP_SHIFT;
            m.imm = m.imm & jip | src1 << Instruction::GEN8_UIP_SHIFT;
        }
    }
    put!(s, [dst], m.dst)?;
    put!(s, [src[0]], m.src[0])?;
    put!(s, [src[2]], m.src[2])?;
    put!(s, [imm], m.imm)?;
    if op == Opcode::Jmpi && !i.src[1].is_imm() {
        // The register a jmpi jumps by: shown without region, which is
        // IGA's implicit `<0;1,0>` (`OpSpec::implicitSrcRegion`).
        put!(s, [src[1].region], Region::SCALAR)?;
        put!(s, [src[1].swizzle], Swizzle(0))?;
        round!(s, [src[1]], &i.src[1])
    } else {
        put!(s, [src[1]], m.src[1])
    }
}

/// `wait`: IGA writes the notification register to the destination too.
#[inline(always)]
fn wait(i: &Instruction, s: &mut impl Slots, d: &Defaults) -> Result<(), Differs> {
    let mut imm = 0;
    shown_src!(s, i, 0, d, &mut imm)?;
    // As written (or, checking, found equal).
    let t = s.i().src[0];
    put!(s, [src[1]], Src::ZERO)?;
    put!(s, [src[2]], Src::ZERO)?;
    put!(s, [access_mode], AccessMode::Align1)?;
    let dst = if t.is_imm() {
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
    put!(s, [dst], dst)?;
    put!(s, [imm], imm)
}

/// SEND and SENDC: the destination and payload register and type, the
/// descriptor (or address register) and EOT; IGA's src0 region.
#[inline(always)]
fn send(i: &Instruction, s: &mut impl Slots, d: &Defaults) -> Result<(), Differs> {
    let imm = if i.src[0].is_imm() {
        // The payload as an immediate (a word no compiler writes):
        // the descriptor's place is the immediate's.
        shown_src!(s, i, 0, d, &mut 0)?;
        put!(s, [src[1]], Src::ZERO)?;
        // The text shows the value's bits, and EOT (the dword's top
        // bit).
        let t = i.src[0].ty;
        let eot = i.imm & 0x8000_0000;
        match t.size() {
            8 => i.imm,
            2 if !t.is_vector_imm() => i.imm & 0xffff | eot,
            1 => i.imm & 0xff | eot,
            _ => i.imm & 0xffff_ffff,
        }
    } else {
        put!(s, [src[0].region], d.send_src0_region)?;
        put!(s, [src[0].mods], SrcMods::empty())?;
        put!(s, [src[0].swizzle], Swizzle(0))?;
        round!(s, [src[0]], &i.src[0])?;
        let eot = u64::from(i.eot()) << crate::model::SEND_EOT_BIT;
        match i.send_desc() {
            Some(desc) => {
                put!(s, [src[1]], Src::imm(Type::UD))?;
                u64::from(desc) | eot
            }
            None => {
                let (nr, subnr) = match i.src[1].addr {
                    Addr::Direct { nr, subnr } => (nr, subnr),
                    Addr::Indirect { subnr, .. } => (crate::isa::arf::ADDRESS, subnr),
                };
                let s1 = Src {
                    file: RegFile::Arf,
                    ty: Type::UD,
                    addr: Addr::Direct {
                        nr: crate::isa::arf::ADDRESS | nr & crate::isa::arf::NUMBER_MAX,
                        subnr,
                    },
                    region: Region::SCALAR,
                    ..Src::ZERO
                };
                put!(s, [src[1]], s1)?;
                eot
            }
        }
    };
    put!(s, [src[2]], Src::ZERO)?;
    put!(s, [access_mode], AccessMode::Align1)?;
    put!(s, [dst.hstride], HSTRIDE_1)?;
    put!(s, [dst.writemask], WriteMask::XYZW)?;
    round!(s, [dst], &i.dst)?;
    put!(s, [imm], imm)
}

/// The ALU form (and call, calla, ret): destination and the sources
/// the text shows; IGA reads align16 operands as align1 ones.
#[inline(always)]
fn alu(i: &Instruction, s: &mut impl Slots, d: &Defaults) -> Result<(), Differs> {
    let n = super::print::shown_srcs(i).min(2);
    let mut imm = 0;
    if n > 0 {
        shown_src!(s, i, 0, d, &mut imm)?;
    } else {
        put!(s, [src[0]], Src::ZERO)?;
    }
    if n > 1 {
        shown_src!(s, i, 1, d, &mut imm)?;
    } else {
        put!(s, [src[1]], Src::ZERO)?;
    }
    put!(s, [src[2]], Src::ZERO)?;
    if i.access_mode == AccessMode::Align16 {
        put!(s, [dst.hstride], HSTRIDE_1)?;
    }
    put!(s, [access_mode], AccessMode::Align1)?;
    put!(s, [dst.writemask], WriteMask::XYZW)?;
    round!(s, [dst], &i.dst)?;
    put!(s, [imm], imm)
}

/// `call`, `calla` and `ret` (`print::Printer::call_ret`), as IGA's
/// encoder writes them (`Encoder::encodeBranchingInstruction`):
/// - `call`/`calla`: the destination as shown; the one source shown goes
///   to src1 (a label as its immediate jump, with the type shown, or a
///   register with IGA's implicit region); src0 is zero but for the
///   region IGA writes there (`callNeedsSrcRegion221`);
/// - `ret`: the destination `null:ud`, src0 as shown (a register with
///   IGA's implicit region), src1 zero.
///
/// Neither shows a source modifier (none is written).
fn call_ret(i: &Instruction, s: &mut impl Slots, d: &Defaults) -> Result<(), Differs> {
    let ret = i.opcode.form() == crate::isa::Form::Return;
    let imm = if ret {
        put!(s, [dst], Dst::null())?;
        let imm = branch_src!(s, i, 0, d.ret_src0_region);
        put!(s, [src[1]], Src::ZERO)?;
        imm
    } else {
        if i.access_mode == AccessMode::Align16 {
            put!(s, [dst.hstride], HSTRIDE_1)?;
        }
        put!(s, [dst.writemask], WriteMask::XYZW)?;
        round!(s, [dst], &i.dst)?;
        put!(
            s,
            [src[0]],
            Src {
                region: d.call_src0_region,
                ..Src::ZERO
            }
        )?;
        branch_src!(s, i, 1, d.call_src1_region)
    };
    put!(s, [src[2]], Src::ZERO)?;
    put!(s, [access_mode], AccessMode::Align1)?;
    put!(s, [imm], imm)
}

/// `brd` and `brc`: the text shows src0's register
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
fn brd_brc(p: Platform, i: &Instruction, s: &mut impl Slots, d: &Defaults) -> Result<(), Differs> {
    let imm = if i.offsets_from_register() {
        let region = if i.opcode == Opcode::Brc {
            d.brc_src0_region
        } else {
            d.brd_src0_region
        };
        put!(s, [src[0].region], region)?;
        put!(s, [src[0].swizzle], Swizzle(0))?;
        round!(s, [src[0]], &i.src[0])?;
        0
    } else {
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
        put!(s, [src[0]], Src::imm(i.src[0].ty))?;
        i.imm & if i.opcode.has_uip() { jip | uip } else { jip }
    };
    put!(s, [src[1]], Src::ZERO)?;
    put!(s, [src[2]], Src::ZERO)?;
    put!(s, [access_mode], AccessMode::Align1)?;
    put!(s, [dst], Dst::null())?;
    put!(s, [imm], imm)
}

/// The operands of a math macro in IGA's macro form: registers and
/// specifiers as shown, no subregisters; IGA's regions (`madm`'s the
/// 3-source `<2;1>`/`<1>`, MATH's align16 `<2>` for 64-bit types and
/// `<4>` for others, the vertical strides IGA's decoder requires) and the
/// specifiers in the write mask and the swizzles' low bits.
fn macro_operands(i: &Instruction, s: &mut impl Slots, d: &Defaults) -> Result<(), Differs> {
    use super::print::{shown_mme, shown_srcs};
    use crate::isa::region::{VSTRIDE_2, VSTRIDE_4, WIDTH_4};
    let direct = |a: Addr| match a {
        Addr::Direct { nr, .. } => Addr::Direct { nr, subnr: 0 },
        a => a,
    };
    let three = i.opcode.is_three_src();
    let n = if three { 3 } else { shown_srcs(i) };
    let src = |k: usize, s: &Src| {
        if k < n {
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
            Src::ZERO
        }
    };
    let [s0, s1, s2] = &i.src;
    put!(s, [src[0]], src(0, s0))?;
    put!(s, [src[1]], src(1, s1))?;
    put!(s, [src[2]], src(2, s2))?;
    put!(s, [access_mode], AccessMode::Align16)?;
    let dst = Dst {
        addr: direct(i.dst.addr),
        hstride: HSTRIDE_1,
        writemask: WriteMask::from_bits_truncate(shown_mme(i.dst.writemask.bits()).hw()),
        ..i.dst
    };
    put!(s, [dst], dst)?;
    put!(s, [imm], 0)
}

/// Writes ` [annotation]` of `i` (see the module documentation), or
/// nothing when `i` is what its text stands for; `word` is the native
/// word `i` was decoded from, if known. Inlined into the printer's
/// loop: the call cost more than the check of most words.
#[inline(always)]
pub(crate) fn write_annotation<W: core::fmt::Write + ?Sized>(
    out: &mut W,
    p: Platform,
    i: &Instruction,
    word: Option<crate::word::Word>,
    items: &mut crate::text::annotate::Items,
) -> core::fmt::Result {
    if is_iga_canonical(p, i) {
        return Ok(());
    }
    write_differences(out, p, i, word, items)
}

/// [`write_annotation`] of a word that is not its own IGA canonical form.
#[inline(never)]
fn write_differences<W: core::fmt::Write + ?Sized>(
    out: &mut W,
    p: Platform,
    i: &Instruction,
    word: Option<crate::word::Word>,
    items: &mut crate::text::annotate::Items,
) -> core::fmt::Result {
    // The walk that stopped is exact: `i` differs from `base`. (Building
    // it, the walk notes what it changed: the encoder encodes only that.)
    let mut base = *i;
    let mut note = Note::new(&mut base);
    let _ = walk(p, i, &mut note, &IGA);
    let changed = note.changed;
    crate::text::annotate::write_diff(out, p, i, word, &base, changed, items)
}
