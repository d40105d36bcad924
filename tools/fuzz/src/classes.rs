//! Issue 35's input classes for the `scenario` and `map` targets: inputs past a budget (crowds
//! of about `MAX_AGENTS` agents with long scripts, crowds stacked on one spot, patches whose
//! subdivision exceeds `MAX_PATCH_FACETS`, brushes of more than `MAX_BRUSH_FACES` faces) and
//! names with control characters and path separators; script events' `view = [yaw, pitch]`
//! (issue 32) with hostile values; and fixed lists of numbers with one number too many or too
//! few (for the `world` target too). Each must be refused where it is written, or accepted with
//! bounded work (the watchdog's time limit and the memory cap).

use std::ops::Range;

use cspace_geom::generate::Rng;

use crate::mutate::{HOSTILE_NAMES, toml_string};

/// Crowd sizes (rows x columns) near and past `MAX_AGENTS` (1,000,000) and the 1..=1000 rows
/// check, and a small one for the stacking cases.
const CROWD_SIZES: [(u32, u32); 6] = [
    (1000, 1000),
    (1000, 1001),
    (100, 1000),
    (999, 1000),
    (0, 5),
    (4, 4),
];

/// Crowd spacings: stacked (0), nearly stacked, subnormal, ordinary and huge.
const CROWD_SPACINGS: [&str; 6] = ["0", "1e-9", "4.9e-324", "1e-300", "48", "1e300"];

/// Script lengths (events): issue 35's crowd copied a 2,000-event script into each agent.
const SCRIPT_EVENTS: [usize; 4] = [1, 50, 2000, 5000];

/// The first pose a scenario's `[poses]` table names (what a crowd added to it stands in).
fn first_pose(text: &str) -> Option<&str> {
    let after = &text[text.find("[poses]")? + "[poses]".len()..];
    after.lines().find_map(|l| {
        let (key, _) = l.split_once('=')?;
        let key = key.trim().trim_matches('"');
        (!key.is_empty() && !key.starts_with('#') && !key.starts_with('[')).then_some(key)
    })
}

/// A crowd past a budget, or stacked, appended to a scenario's text.
fn crowd(text: &str, rng: &mut Rng) -> String {
    let pose = first_pose(text).unwrap_or("stand");
    let (rows, columns) = CROWD_SIZES[rng.below(CROWD_SIZES.len())];
    let spacing = [
        CROWD_SPACINGS[rng.below(CROWD_SPACINGS.len())],
        CROWD_SPACINGS[rng.below(CROWD_SPACINGS.len())],
    ];
    let events = SCRIPT_EVENTS[rng.below(SCRIPT_EVENTS.len())];
    // Two crowds on one origin half the time (a stack the crowd check refuses).
    let copies = 1 + rng.below(2);
    text.to_string() + &crowd_tables(pose, (rows, columns), spacing, events, copies)
}

/// `copies` `[[crowd]]` tables on one origin, each of `rows x columns` agents standing in
/// `pose`, `spacing` apart, with a script of `events` moves.
pub fn crowd_tables(
    pose: &str,
    (rows, columns): (u32, u32),
    spacing: [&str; 2],
    events: usize,
    copies: usize,
) -> String {
    let script: Vec<String> = (0..events)
        .map(|k| {
            format!(
                "{{ at = {}, move = [{}, 0] }}",
                k as f64 * 0.015625,
                if k % 2 == 0 { 1 } else { -1 }
            )
        })
        .collect();
    let table = format!(
        "\n[[crowd]]\npose = {}\norigin = [0, 0, 24.03125]\nrows = {rows}\ncolumns = {columns}\n\
         spacing = [{}, {}]\nscript = [{}]\n",
        toml_string(pose),
        spacing[0],
        spacing[1],
        script.join(", ")
    );
    table.repeat(copies)
}

/// A hostile name for one of the scenario's `name = "..."` lines (the scenario's, or an
/// agent's), or for its first pose (its key in `[poses]` and every reference to it).
fn name(text: &str, rng: &mut Rng) -> String {
    let hostile = toml_string(HOSTILE_NAMES[rng.below(HOSTILE_NAMES.len())]);
    if rng.below(3) == 0
        && let Some(pose) = first_pose(text)
    {
        let quoted = format!("\"{pose}\"");
        let mut out = text.replace(&quoted, &hostile);
        out = out
            .lines()
            .map(|l| match l.strip_prefix(pose) {
                Some(rest) if rest.trim_start().starts_with('=') => format!("{hostile}{rest}"),
                _ => l.to_string(),
            })
            .collect::<Vec<_>>()
            .join("\n");
        return out + "\n";
    }
    let names: Vec<usize> = text
        .match_indices("name = \"")
        .map(|(i, _)| i)
        .filter(|&i| i == 0 || text.as_bytes()[i - 1] == b'\n')
        .collect();
    let Some(&at) = names.get(rng.below(names.len().max(1))) else {
        return format!("name = {hostile}\n{text}");
    };
    let start = at + "name = ".len();
    let end = text[start..].find('\n').map_or(text.len(), |e| start + e);
    format!("{}{hostile}{}", &text[..start], &text[end..])
}

/// A scenario's text with one of issue 35's classes: a crowd past a budget or stacked, or a
/// hostile name; or a script event's `view` (issue 32), hostile or not; or a fixed list of
/// numbers one number too long or too short.
pub fn scenario(text: &str, rng: &mut Rng) -> String {
    match rng.below(4) {
        0 => crowd(text, rng),
        1 => name(text, rng),
        2 => view(text, rng),
        _ => list_length(text, rng),
    }
}

/// The byte ranges of the one-line lists of numbers of `text` (`[-16, -16, -24]`), brackets
/// included, outside comments. Every list of numbers a scenario or a TOML world holds is a
/// fixed one: a point, a vector, a direction, a spacing, a view.
pub fn number_lists(text: &str) -> Vec<Range<usize>> {
    let is_number = |item: &str| {
        let item = item.trim();
        !item.is_empty()
            && (item.bytes().all(|b| b"0123456789+-._eE".contains(&b))
                || ["nan", "inf", "+inf", "-inf"].contains(&item))
    };
    let mut out = Vec::new();
    let mut start = 0;
    for line in text.split_inclusive('\n') {
        let code = &line[..line.find('#').unwrap_or(line.len())];
        let mut from = 0;
        while let Some(open) = code[from..].find('[').map(|i| from + i) {
            let Some(close) = code[open..].find(']').map(|i| open + i) else {
                break;
            };
            let inner = &code[open + 1..close];
            if !inner.contains('[') && inner.split(',').all(is_number) {
                out.push(start + open..start + close + 1);
            }
            from = open + 1;
        }
        start += line.len();
    }
    out
}

/// `text` with the list of numbers at `list` (one of [`number_lists`]) given one number more
/// (`longer`) or its last number less.
pub fn with_list_length(text: &str, list: Range<usize>, longer: bool) -> String {
    let inner = &text[list.start + 1..list.end - 1];
    let changed = if longer {
        format!("{inner}, 1")
    } else {
        inner[..inner.rfind(',').unwrap_or(0)].to_string()
    };
    format!("{}[{changed}]{}", &text[..list.start], &text[list.end..])
}

/// A fixed list of numbers of `text` with one number more or one fewer (refused where it is
/// written: `start: expected 3 numbers, got 4`).
pub fn list_length(text: &str, rng: &mut Rng) -> String {
    let lists = number_lists(text);
    if lists.is_empty() {
        return text.to_string();
    }
    let list = lists[rng.below(lists.len())].clone();
    with_list_length(text, list, rng.below(2) == 0)
}

/// Values for a script event's `view = [yaw, pitch]`: not numbers, infinities, past the numeric
/// domain, of the wrong length or type, and the last two ordinary ones (a view the one-way
/// triggers read).
pub const VIEWS: [&str; 10] = [
    "[nan, 0]",
    "[0, inf]",
    "[-inf, -inf]",
    "[1e300, 0]",
    "[-1e15, 1e15]",
    "[90]",
    "[0, 0, 0]",
    "\"north\"",
    "[180, -89.9]",
    "[45, 10]",
];

/// A script event setting a view (hostile or not).
fn view(text: &str, rng: &mut Rng) -> String {
    with_view(text, VIEWS[rng.below(VIEWS.len())])
}

/// `text` with a script event looking along `view` put first in its first script, or, when it
/// has none, as the first agent's script.
pub fn with_view(text: &str, view: &str) -> String {
    let event = format!("{{ at = 0, view = {view} }}");
    if let Some(at) = text.find("script = [") {
        let at = at + "script = [".len();
        return format!("{}{event}, {}", &text[..at], &text[at..]);
    }
    match text.find("[[agent]]\n") {
        Some(at) => {
            let at = at + "[[agent]]\n".len();
            format!("{}script = [{event}]\n{}", &text[..at], &text[at..])
        }
        None => text.to_string(),
    }
}

/// Heights the patch's control points alternate between: issue 35's 5 x 5 patch at +-500,000
/// asked for 8,388,608 facets; smaller ones stay within the budget.
const PATCH_HEIGHTS: [f64; 4] = [500_000.0, 50_000.0, 5_000.0, 64.0];

/// A patch entity block (`{ patchDef2 { ... } }`) whose control points alternate between `+-height` (a `side` x `side` grid).
pub fn patch(side: usize, height: f64) -> String {
    let mut out = format!("patchDef2\n{{\nfuzz/patch\n( {side} {side} 0 0 0 )\n(\n");
    for i in 0..side {
        out.push('(');
        for j in 0..side {
            let z = if (i + j) % 2 == 0 { height } else { -height };
            out.push_str(&format!(" ( {} {} {z} 0 0 )", i * 64, j * 64));
        }
        out.push_str(" )\n");
    }
    out.push_str(")\n}\n");
    format!("{{\n{out}}}\n")
}

/// Face counts of a many-sided brush: at, just past and well past `MAX_BRUSH_FACES` (1,024).
const BRUSH_SIDES: [usize; 4] = [1022, 1023, 1100, 4000];

/// A disc brush of `sides` side faces (plus a top and a bottom) around the z axis.
pub fn disc(sides: usize) -> String {
    let mut out = String::from("{\n");
    for k in 0..sides {
        let a = std::f64::consts::TAU * k as f64 / sides as f64;
        let (x, y) = (a.cos() * 4096.0, a.sin() * 4096.0);
        let (tx, ty) = (-a.sin() * 64.0, a.cos() * 64.0);
        out.push_str(&format!(
            "( {x} {y} 0 ) ( {x} {y} 64 ) ( {} {} 0 ) fuzz/disc 0 0 0 1 1\n",
            x + tx,
            y + ty
        ));
    }
    out.push_str("( 0 0 64 ) ( 0 64 64 ) ( 64 0 64 ) fuzz/disc 0 0 0 1 1\n");
    out.push_str("( 0 0 0 ) ( 64 0 0 ) ( 0 64 0 ) fuzz/disc 0 0 0 1 1\n}\n");
    out
}

/// A worldspawn block past a budget for a map excerpt: a patch bent beyond the facet budget (or
/// near it) or a brush of more faces than `MAX_BRUSH_FACES`.
pub fn map_block(rng: &mut Rng) -> String {
    if rng.below(2) == 0 {
        let side = [3, 5][rng.below(2)];
        patch(side, PATCH_HEIGHTS[rng.below(PATCH_HEIGHTS.len())])
    } else {
        disc(BRUSH_SIDES[rng.below(BRUSH_SIDES.len())])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_pose_is_found() {
        let text = "name = \"x\"\n[poses]\nstand = { box = {} }\ncrouch = {}\n[world]\n";
        assert_eq!(first_pose(text), Some("stand"));
        assert_eq!(first_pose("name = \"x\"\n"), None);
    }

    #[test]
    fn a_view_event_goes_first_in_the_first_script() {
        let text = "name = \"x\"\n[[agent]]\nscript = [{ at = 0, jump = true }]\n";
        let out = with_view(text, "[1, 2]");
        let after = &out[out.find("script = [").unwrap() + "script = [".len()..];
        assert!(after.starts_with("{ at = 0, view = [1, 2] }, "), "{out}");
        assert!(after.ends_with("{ at = 0, jump = true }]\n"), "{out}");
    }

    #[test]
    fn number_lists_are_found_and_lengthened_or_shortened() {
        let text =
            "[[agent]]\nstart = [0, -1.5, 2e3] # not [1, 2]\nx = { min = [nan], n = [\"a\"] }\n";
        let lists = number_lists(text);
        let found: Vec<&str> = lists.iter().map(|r| &text[r.clone()]).collect();
        assert_eq!(found, ["[0, -1.5, 2e3]", "[nan]"]);
        let longer = with_list_length(text, lists[0].clone(), true);
        assert!(
            longer.contains("start = [0, -1.5, 2e3, 1] # not [1, 2]\n"),
            "{longer}"
        );
        let shorter = with_list_length(text, lists[0].clone(), false);
        assert!(shorter.contains("start = [0, -1.5] #"), "{shorter}");
        assert!(with_list_length(text, lists[1].clone(), false).contains("min = [],"));
    }

    #[test]
    fn toml_strings_escape_control_characters() {
        assert_eq!(toml_string("a\nb\"\\"), "\"a\\u000Ab\\\"\\\\\"");
    }
}
