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

impl Kind {
    /// Whether the token is one of the error kinds.
    pub fn is_error(self) -> bool {
        matches!(self, Kind::BadChar | Kind::BadNumber | Kind::UnterminatedComment)
    }
}

/// Where a token starts: byte offset, 1-based line, and the byte offset of
/// that line's start (the column is computed from these on demand).
/// Offsets saturate at 4 GiB.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Pos {
    /// Byte offset into the source.
    pub offset: u32,
    /// Line number, from 1.
    pub line: u32,
    /// Byte offset of the start of the line.
    pub line_start: u32,
}

#[inline]
fn off32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

impl Pos {
    /// The 1-based column, counted in characters (a tab counts as one).
    pub fn column(&self, src: &str) -> u32 {
        let n = src.get(self.line_start as usize..self.offset as usize).map_or(0, |s| {
            if s.is_ascii() {
                s.len()
            } else {
                s.chars().count()
            }
        });
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

/// The lexer: a cheap-to-copy cursor over the source.
#[derive(Clone, Copy, Debug)]
pub struct Lexer<'a> {
    src: &'a str,
    pos: usize,
    line: u32,
    line_start: usize,
}

#[inline]
fn is_ident_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_'
}

#[inline]
fn is_ident_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

#[inline]
fn is_lower_hex(b: u8) -> bool {
    b.is_ascii_digit() || (b'a'..=b'f').contains(&b)
}

impl<'a> Lexer<'a> {
    /// A lexer at the start of `src`.
    pub fn new(src: &'a str) -> Self {
        Lexer {
            src,
            pos: 0,
            line: 1,
            line_start: 0,
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
    fn here(&self) -> Pos {
        Pos {
            offset: off32(self.pos),
            line: self.line,
            line_start: off32(self.line_start),
        }
    }

    #[inline]
    fn text(&self, from: usize, to: usize) -> &'a str {
        self.src.get(from..to).unwrap_or("")
    }

    #[inline]
    fn newline_at(&mut self, i: usize) {
        self.line = self.line.saturating_add(1);
        self.line_start = i + 1;
    }

    /// Skips whitespace and comments. Returns the start of an
    /// unterminated block comment, if one was met (the rest of the input
    /// is then consumed).
    fn skip_trivia(&mut self) -> Option<Pos> {
        loop {
            match self.byte(self.pos) {
                b' ' | b'\t' | b'\r' => self.pos += 1,
                b'\n' => {
                    self.newline_at(self.pos);
                    self.pos += 1;
                }
                b'/' if self.byte(self.pos + 1) == b'/' => {
                    let rest = self.src.as_bytes().get(self.pos..).unwrap_or(&[]);
                    self.pos += rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
                }
                b'/' if self.byte(self.pos + 1) == b'*' => {
                    let start = self.here();
                    let mut i = self.pos + 2;
                    loop {
                        match self.src.as_bytes().get(i) {
                            None => {
                                self.pos = i;
                                return Some(start);
                            }
                            Some(b'*') if self.byte(i + 1) == b'/' => {
                                self.pos = i + 2;
                                break;
                            }
                            Some(b'\n') => {
                                self.newline_at(i);
                                i += 1;
                            }
                            Some(_) => i += 1,
                        }
                    }
                }
                _ => return None,
            }
        }
    }

    /// The next token. After the end of input, every call returns
    /// [`Kind::Eof`].
    pub fn next_token(&mut self) -> Token<'a> {
        if let Some(start) = self.skip_trivia() {
            return Token {
                kind: Kind::UnterminatedComment,
                text: self.text(start.offset as usize, start.offset as usize + 2),
                value: 0,
                pos: start,
            };
        }
        let pos = self.here();
        let start = self.pos;
        let b = self.byte(start);
        let single = |kind| (kind, 1usize);
        let (kind, len) = match b {
            0 if start >= self.src.len() => (Kind::Eof, 0),
            b if is_ident_start(b) => {
                let n = self
                    .src
                    .as_bytes()
                    .get(start..)
                    .unwrap_or(&[])
                    .iter()
                    .take_while(|&&c| is_ident_char(c))
                    .count();
                (Kind::Ident, n)
            }
            b'0'..=b'9' => return self.number(pos),
            b'(' => single(Kind::LParen),
            b')' => single(Kind::RParen),
            b'[' => single(Kind::LBracket),
            b']' => single(Kind::RBracket),
            b'<' => single(Kind::LAngle),
            b'>' => single(Kind::RAngle),
            b'{' => single(Kind::LBrace),
            b'}' => single(Kind::RBrace),
            b',' => single(Kind::Comma),
            b'.' => single(Kind::Dot),
            b';' => single(Kind::Semi),
            b':' => single(Kind::Colon),
            b'+' => single(Kind::Plus),
            b'-' => single(Kind::Minus),
            b'~' => single(Kind::Tilde),
            b'=' => single(Kind::Equals),
            b'*' => single(Kind::Star),
            _ => {
                // One whole character, however many bytes it takes.
                let n = self
                    .src
                    .get(start..)
                    .and_then(|s| s.chars().next())
                    .map_or(1, char::len_utf8);
                (Kind::BadChar, n)
            }
        };
        self.pos = start + len;
        Token {
            kind,
            text: self.text(start, start + len),
            value: 0,
            pos,
        }
    }

    fn number(&mut self, pos: Pos) -> Token<'a> {
        let start = self.pos;
        let hex = self.byte(start) == b'0' && self.byte(start + 1) == b'x' && is_lower_hex(self.byte(start + 2));
        let (digits_from, radix) = if hex { (start + 2, 16u64) } else { (start, 10u64) };
        let mut i = digits_from;
        let mut value: Option<u64> = Some(0);
        loop {
            let b = self.byte(i);
            let d = match b {
                b'0'..=b'9' => b - b'0',
                b'a'..=b'f' if hex => b - b'a' + 10,
                _ => break,
            };
            value = value
                .and_then(|v| v.checked_mul(radix))
                .and_then(|v| v.checked_add(u64::from(d)));
            i += 1;
        }
        self.pos = i;
        Token {
            kind: if value.is_some() { Kind::Number } else { Kind::BadNumber },
            text: self.text(start, i),
            value: value.unwrap_or(0),
            pos,
        }
    }

    /// Skips raw text up to (not including) the next `{`, `;` or line end
    /// (or the end of input). Used for the free-form message-descriptor
    /// comment that follows `MsgDesc:` on a SEND's continuation line.
    pub fn skip_to_brace_or_line_end(&mut self) {
        let rest = self.src.as_bytes().get(self.pos..).unwrap_or(&[]);
        self.pos += rest
            .iter()
            .position(|&b| matches!(b, b'{' | b';' | b'\n'))
            .unwrap_or(rest.len());
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
