//! Recursive-descent parser for Mesa's EU assembly syntax.
//!
//! The parser pulls tokens from the [`Lexer`] one at a time (one token of
//! lookahead) and builds a small syntax tree per statement: a label
//! definition or an instruction. It checks the grammar only; what the
//! operands mean for a given opcode, access mode and platform is decided
//! when the tree is lowered to an [`crate::Instruction`] (see
//! [`super::asm`]).
//!
//! Grammar (whitespace and comments are insignificant):
//!
//! ```text
//! program     := { label | instruction ";" }
//! label       := IDENT ":"
//! instruction := [predicate] IDENT { "." suffix } [mathfn] [execsize] operands [options]
//! predicate   := "(" ["+" | "-"] flag { "." (NUMBER | IDENT) } ")"
//! suffix      := "sat" | "breakpoint" | condmod | flag ["." NUMBER]
//! execsize    := "(" NUMBER ")"
//! operands    := alu | send | branch | ...          (chosen by the opcode)
//! send        := dst src [src] ["-"] NUMBER sfid ["MsgDesc" ":" <text up to "{">]
//! branch      := ["JIP" ":" target] ["UIP" ":" target]
//! dst         := reg [region] ["." channels] TYPE
//! src         := ["-" | "~"] ["(" "abs" ")"] (reg [region] ["." channels] TYPE | ["-"] NUMBER TYPE)
//! reg         := IDENT ["." NUMBER] | ("g" | "r") "[" IDENT ["." NUMBER] [["+" | "-"] NUMBER] "]"
//! region      := "<" item { ("," | ";") item } ">"          item := NUMBER | "VxH"
//! options     := "{" { IDENT | NUMBER IDENT | "," } "}"
//! invalid     := "*" "*" "*" "invalid" IDENT { IDENT } "value" NUMBER
//! ```
//!
//! `invalid` is Mesa's marker for a field value that names nothing (`***
//! invalid conditional modifier value 10`): it stands where that field's
//! name would, for the predicate control, the conditional modifier, the
//! math function, a region's vertical stride or width and the shared
//! function, and gives the raw field value back.

use alloc::string::ToString;
use alloc::vec::Vec;

use super::asm::{AsmError, AsmErrorKind};
use super::lex::{ident_end, is_ident_char, off32, starts_ident, Kind, Lexer, Pos, RegionItems, Token};
use crate::model::{ExecSize, Opcode, Platform, ThreadControl, Type};

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
    /// `bare` registers (`ip`, `tdr0`) print without region or type.
    Arf { nr: u8, bare: bool },
}

/// The register, immediate or indirect address of an operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Base {
    /// A direct register with an optional subregister (in units of the
    /// operand's type).
    Reg { name: RegName, sub: Option<Num> },
    /// `g[a0.sub imm]`.
    Indirect { sub: Option<Num>, imm: i64, imm_pos: Pos },
    /// An immediate: the number as written and whether `-` preceded it.
    Imm { value: u64, neg: bool },
}

/// A region as written: up to three items, `VxH` in the first place.
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
    /// The region a plain (byte-level) path read, `<` at `pos`: its items
    /// lie on the same line.
    #[inline]
    fn plain((items, n): RegionItems, pos: Pos) -> Region {
        let mut r = Region {
            vals: [Num::default(); 3],
            n,
            vxh: false,
            raw: 0,
            pos,
        };
        for (v, (value, offset)) in r.vals.iter_mut().zip(items).take(usize::from(n)) {
            *v = Num {
                value,
                pos: Pos { offset, line: pos.line },
            };
        }
        r
    }
}

/// Channel letters after a `.`: a write mask (destination) or a
/// swizzle (source). Channels are 0..=3 for x..w.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Chans {
    pub ch: [u8; 4],
    pub n: u8,
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
    /// No operands (`nop`, `illegal`, `ret`, ...).
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
    const EMPTY: SendOperands = SendOperands {
        dst: Operand::EMPTY,
        src0: Operand::EMPTY,
        src1: None,
        desc: Num {
            value: 0,
            pos: Pos { offset: 0, line: 0 },
        },
        sfid: 0,
    };
}

impl Operands<'_> {
    /// The destination and source slots of ALU operands, turning `self`
    /// into ALU operands first if it is not (operands are large: they are
    /// written in place). `None` never happens.
    #[inline]
    fn alu_slots(&mut self) -> Option<(&mut Operand, &mut [Option<Operand>; 3])> {
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
    fn send_slots(&mut self) -> Option<&mut SendOperands> {
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
    /// Where a field annotation `[name=value ...]` starts (its `[`), if
    /// the statement has one (see `super::hidden`); lowering reads it.
    pub raw: Option<Pos>,
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
        math_fn: 0,
        exec: ExecSize::S1,
        ops: Operands::None,
        opts: Options {
            align16: false,
            we_all: false,
            no_dd_clear: false,
            no_dd_check: false,
            qtr: 0,
            nib: false,
            thread: 0,
            acc_wr: false,
            compacted: false,
            breakpoint: false,
            eot: false,
            pos: Pos { offset: 0, line: 0 },
        },
        raw: None,
    };
}

/// A statement.
#[allow(clippy::large_enum_variant)] // transient, one at a time
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg(any(test, feature = "check"))]
pub(crate) enum Stmt<'a> {
    /// `name:` — marks the next instruction's offset.
    Label(&'a str, Pos),
    /// An instruction.
    Inst(Inst<'a>),
}

type PResult<T> = Result<T, AsmError>;

/// Opcodes sorted by Mesa name, for binary search.
/// (A unit test checks that it is sorted and lists every opcode.)
const BY_NAME: &[Opcode] = {
    use Opcode::*;
    &[
        Add, Addc, And, Asr, Avg, Bfe, Bfi1, Bfi2, Bfrev, Brc, Brd, Break, Call, Calla, Cbit, Cmp, Cmpn, Cont, Csel,
        Dim, Dp2, Dp3, Dp4, Dph, Else, Endif, F16to32, F32to16, Fbh, Fbl, Frc, Goto, Halt, If, Illegal, Jmpi, Join,
        Line, Lrp, Lzd, Mac, Mach, Mad, Madm, Math, Mov, Movi, Mul, Nop, Not, Or, Pln, Ret, Rndd, Rnde, Rndu, Rndz,
        Sad2, Sada2, Sel, Send, Sendc, Shl, Shr, Smov, Subb, Wait, While, Xor,
    ]
};

/// For each lowercase first letter, the range of [`BY_NAME`] whose names
/// start with it.
// Evaluated at compile time: the indices are in range.
#[allow(clippy::indexing_slicing)]
const BY_FIRST: [(u8, u8); 26] = {
    let mut t = [(0u8, 0u8); 26];
    let mut i = 0;
    while i < BY_NAME.len() {
        let c = (BY_NAME[i].name().as_bytes()[0] - b'a') as usize;
        if t[c].1 == 0 {
            t[c].0 = i as u8;
        }
        t[c].1 = i as u8 + 1;
        i += 1;
    }
    t
};

/// A name of at most eight bytes as one integer (its bytes in order from
/// the lowest, zero-padded), so that names compare as integers; `None`
/// for a longer name.
const fn pack_name(s: &[u8]) -> Option<u64> {
    if s.len() > 8 {
        return None;
    }
    let mut v = 0u64;
    let mut rest = s;
    while let [init @ .., last] = rest {
        v = v << 8 | *last as u64;
        rest = init;
    }
    Some(v)
}

/// [`BY_NAME`]'s names packed by [`pack_name`] (every opcode name has at
/// most eight bytes: checked here at compile time).
// Evaluated at compile time: the indices are in range.
#[allow(clippy::indexing_slicing)]
const BY_NAME_PACKED: [u64; BY_NAME.len()] = {
    let mut t = [0u64; BY_NAME.len()];
    let mut i = 0;
    while i < BY_NAME.len() {
        t[i] = match pack_name(BY_NAME[i].name().as_bytes()) {
            Some(v) => v,
            None => panic!("an opcode name longer than eight bytes"),
        };
        i += 1;
    }
    t
};

/// The opcode named `s` (on any platform).
pub(crate) fn opcode_by_name(s: &str) -> Option<Opcode> {
    let first = *s.as_bytes().first()?;
    let &(from, to) = BY_FIRST.get(usize::from(first.wrapping_sub(b'a')))?;
    let key = pack_name(s.as_bytes())?;
    let range = usize::from(from)..usize::from(to);
    let k = BY_NAME_PACKED.get(range.clone())?.iter().position(|&v| v == key)?;
    BY_NAME.get(range.start + k).copied()
}

/// Conditional modifiers by name, with Mesa's aliases `e` and `ne`.
pub(crate) fn cond_mod_by_name(s: &str) -> Option<u8> {
    Some(match s {
        "z" | "e" => 1,
        "nz" | "ne" => 2,
        "g" => 3,
        "ge" => 4,
        "l" => 5,
        "le" => 6,
        "r" => 7,
        "o" => 8,
        "u" => 9,
        _ => return None,
    })
}

/// Math functions by name (hardware values).
pub(crate) fn math_fn_by_name(s: &str) -> Option<u8> {
    Some(match s {
        "inv" => 1,
        "log" => 2,
        "exp" => 3,
        "sqrt" => 4,
        "rsq" => 5,
        "sin" => 6,
        "cos" => 7,
        "sincos" => 8,
        "fdiv" => 9,
        "pow" => 10,
        "intdivmod" => 11,
        "intdiv" => 12,
        "intmod" => 13,
        "invm" => 14,
        "rsqrtm" => 15,
        _ => return None,
    })
}

/// Types by their suffix letters. `NF` is recognised so that it can be
/// refused with a clear message.
pub(crate) fn type_by_name(s: &str) -> Option<Option<Type>> {
    type_by_bytes(s.as_bytes())
}

/// [`type_by_name`] for the name's bytes.
#[inline]
fn type_by_bytes(s: &[u8]) -> Option<Option<Type>> {
    Some(Some(match s {
        b"UD" => Type::UD,
        b"D" => Type::D,
        b"UW" => Type::UW,
        b"W" => Type::W,
        b"UB" => Type::UB,
        b"B" => Type::B,
        b"DF" => Type::DF,
        b"F" => Type::F,
        b"UQ" => Type::UQ,
        b"Q" => Type::Q,
        b"HF" => Type::HF,
        b"V" => Type::V,
        b"UV" => Type::UV,
        b"VF" => Type::VF,
        b"NF" => return Some(None),
        _ => return None,
    }))
}

/// Splits `acc12` into `("acc", Some(12))`; `None` if the digits overflow.
fn split_digits(s: &str) -> (&str, Option<Option<u32>>) {
    let cut = s.bytes().position(|b| b.is_ascii_digit()).unwrap_or(s.len());
    let (name, digits) = s.split_at(cut);
    if digits.is_empty() {
        (name, None)
    } else if digits.bytes().all(|b| b.is_ascii_digit()) {
        (name, Some(digits.parse::<u32>().ok()))
    } else {
        (s, None)
    }
}

/// A GRF written plainly at byte `i`: `g` or `r` and one to three
/// decimal digits (at most 255), not followed by a letter, digit or `_`.
/// Gives the number and where the name ends.
#[inline(always)]
fn plain_grf(bytes: &[u8], i: usize) -> Option<(u8, usize)> {
    if !matches!(bytes.get(i), Some(b'g' | b'r')) {
        return None;
    }
    let (n, end) = plain_digits(bytes, i + 1)?;
    if bytes.get(end).is_some_and(|&c| is_ident_char(c)) {
        return None;
    }
    Some((u8::try_from(n).ok()?, end))
}

/// One to three decimal digits at byte `i`, read as they are scanned:
/// their value and where they end. `None` for no digit or more than three.
#[inline(always)]
fn plain_digits(bytes: &[u8], i: usize) -> Option<(u32, usize)> {
    let mut n = 0u32;
    let mut j = i;
    while let Some(d) = bytes.get(j).map(|b| b.wrapping_sub(b'0')).filter(|&d| d < 10) {
        if j - i == 3 {
            return None;
        }
        n = n * 10 + u32::from(d);
        j += 1;
    }
    (j > i).then_some((n, j))
}

/// A type written plainly at byte `i`: one or two letters (`F`, `UD`)
/// not followed by a letter, digit or `_`. Gives the type and where it
/// ends; `None` for anything else, `NF` included.
#[inline(always)]
fn plain_type(bytes: &[u8], i: usize) -> Option<(Type, usize)> {
    let word = |k: usize| bytes.get(k).is_some_and(|&c| is_ident_char(c));
    if !starts_ident(*bytes.get(i)?) {
        return None;
    }
    let end = if !word(i + 1) {
        i + 1
    } else if !word(i + 2) {
        i + 2
    } else {
        return None;
    };
    Some((type_by_bytes(bytes.get(i..end)?)??, end))
}

/// Message-descriptor shared-function names (single words).
fn sfid_by_name(s: &str) -> Option<u8> {
    Some(match s {
        "null" => 0,
        "math" => 1,
        "sampler" => 2,
        "gateway" => 3,
        "dp_sampler" | "read" => 4,
        "render" | "write" => 5,
        "urb" => 6,
        "thread_spawner" => 7,
        "vme" => 8,
        "const" => 9,
        "data" => 10,
        "cre" => 13,
        _ => return None,
    })
}

/// The shared functions named by more than one word, by their first: the
/// second word, whether `1` follows it (`dp data 1`), and the number.
fn multi_word_sfid(first: &str) -> Option<(&'static str, bool, u8)> {
    Some(match first {
        "pixel" => ("interp", false, 11),
        "rt" => ("accel", false, 8),
        "dp" => ("data", true, 12),
        _ => return None,
    })
}

/// A quarter control `<n><letter>` (`1Q`, `2H`, `3N`, ...): the new
/// quarter and nibble fields given the current options; `None` if it is
/// not one.
fn quarter(o: &Options, n: u64, letter: &[u8]) -> Option<(u8, bool)> {
    Some(match (n, letter) {
        (1, b"Q" | b"H" | b"N") => (o.qtr, o.nib),
        (2, b"Q") => (1, false),
        (3, b"Q") => (2, false),
        (4, b"Q") => (3, false),
        (2, b"H") => (2, false),
        (2, b"N") => (0, true),
        (3, b"N") => (1, false),
        (4, b"N") => (1, true),
        (5, b"N") => (2, false),
        (6, b"N") => (2, true),
        (7, b"N") => (3, false),
        (8, b"N") => (3, true),
        _ => return None,
    })
}

/// Applies the option named `s`; false if there is none.
fn named_option(o: &mut Options, s: &[u8]) -> bool {
    match s {
        b"align1" => o.align16 = false,
        b"align16" => o.align16 = true,
        b"WE_all" | b"nomask" => o.we_all = true,
        b"NoDDClr" => o.no_dd_clear = true,
        b"NoDDChk" => o.no_dd_check = true,
        b"switch" => o.thread |= ThreadControl::Switch.hw(),
        b"atomic" => o.thread |= ThreadControl::Atomic.hw(),
        b"AccWrEnable" | b"BranchCtrl" => o.acc_wr = true,
        b"compacted" => o.compacted = true,
        b"breakpoint" => o.breakpoint = true,
        b"EOT" => o.eot = true,
        // Pre-Gen6 compression spellings, as Mesa accepts them.
        b"sechalf" => o.qtr |= 1,
        b"compr" | b"compr4" => o.qtr |= 2,
        _ => return false,
    }
    true
}

/// Every statement of `src` and every error, as the parser reads them;
/// with `plain` off, the plain paths (which read plainly written text
/// straight from the bytes) are not taken, so that only the token grammar
/// reads the text. The two must give the same statements, positions
/// included, and the same errors: [`crate::check::assemble_no_panic`]
/// checks it on fuzzed text, and the tests on the corpus.
#[cfg(any(test, feature = "check"))]
pub(crate) fn statements(p: Platform, src: &str, plain: bool) -> (Vec<Stmt<'_>>, Vec<AsmError>) {
    let mut parser = Parser::at(p, src, 0, 1);
    parser.plain = plain;
    let mut out = Vec::new();
    // One instruction, overwritten statement after statement, as the
    // assembler does: what one statement leaves must not show in the next.
    let mut inst = Inst::EMPTY;
    while let Some(s) = parser.next_statement_into(&mut inst) {
        out.push(match s {
            Some((name, pos)) => Stmt::Label(name, pos),
            None => Stmt::Inst(inst),
        });
    }
    (out, parser.errors)
}

/// The shared function whose first word is `word` (just read by `l`),
/// then, with only spaces between, `MsgDesc:` and the free-form
/// description, which `l` skips up to the `{`, `;` or line end after it:
/// the shared function's number. `None` for anything else.
#[inline]
fn plain_description(word: &str, l: &mut Lexer<'_>) -> Option<u8> {
    let sfid = plain_sfid(word, l)?;
    if !l.plain_msg_desc_label() {
        return None;
    }
    l.skip_to_brace_or_line_end();
    Some(sfid)
}

/// The shared function whose first word is `word` (just read by `l`):
/// one word, or one of [`multi_word_sfid`]'s names, whose further words
/// `l` reads (with whitespace and comments between, as the token path
/// allows). `None` for anything else, a wrong second word included
/// (the token path reports it).
#[inline]
fn plain_sfid(word: &str, l: &mut Lexer<'_>) -> Option<u8> {
    if let Some(sfid) = sfid_by_name(word) {
        return Some(sfid);
    }
    let (second, one, sfid) = multi_word_sfid(word)?;
    l.skip_gap().ok()?;
    if l.plain_ident()? != second {
        return None;
    }
    if one {
        l.skip_gap().ok()?;
        let (n, _) = l.plain_number()?;
        if n != 1 {
            return None;
        }
    }
    Some(sfid)
}

/// How an opcode's operands are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Form {
    /// A destination and up to this many sources (MATH: two, the second
    /// optional).
    Alu(usize),
    /// `send dst src0 [src1] desc sfid`.
    Send,
    /// `wait dst`.
    Wait,
    /// `jmpi src`.
    Jmpi,
    /// `JIP: target [UIP: target]`.
    Branch,
    /// No operands.
    None,
}

/// The operand form of `op`.
#[inline]
fn form(op: Opcode) -> Form {
    use Opcode::*;
    match op {
        Send | Sendc => Form::Send,
        Wait => Form::Wait,
        Jmpi => Form::Jmpi,
        If | Else | Endif | While | Break | Cont | Halt | Goto | Join | Brd | Brc => Form::Branch,
        Nop | Illegal | Smov | Call | Calla | Ret => Form::None,
        Math => Form::Alu(2),
        _ => Form::Alu(usize::from(op.num_srcs())),
    }
}

/// The rest of a plainly written options block whose `{` is at `open`,
/// read from `l` (which stands right after the `{`) up to and including
/// the `}`; see [`Parser::plain_options`].
#[inline(always)]
fn plain_options_after(l: &mut Lexer<'_>, open: Pos) -> Option<Options> {
    let mut o = Options::default();
    plain_options_into(l, open, &mut o)?;
    Some(o)
}

/// [`plain_options_after`], written into `o` (in place: options returned
/// through an `Option` are read back wider than they were written, which
/// stalls). `o` is reset first; on `None` it holds part of the block.
#[inline(always)]
fn plain_options_into(l: &mut Lexer<'_>, open: Pos, o: &mut Options) -> Option<()> {
    *o = Options {
        pos: open,
        ..Options::default()
    };
    loop {
        let w = l.plain_word()?;
        match w {
            b"}" => return Some(()),
            &[d @ b'1'..=b'8', _] => {
                (o.qtr, o.nib) = quarter(o, u64::from(d - b'0'), w.get(1..)?)?;
            }
            _ => {
                if !named_option(o, w) {
                    return None;
                }
            }
        }
    }
}

const EXPECT_SRC: &str = "a source operand (register or immediate)";
const EXPECT_TYPE: &str = "a type such as `F`, `UD` or `W`";
const EXPECT_OPTION: &str =
    "an instruction option (align1, align16, WE_all, NoDDClr, NoDDChk, 1Q..4Q, 1H, 2H, 1N..8N, switch, atomic, AccWrEnable, BranchCtrl, compacted, breakpoint, EOT) or `}`";

/// The parser.
pub(crate) struct Parser<'a> {
    lex: Lexer<'a>,
    tok: Token<'a>,
    /// Line of the last token consumed.
    prev_line: u32,
    platform: Platform,
    /// Whether the plain paths may read plainly written text straight from
    /// the bytes (always, but in the tests that check them against the
    /// token grammar: see [`statements`]).
    plain: bool,
    /// Errors found so far, in order.
    pub errors: Vec<AsmError>,
}

impl<'a> Parser<'a> {
    /// A parser over `src` for platform `p`.
    #[cfg(test)]
    pub fn new(p: Platform, src: &'a str) -> Self {
        Self::at(p, src, 0, 1)
    }

    /// A parser over `src` from byte `offset`, which is on line `line`.
    pub fn at(p: Platform, src: &'a str, offset: usize, line: u32) -> Self {
        let mut lex = Lexer::at(src, offset, line);
        let tok = lex.next_token();
        Parser {
            lex,
            tok,
            prev_line: 1,
            platform: p,
            plain: true,
            errors: Vec::new(),
        }
    }

    /// The source text.
    pub fn source(&self) -> &'a str {
        self.lex.source()
    }

    /// Where the current (not yet consumed) token starts: after a
    /// statement, the point from which parsing the rest of the text gives
    /// what parsing on would.
    pub fn resume_point(&self) -> Pos {
        self.tok.pos
    }

    #[inline]
    fn bump(&mut self) -> Token<'a> {
        let t = self.tok;
        self.prev_line = t.pos.line;
        self.lex.next_token_into(&mut self.tok);
        t
    }

    /// Takes `l`, a copy of the lexer that a plain (byte-level) path moved
    /// past the current token and what follows it, and reads on from
    /// there, as [`Parser::bump`] does: the current token's line becomes
    /// the previous line (a caller that read past further lines sets it
    /// after).
    #[inline]
    fn commit(&mut self, l: Lexer<'a>) {
        self.lex = l;
        self.bump();
    }

    /// The token after the current one.
    fn peek(&self) -> Token<'a> {
        let mut l = self.lex;
        l.next_token()
    }

    /// An error at `pos` of the given kind.
    pub fn error_at(&self, pos: Pos, kind: AsmErrorKind) -> AsmError {
        AsmError::new(self.source(), pos, kind)
    }

    /// "unexpected <current token>, expected <what>".
    fn unexpected(&self, expected: &'static str) -> AsmError {
        let t = self.tok;
        let kind = match t.kind {
            Kind::BadChar => AsmErrorKind::BadChar {
                found: t.text.into(),
                expected,
            },
            Kind::BadNumber => AsmErrorKind::NumberTooLarge(t.text.into()),
            Kind::UnterminatedComment => AsmErrorKind::UnterminatedComment,
            _ => AsmErrorKind::Unexpected {
                found: t.to_string(),
                expected,
            },
        };
        self.error_at(t.pos, kind)
    }

    #[inline]
    fn eat(&mut self, k: Kind) -> bool {
        if self.tok.kind == k {
            self.bump();
            true
        } else {
            false
        }
    }

    #[inline]
    fn expect(&mut self, k: Kind, what: &'static str) -> PResult<Token<'a>> {
        if self.tok.kind == k {
            Ok(self.bump())
        } else {
            Err(self.unexpected(what))
        }
    }

    /// The current identifier, mapped by `f`; consumed only if it maps, so
    /// that an error leaves it for recovery.
    fn ident_as<T>(&mut self, expected: &'static str, f: impl FnOnce(&'a str) -> Option<T>) -> PResult<(T, Token<'a>)> {
        let t = self.tok;
        if t.kind == Kind::Ident {
            if let Some(v) = f(t.text) {
                self.bump();
                return Ok((v, t));
            }
        }
        Err(self.unexpected(expected))
    }

    fn number(&mut self, what: &'static str) -> PResult<Num> {
        let t = self.expect(Kind::Number, what)?;
        Ok(Num {
            value: t.value,
            pos: t.pos,
        })
    }

    /// Whether the current token could start a statement: used to resume
    /// after an error at the start of a line.
    fn at_statement_start(&self) -> bool {
        match self.tok.kind {
            Kind::LParen => true,
            Kind::Ident => {
                let next = self.peek();
                next.kind == Kind::Colon || (opcode_by_name(self.tok.text).is_some() && !next.is_ident("MsgDesc"))
            }
            _ => false,
        }
    }

    /// Skips to the end of the broken statement: past the next `;`, or to
    /// a token that starts a new statement on a later line.
    fn recover(&mut self, stmt_start: u32) {
        if self.tok.pos.offset == stmt_start && self.tok.kind != Kind::Eof {
            self.bump();
        }
        // The line of the broken statement's last token read (taken after
        // the statement has read at least one, so that it never depends
        // on where parsing began: a text cut in pieces recovers as whole).
        let line = self.prev_line;
        loop {
            match self.tok.kind {
                Kind::Eof => return,
                Kind::Semi => {
                    self.bump();
                    return;
                }
                _ if self.tok.pos.line > line && self.at_statement_start() => return,
                Kind::UnterminatedComment => {
                    // Reported once, where it starts; the rest is comment.
                    let e = self.unexpected("");
                    self.errors.push(e);
                    self.bump();
                }
                _ => {
                    self.bump();
                }
            }
        }
    }

    /// The next statement, or `None` at the end of input. Errors are
    /// recorded in [`Parser::errors`] and parsing resumes after them.
    #[cfg(test)]
    pub fn next_statement(&mut self) -> Option<Stmt<'a>> {
        let mut inst = Inst::EMPTY;
        Some(match self.next_statement_into(&mut inst)? {
            Some(label) => Stmt::Label(label.0, label.1),
            None => Stmt::Inst(inst),
        })
    }

    /// The next statement, or `None` at the end of input: `Some(Some(..))`
    /// for a label (its name and position), `Some(None)` for an
    /// instruction, written into `inst` (in place: it is large). Errors
    /// are recorded in [`Parser::errors`] and parsing resumes after them.
    pub fn next_statement_into(&mut self, inst: &mut Inst<'a>) -> Option<Option<(&'a str, Pos)>> {
        loop {
            if self.tok.kind == Kind::Eof {
                return None;
            }
            let start = self.tok.pos.offset;
            // `name(` (an instruction's head) is no label: no look ahead.
            let r = if self.tok.kind == Kind::Ident
                && self.lex.peek_byte() != Some(b'(')
                && self.lex.peek_kind() == Kind::Colon
            {
                let t = self.bump();
                self.bump();
                return Some(Some((t.text, t.pos)));
            } else {
                self.instruction(inst)
            };
            match r {
                Ok(()) => return Some(None),
                Err(e) => {
                    self.errors.push(e);
                    self.recover(start);
                }
            }
        }
    }

    /// Mesa's `*** invalid <words> value N` marker, whose words must be
    /// `words` (any of `alt` standing for a `""` in it); gives `N` and
    /// which of `alt` was written.
    fn invalid_marker(&mut self, words: &[&str], alt: &[&str], expected: &'static str) -> PResult<(Num, usize)> {
        for _ in 0..3 {
            self.expect(Kind::Star, expected)?;
        }
        let mut which = 0;
        let mut word = |p: &mut Self, w: &str| -> PResult<()> {
            let t = p.tok;
            let alt_k = if w.is_empty() {
                alt.iter().position(|&a| a == t.text)
            } else {
                None
            };
            if t.kind == Kind::Ident && (t.text == w || alt_k.is_some()) {
                which = alt_k.unwrap_or(which);
                p.bump();
                Ok(())
            } else {
                Err(p.unexpected(expected))
            }
        };
        word(self, "invalid")?;
        for &w in words {
            word(self, w)?;
        }
        word(self, "value")?;
        Ok((self.number(expected)?, which))
    }

    /// A flag register name `f0` or `f1`.
    fn flag_reg(&mut self) -> PResult<Flag> {
        let (nr, t) = self.ident_as("a flag register `f0` or `f1`", |s| match s {
            "f0" => Some(0),
            "f1" => Some(1),
            _ => None,
        })?;
        Ok(Flag { nr, sub: 0, pos: t.pos })
    }

    /// A 4-bit field value from an `invalid` marker.
    fn nibble(&self, n: Num) -> PResult<u8> {
        u8::try_from(n.value).ok().filter(|&v| v < 16).ok_or_else(|| {
            self.error_at(
                n.pos,
                AsmErrorKind::OutOfRange {
                    what: "field value",
                    value: i64::try_from(n.value).unwrap_or(i64::MAX),
                    range: "0..=15",
                },
            )
        })
    }

    fn flag_sub(&mut self, f: &mut Flag) -> PResult<()> {
        let n = self.number("a flag subregister number")?;
        if n.value > 1 {
            return Err(self.error_at(
                n.pos,
                AsmErrorKind::OutOfRange {
                    what: "flag subregister",
                    value: n.value as i64,
                    range: "0..=1",
                },
            ));
        }
        f.sub = n.value as u8;
        Ok(())
    }

    fn predicate(&mut self) -> PResult<Predicate<'a>> {
        self.expect(Kind::LParen, "`(`")?;
        let inv = if self.eat(Kind::Minus) {
            true
        } else {
            self.eat(Kind::Plus);
            false
        };
        let mut flag = self.flag_reg()?;
        let mut suffix = None;
        let mut raw = None;
        while self.eat(Kind::Dot) {
            if self.tok.kind == Kind::Number && suffix.is_none() {
                self.flag_sub(&mut flag)?;
            } else if self.tok.kind == Kind::Ident && suffix.is_none() {
                let s = self.bump();
                suffix = Some((s.text, s.pos));
            } else {
                return Err(self.unexpected("a flag subregister or a predicate control such as `any4h` or `x`"));
            }
        }
        if self.tok.kind == Kind::Star && suffix.is_none() {
            let (n, which) = self.invalid_marker(
                &["predicate", "control", ""],
                &["align1", "align16"],
                "`*** invalid predicate control alignN value N`",
            )?;
            raw = Some((n, which == 1));
            if let Some((n, _)) = raw {
                self.nibble(n)?;
            }
        }
        self.expect(Kind::RParen, "`)` closing the predicate")?;
        Ok(Predicate { inv, flag, suffix, raw })
    }

    fn instruction(&mut self, inst: &mut Inst<'a>) -> PResult<()> {
        let pos = self.tok.pos;
        let pred = if self.tok.kind == Kind::LParen {
            Some(self.predicate()?)
        } else {
            None
        };
        let t = self.tok;
        if t.kind != Kind::Ident {
            return Err(self.unexpected("an opcode"));
        }
        let opcode = match opcode_by_name(t.text) {
            Some(op) if op.exists_on(self.platform) => op,
            // dim and smov share a name slot with each other's number;
            // look for the one that exists here.
            // The name is consumed: recovery goes on after it.
            Some(op) => {
                self.bump();
                return Err(self.error_at(
                    t.pos,
                    AsmErrorKind::NotOnPlatform {
                        opcode: op,
                        platform: self.platform,
                    },
                ));
            }
            None => {
                self.bump();
                return Err(self.error_at(t.pos, AsmErrorKind::UnknownOpcode(t.text.into())));
            }
        };
        inst.pos = pos;
        inst.opcode = opcode;
        inst.pred = pred;
        inst.sat = false;
        inst.breakpoint = false;
        inst.cmod = None;
        inst.cmod_flag = None;
        inst.math_fn = 0;
        inst.exec = ExecSize::S1;
        inst.opts = Options::default();
        inst.raw = None;
        // `name(8)`, the commonest head: read from the bytes, straight on
        // to the operands.
        if self.plain && opcode != Opcode::Math && self.lex.peek_byte() == Some(b'(') {
            let mut l = self.lex;
            l.seek_on_line(l.offset() + 1);
            match self.plain_exec_size_and_tail(inst, l) {
                Some(true) => return Ok(()),
                Some(false) => return self.operands_and_options(inst),
                None => {}
            }
        }
        self.bump();
        self.suffixes(inst)?;
        if opcode == Opcode::Math && self.tok.kind == Kind::Star {
            let (n, _) = self.invalid_marker(&["function"], &[], "`*** invalid function value N`")?;
            inst.math_fn = self.nibble(n)?;
        } else if opcode == Opcode::Math {
            inst.math_fn = self
                .ident_as(
                    "a math function (inv, log, exp, sqrt, rsq, sin, cos, sincos, fdiv, pow, intdivmod, intdiv, intmod, invm, rsqrtm)",
                    math_fn_by_name,
                )?
                .0;
        }
        let plain = if self.plain && self.tok.kind == Kind::LParen {
            self.plain_exec_size_and_tail(inst, self.lex)
        } else {
            None
        };
        if plain == Some(true) {
            return Ok(());
        }
        if plain.is_none() && self.eat(Kind::LParen) {
            let n = self.number("an execution size")?;
            inst.exec = u32::try_from(n.value)
                .ok()
                .and_then(ExecSize::from_channels)
                .ok_or_else(|| self.error_at(n.pos, AsmErrorKind::BadExecSize(n.value)))?;
            self.expect(Kind::RParen, "`)` after the execution size")?;
        }
        self.operands_and_options(inst)
    }

    /// The operands, the options block and the `;` of `inst`, whose head
    /// has been read.
    fn operands_and_options(&mut self, inst: &mut Inst<'a>) -> PResult<()> {
        self.operands(inst.opcode, &mut inst.ops)?;
        if self.tok.kind == Kind::LBrace {
            inst.opts = self.options()?;
        }
        if self.tok.kind == Kind::LBracket {
            inst.raw = Some(self.raw_fields()?);
        }
        self.expect(Kind::Semi, "`;` ending the instruction")?;
        Ok(())
    }

    /// An execution size written plainly, `8)`, where `l` stands (right
    /// after the `(`), then, where it can, the rest of the statement by
    /// [`Parser::plain_tail`]. `Some(true)`: the statement was read whole;
    /// `Some(false)`: the size was read and the token after the `)` is
    /// current, for the token path to read the operands; `None`, with
    /// nothing consumed: the size is not plain (the token path reads or
    /// reports it).
    fn plain_exec_size_and_tail(&mut self, inst: &mut Inst<'a>, mut l: Lexer<'a>) -> Option<bool> {
        inst.exec = l.plain_small_number(b')').and_then(ExecSize::from_channels)?;
        // `l` is lent, not copied: a copy made right after the size moved
        // it would read its position back wider than it was written.
        let after_size = l.mark();
        if self.plain_tail(inst, &mut l).is_some() {
            return Some(true);
        }
        l.reset(after_size);
        inst.opts = Options::default();
        self.commit(l);
        Some(false)
    }

    /// The operands, options block and `;` of an ALU instruction or a
    /// SEND when all of them are written plainly, read straight from the
    /// bytes after the execution size (where `l` stands) without making
    /// tokens. Plainly written means: operands as [`Parser::plain_operand_at`]
    /// reads them; a SEND's descriptor as a number, then a shared function
    /// (see [`plain_sfid`]), `MsgDesc:` and the description (see
    /// [`Parser::plain_sfid_and_description`]); a plain options block (see
    /// [`Parser::plain_options`]); whitespace and comments between them
    /// as anywhere. What is read is what the token path gives.
    ///
    /// `Some` when the statement was read to its `;`: the next statement's
    /// first token is then current. `None` for anything else, with nothing
    /// consumed from the parser (`l` may have moved: the caller puts it
    /// back); the token path then reads the operands again, overwriting
    /// what was written here, except `inst.opts`, which the caller resets
    /// to the default options (the token path writes them only when it
    /// meets a `{`).
    #[inline]
    fn plain_tail(&mut self, inst: &mut Inst<'a>, l: &mut Lexer<'a>) -> Option<()> {
        let op = inst.opcode;
        let operand = |l: &mut Lexer<'a>, out: &mut Operand| -> Option<()> {
            l.skip_gap().ok()?;
            let at = l.here();
            let end = match self.plain_operand_at::<false>(at, out) {
                Some(end) => end,
                None => self.plain_operand_rare(at, out)?,
            };
            l.seek_on_line(end);
            Some(())
        };
        let form = form(op);
        if let Form::Alu(n) = form {
            let (dst, src) = inst.ops.alu_slots()?;
            operand(l, dst)?;
            for (k, s) in src.iter_mut().enumerate() {
                if k >= n {
                    *s = None;
                    continue;
                }
                // MATH's second source is optional.
                if op == Opcode::Math && k == 1 {
                    l.skip_gap().ok()?;
                    if matches!(l.peek_byte(), Some(b'{' | b';')) {
                        *s = None;
                        continue;
                    }
                }
                operand(l, s.get_or_insert(Operand::EMPTY))?;
            }
        } else if form == Form::Send {
            let send = inst.ops.send_slots()?;
            operand(l, &mut send.dst)?;
            operand(l, &mut send.src0)?;
            send.src1 = None;
            l.skip_gap().ok()?;
            let (value, pos) = l.plain_number()?;
            send.desc = Num { value, pos };
            l.skip_gap().ok()?;
            let word = l.plain_ident()?;
            send.sfid = plain_description(word, l)?;
        } else {
            return None;
        }
        l.skip_gap().ok()?;
        // The instruction's options are the default ones until here; the
        // caller puts them back if the statement is not plain after all.
        if l.peek_byte() == Some(b'{') {
            let open = l.here();
            l.seek_on_line(l.offset() + 1);
            plain_options_into(l, open, &mut inst.opts)?;
            l.skip_gap().ok()?;
        }
        if l.peek_byte() != Some(b';') {
            return None;
        }
        let line = l.here().line;
        l.seek_on_line(l.offset() + 1);
        self.lex.follow(l);
        self.lex.next_token_into(&mut self.tok);
        self.prev_line = line;
        Some(())
    }

    fn suffixes(&mut self, inst: &mut Inst<'a>) -> PResult<()> {
        const WHAT: &str = "`sat`, `breakpoint`, a conditional modifier (z, e, nz, ne, g, ge, l, le, r, o, u) or, after one, its flag `f0.0`..`f1.1`";
        let mut after_flag = false;
        loop {
            if self.tok.kind == Kind::Star && inst.cmod.is_none() && inst.opcode != Opcode::Math {
                let (n, _) = self.invalid_marker(
                    &["conditional", "modifier"],
                    &[],
                    "`*** invalid conditional modifier value N`",
                )?;
                let v = self.nibble(n)?;
                inst.cmod = Some((v, n.pos));
                after_flag = false;
                continue;
            }
            if !self.eat(Kind::Dot) {
                break;
            }
            if self.tok.kind == Kind::Number && after_flag {
                if let Some(f) = inst.cmod_flag.as_mut() {
                    let mut flag = *f;
                    self.flag_sub(&mut flag)?;
                    inst.cmod_flag = Some(flag);
                }
                after_flag = false;
                continue;
            }
            after_flag = false;
            let t = self.tok;
            if t.kind != Kind::Ident {
                return Err(self.unexpected(WHAT));
            }
            match t.text {
                "sat" => inst.sat = true,
                "breakpoint" => inst.breakpoint = true,
                s if inst.cmod.is_none() && cond_mod_by_name(s).is_some() => {
                    inst.cmod = cond_mod_by_name(s).map(|c| (c, t.pos));
                }
                "f0" | "f1" if inst.cmod.is_some() && inst.cmod_flag.is_none() => {
                    inst.cmod_flag = Some(self.flag_reg()?);
                    after_flag = true;
                    continue;
                }
                _ => return Err(self.unexpected(WHAT)),
            }
            self.bump();
        }
        Ok(())
    }

    /// The operands of `op`, written into `ops` (in place).
    fn operands(&mut self, op: Opcode, ops: &mut Operands<'a>) -> PResult<()> {
        match form(op) {
            Form::Send => self.send_operands(ops)?,
            Form::Wait => *ops = Operands::Wait(self.operand(true)?),
            Form::Jmpi => *ops = Operands::Jmpi(self.operand(false)?),
            Form::Branch => *ops = self.branch_operands()?,
            Form::None => *ops = Operands::None,
            Form::Alu(n) => {
                if let Some((dst, src)) = ops.alu_slots() {
                    self.operand_into(true, dst)?;
                    for (k, s) in src.iter_mut().enumerate() {
                        // MATH's second source is optional.
                        if k >= n || (op == Opcode::Math && k == 1 && !self.starts_operand()) {
                            *s = None;
                            continue;
                        }
                        let o = s.get_or_insert(Operand::EMPTY);
                        self.operand_into(false, o)?;
                    }
                }
            }
        }
        Ok(())
    }

    fn starts_operand(&self) -> bool {
        match self.tok.kind {
            Kind::Minus | Kind::Tilde | Kind::LParen | Kind::Number => true,
            Kind::Ident => !self.tok.is_ident("MsgDesc"),
            _ => false,
        }
    }

    fn target(&mut self) -> PResult<Target<'a>> {
        let neg = self.eat(Kind::Minus);
        match self.tok.kind {
            Kind::Ident if !neg => {
                let t = self.bump();
                Ok(Target::Label(t.text, t.pos))
            }
            Kind::Number => {
                let t = self.bump();
                let v = i64::try_from(t.value).unwrap_or(i64::MAX);
                Ok(Target::Offset(if neg { -v } else { v }, t.pos))
            }
            _ => Err(self.unexpected("a label name or an offset")),
        }
    }

    fn branch_operands(&mut self) -> PResult<Operands<'a>> {
        let mut jip = None;
        let mut uip = None;
        loop {
            if self.tok.is_ident("JIP") && jip.is_none() && uip.is_none() {
                self.bump();
                self.expect(Kind::Colon, "`:` after `JIP`")?;
                jip = Some(self.target()?);
            } else if self.tok.is_ident("UIP") && uip.is_none() {
                self.bump();
                self.expect(Kind::Colon, "`:` after `UIP`")?;
                uip = Some(self.target()?);
            } else {
                break;
            }
        }
        Ok(Operands::Branch { jip, uip })
    }

    fn send_operands(&mut self, ops: &mut Operands<'a>) -> PResult<()> {
        let Some(send) = ops.send_slots() else {
            return Ok(());
        };
        self.operand_into(true, &mut send.dst)?;
        self.operand_into(false, &mut send.src0)?;
        let desc_next = match self.tok.kind {
            Kind::Number => true,
            Kind::Minus => self.peek().kind == Kind::Number,
            _ => false,
        };
        let src1 = if desc_next { None } else { Some(self.operand(false)?) };
        let neg = self.eat(Kind::Minus);
        let mut desc = self.number("the message descriptor (a number such as 0x02280300)")?;
        if neg {
            desc.value = desc.value.wrapping_neg();
        }
        if let Some(sfid) = self.plain.then(|| self.plain_sfid_and_description()).flatten() {
            (send.src1, send.desc, send.sfid) = (src1, desc, sfid);
            return Ok(());
        }
        let sfid = self.sfid()?;
        if self.tok.is_ident("MsgDesc") {
            self.bump();
            if self.tok.kind != Kind::Colon {
                return Err(self.unexpected("`:` after `MsgDesc`"));
            }
            // The current token is the colon and the lexer stands right
            // after it: skip the free-form description.
            self.lex.skip_to_brace_or_line_end();
            self.bump();
        }
        (send.src1, send.desc, send.sfid) = (src1, desc, sfid);
        Ok(())
    }

    /// A shared function (see [`plain_sfid`]) followed, on the line of its
    /// last word, by `MsgDesc:` and the description (`urb MsgDesc: 8 SIMD8
    /// read ... {`), with only spaces before `MsgDesc`: read from the
    /// bytes, as the token path reads it. `None` (nothing consumed) for
    /// anything else.
    fn plain_sfid_and_description(&mut self) -> Option<u8> {
        let t = self.tok;
        if t.kind != Kind::Ident {
            return None;
        }
        let mut l = self.lex;
        let sfid = plain_description(t.text, &mut l)?;
        // The token path's last token is the colon, on the line the
        // description ends on (a multi-word name may begin on an earlier
        // one).
        let line = l.here().line;
        self.commit(l);
        self.prev_line = line;
        Some(sfid)
    }

    fn sfid(&mut self) -> PResult<u8> {
        const WHAT: &str = "a shared function (null, math, sampler, gateway, dp_sampler, render, urb, thread_spawner, vme, const, data, pixel interp, dp data 1, cre)";
        let t = self.tok;
        if t.kind == Kind::Star {
            let (n, _) = self.invalid_marker(&["SFID"], &[], "`*** invalid SFID value N`")?;
            return self.nibble(n);
        }
        let Some((second, one, sfid)) = multi_word_sfid(t.text).filter(|_| t.kind == Kind::Ident) else {
            return Ok(self.ident_as(WHAT, sfid_by_name)?.0);
        };
        // Two- and three-word names.
        self.bump();
        if !self.tok.is_ident(second) {
            return Err(self.unexpected(WHAT));
        }
        self.bump();
        if one {
            let n = self.number(WHAT)?;
            if n.value != 1 {
                return Err(self.error_at(
                    n.pos,
                    AsmErrorKind::Unexpected {
                        found: alloc::format!("`{}`", n.value),
                        expected: "`1` (`dp data 1`)",
                    },
                ));
            }
        }
        Ok(sfid)
    }

    /// The options block when it is written plainly on one line: words
    /// separated by spaces or commas, each a known option or a quarter
    /// control such as `1Q`, then `}`. Reads the bytes directly and gives
    /// what the token path gives; `None` (nothing consumed) otherwise.
    /// A field annotation, `[name=value ...]` (items separated by spaces
    /// or commas); gives where its `[` is. Lowering reads the items again
    /// there, knowing the instruction's layout.
    fn raw_fields(&mut self) -> PResult<Pos> {
        let open = self.expect(Kind::LBracket, "`[`")?;
        loop {
            match self.tok.kind {
                Kind::RBracket => {
                    self.bump();
                    return Ok(open.pos);
                }
                Kind::Comma => {
                    self.bump();
                }
                _ => {
                    self.expect(Kind::Ident, "a field name (`src1_reg_type`, `bits_95_64`, ...) or `]`")?;
                    self.expect(Kind::Equals, "`=` after the field name")?;
                    self.number("the field's value")?;
                }
            }
        }
    }

    fn plain_options(&mut self) -> Option<Options> {
        let open = self.tok;
        if open.kind != Kind::LBrace {
            return None;
        }
        let mut l = self.lex;
        let o = plain_options_after(&mut l, open.pos)?;
        self.commit(l);
        Some(o)
    }

    fn options(&mut self) -> PResult<Options> {
        if let Some(o) = self.plain.then(|| self.plain_options()).flatten() {
            return Ok(o);
        }
        let open = self.expect(Kind::LBrace, "`{`")?;
        let mut o = Options {
            pos: open.pos,
            ..Options::default()
        };
        loop {
            match self.tok.kind {
                Kind::RBrace => {
                    self.bump();
                    return Ok(o);
                }
                Kind::Comma => {
                    self.bump();
                }
                Kind::Number => {
                    let n = self.bump();
                    let t = self.expect(Kind::Ident, "`Q`, `H` or `N` after the quarter number")?;
                    let (qtr, nib) = match quarter(&o, n.value, t.text.as_bytes()) {
                        Some(q) => q,
                        None => {
                            return Err(self.error_at(
                                n.pos,
                                AsmErrorKind::Unexpected {
                                    found: alloc::format!("`{}{}`", n.text, t.text),
                                    expected: "a quarter control: 1Q..4Q, 1H, 2H or 1N..8N",
                                },
                            ))
                        }
                    };
                    o.qtr = qtr;
                    o.nib = nib;
                }
                Kind::Ident => {
                    if !named_option(&mut o, self.tok.text.as_bytes()) {
                        return Err(self.unexpected(EXPECT_OPTION));
                    }
                    self.bump();
                }
                _ => return Err(self.unexpected(EXPECT_OPTION)),
            }
        }
    }

    /// A register name token (`g12`, `acc0`, `null`, `ip`, ...).
    fn reg_name(&self, t: Token<'a>) -> PResult<RegName> {
        let bad = || {
            if t.text == "Indirect" {
                // Mesa's `Indirect align16 address mode not supported`.
                return self.error_at(
                    t.pos,
                    AsmErrorKind::Invalid {
                        what: "operand",
                        why: "Mesa's text does not show an align16 indirect operand (`Indirect align16 address mode not supported`), so it cannot be assembled",
                    },
                );
            }
            self.error_at(
                t.pos,
                AsmErrorKind::Unexpected {
                    found: t.to_string(),
                    expected: "a register (g<n>, r<n>, m<n>, null, a0, acc<n>, f<n>, ce0, mask<n>, sr<n>, cr<n>, n<n>, ip, tdr0, tm<n>)",
                },
            )
        };
        let arf = |base: u8, n: u32| -> PResult<RegName> {
            if n > 15 {
                return Err(self.error_at(
                    t.pos,
                    AsmErrorKind::OutOfRange {
                        what: "architecture register number",
                        value: i64::from(n),
                        range: "0..=15",
                    },
                ));
            }
            Ok(RegName::Arf {
                nr: base | n as u8,
                bare: false,
            })
        };
        // The common case first: `g<n>` with n <= 255, at most 3 digits.
        if let Some((n, _)) = plain_grf(t.text.as_bytes(), 0) {
            return Ok(RegName::Grf(n));
        }
        match t.text {
            "null" => return Ok(RegName::Arf { nr: 0, bare: false }),
            "ip" => return Ok(RegName::Arf { nr: 0xa0, bare: true }),
            "tdr" | "tdr0" => return Ok(RegName::Arf { nr: 0xb0, bare: true }),
            _ => {}
        }
        let (name, num) = split_digits(t.text);
        let n = match num {
            Some(Some(n)) => n,
            Some(None) => {
                return Err(self.error_at(
                    t.pos,
                    AsmErrorKind::OutOfRange {
                        what: "register number",
                        value: i64::MAX,
                        range: "0..=255",
                    },
                ))
            }
            None => return Err(bad()),
        };
        let byte = |n: u32, what: &'static str, max: u32| -> PResult<u8> {
            if n > max {
                Err(self.error_at(
                    t.pos,
                    AsmErrorKind::OutOfRange {
                        what,
                        value: i64::from(n),
                        range: if max == 255 { "0..=255" } else { "0..=143" },
                    },
                ))
            } else {
                Ok(n as u8)
            }
        };
        match name {
            "g" | "r" => Ok(RegName::Grf(byte(n, "GRF register number", 255)?)),
            "m" => Ok(RegName::Mrf(byte(n, "MRF register number", 255 - 112)?)),
            "a" => arf(0x10, n),
            "acc" => arf(0x20, n),
            "f" => arf(0x30, n),
            "mask" | "ce" => arf(0x40, n),
            "ms" => arf(0x50, n),
            "msd" => arf(0x60, n),
            "sr" => arf(0x70, n),
            "cr" => arf(0x80, n),
            "n" => arf(0x90, n),
            "tm" => arf(0xc0, n),
            "ARF" => Ok(RegName::Arf {
                nr: byte(n, "ARF register number", 255)?,
                bare: false,
            }),
            _ => Err(bad()),
        }
    }

    /// The error for a type name that exists but not on this platform
    /// (`NF`, the one [`type_by_name`] gives `Some(None)` for), at `pos`.
    fn type_not_on_platform(&self, pos: Pos) -> AsmError {
        self.error_at(
            pos,
            AsmErrorKind::TypeNotOnPlatform {
                ty: "NF",
                platform: self.platform,
            },
        )
    }

    fn type_token(&self, text: &str, pos: Pos) -> PResult<Type> {
        match type_by_name(text) {
            Some(Some(t)) => Ok(t),
            Some(None) => Err(self.type_not_on_platform(pos)),
            None => Err(self.error_at(
                pos,
                AsmErrorKind::Unexpected {
                    found: alloc::format!("`{text}`"),
                    expected: EXPECT_TYPE,
                },
            )),
        }
    }

    fn region(&mut self) -> PResult<Region> {
        if self.plain && self.tok.kind == Kind::LAngle {
            // The common spelling `<8,8,1>`, read straight from the bytes:
            // the same items and positions the token path below finds.
            let open = self.tok;
            if let Some(items) = self.lex.plain_region() {
                let r = Region::plain(items, open.pos);
                self.bump();
                return Ok(r);
            }
        }
        let open = self.expect(Kind::LAngle, "`<`")?;
        let mut r = Region {
            vals: [Num::default(); 3],
            n: 0,
            vxh: false,
            raw: 0,
            pos: open.pos,
        };
        loop {
            if r.n as usize >= r.vals.len() {
                return Err(self.unexpected("`>` closing the region"));
            }
            if self.tok.kind == Kind::Star && r.n < 2 {
                let (words, what): (&[&str], _) = if r.n == 0 && !r.vxh {
                    (&["vert", "stride"], "`*** invalid vert stride value N`")
                } else {
                    (&["width"], "`*** invalid width value N`")
                };
                let (n, _) = self.invalid_marker(words, &[], what)?;
                self.nibble(n)?;
                if let Some(v) = r.vals.get_mut(r.n as usize) {
                    *v = n;
                }
                r.raw |= 1 << r.n;
            } else if r.n == 0 && self.tok.is_ident("VxH") {
                let t = self.bump();
                r.vxh = true;
                if let Some(v) = r.vals.get_mut(0) {
                    v.pos = t.pos;
                }
            } else {
                let n = self.number("a region value")?;
                if let Some(v) = r.vals.get_mut(r.n as usize) {
                    *v = n;
                }
            }
            r.n += 1;
            match self.tok.kind {
                Kind::RAngle => {
                    self.bump();
                    return Ok(r);
                }
                Kind::Comma | Kind::Semi => {
                    self.bump();
                }
                _ => return Err(self.unexpected("`,` or `>` in the region")),
            }
        }
    }

    /// The `.xyzw` letters of an identifier; returns the letters and the
    /// rest (a type name, possibly empty).
    fn channels<'t>(&self, t: Token<'t>) -> PResult<(Chans, &'t str)> {
        let cut = t
            .text
            .bytes()
            .position(|b| !matches!(b, b'x' | b'y' | b'z' | b'w'))
            .unwrap_or(t.text.len());
        let (letters, rest) = t.text.split_at(cut);
        if letters.len() > 4 {
            return Err(self.error_at(
                t.pos,
                AsmErrorKind::Unexpected {
                    found: t.to_string(),
                    expected: "at most four channels (x, y, z, w) then a type",
                },
            ));
        }
        let mut c = Chans {
            ch: [0; 4],
            n: 0,
            pos: t.pos,
        };
        for (slot, b) in c.ch.iter_mut().zip(letters.bytes()) {
            *slot = match b {
                b'x' => 0,
                b'y' => 1,
                b'z' => 2,
                _ => 3,
            };
            c.n += 1;
        }
        Ok((c, rest))
    }

    /// An operand written plainly (see [`Parser::plain_operand_at`]),
    /// read from the bytes: what the token path below gives for it. `None`
    /// (nothing consumed) for anything else.
    #[cfg(test)]
    fn plain_operand(&mut self) -> Option<Operand> {
        let mut o = Operand::EMPTY;
        self.plain_operand_into(&mut o).then_some(o)
    }

    /// [`Parser::plain_operand_at`] at the current token, written into
    /// `out` (in place); false, with nothing consumed, if the operand is
    /// not plain (`out` may then be written in part: the token path writes
    /// all of it again).
    #[inline]
    fn plain_operand_into(&mut self, out: &mut Operand) -> bool {
        let t = self.tok;
        if !matches!(
            t.kind,
            Kind::Ident | Kind::Minus | Kind::Tilde | Kind::Number | Kind::LParen
        ) {
            return false;
        }
        let Some(end) = self.plain_operand_at::<true>(t.pos, out) else {
            return false;
        };
        self.lex.seek_on_line(end);
        self.bump();
        true
    }

    /// The operand that starts at `at`, when it is written plainly,
    /// without spaces or comments inside: `[-|~][(abs)]` then a register
    /// (`g<n>` with one to three digits as [`plain_grf`] reads it, or
    /// `null`, `acc0`, ... as [`Parser::reg_name`] reads it), an
    /// optional `.<sub>` in decimal, a region as [`Lexer::plain_region`]
    /// reads it and a type (`g7.2<8,8,1>UD`); or `[-|~][(abs)]` then a
    /// number and a type (`0x3f800000F`, `-1D`). Read
    /// straight from the bytes into `out`, it is what the token path
    /// gives; the result is where it ends. `None` for anything else
    /// (numbers too large included, which the token path reports); `out`
    /// may then be written in part, and the token path writes all of it
    /// again.
    ///
    /// With `ALL` off, only GRFs and `null` without `(abs)` are read (and
    /// `None` given for the rest): the common operands, on a path kept
    /// short; [`Parser::plain_operand_rare`] reads the others.
    #[inline(always)]
    fn plain_operand_at<const ALL: bool>(&self, at: Pos, out: &mut Operand) -> Option<usize> {
        let bytes = self.source().as_bytes();
        let line = at.line;
        let pos = |i: usize| Pos { offset: off32(i), line };
        let mut i = at.offset as usize;
        let neg = matches!(bytes.get(i), Some(b'-' | b'~'));
        i += usize::from(neg);
        let abs = ALL && bytes.get(i) == Some(&b'(') && bytes.get(i + 1..i + 5) == Some(b"abs)");
        i += 5 * usize::from(abs);
        out.pos = at;
        out.abs = abs;
        out.chans = None;
        if bytes.get(i)?.is_ascii_digit() {
            let mut l = self.lex;
            l.seek_on_line(i);
            out.base = Base::Imm {
                value: l.plain_number()?.0,
                neg,
            };
            out.neg = false;
            out.region = None;
            i = l.offset();
        } else {
            // `g<n>`, the commonest, with its number read as it is scanned.
            let (name, end) = match plain_grf(bytes, i) {
                Some((nr, end)) => (RegName::Grf(nr), end),
                None => {
                    let end = ident_end(bytes, i);
                    (self.plain_reg_name_bytes::<ALL>(bytes.get(i..end)?, i, end, line)?, end)
                }
            };
            i = end;
            let mut sub = None;
            if bytes.get(i) == Some(&b'.') {
                let (value, end) = plain_digits(bytes, i + 1)?;
                // A leading zero (maybe `0x`): the token path.
                if end - i > 2 && bytes.get(i + 1) == Some(&b'0') {
                    return None;
                }
                sub = Some(Num {
                    value: u64::from(value),
                    pos: pos(i + 1),
                });
                i = end;
            }
            out.base = Base::Reg { name, sub };
            out.neg = neg;
            if bytes.get(i) != Some(&b'<') {
                return None;
            }
            let mut l = self.lex;
            l.seek_on_line(i + 1);
            out.region = Some(Region::plain(l.plain_region()?, pos(i)));
            i = l.offset();
        }
        let (ty, end) = plain_type(bytes, i)?;
        out.ty = Some((ty, pos(i)));
        Some(end)
    }

    /// The register named `name` (bytes `start..end` of `line`) when it is
    /// not a plain GRF: `null`, and with `ALL` any other register
    /// [`Parser::reg_name`] takes. `None` otherwise (`g`/`r` names that
    /// [`plain_grf`] refused included).
    #[inline(always)]
    fn plain_reg_name_bytes<const ALL: bool>(
        &self,
        name: &[u8],
        start: usize,
        end: usize,
        line: u32,
    ) -> Option<RegName> {
        match name {
            b"null" => Some(RegName::Arf { nr: 0, bare: false }),
            [b'g' | b'r', ..] => None,
            // By the token path's own reading of the name; one it refuses
            // is left to it to report.
            _ if ALL => self.plain_reg_name(start, end, line),
            _ => None,
        }
    }

    /// [`Parser::plain_operand_at`] with every register and `(abs)`, out of
    /// line: for the operands its short path leaves.
    #[inline(never)]
    fn plain_operand_rare(&self, at: Pos, out: &mut Operand) -> Option<usize> {
        self.plain_operand_at::<true>(at, out)
    }

    /// The register named by bytes `start..end` of `line`, as
    /// [`Parser::reg_name`] reads it; `None` for a name it refuses (the
    /// token path reports it).
    fn plain_reg_name(&self, start: usize, end: usize, line: u32) -> Option<RegName> {
        let t = Token {
            kind: Kind::Ident,
            text: self.source().get(start..end)?,
            value: 0,
            pos: Pos {
                offset: off32(start),
                line,
            },
        };
        self.reg_name(t).ok()
    }

    /// An operand. Destinations take no modifiers and no immediates; that
    /// is checked when lowering, so the messages can name the opcode.
    fn operand(&mut self, dst: bool) -> PResult<Operand> {
        let mut o = Operand::EMPTY;
        self.operand_into(dst, &mut o)?;
        Ok(o)
    }

    /// [`Parser::operand`], written into `out` (in place).
    #[inline]
    fn operand_into(&mut self, dst: bool, out: &mut Operand) -> PResult<()> {
        if self.plain && self.plain_operand_into(out) {
            return Ok(());
        }
        *out = self.operand_tokens(dst)?;
        Ok(())
    }

    /// [`Parser::operand`] token by token.
    fn operand_tokens(&mut self, dst: bool) -> PResult<Operand> {
        let pos = self.tok.pos;

        let mut o = Operand { pos, ..Operand::EMPTY };
        if self.eat(Kind::Minus) || self.eat(Kind::Tilde) {
            o.neg = true;
        }
        if self.tok.kind == Kind::LParen {
            self.bump();
            if !self.tok.is_ident("abs") {
                return Err(self.unexpected("`abs` in the `(abs)` source modifier"));
            }
            self.bump();
            self.expect(Kind::RParen, "`)` after `(abs`")?;
            o.abs = true;
        }
        let expected = if dst { "a destination register" } else { EXPECT_SRC };
        match self.tok.kind {
            Kind::Number => {
                let n = self.bump();
                o.base = Base::Imm {
                    value: n.value,
                    neg: o.neg,
                };
                o.neg = false;
                o.ty = Some(self.type_ident()?);
                return Ok(o);
            }
            Kind::Ident => {}
            _ => return Err(self.unexpected(expected)),
        }
        let t = self.tok;
        if matches!(t.text, "g" | "r") && self.lex.peek_kind() == Kind::LBracket {
            self.bump();
            o.base = self.indirect()?;
        } else {
            let name = self.reg_name(t)?;
            self.bump();
            let sub = if self.tok.kind == Kind::Dot && self.lex.peek_kind() == Kind::Number {
                self.bump();
                Some(self.number("a subregister number")?)
            } else {
                None
            };
            o.base = Base::Reg { name, sub };
            if let RegName::Arf { bare: true, .. } = name {
                // `ip` and `tdr0` print bare; a region and type may follow.
                if self.tok.kind != Kind::LAngle
                    && !(self.tok.kind == Kind::Ident && type_by_name(self.tok.text).is_some())
                {
                    return Ok(o);
                }
            }
        }
        if self.tok.kind == Kind::LAngle {
            o.region = Some(self.region()?);
        }
        if self.eat(Kind::Dot) {
            let t = self.tok;
            if t.kind != Kind::Ident {
                return Err(self.unexpected("channels (x, y, z, w) and a type"));
            }
            let (c, rest) = self.channels(t)?;
            self.bump();
            o.chans = Some(c);
            if !rest.is_empty() {
                let tpos = Pos {
                    offset: t.pos.offset + u32::from(c.n),
                    ..t.pos
                };
                o.ty = Some((self.type_token(rest, tpos)?, tpos));
                return Ok(o);
            }
        }
        o.ty = Some(self.type_ident()?);
        Ok(o)
    }

    /// A type name token.
    fn type_ident(&mut self) -> PResult<(Type, Pos)> {
        let t = self.tok;
        if t.kind == Kind::Ident {
            match type_by_name(t.text) {
                Some(Some(ty)) => {
                    self.bump();
                    return Ok((ty, t.pos));
                }
                Some(None) => return Err(self.type_not_on_platform(t.pos)),
                None => {}
            }
        }
        Err(self.unexpected(EXPECT_TYPE))
    }

    fn indirect(&mut self) -> PResult<Base> {
        self.expect(Kind::LBracket, "`[`")?;
        self.ident_as("the address register `a0`", |s| (s == "a0").then_some(()))?;
        let sub = if self.eat(Kind::Dot) {
            Some(self.number("an address subregister number")?)
        } else {
            None
        };
        let mut imm = 0i64;
        let mut imm_pos = self.tok.pos;
        let neg = if self.eat(Kind::Minus) {
            true
        } else {
            self.eat(Kind::Plus);
            false
        };
        if self.tok.kind == Kind::Number {
            let n = self.bump();
            imm_pos = n.pos;
            let v = i64::try_from(n.value).unwrap_or(i64::MAX);
            imm = if neg { -v } else { v };
        } else if neg {
            return Err(self.unexpected("an address offset"));
        }
        self.expect(Kind::RBracket, "`]` closing the indirect address")?;
        Ok(Base::Indirect { sub, imm, imm_pos })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(src: &str) -> (Vec<Stmt<'_>>, Vec<AsmError>) {
        let mut p = Parser::new(Platform::Gen8, src);
        let mut v = Vec::new();
        while let Some(s) = p.next_statement() {
            v.push(s);
        }
        (v, p.errors)
    }

    /// `f` of each statement (None for labels) and the errors as
    /// (line, column, kind).
    #[allow(clippy::type_complexity)]
    fn parse_insts<T>(src: &str, f: impl Fn(Inst<'_>) -> Option<T>) -> (Vec<Option<T>>, Vec<(u32, u32, AsmErrorKind)>) {
        let (v, e) = parse(src);
        let e = e.into_iter().map(|e| (e.line, e.column, e.kind)).collect();
        let v = v
            .into_iter()
            .map(|s| match s {
                Stmt::Inst(i) => f(i),
                Stmt::Label(..) => None,
            })
            .collect();
        (v, e)
    }

    fn one(src: &str) -> Inst<'_> {
        let (v, e) = parse(src);
        assert!(e.is_empty(), "{e:?}");
        match v.as_slice() {
            [Stmt::Inst(i)] => *i,
            _ => panic!("{v:?}"),
        }
    }

    #[test]
    fn opcode_table_is_sorted_and_complete() {
        let t = BY_NAME;
        assert!(
            t.windows(2).all(|w| w[0].name() < w[1].name()),
            "BY_NAME must be sorted by name"
        );
        for op in Opcode::ALL {
            assert_eq!(opcode_by_name(op.name()), Some(*op), "{op:?}");
        }
        assert_eq!(t.len(), Opcode::ALL.len());
        for name in ["mov2", "", "m", "movx", "addcarry", "illegal_", "ADD", "{", "é"] {
            assert_eq!(opcode_by_name(name), None, "{name:?}");
        }
    }

    #[test]
    fn instruction_header() {
        let i = one("(-f1.1.any4h) cmp.sat.ge.f0.1(16) null<1>D g2<8,8,1>D 0D { align1 2H WE_all };");
        assert_eq!(i.opcode, Opcode::Cmp);
        let p = i.pred.unwrap();
        assert!(p.inv);
        assert_eq!((p.flag.nr, p.flag.sub, p.suffix.map(|s| s.0)), (1, 1, Some("any4h")));
        assert!(i.sat);
        assert_eq!(i.cmod.map(|c| c.0), Some(4));
        assert_eq!(i.cmod_flag.map(|f| (f.nr, f.sub)), Some((0, 1)));
        assert_eq!(i.exec, ExecSize::S16);
        assert!(i.opts.we_all && !i.opts.align16);
        assert_eq!(i.opts.qtr, 2);
    }

    #[test]
    fn operands_in_all_shapes() {
        let i = one("add(8) g[a0.2 -16]<1>UW -(abs)g1.3<8;4,2>.xyzwF 0x3f800000F /* 1F */;");
        let Operands::Alu { dst, src } = i.ops else { panic!() };
        assert!(matches!(
            dst.base,
            Base::Indirect {
                sub: Some(Num { value: 2, .. }),
                imm: -16,
                ..
            }
        ));
        let s0 = src[0].unwrap();
        assert!(s0.neg && s0.abs);
        assert_eq!(s0.region.unwrap().n, 3);
        assert_eq!(s0.chans.unwrap().n, 4);
        assert_eq!(s0.ty.unwrap().0, Type::F);
        let s1 = src[1].unwrap();
        assert_eq!(
            s1.base,
            Base::Imm {
                value: 0x3f80_0000,
                neg: false
            }
        );
        assert_eq!(s1.ty.unwrap().0, Type::F);
    }

    #[test]
    fn send_with_descriptor_text() {
        let i = one(
            "send(8)         null<1>F        g123<8,8,1>F    0x8a080017\n                            urb MsgDesc: 1 SIMD8 write mlen 5 rlen 0        { align1 1Q EOT };",
        );
        let Operands::Send(SendOperands { desc, sfid, src1, .. }) = i.ops else {
            panic!()
        };
        assert_eq!((desc.value, sfid, src1), (0x8a08_0017, 6, None));
        assert!(i.opts.eot);
        let i = one("send(8) g1<1>UW g7<8,8,1>UD a0<0,1,0>UD 0x00000200 dp data 1 MsgDesc: indirect { align1 };");
        let Operands::Send(SendOperands { sfid, src1, .. }) = i.ops else {
            panic!()
        };
        assert_eq!(sfid, 12);
        assert!(src1.is_some());
    }

    #[test]
    fn labels_and_branches() {
        let (v, e) = parse("LABEL0:\n(+f0.0) if(8) JIP: LABEL0 UIP: end;\nend:");
        assert!(e.is_empty());
        assert!(matches!(v[0], Stmt::Label("LABEL0", _)));
        let Stmt::Inst(i) = v[1] else { panic!() };
        assert!(matches!(
            i.ops,
            Operands::Branch {
                jip: Some(Target::Label("LABEL0", _)),
                uip: Some(Target::Label("end", _))
            }
        ));
        assert!(matches!(v[2], Stmt::Label("end", _)));
    }

    #[test]
    fn plain_regions_read_like_spaced_ones() {
        let region = |src: &str| {
            let mut p = Parser::new(Platform::Gen8, src);
            p.region()
                .map(|r| (r.n, r.vxh, r.vals.map(|v| v.value)))
                .map_err(|e| e.kind)
        };
        for (plain, spaced) in [
            ("<8,8,1>", "< 8 , 8 , 1 >"),
            ("<1>", "< 1 >"),
            ("<4>", "<4 >"),
            ("<0;1,0>", "<0 ;1, 0>"),
            ("<16,8,2>F", "<16 ,8,2>F"),
            ("<999,0,1>", "<999, 0,1>"),
        ] {
            assert_eq!(region(plain), region(spaced), "{plain}");
            assert!(region(plain).is_ok(), "{plain}");
        }
        // Forms the fast path leaves to the token path, errors included.
        for bad in ["<8,8,1,2>", "<8,,8>", "<>", "<8,8,1", "<8 8>", "<8,8,1;"] {
            assert!(region(bad).is_err(), "{bad}");
        }
        assert_eq!(region("<1000>").map(|r| r.2[0]), Ok(1000));
        assert_eq!(region("<0x10,1,0>").map(|r| r.2[0]), Ok(16));
        assert!(region("<VxH,1,0>").unwrap().1);
        // Positions: each item where it is written.
        let mut p = Parser::new(Platform::Gen8, "\n  <8,16,1>");
        let r = p.region().unwrap();
        let src = p.source();
        assert_eq!(
            r.vals.map(|v| (v.pos.line, v.pos.column(src))),
            [(2, 4), (2, 6), (2, 9)]
        );
        assert_eq!((r.pos.line, r.pos.column(src)), (2, 3));
    }

    #[test]
    fn plain_operands_read_like_tokens() {
        fn both(src: &str) -> (Option<Operand>, PResult<Operand>, Token<'_>, Token<'_>) {
            let mut fast = Parser::new(Platform::Gen8, src);
            let mut slow = Parser::new(Platform::Gen8, src);
            let plain = fast.plain_operand();
            let tokens = slow.operand_tokens(false);
            (plain, tokens, fast.tok, slow.tok)
        }
        for src in [
            "g124<1>F ;",
            "  g7<8,8,1>D      1D",
            "g10.8<1>UW",
            "r1.4<1,4,0>UW\n{",
            "-g6<8,8,1>F",
            "~g2.2<0,1,0>D,",
            "null<1>D",
            "null.3<0;1,0>UD",
            "0x3f000000F  /* 0.5F */ {",
            "-1023D",
            "~1D",
            "0x0008UW",
            "0x11001010V",
            "0xffffffffUD",
            "0x0000000000000000DF",
            "0xffffffffffffffffUQ",
            "31D;",
            "g255.31<8,8,1>HF",
            "g001<1>F",
            "g3.0<0,1,0>F",
            "r0.10<0,1,0>UB",
            "g2<1>B;",
            "0F",
            "a0.1<0,1,0>UW",
            "acc0<1>F",
            "cr0<0,1,0>UD",
            "f0.1<0,1,0>UW",
            "tm0<4,4,1>UD",
            "n0.2<1>UD",
            "m3<1>F",
            "ip<0,1,0>UD",
            "(abs)g2<8,8,1>F",
            "-(abs)g2.4<0,1,0>F",
            "~(abs)acc0<8,8,1>D",
            "(abs)1D",
        ] {
            let (plain, tokens, fast_next, slow_next) = both(src);
            assert_eq!(plain, Some(tokens.unwrap()), "{src:?}");
            assert_eq!(fast_next, slow_next, "{src:?}");
        }
        // Forms left to the token path (whatever it makes of them).
        for src in [
            "g256<1>F",
            "g1234<1>F",
            "r12x<1>F",
            "g<1>F",
            "g1.<1>F",
            "g1.1<1>UDF",
            "g1.1<1>",
            "g1.03<1>F",
            "g1.0x3<1>F",
            "g1.1234<1>F",
            "g2<8,8,1>.xyzwF",
            "g7<4>.xyxyF",
            "g2 <1>F",
            "g2<1> F",
            "g2<1>",
            "g2.1",
            "g[a0.1]<1,0>F",
            "ip",
            "acc99<1>F",
            "foo3<1>F",
            "( abs)g2<8,8,1>F",
            "(abs) g2<8,8,1>F",
            "(abs g2<8,8,1>F",
            "- g2<8,8,1>F",
            "g2<VxH,1,0>F",
            "g2<8,8,1>NF",
            "g2<8,8,1>Fx",
            "g2<8,8,1>_",
            "99999999999999999999D",
            "0x10000000000000000Q",
            "1 D",
            "1",
            "0xG",
            "g2F",
        ] {
            let (plain, ..) = both(src);
            assert_eq!(plain, None, "{src:?}");
        }
    }

    #[test]
    fn plain_send_descriptions_read_like_tokens() {
        let send = |src: &str| {
            parse_insts(src, |i| match i.ops {
                Operands::Send(SendOperands { sfid, desc, .. }) => Some((sfid, desc.value, i.opts.eot)),
                _ => None,
            })
        };
        let base = "send(8) g2<1>UD g11<8,8,1>UD 0x042a0088\n";
        for tail in [
            "    urb MsgDesc: 8 SIMD8 read mlen 2 rlen 2 { align1 1Q EOT };",
            "    urb MsgDesc : 8 SIMD8 read { align1 1Q EOT };",
            "    urb MsgDesc:{ align1 1Q EOT };",
            "    urb\tMsgDesc: 8 { align1 1Q EOT };",
            "    urb /* c */ MsgDesc: 8 { align1 1Q EOT };",
            "    urb\nMsgDesc: 8 { align1 1Q EOT };",
            "    urb { align1 1Q EOT };",
            "    urb MsgDesc: 8 SIMD8 read;",
        ] {
            let (v, e) = send(&alloc::format!("{base}{tail}"));
            assert!(e.is_empty(), "{tail:?}: {e:?}");
            let eot = !tail.ends_with("read;");
            assert_eq!(v, [Some((6, 0x042a_0088, eot))], "{tail:?}");
        }
        each_is_an_error(
            base,
            &[
                "    urb MsgDescx: 8 { align1 1Q };",
                "    urb MsgDesc 8 { align1 1Q };",
                "    frob MsgDesc: 8 { align1 1Q };",
            ],
            send,
        );
    }

    /// Asserts that `base` followed by each of `tails`, as `read` reads it
    /// (giving statements and errors), has an error.
    fn each_is_an_error<T>(base: &str, tails: &[&str], read: impl Fn(&str) -> (T, Vec<(u32, u32, AsmErrorKind)>)) {
        for tail in tails {
            let (_, e) = read(&alloc::format!("{base}{tail}"));
            assert!(!e.is_empty(), "{tail:?}");
        }
    }

    #[test]
    fn plain_multi_word_shared_functions_read_like_tokens() {
        let base = "send(8) null<1>UW g1<8,8,1>UD 0x0e0b6001\n";
        let sfid = |src: &str| {
            let (plain, tokens) = (
                statements(Platform::Gen8, src, true),
                statements(Platform::Gen8, src, false),
            );
            assert!(plain == tokens, "{src:?}: {plain:?} != {tokens:?}");
            parse_insts(src, |i| match i.ops {
                Operands::Send(SendOperands { sfid, .. }) => Some(sfid),
                _ => None,
            })
        };
        for (tail, want) in [
            (
                "    dp data 1 MsgDesc: ( DC typed surface write, Surface = 1) mlen 7 { align1 2Q };",
                12,
            ),
            ("    dp  data\t0x1 MsgDesc: x { align1 2Q };", 12),
            ("    dp /* c */ data\n 1 MsgDesc: x;", 12),
            ("    dp data 01 { align1 };", 12),
            (
                "    pixel interp MsgDesc: (persp, sample_position) mlen 2 rlen 4 { align1 1Q };",
                11,
            ),
            ("    pixel\ninterp MsgDesc: x { align1 1Q };", 11),
            ("    rt accel MsgDesc: x { align1 1Q };", 8),
        ] {
            let (v, e) = sfid(&alloc::format!("{base}{tail}"));
            assert!(e.is_empty(), "{tail:?}: {e:?}");
            assert_eq!(v, [Some(want)], "{tail:?}");
        }
        each_is_an_error(
            base,
            &[
                "    dp data 2 MsgDesc: x { align1 };",
                "    dp data 1D MsgDesc: x { align1 };",
                "    dp data MsgDesc: x { align1 };",
                "    dp date 1 MsgDesc: x { align1 };",
                "    pixel interpx MsgDesc: x { align1 };",
                "    pixel MsgDesc: x { align1 };",
                "    rt /* c MsgDesc: x { align1 };",
            ],
            sfid,
        );
    }

    #[test]
    fn multi_word_shared_functions_after_token_operands_read_like_tokens() {
        // A register descriptor sends the statement to the token path,
        // which then reads the shared function and description plainly; an
        // error on the next line must be reported on that line either way.
        for tail in [
            "pixel interp MsgDesc: x { align1 1Q };",
            "pixel\ninterp MsgDesc: x;",
            "dp /* c */ data\n\n 1 MsgDesc: x { align1 };",
            "rt accel MsgDesc: x;",
        ] {
            let src =
                alloc::format!("send(8) g1<8,8,1>UD g2<8,8,1>UD a0<0,1,0>UD 0x0e0b6001 {tail}\nfrob(8) g1<1>F;\n");
            let (plain, tokens) = (
                statements(Platform::Gen8, &src, true),
                statements(Platform::Gen8, &src, false),
            );
            assert!(plain == tokens, "{src:?}: {plain:?} != {tokens:?}");
            let lines = src.matches('\n').count() as u32;
            assert_eq!(plain.1.iter().map(|e| e.line).collect::<Vec<_>>(), [lines], "{src:?}");
        }
    }

    #[test]
    fn plain_statements_with_any_register_read_like_tokens() {
        for src in [
            "mov(8) acc0<1>F (abs)g2<8,8,1>F { align1 1Q };",
            "and(1) cr0<1>UD cr0<0,1,0>UD 0xffffff7fUD { align1 1N switch };",
            "(-f0.0) sel(8) g44<1>F (abs)g41<8,8,1>F 0x3f800000F /* 1F */ { align1 1Q };",
            "mov.nz.f0.0(16) g2<1>F -(abs)g3<0,1,0>F { align1 1H };",
            "mov(1) ip<1>UD -(abs)1D;",
            "mov(8) g2<1>F (abs)1F;",
            "mov(8) m3<1>F ARF5<0,1,0>F;",
            "mov(8) null.1<1>F tdr0<0,1,0>UD;",
            "mov(8) g2<1>F g0001<8,8,1>F;",
            "mov(8) g2<1>F f0.1<0,1,0>UW;\nmov(8) g3<1>UD tm0<4,4,1>UD;",
            "mov(8) g2<1>F (abs) g3<8,8,1>F;",
            // Errors: the same ones, at the same places.
            "mov(8) acc99<1>F g2<8,8,1>F;",
            "mov(8) g2<1>F (abs)acc16<8,8,1>F;",
        ] {
            let (plain, tokens) = (
                statements(Platform::Gen8, src, true),
                statements(Platform::Gen8, src, false),
            );
            assert!(plain == tokens, "{src:?}: {plain:?} != {tokens:?}");
            let bad = src.contains("acc99") || src.contains("acc16");
            assert_eq!(plain.0.is_empty(), bad, "{src:?}: {plain:?}");
        }
    }

    #[test]
    fn register_names_with_trailing_characters_are_errors() {
        for name in ["g12x", "g1_", "r0a", "g1234", "null1x"] {
            let src = alloc::format!("mov(8) {name}<1>F g1<8,8,1>F;\nmov(8) g1<1>F {name}<8,8,1>F;");
            for plain in [true, false] {
                let (_, e) = statements(Platform::Gen8, &src, plain);
                assert_eq!(e.len(), 2, "{src:?} (plain paths {plain}): {e:?}");
            }
        }
    }

    #[test]
    fn plain_options_read_like_spaced_ones() {
        let opts = |src: &str| {
            let mut p = Parser::new(Platform::Gen8, src);
            let o = p.options().map_err(|e| (e.line, e.column, e.kind));
            (o, p.tok.kind)
        };
        for (plain, spaced) in [
            ("{ align1 1Q };", "{ align1 1 Q\n};"),
            ("{ align1 WE_all 3N };", "{align1 WE_all\t3N};"),
            (
                "{ align16 2H NoDDClr, NoDDChk, AccWrEnable switch EOT };",
                "{\nalign16 2 H NoDDClr , NoDDChk /**/, AccWrEnable switch EOT };",
            ),
            (
                "{ align1 8N 1N compr sechalf atomic compacted breakpoint nomask };",
                "{ align1 8N 1 N compr sechalf atomic compacted breakpoint nomask\n};",
            ),
            ("{}", "{ }"),
        ] {
            assert_eq!(opts(plain), opts(spaced), "{plain}");
            assert!(opts(plain).0.is_ok(), "{plain}");
        }
        for bad in [
            "{ align1 9N }",
            "{ align1 1q }",
            "{ align2 }",
            "{ align1 1Qx }",
            "{ align1",
            "{ 1 }",
        ] {
            assert!(opts(bad).0.is_err(), "{bad}");
        }
        assert!(opts("{ 01Q }").0.is_ok());
        assert!(opts("{ 0x1Q }").0.is_ok());
    }

    #[test]
    fn plain_exec_sizes_read_like_spaced_ones() {
        let exec = |src: &str| parse_insts(src, |i| Some(i.exec));
        for n in [
            "1", "2", "4", "8", "16", "32", "08", "008", "3", "0", "33", "99", "100", "0x10", "x",
        ] {
            let plain = alloc::format!("nop({n});\nnop;");
            let spaced = alloc::format!("nop({n} );\nnop;");
            assert_eq!(exec(&plain), exec(&spaced), "{n}");
        }
        assert_eq!(exec("nop(16);").0, [Some(ExecSize::S16)]);
        assert!(!exec("nop(3);").1.is_empty());
        assert!(!exec("nop(8;").1.is_empty());
    }

    #[test]
    fn errors_recover_at_semicolon_and_next_line() {
        let (v, e) =
            parse("mov(8) g1<1>F g2<8,8,1>Q7;\nadd(8) g1<1>F g2<8,8,1>F\nmov(8) g1<1>F g2<8,8,1>F;\nfoo(8);\nnop;");
        // The first statement fails at `Q7`, the second lacks its `;` and
        // resumes at the next line, `foo` is unknown.
        assert_eq!(e.len(), 3, "{e:?}");
        assert_eq!(v.len(), 2);
        assert_eq!((e[0].line, e[1].line, e[2].line), (1, 3, 4));
    }
}
