//! The attack model: what one block of trials of a [`Plan`] simulates, for the runner.
//! Each slot's attacks are drawn by an [`AliasTable`] or die by die, and every outcome is
//! applied to its target with [`Target::take`].

use rand::Rng;
use rand_pcg::Pcg64Mcg;

use super::paired::{Figure, Pairable, TrialValues};
use super::runner::Model;
use super::{AliasTable, SamplerKind, Tally, tally_cells};
use crate::attack::{AttackProfile, OutcomeEffect, OutcomeLayout};
use crate::injury::Acting;
use crate::plan::{Plan, Target, TargetId};

/// How one slot's attacks are drawn.
enum Draw<'a> {
    Table(AliasTable),
    Dice(&'a AttackProfile, OutcomeLayout),
}

/// Per-slot data the inner loop reads.
struct Kernel<'a> {
    target: usize,
    /// The plan line it belongs to.
    line: usize,
    draw: Draw<'a>,
    /// What each outcome index does.
    effects: Vec<OutcomeEffect>,
    /// The target index of the creature struck instead (giving cover, or grappling with
    /// the target), when the attack can strike it (d20 Modern).
    cover: Option<usize>,
    /// The attack is made only at the end of every `period`-th round.
    period: usize,
    /// The attacker's target index, when it is attacked too (it stops once down).
    attacker: Option<usize>,
    /// Where its outcome counts start in [`TrialScratch::outcomes`].
    first_outcome: usize,
}

impl Kernel<'_> {
    #[inline(always)]
    fn draw<R: Rng>(&self, rng: &mut R) -> usize {
        match &self.draw {
            Draw::Table(table) => table.pick(rng.next_u64()),
            Draw::Dice(profile, layout) => layout.index(profile.roll(rng)),
        }
    }
}

/// Damage taken and deaths per target within one trial, the attacks made since the last
/// [`TrialScratch::settle`], and the trial's value of each [`Pairable::figures`] figure.
pub(super) struct TrialScratch {
    harm: Vec<Harm>,
    /// Every slot's outcome counts side by side (a slot's from its `Kernel::first_outcome`):
    /// a draw counts in one flat array, added to the tally's per-slot counts once per
    /// `simulate` call (a chunk of trials) by [`TrialScratch::settle`].
    outcomes: Vec<u64>,
    /// The trial's figure values (see [`TrialValues`]): per target with hit points, per
    /// round, down and dead; per target, per round, damage taken, then per plan line, its
    /// damage.
    chances: Vec<u8>,
    amounts: Vec<i64>,
}

/// One target's damage taken and death within a trial, side by side.
#[derive(Clone, Copy, Default)]
struct Harm {
    taken: i64,
    dead: bool,
}

impl TrialScratch {
    /// Adds the attacks counted since the last call to `tally`'s per-slot counts.
    fn settle(&mut self, model: &PlanModel, tally: &mut Tally) {
        for (kernel, counts) in model.slots.iter().zip(tally.outcomes.iter_mut()) {
            let first = kernel.first_outcome;
            let mine = &mut self.outcomes[first..first + counts.len()];
            for (count, mine) in counts.iter_mut().zip(mine.iter_mut()) {
                *count += std::mem::take(mine);
            }
        }
    }
}

/// A plan ready to simulate: one kernel per slot.
pub(super) struct PlanModel<'a> {
    plan: &'a Plan,
    slots: Vec<Kernel<'a>>,
    targets: &'a [Target],
    /// Per target: damage taken at which it is down (`i64::MAX` = never).
    down_at: Vec<i64>,
    rounds: usize,
    /// Per target: where its rounds' down and dead start among the chances (read only
    /// for a target with hit points: the others have none).
    target_chances: Vec<usize>,
    /// How many chances there are.
    chances: usize,
    /// Where the plan lines' damage starts among the amounts, after every target's
    /// damage per round.
    line_amounts: usize,
    /// Every target is attacked once, in a single round: see [`PlanModel::run_single_draws`].
    single_draws: bool,
}

impl<'a> PlanModel<'a> {
    pub(super) fn new(plan: &'a Plan, sampler: SamplerKind) -> Self {
        let mut outcomes_before = 0;
        let slots = plan
            .slots()
            .iter()
            .map(|s| {
                let layout = s.profile.layout();
                let first_outcome = outcomes_before;
                outcomes_before += layout.len();
                let draw = match (sampler, s.profile.outcomes()) {
                    (SamplerKind::Table, Some(table)) => Draw::Table(AliasTable::new(&table.probs)),
                    _ => Draw::Dice(&s.profile, layout),
                };
                Kernel {
                    target: s.target.index(),
                    line: s.line.index(),
                    draw,
                    effects: layout.effects(),
                    cover: (s.covering)
                        .filter(|_| layout.can_strike())
                        .map(TargetId::index),
                    period: s.period.max(1) as usize,
                    attacker: s.attacker.map(TargetId::index),
                    first_outcome,
                }
            })
            .collect::<Vec<_>>();
        let single_draws = plan.rounds() == 1
            && plan
                .target_ids()
                .all(|t| plan.slots_against(t).count() == 1)
            && slots.iter().all(|k| k.cover.is_none() && k.period == 1)
            && acts_before_attacked(&slots);
        let down_at: Vec<i64> = (plan.targets().iter())
            .map(|t| t.down_at.unwrap_or(i64::MAX))
            .collect();
        let rounds = plan.rounds() as usize;
        let mut target_chances = Vec::with_capacity(down_at.len());
        let mut next = 0;
        for &d in &down_at {
            target_chances.push(next);
            if has_hp(d) {
                next += 2 * rounds;
            }
        }
        Self {
            plan,
            slots,
            targets: plan.targets(),
            down_at,
            rounds,
            target_chances,
            chances: next,
            line_amounts: rounds * plan.targets().len(),
            single_draws,
        }
    }

    /// The general case: `trials` trials of rounds of the plan, tracking damage per
    /// target, added to `tally` (whose trial count the caller keeps).
    fn run_trials(&self, tally: &mut Tally, rng: &mut Pcg64Mcg, trials: u64) {
        let mut scratch = self.scratch();
        for _ in 0..trials {
            self.trial::<true, false>(tally, rng, &mut scratch);
        }
        scratch.settle(self, tally);
    }

    /// One trial of the general case, its damage and deaths kept in `scratch`: counted in
    /// `tally` when `COUNTED` (its outcome counts in `scratch` until
    /// [`TrialScratch::settle`]), its figures' values left in `scratch` when `VALUES`.
    fn trial<const COUNTED: bool, const VALUES: bool>(
        &self,
        tally: &mut Tally,
        rng: &mut Pcg64Mcg,
        scratch: &mut TrialScratch,
    ) {
        let TrialScratch {
            harm,
            outcomes,
            chances,
            amounts,
        } = scratch;
        harm.fill(Harm::default());
        let (round_damage, line_damage) = amounts.split_at_mut(self.line_amounts);
        if VALUES {
            line_damage.fill(0);
        }
        for round in 0..self.rounds {
            for kernel in &self.slots {
                let t = kernel.target;
                if harm[t].dead || (kernel.period > 1 && (round + 1) % kernel.period != 0) {
                    continue;
                }
                let disabled = match kernel.attacker {
                    Some(a) => match self.targets[a].acting(harm[a].taken, harm[a].dead) {
                        Acting::Acts => None,
                        Acting::Disabled => Some(a),
                        Acting::Down => continue,
                    },
                    None => None,
                };
                let outcome = kernel.draw(rng);
                let effect = kernel.effects[outcome];
                if COUNTED {
                    outcomes[kernel.first_outcome + outcome] += 1;
                }
                if VALUES {
                    line_damage[kernel.line] += effect.damage;
                }
                harm[t] = self.take(t, harm[t], effect.damage, effect.drops);
                harm[t].dead |= effect.slays;
                if let Some(c) = kernel.cover
                    && effect.struck_damage > 0
                    && !harm[c].dead
                {
                    harm[c] = self.take(c, harm[c], effect.struck_damage, effect.struck_drops);
                }
                if let Some(a) = disabled {
                    let (taken, dead) = self.targets[a].after_disabled_action(harm[a].taken);
                    harm[a] = Harm { taken, dead };
                }
            }
            for (t, &Harm { taken, dead }) in harm.iter().enumerate() {
                let down = dead || taken >= self.down_at[t];
                if COUNTED {
                    let r = &mut tally.rounds[t][round];
                    r.down += u64::from(down);
                    r.dead += u64::from(dead);
                    let d = taken as u128;
                    r.damage_sum += d;
                    r.damage_squares += d * d;
                }
                if VALUES {
                    if has_hp(self.down_at[t]) {
                        let at = self.target_chances[t] + 2 * round;
                        chances[at] = u8::from(down);
                        chances[at + 1] = u8::from(dead);
                    }
                    round_damage[t * self.rounds + round] = taken;
                }
            }
        }
        if COUNTED {
            for (histogram, h) in tally.damage.iter_mut().zip(harm.iter()) {
                histogram[h.taken as usize] += 1;
            }
        }
    }

    /// Target `t`, harmed as `harm`, takes `damage` ([`Target::take`]).
    #[inline(always)]
    fn take(&self, t: usize, harm: Harm, damage: i64, dropped: bool) -> Harm {
        let (taken, dead) = self.targets[t].take(harm.taken, damage, dropped);
        Harm { taken, dead }
    }

    /// Invariant: one round, and every target is the target of exactly one slot. Then no
    /// attack can be skipped (nothing dies before its only attack) and each trial's damage
    /// to a target is that one attack's damage, so drawing each slot `trials` times and
    /// deriving the per-target tallies from the outcome counts is the same experiment.
    fn run_single_draws(&self, tally: &mut Tally, rng: &mut Pcg64Mcg, trials: u64) {
        for (s, kernel) in self.slots.iter().enumerate() {
            let counts = &mut tally.outcomes[s];
            match &kernel.draw {
                Draw::Table(table) => {
                    for _ in 0..trials {
                        counts[table.pick(rng.next_u64())] += 1;
                    }
                }
                Draw::Dice(..) => {
                    for _ in 0..trials {
                        counts[kernel.draw(rng)] += 1;
                    }
                }
            }
            let t = kernel.target;
            let r = &mut tally.rounds[t][0];
            for (outcome, &count) in counts.iter().enumerate() {
                let effect = kernel.effects[outcome];
                let (d, died) = self.targets[t].take(0, effect.damage, effect.drops);
                let dead = died || effect.slays;
                if dead || d >= self.down_at[t] {
                    r.down += count;
                }
                if dead {
                    r.dead += count;
                }
                r.damage_sum += u128::from(count) * d as u128;
                r.damage_squares += u128::from(count) * (d * d) as u128;
                tally.damage[t][d as usize] += count;
            }
        }
    }
}

/// Whether a target that is down at `down_at` damage taken has hit points (`i64::MAX`:
/// never down), and so per round a down and a dead figure beside its damage taken.
fn has_hp(down_at: i64) -> bool {
    down_at < i64::MAX
}

/// Whether every attacker that is attacked too makes its attacks before any is made on it,
/// so that in a single round none can be skipped.
fn acts_before_attacked(slots: &[Kernel]) -> bool {
    slots.iter().enumerate().all(|(s, kernel)| {
        kernel
            .attacker
            .is_none_or(|a| slots[..s].iter().all(|earlier| earlier.target != a))
    })
}

impl Model for PlanModel<'_> {
    type Tally = Tally;

    fn empty_tally(&self) -> Tally {
        Tally::zero(self.plan)
    }

    fn simulate(&self, tally: &mut Tally, rng: &mut Pcg64Mcg, trials: u64) {
        if self.single_draws {
            self.run_single_draws(tally, rng, trials);
        } else {
            self.run_trials(tally, rng, trials);
        }
        tally.trials += trials;
    }

    /// Single draws take a slot's draws for the whole block before the next slot's.
    fn trial_by_trial(&self) -> bool {
        !self.single_draws
    }

    fn merge(&self, tally: Tally, other: Tally) -> Tally {
        tally.merge(other)
    }

    fn widest_half_width(&self, tally: &Tally) -> f64 {
        tally.widest_half_width(self.plan)
    }

    fn tally_cells(&self) -> u64 {
        tally_cells(self.plan)
    }
}

impl Pairable for PlanModel<'_> {
    type Scratch = TrialScratch;

    fn scratch(&self) -> TrialScratch {
        TrialScratch {
            harm: vec![Harm::default(); self.down_at.len()],
            outcomes: vec![0; self.slots.iter().map(|k| k.effects.len()).sum()],
            chances: vec![0; self.chances],
            amounts: vec![0; self.line_amounts + self.plan.lines().len()],
        }
    }

    /// Always the general case: single draws take a slot's draws for many trials at once.
    fn paired_trial<const COUNTED: bool>(
        &self,
        tally: &mut Tally,
        rng: &mut Pcg64Mcg,
        scratch: &mut TrialScratch,
    ) {
        self.trial::<COUNTED, true>(tally, rng, scratch);
    }

    fn settle(&self, tally: &mut Tally, scratch: &mut TrialScratch, trials: u64) {
        scratch.settle(self, tally);
        tally.trials += trials;
    }

    fn values<'s>(&self, scratch: &'s TrialScratch) -> TrialValues<'s> {
        TrialValues {
            chances: &scratch.chances,
            amounts: &scratch.amounts,
        }
    }

    /// Per target, per round: down and dead (targets with hit points), damage taken.
    fn figures(&self) -> Vec<Figure> {
        let mut figures = Vec::new();
        for (target, &down_at) in self.down_at.iter().enumerate() {
            for round in 1..=self.rounds {
                if has_hp(down_at) {
                    figures.push(Figure::TargetDown { target, round });
                    figures.push(Figure::TargetDead { target, round });
                }
                figures.push(Figure::TargetDamage { target, round });
            }
        }
        figures.extend((0..self.plan.lines().len()).map(|line| Figure::LineDamage { line }));
        figures
    }

    fn same_figure(&self, other: &Self, figure: Figure) -> bool {
        match figure {
            Figure::LineDamage { line } => {
                let described = |model: &Self| {
                    (model.plan.lines().get(line)).map(|l| {
                        let target = &model.plan.target(l.target).label;
                        (l.attacker.clone(), l.attack.clone(), target.clone())
                    })
                };
                described(self) == described(other)
            }
            _ => true,
        }
    }
}
