//! Lexer for Mesa's EU assembly syntax.
//!
//! The lexer is a cursor over the source text that hands out one
//! [`Token`] at a time. Tokens borrow their text from the source, so
//! lexing allocates nothing. Whitespace and comments (`// ...` to the end
//! of the line, `/* ... */` anywhere) separate tokens and are otherwise
//! ignored.
//!
//! The token set is deliberately small: identifiers, numbers and single
//! punctuation characters. Words such as `g12`, `acc0`, `xyzF` or `UD` are
//! all identifiers; the parser splits them, because what they mean depends
//! on where they stand (a register name, a write mask glued to a type, an
//! immediate's type).
//!
//! Statements (labels, instructions' heads, operands, options and `;`),
//! the bulk of any program, are read by a [`Scanner`] instead: a cursor
//! that reads the same pieces (a register name, a number, a region's
//! items, a type, punctuation) straight from the bytes, skipping
//! whitespace and comments between them as the lexer does, and without
//! making tokens. Both read numbers and identifiers with the same
//! functions.
//!
//! Numbers are decimal (`16`) or `0x` followed by **lowercase** hex digits
//! (`0x3f800000`), as Mesa writes them: the type letters that follow an
//! immediate are uppercase, so `0x0000000000000000DF` lexes as the number
//! `0x0000000000000000` and the identifier `DF`.

use core::fmt;

/// What a token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `[A-Za-z_][A-Za-z0-9_]*`.
    Ident,
    /// A decimal or `0x` hexadecimal number; its value is in [`Token::value`].
    Number,
    /// `(`
    LParen,
    /// `)`
    RParen,
    /// `[`
    LBracket,
    /// `]`
    RBracket,
    /// `<`
    LAngle,
    /// `>`
    RAngle,
    /// `{`
    LBrace,
    /// `}`
    RBrace,
    /// `,`
    Comma,
    /// `.`
    Dot,
    /// `;`
    Semi,
    /// `:`
    Colon,
    /// `+`
    Plus,
    /// `-`
    Minus,
    /// `~`
    Tilde,
    /// `=`
    Equals,
    /// `*` (Mesa's `*** invalid <field> value N` markers)
    Star,
    /// The end of the input.
    Eof,
    /// A character that starts no token.
    BadChar,
    /// A number too large for 64 bits.
    BadNumber,
    /// A `/*` comment without its `*/`.
    UnterminatedComment,
}

/// Where a token starts: byte offset and 1-based line (the column is
/// computed from these and the source on demand, so that positions stay
/// small). Offsets saturate at 4 GiB.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Pos {
    /// Byte offset into the source.
    pub offset: u32,
    /// Line number, from 1.
    pub line: u32,
}

#[inline]
pub(crate) fn off32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

impl Pos {
    /// The 1-based column, counted in characters (a tab counts as one).
    pub fn column(&self, src: &str) -> u32 {
        // Most statements start their line.
        let at = self.offset as usize;
        if at == 0 || src.as_bytes().get(at - 1) == Some(&b'\n') {
            return 1;
        }
        let before = src.as_bytes().get(..self.offset as usize).unwrap_or(&[]);
        let line_start = before.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        let n =
            src.get(line_start..self.offset as usize).map_or(
                0,
                |s| {
                    if s.is_ascii() {
                        s.len()
                    } else {
                        s.chars().count()
                    }
                },
            );
        u32::try_from(n).unwrap_or(u32::MAX).saturating_add(1)
    }
}

/// A token: its kind, its text (borrowed from the source), its numeric
/// value (numbers only) and where it starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token<'a> {
    /// The kind.
    pub kind: Kind,
    /// The exact source text (empty at the end of input).
    pub text: &'a str,
    /// The value of a [`Kind::Number`]; 0 otherwise.
    pub value: u64,
    /// Where the token starts.
    pub pos: Pos,
}

impl Token<'_> {
    /// Whether this is the identifier `s`.
    #[inline]
    pub fn is_ident(&self, s: &str) -> bool {
        self.kind == Kind::Ident && self.text == s
    }
}

impl fmt::Display for Token<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            Kind::Eof => f.write_str("end of input"),
            Kind::UnterminatedComment => f.write_str("unterminated `/*` comment"),
            _ => write!(f, "`{}`", self.text),
        }
    }
}

/// Writes a token into `out` field by field (building it elsewhere and
/// copying it whole would reload, wide, what was just stored narrow).
#[inline(always)]
fn put<'a>(out: &mut Token<'a>, kind: Kind, text: &'a str, value: u64, pos: Pos) {
    out.kind = kind;
    out.text = text;
    out.value = value;
    out.pos.offset = pos.offset;
    out.pos.line = pos.line;
}

/// The lexer: a cheap-to-copy cursor over the source.
#[derive(Clone, Copy, Debug)]
pub struct Lexer<'a> {
    src: &'a str,
    pos: usize,
    line: u32,
}

/// Byte classes for the lexer's dispatch.
const C_OTHER: u8 = 0;
const C_IDENT: u8 = 1;
const C_DIGIT: u8 = 2;
const C_SPACE: u8 = 3;
/// Added to the class of bytes that continue an identifier.
const C_WORD: u8 = 8;
/// Added to the class of bytes that may begin whitespace or a comment.
const C_TRIVIA: u8 = 16;

// Evaluated at compile time: the indices are in range.
#[allow(clippy::indexing_slicing)]
const CLASS: [u8; 256] = {
    let mut t = [C_OTHER; 256];
    let mut i = 0;
    while i < 256 {
        let b = i as u8;
        t[i] = if b.is_ascii_alphabetic() || b == b'_' {
            C_IDENT | C_WORD
        } else if b.is_ascii_digit() {
            C_DIGIT | C_WORD
        } else if b == b' ' || b == b'\t' || b == b'\r' {
            C_SPACE | C_TRIVIA
        } else if b == b'\n' || b == b'/' {
            C_OTHER | C_TRIVIA
        } else {
            C_OTHER
        };
        i += 1;
    }
    t
};

#[inline]
fn class(b: u8) -> u8 {
    CLASS.get(usize::from(b)).copied().unwrap_or(C_OTHER) & !(C_WORD | C_TRIVIA)
}

/// Skips a run of spaces in `bytes` from `i`, eight bytes at a time: the
/// first non-space of the last chunk is found from the lowest nonzero byte
/// of `chunk ^ spaces`. Returns the first non-space, or where fewer than
/// eight bytes are left (which may still be spaces).
#[inline(always)]
fn skip_spaces(bytes: &[u8], mut i: usize) -> usize {
    while let Some(&[a, b, c, d, e, f, g, h]) = bytes.get(i..i + 8) {
        let x = u64::from_le_bytes([a, b, c, d, e, f, g, h]) ^ u64::from_le_bytes([b' '; 8]);
        if x != 0 {
            return i + (x.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    i
}

/// Whether `b` may begin whitespace or a comment.
#[inline]
fn may_start_trivia(b: u8) -> bool {
    CLASS.get(usize::from(b)).copied().unwrap_or(C_OTHER) & C_TRIVIA != 0
}

#[inline]
pub(crate) fn is_ident_char(b: u8) -> bool {
    CLASS.get(usize::from(b)).copied().unwrap_or(C_OTHER) & C_WORD != 0
}

/// Where the run of identifier characters (letters, digits, `_`) that
/// starts at byte `i` of `bytes` ends.
#[inline(always)]
pub(crate) fn ident_end(bytes: &[u8], mut i: usize) -> usize {
    // Eight bytes at a time from a window (one bounds check) where eight
    // are left; the last ones one at a time.
    while let Some(w) = bytes.get(i..).and_then(|r| r.first_chunk::<8>()) {
        for (n, &c) in w.iter().enumerate() {
            if !is_ident_char(c) {
                return i + n;
            }
        }
        i += 8;
    }
    while bytes.get(i).is_some_and(|&c| is_ident_char(c)) {
        i += 1;
    }
    i
}

/// Where the first `{`, `;` or line end in `bytes` is. On x86-64 through
/// the SSE2 searcher directly (SSE2 is part of the architecture): it is
/// inlined, without `memchr3`'s run-time choice of routine, which costs
/// about as much as the search over a description's fifty bytes.
#[inline(always)]
fn brace_semicolon_or_line_end(bytes: &[u8]) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    if let Some(s) = memchr::arch::x86_64::sse2::memchr::Three::new(b'{', b';', b'\n') {
        return s.find(bytes);
    }
    memchr::memchr3(b'{', b';', b'\n', bytes)
}

/// Whether `b` may begin an identifier (a letter or `_`).
#[inline]
pub(crate) fn starts_ident(b: u8) -> bool {
    class(b) == C_IDENT
}

/// Each byte's value as a hexadecimal digit, 255 for other bytes; with
/// `upper`, `A`-`F` count too (IGA's literals), without, only lowercase
/// (in Mesa's syntax an uppercase letter after a number is its type).
// Evaluated at compile time: the indices are in range.
#[allow(clippy::indexing_slicing)]
pub(crate) const fn hex_digits(upper: bool) -> [u8; 256] {
    let mut t = [255u8; 256];
    let mut i = 0;
    while i < 10 {
        t[b'0' as usize + i] = i as u8;
        i += 1;
    }
    let mut i = 0;
    while i < 6 {
        t[b'a' as usize + i] = 10 + i as u8;
        if upper {
            t[b'A' as usize + i] = 10 + i as u8;
        }
        i += 1;
    }
    t
}

/// The value of each lowercase hex digit; 255 for other bytes.
const LOWER_HEX: [u8; 256] = hex_digits(false);

#[inline]
fn is_lower_hex(b: u8) -> bool {
    b.is_ascii_digit() || (b'a'..=b'f').contains(&b)
}

impl<'a> Lexer<'a> {
    /// A lexer at the start of `src`.
    #[cfg(test)]
    pub fn new(src: &'a str) -> Self {
        Lexer { src, pos: 0, line: 1 }
    }

    /// A lexer at byte `offset` of `src` (a character boundary), which is
    /// on line `line`: for text that continues an earlier piece.
    pub fn at(src: &'a str, offset: usize, line: u32) -> Self {
        Lexer {
            src,
            pos: offset.min(src.len()),
            line,
        }
    }

    /// The source text.
    pub fn source(&self) -> &'a str {
        self.src
    }

    #[inline]
    fn byte(&self, i: usize) -> u8 {
        self.src.as_bytes().get(i).copied().unwrap_or(0)
    }

    #[inline]
    fn text(&self, from: usize, to: usize) -> &'a str {
        self.src.get(from..to).unwrap_or("")
    }

    #[inline]
    fn newline_at(&mut self) {
        self.line = self.line.saturating_add(1);
    }

    /// Skips whitespace and comments. Returns the start of an
    /// unterminated block comment, if one was met (the rest of the input
    /// is then consumed).
    #[inline(never)]
    fn skip_trivia(&mut self) -> Option<Pos> {
        let bytes = self.src.as_bytes();
        let mut i = self.pos;
        loop {
            let Some(&b) = bytes.get(i) else {
                self.pos = i;
                return None;
            };
            match b {
                b' ' => {
                    // Column padding, eight bytes at a time; where fewer
                    // than eight are left, step over this byte only if it
                    // is a space: the outer loop takes the rest one at a
                    // time.
                    i = skip_spaces(bytes, i);
                    i += usize::from(bytes.get(i) == Some(&b' '));
                }
                b'\t' | b'\r' => i += 1,
                b'\n' => {
                    self.newline_at();
                    i += 1;
                }
                b'/' if self.byte(i + 1) == b'/' => {
                    let rest = bytes.get(i..).unwrap_or(&[]);
                    i += memchr::memchr(b'\n', rest).unwrap_or(rest.len());
                }
                b'/' if self.byte(i + 1) == b'*' => {
                    self.pos = i;
                    let start = self.here();
                    i += 2;
                    loop {
                        match bytes.get(i) {
                            None => {
                                self.pos = i;
                                return Some(start);
                            }
                            Some(b'*') if self.byte(i + 1) == b'/' => {
                                i += 2;
                                break;
                            }
                            Some(b'\n') => {
                                self.newline_at();
                                i += 1;
                            }
                            Some(_) => i += 1,
                        }
                    }
                }
                _ => {
                    self.pos = i;
                    return None;
                }
            }
        }
    }

    /// The next token. After the end of input, every call returns
    /// [`Kind::Eof`].
    pub fn next_token(&mut self) -> Token<'a> {
        let mut t = Token {
            kind: Kind::Eof,
            text: "",
            value: 0,
            pos: Pos::default(),
        };
        self.next_token_into(&mut t);
        t
    }

    /// [`Lexer::next_token`], written into `out`.
    #[inline(never)]
    pub fn next_token_into(&mut self, out: &mut Token<'a>) {
        if let Err(start) = self.skip_gap() {
            let text = self.text(start.offset as usize, start.offset as usize + 2);
            return put(out, Kind::UnterminatedComment, text, 0, start);
        }
        self.token(out)
    }

    /// Skips the whitespace and comments here, as between two tokens.
    /// `Err` with where it starts at a `/*` comment that is not closed
    /// (the rest of the input is then skipped).
    #[inline(always)]
    pub(crate) fn skip_gap(&mut self) -> Result<(), Pos> {
        // Most tokens follow another directly (`g2<8,8,1>F`).
        let bytes = self.src.as_bytes();
        let glued = bytes.get(self.pos).is_some_and(|&b| !may_start_trivia(b));
        if glued {
            return Ok(());
        }
        // One space between words (`{ align1 1Q }`).
        let i = self.pos + 1;
        if bytes.get(self.pos) == Some(&b' ') && bytes.get(i).is_some_and(|&b| !may_start_trivia(b)) {
            self.pos = i;
            return Ok(());
        }
        // Column padding: a line end and a run of spaces (eight at a
        // time) before a token, without the general trivia loop.
        let mut i = self.pos;
        let newline = bytes.get(i) == Some(&b'\n');
        i += usize::from(newline);
        i = skip_spaces(bytes, i);
        if bytes.get(i).is_some_and(|&b| !may_start_trivia(b)) {
            if newline {
                self.newline_at();
            }
            self.pos = i;
            return Ok(());
        }
        // On a copy, so that a lexer kept in registers by its caller
        // need not be stored for the call.
        let mut l = *self;
        let unterminated = l.skip_trivia();
        self.pos = l.pos;
        self.line = l.line;
        match unterminated {
            Some(start) => Err(start),
            None => Ok(()),
        }
    }

    /// The token at the current position, which is not trivia, written
    /// into `out`.
    #[inline(always)]
    fn token(&mut self, out: &mut Token<'a>) {
        let pos = self.here();
        let start = self.pos;
        let bytes = self.src.as_bytes();
        let Some(&b) = bytes.get(start) else {
            return put(out, Kind::Eof, "", 0, pos);
        };
        // Punctuation text is the same one-byte string wherever it stands.
        let (kind, text) = match class(b) {
            C_IDENT => {
                let i = ident_end(bytes, start + 1);
                self.pos = i;
                return put(out, Kind::Ident, self.text(start, i), 0, pos);
            }
            C_DIGIT => {
                let (value, end) = self.scan_number(start);
                self.pos = end;
                let kind = if value.is_some() { Kind::Number } else { Kind::BadNumber };
                return put(out, kind, self.text(start, end), value.unwrap_or(0), pos);
            }
            _ => match b {
                b'(' => (Kind::LParen, "("),
                b')' => (Kind::RParen, ")"),
                b'[' => (Kind::LBracket, "["),
                b']' => (Kind::RBracket, "]"),
                b'<' => (Kind::LAngle, "<"),
                b'>' => (Kind::RAngle, ">"),
                b'{' => (Kind::LBrace, "{"),
                b'}' => (Kind::RBrace, "}"),
                b',' => (Kind::Comma, ","),
                b'.' => (Kind::Dot, "."),
                b';' => (Kind::Semi, ";"),
                b':' => (Kind::Colon, ":"),
                b'+' => (Kind::Plus, "+"),
                b'-' => (Kind::Minus, "-"),
                b'~' => (Kind::Tilde, "~"),
                b'=' => (Kind::Equals, "="),
                b'*' => (Kind::Star, "*"),
                _ => {
                    // One whole character, however many bytes it takes.
                    let n = self
                        .src
                        .get(start..)
                        .and_then(|s| s.chars().next())
                        .map_or(1, char::len_utf8);
                    self.pos = start + n;
                    return put(out, Kind::BadChar, self.text(start, start + n), 0, pos);
                }
            },
        };
        self.pos = start + 1;
        put(out, kind, text, 0, pos)
    }

    /// The number that starts at byte `start` (a digit): its value, or
    /// `None` if it needs more than 64 bits, and where it ends.
    #[inline(always)]
    fn scan_number(&self, start: usize) -> (Option<u64>, usize) {
        let bytes = self.src.as_bytes();
        // The number's first bytes, read at fixed offsets (one bounds
        // check for all) where eight are left: most numbers are short.
        let w = bytes.get(start..).and_then(|r| r.first_chunk::<8>());
        let hex = match w {
            Some(&[b0, b1, b2, ..]) => b0 == b'0' && b1 == b'x' && is_lower_hex(b2),
            None => self.byte(start) == b'0' && self.byte(start + 1) == b'x' && is_lower_hex(self.byte(start + 2)),
        };
        let mut value: u64 = 0;
        if hex {
            let from = start + 2;
            let mut i = from;
            // Eight digits at a time from a window (read at fixed offsets,
            // without a bounds check each), then the rest one at a time.
            let hex_digit = |b: u8| LOWER_HEX.get(usize::from(b)).copied().filter(|&d| d <= 15);
            loop {
                let Some(w) = bytes.get(i..).and_then(|r| r.first_chunk::<8>()) else {
                    while let Some(d) = bytes.get(i).and_then(|&b| hex_digit(b)) {
                        value = (value << 4) | u64::from(d);
                        i += 1;
                    }
                    break;
                };
                let mut n = 0;
                for &b in w {
                    let Some(d) = hex_digit(b) else { break };
                    value = (value << 4) | u64::from(d);
                    n += 1;
                }
                i += n;
                if n < 8 {
                    break;
                }
            }
            // Sixteen digits fit whatever they are; leading zeros too.
            if i - from > 16 {
                let digits = bytes.get(from..i).unwrap_or(&[]);
                let zeros = digits.iter().take_while(|&&b| b == b'0').count();
                if digits.len() - zeros > 16 {
                    return (None, i);
                }
            }
            return (Some(value), i);
        }
        // Up to eight digits from the window; more (or all, near the
        // end) from the bytes.
        let mut n = 0;
        if let Some(w) = w {
            for &b in w {
                let d = b.wrapping_sub(b'0');
                if d >= 10 {
                    return (Some(value), start + n);
                }
                value = value * 10 + u64::from(d);
                n += 1;
            }
        }
        // Nineteen decimal digits always fit in 64 bits; longer numbers
        // are checked digit by digit.
        let mut i = start + n;
        while let Some(d) = bytes.get(i).map(|&b| b.wrapping_sub(b'0')).filter(|&d| d < 10) {
            if i - start == 19 {
                return Self::long_decimal(bytes, start);
            }
            value = value * 10 + u64::from(d);
            i += 1;
        }
        (Some(value), i)
    }

    /// [`Lexer::scan_number`] for a decimal number of twenty digits or
    /// more, which may not fit in 64 bits.
    #[cold]
    #[inline(never)]
    fn long_decimal(bytes: &[u8], start: usize) -> (Option<u64>, usize) {
        let mut value: u64 = 0;
        let mut i = start;
        let mut overflow = false;
        while let Some(&b) = bytes.get(i) {
            if !b.is_ascii_digit() {
                break;
            }
            match value.checked_mul(10).and_then(|v| v.checked_add(u64::from(b - b'0'))) {
                Some(v) => value = v,
                None => overflow = true,
            }
            i += 1;
        }
        (if overflow { None } else { Some(value) }, i)
    }

    /// The byte the lexer stands at (`None` at the end).
    #[inline]
    pub(crate) fn peek_byte(&self) -> Option<u8> {
        self.src.as_bytes().get(self.pos).copied()
    }

    /// Where the lexer stands.
    #[inline]
    pub(crate) fn here(&self) -> Pos {
        Pos {
            offset: off32(self.pos),
            line: self.line,
        }
    }

    /// Skips raw text up to (not including) the next `{`, `;` or line end
    /// (or the end of input). Used for the free-form message-descriptor
    /// comment that follows `MsgDesc:` on a SEND's continuation line
    /// (`memchr3` compares sixteen bytes at a time: fewer instructions
    /// than eight-byte steps in registers over a description of about 60
    /// bytes).
    #[inline(always)]
    pub fn skip_to_brace_or_line_end(&mut self) {
        let rest = self.src.as_bytes().get(self.pos..).unwrap_or(&[]);
        self.pos += brace_semicolon_or_line_end(rest).unwrap_or(rest.len());
    }
}

/// A cursor that reads the pieces of an operand (a register name, a
/// number, a region's items, a type, punctuation) straight from the
/// bytes, with whitespace and comments allowed between pieces as between
/// tokens, and without making tokens: the parser reads statements through
/// it, and only the rare constructs its module doc names token by token.
///
/// A scanner always stands at the start of a piece (or at the end of the
/// input, or at a `/*` comment that is not closed): the whitespace and
/// comments after a piece are skipped when it is taken, once, rather
/// than each time the next piece is looked at. Reading is in two steps:
/// [`Scanner::at`] says where the next piece starts, the `*_here`
/// methods look at it without moving, and [`Scanner::advance_to`] takes
/// it. A scanner that stops at a piece it cannot take therefore stands at
/// that piece, which is where the error is reported ([`Scanner::token`]
/// gives the token there), and [`Scanner::last_line`] is the line of the
/// last piece taken, which error recovery needs.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Scanner<'a> {
    l: Lexer<'a>,
    last_line: u32,
}

impl<'a> Scanner<'a> {
    /// A scanner at byte `offset` of `src`, on line `line`, after a piece
    /// on line `last_line`.
    #[inline]
    pub(crate) fn new(src: &'a str, at: Pos, last_line: u32) -> Self {
        let mut s = Scanner {
            l: Lexer::at(src, at.offset as usize, at.line),
            last_line,
        };
        s.skip();
        s
    }

    /// Where the next piece starts.
    #[inline(always)]
    pub(crate) fn at(&self) -> Pos {
        self.l.here()
    }

    /// Skips whitespace and comments. At a `/*` comment that is not closed
    /// it stays at the comment, whose token ([`Kind::UnterminatedComment`])
    /// no piece is.
    #[inline(always)]
    fn skip(&mut self) {
        if let Err(start) = self.l.skip_gap() {
            self.l.pos = start.offset as usize;
            self.l.line = start.line;
        }
    }

    /// The byte the scanner stands at, the next piece's first (`None` at
    /// the end).
    #[inline(always)]
    pub(crate) fn byte(&self) -> Option<u8> {
        self.l.peek_byte()
    }

    /// Takes the bytes up to `end` (on the current line), and the
    /// whitespace and comments after them: `end` is the end of a piece the
    /// scanner found, so at most the source's length (every read is
    /// checked, so a larger `end` would only read as the end of input).
    #[inline(always)]
    pub(crate) fn advance_to(&mut self, end: usize) {
        self.advance_raw_to(end);
        self.skip();
    }

    /// Takes the bytes up to `end` as [`Scanner::advance_to`] does, but
    /// not what follows.
    #[inline(always)]
    fn advance_raw_to(&mut self, end: usize) {
        self.l.pos = end;
        self.last_line = self.l.line;
    }

    /// Takes the bytes up to `end` (on the current line) but not the
    /// whitespace and comments after them: the scanner then stands right
    /// after the piece, where a reader that expects a given byte next
    /// looks first ([`Scanner::raw_byte`]), and only if it is not there
    /// skips what may stand between ([`Scanner::settle`]). Most pieces
    /// follow each other directly (`<8,8,1>`), and a byte compared with
    /// the one expected need not also be tested for whitespace.
    #[inline(always)]
    pub(crate) fn take(&mut self, end: usize) {
        self.advance_raw_to(end);
    }

    /// The byte right where the scanner stands, which after
    /// [`Scanner::take`] may be whitespace (`None` at the end).
    #[inline(always)]
    pub(crate) fn raw_byte(&self) -> Option<u8> {
        self.l.peek_byte()
    }

    /// Skips the whitespace and comments where the scanner stands, after
    /// [`Scanner::take`]: it then stands at the next piece again.
    #[inline(always)]
    pub(crate) fn settle(&mut self) {
        self.skip();
    }

    /// Moves this scanner to where `s`, a copy of it that has read on,
    /// stands: only what reading changes is written back (a whole copy
    /// would also carry the source and the padding between the fields).
    #[inline(always)]
    pub(crate) fn catch_up(&mut self, s: &Scanner<'a>) {
        self.l.pos = s.l.pos;
        self.l.line = s.l.line;
        self.last_line = s.last_line;
    }

    /// Where the scanner stands, as an index.
    #[inline(always)]
    pub(crate) fn index(&self) -> usize {
        self.l.pos
    }

    /// Takes `n` bytes (on the current line) but not the whitespace and
    /// comments after them: for a piece after which raw text is read
    /// ([`Scanner::skip_description`]).
    #[inline(always)]
    pub(crate) fn advance_raw(&mut self, n: usize) {
        self.advance_raw_to(self.l.pos + n);
    }

    /// Takes `n` bytes (on the current line).
    #[inline(always)]
    pub(crate) fn advance(&mut self, n: usize) {
        self.advance_to(self.l.pos + n);
    }

    /// Takes the next piece if it is the byte `b`.
    #[inline(always)]
    pub(crate) fn eat(&mut self, b: u8) -> bool {
        let hit = self.byte() == Some(b);
        if hit {
            self.advance(1);
        }
        hit
    }

    /// The number (as [`Kind::Number`]) the scanner stands at: its value
    /// and where it ends; `None` for anything else, a number too large for
    /// 64 bits included.
    #[inline(always)]
    pub(crate) fn number_here(&self) -> Option<(u64, usize)> {
        if !self.byte()?.is_ascii_digit() {
            return None;
        }
        let (value, end) = self.l.scan_number(self.l.pos);
        Some((value?, end))
    }

    /// Where the identifier `w` the scanner stands at ends; `None` if the
    /// identifier there is not `w` (or there is none): what
    /// [`Scanner::ident_here`] gives compared with `w`, without slicing.
    #[inline(always)]
    pub(crate) fn word_here(&self, w: &str) -> Option<usize> {
        let bytes = self.l.src.as_bytes();
        let start = self.l.pos;
        let end = start + w.len();
        let whole = bytes.get(start..end) == Some(w.as_bytes())
            && w.as_bytes().first().is_some_and(|&b| starts_ident(b))
            && !bytes.get(end).is_some_and(|&b| is_ident_char(b));
        whole.then_some(end)
    }

    /// The register name `g<n>` or `r<n>` the scanner stands at, as it is
    /// commonly written (one to three decimal digits, `n` at most 255,
    /// the whole identifier): `n` and where the name ends; `None` for
    /// anything else (which [`Scanner::ident_here`] reads).
    #[inline(always)]
    pub(crate) fn grf_here(&self) -> Option<(u8, usize)> {
        let bytes = self.l.src.as_bytes();
        let start = self.l.pos;
        if !matches!(bytes.get(start), Some(b'g' | b'r')) {
            return None;
        }
        let mut n = 0u32;
        let mut i = start + 1;
        while let Some(d) = bytes.get(i).map(|&b| b.wrapping_sub(b'0')).filter(|&d| d < 10) {
            if i - start == 4 {
                return None;
            }
            n = n * 10 + u32::from(d);
            i += 1;
        }
        if i == start + 1 || bytes.get(i).is_some_and(|&b| is_ident_char(b)) {
            return None;
        }
        Some((u8::try_from(n).ok()?, i))
    }

    /// The identifier (as [`Kind::Ident`]) the scanner stands at and where
    /// it ends; `None` for anything else.
    #[inline(always)]
    pub(crate) fn ident_here(&self) -> Option<(&'a str, usize)> {
        let start = self.l.pos;
        if !starts_ident(self.byte()?) {
            return None;
        }
        let end = ident_end(self.l.src.as_bytes(), start + 1);
        Some((self.l.text(start, end), end))
    }

    /// [`Scanner::ident_here`] as bytes (without the text's character
    /// boundary checks: an identifier is ASCII).
    #[inline(always)]
    pub(crate) fn ident_bytes_here(&self) -> Option<(&'a [u8], usize)> {
        let bytes = self.l.src.as_bytes();
        let start = self.l.pos;
        if !starts_ident(*bytes.get(start)?) {
            return None;
        }
        let end = ident_end(bytes, start + 1);
        Some((bytes.get(start..end)?, end))
    }

    /// Skips raw text up to (not including) the next `{`, `;` or line end
    /// (or the end of input): the free-form description after a SEND's
    /// `MsgDesc:`. It is no piece: the last piece taken stays what it was.
    #[inline(always)]
    pub(crate) fn skip_description(&mut self) {
        self.l.skip_to_brace_or_line_end();
        self.skip();
    }

    /// The token the scanner stands at (for an error about it).
    pub(crate) fn token(&self) -> Token<'a> {
        let mut l = self.l;
        l.next_token()
    }

    /// Where the scanner stands.
    #[inline(always)]
    pub(crate) fn here(&self) -> Pos {
        self.l.here()
    }

    /// The line of the last piece taken.
    #[inline(always)]
    pub(crate) fn last_line(&self) -> u32 {
        self.last_line
    }

    /// The lexer, standing where the scanner stands.
    #[inline(always)]
    pub(crate) fn lexer(&self) -> Lexer<'a> {
        self.l
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(s: &str) -> Vec<(Kind, &str)> {
        let mut l = Lexer::new(s);
        let mut out = Vec::new();
        loop {
            let t = l.next_token();
            if t.kind == Kind::Eof {
                break;
            }
            out.push((t.kind, t.text));
        }
        out
    }

    #[test]
    fn space_runs_before_a_short_tail_keep_the_tail() {
        // A run of spaces whose length is a multiple of eight, followed by
        // fewer than eight bytes: the tail must still be lexed.
        for n in 0..40 {
            let src = alloc::format!("nop{};\n", " ".repeat(n));
            let k: Vec<Kind> = kinds(&src).into_iter().map(|(k, _)| k).collect();
            assert_eq!(k, [Kind::Ident, Kind::Semi], "{n} spaces");
            let src = alloc::format!("nop{}", " ".repeat(n));
            assert_eq!(kinds(&src).len(), 1, "{n} spaces at the end");
        }
    }

    #[test]
    fn splits_operands_into_tokens() {
        use Kind::*;
        assert_eq!(
            kinds("g2.3<8,2,4>F"),
            vec![
                (Ident, "g2"),
                (Dot, "."),
                (Number, "3"),
                (LAngle, "<"),
                (Number, "8"),
                (Comma, ","),
                (Number, "2"),
                (Comma, ","),
                (Number, "4"),
                (RAngle, ">"),
                (Ident, "F")
            ]
        );
        assert_eq!(
            kinds("n0<1>.yUD"),
            vec![
                (Ident, "n0"),
                (LAngle, "<"),
                (Number, "1"),
                (RAngle, ">"),
                (Dot, "."),
                (Ident, "yUD")
            ]
        );
    }

    #[test]
    fn hex_digits_are_lowercase_so_type_letters_stay_apart() {
        let mut l = Lexer::new("0x0000000000000000DF 0x3f800000F 0x0008UW 36W");
        let t = l.next_token();
        assert_eq!((t.kind, t.text, t.value), (Kind::Number, "0x0000000000000000", 0));
        assert_eq!(l.next_token().text, "DF");
        let t = l.next_token();
        assert_eq!((t.text, t.value), ("0x3f800000", 0x3f80_0000));
        assert_eq!(l.next_token().text, "F");
        assert_eq!(l.next_token().value, 8);
        assert_eq!(l.next_token().text, "UW");
        assert_eq!(l.next_token().value, 36);
        assert_eq!(l.next_token().text, "W");
    }

    #[test]
    fn decimal_numbers_read_alike_at_every_distance_from_the_end() {
        // Numbers of 1 to 21 digits, followed by 0 to 9 other bytes: read
        // from an eight-byte window or byte by byte, the value and the end
        // are those `str::parse` finds.
        let digits = "918273645546372819012";
        for len in 1..=digits.len() {
            let num = &digits[..len];
            for tail in 0..10 {
                let src = alloc::format!("{num}{}", &"D,>;1xyz ("[..tail]);
                let t = Lexer::new(&src).next_token();
                match num.parse::<u64>() {
                    Ok(v) => assert_eq!((t.kind, t.text, t.value), (Kind::Number, num, v), "{src}"),
                    Err(_) => assert_eq!((t.kind, t.text), (Kind::BadNumber, num), "{src}"),
                }
            }
        }
    }

    #[test]
    fn identifiers_end_alike_at_every_distance_from_the_end() {
        // Identifiers of 1 to 20 bytes, followed by 0 to 9 other bytes:
        // scanned in eight-byte windows or byte by byte, each ends at its
        // first byte that is no letter, digit or `_`.
        let word = "a_Z9bcDEf0gh1_jKlm2n";
        for len in 1..=word.len() {
            let id = &word[..len];
            for tail in 0..10 {
                let src = alloc::format!("{id}{}", &"<.;,( >1x]"[..tail]);
                let t = Lexer::new(&src).next_token();
                assert_eq!((t.kind, t.text), (Kind::Ident, id), "{src}");
            }
        }
    }

    #[test]
    fn hex_numbers_overflow_only_past_sixteen_significant_digits() {
        for (src, want) in [
            ("0x00000000000000000001", Some(1)),
            ("0x0000ffffffffffffffff", Some(u64::MAX)),
            ("0x8000000000000000", Some(1 << 63)),
            ("0x10000000000000000", None),
            ("0x0010000000000000000", None),
            ("0x1ffffffffffffffff", None),
        ] {
            let t = Lexer::new(src).next_token();
            let got = (t.kind == Kind::Number).then_some(t.value);
            assert_eq!(got, want, "{src}");
            assert_eq!(t.text, src);
        }
    }

    #[test]
    fn comments_are_skipped_and_lines_counted() {
        let src = "a /* one\ntwo */ b // three\n  c";
        let mut l = Lexer::new(src);
        let a = l.next_token();
        let b = l.next_token();
        let c = l.next_token();
        assert_eq!((a.text, a.pos.line, a.pos.column(src)), ("a", 1, 1));
        assert_eq!((b.text, b.pos.line, b.pos.column(src)), ("b", 2, 8));
        assert_eq!((c.text, c.pos.line, c.pos.column(src)), ("c", 3, 3));
        assert_eq!(l.next_token().kind, Kind::Eof);
        assert_eq!(l.next_token().kind, Kind::Eof);
    }

    #[test]
    fn line_ends_before_padding_are_counted() {
        let src = "a\n    b\nc\n\n  d\n        \n                e";
        let mut l = Lexer::new(src);
        let mut got = Vec::new();
        loop {
            let t = l.next_token();
            if t.kind == Kind::Eof {
                break;
            }
            got.push((t.text, t.pos.line, t.pos.column(src)));
        }
        assert_eq!(got, [("a", 1, 1), ("b", 2, 5), ("c", 3, 1), ("d", 5, 3), ("e", 7, 17)]);
    }

    #[test]
    fn errors_are_tokens() {
        let mut l = Lexer::new("a @ 99999999999999999999999 /* open");
        assert_eq!(l.next_token().kind, Kind::Ident);
        let t = l.next_token();
        assert_eq!((t.kind, t.text), (Kind::BadChar, "@"));
        assert_eq!(l.next_token().kind, Kind::BadNumber);
        let t = l.next_token();
        assert_eq!((t.kind, t.pos.offset), (Kind::UnterminatedComment, 28));
        assert_eq!(l.next_token().kind, Kind::Eof);
    }

    #[test]
    fn non_ascii_columns_count_characters() {
        let src = "é @";
        let mut l = Lexer::new(src);
        let t = l.next_token();
        assert_eq!((t.kind, t.text), (Kind::BadChar, "é"));
        let t = l.next_token();
        assert_eq!(t.pos.column(src), 3);
    }

    #[test]
    fn long_padding_and_overflow() {
        let src = "a                   b\t \r\n          0xffffffffffffffff 0x10000000000000000 18446744073709551616 [";
        let mut l = Lexer::new(src);
        l.next_token();
        let b = l.next_token();
        assert_eq!((b.text, b.pos.column(src)), ("b", 21));
        let n = l.next_token();
        assert_eq!(
            (n.kind, n.value, n.pos.line, n.pos.column(src)),
            (Kind::Number, u64::MAX, 2, 11)
        );
        assert_eq!(l.next_token().kind, Kind::BadNumber);
        assert_eq!(l.next_token().kind, Kind::BadNumber);
        assert_eq!(l.next_token().kind, Kind::LBracket);
        assert_eq!(l.next_token().kind, Kind::Eof);
    }

    #[test]
    fn raw_skip_finds_every_stop_byte_at_every_offset() {
        for stop in ["{", ";", "\n"] {
            for n in 0..70 {
                let src = alloc::format!("{}{stop}x", "a".repeat(n));
                let mut l = Lexer::new(&src);
                l.skip_to_brace_or_line_end();
                assert_eq!(l.pos, n, "{stop:?} after {n}");
            }
        }
        let mut l = Lexer::new("abcdefghijklmnopq");
        l.skip_to_brace_or_line_end();
        assert_eq!(l.next_token().kind, Kind::Eof);
    }

    #[test]
    fn raw_skip_stops_at_brace() {
        let src = "urb MsgDesc: 0 write (x, 1) mlen 5 { align1 };";
        let mut l = Lexer::new(src);
        l.next_token();
        l.next_token();
        l.next_token();
        l.skip_to_brace_or_line_end();
        assert_eq!(l.next_token().kind, Kind::LBrace);
    }
}
