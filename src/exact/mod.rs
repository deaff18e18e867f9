//! The same [`Plan`] computed exactly: per-attack figures from each attack's outcome
//! table, and per-target down/dead/damage by round from the distribution of damage taken,
//! carried attack by attack with death absorbing (a dead target takes no more attacks).
//!
//! Targets are independent unless an attack on one can strike another, or one of them
//! attacks another (a combatant that is down makes no attacks): each target is followed
//! jointly with the targets its state depends on ([`MAX_EXACT_STATES`] joint states at most).
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

use crate::attack::OutcomeTable;
use crate::engine::max_damage_taken;
use crate::injury::Acting;
use crate::plan::{Assumes, Plan, Target, TargetId};

mod links;

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

impl SlotExact {
    /// The figures of one attack's outcome table.
    pub fn of(table: &OutcomeTable) -> SlotExact {
        SlotExact {
            p_hit: table.p_hit(),
            p_crit: table.p_crit(),
            mean_damage: table.mean_damage(),
            p_struck: table.p_struck(),
            mean_struck_damage: table.mean_struck_damage(),
        }
    }
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
    /// Position of the attacked target within its group; `None` when only the attacker is
    /// followed (the step is then its disabled action's cost, if any).
    target: Option<usize>,
    /// Position of the attacker within the group, when it is attacked too.
    attacker: Option<usize>,
    /// Position of the creature struck instead, when the attack can strike it.
    covering: Option<usize>,
    /// The attack is made only at the end of every `period`-th round.
    period: u32,
    /// Per slot the place may make: (damage, probability, effect), merged by damage and
    /// effect.
    outcomes: Vec<Vec<(usize, f64, Effect)>>,
    /// Per combination of [`crate::plan::Assumes`]: which of `outcomes` is made.
    situations: [usize; Assumes::COMBINATIONS],
    /// Whether the situation changes which is made ([`crate::plan::Place::varies`]).
    varies: bool,
    /// Whether the target being down changes the attack (see [`crate::plan::Place`]).
    target_down: bool,
    /// Positions of the partners and of the allies whose fall changes the attack.
    partners: Vec<usize>,
    allies: Vec<usize>,
    /// Whether the creature struck instead being down changes the attack.
    struck_down: bool,
}

/// Computes every exact figure within the work bound.
pub fn compute(plan: &Plan) -> Exact {
    let tables: Vec<_> = plan.slots().iter().map(|s| s.profile.outcomes()).collect();
    let slots = tables
        .iter()
        .map(|t| t.as_ref().map(SlotExact::of))
        .collect();
    let mut targets: Vec<Option<Result<TargetExact, String>>> = vec![None; plan.targets().len()];
    let linked = links::linked_targets(plan);
    for t in plan.target_ids() {
        if targets[t.index()].is_some() {
            continue;
        }
        // Every member's own linked set lies within `t`'s, so the joint distribution of
        // `t`'s set gives each member's figures.
        let group = &linked[t.index()];
        let results = match group_exact(plan, group, &tables) {
            Ok(found) => found.into_iter().map(Ok).collect(),
            Err(why) => vec![Err(why); group.len()],
        };
        for (&member, result) in group.iter().zip(results) {
            targets[member.index()].get_or_insert(result);
        }
    }
    Exact {
        slots,
        targets: targets
            .into_iter()
            .map(|t| t.expect("every target computed"))
            .collect(),
    }
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

/// The attacks made on a group's members or by them, in the order they are made, with
/// members as positions within the group.
fn group_steps(
    plan: &Plan,
    group: &[TargetId],
    tables: &[Option<crate::attack::OutcomeTable>],
) -> Result<Vec<Step>, String> {
    let position = |t: TargetId| group.iter().position(|&g| g == t);
    let positions =
        |who: &[TargetId]| -> Vec<usize> { who.iter().filter_map(|&t| position(t)).collect() };
    (plan.places().iter())
        .filter(|place| {
            let slot = &plan.slots()[place.first()];
            position(slot.target).is_some() || slot.attacker.and_then(position).is_some()
        })
        .map(|place| {
            let slot = &plan.slots()[place.first()];
            let target = position(slot.target);
            let made: Vec<usize> = place.distinct_slots().collect();
            let outcomes = match target {
                Some(_) => (made.iter())
                    .map(|&s| step_outcomes(tables[s].as_ref()))
                    .collect::<Result<_, _>>()?,
                None => vec![vec![(0, 1.0, Effect::Damage)]],
            };
            let situations = match target {
                Some(_) => place
                    .slots
                    .map(|s| made.iter().position(|&m| m == s).unwrap_or(0)),
                None => [0; Assumes::COMBINATIONS],
            };
            Ok(Step {
                target,
                attacker: slot.attacker.and_then(position),
                covering: slot.covering.and_then(position),
                period: slot.period,
                outcomes,
                situations,
                varies: target.is_some() && place.varies(),
                target_down: place.target_down,
                partners: positions(&place.partners),
                allies: positions(&place.allies),
                struck_down: place.struck_down,
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
        let most_outcomes = |s: &Step| s.outcomes.iter().map(Vec::len).max().unwrap_or(0) as u64;
        let work = steps.iter().map(most_outcomes).sum::<u64>() * states * u64::from(rounds);
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

    /// The distribution after one attack slot: a dead member takes no more attacks, a
    /// member that is down makes none (a disabled one makes it, then pays 1 hp), and an
    /// outcome that strikes the covering creature moves that member's digit instead.
    fn advance(&self, probs: &[f64], step: &Step, members: &[&Target]) -> Vec<f64> {
        let mut next = vec![0.0; probs.len()];
        for (state, &p) in probs.iter().enumerate().filter(|&(_, &p)| p > 0.0) {
            if step.target.is_some_and(|t| self.digit(state, t) % 2 == 1) {
                next[state] += p;
                continue;
            }
            let disabled = match step.attacker {
                Some(a) => {
                    let d = self.digit(state, a);
                    match members[a].acting((d / 2) as i64, d % 2 == 1) {
                        Acting::Acts => None,
                        Acting::Disabled => Some(a),
                        Acting::Down => {
                            next[state] += p;
                            continue;
                        }
                    }
                }
                None => None,
            };
            let made = match step.varies {
                false => step.situations[0],
                true => step.situations[self.situation(state, step, members)],
            };
            for &(damage, q, effect) in &step.outcomes[made] {
                let mut after = self.outcome(state, step, damage, effect, members);
                if let Some(a) = disabled {
                    let (taken, dead) = members[a].after_disabled_action(self.taken(after, a));
                    after = self.with_digit(after, a, taken, dead);
                }
                next[after] += p * q;
            }
        }
        next
    }

    /// The combination of [`Assumes`] that holds for `step` in `state` (its bits): its
    /// target down and alive, every partner down or dead, every ally down or dead, the
    /// creature struck instead down or dead.
    fn situation(&self, state: usize, step: &Step, members: &[&Target]) -> usize {
        let down = |k: usize| {
            let d = self.digit(state, k);
            members[k].acting((d / 2) as i64, d % 2 == 1) == Acting::Down
        };
        let all_down = |who: &[usize]| !who.is_empty() && who.iter().all(|&k| down(k));
        let target_down = step
            .target
            .is_some_and(|t| step.target_down && down(t) && self.digit(state, t).is_multiple_of(2));
        Assumes::bits_of(
            target_down,
            all_down(&step.partners),
            all_down(&step.allies),
            step.struck_down && step.covering.is_some_and(down),
        )
    }

    /// The state after one outcome of `step` from `state`.
    fn outcome(
        &self,
        state: usize,
        step: &Step,
        damage: usize,
        effect: Effect,
        members: &[&Target],
    ) -> usize {
        let k = match (effect.on_cover(), step.covering, step.target) {
            (true, Some(c), _) => c,
            (false, _, Some(t)) => t,
            _ => return state,
        };
        let d = self.digit(state, k);
        if d % 2 == 1 {
            return state;
        }
        let (total, died) = members[k].take((d / 2) as i64, damage as i64, effect.drops());
        self.with_digit(state, k, total, effect == Effect::Slays || died)
    }

    /// Member `k`'s damage taken in `state`.
    fn taken(&self, state: usize, k: usize) -> i64 {
        (self.digit(state, k) / 2) as i64
    }

    /// `state` with member `k`'s digit set to (`taken`, `dead`).
    fn with_digit(&self, state: usize, k: usize, taken: i64, dead: bool) -> usize {
        let digit = 2 * taken as usize + usize::from(dead);
        state - self.digit(state, k) * self.strides[k] + digit * self.strides[k]
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
mod tests;
