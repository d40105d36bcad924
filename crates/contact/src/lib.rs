//! Contacts for cspace: where, when and against what agents touch the world and each other.
//!
//! - [`Contact`] is one contact event: step, agent, what was hit ([`ContactTarget`]: a world
//!   brush and plane, or another agent), point, normal (from the obstacle to the agent), time of
//!   impact and depth (Golodetz: a contact is a point, a normal and a time). World contacts come
//!   from backend hits ([`Contact::from_hit`]).
//! - [`time_of_impact`] is the exact swept time of impact between two agents (boxes, spheres,
//!   vertical cylinders) moving on straight lines.
//! - [`FilterStack`] is Blow's stack of cheap filters in front of that exact test (a grid,
//!   bounding spheres, bounding-box safety, a separating plane), each counting the definitive
//!   answers it gave, so Blow's effectiveness table can be printed for any run.

mod contact;
pub mod filter;
pub mod impact;

pub use contact::{AgentId, Contact, ContactTarget};
pub use filter::{FilterStack, FilterStats, Slot};
pub use impact::{Impact, UnsupportedPair, time_of_impact};
