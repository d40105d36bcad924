//! The scenario file as written: serde structs that keep the byte spans of what they read
//! (`toml::Spanned`), with unknown fields refused. [`super::check`] checks them into a
//! [`super::Scenario`].

use std::collections::BTreeMap;

use serde::Deserialize;
use toml::Spanned;

use crate::numbers::Numbers;
use crate::world_file::WorldSpec;
use cspace_sim::params::MoveParams;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawScenario {
    pub(super) name: Spanned<String>,
    #[serde(default)]
    pub(super) description: String,
    pub(super) time_step: Spanned<f64>,
    pub(super) steps: Spanned<i64>,
    #[serde(default)]
    pub(super) sample_every: Option<Spanned<i64>>,
    #[serde(default)]
    pub(super) backends: Option<Vec<Spanned<String>>>,
    #[serde(default)]
    pub(super) tolerance: Option<Spanned<f64>>,
    #[serde(default)]
    pub(super) expected_difference: Vec<Spanned<RawExpectedDifference>>,
    #[serde(default)]
    pub(super) params: Option<Spanned<MoveParams>>,
    #[serde(default)]
    pub(super) movement: Option<Spanned<String>>,
    pub(super) world: Spanned<WorldSpec>,
    #[serde(default)]
    pub(super) poses: BTreeMap<String, Spanned<RawPose>>,
    #[serde(default, rename = "agent")]
    pub(super) agents: Vec<Spanned<RawAgent>>,
    #[serde(default, rename = "crowd")]
    pub(super) crowds: Vec<Spanned<RawCrowd>>,
    #[serde(default, rename = "expect")]
    pub(super) expectations: Vec<Spanned<RawExpect>>,
    #[serde(default)]
    pub(super) seed: Option<Spanned<i64>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawExpectedDifference {
    #[serde(default)]
    pub(super) backends: Option<Spanned<Vec<Spanned<String>>>>,
    #[serde(default)]
    pub(super) between: Option<Spanned<Vec<Spanned<String>>>>,
    #[serde(default)]
    pub(super) and: Option<Spanned<Vec<Spanned<String>>>>,
    pub(super) tolerance: Spanned<f64>,
    pub(super) reason: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawPose {
    #[serde(default, rename = "box")]
    pub(super) aabb: Option<RawBox>,
    #[serde(default)]
    pub(super) sphere: Option<f64>,
    #[serde(default)]
    pub(super) cylinder: Option<RawCylinder>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawBox {
    pub(super) mins: Spanned<Numbers<3>>,
    pub(super) maxs: Spanned<Numbers<3>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawCylinder {
    pub(super) radius: f64,
    pub(super) half_height: f64,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawAgent {
    #[serde(default)]
    pub(super) name: Option<Spanned<String>>,
    pub(super) pose: Spanned<String>,
    #[serde(default)]
    pub(super) crouch_pose: Option<Spanned<String>>,
    #[serde(default)]
    pub(super) start: Option<Spanned<Numbers<3>>>,
    #[serde(default)]
    pub(super) spawn: Option<Spanned<i64>>,
    #[serde(default)]
    pub(super) velocity: Option<Spanned<Numbers<3>>>,
    #[serde(default)]
    pub(super) crouched: bool,
    #[serde(default)]
    pub(super) allow_start_in_solid: bool,
    #[serde(default)]
    pub(super) script: Vec<Spanned<RawScriptEvent>>,
}

/// A block of agents on a grid, all with the same pose and script.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawCrowd {
    pub(super) pose: Spanned<String>,
    #[serde(default)]
    pub(super) crouch_pose: Option<Spanned<String>>,
    pub(super) origin: Spanned<Numbers<3>>,
    pub(super) rows: Spanned<i64>,
    pub(super) columns: Spanned<i64>,
    pub(super) spacing: Spanned<Numbers<2>>,
    #[serde(default)]
    pub(super) script: Vec<Spanned<RawScriptEvent>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawScriptEvent {
    pub(super) at: Spanned<f64>,
    #[serde(default, rename = "move")]
    pub(super) direction: Option<Spanned<Numbers<2>>>,
    #[serde(default)]
    pub(super) speed: Option<Spanned<f64>>,
    #[serde(default)]
    pub(super) jump: bool,
    #[serde(default)]
    pub(super) crouch: bool,
    #[serde(default)]
    pub(super) stand: bool,
    #[serde(default)]
    pub(super) stop: bool,
    #[serde(default)]
    pub(super) goto: Option<Spanned<RawGoto>>,
    /// `[yaw, pitch]`, degrees.
    #[serde(default)]
    pub(super) view: Option<Spanned<Numbers<2>>>,
}

/// Where a goto sends an agent: a point, or a spawn point of the map.
#[derive(Debug, Deserialize)]
#[serde(untagged, expecting = "goto: expected [x, y, z] or { spawn = N }")]
pub(super) enum RawGoto {
    Point(Numbers<3>),
    Spawn { spawn: i64 },
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub(super) enum RawAgentRef {
    Index(i64),
    Name(String),
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawRegion {
    pub(super) min: Spanned<Numbers<3>>,
    pub(super) max: Spanned<Numbers<3>>,
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub(super) enum RawContactTarget {
    Agent(i64),
    Kind(String),
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawExpect {
    pub(super) agent: Spanned<RawAgentRef>,
    #[serde(default)]
    pub(super) reaches: Option<Spanned<RawRegion>>,
    #[serde(default)]
    pub(super) by: Option<Spanned<f64>>,
    #[serde(default)]
    pub(super) never_reaches: Option<Spanned<RawRegion>>,
    #[serde(default)]
    pub(super) ends_on_ground: Option<bool>,
    #[serde(default)]
    pub(super) stays_crouched: Option<bool>,
    #[serde(default)]
    pub(super) from: Option<Spanned<f64>>,
    #[serde(default)]
    pub(super) no_contacts_with: Option<Spanned<RawContactTarget>>,
    #[serde(default)]
    pub(super) leaves_world: Option<bool>,
    #[serde(default)]
    pub(super) arrives: Option<bool>,
    #[serde(default)]
    pub(super) rides: Option<Spanned<RawAgentRef>>,
    #[serde(default)]
    pub(super) uses_teleporter: Option<Spanned<RawTeleporterRef>>,
    #[serde(default)]
    pub(super) triggers: Option<Spanned<RawAgentRef>>,
    #[serde(default)]
    pub(super) swims: Option<bool>,
    #[serde(default)]
    pub(super) water_level: Option<Spanned<RawWaterLevel>>,
}

/// `uses_teleporter = true | false | <entity index>`.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub(super) enum RawTeleporterRef {
    Used(bool),
    Entity(i64),
}

/// `water_level = { at_least = N, by = T }`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawWaterLevel {
    pub(super) at_least: Spanned<i64>,
    #[serde(default)]
    pub(super) by: Option<Spanned<f64>>,
}
