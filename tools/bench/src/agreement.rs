//! How far two backends' answers are apart on the same segments: a speed figure is only
//! reported beside one of these.

use cspace_geom::DVec3;

/// Two times of impact closer than this along the segment, in units, agree (a third of the
/// default skin of 1/32 unit: closer than anything a mover could notice).
pub const AGREEMENT_TOLERANCE: f64 = 0.01;

/// The comparison of two lists of answers (first times of impact, as segment fractions) on the
/// same segments.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Agreement {
    /// Segments compared.
    pub compared: usize,
    /// Segments where one side hits and the other misses.
    pub hit_mismatches: usize,
    /// Segments where both hit but more than [`AGREEMENT_TOLERANCE`] units apart.
    pub distance_mismatches: usize,
    /// The largest distance between the two impacts where both hit, in units.
    pub max_delta: f64,
    /// The mean distance between the two impacts where both hit, in units.
    pub mean_delta: f64,
}

impl Agreement {
    /// Compares `ours` with `theirs` (one answer per segment, `None` for a miss).
    pub fn between(
        ours: &[Option<f64>],
        theirs: &[Option<f64>],
        segments: &[(DVec3, DVec3)],
    ) -> Agreement {
        let mut agreement = Agreement {
            compared: segments.len(),
            ..Agreement::default()
        };
        let (mut sum, mut both) = (0.0, 0usize);
        for ((a, b), (start, end)) in ours.iter().zip(theirs).zip(segments) {
            match (a, b) {
                (Some(a), Some(b)) => {
                    let delta = (a - b).abs() * start.distance(*end);
                    both += 1;
                    sum += delta;
                    agreement.max_delta = agreement.max_delta.max(delta);
                    if delta > AGREEMENT_TOLERANCE {
                        agreement.distance_mismatches += 1;
                    }
                }
                (None, None) => {}
                _ => agreement.hit_mismatches += 1,
            }
        }
        agreement.mean_delta = if both > 0 { sum / both as f64 } else { 0.0 };
        agreement
    }

    /// Segments on which the two differ (hit against miss, or impacts too far apart).
    pub fn differing(&self) -> usize {
        self.hit_mismatches + self.distance_mismatches
    }

    /// The table cell: `0`, or how many differ, split by kind, and by how much.
    pub fn cell(&self) -> String {
        if self.differing() == 0 {
            return format!("0 (max {} u)", units(self.max_delta));
        }
        let share = 100.0 * self.differing() as f64 / self.compared.max(1) as f64;
        format!(
            "{} = {:.1} % ({} hit/miss, {} by > {AGREEMENT_TOLERANCE} u; max {} u)",
            self.differing(),
            share,
            self.hit_mismatches,
            self.distance_mismatches,
            units(self.max_delta)
        )
    }
}

/// A distance in units with enough digits to show small errors.
pub fn units(x: f64) -> String {
    if x == 0.0 {
        "0".to_string()
    } else if x < 1e-3 {
        format!("{x:.1e}")
    } else {
        format!("{x:.3}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_hit_mismatches_and_far_impacts_in_units() {
        let seg = (DVec3::ZERO, DVec3::new(10.0, 0.0, 0.0));
        let segments = [seg; 4];
        let ours = [Some(0.5), None, Some(0.5), Some(0.1)];
        let theirs = [Some(0.5), Some(0.2), Some(0.6), Some(0.1005)];
        let a = Agreement::between(&ours, &theirs, &segments);
        assert_eq!(a.hit_mismatches, 1);
        assert_eq!(
            a.distance_mismatches, 1,
            "1 unit apart; the 0.005-unit one agrees"
        );
        assert!((a.max_delta - 1.0).abs() < 1e-12, "{}", a.max_delta);
        assert_eq!(a.differing(), 2);
    }
}
