//! `[heatmap]`: one combatant tried on every open square of the map. Geometry is judged
//! anew and the plan recomputed for each square; the figures come from the exact engine,
//! or, where it cannot compute them, from a short Monte Carlo run (the `method` column
//! says which).
//!
//! Architecture Invariant: a square's figures depend only on the scenario, the square
//! and the seed — never on the thread that computed them.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use rayon::prelude::*;

use crate::engine::{EngineConfig, simulate};
use crate::exact;
use crate::map::Space;
use crate::plan::Plan;
use crate::report::Table;
use crate::scenario::Scenario;
use crate::verdict::line_verdict;

/// Trials per square when the exact engine cannot compute a figure.
pub const SIMULATED_TRIALS: u64 = 20_000;

/// One target's figures at one square.
#[derive(Debug, PartialEq)]
struct TargetCell {
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

struct Cell {
    x: i32,
    y: i32,
    exact: bool,
    targets: Vec<TargetCell>,
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
    let cells: Vec<Cell> = placements(scenario, token)
        .par_iter()
        .enumerate()
        .filter_map(|(i, &space)| {
            if stop.load(Ordering::Relaxed) {
                return None;
            }
            let cell = cell(scenario, token, space, seed ^ i as u64);
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
        let column: Vec<&TargetCell> = cells.iter().map(|c| &c.targets[t]).collect();
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

/// Every target's figures with the combatant at `space`.
fn cell(scenario: &Scenario, token: usize, space: Space, seed: u64) -> Cell {
    let mut moved = scenario.clone();
    if let Some(field) = &mut moved.battlefield {
        field.spaces[token] = space;
    }
    let (plan, refusals) = Plan::from_scenario_skipping_refused(&moved);
    let exact = exact::compute(&plan);
    let all_exact =
        exact.targets.iter().all(Result::is_ok) && exact.slots.iter().all(Option::is_some);
    let tally = (!all_exact).then(|| {
        let trials = moved.trials.min(SIMULATED_TRIALS);
        simulate(&plan, &EngineConfig::new(seed, trials), &|_| ())
    });
    // The plan's line index of each scenario line that could be made.
    let plan_lines: Vec<Option<usize>> = refusals
        .iter()
        .scan(0, |made, refusal| {
            Some(refusal.is_none().then(|| {
                *made += 1;
                *made - 1
            }))
        })
        .collect();
    let targets = target_combatants(&moved)
        .into_iter()
        .enumerate()
        .map(|(t, combatant)| {
            let at_target = |l: &&crate::scenario::PlanLine| l.target == combatant;
            let involved: Vec<usize> = moved
                .plan
                .iter()
                .enumerate()
                .filter(|(_, l)| at_target(l) && (l.attacker == token || l.target == token))
                .map(|(i, _)| i)
                .collect();
            let chosen: Vec<usize> = if involved.is_empty() {
                (0..moved.plan.len())
                    .filter(|&i| moved.plan[i].target == combatant)
                    .collect()
            } else {
                involved
            };
            let chosen_plan_lines: Vec<usize> =
                chosen.iter().filter_map(|&i| plan_lines[i]).collect();
            let slots: Vec<usize> = plan
                .slots_against(t)
                .filter(|(_, slot)| chosen_plan_lines.contains(&slot.line))
                .map(|(s, _)| s)
                .collect();
            let (p_hit, p_down, mean_damage) = match &tally {
                None => {
                    let rounds = &exact.targets[t].as_ref().expect("all exact").rounds;
                    let last = rounds[rounds.len() - 1];
                    let hits: Vec<f64> = slots
                        .iter()
                        .filter_map(|&s| exact.slots[s].map(|e| e.p_hit))
                        .collect();
                    (mean(&hits), last.p_down, last.mean_damage)
                }
                Some(tally) => {
                    let last = tally.round(t, plan.rounds as usize - 1);
                    let hits: Vec<f64> = slots
                        .iter()
                        .map(|&s| tally.slot(&plan, s))
                        .filter(|attacks| attacks.made() > 0)
                        .map(|attacks| attacks.hit().estimate().point)
                        .collect();
                    (
                        mean(&hits),
                        last.down.estimate().point,
                        last.damage.estimate().point,
                    )
                }
            };
            let line_index = chosen[0];
            let field = moved.battlefield.as_ref().expect("a heatmap has a map");
            let verdict =
                line_verdict(&moved, field, moved.system.rules(), &moved.plan[line_index]);
            TargetCell {
                p_hit,
                p_down,
                mean_damage,
                cover: verdict.cover.key().to_string(),
                concealment: verdict.concealment,
                flanking: verdict.flanking.is_some(),
                refused: moved
                    .plan
                    .iter()
                    .zip(&refusals)
                    .any(|(l, r)| l.target == combatant && r.is_some()),
            }
        })
        .collect();
    Cell {
        x: space.x(),
        y: space.y(),
        exact: all_exact,
        targets,
    }
}

fn mean(values: &[f64]) -> Option<f64> {
    (!values.is_empty()).then(|| values.iter().sum::<f64>() / values.len() as f64)
}
