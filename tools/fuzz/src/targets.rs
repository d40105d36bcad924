//! The six targets (the `baseline` one in [`crate::baseline`]): their seeds, how a case's input
//! is made, and what a good answer is.

use crate::verdicts::{located, named, refused_anywhere, refused_in, short};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use cspace_geom::collider::Prepared;
use cspace_geom::generate::Rng;
use cspace_geom::world::fnv1a64;
use cspace_geom::{Collider, DVec3, ExactCollider, Hit, QueryContext, Shape, World};
use cspace_onion::{OnionCollider, OnionTree, Pose, VerifyOptions};
use cspace_scenario::{RunOptions, Scenario};
use cspace_sim::BackendKind;

use crate::{Failure, Verdict, mutate};

/// What a case feeds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Target {
    /// `.map` text.
    Map,
    /// Scenario TOML.
    Scenario,
    /// TOML worlds.
    World,
    /// `sim trace` input.
    Trace,
    /// Onion tree files.
    Tree,
    /// Recorded traces and trace snapshots, as `sim plot --against` and `sim report` read them.
    Baseline,
}

impl Target {
    /// Every target, in the order cases take them.
    pub const ALL: [Target; 6] = [
        Target::Map,
        Target::Scenario,
        Target::World,
        Target::Trace,
        Target::Tree,
        Target::Baseline,
    ];

    /// The name of the target (and of its folder of saved inputs).
    pub fn name(self) -> &'static str {
        match self {
            Target::Map => "map",
            Target::Scenario => "scenario",
            Target::World => "world",
            Target::Trace => "trace",
            Target::Tree => "tree",
            Target::Baseline => "baseline",
        }
    }
}

/// The file name errors of the `map` target must name.
const MAP_NAME: &str = "fuzz.map";
/// The file name errors of the `world` target must name.
const WORLD_NAME: &str = "fuzz-world.toml";
/// Steps a fuzzed scenario runs at most (the point is its input, not a long run).
const SCENARIO_STEPS: u64 = 16;
/// How far a verified tree's answer may be from the original's (units): verify accepts planes
/// moved by less than 1e-11 (docs/onion.md), which moves ends by as little.
const ANSWER_AGREEMENT: f64 = 1e-6;
/// Agents a fuzzed scenario may have to be run (larger ones are only checked).
const SCENARIO_AGENTS: usize = 256;

/// Everything the cases share: the seeds and the backends built once.
pub struct Fixtures {
    scenarios_dir: PathBuf,
    /// Scenario seeds: file name and text.
    scenarios: Vec<(String, String)>,
    /// TOML world seeds.
    worlds: Vec<String>,
    /// Map texts to cut excerpts from: worldspawn blocks of brushes (and patches).
    maps: Vec<Vec<String>>,
    /// The world of the `trace` and `tree` targets (`scenarios/rooms.map`).
    world: Arc<World>,
    /// Every backend over `world`, with a player box prepared for it.
    backends: Vec<(Arc<dyn Collider>, Prepared)>,
    /// The onion tree of `world` (standing and crouching poses), saved.
    tree_bytes: Vec<u8>,
    /// Its collider, and its poses' shapes prepared.
    tree: (OnionCollider, Vec<Prepared>),
    /// The `baseline` target's fixture scenarios, their runs and seed files.
    baselines: Vec<crate::baseline::Baseline>,
}

fn player(crouching: bool) -> Shape {
    let top = if crouching { 16.0 } else { 32.0 };
    Shape::new_box(DVec3::new(-16.0, -16.0, -24.0), DVec3::new(16.0, 16.0, top))
        .expect("a valid box")
}

/// The brush (and patch) blocks of a map's first entity, by line: the seeds map excerpts are
/// cut from.
fn worldspawn_blocks(text: &str) -> Vec<String> {
    let mut blocks = Vec::new();
    let mut depth = 0;
    let mut current = String::new();
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed == "{" {
            depth += 1;
            if depth == 2 {
                current.clear();
            }
        }
        if depth >= 2 {
            current.push_str(line);
            current.push('\n');
        }
        if trimmed == "}" {
            if depth == 2 {
                blocks.push(std::mem::take(&mut current));
            }
            depth -= 1;
            if depth == 0 && !blocks.is_empty() {
                break;
            }
        }
    }
    blocks
}

/// A map's living entities are valid: every mover's places and every push pad's velocity
/// finite, every warning located (a line).
fn check_entities(e: &cspace_entities::Entities) -> Result<(), Failure> {
    for m in &e.movers {
        if let Some(o) = m.extreme_offsets().into_iter().find(|o| !o.is_finite()) {
            return Err(Failure::Invalid(format!(
                "mover of entity {} has a place {o} that is not finite",
                m.entity
            )));
        }
    }
    for t in &e.triggers {
        if let cspace_entities::TriggerKind::Push(p) = &t.kind
            && p.velocity(800.0).is_some_and(|v| !v.is_finite())
        {
            return Err(Failure::Invalid(format!(
                "push pad of entity {} has a velocity that is not finite",
                t.entity
            )));
        }
    }
    if let Some(w) = e.warnings.iter().find(|w| w.line == 0) {
        return Err(Failure::Unlocated(w.to_string()));
    }
    Ok(())
}

/// Entity classes the map target writes: every class `cspace-entities` reads (movers, the
/// rotating and sine movers it keeps, triggers, relays, the points they name), a few it keeps or
/// merges, and one it does not know (`cspace_entities::rules`).
const ENTITY_CLASSES: &[&str] = &[
    "func_door",
    "func_door_secret",
    "func_plat",
    "func_button",
    "func_train",
    "func_rotating",
    "func_door_rotating",
    "func_pendulum",
    "func_bobbing",
    "func_wall",
    "func_static",
    "func_group",
    "func_detail",
    "func_illusionary",
    "trigger_once",
    "trigger_multiple",
    "trigger_secret",
    "trigger_teleport",
    "trigger_push",
    "trigger_counter",
    "trigger_relay",
    "trigger_always",
    "trigger_hurt",
    "trigger_changelevel",
    "target_relay",
    "target_delay",
    "target_push",
    "path_corner",
    "info_teleport_destination",
    "misc_teleporter_dest",
    "target_position",
    "info_player_start",
    "no_such_class",
];

/// Names that link entities: `target`, `targetname`, `killtarget` and `team` draw from the same
/// few, so targets name themselves, each other in loops, or nothing.
const ENTITY_NAMES: [&str; 4] = ["t0", "t1", "t2", "t3"];

/// Values that are not numbers, or numbers no key can take.
const ENTITY_JUNK: [&str; 10] = [
    "", "nan", "NaN", "inf", "-inf", "abc", "-0", "1e-320", "0x10", "1 2",
];

/// Values for entity keys: names that link entities to each other (and to themselves),
/// directions, vectors, hostile numbers and junk.
fn entity_value(key: &str, rng: &mut Rng) -> String {
    let named = matches!(key, "target" | "targetname" | "killtarget" | "team");
    match rng.below(if named { 8 } else { 5 }) {
        0 => ["-1", "-2", "90", "360", "0", "4", "1", "2048"][rng.below(8)].to_string(),
        1 => format!(
            "{} {} {}",
            mutate::HOSTILE_NUMBERS[rng.below(mutate::HOSTILE_NUMBERS.len())],
            rng.below(512),
            rng.below(64)
        ),
        2 => mutate::HOSTILE_NUMBERS[rng.below(mutate::HOSTILE_NUMBERS.len())].to_string(),
        3 => ENTITY_JUNK[rng.below(ENTITY_JUNK.len())].to_string(),
        4 => format!("-{}", rng.below(100_000)),
        _ => ENTITY_NAMES[rng.below(ENTITY_NAMES.len())].to_string(),
    }
}

/// Appends an entity to a map excerpt: a class, a few of the keys `cspace-entities` reads with
/// values that link entities (`t0`..`t2`) or break them, and for a brush class one of the
/// seed's brush blocks.
fn entity(text: &mut String, blocks: &[String], rng: &mut Rng) {
    let class = ENTITY_CLASSES[rng.below(ENTITY_CLASSES.len())];
    text.push_str(&format!("{{\n\"classname\" \"{class}\"\n"));
    let keys = cspace_entities::rules::KEYS;
    // Half the entities are named, so that targets find them.
    if rng.below(2) == 0 {
        let name = ENTITY_NAMES[rng.below(ENTITY_NAMES.len())];
        text.push_str(&format!("\"targetname\" \"{name}\"\n"));
    }
    for _ in 0..1 + rng.below(6) {
        let key = keys[1 + rng.below(keys.len() - 1)];
        text.push_str(&format!("\"{key}\" \"{}\"\n", entity_value(key, rng)));
    }
    let point = matches!(
        class,
        "trigger_relay"
            | "trigger_always"
            | "trigger_counter"
            | "target_relay"
            | "target_delay"
            | "target_push"
    ) || !(class.starts_with("func_") || class.starts_with("trigger_"));
    if point && rng.below(2) == 0 {
        let c = |rng: &mut Rng| rng.below(1024) as i64 - 512;
        let (x, y, z) = (c(rng), c(rng), c(rng) / 4);
        text.push_str(&format!("\"origin\" \"{x} {y} {z}\"\n"));
    }
    if !point || rng.below(8) == 0 {
        text.push_str(&blocks[rng.below(blocks.len())]);
    }
    text.push_str("}\n");
}

/// Steps a living world runs in a `map` case (the point is its entities, not a long run).
const LIVING_STEPS: u64 = 24;

/// Runs `entities` living over `world` for [`LIVING_STEPS`] steps of 1/64 s on the exact
/// reference, with up to three agents placed where the scene (the world and the movers where
/// they spawn) is free, walking and jumping: no panic, every agent's state and every mover's
/// place finite, and no agent ever in solid (the exactness guard, movers included). A hang is
/// the run's watchdog's.
fn live(
    world: Arc<World>,
    entities: Arc<cspace_entities::Entities>,
    seed: u64,
) -> Result<(), Failure> {
    let shape = player(false);
    let shapes = [shape.clone()];
    let invalid = |what: &str, e: &dyn std::fmt::Display| Failure::Invalid(format!("{what}: {e}"));
    let models = match cspace_sim::Models::build(BackendKind::Exact, &entities.movers, &shapes) {
        Ok(Some(models)) => Arc::new(models),
        Ok(None) => return Ok(()),
        Err(e) => return Err(invalid("the movers' exact models", &e)),
    };
    let collider: Arc<dyn Collider> = Arc::new(ExactCollider::new(world.clone()));
    // Where the agents may start: free in the scene as it spawns.
    let mut scene = cspace_sim::Scene::new(collider.clone(), models.clone());
    for (m, mover) in entities.movers.iter().enumerate() {
        scene.set_offset(m, mover.spawn_offset);
    }
    let prepared = scene
        .prepare(&shape)
        .map_err(|e| invalid("the scene refused the player", &e))?;
    let mut ctx = QueryContext::new();
    let mut rng = Rng::new(seed);
    let bounds = world.bounds().loosened(64.0);
    let mut starts = vec![DVec3::new(0.0, 0.0, 24.0)];
    starts.extend((0..6).map(|_| rng.point_in(&bounds)));
    starts.retain(|&p| !scene.is_solid(&mut ctx, &prepared, p));
    starts.truncate(3);
    let config = cspace_sim::SimConfig {
        verify: true,
        living: Some(cspace_sim::Living { entities, models }),
        ..cspace_sim::SimConfig::default()
    };
    let mut sim =
        cspace_sim::Sim::new(collider, config).map_err(|e| invalid("a living simulation", &e))?;
    for start in starts {
        let id = sim
            .spawn(cspace_sim::AgentSpec::new(shape.clone(), start))
            .map_err(|e| invalid("an agent at a free start", &e))?;
        let angle = rng.below(360) as f64;
        let direction = DVec3::new(angle.to_radians().cos(), angle.to_radians().sin(), 0.0);
        let mut intent = cspace_sim::Intent::walk(direction, 320.0);
        intent.jump = rng.below(4) == 0;
        sim.set_intent(id, intent)
            .map_err(|e| invalid("an agent's intent", &e))?;
    }
    for step in 0..LIVING_STEPS {
        sim.step();
        if let Some(state) = sim
            .states()
            .find(|a| !(a.position.is_finite() && a.velocity.is_finite()))
        {
            return Err(Failure::Invalid(format!(
                "living step {step}: agent {} at {} moving {}",
                state.id.0, state.position, state.velocity
            )));
        }
        if let Some(o) = sim
            .mover_offsets()
            .and_then(|o| o.iter().find(|o| !o.is_finite()))
        {
            return Err(Failure::Invalid(format!(
                "living step {step}: a mover at {o}"
            )));
        }
    }
    let verification = sim.verification().expect("verify is on");
    if verification.in_solid > 0 {
        return Err(Failure::Invalid(format!(
            "living: {} agent positions in solid, first {:?}",
            verification.in_solid, verification.first
        )));
    }
    Ok(())
}

/// The `[world]` table of a scenario as a TOML world file.
fn world_of_scenario(text: &str) -> Option<String> {
    let mut out = String::new();
    let mut inside = false;
    for line in text.lines() {
        let t = line.trim_start();
        if t.starts_with('[') {
            inside = t.starts_with("[world]") || t.starts_with("[[world.");
            if t.starts_with("[world]") {
                continue;
            }
        }
        if inside {
            out.push_str(&line.replace("[[world.brush]]", "[[brush]]"));
            out.push('\n');
        }
    }
    out.contains("[[brush]]").then_some(out)
}

fn finite(v: DVec3) -> bool {
    v.is_finite()
}

/// A hit is valid: fraction in `[0, 1]`, everything finite.
fn check_hit(hit: &Hit, what: &str) -> Result<(), Failure> {
    let surface_ok = hit.surface().is_none_or(|s| {
        s.plane.normal().is_finite()
            && s.plane.dist().is_finite()
            && s.point.is_finite()
            && s.time_of_impact.is_finite()
    });
    if (0.0..=1.0).contains(&hit.fraction()) && finite(hit.end()) && surface_ok {
        Ok(())
    } else {
        Err(Failure::Invalid(format!("{what}: {hit:?}")))
    }
}

/// Segments across `world`'s bounds (and a little beyond), from `rng`.
fn segments(world: &World, rng: &mut Rng, count: usize) -> Vec<(DVec3, DVec3)> {
    let bounds = world.bounds().loosened(64.0);
    (0..count)
        .map(|_| (rng.point_in(&bounds), rng.point_in(&bounds)))
        .collect()
}

impl Fixtures {
    /// The seeds from the project's `scenarios/` and, when given, the `.map` files of `corpus`.
    pub fn new(corpus: Option<&Path>) -> anyhow::Result<Fixtures> {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let scenarios_dir = root.join("scenarios");
        let mut scenarios = Vec::new();
        let mut maps = Vec::new();
        let mut map_paths = Vec::new();
        for entry in std::fs::read_dir(&scenarios_dir)? {
            let path = entry?.path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            match path.extension().and_then(|e| e.to_str()) {
                Some("toml") => scenarios.push((name, std::fs::read_to_string(&path)?)),
                Some("map") => map_paths.push(path),
                _ => {}
            }
        }
        if let Some(dir) = corpus {
            for entry in std::fs::read_dir(dir)? {
                let path = entry?.path();
                if path.extension().is_some_and(|e| e == "map") {
                    map_paths.push(path);
                }
            }
        }
        scenarios.sort();
        map_paths.sort();
        for path in &map_paths {
            let bytes = std::fs::read(path)?;
            let blocks = worldspawn_blocks(&String::from_utf8_lossy(&bytes));
            if !blocks.is_empty() {
                maps.push(blocks);
            }
        }
        let worlds = scenarios
            .iter()
            .filter_map(|(_, text)| world_of_scenario(text))
            .collect();

        let rooms = cspace_scenario::load_world(&scenarios_dir.join("rooms.map"))?;
        let world = rooms.world;
        let shapes = [player(false)];
        let mut backends = Vec::new();
        for kind in BackendKind::ALL {
            if let Some(collider) = kind.build_for(&world, &shapes)? {
                let prepared = collider.prepare(&shapes[0])?;
                backends.push((collider, prepared));
            }
        }
        let poses = [Pose::quake_standing(), Pose::quake_crouching()];
        let compiled = cspace_onion::compile(&world, &poses, &Default::default())?;
        let tree_bytes = compiled.tree.to_bytes();
        let onion = OnionCollider::new(world.clone(), compiled.tree)?;
        let prepared = [player(false), player(true)]
            .iter()
            .map(|s| onion.prepare(s))
            .collect::<Result<_, _>>()?;
        let baselines = crate::baseline::fixtures(&scenarios_dir)?;
        Ok(Fixtures {
            baselines,
            scenarios_dir,
            scenarios,
            worlds,
            maps,
            world,
            backends,
            tree_bytes,
            tree: (onion, prepared),
        })
    }

    /// How many map excerpts' sources and scenario seeds there are (for the run's header).
    pub fn describe(&self) -> String {
        format!(
            "{} maps to cut excerpts from, {} scenarios, {} TOML worlds, {} backends, a tree of {} bytes, {} baseline files",
            self.maps.len(),
            self.scenarios.len(),
            self.worlds.len(),
            self.backends.len(),
            self.tree_bytes.len(),
            self.baselines.iter().map(|b| b.files.len()).sum::<usize>()
        )
    }

    /// The text of the `baseline` target's seed file `name` (`drop.trace`, `drop-all.trace`,
    /// `exact@drop.toml.snap`, and the same of `rooms`), unmutated.
    pub fn baseline_seed(&self, name: &str) -> Option<&str> {
        self.baselines
            .iter()
            .flat_map(|b| &b.files)
            .find(|(n, _)| n == name)
            .map(|(_, text)| text.as_str())
    }

    /// The input of a case of `target`: a seed, mutated.
    pub fn input(&self, target: Target, rng: &mut Rng) -> Vec<u8> {
        match target {
            Target::Map => {
                let blocks = &self.maps[rng.below(self.maps.len())];
                let count = 1 + rng.below(8).min(blocks.len() - 1);
                let first = rng.below(blocks.len() + 1 - count);
                let mut text = String::from("{\n\"classname\" \"worldspawn\"\n");
                for block in &blocks[first..first + count] {
                    text.push_str(block);
                }
                text.push_str(
                    "}\n{\n\"classname\" \"info_player_start\"\n\"origin\" \"0 0 24\"\n}\n",
                );
                // A third of the cases are entity cases: two to nine entities whose keys are
                // the hostile part, the text left unmutated so that they are read (and, half
                // the time, live).
                if rng.below(3) == 0 {
                    for _ in 0..2 + rng.below(8) {
                        entity(&mut text, blocks, rng);
                    }
                    return text.into_bytes();
                }
                for _ in 0..rng.below(4) {
                    entity(&mut text, blocks, rng);
                }
                // A quarter of the cases add a block past a budget (issue 35) to the
                // worldspawn, mutated only half the time so the budget is what is met.
                if rng.below(4) == 0 {
                    let at = text
                        .find("}\n{\n\"classname\" \"info_player_start\"")
                        .unwrap_or(0);
                    text.insert_str(at, &crate::classes::map_block(rng));
                    if rng.below(2) == 0 {
                        return text.into_bytes();
                    }
                }
                mutate::text(text.as_bytes(), rng)
            }
            Target::Scenario => {
                let (name, text) = &self.scenarios[rng.below(self.scenarios.len())];
                // The scenario's file name first, so the case knows where it lives.
                let mut input = format!("{name}\n").into_bytes();
                // A third of the cases are of issue 35's classes (budgets and names), set a
                // script view (issue 32) or give a fixed list one number more or fewer.
                if rng.below(3) == 0 {
                    input.extend(crate::classes::scenario(text, rng).into_bytes());
                } else {
                    input.extend(mutate::text(text.as_bytes(), rng));
                }
                input
            }
            Target::World => {
                let text = &self.worlds[rng.below(self.worlds.len())];
                // A quarter of the cases give a brush's fixed list one number more or fewer.
                if rng.below(4) == 0 {
                    return crate::classes::list_length(text, rng).into_bytes();
                }
                mutate::text(text.as_bytes(), rng)
            }
            Target::Trace => {
                let mut text = String::new();
                let count = 1 + rng.below(6);
                for (a, b) in segments(&self.world, rng, count) {
                    text.push_str(&format!(
                        "{} {} {} {} {} {}\n",
                        a.x, a.y, a.z, b.x, b.y, b.z
                    ));
                }
                mutate::text(text.as_bytes(), rng)
            }
            Target::Tree => {
                let mut bytes = mutate::binary(&self.tree_bytes, rng);
                // Half the time the checksum is recomputed: the edit must then be caught by
                // what the tree means, not by its checksum.
                if rng.below(2) == 0 && bytes.len() >= 8 {
                    let end = bytes.len() - 8;
                    let sum = fnv1a64(&bytes[..end]);
                    bytes[end..].copy_from_slice(&sum.to_le_bytes());
                }
                bytes
            }
            Target::Baseline => crate::baseline::input(&self.baselines, rng),
        }
    }

    /// Runs one case (panics are caught by [`crate::run_input`]).
    pub fn run(&self, target: Target, input: &[u8]) -> Result<Verdict, Failure> {
        match target {
            Target::Map => self.map(input),
            Target::Scenario => self.scenario(input),
            Target::World => self.toml_world(input),
            Target::Trace => self.trace(input),
            Target::Tree => self.tree(input),
            Target::Baseline => crate::baseline::run(&self.baselines, &self.scenarios_dir, input),
        }
    }

    /// Traces boxes across `world` on the exact reference (and `also`): finite, valid answers.
    fn probe(world: Arc<World>, seed: u64, also: Option<BackendKind>) -> Result<(), Failure> {
        let mut rng = Rng::new(seed);
        let shape = player(false);
        let mut colliders: Vec<Arc<dyn Collider>> =
            vec![Arc::new(ExactCollider::new(world.clone()))];
        if let Some(kind) = also {
            match kind.build_for(&world, std::slice::from_ref(&shape)) {
                Ok(Some(c)) => colliders.push(c),
                Ok(None) => {}
                Err(e) => {
                    return Err(Failure::Invalid(format!(
                        "{} refused a valid world: {e}",
                        kind.name()
                    )));
                }
            }
        }
        let segments = segments(&world, &mut rng, 12);
        for collider in colliders {
            let prepared = collider
                .prepare(&shape)
                .map_err(|e| Failure::Invalid(e.to_string()))?;
            let mut ctx = QueryContext::new();
            for &(a, b) in &segments {
                check_hit(&collider.trace(&mut ctx, &prepared, a, b), collider.name())?;
                collider.is_solid(&mut ctx, &prepared, a);
            }
        }
        Ok(())
    }

    fn map(&self, input: &[u8]) -> Result<Verdict, Failure> {
        // Half the cases read the entities with the other dialect, half let movers live.
        let seed = fnv1a64(input);
        let options = cspace_mapfile::BuildOptions {
            dialect: (seed & 1 == 1).then_some(cspace_entities::Dialect::Quake3),
            living: seed & 2 == 2,
            ..cspace_mapfile::BuildOptions::default()
        };
        match cspace_mapfile::load_world(input, MAP_NAME, &options) {
            Ok(map) => {
                check_entities(&map.living)?;
                if map.world.brushes().is_empty() {
                    return Ok(Verdict::Accepted);
                }
                let world = Arc::new(map.world);
                Self::probe(world.clone(), fnv1a64(input), None)?;
                if options.living {
                    live(world, Arc::new(map.living), fnv1a64(input))?;
                }
                Ok(Verdict::Accepted)
            }
            Err(e) => self.refused(&e.to_string(), MAP_NAME),
        }
    }

    fn toml_world(&self, input: &[u8]) -> Result<Verdict, Failure> {
        let path = self.scenarios_dir.join(WORLD_NAME);
        let text = match cspace_scenario::location::text_of(&path, input.to_vec()) {
            Ok(text) => text,
            Err(e) => return self.refused(&e.to_string(), WORLD_NAME),
        };
        match cspace_scenario::world_file::parse_world(&path, &text) {
            Ok(loaded) => {
                let also = [BackendKind::MelaxExact, BackendKind::Onion][input.len() % 2];
                Self::probe(loaded.world, fnv1a64(input), Some(also))?;
                Ok(Verdict::Accepted)
            }
            Err(e) => self.refused(&e.to_string(), WORLD_NAME),
        }
    }

    fn refused(&self, message: &str, file: &str) -> Result<Verdict, Failure> {
        refused_in(message, file)
    }

    fn scenario(&self, input: &[u8]) -> Result<Verdict, Failure> {
        let (name, body) = named(input);
        let path = self.scenarios_dir.join(&name);
        let text = match cspace_scenario::location::text_of(&path, body.to_vec()) {
            Ok(text) => text,
            Err(e) => return self.refused(&e.to_string(), &name),
        };
        let mut scenario = match Scenario::parse(&path, &text) {
            Ok(s) => s,
            Err(e) => {
                let message = e.to_string();
                short(&message)?;
                // A scenario's map is a file of its own: its errors name that file.
                return if message.contains(&name) || message.contains(".map:") {
                    Ok(Verdict::Refused(message.to_string()))
                } else {
                    Err(Failure::Unlocated(message))
                };
            }
        };
        if scenario.agents.len() > SCENARIO_AGENTS || scenario.backends.is_empty() {
            return Ok(Verdict::Accepted);
        }
        scenario.steps = scenario.steps.min(SCENARIO_STEPS);
        let backend = scenario.backends[fnv1a64(input) as usize % scenario.backends.len()];
        let options = RunOptions {
            verify: true,
            ..RunOptions::default()
        };
        match cspace_scenario::run_scenario(&scenario, backend, options) {
            Ok(outcome) => {
                for state in outcome.finals() {
                    if !(finite(state.position) && finite(state.velocity)) {
                        return Err(Failure::Invalid(format!(
                            "{name} on {}: agent {} ends at {} moving {}",
                            backend.name(),
                            state.id.0,
                            state.position,
                            state.velocity
                        )));
                    }
                }
                let not_finite = |token: &str| ["NaN", "inf", "-inf"].contains(&token);
                if outcome
                    .trace()
                    .split([' ', '(', ')', ',', '\n'])
                    .any(not_finite)
                {
                    return Err(Failure::Invalid(format!(
                        "{name} on {}: the trace has a number that is not finite",
                        backend.name()
                    )));
                }
                Ok(Verdict::Accepted)
            }
            Err(e) => {
                let message = e.to_string();
                short(&message)?;
                if message.contains(&name) {
                    Ok(Verdict::Refused(message.to_string()))
                } else {
                    Err(Failure::Unlocated(message))
                }
            }
        }
    }

    fn trace(&self, input: &[u8]) -> Result<Verdict, Failure> {
        let mut verdict = Verdict::Accepted;
        for (collider, prepared) in &self.backends {
            let mut ctx = QueryContext::new();
            let mut output = Vec::new();
            match cspace_scenario::segments::trace_lines(
                collider.as_ref(),
                &mut ctx,
                prepared,
                input,
                "stdin",
                &mut output,
            ) {
                Ok(_) => {
                    for line in String::from_utf8_lossy(&output).lines() {
                        let answer: serde_json::Value =
                            serde_json::from_str(line).map_err(|e| {
                                Failure::Invalid(format!("{}: {e}: {line}", collider.name()))
                            })?;
                        let numbers_ok = ["end", "fraction"].iter().all(|k| {
                            let v = &answer[*k];
                            v.is_number()
                                || v.as_array()
                                    .is_some_and(|a| a.iter().all(|c| c.is_number()))
                        });
                        if !numbers_ok {
                            return Err(Failure::Invalid(format!("{}: {line}", collider.name())));
                        }
                    }
                }
                Err(e) => {
                    let message = e.to_string();
                    short(&message)?;
                    if !located(&message, "stdin") {
                        return Err(Failure::Unlocated(message));
                    }
                    verdict = Verdict::Refused(message);
                }
            }
        }
        Ok(verdict)
    }

    fn tree(&self, input: &[u8]) -> Result<Verdict, Failure> {
        let tree = match OnionTree::from_bytes(input) {
            Ok(tree) => tree,
            Err(e) => return refused_anywhere(e.to_string()),
        };
        let collider = match OnionCollider::new(self.world.clone(), tree) {
            Ok(c) => c,
            Err(e) => return refused_anywhere(e.to_string()),
        };
        if let Err(e) = collider
            .tree()
            .verify(&self.world, &VerifyOptions::default())
        {
            return refused_anywhere(e.to_string());
        }
        // Loaded and verified: it must answer as the tree it was made from.
        let (original, prepared) = &self.tree;
        let mut rng = Rng::new(fnv1a64(input));
        let (mut a_ctx, mut b_ctx) = (QueryContext::new(), QueryContext::new());
        // Each collider traces the shapes it prepared itself (a prepared shape's slot indexes its
        // own tree's poses, which an edit may have reordered); a pose the edited tree lacks has
        // nothing to compare.
        let mine_prepared: Vec<Option<Prepared>> = prepared
            .iter()
            .map(|p| collider.prepare(p.shape()).ok())
            .collect();
        for (a, b) in segments(&self.world, &mut rng, 24) {
            for (shape, mine_shape) in prepared.iter().zip(&mine_prepared) {
                let Some(mine_shape) = mine_shape else {
                    continue;
                };
                let mine = collider.trace(&mut a_ctx, mine_shape, a, b);
                let theirs = original.trace(&mut b_ctx, shape, a, b);
                check_hit(&mine, "edited tree")?;
                // Verify lets planes move by less than 1e-11: answers may differ in the last bits.
                if (mine.end() - theirs.end()).length() > ANSWER_AGREEMENT
                    || mine.surface().is_some() != theirs.surface().is_some()
                {
                    return Err(Failure::Invalid(format!(
                        "a tree that loads and verifies answers {a} -> {b} with {} where the original answers {}",
                        mine.fraction(),
                        theirs.fraction()
                    )));
                }
            }
        }
        Ok(Verdict::Accepted)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_are_located_by_file_line_and_column() {
        assert!(located("fuzz.map:3:14: expected a number", "fuzz.map"));
        assert!(located("/a/b/fuzz.map:3:14: x", "fuzz.map"));
        assert!(!located("fuzz.map: expected a number", "fuzz.map"));
        assert!(!located("fuzz.map:3: x", "fuzz.map"));
        assert!(!located("stream did not contain valid UTF-8", "fuzz.map"));
    }

    #[test]
    fn scenario_worlds_become_toml_worlds() {
        let text = "name = \"x\"\n[world]\nmap = \"rooms.map\"\n[[world.brush]]\nbox = {}\n[[agent]]\npose = \"a\"\n";
        assert_eq!(
            world_of_scenario(text).unwrap(),
            "map = \"rooms.map\"\n[[brush]]\nbox = {}\n"
        );
    }
}
