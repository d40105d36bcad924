//! The navigation graph: areas and links of every pose, joined by pose changes.

use std::collections::BTreeMap;
use std::fmt;
use std::time::Instant;

use cspace_geom::tolerance::{PLANE_THICKNESS, WORLD_HALF_EXTENT};
use cspace_geom::{Aabb, World};
use cspace_onion::{OnionTree, Pose};
use glam::DVec3;

use crate::area::{Area, AreaGrid, areas_of, centroid, overlap_xy};
use crate::cell::rounding_area;
use crate::context::NavContext;
use crate::error::{Endpoint, NavError};
use crate::link::{
    Link, LinkKind, OpenEdge, Prober, links_of_runs, locate, probe_points, walk_links,
};
use crate::los::LineOfSight;
use crate::params::{NavParams, NavPose};
use crate::portals::{Below, LeafGraph};
use crate::volumes::{DoorIndex, NavVolumes, volume_links};

/// A pose the graph plans for, resolved against the tree.
#[derive(Debug, Clone, PartialEq)]
pub struct PoseInfo {
    /// The pose's name.
    pub name: String,
    /// Its configuration space in the tree.
    pub space: usize,
    /// Its box, relative to the agent's origin, units.
    pub mins: DVec3,
    /// Its box, relative to the agent's origin, units.
    pub maxs: DVec3,
    /// Its top speed, units/s.
    pub speed: f64,
    /// Whether it jumps.
    pub can_jump: bool,
}

/// What building a graph found, per pose.
#[derive(Debug, Clone, PartialEq)]
pub struct PoseStats {
    /// The pose.
    pub name: String,
    /// Empty regions of its configuration space.
    pub regions: usize,
    /// Portals between them.
    pub portals: usize,
    /// Walkable areas kept in the graph.
    pub areas: usize,
    /// Walkable areas found before a secondary pose's areas covered by the primary pose were
    /// dropped (equal to `areas` for the primary pose).
    pub areas_found: usize,
    /// Links leaving its areas, by kind (in [`LinkKind::ALL`] order).
    pub links: [usize; 8],
}

/// What building a graph found.
#[derive(Debug, Clone, PartialEq)]
pub struct NavStats {
    /// Per pose, in order.
    pub poses: Vec<PoseStats>,
    /// Groups of areas joined by links in either direction.
    pub components: usize,
    /// Branch nodes of the line-of-sight tree, when there is one.
    pub los_nodes: Option<usize>,
    /// Wall-clock seconds of [`NavMesh::build`].
    pub build_seconds: f64,
}

impl fmt::Display for NavStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for p in &self.poses {
            write!(
                f,
                "{}: {} regions, {} portals, {} areas ({} found), links",
                p.name, p.regions, p.portals, p.areas, p.areas_found
            )?;
            for (kind, n) in LinkKind::ALL.iter().zip(p.links) {
                write!(f, " {} {n}", kind.name())?;
            }
            writeln!(f)?;
        }
        match self.los_nodes {
            Some(n) => write!(f, "line of sight: {n} nodes; ")?,
            None => write!(f, "line of sight: none (no sight or zero-size pose); ")?,
        }
        write!(
            f,
            "{} components; built in {:.3} s",
            self.components, self.build_seconds
        )
    }
}

/// A walkable point: an area and a position on its floor (lifted by the clearance).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WalkablePoint {
    /// The area.
    pub area: u32,
    /// The agent's origin standing there: on the floor, [`NavParams::clearance`] above it where
    /// that is free (configuration space, units).
    pub position: DVec3,
}

/// The navigation graph of a world for a set of poses: walkable areas and the links between
/// them, found in the onion tree's configuration spaces (see the crate docs).
#[derive(Debug, Clone)]
pub struct NavMesh {
    pub(crate) params: NavParams,
    pub(crate) poses: Vec<PoseInfo>,
    pub(crate) graphs: Vec<LeafGraph>,
    pub(crate) areas: Vec<Area>,
    pub(crate) links: Vec<Link>,
    /// CSR: the links leaving area `a` are `links[link_start[a]..link_start[a + 1]]`.
    pub(crate) link_start: Vec<u32>,
    /// The search's copy of each link: target, start and end points, cost.
    pub(crate) hops: Vec<Hop>,
    /// Each area's pose's speed, units/s.
    pub(crate) area_speed: Vec<f64>,
    pub(crate) grid: AreaGrid,
    pub(crate) component: Vec<u32>,
    pub(crate) los: Option<LineOfSight>,
    /// The doors the walks wait for, per area.
    pub(crate) doors: DoorIndex,
    /// Where the links that move faster than walking start (teleporters and push pads the
    /// search takes), seen from above: the search's heuristic counts on them.
    pub(crate) fast_starts: Vec<glam::DVec2>,
    stats: NavStats,
}

/// A link as the search reads it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Hop {
    pub to: u32,
    pub start: DVec3,
    pub end: DVec3,
    pub cost: f64,
    /// The search takes it: one outcome ([`Link::outcomes`]).
    pub planned: bool,
}

/// The space of `tree` the line of sight is answered in: the sight pose's
/// ([`cspace_onion::Pose::sight`], a cube of half side 1/32, which patch facets block), or else
/// a zero-size pose's (the plain solid BSP: the same answers in a world of brushes alone, 1/32
/// apart, but a point passes through patch facets, which have no interior).
pub fn sight_space(tree: &OnionTree) -> Option<usize> {
    let sight = Pose::sight();
    tree.space_of(sight.mins, sight.maxs)
        .or_else(|| tree.space_of(DVec3::ZERO, DVec3::ZERO))
}

impl NavMesh {
    /// Builds the graph of `world` from its compiled onion `tree` for `poses` (the first is the
    /// primary pose; see [`NavPose`]). The tree's sight pose ([`cspace_onion::Pose::sight`]), or
    /// else its zero-size pose, if any, gives the line of sight ([`sight_space`]).
    pub fn build(
        tree: &OnionTree,
        world: &World,
        poses: &[NavPose],
        params: &NavParams,
    ) -> Result<NavMesh, NavError> {
        NavMesh::build_with(tree, world, poses, params, &NavVolumes::default())
    }

    /// [`NavMesh::build`] for a living world: the primary pose's areas also get teleporter and
    /// push pad links ([`LinkKind::Teleport`], [`LinkKind::Push`]), and the walks of every pose
    /// through a door's closed place wait for it to open (docs/navigation.md, "Links of a
    /// living world"). `world` (and `tree`) hold what stays solid: not the doors given here.
    pub fn build_with(
        tree: &OnionTree,
        world: &World,
        poses: &[NavPose],
        params: &NavParams,
        volumes: &NavVolumes,
    ) -> Result<NavMesh, NavError> {
        let started = Instant::now();
        params.validate()?;
        volumes.validate()?;
        if tree.world_fingerprint() != world.fingerprint() {
            return Err(NavError::WorldMismatch {
                tree: tree.world_fingerprint(),
                world: world.fingerprint(),
            });
        }
        let infos = resolve_poses(tree, poses, params)?;
        let graphs = infos
            .iter()
            .map(|p| LeafGraph::build(tree, world, p.space))
            .collect::<Result<Vec<_>, _>>()?;

        // Areas and links of every pose, each pose on its own.
        let mut areas = Vec::new();
        let mut ranges = Vec::new();
        for (k, graph) in graphs.iter().enumerate() {
            let found = areas_of(graph, k, params.min_walk_normal);
            ranges.push(areas.len()..areas.len() + found.len());
            areas.extend(found);
        }
        if areas.len() >= u32::MAX as usize {
            return Err(NavError::TooLarge {
                what: "areas",
                max: u32::MAX as u64,
            });
        }
        let grid = AreaGrid::new(&areas);
        let mut links = Vec::new();
        for (k, info) in infos.iter().enumerate() {
            links.extend(pose_links(
                &graphs[k],
                &areas,
                ranges[k].clone(),
                &grid,
                k,
                info,
                params,
            ));
        }
        if let (Some(info), Some(range)) = (infos.first(), ranges.first())
            && !(volumes.teleporters.is_empty() && volumes.pads.is_empty())
        {
            let mut prober = Prober {
                graph: &graphs[0],
                areas: &areas,
                grid: &grid,
                pose: 0,
                params,
                speed: info.speed,
                can_jump: info.can_jump,
                scratch: Default::default(),
            };
            debug_assert!(range.start == 0, "the primary pose's areas come first");
            links.extend(volume_links(&mut prober, info.mins, info.maxs, volumes));
        }
        let areas_found: Vec<usize> = ranges.iter().map(|r| r.len()).collect();

        // Secondary poses keep what the primary pose does not cover, and their neighbours.
        let covers = covers(&areas, &ranges, &grid);
        let keep = secondary_keep(areas.len(), &covers, &links);
        let changes = pose_changes(&areas, &covers, &keep, &links, params);
        links.extend(changes);
        let (areas, mut links) = kept(areas, links, &keep);
        if links.len() >= u32::MAX as usize {
            return Err(NavError::TooLarge {
                what: "links",
                max: u32::MAX as u64,
            });
        }
        links.sort_by_key(|l| (l.from, l.kind, l.to));
        let grid = AreaGrid::new(&areas);
        let (link_start, hops) = index(areas.len(), &links);
        let area_speed = areas
            .iter()
            .map(|a| {
                let steep = a.polygon.plane.normal().z < params.steep_normal;
                infos[a.pose].speed * if steep { params.steep_speed_share } else { 1.0 }
            })
            .collect();
        let component = components(areas.len(), &links);
        let boxes: Vec<(DVec3, DVec3)> = infos.iter().map(|p| (p.mins, p.maxs)).collect();
        let doors = DoorIndex::new(&volumes.doors, &boxes, &areas, &grid);
        let mut fast_starts: Vec<glam::DVec2> = links
            .iter()
            .filter(|l| matches!(l.kind, LinkKind::Teleport | LinkKind::Push) && l.outcomes == 1)
            .map(|l| l.start_point().truncate())
            .collect();
        fast_starts.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
        fast_starts.dedup();

        let los = sight_space(tree)
            .map(|space| LineOfSight::new(tree, space))
            .transpose()?;

        let stats = NavStats {
            poses: pose_stats(&infos, &graphs, &areas_found, &areas, &links),
            components: component
                .iter()
                .copied()
                .max()
                .map_or(0, |m| m as usize + 1),
            los_nodes: los.as_ref().map(LineOfSight::node_count),
            build_seconds: started.elapsed().as_secs_f64(),
        };
        Ok(NavMesh {
            params: *params,
            poses: infos,
            graphs,
            areas,
            links,
            link_start,
            hops,
            area_speed,
            grid,
            component,
            los,
            doors,
            fast_starts,
            stats,
        })
    }

    /// The parameters it was built with.
    pub fn params(&self) -> &NavParams {
        &self.params
    }

    /// The poses, in the order given (the first is the primary pose).
    pub fn poses(&self) -> &[PoseInfo] {
        &self.poses
    }

    /// The index of the pose named `name`.
    pub fn pose_index(&self, name: &str) -> Option<usize> {
        self.poses.iter().position(|p| p.name == name)
    }

    /// The regions and portals of pose `pose`'s configuration space (leaf adjacency).
    pub fn leaf_graph(&self, pose: usize) -> Option<&LeafGraph> {
        self.graphs.get(pose)
    }

    /// Every area, primary pose first.
    pub fn areas(&self) -> &[Area] {
        &self.areas
    }

    /// Every link, ordered by the area left, then kind, then the area reached.
    pub fn links(&self) -> &[Link] {
        &self.links
    }

    /// The links leaving area `area`.
    pub fn links_from(&self, area: u32) -> &[Link] {
        let a = area as usize;
        &self.links[self.link_start[a] as usize..self.link_start[a + 1] as usize]
    }

    /// The group of areas `area` belongs to (areas joined by links in either direction share
    /// one; two areas in different groups never reach each other).
    pub fn component(&self, area: u32) -> u32 {
        self.component[area as usize]
    }

    /// Line of sight, when the tree has the sight pose or a zero-size one ([`sight_space`]).
    pub fn line_of_sight(&self) -> Option<&LineOfSight> {
        self.los.as_ref()
    }

    /// What building found.
    pub fn stats(&self) -> &NavStats {
        &self.stats
    }

    pub(crate) fn check_pose(&self, pose: usize) -> Result<(), NavError> {
        if pose < self.poses.len() {
            Ok(())
        } else {
            Err(NavError::PoseIndex {
                pose,
                poses: self.poses.len(),
            })
        }
    }

    /// The agent's origin standing on `floor` in area `area`: the clearance above it where that
    /// is free for the area's pose, else the floor point itself (touching is free).
    pub(crate) fn lifted(&self, area: u32, floor: DVec3) -> DVec3 {
        let pose = self.areas[area as usize].pose;
        let up = floor + DVec3::Z * self.params.clearance;
        if self.graphs[pose].is_solid(up) {
            floor
        } else {
            up
        }
    }

    /// Where an agent of pose `pose` at `point` stands: the walkable floor straight below it
    /// (within the deepest fall), as an area of the graph and the floor point. A secondary
    /// pose standing where only the primary pose's areas were kept gets the primary area.
    pub(crate) fn locate(
        &self,
        point: DVec3,
        pose: usize,
        what: Endpoint,
        ctx: &mut NavContext,
    ) -> Result<(u32, DVec3), NavError> {
        self.check_pose(pose)?;
        if !point.is_finite() || point.abs().max_element() > WORLD_HALF_EXTENT {
            return Err(NavError::BadPoint { what, point });
        }
        let name = || self.poses[pose].name.clone();
        let graph = &self.graphs[pose];
        if graph.is_solid(point) {
            return Err(NavError::InSolid {
                what,
                point,
                pose: name(),
            });
        }
        let depth = self.params.max_fall + self.params.clearance;
        let below = point - DVec3::Z * depth;
        let no_ground = || NavError::NoGround {
            what,
            point,
            pose: name(),
        };
        let t = match graph.floor_below(point, below, self.params.min_walk_normal, &mut ctx.walk) {
            Below::Floor(t) => t,
            Below::InSolid => {
                return Err(NavError::InSolid {
                    what,
                    point,
                    pose: name(),
                });
            }
            Below::Nothing => return Err(no_ground()),
        };
        let floor = cspace_geom::collider::lerp(point, below, t);
        let area = locate(&self.areas, &self.grid, pose, floor)
            .or_else(|| {
                (pose != 0)
                    .then(|| locate(&self.areas, &self.grid, 0, floor))
                    .flatten()
            })
            .ok_or_else(no_ground)?;
        Ok((area, floor))
    }

    /// The walkable point nearest to `point` for pose `pose` (its own areas, and for a secondary
    /// pose the primary pose's too): the closest point of any area's floor, lifted by the
    /// clearance. `None` when the graph has no area for the pose.
    pub fn nearest_walkable(
        &self,
        point: DVec3,
        pose: usize,
    ) -> Result<Option<WalkablePoint>, NavError> {
        self.check_pose(pose)?;
        if !point.is_finite() || point.abs().max_element() > WORLD_HALF_EXTENT {
            return Err(NavError::BadPoint {
                what: Endpoint::Point,
                point,
            });
        }
        let wanted = |a: &Area| a.pose == pose || a.pose == 0;
        if !self.areas.iter().any(wanted) {
            return Ok(None);
        }
        let mut best: Option<(f64, u32, DVec3)> = None;
        let (lo, hi) = self.grid.extent();
        let span = (hi - lo).length() + (point.truncate() - lo).length();
        let mut radius = self.grid.cell();
        loop {
            let probe = Aabb::new(point, point).loosened(radius);
            self.grid.for_each_near(probe, |i| {
                let a = &self.areas[i as usize];
                if !wanted(a) {
                    return;
                }
                let q = a.polygon.closest_point(point);
                let d = q.distance(point);
                if best.is_none_or(|(bd, bi, _)| (d, i) < (bd, bi)) {
                    best = Some((d, i, q));
                }
            });
            // Every area within `radius` seen from above has been seen.
            if best.is_some_and(|(d, _, _)| d <= radius) || radius > span {
                break;
            }
            radius *= 2.0;
        }
        Ok(best.map(|(_, area, q)| WalkablePoint {
            area,
            position: self.lifted(area, q),
        }))
    }
}

/// The kept areas, renumbered in order, and the links between kept areas.
fn kept(areas: Vec<Area>, links: Vec<Link>, keep: &[bool]) -> (Vec<Area>, Vec<Link>) {
    let mut renumber = vec![u32::MAX; areas.len()];
    let mut out = Vec::new();
    for (i, area) in areas.into_iter().enumerate() {
        if keep[i] {
            renumber[i] = out.len() as u32;
            out.push(area);
        }
    }
    let links = links
        .into_iter()
        .filter_map(|mut l| {
            let (from, to) = (renumber[l.from as usize], renumber[l.to as usize]);
            (from != u32::MAX && to != u32::MAX).then(|| {
                l.from = from;
                l.to = to;
                l
            })
        })
        .collect();
    (out, links)
}

/// The links leaving each area (CSR offsets over `links`, sorted by the area left) and the
/// search's copy of them.
fn index(areas: usize, links: &[Link]) -> (Vec<u32>, Vec<Hop>) {
    let mut start = vec![0u32; areas + 1];
    for l in links {
        start[l.from as usize + 1] += 1;
    }
    for a in 0..areas {
        start[a + 1] += start[a];
    }
    let hops = links
        .iter()
        .map(|l| Hop {
            to: l.to,
            start: l.start_point(),
            end: l.end_point(),
            cost: l.cost,
            planned: l.outcomes == 1,
        })
        .collect();
    (start, hops)
}

/// Per pose: regions, portals, areas found and kept, links by kind.
fn pose_stats(
    infos: &[PoseInfo],
    graphs: &[LeafGraph],
    areas_found: &[usize],
    areas: &[Area],
    links: &[Link],
) -> Vec<PoseStats> {
    let mut out: Vec<PoseStats> = infos
        .iter()
        .zip(graphs)
        .zip(areas_found)
        .map(|((info, graph), &found)| PoseStats {
            name: info.name.clone(),
            regions: graph.region_count(),
            portals: graph.portals().len(),
            areas: 0,
            areas_found: found,
            links: [0; 8],
        })
        .collect();
    for a in areas {
        out[a.pose].areas += 1;
    }
    for l in links {
        let kind = LinkKind::ALL
            .iter()
            .position(|k| *k == l.kind)
            .expect("a kind");
        out[areas[l.from as usize].pose].links[kind] += 1;
    }
    out
}

/// The poses resolved against the tree, checked.
fn resolve_poses(
    tree: &OnionTree,
    poses: &[NavPose],
    params: &NavParams,
) -> Result<Vec<PoseInfo>, NavError> {
    if poses.is_empty() {
        return Err(NavError::NoPoses);
    }
    let mut out: Vec<PoseInfo> = Vec::with_capacity(poses.len());
    for pose in poses {
        if out.iter().any(|p| p.name == pose.name) {
            return Err(NavError::DuplicatePose {
                name: pose.name.clone(),
            });
        }
        let Some(space) = tree.poses().iter().position(|p| p.name == pose.name) else {
            return Err(NavError::UnknownPose {
                name: pose.name.clone(),
                available: tree
                    .poses()
                    .iter()
                    .map(|p| p.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
            });
        };
        if !(pose.speed_scale.is_finite() && pose.speed_scale > 0.0) {
            return Err(NavError::BadSpeed {
                pose: pose.name.clone(),
                value: pose.speed_scale,
            });
        }
        let p = &tree.poses()[space];
        if let Some(primary) = out.first()
            && (p.mins.cmplt(primary.mins).any() || p.maxs.cmpgt(primary.maxs).any())
        {
            return Err(NavError::PoseNotNested {
                pose: pose.name.clone(),
                primary: primary.name.clone(),
            });
        }
        out.push(PoseInfo {
            name: pose.name.clone(),
            space,
            mins: p.mins,
            maxs: p.maxs,
            speed: params.walk_speed * pose.speed_scale,
            can_jump: pose.can_jump,
        });
    }
    Ok(out)
}

/// The links of one pose: walks across shared edges, then the probes past the open edges.
fn pose_links(
    graph: &LeafGraph,
    areas: &[Area],
    range: std::ops::Range<usize>,
    grid: &AreaGrid,
    pose: usize,
    info: &PoseInfo,
    params: &NavParams,
) -> Vec<Link> {
    let (mut links, covered) = walk_links(areas, range.clone(), grid);
    let mut prober = Prober {
        graph,
        areas,
        grid,
        pose,
        params,
        speed: info.speed,
        can_jump: info.can_jump,
        scratch: Default::default(),
    };
    let mut runs = BTreeMap::new();
    for OpenEdge { area, samples } in probe_points(areas, range, &covered, params.probe_spacing) {
        // Each probe finds at most a walk-off or climb, and a running jump: runs of each apart.
        let (ground, jumps): (Vec<_>, Vec<_>) = samples
            .into_iter()
            .map(|(p, out)| prober.probe(area, p, out))
            .unzip();
        links_of_runs(area, &ground, &mut runs);
        links_of_runs(area, &jumps, &mut runs);
    }
    links.extend(runs.into_values().map(|(_, link)| link));
    links
}

/// How the primary pose's areas cover a secondary area: the overlaps on its plane (primary area,
/// polygon), and the centroid of the part left uncovered (`None` when covered).
#[derive(Debug, Clone, Default)]
struct Cover {
    overlaps: Vec<(u32, cspace_geom::Polygon)>,
    uncovered: Option<DVec3>,
}

/// The cover of every secondary area (primary areas get an empty one). Only areas on the same
/// plane cover each other: floors of nested poses with the same `mins.z` and horizontal extent
/// coincide (Quake's standing and crouching players).
fn covers(areas: &[Area], ranges: &[std::ops::Range<usize>], grid: &AreaGrid) -> Vec<Cover> {
    let mut out = vec![Cover::default(); areas.len()];
    let Some(primary) = ranges.first() else {
        return out;
    };
    let mut near = Vec::new();
    for c in ranges[1..].iter().flat_map(|r| r.clone()) {
        let area = &areas[c];
        near.clear();
        grid.for_each_near(area.bounds.loosened(PLANE_THICKNESS), |a| near.push(a));
        near.sort_unstable();
        near.dedup();
        let overlaps: Vec<(u32, cspace_geom::Polygon)> = near
            .iter()
            .filter(|&&a| {
                primary.contains(&(a as usize))
                    && areas[a as usize].polygon.plane == area.polygon.plane
            })
            .filter_map(|&a| Some((a, overlap_xy(&area.polygon, &areas[a as usize].polygon)?)))
            .collect();
        // The uncovered part's centroid from the moments: the area's less its overlaps'.
        let (total, centre) = centroid(&area.polygon);
        let (mut left, mut moment) = (total, centre * total);
        for (_, o) in &overlaps {
            let (a, c) = centroid(o);
            left -= a;
            moment -= c * a;
        }
        let uncovered = (left > rounding_area(area.polygon.perimeter())).then(|| moment / left);
        out[c] = Cover {
            overlaps,
            uncovered,
        };
    }
    out
}

/// Which areas stay: every primary area; a secondary area when the primary pose's areas on its
/// plane do not cover it, or when it is linked (either way) to one that stays for that reason
/// (so that a crouching stretch always has an area overlapping the standing graph at its ends).
fn secondary_keep(count: usize, covers: &[Cover], links: &[Link]) -> Vec<bool> {
    let primary = |i: usize| covers[i].overlaps.is_empty() && covers[i].uncovered.is_none();
    let uncovered = |i: usize| covers[i].uncovered.is_some();
    let mut keep: Vec<bool> = (0..count).map(uncovered).collect();
    for l in links {
        let (a, b) = (l.from as usize, l.to as usize);
        if uncovered(a) || uncovered(b) {
            keep[a] = true;
            keep[b] = true;
        }
    }
    // Primary areas have no cover at all (a secondary area without overlap is uncovered).
    for (i, k) in keep.iter_mut().enumerate() {
        if primary(i) {
            *k = true;
        }
    }
    keep
}

/// Crouch and stand-up links: between each kept secondary area and each primary area on its
/// plane that it overlaps (the primary pose is free there, so the smaller pose is too), at the
/// point of the overlap nearest the secondary area's uncovered part (or, for an area kept as a
/// neighbour, nearest its links to the uncovered areas), moved
/// [`NavParams::pose_change_inset`] into the overlap.
fn pose_changes(
    areas: &[Area],
    covers: &[Cover],
    keep: &[bool],
    links: &[Link],
    params: &NavParams,
) -> Vec<Link> {
    let mut out = Vec::new();
    for (c, cover) in covers.iter().enumerate() {
        if !keep[c] || cover.overlaps.is_empty() {
            continue;
        }
        let target = cover.uncovered.unwrap_or_else(|| {
            let near: Vec<DVec3> = links
                .iter()
                .filter_map(|l| {
                    if l.from as usize == c && covers[l.to as usize].uncovered.is_some() {
                        Some(l.start_point())
                    } else if l.to as usize == c && covers[l.from as usize].uncovered.is_some() {
                        Some(l.end_point())
                    } else {
                        None
                    }
                })
                .collect();
            if near.is_empty() {
                centroid(&areas[c].polygon).1
            } else {
                near.iter().sum::<DVec3>() / near.len() as f64
            }
        });
        for (a, overlap) in &cover.overlaps {
            let nearest = overlap.closest_point(target);
            let inside = centroid(overlap).1;
            let room = nearest.distance(inside);
            let at = if room > 0.0 {
                nearest + (inside - nearest) * (params.pose_change_inset.min(room) / room)
            } else {
                nearest
            };
            let c = c as u32;
            for (from, to, kind) in [(*a, c, LinkKind::Crouch), (c, *a, LinkKind::StandUp)] {
                out.push(Link {
                    from,
                    to,
                    kind,
                    start: [at; 2],
                    end: [at; 2],
                    cost: params.pose_change_cost,
                    rise: 0.0,
                    outcomes: 1,
                });
            }
        }
    }
    out
}

/// Weakly connected components, numbered in order of their lowest area.
fn components(count: usize, links: &[Link]) -> Vec<u32> {
    let mut parent: Vec<u32> = (0..count as u32).collect();
    fn root(parent: &mut [u32], mut a: u32) -> u32 {
        while parent[a as usize] != a {
            let up = parent[parent[a as usize] as usize];
            parent[a as usize] = up;
            a = up;
        }
        a
    }
    for l in links {
        let (a, b) = (root(&mut parent, l.from), root(&mut parent, l.to));
        if a != b {
            // The lower index is the root, so numbering follows the lowest area.
            let (lo, hi) = (a.min(b), a.max(b));
            parent[hi as usize] = lo;
        }
    }
    let mut number = vec![u32::MAX; count];
    let mut next = 0;
    let mut out = vec![0; count];
    for a in 0..count as u32 {
        let r = root(&mut parent, a);
        if number[r as usize] == u32::MAX {
            number[r as usize] = next;
            next += 1;
        }
        out[a as usize] = number[r as usize];
    }
    out
}
