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
use crate::plan::{Plan, Planned};
use crate::report::Table;
use crate::scenario::Scenario;

/// Trials per square when the exact engine cannot compute a figure.
pub const SIMULATED_TRIALS: u64 = 20_000;

/// One target's figures at one square.
#[derive(Debug, PartialEq)]
struct TargetFigures {
    /// Mean P(hit) of the attacks at the target on the plan lines that involve the moved
    /// combatant (all lines at the target when none does); `None` when none can be made.
    p_hit: Option<f64>,
    /// Down by the end of the last round.
    p_down: f64,
    mean_damage: f64,
    cover: String,
    concealment: u8,
    flanking: bool,
    /// A plan line at this target cannot be made from here (out of reach, total cover).
    refused: bool,
}

/// One square's figures: where the moved combatant stands and each target's figures.
struct SquareFigures {
    x: i32,
    y: i32,
    exact: bool,
    targets: Vec<TargetFigures>,
}

/// The squares where the combatant's whole space fits (see [`Battlefield::placements`]).
///
/// [`Battlefield::placements`]: crate::scenario::Battlefield::placements
pub fn placements(scenario: &Scenario, token: usize) -> Vec<Space> {
    scenario
        .battlefield
        .as_ref()
        .map_or_else(Vec::new, |field| field.placements(token))
}

/// The combatants attacked by the plan, in order of first appearance (as the plan's
/// targets are).
fn target_combatants(scenario: &Scenario) -> Vec<usize> {
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

/// heatmap.csv: `x,y,method`, then per target token `T`: `T_p_hit, T_p_down,
/// T_mean_damage, T_cover, T_concealment, T_flanking, T_refused`. `None` without a
/// `[heatmap]` section. `progress` is called with the squares done; once `stop` is set
/// (Ctrl-C) the squares not started are left out of the table.
pub fn heatmap_table(
    scenario: &Scenario,
    seed: u64,
    progress: &(dyn Fn(u64) + Sync),
    stop: &AtomicBool,
) -> Option<Table> {
    let token = scenario.heatmap?;
    let done = AtomicU64::new(0);
    let cells: Vec<SquareFigures> = placements(scenario, token)
        .par_iter()
        .enumerate()
        .filter_map(|(i, &space)| {
            if stop.load(Ordering::Relaxed) {
                return None;
            }
            let cell = square_figures(scenario, token, space, seed ^ i as u64);
            progress(done.fetch_add(1, Ordering::Relaxed) + 1);
            Some(cell)
        })
        .collect();
    let mut table = Table::new("heatmap");
    table.int("x", cells.iter().map(|c| i64::from(c.x)));
    table.int("y", cells.iter().map(|c| i64::from(c.y)));
    table.text(
        "method",
        cells
            .iter()
            .map(|c| if c.exact { "exact" } else { "simulated" }.to_string()),
    );
    for (t, &combatant) in target_combatants(scenario).iter().enumerate() {
        let name = scenario.combatants[combatant].token;
        let column: Vec<&TargetFigures> = cells.iter().map(|c| &c.targets[t]).collect();
        table.float(format!("{name}_p_hit"), column.iter().map(|c| c.p_hit));
        table.float(
            format!("{name}_p_down"),
            column.iter().map(|c| Some(c.p_down)),
        );
        table.float(
            format!("{name}_mean_damage"),
            column.iter().map(|c| Some(c.mean_damage)),
        );
        table.text(
            format!("{name}_cover"),
            column.iter().map(|c| c.cover.clone()),
        );
        table.int(
            format!("{name}_concealment"),
            column.iter().map(|c| i64::from(c.concealment)),
        );
        table.bool(
            format!("{name}_flanking"),
            column.iter().map(|c| c.flanking),
        );
        table.bool(format!("{name}_refused"), column.iter().map(|c| c.refused));
    }
    Some(table)
}

/// Every target's figures with the combatant at `space`, planned as the file's own plan
/// is (the map's verdicts come from the same planning).
fn square_figures(scenario: &Scenario, token: usize, space: Space, seed: u64) -> SquareFigures {
    let mut moved = scenario.clone();
    if let Some(field) = &mut moved.battlefield {
        field.spaces[token] = space;
    }
    let Planned { plan, lines } = Planned::from_scenario(&moved);
    let exact = exact::compute(&plan);
    let all_exact =
        exact.targets.iter().all(Result::is_ok) && exact.slots.iter().all(Option::is_some);
    let tally = (!all_exact).then(|| {
        let trials = moved.trials.min(SIMULATED_TRIALS);
        simulate(&plan, &EngineConfig::new(seed, trials), &|_| ())
    });
    let targets = target_combatants(&moved)
        .into_iter()
        .enumerate()
        .map(|(t, combatant)| {
            let chosen = chosen_lines(&moved, token, combatant);
            let chosen_plan_lines: Vec<usize> = chosen
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
            TargetFigures {
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
    SquareFigures {
        x: space.x(),
        y: space.y(),
        exact: all_exact,
        targets,
    }
}

/// The plan lines of the file at `combatant` that involve the moved combatant `token`, or
/// all of them when none does.
fn chosen_lines(scenario: &Scenario, token: usize, combatant: usize) -> Vec<usize> {
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
fn exact_figures(exact: &exact::Exact, t: usize, slots: &[usize]) -> (Option<f64>, f64, f64) {
    let rounds = &exact.targets[t].as_ref().expect("all exact").rounds;
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
    t: usize,
    slots: &[usize],
) -> (Option<f64>, f64, f64) {
    let last = tally.round(t, plan.rounds as usize - 1);
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
