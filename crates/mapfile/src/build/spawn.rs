//! Spawn points: where agents may start.

use cspace_geom::domain::{Quantity, check_point};
use glam::DVec3;

use super::MapWarning;
use crate::lex::quote_text;
use crate::map::Entity;

/// An agent start read from a spawn entity (see [`is_spawn_class`](crate::is_spawn_class)).
#[derive(Debug, Clone, PartialEq)]
pub struct SpawnPoint {
    /// The entity's class, as written.
    pub classname: String,
    /// The `origin`, in world units. In Quake this is the centre of the player box
    /// `(-16,-16,-24)..(16,16,32)`, not its feet.
    pub origin: DVec3,
    /// The facing, in degrees counter-clockwise from +X about +Z: the `angle` key, else the
    /// second number of Quake III's `angles` ("pitch yaw roll"), else 0.
    pub yaw: f64,
    /// The index of the entity in the file.
    pub entity: u32,
    /// The 1-based line of the entity's opening `{`.
    pub line: u32,
}

/// The spawn point of a spawn entity, or a warning when its `origin` or facing cannot be read.
/// An entity without a usable `origin` (three finite numbers within
/// [`MAX_COORDINATE`](cspace_geom::tolerance::MAX_COORDINATE)) gives no spawn point (Quake would
/// put the player at the world origin, which is rarely a place to start); a bad `angle` is read
/// as 0.
pub(super) fn spawn_point(
    entity: &Entity,
    index: u32,
    classname: &str,
    warnings: &mut Vec<MapWarning>,
) -> Option<SpawnPoint> {
    let mut warn = |message: String| {
        warnings.push(MapWarning {
            entity: index,
            line: entity.line,
            message,
        })
    };
    let origin = match entity.get("origin") {
        None => {
            warn(format!("{classname} has no origin; no spawn point made"));
            return None;
        }
        Some(text) => match numbers::<3>(text) {
            Some([x, y, z]) => match check_point(Quantity::Coordinate, DVec3::new(x, y, z)) {
                Ok(origin) => origin,
                Err(e) => {
                    warn(format!("{classname} origin: {e}; no spawn point made"));
                    return None;
                }
            },
            None => {
                warn(format!(
                    "{classname} has origin \"{}\", not three finite numbers; no spawn point made",
                    quote_text(text.as_bytes())
                ));
                return None;
            }
        },
    };
    let yaw = if let Some(text) = entity.get("angle") {
        numbers::<1>(text).map(|[yaw]| yaw).unwrap_or_else(|| {
            warn(format!(
                "{classname} has angle \"{}\", not a finite number; yaw 0 used",
                quote_text(text.as_bytes())
            ));
            0.0
        })
    } else if let Some(text) = entity.get("angles") {
        numbers::<3>(text)
            .map(|[_, yaw, _]| yaw)
            .unwrap_or_else(|| {
                warn(format!(
                    "{classname} has angles \"{}\", not three finite numbers; yaw 0 used",
                    quote_text(text.as_bytes())
                ));
                0.0
            })
    } else {
        0.0
    };
    Some(SpawnPoint {
        classname: classname.to_owned(),
        origin,
        yaw,
        entity: index,
        line: entity.line,
    })
}

/// Exactly `N` finite numbers separated by whitespace.
fn numbers<const N: usize>(text: &str) -> Option<[f64; N]> {
    let mut out = [0.0; N];
    let mut words = text.split_ascii_whitespace();
    for slot in &mut out {
        *slot = words
            .next()?
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite())?;
    }
    words.next().is_none().then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entity(pairs: &[(&str, &str)]) -> Entity {
        Entity {
            properties: pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            brushes: Vec::new(),
            patches: Vec::new(),
            line: 9,
        }
    }

    #[test]
    fn reads_origin_and_yaw() {
        let mut warnings = Vec::new();
        let e = entity(&[("origin", "480 -352 88"), ("angle", "90")]);
        let s = spawn_point(&e, 4, "info_player_start", &mut warnings).unwrap();
        assert_eq!(s.origin, DVec3::new(480.0, -352.0, 88.0));
        assert_eq!((s.yaw, s.entity, s.line), (90.0, 4, 9));
        let e = entity(&[("origin", "0 0 0"), ("angles", "0 135 0")]);
        let s = spawn_point(&e, 1, "team_human_spawn", &mut warnings).unwrap();
        assert_eq!(s.yaw, 135.0);
        assert!(warnings.is_empty());
    }

    #[test]
    fn bad_values_warn() {
        let mut warnings = Vec::new();
        assert!(spawn_point(&entity(&[]), 1, "info_player_start", &mut warnings).is_none());
        let e = entity(&[("origin", "1 2")]);
        assert!(spawn_point(&e, 2, "info_player_start", &mut warnings).is_none());
        let e = entity(&[("origin", "1 2 3"), ("angle", "nan")]);
        assert_eq!(
            spawn_point(&e, 3, "info_player_start", &mut warnings)
                .unwrap()
                .yaw,
            0.0
        );
        // Beyond the numeric domain, and a megabyte of digits (quoted short).
        let e = entity(&[("origin", "0 1e15 0")]);
        assert!(spawn_point(&e, 4, "info_player_start", &mut warnings).is_none());
        let long = "9".repeat(1 << 20);
        let e = entity(&[("origin", "1 2 3"), ("angle", long.as_str())]);
        assert!(spawn_point(&e, 5, "info_player_start", &mut warnings).is_some());
        let messages: Vec<String> = warnings.iter().map(|w| w.to_string()).collect();
        assert_eq!(
            messages,
            [
                "entity 1 (line 9): info_player_start has no origin; no spawn point made",
                "entity 2 (line 9): info_player_start has origin \"1 2\", not three finite numbers; no spawn point made",
                "entity 3 (line 9): info_player_start has angle \"nan\", not a finite number; yaw 0 used",
                "entity 4 (line 9): info_player_start origin: coordinate 1e15 units is beyond \
                 cspace's limit of 524288 units (tolerance::MAX_COORDINATE); no spawn point made",
                format!(
                    "entity 5 (line 9): info_player_start has angle \"{}…\", not a finite number; yaw 0 used",
                    "9".repeat(48)
                )
                .as_str(),
            ]
        );
    }
}
