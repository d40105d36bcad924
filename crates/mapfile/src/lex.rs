//! The tokenizer: whitespace-separated words, quoted strings and `//` comments, with positions.
//!
//! Quake's tools split a `.map` file on whitespace only (`GetToken` in id's `scriplib.c`,
//! `COM_ParseExt` in Quake III): braces, parentheses and brackets are tokens because editors
//! write them with spaces around them, and a texture name such as `{trigger`, `*water0` or
//! `+0button` is one word. Every byte up to and including the space (`<= 0x20`) separates tokens,
//! as in those tokenizers. A `//` at the start of a token comments out the rest of the line.

use std::sync::Arc;

use crate::error::{Location, MapError};

/// What kind of token: a bare word or a quoted string.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TokenKind {
    /// A run of non-whitespace bytes.
    Word,
    /// A string between double quotes on one line; the text excludes the quotes.
    Quoted,
}

/// A token: its kind, its text as a byte range of the source, and where it starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Token {
    pub kind: TokenKind,
    /// Start of the text (after the opening quote for a quoted string).
    pub start: usize,
    /// End of the text (before the closing quote).
    pub end: usize,
    /// 1-based line of the token's first byte (the quote, for a quoted string).
    pub line: u32,
    /// 1-based column of the token's first byte.
    pub column: u32,
}

/// Longest token text quoted in an error message, in characters.
const QUOTE_LIMIT: usize = 48;

/// Splits a source into tokens.
pub(crate) struct Lexer<'a> {
    src: &'a [u8],
    file: Arc<str>,
    pos: usize,
    line: u32,
    line_start: usize,
}

impl<'a> Lexer<'a> {
    /// A lexer at the start of `src`, past a UTF-8 byte order mark if there is one (columns of
    /// the first line then count from after it).
    pub fn new(src: &'a [u8], file: Arc<str>) -> Lexer<'a> {
        let start = if src.starts_with(b"\xEF\xBB\xBF") {
            3
        } else {
            0
        };
        Lexer {
            src,
            file,
            pos: start,
            line: 1,
            line_start: start,
        }
    }

    /// The bytes of a token's text.
    pub fn bytes(&self, token: &Token) -> &'a [u8] {
        &self.src[token.start..token.end]
    }

    /// True when the token is the bare word `word`.
    pub fn is_word(&self, token: &Token, word: &str) -> bool {
        token.kind == TokenKind::Word && self.bytes(token) == word.as_bytes()
    }

    /// The token's text as a string: UTF-8 when it is valid UTF-8, otherwise each byte taken as
    /// the Latin-1 character of the same value (Quake's character set is 8-bit; nothing is lost).
    pub fn text(&self, token: &Token) -> String {
        decode(self.bytes(token))
    }

    /// The token as an error message quotes it: `"text"` for a quoted string, `'text'` for a word.
    pub fn quote(&self, token: &Token) -> String {
        let text = quote_text(self.bytes(token));
        match token.kind {
            TokenKind::Quoted => format!("\"{text}\""),
            TokenKind::Word => format!("'{text}'"),
        }
    }

    /// The location of a token.
    pub fn location(&self, token: &Token) -> Location {
        Location {
            file: self.file.clone(),
            line: token.line,
            column: token.column,
        }
    }

    /// The location just after the last byte read (the end of the file once the lexer is done).
    pub fn here(&self) -> Location {
        Location {
            file: self.file.clone(),
            line: self.line,
            column: column(self.pos - self.line_start),
        }
    }

    /// The next token, `None` at the end of the file.
    pub fn next_token(&mut self) -> Result<Option<Token>, MapError> {
        self.skip_space_and_comments();
        if self.pos >= self.src.len() {
            return Ok(None);
        }
        let line = self.line;
        let column = column(self.pos - self.line_start);
        if self.src[self.pos] == b'"' {
            let start = self.pos + 1;
            let rest = &self.src[start..];
            match rest.iter().position(|&b| b == b'"' || b == b'\n') {
                Some(n) if rest[n] == b'"' => {
                    self.pos = start + n + 1;
                    Ok(Some(Token {
                        kind: TokenKind::Quoted,
                        start,
                        end: start + n,
                        line,
                        column,
                    }))
                }
                found => {
                    let end = start + found.unwrap_or(rest.len());
                    let text = &self.src[start..end];
                    let text = text.strip_suffix(b"\r").unwrap_or(text);
                    Err(MapError::UnterminatedString {
                        at: Location {
                            file: self.file.clone(),
                            line,
                            column,
                        },
                        found: format!("\"{}", quote_text(text)),
                    })
                }
            }
        } else {
            let start = self.pos;
            let end = self.src[start..]
                .iter()
                .position(|&b| is_space(b))
                .map_or(self.src.len(), |n| start + n);
            self.pos = end;
            Ok(Some(Token {
                kind: TokenKind::Word,
                start,
                end,
                line,
                column,
            }))
        }
    }

    fn skip_space_and_comments(&mut self) {
        while self.pos < self.src.len() {
            let b = self.src[self.pos];
            if b == b'\n' {
                self.pos += 1;
                self.line = self.line.saturating_add(1);
                self.line_start = self.pos;
            } else if is_space(b) {
                self.pos += 1;
            } else if self.src[self.pos..].starts_with(b"//") {
                self.pos = self.src[self.pos..]
                    .iter()
                    .position(|&b| b == b'\n')
                    .map_or(self.src.len(), |n| self.pos + n);
            } else {
                break;
            }
        }
    }
}

/// True for the bytes that separate tokens: the space and every control byte below it.
fn is_space(b: u8) -> bool {
    b <= b' '
}

/// A 1-based column from a 0-based byte offset in the line.
fn column(offset: usize) -> u32 {
    u32::try_from(offset + 1).unwrap_or(u32::MAX)
}

/// Bytes as a string: UTF-8 when valid, Latin-1 otherwise.
pub(crate) fn decode(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(s) => s.to_owned(),
        Err(_) => bytes.iter().map(|&b| char::from(b)).collect(),
    }
}

/// Text for an error message: decoded, control characters escaped, shortened.
pub(crate) fn quote_text(bytes: &[u8]) -> String {
    let decoded = decode(bytes);
    let mut out = String::new();
    for (i, c) in decoded.chars().enumerate() {
        if i == QUOTE_LIMIT {
            out.push('…');
            break;
        }
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(src: &str) -> Vec<(String, u32, u32)> {
        let mut lexer = Lexer::new(src.as_bytes(), "t.map".into());
        let mut out = Vec::new();
        while let Some(t) = lexer.next_token().unwrap() {
            out.push((lexer.quote(&t), t.line, t.column));
        }
        out
    }

    #[test]
    fn splits_on_whitespace_only() {
        assert_eq!(
            words("{\n( 1 2 3 ) {trigger *water0 +0button\t[ -2.22045e-16 ]"),
            [
                ("'{'", 1, 1),
                ("'('", 2, 1),
                ("'1'", 2, 3),
                ("'2'", 2, 5),
                ("'3'", 2, 7),
                ("')'", 2, 9),
                ("'{trigger'", 2, 11),
                ("'*water0'", 2, 20),
                ("'+0button'", 2, 28),
                ("'['", 2, 37),
                ("'-2.22045e-16'", 2, 39),
                ("']'", 2, 52),
            ]
            .map(|(a, b, c)| (a.to_owned(), b, c))
        );
    }

    #[test]
    fn quoted_strings_keep_spaces_and_tabs_separate_them() {
        assert_eq!(
            words("\"classname\"\t\"info player\"\r\n\"a\"\"b\""),
            [
                ("\"classname\"", 1, 1),
                ("\"info player\"", 1, 13),
                ("\"a\"", 2, 1),
                ("\"b\"", 2, 4),
            ]
            .map(|(a, b, c)| (a.to_owned(), b, c))
        );
    }

    #[test]
    fn a_byte_order_mark_is_skipped() {
        assert_eq!(
            words("\u{feff}{ }"),
            [("'{'", 1, 1), ("'}'", 1, 3)].map(|(a, b, c)| (a.to_owned(), b, c))
        );
    }

    #[test]
    fn comments_run_to_the_end_of_the_line() {
        assert_eq!(
            words("// Game: Quake\n{ // entity 0\n}//x\n"),
            [("'{'", 2, 1), ("'}//x'", 3, 1)].map(|(a, b, c)| (a.to_owned(), b, c))
        );
    }

    #[test]
    fn an_unterminated_quote_is_an_error_at_the_quote() {
        let mut lexer = Lexer::new(b"{\n  \"message\" \"oops\n}".as_slice(), "t.map".into());
        for _ in 0..2 {
            lexer.next_token().unwrap();
        }
        let e = lexer.next_token().unwrap_err();
        assert_eq!(
            e.to_string(),
            "t.map:2:13: unterminated quoted string \"oops: no closing '\"' before the end of the line"
        );
    }

    #[test]
    fn invalid_utf8_decodes_as_latin1_and_errors_quote_control_bytes_escaped() {
        let lexer = Lexer::new(b"".as_slice(), "t.map".into());
        assert_eq!(decode(b"caf\xe9"), "café");
        assert_eq!(decode("café".as_bytes()), "café");
        let token = Token {
            kind: TokenKind::Word,
            start: 0,
            end: 0,
            line: 1,
            column: 1,
        };
        assert_eq!(lexer.quote(&token), "''");
        assert_eq!(quote_text(b"a\x7fb"), "a\\u{7f}b");
        assert_eq!(quote_text(&[b'x'; 60]).chars().count(), QUOTE_LIMIT + 1);
    }
}
