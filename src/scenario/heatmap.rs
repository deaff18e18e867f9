//! `[heatmap]`: the combatant moved over every open square, and what the chart shows of
//! each square (`target`, `measure`).

use toml::Spanned;

use super::combatant::{Combatant, CombatantId};
use super::keyword::combatant_id;
use super::raw::RawHeatmap;
use super::{Battlefield, Encounter, PlanLine, Validator};
use crate::error::InputError;
use crate::rules::Keyword;

/// Most squares × rounds a `[heatmap]` may compute: each square is a whole exact
/// computation (or a short simulation), so this keeps a heatmap within minutes.
pub const MAX_HEATMAP_WORK: u64 = 10_000_000;

/// `[heatmap]`: who moves, and what the chart shows on each square.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HeatmapSpec {
    /// The combatant tried on every open square.
    pub token: CombatantId,
    /// Whose figure the chart shows: a plan's target (default: the first plan line's),
    /// or in a fight any combatant; `None` for [`HeatmapMeasure::Win`].
    pub target: Option<CombatantId>,
    pub measure: HeatmapMeasure,
}

/// What the heatmap chart shows on each square.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HeatmapMeasure {
    /// The mean P(hit) of the attacks at the target (a plan's default).
    PHit,
    /// P(the target is down) by the last round.
    PDown,
    /// P(the moved combatant's side has won) by the last round (a fight's default).
    Win,
}

impl Keyword for HeatmapMeasure {
    const WHAT: &'static str = "heatmap measure";

    fn table() -> Vec<(&'static str, Self)> {
        vec![
            ("p_hit", HeatmapMeasure::PHit),
            ("p_down", HeatmapMeasure::PDown),
            ("win", HeatmapMeasure::Win),
        ]
    }
}

impl Validator<'_> {
    /// `[heatmap]`: the combatant tried on every open square, on a map, within
    /// [`MAX_HEATMAP_WORK`]; its `target` attacked by the plan (any combatant in a fight)
    /// and its `measure` one the run computes (`win` only in a fight).
    pub(super) fn heatmap(
        &self,
        raw: Option<&Spanned<RawHeatmap>>,
        combatants: &[Combatant],
        battlefield: Option<&Battlefield>,
        rounds: u32,
        plan: &[PlanLine],
        encounter: Option<Encounter>,
    ) -> Result<Option<HeatmapSpec>, InputError> {
        let Some(h) = raw else {
            return Ok(None);
        };
        let h_ref = h.get_ref();
        let token = combatant_id(h_ref.token.get_ref(), combatants, " to try on the heatmap")
            .map_err(|message| self.err(h_ref.token.span(), message))?;
        let Some(field) = battlefield else {
            return Err(self.err(h.span(), "a heatmap needs a map to move the combatant on"));
        };
        let squares = field.placements(token).len() as u64;
        let work = squares * u64::from(rounds);
        if work > MAX_HEATMAP_WORK {
            return Err(self.err(
                h.span(),
                format!(
                    "the heatmap would compute {squares} squares × {rounds} rounds = {work}, more than the bound of {MAX_HEATMAP_WORK}; use a smaller map or fewer rounds"
                ),
            ));
        }
        let fight = encounter.is_some();
        let default = if fight {
            HeatmapMeasure::Win
        } else {
            HeatmapMeasure::PHit
        };
        let measure = self.keyword_or(h_ref.measure.as_ref(), default)?;
        if measure == HeatmapMeasure::Win && !fight {
            let at = h_ref.measure.as_ref().map_or(h.span(), Spanned::span);
            return Err(self.err(
                at,
                "measure = \"win\" needs an [encounter]: without one nobody fights back, so no side wins; use \"p_hit\" or \"p_down\"",
            ));
        }
        let target = match (&h_ref.target, measure) {
            (Some(t), HeatmapMeasure::Win) => {
                return Err(self.err(
                    t.span(),
                    "measure = \"win\" shows the moved combatant's side: leave out `target`, or measure \"p_hit\" or \"p_down\" of it",
                ));
            }
            (None, HeatmapMeasure::Win) => None,
            (Some(t), _) => Some(self.heatmap_target(t, combatants, plan, fight)?),
            (None, _) if fight => {
                return Err(self.err(
                    h.span(),
                    "a fight's heatmap measures \"p_hit\" or \"p_down\" of one combatant: name it with `target` (e.g. target = \"O\")",
                ));
            }
            (None, _) => plan.first().map(|l| l.target),
        };
        Ok(Some(HeatmapSpec {
            token,
            target,
            measure,
        }))
    }

    /// The heatmap's `target`: a combatant that a plan line attacks (any, in a fight).
    fn heatmap_target(
        &self,
        target: &Spanned<String>,
        combatants: &[Combatant],
        plan: &[PlanLine],
        fight: bool,
    ) -> Result<CombatantId, InputError> {
        let id = combatant_id(target.get_ref(), combatants, " to measure on the heatmap")
            .map_err(|message| self.err(target.span(), message))?;
        if fight || plan.iter().any(|l| l.target == id) {
            return Ok(id);
        }
        let mut attacked: Vec<String> = Vec::new();
        for line in plan {
            let token = combatants[line.target.index()].token.to_string();
            if !attacked.contains(&token) {
                attacked.push(token);
            }
        }
        Err(self.err(
            target.span(),
            format!(
                "no plan line attacks `{}`: the heatmap measures a target of the plan ({})",
                target.get_ref(),
                attacked.join(", ")
            ),
        ))
    }
}
