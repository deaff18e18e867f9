//! Integer counters of a batch of trials, and the one place they become figures. Tallies
//! of disjoint blocks merge by addition, so the result is the same whichever thread ran
//! which block. Outside the engine the counters are read only through [`Tally`]'s methods,
//! as a [`Proportion`] or a [`MeanSample`] that [`Estimate`] turns into an interval.

use crate::attack::OutcomeLayout;
use crate::plan::{LineId, Plan, Slot, TargetId};
use crate::stats::Estimate;

/// How often something happened, out of how many chances.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Proportion {
    /// Trials in which it happened.
    pub successes: u64,
    /// Trials in which it could happen.
    pub trials: u64,
}

impl Proportion {
    /// The proportion with its 95% interval.
    pub fn estimate(self) -> Estimate {
        Estimate::proportion(self.successes, self.trials)
    }
}

/// A quantity summed, and summed squared, over `n` samples.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MeanSample {
    /// The sum of the samples.
    pub sum: u128,
    /// The sum of their squares (for the variance).
    pub squares: u128,
    /// How many samples were summed.
    pub n: u64,
}

impl MeanSample {
    /// The mean with its 95% interval.
    pub fn estimate(self) -> Estimate {
        Estimate::mean(self.sum, self.squares, self.n)
    }
}

/// One target by the end of one round, over every trial.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RoundFigures {
    pub down: Proportion,
    pub dead: Proportion,
    /// Damage taken so far.
    pub damage: MeanSample,
}

/// One slot's attacks made, read through its outcome layout: every figure is per attack
/// made, not per trial (a dead target is not attacked again).
#[derive(Debug, Clone, Copy)]
pub struct SlotFigures<'a> {
    counts: &'a [u64],
    layout: OutcomeLayout,
    made: u64,
}

impl SlotFigures<'_> {
    /// The figures of outcome counts `counts`, laid out by `layout`.
    pub fn new(counts: &[u64], layout: OutcomeLayout) -> SlotFigures<'_> {
        SlotFigures {
            counts,
            layout,
            made: counts.iter().sum(),
        }
    }

    /// Attacks the slot made.
    pub fn made(&self) -> u64 {
        self.made
    }

    /// Attacks that hit the target (crits included).
    pub fn hit(&self) -> Proportion {
        self.share(|o| self.layout.is_hit(o))
    }

    /// Attacks that were critical hits.
    pub fn crit(&self) -> Proportion {
        self.share(|o| self.layout.is_crit(o))
    }

    /// Attacks that struck the creature giving cover instead (d20 Modern).
    pub fn struck(&self) -> Proportion {
        self.share(|o| self.layout.struck(o))
    }

    /// Damage dealt to the target.
    pub fn damage(&self) -> MeanSample {
        self.sample(|o| self.layout.damage(o))
    }

    /// Damage dealt to the creature struck instead.
    pub fn struck_damage(&self) -> MeanSample {
        self.sample(|o| self.layout.struck_damage(o))
    }

    fn share(&self, keep: impl Fn(usize) -> bool) -> Proportion {
        let successes = self
            .counts
            .iter()
            .enumerate()
            .filter(|&(o, _)| keep(o))
            .map(|(_, c)| c)
            .sum();
        Proportion {
            successes,
            trials: self.made,
        }
    }

    fn sample(&self, damage: impl Fn(usize) -> i64) -> MeanSample {
        let (sum, squares) =
            self.counts
                .iter()
                .enumerate()
                .fold((0u128, 0u128), |(s, q), (o, &c)| {
                    let d = damage(o) as u128;
                    (s + u128::from(c) * d, q + u128::from(c) * d * d)
                });
        MeanSample {
            sum,
            squares,
            n: self.made,
        }
    }
}

/// Per target and round: trials in which the target was down / dead by the end of the
/// round, and the sums of damage taken so far.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct RoundTally {
    pub(super) down: u64,
    pub(super) dead: u64,
    pub(super) damage_sum: u128,
    pub(super) damage_squares: u128,
}

impl RoundTally {
    /// Adds the counts of other trials.
    pub(super) fn add(&mut self, other: RoundTally) {
        self.down += other.down;
        self.dead += other.dead;
        self.damage_sum += other.damage_sum;
        self.damage_squares += other.damage_squares;
    }
}

/// Everything counted over some trials of a plan. Only the engine writes the counters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tally {
    pub(super) trials: u64,
    /// Per slot: how often each outcome index occurred (attacks made, by outcome).
    pub(super) outcomes: Vec<Vec<u64>>,
    /// Per target: one entry per round.
    pub(super) rounds: Vec<Vec<RoundTally>>,
    /// Per target: how many trials ended with each total of damage taken.
    pub(super) damage: Vec<Vec<u64>>,
}

impl Tally {
    /// An empty tally shaped for a plan.
    pub(super) fn zero(plan: &Plan) -> Self {
        let damage = plan
            .target_ids()
            .map(|t| vec![0; max_damage_taken(plan, t) as usize + 1])
            .collect();
        Self {
            trials: 0,
            outcomes: plan
                .slots()
                .iter()
                .map(|s| vec![0; s.profile.layout().len()])
                .collect(),
            rounds: vec![vec![RoundTally::default(); plan.rounds() as usize]; plan.targets().len()],
            damage,
        }
    }

    /// Adds another tally of the same plan.
    pub(super) fn merge(mut self, other: Tally) -> Tally {
        self.trials += other.trials;
        add_all(&mut self.outcomes, &other.outcomes);
        add_all(&mut self.damage, &other.damage);
        for (mine, theirs) in self.rounds.iter_mut().zip(&other.rounds) {
            for (m, &t) in mine.iter_mut().zip(theirs) {
                m.add(t);
            }
        }
        self
    }

    /// Trials counted (fewer than asked when `--precision` or a stop ended the run).
    pub fn trials(&self) -> u64 {
        self.trials
    }

    /// The attacks of `plan`'s slot `slot` (this tally's plan).
    pub fn slot(&self, plan: &Plan, slot: usize) -> SlotFigures<'_> {
        SlotFigures::new(&self.outcomes[slot], plan.slots()[slot].profile.layout())
    }

    /// Target `target` by the end of round `round` (both from 0).
    pub fn round(&self, target: TargetId, round: usize) -> RoundFigures {
        let r = self.rounds[target.index()][round];
        let of_trials = |successes| Proportion {
            successes,
            trials: self.trials,
        };
        RoundFigures {
            down: of_trials(r.down),
            dead: of_trials(r.dead),
            damage: MeanSample {
                sum: r.damage_sum,
                squares: r.damage_squares,
                n: self.trials,
            },
        }
    }

    /// For each total of damage from 0 up to the most `target` can take: the trials that
    /// ended with exactly that total.
    pub fn damage_taken(&self, target: TargetId) -> impl ExactSizeIterator<Item = Proportion> + '_ {
        self.damage[target.index()]
            .iter()
            .map(|&successes| Proportion {
                successes,
                trials: self.trials,
            })
    }

    /// The widest 95% half-width among the probabilities a report shows: what
    /// `--precision` stops on. An attack made only in a situation (at a target that is down…) is shown but
    /// not waited for: it may be rare.
    pub fn widest_half_width(&self, plan: &Plan) -> f64 {
        let mut widest: f64 = 0.0;
        for slot in (0..plan.slots().len()).filter(|&s| plan.slots()[s].assumes.is_nothing()) {
            let attacks = self.slot(plan, slot);
            widest = widest
                .max(attacks.hit().estimate().half_width())
                .max(attacks.crit().estimate().half_width());
        }
        for t in plan.target_ids() {
            if plan.target(t).down_at.is_none() {
                continue;
            }
            for round in 0..plan.rounds() as usize {
                let figures = self.round(t, round);
                widest = widest
                    .max(figures.down.estimate().half_width())
                    .max(figures.dead.estimate().half_width());
            }
        }
        widest
    }
}
fn add_all(into: &mut [Vec<u64>], from: &[Vec<u64>]) {
    for (a, b) in into.iter_mut().zip(from) {
        for (x, y) in a.iter_mut().zip(b) {
            *x += y;
        }
    }
}

/// Most counters one tally may hold (every slot's outcome counts plus every target's
/// damage histogram). Several tallies are alive at once while blocks merge, so this is
/// what keeps memory bounded (64 MiB a tally) whatever the dice and rounds.
pub const MAX_TALLY_CELLS: u64 = 1 << 23;

/// Refuses a plan whose tally would exceed [`MAX_TALLY_CELLS`]: the plan line of its
/// largest attack and why.
pub fn check_tally_size(plan: &Plan) -> Result<(), (LineId, String)> {
    let cells = tally_cells(plan);
    if cells <= MAX_TALLY_CELLS {
        return Ok(());
    }
    let (most_harmed, most) = (plan.target_ids())
        .map(|t| (t, max_damage_taken(plan, t)))
        .max_by_key(|&(_, most)| most)
        .expect("a plan too large to tally has a target");
    // The attack on that target dealing the most (one striking it as cover when none is
    // aimed at it).
    let slot = (plan.slots().iter())
        .max_by_key(|s| (s.target == most_harmed, s.profile.layout().max_damage()))
        .expect("a plan too large to tally has an attack");
    let line = plan.line(slot.line);
    Err((
        slot.line,
        format!(
            "too large to simulate: `{}` can take up to {most} damage over {} round(s), and a counter is kept for every total ({cells} counters, more than the limit of {MAX_TALLY_CELLS}); `{}`'s {} deals up to {} in one attack: lower its damage, or use fewer attacks or rounds",
            plan.target(most_harmed).label,
            plan.rounds(),
            line.attacker,
            line.attack,
            slot.profile.layout().max_damage(),
        ),
    ))
}

/// The counters of one tally of `plan`: every slot's outcome counts and every target's
/// damage histogram.
pub fn tally_cells(plan: &Plan) -> u64 {
    let outcomes: u64 = plan
        .slots()
        .iter()
        .map(|s| s.profile.layout().len() as u64)
        .sum();
    let damage: u64 = plan
        .target_ids()
        .map(|t| {
            u64::try_from(max_damage_taken(plan, t))
                .unwrap_or(0)
                .saturating_add(1)
        })
        .fold(0, u64::saturating_add);
    outcomes.saturating_add(damage)
}

/// The most damage a target can take in one trial: every attack at it dealing its most,
/// and every attack that can strike it as cover striking it for its most; plus the jump
/// to −1 hp of a failed massive-damage save, where one can happen, and the 1 hp a disabled
/// attacker pays for its action.
pub fn max_damage_taken(plan: &Plan, target: TargetId) -> i64 {
    let mut can_drop = false;
    let mut most = |s: &Slot| {
        let layout = s.profile.layout();
        let own = if s.target == target {
            can_drop |= layout.can_drop();
            layout.max_damage()
        } else {
            0
        };
        let as_cover = if s.covering == Some(target) {
            can_drop |= layout.can_drop();
            layout.max_struck_damage()
        } else {
            0
        };
        own.saturating_add(as_cover)
    };
    // Each place makes one of its slots: the most of any.
    let per_round: i64 = (plan.places().iter())
        .map(|place| {
            (place.slots.iter())
                .map(|&s| most(&plan.slots()[s]))
                .max()
                .unwrap_or(0)
        })
        .fold(0, i64::saturating_add);
    let drop = plan
        .target(target)
        .dropped_to
        .filter(|_| can_drop)
        .unwrap_or(0);
    // A disabled attacker pays for its one action with 1 hp, once.
    let disabled_action = i64::from(
        plan.target(target).disabled_at_zero
            && plan.slots().iter().any(|s| s.attacker == Some(target)),
    );
    per_round
        .saturating_mul(i64::from(plan.rounds()))
        .saturating_add(drop)
        .saturating_add(disabled_action)
}
