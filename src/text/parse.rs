//! Recursive-descent parser for Mesa's EU assembly syntax.
//!
//! The parser reads statements piece by piece from the bytes with a
//! [`Scanner`] (labels, the instruction's head and tail); only error
//! recovery, Mesa's `*** invalid` markers, branch targets and field
//! annotations are read token by token from the [`Lexer`]. Each construct
//! of the grammar has one reader, and every reader returns a `Result`
//! whose error has the position and the expected pieces. It builds a small
//! syntax tree per statement (`super::syntax`): a label definition or an
//! instruction. It checks the grammar only; what the operands mean for a
//! given opcode, access mode and platform is decided when the tree is
//! lowered to an [`crate::Instruction`] (`super::lower`).
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
//! reg         := IDENT ["." NUMBER] | ("g" | "r") "[" IDENT ["." NUMBER [":" "uw"]] [["+" | "-"] NUMBER] "]"
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

use super::error::{AsmError, AsmErrorKind};
use super::lex::{is_ident_char, Kind, Lexer, Pos, Scanner, Token};
use super::names::ADDR_SUB_UNIT;
use super::names::{
    arf_class_by_name, cond_mod_by_name, math_fn_by_name, multi_word_sfid, opcode_by_bytes, opcode_by_name,
    sfid_by_name, type_by_bytes, type_by_name,
};
#[cfg(test)]
use super::syntax::Stmt;
use super::syntax::{
    Base, Chans, Flag, Inst, Num, Operand, Operands, Options, Predicate, RawItem, RegName, Region, Target,
};
use crate::decimal::range_text;
use crate::isa::{arf, FLAG_SUBREG_LAST, MRF_GRF_BASE, NIBBLE_CHANNELS, QUARTER_CHANNELS};
use crate::model::{channel_group_of, ExecSize, MathFunction, Opcode, Platform, ThreadControl, Type};
use memo::Memo;

type PResult<T> = Result<T, AsmError>;

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

/// A quarter control `<n><letter>` (`1Q`, `2H`, `3N`, ...): the new
/// quarter and nibble fields given the current options; `None` if it is
/// not one.
fn quarter(o: &Options, n: u64, letter: &[u8]) -> Option<(u8, bool)> {
    let unit = match letter {
        b"Q" => QUARTER_CHANNELS,
        b"H" => 2 * QUARTER_CHANNELS,
        b"N" => NIBBLE_CHANNELS,
        _ => return None,
    };
    // The first group keeps what `sechalf`/`compr` chose.
    if n == 1 {
        return Some((o.qtr, o.nib));
    }
    let first = n.checked_sub(1)?.checked_mul(u64::from(unit))?;
    if first >= u64::from(ExecSize::S32.channels()) {
        return None;
    }
    Some(channel_group_of(first as u32))
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

/// Every statement of `src` and every error, as the parser reads them.
#[cfg(test)]
pub(crate) fn statements(p: Platform, src: &str) -> (Vec<Stmt<'_>>, Vec<AsmError>) {
    let mut parser = Parser::at(p, src, 0, 1);
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
    use crate::isa::Form as F;
    match op.form() {
        F::Send => Form::Send,
        F::Wait => Form::Wait,
        F::Jump => Form::Jmpi,
        _ if op.is_branch() => Form::Branch,
        F::Nullary => Form::None,
        _ => Form::Alu(usize::from(crate::canon::shown_sources(op))),
    }
}

/// The largest value Mesa's `*** invalid ... value N` marker can stand
/// for: the fields it names (predicate control, conditional modifier,
/// math function, vertical stride, width, shared function) have at most
/// four bits.
const MARKER_VALUE_MAX: u8 = 0xf;

const EXPECT_SRC: &str = "a source operand (register or immediate)";
const EXPECT_TYPE: &str = "a type such as `F`, `UD` or `W`";
const EXPECT_OPTION: &str =
    "an instruction option (align1, align16, WE_all, NoDDClr, NoDDChk, 1Q..4Q, 1H, 2H, 1N..8N, switch, atomic, AccWrEnable, BranchCtrl, compacted, breakpoint, EOT) or `}`";

/// The parser.
///
/// Between statements it stands where its scanner `c` stands. The few
/// constructs read token by token (error recovery, Mesa's `*** invalid`
/// markers, branch targets, field annotations) lex from `lex`, whose
/// current token is `tok`, and hand the position back to a scanner.
pub(crate) struct Parser<'a> {
    c: Scanner<'a>,
    lex: Lexer<'a>,
    tok: Token<'a>,
    /// Line of the last token consumed.
    prev_line: u32,
    platform: Platform,
    /// Errors found so far, in order.
    pub errors: Vec<AsmError>,
    /// The items of the last instruction's field annotation (empty if it
    /// has none), in order.
    annotation: Vec<RawItem<'a>>,
    /// The last options blocks read and what they read as.
    opts_memo: OptionsMemo,
    /// The last regions read and what they read as.
    region_memo: RegionMemo,
}

/// The options blocks kept ([`Memo`]): Mesa's text alternates among a few
/// (`1Q`, `1H`, `WE_all 1Q`, ...) of at most 32 bytes.
type OptionsMemo = Memo<Options, 2, 8>;

/// The regions kept with the type after them ([`Memo`]): a few
/// (`<8,8,1>F`, `<1>UD`, `<0,1,0>UD`, ...), of at most 16 bytes, with
/// their positions from the `<`.
type RegionMemo = Memo<(Region, (Type, Pos)), 1, 4>;

/// The options an empty [`OptionsMemo`] slot holds.
const NO_OPTIONS: Options = Options {
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
};

impl<'a> Parser<'a> {
    /// A parser over `src` for platform `p`.
    #[cfg(test)]
    pub fn new(p: Platform, src: &'a str) -> Self {
        Self::at(p, src, 0, 1)
    }

    /// A parser over `src` from byte `offset`, which is on line `line`.
    pub fn at(p: Platform, src: &'a str, offset: usize, line: u32) -> Self {
        let lex = Lexer::at(src, offset, line);
        let at = lex.here();
        Parser {
            c: Scanner::new(src, at, 1),
            lex,
            tok: Token {
                kind: Kind::Eof,
                text: "",
                value: 0,
                pos: at,
            },
            prev_line: 1,
            platform: p,
            errors: Vec::new(),
            annotation: Vec::new(),
            opts_memo: OptionsMemo::new(NO_OPTIONS),
            region_memo: RegionMemo::new((Region::EMPTY, (Type::UD, Pos { offset: 0, line: 0 }))),
        }
    }

    /// The items of the field annotation of the instruction read last
    /// (see [`Inst::raw`]).
    pub fn annotation(&self) -> &[RawItem<'a>] {
        &self.annotation
    }

    /// The source text.
    pub fn source(&self) -> &'a str {
        self.lex.source()
    }

    /// Where the next piece starts (whitespace and comments are skipped):
    /// after a statement, the point from which parsing the rest of the
    /// text gives what parsing on would.
    pub fn resume_point(&mut self) -> Pos {
        self.c.at()
    }

    #[inline]
    fn bump(&mut self) -> Token<'a> {
        let t = self.tok;
        self.prev_line = t.pos.line;
        self.lex.next_token_into(&mut self.tok);
        t
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
        self.unexpected_token(self.tok, expected)
    }

    /// "unexpected <t>, expected <what>".
    #[cold]
    fn unexpected_token(&self, t: Token<'a>, expected: &'static str) -> AsmError {
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
            let mut c = self.c;
            let start = c.at();
            c.byte()?;
            let head = c.ident_bytes_here();
            if let Some((_, end)) = head {
                let mut look = c;
                look.advance_to(end);
                if look.byte() == Some(b':') {
                    // Labels are rare: the name is taken as text only here.
                    let name = c.ident_here().map_or("", |(name, _)| name);
                    look.advance(1);
                    self.c.catch_up(&look);
                    return Some(Some((name, start)));
                }
            }
            match self.instruction(&mut c, start, head, inst) {
                Ok(()) => {
                    self.c.catch_up(&c);
                    return Some(None);
                }
                Err(e) => {
                    self.errors.push(e);
                    self.resume(c);
                    self.recover(start.offset);
                    self.c = self.scanner();
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

    /// A flag register name `f0` or `f1` where `c` stands.
    fn flag_reg(&self, c: &mut Scanner<'a>) -> PResult<Flag> {
        let pos = c.at();
        let nr = match c.ident_here() {
            Some(("f0", end)) => {
                c.advance_to(end);
                0
            }
            Some(("f1", end)) => {
                c.advance_to(end);
                1
            }
            _ => return Err(self.unexpected_at(*c, "a flag register `f0` or `f1`")),
        };
        Ok(Flag { nr, sub: 0, pos })
    }

    /// A 4-bit field value from an `invalid` marker.
    fn nibble(&self, n: Num) -> PResult<u8> {
        u8::try_from(n.value)
            .ok()
            .filter(|&v| v <= MARKER_VALUE_MAX)
            .ok_or_else(|| {
                self.error_at(
                    n.pos,
                    AsmErrorKind::OutOfRange {
                        what: "field value",
                        value: i64::try_from(n.value).unwrap_or(i64::MAX),
                        range: range_text!(0, MARKER_VALUE_MAX),
                    },
                )
            })
    }

    /// A flag subregister number where `c` stands, written into `f`.
    fn flag_sub(&self, c: &mut Scanner<'a>, f: &mut Flag) -> PResult<()> {
        let n = self.scan_number(c, "a flag subregister number")?;
        if n.value > u64::from(FLAG_SUBREG_LAST) {
            return Err(self.error_at(
                n.pos,
                AsmErrorKind::OutOfRange {
                    what: "flag subregister",
                    value: n.value as i64,
                    range: range_text!(0, FLAG_SUBREG_LAST),
                },
            ));
        }
        f.sub = n.value as u8;
        Ok(())
    }

    /// The predicate where `c` stands (at its `(`).
    fn predicate(&mut self, c: &mut Scanner<'a>) -> PResult<Predicate<'a>> {
        if !c.eat(b'(') {
            return Err(self.unexpected_at(*c, "`(`"));
        }
        let inv = if c.eat(b'-') {
            true
        } else {
            c.eat(b'+');
            false
        };
        let mut flag = self.flag_reg(c)?;
        let mut suffix = None;
        let mut raw = None;
        while c.eat(b'.') {
            let at = c.at();
            if suffix.is_none() {
                if c.number_here().is_some() {
                    self.flag_sub(c, &mut flag)?;
                    continue;
                }
                if let Some((s, end)) = c.ident_here() {
                    c.advance_to(end);
                    suffix = Some((s, at));
                    continue;
                }
            }
            return Err(self.unexpected_at(*c, "a flag subregister or a predicate control such as `any4h` or `x`"));
        }
        if suffix.is_none() && c.byte() == Some(b'*') {
            let (n, which) = self.with_tokens(c, |p| {
                p.invalid_marker(
                    &["predicate", "control", ""],
                    &["align1", "align16"],
                    "`*** invalid predicate control alignN value N`",
                )
            })?;
            self.nibble(n)?;
            raw = Some((n, which == 1));
        }
        if !c.eat(b')') {
            return Err(self.unexpected_at(*c, "`)` closing the predicate"));
        }
        Ok(Predicate { inv, flag, suffix, raw })
    }

    /// The instruction where `c` stands (after whitespace, at `pos`),
    /// written into `inst` (in place); `head` is the identifier there, if
    /// any.
    fn instruction(
        &mut self,
        c: &mut Scanner<'a>,
        pos: Pos,
        head: Option<(&'a [u8], usize)>,
        inst: &mut Inst<'a>,
    ) -> PResult<()> {
        // Written in place: a predicate is large, and most instructions
        // have none.
        let head = if c.byte() == Some(b'(') {
            inst.pred = Some(self.predicate(c)?);
            c.ident_bytes_here()
        } else {
            inst.pred = None;
            head
        };
        let Some((name, end)) = head else {
            return Err(self.unexpected_at(*c, "an opcode"));
        };
        let opcode = match opcode_by_bytes(name) {
            Some(op) if op.exists_on(self.platform) => op,
            // The name is consumed: recovery goes on after it.
            Some(op) => {
                let at = c.here();
                c.advance_to(end);
                return Err(self.error_at(
                    at,
                    AsmErrorKind::NotOnPlatform {
                        opcode: op,
                        platform: self.platform,
                    },
                ));
            }
            None => {
                let at = c.here();
                let name = c.ident_here().map_or("", |(name, _)| name);
                c.advance_to(end);
                return Err(self.error_at(at, AsmErrorKind::UnknownOpcode(name.into())));
            }
        };
        c.advance_to(end);
        inst.pos = pos;
        inst.opcode = opcode;
        inst.sat = false;
        inst.breakpoint = false;
        inst.cmod = None;
        inst.cmod_flag = None;
        inst.annotated = false;
        self.annotation.clear();
        self.suffixes(c, inst)?;
        // The function and the execution size are written once each.
        if opcode != Opcode::Math {
            inst.math_fn = MathFunction::None.hw();
        } else if c.byte() == Some(b'*') {
            let (n, _) = self.with_tokens(c, |p| {
                p.invalid_marker(&["function"], &[], "`*** invalid function value N`")
            })?;
            inst.math_fn = self.nibble(n)?;
        } else {
            let Some((f, end)) = c.ident_here().and_then(|(s, end)| Some((math_fn_by_name(s)?, end))) else {
                return Err(self.unexpected_at(
                    *c,
                    "a math function (inv, log, exp, sqrt, rsq, sin, cos, sincos, fdiv, pow, intdivmod, intdiv, intmod, invm, rsqrtm)",
                ));
            };
            c.advance_to(end);
            inst.math_fn = f;
        }
        self.tail(c, inst)
    }

    /// The execution size, the operands, the options block, a field
    /// annotation and the `;` of `inst`, whose head has been read, where
    /// `c` stands.
    fn tail(&mut self, c: &mut Scanner<'a>, inst: &mut Inst<'a>) -> PResult<()> {
        if c.eat(b'(') {
            let n = self.scan_number(c, "an execution size")?;
            inst.exec = u32::try_from(n.value)
                .ok()
                .and_then(ExecSize::from_channels)
                .ok_or_else(|| self.error_at(n.pos, AsmErrorKind::BadExecSize(n.value)))?;
            if !c.eat(b')') {
                return Err(self.unexpected_at(*c, "`)` after the execution size"));
            }
        } else {
            inst.exec = ExecSize::S1;
        }
        self.operands(c, inst.opcode, &mut inst.ops)?;
        // The options are written once: by the block, or as the defaults.
        if c.byte() == Some(b'{') {
            self.options_block(c, &mut inst.opts)?;
        } else {
            inst.opts = Options::default();
        }
        if c.byte() == Some(b'[') {
            self.with_tokens(c, Self::raw_fields)?;
            inst.annotated = true;
        }
        if !c.eat(b';') {
            return Err(self.unexpected_at(*c, "`;` ending the instruction"));
        }
        Ok(())
    }

    /// Reads what `f` reads token by token, from where `c` stands, and
    /// then moves `c` past it.
    fn with_tokens<T>(&mut self, c: &mut Scanner<'a>, f: impl FnOnce(&mut Self) -> PResult<T>) -> PResult<T> {
        self.resume(*c);
        let r = f(self);
        *c = self.scanner();
        r
    }

    /// The suffixes after the opcode where `c` stands: `.sat`,
    /// `.breakpoint`, a conditional modifier and its flag.
    fn suffixes(&mut self, c: &mut Scanner<'a>, inst: &mut Inst<'a>) -> PResult<()> {
        const WHAT: &str = "`sat`, `breakpoint`, a conditional modifier (z, e, nz, ne, g, ge, l, le, r, o, u) or, after one, its flag `f0.0`..`f1.1`";
        let mut after_flag = false;
        loop {
            if inst.cmod.is_none() && inst.opcode != Opcode::Math && c.byte() == Some(b'*') {
                let (n, _) = self.with_tokens(c, |p| {
                    p.invalid_marker(
                        &["conditional", "modifier"],
                        &[],
                        "`*** invalid conditional modifier value N`",
                    )
                })?;
                let v = self.nibble(n)?;
                inst.cmod = Some((v, n.pos));
                after_flag = false;
                continue;
            }
            if !c.eat(b'.') {
                break;
            }
            let at = c.at();
            if after_flag && c.number_here().is_some() {
                if let Some(f) = inst.cmod_flag.as_mut() {
                    let mut flag = *f;
                    self.flag_sub(c, &mut flag)?;
                    inst.cmod_flag = Some(flag);
                }
                after_flag = false;
                continue;
            }
            after_flag = false;
            let Some((s, end)) = c.ident_here() else {
                return Err(self.unexpected_at(*c, WHAT));
            };
            match s {
                "sat" => inst.sat = true,
                "breakpoint" => inst.breakpoint = true,
                "f0" | "f1" if inst.cmod.is_some() && inst.cmod_flag.is_none() => {
                    inst.cmod_flag = Some(self.flag_reg(c)?);
                    after_flag = true;
                    continue;
                }
                _ => match cond_mod_by_name(s) {
                    Some(v) if inst.cmod.is_none() => inst.cmod = Some((v, at)),
                    _ => return Err(self.unexpected_at(*c, WHAT)),
                },
            }
            c.advance_to(end);
        }
        Ok(())
    }

    /// The operands of `op` where `c` stands, written into `ops` (in place).
    fn operands(&mut self, c: &mut Scanner<'a>, op: Opcode, ops: &mut Operands<'a>) -> PResult<()> {
        match form(op) {
            Form::Send => self.send_operands(c, ops),
            Form::Wait => {
                let mut o = Operand::EMPTY;
                self.scan_operand(c, true, &mut o)?;
                *ops = Operands::Wait(o);
                Ok(())
            }
            Form::Jmpi => {
                let mut o = Operand::EMPTY;
                self.scan_operand(c, false, &mut o)?;
                *ops = Operands::Jmpi(o);
                Ok(())
            }
            // `brd`/`brc` with a register: a destination and src0.
            Form::Branch
                if op.offsets_may_be_register()
                    && Self::starts_operand(c)
                    && !c.ident_here().is_some_and(|(s, _)| s == "JIP" || s == "UIP") =>
            {
                match ops.alu_slots() {
                    Some((dst, src)) => self.alu_operands(c, op, 1, dst, src),
                    None => Ok(()),
                }
            }
            Form::Branch => {
                *ops = self.with_tokens(c, Self::branch_operands)?;
                Ok(())
            }
            Form::None => {
                *ops = Operands::None;
                Ok(())
            }
            Form::Alu(n) => match ops.alu_slots() {
                Some((dst, src)) => self.alu_operands(c, op, n, dst, src),
                None => Ok(()),
            },
        }
    }

    /// A destination and `n` sources where `c` stands, written into `dst`
    /// and `src` (in place).
    fn alu_operands(
        &mut self,
        c: &mut Scanner<'a>,
        op: Opcode,
        n: usize,
        dst: &mut Operand,
        src: &mut [Option<Operand>; 3],
    ) -> PResult<()> {
        self.scan_operand(c, true, dst)?;
        for (k, s) in src.iter_mut().enumerate() {
            // MATH's second source is optional.
            if k >= n || (op == Opcode::Math && k == 1 && !Self::starts_operand(c)) {
                *s = None;
                continue;
            }
            self.scan_operand(c, false, s.get_or_insert(Operand::EMPTY))?;
        }
        Ok(())
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

    /// A SEND's operands where `c` stands, written into `ops` (in place):
    /// the destination, the payload, a register descriptor if there is
    /// one, the descriptor (a number), the shared function and, if it
    /// follows, `MsgDesc:` and the free-form description up to the `{`,
    /// `;` or line end.
    fn send_operands(&mut self, c: &mut Scanner<'a>, ops: &mut Operands<'a>) -> PResult<()> {
        let Some(send) = ops.send_slots() else {
            return Ok(());
        };
        self.scan_dst_src(c, &mut send.dst, &mut send.src0)?;
        // The descriptor, a number, or else a register descriptor first.
        let mut look = *c;
        let neg = look.eat(b'-');
        let pos = look.at();
        if let Some((value, end)) = look.number_here() {
            look.advance_to(end);
            c.catch_up(&look);
            send.src1 = None;
            send.desc = Num {
                value: if neg { value.wrapping_neg() } else { value },
                pos,
            };
        } else {
            self.scan_operand(c, false, send.src1.insert(Operand::EMPTY))?;
            let neg = c.eat(b'-');
            let n = self.scan_number(c, "the message descriptor (a number such as 0x02280300)")?;
            send.desc = n;
            if neg {
                send.desc.value = n.value.wrapping_neg();
            }
        }
        send.sfid = self.scan_sfid(c)?;
        self.msg_desc(c)
    }

    /// `MsgDesc:` and the free-form description after it, up to the `{`,
    /// `;` or line end, if they stand where `c` stands.
    #[inline(always)]
    fn msg_desc(&self, c: &mut Scanner<'a>) -> PResult<()> {
        if let Some(end) = c.word_here("MsgDesc") {
            c.advance_to(end);
            if c.byte() != Some(b':') {
                return Err(self.unexpected_at(*c, "`:` after `MsgDesc`"));
            }
            // The description is raw text from right after the `:`.
            c.advance_raw(1);
            c.skip_description();
        }
        Ok(())
    }

    /// A shared function's name where `c` stands: one word, or one of
    /// [`multi_word_sfid`]'s (`dp data 1`), or Mesa's `*** invalid SFID
    /// value N`.
    #[inline(always)]
    fn scan_sfid(&mut self, c: &mut Scanner<'a>) -> PResult<u8> {
        const WHAT: &str = "a shared function (null, math, sampler, gateway, dp_sampler, render, urb, thread_spawner, vme, const, data, pixel interp, dp data 1, cre)";
        if c.byte() == Some(b'*') {
            return self.with_tokens(c, |p| {
                let (n, _) = p.invalid_marker(&["SFID"], &[], "`*** invalid SFID value N`")?;
                p.nibble(n)
            });
        }
        let Some((word, end)) = c.ident_bytes_here() else {
            return Err(self.unexpected_at(*c, WHAT));
        };
        if let Some(sfid) = sfid_by_name(word) {
            c.advance_to(end);
            return Ok(sfid);
        }
        let Some((second, one, sfid)) = multi_word_sfid(word) else {
            return Err(self.unexpected_at(*c, WHAT));
        };
        // Two- and three-word names.
        c.advance_to(end);
        match c.word_here(second) {
            Some(end) => c.advance_to(end),
            None => return Err(self.unexpected_at(*c, WHAT)),
        }
        if one {
            let n = self.scan_number(c, WHAT)?;
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

    /// A field annotation, `[name=value ...]` (items separated by spaces
    /// or commas), its items kept in [`Parser::annotation`]. Lowering
    /// resolves the names against the instruction's
    /// layout.
    fn raw_fields(&mut self) -> PResult<()> {
        self.expect(Kind::LBracket, "`[`")?;
        loop {
            match self.tok.kind {
                Kind::RBracket => {
                    self.bump();
                    return Ok(());
                }
                Kind::Comma => {
                    self.bump();
                }
                _ => {
                    let name = self.expect(Kind::Ident, "a field name (`src1_reg_type`, `bits_95_64`, ...) or `]`")?;
                    self.expect(Kind::Equals, "`=` after the field name")?;
                    let value = self.number("the field's value")?;
                    self.annotation.push(RawItem {
                        name: name.text,
                        pos: name.pos,
                        value,
                    });
                }
            }
        }
    }

    /// The options block where `c` stands (at its `{`), written into `o`
    /// (in place): a block kept if it is the same bytes ([`OptionsMemo`]),
    /// else read by [`Parser::scan_options`] (and kept if on one line).
    #[inline(always)]
    fn options_block(&mut self, c: &mut Scanner<'a>, o: &mut Options) -> PResult<()> {
        let start = c.index();
        let rest = self.source().as_bytes().get(start..).unwrap_or(&[]);
        let open = c.at();
        if let Some((opts, len)) = self.opts_memo.find(rest) {
            *o = Options { pos: open, ..opts };
            c.advance(len);
            return Ok(());
        }
        let (end, line) = self.scan_options(c, o)?;
        if line == open.line {
            self.opts_memo.keep(rest, end - start, *o);
        }
        Ok(())
    }

    /// The options block where `c` stands, written into `o` (in place);
    /// gives where the block ends (after its `}`) and the line of the `}`.
    fn scan_options(&self, c: &mut Scanner<'a>, o: &mut Options) -> PResult<(usize, u32)> {
        let open = c.at();
        if !c.eat(b'{') {
            return Err(self.unexpected_at(*c, "`{`"));
        }
        *o = Options {
            pos: open,
            ..Options::default()
        };
        loop {
            match c.byte() {
                Some(b'}') => {
                    let close = (c.index() + 1, c.at().line);
                    c.advance(1);
                    return Ok(close);
                }
                Some(b',') => c.advance(1),
                Some(b'0'..=b'9') => {
                    let at = c.here();
                    let Some((n, end)) = c.number_here() else {
                        return Err(self.unexpected_at(*c, EXPECT_OPTION));
                    };
                    let digits_end = end;
                    c.advance_to(end);
                    let Some((letter, end)) = c.ident_bytes_here() else {
                        return Err(self.unexpected_at(*c, "`Q`, `H` or `N` after the quarter number"));
                    };
                    c.advance_to(end);
                    let Some((qtr, nib)) = quarter(o, n, letter) else {
                        let digits = self.source().get(at.offset as usize..digits_end).unwrap_or("");
                        let letter = core::str::from_utf8(letter).unwrap_or("");
                        return Err(self.error_at(
                            at,
                            AsmErrorKind::Unexpected {
                                found: alloc::format!("`{digits}{letter}`"),
                                expected: "a quarter control: 1Q..4Q, 1H, 2H or 1N..8N",
                            },
                        ));
                    };
                    o.qtr = qtr;
                    o.nib = nib;
                }
                _ => match c.ident_bytes_here() {
                    Some((word, end)) if named_option(o, word) => c.advance_to(end),
                    _ => return Err(self.unexpected_at(*c, EXPECT_OPTION)),
                },
            }
        }
    }

    /// [`Parser::scan_options`] at the current token.
    #[cfg(test)]
    fn options(&mut self) -> PResult<Options> {
        let mut c = self.c;
        let mut o = Options::default();
        let r = self.scan_options(&mut c, &mut o);
        self.resume(c);
        r.map(|_| o)
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
        let numbered = |base: u8, n: u32| -> PResult<RegName> {
            if n > u32::from(arf::NUMBER_MAX) {
                return Err(self.error_at(
                    t.pos,
                    AsmErrorKind::OutOfRange {
                        what: "architecture register number",
                        value: i64::from(n),
                        range: range_text!(0, arf::NUMBER_MAX),
                    },
                ));
            }
            Ok(RegName::Arf {
                nr: base | n as u8,
                bare: false,
            })
        };
        match t.text {
            "null" => {
                return Ok(RegName::Arf {
                    nr: arf::NULL,
                    bare: false,
                })
            }
            "ip" => {
                return Ok(RegName::Arf {
                    nr: arf::IP,
                    bare: true,
                })
            }
            "tdr" | "tdr0" => {
                return Ok(RegName::Arf {
                    nr: arf::TDR,
                    bare: true,
                })
            }
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
                        range: range_text!(0, u8::MAX),
                    },
                ))
            }
            None => return Err(bad()),
        };
        // A register number (up to `max`) and its range's text.
        let byte = |n: u32, what: &'static str, (max, range): (u8, &'static str)| -> PResult<u8> {
            if n > u32::from(max) {
                Err(self.error_at(
                    t.pos,
                    AsmErrorKind::OutOfRange {
                        what,
                        value: i64::from(n),
                        range,
                    },
                ))
            } else {
                Ok(n as u8)
            }
        };
        const BYTE: (u8, &str) = (u8::MAX, range_text!(0, u8::MAX));
        const MRF: (u8, &str) = (u8::MAX - MRF_GRF_BASE, range_text!(0, u8::MAX - MRF_GRF_BASE));
        match name {
            "g" | "r" => Ok(RegName::Grf(byte(n, "GRF register number", BYTE)?)),
            "m" => Ok(RegName::Mrf(byte(n, "MRF register number", MRF)?)),
            // Mesa's other spelling of the mask register.
            "ce" => numbered(arf::MASK, n),
            "ARF" => Ok(RegName::Arf {
                nr: byte(n, "ARF register number", BYTE)?,
                bare: false,
            }),
            _ => match arf_class_by_name(name) {
                Some(c) if c.numbered => numbered(c.base, n),
                _ => Err(bad()),
            },
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

    /// The region where `c` stands (at its `<`) and the type after it,
    /// written into `r` and `ty` (in place); `false`, with only the region
    /// read, if channels (`.`) follow the region. Both are taken from a
    /// region and type kept if they are the same bytes, not followed by
    /// more of the type's identifier ([`RegionMemo`]), their positions
    /// moved to where they stand; else read by [`Parser::scan_region`]
    /// and [`Parser::scan_type`] (and kept if on one line, without an
    /// `invalid` marker, which is read token by token).
    #[inline(always)]
    fn region_type_at(&mut self, c: &mut Scanner<'a>, r: &mut Region, ty: &mut Option<(Type, Pos)>) -> PResult<bool> {
        let start = c.index();
        let rest = self.source().as_bytes().get(start..).unwrap_or(&[]);
        let open = c.at();
        let at = |rel: Pos| Pos {
            offset: open.offset.saturating_add(rel.offset),
            line: open.line,
        };
        if let Some(((m, (t, tpos)), len)) = self.region_memo.find(rest) {
            if !rest.get(len).is_some_and(|&b| is_ident_char(b)) {
                r.pos = open;
                r.vxh = m.vxh;
                r.raw = m.raw;
                r.n = m.n;
                for (v, m) in r.vals.iter_mut().zip(m.vals).take(usize::from(m.n)) {
                    *v = Num {
                        value: m.value,
                        pos: at(m.pos),
                    };
                }
                *ty = Some((t, at(tpos)));
                c.advance(len);
                return Ok(true);
            }
        }
        let (_, line) = self.scan_region(c, r)?;
        if c.byte() == Some(b'.') {
            return Ok(false);
        }
        let end = self.scan_type(c, ty)?;
        // Positions from the `<`, exact only below 4 GiB.
        if let Some((t, tpos)) = *ty {
            if line == open.line && tpos.line == open.line && r.raw == 0 && u32::try_from(end).is_ok() {
                let rel = |p: Pos| Pos {
                    offset: p.offset - open.offset,
                    line: 0,
                };
                let mut m = *r;
                m.pos = rel(m.pos);
                for v in m.vals.iter_mut().take(usize::from(m.n)) {
                    v.pos = rel(v.pos);
                }
                self.region_memo.keep(rest, end - start, (m, (t, rel(tpos))));
            }
        }
        Ok(true)
    }

    /// A region, read from the bytes where `c` stands: `<`, up to three
    /// items separated by `,` or `;`, and `>`. An item is a number, `VxH`
    /// (first only) or Mesa's `*** invalid ...` marker (first two only).
    /// The region is written into `r` (in place); gives where it ends
    /// (after its `>`) and the line of the `>`.
    #[inline(always)]
    fn scan_region(&mut self, c: &mut Scanner<'a>, r: &mut Region) -> PResult<(usize, u32)> {
        let open = c.at();
        if !c.eat(b'<') {
            return Err(self.unexpected_at(*c, "`<`"));
        }
        // Only what every region has is reset: the values are written as
        // they are read (those past the count stay as they were).
        r.pos = open;
        r.vxh = false;
        r.raw = 0;
        // The count is kept here and stored once.
        let mut n = 0u8;
        let done = loop {
            let at = c.at();
            let Some(slot) = r.vals.get_mut(usize::from(n)) else {
                break Err(self.unexpected_at(*c, "`>` closing the region"));
            };
            if let Some((value, end)) = c.number_here() {
                // Taken without what follows: `,`, `;` or `>`, and after
                // `,` or `;` a digit, are looked for directly.
                c.take(end);
                *slot = Num { value, pos: at };
            } else {
                match c.byte() {
                    Some(b'*') if n < 2 => {
                        let (words, what): (&[&str], _) = if n == 0 && !r.vxh {
                            (&["vert", "stride"], "`*** invalid vert stride value N`")
                        } else {
                            (&["width"], "`*** invalid width value N`")
                        };
                        // The marker's words are read as tokens.
                        self.resume(*c);
                        let marker = self
                            .invalid_marker(words, &[], what)
                            .and_then(|(m, _)| self.nibble(m).map(|_| m));
                        *c = self.scanner();
                        match marker {
                            Ok(m) => *slot = m,
                            Err(e) => break Err(e),
                        }
                        r.raw |= 1 << n;
                    }
                    Some(b'V') if n == 0 && c.word_here("VxH").is_some() => {
                        c.advance(3);
                        r.vxh = true;
                        *slot = Num { value: 0, pos: at };
                    }
                    _ => break Err(self.unexpected_at(*c, "a region value")),
                }
            }
            n += 1;
            let mut b = c.raw_byte();
            if !matches!(b, Some(b',' | b';' | b'>')) {
                c.settle();
                b = c.byte();
            }
            match b {
                Some(b'>') => {
                    let close = (c.index() + 1, c.at().line);
                    c.advance(1);
                    break Ok(close);
                }
                Some(b',' | b';') => {
                    c.take(c.index() + 1);
                    if !c.raw_byte().is_some_and(|b| b.is_ascii_digit()) {
                        c.settle();
                    }
                }
                _ => break Err(self.unexpected_at(*c, "`,` or `>` in the region")),
            }
        };
        r.n = n;
        done
    }

    /// [`Parser::scan_region`] at the current token.
    #[cfg(test)]
    fn region(&mut self) -> PResult<Region> {
        let mut c = self.c;
        let mut r = Region::EMPTY;
        let ok = self.scan_region(&mut c, &mut r);
        self.resume(c);
        ok.map(|_| r)
    }

    /// The `.xyzw` letters of an identifier; returns the letters and the
    /// rest (a type name, possibly empty).
    fn channels<'t>(&self, t: Token<'t>) -> PResult<(Chans, &'t str)> {
        // A math-macro specifier in the channels' place (geneu's
        // extension: Mesa's syntax has none), then the type.
        for m in crate::model::MathMacro::ALL {
            if let Some(rest) = t.text.strip_prefix(m.name()) {
                let c = Chans {
                    ch: [0; 4],
                    n: 0,
                    mme: Some(*m),
                    pos: t.pos,
                };
                return Ok((c, rest));
            }
        }
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
            mme: None,
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

    /// A scanner standing at the current token, to read operands from
    /// the bytes.
    #[inline]
    fn scanner(&self) -> Scanner<'a> {
        Scanner::new(self.source(), self.tok.pos, self.prev_line)
    }

    /// Reads on, token by token, from where `c` (from
    /// [`Parser::scanner`]) stands: the piece there becomes the current
    /// token, and the last piece `c` took the last token consumed.
    #[inline]
    fn resume(&mut self, c: Scanner<'a>) {
        self.lex = c.lexer();
        self.prev_line = c.last_line();
        self.lex.next_token_into(&mut self.tok);
    }

    /// "unexpected <the token where `c` stands>, expected <what>".
    #[cold]
    #[inline(never)]
    fn unexpected_at(&self, c: Scanner<'a>, expected: &'static str) -> AsmError {
        self.unexpected_token(c.token(), expected)
    }

    /// [`Parser::scan_operand`] at the current token.
    #[cfg(test)]
    fn operand(&mut self, dst: bool) -> PResult<Operand> {
        let mut o = Operand::EMPTY;
        let mut c = self.c;
        let r = self.scan_operand(&mut c, dst, &mut o);
        self.resume(c);
        r.map(|()| o)
    }

    /// Whether the next piece where `c` stands may start an operand.
    fn starts_operand(c: &mut Scanner<'a>) -> bool {
        match c.byte() {
            Some(b'-' | b'~' | b'(') => true,
            Some(b) if b.is_ascii_digit() => true,
            _ => c.ident_here().is_some_and(|(s, _)| s != "MsgDesc"),
        }
    }

    /// An operand, read from the bytes where `c` stands, written into `o`
    /// (in place): `[-|~][(abs)]`, then a number and a type (`-1D`,
    /// `0x3f800000F`), or a register (`g12`, `acc0`, `g[a0.1 +16]`), an
    /// optional `.<sub>`, an optional region, and a type, after `.` and
    /// channels in align16 (`g7.2<8,8,1>UD`, `g3<4>.xyzwF`). `ip` and
    /// `tdr0` may stand alone. On an error `c` stands at the piece it
    /// could not take.
    fn scan_operand(&mut self, c: &mut Scanner<'a>, dst: bool, o: &mut Operand) -> PResult<()> {
        // Read through a local copy that no call outside this function
        // sees, so that the cursor stays in registers rather than being
        // stored and reloaded at each piece.
        let mut s = *c;
        let r = self.scan_operand_in(&mut s, dst, o);
        c.catch_up(&s);
        r
    }

    /// A destination and a source, as [`Parser::scan_operand`] reads them,
    /// through one local copy of the cursor (and one call).
    fn scan_dst_src(&mut self, c: &mut Scanner<'a>, dst: &mut Operand, src: &mut Operand) -> PResult<()> {
        let mut s = *c;
        let r = self
            .scan_operand_in(&mut s, true, dst)
            .and_then(|()| self.scan_operand_in(&mut s, false, src));
        c.catch_up(&s);
        r
    }

    /// [`Parser::scan_operand`] on its local scanner `c`.
    #[inline(always)]
    fn scan_operand_in(&mut self, c: &mut Scanner<'a>, dst: bool, o: &mut Operand) -> PResult<()> {
        o.pos = c.at();
        o.neg = false;
        o.abs = false;
        o.chans = None;
        o.ty = None;
        if matches!(c.byte(), Some(b'-' | b'~')) {
            c.advance(1);
            o.neg = true;
        }
        if c.eat(b'(') {
            match c.word_here("abs") {
                Some(end) => c.advance_to(end),
                _ => return Err(self.unexpected_at(*c, "`abs` in the `(abs)` source modifier")),
            }
            if !c.eat(b')') {
                return Err(self.unexpected_at(*c, "`)` after `(abs`"));
            }
            o.abs = true;
        }
        if let Some((value, end)) = c.number_here() {
            c.advance_to(end);
            o.base = Base::Imm { value, neg: o.neg };
            o.neg = false;
            o.region = None;
            return self.scan_type(c, &mut o.ty).map(|_| ());
        }
        // A direct register's name and where it ends; `None` for an
        // indirect address, read here.
        let direct = match c.grf_here() {
            Some((n, end)) => Some((RegName::Grf(n), end)),
            None => {
                let Some((text, end)) = c.ident_here() else {
                    return Err(self.unexpected_at(*c, if dst { "a destination register" } else { EXPECT_SRC }));
                };
                let indirect = matches!(text, "g" | "r") && {
                    let mut look = *c;
                    look.advance_to(end);
                    look.byte() == Some(b'[')
                };
                if indirect {
                    c.advance_to(end);
                    // Rare: read on a copy, so that `c` stays local.
                    let mut look = *c;
                    let base = self.scan_indirect(&mut look);
                    c.catch_up(&look);
                    o.base = base?;
                    None
                } else {
                    let t = Token {
                        kind: Kind::Ident,
                        text,
                        value: 0,
                        pos: c.here(),
                    };
                    Some((self.reg_name(t)?, end))
                }
            }
        };
        if let Some((name, end)) = direct {
            c.advance_to(end);
            let mut sub = None;
            if c.byte() == Some(b'.') {
                let mut look = *c;
                look.advance(1);
                let pos = look.at();
                if let Some((value, end)) = look.number_here() {
                    look.advance_to(end);
                    c.catch_up(&look);
                    sub = Some(Num { value, pos });
                }
            }
            o.base = Base::Reg { name, sub };
            if let RegName::Arf { bare: true, .. } = name {
                // `ip` and `tdr0` print bare; a region and type may follow.
                if c.byte() != Some(b'<') && !c.ident_here().is_some_and(|(s, _)| type_by_name(s).is_some()) {
                    o.region = None;
                    return Ok(());
                }
            }
        }
        if c.byte() == Some(b'<') {
            if self.region_type_at(c, o.region.get_or_insert(Region::EMPTY), &mut o.ty)? {
                return Ok(());
            }
        } else {
            o.region = None;
        }
        if c.eat(b'.') {
            let at = c.at();
            let Some((text, end)) = c.ident_here() else {
                return Err(self.unexpected_at(*c, "channels (x, y, z, w) and a type"));
            };
            let t = Token {
                kind: Kind::Ident,
                text,
                value: 0,
                pos: at,
            };
            let (ch, rest) = self.channels(t)?;
            c.advance_to(end);
            o.chans = Some(ch);
            if !rest.is_empty() {
                let shown = ch.mme.map_or(u32::from(ch.n), |m| m.name().len() as u32);
                let tpos = Pos {
                    offset: at.offset + shown,
                    ..at
                };
                o.ty = Some((self.type_token(rest, tpos)?, tpos));
                return Ok(());
            }
        }
        self.scan_type(c, &mut o.ty).map(|_| ())
    }

    /// A number where `c` stands (`what` names it in an error).
    // Inlined: a small value returned through memory inside a `Result`
    // is read back wider than it was written, which stalls.
    #[inline(always)]
    fn scan_number(&self, c: &mut Scanner<'a>, what: &'static str) -> PResult<Num> {
        let pos = c.at();
        match c.number_here() {
            Some((value, end)) => {
                c.advance_to(end);
                Ok(Num { value, pos })
            }
            None => Err(self.unexpected_at(*c, what)),
        }
    }

    /// A type name where `c` stands, written into `ty` (in place).
    #[inline(always)]
    fn scan_type(&self, c: &mut Scanner<'a>, ty: &mut Option<(Type, Pos)>) -> PResult<usize> {
        let pos = c.at();
        if let Some((text, end)) = c.ident_bytes_here() {
            if let Some(Some(t)) = type_by_bytes(text) {
                c.advance_to(end);
                *ty = Some((t, pos));
                return Ok(end);
            }
        }
        Err(self.not_a_type(*c))
    }

    /// The error for what `c` stands at, which is no type name.
    #[cold]
    #[inline(never)]
    fn not_a_type(&self, c: Scanner<'a>) -> AsmError {
        match c.ident_here().and_then(|(text, _)| type_by_name(text)) {
            Some(_) => self.type_not_on_platform(c.here()),
            None => self.unexpected_at(c, EXPECT_TYPE),
        }
    }

    /// An indirect address `[a0.sub +imm]` where `c` stands (after the
    /// `g`); `.sub:uw` names the address subregister itself.
    fn scan_indirect(&self, c: &mut Scanner<'a>) -> PResult<Base> {
        if !c.eat(b'[') {
            return Err(self.unexpected_at(*c, "`[`"));
        }
        match c.word_here("a0") {
            Some(end) => c.advance_to(end),
            _ => return Err(self.unexpected_at(*c, "the address register `a0`")),
        }
        let sub = if c.eat(b'.') {
            Some(self.scan_number(c, "an address subregister number")?)
        } else {
            None
        };
        let sub_words = sub.is_some() && c.eat(b':');
        if sub_words {
            match c.word_here(ADDR_SUB_UNIT) {
                Some(end) => c.advance_to(end),
                _ => return Err(self.unexpected_at(*c, "`uw` (the address subregister's own unit)")),
            }
        }
        let mut imm = 0i64;
        let mut imm_pos = c.at();
        let neg = match c.byte() {
            Some(b'-') => true,
            Some(b'+') => false,
            _ => false,
        };
        if matches!(c.byte(), Some(b'-' | b'+')) {
            c.advance(1);
        }
        if let Some((value, end)) = c.number_here() {
            imm_pos = c.here();
            c.advance_to(end);
            let v = i64::try_from(value).unwrap_or(i64::MAX);
            imm = if neg { -v } else { v };
        } else if neg {
            return Err(self.unexpected_at(*c, "an address offset"));
        }
        if !c.eat(b']') {
            return Err(self.unexpected_at(*c, "`]` closing the indirect address"));
        }
        Ok(Base::Indirect {
            sub,
            sub_words,
            imm,
            imm_pos,
        })
    }
}

mod memo;
#[cfg(test)]
mod tests;
