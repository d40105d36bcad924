//! The sweep file (`docs/sweep.md`): which scenarios, maps, seeds and backends, and how far a
//! seed moves the agents. Read with serde (`deny_unknown_fields`, byte spans kept), then checked
//! into a [`Plan`]; every error names the file, line, column and field.

use std::path::{Path, PathBuf};

use serde::Deserialize;
use toml::Spanned;

use super::{Entry, Jitter, Plan, Seeds};
use crate::error::Error;
use crate::location::LocatedError;
use crate::scenario::Scenario;
use crate::world_file::resolve_path;
use cspace_sim::backend::BackendKind;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSweep {
    scenarios: Spanned<Vec<Spanned<String>>>,
    #[serde(default)]
    maps: Option<Spanned<Vec<Spanned<String>>>>,
    #[serde(default)]
    seeds: Option<Spanned<toml::Value>>,
    #[serde(default)]
    backends: Option<Spanned<Vec<Spanned<String>>>>,
    #[serde(default)]
    jitter: Option<RawJitter>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawJitter {
    #[serde(default)]
    start: Option<Spanned<f64>>,
    #[serde(default)]
    heading: Option<Spanned<f64>>,
}

/// True when `text` is a sweep file rather than a scenario: a TOML table with a `scenarios`
/// key (which a scenario never has).
pub fn is_sweep_file(text: &str) -> bool {
    text.parse::<toml::Table>()
        .is_ok_and(|t| t.contains_key("scenarios"))
}

struct Reader<'a> {
    path: &'a Path,
    text: &'a str,
}

impl Reader<'_> {
    fn at(&self, offset: usize, message: impl Into<String>) -> LocatedError {
        LocatedError::at(self.path, self.text, offset, message)
    }

    /// The entries of a list of files, resolved against the sweep file's folder; those in the
    /// map corpus while `CSPACE_MAPS` is unset are left out and said in `skipped`.
    fn entries(
        &self,
        list: &Spanned<Vec<Spanned<String>>>,
        field: &str,
        skipped: &mut Vec<String>,
    ) -> Result<Vec<Entry>, LocatedError> {
        if list.get_ref().is_empty() {
            return Err(self.at(list.span().start, format!("{field}: the list is empty")));
        }
        list.get_ref()
            .iter()
            .filter(|s| {
                let unset = Scenario::needs_unset_corpus(s.get_ref());
                if unset {
                    skipped.push(format!(
                        "{} ({}; {})",
                        s.get_ref(),
                        "it is in the map corpus and CSPACE_MAPS is unset",
                        cspace_mapfile::CORPUS_HINT
                    ));
                }
                !unset
            })
            .map(|s| {
                let path = resolve_path(self.path, s.get_ref())
                    .map_err(|e| self.at(s.span().start, format!("{field}: {e}")))?;
                Ok(Entry {
                    label: s.get_ref().clone(),
                    path,
                    written_at: Some(self.at(s.span().start, String::new())),
                })
            })
            .collect()
    }

    fn seeds(&self, value: &Spanned<toml::Value>) -> Result<Seeds, LocatedError> {
        let at = value.span().start;
        match value.get_ref() {
            toml::Value::String(s) => s.parse(),
            toml::Value::Array(list) => list
                .iter()
                .map(|v| v.as_integer().ok_or(()))
                .collect::<Result<Vec<i64>, ()>>()
                .map_err(|()| "an array of seeds holds whole numbers".to_string())
                .and_then(|l| Seeds::from_list(&l)),
            _ => Err(
                "write a range or a list: \"0..100\", \"0..=99\", \"1,5,9\" or [1, 5, 9]"
                    .to_string(),
            ),
        }
        .map_err(|e| self.at(at, format!("seeds: {e}")))
    }

    fn backends(
        &self,
        list: &Spanned<Vec<Spanned<String>>>,
    ) -> Result<Vec<BackendKind>, LocatedError> {
        if list.get_ref().is_empty() {
            return Err(self.at(list.span().start, "backends: the list is empty"));
        }
        let mut kinds = Vec::new();
        for n in list.get_ref() {
            let kind: BackendKind = n
                .get_ref()
                .parse()
                .map_err(|e| self.at(n.span().start, format!("backends: {e}")))?;
            if kinds.contains(&kind) {
                return Err(self.at(
                    n.span().start,
                    format!("backends: {} is named twice", kind.name()),
                ));
            }
            kinds.push(kind);
        }
        Ok(kinds)
    }

    fn jitter(&self, raw: Option<&RawJitter>) -> Result<Jitter, LocatedError> {
        let mut jitter = Jitter::default();
        let Some(raw) = raw else {
            return Ok(jitter);
        };
        if let Some(s) = &raw.start {
            jitter.start = *s.get_ref();
            jitter.validate().map_err(|e| self.at(s.span().start, e))?;
        }
        if let Some(h) = &raw.heading {
            jitter.heading_degrees = *h.get_ref();
            jitter.validate().map_err(|e| self.at(h.span().start, e))?;
        }
        Ok(jitter)
    }
}

impl Plan {
    /// Reads and checks a sweep file (its scenarios and maps are loaded by
    /// [`super::Sweep::load`]).
    pub fn load(path: &Path) -> Result<Plan, Error> {
        let text = crate::read::read_text(path, "read the sweep")?;
        Plan::parse(path, &text)
    }

    /// Checks a sweep file given its text (`path` locates errors and resolves the files it
    /// names).
    pub fn parse(path: &Path, text: &str) -> Result<Plan, Error> {
        let raw: RawSweep =
            toml::from_str(text).map_err(|e| LocatedError::from_toml(path, text, &e))?;
        let r = Reader { path, text };
        let mut skipped = Vec::new();
        let mut scenarios = r.entries(&raw.scenarios, "scenarios", &mut skipped)?;
        let maps = raw
            .maps
            .as_ref()
            .map(|m| r.entries(m, "maps", &mut skipped))
            .transpose()?;
        if maps.as_ref().is_some_and(Vec::is_empty) {
            // Every map was skipped: no world is left to run the scenarios on (an empty list
            // would mean their own worlds).
            scenarios.clear();
        }
        Ok(Plan {
            scenarios,
            maps: maps.unwrap_or_default(),
            seeds: raw
                .seeds
                .as_ref()
                .map(|s| r.seeds(s))
                .transpose()?
                .unwrap_or_default(),
            backends: raw.backends.as_ref().map(|b| r.backends(b)).transpose()?,
            jitter: r.jitter(raw.jitter.as_ref())?,
            file: Some(PathBuf::from(path)),
            skipped,
        })
    }
}
