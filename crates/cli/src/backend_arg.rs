//! `--backend` and `--backends` values: the names, help and order of
//! [`BACKENDS`], written once in `cspace-sim`.

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use cspace_sim::{BACKENDS, BackendKind};

/// The parser of a backend name: one possible value per entry of [`BACKENDS`], in its order,
/// with its help.
pub fn parser() -> impl TypedValueParser<Value = BackendKind> {
    PossibleValuesParser::new(
        BACKENDS
            .iter()
            .map(|b| PossibleValue::new(b.name).help(b.about)),
    )
    .map(|name| {
        name.parse::<BackendKind>()
            .expect("the possible values are the backends' names")
    })
}
