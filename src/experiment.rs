//! An experiment file validated as a run needs it: the scenario, its plan, and every sweep
//! point planned and sized once. `d20odds check` and `d20odds run` both load files through
//! [`Experiment::load`], so no file passes one and is refused by the other.
//!
//! Sweep points are planned again when they run ([`Experiment::sweep_point`]) instead of
//! being kept, so memory does not grow with the number of points.

use std::path::Path;

use crate::encounter::Fight;
use crate::engine::check_tally_size;
use crate::error::{Error, InputError};
use crate::plan::{LineSituation, Plan, Planned};
use crate::scenario::{Assignments, Scenario, Variant, display_value};

/// Whether two models (a plan and, in an encounter, its fight) are the same experiment:
/// a variant that changes nothing is, and so is the baseline, whose differences are 0.
pub(crate) fn is_same_model(a: (&Plan, Option<&Fight>), b: (&Plan, Option<&Fight>)) -> bool {
    let same_fight = match (a.1, b.1) {
        (Some(x), Some(y)) => x.is_same_fight_as(y),
        (x, y) => x.is_none() && y.is_none(),
    };
    same_fight && a.0.is_same_plan_as(b.0)
}

/// A validated experiment.
#[derive(Debug, Clone)]
pub struct Experiment {
    /// The validated file.
    pub scenario: Scenario,
    /// Its plan, every line made.
    pub plan: Plan,
    /// What planning judged of each plan line, for `check` and the report's map.
    pub situations: Vec<LineSituation>,
    /// How many sweep points the `[[sweep]]` tables make (0 without them).
    pub sweep_points: usize,
    /// The fight, when the file has an `[encounter]`.
    pub fight: Option<Fight>,
    /// Every `[[variant]]`, planned.
    pub variants: Vec<PlannedVariant>,
}

/// A variant planned like the file itself.
#[derive(Debug, Clone)]
pub struct PlannedVariant {
    pub name: String,
    pub plan: Plan,
    /// What planning judged of each of its plan lines, for `check`.
    pub situations: Vec<LineSituation>,
    /// Its fight, when the file has an `[encounter]`.
    pub fight: Option<Fight>,
}

impl Experiment {
    /// The experiment as written, then each variant in file order: its plan and, in an
    /// encounter, its fight. The one list a run with variants compares and computes the
    /// exact fights of, in the same order.
    pub fn models(&self) -> impl Iterator<Item = (&Plan, Option<&Fight>)> {
        let variants = (self.variants.iter()).map(|v| (&v.plan, v.fight.as_ref()));
        std::iter::once(self.as_written()).chain(variants)
    }

    /// The experiment as written: its plan and, in an encounter, its fight.
    pub fn as_written(&self) -> (&Plan, Option<&Fight>) {
        (&self.plan, self.fight.as_ref())
    }

    /// Every note a run prints about the experiment as written: its plan's, and in an
    /// encounter its fight's ([`Fight::run_notes`]).
    pub fn notes(&self) -> Vec<String> {
        let mut notes = match &self.fight {
            Some(fight) => fight.run_notes(&self.plan),
            None => self.plan.notes().to_vec(),
        };
        notes.extend(self.unchanged_variants_notes());
        notes
    }

    /// A note for each variant whose changes leave the experiment as it was (a condition
    /// its combatant already has, a field set to its own value): a slip, most likely,
    /// since its figures are then the experiment's and every difference 0.
    pub fn unchanged_variants_notes(&self) -> Vec<String> {
        (self.variants.iter())
            .filter(|v| is_same_model((&v.plan, v.fight.as_ref()), self.as_written()))
            .map(|v| {
                format!(
                    "variant `{}` changes nothing: its changes leave the experiment as written, so its figures are the experiment's and every difference is 0",
                    v.name
                )
            })
            .collect()
    }

    /// Reads and validates an experiment file, its plan and every sweep point.
    pub fn load(path: &Path) -> Result<Self, Error> {
        Ok(Self::validate(Scenario::load(path)?)?)
    }

    /// Validates a loaded scenario's plan and every sweep point.
    pub fn validate(scenario: Scenario) -> Result<Self, InputError> {
        let Planned { plan, lines, .. } = Planned::from_scenario(&scenario).all_made()?;
        check_size(&scenario, &scenario, &plan)?;
        let mut sweep_points = 0;
        if !scenario.sweeps.is_empty() {
            for point in scenario.sweep_points() {
                let (assignments, point) = point?;
                plan_point(&scenario, &assignments, &point)?;
                sweep_points += 1;
            }
        }
        if let (Some(variant), Some(_)) = (scenario.variants.first(), scenario.sweeps.first()) {
            return Err(scenario.source.error(
                variant.span.clone(),
                "an experiment either compares variants or sweeps fields: move the [[sweep]] tables to a file of their own",
            ));
        }
        let fight = Fight::from_scenario(&scenario)?;
        let variants = (scenario.variants.iter())
            .map(|variant| plan_variant(&scenario, &plan, fight.as_ref(), variant))
            .collect::<Result<_, _>>()?;
        Ok(Self {
            fight,
            scenario,
            plan,
            situations: lines,
            sweep_points,
            variants,
        })
    }

    /// The fields sweep point `index` sets, its plan, and its fight when the file has an
    /// `[encounter]`.
    pub fn sweep_point(
        &self,
        index: usize,
    ) -> Result<(Assignments, Plan, Option<Fight>), InputError> {
        let (assignments, point) = self.scenario.sweep_point(index)?;
        let plan = plan_point(&self.scenario, &assignments, &point)?;
        Ok((assignments, plan, Fight::from_scenario(&point)?))
    }
}

/// A variant's plan and fight, its errors placed at the variant. A plan's variant must
/// attack the same targets, so that every figure has a baseline to differ from.
fn plan_variant(
    scenario: &Scenario,
    baseline: &Plan,
    baseline_fight: Option<&Fight>,
    variant: &Variant,
) -> Result<PlannedVariant, InputError> {
    // An error building the plan or the fight points at the change that caused it: the
    // first after which building fails the same way.
    let at_change = |why: String| {
        let span = variant.blame(&why, |scenario| build_variant(scenario).err());
        (scenario.source).error(span, format!("variant `{}`: {why}", variant.name))
    };
    let (plan, situations, fight) = build_variant(&variant.scenario).map_err(at_change)?;
    let labels =
        |plan: &Plan| -> Vec<String> { plan.targets().iter().map(|t| t.label.clone()).collect() };
    // Why the variant cannot be compared with the baseline: a plan attacking other
    // targets, or a fight with other sides.
    let incomparable = |plan: &Plan, fight: Option<&Fight>| match (fight, baseline_fight) {
        (None, _) if labels(plan) != labels(baseline) => Some(format!(
            "its plan attacks {} where the experiment as written attacks {}: a variant of a plan must attack the same targets, to compare them",
            labels(plan).join(", "),
            labels(baseline).join(", ")
        )),
        (Some(fight), Some(written)) if !fight.has_sides_of(written) => Some(
            "it changes the sides: a variant of a fight keeps every combatant on its side"
                .to_string(),
        ),
        _ => None,
    };
    if let Some(why) = incomparable(&plan, fight.as_ref()) {
        let span = variant.blame(&why, |scenario| {
            let (plan, _, fight) = build_variant(scenario).ok()?;
            incomparable(&plan, fight.as_ref())
        });
        return Err((scenario.source).error(span, format!("variant `{}`: {why}", variant.name)));
    }
    Ok(PlannedVariant {
        name: variant.name.clone(),
        plan,
        situations,
        fight,
    })
}

/// A variant's plan, within the tally's size, and its fight; or the first error building
/// them meets.
fn build_variant(scenario: &Scenario) -> Result<(Plan, Vec<LineSituation>, Option<Fight>), String> {
    let Planned { plan, lines, .. } =
        (Planned::from_scenario(scenario).all_made()).map_err(|e| e.message)?;
    check_tally_size(&plan).map_err(|(_, why)| why)?;
    let fight = Fight::from_scenario(scenario).map_err(|e| e.message)?;
    Ok((plan, lines, fight))
}

/// A sweep point's plan, its errors placed at the sweep.
fn plan_point(
    scenario: &Scenario,
    assignments: &Assignments,
    point: &Scenario,
) -> Result<Plan, InputError> {
    let plan =
        Plan::from_scenario(point).map_err(|e| at_sweep(scenario, assignments, &e.message))?;
    check_size(scenario, point, &plan)?;
    Ok(plan)
}

/// A sweep point's plan error, placed at the first `[[sweep]]` of the file (the point's
/// own text is generated, so its lines mean nothing to the user).
fn at_sweep(scenario: &Scenario, assignments: &Assignments, why: &str) -> InputError {
    let point: Vec<String> = assignments
        .iter()
        .map(|(set, value)| format!("{set} = {}", display_value(value)))
        .collect();
    let span = scenario.sweeps.first().map_or(0..0, |s| s.span.clone());
    scenario
        .source
        .error(span, format!("sweep point ({}): {why}", point.join(", ")))
}

/// Refuses, at the file's plan line of its largest attack, a plan too large to tally.
/// `planned` is the scenario the plan was made from (a sweep point's document lists the
/// file's plan lines again, in the same order): the plan line's source span finds its
/// place there.
fn check_size(scenario: &Scenario, planned: &Scenario, plan: &Plan) -> Result<(), InputError> {
    check_tally_size(plan).map_err(|(line, why)| {
        let source = plan.line(line).source.as_ref();
        let span = (planned.plan.iter())
            .position(|l| Some(&l.span) == source)
            .and_then(|i| scenario.plan.get(i))
            .map_or(0..0, |l| l.span.clone());
        scenario.source.error(span, why)
    })
}
