//! A static bounding-volume tree over axis-aligned boxes, for culling brushes.
//!
//! Built once by median splits on the longest axis of the box centres; nodes live in one array
//! and queries use a fixed-size stack, so a query allocates nothing.

use glam::DVec3;

use crate::aabb::Aabb;

const LEAF_SIZE: usize = 4;
const MAX_DEPTH: usize = 64;

#[derive(Debug, Clone)]
struct Node {
    bounds: Aabb,
    /// For a leaf, the first item in `order`; for an inner node, the index of the right child
    /// (the left child is the next node).
    first_or_right: u32,
    /// Number of items for a leaf; 0 for an inner node.
    count: u32,
}

/// A static tree over item boxes; items are identified by their index in the input.
#[derive(Debug, Clone, Default)]
pub struct AabbTree {
    nodes: Vec<Node>,
    order: Vec<u32>,
    /// The item boxes, in `order`'s order (so a leaf's boxes are contiguous).
    boxes: Vec<Aabb>,
}

impl AabbTree {
    /// Builds the tree over `boxes` (the item ids are the indices).
    pub fn new(boxes: &[Aabb]) -> AabbTree {
        let mut tree = AabbTree {
            nodes: Vec::with_capacity(2 * boxes.len() / LEAF_SIZE + 1),
            order: (0..boxes.len() as u32).collect(),
            boxes: Vec::new(),
        };
        if !boxes.is_empty() {
            let mut order = std::mem::take(&mut tree.order);
            tree.build(boxes, &mut order, 0, 0);
            tree.order = order;
        }
        tree.boxes = tree.order.iter().map(|&i| boxes[i as usize]).collect();
        tree
    }

    fn build(&mut self, boxes: &[Aabb], order: &mut [u32], first: usize, depth: usize) -> usize {
        let bounds = order
            .iter()
            .fold(Aabb::EMPTY, |b, &i| b.merged(boxes[i as usize]));
        let index = self.nodes.len();
        if order.len() <= LEAF_SIZE || depth + 1 >= MAX_DEPTH {
            self.nodes.push(Node {
                bounds,
                first_or_right: first as u32,
                count: order.len() as u32,
            });
            return index;
        }
        let centres = order
            .iter()
            .fold(Aabb::EMPTY, |b, &i| b.including(boxes[i as usize].centre()));
        let size = centres.size();
        let axis = if size.x >= size.y && size.x >= size.z {
            0
        } else if size.y >= size.z {
            1
        } else {
            2
        };
        // Sort by centre then id: deterministic whatever the input's ties.
        order.sort_by(|&a, &b| {
            let (ca, cb) = (
                boxes[a as usize].centre()[axis],
                boxes[b as usize].centre()[axis],
            );
            ca.total_cmp(&cb).then(a.cmp(&b))
        });
        let mid = order.len() / 2;
        self.nodes.push(Node {
            bounds,
            first_or_right: 0,
            count: 0,
        });
        let (left, right) = order.split_at_mut(mid);
        self.build(boxes, left, first, depth + 1);
        let right_index = self.build(boxes, right, first + mid, depth + 1);
        self.nodes[index].first_or_right = right_index as u32;
        index
    }

    /// Calls `visit` with every item whose box intersects `query` (closed boxes).
    pub fn for_each_overlapping(&self, query: &Aabb, mut visit: impl FnMut(u32)) {
        self.traverse(|b| b.intersects(query), &mut visit);
    }

    /// Calls `visit` with every item whose box, grown by `margin` (a box relative to the moving
    /// point, as `Shape::bounds` gives), the segment `a -> b` passes through.
    pub fn for_each_along(&self, a: DVec3, b: DVec3, margin: &Aabb, mut visit: impl FnMut(u32)) {
        // Item box `B` is met by the moving box `margin + p` exactly when `p` is in
        // `[B.min - margin.max, B.max - margin.min]`.
        self.traverse(
            |bounds| {
                Aabb::new(bounds.min - margin.max, bounds.max - margin.min)
                    .segment_interval(a, b)
                    .is_some()
            },
            &mut visit,
        );
    }

    fn traverse(&self, mut accept: impl FnMut(&Aabb) -> bool, visit: &mut impl FnMut(u32)) {
        if self.nodes.is_empty() {
            return;
        }
        let mut stack = [0u32; MAX_DEPTH + 1];
        let mut top = 1;
        while top > 0 {
            top -= 1;
            let index = stack[top] as usize;
            let node = &self.nodes[index];
            if !accept(&node.bounds) {
                continue;
            }
            if node.count > 0 {
                let range =
                    node.first_or_right as usize..(node.first_or_right + node.count) as usize;
                for (&item, bounds) in self.order[range.clone()].iter().zip(&self.boxes[range]) {
                    if accept(bounds) {
                        visit(item);
                    }
                }
            } else {
                stack[top] = node.first_or_right;
                stack[top + 1] = index as u32 + 1;
                top += 2;
            }
        }
    }

    /// Bytes the tree occupies: the struct and its arrays (capacity, not just length).
    pub fn memory_bytes(&self) -> usize {
        std::mem::size_of::<AabbTree>()
            + self.nodes.capacity() * std::mem::size_of::<Node>()
            + self.order.capacity() * std::mem::size_of::<u32>()
            + self.boxes.capacity() * std::mem::size_of::<Aabb>()
    }

    /// The number of nodes (inner nodes and leaves).
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// The bounds of everything in the tree (empty for an empty tree).
    pub fn bounds(&self) -> Aabb {
        self.nodes.first().map_or(Aabb::EMPTY, |n| n.bounds)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_exactly_the_overlapping_boxes() {
        let mut boxes = Vec::new();
        let mut seed = 12345u64;
        let mut next = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 11) as f64 / (1u64 << 53) as f64
        };
        for _ in 0..500 {
            let min = DVec3::new(next(), next(), next()) * 1000.0;
            boxes.push(Aabb::new(
                min,
                min + DVec3::new(next(), next(), next()) * 50.0,
            ));
        }
        let tree = AabbTree::new(&boxes);
        for _ in 0..200 {
            let min = DVec3::new(next(), next(), next()) * 1000.0;
            let q = Aabb::new(min, min + DVec3::splat(80.0));
            let mut found = Vec::new();
            tree.for_each_overlapping(&q, |i| found.push(i));
            found.sort();
            let expected: Vec<u32> = (0..boxes.len() as u32)
                .filter(|&i| boxes[i as usize].intersects(&q))
                .collect();
            assert_eq!(found, expected);

            let a = DVec3::new(next(), next(), next()) * 1000.0;
            let b = a + DVec3::new(next() - 0.5, next() - 0.5, next() - 0.5) * 300.0;
            let margin = Aabb::new(DVec3::splat(-10.0), DVec3::splat(20.0));
            let mut found = Vec::new();
            tree.for_each_along(a, b, &margin, |i| found.push(i));
            found.sort();
            let expected: Vec<u32> = (0..boxes.len() as u32)
                .filter(|&i| {
                    let bx = boxes[i as usize];
                    Aabb::new(bx.min - margin.max, bx.max - margin.min)
                        .segment_interval(a, b)
                        .is_some()
                })
                .collect();
            assert_eq!(found, expected);
        }
    }
}
