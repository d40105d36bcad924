//! Section 5 (test results): Table 1 and Figure 4 of the paper, on random point sets in the
//! plane.
//!
//! The paper generates "random points around c from different distributions" for 50 scenes
//! without saying which; here scene `s` draws [`POINTS_PER_SCENE`] points around the centre
//! `c = 0` from distribution `s mod 4` of [`Distribution`], with the bit-stable generator of
//! `cspace_geom::generate` (Box-Muller uses `ln`, `sin` and `cos`, so the last bits of a scene
//! may differ between platforms' maths libraries). Every k-UDOP is capped at
//! [`CAP_RADIUS`] so that a side no point reached stays finite (the cap is the k-DOP of a square
//! twice the scenes' size; [`TableRow::capped`] counts how often it still shows).

use std::sync::Arc;

use cspace_geom::generate::Rng;
use glam::DVec2;

use cspace_udop::Vector;
use cspace_udop::directions::Directions;
use cspace_udop::geometry::Point;
use cspace_udop::polytope::{polygon_area, polygon_perimeter, symmetric_difference_area};
use cspace_udop::udop::Udop;

/// Points in each scene of the committed table.
pub const POINTS_PER_SCENE: usize = 40;

/// The cap radius of every k-UDOP of the experiment (the points lie mostly within 2 of the
/// centre).
pub const CAP_RADIUS: f64 = 4.0;

/// The distributions the scenes cycle through.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Distribution {
    /// Uniform in the square `[-2, 2]^2`.
    Uniform,
    /// Normal around the centre, standard deviation 1.
    Gaussian,
    /// Four clusters: centres uniform in `[-2, 2]^2`, points normal around them with standard
    /// deviation 0.3 (the paper blames "empty areas in-between the clusters" for Figure 4's
    /// outliers).
    Clusters,
    /// A ring: radius uniform in `[0.5, 2]`, angle uniform.
    Ring,
}

impl Distribution {
    /// All four, in scene order.
    pub const ALL: [Distribution; 4] = [
        Distribution::Uniform,
        Distribution::Gaussian,
        Distribution::Clusters,
        Distribution::Ring,
    ];
}

/// One random scene.
#[derive(Debug, Clone, PartialEq)]
pub struct Scene {
    /// Where its points come from.
    pub distribution: Distribution,
    /// The points (the centre is the origin).
    pub points: Vec<DVec2>,
}

fn normal(rng: &mut Rng) -> DVec2 {
    // Box-Muller; 1 - u is in (0, 1].
    let (u, v) = (1.0 - rng.next_f64(), rng.next_f64());
    let r = (-2.0 * u.ln()).sqrt();
    let (s, c) = (std::f64::consts::TAU * v).sin_cos();
    DVec2::new(r * c, r * s)
}

/// `count` scenes of `points` points each from `seed` (scene `s` uses distribution `s mod 4`).
pub fn scenes(count: usize, points: usize, seed: u64) -> Vec<Scene> {
    let mut rng = Rng::new(seed);
    (0..count)
        .map(|s| {
            let distribution = Distribution::ALL[s % 4];
            let points = match distribution {
                Distribution::Uniform => (0..points)
                    .map(|_| DVec2::new(rng.range(-2.0, 2.0), rng.range(-2.0, 2.0)))
                    .collect(),
                Distribution::Gaussian => (0..points).map(|_| normal(&mut rng)).collect(),
                Distribution::Clusters => {
                    let centres: Vec<DVec2> = (0..4)
                        .map(|_| DVec2::new(rng.range(-2.0, 2.0), rng.range(-2.0, 2.0)))
                        .collect();
                    (0..points)
                        .map(|i| centres[i % 4] + normal(&mut rng) * 0.3)
                        .collect()
                }
                Distribution::Ring => (0..points)
                    .map(|_| {
                        let r = rng.range(0.5, 2.0);
                        let (s, c) = rng.range(0.0, std::f64::consts::TAU).sin_cos();
                        DVec2::new(r * c, r * s)
                    })
                    .collect(),
            };
            Scene {
                distribution,
                points,
            }
        })
        .collect()
}

/// The 2D k-UDOP of a scene over `directions`, capped (Algorithm 1 over the points in their
/// order).
pub fn scene_udop(scene: &Scene, directions: &Arc<Directions<DVec2>>) -> Udop<DVec2> {
    let directions = directions.clone();
    let mut udop = Udop::capped(directions, DVec2::ZERO, CAP_RADIUS);
    for p in &scene.points {
        udop.insert(&Point(*p));
    }
    udop
}

/// One row of Table 1: means over the scenes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TableRow {
    /// The number of directions.
    pub k: usize,
    /// Mean perimeter of the polygon.
    pub perimeter: f64,
    /// Mean area.
    pub area: f64,
    /// Mean number of sides (edges of positive length).
    pub sides: f64,
    /// `sides / k`.
    pub sides_over_k: f64,
    /// Mean number of directions whose side Algorithm 1 moved at least once (a side can be
    /// moved and later made redundant by others, so this is at least `sides` when the cap does
    /// not show).
    pub cut: f64,
    /// Scenes whose polygon still touches the cap.
    pub capped: usize,
}

/// Table 1 and Figure 4 over `scenes` for every `k` in `ks` (consecutive).
#[derive(Debug, Clone, PartialEq)]
pub struct Experiment {
    /// One row per k.
    pub rows: Vec<TableRow>,
    /// Figure 4: per scene, the area of the symmetric difference of the polygons for `k` and
    /// `k + 1`, for every `k` of the rows but the last.
    pub convergence: Vec<Vec<f64>>,
}

impl Experiment {
    /// The mean over scenes of the convergence curve.
    pub fn mean_convergence(&self) -> Vec<f64> {
        let n = self.convergence.len() as f64;
        let len = self.convergence.first().map_or(0, Vec::len);
        (0..len)
            .map(|i| self.convergence.iter().map(|c| c[i]).sum::<f64>() / n)
            .collect()
    }
}

/// Runs the experiment for `k` in `ks`.
pub fn run(scenes: &[Scene], ks: std::ops::RangeInclusive<usize>) -> Experiment {
    let mut rows = Vec::new();
    let mut convergence = vec![Vec::new(); scenes.len()];
    let mut previous: Vec<Vec<DVec2>> = Vec::new();
    for k in ks {
        let directions = Arc::new(
            Directions::<DVec2>::evenly_spread(k).expect("k >= 3 evenly spread directions span"),
        );
        let (mut perimeter, mut area, mut sides, mut cut, mut capped) = (0.0, 0.0, 0.0, 0.0, 0);
        let mut polygons = Vec::with_capacity(scenes.len());
        for scene in scenes {
            let udop = scene_udop(scene, &directions);
            let polygon = udop
                .polygon()
                .expect("a capped k-UDOP around a free centre");
            perimeter += polygon_perimeter(&polygon);
            area += polygon_area(&polygon);
            sides += polygon.len() as f64;
            // The cap shows when a side still at its initial distance touches the polygon.
            let touches_cap = directions
                .vectors()
                .iter()
                .zip(udop.distances())
                .any(|(v, h)| {
                    *h == CAP_RADIUS * v.norm_l1()
                        && polygon
                            .iter()
                            .any(|p| (h - p.dot(*v)).abs() <= 1e-9 * CAP_RADIUS)
                });
            capped += usize::from(touches_cap);
            cut += directions
                .vectors()
                .iter()
                .zip(udop.distances())
                .filter(|(v, h)| **h != CAP_RADIUS * v.norm_l1())
                .count() as f64;
            polygons.push(polygon);
        }
        if !previous.is_empty() {
            for (s, (a, b)) in previous.iter().zip(&polygons).enumerate() {
                convergence[s].push(symmetric_difference_area(a, b));
            }
        }
        let n = scenes.len() as f64;
        rows.push(TableRow {
            k,
            perimeter: perimeter / n,
            area: area / n,
            sides: sides / n,
            sides_over_k: sides / n / k as f64,
            cut: cut / n,
            capped,
        });
        previous = polygons;
    }
    Experiment { rows, convergence }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_small_experiment_has_a_row_per_k_and_a_curve_per_scene() {
        let scenes = scenes(4, 20, 1);
        assert!(scenes.iter().all(|s| s.points.len() == 20));
        let experiment = run(&scenes, 3..=10);
        assert_eq!(experiment.rows.len(), 8);
        assert_eq!(experiment.convergence.len(), 4);
        assert!(experiment.convergence.iter().all(|c| c.len() == 7));
        for row in &experiment.rows {
            assert!(row.sides >= 3.0 && row.sides <= row.k as f64);
            assert!(row.area > 0.0 && row.perimeter > 0.0);
        }
        assert_eq!(experiment.rows[0].sides_over_k, 1.0);
        assert_eq!(experiment.mean_convergence().len(), 7);
    }
}
