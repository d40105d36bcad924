//! A small GJK distance between convex hulls of point sets (Gilbert, Johnson, Keerthi 1988),
//! with the sub-simplex solved by brute force over its subsets: slow, simple, independent.

use cspace_geom::DVec3;

fn support(points: &[DVec3], d: DVec3) -> DVec3 {
    *points
        .iter()
        .max_by(|a, b| a.dot(d).total_cmp(&b.dot(d)))
        .expect("non-empty")
}

/// The point of the convex hull of `simplex` (1 to 4 points) closest to the origin, and the
/// indices of the smallest sub-simplex holding it.
fn closest_on_simplex(simplex: &[DVec3]) -> (DVec3, Vec<usize>) {
    let n = simplex.len();
    let mut best = (DVec3::splat(f64::INFINITY), Vec::new());
    for mask in 1u32..(1 << n) {
        let idx: Vec<usize> = (0..n).filter(|i| mask & (1 << i) != 0).collect();
        let p0 = simplex[idx[0]];
        let k = idx.len() - 1;
        // Solve for weights of p_i - p0 (i >= 1) minimising |p0 + sum w_i (p_i - p0)|.
        let e: Vec<DVec3> = idx[1..].iter().map(|&i| simplex[i] - p0).collect();
        let mut m = [[0.0f64; 4]; 3];
        for r in 0..k {
            for c in 0..k {
                m[r][c] = e[r].dot(e[c]);
            }
            m[r][k] = -e[r].dot(p0);
        }
        // A flat (or thin) sub-simplex has no well-defined affine solve: leave it to its faces.
        if k == 3 {
            let scale = e.iter().map(|x| x.length()).fold(0.0, f64::max);
            if e[0].dot(e[1].cross(e[2])).abs() <= 1e-9 * scale * scale * scale {
                continue;
            }
        }
        let Some(w) = solve(&mut m, k) else { continue };
        let w0 = 1.0 - w.iter().sum::<f64>();
        if w0 < -1e-12 || w.iter().any(|&x| x < -1e-12) {
            continue;
        }
        let point = p0 + e.iter().zip(&w).map(|(ei, wi)| *ei * *wi).sum::<DVec3>();
        if point.length_squared() < best.0.length_squared() - 1e-18 {
            best = (point, idx);
        }
    }
    best
}

/// Gaussian elimination on a k x (k+1) augmented matrix.
fn solve(m: &mut [[f64; 4]; 3], k: usize) -> Option<Vec<f64>> {
    for col in 0..k {
        let pivot = (col..k).max_by(|&a, &b| m[a][col].abs().total_cmp(&m[b][col].abs()))?;
        let scale = (0..k).map(|r| m[r][r].abs()).fold(1e-300, f64::max);
        if m[pivot][col].abs() < 1e-12 * scale {
            return None;
        }
        m.swap(col, pivot);
        for r in 0..k {
            if r != col {
                let f = m[r][col] / m[col][col];
                let pivot_row = m[col];
                for (x, p) in m[r][col..=k].iter_mut().zip(&pivot_row[col..=k]) {
                    *x -= f * p;
                }
            }
        }
    }
    Some((0..k).map(|r| m[r][k] / m[r][r]).collect())
}

/// Distance between the convex hulls of `a` and `b` (0 when they overlap).
pub fn distance(a: &[DVec3], b: &[DVec3]) -> f64 {
    let support_d = |d: DVec3| support(a, d) - support(b, -d);
    let mut v = a[0] - b[0];
    let mut simplex: Vec<DVec3> = vec![v];
    for _ in 0..256 {
        if v.length_squared() < 1e-24 {
            return 0.0;
        }
        let w = support_d(-v);
        // Converged: no point of the difference is much closer along v.
        if v.dot(v) - v.dot(w) <= 1e-12 * v.dot(v).max(1e-6) {
            return v.length();
        }
        simplex.push(w);
        let (closest, kept) = closest_on_simplex(&simplex);
        simplex = kept.into_iter().map(|i| simplex[i]).collect();
        v = closest;
        if simplex.len() == 4 {
            return 0.0;
        }
    }
    v.length()
}
