//! Shapes as the command line writes them.

use cspace_geom::{DVec3, Shape};

/// Parses `box:MINX,MINY,MINZ,MAXX,MAXY,MAXZ`, `sphere:R`, `cylinder:R,HALFHEIGHT`, `point`, or
/// `hull:X,Y,Z,X,Y,Z,...` (at least four points).
pub fn parse_shape(text: &str) -> Result<Shape, String> {
    let (kind, args) = text.split_once(':').unwrap_or((text, ""));
    let numbers = || -> Result<Vec<f64>, String> {
        if args.trim().is_empty() {
            return Ok(Vec::new());
        }
        args.split(',')
            .map(|n| {
                let v: f64 = n
                    .trim()
                    .parse()
                    .map_err(|_| format!("{n:?} is not a number in shape {text:?}"))?;
                if v.is_finite() {
                    Ok(v)
                } else {
                    Err(format!("{n:?} is not finite in shape {text:?}"))
                }
            })
            .collect()
    };
    let expect = |n: usize, v: &[f64]| {
        if v.len() == n {
            Ok(())
        } else {
            Err(format!(
                "shape {text:?}: {kind} takes {n} numbers, got {}",
                v.len()
            ))
        }
    };
    let shape = match kind {
        "point" => {
            expect(0, &numbers()?)?;
            Ok(Shape::POINT)
        }
        "box" => {
            let v = numbers()?;
            expect(6, &v)?;
            Shape::new_box(DVec3::new(v[0], v[1], v[2]), DVec3::new(v[3], v[4], v[5]))
        }
        "sphere" => {
            let v = numbers()?;
            expect(1, &v)?;
            Shape::new_sphere(v[0])
        }
        "cylinder" => {
            let v = numbers()?;
            expect(2, &v)?;
            Shape::new_cylinder(v[0], v[1])
        }
        "hull" => {
            let v = numbers()?;
            if v.len() < 12 || v.len() % 3 != 0 {
                return Err(format!(
                    "shape {text:?}: hull takes x,y,z triples of at least four points, got {} numbers",
                    v.len()
                ));
            }
            let points: Vec<DVec3> = v.chunks(3).map(|c| DVec3::new(c[0], c[1], c[2])).collect();
            Shape::new_hull(&points)
        }
        _ => {
            return Err(format!(
                "unknown shape {kind:?} in {text:?}: expected box:MINX,MINY,MINZ,MAXX,MAXY,MAXZ, sphere:R, cylinder:R,HALFHEIGHT, point, or hull:X,Y,Z,..."
            ));
        }
    };
    shape.map_err(|e| format!("shape {text:?}: {e}"))
}

/// Parses an onion pose, `NAME=MINX,MINY,MINZ,MAXX,MAXY,MAXZ` (`cspace_onion::Pose`'s own format).
pub fn parse_pose(text: &str) -> Result<cspace_onion::Pose, String> {
    text.parse()
        .map_err(|e: cspace_onion::PoseParseError| e.to_string())
}

/// Parses a point, `X,Y,Z`: three finite numbers, each within
/// [`MAX_COORDINATE`](cspace_geom::tolerance::MAX_COORDINATE) (the numeric domain of positions,
/// [`cspace_geom::domain`]).
pub fn parse_point(text: &str) -> Result<DVec3, String> {
    let fields: Vec<&str> = text.split(',').collect();
    if fields.len() != 3 {
        return Err(format!(
            "point {text:?}: expected X,Y,Z (3 numbers), got {}",
            fields.len()
        ));
    }
    let mut v = [0.0; 3];
    for (slot, field) in v.iter_mut().zip(&fields) {
        let x: f64 = field
            .trim()
            .parse()
            .map_err(|_| format!("{field:?} is not a number in point {text:?}"))?;
        if !x.is_finite() {
            return Err(format!("{field:?} is not finite in point {text:?}"));
        }
        *slot = cspace_geom::domain::check(cspace_geom::domain::Quantity::Coordinate, x)
            .map_err(|e| format!("point {text:?}: {e}"))?;
    }
    Ok(DVec3::from_array(v))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn poses_are_named_boxes() {
        let pose = parse_pose("stand=-16,-16,-24,16,16,32").unwrap();
        assert_eq!(pose.name, "stand");
        assert!(pose.is_box(
            DVec3::new(-16.0, -16.0, -24.0),
            DVec3::new(16.0, 16.0, 32.0)
        ));
        assert_eq!(
            parse_pose("crouch=1,2,3").unwrap_err(),
            "pose 'crouch=1,2,3': 3 numbers, not 6 (expected name=minx,miny,minz,maxx,maxy,maxz)"
        );
    }

    #[test]
    fn points_are_three_numbers_within_the_domain() {
        assert_eq!(
            parse_point("1,-2.5,3e2").unwrap(),
            DVec3::new(1.0, -2.5, 300.0)
        );
        assert_eq!(
            parse_point("1,2").unwrap_err(),
            "point \"1,2\": expected X,Y,Z (3 numbers), got 2"
        );
        assert_eq!(
            parse_point("1,y,3").unwrap_err(),
            "\"y\" is not a number in point \"1,y,3\""
        );
        assert_eq!(
            parse_point("1,2,nan").unwrap_err(),
            "\"nan\" is not finite in point \"1,2,nan\""
        );
        assert!(
            parse_point("1e9,0,0")
                .unwrap_err()
                .contains("MAX_COORDINATE")
        );
    }

    #[test]
    fn parses_every_kind() {
        assert_eq!(
            parse_shape("box:-16,-16,-24,16,16,32").unwrap(),
            Shape::new_box(
                DVec3::new(-16.0, -16.0, -24.0),
                DVec3::new(16.0, 16.0, 32.0)
            )
            .unwrap()
        );
        assert_eq!(
            parse_shape("sphere:8").unwrap(),
            Shape::new_sphere(8.0).unwrap()
        );
        assert_eq!(
            parse_shape("cylinder:16,28").unwrap(),
            Shape::new_cylinder(16.0, 28.0).unwrap()
        );
        assert_eq!(parse_shape("point").unwrap(), Shape::POINT);
        assert!(matches!(
            parse_shape("hull:0,0,0,1,0,0,0,1,0,0,0,1").unwrap(),
            Shape::Hull(_)
        ));
    }

    #[test]
    fn errors_name_the_problem() {
        assert_eq!(
            parse_shape("box:1,2,3").unwrap_err(),
            "shape \"box:1,2,3\": box takes 6 numbers, got 3"
        );
        assert!(
            parse_shape("cone:1")
                .unwrap_err()
                .starts_with("unknown shape \"cone\"")
        );
        assert_eq!(
            parse_shape("sphere:x").unwrap_err(),
            "\"x\" is not a number in shape \"sphere:x\""
        );
        assert_eq!(
            parse_shape("sphere:inf").unwrap_err(),
            "\"inf\" is not finite in shape \"sphere:inf\""
        );
        assert_eq!(
            parse_shape("sphere:-1").unwrap_err(),
            "shape \"sphere:-1\": radius must be positive, got -1"
        );
        assert!(
            parse_shape("box:1,1,1,0,0,0")
                .unwrap_err()
                .contains("exceed maxs")
        );
    }
}
