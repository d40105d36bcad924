//! The peers: parry's ray and shape casts, and rapier's kinematic character controller.
//!
//! Both use their own glam (through glamx) at another version than ours; vectors cross the
//! boundary as plain `[f64; 3]` arrays ([`to_peer`], [`from_peer`]).

pub mod parry;
pub mod rapier;

use cspace_geom::DVec3;

/// Our vector as the peers' (glam inside parry/rapier), through a plain array.
pub fn to_peer(v: DVec3) -> parry3d_f64::math::Vector {
    parry3d_f64::math::Vector::from_array(v.to_array())
}

/// The peers' vector as ours, through a plain array.
pub fn from_peer(v: parry3d_f64::math::Vector) -> DVec3 {
    DVec3::from_array(v.to_array())
}
