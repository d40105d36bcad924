//! The cuts of every strip of pieces, refined together until every cell meets the error bound.
//!
//! A *strip* is one direction of one row or column of pieces of a patch: the pieces `[i, *]`
//! share their cuts in `s` (strip "s of row i"), the pieces `[*, j]` their cuts in `t`. Two
//! strips are *linked* when a border curve of a piece of one (three control points) is a border
//! curve of a piece of the other, in the same or the opposite direction; linked strips are cut
//! alike (opposite directions mirror the cuts, `c -> 1 - c`), so the shared curve gets the same
//! vertices in both. Links are found by exact coordinates, in a sorted map (deterministic).

use std::collections::BTreeMap;

use glam::DVec3;

use super::bezier::cell_bound;
use super::{ControlGrid, MAX_LEVEL};

/// The cuts of every strip of every patch, in `[0, 1]`, sorted, with 0 and 1.
pub(super) struct Cuts {
    /// Per strip.
    cuts: Vec<Vec<f64>>,
    /// The first strip of each patch: its `t` strips (one per column of pieces), then its `s`
    /// strips (one per row of pieces).
    first: Vec<usize>,
    /// Pieces per patch, `[rows, columns]`.
    pieces: Vec<[usize; 2]>,
}

/// The cuts of one patch.
pub(super) struct PatchCuts<'a> {
    /// Cuts in `s` per row of pieces.
    pub s: Vec<&'a [f64]>,
    /// Cuts in `t` per column of pieces.
    pub t: Vec<&'a [f64]>,
}

impl Cuts {
    fn t_strip(&self, patch: usize, column: usize) -> usize {
        self.first[patch] + column
    }

    fn s_strip(&self, patch: usize, row: usize) -> usize {
        self.first[patch] + self.pieces[patch][1] + row
    }

    pub(super) fn of_patch(&self, patch: usize) -> PatchCuts<'_> {
        let [rows, columns] = self.pieces[patch];
        PatchCuts {
            s: (0..rows)
                .map(|i| self.cuts[self.s_strip(patch, i)].as_slice())
                .collect(),
            t: (0..columns)
                .map(|j| self.cuts[self.t_strip(patch, j)].as_slice())
                .collect(),
        }
    }
}

/// Union-find over strips with the parity of each strip's direction relative to its root.
struct Links {
    parent: Vec<usize>,
    /// True when the strip runs opposite to its parent.
    flipped: Vec<bool>,
    /// Per root: a cycle of links disagrees on direction, so the component's cuts must be
    /// symmetric (closed under `c -> 1 - c`).
    symmetric: Vec<bool>,
}

impl Links {
    fn new(count: usize) -> Links {
        Links {
            parent: (0..count).collect(),
            flipped: vec![false; count],
            symmetric: vec![false; count],
        }
    }

    /// The root of `x` and whether `x` runs opposite to it.
    fn find(&mut self, x: usize) -> (usize, bool) {
        let mut path = Vec::new();
        let mut node = x;
        while self.parent[node] != node {
            path.push(node);
            node = self.parent[node];
        }
        let root = node;
        // Compress, from the node nearest the root down.
        let mut parity = false;
        for &n in path.iter().rev() {
            parity ^= self.flipped[n];
            self.flipped[n] = parity;
            self.parent[n] = root;
        }
        (
            root,
            if path.is_empty() {
                false
            } else {
                self.flipped[x]
            },
        )
    }

    /// Links `a` and `b`; `opposite` when they run in opposite directions.
    fn link(&mut self, a: usize, b: usize, opposite: bool) {
        let (ra, fa) = self.find(a);
        let (rb, fb) = self.find(b);
        if ra == rb {
            if fa ^ fb != opposite {
                self.symmetric[ra] = true;
            }
            return;
        }
        // Attach the higher root under the lower (deterministic).
        let (child, root) = if ra < rb { (rb, ra) } else { (ra, rb) };
        self.parent[child] = root;
        self.flipped[child] = fa ^ fb ^ opposite;
        self.symmetric[root] |= self.symmetric[child];
    }
}

/// The key of a curve: the bits of its control points in a canonical direction, and whether
/// that direction is the curve's reverse. `None` for a curve collapsed to a point.
fn curve_key(p: [DVec3; 3]) -> Option<([u64; 9], bool)> {
    if p[0] == p[1] && p[1] == p[2] {
        return None;
    }
    let bits = |v: DVec3| v.to_array().map(f64::to_bits);
    let (first, last) = (bits(p[0]), bits(p[2]));
    let reversed = last < first;
    let order = if reversed {
        [p[2], p[1], p[0]]
    } else {
        [p[0], p[1], p[2]]
    };
    let mut key = [0u64; 9];
    for (k, v) in order.iter().enumerate() {
        key[3 * k..3 * k + 3].copy_from_slice(&bits(*v));
    }
    Some((key, reversed))
}

/// The cells the cuts make, per patch (each of its pieces has the cuts of its row's and its
/// column's strips).
fn cells(cuts: &Cuts, patch: usize) -> usize {
    let of = |c: &[f64]| c.len() - 1;
    let patch_cuts = cuts.of_patch(patch);
    let across: usize = patch_cuts.s.iter().map(|c| of(c)).sum();
    let along: usize = patch_cuts.t.iter().map(|c| of(c)).sum();
    across.saturating_mul(along)
}

/// The facets the cuts would make past `max_facets`: the patch with the most cells and the
/// count for all patches (two facets per cell at most), or `None` within it.
fn over_budget(cuts: &Cuts, patches: usize, max_facets: usize) -> Option<(usize, usize)> {
    let per_patch: Vec<usize> = (0..patches).map(|p| cells(cuts, p)).collect();
    let facets = per_patch
        .iter()
        .fold(0usize, |sum, &c| sum.saturating_add(c.saturating_mul(2)));
    (facets > max_facets).then(|| {
        let worst = (0..patches)
            .max_by_key(|&p| (per_patch[p], std::cmp::Reverse(p)))
            .expect("a patch has cells");
        (worst, facets)
    })
}

/// The cuts of every strip such that every cell of every piece is within `max_error` (or at
/// [`MAX_LEVEL`]); `Err((patch, facets))` as soon as the cells, two facets each, pass
/// `max_facets`: the patch with the most cells and the count reached (a lower bound of what the
/// subdivision would need).
pub(super) fn refine(
    patches: &[ControlGrid],
    max_error: f64,
    max_facets: usize,
) -> Result<Cuts, (usize, usize)> {
    let mut first = Vec::with_capacity(patches.len());
    let mut pieces = Vec::with_capacity(patches.len());
    let mut count = 0;
    for grid in patches {
        first.push(count);
        let p = grid.pieces();
        pieces.push(p);
        count += p[0] + p[1];
    }
    let mut cuts = Cuts {
        cuts: vec![vec![0.0, 1.0]; count],
        first,
        pieces,
    };

    // Link strips through shared border curves.
    let mut curves: BTreeMap<[u64; 9], Vec<(usize, bool)>> = BTreeMap::new();
    for (p, grid) in patches.iter().enumerate() {
        let [rows, columns] = grid.pieces();
        for r in (0..grid.rows()).step_by(2) {
            for j in 0..columns {
                let curve = [
                    grid.point(r, 2 * j),
                    grid.point(r, 2 * j + 1),
                    grid.point(r, 2 * j + 2),
                ];
                if let Some((key, reversed)) = curve_key(curve) {
                    curves
                        .entry(key)
                        .or_default()
                        .push((cuts.t_strip(p, j), reversed));
                }
            }
        }
        for c in (0..grid.columns()).step_by(2) {
            for i in 0..rows {
                let curve = [
                    grid.point(2 * i, c),
                    grid.point(2 * i + 1, c),
                    grid.point(2 * i + 2, c),
                ];
                if let Some((key, reversed)) = curve_key(curve) {
                    curves
                        .entry(key)
                        .or_default()
                        .push((cuts.s_strip(p, i), reversed));
                }
            }
        }
    }
    let mut links = Links::new(count);
    for sharing in curves.values() {
        let (a, ra) = sharing[0];
        for &(b, rb) in &sharing[1..] {
            links.link(a, b, ra != rb);
        }
    }
    let mut components: BTreeMap<usize, Vec<(usize, bool)>> = BTreeMap::new();
    for strip in 0..count {
        let (root, flipped) = links.find(strip);
        components.entry(root).or_default().push((strip, flipped));
    }
    let components: Vec<(bool, Vec<(usize, bool)>)> = components
        .into_iter()
        .filter(|(root, members)| members.len() > 1 || links.symmetric[*root])
        .map(|(root, members)| (links.symmetric[root], members))
        .collect();

    let min_width = 0.5f64.powi(MAX_LEVEL as i32);
    let mut split: Vec<Vec<bool>> = Vec::with_capacity(count);
    loop {
        // The work of a round is one bound per cell: past the budget, stop before it.
        if let Some(over) = over_budget(&cuts, patches.len(), max_facets) {
            return Err(over);
        }
        split.clear();
        split.extend(cuts.cuts.iter().map(|c| vec![false; c.len() - 1]));
        let mut any = false;
        for (p, grid) in patches.iter().enumerate() {
            let [rows, columns] = grid.pieces();
            for i in 0..rows {
                let s_strip = cuts.s_strip(p, i);
                for j in 0..columns {
                    let t_strip = cuts.t_strip(p, j);
                    let net = grid.piece([i, j]);
                    let (s_cuts, t_cuts) = (&cuts.cuts[s_strip], &cuts.cuts[t_strip]);
                    for k in 0..s_cuts.len() - 1 {
                        let s = [s_cuts[k], s_cuts[k + 1]];
                        for l in 0..t_cuts.len() - 1 {
                            let t = [t_cuts[l], t_cuts[l + 1]];
                            let bound = cell_bound(&net, s, t);
                            if bound.split() <= max_error {
                                continue;
                            }
                            let most = bound.bend_s.max(bound.bend_t).max(bound.twist);
                            let twisted = bound.twist >= 0.5 * most;
                            let cut_s =
                                (twisted || bound.bend_s >= 0.5 * most) && s[1] - s[0] > min_width;
                            let cut_t =
                                (twisted || bound.bend_t >= 0.5 * most) && t[1] - t[0] > min_width;
                            if cut_s && !split[s_strip][k] {
                                split[s_strip][k] = true;
                                any = true;
                            }
                            if cut_t && !split[t_strip][l] {
                                split[t_strip][l] = true;
                                any = true;
                            }
                        }
                    }
                }
            }
        }
        if !any {
            break;
        }
        for (strip, marks) in split.iter().enumerate() {
            if !marks.contains(&true) {
                continue;
            }
            let old = &cuts.cuts[strip];
            let mut new = Vec::with_capacity(old.len() * 2);
            for (k, &mark) in marks.iter().enumerate() {
                new.push(old[k]);
                if mark {
                    // Binary fractions stay binary fractions: halving is exact.
                    new.push(0.5 * (old[k] + old[k + 1]));
                }
            }
            new.push(1.0);
            cuts.cuts[strip] = new;
        }
        // Linked strips take the union of their cuts (mirrored where they run opposite).
        for (symmetric, members) in &components {
            let mut union: Vec<f64> = Vec::new();
            for &(strip, flipped) in members {
                union.extend(
                    cuts.cuts[strip]
                        .iter()
                        .map(|&c| if flipped { 1.0 - c } else { c }),
                );
            }
            if *symmetric {
                let mirrored: Vec<f64> = union.iter().map(|&c| 1.0 - c).collect();
                union.extend(mirrored);
            }
            union.sort_by(f64::total_cmp);
            union.dedup();
            for &(strip, flipped) in members {
                let mut mine: Vec<f64> = union
                    .iter()
                    .map(|&c| if flipped { 1.0 - c } else { c })
                    .collect();
                if flipped {
                    mine.reverse();
                }
                cuts.cuts[strip] = mine;
            }
        }
    }
    Ok(cuts)
}
