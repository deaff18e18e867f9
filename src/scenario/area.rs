//! The keys that shape how far geometry reaches: an area attack's `shape` and `radius`,
//! and the experiment's `[options]`.

use toml::Spanned;

use super::raw::RawOptions;
use super::{AttackKind, Validator};
use crate::error::InputError;
use crate::rules::{CoverLevel, RuleSet};

/// Largest radius an area attack may give, in feet.
pub const MAX_RADIUS_FT: i64 = 1000;

/// How an area effect meets walls (RULES.md §3.2).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum AreaShape {
    /// Needs line of effect from its origin; cover adds its Reflex bonus.
    #[default]
    Burst,
    /// Goes round corners: inside its radius no line of effect is needed and cover gives
    /// no Reflex bonus (pf1, starfinder).
    Spread,
}

impl AreaShape {
    pub const KEYS: [&str; 2] = ["burst", "spread"];
}

/// An area attack's shape and radius in feet, as the attack gives them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AreaExtent {
    pub shape: AreaShape,
    /// Measured from the plan line's `origin`; a target farther away is not in the area.
    pub radius: Option<i32>,
}

/// `[options]`: the rule choices RULES.md leaves to the experiment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// `false`: a target with cover keeps full cover even when more than half of it is
    /// visible (RULES.md Ambiguity 1; partial cover is the GM's call).
    pub partial_cover: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            partial_cover: true,
        }
    }
}

impl Options {
    /// How the options change the system's rule readings, for `check` and reports.
    pub fn readings(&self) -> Vec<String> {
        if self.partial_cover {
            Vec::new()
        } else {
            vec![
                "partial cover off (`[options] partial_cover = false`): one blocked line gives full cover, not partial"
                    .into(),
            ]
        }
    }
}

impl Validator<'_> {
    pub(super) fn options(
        &self,
        raw: Option<&Spanned<RawOptions>>,
        rules: &RuleSet,
    ) -> Result<Options, InputError> {
        let mut options = Options::default();
        let Some(partial) = raw.and_then(|o| o.get_ref().partial_cover.as_ref()) else {
            return Ok(options);
        };
        if rules.cover_bonus(CoverLevel::Partial).is_none() {
            return Err(self.err(
                partial.span(),
                format!(
                    "{} has no partial cover to turn off: remove `partial_cover`",
                    rules.name
                ),
            ));
        }
        options.partial_cover = *partial.get_ref();
        Ok(options)
    }

    /// An attack's `shape` and `radius`: area attacks only; a spread needs a radius (it
    /// reaches round corners only that far) and a system whose text has spreads.
    pub(super) fn area_extent(
        &self,
        kind: AttackKind,
        shape: Option<&Spanned<String>>,
        radius: Option<&Spanned<i64>>,
        rules: &RuleSet,
    ) -> Result<AreaExtent, InputError> {
        let given = shape.map(Spanned::span).or(radius.map(Spanned::span));
        if let Some(span) = given.filter(|_| kind != AttackKind::Area) {
            return Err(self.err(
                span,
                "`shape` and `radius` are for area attacks only (`kind = \"area\"`)",
            ));
        }
        let radius = match radius {
            None => None,
            Some(r) if (5..=MAX_RADIUS_FT).contains(r.get_ref()) && r.get_ref() % 5 == 0 => {
                Some(*r.get_ref() as i32)
            }
            Some(r) => {
                return Err(self.err(
                    r.span(),
                    format!("radius is in feet: a multiple of 5, 5 to {MAX_RADIUS_FT}"),
                ));
            }
        };
        let written = shape.map(Spanned::span);
        let shape = self.keyword_or(shape, AreaShape::Burst)?;
        if let (AreaShape::Spread, Some(span)) = (shape, written) {
            if !rules.spreads_round_corners {
                return Err(self.err(
                    span.clone(),
                    format!(
                        "{} has no spread rule (its cover text judges every area from its point of origin): use `shape = \"burst\"`",
                        rules.name
                    ),
                ));
            }
            if radius.is_none() {
                return Err(self.err(
                    span,
                    "a spread needs `radius = …` (feet): it goes round corners only that far",
                ));
            }
        }
        Ok(AreaExtent { shape, radius })
    }
}
