//! Fixed lists of numbers in input files (a point `[x, y, z]`, a direction `[x, y]`), read
//! strictly: a list of another length is refused, naming the field and both counts.

use serde::Deserialize;

/// A list of numbers where a file must give exactly `N` of them. The numbers are reached only
/// through [`Numbers::exactly`], which refuses any other length:
/// `start: expected 3 numbers, got 4`.
///
/// Decision: read as a list of any length, then checked by the caller, which knows the field's
/// name and holds the list's span (`toml::Spanned<Numbers<N>>`) for the line and column. Not
/// `[f64; N]`: serde's reader for an array takes its first `N` numbers and, under the `toml`
/// deserializer, never checks that the list ended, so `start = [0, 0, 24, 3]` ran from
/// `[0, 0, 24]`. Not a `Deserialize` that fails with serde's `invalid_length` either: toml reports
/// that error without the field's name (`invalid length 4, expected ...`), and inside an
/// untagged enum (a goto's point) serde replaces it with the enum's own message.
///
/// ```
/// use cspace_scenario::numbers::Numbers;
///
/// let read = |text: &str| toml::from_str::<toml::Table>(text).unwrap()["start"].clone();
/// let start: Numbers<3> = read("start = [0, 0, 24]").try_into().unwrap();
/// assert_eq!(start.exactly("start"), Ok([0.0, 0.0, 24.0]));
/// let start: Numbers<3> = read("start = [0, 0, 24, 3]").try_into().unwrap();
/// assert_eq!(start.exactly("start"), Err("start: expected 3 numbers, got 4".to_string()));
/// ```
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(transparent)]
pub struct Numbers<const N: usize>(Vec<f64>);

impl<const N: usize> Numbers<N> {
    /// The `N` numbers, or why not: `{field}: expected N numbers, got M`. Whether they
    /// are finite and within their domain is the caller's check.
    pub fn exactly(&self, field: &str) -> Result<[f64; N], String> {
        <[f64; N]>::try_from(self.0.as_slice())
            .map_err(|_| format!("{field}: expected {N} numbers, got {}", self.0.len()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Deserialize)]
    struct Point {
        at: toml::Spanned<Numbers<3>>,
    }

    fn read(text: &str) -> Result<toml::Spanned<Numbers<3>>, toml::de::Error> {
        toml::from_str::<Point>(text).map(|p| p.at)
    }

    #[test]
    fn exactly_n_numbers_are_taken_and_any_other_count_refused() {
        let three = read("at = [1, -2.5, 3e2]").unwrap();
        assert_eq!(three.span(), 5..19);
        assert_eq!(three.get_ref().exactly("at"), Ok([1.0, -2.5, 300.0]));
        for (text, count) in [
            ("at = []", 0),
            ("at = [1]", 1),
            ("at = [1, 2]", 2),
            ("at = [1, 2, 3, 4]", 4),
            ("at = [1, 2, 3, 4, 5, 6, 7]", 7),
        ] {
            assert_eq!(
                read(text).unwrap().get_ref().exactly("at"),
                Err(format!("at: expected 3 numbers, got {count}")),
                "{text}"
            );
        }
    }

    /// What is not a number is refused where it is, by the reader (as before).
    #[test]
    fn an_element_that_is_not_a_number_is_a_type_error() {
        let e = read("at = [1, \"two\", 3]").unwrap_err();
        assert_eq!(e.span(), Some(9..14));
        assert!(e.message().contains("invalid type: string"), "{e}");
        assert!(read("at = 3").is_err());
    }

    /// Non-finite numbers are read; refusing them stays the caller's domain check.
    #[test]
    fn non_finite_numbers_are_read_for_the_caller_to_check() {
        let [x, y, z] = read("at = [nan, inf, -inf]")
            .unwrap()
            .get_ref()
            .exactly("at")
            .unwrap();
        assert!(x.is_nan() && y == f64::INFINITY && z == f64::NEG_INFINITY);
    }
}
