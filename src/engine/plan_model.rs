//! The attack model: what one block of trials of a [`Plan`] simulates, for the runner.
//! Each slot's attacks are drawn by an [`AliasTable`] or die by die, and every outcome is
//! applied to its target with [`Target::take`].
//!
//! The attacks of a round are made place by place ([`crate::plan::Place`]): where who is
//! down changes an attack (its target helpless, its flanking partners or engaged allies
//! down), the place makes the slot for that situation.
//!
//! A paired trial (the baseline's or a variant's, see [`Pairable`]) gives each place and
//! round a word of its stream, fixed whether the attack is made or not (an attack made
//! jumps to its word, [`PlanModel::word_at`]), so the same attack reads the same word in
//! every model; a variant whose attacks differ from the baseline's only in their chances
//! draws those in step with the baseline's ([`CoupledTable`]), and can tell from the
//! words alone that a trial repeats the baseline's.

use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

use super::paired::{Figure, Pairable, TrialValues};
use super::runner::Model;
use super::tally::RoundTally;
use super::{AliasTable, CoupledTable, SamplerKind, Tally, max_damage_taken, tally_cells};
use crate::attack::{AttackProfile, OutcomeEffect, OutcomeLayout};
use crate::injury::{Acting, Thresholds};
use crate::plan::{Assumes, Place, Plan, Target, TargetId};

/// How one slot's attacks are drawn: from a table of its outcomes' chances (kept beside
/// it, to couple a variant's table to it), in step with the baseline's table (a coupled
/// variant's, see [`Pairable::couple`]), or die by die.
enum Draw<'a> {
    Table(AliasTable, Vec<f64>),
    Coupled(CoupledTable),
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
            Draw::Table(table, _) => table.pick(rng.next_u64()),
            Draw::Coupled(coupled) => {
                let word = rng.next_u64();
                coupled.pick(word, || rng.next_u64())
            }
            Draw::Dice(profile, layout) => layout.index(profile.roll(rng)),
        }
    }

    /// A paired trial's draw from the slot's `word` (dice rolled from a generator seeded
    /// with it); a coupled table takes any further word from `rest_word`.
    #[inline(always)]
    fn pick(&self, word: u64, rest_word: impl FnOnce() -> u64) -> usize {
        match &self.draw {
            Draw::Table(table, _) => table.pick(word),
            Draw::Coupled(coupled) => coupled.pick(word, rest_word),
            Draw::Dice(profile, layout) => {
                layout.index(profile.roll(&mut Pcg64Mcg::seed_from_u64(word)))
            }
        }
    }

    /// Whether a variant's slot `self` makes the same attacks as the baseline's `base`
    /// but for their chances: the same target, line, creature struck instead, period,
    /// attacker and outcome effects.
    fn same_but_chances(&self, base: &Kernel) -> bool {
        (
            self.target,
            self.line,
            self.cover,
            self.period,
            self.attacker,
        ) == (
            base.target,
            base.line,
            base.cover,
            base.period,
            base.attacker,
        ) && self.effects == base.effects
    }
}

/// Damage taken and deaths per target within one trial, the attacks made since the last
/// [`TrialScratch::settle`], and the trial's value of each [`Pairable::figures`] figure.
pub(super) struct TrialScratch {
    harm: ByTarget<Harm>,
    /// Every slot's outcome counts side by side (a slot's from its `Kernel::first_outcome`):
    /// a draw counts in one flat array, added to the tally's per-slot counts once per
    /// `simulate` call (a chunk of trials) by [`TrialScratch::settle`].
    outcomes: Vec<u64>,
    /// The trial's figure values (see [`TrialValues`]): per target with hit points, per
    /// round, down and dead; per target, per round, damage taken, then per plan line, its
    /// damage.
    chances: Vec<u8>,
    amounts: Vec<i64>,
    /// Per round, per target (round by round): the counts of trials since the last
    /// [`TrialScratch::settle`], in one flat array so the end of a round walks a row.
    rounds: Vec<RoundCounts>,
    /// Trials counted in `rounds` since they were last added to the tally.
    unsettled: u64,
}

/// [`RoundTally`]'s counts over the trials since the last settle, in 64 bits: one add or
/// multiply each, where the tally's 128-bit sums take two or three. No more than
/// [`PlanModel::settle_every`] trials are summed, so the sums cannot wrap.
#[derive(Clone, Copy, Default)]
struct RoundCounts {
    down: u64,
    dead: u64,
    damage_sum: u64,
    damage_squares: u64,
}

/// Room for every target (one per token letter, at most 52): per-target numbers the
/// trial reads are kept in rows of this many, indexed by the target's number masked to
/// fit, so a lookup needs no bounds check.
const LANES: usize = 64;

/// One number per target, in a row of [`LANES`].
#[derive(Clone, Copy)]
struct ByTarget<T>([T; LANES]);

impl<T: Copy> ByTarget<T> {
    /// `values` in the first lanes, `fill` in the rest.
    fn new(values: impl IntoIterator<Item = T>, fill: T) -> ByTarget<T> {
        let mut row = [fill; LANES];
        for (lane, value) in row.iter_mut().zip(values) {
            *lane = value;
        }
        ByTarget(row)
    }
}

impl<T> std::ops::Index<usize> for ByTarget<T> {
    type Output = T;
    #[inline(always)]
    fn index(&self, target: usize) -> &T {
        &self.0[target % LANES]
    }
}

impl<T> std::ops::IndexMut<usize> for ByTarget<T> {
    #[inline(always)]
    fn index_mut(&mut self, target: usize) -> &mut T {
        &mut self.0[target % LANES]
    }
}

/// One target's damage taken and death within a trial, side by side.
#[derive(Clone, Copy, Default)]
struct Harm {
    taken: i64,
    dead: bool,
}

impl TrialScratch {
    /// Adds the attacks and the rounds counted since the last call to `tally`'s counts.
    fn settle(&mut self, model: &PlanModel, tally: &mut Tally) {
        settle_rounds(&mut self.rounds, &mut self.unsettled, tally);
        for (kernel, counts) in model.slots.iter().zip(tally.outcomes.iter_mut()) {
            let first = kernel.first_outcome;
            let mine = &mut self.outcomes[first..first + counts.len()];
            for (count, mine) in counts.iter_mut().zip(mine.iter_mut()) {
                *count += std::mem::take(mine);
            }
        }
    }
}

/// Adds the `rounds` counted over `unsettled` trials to `tally`'s, and starts them over.
fn settle_rounds(rounds: &mut [RoundCounts], unsettled: &mut u64, tally: &mut Tally) {
    let targets = tally.rounds.len();
    for (at, mine) in rounds.iter_mut().enumerate() {
        let RoundCounts {
            down,
            dead,
            damage_sum,
            damage_squares,
        } = std::mem::take(mine);
        tally.rounds[at % targets][at / targets].add(RoundTally {
            down,
            dead,
            damage_sum: damage_sum.into(),
            damage_squares: damage_squares.into(),
        });
    }
    *unsettled = 0;
}

/// One attack of a round, and the slot each situation makes (see [`crate::plan::Place`]).
#[derive(PartialEq)]
struct PlaceKernel {
    slots: [usize; Assumes::COMBINATIONS],
    /// What every one of its slots shares (its first's [`Kernel`] fields), read before
    /// the slot is chosen: its target, attacker and period.
    target: usize,
    attacker: Option<usize>,
    period: usize,
    /// Whether the situation changes the slot made: else `slots[0]` always.
    varies: bool,
    /// Damage taken from which its target, alive, is down and so helpless, where that
    /// changes the attack (`i64::MAX`: never).
    target_down_from: i64,
    partners: Vec<usize>,
    allies: Vec<usize>,
    /// The creature struck instead, when its being down changes the attack.
    struck: Option<usize>,
}

impl PlaceKernel {
    fn new(place: &Place, targets: &[Target], slots: &[Kernel]) -> PlaceKernel {
        let first = &slots[place.first()];
        let target = first.target;
        PlaceKernel {
            slots: place.slots,
            target,
            attacker: first.attacker,
            period: first.period,
            varies: place.varies(),
            target_down_from: match place.target_down {
                true => targets[target].out_at().unwrap_or(i64::MAX),
                false => i64::MAX,
            },
            partners: place.partners.iter().map(|t| t.index()).collect(),
            allies: place.allies.iter().map(|t| t.index()).collect(),
            struck: (place.distinct_slots())
                .find_map(|s| slots[s].cover)
                .filter(|_| place.struck_down),
        }
    }
}

/// A plan ready to simulate: one kernel per slot, made place by place.
pub(super) struct PlanModel<'a> {
    plan: &'a Plan,
    slots: Vec<Kernel<'a>>,
    places: Vec<PlaceKernel>,
    targets: &'a [Target],
    /// Per target: its [`Target::thresholds`].
    thresholds: ByTarget<Thresholds>,
    /// Per target: damage taken at which it is down (`i64::MAX` = never).
    down_at: Vec<i64>,
    rounds: usize,
    /// The most trials whose [`RoundCounts`] cannot wrap: their sums of squares of the
    /// most damage any target can take fit in 64 bits.
    settle_every: u64,
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
    /// A variant coupled to its baseline: [`Pairable::repeats_baseline`] can tell, from
    /// the words at the places of its coupled slots (see [`PlanModel::word_at`]).
    coupled: Option<Vec<CoupledPlace>>,
    /// Per round, per place: the jump to its word in a paired trial (see
    /// [`PlanModel::word_at`]), so that only the attacks made take theirs.
    jumps: Vec<u128>,
}

/// A coupled slot's word in a paired trial: its place's jump (see [`PlanModel::word_at`])
/// and the slot.
struct CoupledPlace {
    jump: u128,
    slot: usize,
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
                    (SamplerKind::Table, Some(table)) => {
                        Draw::Table(AliasTable::new(&table.probs), table.probs)
                    }
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
        assert!(plan.targets().len() <= LANES, "at most {LANES} targets");
        let places: Vec<PlaceKernel> = (plan.places().iter())
            .map(|p| PlaceKernel::new(p, plan.targets(), &slots))
            .collect();
        // In a single round, a target attacked once is not down before its attack; a
        // partner or an ally may be.
        let single_draws = plan.rounds() == 1
            && plan
                .target_ids()
                .all(|t| plan.places_against(t).count() == 1)
            && slots.iter().all(|k| k.cover.is_none() && k.period == 1)
            && places
                .iter()
                .all(|p| p.partners.is_empty() && p.allies.is_empty())
            && acts_before_attacked(&slots, &places);
        let down_at: Vec<i64> = (plan.targets().iter())
            .map(|t| t.down_at.unwrap_or(i64::MAX))
            .collect();
        let rounds = plan.rounds() as usize;
        let most_taken = (plan.target_ids())
            .map(|t| max_damage_taken(plan, t).max(1) as u64)
            .max()
            .unwrap_or(1);
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
            places,
            targets: plan.targets(),
            thresholds: ByTarget::new(
                plan.targets().iter().map(Target::thresholds),
                Thresholds::NEVER_DOWN,
            ),
            down_at,
            rounds,
            settle_every: (u64::MAX / most_taken.saturating_mul(most_taken)).max(1),
            target_chances,
            chances: next,
            line_amounts: rounds * plan.targets().len(),
            single_draws,
            coupled: None,
            jumps: (0..rounds * plan.places().len())
                .map(Self::jump_to)
                .collect(),
        }
    }

    /// The word at a place of a paired trial started at `start` (the `k`-th word drawn
    /// from it, the trial's `k`-th place and round), from the place's `jump`, the
    /// generator's multiplier to the power k + 1: the state that word is made from is the
    /// start's times the jump, so it is had without drawing those before it. The word is
    /// made from the state as `Pcg64Mcg` makes it (XSL RR: the high half xor the low,
    /// rotated right by the state's top 6 bits), which a test checks against its stream.
    #[inline(always)]
    fn word_at(start: &Pcg64Mcg, jump: u128) -> u64 {
        let state = start.state().wrapping_mul(jump);
        let folded = (state >> 64) as u64 ^ state as u64;
        folded.rotate_right((state >> 122) as u32)
    }

    /// [`PlanModel::word_at`]'s jump to the `place`-th word.
    fn jump_to(place: usize) -> u128 {
        let mut powers = Pcg64Mcg::new(1);
        powers.advance(place as u128 + 1);
        powers.state()
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
    /// [`TrialScratch::settle`]); when `PAIRED`, each slot's word taken at its place (see
    /// the module's doc) and the figures' values left in `scratch`.
    fn trial<const COUNTED: bool, const PAIRED: bool>(
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
            rounds,
            unsettled,
        } = scratch;
        let targets = self.down_at.len();
        harm.0[..targets].fill(Harm::default());
        let (round_damage, line_damage) = amounts.split_at_mut(self.line_amounts);
        if PAIRED {
            line_damage.fill(0);
        }
        // A coupled draw's further words come after every slot's, from `rest`.
        let start = rng.clone();
        let mut rest = None;
        let mut jumps = self.jumps.iter();
        for round in 0..self.rounds {
            for place in &self.places {
                let jump = jumps.next();
                let t = place.target;
                if harm[t].dead || (place.period > 1 && (round + 1) % place.period != 0) {
                    continue;
                }
                let disabled = match place.attacker {
                    Some(a) => match self.thresholds[a].acting(harm[a].taken, harm[a].dead) {
                        Acting::Acts => None,
                        Acting::Disabled => Some(a),
                        Acting::Down => continue,
                    },
                    None => None,
                };
                // A branch, not an index: predicted, it lets the draw start before the
                // damage so far is known, which an index would wait for.
                let first = &self.slots[place.slots[0]];
                let kernel = match place.varies {
                    true => match self.situation(place, t, harm) {
                        0 => first,
                        situation => &self.slots[place.slots[situation]],
                    },
                    false => first,
                };
                let outcome = match PAIRED {
                    true => {
                        let word = Self::word_at(&start, *jump.expect("a jump per place"));
                        kernel.pick(word, || self.rest_word(&mut rest, &start))
                    }
                    false => kernel.draw(rng),
                };
                let effect = kernel.effects[outcome];
                if COUNTED {
                    outcomes[kernel.first_outcome + outcome] += 1;
                }
                if PAIRED {
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
                    let (taken, dead) = self.thresholds[a].after_disabled_action(harm[a].taken);
                    harm[a] = Harm { taken, dead };
                }
            }
            let row = &mut rounds[round * targets..][..targets];
            let of_targets = harm.0.iter().zip(&self.down_at).zip(row.iter_mut());
            for (t, ((&Harm { taken, dead }, &down_at), r)) in of_targets.enumerate() {
                let down = dead || taken >= down_at;
                if COUNTED {
                    r.down += u64::from(down);
                    r.dead += u64::from(dead);
                    let d = taken as u64;
                    r.damage_sum += d;
                    r.damage_squares += d * d;
                }
                if PAIRED {
                    if has_hp(down_at) {
                        let at = self.target_chances[t] + 2 * round;
                        chances[at] = u8::from(down);
                        chances[at + 1] = u8::from(dead);
                    }
                    round_damage[t * self.rounds + round] = taken;
                }
            }
        }
        if COUNTED {
            for (histogram, h) in tally.damage.iter_mut().zip(harm.0.iter()) {
                histogram[h.taken as usize] += 1;
            }
            *unsettled += 1;
            if *unsettled == self.settle_every {
                settle_rounds(rounds, unsettled, tally);
            }
        }
    }

    /// The next of a paired trial's words after every place's (the trial started at
    /// `start`): `rest` is the stream from there on, made when first needed.
    fn rest_word(&self, rest: &mut Option<Pcg64Mcg>, start: &Pcg64Mcg) -> u64 {
        rest.get_or_insert_with(|| {
            let mut rest = start.clone();
            rest.advance((self.rounds * self.places.len()) as u128);
            rest
        })
        .next_u64()
    }

    /// The combination of [`Assumes`] that holds at `place` (its bits), from `harm`: its
    /// target down and alive, every partner down or dead, every ally down or dead, the
    /// creature struck instead down or dead.
    #[inline(always)]
    fn situation(&self, place: &PlaceKernel, target: usize, harm: &ByTarget<Harm>) -> usize {
        let down =
            |t: usize| self.thresholds[t].acting(harm[t].taken, harm[t].dead) == Acting::Down;
        let all_down = |who: &[usize]| !who.is_empty() && who.iter().all(|&t| down(t));
        // The target is alive here: a dead one is attacked no more.
        Assumes::bits_of(
            harm[target].taken >= place.target_down_from,
            all_down(&place.partners),
            all_down(&place.allies),
            place.struck.is_some_and(down),
        )
    }

    /// Target `t`, harmed as `harm`, takes `damage` ([`Target::take`]).
    #[inline(always)]
    fn take(&self, t: usize, harm: Harm, damage: i64, dropped: bool) -> Harm {
        let (taken, dead) = self.thresholds[t].take(harm.taken, damage, dropped);
        Harm { taken, dead }
    }

    /// Invariant: one round, and every target is the target of exactly one slot. Then no
    /// attack can be skipped (nothing dies before its only attack) and each trial's damage
    /// to a target is that one attack's damage, so drawing each slot `trials` times and
    /// deriving the per-target tallies from the outcome counts is the same experiment.
    fn run_single_draws(&self, tally: &mut Tally, rng: &mut Pcg64Mcg, trials: u64) {
        for place in &self.places {
            let s = place.slots[0];
            let kernel = &self.slots[s];
            let counts = &mut tally.outcomes[s];
            match &kernel.draw {
                Draw::Table(table, _) => {
                    for _ in 0..trials {
                        counts[table.pick(rng.next_u64())] += 1;
                    }
                }
                _ => {
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
fn acts_before_attacked(slots: &[Kernel], places: &[PlaceKernel]) -> bool {
    let made: Vec<&Kernel> = places.iter().map(|p| &slots[p.slots[0]]).collect();
    made.iter().enumerate().all(|(s, kernel)| {
        kernel
            .attacker
            .is_none_or(|a| made[..s].iter().all(|earlier| earlier.target != a))
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
            harm: ByTarget::new([], Harm::default()),
            outcomes: vec![0; self.slots.iter().map(|k| k.effects.len()).sum()],
            chances: vec![0; self.chances],
            amounts: vec![0; self.line_amounts + self.plan.lines().len()],
            rounds: vec![RoundCounts::default(); self.rounds * self.down_at.len()],
            unsettled: 0,
        }
    }

    /// Always the general case: single draws take a slot's draws for many trials at once.
    fn paired_trial<const COUNTED: bool>(
        &self,
        tally: &mut Tally,
        rng: &mut Pcg64Mcg,
        scratch: &mut TrialScratch,
        _trial: usize,
        _baseline: Option<&TrialScratch>,
    ) {
        self.trial::<COUNTED, true>(tally, rng, scratch);
    }

    fn settle(&self, tally: &mut Tally, scratch: &mut TrialScratch, trials: u64) {
        scratch.settle(self, tally);
        tally.trials += trials;
    }

    /// Coupled where the variant attacks the same targets, with the same rounds, lines,
    /// effects and rules of injury, as the baseline: each slot whose table differs draws
    /// in step with the baseline's; dice rolled die by die must be the same.
    fn couple(&mut self, baseline: &Self) -> bool {
        let same_fight = self.rounds == baseline.rounds
            && self.targets == baseline.targets
            && self.places == baseline.places
            && self.slots.len() == baseline.slots.len()
            && (self.slots.iter().zip(&baseline.slots)).all(|(k, b)| k.same_but_chances(b));
        if !same_fight {
            return false;
        }
        let mut coupled = Vec::with_capacity(self.slots.len());
        for (kernel, base) in self.slots.iter().zip(&baseline.slots) {
            coupled.push(match (&kernel.draw, &base.draw) {
                (Draw::Table(_, q), Draw::Table(table, p)) => {
                    (q != p).then(|| CoupledTable::new(table, p, q))
                }
                (Draw::Dice(mine, _), Draw::Dice(theirs, _)) if mine == theirs => None,
                _ => return false,
            });
        }
        for (kernel, coupled) in self.slots.iter_mut().zip(coupled) {
            if let Some(coupled) = coupled {
                kernel.draw = Draw::Coupled(coupled);
            }
        }
        let count = self.places.len();
        let mut words = Vec::new();
        for (at, place) in self.plan.places().iter().enumerate() {
            for slot in place.distinct_slots() {
                if matches!(self.slots[slot].draw, Draw::Coupled(_)) {
                    words.extend((0..self.rounds).map(|round| CoupledPlace {
                        jump: self.jumps[round * count + at],
                        slot,
                    }));
                }
            }
        }
        self.coupled = Some(words);
        true
    }

    /// The trial repeats the baseline's when every coupled slot a place may make keeps
    /// the baseline's outcome from the place's word in every round: every other slot is
    /// the baseline's own, and the same outcomes so far make the same situation.
    fn repeats_baseline(&self, start: &Pcg64Mcg, _: usize, _: Option<&TrialScratch>) -> bool {
        let Some(places) = &self.coupled else {
            return false;
        };
        places
            .iter()
            .all(|place| match &self.slots[place.slot].draw {
                Draw::Coupled(coupled) => coupled.keeps(Self::word_at(start, place.jump)),
                _ => true,
            })
    }

    fn values<'s>(&self, scratch: &'s TrialScratch) -> TrialValues<'s> {
        TrialValues {
            chances: &scratch.chances,
            amounts: &scratch.amounts,
            steps: &[],
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A place's word from its jump is the word drawn there one by one, for the first
    /// places and far ones, from several starts.
    #[test]
    fn a_word_jumped_to_is_the_word_drawn_there() {
        for seed in 0..20 {
            let start = Pcg64Mcg::seed_from_u64(seed);
            let mut drawn = start.clone();
            for place in 0..3000 {
                let word = drawn.next_u64();
                if place < 40 || place % 97 == 0 {
                    assert_eq!(
                        PlanModel::word_at(&start, PlanModel::jump_to(place)),
                        word,
                        "seed {seed}, place {place}"
                    );
                }
            }
        }
    }

    /// The rounds counted in 64 bits and added to the tally every `settle_every` trials
    /// give the tally counted in one go: here settled every 3 trials of 1,000 (the
    /// showcase's bound, u64::MAX over its most damage taken squared, is never reached).
    #[test]
    fn rounds_settled_often_are_the_rounds_settled_once() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/experiments/ogre-corridor.toml"
        );
        let text = std::fs::read_to_string(path).unwrap();
        let scenario = crate::scenario::Scenario::parse("ogre-corridor.toml", text).unwrap();
        let plan = Plan::from_scenario(&scenario).unwrap();
        let once = PlanModel::new(&plan, SamplerKind::Table);
        let most = plan.target_ids().map(|t| max_damage_taken(&plan, t)).max();
        let most = most.unwrap() as u64;
        assert_eq!(once.settle_every, u64::MAX / (most * most));
        let often = PlanModel {
            settle_every: 3,
            ..PlanModel::new(&plan, SamplerKind::Table)
        };
        let tally_of = |model: &PlanModel| {
            let mut tally = Tally::zero(&plan);
            model.run_trials(&mut tally, &mut Pcg64Mcg::seed_from_u64(11), 1000);
            tally
        };
        let (settled_once, settled_often) = (tally_of(&once), tally_of(&often));
        assert!(settled_once.rounds[0][2].damage_squares > 0);
        assert_eq!(settled_once, settled_often);
    }
}
