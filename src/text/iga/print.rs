//! The IGA-syntax printer: one instruction as `iga64 -d` prints it.
//!
//! Columns follow IGA's `BasicFormatter`: each column has a preferred
//! width; a column that overflows runs up a debt that the padding of the
//! later columns of the line pays back. Some text does not count towards
//! a column at all (IGA writes immediates, labels and SEND descriptors
//! past its counter): [`Cols::raw`]. The widths are IGA's
//! `ColumnPreferences`, which `COLUMNS` names.

use core::fmt::{self, Write};

use crate::isa::arf;
use crate::isa::region::VSTRIDE_VXH;
use crate::isa::Form;
use crate::isa::PRED_CONTROL_NONE;
use crate::model::*;

/// IGA's preferred column widths (`ColumnPreferences`).
struct Columns {
    predication: usize,
    op_exec: usize,
    flag_mod: usize,
    dst: usize,
    src: usize,
    send_dst: usize,
    send_src: usize,
    send_desc: usize,
}

const COLUMNS: Columns = Columns {
    predication: 7,
    op_exec: 13,
    flag_mod: 9,
    dst: 12,
    src: 16,
    send_dst: 7,
    send_src: 6,
    send_desc: 10,
};

/// Spaces for padding, in one piece.
const SPACES: &str = "                                                                ";

/// A writer with IGA's column accounting.
pub(crate) struct Cols<'w, W: Write + ?Sized> {
    out: &'w mut W,
    /// The open column's preferred width, if one is open.
    cap: Option<usize>,
    /// Counted characters written in the open column.
    size: usize,
    /// Overflow of earlier columns not yet paid back.
    debt: usize,
}

impl<'w, W: Write + ?Sized> Cols<'w, W> {
    pub(crate) fn new(out: &'w mut W) -> Self {
        Cols {
            out,
            cap: None,
            size: 0,
            debt: 0,
        }
    }

    /// Text that counts towards the column.
    #[inline]
    fn s(&mut self, t: &str) -> fmt::Result {
        self.size += t.len();
        self.out.write_str(t)
    }

    /// Counted text of up to four bytes (a name from a table), as a
    /// piece of known length ([`crate::decimal::write_short`]).
    #[inline]
    fn short(&mut self, t: &str) -> fmt::Result {
        self.size += t.len();
        crate::decimal::write_short(self.out, t)
    }

    /// Text that IGA writes past its column counter.
    #[inline]
    fn raw(&mut self, t: &str) -> fmt::Result {
        self.out.write_str(t)
    }

    /// A counted decimal number.
    fn dec(&mut self, v: u64) -> fmt::Result {
        crate::decimal::write_dec(self, v)
    }

    /// `n` counted spaces.
    fn spaces(&mut self, mut n: usize) -> fmt::Result {
        // Padding is shorter than `SPACES`: one piece, no loop.
        if let Some(t) = SPACES.get(..n) {
            return self.s(t);
        }
        while n > 0 {
            let k = n.min(SPACES.len());
            self.s(SPACES.get(..k).unwrap_or(""))?;
            n -= k;
        }
        Ok(())
    }

    fn start(&mut self, width: usize) {
        self.cap = Some(width);
        self.size = 0;
    }

    fn finish(&mut self) -> fmt::Result {
        self.finish_sep(0)
    }

    /// [`Self::finish`], then `sep` counted spaces: the separator before
    /// the next column, written with the padding in one piece.
    fn finish_sep(&mut self, sep: usize) -> fmt::Result {
        let cap = self.cap.take().unwrap_or(0);
        let mut pad = 0;
        if self.size <= cap {
            pad = cap - self.size;
            let pay = self.debt.min(pad);
            pad -= pay;
            self.debt -= pay;
        } else {
            self.debt += self.size - cap;
        }
        let n = pad + sep;
        match SPACES.get(..n) {
            Some(t) => self.out.write_str(t)?,
            None => self.spaces(n)?,
        }
        self.size = sep;
        Ok(())
    }
}

impl<W: Write + ?Sized> Write for Cols<'_, W> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.s(s)
    }
}

/// A writer that does not count (for [`Cols::raw`] numbers).
struct Raw<'a, 'w, W: Write + ?Sized>(&'a mut Cols<'w, W>);

impl<W: Write + ?Sized> Write for Raw<'_, '_, W> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.0.raw(s)
    }
}

/// IGA's `fmtHex`: `0x` and uppercase digits, zero-padded to `width`.
pub(crate) fn write_hex<W: Write + ?Sized>(o: &mut W, v: u64, width: usize) -> fmt::Result {
    crate::decimal::write_hex(o, v, width, true)
}

/// IGA's name of a type.
pub(crate) const fn type_name(t: Type) -> &'static str {
    match t {
        Type::UD => ":ud",
        Type::D => ":d",
        Type::UW => ":uw",
        Type::W => ":w",
        Type::UB => ":ub",
        Type::B => ":b",
        Type::DF => ":df",
        Type::F => ":f",
        Type::UQ => ":uq",
        Type::Q => ":q",
        Type::HF => ":hf",
        Type::V => ":v",
        Type::UV => ":uv",
        Type::VF => ":vf",
    }
}

/// IGA's name of a conditional modifier (flag modifier).
pub(crate) const fn cond_name(c: CondMod) -> &'static str {
    match c {
        CondMod::None => "",
        CondMod::Z => "eq",
        CondMod::Nz => "ne",
        CondMod::G => "gt",
        CondMod::Ge => "ge",
        CondMod::L => "lt",
        CondMod::Le => "le",
        CondMod::R => "r",
        CondMod::O => "ov",
        CondMod::U => "un",
    }
}

/// IGA's name of a math function (`math.inv`).
pub(crate) const fn math_name(f: MathFunction) -> &'static str {
    match f {
        MathFunction::None => "",
        MathFunction::Inv => "inv",
        MathFunction::Log => "log",
        MathFunction::Exp => "exp",
        MathFunction::Sqrt => "sqt",
        MathFunction::Rsq => "rsqt",
        MathFunction::Sin => "sin",
        MathFunction::Cos => "cos",
        MathFunction::Fdiv => "fdiv",
        MathFunction::Pow => "pow",
        MathFunction::IntDivQuotientAndRemainder => "idiv",
        MathFunction::IntDivQuotient => "iqot",
        MathFunction::IntDivRemainder => "irem",
        MathFunction::Invm => "invm",
        MathFunction::Rsqrtm => "rsqtm",
    }
}

/// IGA's name of a shared function, as its SEND comment writes it.
pub(crate) const fn sfid_name(s: u8) -> &'static str {
    match s {
        0 => "null",
        2 => "sampler",
        3 => "gateway",
        4 => "hdc.sampler",
        5 => "hdc.rc",
        6 => "hdc.urb",
        7 => "spawner",
        8 => "vme",
        9 => "hdc.ccdp",
        10 => "hdc.dc0",
        11 => "pi",
        12 => "hdc.dc1",
        13 => "cre",
        _ => "?",
    }
}

/// An architecture register class as IGA names it: name, whether the
/// number prints (when zero), whether the subregister prints (when zero).
pub(crate) struct ArfInfo {
    pub(crate) name: &'static str,
    pub(crate) numbered: bool,
    pub(crate) subregs: bool,
}

pub(crate) const fn arf_info(nr: u8) -> ArfInfo {
    let (name, numbered, subregs) = match arf::class(nr) {
        arf::NULL => ("null", false, false),
        arf::ADDRESS => ("a", true, true),
        arf::ACC => ("acc", true, true),
        arf::FLAG => ("f", true, true),
        arf::MASK => ("ce", false, true),
        arf::MASK_STACK => ("ms", true, true),
        arf::MASK_STACK_DEPTH => ("sp", true, true),
        arf::STATE => ("sr", true, true),
        arf::CONTROL => ("cr", true, true),
        arf::NOTIFICATION => ("n", true, true),
        arf::IP => ("ip", false, false),
        arf::TDR => ("tdr", true, true),
        arf::TIMESTAMP => ("tm", true, true),
        0xd0 => ("fc", true, true),
        0xe0 => ("arf14_", true, true),
        _ => ("dbg", true, true),
    };
    ArfInfo {
        name,
        numbered,
        subregs,
    }
}

/// The branch target of a jump of `raw` units of `op`'s jumps from the
/// instruction at byte `pc`.
pub(crate) fn target(p: Platform, op: Opcode, pc: i64, raw: i32) -> i64 {
    pc.saturating_add(i64::from(raw) * p.jump_unit_bytes(op))
}

/// `L<offset>` (`L_N<offset>` before the program), as IGA names a label.
pub(crate) fn write_label<W: Write + ?Sized>(o: &mut W, t: i64) -> fmt::Result {
    o.write_str(if t < 0 { "L_N" } else { "L" })?;
    crate::decimal::write_dec(o, t.unsigned_abs())
}

/// Whether IGA's text shows no execution size for the opcode.
pub(crate) const fn implicit_exec(op: Opcode) -> bool {
    matches!(op, Opcode::Nop | Opcode::Illegal | Opcode::Wait)
}

/// Whether the text shows no operand in the ALU form: the opcodes
/// without operands, and the branches other than those whose jumps print
/// as labels (`goto`, `join`, as Mesa's syntax does; `brd` and `brc`
/// print their own operands, but no destination: `Printer::brd_brc`).
pub(crate) fn no_operands(op: Opcode) -> bool {
    (matches!(op.form(), Form::Nullary) && op != Opcode::Wait) || (op.is_branch() && !crate::canon::shows_jip(op))
}

/// Whether the opcode is `call`, `calla` or `ret`, which IGA prints in
/// its branch forms (`Printer::call_ret`): no conditional modifier,
/// saturation or AccWrEn shown (IGA's `OpSpec` gives branches none).
/// (The opcodes of [`Form::Call`] and [`Form::Return`], named: every
/// word's printing and canonical form ask, and the table's form costs a
/// lookup; a test checks the two agree.)
#[inline(always)]
pub(crate) fn call_ret(op: Opcode) -> bool {
    matches!(op, Opcode::Calla | Opcode::Call | Opcode::Ret)
}

/// The conditional modifier the text shows (as a flag modifier), if any:
/// not on SEND (shared function) or MATH (function), nor on opcodes
/// without the field, nor an undefined code.
#[inline]
pub(crate) fn shown_cond(i: &Instruction) -> Option<CondMod> {
    let op = i.opcode;
    if op.is_send() || op == Opcode::Math || !op.form().has_cond_modifier_field() || no_operands(op) || call_ret(op) {
        return None;
    }
    match CondMod::from_hw(i.cond_modifier) {
        Some(CondMod::None) | None => None,
        c => c,
    }
}

/// Whether IGA shows the instruction's early-out flag, `(eo)f0.0`: MATH
/// INVM and RSQRTM write it (IGA's decoder: "math.inv and math.rsqrtm
/// both implicitly support EO"), where other instructions show a flag
/// modifier.
#[inline]
pub(crate) fn early_out(i: &Instruction) -> bool {
    i.opcode == Opcode::Math && i.is_math_macro()
}

/// Whether the instruction prints in IGA's math-macro form
/// (`r8.mme0:df`, no subregisters or regions): a macro instruction
/// ([`Instruction::is_math_macro`]) in align16 whose operands are direct
/// registers. Any other word of those opcodes prints as the ALU form,
/// its fields in the annotation.
pub(crate) fn macro_form(i: &Instruction) -> bool {
    let direct = |a: Addr| matches!(a, Addr::Direct { .. });
    // The cheap tests first: every word's printing and canonical form ask.
    i.is_math_macro() && i.access_mode == AccessMode::Align16 && direct(i.dst.addr) && {
        let n = if i.opcode.is_three_src() { 3 } else { shown_srcs(i) };
        i.src.iter().take(n).all(|s| !s.is_imm() && direct(s.addr))
    }
}

/// The specifier a macro operand's bits show: a register, or `nomme` for
/// bits that name none (the annotation keeps them).
pub(crate) fn shown_mme(bits: u8) -> MathMacro {
    MathMacro::from_hw(bits).unwrap_or(MathMacro::NoMme)
}

/// The access mode IGA's text stands for: align16 for 3-source
/// instructions (the only form they have here), align1 for the others
/// (IGA reads align16 operands as align1 ones).
pub(crate) fn text_mode(op: Opcode) -> AccessMode {
    if op.is_three_src() {
        AccessMode::Align16
    } else {
        AccessMode::Align1
    }
}

/// Whether source `k` is a register source that keeps only its file and
/// type: beside an immediate src0, and Haswell's `dim` (whose immediate
/// fills bits 127:64).
pub(crate) fn beside_imm(i: &Instruction, k: usize) -> bool {
    let dim = i.opcode == Opcode::Dim && k < 2 && i.src.get(k).is_some_and(|s| !s.is_imm());
    dim || (k == 1 && i.src[0].is_imm() && !i.src[1].is_imm() && i.opcode != Opcode::Jmpi)
}

/// A source region as the text shows it: an undefined vertical stride
/// code as 0, an undefined width code as 1 (IGA's syntax has no text for
/// them; the annotation keeps the word's code).
pub(crate) fn shown_region(r: Region) -> Region {
    use crate::isa::region::{vstride_defined, width_defined, VSTRIDE_0, WIDTH_1};
    Region {
        vstride: if r.vstride == VSTRIDE_VXH || vstride_defined(r.vstride) {
            r.vstride
        } else {
            VSTRIDE_0
        },
        width: if width_defined(r.width) { r.width } else { WIDTH_1 },
        hstride: r.hstride,
    }
}

/// How many sources the ALU form of the text shows (MATH: by function).
pub(crate) fn shown_srcs(i: &Instruction) -> usize {
    usize::from(match i.math_function() {
        Some(f) if i.opcode == Opcode::Math && f != MathFunction::None => f.num_srcs(),
        _ => crate::canon::shown_sources(i.opcode),
    })
}

/// The branches whose operands IGA prints as labels: (JIP, UIP).
#[inline]
pub(crate) fn label_operands(p: Platform, op: Opcode) -> (bool, bool) {
    (crate::canon::shows_jip(op), crate::canon::shows_uip(p, op))
}

/// The state of printing one instruction.
pub(crate) struct Printer<'a> {
    pub(crate) p: Platform,
    pub(crate) i: &'a Instruction,
    /// The instruction's byte offset, for branch labels.
    pub(crate) pc: i64,
}

impl Printer<'_> {
    /// The flag register: Gen7's 3-source instructions keep it in src1's
    /// swizzle bits as Mesa reads it; IGA reads the 3-source flag fields.
    fn flag(&self) -> FlagReg {
        self.i.flag
    }

    fn flag_text<W: Write + ?Sized>(&self, o: &mut Cols<'_, W>) -> fmt::Result {
        let f = self.flag();
        // The common flags in one piece.
        match (f.nr, f.subnr) {
            (0, 0) => o.s("f0.0"),
            (0, 1) => o.s("f0.1"),
            (1, 0) => o.s("f1.0"),
            (1, 1) => o.s("f1.1"),
            _ => {
                o.s("f")?;
                o.dec(f.nr.into())?;
                o.s(".")?;
                o.dec(f.subnr.into())
            }
        }
    }

    /// The line up to (not including) the options block and comment.
    pub(crate) fn body<W: Write + ?Sized>(&self, o: &mut Cols<'_, W>) -> fmt::Result {
        let i = self.i;
        let op = i.opcode;
        // Predication and NoMask.
        o.start(COLUMNS.predication);
        let pred = i.pred_control != PRED_CONTROL_NONE;
        // IGA's parser gives every jmpi NoMask (`canon`): a jmpi shows
        // `(W)`, its annotation a word without.
        let nomask = i.controls.contains(Controls::WE_ALL) || op == Opcode::Jmpi;
        if nomask || pred {
            o.s("(")?;
            if nomask {
                o.s("W")?;
                if pred {
                    o.s("&")?;
                }
            }
            if pred {
                if i.controls.contains(Controls::PRED_INV) {
                    o.s("~")?;
                }
                self.flag_text(o)?;
                match PredCtrl::from_hw(text_mode(op), i.pred_control) {
                    Some(PredCtrl::Normal | PredCtrl::Reserved(_)) | None => {}
                    Some(c) => {
                        o.s(".")?;
                        o.s(c.name())?;
                    }
                }
            }
            o.s(")")?;
        }
        o.finish_sep(1)?;
        // Mnemonic and execution size.
        o.start(COLUMNS.op_exec);
        o.short(op.name())?;
        if op == Opcode::Math {
            match MathFunction::from_hw(i.cond_modifier) {
                Some(MathFunction::None) | None => {}
                Some(f) => {
                    o.s(".")?;
                    o.short(math_name(f))?;
                }
            }
        } else if self.p.is_gen8()
            && matches!(op, Opcode::If | Opcode::Else | Opcode::Goto)
            && i.controls.contains(Controls::ACC_WR)
        {
            o.s(".b")?;
        }
        if implicit_exec(op) {
            o.s(" ")?;
        } else {
            // The common execution sizes and offsets in one piece.
            match (i.exec_size.channels(), i.first_channel()) {
                (1, 0) => o.s(" (1|M0)")?,
                (2, 0) => o.s(" (2|M0)")?,
                (4, 0) => o.s(" (4|M0)")?,
                (8, 0) => o.s(" (8|M0)")?,
                (16, 0) => o.s(" (16|M0)")?,
                (32, 0) => o.s(" (32|M0)")?,
                (8, 8) => o.s(" (8|M8)")?,
                (16, 16) => o.s(" (16|M16)")?,
                (n, m) => {
                    o.s(" (")?;
                    o.dec(n.into())?;
                    o.s("|M")?;
                    o.dec(m.into())?;
                    o.s(")")?;
                }
            }
        }
        o.finish_sep(1)?;
        // Flag modifier.
        o.start(COLUMNS.flag_mod);
        if let Some(c) = shown_cond(i) {
            o.s("(")?;
            o.short(cond_name(c))?;
            o.s(")")?;
            self.flag_text(o)?;
        } else if early_out(i) {
            o.s("(eo)")?;
            self.flag_text(o)?;
        }
        self.operands(o)
    }

    /// The flag-modifier column's end, and the operands: the column's
    /// padding is written with what follows it, the separator and (for
    /// the operands without one) the empty destination column.
    fn operands<W: Write + ?Sized>(&self, o: &mut Cols<'_, W>) -> fmt::Result {
        let i = self.i;
        let p = self.p;
        let op = i.opcode;
        // Most words have an operand form: told by one look at the
        // form, before the other forms' tests.
        let operand_form = matches!(
            op.form(),
            Form::Unary | Form::Binary | Form::Ternary | Form::Math | Form::Send
        );
        if !operand_form {
            let (jip, uip) = label_operands(p, op);
            if jip {
                // No destination: its column stays empty.
                o.finish_sep(COLUMNS.dst + 2)?;
                o.start(COLUMNS.src);
                write_label(&mut Raw(o), target(p, i.opcode, self.pc, i.jip(p).unwrap_or(0)))?;
                o.finish_sep(2)?;
                o.start(COLUMNS.src);
                if uip {
                    write_label(&mut Raw(o), target(p, i.opcode, self.pc, i.uip(p).unwrap_or(0)))?;
                }
                return o.finish();
            }
            if op.offsets_may_be_register() {
                o.finish_sep(COLUMNS.dst + 2)?;
                return self.brd_brc(o);
            }
            if no_operands(op) {
                return o.finish();
            }
            if op == Opcode::Jmpi {
                // The jump is the only operand IGA shows (src1 in the word).
                o.finish_sep(COLUMNS.dst + 2)?;
                // An immediate is the label of its target, the type where it
                // is not `:d`: IGA's decoder reads it as a label counted from
                // the jmpi (`Decoder::decodeBranchInstruction`: "jmpi is
                // stored post-increment; normalize it to pre-increment").
                if let Some(b) = i.label_jump(p) {
                    let size = if i.controls.contains(Controls::COMPACTED) {
                        crate::compact::COMPACT_BYTES
                    } else {
                        crate::compact::NATIVE_BYTES
                    };
                    o.start(COLUMNS.src);
                    write_label(&mut Raw(o), b.target(self.pc, size as i64))?;
                    if i.src[1].ty != crate::canon::IGA.typed_branch_src_type {
                        o.short(type_name(i.src[1].ty))?;
                    }
                    return o.finish();
                }
                return self.jmpi_reg(o);
            }
            if call_ret(op) {
                return self.call_ret(o);
            }
            if op == Opcode::Wait {
                o.finish_sep(COLUMNS.dst + 2)?;
                self.src(o, 0, COLUMNS.src, 0)?;
                o.start(COLUMNS.src);
                return o.finish();
            }
        }
        o.finish_sep(2)?;
        if op.is_send() {
            return self.send(o);
        }
        if op.is_three_src() {
            self.dst(o, COLUMNS.dst, 2)?;
            for k in 0..3 {
                self.src3(o, k, if k < 2 { 2 } else { 0 })?;
            }
            return Ok(());
        }
        let nsrc = shown_srcs(i);
        self.dst(o, COLUMNS.dst, if nsrc >= 1 { 2 } else { 0 })?;
        if nsrc >= 1 {
            self.src(o, 0, COLUMNS.src, if nsrc >= 2 { 2 } else { 0 })?;
        }
        if nsrc >= 2 {
            self.src(o, 1, COLUMNS.src, 0)?;
        } else {
            o.start(COLUMNS.src);
            o.finish()?;
        }
        Ok(())
    }

    /// `brd` and `brc` as IGA prints them (its `JUMP_UNARY_REGIMM` and
    /// `JUMP_BINARY_BRC` formats): no destination; src0 the register that
    /// holds the jump offsets, without region (`r11.1:ud`), or the JIP as
    /// a label; brc's src1 `null` beside a register, else the UIP label.
    /// A type shows where it is not IGA's implicit `:d` (a label has
    /// src0's type).
    fn brd_brc<W: Write + ?Sized>(&self, o: &mut Cols<'_, W>) -> fmt::Result {
        let (i, p) = (self.i, self.p);
        let s = &i.src[0];
        let ty = |o: &mut Cols<'_, W>| {
            if s.ty == crate::canon::IGA.typed_branch_src_type {
                Ok(())
            } else {
                o.short(type_name(s.ty))
            }
        };
        // The empty destination column: `Self::operands`.
        o.start(COLUMNS.src);
        if i.offsets_from_register() {
            self.mods(o, s.mods)?;
            match s.addr {
                Addr::Direct { nr, subnr } => Self::reg(o, s.file, nr, u32::from(subnr) / s.ty.size(), true)?,
                Addr::Indirect { subnr, imm } => Self::indirect(o, subnr, imm)?,
            }
        } else {
            write_label(&mut Raw(o), target(p, i.opcode, self.pc, i.jip(p).unwrap_or(0)))?;
        }
        ty(o)?;
        o.finish()?;
        if i.opcode != Opcode::Brc {
            o.start(COLUMNS.src);
            return o.finish();
        }
        o.s("  ")?;
        o.start(COLUMNS.src);
        match i.uip(p) {
            Some(u) => {
                write_label(&mut Raw(o), target(p, i.opcode, self.pc, u))?;
                ty(o)?;
            }
            None => Self::reg(o, RegFile::Arf, arf::NULL, 0, true)?,
        }
        o.finish()
    }

    /// The register a `jmpi` jumps by (src1), as IGA prints a branch's
    /// register: modifiers, the register, no region
    /// (`Formatter::formatSourceRegion`), the type where it is not `:d`.
    fn jmpi_reg<W: Write + ?Sized>(&self, o: &mut Cols<'_, W>) -> fmt::Result {
        let s = &self.i.src[1];
        o.start(COLUMNS.src);
        self.mods(o, s.mods)?;
        self.branch_operand(o, s)?;
        o.finish()
    }

    /// A branch's register (or immediate) source without region, and its
    /// type where it is not IGA's implicit `:d`.
    fn branch_operand<W: Write + ?Sized>(&self, o: &mut Cols<'_, W>, s: &Src) -> fmt::Result {
        if s.is_imm() {
            self.imm(o, s.ty)?;
        } else {
            match s.addr {
                Addr::Direct { nr, subnr } => Self::reg(o, s.file, nr, u32::from(subnr) / s.ty.size(), true)?,
                Addr::Indirect { subnr, imm } => Self::indirect(o, subnr, imm)?,
            }
        }
        if s.ty != crate::canon::IGA.typed_branch_src_type {
            o.short(type_name(s.ty))?;
        }
        Ok(())
    }

    /// `call`, `calla` and `ret` as IGA prints them (its
    /// `JUMP_UNARY_CALL_REGIMM` and `JUMP_UNARY_REG` formats,
    /// `Decoder::decodeBranchInstruction`): `call`'s destination (the
    /// return address) and ONE source, src1 in the word, the label of
    /// its immediate jump or its register; `ret`'s src0 alone (the null
    /// destination is implicit). IGA's formatter shows no region on a
    /// branch's source (`formatSourceRegion`), no `<1>` destination
    /// region and no `:d` type on these typed branches
    /// (`OpSpec::implicitDstRegion`, `implicitDstTypeVal`,
    /// `implicitSrcTypeVal`), and leaves one empty source column after
    /// the one source (`formatNormalInstructionBody`).
    fn call_ret<W: Write + ?Sized>(&self, o: &mut Cols<'_, W>) -> fmt::Result {
        let (i, p) = (self.i, self.p);
        let implicit = crate::canon::IGA.typed_branch_src_type;
        let s = if i.opcode.form() == Form::Return {
            // No destination: its column stays empty.
            o.finish_sep(COLUMNS.dst + 2)?;
            &i.src[0]
        } else {
            o.finish_sep(2)?;
            let d = &i.dst;
            o.start(COLUMNS.dst);
            match d.addr {
                Addr::Direct { nr, subnr } => Self::reg(o, d.file, nr, u32::from(subnr) / d.ty.size(), true)?,
                Addr::Indirect { subnr, imm } => Self::indirect(o, subnr, imm)?,
            }
            let h = if i.access_mode == AccessMode::Align16 {
                1
            } else {
                d.hstride_elems()
            };
            if h != 1 {
                o.s("<")?;
                o.dec(h.into())?;
                o.s(">")?;
            }
            if d.ty != implicit {
                o.short(type_name(d.ty))?;
            }
            o.finish_sep(2)?;
            &i.src[1]
        };
        o.start(COLUMNS.src);
        if let Some(b) = i.label_jump(p) {
            write_label(&mut Raw(o), b.target(self.pc, 0))?;
            if s.ty != implicit {
                o.short(type_name(s.ty))?;
            }
        } else {
            self.branch_operand(o, s)?;
        }
        o.finish()?;
        // The empty second source column.
        o.start(COLUMNS.src);
        o.finish()
    }

    /// A register name, number and subregister (`r12.3`, `null`, `acc0.0`).
    fn reg<W: Write + ?Sized>(o: &mut Cols<'_, W>, file: RegFile, nr: u8, sub: u32, show_sub: bool) -> fmt::Result {
        let subregs = match file {
            RegFile::Arf => {
                let a = arf_info(nr);
                o.short(a.name)?;
                let n = nr & arf::NUMBER_MAX;
                if n != 0 || a.numbered {
                    o.dec(n.into())?;
                }
                a.subregs
            }
            _ => {
                o.s("r")?;
                o.dec(nr.into())?;
                true
            }
        };
        if (show_sub && subregs) || sub != 0 {
            // `.0` to `.9` in one piece.
            const DOT_DIGITS: &str = ".0.1.2.3.4.5.6.7.8.9";
            match DOT_DIGITS.get(2 * sub as usize..2 * sub as usize + 2) {
                Some(t) if sub < 10 => o.s(t)?,
                _ => {
                    o.s(".")?;
                    o.dec(sub.into())?;
                }
            }
        }
        Ok(())
    }

    /// `r[a0.S,IMM]`.
    fn indirect<W: Write + ?Sized>(o: &mut Cols<'_, W>, subnr: u8, imm: i16) -> fmt::Result {
        o.s("r[a0.")?;
        o.dec(subnr.into())?;
        if imm != 0 {
            o.s(",")?;
            let mut r = Raw(o);
            write!(r, "{imm}")?;
        }
        o.s("]")
    }

    /// A math-macro operand: `r8.mme0` (IGA shows no subregister or
    /// region on them).
    fn macro_reg<W: Write + ?Sized>(o: &mut Cols<'_, W>, file: RegFile, addr: Addr, bits: u8) -> fmt::Result {
        let nr = match addr {
            Addr::Direct { nr, .. } => nr,
            Addr::Indirect { .. } => 0,
        };
        Self::reg(o, file, nr, 0, false)?;
        o.s(".")?;
        o.s(shown_mme(bits).name())
    }

    /// The destination column, and `sep` spaces after it.
    fn dst<W: Write + ?Sized>(&self, o: &mut Cols<'_, W>, width: usize, sep: usize) -> fmt::Result {
        let i = self.i;
        let d = &i.dst;
        o.start(width);
        if i.controls.contains(Controls::SATURATE) {
            o.s("(sat)")?;
        }
        if macro_form(i) {
            Self::macro_reg(o, d.file, d.addr, d.writemask.bits())?;
            o.short(type_name(d.ty))?;
            return o.finish_sep(sep);
        }
        match d.addr {
            Addr::Direct { nr, subnr } => {
                Self::reg(o, d.file, nr, u32::from(subnr) / d.ty.size(), true)?;
            }
            Addr::Indirect { subnr, imm } => Self::indirect(o, subnr, imm)?,
        }
        let h = if i.access_mode == AccessMode::Align16 {
            1
        } else {
            d.hstride_elems()
        };
        match h {
            1 => o.s("<1>")?,
            2 => o.s("<2>")?,
            4 => o.s("<4>")?,
            _ => {
                o.s("<")?;
                o.dec(h.into())?;
                o.s(">")?;
            }
        }
        o.short(type_name(d.ty))?;
        o.finish_sep(sep)
    }

    fn mods<W: Write + ?Sized>(&self, o: &mut Cols<'_, W>, m: SrcMods) -> fmt::Result {
        if m.contains(SrcMods::NEGATE) {
            o.s(crate::text::names::negate_modifier(self.p, self.i.opcode))?;
        }
        if m.contains(SrcMods::ABS) {
            o.s("(abs)")?;
        }
        Ok(())
    }

    fn region<W: Write + ?Sized>(&self, o: &mut Cols<'_, W>, s: &Src) -> fmt::Result {
        if self.i.access_mode == AccessMode::Align16 {
            // IGA reads an align16 operand as the align1 region it
            // stands for.
            return o.s("<1;1,0>");
        }
        Self::region_a1(o, s.region)
    }

    fn region_a1<W: Write + ?Sized>(o: &mut Cols<'_, W>, r: Region) -> fmt::Result {
        let r = shown_region(r);
        let w = r.width_elems().unwrap_or(1);
        let h = r.hstride_elems();
        if r.vstride != VSTRIDE_VXH {
            // The common regions in one piece.
            let t = match (r.vstride_elems().unwrap_or(0), w, h) {
                (0, 1, 0) => "<0;1,0>",
                (1, 1, 0) => "<1;1,0>",
                (4, 4, 1) => "<4;4,1>",
                (8, 8, 1) => "<8;8,1>",
                (16, 16, 1) => "<16;16,1>",
                (16, 8, 2) => "<16;8,2>",
                (8, 4, 2) => "<8;4,2>",
                (4, 1, 0) => "<4;1,0>",
                (2, 1, 0) => "<2;1,0>",
                (8, 1, 0) => "<8;1,0>",
                _ => "",
            };
            if !t.is_empty() {
                return o.s(t);
            }
        }
        o.s("<")?;
        if r.vstride != VSTRIDE_VXH {
            o.dec(r.vstride_elems().unwrap_or(0).into())?;
            o.s(";")?;
        }
        o.dec(w.into())?;
        o.s(",")?;
        o.dec(h.into())?;
        o.s(">")
    }

    /// Source `k`'s column, and `sep` spaces after it.
    fn src<W: Write + ?Sized>(&self, o: &mut Cols<'_, W>, k: usize, width: usize, sep: usize) -> fmt::Result {
        let Some(s) = self.i.src.get(k) else {
            return o.spaces(sep);
        };
        o.start(width);
        if s.is_imm() {
            self.imm(o, s.ty)?;
        } else if beside_imm(self.i, k) {
            // Only the file and type are in the word (the immediate fills
            // the rest): the register and region print as zero.
            let z = Src {
                file: s.file,
                ty: s.ty,
                ..Src::ZERO
            };
            Self::reg(o, z.file, 0, 0, true)?;
            Self::region_a1(o, z.region)?;
        } else if macro_form(self.i) {
            self.mods(o, s.mods)?;
            Self::macro_reg(o, s.file, s.addr, s.swizzle.0 & MathMacro::SWIZZLE_BITS)?;
        } else {
            self.mods(o, s.mods)?;
            match s.addr {
                Addr::Direct { nr, subnr } => Self::reg(o, s.file, nr, u32::from(subnr) / s.ty.size(), true)?,
                Addr::Indirect { subnr, imm } => Self::indirect(o, subnr, imm)?,
            }
            self.region(o, s)?;
        }
        o.short(type_name(s.ty))?;
        o.finish_sep(sep)
    }

    /// Bits 127:64 of the word, for 64-bit immediates.
    fn imm64(&self) -> u64 {
        if self.p.is_gen8() {
            self.i.imm
        } else {
            crate::codec::encode_word(self.p, self.i).map_or(self.i.imm & 0xffff_ffff, |w| (w.0 >> 64) as u64)
        }
    }

    fn imm<W: Write + ?Sized>(&self, o: &mut Cols<'_, W>, ty: Type) -> fmt::Result {
        let ud = self.i.imm as u32;
        let mut r = Raw(o);
        match ty {
            Type::B => write!(r, "{}", ud as u8 as i8),
            Type::W => write!(r, "{}", ud as u16 as i16),
            Type::D => write!(r, "{}", ud as i32),
            Type::Q => write!(r, "{}", self.imm64() as i64),
            Type::UB => write_hex(&mut r, u64::from(ud as u8), 0),
            Type::UW => write_hex(&mut r, u64::from(ud as u16), 0),
            Type::UD | Type::V | Type::UV | Type::VF => write_hex(&mut r, ud.into(), 0),
            Type::UQ => write_hex(&mut r, self.imm64(), 0),
            Type::F => super::float::write_f32(&mut r, ud),
            Type::DF => super::float::write_f64(&mut r, self.imm64()),
            Type::HF => super::float::write_f16(&mut r, ud as u16),
        }
    }

    /// A 3-source operand: IGA's align1 view of the align16 operand
    /// (`<2;1>` or the replicated `<0;0>`; src2 `<1>` or `<0>`).
    fn src3<W: Write + ?Sized>(&self, o: &mut Cols<'_, W>, k: usize, sep: usize) -> fmt::Result {
        let Some(s) = self.i.src.get(k) else {
            return o.spaces(sep);
        };
        o.start(COLUMNS.src);
        self.mods(o, s.mods)?;
        if macro_form(self.i) {
            Self::macro_reg(o, RegFile::Grf, s.addr, s.swizzle.0 & MathMacro::SWIZZLE_BITS)?;
            o.short(type_name(s.ty))?;
            return o.finish_sep(sep);
        }
        let (nr, subnr) = match s.addr {
            Addr::Direct { nr, subnr } => (nr, subnr),
            Addr::Indirect { .. } => (0, 0),
        };
        Self::reg(o, RegFile::Grf, nr, u32::from(subnr) / s.ty.size(), true)?;
        let scalar = s.region == Region::SCALAR;
        o.s(match (k, scalar) {
            (2, true) => "<0>",
            (2, false) => "<1>",
            (_, true) => "<0;0>",
            (_, false) => "<2;1>",
        })?;
        o.short(type_name(s.ty))?;
        o.finish_sep(sep)
    }

    /// SEND: destination and payload register without region, and the
    /// two descriptors.
    fn send<W: Write + ?Sized>(&self, o: &mut Cols<'_, W>) -> fmt::Result {
        let i = self.i;
        o.start(COLUMNS.send_dst);
        match i.dst.addr {
            Addr::Direct { nr, subnr } => Self::reg(o, i.dst.file, nr, u32::from(subnr) / i.dst.ty.size(), false)?,
            Addr::Indirect { subnr, imm } => Self::indirect(o, subnr, imm)?,
        }
        // Haswell's model has no implicit destination type for SEND.
        if i.dst.ty != Type::UD || !self.p.is_gen8() {
            o.short(type_name(i.dst.ty))?;
        }
        o.finish_sep(2)?;
        let s0 = &i.src[0];
        if s0.is_imm() {
            // A word no compiler writes: the payload as an immediate.
            self.src(o, 0, COLUMNS.send_src, 2)?;
        } else {
            o.start(COLUMNS.send_src);
            match s0.addr {
                Addr::Direct { nr, subnr } => Self::reg(o, s0.file, nr, u32::from(subnr) / s0.ty.size(), false)?,
                Addr::Indirect { subnr, imm } => Self::indirect(o, subnr, imm)?,
            }
            if s0.ty != Type::UD {
                o.short(type_name(s0.ty))?;
            }
            o.finish_sep(2)?;
        }
        o.start(COLUMNS.send_desc);
        write_hex(&mut Raw(o), ex_desc(i).into(), 0)?;
        o.finish_sep(2)?;
        o.start(COLUMNS.send_desc);
        match i.send_desc() {
            Some(d) => write_hex(&mut Raw(o), d.into(), 8)?,
            None => {
                o.s("a")?;
                let sub = match i.src[1].addr {
                    Addr::Direct { subnr, .. } => subnr,
                    Addr::Indirect { subnr, .. } => subnr,
                };
                let nr = match i.src[1].addr {
                    Addr::Direct { nr, .. } => nr & arf::NUMBER_MAX,
                    Addr::Indirect { .. } => 0,
                };
                o.dec(nr.into())?;
                o.s(".")?;
                o.dec(sub.into())?;
            }
        }
        o.finish()
    }

    /// The options block ` {...}`, if any option is set.
    pub(crate) fn options<W: Write + ?Sized>(&self, o: &mut Cols<'_, W>) -> fmt::Result {
        let i = self.i;
        let c = i.controls;
        let op = i.opcode;
        // Most instructions have none: no block to build.
        let any = c.intersects(
            Controls::ACC_WR
                .union(Controls::BREAKPOINT)
                .union(Controls::COMPACTED)
                .union(Controls::NO_DD_CHECK)
                .union(Controls::NO_DD_CLEAR),
        ) || matches!(i.thread_control, ThreadControl::Atomic | ThreadControl::Switch)
            || i.eot();
        if !any {
            return Ok(());
        }
        let branch_ctrl = self.p.is_gen8() && matches!(op, Opcode::If | Opcode::Else | Opcode::Goto);
        let opts: [(bool, &str); 8] = [
            (
                c.contains(Controls::ACC_WR) && !branch_ctrl && !op.is_send() && !call_ret(op),
                "AccWrEn",
            ),
            (i.thread_control == ThreadControl::Atomic, "Atomic"),
            (c.contains(Controls::BREAKPOINT), "Breakpoint"),
            (c.contains(Controls::COMPACTED), "Compacted"),
            (i.eot(), "EOT"),
            (c.contains(Controls::NO_DD_CHECK), "NoDDChk"),
            (c.contains(Controls::NO_DD_CLEAR), "NoDDClr"),
            (i.thread_control == ThreadControl::Switch, "Switch"),
        ];
        let mut first = true;
        for (on, name) in opts {
            if !on {
                continue;
            }
            o.raw(if first { " {" } else { "," })?;
            first = false;
            o.raw(name)?;
        }
        if !first {
            o.raw("}")?;
        }
        Ok(())
    }
}

/// The extended descriptor as IGA shows it: the shared function in bits
/// 3:0 and EOT in bit 5.
pub(crate) fn ex_desc(i: &Instruction) -> u32 {
    u32::from(i.cond_modifier & 0xf) | u32::from(i.eot()) << 5
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn call_ret_names_the_call_and_return_forms() {
        for &op in Opcode::ALL {
            assert_eq!(call_ret(op), matches!(op.form(), Form::Call | Form::Return), "{op}");
        }
    }
}
