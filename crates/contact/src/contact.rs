//! Contacts: where, when and against what an agent touched something.

use std::fmt;

use cspace_geom::{BrushId, DVec3, Hit, Plane};

/// A stable agent id, as the scenario numbers agents (0, 1, 2, ...).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct AgentId(pub u32);

impl fmt::Display for AgentId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// What an agent touched.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ContactTarget {
    /// A world brush, with the configuration-space plane that was hit.
    World {
        /// The brush.
        brush: BrushId,
        /// The hit plane in the agent's configuration space (normal towards the agent).
        plane: Plane,
    },
    /// Another agent.
    Agent(AgentId),
}

/// One contact event (Golodetz: a contact is a point, a normal and a time).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Contact {
    /// The simulation step in which it happened.
    pub step: u64,
    /// The agent that moved into the contact.
    pub agent: AgentId,
    /// What it touched.
    pub other: ContactTarget,
    /// The contact point on the obstacle's surface, in world coordinates (units).
    pub point: DVec3,
    /// Unit normal pointing from the obstacle towards the agent.
    pub normal: DVec3,
    /// When, as a fraction of the move being traced, in `[0, 1]`.
    pub time_of_impact: f64,
    /// How deep the agent was already inside the obstacle when the move started (units); 0 for
    /// an ordinary contact.
    pub depth: f64,
}

impl Contact {
    /// The contact a backend hit describes, or `None` when the hit is a miss (or all solid).
    pub fn from_hit(step: u64, agent: AgentId, hit: &Hit) -> Option<Contact> {
        let surface = hit.surface()?;
        Some(Contact {
            step,
            agent,
            other: ContactTarget::World {
                brush: surface.brush,
                plane: surface.plane,
            },
            point: surface.point,
            normal: surface.plane.normal(),
            time_of_impact: surface.time_of_impact,
            depth: 0.0,
        })
    }
}
