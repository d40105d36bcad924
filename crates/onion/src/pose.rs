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

    /// The line of sight's cube, `sight`, of half side [`SIGHT_HALF`] (1/32 unit): its space is
    /// the plain solid BSP grown by 1/32, in which patch facets, which a point passes through,
    /// are slabs 1/16 unit thick (`cspace-nav`'s `LineOfSight`; docs/patches.md).
    ///
    /// [`SIGHT_HALF`]: cspace_geom::tolerance::SIGHT_HALF
    pub fn sight() -> Pose {
        let h = DVec3::splat(cspace_geom::tolerance::SIGHT_HALF);
        Pose::new("sight", -h, h)
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

    /// True when this pose's box contains `other`'s (`mins <=` and `maxs >=` on every axis): a
    /// position solid for `other` is then solid for this pose (the nesting invariant).
    pub fn contains(&self, other: &Pose) -> bool {
        self.mins.cmple(other.mins).all() && self.maxs.cmpge(other.maxs).all()
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

/// The pose's box as an agent shape (what [`cspace_geom::Collider::prepare`] takes for this pose).
/// The compiler refuses poses whose box is not a valid shape ([`crate::CompileError`]).
impl From<&Pose> for cspace_geom::Shape {
    fn from(pose: &Pose) -> cspace_geom::Shape {
        cspace_geom::Shape::Box(cspace_geom::BoxShape {
            mins: pose.mins,
            maxs: pose.maxs,
        })
    }
}

/// Why a `name=minx,miny,minz,maxx,maxy,maxz` pose could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("pose '{text}': {reason} (expected name=minx,miny,minz,maxx,maxy,maxz)")]
pub struct PoseParseError {
    /// The text given.
    pub text: String,
    /// What is wrong.
    pub reason: String,
}

impl std::str::FromStr for Pose {
    type Err = PoseParseError;

    /// Reads `name=minx,miny,minz,maxx,maxy,maxz` (the command line's `--pose`); the box must be
    /// finite with `mins <= maxs`.
    fn from_str(text: &str) -> Result<Pose, PoseParseError> {
        let error = |reason: String| PoseParseError {
            text: text.to_owned(),
            reason,
        };
        let (name, numbers) = text.split_once('=').ok_or_else(|| error("no '='".into()))?;
        let name = name.trim();
        if name.is_empty() {
            return Err(error("empty name".into()));
        }
        let values = numbers
            .split(',')
            .map(|v| {
                v.trim()
                    .parse::<f64>()
                    .map_err(|_| error(format!("'{}' is not a number", v.trim())))
            })
            .collect::<Result<Vec<f64>, _>>()?;
        let [a, b, c, d, e, f] = values[..] else {
            return Err(error(format!("{} numbers, not 6", values.len())));
        };
        let (mins, maxs) = (DVec3::new(a, b, c), DVec3::new(d, e, f));
        if !mins.is_finite() || !maxs.is_finite() {
            return Err(error("a corner is not finite".into()));
        }
        if mins.cmpgt(maxs).any() {
            return Err(error(format!("mins {mins} exceed maxs {maxs}")));
        }
        Ok(Pose::new(name, mins, maxs))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn poses_read_back_what_describe_writes() {
        for pose in [
            Pose::quake_standing(),
            Pose::quake_crouching(),
            Pose::quake_large(),
            Pose::point(),
        ] {
            assert_eq!(pose.describe().parse::<Pose>().unwrap(), pose);
        }
        let p: Pose = "crouch = -16, -16, -24, 16, 16, 16".parse().unwrap();
        assert_eq!(p, Pose::quake_crouching());
    }

    #[test]
    fn bad_poses_say_why() {
        for (text, why) in [
            ("stand", "no '='"),
            ("=1,1,1,2,2,2", "empty name"),
            ("a=1,2,3", "3 numbers"),
            ("a=1,2,x,4,5,6", "'x' is not a number"),
            ("a=1,1,1,0,2,2", "exceed"),
            ("a=inf,1,1,2,2,2", "not finite"),
        ] {
            let e = text.parse::<Pose>().unwrap_err();
            assert!(e.to_string().contains(why), "{text}: {e}");
        }
    }
}
