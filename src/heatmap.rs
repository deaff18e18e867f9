//! `[heatmap]`: one combatant tried on every open square of the map. Each square is planned
//! anew by the planning that judges the file's own plan lines (map verdicts included); the
//! figures come from the exact engine, or, where it cannot compute them, from a short
//! Monte Carlo run (the `method` column says which). In a fight each square is the whole
//! fight, simulated with at most [`SIMULATED_TRIALS`] trials.
//!
//! Architecture Invariant: a square's figures depend only on the scenario, the square
//! and the seed — never on the thread that computed them.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use rayon::prelude::*;

use crate::encounter::{Fight, Status, simulate_fight};
use crate::engine::{EngineConfig, Tally, simulate};
use crate::exact;
use crate::map::Space;
use crate::plan::{LineId, Plan, Planned, TargetId};
use crate::report::{Heatmap, HeatmapCell, HeatmapLayout, HeatmapRow, Shown};
use crate::scenario::{CombatantId, HeatmapMeasure, Scenario};

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
        .map_or(0, |h| placements(scenario, h.token).len() as u64)
}

/// heatmap.csv: one row per square, with each target's figures (in a fight, each
/// combatant's and each side's); `None` without a `[heatmap]` section. `progress` is
/// called with the squares done; once `stop` is set (Ctrl-C) the squares not started are
/// left out.
pub fn heatmap(
    scenario: &Scenario,
    seed: u64,
    progress: &(dyn Fn(u64) + Sync),
    stop: &AtomicBool,
) -> Option<Heatmap> {
    let spec = scenario.heatmap?;
    let fight = Fight::from_scenario(scenario).ok().flatten();
    let done = AtomicU64::new(0);
    let rows = placements(scenario, spec.token)
        .par_iter()
        .enumerate()
        .filter_map(|(i, &space)| {
            if stop.load(Ordering::Relaxed) {
                return None;
            }
            let seed = seed ^ i as u64;
            let row = match &fight {
                Some(_) => fight_square(scenario, spec.token, space, seed)?,
                None => square_figures(scenario, spec.token, space, seed),
            };
            progress(done.fetch_add(1, Ordering::Relaxed) + 1);
            Some(row)
        })
        .collect();
    let measured: Vec<CombatantId> = match &fight {
        Some(_) => scenario.combatant_ids().collect(),
        None => target_combatants(scenario),
    };
    let name = |c: CombatantId| scenario.combatant(c).label();
    let rounds = scenario.rounds;
    let (shown, label) = match (spec.measure, spec.target) {
        (HeatmapMeasure::Win, _) => {
            let side = &scenario.combatant(spec.token).side;
            let sides = fight.as_ref().map_or(&[][..], |f| &f.sides[..]);
            let index = sides.iter().position(|s| s == side).unwrap_or(0);
            (
                Shown::Won(index),
                format!("P({side} wins) by round {rounds}"),
            )
        }
        (measure, Some(target)) => {
            let index = measured.iter().position(|&c| c == target).unwrap_or(0);
            match measure {
                HeatmapMeasure::PDown => (
                    Shown::PDown(index),
                    format!("P({} down) by round {rounds}", name(target)),
                ),
                _ => (Shown::PHit(index), format!("P(hit) on {}", name(target))),
            }
        }
        (_, None) => (Shown::PHit(0), "P(hit)".to_string()),
    };
    Some(Heatmap {
        layout: HeatmapLayout {
            targets: (measured.iter())
                .map(|&c| scenario.combatant(c).token.to_string())
                .collect(),
            sides: fight.map(|f| f.sides).unwrap_or_default(),
        },
        shown,
        label,
        mover: name(spec.token),
        rows,
    })
}

/// The scenario with `token` standing at `space`.
fn moved(scenario: &Scenario, token: CombatantId, space: Space) -> Scenario {
    let mut moved = scenario.clone();
    if let Some(field) = &mut moved.battlefield {
        field.spaces[token.index()] = space;
    }
    moved
}

/// The fight with the combatant at `space`, simulated ([`SIMULATED_TRIALS`] trials at
/// most: an exact fight per square would take minutes each): each side's P(won) and each
/// combatant's P(hit) of the attacks made at it, P(down) and mean damage taken, by the
/// last round.
fn fight_square(
    scenario: &Scenario,
    token: CombatantId,
    space: Space,
    seed: u64,
) -> Option<HeatmapRow> {
    let moved = moved(scenario, token, space);
    let fight = Fight::from_scenario(&moved).ok().flatten()?;
    let trials = moved.trials.min(SIMULATED_TRIALS);
    let never = AtomicBool::new(false);
    let tally = simulate_fight(&fight, &EngineConfig::new(seed, trials), &|_| (), &never);
    let last = fight.rounds as usize;
    let attacks = fight.attacks();
    let targets = (0..fight.fighters.len())
        .map(|who| {
            let (mut hits, mut made) = (0, 0);
            for a in attacks.iter().filter(|a| a.target == who) {
                let figures = tally.attack(&fight, a.id);
                hits += figures.hit().successes;
                made += figures.made();
            }
            HeatmapCell {
                p_hit: (made > 0).then(|| hits as f64 / made as f64),
                p_down: 1.0 - tally.status(last, who, Status::Up).point,
                mean_damage: tally.taken(last, who).point,
                ..HeatmapCell::default()
            }
        })
        .collect();
    Some(HeatmapRow {
        x: i64::from(space.x()),
        y: i64::from(space.y()),
        method: "simulated".to_string(),
        targets,
        won: (0..fight.sides.len())
            .map(|s| tally.won(last, s).point)
            .collect(),
    })
}

/// Every target's figures with the combatant at `space`, planned as the file's own plan
/// is (the map's verdicts come from the same planning).
fn square_figures(scenario: &Scenario, token: CombatantId, space: Space, seed: u64) -> HeatmapRow {
    let moved = moved(scenario, token, space);
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
            let why_refused = (moved.plan.iter().zip(&lines))
                .filter(|(l, _)| l.target == combatant)
                .find_map(|(_, s)| s.made.as_ref().err())
                .map(|e| e.message.clone());
            HeatmapCell {
                p_hit,
                p_down,
                mean_damage,
                cover: verdict.cover.key().to_string(),
                concealment: verdict.concealment,
                flanking: verdict.flanking.is_some(),
                why_refused,
            }
        })
        .collect();
    HeatmapRow {
        x: i64::from(space.x()),
        y: i64::from(space.y()),
        method: if all_exact { "exact" } else { "simulated" }.to_string(),
        targets,
        won: Vec::new(),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::Scenario;

    /// A with an axe (reach 5 ft) against B with a bow, both 5 hp, each hit (10+ on d20,
    /// 11/20) dropping the other; listed order, A first, 3 rounds. Beside B, A wins by
    /// round 3 with 11/20 · (1 + 81/400 + (81/400)²) (the duel goes on after two misses,
    /// 9/20 · 9/20); two squares away it cannot attack, so it never wins. Each square's
    /// 20,000 simulated fights agree with that within |z| ≤ 5, and the chart shows A's side.
    #[test]
    fn a_fights_heatmap_shows_the_moved_sides_chance_to_win() {
        let text = r#"
system = "pf1"
trials = 20000
map = """
A...
..B.
"""
[encounter]
initiative = "listed"
rounds = 3
[[combatant]]
token = "A"
side = "a"
ac = 10
hp = 5
con = 10
immune_to_crits = true
[[combatant.attack]]
name = "axe"
kind = "melee"
bonus = 0
damage = "5"
[[combatant]]
token = "B"
side = "b"
ac = 10
hp = 5
con = 10
immune_to_crits = true
[[combatant.attack]]
name = "bow"
kind = "ranged"
bonus = 0
damage = "5"
range_increment = 100
[heatmap]
token = "A"
"#;
        let scenario = Scenario::parse("fight.toml", text).unwrap_or_else(|e| panic!("{e}"));
        let map = heatmap(&scenario, 3, &|_| (), &AtomicBool::new(false)).unwrap();
        assert_eq!(map.shown, Shown::Won(0));
        assert_eq!(map.label, "P(a wins) by round 3");
        let go_on: f64 = 81.0 / 400.0;
        let beside = 11.0 / 20.0 * (1.0 + go_on + go_on * go_on);
        let mut squares = 0;
        for row in &map.rows {
            let adjacent = (row.x - 2).abs() <= 1 && (row.y - 1).abs() <= 1;
            let exact: f64 = if adjacent { beside } else { 0.0 };
            let won = row.value(map.shown).unwrap();
            let se = (exact * (1.0 - exact) / 20_000.0).sqrt();
            let z = if se > 0.0 {
                (won - exact) / se
            } else {
                won / 1e-9
            };
            assert!(z.abs() <= 5.0, "({}, {}): {won} vs {exact}", row.x, row.y);
            squares += 1;
        }
        // 8 squares, B on one: 7 tried, 5 of them beside B.
        assert_eq!(squares, 7);
    }
}

#[cfg(test)]
mod refusal_tests {
    use super::*;
    use crate::scenario::Scenario;

    /// F's sword reaches 5 ft: from the squares beside O the line is made (a hit on 10+,
    /// 11/20); from the two squares 10 and 15 ft away it is refused, and the row says why
    /// (the planner's reason).
    #[test]
    fn a_refused_square_says_why() {
        let text = r#"
system = "pf1"
map = "F..O."
[[combatant]]
token = "F"
ac = 10
[[combatant.attack]]
name = "sword"
bonus = 0
damage = "5"
[[combatant]]
token = "O"
ac = 10
hp = 10
[[plan]]
attacker = "F"
target = "O"
attack = "sword"
[heatmap]
token = "F"
"#;
        let scenario = Scenario::parse("reach.toml", text).unwrap_or_else(|e| panic!("{e}"));
        let map = heatmap(&scenario, 1, &|_| (), &AtomicBool::new(false)).unwrap();
        assert_eq!(map.rows.len(), 4);
        for row in &map.rows {
            let why = row.targets[0].why_refused.as_deref();
            if row.x == 2 || row.x == 4 {
                assert_eq!(why, None, "x = {}", row.x);
                let p_hit = row.targets[0].p_hit.expect("made");
                assert!((p_hit - 0.55).abs() < 1e-12, "{p_hit}");
            } else {
                let why = why.unwrap_or_else(|| panic!("x = {} refused", row.x));
                assert!(why.contains("cannot reach `O` with `sword`"), "{why}");
                assert_eq!(row.targets[0].p_hit, None);
            }
        }
    }
}
