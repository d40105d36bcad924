//! The seeds of a sweep, written `0..100` (100 excluded), `0..=99`, `7`, or a list of those
//! separated by commas (`1,5,10..20`); in a sweep file also as an array of integers.

use std::ops::RangeInclusive;

/// The most seeds a sweep takes (and the most runs, [`super::MAX_RUNS`]).
pub const MAX_SEEDS: u64 = super::MAX_RUNS;

/// A list of seeds in the order written, kept as ranges; no seed appears twice.
///
/// ```
/// use cspace_scenario::sweep::Seeds;
///
/// let seeds: Seeds = "3, 0..2, 10..=11".parse()?;
/// assert_eq!(seeds.iter().collect::<Vec<_>>(), [3, 0, 1, 10, 11]);
/// assert_eq!(seeds.len(), 5);
/// assert_eq!(
///     "5..3".parse::<Seeds>().unwrap_err(),
///     "seeds \"5..3\": the range 5..3 is empty"
/// );
/// # Ok::<(), String>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seeds {
    /// Inclusive ranges, in the order written.
    ranges: Vec<RangeInclusive<u64>>,
    len: u64,
}

impl Default for Seeds {
    /// Seed 0 alone: each scenario as written.
    fn default() -> Seeds {
        Seeds {
            ranges: vec![0..=0],
            len: 1,
        }
    }
}

impl Seeds {
    /// Seeds from inclusive ranges in order; an empty list, an empty range, a seed named twice or
    /// more than [`MAX_SEEDS`] seeds is an error (without the text it was written as).
    fn from_ranges(ranges: Vec<RangeInclusive<u64>>) -> Result<Seeds, String> {
        if ranges.is_empty() {
            return Err("no seeds".to_string());
        }
        let mut len: u64 = 0;
        for r in &ranges {
            let n = (r.end() - r.start()).checked_add(1);
            len = n
                .and_then(|n| len.checked_add(n))
                .filter(|&l| l <= MAX_SEEDS)
                .ok_or_else(|| format!("more than {MAX_SEEDS} seeds"))?;
        }
        let mut sorted = ranges.clone();
        sorted.sort_by_key(|r| *r.start());
        if let Some(pair) = sorted.windows(2).find(|w| w[1].start() <= w[0].end()) {
            return Err(format!("seed {} is named twice", pair[1].start()));
        }
        Ok(Seeds { ranges, len })
    }

    /// Seeds from a TOML array of integers.
    pub fn from_list(list: &[i64]) -> Result<Seeds, String> {
        let ranges = list
            .iter()
            .map(|&s| {
                u64::try_from(s)
                    .map(|s| s..=s)
                    .map_err(|_| format!("seed {s} is negative; seeds are whole numbers from 0"))
            })
            .collect::<Result<Vec<_>, _>>()?;
        Seeds::from_ranges(ranges)
    }

    /// How many seeds.
    #[expect(
        clippy::len_without_is_empty,
        reason = "a list of seeds is never empty"
    )]
    pub fn len(&self) -> u64 {
        self.len
    }

    /// The `index`-th seed in the order written (`index < len()`).
    pub fn nth(&self, mut index: u64) -> u64 {
        for r in &self.ranges {
            let n = r.end() - r.start();
            if index <= n {
                return r.start() + index;
            }
            index -= n + 1;
        }
        panic!("seed index beyond the {} seeds", self.len)
    }

    /// Every seed, in the order written.
    pub fn iter(&self) -> impl Iterator<Item = u64> + '_ {
        self.ranges.iter().flat_map(|r| r.clone())
    }
}

impl std::str::FromStr for Seeds {
    type Err = String;

    fn from_str(text: &str) -> Result<Seeds, String> {
        let bad = |why: String| format!("seeds {text:?}: {why}");
        let number = |s: &str| {
            let s = s.trim();
            s.parse::<u64>().map_err(|_| {
                bad(format!(
                    "{s:?} is not a seed (a whole number from 0 to {})",
                    u64::MAX
                ))
            })
        };
        let mut ranges = Vec::new();
        for part in text.split(',') {
            let part = part.trim();
            let range = if let Some((a, b)) = part.split_once("..=") {
                let (a, b) = (number(a)?, number(b)?);
                if b < a {
                    return Err(bad(format!("the range {a}..={b} is empty")));
                }
                a..=b
            } else if let Some((a, b)) = part.split_once("..") {
                let (a, b) = (number(a)?, number(b)?);
                if b <= a {
                    return Err(bad(format!("the range {a}..{b} is empty")));
                }
                a..=b - 1
            } else {
                let s = number(part)?;
                s..=s
            };
            ranges.push(range);
        }
        Seeds::from_ranges(ranges).map_err(bad)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_lists_and_single_seeds_parse_in_the_order_written() {
        let s: Seeds = "0..3".parse().unwrap();
        assert_eq!(s.iter().collect::<Vec<_>>(), [0, 1, 2]);
        let s: Seeds = "9, 2..=3, 0".parse().unwrap();
        assert_eq!(s.iter().collect::<Vec<_>>(), [9, 2, 3, 0]);
        assert_eq!(
            (0..s.len()).map(|i| s.nth(i)).collect::<Vec<_>>(),
            [9, 2, 3, 0]
        );
        let s: Seeds = "18446744073709551615".parse().unwrap();
        assert_eq!(s.nth(0), u64::MAX);
        assert_eq!(Seeds::default().iter().collect::<Vec<_>>(), [0]);
        assert_eq!(
            Seeds::from_list(&[4, 1])
                .unwrap()
                .iter()
                .collect::<Vec<_>>(),
            [4, 1]
        );
    }

    #[test]
    fn bad_seeds_say_what_is_wrong() {
        let err = |t: &str| t.parse::<Seeds>().unwrap_err();
        assert_eq!(err("3..3"), "seeds \"3..3\": the range 3..3 is empty");
        assert_eq!(err("4..=3"), "seeds \"4..=3\": the range 4..=3 is empty");
        assert!(
            err("a..5").contains("\"a\" is not a seed"),
            "{}",
            err("a..5")
        );
        assert!(err("-1").contains("\"-1\" is not a seed"));
        assert!(err("").contains("\"\" is not a seed"));
        assert!(err("1,,2").contains("\"\" is not a seed"));
        assert_eq!(err("0..5,4"), "seeds \"0..5,4\": seed 4 is named twice");
        assert!(err("0..18446744073709551615").contains("more than 1000000000 seeds"));
        assert!(err("0..=18446744073709551615").contains("more than"));
        assert!(Seeds::from_list(&[]).unwrap_err().contains("no seeds"));
        assert!(Seeds::from_list(&[-2]).unwrap_err().contains("negative"));
        assert!(
            Seeds::from_list(&[1, 1])
                .unwrap_err()
                .contains("named twice")
        );
    }
}
