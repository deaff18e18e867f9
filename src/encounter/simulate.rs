//! Monte Carlo over a [`Fight`]: each trial rolls initiative, then plays turns through
//! [`Fight::advance`], drawing each pending chance, until one side is left or the rounds
//! run out; per round it counts every combatant's status, the sides that have won and
//! the damage taken and dealt. Runs on the engine's block runner, so the counts depend on
//! the seed and the trials only.

use std::sync::atomic::AtomicBool;

use rand::{Rng, RngExt};
use rand_pcg::Pcg64Mcg;

use super::turn::{Pending, Standing, Turn};
use super::{Fight, initiative};
use crate::attack::{AttackProfile, OutcomeLayout};
use crate::engine::{AliasTable, EngineConfig, Model, SamplerKind, SlotFigures, run_model};
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
}

/// Runs `config.trials` trials of the fight.
pub fn simulate_fight(
    fight: &Fight,
    config: &EngineConfig,
    progress: &(dyn Fn(u64) + Sync),
    stop: &AtomicBool,
) -> FightTally {
    let model = FightModel {
        fight,
        draws: (fight.profiles.iter())
            .map(|p| match (config.sampler, &p.probs) {
                (SamplerKind::Table, Some(probs)) => Draw::Table(AliasTable::new(probs)),
                _ => Draw::Dice(&p.attack, p.attack.layout()),
            })
            .collect(),
        inits: fight.fighters.iter().map(|f| f.init).collect(),
    };
    run_model(&model, config, progress, stop)
}

impl FightModel<'_> {
    fn trial(
        &self,
        tally: &mut FightTally,
        rng: &mut Pcg64Mcg,
        taken: &mut [i64],
        dealt: &mut [i64],
    ) {
        let fight = self.fight;
        let n = fight.fighters.len();
        let order: Vec<usize> = match fight.initiative {
            Initiative::Listed => (0..n).collect(),
            Initiative::Rolled => initiative::roll(&self.inits, rng),
        };
        let mut standings = fight.start();
        taken.fill(0);
        dealt.fill(0);
        let mut result = None;
        for round in 0..tally.rounds {
            if result.is_none() {
                for &actor in &order {
                    self.turn(
                        &mut standings,
                        actor,
                        rng,
                        taken,
                        dealt,
                        &mut tally.outcomes,
                    );
                    if let Some(winner) = fight.ended(&standings) {
                        result = Some(winner);
                        tally.ended_in[round] += 1;
                        break;
                    }
                }
            }
            for (who, s) in standings.iter().enumerate() {
                let cell = tally.cell(round + 1, who);
                tally.status[cell * Status::ALL.len() + fight.status(who, s) as usize] += 1;
                let (t, d) = (taken[who] as u128, dealt[who] as u128);
                tally.taken[cell].0 += t;
                tally.taken[cell].1 += t * t;
                tally.dealt[cell].0 += d;
                tally.dealt[cell].1 += d * d;
            }
            if let Some(winner) = result {
                let cell = tally.won_cell(round + 1, winner.unwrap_or(tally.sides));
                tally.won[cell] += 1;
            }
        }
        for side in 0..tally.sides {
            let members = (0..n).filter(|&i| fight.fighters[i].side == side);
            let statuses: Vec<Status> = members.map(|i| fight.status(i, &standings[i])).collect();
            tally.lost_down[side] += u64::from(statuses.iter().any(|&s| s != Status::Up));
            tally.lost_dead[side] += u64::from(statuses.contains(&Status::Dead));
        }
        tally.trials += 1;
    }

    fn turn(
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
                    outcomes[profile][index] += 1;
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
        let n = self.fight.fighters.len();
        let (mut taken, mut dealt) = (vec![0; n], vec![0; n]);
        for _ in 0..trials {
            self.trial(tally, rng, &mut taken, &mut dealt);
        }
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
