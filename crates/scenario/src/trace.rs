//! The contact trace: one typed record of a run ([`RunRecord`]: its header, its events, its
//! sampled states and every agent's final state), and the line-oriented text it is written as,
//! made for readable diffs and parsed back into the same record (`docs/trace-format.md`
//! documents it).
//!
//! A header (scenario, backend, steps, time step, agents, sampling), one line per event (contacts
//! with what was hit, point, normal and time of impact; unsticking; refused stands; sleep), the
//! trajectory sampled every N steps, and the final state of every agent. Numbers have fixed
//! decimals with `-0` folded to `0`, so float noise below the last decimal does not churn
//! snapshots; a record read back holds the numbers as written.

use std::fmt::Write as _;

use cspace_entities::LiquidKind;
use cspace_geom::domain::{self, Quantity};
use cspace_geom::{BrushId, DVec3};
use cspace_sim::{
    AgentId, AgentState, ContactEvent, Event, EventKind, GotoFailure, MoverEvent, MoverEventKind,
    Pose, Sample, Sim, Touched,
};

/// The version written in the first line.
pub const VERSION: u32 = 1;

/// The largest magnitude of a number a trace holds that no quantity of the numeric domain bounds
/// (distances travelled, path lengths, depths, counts): 2^53, the last integer a double holds
/// exactly. A file that claims more is refused where it says so, before a plot or a report
/// scales an axis to it (1e200 made them loop for ever).
const MAX_TRACE_NUMBER: f64 = 9_007_199_254_740_992.0;

/// Decimals of positions, velocities and distances.
const POSITION_DECIMALS: usize = 3;
/// Decimals of normals and times of impact.
const UNIT_DECIMALS: usize = 4;

/// A number with `decimals` fixed decimals, `-0` folded to `0`.
pub fn fixed(value: f64, decimals: usize) -> String {
    let text = format!("{:.*}", decimals, value + 0.0);
    // Rounding can turn a small negative number into "-0.000".
    if text.starts_with('-') && text[1..].chars().all(|c| c == '0' || c == '.') {
        text[1..].to_string()
    } else {
        text
    }
}

/// A number for people: at most `decimals` decimals, trailing zeros dropped, `-0` folded to `0`
/// (`-1536.0000000000002` is `-1536`, `24.03125` with 3 decimals `24.031`); in exponent form from
/// a billion on (`1e308`, not 309 digits).
pub fn compact(value: f64, decimals: usize) -> String {
    // not a tolerance: where plain digits stop being readable (as cspace_geom::domain::number)
    if value.is_finite() && value.abs() >= 1e9 {
        return cspace_geom::domain::number(value).to_string();
    }
    let text = fixed(value, decimals);
    if text.contains('.') {
        let trimmed = text.trim_end_matches('0').trim_end_matches('.');
        if trimmed == "-0" {
            "0".to_string()
        } else {
            trimmed.to_string()
        }
    } else {
        text
    }
}

/// A vector for people: `(x, y, z)` with [`compact`] numbers.
pub fn compact_vector(v: DVec3, decimals: usize) -> String {
    format!(
        "({}, {}, {})",
        compact(v.x, decimals),
        compact(v.y, decimals),
        compact(v.z, decimals)
    )
}

fn vector(v: DVec3, decimals: usize) -> String {
    format!(
        "({}, {}, {})",
        fixed(v.x, decimals),
        fixed(v.y, decimals),
        fixed(v.z, decimals)
    )
}

/// The header of a trace.
#[derive(Debug, Clone, PartialEq)]
pub struct Header {
    /// The scenario's name.
    pub scenario: String,
    /// The backend's name.
    pub backend: String,
    /// Steps run.
    pub steps: u64,
    /// Seconds per step.
    pub time_step: f64,
    /// Number of agents.
    pub agents: usize,
    /// Trajectory sampling, in steps.
    pub sample_every: u64,
}

/// An agent's state at the end of a run, with its totals as the trace says them.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FinalState {
    /// The state.
    pub state: AgentState,
    /// Distance travelled, units.
    pub distance: f64,
    /// Contacts recorded.
    pub contacts: u64,
    /// Seconds ended on walkable ground.
    pub ground_time: f64,
}

/// One record of a run: what the trace text is written from and parsed into, and what plots,
/// reports and comparisons read.
#[derive(Debug, Clone, PartialEq)]
pub struct RunRecord {
    /// The header.
    pub header: Header,
    /// The events, in the order they happened.
    pub events: Vec<Event>,
    /// The sampled states (every `sample_every` steps, the first and the last).
    pub samples: Vec<Sample>,
    /// Every agent's final state, in id order.
    pub finals: Vec<FinalState>,
    /// The movers' events, in the order they happened (a living world's; none otherwise).
    pub movers: Vec<MoverEvent>,
}

impl RunRecord {
    /// The record of `sim` as it stands (its kept events and samples, its agents' states and
    /// totals), under `header`.
    pub fn of(header: Header, sim: &Sim) -> RunRecord {
        let finals = sim
            .states()
            .map(|state| {
                let totals = sim.totals(state.id).expect("every listed agent has totals");
                FinalState {
                    state,
                    distance: totals.distance,
                    contacts: totals.contacts,
                    ground_time: totals.steps_on_ground as f64 * header.time_step,
                }
            })
            .collect();
        RunRecord {
            header,
            events: sim.events().to_vec(),
            samples: sim.samples().to_vec(),
            finals,
            movers: sim.mover_events().to_vec(),
        }
    }

    /// Every sampled state of `agent`, with its step, in step order.
    pub fn trajectory(&self, agent: AgentId) -> impl Iterator<Item = (u64, &AgentState)> + '_ {
        self.samples.iter().filter_map(move |s| {
            s.states
                .iter()
                .find(|a| a.id == agent)
                .map(|state| (s.step, state))
        })
    }

    /// The record as trace text ([`write()`]).
    pub fn text(&self) -> String {
        write(self)
    }

    /// The record with every number as its trace text writes it (positions, velocities and
    /// distances to 3 decimals, normals and times of impact to 4): what a record read back from
    /// the text holds, so that a run compares with a recorded trace number for number.
    pub fn as_written(&self) -> RunRecord {
        let p = |x: f64| written(x, POSITION_DECIMALS);
        let u = |x: f64| written(x, UNIT_DECIMALS);
        let pv = |v: DVec3| DVec3::new(p(v.x), p(v.y), p(v.z));
        let uv = |v: DVec3| DVec3::new(u(v.x), u(v.y), u(v.z));
        let state = |s: &AgentState| AgentState {
            position: pv(s.position),
            velocity: pv(s.velocity),
            ..*s
        };
        let kind = |k: EventKind| match k {
            EventKind::Contact(c) => EventKind::Contact(ContactEvent {
                point: pv(c.point),
                normal: uv(c.normal),
                time_of_impact: u(c.time_of_impact),
                depth: if c.depth > 0.0 { p(c.depth) } else { 0.0 },
                ..c
            }),
            EventKind::Unstuck { from, to, nudged } => EventKind::Unstuck {
                from: pv(from),
                to: pv(to),
                nudged,
            },
            EventKind::Stuck { at } => EventKind::Stuck { at: pv(at) },
            EventKind::LeftWorld { at } => EventKind::LeftWorld { at: pv(at) },
            EventKind::Planned {
                to,
                waypoints,
                length,
                replan,
            } => EventKind::Planned {
                to: pv(to),
                waypoints,
                length: p(length),
                replan,
            },
            EventKind::Arrived { at } => EventKind::Arrived { at: pv(at) },
            EventKind::GotoFailed { to, why } => EventKind::GotoFailed { to: pv(to), why },
            EventKind::Hurt { trigger, damage } => EventKind::Hurt {
                trigger,
                damage: p(damage),
            },
            EventKind::Teleported { trigger, from, to } => EventKind::Teleported {
                trigger,
                from: pv(from),
                to: pv(to),
            },
            EventKind::TeleportRefused { trigger, to } => EventKind::TeleportRefused {
                trigger,
                to: pv(to),
            },
            EventKind::TargetPushed { push, velocity } => EventKind::TargetPushed {
                push,
                velocity: pv(velocity),
            },
            other => other,
        };
        RunRecord {
            header: self.header.clone(),
            events: self
                .events
                .iter()
                .map(|e| Event {
                    kind: kind(e.kind),
                    ..*e
                })
                .collect(),
            samples: self
                .samples
                .iter()
                .map(|s| Sample {
                    step: s.step,
                    states: s.states.iter().map(state).collect(),
                })
                .collect(),
            finals: self
                .finals
                .iter()
                .map(|f| FinalState {
                    state: state(&f.state),
                    distance: p(f.distance),
                    ground_time: p(f.ground_time),
                    ..*f
                })
                .collect(),
            movers: self.movers.clone(),
        }
    }
}

/// `value` as the trace writes it with `decimals` decimals, read back.
fn written(value: f64, decimals: usize) -> f64 {
    fixed(value, decimals)
        .parse()
        .expect("fixed writes a number")
}

/// How a trace names what a contact touched: `world brush N` or `agent N`.
pub fn target_text(target: Touched) -> String {
    match target {
        Touched::Brush(brush) => format!("world brush {brush}"),
        Touched::Agent(a) => format!("agent {a}"),
    }
}

/// What an event line says after `step S agent A`.
pub fn event_text(kind: &EventKind) -> String {
    let p = |v: DVec3| vector(v, POSITION_DECIMALS);
    let n = |v: DVec3| vector(v, UNIT_DECIMALS);
    match *kind {
        EventKind::Contact(c) => {
            let depth = if c.depth > 0.0 {
                format!(" depth {}", fixed(c.depth, POSITION_DECIMALS))
            } else {
                String::new()
            };
            format!(
                "contact {} point {} normal {} toi {}{depth}",
                target_text(c.target),
                p(c.point),
                n(c.normal),
                fixed(c.time_of_impact, UNIT_DECIMALS)
            )
        }
        EventKind::Unstuck { from, to, nudged } => {
            format!(
                "unstuck from {} to {} {}",
                p(from),
                p(to),
                if nudged { "nudged" } else { "searched" }
            )
        }
        EventKind::Stuck { at } => format!("stuck at {}", p(at)),
        EventKind::LeftWorld { at } => format!("left the world at {}", p(at)),
        EventKind::StandRefused => "stand refused".to_string(),
        EventKind::Planned {
            to,
            waypoints,
            length,
            replan,
        } => format!(
            "{} a path to {}: {waypoints} waypoints, {} units",
            if replan { "replanned" } else { "planned" },
            p(to),
            fixed(length, POSITION_DECIMALS)
        ),
        EventKind::Arrived { at } => format!("arrived at {}", p(at)),
        EventKind::GotoFailed { to, why } => {
            format!("cannot go to {}: {}", p(to), why.describe())
        }
        EventKind::Slept => "slept".to_string(),
        EventKind::Woke => "woke".to_string(),
        EventKind::Rides { mover } => format!("rides mover {mover}"),
        EventKind::Touches { trigger, entity } => {
            format!("touches trigger {trigger} entity {entity}")
        }
        EventKind::Hurt { trigger, damage } => format!(
            "hurt by trigger {trigger} damage {}",
            fixed(damage, POSITION_DECIMALS)
        ),
        EventKind::Teleported { trigger, from, to } => format!(
            "teleported by trigger {trigger} from {} to {}",
            p(from),
            p(to)
        ),
        EventKind::TeleportRefused { trigger, to } => {
            format!("teleport refused by trigger {trigger} to {}", p(to))
        }
        EventKind::TargetPushed { push, velocity } => {
            format!("pushed by target_push {push} velocity {}", p(velocity))
        }
        EventKind::WaterLevel { level, liquid } => match liquid {
            Some(l) => format!("water level {level} {}", l.name()),
            None => format!("water level {level}"),
        },
        EventKind::LiquidDamage { liquid, damage } => format!(
            "liquid damage {} {}",
            liquid.name(),
            fixed(damage, POSITION_DECIMALS)
        ),
    }
}

/// What a mover's event line says after `step S mover M`.
pub fn mover_event_text(kind: &MoverEventKind) -> String {
    match kind {
        MoverEventKind::Started => "started".to_string(),
        MoverEventKind::Reached => "reached its end".to_string(),
        MoverEventKind::Blocked { agent } => format!("blocked by agent {agent}"),
        MoverEventKind::Reversed => "reversed".to_string(),
        MoverEventKind::Removed => "removed".to_string(),
    }
}

/// Writes a record as trace text.
pub fn write(record: &RunRecord) -> String {
    let header = &record.header;
    let mut out = String::new();
    writeln!(out, "cspace trace {VERSION}").unwrap();
    writeln!(out, "scenario {}", header.scenario).unwrap();
    writeln!(out, "backend {}", header.backend).unwrap();
    writeln!(out, "steps {}", header.steps).unwrap();
    writeln!(out, "time_step {}", header.time_step).unwrap();
    writeln!(out, "agents {}", header.agents).unwrap();
    writeln!(out, "sample_every {}", header.sample_every).unwrap();
    writeln!(out).unwrap();
    writeln!(out, "events").unwrap();
    // A step's agents' events, then its movers' (the movers move after the agents).
    let mut movers = record.movers.iter().peekable();
    let mover_line = |out: &mut String, m: &MoverEvent| {
        writeln!(
            out,
            "  step {} mover {} {}",
            m.step,
            m.mover,
            mover_event_text(&m.kind)
        )
        .unwrap();
    };
    for e in &record.events {
        while let Some(m) = movers.next_if(|m| m.step < e.step) {
            mover_line(&mut out, m);
        }
        writeln!(
            out,
            "  step {} agent {} {}",
            e.step,
            e.agent,
            event_text(&e.kind)
        )
        .unwrap();
    }
    for m in movers {
        mover_line(&mut out, m);
    }
    writeln!(out).unwrap();
    writeln!(out, "trajectory").unwrap();
    for sample in &record.samples {
        for s in &sample.states {
            writeln!(
                out,
                "  step {} agent {} {}",
                sample.step,
                s.id,
                state_text(s)
            )
            .unwrap();
        }
    }
    writeln!(out).unwrap();
    writeln!(out, "final").unwrap();
    for f in &record.finals {
        writeln!(
            out,
            "  agent {} {} distance {} contacts {} ground_time {}",
            f.state.id,
            state_text(&f.state),
            fixed(f.distance, POSITION_DECIMALS),
            f.contacts,
            fixed(f.ground_time, POSITION_DECIMALS)
        )
        .unwrap();
    }
    out
}

fn state_text(s: &AgentState) -> String {
    let mut text = format!(
        "position {} velocity {} {} {} {}",
        vector(s.position, POSITION_DECIMALS),
        vector(s.velocity, POSITION_DECIMALS),
        s.pose.name(),
        if s.on_ground { "ground" } else { "air" },
        if s.asleep { "asleep" } else { "awake" }
    );
    // Only in a liquid, so traces of dry agents read as before.
    if let (level @ 1.., Some(liquid)) = (s.water_level, s.liquid) {
        write!(text, " water {level} {}", liquid.name()).expect("writing to a String");
    }
    text
}

/// A trace read back: its record, and where its header is in the file read.
#[derive(Debug, Clone, PartialEq)]
pub struct Trace {
    /// The record.
    pub record: RunRecord,
    /// The 1-based line of the `scenario` header line in the file read (for errors that name it).
    pub scenario_line: usize,
}

/// Why a trace could not be read: where, and what was wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{line}:{column}: {message}")]
pub struct TraceError {
    /// 1-based line in the file read (snapshot header included).
    pub line: usize,
    /// 1-based column (in characters) of the offending word.
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

/// The longest offending word quoted whole in an error; longer ones are cut (with their length).
const QUOTED_WORD: usize = 40;

/// A word for an error message: quoted, and cut when long (a megabyte of digits is not echoed).
pub(crate) fn quoted(word: &str) -> String {
    if word.chars().count() <= QUOTED_WORD {
        format!("{word:?}")
    } else {
        let head: String = word.chars().take(QUOTED_WORD).collect();
        format!("{head:?}... ({} characters)", word.chars().count())
    }
}

/// Words of a line with vector punctuation removed: `(1.0, 2.0, 3.0)` becomes three words.
fn words(line: &str) -> Vec<&str> {
    line.split(|c: char| c.is_whitespace() || c == '(' || c == ')' || c == ',')
        .filter(|w| !w.is_empty())
        .collect()
}

struct Words<'a> {
    text: &'a str,
    words: Vec<&'a str>,
    at: usize,
    line: usize,
}

impl<'a> Words<'a> {
    fn new(text: &'a str, line: usize) -> Words<'a> {
        Words {
            text,
            words: words(text),
            at: 0,
            line,
        }
    }

    /// An error at the word read last (or the line's end).
    fn err<T>(&self, message: impl Into<String>) -> Result<T, TraceError> {
        let column = match self.at.checked_sub(1).and_then(|i| self.words.get(i)) {
            // A word is a slice of the line: its byte offset gives the column.
            Some(w) => {
                let offset = w.as_ptr() as usize - self.text.as_ptr() as usize;
                self.text[..offset].chars().count() + 1
            }
            None => self.text.chars().count() + 1,
        };
        Err(TraceError {
            line: self.line,
            column,
            message: message.into(),
        })
    }

    fn next(&mut self) -> Result<&'a str, TraceError> {
        let w = self.words.get(self.at).copied();
        self.at += 1;
        w.map_or_else(|| self.err("line ends early"), Ok)
    }

    fn expect(&mut self, word: &str) -> Result<(), TraceError> {
        let w = self.next()?;
        if w == word {
            Ok(())
        } else {
            self.err(format!("expected {word:?}, found {}", quoted(w)))
        }
    }

    fn number<T: std::str::FromStr>(&mut self) -> Result<T, TraceError> {
        let w = self.next()?;
        w.parse()
            .map_or_else(|_| self.err(format!("{} is not a number", quoted(w))), Ok)
    }

    /// A number within `quantity`'s domain (`cspace_geom::domain`).
    fn within(&mut self, quantity: Quantity) -> Result<f64, TraceError> {
        let value: f64 = self.number()?;
        domain::check(quantity, value).map_or_else(|e| self.err(e.to_string()), Ok)
    }

    /// A point or velocity, each coordinate within `quantity`'s domain.
    fn point(&mut self, quantity: Quantity) -> Result<DVec3, TraceError> {
        Ok(DVec3::new(
            self.within(quantity)?,
            self.within(quantity)?,
            self.within(quantity)?,
        ))
    }

    /// A number in `lo..=hi` (a NaN never is).
    fn in_range(&mut self, lo: f64, hi: f64) -> Result<f64, TraceError> {
        let value: f64 = self.number()?;
        if (lo..=hi).contains(&value) {
            Ok(value)
        } else {
            self.err(format!("{value} is outside {lo}..={hi}"))
        }
    }

    /// A water level, 0 to 3.
    fn water_level(&mut self) -> Result<u8, TraceError> {
        let level: u8 = self.number()?;
        if level <= 3 {
            Ok(level)
        } else {
            self.err(format!("water level {level} is outside 0..=3"))
        }
    }

    /// A liquid's name (`water`, `slime`, `lava`).
    fn liquid(&mut self) -> Result<LiquidKind, TraceError> {
        let name = self.next()?;
        match [LiquidKind::Water, LiquidKind::Slime, LiquidKind::Lava]
            .into_iter()
            .find(|l| l.name() == name)
        {
            Some(l) => Ok(l),
            None => self.err(format!("unknown liquid {}", quoted(name))),
        }
    }

    /// The next word, not taken.
    fn peek(&self) -> Option<&'a str> {
        self.words.get(self.at).copied()
    }

    /// The line must end here.
    fn end(&mut self) -> Result<(), TraceError> {
        match self.peek() {
            None => Ok(()),
            Some(w) => {
                self.at += 1;
                self.err(format!("unexpected {} at the end of the line", quoted(w)))
            }
        }
    }

    fn rest(&self) -> String {
        self.words[self.at.min(self.words.len())..].join(" ")
    }
}

fn state(w: &mut Words, id: AgentId) -> Result<AgentState, TraceError> {
    w.expect("position")?;
    let position = w.point(Quantity::TraceCoordinate)?;
    w.expect("velocity")?;
    let velocity = w.point(Quantity::Speed)?;
    let name = w.next()?;
    let Some(pose) = Pose::from_name(name) else {
        return w.err(format!("unknown pose {}", quoted(name)));
    };
    let on_ground = match w.next()? {
        "ground" => true,
        "air" => false,
        other => return w.err(format!("expected ground or air, found {}", quoted(other))),
    };
    let asleep = match w.next()? {
        "asleep" => true,
        "awake" => false,
        other => return w.err(format!("expected asleep or awake, found {}", quoted(other))),
    };
    let (water_level, liquid) = if w.peek() == Some("water") {
        w.next()?;
        let level = w.water_level()?;
        if level == 0 {
            return w.err("an agent out of every liquid writes no water level");
        }
        (level, Some(w.liquid()?))
    } else {
        (0, None)
    };
    Ok(AgentState {
        id,
        position,
        velocity,
        pose,
        on_ground,
        asleep,
        water_level,
        liquid,
    })
}

/// The event whose words follow `step S agent A` ([`event_text`] read back); an agent it
/// touches is one of the header's `agents` (found by the fuzzer's `baseline` target: a contact
/// with agent 4294967295 in a trace of 4).
fn event(w: &mut Words, agents: usize) -> Result<EventKind, TraceError> {
    let first = w.next()?;
    Ok(match first {
        "contact" => {
            let target = match w.next()? {
                "world" => {
                    w.expect("brush")?;
                    Touched::Brush(BrushId(w.number()?))
                }
                "agent" => Touched::Agent(agent_id(w, agents)?),
                other => {
                    return w.err(format!("expected world or agent, found {}", quoted(other)));
                }
            };
            w.expect("point")?;
            let point = w.point(Quantity::TraceCoordinate)?;
            w.expect("normal")?;
            let normal = DVec3::new(
                w.in_range(-1.0, 1.0)?,
                w.in_range(-1.0, 1.0)?,
                w.in_range(-1.0, 1.0)?,
            );
            w.expect("toi")?;
            let time_of_impact = w.in_range(0.0, 1.0)?;
            let depth = if w.peek() == Some("depth") {
                w.next()?;
                w.in_range(0.0, MAX_TRACE_NUMBER)?
            } else {
                0.0
            };
            EventKind::Contact(ContactEvent {
                target,
                point,
                normal,
                time_of_impact,
                depth,
            })
        }
        "unstuck" => {
            w.expect("from")?;
            let from = w.point(Quantity::TraceCoordinate)?;
            w.expect("to")?;
            let to = w.point(Quantity::TraceCoordinate)?;
            let nudged = match w.next()? {
                "nudged" => true,
                "searched" => false,
                other => {
                    return w.err(format!(
                        "expected nudged or searched, found {}",
                        quoted(other)
                    ));
                }
            };
            EventKind::Unstuck { from, to, nudged }
        }
        "stuck" => {
            w.expect("at")?;
            EventKind::Stuck {
                at: w.point(Quantity::TraceCoordinate)?,
            }
        }
        "left" => {
            for word in ["the", "world", "at"] {
                w.expect(word)?;
            }
            EventKind::LeftWorld {
                at: w.point(Quantity::TraceCoordinate)?,
            }
        }
        "stand" => {
            w.expect("refused")?;
            EventKind::StandRefused
        }
        "planned" | "replanned" => {
            for word in ["a", "path", "to"] {
                w.expect(word)?;
            }
            let to = w.point(Quantity::TraceCoordinate)?;
            w.expect(":")?;
            let waypoints = w.number()?;
            w.expect("waypoints")?;
            let length = w.in_range(0.0, MAX_TRACE_NUMBER)?;
            w.expect("units")?;
            EventKind::Planned {
                to,
                waypoints,
                length,
                replan: first == "replanned",
            }
        }
        "arrived" => {
            w.expect("at")?;
            EventKind::Arrived {
                at: w.point(Quantity::TraceCoordinate)?,
            }
        }
        "cannot" => {
            for word in ["go", "to"] {
                w.expect(word)?;
            }
            let to = w.point(Quantity::TraceCoordinate)?;
            w.expect(":")?;
            let said = w.rest();
            w.at = w.words.len();
            match GotoFailure::ALL.into_iter().find(|f| f.describe() == said) {
                Some(why) => EventKind::GotoFailed { to, why },
                None => return w.err(format!("unknown goto failure {}", quoted(&said))),
            }
        }
        "slept" => EventKind::Slept,
        "woke" => EventKind::Woke,
        "rides" => {
            w.expect("mover")?;
            EventKind::Rides { mover: w.number()? }
        }
        "touches" => {
            w.expect("trigger")?;
            let trigger = w.number()?;
            w.expect("entity")?;
            EventKind::Touches {
                trigger,
                entity: w.number()?,
            }
        }
        "hurt" => {
            for word in ["by", "trigger"] {
                w.expect(word)?;
            }
            let trigger = w.number()?;
            w.expect("damage")?;
            EventKind::Hurt {
                trigger,
                damage: w.in_range(-MAX_TRACE_NUMBER, MAX_TRACE_NUMBER)?,
            }
        }
        "teleported" => {
            for word in ["by", "trigger"] {
                w.expect(word)?;
            }
            let trigger = w.number()?;
            w.expect("from")?;
            let from = w.point(Quantity::TraceCoordinate)?;
            w.expect("to")?;
            EventKind::Teleported {
                trigger,
                from,
                to: w.point(Quantity::TraceCoordinate)?,
            }
        }
        "pushed" => {
            for word in ["by", "target_push"] {
                w.expect(word)?;
            }
            let push = w.number()?;
            w.expect("velocity")?;
            EventKind::TargetPushed {
                push,
                velocity: w.point(Quantity::Speed)?,
            }
        }
        "teleport" => {
            for word in ["refused", "by", "trigger"] {
                w.expect(word)?;
            }
            let trigger = w.number()?;
            w.expect("to")?;
            EventKind::TeleportRefused {
                trigger,
                to: w.point(Quantity::TraceCoordinate)?,
            }
        }
        "water" => {
            w.expect("level")?;
            let level = w.water_level()?;
            let liquid = match w.peek() {
                Some(_) => Some(w.liquid()?),
                None => None,
            };
            EventKind::WaterLevel { level, liquid }
        }
        "liquid" => {
            w.expect("damage")?;
            let liquid = w.liquid()?;
            let damage = w.in_range(0.0, MAX_TRACE_NUMBER)?;
            EventKind::LiquidDamage { liquid, damage }
        }
        other => return w.err(format!("unknown event {}", quoted(other))),
    })
}

/// The mover's event whose words follow `step S mover M` ([`mover_event_text`] read back).
fn mover_event(w: &mut Words, agents: usize) -> Result<MoverEventKind, TraceError> {
    Ok(match w.next()? {
        "started" => MoverEventKind::Started,
        "reached" => {
            w.expect("its")?;
            w.expect("end")?;
            MoverEventKind::Reached
        }
        "blocked" => {
            w.expect("by")?;
            w.expect("agent")?;
            MoverEventKind::Blocked {
                agent: agent_id(w, agents)?,
            }
        }
        "reversed" => MoverEventKind::Reversed,
        "removed" => MoverEventKind::Removed,
        other => return w.err(format!("unknown mover event {}", quoted(other))),
    })
}

/// Reads one trace back. An insta snapshot file is accepted too: its `---`-delimited header is
/// skipped. A file holding several traces (see [`parse_all`]) is an error here.
pub fn parse(text: &str) -> Result<Trace, TraceError> {
    let mut traces = parse_all(text)?;
    if traces.len() > 1 {
        return Err(TraceError {
            line: traces[1].scenario_line.saturating_sub(1).max(1),
            column: 1,
            message: format!(
                "the file holds {} traces (backends {}); expected one",
                traces.len(),
                traces
                    .iter()
                    .map(|t| t.record.header.backend.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        });
    }
    Ok(traces.remove(0))
}

/// Reads every trace of a file: `sim run --trace FILE` writes one per backend, one after
/// another, each from its `cspace trace` line. An insta snapshot (one trace behind a
/// `---`-delimited header) is accepted too.
pub fn parse_all(text: &str) -> Result<Vec<Trace>, TraceError> {
    let mut lines: Vec<&str> = text.lines().collect();
    let mut offset = 0;
    if lines.first() == Some(&"---") {
        let end = lines[1..]
            .iter()
            .position(|l| *l == "---")
            .map_or(0, |i| i + 2);
        offset = end;
        lines.drain(..end);
    }
    let mut starts: Vec<usize> = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l.starts_with("cspace trace"))
        .map(|(i, _)| i)
        .collect();
    if starts.first() != Some(&0) {
        starts.insert(0, 0);
    }
    let mut traces = Vec::with_capacity(starts.len());
    for (k, &start) in starts.iter().enumerate() {
        let end = starts.get(k + 1).copied().unwrap_or(lines.len());
        traces.push(parse_lines(&lines[start..end], offset + start)?);
    }
    Ok(traces)
}

/// What a header line holds after its key, as written.
fn after_key(line: &str, key: &str) -> String {
    line.split_once(key)
        .map_or("", |(_, rest)| rest)
        .trim()
        .to_string()
}

/// An agent id below the header's count of `agents` (a file that says 2 agents and then writes
/// of agent 4 billion is refused where it does).
fn agent_id(w: &mut Words, agents: usize) -> Result<AgentId, TraceError> {
    let id: u32 = w.number()?;
    if (id as usize) < agents {
        Ok(AgentId(id))
    } else {
        w.err(format!("agent {id}, but the header says {agents} agent(s)"))
    }
}

/// The name a header line gives after its key, held to the scenario reader's rule for names
/// (`MAX_NAME_BYTES`, no control character): a name read from a trace is drawn into plots and
/// reports, and a control character there (an escape, a NUL) is not valid SVG or HTML. Found
/// by the fuzzer's `baseline` target (issue 35).
fn name(w: &Words, line: &str, key: &str) -> Result<String, TraceError> {
    let name = after_key(line, key);
    match crate::limits::name_problem(&name, &format!("the {key} name")) {
        Some(problem) => Err(TraceError {
            line: w.line,
            column: key.chars().count() + 2,
            message: problem,
        }),
        None => Ok(name),
    }
}

/// Parses one trace whose first line is line `offset + 1` of the file.
fn parse_lines(lines: &[&str], offset: usize) -> Result<Trace, TraceError> {
    let mut header = Header {
        scenario: String::new(),
        backend: String::new(),
        steps: 0,
        time_step: 0.0,
        agents: 0,
        sample_every: 1,
    };
    let mut scenario_line = 0;
    let mut agents_line = 0;
    let mut section = "";
    let mut events = Vec::new();
    let mut samples: Vec<Sample> = Vec::new();
    let mut finals = Vec::new();
    let mut movers = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let mut w = Words::new(line, i + 1 + offset);
        if w.words.is_empty() {
            continue;
        }
        if !line.starts_with(' ') {
            let key = w.next()?;
            match key {
                "cspace" => {
                    w.expect("trace")?;
                    let version: u32 = w.number()?;
                    if version != VERSION {
                        return w.err(format!(
                            "trace version {version}, this build reads {VERSION}"
                        ));
                    }
                }
                // The name as written after the key (the words of a line drop its commas
                // and brackets, which a name may hold).
                "scenario" => {
                    header.scenario = name(&w, line, key)?;
                    scenario_line = w.line;
                }
                "backend" => header.backend = name(&w, line, key)?,
                "steps" => header.steps = w.number()?,
                "time_step" => {
                    header.time_step = w.within(Quantity::TimeStep)?;
                    if header.time_step <= 0.0 {
                        return w.err("the time step must be positive");
                    }
                }
                "agents" => {
                    header.agents = w.number()?;
                    if header.agents > crate::limits::MAX_AGENTS {
                        return w.err(format!(
                            "{} agents; a run holds at most {}",
                            header.agents,
                            crate::limits::MAX_AGENTS
                        ));
                    }
                    agents_line = w.line;
                }
                "sample_every" => {
                    header.sample_every = w.number()?;
                    if header.sample_every == 0 {
                        return w.err("sample_every must be positive");
                    }
                }
                "events" | "trajectory" | "final" => section = key,
                other => return w.err(format!("unknown line {}", quoted(other))),
            }
            continue;
        }
        match section {
            "events" => {
                w.expect("step")?;
                let step = w.number()?;
                if w.peek() == Some("mover") {
                    w.next()?;
                    let mover = w.number()?;
                    let kind = mover_event(&mut w, header.agents)?;
                    w.end()?;
                    movers.push(MoverEvent { step, mover, kind });
                    continue;
                }
                w.expect("agent")?;
                let agent = agent_id(&mut w, header.agents)?;
                let kind = event(&mut w, header.agents)?;
                w.end()?;
                events.push(Event { step, agent, kind });
            }
            "trajectory" => {
                w.expect("step")?;
                let step = w.number()?;
                w.expect("agent")?;
                let agent = agent_id(&mut w, header.agents)?;
                let state = state(&mut w, agent)?;
                w.end()?;
                match samples.last_mut() {
                    Some(sample) if sample.step == step => sample.states.push(state),
                    _ => samples.push(Sample {
                        step,
                        states: vec![state],
                    }),
                }
            }
            "final" => {
                w.expect("agent")?;
                let agent = agent_id(&mut w, header.agents)?;
                let state = state(&mut w, agent)?;
                w.expect("distance")?;
                let distance = w.in_range(0.0, MAX_TRACE_NUMBER)?;
                w.expect("contacts")?;
                let contacts = w.number()?;
                w.expect("ground_time")?;
                let ground_time = w.in_range(0.0, MAX_TRACE_NUMBER)?;
                w.end()?;
                finals.push(FinalState {
                    state,
                    distance,
                    contacts,
                    ground_time,
                });
            }
            _ => {
                w.next()?;
                return w.err("indented line outside a section");
            }
        }
    }
    if header.backend.is_empty() || header.scenario.is_empty() {
        return Err(TraceError {
            line: offset + 1,
            column: 1,
            message: "not a cspace trace: no scenario or backend header".to_string(),
        });
    }
    if finals.len() > header.agents {
        return Err(TraceError {
            line: agents_line.max(offset + 1),
            column: 1,
            message: format!(
                "the header says {} agent(s) and the final section holds {}",
                header.agents,
                finals.len()
            ),
        });
    }
    Ok(Trace {
        record: RunRecord {
            header,
            events,
            samples,
            finals,
            movers,
        },
        scenario_line,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_folds_negative_zero() {
        assert_eq!(fixed(-0.0, 3), "0.000");
        assert_eq!(fixed(-0.0004, 3), "0.000");
        assert_eq!(fixed(-0.0006, 3), "-0.001");
        assert_eq!(fixed(1.23456, 4), "1.2346");
    }

    #[test]
    fn compact_numbers_drop_float_noise() {
        assert_eq!(compact(-1536.0000000000002, 3), "-1536");
        assert_eq!(compact(24.03125, 3), "24.031");
        assert_eq!(compact(-0.0001, 3), "0");
        assert_eq!(compact(100.0, 3), "100");
        assert_eq!(compact_vector(DVec3::new(0.5, -0.0, 2.0), 3), "(0.5, 0, 2)");
    }

    #[test]
    fn errors_name_the_line() {
        let e =
            parse("cspace trace 1\nscenario s\nbackend exact\nevents\n  step x agent 0 slept\n")
                .unwrap_err();
        assert_eq!(e.to_string(), "5:8: \"x\" is not a number");
        let e = parse("cspace trace 9\n").unwrap_err();
        assert_eq!(e.to_string(), "1:14: trace version 9, this build reads 1");
        assert!(parse("hello\n").is_err());
        assert_eq!(parse("").unwrap_err().line, 1);
        // A long word is cut in the message.
        let long = "9".repeat(100_000);
        let e = parse(&format!("cspace trace 1\nsteps {long}x\n")).unwrap_err();
        assert!(e.to_string().len() < 200, "{e}");
        assert!(e.to_string().contains("(100001 characters)"), "{e}");
    }

    #[test]
    fn names_with_control_characters_or_past_the_limit_are_refused() {
        let trace = |scenario: &str, backend: &str| {
            format!("cspace trace 1\nscenario {scenario}\nbackend {backend}\nsteps 1\n\nfinal\n")
        };
        assert!(parse(&trace("a b, (c)", "exact")).is_ok());
        let e = parse(&trace("drop", "\u{1b}[31mred")).unwrap_err();
        assert_eq!((e.line, e.column), (3, 9), "{e}");
        assert!(e.message.contains("control character '\\u{1b}'"), "{e}");
        let e = parse(&trace("a\rb", "exact")).unwrap_err();
        assert_eq!((e.line, e.column), (2, 10), "{e}");
        let e = parse(&trace("a\0b", "exact")).unwrap_err();
        assert_eq!(e.line, 2, "{e}");
        let long = "n".repeat(crate::limits::MAX_NAME_BYTES + 1);
        let e = parse(&trace(&long, "exact")).unwrap_err();
        assert!(e.message.contains("257 bytes long"), "{e}");
        assert!(parse(&trace(&long[1..], "exact")).is_ok());
    }

    /// Found by the fuzzer's `baseline` target: a contact with agent 4294967295 in a trace of
    /// two agents was read, and handed to plots and reports.
    #[test]
    fn a_contact_with_an_agent_past_the_count_is_refused_where_it_is_written() {
        let trace = |other: u32| {
            format!(
                "cspace trace 1\nscenario s\nbackend exact\nsteps 1\ntime_step 0.015625\nagents 2\n\n\
                 events\n  step 1 agent 0 contact agent {other} point (0.000, 0.000, 0.000) normal \
                 (1.0000, 0.0000, 0.0000) toi 0.5000\n\nfinal\n"
            )
        };
        assert!(parse(&trace(1)).is_ok(), "{:?}", parse(&trace(1)).err());
        let e = parse(&trace(4_294_967_295)).unwrap_err();
        assert_eq!(e.line, 9, "{e}");
        assert!(e.message.contains("4294967295"), "{e}");
    }

    #[test]
    fn mover_lines_and_rides_read_back_and_write_the_same() {
        let text = "cspace trace 1\nscenario s\nbackend exact\nsteps 20\ntime_step 0.015625\n\
                    agents 2\nsample_every 1\n\nevents\n\
                    \x20 step 3 agent 1 rides mover 0\n\
                    \x20 step 3 mover 0 started\n\
                    \x20 step 9 agent 0 slept\n\
                    \x20 step 12 mover 0 blocked by agent 1\n\
                    \x20 step 12 mover 0 reversed\n\
                    \x20 step 19 mover 0 reached its end\n\
                    \x20 step 20 mover 1 removed\n\
                    \ntrajectory\n\nfinal\n";
        let record = parse(text).unwrap().record;
        assert_eq!(record.events.len(), 2);
        assert_eq!(record.events[0].kind, EventKind::Rides { mover: 0 });
        assert_eq!(
            record.movers[1],
            MoverEvent {
                step: 12,
                mover: 0,
                kind: MoverEventKind::Blocked { agent: AgentId(1) }
            }
        );
        assert_eq!(record.movers.len(), 5);
        assert_eq!(record.movers[4].kind, MoverEventKind::Removed);
        assert_eq!(write(&record), text);
        let bad = text.replace("blocked by agent 1", "blocked by agent 7");
        assert!(parse(&bad).unwrap_err().to_string().contains("agent 7"));
    }

    #[test]
    fn trigger_lines_read_back_and_write_the_same() {
        let text = "cspace trace 1\nscenario s\nbackend exact\nsteps 20\ntime_step 0.015625\n\
                    agents 1\nsample_every 1\n\nevents\n\
                    \x20 step 3 agent 0 touches trigger 2 entity 7\n\
                    \x20 step 3 agent 0 teleported by trigger 2 from (1.000, 2.000, 3.000) to \
                    (-4.000, 5.000, 6.500)\n\
                    \x20 step 4 agent 0 hurt by trigger 0 damage 5.000\n\
                    \x20 step 5 agent 0 teleport refused by trigger 2 to (0.000, 0.000, 27.000)\n\
                    \x20 step 6 agent 0 pushed by target_push 1 velocity (0.000, 500.000, \
                    -866.025)\n\
                    \ntrajectory\n\nfinal\n";
        let record = parse(text).unwrap().record;
        assert_eq!(
            record.events[1].kind,
            EventKind::Teleported {
                trigger: 2,
                from: DVec3::new(1.0, 2.0, 3.0),
                to: DVec3::new(-4.0, 5.0, 6.5)
            }
        );
        assert_eq!(
            record.events[0].kind,
            EventKind::Touches {
                trigger: 2,
                entity: 7
            }
        );
        assert_eq!(
            record.events[4].kind,
            EventKind::TargetPushed {
                push: 1,
                velocity: DVec3::new(0.0, 500.0, -866.025)
            }
        );
        assert_eq!(write(&record), text);
    }

    #[test]
    fn a_file_may_hold_one_trace_per_backend() {
        let one = |backend: &str| {
            format!("cspace trace 1\nscenario s\nbackend {backend}\nsteps 1\n\nfinal\n")
        };
        let text = format!("{}\n{}", one("exact"), one("onion"));
        let all = parse_all(&text).unwrap();
        assert_eq!(all.len(), 2);
        assert_eq!(all[1].record.header.backend, "onion");
        assert_eq!(all[1].scenario_line, 9);
        let e = parse(&text).unwrap_err();
        assert!(
            e.to_string()
                .contains("holds 2 traces (backends exact, onion)"),
            "{e}"
        );
    }
}
