//! Mutations as a hostile user makes them: numbers swapped for extreme ones, bytes flipped, lines
//! dropped, duplicated and swapped, structure characters inserted, files cut short.

use cspace_geom::generate::Rng;

/// Numbers a fuzzer reaches for: beyond every limit, at the edges of `f64`, not numbers at all,
/// and the limits themselves (cspace's numeric domain, `cspace_geom::tolerance`).
pub const HOSTILE_NUMBERS: &[&str] = &[
    "1e308",
    "-1e308",
    "1.8e308",
    "1e300",
    "-1e300",
    "1e15",
    "1e12",
    "2e6",
    "1048576",
    "1048577",
    "524288",
    "524289",
    "65536",
    "65537",
    "-65537",
    "0",
    "-0",
    "0.0",
    "1e-320",
    "4.9e-324",
    "1e-9",
    "nan",
    "NaN",
    "inf",
    "-inf",
    "infinity",
    "1e",
    "--1",
    "0x10",
    "1_000",
    "99999999999999999999999999999999999999",
    "3",
    "-1",
    "1",
    "0.5",
    "2",
    "16",
    "100000",
];

/// Numbers that broke the trace readers (issue 35, items 5 and 6): beyond the domain, beyond
/// 2^53 (the last integer a double holds exactly, the readers' bound on counts and totals), and
/// not numbers at all.
pub const HOSTILE_TRACE_NUMBERS: &[&str] = &[
    "1e200",
    "-1e200",
    "1e300",
    "1e308",
    "-1e308",
    "1e100",
    "inf",
    "-inf",
    "nan",
    "-0",
    "9007199254740993",
    "9007199254740992",
    "-9007199254740993",
    "1048577",
    "1e-320",
];

/// Counts for header lines (`agents`, `steps`, `sample_every`): at and past the budgets
/// (`MAX_AGENTS` is 1,000,000), past `u32` and `u64`, zero and negative.
pub const HOSTILE_COUNTS: &[&str] = &[
    "4294967296",
    "4294967295",
    "1000000",
    "1000001",
    "18446744073709551615",
    "18446744073709551616",
    "9007199254740993",
    "0",
    "-1",
    "1e6",
];

/// Names as a hostile file gives them, raw: line breaks that forge lines, control characters,
/// path separators, a right-to-left override and a name past `MAX_NAME_BYTES` (256).
pub const HOSTILE_NAMES: &[&str] = &[
    "a\nsteps 99",
    "x\nbackend onion",
    "a\rb",
    "a\0b",
    "\x1b[31mred",
    "../escaped-plot",
    "../../etc/passwd",
    "/abs/path/x",
    "a/b",
    "..\\x",
    "\u{202e}evil",
    "\t",
    "",
    "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0",
];

/// One number of `bytes` replaced with one of `with` (unchanged when there is none).
pub fn number(bytes: &[u8], with: &[&str], rng: &mut Rng) -> Vec<u8> {
    let mut out = bytes.to_vec();
    let spans = numbers(bytes);
    if !spans.is_empty() {
        let (a, b) = spans[rng.below(spans.len())];
        out.splice(a..b, with[rng.below(with.len())].bytes());
    }
    out
}

/// The value of one of the lines `KEY VALUE` that start a line of `bytes` set to `value`
/// (unchanged when there is none).
pub fn header_value(bytes: &[u8], key: &str, value: &str, rng: &mut Rng) -> Vec<u8> {
    let starts: Vec<(usize, usize)> = lines(bytes)
        .into_iter()
        .filter(|&(a, b)| {
            bytes[a..b].starts_with(key.as_bytes()) && bytes.get(a + key.len()) == Some(&b' ')
        })
        .collect();
    let mut out = bytes.to_vec();
    if !starts.is_empty() {
        let (a, b) = starts[rng.below(starts.len())];
        let end = if bytes[b - 1] == b'\n' { b - 1 } else { b };
        out.splice(a + key.len() + 1..end, value.bytes());
    }
    out
}

/// `text` as a TOML basic string: quoted, with `"`, `\` and control characters escaped (what a
/// scenario file writes to give a name a line break or a NUL).
pub fn toml_string(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Bytes and words that change a file's structure.
const STRUCTURE: &[&[u8]] = &[
    b"{",
    b"}",
    b"(",
    b")",
    b"[",
    b"]",
    b"\"",
    b"=",
    b",",
    b"\n",
    b"#",
    b"//",
    b"\xff",
    b"\xe9",
    b"\0",
    b"\r",
    b"\t",
    b" ",
    b"[[agent]]",
    b"[[brush]]",
    b"patchDef2",
    b"brushDef",
];

/// The byte ranges of the numbers in `bytes` (optional sign, digits, point, exponent).
fn numbers(bytes: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let start = i;
        if bytes[i] == b'-' || bytes[i] == b'+' {
            i += 1;
        }
        let digits = i;
        while i < bytes.len() && (bytes[i].is_ascii_digit() || b".eE".contains(&bytes[i])) {
            i += 1;
        }
        if i > digits && bytes[digits..i].iter().any(u8::is_ascii_digit) {
            out.push((start, i));
        } else {
            i = start + 1;
        }
    }
    out
}

/// The byte ranges of the lines of `bytes`, newline included.
fn lines(bytes: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'\n' {
            out.push((start, i + 1));
            start = i + 1;
        }
    }
    if start < bytes.len() {
        out.push((start, bytes.len()));
    }
    out
}

/// Applies one mutation to `input` half the time, two to four otherwise (one mutation keeps
/// more inputs valid, so that the cases reach past the parsers).
pub fn text(input: &[u8], rng: &mut Rng) -> Vec<u8> {
    let mut bytes = input.to_vec();
    let count = if rng.below(2) == 0 {
        1
    } else {
        2 + rng.below(3)
    };
    for _ in 0..count {
        bytes = once(&bytes, rng);
    }
    bytes
}

fn once(bytes: &[u8], rng: &mut Rng) -> Vec<u8> {
    let mut out = bytes.to_vec();
    let pick = |rng: &mut Rng, n: usize| if n == 0 { 0 } else { rng.below(n) };
    match rng.below(10) {
        // A number for a hostile one (the most telling mutation, so three times as likely).
        0..=2 => {
            let spans = numbers(bytes);
            if spans.is_empty() {
                return out;
            }
            let (a, b) = spans[rng.below(spans.len())];
            let with = HOSTILE_NUMBERS[rng.below(HOSTILE_NUMBERS.len())].as_bytes();
            out.splice(a..b, with.iter().copied());
        }
        // A byte flipped.
        3 => {
            if !out.is_empty() {
                let i = pick(rng, out.len());
                out[i] ^= 1 << rng.below(8);
            }
        }
        // A line dropped.
        4 => {
            let spans = lines(bytes);
            if !spans.is_empty() {
                let (a, b) = spans[rng.below(spans.len())];
                out.drain(a..b);
            }
        }
        // A line duplicated elsewhere.
        5 => {
            let spans = lines(bytes);
            if !spans.is_empty() {
                let (a, b) = spans[rng.below(spans.len())];
                let line = bytes[a..b].to_vec();
                let at = spans[rng.below(spans.len())].0;
                out.splice(at..at, line);
            }
        }
        // Two lines swapped.
        6 => {
            let spans = lines(bytes);
            if spans.len() >= 2 {
                let (i, j) = (rng.below(spans.len()), rng.below(spans.len()));
                let (x, y) = (spans[i.min(j)], spans[i.max(j)]);
                if x != y {
                    let mut swapped = bytes[..x.0].to_vec();
                    swapped.extend_from_slice(&bytes[y.0..y.1]);
                    swapped.extend_from_slice(&bytes[x.1..y.0]);
                    swapped.extend_from_slice(&bytes[x.0..x.1]);
                    swapped.extend_from_slice(&bytes[y.1..]);
                    out = swapped;
                }
            }
        }
        // A structure character or keyword inserted.
        7 => {
            let at = pick(rng, out.len() + 1);
            let with = STRUCTURE[rng.below(STRUCTURE.len())];
            out.splice(at..at, with.iter().copied());
        }
        // A range deleted.
        8 => {
            if !out.is_empty() {
                let a = pick(rng, out.len());
                let b = (a + 1 + rng.below(64)).min(out.len());
                out.drain(a..b);
            }
        }
        // Cut short.
        _ => {
            let at = pick(rng, out.len() + 1);
            out.truncate(at);
        }
    }
    out
}

/// Mutates a binary file: bytes flipped or set, an `f64` at an aligned offset overwritten with
/// an extreme value, a range duplicated or cut.
pub fn binary(input: &[u8], rng: &mut Rng) -> Vec<u8> {
    let mut out = input.to_vec();
    for _ in 0..1 + rng.below(3) {
        if out.is_empty() {
            break;
        }
        let i = rng.below(out.len());
        match rng.below(6) {
            0 => out[i] ^= 1 << rng.below(8),
            1 => out[i] = [0x00, 0xff, 0x7f, 0x80][rng.below(4)],
            2 | 3 => {
                let at = i & !7;
                let value: f64 = [
                    f64::NAN,
                    f64::INFINITY,
                    -f64::INFINITY,
                    1e308,
                    -1e308,
                    0.0,
                    -0.0,
                    1e-320,
                    2.0,
                    -1.0,
                    1e7,
                ][rng.below(11)];
                if at + 8 <= out.len() {
                    out[at..at + 8].copy_from_slice(&value.to_le_bytes());
                }
            }
            4 => {
                let b = (i + 1 + rng.below(32)).min(out.len());
                let chunk = out[i..b].to_vec();
                let at = rng.below(out.len());
                out.splice(at..at, chunk);
            }
            _ => {
                let b = (i + 1 + rng.below(32)).min(out.len());
                out.drain(i..b);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_found_with_their_signs_and_exponents() {
        let text = b"( -16 0 2.5e3 ) x1 [ 4 ]";
        let found: Vec<&[u8]> = numbers(text).iter().map(|&(a, b)| &text[a..b]).collect();
        assert_eq!(found, [&b"-16"[..], b"0", b"2.5e3", b"1", b"4"]);
    }

    #[test]
    fn mutations_are_deterministic_and_change_the_input() {
        let input = b"name = \"x\"\nsteps = 10\ntime_step = 0.5\n";
        let run = |seed| text(input, &mut Rng::new(seed));
        assert_eq!(run(3), run(3));
        let changed = (0..100).filter(|&s| run(s) != input).count();
        assert!(
            changed > 80,
            "only {changed} of 100 mutations changed the input"
        );
    }
}
