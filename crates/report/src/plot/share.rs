//! Lines that lie on one another: where several agents' paths run within a line's width of each
//! other on screen (the tunnel's croucher and riser at one height in the side view, agents
//! following one another), each agent would hide the ones drawn before it. Such a stretch is
//! drawn instead in alternating dashes, one dash per agent in turn, in every agent's colour: the
//! lines stay where the data puts them (no offset that would misstate a height), and every agent
//! on the stretch shows.
//!
//! How: each path is cut into pieces of [`PIECE`] pixels; a piece is shared with another agent
//! when a piece of that agent lies within [`NEAR`] pixels of it; the agents on a shared piece
//! take the dashes in turn by the piece's screen position (along x, or y for steep pieces, in
//! steps of [`DASH`] pixels), so coinciding pieces of different agents agree on whose dash it
//! is. An agent draws the pieces that are its own and its turns on shared ones.

use std::collections::BTreeMap;

/// The length of a piece, pixels.
const PIECE: f64 = 3.0;
/// How close two pieces are to be one stretch, pixels (a line is 2 wide).
const NEAR: f64 = 2.5;
/// The length of a dash on a shared stretch, pixels.
pub(super) const DASH: f64 = 9.0;

/// An agent and the middle of one of its pieces, pixels.
type Middle = (usize, (f64, f64));

/// A piece of a path: its ends and middle, pixels.
#[derive(Debug, Clone, Copy)]
struct Piece {
    from: (f64, f64),
    to: (f64, f64),
    middle: (f64, f64),
}

/// What each agent draws of its path (pixels, y down): the polylines of the pieces that are its
/// own. `paths[i]` is agent `i`'s path in pixels (any length, possibly empty).
pub(super) fn own_stretches(paths: &[Vec<(f64, f64)>]) -> Vec<Vec<Vec<(f64, f64)>>> {
    let pieces: Vec<Vec<Piece>> = paths.iter().map(|p| cut(p)).collect();
    // Every piece's middle by grid cell (cells of NEAR pixels: a neighbour within NEAR lies in
    // the 3 x 3 cells around).
    let cell = |p: (f64, f64)| ((p.0 / NEAR).floor() as i64, (p.1 / NEAR).floor() as i64);
    let mut grid: BTreeMap<(i64, i64), Vec<Middle>> = BTreeMap::new();
    for (agent, list) in pieces.iter().enumerate() {
        for p in list {
            grid.entry(cell(p.middle))
                .or_default()
                .push((agent, p.middle));
        }
    }
    pieces
        .iter()
        .enumerate()
        .map(|(agent, list)| {
            let mut out: Vec<Vec<(f64, f64)>> = Vec::new();
            let mut open = false;
            for p in list {
                let (cx, cy) = cell(p.middle);
                let mut sharing = vec![agent];
                for dx in -1..=1 {
                    for dy in -1..=1 {
                        for &(other, m) in grid.get(&(cx + dx, cy + dy)).into_iter().flatten() {
                            let d = (m.0 - p.middle.0).hypot(m.1 - p.middle.1);
                            if other != agent && d <= NEAR && !sharing.contains(&other) {
                                sharing.push(other);
                            }
                        }
                    }
                }
                sharing.sort_unstable();
                let steep = (p.to.1 - p.from.1).abs() > (p.to.0 - p.from.0).abs();
                let along = if steep { p.middle.1 } else { p.middle.0 };
                let turn = (along / DASH).floor().rem_euclid(sharing.len() as f64) as usize;
                let mine = sharing.len() == 1 || sharing[turn] == agent;
                if mine {
                    if !open {
                        out.push(vec![p.from]);
                        open = true;
                    }
                    out.last_mut().expect("opened").push(p.to);
                } else {
                    open = false;
                }
            }
            out
        })
        .collect()
}

/// `path` cut into pieces of at most [`PIECE`] pixels.
fn cut(path: &[(f64, f64)]) -> Vec<Piece> {
    let mut out = Vec::new();
    for w in path.windows(2) {
        let (a, b) = (w[0], w[1]);
        let length = (b.0 - a.0).hypot(b.1 - a.1);
        let n = (length / PIECE).ceil().max(1.0) as usize;
        for k in 0..n {
            let at = |t: f64| (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t);
            let (t0, t1) = (k as f64 / n as f64, (k + 1) as f64 / n as f64);
            out.push(Piece {
                from: at(t0),
                to: at(t1),
                middle: at(0.5 * (t0 + t1)),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn length(lines: &[Vec<(f64, f64)>]) -> f64 {
        lines
            .iter()
            .flat_map(|l| l.windows(2))
            .map(|w| (w[1].0 - w[0].0).hypot(w[1].1 - w[0].1))
            .sum()
    }

    /// Two agents on one line share it dash for dash; a third apart keeps its whole line.
    #[test]
    fn coinciding_paths_take_turns_and_a_separate_one_is_whole() {
        let line = vec![(0.0, 10.0), (300.0, 10.0)];
        let apart = vec![(0.0, 50.0), (300.0, 50.0)];
        let own = own_stretches(&[line.clone(), line.clone(), apart]);
        let (a, b, c) = (length(&own[0]), length(&own[1]), length(&own[2]));
        assert!((c - 300.0).abs() < 1e-9, "{c}");
        assert!((a + b - 300.0).abs() < 1e-6, "{a} + {b}");
        assert!((a - b).abs() <= 2.0 * DASH, "{a} against {b}");
        assert!(own[0].len() > 10, "{} dashes", own[0].len());
    }

    /// A path that joins another for a while is whole before and after.
    #[test]
    fn only_the_shared_stretch_is_dashed() {
        let a = vec![(0.0, 0.0), (300.0, 0.0)];
        let b = vec![(100.0, 60.0), (100.0, 0.0), (200.0, 0.0), (200.0, 60.0)];
        let own = own_stretches(&[a, b]);
        let b_len = length(&own[1]);
        assert!(b_len > 120.0 && b_len < 180.0, "{b_len}");
        let a_len = length(&own[0]);
        assert!(a_len > 240.0 && a_len < 260.0, "{a_len}");
    }
}
