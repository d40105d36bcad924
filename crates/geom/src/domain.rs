//! The numeric domain (DESIGN.md "Numeric domain"): the limits of [`crate::tolerance`] checked,
//! with errors that name the value, the limit and the constant that sets it.
//!
//! | quantity | limit | constant |
//! |---|---|---|
//! | world geometry and agent positions | +-2^19 units | [`MAX_COORDINATE`] |
//! | trace endpoints | +-2^20 units | [`WORLD_HALF_EXTENT`] |
//! | a shape's reach from its origin | 2^16 units | [`MAX_SHAPE_EXTENT`] |
//! | speed | 2^16 units/s | [`MAX_SPEED`] |
//! | acceleration | 2^16 units/s^2 | [`MAX_ACCELERATION`] |
//! | acceleration and friction factors | 2^16 per second | [`MAX_RATE`] |
//! | time step | 1 s | [`MAX_TIME_STEP`] |
//!
//! Each entry point checks what it is given: shapes when they are built ([`crate::Shape`]), brushes
//! and patches where the map and world readers make them, scenarios and `sim trace` segments in
//! the simulator. The [`Collider`](crate::Collider) queries take the domain as a precondition,
//! checked by debug assertions ([`debug_check_trace`]); inside it every backend's answer is
//! finite.

use std::fmt;

use glam::DVec3;

use crate::tolerance::{
    MAX_ACCELERATION, MAX_COORDINATE, MAX_RATE, MAX_SHAPE_EXTENT, MAX_SPEED, MAX_TIME_STEP,
    WORLD_HALF_EXTENT,
};

/// What a limited number measures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Quantity {
    /// A coordinate of the world's geometry or of an agent's position.
    Coordinate,
    /// A coordinate of a trace's start or end.
    TraceCoordinate,
    /// How far a shape reaches from its origin along an axis.
    ShapeExtent,
    /// A speed.
    Speed,
    /// An acceleration.
    Acceleration,
    /// An acceleration or friction factor.
    Rate,
    /// A time step.
    TimeStep,
}

impl Quantity {
    /// The largest magnitude allowed.
    pub const fn limit(self) -> f64 {
        match self {
            Quantity::Coordinate => MAX_COORDINATE,
            Quantity::TraceCoordinate => WORLD_HALF_EXTENT,
            Quantity::ShapeExtent => MAX_SHAPE_EXTENT,
            Quantity::Speed => MAX_SPEED,
            Quantity::Acceleration => MAX_ACCELERATION,
            Quantity::Rate => MAX_RATE,
            Quantity::TimeStep => MAX_TIME_STEP,
        }
    }

    fn unit(self) -> &'static str {
        match self {
            Quantity::Coordinate | Quantity::TraceCoordinate | Quantity::ShapeExtent => "units",
            Quantity::Speed => "units/s",
            Quantity::Acceleration => "units/s^2",
            Quantity::Rate => "per second",
            Quantity::TimeStep => "s",
        }
    }

    fn constant(self) -> &'static str {
        match self {
            Quantity::Coordinate => "MAX_COORDINATE",
            Quantity::TraceCoordinate => "WORLD_HALF_EXTENT",
            Quantity::ShapeExtent => "MAX_SHAPE_EXTENT",
            Quantity::Speed => "MAX_SPEED",
            Quantity::Acceleration => "MAX_ACCELERATION",
            Quantity::Rate => "MAX_RATE",
            Quantity::TimeStep => "MAX_TIME_STEP",
        }
    }
}

impl fmt::Display for Quantity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Quantity::Coordinate | Quantity::TraceCoordinate => "coordinate",
            Quantity::ShapeExtent => "shape size",
            Quantity::Speed => "speed",
            Quantity::Acceleration => "acceleration",
            Quantity::Rate => "rate",
            Quantity::TimeStep => "time step",
        })
    }
}

/// A number outside the domain: not finite, or larger in magnitude than its quantity's limit.
#[derive(Debug, Clone, Copy, PartialEq, thiserror::Error)]
pub struct OutOfDomain {
    /// What the number measures.
    pub quantity: Quantity,
    /// The number given.
    pub value: f64,
}

impl fmt::Display for OutOfDomain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let q = self.quantity;
        if !self.value.is_finite() {
            return write!(f, "{q} {} is not a finite number", self.value);
        }
        write!(
            f,
            "{q} {} {} is beyond cspace's limit of {} {} (tolerance::{})",
            number(self.value),
            q.unit(),
            number(q.limit()),
            q.unit(),
            q.constant()
        )
    }
}

/// `value` if it is finite and within `quantity`'s limit in magnitude.
pub fn check(quantity: Quantity, value: f64) -> Result<f64, OutOfDomain> {
    if value.abs() <= quantity.limit() {
        Ok(value)
    } else {
        Err(OutOfDomain { quantity, value })
    }
}

/// `point` if every component is finite and within `quantity`'s limit; otherwise the error names
/// the first component out of it.
pub fn check_point(quantity: Quantity, point: DVec3) -> Result<DVec3, OutOfDomain> {
    for value in point.to_array() {
        check(quantity, value)?;
    }
    Ok(point)
}

/// `velocity` if its length is finite and at most [`MAX_SPEED`] (a component beyond it, or not
/// finite, is named itself: the length of `(0, 0, -1e300)` is 1e300, not an overflow).
pub fn check_velocity(velocity: DVec3) -> Result<DVec3, OutOfDomain> {
    check_point(Quantity::Speed, velocity)?;
    check(Quantity::Speed, velocity.length()).map(|_| velocity)
}

/// A trace's endpoints, if both are within [`WORLD_HALF_EXTENT`] on every axis.
pub fn check_trace(start: DVec3, end: DVec3) -> Result<(), OutOfDomain> {
    check_point(Quantity::TraceCoordinate, start)?;
    check_point(Quantity::TraceCoordinate, end)?;
    Ok(())
}

/// The [`Collider`](crate::Collider) precondition, asserted in debug builds: a trace's endpoints
/// within [`WORLD_HALF_EXTENT`] (outside it a release build's answer is not specified).
#[inline]
#[track_caller]
pub fn debug_check_trace(start: DVec3, end: DVec3) {
    if cfg!(debug_assertions)
        && let Err(e) = check_trace(start, end)
    {
        panic!("trace from {start} to {end} is outside the numeric domain: {e}");
    }
}

/// A number for messages: plain within `[1e-4, 1e9)` in magnitude (`524288`, `0.066`), in
/// exponent form beyond (`1e15`, `-1.5e308`), so that a huge value never prints hundreds of
/// digits.
pub fn number(value: f64) -> impl fmt::Display {
    struct Number(f64);
    impl fmt::Display for Number {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            let m = self.0.abs();
            // not a tolerance: where plain digits stop being readable
            if m == 0.0 || !m.is_finite() || (1e-4..1e9).contains(&m) {
                write!(f, "{}", self.0)
            } else {
                write!(f, "{:e}", self.0)
            }
        }
    }
    Number(value)
}

/// A vector for messages, `[x, y, z]` with each component as [`number`] writes it.
pub fn vector(v: DVec3) -> impl fmt::Display {
    struct Vector(DVec3);
    impl fmt::Display for Vector {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            let v = self.0;
            write!(f, "[{}, {}, {}]", number(v.x), number(v.y), number(v.z))
        }
    }
    Vector(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_are_inclusive_and_non_finite_is_out() {
        assert_eq!(
            check(Quantity::Coordinate, MAX_COORDINATE),
            Ok(MAX_COORDINATE)
        );
        assert_eq!(
            check(Quantity::Coordinate, -MAX_COORDINATE),
            Ok(-MAX_COORDINATE)
        );
        assert!(check(Quantity::Coordinate, MAX_COORDINATE.next_up()).is_err());
        assert!(check(Quantity::Speed, f64::NAN).is_err());
        assert!(check(Quantity::TimeStep, f64::INFINITY).is_err());
        assert!(check_velocity(DVec3::new(MAX_SPEED, MAX_SPEED, 0.0)).is_err());
        assert!(check_velocity(DVec3::new(0.0, f64::NAN, 0.0)).is_err());
        assert!(check_trace(DVec3::ZERO, DVec3::splat(WORLD_HALF_EXTENT)).is_ok());
        assert!(check_trace(DVec3::ZERO, DVec3::new(0.0, 0.0, -1e308)).is_err());
    }

    #[test]
    fn errors_name_the_value_the_limit_and_the_constant() {
        let e = check_point(Quantity::Coordinate, DVec3::new(0.0, 1e15, 0.0)).unwrap_err();
        assert_eq!(
            e.to_string(),
            "coordinate 1e15 units is beyond cspace's limit of 524288 units (tolerance::MAX_COORDINATE)"
        );
        let e = check(Quantity::TimeStep, 1e300).unwrap_err();
        assert_eq!(
            e.to_string(),
            "time step 1e300 s is beyond cspace's limit of 1 s (tolerance::MAX_TIME_STEP)"
        );
        let e = check(Quantity::Speed, f64::NEG_INFINITY).unwrap_err();
        assert_eq!(e.to_string(), "speed -inf is not a finite number");
        assert_eq!(number(-1.5e308).to_string(), "-1.5e308");
        assert_eq!(number(0.066).to_string(), "0.066");
        assert_eq!(number(1e-7).to_string(), "1e-7");
    }
}
