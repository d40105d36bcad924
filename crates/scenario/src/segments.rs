//! `sim trace` and `sim los`: segments in (`x0 y0 z0 x1 y1 z1` per line), one JSON answer per
//! line out.

use std::io::{BufRead, Write};

use cspace_geom::domain::{self, Quantity};
use cspace_geom::{Collider, DVec3, Hit, Prepared, QueryContext};
use serde_json::{Value, json};

use crate::error::Error;
use crate::location::LocatedError;

/// A hit as one JSON object: `fraction`, `end`, `normal`, `plane_distance`, `point`, `brush`,
/// `time_of_impact`, `start_solid`, `all_solid` (the surface fields are null on a miss).
pub fn hit_json(hit: &Hit) -> Value {
    let v = |p: DVec3| json!([p.x, p.y, p.z]);
    let surface = hit.surface();
    json!({
        "fraction": hit.fraction(),
        "end": v(hit.end()),
        "normal": surface.map(|s| v(s.plane.normal())),
        "plane_distance": surface.map(|s| s.plane.dist()),
        "point": surface.map(|s| v(s.point)),
        "brush": surface.map(|s| s.brush.0),
        "time_of_impact": surface.map(|s| s.time_of_impact),
        "start_solid": hit.start_solid(),
        "all_solid": hit.all_solid(),
    })
}

/// Parses one segment line: six finite numbers separated by white space, each within
/// [`WORLD_HALF_EXTENT`](cspace_geom::tolerance::WORLD_HALF_EXTENT) (the numeric domain of a
/// trace, [`cspace_geom::domain`]). Blank lines and lines
/// starting with `#` are skipped (`Ok(None)`). An error gives the 1-based column (in characters)
/// of the field at fault (1 for a wrong count) and what is wrong.
pub fn parse_segment(line: &str) -> Result<Option<(DVec3, DVec3)>, (usize, String)> {
    let trimmed = line.trim();
    if trimmed.is_empty() || trimmed.starts_with('#') {
        return Ok(None);
    }
    let fields: Vec<&str> = trimmed.split_whitespace().collect();
    if fields.len() != 6 {
        return Err((
            1,
            format!(
                "expected 6 numbers (x0 y0 z0 x1 y1 z1), found {}",
                fields.len()
            ),
        ));
    }
    // A field is a slice of the line: its byte offset gives its column.
    let column = |field: &str| {
        let offset = field.as_ptr() as usize - line.as_ptr() as usize;
        line[..offset].chars().count() + 1
    };
    let mut v = [0.0; 6];
    for (slot, field) in v.iter_mut().zip(&fields) {
        let x: f64 = field.parse().map_err(|_| {
            (
                column(field),
                format!("{} is not a number", crate::trace::quoted(field)),
            )
        })?;
        if !x.is_finite() {
            return Err((
                column(field),
                format!("{} is not finite", crate::trace::quoted(field)),
            ));
        }
        *slot = domain::check(Quantity::TraceCoordinate, x)
            .map_err(|e| (column(field), e.to_string()))?;
    }
    Ok(Some((
        DVec3::new(v[0], v[1], v[2]),
        DVec3::new(v[3], v[4], v[5]),
    )))
}

/// Traces every segment read from `input` and writes one JSON line per segment to `output`.
/// A malformed line stops with an error naming `input_name:LINE:COLUMN`.
pub fn trace_lines(
    collider: &dyn Collider,
    ctx: &mut QueryContext,
    shape: &Prepared,
    input: impl BufRead,
    input_name: &str,
    output: impl Write,
) -> Result<usize, Error> {
    answer_lines(input, input_name, output, |start, end| {
        hit_json(&collider.trace(ctx, shape, start, end))
    })
}

/// Reads every segment of `input` ([`parse_segment`]: blank lines and comments skipped) and
/// writes `answer`'s JSON for it as one line of `output` (`sim trace`, `sim los`). A malformed
/// line stops with an error naming `input_name:LINE:COLUMN`; the answers before it are written.
/// Returns how many segments were answered.
pub fn answer_lines(
    input: impl BufRead,
    input_name: &str,
    mut output: impl Write,
    mut answer: impl FnMut(DVec3, DVec3) -> Value,
) -> Result<usize, Error> {
    let at = |line: usize, (column, message): (usize, String)| LocatedError {
        file: input_name.into(),
        line,
        column,
        message,
    };
    let write_error = |e| Error::io("standard output", "write", e);
    let mut count = 0;
    for (index, line) in input.lines().enumerate() {
        let line = line.map_err(|e| at(index + 1, (1, e.to_string())))?;
        let parsed = parse_segment(&line).map_err(|e| at(index + 1, e));
        let Some((start, end)) = (match parsed {
            Ok(segment) => segment,
            Err(e) => {
                // What was answered so far reaches the reader before the error.
                output.flush().map_err(write_error)?;
                return Err(e.into());
            }
        }) else {
            continue;
        };
        writeln!(output, "{}", answer(start, end)).map_err(write_error)?;
        count += 1;
    }
    output.flush().map_err(write_error)?;
    Ok(count)
}
