//! The plain tree from the onion compiler: one configuration space, the zero-size pose (DESIGN.md:
//! "A compiled tree with a single configuration space of a zero-size box is the plain solid BSP
//! used for point/ray queries and by Melax"), then bevelled (Section 5's order: compute the BSP
//! tree, bevel, expand at query time).

use cspace_geom::World;
use cspace_onion::{CompileError, CompileOptions, Compiled, NodeRef, OnionTree, Pose};

use crate::bevel::BevelMode;
use crate::tree::{BspRef, MelaxTree, PlainBsp};

/// Why a tree could not be built.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum MelaxError {
    /// The onion compiler refused the world.
    #[error("compiling the plain BSP: {0}")]
    Compile(#[from] CompileError),
}

/// The onion tree's space 0 as a plain BSP.
#[derive(Debug, Clone, Copy)]
pub struct PointSpace<'a>(pub &'a OnionTree);

fn convert(r: NodeRef) -> BspRef {
    match r {
        NodeRef::Node(n) => BspRef::Node(n),
        NodeRef::Leaf(l) => BspRef::Leaf(l),
    }
}

impl PlainBsp for PointSpace<'_> {
    fn root(&self) -> BspRef {
        convert(self.0.root())
    }
    fn plane(&self, node: u32) -> cspace_geom::Plane {
        self.0.node_plane(node)
    }
    fn children(&self, node: u32) -> [BspRef; 2] {
        self.0.node_children(node).map(convert)
    }
    fn is_solid(&self, leaf: u32) -> bool {
        self.0.leaf_is_solid(leaf, 0)
    }
}

/// Compiles `world`'s plain solid BSP with the onion compiler (the point pose alone).
pub fn compile_plain(world: &World, options: &CompileOptions) -> Result<Compiled, MelaxError> {
    Ok(cspace_onion::compile(world, &[Pose::point()], options)?)
}

/// Compiles `world`'s plain BSP (default onion options) and bevels it with `bevel`.
pub fn compile(world: &World, bevel: BevelMode) -> Result<MelaxTree, MelaxError> {
    let plain = compile_plain(world, &CompileOptions::default())?;
    Ok(MelaxTree::from_bsp(world, &PointSpace(&plain.tree), bevel))
}
