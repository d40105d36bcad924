//! No input panics: truncated maps, maps with flipped bytes, and extreme numbers. Each attempt
//! must return `Ok` or `Err`; a panic fails the test and names the attempt.

use std::panic::{AssertUnwindSafe, catch_unwind};

use cspace_mapfile::{BuildOptions, MapFile, build_world};

use crate::support::corpus;

/// Parses and, when that succeeds, builds the world; returns whether the parse succeeded.
/// Panics with `what` in the message if either step panics.
fn survives(bytes: &[u8], name: &str, what: &dyn Fn() -> String) -> bool {
    let result = catch_unwind(AssertUnwindSafe(|| match MapFile::parse(bytes, name) {
        Ok(map) => {
            // A located error or a world: either is fine, a panic is not.
            let _ = build_world(&map, &BuildOptions::default());
            true
        }
        Err(_) => false,
    }));
    match result {
        Ok(parsed) => parsed,
        Err(_) => panic!("{name}: panicked on {}", what()),
    }
}

/// Every prefix of `bytes` whose length is a multiple of `step` (and the whole file).
fn truncations(bytes: &[u8], name: &str, step: usize) {
    let mut parsed = 0;
    let mut cuts = 0;
    for cut in (0..bytes.len()).step_by(step).chain([bytes.len()]) {
        cuts += 1;
        parsed += usize::from(survives(&bytes[..cut], name, &|| {
            format!("the file cut at byte {cut}")
        }));
    }
    eprintln!("{name}: {cuts} cuts every {step} bytes, {parsed} parsed, the rest refused");
}

/// A small deterministic generator (xorshift64*), so every run flips the same bytes.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Bytes that change the structure when they land somewhere: half the flips use one of them.
const INTERESTING: &[u8] = b"{}()[]\"/ \n\t0123456789.-+eE*nNiI\0\xff";

/// `attempts` copies of `bytes`, each with 1 to 4 bytes replaced at pseudo-random positions.
fn flips(bytes: &[u8], name: &str, attempts: usize, seed: u64) {
    let mut rng = Rng(seed | 1);
    let mut parsed = 0;
    for attempt in 0..attempts {
        let mut copy = bytes.to_vec();
        let mut changes = Vec::new();
        for _ in 0..1 + rng.below(4) {
            let at = rng.below(copy.len());
            let value = if rng.below(2) == 0 {
                INTERESTING[rng.below(INTERESTING.len())]
            } else {
                rng.next() as u8
            };
            changes.push((at, value));
            copy[at] = value;
        }
        parsed += usize::from(survives(&copy, name, &|| {
            format!("attempt {attempt}: bytes set at (offset, value) {changes:?}")
        }));
    }
    eprintln!("{name}: {attempts} attempts with flipped bytes, {parsed} parsed");
}

/// `attempts` copies of `bytes`, each with 1 to 3 numbers replaced by odd values (zero, huge, tiny,
/// shifted): the syntax stays valid, so these exercise world building on strange geometry.
fn number_changes(bytes: &[u8], name: &str, attempts: usize, seed: u64) {
    // The byte ranges of the tokens that read as numbers.
    let mut numbers = Vec::new();
    let mut start = None;
    for (i, &b) in bytes.iter().chain([&b' ']).enumerate() {
        match (b <= b' ', start) {
            (false, None) => start = Some(i),
            (true, Some(s)) => {
                let token = std::str::from_utf8(&bytes[s..i]).unwrap_or("");
                if token.parse::<f64>().is_ok() {
                    numbers.push(s..i);
                }
                start = None;
            }
            _ => {}
        }
    }
    let mut rng = Rng(seed | 1);
    let mut built = 0;
    for attempt in 0..attempts {
        let mut changes: Vec<(usize, String)> = Vec::new();
        for _ in 0..1 + rng.below(3) {
            let index = rng.below(numbers.len());
            let value = match rng.below(6) {
                0 => "0".to_owned(),
                1 => "1e9".to_owned(),
                2 => "-1e-9".to_owned(),
                3 => "1e300".to_owned(),
                4 => format!("{}", rng.below(8193) as i64 - 4096),
                _ => format!("{}.5", rng.below(128)),
            };
            changes.push((index, value));
        }
        changes.sort();
        changes.dedup_by_key(|c| c.0);
        let mut copy = Vec::with_capacity(bytes.len() + 64);
        let mut at = 0;
        for (index, value) in &changes {
            let range = numbers[*index].clone();
            copy.extend_from_slice(&bytes[at..range.start]);
            copy.extend_from_slice(value.as_bytes());
            at = range.end;
        }
        copy.extend_from_slice(&bytes[at..]);
        built += usize::from(survives(&copy, name, &|| {
            format!("attempt {attempt}: numbers replaced (index, value) {changes:?}")
        }));
    }
    eprintln!("{name}: {attempts} attempts with changed numbers, {built} built");
}

/// A small map in every format: Quake, Valve 220, Quake 2 flags, a patch, comments, spawn points,
/// a skip brush and an invalid brush.
fn inline_map() -> String {
    let face = |fields: &str| {
        [
            "( 0 0 0 ) ( 0 1 0 ) ( 0 0 1 )",
            "( 0 0 0 ) ( 0 0 1 ) ( 1 0 0 )",
            "( 0 0 0 ) ( 1 0 0 ) ( 0 1 0 )",
            "( 64 64 64 ) ( 64 65 64 ) ( 65 64 64 )",
            "( 64 64 64 ) ( 65 64 64 ) ( 64 64 65 )",
            "( 64 64 64 ) ( 64 64 65 ) ( 64 65 64 )",
        ]
        .map(|points| format!("{points} {fields}\n"))
        .concat()
    };
    format!(
        "// Game: Quake\n// entity 0\n{{\n\"classname\" \"worldspawn\"\n\"mapversion\"\t\"220\"\n\
         {{\n{}}}\n{{\n{}}}\n{{\n{}}}\n{{\n{}}}\n{{\npatchDef2\n{{\ncommon/x\n( 3 3 0 0 0 )\n(\n\
         ( ( 0 0 0 0 0 ) ( 0 1 0 0 1 ) ( 0 2 0 0 2 ) )\n( ( 1 0 0 1 0 ) ( 1 1 5 1 1 ) ( 1 2 0 1 2 ) )\n\
         ( ( 2 0 0 2 0 ) ( 2 1 0 2 1 ) ( 2 2 0 2 2 ) )\n)\n}}\n}}\n}}\n\
         {{\n\"classname\" \"info_player_start\"\n\"origin\" \"32 32 88\"\n\"angle\" \"90\"\n}}\n\
         {{\n\"classname\" \"trigger_once\"\n{{\n{}}}\n}}\n",
        face("rock -16 8 90 -1 1"),
        face("{trigger [ -2.22045e-16 1 0 0 ] [ 0 0 -1 0 ] 0 1 1"),
        face("e1u1/water 0 0 0 0.5 0.5 32 0 0"),
        face("skip 0 0 0 1 1"),
        // Open: five faces only.
        face("TRIGGER 0 0 0 1 1")
            .lines()
            .take(5)
            .collect::<Vec<_>>()
            .join("\n")
            + "\n",
    )
}

#[test]
fn truncated_maps_never_panic() {
    let inline = inline_map();
    if let Err(e) = MapFile::parse(&inline, "inline.map") {
        panic!("{e}");
    }
    truncations(inline.as_bytes(), "inline.map", 1);
    let Some(corpus) = corpus("truncated_maps_never_panic") else {
        return;
    };
    for (name, step) in [
        ("ericw_q2_seal_empty_rooms.map", 7),
        ("ericw_qbspfeatures.map", 61),
        ("dmlab_nav_maze_static_01.map", 251),
        ("quake_e1m1.map", 2003),
    ] {
        truncations(&corpus.read(name), name, step);
    }
}

#[test]
fn maps_with_flipped_bytes_or_changed_numbers_never_panic() {
    flips(inline_map().as_bytes(), "inline.map", 2000, 0x5eed);
    number_changes(inline_map().as_bytes(), "inline.map", 1000, 0xfeed);
    let Some(corpus) = corpus("maps_with_flipped_bytes_or_changed_numbers_never_panic") else {
        return;
    };
    for (name, attempts) in [
        ("ericw_q2_seal_empty_rooms.map", 400),
        ("ericw_qbspfeatures.map", 300),
        ("ericw_qbsp_many_sided_face.map", 20),
        ("dmlab_nav_maze_static_01.map", 150),
        ("quake_e1m1.map", 40),
    ] {
        flips(&corpus.read(name), name, attempts, name.len() as u64);
    }
    for (name, attempts) in [
        ("ericw_qbspfeatures.map", 200),
        ("ericw_q1_rocks.map", 200),
        ("unvanquished_chasm.map", 8),
        ("quake_e1m1.map", 30),
    ] {
        number_changes(&corpus.read(name), name, attempts, name.len() as u64);
    }
}

#[test]
fn extreme_numbers_never_panic() {
    let template = inline_map();
    let extremes = [
        "1e300",
        "-1.7976931348623157e308",
        "1.7976931348623157e308",
        "4.9e-324",
        "-0",
        "1e15",
        "123456789012345678901234567890",
    ];
    // Replace each number of the map in turn by each extreme value.
    let words: Vec<&str> = template.split(' ').collect();
    let mut attempts = 0;
    for (i, word) in words.iter().enumerate() {
        if word.trim().parse::<f64>().is_err() {
            continue;
        }
        for extreme in extremes {
            let mut changed = words.clone();
            let replaced = word.replace(word.trim(), extreme);
            changed[i] = &replaced;
            let text = changed.join(" ");
            attempts += 1;
            survives(text.as_bytes(), "extreme.map", &|| {
                format!("number {i} ({word:?}) replaced by {extreme}")
            });
        }
    }
    assert!(attempts > 500, "{attempts}");
}

#[test]
fn random_bytes_never_panic() {
    let mut rng = Rng(0xb17e5);
    for attempt in 0..3000 {
        let len = rng.below(400);
        // Half the buffers draw from the map alphabet, so that some get past the first token.
        let alphabet = attempt % 2 == 0;
        let bytes: Vec<u8> = (0..len)
            .map(|_| {
                if alphabet {
                    INTERESTING[rng.below(INTERESTING.len())]
                } else {
                    rng.next() as u8
                }
            })
            .collect();
        survives(&bytes, "random.map", &|| {
            format!("random buffer {attempt}: {bytes:?}")
        });
    }
}
