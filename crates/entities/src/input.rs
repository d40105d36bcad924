//! What the map reader hands over: one entity's key/value pairs and its brushes.

use cspace_geom::{Aabb, Brush, BrushSource, DVec3};

use crate::defs::LiquidKind;

/// What a brush of an entity is made of, as its faces say (the map reader's texture and
/// content-flag rules, `cspace-mapfile`'s `face_contents`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InputContents {
    /// Blocks agents.
    Solid,
    /// Invisible clip: blocks agents.
    Clip,
    /// A liquid.
    Liquid(LiquidKind),
    /// Neither blocks nor is a liquid (a trigger's brush, a non-solid shader).
    NonSolid,
}

/// A brush of an entity, built where the file draws it.
#[derive(Debug, Clone, PartialEq)]
pub struct InputBrush {
    /// The brush.
    pub brush: Brush,
    /// What it is made of.
    pub contents: InputContents,
    /// Where it was written.
    pub source: BrushSource,
}

/// One entity of a map, as the map reader hands it over.
#[derive(Debug, Clone, PartialEq)]
pub struct EntityInput {
    /// The index of the entity in the file.
    pub index: u32,
    /// The 1-based line of its opening `{`.
    pub line: u32,
    /// Its key/value pairs in file order (a repeated key: the last wins, as in Quake's tools).
    pub properties: Vec<(String, String)>,
    /// Its valid brushes (markers, origin brushes and invalid brushes left out), in file order.
    pub brushes: Vec<InputBrush>,
    /// The centre of its origin brush, when it has one (Quake III's rotation centre and train
    /// origin: `q3map`'s `origin` brush sets the entity's `origin`).
    pub origin_brush: Option<DVec3>,
}

impl EntityInput {
    /// An entity without brushes.
    pub fn new<'a>(
        index: u32,
        line: u32,
        properties: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> EntityInput {
        EntityInput {
            index,
            line,
            properties: properties
                .into_iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            brushes: Vec::new(),
            origin_brush: None,
        }
    }

    /// The same with one more brush of `contents` (its source: this entity, the next brush index).
    pub fn with_brush(mut self, brush: Brush, contents: InputContents) -> EntityInput {
        let source = BrushSource {
            file: None,
            line: self.line,
            entity: self.index,
            brush: self.brushes.len() as u32,
            facet: None,
        };
        self.brushes.push(InputBrush {
            brush,
            contents,
            source,
        });
        self
    }

    /// The same with one more solid brush.
    pub fn with_solid(self, brush: Brush) -> EntityInput {
        self.with_brush(brush, InputContents::Solid)
    }

    /// The value of `key` (the last one when it repeats; keys compare exactly, as in Quake).
    pub fn get(&self, key: &str) -> Option<&str> {
        self.properties
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// The value of `classname`, empty when there is none.
    pub fn classname(&self) -> &str {
        self.get("classname").unwrap_or("")
    }

    /// The bounds of its solid and clip brushes (what Quake's `setmodel` gives a brush model:
    /// `mins`, `maxs`, `size`); empty when it has none.
    pub fn solid_bounds(&self) -> Aabb {
        self.brushes
            .iter()
            .filter(|b| matches!(b.contents, InputContents::Solid | InputContents::Clip))
            .fold(Aabb::EMPTY, |a, b| a.merged(b.brush.bounds()))
    }

    /// The bounds of all its brushes (a trigger's volume).
    pub fn all_bounds(&self) -> Aabb {
        self.brushes
            .iter()
            .fold(Aabb::EMPTY, |a, b| a.merged(b.brush.bounds()))
    }
}

/// Reads numbers from text the way Quake's `atof` and `sscanf` do, strictly: a key that is not
/// a finite number is reported and its default used.
pub(crate) fn number(text: &str) -> Option<f64> {
    text.trim().parse::<f64>().ok().filter(|v| v.is_finite())
}

/// Three finite numbers separated by white space (`origin`, `angles`).
pub(crate) fn vector(text: &str) -> Option<DVec3> {
    let mut it = text.split_whitespace().map(number);
    let v = DVec3::new(it.next()??, it.next()??, it.next()??);
    it.next().is_none().then_some(v)
}

/// The horizontal unit vector at `yaw` degrees counter-clockwise from +X, exact on the axes
/// (QuakeC's `makevectors` and Quake III's `AngleVectors` in `float` leave `cos 90° = -4.4e-8`;
/// multiples of 90 degrees give exact axes here, so a door opening north moves on y alone).
pub(crate) fn yaw_vector(yaw: f64) -> DVec3 {
    let turns = yaw / 90.0;
    if turns == turns.round() {
        // not a tolerance: the quarter turn's index, taken modulo 4
        return match (turns as i64).rem_euclid(4) {
            0 => DVec3::X,
            1 => DVec3::Y,
            2 => DVec3::NEG_X,
            _ => DVec3::NEG_Y,
        };
    }
    let radians = yaw.to_radians();
    DVec3::new(radians.cos(), radians.sin(), 0.0)
}

/// Quake's `SetMovedir` (`subs.qc`) and Quake III's `G_SetMovedir` (`g_utils.c`): angle `-1` is
/// up, `-2` is down, anything else a yaw in the horizontal plane.
pub(crate) fn movedir(angle: f64) -> DVec3 {
    if angle == -1.0 {
        DVec3::Z
    } else if angle == -2.0 {
        DVec3::NEG_Z
    } else {
        yaw_vector(angle)
    }
}

/// Quake III's `G_SetMovedir` (`g_utils.c`) on full angles: exactly `0 -1 0` is up, `0 -2 0`
/// down, anything else [`crate::rules::forward`] (`AngleVectors`, pitch included).
pub(crate) fn movedir_of_angles(angles: DVec3) -> DVec3 {
    if angles == DVec3::new(0.0, -1.0, 0.0) {
        DVec3::Z
    } else if angles == DVec3::new(0.0, -2.0, 0.0) {
        DVec3::NEG_Z
    } else {
        crate::rules::forward(angles)
    }
}

/// Quake's `v_right` for a yaw (`makevectors` with pitch and roll 0): `(sin, -cos, 0)`.
pub(crate) fn right_vector(yaw: f64) -> DVec3 {
    let f = yaw_vector(yaw);
    DVec3::new(f.y, -f.x, 0.0)
}
