//! Monte Carlo over a [`Fight`]: each trial rolls initiative, then plays turns through
//! [`Fight::advance`], drawing each pending chance, until one side is left or the rounds
//! run out; per round it counts every combatant's status, the sides that have won and
//! the damage taken and dealt. Runs on the engine's block runner, so the counts depend on
//! the seed and the trials only.

use std::ops::Range;
use std::sync::atomic::AtomicBool;

use rand::{Rng, RngExt};
use rand_pcg::Pcg64Mcg;

use super::turn::{Pending, Standing, Turn};
use super::{Fight, initiative};
use crate::attack::{AttackProfile, OutcomeLayout};
use crate::engine::{
    AliasTable, EngineConfig, Figure, Model, Pairable, PairedModel, PairedTally, SamplerKind,
    SlotFigures, run_model,
};
use crate::scenario::Initiative;
use crate::stats::Estimate;

use super::turn::Status;

/// Integer counts of a fight's trials, per round (1-based rounds; index 0 is round 1).
#[derive(Debug, Clone, PartialEq)]
pub struct FightTally {
    trials: u64,
    fighters: usize,
    sides: usize,
    rounds: usize,
    /// [round][fighter][status]: trials in that status at the end of the round.
    status: Vec<u64>,
    /// [round][side, then "nobody"]: trials won by the end of the round.
    won: Vec<u64>,
    /// [round][fighter]: damage taken and dealt by the end of the round, and squares.
    taken: Vec<(u128, u128)>,
    dealt: Vec<(u128, u128)>,
    /// [round]: trials whose fight ended in that round.
    ended_in: Vec<u64>,
    /// [side]: trials where, at the end, a member is not able to act / is dead.
    lost_down: Vec<u64>,
    lost_dead: Vec<u64>,
    /// [profile][outcome index]: attacks made with that profile, by outcome.
    outcomes: Vec<Vec<u64>>,
}

impl FightTally {
    fn new(fight: &Fight) -> FightTally {
        let (f, s, r) = (
            fight.fighters.len(),
            fight.sides.len(),
            fight.rounds as usize,
        );
        FightTally {
            trials: 0,
            fighters: f,
            sides: s,
            rounds: r,
            status: vec![0; r * f * Status::ALL.len()],
            won: vec![0; r * (s + 1)],
            taken: vec![(0, 0); r * f],
            dealt: vec![(0, 0); r * f],
            ended_in: vec![0; r],
            lost_down: vec![0; s],
            lost_dead: vec![0; s],
            outcomes: (fight.profiles.iter())
                .map(|p| vec![0; p.effects.len()])
                .collect(),
        }
    }

    /// Trials counted.
    pub fn trials(&self) -> u64 {
        self.trials
    }

    /// P(combatant `fighter` is in `status` at the end of round `round`, 1-based).
    pub fn status(&self, round: usize, fighter: usize, status: Status) -> Estimate {
        let i = self.cell(round, fighter) * Status::ALL.len() + status as usize;
        Estimate::proportion(self.status[i], self.trials)
    }

    /// P(side `side` has won by the end of round `round`); `side` = the number of sides
    /// for "nobody is left able to act".
    pub fn won(&self, round: usize, side: usize) -> Estimate {
        Estimate::proportion(self.won[self.won_cell(round, side)], self.trials)
    }

    /// P(the fight is still undecided at the end of round `round`).
    pub fn undecided(&self, round: usize) -> Estimate {
        let row = &self.won[self.won_cell(round, 0)..self.won_cell(round + 1, 0)];
        Estimate::proportion(self.trials - row.iter().sum::<u64>(), self.trials)
    }

    /// Mean damage `fighter` has taken by the end of `round`.
    pub fn taken(&self, round: usize, fighter: usize) -> Estimate {
        let (sum, sq) = self.taken[self.cell(round, fighter)];
        Estimate::mean(sum, sq, self.trials)
    }

    /// Mean damage `fighter` has dealt by the end of `round`.
    pub fn dealt(&self, round: usize, fighter: usize) -> Estimate {
        let (sum, sq) = self.dealt[self.cell(round, fighter)];
        Estimate::mean(sum, sq, self.trials)
    }

    /// P(the fight ended in round `round`).
    pub fn ended_in(&self, round: usize) -> Estimate {
        Estimate::proportion(self.ended_in[round - 1], self.trials)
    }

    /// P(at the end, side `side` has a member unable to act).
    pub fn lost_down(&self, side: usize) -> Estimate {
        Estimate::proportion(self.lost_down[side], self.trials)
    }

    /// P(at the end, side `side` has a dead member).
    pub fn lost_dead(&self, side: usize) -> Estimate {
        Estimate::proportion(self.lost_dead[side], self.trials)
    }

    /// The attacks made with profile `profile` (see [`Fight::attacks`]), by outcome.
    pub fn attack<'a>(&'a self, fight: &Fight, profile: usize) -> SlotFigures<'a> {
        SlotFigures::new(
            &self.outcomes[profile],
            fight.profiles[profile].attack.layout(),
        )
    }

    /// The widest 95% half-width of the figures `--precision` bounds: each side's
    /// chance to have won and each combatant's status at the last round.
    pub fn widest_half_width(&self) -> f64 {
        let last = self.rounds;
        let sides = (0..self.sides).map(|s| self.won(last, s).half_width());
        let statuses = (0..self.fighters)
            .flat_map(|f| Status::ALL.map(|s| self.status(last, f, s).half_width()));
        sides.chain(statuses).fold(0.0, f64::max)
    }

    /// Where `fighter`'s counts of round `round` (1-based) are kept.
    fn cell(&self, round: usize, fighter: usize) -> usize {
        (round - 1) * self.fighters + fighter
    }

    /// Where the wins of `side` (or "nobody") by round `round` (1-based) are kept.
    fn won_cell(&self, round: usize, side: usize) -> usize {
        (round - 1) * (self.sides + 1) + side
    }

    fn add(&mut self, other: &FightTally) {
        self.trials += other.trials;
        let add = |a: &mut [u64], b: &[u64]| a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
        add(&mut self.status, &other.status);
        add(&mut self.won, &other.won);
        add(&mut self.ended_in, &other.ended_in);
        add(&mut self.lost_down, &other.lost_down);
        add(&mut self.lost_dead, &other.lost_dead);
        for (mine, theirs) in self.outcomes.iter_mut().zip(&other.outcomes) {
            add(mine, theirs);
        }
        for (mine, theirs) in [
            (&mut self.taken, &other.taken),
            (&mut self.dealt, &other.dealt),
        ] {
            for (x, y) in mine.iter_mut().zip(theirs) {
                x.0 += y.0;
                x.1 += y.1;
            }
        }
    }
}

/// How one profile's outcomes are drawn.
enum Draw<'a> {
    Table(AliasTable),
    Dice(&'a AttackProfile, OutcomeLayout),
}

struct FightModel<'a> {
    fight: &'a Fight,
    draws: Vec<Draw<'a>>,
    inits: Vec<i32>,
    /// Every combatant's standing before the fight.
    start: Vec<Standing>,
}

/// Runs `config.trials` trials of the fight.
pub fn simulate_fight(
    fight: &Fight,
    config: &EngineConfig,
    progress: &(dyn Fn(u64) + Sync),
    stop: &AtomicBool,
) -> FightTally {
    run_model(
        &FightModel::new(fight, config.sampler),
        config,
        progress,
        stop,
    )
}

/// One block's buffers, reused from trial to trial so that a trial allocates nothing.
struct Scratch {
    order: Vec<usize>,
    rolls: Vec<i32>,
    tie_breaks: Vec<u64>,
    standings: Vec<Standing>,
    taken: Vec<i64>,
    dealt: Vec<i64>,
    /// The trial's value of each [`Pairable::figures`] figure, laid out by [`Values`].
    values: Vec<i64>,
    /// The last round's counts of the trials whose fight ended before the last round,
    /// counted once in the round it ended: an ended fight no longer changes, so
    /// [`Scratch::spread`] adds them to that round and every later one.
    tail: Tail,
}

/// [`FightTally`]'s per-round counts, laid out as there.
struct Tail {
    status: Vec<u64>,
    won: Vec<u64>,
    taken: Vec<(u128, u128)>,
    dealt: Vec<(u128, u128)>,
}

impl Scratch {
    fn new(model: &FightModel) -> Scratch {
        let fight = model.fight;
        let empty = FightTally::new(fight);
        Scratch {
            order: (0..fight.fighters.len()).collect(),
            rolls: Vec::new(),
            tie_breaks: Vec::new(),
            standings: fight.start(),
            taken: vec![0; fight.fighters.len()],
            dealt: vec![0; fight.fighters.len()],
            values: vec![0; Values::of(fight).len()],
            tail: Tail {
                status: empty.status,
                won: empty.won,
                taken: empty.taken,
                dealt: empty.dealt,
            },
        }
    }

    /// Adds each round's tail counts to that round and every later one of `tally`.
    fn spread(&mut self, tally: &mut FightTally) {
        let (f, s) = (tally.fighters, tally.sides);
        let t = &mut self.tail;
        spread(
            &mut tally.status,
            &mut t.status,
            f * Status::ALL.len(),
            |a, b| *a += b,
        );
        spread(&mut tally.won, &mut t.won, s + 1, |a, b| *a += b);
        for (into, from) in [
            (&mut tally.taken, &mut t.taken),
            (&mut tally.dealt, &mut t.dealt),
        ] {
            spread(into, from, f, |a, b| {
                a.0 += b.0;
                a.1 += b.1;
            });
        }
    }
}

/// Where each figure of [`Pairable::figures`] is among a trial's values: each side's
/// win, the fight's length, each side's losses (down, dead), each combatant's status
/// (down, dead) per round, each combatant's damage dealt.
struct Values {
    sides: usize,
    fighters: usize,
    rounds: usize,
}

impl Values {
    fn of(fight: &Fight) -> Values {
        Values {
            sides: fight.sides.len(),
            fighters: fight.fighters.len(),
            rounds: fight.rounds as usize,
        }
    }

    fn len(&self) -> usize {
        self.dealt(self.fighters)
    }

    fn won(&self, side: usize) -> usize {
        side
    }

    fn length(&self) -> usize {
        self.sides
    }

    /// The side's "a member down"; "a member dead" follows it.
    fn lost(&self, side: usize) -> usize {
        self.sides + 1 + 2 * side
    }

    /// The combatant's "down" at the end of `round` (0-based); "dead" follows it.
    fn status(&self, fighter: usize, round: usize) -> usize {
        self.lost(self.sides) + 2 * (fighter * self.rounds + round)
    }

    fn dealt(&self, fighter: usize) -> usize {
        self.status(self.fighters, 0) + fighter
    }
}

/// Adds `from`'s rounds (`stride` counts each) to `into`, each round's to that round and
/// every later one, and clears `from`.
fn spread<T: Copy + Default>(
    into: &mut [T],
    from: &mut [T],
    stride: usize,
    add: impl Fn(&mut T, T),
) {
    for i in 0..from.len() {
        if i >= stride {
            let before = from[i - stride];
            add(&mut from[i], before);
        }
        add(&mut into[i], from[i]);
    }
    from.fill(T::default());
}

impl<'a> FightModel<'a> {
    fn new(fight: &'a Fight, sampler: SamplerKind) -> Self {
        FightModel {
            fight,
            draws: (fight.profiles.iter())
                .map(|p| match (sampler, &p.probs) {
                    (SamplerKind::Table, Some(probs)) => Draw::Table(AliasTable::new(probs)),
                    _ => Draw::Dice(&p.attack, p.attack.layout()),
                })
                .collect(),
            inits: fight.fighters.iter().map(|f| f.init).collect(),
            start: fight.start(),
        }
    }

    /// One trial: counted in `tally` when `COUNTED` (the rounds after an ended fight's in
    /// `scratch`'s tail, for [`Scratch::spread`]), its figures' values left in `scratch`
    /// when `VALUES`.
    fn trial<const COUNTED: bool, const VALUES: bool>(
        &self,
        tally: &mut FightTally,
        rng: &mut Pcg64Mcg,
        scratch: &mut Scratch,
    ) {
        let fight = self.fight;
        let rounds = fight.rounds as usize;
        let n = fight.fighters.len();
        let Scratch {
            order,
            rolls,
            tie_breaks,
            standings,
            taken,
            dealt,
            values,
            tail,
        } = scratch;
        let at = Values::of(fight);
        if fight.initiative == Initiative::Rolled {
            initiative::roll(&self.inits, rng, rolls, tie_breaks, order);
        }
        standings.copy_from_slice(&self.start);
        taken.fill(0);
        dealt.fill(0);
        let mut result = None;
        let mut length = rounds;
        for round in 0..rounds {
            for &actor in order.iter() {
                self.turn::<COUNTED>(standings, actor, rng, taken, dealt, &mut tally.outcomes);
                if let Some(winner) = fight.ended(standings) {
                    result = Some(winner);
                    length = round + 1;
                    break;
                }
            }
            let (f, sides) = (tally.fighters, tally.sides);
            let (status, won, taken_sums, dealt_sums) = match result {
                Some(_) => (
                    &mut tail.status,
                    &mut tail.won,
                    &mut tail.taken,
                    &mut tail.dealt,
                ),
                None => (
                    &mut tally.status,
                    &mut tally.won,
                    &mut tally.taken,
                    &mut tally.dealt,
                ),
            };
            // An ended fight no longer changes: this round's status holds to the last.
            let last = if result.is_some() { rounds } else { round + 1 };
            for (who, s) in standings.iter().enumerate() {
                let now = fight.status(who, s);
                if COUNTED {
                    let cell = round * f + who;
                    status[cell * Status::ALL.len() + now as usize] += 1;
                    let (t, d) = (taken[who] as u128, dealt[who] as u128);
                    taken_sums[cell].0 += t;
                    taken_sums[cell].1 += t * t;
                    dealt_sums[cell].0 += d;
                    dealt_sums[cell].1 += d * d;
                }
                if VALUES {
                    for later in round..last {
                        values[at.status(who, later)] = i64::from(now != Status::Up);
                        values[at.status(who, later) + 1] = i64::from(now == Status::Dead);
                    }
                }
            }
            if let Some(winner) = result {
                if COUNTED {
                    tally.ended_in[round] += 1;
                    won[round * (sides + 1) + winner.unwrap_or(sides)] += 1;
                }
                break;
            }
        }
        for side in 0..tally.sides {
            let (mut down, mut dead) = (false, false);
            for i in (0..n).filter(|&i| fight.fighters[i].side == side) {
                let status = fight.status(i, &standings[i]);
                down |= status != Status::Up;
                dead |= status == Status::Dead;
            }
            if COUNTED {
                tally.lost_down[side] += u64::from(down);
                tally.lost_dead[side] += u64::from(dead);
            }
            if VALUES {
                values[at.lost(side)] = i64::from(down);
                values[at.lost(side) + 1] = i64::from(dead);
                values[at.won(side)] = i64::from(result == Some(Some(side)));
            }
        }
        if VALUES {
            values[at.length()] = length as i64;
            for (who, &d) in dealt.iter().enumerate() {
                values[at.dealt(who)] = d;
            }
        }
        if COUNTED {
            tally.trials += 1;
        }
    }

    /// One turn of `actor`; its attacks counted in `outcomes` when `COUNTED`.
    fn turn<const COUNTED: bool>(
        &self,
        standings: &mut [Standing],
        actor: usize,
        rng: &mut Pcg64Mcg,
        taken: &mut [i64],
        dealt: &mut [i64],
        outcomes: &mut [Vec<u64>],
    ) {
        let fight = self.fight;
        let mut turn = Turn::new(actor);
        loop {
            match fight.advance(standings, &mut turn) {
                Pending::Over => return,
                Pending::Attack { profile } => {
                    let index = match &self.draws[profile] {
                        Draw::Table(table) => table.pick(rng.next_u64()),
                        Draw::Dice(attack, layout) => layout.index(attack.roll(rng)),
                    };
                    if COUNTED {
                        outcomes[profile][index] += 1;
                    }
                    let effect = fight.profiles[profile].effects[index];
                    let hit = fight.resolve_attack(standings, &mut turn, profile, &effect);
                    for (who, damage) in hit.amounts() {
                        taken[who] += damage;
                        dealt[actor] += damage;
                    }
                }
                Pending::Dying { p_stable } => {
                    let stable = rng.random::<f64>() < p_stable;
                    fight.resolve_dying(standings, &mut turn, stable);
                }
                Pending::Pick { among } => {
                    let index = rng.random_range(0..among);
                    fight.resolve_pick(standings, &mut turn, index);
                }
            }
        }
    }
}

impl Model for FightModel<'_> {
    type Tally = FightTally;

    fn empty_tally(&self) -> FightTally {
        FightTally::new(self.fight)
    }

    fn simulate(&self, tally: &mut FightTally, rng: &mut Pcg64Mcg, trials: u64) {
        let mut scratch = Scratch::new(self);
        for _ in 0..trials {
            self.trial::<true, false>(tally, rng, &mut scratch);
        }
        scratch.spread(tally);
    }

    fn trial_by_trial(&self) -> bool {
        true
    }

    fn merge(&self, mut tally: FightTally, other: FightTally) -> FightTally {
        tally.add(&other);
        tally
    }

    fn widest_half_width(&self, tally: &FightTally) -> f64 {
        tally.widest_half_width()
    }

    fn tally_cells(&self) -> u64 {
        let f = FightTally::new(self.fight);
        let outcomes: usize = f.outcomes.iter().map(Vec::len).sum();
        (f.status.len() + f.won.len() + 4 * f.taken.len() + f.ended_in.len() + outcomes) as u64
    }
}

impl Pairable for FightModel<'_> {
    type Scratch = Scratch;

    fn scratch(&self) -> Scratch {
        Scratch::new(self)
    }

    fn paired_trial<const COUNTED: bool>(
        &self,
        tally: &mut FightTally,
        rng: &mut Pcg64Mcg,
        scratch: &mut Scratch,
    ) {
        self.trial::<COUNTED, true>(tally, rng, scratch);
    }

    /// The ended fights' rounds, deferred in `scratch`, are spread once per chunk.
    fn settle(&self, tally: &mut FightTally, scratch: &mut Scratch, _: u64) {
        scratch.spread(tally);
    }

    fn values<'s>(&self, scratch: &'s Scratch) -> &'s [i64] {
        &scratch.values
    }

    /// Each side's win, the fight's length, each side's losses, then per combatant and
    /// round: not able to act, dead.
    fn figures(&self) -> Vec<Figure> {
        let sides = 0..self.fight.sides.len();
        let mut figures: Vec<Figure> = sides.clone().map(|side| Figure::SideWon { side }).collect();
        figures.push(Figure::FightLength);
        for side in sides {
            figures.push(Figure::SideLostDown { side });
            figures.push(Figure::SideLostDead { side });
        }
        for fighter in 0..self.fight.fighters.len() {
            for round in 1..=self.fight.rounds as usize {
                figures.push(Figure::FighterDown { fighter, round });
                figures.push(Figure::FighterDead { fighter, round });
            }
        }
        let fighters = 0..self.fight.fighters.len();
        figures.extend(fighters.map(|fighter| Figure::DamageDealt { fighter }));
        figures
    }

    /// Variants of a fight have the same combatants, so every figure means the same.
    fn same_figure(&self, _: &Self, _: Figure) -> bool {
        true
    }
}

/// The baseline fight (first) and its variants, run on common random numbers.
/// Only the models in `counted` get their own tally counted (the others' stay empty):
/// the rest give their figures' values only, which costs less.
pub fn simulate_fights_paired(
    fights: &[&Fight],
    counted: Range<usize>,
    config: &EngineConfig,
    progress: &(dyn Fn(u64) + Sync),
    stop: &AtomicBool,
) -> PairedTally<FightTally> {
    let models = fights
        .iter()
        .map(|fight| FightModel::new(fight, config.sampler))
        .collect();
    run_model(&PairedModel::new(models, counted), config, progress, stop)
}
