//! `[heatmap]`: one combatant tried on every open square of the map. Each square is planned
//! anew by the planning that judges the file's own plan lines (map verdicts included); the
//! figures come from the exact engine, or, where it cannot compute them, from a short
//! Monte Carlo run (the `method` column says which).
//!
//! Architecture Invariant: a square's figures depend only on the scenario, the square
//! and the seed — never on the thread that computed them.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use rayon::prelude::*;

use crate::engine::{EngineConfig, Tally, simulate};
use crate::exact;
use crate::map::Space;
use crate::plan::{LineId, Plan, Planned, TargetId};
use crate::report::{Heatmap, HeatmapCell, HeatmapRow};
use crate::scenario::{CombatantId, Scenario};

/// Trials per square when the exact engine cannot compute a figure.
pub const SIMULATED_TRIALS: u64 = 20_000;

/// The squares where the combatant's whole space fits (see [`Battlefield::placements`]).
///
/// [`Battlefield::placements`]: crate::scenario::Battlefield::placements
pub fn placements(scenario: &Scenario, token: CombatantId) -> Vec<Space> {
    scenario
        .battlefield
        .as_ref()
        .map_or_else(Vec::new, |field| field.placements(token))
}

/// The combatants attacked by the plan, in order of first appearance (as the plan's
/// targets are).
fn target_combatants(scenario: &Scenario) -> Vec<CombatantId> {
    let mut targets = Vec::new();
    for line in &scenario.plan {
        if !targets.contains(&line.target) {
            targets.push(line.target);
        }
    }
    targets
}

/// The squares of the heatmap, for a progress bar: 0 without a `[heatmap]` section.
pub fn heatmap_squares(scenario: &Scenario) -> u64 {
    scenario
        .heatmap
        .map_or(0, |token| placements(scenario, token).len() as u64)
}

/// heatmap.csv: one row per square, with each target's figures; `None` without a
/// `[heatmap]` section. `progress` is called with the squares done; once `stop` is set
/// (Ctrl-C) the squares not started are left out.
pub fn heatmap(
    scenario: &Scenario,
    seed: u64,
    progress: &(dyn Fn(u64) + Sync),
    stop: &AtomicBool,
) -> Option<Heatmap> {
    let token = scenario.heatmap?;
    let done = AtomicU64::new(0);
    let rows = placements(scenario, token)
        .par_iter()
        .enumerate()
        .filter_map(|(i, &space)| {
            if stop.load(Ordering::Relaxed) {
                return None;
            }
            let row = square_figures(scenario, token, space, seed ^ i as u64);
            progress(done.fetch_add(1, Ordering::Relaxed) + 1);
            Some(row)
        })
        .collect();
    let targets = target_combatants(scenario)
        .into_iter()
        .map(|c| scenario.combatant(c).token.to_string())
        .collect();
    Some(Heatmap { targets, rows })
}

/// Every target's figures with the combatant at `space`, planned as the file's own plan
/// is (the map's verdicts come from the same planning).
fn square_figures(scenario: &Scenario, token: CombatantId, space: Space, seed: u64) -> HeatmapRow {
    let mut moved = scenario.clone();
    if let Some(field) = &mut moved.battlefield {
        field.spaces[token.index()] = space;
    }
    let Planned { plan, lines, .. } = Planned::from_scenario(&moved);
    let exact = exact::compute(&plan);
    let all_exact =
        exact.targets.iter().all(Result::is_ok) && exact.slots.iter().all(Option::is_some);
    let tally = (!all_exact).then(|| {
        let trials = moved.trials.min(SIMULATED_TRIALS);
        simulate(&plan, &EngineConfig::new(seed, trials), &|_| ())
    });
    let targets = target_combatants(&moved)
        .into_iter()
        .zip(plan.target_ids())
        .map(|(combatant, t)| {
            let chosen = chosen_lines(&moved, token, combatant);
            let chosen_plan_lines: Vec<LineId> = chosen
                .iter()
                .filter_map(|&i| lines[i].made.as_ref().ok().copied())
                .collect();
            let slots: Vec<usize> = plan
                .slots_against(t)
                .filter(|(_, slot)| chosen_plan_lines.contains(&slot.line))
                .map(|(s, _)| s)
                .collect();
            let (p_hit, p_down, mean_damage) = match &tally {
                None => exact_figures(&exact, t, &slots),
                Some(tally) => simulated_figures(&plan, tally, t, &slots),
            };
            let map = lines[chosen[0]].map.as_ref();
            let verdict = &map.expect("a heatmap has a map").verdict;
            HeatmapCell {
                p_hit,
                p_down,
                mean_damage,
                cover: verdict.cover.key().to_string(),
                concealment: verdict.concealment,
                flanking: verdict.flanking.is_some(),
                refused: moved
                    .plan
                    .iter()
                    .zip(&lines)
                    .any(|(l, s)| l.target == combatant && s.made.is_err()),
            }
        })
        .collect();
    HeatmapRow {
        x: i64::from(space.x()),
        y: i64::from(space.y()),
        method: if all_exact { "exact" } else { "simulated" }.to_string(),
        targets,
    }
}

/// The plan lines of the file at `combatant` that involve the moved combatant `token`, or
/// all of them when none does.
fn chosen_lines(scenario: &Scenario, token: CombatantId, combatant: CombatantId) -> Vec<usize> {
    let at_target = |i: &usize| scenario.plan[*i].target == combatant;
    let all = (0..scenario.plan.len()).filter(at_target);
    let involved: Vec<usize> = all
        .clone()
        .filter(|&i| scenario.plan[i].attacker == token || scenario.plan[i].target == token)
        .collect();
    if involved.is_empty() {
        all.collect()
    } else {
        involved
    }
}

/// (mean P(hit) of `slots`, P(down) and mean damage by the last round) of target `t`, exact.
fn exact_figures(exact: &exact::Exact, t: TargetId, slots: &[usize]) -> (Option<f64>, f64, f64) {
    let rounds = &exact.target(t).expect("all exact").rounds;
    let last = rounds[rounds.len() - 1];
    let hits: Vec<f64> = slots
        .iter()
        .filter_map(|&s| exact.slots[s].map(|e| e.p_hit))
        .collect();
    (mean(&hits), last.p_down, last.mean_damage)
}

/// [`exact_figures`] from a simulation's tally.
fn simulated_figures(
    plan: &Plan,
    tally: &Tally,
    t: TargetId,
    slots: &[usize],
) -> (Option<f64>, f64, f64) {
    let last = tally.round(t, plan.rounds() as usize - 1);
    let hits: Vec<f64> = slots
        .iter()
        .map(|&s| tally.slot(plan, s))
        .filter(|attacks| attacks.made() > 0)
        .map(|attacks| attacks.hit().estimate().point)
        .collect();
    (
        mean(&hits),
        last.down.estimate().point,
        last.damage.estimate().point,
    )
}

fn mean(values: &[f64]) -> Option<f64> {
    (!values.is_empty()).then(|| values.iter().sum::<f64>() / values.len() as f64)
}
