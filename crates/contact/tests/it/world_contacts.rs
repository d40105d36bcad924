//! World contacts come from backend hits, with the normal pointing from the obstacle to the agent.

use std::sync::Arc;

use cspace_contact::{AgentId, Contact, ContactTarget};
use cspace_geom::{Aabb, Brush, Collider, DVec3, ExactCollider, Shape, WithContext, World};

#[test]
fn a_wall_hit_becomes_a_contact() {
    let wall = Brush::from_aabb(Aabb::new(
        DVec3::new(64.0, -64.0, -64.0),
        DVec3::new(80.0, 64.0, 64.0),
    ))
    .unwrap();
    let mut exact = WithContext::new(ExactCollider::new(Arc::new(World::from_brushes([wall]))));
    let shape = exact.prepare(&Shape::new_sphere(8.0).unwrap()).unwrap();
    let hit = exact.trace(&shape, DVec3::ZERO, DVec3::new(100.0, 0.0, 0.0));
    let contact = Contact::from_hit(7, AgentId(3), &hit).unwrap();
    assert_eq!(contact.step, 7);
    assert_eq!(contact.agent, AgentId(3));
    assert!(matches!(contact.other, ContactTarget::World { brush, .. } if brush.0 == 0));
    assert_eq!(contact.normal, DVec3::NEG_X);
    assert!(contact.point.abs_diff_eq(DVec3::new(64.0, 0.0, 0.0), 1e-9));
    assert!((contact.time_of_impact - 0.56).abs() < 1e-12);
    let miss = exact.trace(&shape, DVec3::ZERO, DVec3::new(-10.0, 0.0, 0.0));
    assert!(Contact::from_hit(7, AgentId(3), &miss).is_none());
}
