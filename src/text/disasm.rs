//! The disassembler: one instruction as Mesa's `brw_disasm.c` prints it,
//! column padding included.
//!
//! Mesa keeps a running column and pads operands to columns 16, 32, 48 and
//! 64 (UIP to 38). A pad always writes at least one space. Some text is
//! written without advancing the column (error messages of table look-ups,
//! the raw SEND descriptor, the indent of the SEND continuation line);
//! `Col` reproduces both kinds of output so that every space lands where
//! Mesa puts it.
//!
//! ```
//! use geneu::{decode, Platform};
//! let bytes = [0x01, 0x00, 0x60, 0x00, 0xe8, 0x3a, 0x20, 0x22,
//!              0x80, 0x01, 0x8d, 0x00, 0x00, 0x00, 0x00, 0x00];
//! let inst = decode(Platform::Gen8, &bytes).unwrap();
//! assert_eq!(
//!     inst.display(Platform::Gen8).to_string(),
//!     "mov(8)          g17<1>F         g12<8,8,1>F                     { align1 1Q };"
//! );
//! ```

use core::fmt::{self, Write};

use alloc::collections::BTreeMap;

use super::cfmt;
use super::names;
use crate::compact::NATIVE_BYTES;
use crate::isa::region::{HSTRIDE_0, HSTRIDE_1, VSTRIDE_0, VSTRIDE_4, VSTRIDE_8, WIDTH_1, WIDTH_4, WIDTH_8};
use crate::isa::{NIBBLE_CHANNELS, PRED_CONTROL_NONE, QUARTER_CHANNELS};
use crate::model::*;
use crate::word::fields::gen8_native;

/// Spaces written by [`Col::pad`]: enough to reach column 64, the last
/// of Mesa's columns, from the start of a line.
const SPACES: &str = "                                                                ";

/// A destination's `<H>`, the [`names::HSTRIDE`] text of each encoding
/// in one piece (three bytes at three times the encoding).
#[allow(clippy::panic)] // evaluated at compile time: a failure fails the build
const DST_HSTRIDE: &str = match core::str::from_utf8(&DST_HSTRIDE_BYTES) {
    Ok(s) => s,
    Err(_) => panic!("the stride texts are ASCII"),
};
#[allow(clippy::indexing_slicing)] // evaluated at compile time: an index out of range fails the build
const DST_HSTRIDE_BYTES: [u8; 12] = {
    let mut t = *b"<0><0><0><0>";
    let mut k = 0;
    while k < 4 {
        // Each horizontal stride text is one digit.
        assert!(names::HSTRIDE[k].len() == 1);
        t[3 * k + 1] = names::HSTRIDE[k].as_bytes()[0];
        k += 1;
    }
    t
};

/// The start of a SEND's second line: 16 spaces that count (the pad to
/// column 16 from the line's start) and 12 that Mesa does not count.
const SEND_INDENT: &str = "\n                            ";

/// A writer that tracks Mesa's output column, and whether the text shows
/// the instruction exactly.
pub(crate) struct Col<'w, W: Write + ?Sized> {
    out: &'w mut W,
    col: usize,
    /// Cleared where the printer rounds or drops a field (or prints a
    /// shape whose annotation is always decided by assembly): see
    /// [`Col::exact`].
    exact: bool,
}

impl<'w, W: Write + ?Sized> Col<'w, W> {
    /// Starts at column 0 of a fresh line.
    pub fn new(out: &'w mut W) -> Self {
        Col {
            out,
            col: 0,
            exact: true,
        }
    }

    /// Notes whether the text just written shows its field of the
    /// instruction `exactly`: not when it rounds a subregister, drops bits
    /// of a register number or leaves a field out. The annotation of an
    /// instruction printed exactly follows from whether it is canonical;
    /// any other is decided by assembling its text (conservative: a
    /// `false` only costs that assembly).
    #[inline]
    pub fn exact(&mut self, exactly: bool) {
        self.exact &= exactly;
    }

    /// Whether every field written so far was shown exactly.
    pub fn is_exact(&self) -> bool {
        self.exact
    }

    /// The current (counted) column.
    #[cfg(test)]
    pub fn column(&self) -> usize {
        self.col
    }

    /// Text that advances the column.
    #[inline]
    pub fn s(&mut self, t: &str) -> fmt::Result {
        self.col += t.len();
        self.out.write_str(t)
    }

    /// Short text (names of types, strides, opcodes, registers) as a
    /// copy of known length: see [`crate::decimal::write_short`].
    #[inline(always)]
    pub fn short(&mut self, t: &str) -> fmt::Result {
        crate::decimal::write_short(self, t)
    }

    /// Text that does not advance the column.
    #[inline]
    pub fn raw(&mut self, t: &str) -> fmt::Result {
        self.out.write_str(t)
    }

    /// Advances the column by `n` for text written elsewhere (for example
    /// by a helper that reports how much of its output counts).
    pub fn advance(&mut self, n: usize) {
        self.col += n;
    }

    /// The underlying writer, for text that must not be counted.
    pub fn inner(&mut self) -> &mut W {
        self.out
    }

    /// One space, then more until the column reaches `to` (one of Mesa's
    /// columns, at most 64: in one write).
    #[inline]
    pub fn pad(&mut self, to: usize) -> fmt::Result {
        debug_assert!(to <= SPACES.len());
        let n = to.saturating_sub(self.col).max(1);
        self.s(SPACES.get(..n).unwrap_or(SPACES))
    }

    /// Sets the column (after text written with [`Col::raw`]).
    pub fn set_column(&mut self, col: usize) {
        self.col = col;
    }

    /// An unsigned decimal number.
    #[inline]
    pub fn dec(&mut self, v: u64) -> fmt::Result {
        crate::decimal::write_dec(self, v)
    }

    /// A signed decimal number.
    #[inline]
    pub fn idec(&mut self, v: i64) -> fmt::Result {
        if v < 0 {
            self.s("-")?;
        }
        self.dec(v.unsigned_abs())
    }

    /// Lowercase hexadecimal, zero-padded to at least `width` digits: an
    /// odd first digit alone, then two digits at a time.
    #[inline]
    pub fn hex(&mut self, v: u64, width: usize) -> fmt::Result {
        let digits = (64 - v.leading_zeros() as usize).div_ceil(4).max(width).max(1);
        // The bits from digit `k` (0: the last) up; none past the value.
        let from = |k: usize| if k < 16 { v >> (4 * k) } else { 0 };
        let mut k = digits;
        if k % 2 == 1 {
            k -= 1;
            self.write_char(crate::decimal::hex_digit(from(k) as u8))?;
        }
        while k > 0 {
            k -= 2;
            self.s(crate::decimal::hex_pair(from(k) as u8))?;
        }
        Ok(())
    }

    /// Mesa's message for a value missing from a name table; not counted.
    pub fn invalid(&mut self, what: &str, v: u64) -> fmt::Result {
        write!(self.out, "*** invalid {what} value {v} ")
    }
}

impl<W: Write + ?Sized> Write for Col<'_, W> {
    #[inline]
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.s(s)
    }

    #[inline]
    fn write_char(&mut self, c: char) -> fmt::Result {
        self.col += c.len_utf8();
        self.out.write_char(c)
    }
}

pub use crate::canon::{shows_jip as prints_jip, shows_uip as prints_uip};

/// The byte offsets a branch at byte `offset` jumps to, as Mesa prints
/// them: `[JIP target, UIP target]`.
pub fn branch_targets(p: Platform, inst: &Instruction, offset: u64) -> [Option<i64>; 2] {
    let op = inst.opcode;
    // Mesa prints a UIP only beside a JIP.
    if !prints_jip(op) {
        return [None, None];
    }
    let base = i64::try_from(offset).unwrap_or(i64::MAX);
    // The model's reading of the offsets (`Instruction::branch_offsets`),
    // those Mesa prints.
    let Ok(found) = inst.branch_offsets(p) else {
        return [None, None];
    };
    let at = |field: OffsetField, shown: bool| {
        found
            .iter()
            .flatten()
            .find(|o| shown && o.field == field)
            .map(|o| o.target(base, NATIVE_BYTES as i64))
    };
    [
        at(OffsetField::Jip, prints_jip(op)),
        at(OffsetField::Uip, prints_uip(p, op)),
    ]
}

/// Branch labels of a program: the byte offsets that JIP/UIP point to,
/// numbered `LABEL0`, `LABEL1`, ... as Mesa numbers them (in instruction
/// order, each instruction's UIP target before its JIP target).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Labels {
    by_offset: BTreeMap<u64, u32>,
}

impl Labels {
    /// No labels.
    pub fn new() -> Self {
        Labels::default()
    }

    /// The labels of a program of `len` bytes, from its decoded
    /// instructions and their byte offsets. Only targets that are
    /// instruction boundaries inside the program or its end get a label;
    /// other jumps print as numbers.
    pub fn for_program<'a, I>(p: Platform, insts: I, len: u64) -> Self
    where
        I: IntoIterator<Item = (u64, &'a Instruction)>,
    {
        let mut l = Labels::new();
        for (offset, inst) in insts {
            l.add_targets(p, inst, offset, len);
        }
        l
    }

    /// Labels the targets of one instruction at byte `offset` of a program
    /// of `len` bytes of native words (nothing for an instruction that does
    /// not branch); [`Labels::for_program`] does this for every instruction
    /// in order.
    pub fn add_targets(&mut self, p: Platform, inst: &Instruction, offset: u64, len: u64) {
        self.add_targets_where(p, inst, offset, len, |t| t % NATIVE_BYTES as u64 == 0);
    }

    /// [`Labels::add_targets`] for a program whose instructions start at
    /// `starts` (ascending byte offsets: native and compacted instructions
    /// mixed).
    pub fn add_targets_at(&mut self, p: Platform, inst: &Instruction, offset: u64, starts: &[u64], len: u64) {
        self.add_targets_where(p, inst, offset, len, |t| starts.binary_search(&t).is_ok());
    }

    fn add_targets_where(
        &mut self,
        p: Platform,
        inst: &Instruction,
        offset: u64,
        len: u64,
        start: impl Fn(u64) -> bool,
    ) {
        if !inst.opcode.is_branch() {
            return;
        }
        let [jip, uip] = branch_targets(p, inst, offset);
        for t in [uip, jip].into_iter().flatten() {
            if let Ok(t) = u64::try_from(t) {
                if t == len || t < len && start(t) {
                    self.add(t);
                }
            }
        }
    }

    /// Gives the byte offset a label unless it has one; returns its number.
    pub fn add(&mut self, offset: u64) -> u32 {
        let n = u32::try_from(self.by_offset.len()).unwrap_or(u32::MAX);
        *self.by_offset.entry(offset).or_insert(n)
    }

    /// The label number at a byte offset.
    #[inline]
    pub fn get(&self, offset: u64) -> Option<u32> {
        self.by_offset.get(&offset).copied()
    }

    /// Number of labels.
    pub fn len(&self) -> usize {
        self.by_offset.len()
    }

    /// Whether there are no labels.
    pub fn is_empty(&self) -> bool {
        self.by_offset.is_empty()
    }

    /// `(byte offset, label number)`, by offset.
    pub fn iter(&self) -> impl Iterator<Item = (u64, u32)> + '_ {
        self.by_offset.iter().map(|(o, n)| (*o, *n))
    }
}

/// One instruction in Mesa's syntax: `Display` prints it exactly as Mesa's
/// disassembler does (a SEND takes two lines; no final newline).
///
/// Without labels, JIP and UIP print as signed numbers in the platform's
/// jump units (bytes on Gen8, 8-byte units on Gen7/7.5), as older Mesa
/// did; with [`Disasm::with_labels`] they print as `LABELn`.
#[derive(Clone, Copy, Debug)]
pub struct Disasm<'a> {
    platform: Platform,
    inst: &'a Instruction,
    labels: Option<(&'a Labels, u64)>,
    annotate: bool,
}

impl<'a> Disasm<'a> {
    /// An instruction on a platform.
    pub fn new(platform: Platform, inst: &'a Instruction) -> Self {
        Disasm {
            platform,
            inst,
            labels: None,
            annotate: true,
        }
    }

    /// Prints Mesa's text only, without the field annotation (see
    /// the `hidden` module) that keeps the bits Mesa's syntax does not show
    /// of a word Mesa's emitter would not produce: what Mesa itself prints.
    pub fn without_annotation(mut self) -> Self {
        self.annotate = false;
        self
    }

    /// Prints jumps as labels; `offset` is this instruction's byte offset
    /// in the program the labels belong to.
    pub fn with_labels(mut self, labels: &'a Labels, offset: u64) -> Self {
        self.labels = Some((labels, offset));
        self
    }

    /// Writes the text to any writer.
    pub fn write_to<W: Write + ?Sized>(&self, out: &mut W) -> fmt::Result {
        Printer {
            p: self.platform,
            i: self.inst,
            labels: self.labels,
            annotate: self.annotate,
        }
        .inst(&mut Col::new(out))
    }
}

impl fmt::Display for Disasm<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_to(f)
    }
}

impl Instruction {
    /// The instruction in Mesa's assembly syntax on `p` (see [`Disasm`]).
    pub fn display(&self, p: Platform) -> Disasm<'_> {
        Disasm::new(p, self)
    }
}

/// The state of printing one instruction.
struct Printer<'a> {
    p: Platform,
    i: &'a Instruction,
    labels: Option<(&'a Labels, u64)>,
    annotate: bool,
}

impl Printer<'_> {
    /// The flag register Mesa prints for predicates and conditional
    /// modifiers. Mesa reads the ordinary flag bits even for 3-source
    /// instructions; on Gen7/7.5 those bits (90, 89) are bits 4 and 3 of
    /// the src1 swizzle there, not the real 3-source flag fields.
    fn flag(&self) -> FlagReg {
        let i = self.i;
        if !self.p.is_gen8() && i.opcode.is_three_src() {
            i.src[1].swizzle.gen7_flag()
        } else {
            i.flag
        }
    }

    fn flag_text<W: Write + ?Sized>(&self, o: &mut Col<'_, W>) -> fmt::Result {
        let f = self.flag();
        o.s("f")?;
        o.dec(f.nr.into())?;
        o.s(".")?;
        o.dec(f.subnr.into())
    }

    fn inst<W: Write + ?Sized>(&self, o: &mut Col<'_, W>) -> fmt::Result {
        let i = self.i;
        let op = i.opcode;
        let c = i.controls;
        if i.pred_control != PRED_CONTROL_NONE {
            o.s(if c.contains(Controls::PRED_INV) { "(-" } else { "(+" })?;
            self.flag_text(o)?;
            match PredCtrl::from_hw(i.access_mode, i.pred_control) {
                Some(PredCtrl::Normal) => {}
                Some(c) => {
                    o.s(".")?;
                    o.s(c.name())?;
                }
                None => {
                    let what = match i.access_mode {
                        AccessMode::Align16 => "predicate control align16",
                        _ => "predicate control align1",
                    };
                    o.invalid(what, i.pred_control.into())?;
                }
            }
            o.s(") ")?;
        }
        o.short(op.name())?;
        let send = op.is_send();
        if !send && c.contains(Controls::SATURATE) {
            o.s(names::SUFFIX_SAT)?;
        }
        if c.contains(Controls::BREAKPOINT) {
            o.s(names::SUFFIX_BREAKPOINT)?;
        }
        if op == Opcode::Math {
            o.s(" ")?;
            match MathFunction::mesa_name_of_code(i.cond_modifier) {
                Some(name) => o.s(name)?,
                None => o.invalid("function", i.cond_modifier.into())?,
            }
        } else if !send {
            match CondMod::from_hw(i.cond_modifier) {
                Some(CondMod::None) => {}
                Some(m) => {
                    o.s(".")?;
                    o.short(m.name())?;
                }
                None => o.invalid("conditional modifier", i.cond_modifier.into())?,
            }
            if i.cond_modifier != CondMod::None.hw() && op.cond_modifier_writes_flag() {
                o.s(".")?;
                self.flag_text(o)?;
            }
        }
        if op != Opcode::Nop {
            crate::decimal::write_paren_dec(o, i.exec_size.channels().into())?;
        }
        // Haswell's `dim`: its immediate fills src1's bits; always checked.
        o.exact(op != Opcode::Dim);
        self.operands(o)?;
        if send {
            self.send_tail(o)?;
        }
        o.pad(64)?;
        let options = op != Opcode::Nop;
        if options {
            // Up to the closing ` }`, written with the `;` below.
            self.options(o)?;
        } else {
            // `nop` prints neither its execution size nor its options.
            o.exact(false);
        }
        let annotation = if self.annotate {
            let plain = |out: &mut alloc::string::String| Disasm::new(self.p, i).without_annotation().write_to(out);
            super::annotate::annotation(self.p, i, o.is_exact(), plain)
        } else {
            None
        };
        // The end of the line in as few pieces as it takes.
        match (options, annotation) {
            (true, None) => o.s(" };"),
            (false, None) => o.s(";"),
            (options, Some(a)) => {
                if options {
                    o.s(" }")?;
                }
                o.s(" [")?;
                o.s(&a)?;
                o.s("];")
            }
        }
    }

    fn operands<W: Write + ?Sized>(&self, o: &mut Col<'_, W>) -> fmt::Result {
        let i = self.i;
        let p = self.p;
        let op = i.opcode;
        if prints_jip(op) {
            o.pad(16)?;
            o.s("JIP: ")?;
            self.jump(o, i.jip(p), 0)?;
            if prints_uip(p, op) {
                o.pad(38)?;
                o.s("UIP: ")?;
                self.jump(o, i.uip(p), 1)?;
            }
            return Ok(());
        }
        if op == Opcode::Jmpi {
            o.pad(16)?;
            return self.src(o, 1);
        }
        // `brd`/`brc` reading their offsets from a register show it, with
        // the destination (Mesa prints no operand: it never emits them).
        if i.offsets_from_register() {
            o.pad(16)?;
            self.dst(o)?;
            o.pad(32)?;
            return self.src(o, 0);
        }
        if op.is_three_src() {
            if i.access_mode != AccessMode::Align16 {
                // Mesa prints no operands (no such word decodes).
                o.exact(false);
                return Ok(());
            }
            o.pad(16)?;
            self.dst3(o)?;
            o.pad(32)?;
            self.src3(o, 0)?;
            o.pad(48)?;
            self.src3(o, 1)?;
            o.pad(64)?;
            return self.src3(o, 2);
        }
        // `call`/`calla`/`ret` show the operands the hardware reads (Mesa
        // prints none).
        let nsrc = crate::canon::shown_sources(op);
        if nsrc > 0 || op == Opcode::Wait {
            o.pad(16)?;
            self.dst(o)?;
        }
        if nsrc > 0 {
            o.pad(32)?;
            self.src(o, 0)?;
        }
        if nsrc > 1 {
            o.pad(48)?;
            self.src(o, 1)?;
        }
        Ok(())
    }

    /// A jump: `LABELn` when the target has a label, else the raw offset.
    fn jump<W: Write + ?Sized>(&self, o: &mut Col<'_, W>, raw: Option<i32>, which: usize) -> fmt::Result {
        let raw = raw.unwrap_or(0);
        if let Some((labels, offset)) = self.labels {
            let t = branch_targets(self.p, self.i, offset);
            let n = t
                .get(which)
                .copied()
                .flatten()
                .and_then(|t| u64::try_from(t).ok())
                .and_then(|t| labels.get(t));
            if let Some(n) = n {
                o.s("LABEL")?;
                return o.dec(n.into());
            }
        }
        o.idec(raw.into())
    }

    /// A register name. `ip` and `tdr0`, which Mesa prints bare, are
    /// followed by their subregister, region and type like any register
    /// (the text's extension: their type and region are the word's).
    fn reg<W: Write + ?Sized>(o: &mut Col<'_, W>, file: RegFile, nr: u8) -> fmt::Result {
        match file {
            RegFile::Grf => {
                o.s(names::GRF_PREFIX)?;
                o.dec(nr.into())?;
            }
            RegFile::Arf => match names::arf_class(nr) {
                Some(a) => {
                    o.s(a.name)?;
                    let n = nr & crate::isa::arf::NUMBER_MAX;
                    if a.numbered {
                        o.dec(n.into())?;
                    } else {
                        // The bare name drops the number's low bits.
                        o.exact(n == 0);
                    }
                }
                None => {
                    o.s(names::ARF_UNKNOWN)?;
                    o.dec(nr.into())?;
                }
            },
            _ => {
                o.s("imm")?;
                o.dec(nr.into())?;
            }
        }
        Ok(())
    }

    /// `.N`, a subregister in units of the operand type.
    fn subreg<W: Write + ?Sized>(o: &mut Col<'_, W>, bytes: u8, ty: Type) -> fmt::Result {
        let n = Self::units(o, bytes, ty);
        o.s(".")?;
        o.dec(n.into())
    }

    /// A subregister of `bytes` in units of `ty`, as Mesa prints it,
    /// noting when that rounds it.
    #[inline]
    fn units<W: Write + ?Sized>(o: &mut Col<'_, W>, bytes: u8, ty: Type) -> u32 {
        let (bytes, size) = (u32::from(bytes), ty.size());
        let n = bytes / size;
        o.exact(n * size == bytes);
        n
    }

    fn hstride<W: Write + ?Sized>(o: &mut Col<'_, W>, h: u8) -> fmt::Result {
        o.short(names::HSTRIDE.get(usize::from(h)).copied().unwrap_or("0"))
    }

    fn dst<W: Write + ?Sized>(&self, o: &mut Col<'_, W>) -> fmt::Result {
        let d = &self.i.dst;
        let ty = d.ty;
        // An indirect destination's address subregister prints in units of
        // the type, as Mesa prints it, unless that rounds it.
        Self::operand_reg(o, d.file, d.addr, ty, true)?;
        if self.i.access_mode == AccessMode::Align16 {
            // An empty write mask prints as a bare `.`, which does not
            // read back.
            o.s("<1>")?;
            if let Some(m) = self.macro_dst() {
                o.s(".")?;
                o.s(m.name())?;
                return o.short(ty.name());
            }
            o.exact(!d.writemask.is_empty());
            o.s(names::WRITEMASK
                .get(usize::from(d.writemask.bits() & WriteMask::XYZW.bits()))
                .copied()
                .unwrap_or(""))?;
            return o.short(ty.name());
        }
        o.s(DST_HSTRIDE
            .get(3 * usize::from(d.hstride)..3 * usize::from(d.hstride) + 3)
            .unwrap_or("<0>"))?;
        o.short(ty.name())
    }

    /// The register of an operand: `gN.S` (or the ARF's name), or the
    /// indirect `g[a0.S IMM]` (also in align16, where Mesa prints "not
    /// supported": align1's form reads back). The indirect address
    /// subregister prints in units of `ty` when `sub_in_units` (the
    /// destination, as Mesa prints it; `g[a0.S:uw]`, the subregister
    /// itself, when that would round it), else as it is (sources).
    #[inline(always)]
    fn operand_reg<W: Write + ?Sized>(
        o: &mut Col<'_, W>,
        file: RegFile,
        addr: Addr,
        ty: Type,
        sub_in_units: bool,
    ) -> fmt::Result {
        match addr {
            Addr::Direct { nr, subnr } => {
                Self::reg(o, file, nr)?;
                if subnr != 0 {
                    Self::subreg(o, subnr, ty)?;
                }
                Ok(())
            }
            Addr::Indirect { subnr, imm } => Self::indirect(o, subnr, imm, ty, sub_in_units),
        }
    }

    /// The indirect register of [`Printer::operand_reg`] (rare: kept out
    /// of line, so that the direct one stays small).
    #[inline(never)]
    fn indirect<W: Write + ?Sized>(
        o: &mut Col<'_, W>,
        subnr: u8,
        imm: i16,
        ty: Type,
        sub_in_units: bool,
    ) -> fmt::Result {
        // Indirect operands have corners (align16, the address
        // immediate's sign): always checked.
        o.exact(false);
        o.s("g[a0")?;
        if subnr != 0 {
            if sub_in_units && u32::from(subnr) % ty.size() != 0 {
                // Mesa's form would round it: the subregister itself,
                // marked with its unit.
                o.s(".")?;
                o.dec(subnr.into())?;
                o.s(":")?;
                o.s(names::ADDR_SUB_UNIT)?;
            } else if sub_in_units {
                Self::subreg(o, subnr, ty)?;
            } else {
                o.s(".")?;
                o.dec(subnr.into())?;
            }
        }
        Self::addr_imm(o, imm)?;
        o.s("]")
    }

    /// ` N`: the address immediate as Mesa prints it, the raw unsigned
    /// 10-bit field.
    fn addr_imm<W: Write + ?Sized>(o: &mut Col<'_, W>, imm: i16) -> fmt::Result {
        let raw = (imm as u16) & 0x3ff;
        if raw != 0 {
            o.s(" ")?;
            o.dec(raw.into())?;
        }
        Ok(())
    }

    fn region<W: Write + ?Sized>(o: &mut Col<'_, W>, r: Region) -> fmt::Result {
        // The regions of most code, in one piece.
        let common = match (r.vstride, r.width, r.hstride) {
            (VSTRIDE_8, WIDTH_8, HSTRIDE_1) => Some("<8,8,1>"),
            (VSTRIDE_0, WIDTH_1, HSTRIDE_0) => Some("<0,1,0>"),
            (VSTRIDE_4, WIDTH_4, HSTRIDE_1) => Some("<4,4,1>"),
            _ => None,
        };
        if let Some(t) = common {
            return o.s(t);
        }
        Self::region_parts(o, r)
    }

    fn region_parts<W: Write + ?Sized>(o: &mut Col<'_, W>, r: Region) -> fmt::Result {
        o.s("<")?;
        Self::vstride(o, r.vstride)?;
        o.s(",")?;
        match names::WIDTH.get(usize::from(r.width)).copied().flatten() {
            Some(t) => o.short(t)?,
            None => o.invalid("width", r.width.into())?,
        }
        o.s(",")?;
        Self::hstride(o, r.hstride)?;
        o.s(">")
    }

    fn vstride<W: Write + ?Sized>(o: &mut Col<'_, W>, v: u8) -> fmt::Result {
        match names::VSTRIDE.get(usize::from(v)).copied().flatten() {
            Some(t) => o.short(t),
            None => o.invalid("vert stride", v.into()),
        }
    }

    /// A math macro's destination specifier, shown in the write mask's
    /// place (geneu's extension: `.mme0`-`.mme7`, `.nomme`).
    fn macro_dst(&self) -> Option<MathMacro> {
        self.i.is_math_macro().then(|| self.i.dst.math_macro()).flatten()
    }

    /// Source `s`'s math-macro specifier, shown in the swizzle's place;
    /// swizzle bits beyond it the text does not show.
    fn macro_src<W: Write + ?Sized>(&self, o: &mut Col<'_, W>, n: usize, s: &Src) -> Option<MathMacro> {
        let read = n < usize::from(self.i.num_srcs());
        let m = (read && self.i.is_math_macro()).then(|| s.math_macro()).flatten()?;
        o.exact(s.swizzle.0 & !MathMacro::SWIZZLE_BITS == 0);
        Some(m)
    }

    fn swizzle<W: Write + ?Sized>(o: &mut Col<'_, W>, s: Swizzle) -> fmt::Result {
        let ch = |k: u32| names::CHANNELS.get(usize::from(s.get(k))).copied().unwrap_or(b'x');
        let (x, y, z, w) = (ch(0), ch(1), ch(2), ch(3));
        if x == y && x == z && x == w {
            o.write_char('.')?;
            o.write_char(char::from(x))
        } else if s != Swizzle::XYZW {
            o.write_char('.')?;
            for c in [x, y, z, w] {
                o.write_char(char::from(c))?;
            }
            Ok(())
        } else {
            Ok(())
        }
    }

    fn src_mods<W: Write + ?Sized>(&self, o: &mut Col<'_, W>, m: SrcMods) -> fmt::Result {
        if m.contains(SrcMods::NEGATE) {
            o.s(names::negate_modifier(self.p, self.i.opcode))?;
        }
        if m.contains(SrcMods::ABS) {
            o.s(names::MOD_ABS)?;
        }
        Ok(())
    }

    fn src<W: Write + ?Sized>(&self, o: &mut Col<'_, W>, n: usize) -> fmt::Result {
        let Some(s) = self.i.src.get(n) else {
            return Ok(());
        };
        if s.is_imm() {
            return self.imm(o, s.ty);
        }
        let ty = s.ty;
        self.src_mods(o, s.mods)?;
        // A source's indirect address subregister prints in bytes.
        Self::operand_reg(o, s.file, s.addr, ty, false)?;
        if self.i.access_mode == AccessMode::Align16 {
            o.s("<")?;
            Self::vstride(o, s.region.vstride)?;
            o.s(">")?;
            match self.macro_src(o, n, s) {
                Some(m) => {
                    o.s(".")?;
                    o.s(m.name())?;
                }
                None => Self::swizzle(o, s.swizzle)?,
            }
            return o.short(ty.name());
        }
        Self::region(o, s.region)?;
        o.short(ty.name())
    }

    /// Bits 127:64 of the word, for the immediates that span them.
    fn imm64(&self) -> u64 {
        if self.p.is_gen8() {
            self.i.imm
        } else {
            // Gen7/7.5 keep bits 95:64 in src0's register fields (only
            // Haswell's `dim` reads them as part of its immediate).
            crate::codec::encode_word(self.p, self.i).map_or(self.i.imm & 0xffff_ffff, |w| (w.0 >> 64) as u64)
        }
    }

    fn imm<W: Write + ?Sized>(&self, o: &mut Col<'_, W>, ty: Type) -> fmt::Result {
        // Two immediates (a word no emitter writes): their bits overlap.
        o.exact(!(self.i.src[0].is_imm() && self.i.src[1].is_imm()));
        let ud = self.i.imm as u32;
        match ty {
            Type::UD => {
                o.s("0x")?;
                o.hex(ud.into(), 8)?;
            }
            Type::D => o.idec((ud as i32).into())?,
            Type::UW => {
                o.s("0x")?;
                o.hex(u64::from(ud as u16), 4)?;
            }
            Type::W => o.idec(i64::from(ud as u16 as i16))?,
            Type::UV | Type::V => {
                o.s("0x")?;
                o.hex(ud.into(), 8)?;
            }
            Type::VF => {
                o.s("0x")?;
                o.hex(ud.into(), 1)?;
                o.s("VF")?;
                o.pad(48)?;
                o.s("/* [")?;
                for (k, b) in ud.to_le_bytes().into_iter().enumerate() {
                    if k > 0 {
                        o.s(", ")?;
                    }
                    cfmt::write_g(o, f64::from(cfmt::vf_value(b)))?;
                    o.s("F")?;
                }
                return o.s("]VF */");
            }
            Type::F if self.i.opcode == Opcode::Dim => {
                let v = self.imm64();
                o.s("0x")?;
                o.hex(v, 1)?;
                o.s("F")?;
                o.pad(48)?;
                o.s("/* ")?;
                cfmt::write_g(o, f64::from_bits(v))?;
                return o.s("F */");
            }
            Type::F => {
                o.s("0x")?;
                o.hex(ud.into(), 1)?;
                o.s("F")?;
                o.pad(48)?;
                o.s(" /* ")?;
                cfmt::write_g_f32(o, ud)?;
                return o.s("F */");
            }
            Type::DF => {
                let v = self.imm64();
                o.s("0x")?;
                o.hex(v, 16)?;
                o.s("DF")?;
                o.pad(48)?;
                o.s("/* ")?;
                cfmt::write_g(o, f64::from_bits(v))?;
                return o.s("DF */");
            }
            Type::UQ | Type::Q => {
                o.s("0x")?;
                o.hex(self.imm64(), 16)?;
            }
            Type::HF => {
                o.s("0x")?;
                o.hex(u64::from(ud as u16), 4)?;
                o.s("HF")?;
                o.pad(48)?;
                o.s("/* ")?;
                cfmt::write_g_f32(o, cfmt::half_value(ud as u16).to_bits())?;
                return o.s("HF */");
            }
            Type::B | Type::UB => {
                let code = ty.reg_hw(self.p).unwrap_or(0);
                return write!(o, "*** invalid immediate type {code} ");
            }
        }
        o.short(ty.name())
    }

    fn dst3<W: Write + ?Sized>(&self, o: &mut Col<'_, W>) -> fmt::Result {
        let d = &self.i.dst;
        let (nr, subnr) = Self::direct3(o, d.addr);
        o.s(names::GRF_PREFIX)?;
        o.dec(nr.into())?;
        let n = Self::units(o, subnr, d.ty);
        if n != 0 {
            o.s(".")?;
            o.dec(n.into())?;
        }
        o.s("<1>")?;
        if let Some(m) = self.macro_dst() {
            o.s(".")?;
            o.s(m.name())?;
            return o.short(d.ty.name());
        }
        o.s(names::WRITEMASK
            .get(usize::from(d.writemask.bits() & WriteMask::XYZW.bits()))
            .copied()
            .unwrap_or(""))?;
        o.short(d.ty.name())
    }

    fn src3<W: Write + ?Sized>(&self, o: &mut Col<'_, W>, n: usize) -> fmt::Result {
        let Some(s) = self.i.src.get(n) else {
            return Ok(());
        };
        let k = n;
        // Mesa prints src0's type for all three sources.
        let ty = self.i.src[0].ty;
        o.exact(s.ty == ty);
        if s.mods.contains(SrcMods::NEGATE) {
            o.s("-")?;
        }
        if s.mods.contains(SrcMods::ABS) {
            o.s(names::MOD_ABS)?;
        }
        let (nr, subnr) = Self::direct3(o, s.addr);
        o.s(names::GRF_PREFIX)?;
        o.dec(nr.into())?;
        let n = Self::units(o, subnr, ty);
        let scalar = s.region == Region::SCALAR;
        if scalar || n != 0 {
            o.s(".")?;
            o.dec(n.into())?;
        }
        if scalar {
            o.s("<0,1,0>")?;
        } else {
            o.s("<4,4,1>")?;
            match self.macro_src(o, k, s) {
                Some(m) => {
                    o.s(".")?;
                    o.s(m.name())?;
                }
                None => Self::swizzle(o, s.swizzle)?,
            }
        }
        o.short(ty.name())
    }

    /// The register and subregister of a 3-source operand (no such
    /// operand is indirect: one would print as `g0`).
    fn direct3<W: Write + ?Sized>(o: &mut Col<'_, W>, addr: Addr) -> (u8, u8) {
        match addr {
            Addr::Direct { nr, subnr } => (nr, subnr),
            Addr::Indirect { .. } => {
                o.exact(false);
                (0, 0)
            }
        }
    }

    /// The rest of a SEND: descriptor dword and the `MsgDesc:` line.
    fn send_tail<W: Write + ?Sized>(&self, o: &mut Col<'_, W>) -> fmt::Result {
        let i = self.i;
        let imm_desc = i.src[1].is_imm();
        // An immediate payload or a register descriptor: always checked.
        o.exact(imm_desc && !i.src[0].is_imm());
        o.pad(48)?;
        let dw3 = if imm_desc {
            i.imm as u32
        } else {
            self.src(o, 1)?;
            o.pad(64)?;
            // DW3, bits 127:96 on every platform.
            crate::codec::encode_word(self.p, i).map_or(i.imm as u32, |w| gen8_native::imm32(&w))
        };
        o.s("0x")?;
        o.hex(dw3.into(), 8)?;
        o.raw(SEND_INDENT)?;
        o.set_column(16);
        let counted = crate::msg::write_msg_desc_counted(o.inner(), self.p, i)?;
        o.advance(counted);
        Ok(())
    }

    /// The options, `{ align1 ...` without the closing ` }` (which
    /// [`Printer::inst`] writes with what ends the line).
    fn options<W: Write + ?Sized>(&self, o: &mut Col<'_, W>) -> fmt::Result {
        let i = self.i;
        let c = i.controls;
        o.s("{ ")?;
        // Each name a constant (a copy of known length).
        match i.access_mode {
            AccessMode::Align1 => o.s(names::ACCESS_MODE[0])?,
            AccessMode::Align16 => o.s(names::ACCESS_MODE[1])?,
        }
        if c.contains(Controls::WE_ALL) {
            o.s(" ")?;
            o.s(names::OPT_WE_ALL)?;
        }
        let dep = usize::from(c.contains(Controls::NO_DD_CHECK)) << 1 | usize::from(c.contains(Controls::NO_DD_CLEAR));
        if dep != 0 {
            o.s(" ")?;
            o.s(names::DEP_CONTROL.get(dep).copied().unwrap_or(""))?;
        }
        let nib = u8::from(c.contains(Controls::NIB_CTRL));
        let q = i.qtr_control & QTR_CONTROL_MAX;
        match i.exec_size.channels() {
            e if e < 8 || nib != 0 => {
                o.s(" ")?;
                let first = u32::from(q) * QUARTER_CHANNELS + u32::from(nib) * NIBBLE_CHANNELS;
                o.dec(u64::from(first / NIBBLE_CHANNELS + 1))?;
                o.s("N")?;
            }
            8 => o.s(match q {
                0 => " 1Q",
                1 => " 2Q",
                2 => " 3Q",
                _ => " 4Q",
            })?,
            16 => {
                // The second and fourth quarters print as the half they
                // start.
                o.exact(q & 1 == 0);
                o.s(if q < 2 { " 1H" } else { " 2H" })?
            }
            // SIMD32 prints no quarter.
            _ => o.exact(q == 0),
        }
        if c.contains(Controls::COMPACTED) {
            o.s(" ")?;
            o.s(names::OPT_COMPACTED)?;
        }
        let tc = names::THREAD_CONTROL
            .get(usize::from(i.thread_control.hw()))
            .copied()
            .unwrap_or("");
        if !tc.is_empty() {
            o.s(" ")?;
            o.s(tc)?;
        }
        if c.contains(Controls::ACC_WR) {
            o.s(" ")?;
            o.s(if self.p.is_gen8() && matches!(i.opcode, Opcode::If | Opcode::Else) {
                names::OPT_BRANCH_CTRL
            } else {
                names::OPT_ACC_WR
            })?;
        }
        if i.eot() {
            o.s(" ")?;
            o.s(names::OPT_EOT)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use alloc::format;
    use alloc::string::String;

    use super::Col;

    #[test]
    fn common_regions_print_as_their_parts() {
        for vstride in 0..16 {
            for width in 0..8 {
                for hstride in 0..4 {
                    let r = crate::model::Region {
                        vstride,
                        width,
                        hstride,
                    };
                    let (mut a, mut b) = (String::new(), String::new());
                    let (mut x, mut y) = (Col::new(&mut a), Col::new(&mut b));
                    super::Printer::region(&mut x, r).unwrap();
                    super::Printer::region_parts(&mut y, r).unwrap();
                    assert_eq!(x.column(), y.column());
                    assert_eq!(a, b);
                }
            }
        }
    }

    #[test]
    fn hex_matches_core_fmt_and_counts_columns() {
        for v in [0u64, 1, 0xf, 0x10, 0xabc, 0xdead_beef, 1 << 63, u64::MAX] {
            for width in [0usize, 1, 4, 8, 16, 18] {
                let mut s = String::new();
                let mut o = Col::new(&mut s);
                o.hex(v, width).unwrap();
                let col = o.column();
                assert_eq!(s, format!("{v:0width$x}"), "{v:#x} width {width}");
                assert_eq!(col, s.len());
            }
        }
    }
}
