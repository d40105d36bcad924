//! Quake III shader scripts (`.shader`): the shaders' names and their `surfaceparm`s, which decide
//! what a face using the shader is (`q3map`'s `infoParms` table, the same in the renderer's
//! `tr_shader.c`): solid, clip, liquid or non-solid.
//!
//! A script is a list of shaders, each a name then a block in braces; a block holds directives
//! (a keyword and its arguments, one line each) and stages (nested blocks, which say nothing
//! about contents and are skipped). Comments are `//` to the end of the line and `/* ... */`.
//! The parser is small and refuses what it cannot read with a located error
//! ([`ShaderError`]): a script never panics it, and its work is linear in the script's length.
//! A `surfaceparm` it does not know is kept and means nothing for contents.
//!
//! Reading files is the caller's (a scenario's `[world] shaders`, `sim run --shaders`): this
//! module parses text.

use std::collections::BTreeMap;
use std::sync::Arc;

use cspace_entities::LiquidKind;

/// The deepest nesting of braces a shader may have (its block and stages within stages): Quake
/// III's own scripts nest two deep; a deeper script is refused rather than recursed into.
pub const MAX_SHADER_DEPTH: usize = 16;

/// A malformed shader script: where and what.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}:{column}: {message}")]
pub struct ShaderError {
    /// The script's display name.
    pub file: Arc<str>,
    /// The 1-based line.
    pub line: u32,
    /// The 1-based column, in bytes.
    pub column: u32,
    /// What is wrong.
    pub message: String,
}

/// One shader: its name as written, where it was defined, and its `surfaceparm`s (lower case,
/// in order).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shader {
    /// The name (`textures/base_liquid/water1`).
    pub name: String,
    /// The script's display name.
    pub file: Arc<str>,
    /// The 1-based line of its name.
    pub line: u32,
    /// Its `surfaceparm`s, lower case.
    pub surface_parms: Vec<String>,
}

/// What a `surfaceparm` does to contents (`q3map`'s `infoParms`: its `clearSolid` column and its
/// contents bits).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Parm {
    /// `origin`: the brush marks a rotation centre.
    Origin,
    /// `playerclip`: blocks players only (and clears solid).
    PlayerClip,
    /// `water`, `slime`, `lava` (each clears solid).
    Liquid(LiquidKind),
    /// Clears solid and blocks nothing an agent minds: `nonsolid`, `fog`, `monsterclip`, `nodrop`,
    /// `areaportal`, `clusterportal`, `donotenter`, `botclip`.
    ClearsSolid,
}

fn parm(name: &str) -> Option<Parm> {
    Some(match name {
        "origin" => Parm::Origin,
        "playerclip" => Parm::PlayerClip,
        "water" => Parm::Liquid(LiquidKind::Water),
        "slime" => Parm::Liquid(LiquidKind::Slime),
        "lava" => Parm::Liquid(LiquidKind::Lava),
        "nonsolid" | "fog" | "monsterclip" | "nodrop" | "areaportal" | "clusterportal"
        | "donotenter" | "botclip" => Parm::ClearsSolid,
        _ => return None,
    })
}

/// What a shader's `surfaceparm`s make of a face (the map builder's `FaceContents` follows it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShaderContents {
    /// `origin`: the brush marks a rotation centre.
    Origin,
    /// `playerclip`: invisible clip.
    Clip,
    /// `water`, `slime` or `lava`.
    Liquid,
    /// A parm that clears solid and blocks no player.
    NonSolid,
    /// None of those.
    Solid,
}

impl Shader {
    /// What a face with this shader is: an origin; clip (`playerclip`); a liquid (`water`,
    /// `slime`, `lava`); non-solid (a parm that clears solid, `q3map`'s `clearSolid`); or solid
    /// (no such parm: `trans`, `detail`, `sky`, `nodraw` and the like leave a brush solid).
    pub fn contents(&self) -> ShaderContents {
        let parms: Vec<Parm> = self.surface_parms.iter().filter_map(|p| parm(p)).collect();
        if parms.contains(&Parm::Origin) {
            ShaderContents::Origin
        } else if parms.contains(&Parm::PlayerClip) {
            ShaderContents::Clip
        } else if parms.iter().any(|p| matches!(p, Parm::Liquid(_))) {
            ShaderContents::Liquid
        } else if parms.contains(&Parm::ClearsSolid) {
            ShaderContents::NonSolid
        } else {
            ShaderContents::Solid
        }
    }

    /// The liquid of a face with this shader, the strongest of its parms (lava over slime over
    /// water: the bits are OR'ed and the game tests lava first).
    pub fn liquid(&self) -> Option<LiquidKind> {
        self.surface_parms
            .iter()
            .filter_map(|p| match parm(p) {
                Some(Parm::Liquid(kind)) => Some(kind),
                _ => None,
            })
            .max()
    }
}

/// Every shader of a set of scripts, by name (compared ignoring ASCII case, as Quake III does;
/// a name defined twice: the first definition read wins, as `ScanAndLoadShaderFiles` finds the
/// first).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Shaders {
    by_name: BTreeMap<String, Shader>,
}

impl Shaders {
    /// No shaders.
    pub fn new() -> Shaders {
        Shaders::default()
    }

    /// Parses a script and adds its shaders (the first definition of a name is kept).
    pub fn add_script(&mut self, text: &str, file: &str) -> Result<(), ShaderError> {
        for shader in parse(text, file)? {
            self.by_name
                .entry(shader.name.to_ascii_lowercase())
                .or_insert(shader);
        }
        Ok(())
    }

    /// The shader of this name (ignoring ASCII case; a leading `textures/` may be left out, as a
    /// map's faces write their shaders without it).
    pub fn get(&self, name: &str) -> Option<&Shader> {
        let lower = name.to_ascii_lowercase();
        self.by_name
            .get(&lower)
            .or_else(|| self.by_name.get(&format!("textures/{lower}")))
    }

    /// How many shaders.
    pub fn len(&self) -> usize {
        self.by_name.len()
    }

    /// True when there is none.
    pub fn is_empty(&self) -> bool {
        self.by_name.is_empty()
    }

    /// Every shader, by lower-case name.
    pub fn iter(&self) -> impl Iterator<Item = &Shader> {
        self.by_name.values()
    }
}

/// A word of a script and where it starts.
#[derive(Debug, Clone, Copy)]
struct Token<'a> {
    text: &'a str,
    line: u32,
    column: u32,
}

/// Splits a script into words, braces and quoted strings, dropping comments.
fn tokens<'a>(text: &'a str, file: &Arc<str>) -> Result<Vec<Token<'a>>, ShaderError> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let (mut i, mut line, mut line_start) = (0usize, 1u32, 0usize);
    let err = |line: u32, column: usize, message: &str| ShaderError {
        file: file.clone(),
        line,
        column: column as u32 + 1,
        message: message.to_string(),
    };
    while i < bytes.len() {
        let c = bytes[i];
        if c == b'\n' {
            line += 1;
            i += 1;
            line_start = i;
            continue;
        }
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if bytes[i..].starts_with(b"//") {
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        if bytes[i..].starts_with(b"/*") {
            let (open_line, open_column) = (line, i - line_start);
            i += 2;
            loop {
                if i >= bytes.len() {
                    return Err(err(open_line, open_column, "comment `/*` is never closed"));
                }
                if bytes[i..].starts_with(b"*/") {
                    i += 2;
                    break;
                }
                if bytes[i] == b'\n' {
                    line += 1;
                    line_start = i + 1;
                }
                i += 1;
            }
            continue;
        }
        let start = i;
        let column = (start - line_start) as u32 + 1;
        let text_of = if c == b'"' {
            i += 1;
            while i < bytes.len() && bytes[i] != b'"' && bytes[i] != b'\n' {
                i += 1;
            }
            if i >= bytes.len() || bytes[i] != b'"' {
                return Err(err(
                    line,
                    start - line_start,
                    "quoted string is not closed on its line",
                ));
            }
            i += 1;
            &text[start + 1..i - 1]
        } else if c == b'{' || c == b'}' {
            i += 1;
            &text[start..i]
        } else {
            while i < bytes.len()
                && !bytes[i].is_ascii_whitespace()
                && bytes[i] != b'{'
                && bytes[i] != b'}'
                && !bytes[i..].starts_with(b"//")
                && !bytes[i..].starts_with(b"/*")
            {
                i += 1;
            }
            // Words end only at ASCII bytes, so a multi-byte character stays whole.
            &text[start..i]
        };
        out.push(Token {
            text: text_of,
            line,
            column,
        });
    }
    Ok(out)
}

/// Parses one script into its shaders, in order.
pub fn parse(text: &str, file: &str) -> Result<Vec<Shader>, ShaderError> {
    let file: Arc<str> = Arc::from(file);
    let tokens = tokens(text, &file)?;
    let err = |t: &Token, message: String| ShaderError {
        file: file.clone(),
        line: t.line,
        column: t.column,
        message,
    };
    let mut shaders = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        let name = tokens[i];
        if name.text == "{" || name.text == "}" {
            return Err(err(
                &name,
                format!("expected a shader name, found `{}`", name.text),
            ));
        }
        let Some(open) = tokens.get(i + 1) else {
            return Err(err(
                &name,
                format!("shader `{}` has no block: the script ends", name.text),
            ));
        };
        if open.text != "{" {
            return Err(err(
                open,
                format!(
                    "expected `{{` after shader `{}`, found `{}`",
                    name.text, open.text
                ),
            ));
        }
        let mut parms = Vec::new();
        let mut depth = 1usize;
        i += 2;
        loop {
            let Some(t) = tokens.get(i) else {
                return Err(err(
                    &name,
                    format!("shader `{}`'s block is never closed", name.text),
                ));
            };
            match t.text {
                "{" => {
                    depth += 1;
                    if depth > MAX_SHADER_DEPTH {
                        return Err(err(
                            t,
                            format!("braces nested deeper than {MAX_SHADER_DEPTH}"),
                        ));
                    }
                }
                "}" => {
                    depth -= 1;
                    if depth == 0 {
                        i += 1;
                        break;
                    }
                }
                // A keyword anywhere, its parameter on its line (`ParseShader`'s `COM_ParseExt`).
                word if depth == 1 && word.eq_ignore_ascii_case("surfaceparm") => {
                    match tokens.get(i + 1) {
                        Some(p) if p.line == t.line && p.text != "{" && p.text != "}" => {
                            parms.push(p.text.to_ascii_lowercase());
                            i += 1;
                        }
                        _ => {
                            return Err(err(t, "`surfaceparm` without a parameter".to_string()));
                        }
                    }
                }
                _ => {}
            }
            i += 1;
        }
        shaders.push(Shader {
            name: name.text.to_string(),
            file: file.clone(),
            line: name.line,
            surface_parms: parms,
        });
    }
    Ok(shaders)
}

#[cfg(test)]
mod tests {
    use super::*;

    const WATER: &str = r#"// Liquids of a test pack.
textures/liquids/clear_calm1
{
	qer_editorimage textures/liquids/pool.tga
	surfaceparm trans
	surfaceparm nonsolid
	surfaceparm water   // a comment after
	cull disable
	{
		map textures/liquids/pool3.tga
		blendFunc GL_dst_color GL_one
		tcMod scroll .01 .01
	}
	/* a block comment { with braces }
	   over two lines */
}

textures/liquids/lavahell
{
	surfaceparm noimpact
	surfaceparm lava
	surfaceparm nolightmap
	{ map $lightmap }
}
textures/common/clusterportal { surfaceparm nodraw
 surfaceparm clusterportal }
textures/base_wall/glass { surfaceparm trans { map x.tga } }
"textures/sfx/quoted name" { surfaceparm PLAYERCLIP }
"#;

    #[test]
    fn names_and_surfaceparms_decide_contents() {
        let shaders = parse(WATER, "test.shader").unwrap();
        let names: Vec<&str> = shaders.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "textures/liquids/clear_calm1",
                "textures/liquids/lavahell",
                "textures/common/clusterportal",
                "textures/base_wall/glass",
                "textures/sfx/quoted name"
            ]
        );
        assert_eq!(shaders[0].surface_parms, ["trans", "nonsolid", "water"]);
        assert_eq!(shaders[0].line, 2);
        let contents: Vec<ShaderContents> = shaders.iter().map(Shader::contents).collect();
        assert_eq!(
            contents,
            [
                ShaderContents::Liquid,
                ShaderContents::Liquid,
                ShaderContents::NonSolid,
                ShaderContents::Solid,
                ShaderContents::Clip
            ]
        );
        assert_eq!(shaders[0].liquid(), Some(LiquidKind::Water));
        assert_eq!(shaders[1].liquid(), Some(LiquidKind::Lava));
        let mut set = Shaders::new();
        set.add_script(WATER, "test.shader").unwrap();
        // Faces write shaders without `textures/`, in any case.
        assert_eq!(set.get("LIQUIDS/Clear_Calm1").map(|s| s.line), Some(2));
        assert!(set.get("liquids/none").is_none());
    }

    /// Hostile and malformed scripts: a located error each, never a panic.
    #[test]
    fn malformed_scripts_are_located_errors() {
        for (text, line, column, says) in [
            ("a\n{\n surfaceparm water\n", 1, 1, "never closed"),
            ("a { b { c }", 1, 1, "never closed"),
            ("}", 1, 1, "expected a shader name"),
            ("a b { }", 1, 3, "expected `{`"),
            ("lonely", 1, 1, "the script ends"),
            ("a {\n surfaceparm\n}", 2, 2, "without a parameter"),
            ("a { surfaceparm }", 1, 5, "without a parameter"),
            ("/* open\n\n", 1, 1, "never closed"),
            ("a { \"open\n }", 1, 5, "not closed on its line"),
        ] {
            let e = parse(text, "bad.shader").unwrap_err();
            assert_eq!((e.line, e.column), (line, column), "{text:?}: {e}");
            assert!(e.message.contains(says), "{text:?}: {e}");
            assert!(
                e.to_string()
                    .starts_with(&format!("bad.shader:{line}:{column}: "))
            );
        }
        let deep = format!("a {}{}", "{ ".repeat(100), "} ".repeat(101));
        let e = parse(&deep, "deep.shader").unwrap_err();
        assert!(e.message.contains("nested deeper"), "{e}");
        // Bytes that are not ASCII, NULs, a huge script of braces: errors or shaders, no panic.
        for text in [
            "\u{0}\u{0} {",
            "é { surfaceparm ü }",
            "a{}b{}c{}",
            "{{{{{{{{",
        ] {
            let _ = parse(text, "x.shader");
        }
        let many = "s { surfaceparm water }\n".repeat(10_000);
        assert_eq!(parse(&many, "many.shader").unwrap().len(), 10_000);
    }
}
