//! The IGA-syntax reader (assembler): text as `iga64 -d` prints it (and
//! as users write it for `iga64 -a`) → [`Instruction`]s → words.
//!
//! One line holds one instruction (or labels, or nothing):
//!
//! ```text
//! LABEL:
//! (W&~f0.1.any4h) op.fn (8|M8)  (lt)f0.0  dst  src0  src1  src2  {Opt,Opt} [field=value ...] // comment
//! ```
//!
//! What the text shows is taken from it; the fields it does not show get
//! IGA's values: first Mesa's canonical ones ([`crate::canon::canonicalize`],
//! the one home of the shared rules), then IGA's own where they differ
//! ([`super::iga_canonical`], IGA's defaults as data). The field annotation
//! `[name=value ...]` (see the module doc of [`super`]) is then written
//! into the word, so the annotated text of any word that decodes gives
//! back its bytes.
//!
//! Besides what the printer prints, the reader takes what IGA's parser
//! (`KernelParser.cpp`, IGA 1.1.0) accepts that users write by hand:
//!
//! - an execution size without `|M0` (`(8)`), none on `nop`, `illegal`
//!   and `wait`; a destination without `<1>`; a register without its
//!   subregister (`r12` is `r12.0`);
//! - regions left out as IGA fills them: `<0;1,0>` in a SIMD1
//!   instruction, for an operand with a subregister (`r2.0:f`) and for
//!   `ip`/`ce`, else `<1;1,0>` (always for an indirect operand); 3-source
//!   `<0;0>`/`<0>` and `<2;1>`/`<1>` by the same rule;
//! - immediates as IGA's constant expressions (the `expr` module):
//!   `(2*4+1):d`, `~0:ud`, binary `0b101`, floats `1.5e-3`, `0x1.8p3`,
//!   `inf`, `nan`, `qnan(0x5)`, `snan(…)`, with IGA's conversions to the
//!   type (`-0x3F800000:f` is the bits 0xC0800000; an integer keeps the
//!   bits its type holds, `0x10000:uw` is 0; `2:f` and `0x13C00:hf` are
//!   refused, as IGA refuses them); SEND descriptors and numeric jumps as constant
//!   integer expressions; a label as `mov`'s source (its byte offset);
//! - source modifiers `~` (as `-`) and `|operand|` (as `(abs)`);
//!   indirect operands `r[a0.1 + 16]` and `r3[a0.1,16]` (from r3);
//! - a flag modifier without its flag (`f0.0`), IGA's legacy modifier
//!   names (`z`, `e`, `l`, `g`, `o`, `u`, `ze`, `nz`), the bracketed
//!   `[(lt)f0.0]`; predicate control `.xyzw` (the default) and `(f0.any4h)`
//!   for `f0.0`; `math.N` by function code; its alternative type names
//!   (`u32`, `s16`, `f32`, ...);
//! - user labels (`loop_head:`), numeric branch offsets (bytes from the
//!   branch, as IGA's `jmpi 32` reads them) with a type or none (IGA
//!   reads the type and leaves it out: a branch operand's type is
//!   implicit), `jmpi` with a label or a byte offset counted from the
//!   jmpi, and NoMask on `jmpi` whether `(W)` is written or not (IGA's
//!   parser adds it), `{Compacted}`, `{NoCompact}`, `{Uncompacted}`,
//!   `{Serialize}` (which IGA encodes from Gen12 on only: no bit), and
//!   `/* ... */` comments;
//! - the directives of `iga64 -Xlegacy-directives`:
//!   `.default_execution_size(16)` and `.default_register_type :f`
//!   (after either, an instruction without execution size takes the
//!   default one, SIMD1 unless set; a register operand without type takes
//!   the default type; immediates still need theirs).

use alloc::string::String;
use alloc::vec::Vec;

use super::expr::{imm_bits, Ex, Val};
use super::print::{arf_info, cond_name, implicit_exec, math_name, type_name};
use crate::isa::arf;
use crate::model::*;
use crate::text::hidden::{Patch, RawField};
use crate::text::lower::{encode_patched, encode_patched_word};
use crate::text::{AsmError, AsmErrorKind, AsmErrors, AsmOptions, Assembled};

/// A jump target as written: a label or a byte offset.
#[derive(Clone, Debug)]
enum Jump<'a> {
    Label(&'a str, usize),
    Bytes(i64, usize),
}

/// One parsed instruction, waiting for its labels.
struct Parsed<'a> {
    inst: Instruction,
    jip: Option<Jump<'a>>,
    uip: Option<Jump<'a>>,
    /// The annotation's fields.
    raw: Option<Patch>,
    at: usize,
    /// The line (from 1) and the offset of its first byte.
    line: u32,
    line_start: usize,
    /// A warning IGA's assembler gives for the text (`Warning`).
    warning: Option<Warning>,
}

/// A warning of IGA's parser for text it assembles all the same, kept
/// with the instruction as [`Assembled::warnings`] keeps those of a
/// lenient assembly.
#[derive(Clone, Copy, Debug)]
enum Warning {
    /// `KernelParser::ParseMnemonic`: "jmpi must have (W) specified
    /// (automatically adding)".
    JmpiNoMask,
}

impl Warning {
    fn violation(self) -> crate::error::Violation {
        let (rule, operand, message) = match self {
            Warning::JmpiNoMask => (
                "iga_jmpi_nomask",
                crate::error::OperandId::Inst,
                "jmpi without (W): NoMask added, as IGA's assembler adds it",
            ),
        };
        crate::error::Violation {
            rule,
            basis: crate::error::Basis::Conservative,
            source: "IGA's assembler (KernelParser) warns the same",
            operand,
            message: message.into(),
        }
    }
}

type R<T> = Result<T, (usize, AsmErrorKind)>;

fn unexpected<T>(at: usize, found: &str, expected: &'static str) -> R<T> {
    Err((
        at,
        AsmErrorKind::Unexpected {
            found: if found.is_empty() {
                String::from("end of line")
            } else {
                alloc::format!("`{found}`")
            },
            expected,
        },
    ))
}

fn invalid<T>(at: usize, what: &'static str, why: &'static str) -> R<T> {
    Err((at, AsmErrorKind::Invalid { what, why }))
}

/// A cursor over one line (offsets are into the whole text).
struct Cur<'a> {
    src: &'a str,
    /// The text's bytes up to `end` (the end of the line's code).
    b: &'a [u8],
    i: usize,
    end: usize,
}

/// Whether each byte is one of an identifier's (letters, digits, `_`).
const IDENT: [bool; 256] = ident_bytes();

// Evaluated at compile time: the indices are in range.
#[allow(clippy::indexing_slicing)]
const fn ident_bytes() -> [bool; 256] {
    let mut t = [false; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        t[c] = b.is_ascii_alphanumeric() || b == b'_';
        c += 1;
    }
    t
}

#[inline(always)]
fn is_ident(c: u8) -> bool {
    // (A byte is always in the table: the check compiles away.)
    IDENT.get(usize::from(c)).copied().unwrap_or(false)
}

impl<'a> Cur<'a> {
    // `b` ends at `end`: its bounds check is the line's.
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }
    fn peek_at(&self, k: usize) -> Option<u8> {
        self.b.get(self.i + k).copied()
    }
    fn ws(&mut self) {
        // IGA pads its columns with runs of spaces: eight bytes at a
        // time, then the rest (tabs and CRs too) byte by byte.
        const SPACES: u64 = u64::from_le_bytes([b' '; 8]);
        // Most calls find no space at all.
        if self.peek() != Some(b' ') && !matches!(self.peek(), Some(b'\t' | b'\r')) {
            return;
        }
        while let Some(w) = self.b.get(self.i..).and_then(<[u8]>::first_chunk::<8>) {
            let x = u64::from_le_bytes(*w) ^ SPACES;
            if x != 0 {
                self.i += (x.trailing_zeros() / 8) as usize;
                break;
            }
            self.i += 8;
        }
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\r')) {
            self.i += 1;
        }
    }
    /// Whether an immediate here starts with a decimal digit (not `0x`
    /// or `0b`), which [`imm_bits`] reads as a decimal written value.
    fn dec_first(&self) -> bool {
        self.peek().is_some_and(|x| x.is_ascii_digit()) && !matches!(self.peek_at(1), Some(b'x' | b'X' | b'b' | b'B'))
    }

    fn eat(&mut self, c: u8) -> bool {
        self.ws();
        if self.peek() == Some(c) {
            self.i += 1;
            true
        } else {
            false
        }
    }
    /// The text of the next token, for an error.
    fn found(&self) -> &'a str {
        let mut j = self.i;
        while j < self.end && self.b.get(j).is_some_and(|&c| is_ident(c) || c == b'.') {
            j += 1;
        }
        if j == self.i && self.i < self.end {
            j += 1;
            while !self.src.is_char_boundary(j) {
                j += 1;
            }
        }
        self.src.get(self.i..j).unwrap_or("")
    }
    #[inline(always)]
    fn expect(&mut self, c: u8, what: &'static str) -> R<()> {
        if self.eat(c) {
            Ok(())
        } else {
            self.expected(what)
        }
    }
    /// The error of a token other than `what` at the cursor.
    #[cold]
    #[inline(never)]
    fn expected<T>(&self, what: &'static str) -> R<T> {
        unexpected(self.i, self.found(), what)
    }
    fn ident(&mut self) -> Option<&'a str> {
        self.ws();
        let s = self.i;
        let rest = self.b.get(s..)?;
        let n = rest.iter().position(|&c| !is_ident(c)).unwrap_or(rest.len());
        if n == 0 {
            return None;
        }
        self.i = s + n;
        // The bytes are ASCII: the slice is on character boundaries.
        Some(self.src.get(s..s + n).unwrap_or(""))
    }
    /// An unsigned decimal, `0x` hexadecimal or `0b` binary number (IGA's
    /// integer literals, `expr::Ex::int_literal`).
    #[inline(always)]
    fn number(&mut self, what: &'static str) -> R<u64> {
        self.ws();
        if let Some(v) = self.quick_number() {
            return Ok(v);
        }
        self.long_number(what)
    }
    /// [`Cur::number`] past the common literals.
    #[inline(never)]
    fn long_number(&mut self, what: &'static str) -> R<u64> {
        let s = self.i;
        let mut e = self.ex();
        match e.int_literal() {
            Ok(Some(v)) => {
                self.i = e.i;
                Ok(v)
            }
            Err(err @ (_, AsmErrorKind::NumberTooLarge(_))) => Err(err),
            _ => unexpected(s, self.found(), what),
        }
    }
    /// The common integer literals without the expression reader
    /// ([`super::expr::short_literal`], which `Ex::int_literal` reads
    /// first too). `None` (the cursor kept) for anything else, which the
    /// full reader then reads.
    #[inline]
    fn quick_number(&mut self) -> Option<u64> {
        let (v, n) = super::expr::short_literal(self.b.get(self.i..)?)?;
        self.i += n;
        Some(v)
    }
    /// An expression cursor at this one.
    fn ex(&self) -> Ex<'a> {
        Ex {
            b: self.b,
            i: self.i,
            end: self.end,
        }
    }
    /// A constant integer expression (a SEND descriptor, a jump).
    fn int_expr(&mut self, what: &'static str) -> R<i64> {
        self.ws();
        let at = self.i;
        let v = self.expr()?;
        match v {
            Val::Int(v) => Ok(v),
            Val::Float(_) => invalid(at, what, "a constant integer expression"),
        }
    }
    /// A constant expression ([`Ex::expr`]), a literal alone read
    /// without the expression reader, as `Ex::expr` reads it first.
    fn expr(&mut self) -> R<Val> {
        let at = self.i;
        if let Some(v) = self.quick_number() {
            if self.peek() != Some(b'.') {
                self.ws();
                if !super::expr::continues_expr(self.peek()) {
                    // IGA reads literals as unsigned and keeps them as signed.
                    return Ok(Val::Int(v as i64));
                }
            }
            self.i = at;
        }
        let mut e = self.ex();
        let v = e.expr()?;
        self.i = e.i;
        Ok(v)
    }
    fn small(&mut self, what: &'static str, max: u64, range: &'static str) -> R<u8> {
        let at = self.i;
        let v = self.number(what)?;
        if v > max {
            return Err((
                at,
                AsmErrorKind::OutOfRange {
                    what,
                    value: i64::try_from(v).unwrap_or(i64::MAX),
                    range,
                },
            ));
        }
        Ok(v as u8)
    }
}

/// A direct register whose name ends at the cursor: its `.sub`, if any.
fn direct(c: &mut Cur<'_>, file: RegFile, nr: u8) -> R<Reg> {
    let sub = if c.peek() == Some(b'.') && c.peek_at(1).is_some_and(|x| x.is_ascii_digit()) {
        c.i += 1;
        Some(c.small("subregister", 31, "0 to 31")?)
    } else {
        None
    };
    Ok(Reg::Direct { file, nr, sub })
}

/// A name of one or two bytes as one integer (0 for any other length).
const fn short_key(s: &[u8]) -> u16 {
    match *s {
        [a] => a as u16,
        [a, b] => a as u16 | (b as u16) << 8,
        _ => 0,
    }
}

/// IGA's type names (the printer's, `type_name`, after its `:`), as
/// [`short_key`]s.
const TYPE_KEYS: [(u16, Type); Type::ALL.len()] = type_keys();

// Evaluated at compile time: the indices are in range.
#[allow(clippy::indexing_slicing)]
const fn type_keys() -> [(u16, Type); Type::ALL.len()] {
    let mut t = [(0, Type::UD); Type::ALL.len()];
    let mut k = 0;
    while k < Type::ALL.len() {
        let ty = Type::ALL[k];
        // The name after its `:`.
        let key = match type_name(ty).as_bytes().split_first() {
            Some((_, name)) => short_key(name),
            None => 0,
        };
        t[k] = (key, ty);
        k += 1;
    }
    t
}

/// The type of IGA's name whose [`short_key`] is `key` (none for 0).
#[inline]
fn type_keyed(key: u16) -> Option<Type> {
    if key == 0 {
        return None;
    }
    TYPE_KEYS.iter().find(|&&(k, _)| k == key).map(|&(_, t)| t)
}

/// IGA's type names, and the alternative ones its parser accepts.
fn type_named(s: &str) -> Option<Type> {
    if let Some(t) = type_keyed(short_key(s.as_bytes())) {
        return Some(t);
    }
    Some(match s {
        "u8" => Type::UB,
        "u16" => Type::UW,
        "u32" => Type::UD,
        "u64" => Type::UQ,
        "s8" => Type::B,
        "s16" => Type::W,
        "s32" => Type::D,
        "s64" => Type::Q,
        "f16" => Type::HF,
        "f32" => Type::F,
        "f64" => Type::DF,
        _ => return None,
    })
}

/// A flag modifier's name (IGA's and its legacy ones).
fn cond_named(s: &str) -> Option<CondMod> {
    if let Some(c) = CondMod::ALL
        .iter()
        .copied()
        .find(|&c| c != CondMod::None && cond_name(c) == s)
    {
        return Some(c);
    }
    Some(match s {
        "ze" | "z" | "e" => CondMod::Z,
        "nz" => CondMod::Nz,
        "l" => CondMod::L,
        "g" => CondMod::G,
        "o" => CondMod::O,
        "u" => CondMod::U,
        _ => return None,
    })
}

/// An architecture register's class from IGA's name of it.
fn arf_class(name: &str) -> Option<u8> {
    if name.is_empty() {
        return None;
    }
    (0u8..16).map(|k| k << 4).find(|&c| arf_info(c).name == name)
}

/// Up to three region numbers.
#[derive(Default)]
struct Nums {
    v: [u64; 3],
    len: usize,
}

impl Nums {
    fn push(&mut self, x: u64) -> bool {
        match self.v.get_mut(self.len) {
            Some(slot) => {
                *slot = x;
                self.len += 1;
                true
            }
            None => false,
        }
    }
    fn as_slice(&self) -> &[u64] {
        self.v.get(..self.len).unwrap_or(&[])
    }
}

/// A register as written: file, number, subregister (in elements), or an
/// indirect address.
enum Reg {
    Direct { file: RegFile, nr: u8, sub: Option<u8> },
    Indirect { subnr: u8, imm: i16 },
}

/// An annotation read: its instruction's opcode, its text after `[` to
/// its `]`, and its fields.
type LastAnnotation<'a> = (Opcode, &'a [u8], Patch);

/// The reader's state for one text.
struct Reader<'a> {
    p: Platform,
    /// The annotation fields found so far, by opcode and name (a text
    /// names the same few fields again and again).
    fields: core::cell::RefCell<Vec<(Opcode, &'a str, RawField)>>,
    /// The last annotation read: its opcode, its text after `[` to its
    /// `]`, and its fields (the next instruction's is often the same
    /// text).
    last_annotation: core::cell::Cell<Option<LastAnnotation<'a>>>,
    /// The execution size of an instruction that shows none, once a
    /// directive has put the text in IGA's legacy mode (`iga64
    /// -Xlegacy-directives`): SIMD1 unless `.default_execution_size`.
    default_exec: core::cell::Cell<Option<ExecSize>>,
    /// `.default_register_type`: the type of a register operand (not of
    /// an immediate, nor of a SEND's) that shows none.
    default_type: core::cell::Cell<Option<Type>>,
    /// The label a `mov` reads (`mov (1|M0) r65:ud LOOP`), taken by the
    /// instruction being read.
    mov_label: core::cell::Cell<Option<(&'a str, usize)>>,
    /// A warning for the instruction being read.
    warning: core::cell::Cell<Option<Warning>>,
}

impl<'a> Reader<'a> {
    /// A directive of IGA's legacy mode: `.default_execution_size(N)`
    /// (the parentheses optional) or `.default_register_type :TYPE`
    /// (`KernelParser::ParseLegacyDirectives`; `iga64` reads them under
    /// `-Xlegacy-directives`).
    fn directive(&self, c: &mut Cur<'a>) -> R<()> {
        c.expect(b'.', "a directive")?;
        let at = c.i;
        let name = c.ident().unwrap_or("");
        if self.default_exec.get().is_none() {
            self.default_exec.set(Some(ExecSize::S1));
        }
        match name {
            "default_execution_size" => {
                let paren = c.eat(b'(');
                c.ws();
                let nat = c.i;
                let n = c.number("an execution size")?;
                let es = u32::try_from(n).ok().and_then(ExecSize::from_channels);
                self.default_exec
                    .set(Some(es.ok_or((nat, AsmErrorKind::BadExecSize(n)))?));
                if paren {
                    c.expect(b')', "`)` after the execution size")?;
                }
            }
            "default_register_type" => {
                c.ws();
                let t = self.ty(c)?;
                if t.is_vector_imm() {
                    return invalid(at, "default register type", "a vector type is an immediate's only");
                }
                self.default_type.set(Some(t));
            }
            _ => {
                return unexpected(
                    at,
                    name,
                    "a directive (`.default_execution_size`, `.default_register_type`)",
                )
            }
        }
        Ok(())
    }

    /// A register name at the cursor, if one is there (`r12`, `r12.3`,
    /// `null`, `a0.2`, `r[a0.1,16]`); `None` leaves the cursor.
    fn reg(&self, c: &mut Cur<'a>) -> R<Option<Reg>> {
        c.ws();
        let s = c.i;
        // `c.b` ends at the line's code: its bounds are the line's.
        let b = c.b;
        // The common names first: `rN` (up to three digits) and `null`,
        // as the general reading below reads them.
        let quick = match b.get(s..) {
            Some([b'r', d @ b'0'..=b'9', rest @ ..]) => {
                let mut n = u32::from(d - b'0');
                let mut k = s + 2;
                for &x in rest.iter().take(2) {
                    if !x.is_ascii_digit() {
                        break;
                    }
                    n = n * 10 + u32::from(x - b'0');
                    k += 1;
                }
                match (u8::try_from(n), b.get(k)) {
                    (Ok(n), next) if !next.is_some_and(|&x| is_ident(x) || x == b'[') => Some((k, RegFile::Grf, n)),
                    _ => None,
                }
            }
            Some([b'n', b'u', b'l', b'l', rest @ ..]) if !rest.first().is_some_and(|&x| is_ident(x)) => {
                Some((s + 4, RegFile::Arf, arf::NULL))
            }
            _ => None,
        };
        if let Some((k, file, nr)) = quick {
            c.i = k;
            return direct(c, file, nr).map(Some);
        }
        let mut j = s;
        while b.get(j).is_some_and(u8::is_ascii_alphabetic) {
            j += 1;
        }
        // IGA's name of ARF class 14 has digits and `_` in it (`arf14_3`).
        if b.get(s..s + 6) == Some(b"arf14_") {
            j = s + 6;
        }
        let letters = c.src.get(s..j).unwrap_or("");
        let grf = letters == "r";
        // The number, saturated (past 255 it is out of range whatever it
        // is).
        let mut k = j;
        let mut n: u32 = 0;
        while let Some(d) = b.get(k).map(|x| x.wrapping_sub(b'0')).filter(|&d| d < 10) {
            n = n.saturating_mul(10).saturating_add(u32::from(d));
            k += 1;
        }
        if b.get(k).is_some_and(|&x| is_ident(x)) {
            return Ok(None);
        }
        // `r[a0.1,16]`, and IGA's `r3[a0.1,16]`: the offset counted
        // from r3 (3 × 32 bytes more).
        if grf && b.get(k) == Some(&b'[') {
            let digits = c.src.get(j..k).unwrap_or("");
            let base = if digits.is_empty() {
                0
            } else {
                digits.parse::<i64>().unwrap_or(i64::MAX)
            };
            c.i = k + 1;
            let a = c.ident().unwrap_or("");
            if a != "a0" {
                return unexpected(c.i, a, "`a0` (an address register)");
            }
            c.expect(b'.', "`.` and the address subregister")?;
            let subnr = c.small("address subregister", 15, "0 to 15")?;
            let mut v = 0i64;
            // `r[a0.1,16]`, `r[a0.1,-16]`, and IGA's `r[a0.1 + 16]`,
            // `r[a0.1 - 16]`.
            let sep = c.eat(b',');
            c.ws();
            let mut at = c.i;
            if sep || matches!(c.peek(), Some(b'+' | b'-')) {
                if !sep {
                    c.eat(b'+');
                }
                let neg = c.eat(b'-');
                c.ws();
                at = c.i;
                let n = i64::try_from(c.number("an address offset")?).unwrap_or(i64::MAX);
                v = if neg { -n } else { n };
            }
            c.expect(b']', "`]`")?;
            let v = v.saturating_add(base.saturating_mul(i64::from(crate::isa::GRF_BYTES)));
            let imm = i16::try_from(v).ok().filter(|x| (-512..512).contains(x));
            let Some(imm) = imm else {
                return Err((
                    at,
                    AsmErrorKind::OutOfRange {
                        what: "address offset",
                        value: v,
                        range: "-512 to 511",
                    },
                ));
            };
            return Ok(Some(Reg::Indirect { subnr, imm }));
        }
        // GRF numbers past 127 name no register, but the field holds them
        // (IGA warns and encodes them).
        let class = if grf { None } else { arf_class(letters) };
        let n: Option<u8> = if k == j {
            None
        } else if let Ok(n) = u8::try_from(n) {
            Some(n)
        } else if grf || class.is_some() {
            let digits = c.src.get(j..k).unwrap_or("");
            return Err((
                j,
                AsmErrorKind::OutOfRange {
                    what: "register number",
                    value: digits.parse().unwrap_or(i64::MAX),
                    range: "0 to 255",
                },
            ));
        } else {
            None
        };
        let (file, nr) = if grf {
            let Some(n) = n else { return Ok(None) };
            (RegFile::Grf, n)
        } else {
            let Some(class) = class else {
                return Ok(None);
            };
            let n = n.unwrap_or(0);
            if n > arf::NUMBER_MAX {
                return Err((
                    j,
                    AsmErrorKind::OutOfRange {
                        what: "register number",
                        value: n.into(),
                        range: "0 to 15",
                    },
                ));
            }
            (RegFile::Arf, class | n)
        };
        c.i = k;
        direct(c, file, nr).map(Some)
    }

    /// A math-macro specifier after a register, `.mme0`-`.mme7` or
    /// `.nomme` (IGA's macro operands); `None` leaves the cursor.
    fn mme(&self, c: &mut Cur<'a>, i: &mut Instruction) -> R<Option<MathMacro>> {
        if c.peek() != Some(b'.') {
            return Ok(None);
        }
        let save = c.i;
        c.i += 1;
        let at = c.i;
        let Some(m) = c.ident().and_then(MathMacro::from_name) else {
            c.i = save;
            return Ok(None);
        };
        if !i.is_math_macro() {
            return invalid(
                at,
                "math-macro register",
                "only madm, math.invm and math.rsqtm take them",
            );
        }
        i.access_mode = AccessMode::Align16;
        Ok(Some(m))
    }

    /// `:type`.
    fn ty(&self, c: &mut Cur<'a>) -> R<Type> {
        c.expect(b':', "`:` and the operand's type")?;
        // IGA's own names (one or two letters) without the general
        // reading.
        if let Some(rest) = c.b.get(c.i..) {
            let n = match rest {
                [a, b, x, ..] if is_ident(*a) && is_ident(*b) && !is_ident(*x) => 2,
                [a, b] if is_ident(*a) && is_ident(*b) => 2,
                [a, x, ..] if is_ident(*a) && !is_ident(*x) => 1,
                [a] if is_ident(*a) => 1,
                _ => 0,
            };
            if let Some(t) = type_keyed(rest.get(..n).map_or(0, short_key)) {
                c.i += n;
                return Ok(t);
            }
        }
        let at = c.i;
        let name = c.ident().unwrap_or("");
        type_named(name).map_or_else(
            || unexpected(at, name, "a type (ud, d, uw, w, ub, b, f, df, hf, q, uq, v, uv, vf)"),
            Ok,
        )
    }

    fn opt_ty(&self, c: &mut Cur<'a>) -> R<Option<Type>> {
        c.ws();
        if c.peek() == Some(b':') {
            self.ty(c).map(Some)
        } else {
            Ok(None)
        }
    }

    /// A register's address with its subregister in bytes.
    fn addr(r: &Reg, ty: Type, at: usize) -> R<(RegFile, Addr)> {
        match *r {
            Reg::Direct { file, nr, sub } => {
                let bytes = u32::from(sub.unwrap_or(0)) * ty.size();
                let subnr = u8::try_from(bytes).ok().filter(|&b| b < 32);
                let Some(subnr) = subnr else {
                    return invalid(at, "subregister", "past the end of the register for this type");
                };
                Ok((file, Addr::Direct { nr, subnr }))
            }
            Reg::Indirect { subnr, imm } => Ok((RegFile::Grf, Addr::Indirect { subnr, imm })),
        }
    }

    /// A region `<v;w,h>`, `<w,h>` (VxH) or `<h>` as numbers.
    fn region_nums(&self, c: &mut Cur<'a>) -> R<Option<(usize, Nums, bool)>> {
        c.ws();
        let at = c.i;
        // The printer's regions, of one digit each, as the loop below
        // reads them.
        let d = |x: u8| u64::from(x.wrapping_sub(b'0'));
        let quick = match c.b.get(at..) {
            Some([b'<', a @ b'0'..=b'9', b';', w @ b'0'..=b'9', b',', h @ b'0'..=b'9', b'>', ..]) => {
                Some((7, [d(*a), d(*w), d(*h)], 3, true))
            }
            Some([b'<', a @ b'0'..=b'9', b';', w @ b'0'..=b'9', b'>', ..]) => Some((5, [d(*a), d(*w), 0], 2, true)),
            Some([b'<', h @ b'0'..=b'9', b'>', ..]) => Some((3, [d(*h), 0, 0], 1, false)),
            _ => None,
        };
        if let Some((n, v, len, semi)) = quick {
            c.i += n;
            return Ok(Some((at, Nums { v, len }, semi)));
        }
        if !c.eat(b'<') {
            return Ok(None);
        }
        let mut v = Nums::default();
        let mut semi = false;
        loop {
            let nat = c.i;
            let x = c.number("a region number")?;
            if !v.push(x) {
                return invalid(nat, "region", "a region has at most three numbers");
            }
            if c.eat(b';') {
                semi = true;
                continue;
            }
            if c.eat(b',') {
                continue;
            }
            c.expect(b'>', "`>`, `;` or `,` in the region")?;
            break;
        }
        Ok(Some((at, v, semi)))
    }

    fn region(&self, c: &mut Cur<'a>, default: Region) -> R<Region> {
        let Some((at, v, semi)) = self.region_nums(c)? else {
            return Ok(default);
        };
        let n = |x: u64| u32::try_from(x).unwrap_or(u32::MAX);
        let r = match (v.as_slice(), semi) {
            ([vs, w, h], true) => Region::new(n(*vs), n(*w), n(*h)),
            ([w, h], false) => Region::new(0, n(*w), n(*h)).map(|r| Region {
                vstride: crate::isa::region::VSTRIDE_VXH,
                ..r
            }),
            _ => {
                return invalid(
                    at,
                    "region",
                    "a source region is <vstride;width,hstride> or <width,hstride>",
                )
            }
        };
        r.map_or_else(|| invalid(at, "region", "a stride or width with no encoding"), Ok)
    }

    /// A register operand's type: `:type`, or the type of
    /// `.default_register_type` where the text has none.
    fn reg_ty(&self, c: &mut Cur<'a>) -> R<Type> {
        c.ws();
        match self.default_type.get() {
            Some(t) if c.peek() != Some(b':') => Ok(t),
            _ => self.ty(c),
        }
    }

    /// A source operand (not of a 3-source instruction): a register with
    /// its modifiers, region and type, or an immediate (a constant
    /// expression and its type).
    ///
    /// Modifiers as IGA reads them: `-` or `~` (negate), `(abs)`, and
    /// `|operand|` (absolute value; `-|r2:f|` negated). A region left out
    /// is IGA's default: `<0;1,0>` for a SIMD1 instruction, an operand
    /// with a subregister (`r2.0`), and `ip`/`ce`; `<1;1,0>` otherwise
    /// and for an indirect operand.
    fn src(&self, c: &mut Cur<'a>, i: &mut Instruction, k: usize) -> R<()> {
        c.ws();
        let at = c.i;
        let mut mods = SrcMods::empty();
        if c.eat(b'-') || c.eat(b'~') {
            mods |= SrcMods::NEGATE;
        }
        let pipe = c.peek() == Some(b'|');
        if pipe {
            c.i += 1;
            mods |= SrcMods::ABS;
        } else if c.peek() == Some(b'(') && c.src.get(c.i..c.i + 5) == Some("(abs)") {
            c.i += 5;
            mods |= SrcMods::ABS;
        }
        if let Some(r) = self.reg(c)? {
            if let Some(m) = self.mme(c, i)? {
                // A macro operand shows no region (the canonical form
                // gives IGA's).
                let ty = self.ty(c)?;
                let (file, addr) = Self::addr(&r, ty, at)?;
                if let Some(s) = i.src.get_mut(k) {
                    *s = Src {
                        file,
                        ty,
                        addr,
                        region: Region::SCALAR,
                        swizzle: Swizzle(m.hw()),
                        mods,
                    };
                }
                return Ok(());
            }
            let scalar = match r {
                Reg::Direct { file, nr, sub } => {
                    sub.is_some()
                        || i.exec_size == ExecSize::S1
                        || (file == RegFile::Arf && matches!(arf::class(nr), arf::IP | arf::MASK))
                }
                Reg::Indirect { .. } => false,
            };
            // `jmpi`'s register: IGA's implicit region and type (its text
            // shows neither when they are these: `print::Printer::jmpi_reg`).
            let jmpi = i.opcode == Opcode::Jmpi;
            let default = if scalar || jmpi {
                Region::SCALAR
            } else {
                Region::new(1, 1, 0).unwrap_or(Region::SCALAR)
            };
            let region = self.region(c, default)?;
            let ty = if jmpi {
                self.opt_ty(c)?.unwrap_or(crate::canon::IGA.typed_branch_src_type)
            } else {
                self.reg_ty(c)?
            };
            if pipe {
                c.expect(b'|', "`|` closing the absolute value")?;
            }
            let (file, addr) = Self::addr(&r, ty, at)?;
            let Some(s) = i.src.get_mut(k) else {
                return invalid(at, "source", "no such source");
            };
            *s = Src {
                file,
                ty,
                addr,
                region,
                swizzle: Swizzle(0),
                mods,
            };
            return Ok(());
        }
        // An immediate: IGA reads the modifiers again as part of the
        // expression (`-` negates, `~` complements), and `|…|` takes the
        // absolute value.
        c.i = at;
        let pipe = c.eat(b'|');
        c.ws();
        let vat = c.i;
        let dec_first = !pipe && c.dec_first();
        if !c.peek().is_some_and(|x| x != b':') {
            return unexpected(vat, c.found(), "a source operand (register or immediate)");
        }
        // A label as `mov`'s source: its byte offset in the program, UD
        // (IGA's `isMovWithLabel`; the text gives no type).
        if i.opcode == Opcode::Mov && k == 0 && !pipe && c.peek().is_some_and(|x| x.is_ascii_alphabetic() || x == b'_')
        {
            let name = c.ident().unwrap_or("");
            if !matches!(name, "inf" | "nan" | "qnan" | "snan") {
                self.mov_label.set(Some((name, vat)));
                if let Some(src) = i.src.get_mut(k) {
                    *src = Src::imm(Type::UD);
                }
                return Ok(());
            }
            c.i = vat;
        }
        let mut v = c.expr()?;
        if pipe {
            v = match v {
                Val::Int(x) => Val::Int(x.wrapping_abs()),
                Val::Float(b) => Val::Float(b & !(1 << 63)),
            };
        }
        let ty = self.ty(c)?;
        if pipe {
            c.expect(b'|', "`|` closing the absolute value")?;
        }
        i.imm = imm_bits(v, ty, dec_first, vat)?;
        if let Some(src) = i.src.get_mut(k) {
            *src = Src::imm(ty);
        }
        Ok(())
    }

    /// A 3-source operand: `r6.1<0;0>:f`, `r21.0<2;1>:f`, src2 `<1>`/`<0>`.
    fn src3(&self, c: &mut Cur<'a>, i: &mut Instruction, k: usize) -> R<()> {
        c.ws();
        let at = c.i;
        let mut mods = SrcMods::empty();
        if c.eat(b'-') || c.eat(b'~') {
            mods |= SrcMods::NEGATE;
        }
        let pipe = c.peek() == Some(b'|');
        if pipe {
            c.i += 1;
            mods |= SrcMods::ABS;
        } else if c.src.get(c.i..c.i + 5) == Some("(abs)") {
            c.i += 5;
            mods |= SrcMods::ABS;
        }
        let Some(r) = self.reg(c)? else {
            return unexpected(at, c.found(), "a register (3-source operands are GRFs)");
        };
        // No region: IGA's `<0;0>` (src2 `<0>`) for a SIMD1 instruction
        // or an operand with a subregister, else `<2;1>` (`<1>`).
        let explicit_sub = matches!(r, Reg::Direct { sub: Some(_), .. });
        let mme = self.mme(c, i)?;
        let scalar = match self.region_nums(c)? {
            None => explicit_sub || i.exec_size == ExecSize::S1,
            Some((_, v, _)) => match v.as_slice() {
                [0, 0] | [0] => true,
                [2, 1] | [1] => false,
                _ => return invalid(at, "region", "a 3-source region is <2;1> or <0;0> (src2: <1> or <0>)"),
            },
        };
        let ty = self.reg_ty(c)?;
        if pipe {
            c.expect(b'|', "`|` closing the absolute value")?;
        }
        let (file, addr) = Self::addr(&r, ty, at)?;
        if file != RegFile::Grf || matches!(addr, Addr::Indirect { .. }) {
            return invalid(at, "3-source operand", "a 3-source operand is a direct GRF");
        }
        let region = if scalar {
            Region::SCALAR
        } else {
            Region::new(4, 4, 1).unwrap_or(Region::SCALAR)
        };
        if let Some(s) = i.src.get_mut(k) {
            *s = Src {
                file,
                ty,
                addr,
                region,
                swizzle: mme.map_or(Swizzle::XYZW, |m| Swizzle(m.hw())),
                mods,
            };
        }
        Ok(())
    }

    /// The destination: `(sat)`, register, `<h>`, `:type`.
    fn dst(&self, c: &mut Cur<'a>, i: &mut Instruction) -> R<()> {
        self.dst_typed(c, i, None)
    }

    /// [`Self::dst`], with `implicit` the type where none is written (a
    /// typed branch's), if any.
    fn dst_typed(&self, c: &mut Cur<'a>, i: &mut Instruction, implicit: Option<Type>) -> R<()> {
        c.ws();
        let at = c.i;
        if c.src.get(c.i..c.i + 5) == Some("(sat)") {
            c.i += 5;
            i.controls |= Controls::SATURATE;
        }
        let Some(r) = self.reg(c)? else {
            return unexpected(c.i, c.found(), "a destination register");
        };
        let mme = self.mme(c, i)?;
        let h = match self.region_nums(c)? {
            None => 1,
            Some((rat, v, _)) => match v.as_slice() {
                [h] => *h,
                _ => return invalid(rat, "region", "a destination region is <hstride>"),
            },
        };
        let ty = match implicit {
            Some(t) => self.opt_ty(c)?.unwrap_or(t),
            None => self.reg_ty(c)?,
        };
        let (file, addr) = Self::addr(&r, ty, at)?;
        let d = Dst {
            file,
            ty,
            addr,
            hstride: 1,
            writemask: mme.map_or(WriteMask::XYZW, |m| WriteMask::from_bits_truncate(m.hw())),
        };
        i.dst = d.with_hstride(u32::try_from(h).unwrap_or(3)).map_or_else(
            || invalid(at, "destination stride", "the horizontal stride is 0, 1, 2 or 4"),
            Ok,
        )?;
        Ok(())
    }

    /// A flag register `fN.M`.
    fn flag(&self, c: &mut Cur<'a>) -> R<FlagReg> {
        c.ws();
        let at = c.i;
        match self.reg(c)? {
            Some(Reg::Direct {
                file: RegFile::Arf,
                nr,
                sub,
            }) if arf::class(nr) == arf::FLAG => {
                let sub = sub.unwrap_or(0);
                if sub > crate::isa::FLAG_SUBREG_LAST {
                    return invalid(at, "flag register", "the subregister is 0 or 1");
                }
                Ok(FlagReg {
                    nr: nr & arf::NUMBER_MAX,
                    subnr: sub,
                })
            }
            _ => {
                c.i = at;
                unexpected(at, c.found(), "a flag register (f0.0, f0.1, f1.0, f1.1)")
            }
        }
    }

    /// The annotation field `name` of the layout of `op`'s words.
    fn field(&self, op: Opcode, name: &'a str) -> Option<RawField> {
        let mut cache = self.fields.borrow_mut();
        if let Some(&(_, _, f)) = cache.iter().find(|(o, n, _)| *o == op && *n == name) {
            return Some(f);
        }
        let f = RawField::by_name(self.p, op, name)?;
        if cache.len() < 64 {
            cache.push((op, name, f));
        }
        Some(f)
    }

    /// A jump target: a label or a byte offset.
    fn jump(&self, c: &mut Cur<'a>) -> R<Jump<'a>> {
        c.ws();
        let at = c.i;
        // A byte offset: a constant integer expression (`32`, `-16`,
        // `(2*16)`), as IGA reads an immediate branch operand.
        if c.peek()
            .is_some_and(|x| matches!(x, b'-' | b'~' | b'(') || x.is_ascii_digit())
        {
            return Ok(Jump::Bytes(c.int_expr("jump offset")?, at));
        }
        match c.ident() {
            Some(l) if l.as_bytes().first().is_some_and(|x| !x.is_ascii_digit()) => Ok(Jump::Label(l, at)),
            _ => unexpected(at, c.found(), "a label or a jump offset"),
        }
    }

    /// One instruction from the cursor to the end of its line.
    fn inst(&self, c: &mut Cur<'a>) -> R<Parsed<'a>> {
        let p = self.p;
        c.ws();
        let at = c.i;
        let mut i = Instruction::new(Opcode::Nop, ExecSize::S1);
        self.warning.set(None);
        // Predication and NoMask.
        let mut pred: Option<(FlagReg, usize)> = None;
        let mut pred_ctrl: Option<(&str, usize)> = None;
        if c.eat(b'(') {
            c.ws();
            if c.peek() == Some(b'W') && !c.peek_at(1).is_some_and(is_ident) {
                c.i += 1;
                i.controls |= Controls::WE_ALL;
                if !c.eat(b'&') {
                    c.expect(b')', "`)` or `&` after `W`")?;
                }
            }
            if !i.controls.contains(Controls::WE_ALL) || c.b.get(c.i.wrapping_sub(1)) == Some(&b'&') {
                if c.eat(b'~') {
                    i.controls |= Controls::PRED_INV;
                }
                c.ws();
                let fat = c.i;
                pred = Some((self.flag(c)?, fat));
                if c.eat(b'.') {
                    let cat = c.i;
                    pred_ctrl = Some((c.ident().unwrap_or(""), cat));
                }
                c.expect(b')', "`)` after the predicate")?;
            }
        }
        // Mnemonic.
        c.ws();
        let mat = c.i;
        let Some(name) = c.ident() else {
            return unexpected(mat, c.found(), "an opcode (mov, add, send, ...) or a `LABEL:`");
        };
        // IGA's mnemonics are Mesa's (the opcode table's names).
        let Some(op) = crate::text::names::opcode_by_name(name) else {
            return Err((mat, AsmErrorKind::UnknownOpcode(name.into())));
        };
        if !op.exists_on(p) {
            return Err((
                mat,
                AsmErrorKind::NotOnPlatform {
                    opcode: op,
                    platform: p,
                },
            ));
        }
        i.opcode = op;
        if op == Opcode::Jmpi {
            // IGA's parser gives jmpi NoMask whether `(W)` is written or
            // not (`KernelParser::ParseMnemonic`: "jmpi must have (W)
            // specified (automatically adding)").
            if !i.controls.contains(Controls::WE_ALL) {
                self.warning.set(Some(Warning::JmpiNoMask));
            }
            i.controls |= Controls::WE_ALL;
        }
        if c.peek() == Some(b'.') {
            c.i += 1;
            let sat = c.i;
            let sub = c.ident().unwrap_or("");
            if op == Opcode::Math {
                let f = MathFunction::ALL
                    .iter()
                    .copied()
                    .find(|&f| f != MathFunction::None && math_name(f) == sub);
                // IGA also takes the function's code (`math.0x5`).
                let f = f.or_else(|| {
                    let mut e = Ex {
                        b: c.b,
                        i: sat,
                        end: sat + sub.len(),
                    };
                    let code = e.int_literal().ok().flatten().filter(|_| e.i == e.end)?;
                    MathFunction::ALL
                        .iter()
                        .copied()
                        .find(|&f| f != MathFunction::None && u64::from(f.hw()) == code)
                });
                let Some(f) = f else {
                    return unexpected(sat, sub, "a math function (inv, log, exp, sqt, rsqt, sin, cos, pow, fdiv, idiv, iqot, irem, invm, rsqtm)");
                };
                i.cond_modifier = f.hw();
            } else if sub == "b" && p.is_gen8() && matches!(op, Opcode::If | Opcode::Else | Opcode::Goto) {
                i.controls |= Controls::ACC_WR;
            } else {
                return unexpected(sat, sub, "a math function after `math.`, or `.b` on if/else/goto");
            }
        }
        // Execution size and channel offset.
        c.ws();
        if c.peek() == Some(b'(') && c.peek_at(1).is_some_and(|x| x.is_ascii_digit()) {
            c.i += 1;
            let eat = c.i;
            let n = c.number("an execution size")?;
            let es = u32::try_from(n).ok().and_then(ExecSize::from_channels);
            // (The error built only when there is one: `ok_or` built
            // and dropped it for every instruction.)
            let Some(es) = es else {
                return Err((eat, AsmErrorKind::BadExecSize(n)));
            };
            i.exec_size = es;
            if c.eat(b'|') {
                c.ws();
                let mat = c.i;
                if !c.eat(b'M') {
                    return unexpected(mat, c.found(), "a channel offset (M0, M8, M16, M24, ...)");
                }
                let m = c.number("a channel offset")?;
                let ok = u32::try_from(m).is_ok_and(|m| {
                    i.set_first_channel(m) || {
                        // An offset the execution size cannot start at
                        // (`(8|M4)`): IGA's encoder writes its quarter and
                        // nibble controls all the same.
                        let fits = m % crate::isa::NIBBLE_CHANNELS == 0 && m < 32;
                        if fits {
                            i.qtr_control = (m / crate::isa::QUARTER_CHANNELS) as u8;
                            i.controls
                                .set(Controls::NIB_CTRL, (m / crate::isa::NIBBLE_CHANNELS) % 2 == 1);
                        }
                        fits
                    }
                });
                if !ok {
                    return invalid(
                        mat,
                        "channel offset",
                        "not a start this execution size can have on this platform",
                    );
                }
            }
            c.expect(b')', "`)` after the execution size")?;
        } else if implicit_exec(op) {
        } else if let Some(es) = self.default_exec.get() {
            i.exec_size = es;
        } else {
            return unexpected(c.i, c.found(), "`(` and the execution size, as in `(8|M0)`");
        }
        // Flag modifier.
        c.ws();
        let mut cmod_flag: Option<(FlagReg, usize)> = None;
        // IGA's older spelling in brackets: `[(lt)f0.0]`.
        let bracket = c.peek() == Some(b'[') && c.peek_at(1) == Some(b'(');
        if bracket {
            c.i += 1;
        }
        if op == Opcode::Math && c.src.get(c.i..c.i + 4) == Some("(eo)") {
            // INVM's and RSQTM's early-out flag.
            c.i += 4;
            c.ws();
            let fat = c.i;
            cmod_flag = Some((self.flag(c)?, fat));
        } else if c.peek() == Some(b'(') && !op.is_send() && op != Opcode::Math {
            let save = c.i;
            c.i += 1;
            let cat = c.i;
            let name = c.ident().unwrap_or("");
            if let (Some(cm), true) = (cond_named(name), c.eat(b')')) {
                i.cond_modifier = cm.hw();
                c.ws();
                if c.peek() == Some(b'f') {
                    let fat = c.i;
                    cmod_flag = Some((self.flag(c)?, fat));
                }
                let _ = cat;
            } else {
                c.i = save;
            }
        }
        if bracket {
            if cmod_flag.is_none() {
                return unexpected(c.i, c.found(), "a flag modifier and its flag, as in `[(lt)f0.0]`");
            }
            c.expect(b']', "`]` after the flag modifier")?;
        }
        match (pred, cmod_flag) {
            (Some((a, _)), Some((b, bat))) if a != b => {
                return Err((
                    bat,
                    AsmErrorKind::FlagMismatch {
                        pred: (a.nr, a.subnr),
                        cmod: (b.nr, b.subnr),
                    },
                ))
            }
            (Some((f, _)), _) | (None, Some((f, _))) => i.flag = f,
            _ => {}
        }
        let mut parsed = Parsed {
            inst: i,
            jip: None,
            uip: None,
            raw: None,
            at,
            line: 0,
            line_start: 0,
            warning: None,
        };
        self.mov_label.set(None);
        self.operands(c, &mut parsed)?;
        parsed.warning = self.warning.take();
        // A `mov`'s label source (its byte offset in the program) waits
        // in `jip`, which a `mov` has no other use for.
        if let Some((name, at)) = self.mov_label.take() {
            parsed.jip = Some(Jump::Label(name, at));
        }
        let i = &mut parsed.inst;
        if let Some((f, fat)) = pred {
            let _ = f;
            let ctrl = match pred_ctrl {
                None => PredCtrl::Normal,
                // IGA's `.xyzw` is the default (sequential) control.
                Some(("xyzw", _)) => PredCtrl::Normal,
                Some((name, cat)) => name.parse::<PredCtrl>().or_else(|_| {
                    unexpected(
                        cat,
                        name,
                        "a predicate control (anyv, allv, any2h, all2h, ..., x, y, z, w)",
                    )
                })?,
            };
            // The code in the access mode the text stands for (align16
            // for 3-source instructions, align1 otherwise); an align16
            // control on another instruction is kept as its code (its
            // annotation sets the access mode).
            let mode = super::print::text_mode(i.opcode);
            match ctrl.hw(mode) {
                Some(code) => i.pred_control = code,
                None => match ctrl.hw(AccessMode::Align16) {
                    Some(code) if pd_annotated(c) => i.pred_control = code,
                    _ => return invalid(fat, "predicate control", "not one of this access mode's"),
                },
            }
        }
        // Options.
        let mut eot = false;
        // `{}` is an empty list.
        if c.eat(b'{') && !c.eat(b'}') {
            loop {
                c.ws();
                let oat = c.i;
                let name = c.ident().unwrap_or("");
                match name {
                    "AccWrEn" => i.controls |= Controls::ACC_WR,
                    "Atomic" => i.thread_control = ThreadControl::Atomic,
                    "Switch" => i.thread_control = ThreadControl::Switch,
                    "Breakpoint" => i.controls |= Controls::BREAKPOINT,
                    "Compacted" => i.controls |= Controls::COMPACTED,
                    "NoCompact" | "Uncompacted" => {}
                    // IGA's parser takes it and its encoder writes it
                    // (FusionCtrl) only from Gen12 on: no bit here.
                    "Serialize" => {}
                    "EOT" => eot = true,
                    "NoDDChk" => i.controls |= Controls::NO_DD_CHECK,
                    "NoDDClr" => i.controls |= Controls::NO_DD_CLEAR,
                    "NoMask" => i.controls |= Controls::WE_ALL,
                    _ => return unexpected(
                        oat,
                        name,
                        "an option (AccWrEn, Atomic, Breakpoint, Compacted, NoCompact, EOT, NoDDChk, NoDDClr, Serialize, Switch)",
                    ),
                }
                if c.eat(b'}') {
                    break;
                }
                c.expect(b',', "`,` or `}` in the options")?;
            }
        }
        if eot {
            if !i.opcode.is_send() {
                return invalid(at, "EOT", "only a SEND ends the thread");
            }
            set_eot(i);
        }
        // The field annotation.
        if c.eat(b'[') {
            // The text to its `]` as the previous annotation's, on the
            // same opcode (the same layout): the same fields.
            // (`prev` ends at its first `]`: the text that starts with it
            // is it to its first `]`.)
            let rest = c.b.get(c.i..).unwrap_or(&[]);
            if let Some((op, prev, patch)) = self.last_annotation.get() {
                if op == i.opcode && rest.starts_with(prev) {
                    c.i += prev.len();
                    parsed.raw = Some(patch);
                    Self::inst_end(c)?;
                    return Ok(parsed);
                }
            }
            let text = memchr::memchr(b']', rest).and_then(|k| rest.get(..=k));
            let mut patch = Patch::default();
            loop {
                c.ws();
                if c.eat(b']') {
                    break;
                }
                let fat = c.i;
                let name = c.ident().unwrap_or("");
                let Some(f) = self.field(i.opcode, name) else {
                    return invalid(
                        fat,
                        "field annotation",
                        "no field of this name in the instruction's layout (see `geneu fields`), nor `bits_HI_LO`",
                    );
                };
                c.expect(b'=', "`=` and the field's value")?;
                let vat = c.i;
                let v = c.number("the field's value")?;
                if f.width() < 64 && v >> f.width() != 0 {
                    return Err((
                        vat,
                        AsmErrorKind::OutOfRange {
                            what: "field value",
                            value: i64::try_from(v).unwrap_or(i64::MAX),
                            range: "the field's width",
                        },
                    ));
                }
                patch.push(f, v);
            }
            parsed.raw = Some(patch);
            if let Some(text) = text {
                self.last_annotation.set(Some((i.opcode, text, patch)));
            }
        }
        Self::inst_end(c)?;
        Ok(parsed)
    }

    /// The end of an instruction: the line's code, or `;`.
    fn inst_end(c: &mut Cur<'a>) -> R<()> {
        c.ws();
        if c.i < c.end && c.peek() != Some(b';') {
            return unexpected(
                c.i,
                c.found(),
                "the end of the instruction (or `{options}`, `[fields]`, `//`)",
            );
        }
        Ok(())
    }

    fn operands(&self, c: &mut Cur<'a>, pd: &mut Parsed<'a>) -> R<()> {
        let p = self.p;
        let i = &mut pd.inst;
        let op = i.opcode;
        if op.offsets_may_be_register() {
            return self.brd_brc(c, pd);
        }
        if crate::canon::shows_jip(op) {
            i.dst.ty = Type::UD;
            // A type after a jump (`32:d`, `L32:d`) is read and left
            // out, as IGA's parser does: a branch operand has its implicit
            // type (`KernelParser::ParseSrcOpTypeWithoutDefault`,
            // `OpSpec::implicitSrcTypeVal`).
            pd.jip = Some(self.jump(c)?);
            self.opt_ty(c)?;
            if crate::canon::shows_uip(p, op) {
                pd.uip = Some(self.jump(c)?);
                self.opt_ty(c)?;
            }
            return Ok(());
        }
        if op == Opcode::Wait {
            // The notification register is read and written: the
            // destination is src0's register (Mesa's canonical form then
            // repeats it in src0).
            self.src(c, i, 0)?;
            let s0 = i.src[0];
            if !s0.is_imm() {
                i.dst = Dst {
                    file: s0.file,
                    ty: s0.ty,
                    addr: s0.addr,
                    hstride: 1,
                    writemask: WriteMask::XYZW,
                };
            }
            return Ok(());
        }
        if super::print::no_operands(op) {
            return Ok(());
        }
        if super::print::call_ret(op) {
            return self.call_ret(c, pd);
        }
        if op == Opcode::Jmpi {
            // The jump (src1 in the word) is the only operand shown: a
            // register, or a label or byte offset counted from the jmpi
            // (IGA's `JUMP_UNARY_REGIMM`), with src1's type (`:d` when
            // none is written, as `brd` and `brc` read theirs).
            c.ws();
            let at = c.i;
            while matches!(c.peek(), Some(b'-' | b'~' | b'|')) {
                c.i += 1;
                c.ws();
            }
            if c.src.get(c.i..c.i + 5) == Some("(abs)") {
                c.i += 5;
            }
            let register = self.reg(c)?.is_some();
            c.i = at;
            if register {
                return self.src(c, i, 1);
            }
            pd.jip = Some(self.jump(c)?);
            let ty = self.opt_ty(c)?.unwrap_or(crate::canon::IGA.typed_branch_src_type);
            pd.inst.src[1] = Src::imm(ty);
            return Ok(());
        }
        if op.is_send() {
            return self.send(c, i);
        }
        if op.is_three_src() {
            i.access_mode = AccessMode::Align16;
            self.dst(c, i)?;
            for k in 0..3 {
                self.src3(c, i, k)?;
            }
            return Ok(());
        }
        let nsrc = super::print::shown_srcs(i);
        self.dst(c, i)?;
        for k in 0..nsrc {
            self.src(c, i, k)?;
        }
        if op == Opcode::Math && nsrc == 1 {
            // Mesa's one-source math reads src1 as null<8;8,1>F.
            i.src[1] = Src {
                ty: Type::F,
                region: Region::new(8, 8, 1).unwrap_or(Region::SCALAR),
                ..Src::ZERO
            };
        }
        Ok(())
    }

    /// `call`, `calla` and `ret` as the printer writes them
    /// (`print::Printer::call_ret`) and IGA's parser reads them
    /// (`JUMP_UNARY_CALL_REGIMM`: the destination, then one source;
    /// `JUMP_UNARY_REG`: one source): the destination's type `:d` where
    /// none is written, its stride `<1>`; the source a label or byte
    /// offset counted from the instruction (call, calla; src1 in the
    /// word) or a register, with IGA's implicit region where none is
    /// written and `:d` where no type is (`ret`: src0, or an immediate
    /// as the printer shows a word with one). No `(sat)` or source
    /// modifier: IGA's text has none on a branch.
    fn call_ret(&self, c: &mut Cur<'a>, pd: &mut Parsed<'a>) -> R<()> {
        let d = &crate::canon::IGA;
        let implicit = d.typed_branch_src_type;
        let i = &mut pd.inst;
        let ret = i.opcode.form() == crate::isa::Form::Return;
        let (k, region) = if ret {
            i.dst = Dst::null();
            (0, d.ret_src0_region)
        } else {
            c.ws();
            let at = c.i;
            self.dst_typed(c, i, Some(implicit))?;
            if i.controls.contains(Controls::SATURATE) {
                return invalid(at, "destination", "a call's destination takes no (sat)");
            }
            (1, d.call_src1_region)
        };
        c.ws();
        let at = c.i;
        if let Some(r) = self.reg(c)? {
            let region = self.region(c, region)?;
            let ty = self.opt_ty(c)?.unwrap_or(implicit);
            let (file, addr) = Self::addr(&r, ty, at)?;
            if let Some(s) = i.src.get_mut(k) {
                *s = Src {
                    file,
                    ty,
                    addr,
                    region,
                    swizzle: Swizzle(0),
                    mods: SrcMods::empty(),
                };
            }
            return Ok(());
        }
        c.i = at;
        if ret {
            let dec_first = c.dec_first();
            let v = c.expr()?;
            let ty = self.opt_ty(c)?.unwrap_or(implicit);
            i.imm = imm_bits(v, ty, dec_first, at)?;
            i.src[0] = Src::imm(ty);
            return Ok(());
        }
        pd.jip = Some(self.jump(c)?);
        let ty = self.opt_ty(c)?.unwrap_or(implicit);
        pd.inst.src[1] = Src::imm(ty);
        Ok(())
    }

    /// `brd`/`brc` as the printer writes them (`print::Printer::brd_brc`):
    /// src0 the register that holds the jump offsets (`r11.1:ud`, with
    /// modifiers or indirect, `:d` when no type is written), then for brc
    /// the `null` IGA prints (its parser lets it be left out); or the JIP
    /// (brc: and the UIP) as a label or byte offset, with src0's immediate
    /// type (`:d` when none is written). No operand at all reads as jumps
    /// of 0 (what this reader took before brd/brc printed operands).
    fn brd_brc(&self, c: &mut Cur<'a>, pd: &mut Parsed<'a>) -> R<()> {
        let implicit = crate::canon::IGA.typed_branch_src_type;
        let brc = pd.inst.opcode == Opcode::Brc;
        c.ws();
        let at = c.i;
        if c.i >= c.end || matches!(c.peek(), Some(b'{' | b'[' | b';')) {
            pd.inst.src[0] = Src::imm(implicit);
            return Ok(());
        }
        let mut mods = SrcMods::empty();
        if c.eat(b'-') || c.eat(b'~') {
            mods |= SrcMods::NEGATE;
        }
        if c.src.get(c.i..c.i + 5) == Some("(abs)") {
            c.i += 5;
            mods |= SrcMods::ABS;
        }
        if let Some(r) = self.reg(c)? {
            let ty = self.opt_ty(c)?.unwrap_or(implicit);
            let (file, addr) = Self::addr(&r, ty, at)?;
            pd.inst.src[0] = Src {
                file,
                ty,
                addr,
                region: Region::SCALAR,
                swizzle: Swizzle(0),
                mods,
            };
            if brc {
                c.ws();
                let save = c.i;
                if c.ident() == Some("null") {
                    let tat = c.i;
                    if self.opt_ty(c)?.is_some_and(|t| t != Type::UD) {
                        return invalid(tat, "brc's second operand", "beside a register it is null:ud");
                    }
                } else {
                    c.i = save;
                }
            }
            return Ok(());
        }
        // Not a register: the jumps (a `-` is an offset's sign).
        c.i = at;
        pd.jip = Some(self.jump(c)?);
        let ty = self.opt_ty(c)?.unwrap_or(implicit);
        pd.inst.src[0] = Src::imm(ty);
        if brc {
            pd.uip = Some(self.jump(c)?);
            let tat = c.i;
            if self.opt_ty(c)?.is_some_and(|t| t != ty) {
                return invalid(tat, "UIP type", "a brc's two labels have src0's type");
            }
        }
        Ok(())
    }

    /// SEND: destination, payload, extended descriptor, descriptor.
    fn send(&self, c: &mut Cur<'a>, i: &mut Instruction) -> R<()> {
        c.ws();
        let at = c.i;
        let Some(r) = self.reg(c)? else {
            return unexpected(at, c.found(), "a destination register");
        };
        let ty = self.opt_ty(c)?.unwrap_or(Type::UD);
        let (file, addr) = Self::addr(&r, ty, at)?;
        i.dst = Dst {
            file,
            ty,
            addr,
            hstride: 1,
            writemask: WriteMask::XYZW,
        };
        c.ws();
        let at = c.i;
        match self.reg(c)? {
            Some(r) => {
                let ty = self.opt_ty(c)?.unwrap_or(Type::UD);
                let (file, addr) = Self::addr(&r, ty, at)?;
                i.src[0] = Src {
                    file,
                    ty,
                    addr,
                    region: Region::new(8, 8, 1).unwrap_or(Region::SCALAR),
                    swizzle: Swizzle(0),
                    mods: SrcMods::empty(),
                };
            }
            // The payload as an immediate (a word no compiler writes).
            None => self.src(c, i, 0)?,
        }
        c.ws();
        let xat = c.i;
        // Descriptors are constant integer expressions in IGA's syntax.
        let ex = c.int_expr("extended descriptor")? as u64;
        if ex & !0x2f != 0 {
            return invalid(
                xat,
                "extended descriptor",
                "Gen7/Gen8 keep only the shared function (bits 3:0) and EOT (bit 5)",
            );
        }
        i.cond_modifier = (ex & 0xf) as u8;
        c.ws();
        let dat = c.i;
        if c.peek() == Some(b'a') {
            let Some(Reg::Direct {
                file: RegFile::Arf,
                nr,
                sub,
            }) = self.reg(c)?
            else {
                return unexpected(dat, c.found(), "a descriptor (a number or a0.N)");
            };
            if arf::class(nr) != arf::ADDRESS {
                return unexpected(dat, c.found(), "a descriptor (a number or a0.N)");
            }
            i.src[1] = Src {
                file: RegFile::Arf,
                ty: Type::UD,
                addr: Addr::Direct {
                    nr,
                    subnr: sub.unwrap_or(0),
                },
                region: Region::SCALAR,
                swizzle: Swizzle(0),
                mods: SrcMods::empty(),
            };
        } else {
            let d = c.int_expr("descriptor")?;
            let Ok(d) = u32::try_from(d) else {
                return invalid(dat, "descriptor", "a descriptor is 32 bits");
            };
            if d & !crate::model::SEND_DESC_MASK != 0 {
                return invalid(
                    dat,
                    "descriptor",
                    "bit 31 is EOT, written in the extended descriptor or {EOT}",
                );
            }
            // Beside an immediate payload the dword is the immediate's.
            if !i.src[0].is_imm() {
                i.src[1] = Src::imm(Type::UD);
                i.imm = u64::from(d);
            }
        }
        if ex & 0x20 != 0 {
            set_eot(i);
        }
        Ok(())
    }
}

/// The byte offset an IGA label name stands for: `L16` → 16, `L_N32` → -32.
fn offset_label(name: &str) -> Option<i64> {
    let (neg, digits) = match name.strip_prefix("L_N") {
        Some(d) => (true, d),
        None => (false, name.strip_prefix('L')?),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let v: i64 = digits.parse().ok()?;
    Some(if neg { -v } else { v })
}

/// Sets a SEND's EOT: bit 127 of the word, which is bit 31 of the
/// immediate payload, or bit 63 beside a 64-bit immediate payload (see
/// [`Instruction::eot`]).
fn set_eot(i: &mut Instruction) {
    let wide = i.src[0].is_imm() && i.src[0].ty.is_64bit();
    i.imm |= 1 << (crate::model::SEND_EOT_BIT + if wide { 32 } else { 0 });
}

/// Whether the rest of the line holds a field annotation `[...]`.
fn pd_annotated(c: &Cur<'_>) -> bool {
    c.src.get(c.i..c.end).is_some_and(|r| r.contains('['))
}

/// A line's end and the start of its `//` comment (or its end).
fn line_bounds(b: &[u8], start: usize) -> (usize, usize) {
    // One pass to the first `//` or the newline; past a `//`, to the
    // newline.
    let mut from = start;
    loop {
        let rest = b.get(from..).unwrap_or(&[]);
        match memchr::memchr2(b'\n', b'/', rest).map(|k| from + k) {
            None => return (b.len(), b.len()),
            Some(k) if b.get(k) == Some(&b'\n') => return (k, k),
            Some(k) if b.get(k + 1) == Some(&b'/') => {
                let tail = b.get(k + 2..).unwrap_or(&[]);
                let end = memchr::memchr(b'\n', tail).map_or(b.len(), |e| k + 2 + e);
                return (end, k);
            }
            Some(k) => from = k + 1,
        }
    }
}

/// The column (from 1, in characters) of byte `at` on the line that
/// starts at byte `start`.
fn column(src: &str, start: usize, at: usize) -> u32 {
    let n = src.get(start..at).map_or(0, |s| s.chars().count());
    u32::try_from(n + 1).unwrap_or(u32::MAX)
}

/// Errors at byte offsets given their lines and columns, in one pass over
/// the text (sorted by offset).
fn located(src: &str, mut errs: Vec<(usize, AsmErrorKind)>) -> AsmErrors {
    errs.sort_by_key(|e| e.0);
    let mut out = Vec::with_capacity(errs.len());
    let (mut line, mut start, mut scanned) = (1u32, 0usize, 0usize);
    let b = src.as_bytes();
    for (at, kind) in errs {
        let at = at.min(b.len());
        for (k, &c) in b.get(scanned..at).into_iter().flatten().enumerate() {
            if c == b'\n' {
                line = line.saturating_add(1);
                start = scanned + k + 1;
            }
        }
        scanned = scanned.max(at);
        out.push(AsmError {
            line,
            column: column(src, start, at),
            kind,
        });
    }
    out.dedup();
    AsmErrors(out)
}

/// `/* ... */` comments replaced by spaces (newlines kept), so that
/// offsets, lines and columns stay those of the text; `Err` with the
/// offset of an unterminated one.
fn blank_block_comments(src: &str) -> Result<Option<String>, usize> {
    // A `*` after a `/`: one byte looked for (rare in IGA's text), not
    // the pair.
    let b = src.as_bytes();
    if !memchr::memchr_iter(b'*', b).any(|k| k > 0 && b.get(k - 1) == Some(&b'/')) {
        return Ok(None);
    }
    let mut out: Vec<u8> = src.as_bytes().to_vec();
    let mut k = 0;
    while let Some(s) = src.get(k..).and_then(|r| r.find("/*")) {
        let s = k + s;
        let Some(e) = src.get(s + 2..).and_then(|r| r.find("*/")) else {
            return Err(s);
        };
        let e = s + 2 + e + 2;
        for c in out.get_mut(s..e).into_iter().flatten() {
            if *c != b'\n' {
                *c = b' ';
            }
        }
        k = e;
    }
    Ok(String::from_utf8(out).ok())
}

/// Assembles IGA-syntax text for `p`: every instruction with its line,
/// column and word, or every error (each with its line and column).
///
/// Labels (`NAME:`) may stand on their own line or before an
/// instruction; branch operands name them (or give a byte offset from the
/// branch). `{Compacted}` marks the instruction [`Controls::COMPACTED`];
/// its word stays the native one, as in Mesa's syntax (compaction is
/// [`crate::compact::compact_program`]).
pub fn assemble_iga(p: Platform, src: &str, opts: AsmOptions) -> Result<Vec<Assembled>, AsmErrors> {
    let mut out = Vec::new();
    run::<_, true>(p, src, opts, &mut out, |a| a)?;
    Ok(out)
}

/// [`assemble_iga`], each instruction given to `f` and its result
/// appended to `out`; with `FULL` off, for the words alone: no column is
/// counted (0), and a record's instruction is the canonical one read, not
/// its annotated word's.
fn run<T, const FULL: bool>(
    p: Platform,
    src: &str,
    opts: AsmOptions,
    out: &mut Vec<T>,
    f: impl Fn(Assembled) -> T,
) -> Result<(), AsmErrors> {
    let blanked = match blank_block_comments(src) {
        Ok(b) => b,
        Err(at) => return Err(located(src, alloc::vec![(at, AsmErrorKind::UnterminatedComment)])),
    };
    let text: &str = blanked.as_deref().unwrap_or(src);
    let rd = Reader {
        p,
        fields: core::cell::RefCell::new(Vec::new()),
        last_annotation: core::cell::Cell::new(None),
        default_exec: core::cell::Cell::new(None),
        default_type: core::cell::Cell::new(None),
        mov_label: core::cell::Cell::new(None),
        warning: core::cell::Cell::new(None),
    };
    let b = text.as_bytes();
    let mut errors = Vec::new();
    // At most one instruction a line, mostly.
    out.reserve(memchr::memchr_iter(b'\n', b).count() + 1);
    // The instructions with jumps, encoded once the labels are known:
    // each with its place in `out` and its index in the program.
    let mut insts: Vec<(usize, usize, Parsed<'_>)> = Vec::new();
    // The instructions read.
    let mut count = 0usize;
    let mut labels: Vec<(&str, usize, usize)> = Vec::new();
    let mut start = 0;
    let mut line = 0u32;
    while start <= b.len() {
        line = line.saturating_add(1);
        let (end, code) = line_bounds(b, start);
        let mut c = Cur {
            src: text,
            b: b.get(..code).unwrap_or(b),
            i: start,
            end: code,
        };
        // Labels, then at most one instruction (`;` may separate more).
        loop {
            c.ws();
            if c.i >= c.end {
                break;
            }
            if c.peek() == Some(b';') {
                c.i += 1;
                continue;
            }
            let s = c.i;
            if c.peek() == Some(b'.') {
                if let Err(e) = rd.directive(&mut c) {
                    errors.push(e);
                    c.i = c.end;
                }
                continue;
            }
            if c.peek().is_some_and(|x| is_ident(x) && !x.is_ascii_digit()) {
                // (`c.b` ends at the line's code.)
                let rest = c.b.get(s..).unwrap_or(&[]);
                let j = s + rest.iter().position(|&x| !is_ident(x)).unwrap_or(rest.len());
                let rest = c.b.get(j..).unwrap_or(&[]);
                let k = j + rest
                    .iter()
                    .position(|&x| !matches!(x, b' ' | b'\t'))
                    .unwrap_or(rest.len());
                if c.b.get(k) == Some(&b':') {
                    labels.push((text.get(s..j).unwrap_or(""), count, s));
                    c.i = k + 1;
                    continue;
                }
            }
            match rd.inst(&mut c) {
                Ok(mut pd) => {
                    pd.line = line;
                    pd.line_start = start;
                    if pd.jip.is_some() || pd.uip.is_some() {
                        // Its jumps wait for the labels: a placeholder
                        // until then.
                        insts.push((out.len(), count, pd));
                        out.push(f(Assembled {
                            line: 0,
                            column: 0,
                            inst: Instruction::new(Opcode::Nop, ExecSize::S1),
                            word: [0; 16],
                            warnings: crate::error::Violations::default(),
                        }));
                    } else {
                        match finish::<FULL>(p, opts, text, &pd, &pd.inst) {
                            Ok(a) => out.push(f(a)),
                            Err(e) => errors.push(e),
                        }
                    }
                    count += 1;
                }
                Err(e) => {
                    errors.push(e);
                    c.i = c.end;
                }
            }
        }
        if end >= b.len() {
            break;
        }
        start = end + 1;
    }
    // Labels: defined once each.
    let mut sorted = labels.clone();
    sorted.sort_by(|a, b| a.0.cmp(b.0).then(a.2.cmp(&b.2)));
    for w in sorted.windows(2) {
        if let [a, b2] = w {
            if a.0 == b2.0 {
                errors.push((b2.2, AsmErrorKind::DuplicateLabel(b2.0.into())));
            }
        }
    }
    for (slot, idx, mut pd) in insts {
        let mut i = pd.inst;
        let op = i.opcode;
        let target = |j: &Jump<'_>| -> R<i64> {
            let (r, at) = match *j {
                Jump::Bytes(v, at) => {
                    let unit = p.jump_unit_bytes(op);
                    if v % unit != 0 {
                        return Err((
                            at,
                            AsmErrorKind::Jump("a jump offset is a whole number of instructions' units"),
                        ));
                    }
                    (crate::build::flow::fits(p, op, v / unit), at)
                }
                Jump::Label(name, at) => {
                    let k = sorted.partition_point(|l| l.0 < name);
                    match sorted.get(k) {
                        Some(l) if l.0 == name => {
                            let d = i64::try_from(l.1).unwrap_or(i64::MAX) - i64::try_from(idx).unwrap_or(0);
                            (crate::build::flow::units(p, op, d), at)
                        }
                        // IGA names its labels after byte offsets in the
                        // program: an undefined `L<n>` (`L_N<n>` before
                        // the start) is that offset, so that a line
                        // disassembled alone reads back.
                        _ => match offset_label(name) {
                            Some(off) => {
                                let here = i64::try_from(idx).unwrap_or(i64::MAX).saturating_mul(16);
                                let d = off.saturating_sub(here);
                                let unit = p.jump_unit_bytes(op);
                                if d % unit != 0 {
                                    return Err((at, AsmErrorKind::UnknownLabel(name.into())));
                                }
                                (crate::build::flow::fits(p, op, d / unit), at)
                            }
                            None => return Err((at, AsmErrorKind::UnknownLabel(name.into()))),
                        },
                    }
                }
            };
            r.map_err(|e| out_of_range(at, e))
        };
        // A `mov` label: the label's byte offset from the program's start
        // (IGA's encoder patches it in with the PC base 0).
        if let (Opcode::Mov, Some(Jump::Label(name, at))) = (i.opcode, &pd.jip) {
            let (name, at) = (*name, *at);
            let k = sorted.partition_point(|l| l.0 < name);
            let off = match sorted.get(k) {
                Some(l) if l.0 == name => i64::try_from(l.1).unwrap_or(i64::MAX).saturating_mul(16),
                _ => match offset_label(name) {
                    Some(off) if off >= 0 => off,
                    _ => {
                        errors.push((at, AsmErrorKind::UnknownLabel(name.into())));
                        continue;
                    }
                },
            };
            i.imm = u64::try_from(off).unwrap_or(0) & u64::from(u32::MAX);
            pd.jip = None;
        }
        let jip = pd.jip.as_ref().map(target).transpose();
        let uip = pd.uip.as_ref().map(target).transpose();
        let (jip, uip) = match (jip, uip) {
            (Ok(j), Ok(u)) => (j, u),
            (Err(e), _) | (_, Err(e)) => {
                errors.push(e);
                continue;
            }
        };
        if let Some(j) = jip {
            if i.opcode.counts_from_next() {
                // jmpi: IGA's jump counts from the jmpi; the word's, in
                // src1's immediate, from the next instruction.
                let from_next = crate::build::flow::fits(p, op, j - p.jump_units_per_instruction(op));
                match (from_next, &pd.jip) {
                    (Ok(v), _) => crate::build::flow::set_imm32(&mut i, v),
                    (Err(e), Some(Jump::Label(_, at) | Jump::Bytes(_, at))) => {
                        errors.push(out_of_range(*at, e));
                        continue;
                    }
                    (Err(_), None) => {}
                }
            } else {
                crate::build::flow::set_first(p, &mut i, j);
            }
        }
        if let Some(u) = uip {
            crate::build::flow::set_uip(p, &mut i, u);
        }
        match finish::<FULL>(p, opts, text, &pd, &i) {
            Ok(a) => {
                if let Some(x) = out.get_mut(slot) {
                    *x = f(a);
                }
            }
            Err(e) => errors.push(e),
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(located(src, errors))
    }
}

/// A jump offset out of the field's range, at `at`.
fn out_of_range(at: usize, e: crate::build::flow::OffsetRange) -> (usize, AsmErrorKind) {
    (
        at,
        AsmErrorKind::OutOfRange {
            what: "jump offset",
            value: e.offset,
            range: e.range,
        },
    )
}

/// The instruction `pd` stands for (`i`: its instruction with its jumps)
/// in IGA's canonical form, encoded with its annotation's fields.
#[inline]
fn finish<const FULL: bool>(
    p: Platform,
    opts: AsmOptions,
    text: &str,
    pd: &Parsed<'_>,
    i: &Instruction,
) -> R<Assembled> {
    let compacted = i.controls & Controls::COMPACTED;
    let mut i = super::iga_canonical(p, i);
    i.controls |= compacted;
    let mut warnings = crate::error::Violations::default();
    let w = if FULL {
        encode_patched(p, &mut i, pd.raw.as_ref(), opts, &mut warnings)
    } else {
        encode_patched_word(p, &i, pd.raw.as_ref(), opts, &mut warnings)
    };
    match w {
        Ok(w) => Ok(Assembled {
            warnings: {
                warnings.0.extend(pd.warning.map(Warning::violation));
                warnings
            },
            line: pd.line,
            column: if FULL { column(text, pd.line_start, pd.at) } else { 0 },
            inst: i,
            word: w.to_bytes(),
        }),
        Err(kind) => Err((pd.at, kind)),
    }
}

/// Whether `src` looks like IGA's syntax rather than Mesa's: a line with
/// an IGA execution size and channel offset (`(8|M0)`) or an IGA operand
/// type after a region (`<1>:f`, `<8;8,1>:d`); Mesa's syntax has neither.
/// Looks at the first 64 KiB.
pub fn looks_like_iga(src: &str) -> bool {
    let b = src.as_bytes();
    let b = b.get(..b.len().min(1 << 16)).unwrap_or(b);
    b.windows(3).any(|w| match w {
        [b'|', b'M', d] => d.is_ascii_digit(),
        [b'>', b':', t] => t.is_ascii_lowercase(),
        _ => false,
    })
}

/// [`assemble_iga`], giving the 16-byte words only.
pub fn assemble_iga_words(p: Platform, src: &str, opts: AsmOptions) -> Result<Vec<[u8; 16]>, AsmErrors> {
    let mut out = Vec::new();
    run::<_, false>(p, src, opts, &mut out, |a| a.word)?;
    Ok(out)
}
