//! The syntax tree of one statement, as the parser (`super::parse`)
//! writes it and lowering (`super::lower`) reads it: what the text says,
//! with where it says it, before anything is checked against the
//! opcode, access mode or platform.

use super::lex::Pos;
use crate::model::{ExecSize, MathFunction, Opcode, Sfid, ThreadControl, Type};

/// A number with where it was written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) struct Num {
    pub value: u64,
    pub pos: Pos,
}

/// A register name as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RegName {
    /// `g<n>` or `r<n>`.
    Grf(u8),
    /// `m<n>`: a message register, which Gen7+ maps to GRF n + 112.
    Mrf(u8),
    /// An architecture register, with its encoded number (`acc0` = 0x20).
    /// `bare` registers (`ip`, `tdr0`) may be written without region or
    /// type (Mesa prints them so).
    Arf { nr: u8, bare: bool },
}

/// The register, immediate or indirect address of an operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Base {
    /// A direct register with an optional subregister (in units of the
    /// operand's type).
    Reg { name: RegName, sub: Option<Num> },
    /// `g[a0.sub imm]`; `sub_words` for `g[a0.sub:uw imm]`, where `sub`
    /// is the address subregister itself (a0 has word subregisters), not
    /// in units of a destination's type.
    Indirect {
        sub: Option<Num>,
        sub_words: bool,
        imm: i64,
        imm_pos: Pos,
    },
    /// An immediate: the number as written and whether `-` preceded it.
    Imm { value: u64, neg: bool },
}

/// A region as written: up to three items, `VxH` in the first place.
/// Only the first `n` of `vals` are the region's (the parser writes a
/// region in place, and leaves those after them as they were).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Region {
    pub vals: [Num; 3],
    pub n: u8,
    pub vxh: bool,
    /// Bit k set: `vals[k]` is a raw field value from an `invalid` marker.
    pub raw: u8,
    pub pos: Pos,
}

impl Region {
    /// A placeholder, overwritten by the parser.
    pub(crate) const EMPTY: Region = Region {
        vals: [Num {
            value: 0,
            pos: Pos { offset: 0, line: 0 },
        }; 3],
        n: 0,
        vxh: false,
        raw: 0,
        pos: Pos { offset: 0, line: 0 },
    };
}

/// Channel letters after a `.`: a write mask (destination) or a
/// swizzle (source). Channels are 0..=3 for x..w.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Chans {
    pub ch: [u8; 4],
    pub n: u8,
    /// A math-macro specifier written in their place (`.mme0`,
    /// `.nomme`: geneu's extension, see [`crate::model::MathMacro`]).
    pub mme: Option<crate::model::MathMacro>,
    pub pos: Pos,
}

/// One operand as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Operand {
    pub pos: Pos,
    pub neg: bool,
    pub abs: bool,
    pub base: Base,
    pub region: Option<Region>,
    pub chans: Option<Chans>,
    pub ty: Option<(Type, Pos)>,
}

impl Operand {
    /// A placeholder, overwritten by the parser.
    pub const EMPTY: Operand = Operand {
        pos: Pos { offset: 0, line: 0 },
        neg: false,
        abs: false,
        base: Base::Imm { value: 0, neg: false },
        region: None,
        chans: None,
        ty: None,
    };
}

/// A flag subregister `f<nr>.<sub>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) struct Flag {
    pub nr: u8,
    pub sub: u8,
    pub pos: Pos,
}

/// `(+f0.0.any4h)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Predicate<'a> {
    pub inv: bool,
    pub flag: Flag,
    pub suffix: Option<(&'a str, Pos)>,
    /// A raw predicate control from an `invalid` marker, and whether the
    /// marker named align16.
    pub raw: Option<(Num, bool)>,
}

/// A jump target: a label or a raw offset in the platform's units.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Target<'a> {
    Label(&'a str, Pos),
    Offset(i64, Pos),
}

/// The operands, by instruction form.
// Operands live briefly on the stack, one statement at a time.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Operands<'a> {
    /// No operands (`nop`, `illegal`, `smov`).
    None,
    /// A destination and up to three sources.
    Alu { dst: Operand, src: [Option<Operand>; 3] },
    /// `send dst src0 [src1] desc sfid`.
    Send(SendOperands),
    /// `JIP: target [UIP: target]`.
    Branch {
        jip: Option<Target<'a>>,
        uip: Option<Target<'a>>,
    },
    /// `jmpi src`.
    Jmpi(Operand),
    /// `wait dst`.
    Wait(Operand),
}

/// A SEND's operands: `send dst src0 [src1] desc sfid`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SendOperands {
    pub dst: Operand,
    pub src0: Operand,
    pub src1: Option<Operand>,
    pub desc: Num,
    pub sfid: u8,
}

impl SendOperands {
    /// A placeholder, overwritten by the parser.
    pub(crate) const EMPTY: SendOperands = SendOperands {
        dst: Operand::EMPTY,
        src0: Operand::EMPTY,
        src1: None,
        desc: Num {
            value: 0,
            pos: Pos { offset: 0, line: 0 },
        },
        sfid: Sfid::Null.hw(),
    };
}

impl Operands<'_> {
    /// The destination and source slots of ALU operands, turning `self`
    /// into ALU operands first if it is not (operands are large: they are
    /// written in place). `None` never happens.
    #[inline]
    pub(crate) fn alu_slots(&mut self) -> Option<(&mut Operand, &mut [Option<Operand>; 3])> {
        if !matches!(self, Operands::Alu { .. }) {
            *self = Operands::Alu {
                dst: Operand::EMPTY,
                src: [None; 3],
            };
        }
        match self {
            Operands::Alu { dst, src } => Some((dst, src)),
            _ => None,
        }
    }

    /// [`Operands::alu_slots`] for SEND operands.
    #[inline]
    pub(crate) fn send_slots(&mut self) -> Option<&mut SendOperands> {
        if !matches!(self, Operands::Send(_)) {
            *self = Operands::Send(SendOperands::EMPTY);
        }
        match self {
            Operands::Send(s) => Some(s),
            _ => None,
        }
    }
}

/// The options block.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) struct Options {
    pub align16: bool,
    pub we_all: bool,
    pub no_dd_clear: bool,
    pub no_dd_check: bool,
    pub qtr: u8,
    pub nib: bool,
    pub thread: u8,
    pub acc_wr: bool,
    pub compacted: bool,
    pub breakpoint: bool,
    pub eot: bool,
    /// Where the block starts (for errors about its contents).
    pub pos: Pos,
}

/// One item of a field annotation, `name=value`, as written: the name
/// (resolved against the instruction's layout when it is lowered), the
/// value, and where each stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct RawItem<'a> {
    pub name: &'a str,
    pub pos: Pos,
    pub value: Num,
}

/// One instruction as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Inst<'a> {
    pub pos: Pos,
    pub opcode: Opcode,
    pub pred: Option<Predicate<'a>>,
    pub sat: bool,
    pub breakpoint: bool,
    /// Conditional modifier (hardware value) and where it was written.
    pub cmod: Option<(u8, Pos)>,
    /// The conditional modifier's flag, if written.
    pub cmod_flag: Option<Flag>,
    /// The math function's hardware value.
    pub math_fn: u8,
    pub exec: ExecSize,
    pub ops: Operands<'a>,
    pub opts: Options,
    /// Whether the statement has a field annotation `[name=value ...]`
    /// (see `super::hidden`); its items are the parser's
    /// [`super::parse::Parser::annotation`].
    pub annotated: bool,
}

impl Inst<'_> {
    /// A placeholder, overwritten by the parser.
    pub const EMPTY: Inst<'static> = Inst {
        pos: Pos { offset: 0, line: 0 },
        opcode: Opcode::Nop,
        pred: None,
        sat: false,
        breakpoint: false,
        cmod: None,
        cmod_flag: None,
        math_fn: MathFunction::None.hw(),
        exec: ExecSize::S1,
        ops: Operands::None,
        opts: Options {
            align16: false,
            we_all: false,
            no_dd_clear: false,
            no_dd_check: false,
            qtr: 0,
            nib: false,
            thread: ThreadControl::Normal.hw(),
            acc_wr: false,
            compacted: false,
            breakpoint: false,
            eot: false,
            pos: Pos { offset: 0, line: 0 },
        },
        annotated: false,
    };
}

/// A statement.
#[allow(clippy::large_enum_variant)] // transient, one at a time
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg(test)]
pub(crate) enum Stmt<'a> {
    /// `name:` — marks the next instruction's offset.
    Label(&'a str, Pos),
    /// An instruction.
    Inst(Inst<'a>),
}
