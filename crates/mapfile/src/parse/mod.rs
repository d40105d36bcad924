//! The parser: a hand-written recursive descent over [`Lexer`] tokens.
//!
//! Grammar (one face per line; `NUM` is a finite decimal number, `INT` an integer):
//!
//! ```text
//! file     = entity*
//! entity   = "{" ( STRING STRING | brush | patch )* "}"
//! brush    = "{" face* "}"
//! face     = point point point TEXTURE fields        (fields: the rest of the texture's line)
//! point    = "(" NUM NUM NUM ")"
//! fields   = NUM{5}                                   Quake standard
//!          | NUM{5} INT INT INT                       Quake 2 / Quake III legacy
//!          | "[" NUM{4} "]" "[" NUM{4} "]" NUM{3}      Valve 220
//!          | "[" NUM{4} "]" "[" NUM{4} "]" NUM{3} INT INT INT
//! patch    = "{" "patchDef2" "{" TEXTURE "(" INT INT NUM NUM NUM ")"
//!            "(" ( "(" ( "(" NUM{5} ")" ){H} ")" ){W} ")" "}" "}"
//! ```
//!
//! `brushDef` (Quake III brush primitives), `brushDef3` and `patchDef3` (Doom 3) and a top-level
//! `Version` (Doom 3) are refused with [`MapError::Unsupported`].

mod face;
mod patch;
#[cfg(test)]
mod tests;

use std::sync::Arc;

use crate::error::MapError;
use crate::lex::{Lexer, Token, TokenKind};
use crate::map::{Entity, FormatCounts, MapBrush, MapFile};

impl MapFile {
    /// Parses a `.map` file. `file` is its display name, used in errors and brush sources.
    ///
    /// The source is bytes: text that is not UTF-8 is read as Latin-1 (see [`Entity::properties`]
    /// and [`MapFace::texture`](crate::MapFace::texture)). No input makes this panic; a syntax
    /// error stops the parse and names the place.
    pub fn parse(source: impl AsRef<[u8]>, file: &str) -> Result<MapFile, MapError> {
        let file: Arc<str> = Arc::from(file);
        let mut parser = Parser {
            lexer: Lexer::new(source.as_ref(), file.clone()),
            peeked: None,
            block: None,
            formats: FormatCounts::default(),
            fields: Vec::new(),
        };
        let mut entities = Vec::new();
        while let Some(token) = parser.next()? {
            if parser.lexer.is_word(&token, "{") {
                entities.push(parser.entity(&token)?);
            } else if parser.lexer.is_word(&token, "Version") {
                return Err(parser.unsupported(&token, "a Doom 3 / Quake 4 map"));
            } else {
                return Err(parser.unexpected(&token, "'{' to open an entity"));
            }
        }
        Ok(MapFile {
            file,
            entities,
            face_formats: parser.formats,
        })
    }
}

/// An open block, for end-of-file messages.
#[derive(Debug, Clone, Copy)]
struct Block {
    kind: &'static str,
    line: u32,
}

struct Parser<'a> {
    lexer: Lexer<'a>,
    /// The token after the last one returned, once peeked (`Some(None)` is the end of the file).
    peeked: Option<Option<Token>>,
    /// The innermost open block; `None` between entities.
    block: Option<Block>,
    formats: FormatCounts,
    /// Scratch space for a face's fields, reused across faces.
    fields: Vec<Token>,
}

impl Parser<'_> {
    fn next(&mut self) -> Result<Option<Token>, MapError> {
        match self.peeked.take() {
            Some(token) => Ok(token),
            None => self.lexer.next_token(),
        }
    }

    fn peek(&mut self) -> Result<Option<Token>, MapError> {
        if self.peeked.is_none() {
            self.peeked = Some(self.lexer.next_token()?);
        }
        Ok(self.peeked.expect("just filled"))
    }

    /// The next token; the end of the file is an error naming `expected`.
    fn expect(&mut self, expected: &str) -> Result<Token, MapError> {
        self.next()?.ok_or_else(|| self.eof(expected))
    }

    /// The next token, which must be the bare word `word`.
    fn expect_word(&mut self, word: &str, expected: &str) -> Result<Token, MapError> {
        let token = self.expect(expected)?;
        if self.lexer.is_word(&token, word) {
            Ok(token)
        } else {
            Err(self.unexpected(&token, expected))
        }
    }

    fn unexpected(&self, token: &Token, expected: &str) -> MapError {
        MapError::Unexpected {
            at: self.lexer.location(token),
            expected: expected.to_owned(),
            found: self.lexer.quote(token),
        }
    }

    fn unsupported(&self, token: &Token, format: &'static str) -> MapError {
        MapError::Unsupported {
            at: self.lexer.location(token),
            found: self.lexer.quote(token),
            format,
        }
    }

    fn eof(&self, expected: &str) -> MapError {
        // Only called inside a block: between entities the end of the file is fine.
        let block = self.block.unwrap_or(Block {
            kind: "entity",
            line: 0,
        });
        MapError::UnexpectedEof {
            at: self.lexer.here(),
            expected: expected.to_owned(),
            inside: block.kind,
            opened: block.line,
        }
    }

    /// An entity, after its `{`.
    fn entity(&mut self, open: &Token) -> Result<Entity, MapError> {
        self.block = Some(Block {
            kind: "entity",
            line: open.line,
        });
        let mut entity = Entity {
            properties: Vec::new(),
            brushes: Vec::new(),
            patches: Vec::new(),
            line: open.line,
        };
        loop {
            let token =
                self.expect("a quoted key, '{' to open a brush or '}' to close the entity")?;
            if token.kind == TokenKind::Quoted {
                match self.next()? {
                    Some(value) if value.kind == TokenKind::Quoted => {
                        let pair = (self.lexer.text(&token), self.lexer.text(&value));
                        entity.properties.push(pair);
                    }
                    other => {
                        let expected =
                            format!("a quoted value for key {}", self.lexer.quote(&token));
                        return Err(match other {
                            Some(value) => self.unexpected(&value, &expected),
                            None => self.eof(&expected),
                        });
                    }
                }
            } else if self.lexer.is_word(&token, "}") {
                break;
            } else if self.lexer.is_word(&token, "{") {
                self.brush_or_patch(&token, &mut entity)?;
            } else {
                return Err(self.unexpected(
                    &token,
                    "a quoted key, '{' to open a brush or '}' to close the entity",
                ));
            }
        }
        self.block = None;
        Ok(entity)
    }

    /// A brush or a patch, after its `{`.
    fn brush_or_patch(&mut self, open: &Token, entity: &mut Entity) -> Result<(), MapError> {
        let outer = self.block;
        self.block = Some(Block {
            kind: "brush",
            line: open.line,
        });
        let first = self.peek()?;
        if let Some(first) = first.filter(|t| t.kind == TokenKind::Word) {
            match self.lexer.bytes(&first) {
                b"patchDef2" => {
                    self.next()?;
                    self.block = Some(Block {
                        kind: "patch",
                        line: open.line,
                    });
                    entity.patches.push(self.patch(open)?);
                    self.block = outer;
                    return Ok(());
                }
                b"brushDef" => {
                    return Err(self.unsupported(&first, "Quake III brush primitives"));
                }
                b"brushDef3" => return Err(self.unsupported(&first, "a Doom 3 brush")),
                b"patchDef3" => return Err(self.unsupported(&first, "a Doom 3 patch")),
                _ => {}
            }
        }
        let mut faces = Vec::new();
        loop {
            let token = self.expect("'(' to start a face or '}' to close the brush")?;
            if self.lexer.is_word(&token, "}") {
                break;
            } else if self.lexer.is_word(&token, "(") {
                faces.push(self.face(&token)?);
            } else {
                return Err(
                    self.unexpected(&token, "'(' to start a face or '}' to close the brush")
                );
            }
        }
        entity.brushes.push(MapBrush {
            faces,
            line: open.line,
        });
        self.block = outer;
        Ok(())
    }

    /// A number token: finite, written in decimal (Rust's `f64` syntax: sign, digits, point,
    /// exponent).
    fn number_of(&self, token: &Token, expected: &'static str) -> Result<f64, MapError> {
        let bytes = self.lexer.bytes(token);
        let value = (token.kind == TokenKind::Word)
            .then(|| {
                simple_decimal(bytes).or_else(|| {
                    std::str::from_utf8(bytes)
                        .ok()
                        .and_then(|s| s.parse::<f64>().ok())
                })
            })
            .flatten()
            .ok_or_else(|| MapError::InvalidNumber {
                at: self.lexer.location(token),
                expected,
                found: self.lexer.quote(token),
            })?;
        if value.is_finite() {
            Ok(value)
        } else {
            Err(MapError::NonFiniteNumber {
                at: self.lexer.location(token),
                found: self.lexer.quote(token),
            })
        }
    }

    /// The next token as a number.
    fn number(&mut self, expected: &'static str) -> Result<f64, MapError> {
        let token = self.expect(expected)?;
        self.number_of(&token, expected)
    }

    /// An integer token within `range`.
    fn integer_of(
        &self,
        token: &Token,
        range: std::ops::RangeInclusive<i64>,
        expected: &'static str,
    ) -> Result<i64, MapError> {
        std::str::from_utf8(self.lexer.bytes(token))
            .ok()
            .filter(|_| token.kind == TokenKind::Word)
            .and_then(|s| s.parse::<i64>().ok())
            .filter(|v| range.contains(v))
            .ok_or_else(|| MapError::InvalidInteger {
                at: self.lexer.location(token),
                expected,
                found: self.lexer.quote(token),
            })
    }

    /// A texture or shader name: any word or quoted string except a lone brace, parenthesis or
    /// bracket (which would mean the name is missing).
    fn texture(&mut self, expected: &'static str) -> Result<Token, MapError> {
        let token = self.expect(expected)?;
        let punctuation = token.kind == TokenKind::Word
            && matches!(
                self.lexer.bytes(&token),
                b"{" | b"}" | b"(" | b")" | b"[" | b"]"
            );
        if punctuation || token.start == token.end {
            Err(self.unexpected(&token, expected))
        } else {
            Ok(token)
        }
    }
}

/// Exact powers of ten: every one up to `1e22` is an `f64` without rounding.
const POWERS_OF_TEN: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// The value of a plain decimal (`-12`, `0.707107`, `1.000000`) with at most 15 significant
/// digits, or `None` for anything else (exponents, more digits, `inf`, junk), which is left to
/// `str::parse`.
///
/// Most numbers in a map are plain decimals, and this fast path gives the same, correctly rounded
/// result as `str::parse` (Clinger's fast path): the digits form an integer below 2^53, which is
/// exact in `f64`, as is the power of ten it is divided by, so the one division rounds once.
fn simple_decimal(bytes: &[u8]) -> Option<f64> {
    let (negative, digits) = match bytes.first()? {
        b'-' => (true, &bytes[1..]),
        b'+' => (false, &bytes[1..]),
        _ => (false, bytes),
    };
    let mut mantissa: u64 = 0;
    let mut significant = 0;
    let mut fraction_digits = 0;
    let mut seen_point = false;
    let mut seen_digit = false;
    for &b in digits {
        match b {
            b'0'..=b'9' => {
                seen_digit = true;
                if mantissa != 0 || b != b'0' {
                    significant += 1;
                }
                mantissa = mantissa * 10 + u64::from(b - b'0');
                if significant > 15 {
                    return None;
                }
                if seen_point {
                    fraction_digits += 1;
                }
            }
            b'.' if !seen_point => seen_point = true,
            _ => return None,
        }
    }
    if !seen_digit || fraction_digits >= POWERS_OF_TEN.len() {
        return None;
    }
    let value = mantissa as f64 / POWERS_OF_TEN[fraction_digits];
    Some(if negative { -value } else { value })
}
