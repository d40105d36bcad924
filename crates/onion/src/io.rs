//! Saving and loading compiled trees: a versioned, compact little-endian binary layout
//! (Hammersley's saved trees, with indices in place of child flags).
//!
//! ```text
//! magic   8 bytes  "ONIONBSP"
//! version u32      FORMAT_VERSION
//! world   u64      the fingerprint of the world compiled from (`World::fingerprint`)
//! counts  u32 x 4  poses, planes, nodes, leaves
//! poses            per pose: name length u32, UTF-8 name, mins f64 x 3, maxs f64 x 3
//! planes           per plane: normal f64 x 3, distance f64
//! nodes            per node: plane u32, front child u32, back child u32 (leaves tagged 1 << 31)
//! leaves           per leaf: solidity u64 (bit s: solid in space s)
//! checksum u64     FNV-1a 64 of every byte before it
//! ```
//!
//! Loading checks the magic, the version, every count against the bytes left, the checksum, and
//! then the tree's invariants ([`OnionTree::validate`]): a truncated or corrupted file is an
//! error, never a panic or a wrong tree.

use cspace_geom::Plane;
use cspace_geom::domain::vector;
pub use cspace_geom::world::fnv1a64;
use glam::DVec3;

use crate::pose::Pose;
use crate::tree::{NodeRef, OnionTree, PackedNode};
use crate::validate::InvalidTree;

/// The file's first bytes.
pub const MAGIC: [u8; 8] = *b"ONIONBSP";
/// The layout version written; loading refuses others.
pub const FORMAT_VERSION: u32 = 2;

/// Why a saved tree could not be loaded.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum LoadError {
    /// The file does not start with [`MAGIC`].
    #[error("not an onion tree file (bad magic)")]
    BadMagic,
    /// The layout version is not [`FORMAT_VERSION`].
    #[error(
        "onion tree format version {found} is not supported (this build reads {FORMAT_VERSION})"
    )]
    UnsupportedVersion {
        /// The version in the file.
        found: u32,
    },
    /// The file ends before the part it announces.
    #[error("truncated file: {what} needs {needed} bytes at offset {offset}, {left} left")]
    Truncated {
        /// What was being read.
        what: &'static str,
        /// Where.
        offset: usize,
        /// Bytes it needs.
        needed: usize,
        /// Bytes left.
        left: usize,
    },
    /// Bytes follow the checksum.
    #[error("{0} unexpected bytes after the checksum")]
    TrailingBytes(usize),
    /// The checksum does not match the contents.
    #[error("checksum mismatch: the file says {stored:#018x}, its contents give {computed:#018x}")]
    Checksum {
        /// The stored checksum.
        stored: u64,
        /// The checksum of the contents.
        computed: u64,
    },
    /// A pose's name is not UTF-8 or its box is not finite and ordered.
    #[error("pose {index}: {reason}")]
    BadPose {
        /// The pose's index.
        index: usize,
        /// What is wrong.
        reason: String,
    },
    /// A plane's normal is not a finite unit vector.
    #[error("plane {index} is not a finite plane with a unit normal")]
    BadPlane {
        /// The plane's index.
        index: usize,
    },
    /// The tree breaks an invariant.
    #[error(transparent)]
    Invalid(#[from] InvalidTree),
}

impl OnionTree {
    /// The tree in the binary layout of this module.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(
            64 + self.planes.len() * 32 + self.nodes.len() * 12 + self.leaves.len() * 8,
        );
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        out.extend_from_slice(&self.world.to_le_bytes());
        for count in [
            self.poses.len(),
            self.planes.len(),
            self.nodes.len(),
            self.leaves.len(),
        ] {
            out.extend_from_slice(&(count as u32).to_le_bytes());
        }
        let f64s = |out: &mut Vec<u8>, v: &[f64]| {
            for x in v {
                out.extend_from_slice(&x.to_le_bytes());
            }
        };
        for pose in &self.poses {
            out.extend_from_slice(&(pose.name.len() as u32).to_le_bytes());
            out.extend_from_slice(pose.name.as_bytes());
            f64s(&mut out, &pose.mins.to_array());
            f64s(&mut out, &pose.maxs.to_array());
        }
        for plane in &self.planes {
            f64s(&mut out, &plane.normal().to_array());
            f64s(&mut out, &[plane.dist()]);
        }
        for node in &self.nodes {
            for v in [node.plane, node.children[0], node.children[1]] {
                out.extend_from_slice(&v.to_le_bytes());
            }
        }
        for leaf in &self.leaves {
            out.extend_from_slice(&leaf.to_le_bytes());
        }
        let checksum = fnv1a64(&out);
        out.extend_from_slice(&checksum.to_le_bytes());
        out
    }

    /// Reads a tree written by [`OnionTree::to_bytes`], checking everything (see the module docs).
    pub fn from_bytes(bytes: &[u8]) -> Result<OnionTree, LoadError> {
        let mut r = Reader { bytes, at: 0 };
        if r.take(8, "magic")? != MAGIC {
            return Err(LoadError::BadMagic);
        }
        let version = r.u32("version")?;
        if version != FORMAT_VERSION {
            return Err(LoadError::UnsupportedVersion { found: version });
        }
        let world = r.u64("world fingerprint")?;
        let poses = r.count("pose count", 4 + 48)?;
        let planes = r.count("plane count", 32)?;
        let nodes = r.count("node count", 12)?;
        let leaves = r.count("leaf count", 8)?;
        let mut pose_list = Vec::with_capacity(poses);
        for index in 0..poses {
            let length = r.count("pose name length", 1)?;
            let name = std::str::from_utf8(r.take(length, "pose name")?)
                .map_err(|_| LoadError::BadPose {
                    index,
                    reason: "name is not UTF-8".into(),
                })?
                .to_owned();
            let mins = r.vec3("pose mins")?;
            let maxs = r.vec3("pose maxs")?;
            if !mins.is_finite() || !maxs.is_finite() || mins.cmpgt(maxs).any() {
                return Err(LoadError::BadPose {
                    index,
                    reason: format!(
                        "box {}..{} is not finite and ordered",
                        vector(mins),
                        vector(maxs)
                    ),
                });
            }
            pose_list.push(Pose { name, mins, maxs });
        }
        let mut plane_list = Vec::with_capacity(planes);
        for index in 0..planes {
            let normal = r.vec3("plane normal")?;
            let dist = r.f64("plane distance")?;
            plane_list
                .push(Plane::from_unit_normal(normal, dist).ok_or(LoadError::BadPlane { index })?);
        }
        let mut node_list = Vec::with_capacity(nodes);
        for _ in 0..nodes {
            let plane = r.u32("node plane")?;
            let front = r.u32("node front child")?;
            let back = r.u32("node back child")?;
            node_list.push(PackedNode {
                plane,
                children: [front, back],
            });
        }
        let mut leaf_list = Vec::with_capacity(leaves);
        for _ in 0..leaves {
            leaf_list.push(r.u64("leaf solidity")?);
        }
        let end = r.at;
        let stored = r.u64("checksum")?;
        if r.at != bytes.len() {
            return Err(LoadError::TrailingBytes(bytes.len() - r.at));
        }
        let computed = fnv1a64(&bytes[..end]);
        if stored != computed {
            return Err(LoadError::Checksum { stored, computed });
        }
        let mut tree = OnionTree::from_parts(pose_list, plane_list, node_list, leaf_list);
        tree.world = world;
        tree.validate()?;
        // The root of a tree without branches is leaf 0; keep `NodeRef` in use for clarity.
        debug_assert!(matches!(tree.root(), NodeRef::Node(_) | NodeRef::Leaf(0)));
        Ok(tree)
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, needed: usize, what: &'static str) -> Result<&'a [u8], LoadError> {
        let left = self.bytes.len() - self.at;
        if needed > left {
            return Err(LoadError::Truncated {
                what,
                offset: self.at,
                needed,
                left,
            });
        }
        let part = &self.bytes[self.at..self.at + needed];
        self.at += needed;
        Ok(part)
    }

    fn u32(&mut self, what: &'static str) -> Result<u32, LoadError> {
        Ok(u32::from_le_bytes(
            self.take(4, what)?.try_into().expect("4 bytes"),
        ))
    }

    fn u64(&mut self, what: &'static str) -> Result<u64, LoadError> {
        Ok(u64::from_le_bytes(
            self.take(8, what)?.try_into().expect("8 bytes"),
        ))
    }

    fn f64(&mut self, what: &'static str) -> Result<f64, LoadError> {
        Ok(f64::from_bits(self.u64(what)?))
    }

    fn vec3(&mut self, what: &'static str) -> Result<DVec3, LoadError> {
        Ok(DVec3::new(
            self.f64(what)?,
            self.f64(what)?,
            self.f64(what)?,
        ))
    }

    /// A count whose items take at least `item` bytes each: refused when the bytes left cannot
    /// hold them (so a corrupted count never allocates).
    fn count(&mut self, what: &'static str, item: usize) -> Result<usize, LoadError> {
        let offset = self.at;
        let count = self.u32(what)? as usize;
        let left = self.bytes.len() - self.at;
        let needed = count.saturating_mul(item);
        if needed > left {
            return Err(LoadError::Truncated {
                what,
                offset,
                needed,
                left,
            });
        }
        Ok(count)
    }
}
