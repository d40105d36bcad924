//! A naive solid BSP for unit tests: every brush face is a splitter, brushes are cut into pieces
//! as they go down (the onion compiler builds the real trees).

use cspace_geom::tolerance::{NORMAL_EQUAL, PLANE_THICKNESS};
use cspace_geom::{Brush, Plane};

use crate::polyhedron::ConvexPolyhedron;
use crate::tree::{BspRef, PlainBsp};

/// A solid BSP over brushes.
pub(crate) struct NaiveBsp {
    nodes: Vec<(Plane, [BspRef; 2])>,
    solid: Vec<bool>,
    root: BspRef,
}

impl NaiveBsp {
    pub(crate) fn new(brushes: &[Brush]) -> NaiveBsp {
        let mut bsp = NaiveBsp {
            nodes: Vec::new(),
            solid: Vec::new(),
            root: BspRef::Leaf(0),
        };
        let pieces = brushes
            .iter()
            .map(|b| (ConvexPolyhedron::from_brush(b), b.planes().collect()))
            .collect();
        bsp.root = bsp.build(pieces);
        bsp
    }

    fn leaf(&mut self, solid: bool) -> BspRef {
        self.solid.push(solid);
        BspRef::Leaf(self.solid.len() as u32 - 1)
    }

    fn build(&mut self, pieces: Vec<(ConvexPolyhedron, Vec<Plane>)>) -> BspRef {
        if pieces.is_empty() {
            return self.leaf(false);
        }
        if pieces.iter().any(|(_, remaining)| remaining.is_empty()) {
            return self.leaf(true);
        }
        let splitter = pieces[0].1[0];
        let same = |p: &Plane| p.approx_eq(&splitter, NORMAL_EQUAL, PLANE_THICKNESS);
        let (mut front, mut back) = (Vec::new(), Vec::new());
        for (piece, remaining) in pieces {
            let remaining: Vec<Plane> = remaining.into_iter().filter(|p| !same(p)).collect();
            let (f, b) = piece.split(&splitter);
            if let Some(f) = f {
                front.push((f, remaining.clone()));
            }
            if let Some(b) = b {
                back.push((b, remaining));
            }
        }
        let index = self.nodes.len() as u32;
        self.nodes.push((splitter, [BspRef::Leaf(0); 2]));
        let f = self.build(front);
        let b = self.build(back);
        self.nodes[index as usize].1 = [f, b];
        BspRef::Node(index)
    }
}

impl PlainBsp for NaiveBsp {
    fn root(&self) -> BspRef {
        self.root
    }
    fn plane(&self, node: u32) -> Plane {
        self.nodes[node as usize].0
    }
    fn children(&self, node: u32) -> [BspRef; 2] {
        self.nodes[node as usize].1
    }
    fn is_solid(&self, leaf: u32) -> bool {
        self.solid[leaf as usize]
    }
}
