//! `--shard I/N`: the runs of a sweep whose id leaves the remainder `I - 1` divided by `N`.
//! Round robin rather than contiguous blocks: neighbouring runs (one scenario's seeds and
//! backends) cost alike, so every shard gets a similar share of the cheap and the dear ones.

/// Shard `index` of `count` (1-based).
///
/// ```
/// use cspace_scenario::sweep::Shard;
///
/// let shard: Shard = "2/3".parse()?;
/// assert_eq!(shard.runs(8), 3); // ids 1, 4, 7
/// assert_eq!(shard.nth(2), 7);
/// assert!("4/3".parse::<Shard>().is_err());
/// # Ok::<(), String>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    index: u64,
    count: u64,
}

impl Shard {
    /// The whole sweep (shard 1 of 1).
    pub const ALL: Shard = Shard { index: 1, count: 1 };

    /// Which shard, from 1.
    pub fn index(self) -> u64 {
        self.index
    }

    /// Of how many.
    pub fn count(self) -> u64 {
        self.count
    }

    /// True when run `id` is this shard's.
    pub fn contains(self, id: u64) -> bool {
        id % self.count == self.index - 1
    }

    /// How many of the runs `0..total` are this shard's.
    pub fn runs(self, total: u64) -> u64 {
        self.runs_below(total)
    }

    /// How many of the runs `0..end` are this shard's.
    pub fn runs_below(self, end: u64) -> u64 {
        let first = self.index - 1;
        if end <= first {
            0
        } else {
            (end - first - 1) / self.count + 1
        }
    }

    /// The id of this shard's `k`-th run.
    pub fn nth(self, k: u64) -> u64 {
        self.index - 1 + k * self.count
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl std::str::FromStr for Shard {
    type Err = String;

    fn from_str(text: &str) -> Result<Shard, String> {
        let bad = |why: &str| format!("shard {text:?}: {why}");
        let (i, n) = text
            .split_once('/')
            .ok_or_else(|| bad("expected I/N, shard I of N with 1 <= I <= N (as in 1/4)"))?;
        let number = |s: &str| {
            s.trim()
                .parse::<u64>()
                .map_err(|_| bad("I and N must be whole numbers (as in 1/4)"))
        };
        let (index, count) = (number(i)?, number(n)?);
        if count == 0 {
            return Err(bad("N must be at least 1"));
        }
        if index == 0 || index > count {
            return Err(bad(&format!(
                "I must be between 1 and {count} (shards count from 1)"
            )));
        }
        Ok(Shard { index, count })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shards_of_a_sweep_partition_its_runs() {
        for count in 1..6u64 {
            for total in 0..20u64 {
                let mut seen = vec![0; total as usize];
                for index in 1..=count {
                    let shard: Shard = format!("{index}/{count}").parse().unwrap();
                    let ids: Vec<u64> = (0..shard.runs(total)).map(|k| shard.nth(k)).collect();
                    assert_eq!(
                        ids,
                        (0..total)
                            .filter(|&i| shard.contains(i))
                            .collect::<Vec<_>>()
                    );
                    for id in ids {
                        seen[id as usize] += 1;
                    }
                }
                assert!(seen.iter().all(|&s| s == 1), "{count} shards of {total}");
            }
        }
    }

    #[test]
    fn bad_shards_say_what_is_wrong() {
        let err = |t: &str| t.parse::<Shard>().unwrap_err();
        assert!(err("3").contains("expected I/N"));
        assert!(err("0/4").contains("between 1 and 4"));
        assert!(err("5/4").contains("between 1 and 4"));
        assert!(err("1/0").contains("at least 1"));
        assert!(err("a/b").contains("whole numbers"));
        assert!(err("-1/4").contains("whole numbers"));
    }
}
