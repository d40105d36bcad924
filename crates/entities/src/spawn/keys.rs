//! Reading an entity's keys: typed values, a warning and the default for a bad one.

use cspace_geom::DVec3;
use cspace_geom::domain::{Quantity, check_point};

use super::Spawner;
use crate::input::{EntityInput, number, vector};

/// One entity's keys, read with warnings into the spawner.
pub(crate) struct Keys<'s, 'i> {
    pub(crate) spawner: &'s mut Spawner,
    pub(crate) input: &'i EntityInput,
}

impl<'s, 'i> Keys<'s, 'i> {
    pub(crate) fn new(spawner: &'s mut Spawner, input: &'i EntityInput) -> Keys<'s, 'i> {
        Keys { spawner, input }
    }

    /// Reports `message` about this entity.
    pub(crate) fn warn(&mut self, message: impl Into<String>) {
        self.spawner.warn(self.input, message);
    }

    /// A non-empty string key.
    pub(crate) fn string(&self, key: &str) -> Option<String> {
        self.input
            .get(key)
            .filter(|v| !v.is_empty())
            .map(str::to_string)
    }

    /// The `killtarget`: Quake 1's (`SUB_UseTargets`); Quake III has none (`G_UseTargets` reads
    /// no such key), so there it is reported and ignored.
    pub(crate) fn killtarget(&mut self) -> Option<String> {
        let kill = self.string("killtarget")?;
        if self.spawner.dialect == crate::dialect::Dialect::Quake3 {
            self.warn(format!(
                "killtarget {kill:?}: Quake III has no killtarget; ignored"
            ));
            return None;
        }
        Some(kill)
    }

    /// The `delay` of the entity's firing, seconds: Quake 1's (`SUB_UseTargets` makes a
    /// `DelayedUse`); Quake III reads no such key (`G_UseTargets` fires at once, and `g_spawn.c`'s
    /// `fields` have no `delay`), so there it is reported and ignored: 0.
    pub(crate) fn delay(&mut self) -> f64 {
        if self.spawner.dialect == crate::dialect::Dialect::Quake3 {
            if self.input.get("delay").is_some() {
                self.warn(
                    "delay: Quake III reads no delay key (G_UseTargets fires at once); ignored",
                );
            }
            return 0.0;
        }
        self.float("delay", 0.0).max(0.0)
    }

    /// A number key: `None` when absent; a bad one is reported and taken as absent.
    pub(crate) fn number(&mut self, key: &str) -> Option<f64> {
        let text = self.input.get(key)?;
        match number(text) {
            Some(v) if v.abs() <= cspace_geom::tolerance::MAX_COORDINATE => Some(v),
            _ => {
                let shown: String = text.chars().take(40).collect();
                self.warn(format!(
                    "{key} {shown:?} is not a finite number within the world; default used"
                ));
                None
            }
        }
    }

    /// A number key, `default` when absent, bad, or 0 (QuakeC's `if (!self.speed) self.speed =
    /// 100;`: 0 means "not set").
    pub(crate) fn float(&mut self, key: &str, default: f64) -> f64 {
        match self.number(key) {
            Some(v) if v != 0.0 => v,
            _ => default,
        }
    }

    /// A number key, `default` when absent or bad, kept when 0 (Quake III's
    /// `G_SpawnFloat(key, default, ...)`, which reads a written 0 as 0).
    pub(crate) fn float_or(&mut self, key: &str, default: f64) -> f64 {
        self.number(key).unwrap_or(default)
    }

    /// `spawnflags` as bits (a non-integer or negative value is reported and read as 0).
    pub(crate) fn flags(&mut self) -> u32 {
        match self.number("spawnflags") {
            None => 0,
            Some(v) if v >= 0.0 && v == v.trunc() && v <= f64::from(u32::MAX) => v as u32,
            Some(_) => {
                self.warn("spawnflags is not a whole number from 0; read as 0");
                0
            }
        }
    }

    /// The `origin`, within the world (`None` when absent or bad, reported when bad).
    pub(crate) fn origin(&mut self) -> Option<DVec3> {
        let text = self.input.get("origin")?;
        match vector(text).map(|v| check_point(Quantity::Coordinate, v)) {
            Some(Ok(v)) => Some(v),
            _ => {
                let shown: String = text.chars().take(60).collect();
                self.warn(format!(
                    "origin {shown:?} is not three finite numbers within the world; ignored"
                ));
                None
            }
        }
    }

    /// The facing in degrees: `angle`, else the yaw (second number) of `angles`, else 0.
    pub(crate) fn yaw(&mut self) -> f64 {
        self.angles().y
    }

    /// The orientation in degrees, (pitch, yaw, roll): the `angle` key as `0 angle 0` (Quake 1's
    /// `ED_ParseEpair` rewrites it so, Quake III's `F_ANGLEHACK` reads it so), else `angles`
    /// (three numbers, `F_VECTOR`), else zero. A bad `angle` is 0; bad `angles` are zero.
    pub(crate) fn angles(&mut self) -> DVec3 {
        if self.input.get("angle").is_some() {
            return DVec3::new(0.0, self.number("angle").unwrap_or(0.0), 0.0);
        }
        if let Some(text) = self.input.get("angles") {
            return match vector(text) {
                Some(v) if v.abs().max_element() <= cspace_geom::tolerance::MAX_COORDINATE => v,
                _ => {
                    self.warn("angles is not three finite numbers; yaw 0 used");
                    DVec3::ZERO
                }
            };
        }
        DVec3::ZERO
    }
}
