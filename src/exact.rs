//! The same [`Plan`] computed exactly: per-attack figures from each attack's outcome
//! table, and per-target down/dead/damage by round from the distribution of damage taken,
//! carried attack by attack with death absorbing (a dead target takes no more attacks).
//!
//! Targets are independent (an attack's outcome never depends on another target's
//! state), so each target's distribution is computed on its own.
//!
//! ```
//! use d20odds::{LineAttack, LineDefence, PlanBuilder, Situation, Target};
//! use d20odds::SystemId;
//! let mut plan = PlanBuilder::new("demo", SystemId::Pf1, 1);
//! let rat = plan.add_target(Target::new("rat".into(), Some(1), None));
//! let attack = LineAttack::plain("A", "bite", true, vec![0], "1".parse().unwrap(), Default::default());
//! let defence = LineDefence::plain(rat, 11, false);
//! plan.add_line(SystemId::Pf1.rules(), attack, defence, Situation::default(), None).unwrap();
//! let exact = d20odds::compute_exact(&plan.build());
//! let rounds = &exact.target(rat).unwrap().rounds;
//! assert_eq!(rounds[0].p_down, 0.5); // hits on 11+
//! ```

use crate::engine::max_damage_taken;
use crate::plan::{Plan, Target, TargetId};

/// Most elementary steps (state × outcome) spent on one target before giving up.
pub const MAX_EXACT_WORK: u64 = 400_000_000;
/// Most joint states (each one `f64`, held twice) of a group of targets.
pub const MAX_EXACT_STATES: u64 = 1 << 24;

/// Exact figures of one attack slot.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SlotExact {
    pub p_hit: f64,
    pub p_crit: f64,
    pub mean_damage: f64,
    /// P(another creature is struck instead: the one giving cover or the grappling
    /// partner), d20 Modern.
    pub p_struck: f64,
    /// Mean damage the creature struck instead takes.
    pub mean_struck_damage: f64,
}

/// Exact figures of one target at the end of one round (cumulative).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RoundExact {
    pub p_down: f64,
    pub p_dead: f64,
    pub mean_damage: f64,
}

/// Exact figures of one target.
#[derive(Debug, Clone, PartialEq)]
pub struct TargetExact {
    pub rounds: Vec<RoundExact>,
    /// P(total damage taken in a trial = index).
    pub damage: Vec<f64>,
}

/// Everything the exact engine could compute; `Err` holds why a part was not computed.
#[derive(Debug, Clone, PartialEq)]
pub struct Exact {
    /// Per attack slot of the plan, in order; `None` where the outcome table is not tractable.
    pub slots: Vec<Option<SlotExact>>,
    /// Per target of the plan, in order (see [`Exact::target`]); the error says why it was not computed.
    pub targets: Vec<Result<TargetExact, String>>,
}

impl Exact {
    /// One target's figures, or why they were not computed.
    pub fn target(&self, id: TargetId) -> Result<&TargetExact, &String> {
        self.targets[id.index()].as_ref()
    }
}

/// What an outcome does to the joint state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Effect {
    /// Damage to the attacked target, which dies only by its rules ([`Target::take`]).
    Damage,
    /// Damage to the target, which dies whatever its hit points (a failed coup-de-grace save).
    Slays,
    /// Damage to the target, which failed its massive-damage save (drops to −1 hp).
    Drops,
    /// Damage to the creature struck instead.
    Struck,
    /// Damage to the creature struck instead, which failed its massive-damage save.
    StruckDrops,
}

impl Effect {
    const ALL: [Effect; 5] = [
        Effect::Damage,
        Effect::Slays,
        Effect::Drops,
        Effect::Struck,
        Effect::StruckDrops,
    ];

    fn on_cover(self) -> bool {
        matches!(self, Effect::Struck | Effect::StruckDrops)
    }

    fn drops(self) -> bool {
        matches!(self, Effect::Drops | Effect::StruckDrops)
    }
}

/// One attack of a round, as the joint computation applies it.
struct Step {
    /// Position of the attacked target within its group.
    target: usize,
    /// Position of the creature struck instead, when the attack can strike it.
    covering: Option<usize>,
    /// The attack is made only at the end of every `period`-th round.
    period: u32,
    /// (damage, probability, effect), merged by damage and effect.
    outcomes: Vec<(usize, f64, Effect)>,
}

/// Computes every exact figure within the work bound.
pub fn compute(plan: &Plan) -> Exact {
    let tables: Vec<_> = plan.slots().iter().map(|s| s.profile.outcomes()).collect();
    let slots = tables
        .iter()
        .map(|t| {
            t.as_ref().map(|t| SlotExact {
                p_hit: t.p_hit(),
                p_crit: t.p_crit(),
                mean_damage: t.mean_damage(),
                p_struck: t.p_struck(),
                mean_struck_damage: t.mean_struck_damage(),
            })
        })
        .collect();
    let mut targets: Vec<Result<TargetExact, String>> =
        vec![Err(String::new()); plan.targets().len()];
    for group in groups(plan) {
        let results = match group_exact(plan, &group, &tables) {
            Ok(found) => found.into_iter().map(Ok).collect(),
            Err(why) => vec![Err(why); group.len()],
        };
        for (&t, result) in group.iter().zip(results) {
            targets[t.index()] = result;
        }
    }
    Exact { slots, targets }
}

/// Targets whose fates are linked because an attack on one can strike another that
/// gives it cover or that it is grappling with; every other target is a group of its own.
fn groups(plan: &Plan) -> Vec<Vec<TargetId>> {
    let mut group_of: Vec<usize> = (0..plan.targets().len()).collect();
    for slot in plan.slots() {
        if let Some(c) = slot.covering {
            let (from, to) = (group_of[c.index()], group_of[slot.target.index()]);
            for g in group_of.iter_mut().filter(|g| **g == from) {
                *g = to;
            }
        }
    }
    let mut groups: Vec<Vec<TargetId>> = Vec::new();
    for (t, &g) in plan.target_ids().zip(&group_of) {
        match groups
            .iter_mut()
            .find(|members| group_of[members[0].index()] == g)
        {
            Some(members) => members.push(t),
            None => groups.push(vec![t]),
        }
    }
    groups
}

/// The outcomes of one slot merged by (damage, effect), or why they are unknown.
fn step_outcomes(
    table: Option<&crate::attack::OutcomeTable>,
) -> Result<Vec<(usize, f64, Effect)>, String> {
    let t = table.ok_or_else(|| "a damage expression is too large to convolve".to_string())?;
    let layout = &t.layout;
    let most = layout.max_damage().max(layout.max_struck_damage()) as usize;
    let mut by_damage = vec![[0.0; Effect::ALL.len()]; most + 1];
    for (i, &p) in t.probs.iter().enumerate() {
        let (damage, effect) = if layout.struck_drops(i) {
            (layout.struck_damage(i), Effect::StruckDrops)
        } else if layout.struck(i) {
            (layout.struck_damage(i), Effect::Struck)
        } else if layout.slays(i) {
            (layout.damage(i), Effect::Slays)
        } else if layout.drops(i) {
            (layout.damage(i), Effect::Drops)
        } else {
            (layout.damage(i), Effect::Damage)
        };
        by_damage[damage as usize][effect as usize] += p;
    }
    Ok(by_damage
        .into_iter()
        .enumerate()
        .flat_map(|(d, ps)| Effect::ALL.into_iter().zip(ps).map(move |(e, p)| (d, p, e)))
        .filter(|&(_, p, _)| p > 0.0)
        .collect())
}

/// Carries the joint distribution of (damage taken, dead) of a group of targets through
/// every round, death absorbing (a dead target takes no more attacks), and returns each
/// member's figures.
fn group_exact(
    plan: &Plan,
    group: &[TargetId],
    tables: &[Option<crate::attack::OutcomeTable>],
) -> Result<Vec<TargetExact>, String> {
    let steps = group_steps(plan, group, tables)?;
    let joint = JointState::new(
        group
            .iter()
            .map(|&t| max_damage_taken(plan, t) as usize + 1),
    );
    joint.check_bounds(&steps, plan.rounds())?;
    let members: Vec<&Target> = group.iter().map(|&t| plan.target(t)).collect();
    let down_at: Vec<usize> = members
        .iter()
        .map(|t| t.down_at.map_or(usize::MAX, |d| d as usize))
        .collect();
    let mut probs = vec![0.0; joint.states as usize];
    probs[0] = 1.0;
    let mut rounds = vec![Vec::with_capacity(plan.rounds() as usize); group.len()];
    for round in 1..=plan.rounds() {
        for step in steps.iter().filter(|s| round % s.period == 0) {
            probs = joint.advance(&probs, step, &members);
        }
        for (k, figures) in rounds.iter_mut().enumerate() {
            figures.push(joint.round_figures(&probs, k, down_at[k]));
        }
    }
    Ok(rounds
        .into_iter()
        .enumerate()
        .map(|(k, rounds)| TargetExact {
            rounds,
            damage: joint.damage_distribution(&probs, k),
        })
        .collect())
}

/// The attack slots made on a group's members, in plan order, with members as positions
/// within the group.
fn group_steps(
    plan: &Plan,
    group: &[TargetId],
    tables: &[Option<crate::attack::OutcomeTable>],
) -> Result<Vec<Step>, String> {
    let position = |t: TargetId| group.iter().position(|&g| g == t);
    plan.slots()
        .iter()
        .enumerate()
        .filter_map(|(s, slot)| position(slot.target).map(|target| (s, slot, target)))
        .map(|(s, slot, target)| {
            Ok(Step {
                target,
                covering: slot.covering.and_then(position),
                period: slot.period,
                outcomes: step_outcomes(tables[s].as_ref())?,
            })
        })
        .collect()
}

/// The joint state of a group: a mixed-radix number with one digit per member, the digit
/// being 2 × damage taken + dead.
struct JointState {
    /// Each member's damage taken runs from 0 to `sizes[k] - 1`.
    sizes: Vec<usize>,
    strides: Vec<usize>,
    /// How many joint states there are (saturating).
    states: u64,
}

impl JointState {
    fn new(sizes: impl Iterator<Item = usize>) -> Self {
        let sizes: Vec<usize> = sizes.collect();
        let mut strides = Vec::with_capacity(sizes.len());
        let mut states: u64 = 1;
        for &size in &sizes {
            strides.push(states as usize);
            states = states.saturating_mul(2 * size as u64);
        }
        Self {
            sizes,
            strides,
            states,
        }
    }

    /// Refuses a group whose states or steps pass the exact engine's bounds.
    fn check_bounds(&self, steps: &[Step], rounds: u32) -> Result<(), String> {
        let states = self.states;
        let work =
            steps.iter().map(|s| s.outcomes.len() as u64).sum::<u64>() * states * u64::from(rounds);
        if states > MAX_EXACT_STATES {
            return Err(format!(
                "needs {states} states of damage taken, more than the bound of {MAX_EXACT_STATES}"
            ));
        }
        if work > MAX_EXACT_WORK {
            return Err(format!(
                "needs {work} steps, more than the bound of {MAX_EXACT_WORK}"
            ));
        }
        Ok(())
    }

    /// Member `k`'s digit of `state`.
    fn digit(&self, state: usize, k: usize) -> usize {
        (state / self.strides[k]) % (2 * self.sizes[k])
    }

    /// The distribution after one attack slot: a dead member takes no more attacks, and an
    /// outcome that strikes the covering creature moves that member's digit instead.
    fn advance(&self, probs: &[f64], step: &Step, members: &[&Target]) -> Vec<f64> {
        let mut next = vec![0.0; probs.len()];
        for (state, &p) in probs.iter().enumerate().filter(|&(_, &p)| p > 0.0) {
            let own = self.digit(state, step.target);
            if own % 2 == 1 {
                next[state] += p;
                continue;
            }
            for &(damage, q, effect) in &step.outcomes {
                let k = match (effect.on_cover(), step.covering) {
                    (true, Some(c)) => c,
                    (true, None) => {
                        next[state] += p * q;
                        continue;
                    }
                    (false, _) => step.target,
                };
                let d = self.digit(state, k);
                if d % 2 == 1 {
                    next[state] += p * q;
                    continue;
                }
                let (total, died) = members[k].take((d / 2) as i64, damage as i64, effect.drops());
                let total = total as usize;
                let dead = effect == Effect::Slays || died;
                let moved =
                    state - d * self.strides[k] + (2 * total + usize::from(dead)) * self.strides[k];
                next[moved] += p * q;
            }
        }
        next
    }

    /// Member `k`'s P(down), P(dead) and mean damage taken under `probs`.
    fn round_figures(&self, probs: &[f64], k: usize, down_at: usize) -> RoundExact {
        let mut round = RoundExact {
            p_down: 0.0,
            p_dead: 0.0,
            mean_damage: 0.0,
        };
        for (state, &p) in probs.iter().enumerate().filter(|&(_, &p)| p > 0.0) {
            let d = self.digit(state, k);
            let (taken, dead) = (d / 2, d % 2 == 1);
            round.p_dead += if dead { p } else { 0.0 };
            round.p_down += if dead || taken >= down_at { p } else { 0.0 };
            round.mean_damage += taken as f64 * p;
        }
        round
    }

    /// P(member `k` took each amount of damage) under `probs`.
    fn damage_distribution(&self, probs: &[f64], k: usize) -> Vec<f64> {
        let mut damage = vec![0.0; self.sizes[k]];
        for (state, &p) in probs.iter().enumerate() {
            damage[self.digit(state, k) / 2] += p;
        }
        damage
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::{LineAttack, LineDefence, PlanBuilder, Situation, Target};
    use crate::rules::SystemId;

    fn plan(
        bonuses: Vec<i32>,
        ac: i32,
        damage: &str,
        hp: i64,
        con: Option<i64>,
        rounds: u32,
    ) -> Plan {
        let attack = LineAttack::plain(
            "A",
            "a",
            true,
            bonuses,
            damage.parse().unwrap(),
            Default::default(),
        );
        let target = Target::new("T".into(), Some(hp), con);
        Plan::single(SystemId::Pf1, rounds, target, attack, ac, true)
    }

    #[test]
    fn two_hits_needed_over_two_rounds() {
        // Hit 1/2 for exactly 5 against 10 hp: down after round 2 with probability 1/4,
        // dead (Con 5: at 15 damage) never within two rounds.
        let exact = compute(&plan(vec![0], 11, "5", 10, Some(5), 2));
        let r = &exact.targets[0].as_ref().unwrap().rounds;
        assert_eq!((r[0].p_down, r[1].p_down), (0.0, 0.25));
        assert_eq!((r[0].p_dead, r[1].p_dead), (0.0, 0.0));
        assert_eq!((r[0].mean_damage, r[1].mean_damage), (2.5, 5.0));
    }

    #[test]
    fn dead_targets_take_no_more_attacks() {
        // Two iteratives that always hit (+100; only a natural 1 misses) for 3 against
        // 3 hp without Con, immune to crits: dead after the first hit, so total damage is 3 unless the first
        // attack misses (1/20), then 3 again unless the second also misses (1/400 → 0).
        let exact = compute(&plan(vec![100, 100], 10, "3", 3, None, 1));
        let t = exact.targets[0].as_ref().unwrap();
        assert_eq!(t.damage.len(), 13, "the layout keeps room for crits of 6");
        assert!((t.damage[0] - 1.0 / 400.0).abs() < 1e-15);
        assert!((t.damage[3] - 399.0 / 400.0).abs() < 1e-15);
        assert!(t.damage[4..].iter().all(|&p| p == 0.0));
        assert!((t.rounds[0].p_dead - 399.0 / 400.0).abs() < 1e-15);
    }

    /// A single coup de grace by `level` with `damage` against a helpless target.
    fn coup_de_grace(
        system: SystemId,
        damage: &str,
        hp: i64,
        fort: i32,
        level: i32,
        immune: bool,
    ) -> Exact {
        let rules = system.rules();
        let mut plan = PlanBuilder::new("t", system, 1);
        let target = plan.add_target(Target::new("T".into(), Some(hp), None));
        let mut attack = LineAttack::plain(
            "A",
            "a",
            true,
            vec![0],
            damage.parse().unwrap(),
            Default::default(),
        );
        attack.coup_de_grace = Some(level);
        let mut defence = LineDefence::plain(target, 30, immune);
        defence.conditions = vec![rules.condition("helpless").unwrap()];
        defence.fort = fort;
        plan.add_line(rules, attack, defence, Situation::default(), None)
            .unwrap();
        compute(&plan.build())
    }

    #[test]
    fn coup_de_grace_kills_by_damage_or_failed_save() {
        // PF1, 2d6+4 ×2 = 4d6+8 (12..32) against 20 hp, Fort +5, DC 10 + damage. Dead when
        // the blow deals 20+, else the save fails on naturals below 5 + d (a natural 20
        // always saves): 16/20 at d = 12, 17/20 at 13, 18/20 at 14, 19/20 from 15 on.
        // Over the 1296 rolls of 4d6: P(dead) = 25589/25920.
        let e = coup_de_grace(SystemId::Pf1, "2d6+4", 20, 5, 0, false);
        let slot = e.slots[0].unwrap();
        assert!((slot.p_hit - 1.0).abs() < 1e-12 && (slot.p_crit - 1.0).abs() < 1e-12);
        assert!((slot.mean_damage - 22.0).abs() < 1e-12);
        let p_dead = e.targets[0].as_ref().unwrap().rounds[0].p_dead;
        assert!((p_dead - 25589.0 / 25920.0).abs() < 1e-12, "{p_dead}");
        // Starfinder: DC 10 + level 5 = 15 whatever the damage; Fort +3 saves on 12..20,
        // so 11/20 die although 2d6 never reaches 50 hp.
        let e = coup_de_grace(SystemId::Starfinder, "1d6", 50, 3, 5, false);
        let p_dead = e.targets[0].as_ref().unwrap().rounds[0].p_dead;
        assert!((p_dead - 11.0 / 20.0).abs() < 1e-12, "{p_dead}");
        // Starfinder against a crit-immune target: a plain automatic hit, no save.
        let e = coup_de_grace(SystemId::Starfinder, "1d6", 50, 3, 5, true);
        let slot = e.slots[0].unwrap();
        assert!((slot.p_hit - 1.0).abs() < 1e-12 && slot.p_crit == 0.0);
        assert!((slot.mean_damage - 3.5).abs() < 1e-12);
        assert_eq!(e.targets[0].as_ref().unwrap().rounds[0].p_dead, 0.0);
    }

    #[test]
    fn a_struck_covering_creature_dies_once_and_takes_no_more() {
        // d20 Modern: +0 against 16 + 4 (one-half cover from C) hits T only on a 20; 16–19
        // miss only because of the cover and beat C's Defense 10: C is struck for 3 with
        // 1/5 each round, and 3 kills it. Dead by round 1: 1/5; by round 2: 1 − (4/5)² =
        // 9/25; its damage is 3 or 0, never 6.
        let rules = SystemId::D20Modern.rules();
        let mut plan = PlanBuilder::new("t", SystemId::D20Modern, 2);
        let target = plan.add_target(Target::new("T".into(), Some(100), None));
        let cover = plan.add_target(Target::new("C".into(), Some(3), None));
        let attack = LineAttack::plain(
            "A",
            "a",
            false,
            vec![0],
            "3".parse().unwrap(),
            Default::default(),
        );
        let situation = Situation {
            cover: Some(crate::rules::CoverLevel::Soft),
            covering: Some(crate::plan::Covering {
                target: cover,
                defense: 10,
                dex: 0,
                dr: 0,
                massive: None,
            }),
            ..Situation::default()
        };
        let defence = LineDefence::plain(target, 16, true);
        plan.add_line(rules, attack, defence, situation, None)
            .unwrap();
        let e = compute(&plan.build());
        assert!((e.slots[0].unwrap().p_struck - 0.2).abs() < 1e-15);
        let c = e.targets[1].as_ref().unwrap();
        assert!((c.rounds[0].p_dead - 0.2).abs() < 1e-15);
        assert!((c.rounds[1].p_dead - 9.0 / 25.0).abs() < 1e-15);
        assert!((c.damage[3] - 9.0 / 25.0).abs() < 1e-15);
        assert!(c.damage[6..].iter().all(|&p| p == 0.0));
        let t = e.targets[0].as_ref().unwrap();
        assert!((t.rounds[1].mean_damage - 2.0 * 3.0 / 20.0).abs() < 1e-15);
    }

    #[test]
    fn too_much_work_is_reported_not_attempted() {
        let exact = compute(&plan(vec![10, 5, 0], 15, "100d100", 5000, None, 1000));
        let reason = exact.targets[0].as_ref().unwrap_err();
        assert!(reason.contains("more than the bound"), "{reason}");
        assert!(exact.slots[0].is_some());
    }
}
