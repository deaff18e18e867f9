//! Numbers bounded where they are read, so no sum of them can wrap: a modifier of
//! ±10,000 and hit points of 10^9 leave the attack totals far inside `i32` and the damage
//! thresholds far inside `i64`. The limits are listed in the README's limits table.

use serde::de::{Deserialize, Deserializer, Error};

/// Largest magnitude of an attack bonus, armor class, save bonus, Dex modifier, level,
/// `attack_mod` or `ac_mod`.
pub const MAX_MODIFIER: i32 = 10_000;
/// Largest magnitude of an elevation, in feet.
pub const MAX_ELEVATION: i32 = 100_000;
/// Most hit points, and the largest Constitution score.
pub const MAX_HIT_POINTS: i64 = 1_000_000_000;

/// What is said when a modifier is out of range.
pub fn modifier_range() -> String {
    format!("{} to {MAX_MODIFIER}", -MAX_MODIFIER)
}

/// `value` as an `i32` in `-limit..=limit`, or why not.
pub fn within(value: i64, limit: i32, what: &str) -> Result<i32, String> {
    i32::try_from(value)
        .ok()
        .filter(|v| (-limit..=limit).contains(v))
        .ok_or_else(|| format!("{what} must be from {} to {limit}", -limit))
}

/// A bonus, armor class, save, Dex modifier, level or modifier: at most ±[`MAX_MODIFIER`].
pub fn modifier<'de, D: Deserializer<'de>>(d: D) -> Result<i32, D::Error> {
    within(i64::deserialize(d)?, MAX_MODIFIER, "this number").map_err(D::Error::custom)
}

/// [`modifier`] for a key that may be left out.
pub fn optional_modifier<'de, D: Deserializer<'de>>(d: D) -> Result<Option<i32>, D::Error> {
    modifier(d).map(Some)
}

/// An elevation in feet: at most ±[`MAX_ELEVATION`].
pub fn elevation<'de, D: Deserializer<'de>>(d: D) -> Result<i32, D::Error> {
    within(i64::deserialize(d)?, MAX_ELEVATION, "an elevation in feet").map_err(D::Error::custom)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_past_the_limit_are_refused_not_wrapped() {
        assert_eq!(within(-10_000, MAX_MODIFIER, "x"), Ok(-10_000));
        assert!(within(10_001, MAX_MODIFIER, "x").is_err());
        assert!(within(i64::from(i32::MAX) + 1, MAX_MODIFIER, "x").is_err());
        assert!(within(i64::MIN, MAX_MODIFIER, "x").is_err());
    }
}
