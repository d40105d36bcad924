//! Agent box poses: one configuration space each.

use glam::DVec3;

/// An agent box pose (Quake's `mins`/`maxs`, relative to the agent's origin): the onion tree
/// holds one configuration space per pose.
#[derive(Debug, Clone, PartialEq)]
pub struct Pose {
    /// The pose's name (`stand`, `crouch`, ...), for messages and statistics.
    pub name: String,
    /// The box's minimum corner relative to the origin, in units.
    pub mins: DVec3,
    /// The box's maximum corner relative to the origin, in units.
    pub maxs: DVec3,
}

impl Pose {
    /// A pose with a name and box corners.
    pub fn new(name: impl Into<String>, mins: DVec3, maxs: DVec3) -> Pose {
        Pose {
            name: name.into(),
            mins,
            maxs,
        }
    }

    /// The zero-size box: the plain solid BSP of the world (point and ray queries; Melax).
    pub fn point() -> Pose {
        Pose::new("point", DVec3::ZERO, DVec3::ZERO)
    }

    /// Quake's standing player, `(-16,-16,-24)..(16,16,32)`.
    pub fn quake_standing() -> Pose {
        Pose::new(
            "stand",
            DVec3::new(-16.0, -16.0, -24.0),
            DVec3::new(16.0, 16.0, 32.0),
        )
    }

    /// Quake's crouching player, `(-16,-16,-24)..(16,16,16)`.
    pub fn quake_crouching() -> Pose {
        Pose::new(
            "crouch",
            DVec3::new(-16.0, -16.0, -24.0),
            DVec3::new(16.0, 16.0, 16.0),
        )
    }

    /// Quake's large hull, `(-32,-32,-24)..(32,32,64)`.
    pub fn quake_large() -> Pose {
        Pose::new(
            "large",
            DVec3::new(-32.0, -32.0, -24.0),
            DVec3::new(32.0, 32.0, 64.0),
        )
    }

    /// True when the pose's box is `mins..maxs` exactly.
    pub fn is_box(&self, mins: DVec3, maxs: DVec3) -> bool {
        self.mins == mins && self.maxs == maxs
    }

    /// `name=minx,miny,minz,maxx,maxy,maxz`, as the command line writes a pose.
    pub fn describe(&self) -> String {
        let (a, b) = (self.mins, self.maxs);
        format!(
            "{}={},{},{},{},{},{}",
            self.name, a.x, a.y, a.z, b.x, b.y, b.z
        )
    }
}
