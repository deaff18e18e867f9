//! Monte Carlo over a [`Fight`]: each trial rolls initiative, then plays turns with
//! [`Layout::play`], drawing each chance as it comes, until one side is left or the rounds
//! run out; per round it counts every combatant's status, the sides that have won and
//! the damage taken and dealt, and at the end each combatant's total damage taken. Runs
//! on the engine's block runner, so the counts depend on the seed and the trials only.

use std::ops::Range;
use std::sync::atomic::AtomicBool;

use rand::{Rng, RngExt};
use rand_pcg::Pcg64Mcg;

use super::straight::{Board, LANES, Layout};
use super::turn::{Chances, Dealt, Standing, members};
use super::{Fight, initiative};
use crate::attack::{AttackProfile, OutcomeEffect, OutcomeLayout};
use crate::engine::{
    AliasTable, CoupledTable, EngineConfig, Figure, Model, Pairable, PairedModel, PairedTally,
    SamplerKind, SlotFigures, TrialValues, run_model,
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
    /// [fighter][total]: trials at whose end the fighter had taken that total of damage
    /// from attacks (as long as the largest total seen).
    damage: Vec<Vec<u64>>,
    /// Attacks made, by profile and outcome: a profile's outcomes are
    /// `outcomes[starts[profile]..starts[profile + 1]]`.
    outcomes: Vec<u64>,
    starts: Vec<usize>,
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
            damage: vec![Vec::new(); f],
            outcomes: vec![0; fight.profiles.iter().map(|p| p.effects.len()).sum()],
            starts: outcome_starts(fight),
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

    /// For each total of damage from 0 up to the largest seen: the trials at whose end
    /// `fighter` had taken exactly that total from attacks.
    pub fn damage_taken(&self, fighter: usize) -> &[u64] {
        &self.damage[fighter]
    }

    /// The attacks made with profile `profile` (see [`Fight::attacks`]), by outcome.
    pub fn attack<'a>(&'a self, fight: &Fight, profile: usize) -> SlotFigures<'a> {
        SlotFigures::new(
            &self.outcomes[self.starts[profile]..self.starts[profile + 1]],
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
        add(&mut self.outcomes, &other.outcomes);
        for (mine, theirs) in self.damage.iter_mut().zip(&other.damage) {
            if mine.len() < theirs.len() {
                mine.resize(theirs.len(), 0);
            }
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

/// Where each profile's outcomes start among all profiles' outcomes, then their end.
fn outcome_starts(fight: &Fight) -> Vec<usize> {
    let mut starts = vec![0];
    for p in &fight.profiles {
        starts.push(starts[starts.len() - 1] + p.effects.len());
    }
    starts
}

/// How one profile's outcome is drawn: its outcomes are at `start` among all profiles'
/// (in [`FightModel::columns`], [`FightModel::effects`] and a tally's counts), `len` of
/// them, drawn as `source` says.
#[derive(Clone, Copy)]
struct Draw {
    start: u32,
    len: u32,
    source: Source,
}

/// Where a profile's outcome comes from.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Source {
    /// Its alias columns, from one word.
    Table,
    /// Rolled die by die: its index in [`FightModel::rolled`].
    Rolled(u32),
    /// A variant's chances drawn in step with the baseline's table: its index in
    /// [`FightModel::coupled`].
    Coupled(u32),
}

/// The profiles' draws side by side in a few short arrays: a turn's attack reads its
/// draw, a column and an effect, not a profile's scattered fields.
struct FightModel<'a> {
    fight: &'a Fight,
    draws: Vec<Draw>,
    /// Every profile's alias columns (those rolled die by die have none: unused).
    columns: Vec<(u64, u32)>,
    /// Every profile's outcome effects.
    effects: Vec<OutcomeEffect>,
    /// The profiles rolled die by die.
    rolled: Vec<(&'a AttackProfile, OutcomeLayout)>,
    /// A variant's profiles whose chances differ from the baseline's, drawn in step with
    /// the baseline's tables (see [`Pairable::couple`]).
    coupled: Vec<CoupledTable>,
    /// How a variant coupled to the baseline tells whether it would repeat a trial of
    /// the baseline's (see [`Pairable::repeats_baseline`]).
    repeats: Repeats,
    /// A baseline that logs each trial's drawn words, because a variant tells repeats
    /// from them.
    logs_draws: bool,
    /// A baseline that logs the most damage some combatants took in each trial, because
    /// a variant whose injury differs tells repeats from it: those combatants, a bit
    /// each (0: none).
    logs_taken: u64,
    inits: Vec<i32>,
    /// A variant that takes each trial's rolled order from the baseline's (see
    /// [`Opening::Taken`]).
    opening_from_baseline: bool,
    /// A baseline that keeps each trial's rolled order, because a variant takes it.
    keeps_opening: bool,
    /// A variant that takes the baseline's opening: the combatants whose turns may play
    /// otherwise than the baseline's ([`Fight::turns_that_differ`]), a bit each, where a
    /// trial can open with someone else's ([`Fight::can_open_with_another`]). Its trials
    /// not counted resume from the baseline's state at the first turn of one.
    resumes_at: Option<u64>,
    /// A baseline whose variants resume from it: the combatants at whose first turn in a
    /// trial it keeps its state (see [`Resumes`]), a bit each; 0 for none.
    keeps_resumes: u64,
    /// Monte Carlo's layout of the fight, and every combatant before it, and its status.
    layout: Layout<'a>,
    start: Board,
    start_status: Vec<Status>,
    /// Where a trial's values go ([`Values`]): its statuses as steps when nobody who
    /// goes down can get back up ([`Fight::can_get_back_up`]), else a byte per round.
    values: Values,
    /// The per-round statuses' values (see [`Values::status`]) of a trial in which no
    /// status changes: a trial starts from them and writes only what changes.
    start_values: Vec<u8>,
    /// The statuses' steps (see [`Values::steps`]) of a trial in which no status changes.
    start_steps: Vec<u16>,
}

/// How a variant tells, from what the baseline logged of a trial, that it would play the
/// trial exactly as the baseline did.
enum Repeats {
    /// It cannot: it plays every trial.
    Never,
    /// Every attack the baseline drew keeps its outcome here ([`Fight::same_but_chances`]).
    ByDraws,
    /// Each of these combatants took less damage than this in the baseline's trial
    /// ([`Fight::alike_below`]).
    Below(Vec<(usize, i64)>),
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
    keyed: Vec<u64>,
    board: Board,
    taken: [i64; LANES],
    dealt: [i64; LANES],
    /// Each combatant's status, damage taken and dealt at the end of the last round
    /// counted: a round counts only what changed since.
    last_status: [Status; LANES],
    last_taken: [i64; LANES],
    last_dealt: [i64; LANES],
    /// The trial's value of each [`Pairable::figures`] figure, laid out by [`Values`]:
    /// the chances, the amounts and the steps.
    chances: Vec<u8>,
    amounts: Vec<i64>,
    steps: Vec<u16>,
    /// What changed in each round, summed over the trials since the last
    /// [`Scratch::settle`]: a count holds from the round it changed to the last, so the
    /// round's counts are the sums of the changes up to it; a round writes only the
    /// combatants that changed, and the rounds after a fight ended are never visited.
    changes: Changes,
    /// The baseline's, in a paired run where a variant takes them: each trial of the
    /// pass's rolled order (a row of combatants each) and its stream after the rolls.
    opening_orders: Vec<usize>,
    opening_rngs: Vec<Pcg64Mcg>,
    /// The baseline's, in a paired run where a variant tells its repeats from them: each
    /// attack's profile and the word it drew from the profile's table, for every trial
    /// of the pass, in order, and where each trial's end.
    draw_log: Vec<(u32, u64)>,
    draw_ends: Vec<usize>,
    /// The baseline's, in a paired run where a variant tells its repeats from it: the
    /// most damage each combatant took in each trial of the pass (a row of combatants
    /// each; see [`Standing::most_taken_since`]).
    taken_log: Vec<i64>,
    /// The baseline's, in a paired run where a variant resumes from it.
    resumes: Resumes,
}

/// Where a trial stood at the start of a turn: the round and the turn's place in the
/// order, the stream, who was up and fresh, and whom the round's turns had touched so
/// far. The standings, statuses, damage dealt and status values are rows of [`Resumes`].
#[derive(Clone)]
struct ResumePoint {
    round: usize,
    turn: usize,
    rng: Pcg64Mcg,
    up: u64,
    fresh: u64,
    touched: u64,
}

/// The baseline's state in each trial of the pass at the start of the first turn of a
/// combatant whose turns a variant changes, if the trial reached one: until then the
/// variant plays as the baseline, so it plays only the rest (`FightModel::resumes_at`).
#[derive(Default)]
struct Resumes {
    points: Vec<Option<ResumePoint>>,
    /// Per trial: a row per combatant; the status values a row of the status section, and
    /// the steps a row of steps.
    standings: Vec<Standing>,
    statuses: Vec<Status>,
    dealt: Vec<i64>,
    values: Vec<u8>,
    steps: Vec<u16>,
}

impl Resumes {
    /// Trial `trial` has reached no such turn yet; its rows are `n`, `values` and
    /// `steps` long.
    fn start(&mut self, trial: usize, n: usize, values: usize, steps: usize) {
        if self.points.len() <= trial {
            self.points.resize(trial + 1, None);
            self.standings.resize((trial + 1) * n, Standing::default());
            self.statuses.resize((trial + 1) * n, Status::Up);
            self.dealt.resize((trial + 1) * n, 0);
            self.values.resize((trial + 1) * values, 0);
            self.steps.resize((trial + 1) * steps, 0);
        }
        self.points[trial] = None;
    }

    /// Keeps `point` of trial `trial`, with its rows (the status values and steps).
    fn keep(
        &mut self,
        trial: usize,
        point: ResumePoint,
        standings: &[Standing],
        statuses: &[Status],
        dealt: &[i64],
        (values, steps): (&[u8], &[u16]),
    ) {
        let n = standings.len();
        self.points[trial] = Some(point);
        self.standings[trial * n..][..n].copy_from_slice(standings);
        self.statuses[trial * n..][..n].copy_from_slice(statuses);
        self.dealt[trial * n..][..n].copy_from_slice(dealt);
        self.values[trial * values.len()..][..values.len()].copy_from_slice(values);
        self.steps[trial * steps.len()..][..steps.len()].copy_from_slice(steps);
    }

    /// Trial `trial`'s point, its rows copied back into the trial's buffers.
    fn restore(
        &self,
        trial: usize,
        standings: &mut [Standing],
        statuses: &mut [Status],
        dealt: &mut [i64],
        values: &mut [u8],
        steps: &mut [u16],
    ) -> &ResumePoint {
        let n = standings.len();
        standings.copy_from_slice(&self.standings[trial * n..][..n]);
        statuses.copy_from_slice(&self.statuses[trial * n..][..n]);
        dealt.copy_from_slice(&self.dealt[trial * n..][..n]);
        values.copy_from_slice(&self.values[trial * values.len()..][..values.len()]);
        steps.copy_from_slice(&self.steps[trial * steps.len()..][..steps.len()]);
        self.points[trial].as_ref().expect("a kept point")
    }

    /// Whether trial `trial` reached such a turn.
    fn reached(&self, trial: usize) -> bool {
        self.points.get(trial).is_some_and(Option::is_some)
    }
}

/// Where a trial's turn order comes from.
#[derive(Clone, Copy)]
enum Opening<'s> {
    /// Rolled (or listed).
    Rolled,
    /// Rolled, and kept in the scratch as the pass's trial `usize` (the baseline's, in a
    /// paired run where a variant takes it).
    Kept(usize),
    /// Taken from the baseline's trial `usize`, kept in its scratch: a variant with the
    /// baseline's initiative modifiers rolls the same order from the same stream.
    Taken(usize, &'s Scratch),
    /// Taken, and the trial resumed from the baseline's state kept at the first turn that
    /// may play otherwise (a variant's trial not counted, see [`Resumes`]).
    Resumed(usize, &'s Scratch),
}

/// Changes of [`FightTally`]'s per-round counts, laid out as there. They may go down
/// (a combatant leaves a status; a Starfinder combatant back up has less damage), so
/// they add in wrapping arithmetic: the sums up to a round are the counts, which fit.
struct Changes {
    status: Vec<u64>,
    won: Vec<u64>,
    taken: Vec<(u128, u128)>,
    dealt: Vec<(u128, u128)>,
}

impl Changes {
    /// A value's change from `was` to `now`, and its square's, in wrapping arithmetic.
    /// The square's change is (now − was)(now + was): one widening multiply, where two
    /// 128-bit squares cost a party-fight trial about 500 instructions more (callgrind).
    #[inline(always)]
    fn amount(sums: &mut (u128, u128), was: i64, now: i64) {
        let change = i128::from(now - was);
        let square_change = change * i128::from(now + was);
        sums.0 = sums.0.wrapping_add(change as u128);
        sums.1 = sums.1.wrapping_add(square_change as u128);
    }
}

impl Scratch {
    fn new(model: &FightModel) -> Scratch {
        let fight = model.fight;
        let empty = FightTally::new(fight);
        let n = fight.fighters.len();
        Scratch {
            order: (0..n).collect(),
            keyed: Vec::new(),
            board: model.start.clone(),
            taken: [0; LANES],
            dealt: [0; LANES],
            last_status: [Status::Up; LANES],
            last_taken: [0; LANES],
            last_dealt: [0; LANES],
            chances: vec![0; model.values.chances()],
            amounts: vec![0; model.values.amounts()],
            steps: vec![0; model.values.steps()],
            changes: Changes {
                status: empty.status,
                won: empty.won,
                taken: empty.taken,
                dealt: empty.dealt,
            },
            opening_orders: Vec::new(),
            opening_rngs: Vec::new(),
            draw_log: Vec::new(),
            draw_ends: Vec::new(),
            taken_log: Vec::new(),
            resumes: Resumes::default(),
        }
    }

    /// Adds the changes of `trials` trials, each round's to that round and every later
    /// one, to `tally`, and clears them. Every trial starts in the model's start
    /// statuses: that is the first round's change from nothing.
    fn settle(&mut self, model: &FightModel, tally: &mut FightTally, trials: u64) {
        let (f, s) = (tally.fighters, tally.sides);
        let c = &mut self.changes;
        for (who, status) in model.start_status.iter().enumerate() {
            let cell = &mut c.status[who * Status::ALL.len() + *status as usize];
            *cell = cell.wrapping_add(trials);
        }
        accumulate(
            &mut tally.status,
            &mut c.status,
            f * Status::ALL.len(),
            |a, b| *a = a.wrapping_add(b),
        );
        accumulate(&mut tally.won, &mut c.won, s + 1, |a, b| *a += b);
        for (into, from) in [
            (&mut tally.taken, &mut c.taken),
            (&mut tally.dealt, &mut c.dealt),
        ] {
            accumulate(into, from, f, |a, b| {
                a.0 = a.0.wrapping_add(b.0);
                a.1 = a.1.wrapping_add(b.1);
            });
        }
    }
}

/// Where each figure of [`Pairable::figures`] is among a trial's values of its kind (see
/// [`TrialValues`]): the chances are each side's win, each side's losses (down, dead) and,
/// unless they are steps, each combatant's status (down, dead) per round; the amounts are
/// the fight's length and each combatant's damage dealt; the steps, when statuses are
/// stepped, each combatant's first round down and first round dead.
#[derive(Clone, Copy)]
struct Values {
    sides: usize,
    fighters: usize,
    /// The rounds of a status given a byte per round (0 when given as steps).
    status_rounds: usize,
}

impl Values {
    fn of(fight: &Fight, stepped: bool) -> Values {
        Values {
            sides: fight.sides.len(),
            fighters: fight.fighters.len(),
            status_rounds: if stepped { 0 } else { fight.rounds as usize },
        }
    }

    fn stepped(&self) -> bool {
        self.status_rounds == 0
    }

    /// How many steps there are.
    fn steps(&self) -> usize {
        if self.stepped() { 2 * self.fighters } else { 0 }
    }

    /// How many chances there are.
    fn chances(&self) -> usize {
        self.status(self.fighters, 0)
    }

    /// How many amounts there are.
    fn amounts(&self) -> usize {
        self.dealt(self.fighters)
    }

    fn won(&self, side: usize) -> usize {
        side
    }

    /// The side's "a member down"; "a member dead" follows it.
    fn lost(&self, side: usize) -> usize {
        self.sides + 2 * side
    }

    /// The combatant's "down" at the end of `round` (0-based); "dead" follows it.
    fn status(&self, fighter: usize, round: usize) -> usize {
        self.lost(self.sides) + 2 * (fighter * self.status_rounds + round)
    }

    /// Among the steps: the combatant's first round down; its first round dead follows.
    fn step(&self, fighter: usize) -> usize {
        2 * fighter
    }

    /// Among the amounts.
    fn length(&self) -> usize {
        0
    }

    /// Among the amounts.
    fn dealt(&self, fighter: usize) -> usize {
        1 + fighter
    }

    /// A round's "down" and "dead" values of a combatant in `status`.
    fn of_status(status: Status) -> [u8; 2] {
        [
            u8::from(status != Status::Up),
            u8::from(status == Status::Dead),
        ]
    }
}

/// Per status a combatant was in and status it is now in: whether it went down (from up)
/// and whether it died, as 0 or 1, looked up where two comparisons each cost more.
const BEGINS: [[[u16; 2]; Status::ALL.len()]; Status::ALL.len()] = {
    let mut begins = [[[0; 2]; Status::ALL.len()]; Status::ALL.len()];
    let (up, dead) = (Status::Up as usize, Status::Dead as usize);
    let mut was = 0;
    while was < Status::ALL.len() {
        let mut now = 0;
        while now < Status::ALL.len() {
            begins[was][now] = [
                (was == up && now != up) as u16,
                (was != dead && now == dead) as u16,
            ];
            now += 1;
        }
        was += 1;
    }
    begins
};

/// Adds `from`'s rounds (`stride` counts each) to `into`, each round's to that round and
/// every later one, and clears `from`.
fn accumulate<T: Copy + Default>(
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
        let starts = outcome_starts(fight);
        let start = fight.start();
        let layout = Layout::new(fight);
        let start_status: Vec<Status> = (start.iter().enumerate())
            .map(|(who, s)| fight.status(who, s))
            .collect();
        let values = Values::of(fight, !fight.can_get_back_up());
        // Every combatant starts up in practice (hit points at least 1), so these are 0s,
        // and the steps are the rounds (none).
        let start_values = (start_status.iter())
            .flat_map(|&status| {
                std::iter::repeat_n(Values::of_status(status), values.status_rounds).flatten()
            })
            .collect();
        let never = u16::try_from(fight.rounds).expect("at most MAX_ROUNDS rounds");
        let start_steps = (start_status.iter())
            .take(values.steps() / 2)
            .flat_map(|&status| Values::of_status(status).map(|on| never * u16::from(on == 0)))
            .collect();
        let mut model = FightModel {
            fight,
            draws: Vec::new(),
            columns: vec![(0, 0); starts[starts.len() - 1]],
            effects: fight
                .profiles
                .iter()
                .flat_map(|p| &p.effects)
                .copied()
                .collect(),
            rolled: Vec::new(),
            coupled: Vec::new(),
            repeats: Repeats::Never,
            logs_draws: false,
            logs_taken: 0,
            inits: fight.fighters.iter().map(|f| f.init).collect(),
            opening_from_baseline: false,
            keeps_opening: false,
            resumes_at: None,
            keeps_resumes: 0,
            start_status,
            values,
            start_values,
            start_steps,
            start: layout.board(&start),
            layout,
        };
        for (p, profile) in fight.profiles.iter().enumerate() {
            let source = match (sampler, &profile.probs) {
                (SamplerKind::Table, Some(probs)) => {
                    let table = AliasTable::new(probs);
                    model.columns[starts[p]..starts[p + 1]].copy_from_slice(table.columns());
                    Source::Table
                }
                _ => {
                    let rolled = &profile.attack;
                    model.rolled.push((rolled, rolled.layout()));
                    Source::Rolled(index_u32(model.rolled.len() - 1))
                }
            };
            model.draws.push(Draw {
                start: u32::try_from(starts[p]).expect("fewer outcomes than 2^32"),
                len: u32::try_from(starts[p + 1] - starts[p]).expect("fewer outcomes than 2^32"),
                source,
            });
        }
        model
    }

    /// One trial: counted in `tally` when `COUNTED` (its per-round counts as changes in
    /// `scratch`, for [`Scratch::settle`]), its figures' values left in `scratch` when
    /// `VALUES`; its turn order from `opening`; its attacks' draws logged in `scratch`
    /// as the pass's trial `logged`, if any.
    fn trial<const COUNTED: bool, const VALUES: bool>(
        &self,
        tally: &mut FightTally,
        rng: &mut Pcg64Mcg,
        scratch: &mut Scratch,
        opening: Opening,
        logged: Option<usize>,
    ) {
        let fight = self.fight;
        let rounds = fight.rounds as usize;
        let n = fight.fighters.len();
        let Scratch {
            order,
            keyed,
            board,
            taken,
            dealt,
            last_status,
            last_taken,
            last_dealt,
            chances,
            amounts,
            steps,
            changes,
            opening_orders,
            opening_rngs,
            draw_log,
            draw_ends,
            taken_log: _,
            resumes,
        } = scratch;
        let at = self.values;
        let status_values = at.status(0, 0)..at.status(n, 0);
        if fight.initiative == Initiative::Rolled {
            match opening {
                // (A resumed trial's stream is then the kept point's.)
                Opening::Taken(trial, baseline) | Opening::Resumed(trial, baseline) => {
                    order.copy_from_slice(&baseline.opening_orders[trial * n..][..n]);
                    *rng = baseline.opening_rngs[trial].clone();
                }
                Opening::Rolled | Opening::Kept(_) => {
                    initiative::roll(&self.inits, rng, keyed, order);
                }
            }
            if let Opening::Kept(trial) = opening {
                if opening_rngs.len() <= trial {
                    opening_rngs.resize(trial + 1, rng.clone());
                    opening_orders.resize((trial + 1) * n, 0);
                }
                opening_orders[trial * n..][..n].copy_from_slice(order);
                opening_rngs[trial] = rng.clone();
            }
        }
        // Where in the first round's order the trial's state is kept for the variants that
        // resume from it: the first turn of one of their combatants (`n`: nowhere).
        let (mut keep_at, kept_trial) = match opening {
            Opening::Kept(trial) if self.keeps_resumes != 0 => {
                resumes.start(trial, n, status_values.len(), steps.len());
                let keeps = |&actor: &usize| self.keeps_resumes >> actor & 1 != 0;
                (order.iter().position(keeps).unwrap_or(n), trial)
            }
            _ => (n, 0),
        };
        // Where the trial's turns start, and whom the first round's earlier turns touched.
        let (first_round, mut first_turn, mut touched_before) = match opening {
            // A counted trial counts every round, so it plays as `Taken` from the start.
            Opening::Resumed(trial, baseline) if !COUNTED && VALUES => {
                let point = baseline.resumes.restore(
                    trial,
                    &mut board.standings[..n],
                    &mut last_status[..n],
                    &mut dealt[..n],
                    &mut chances[status_values.clone()],
                    steps,
                );
                *rng = point.rng.clone();
                (board.up, board.fresh) = (point.up, point.fresh);
                (point.round, point.turn, point.touched)
            }
            _ => {
                board.standings[..n].copy_from_slice(&self.start.standings[..n]);
                (board.up, board.fresh) = (self.start.up, self.start.fresh);
                last_status[..n].copy_from_slice(&self.start_status);
                if VALUES {
                    chances[status_values.clone()].copy_from_slice(&self.start_values);
                    steps.copy_from_slice(&self.start_steps);
                }
                dealt[..n].fill(0);
                if COUNTED {
                    for counts in [&mut *taken, &mut *last_taken, &mut *last_dealt] {
                        counts[..n].fill(0);
                    }
                }
                (0, 0, 0)
            }
        };
        let mut result = None;
        let mut length = rounds;
        // Whether the fight is over depends on who is up alone: asked again only when
        // that changes.
        let mut ended = fight.ended_with(board.up);
        let mut draws = Draws::<COUNTED> {
            model: self,
            rng,
            outcomes: &mut tally.outcomes,
            taken,
            dealt,
            log: logged.map(|trial| {
                if trial == 0 {
                    draw_log.clear();
                    draw_ends.clear();
                }
                &mut *draw_log
            }),
        };
        // The rounds from each round to the last: what a step falls by when a status
        // begins in that round (from none, the rounds, to the round).
        let mut to_last = u16::try_from(rounds - first_round).expect("at most MAX_ROUNDS");
        for round in first_round..rounds {
            // Who the round's turns touched: only their counts can have changed.
            let mut touched = std::mem::take(&mut touched_before);
            // Only a paired trial (one that leaves values) resumes or keeps its state.
            let from = if VALUES {
                std::mem::take(&mut first_turn)
            } else {
                0
            };
            // The round's turns go up to the one at which the state is kept (in the first
            // round only), and on from there: no turn asks whether it is that one.
            let mut pause = if VALUES {
                std::mem::replace(&mut keep_at, n)
            } else {
                n
            };
            let mut turn = from;
            loop {
                let stop = pause.max(turn);
                touched |= self.play_turns(&order[turn..stop], board, &mut draws, &mut ended);
                // A fight ends after a turn: a run of no turns (the state kept at the
                // round's first) ends nothing.
                if let Some(winner) = ended.filter(|_| turn < stop) {
                    result = Some(winner);
                    length = round + 1;
                    break;
                }
                if stop == n {
                    break;
                }
                let point = ResumePoint {
                    round,
                    turn: stop,
                    rng: draws.rng.clone(),
                    up: board.up,
                    fresh: board.fresh,
                    touched,
                };
                let (standings, values) = (&board.standings[..n], &chances[status_values.clone()]);
                let (statuses, dealt) = (&last_status[..n], &draws.dealt[..n]);
                resumes.keep(
                    kept_trial,
                    point,
                    standings,
                    statuses,
                    dealt,
                    (values, steps),
                );
                (pause, turn) = (n, stop);
            }
            for who in members(touched) {
                let cell = round * n + who;
                let lane = who % LANES;
                let (was, now) = (last_status[lane], self.layout.status(board, who));
                if COUNTED {
                    // Left and entered without a branch (which is which is at random):
                    // the same status left and entered changes nothing.
                    let row = cell * Status::ALL.len();
                    let left = &mut changes.status[row + was as usize];
                    *left = left.wrapping_sub(1);
                    let entered = &mut changes.status[row + now as usize];
                    *entered = entered.wrapping_add(1);
                }
                if VALUES && at.stepped() {
                    // Nobody gets back up, so down and dead each begin once: the step is
                    // set from none to this round without a branch (which is at random).
                    let [went_down, died] = BEGINS[was as usize][now as usize];
                    let [down, dead] = &mut steps[at.step(who)..][..2] else {
                        unreachable!("a step each for down and dead")
                    };
                    *down -= went_down * to_last;
                    *dead -= died * to_last;
                } else if VALUES && now != was {
                    // A status holds from the round it changed to the last.
                    let from = at.status(who, round);
                    let pairs = &mut chances[from..at.status(who, 0) + 2 * rounds];
                    for pair in pairs.chunks_exact_mut(2) {
                        pair.copy_from_slice(&Values::of_status(now));
                    }
                }
                last_status[lane] = now;
                if COUNTED {
                    // Unconditionally too: an amount that did not change adds 0.
                    let (taken, dealt) = (draws.taken[lane], draws.dealt[lane]);
                    Changes::amount(&mut changes.taken[cell], last_taken[lane], taken);
                    last_taken[lane] = taken;
                    Changes::amount(&mut changes.dealt[cell], last_dealt[lane], dealt);
                    last_dealt[lane] = dealt;
                }
            }
            to_last -= 1;
            if let Some(winner) = result {
                if COUNTED {
                    tally.ended_in[round] += 1;
                    changes.won[round * (tally.sides + 1) + winner.unwrap_or(tally.sides)] += 1;
                }
                break;
            }
        }
        // Who is not up at the end, and who is dead, a bit each.
        let (mut down_set, mut dead_set) = (0, 0);
        for (who, &status) in last_status[..n].iter().enumerate() {
            down_set |= u64::from(status != Status::Up) << who;
            dead_set |= u64::from(status == Status::Dead) << who;
        }
        for (side, &members) in fight.side_members.iter().enumerate() {
            let (down, dead) = (members & down_set != 0, members & dead_set != 0);
            if COUNTED {
                tally.lost_down[side] += u64::from(down);
                tally.lost_dead[side] += u64::from(dead);
            }
            if VALUES {
                chances[at.lost(side)] = u8::from(down);
                chances[at.lost(side) + 1] = u8::from(dead);
                chances[at.won(side)] = u8::from(result == Some(Some(side)));
            }
        }
        if VALUES {
            amounts[at.length()] = length as i64;
            for (who, &d) in draws.dealt[..n].iter().enumerate() {
                amounts[at.dealt(who)] = d;
            }
        }
        if COUNTED {
            for (histogram, &taken) in tally.damage.iter_mut().zip(&draws.taken[..n]) {
                let total = usize::try_from(taken).expect("damage taken is never negative");
                if histogram.len() <= total {
                    histogram.resize(total + 1, 0);
                }
                histogram[total] += 1;
            }
            tally.trials += 1;
        }
        if let Some(log) = draws.log {
            draw_ends.push(log.len());
        }
    }

    /// Plays the turns of `actors` in order until one ends the fight (`ended`, asked
    /// again only when who is up changes): whom they touched. Out of line, so that the
    /// turns' code is the same whatever the trial around them keeps: inlined, the values
    /// and resume points a paired trial keeps, live across the turns, cost spills in
    /// them (callgrind, party fight: the paired baseline's trial 14,879 instructions
    /// inlined, 14,604 out of line; a run's trial 13,698 and 13,745).
    #[inline(never)]
    fn play_turns<const COUNTED: bool>(
        &self,
        actors: &[usize],
        board: &mut Board,
        draws: &mut Draws<'_, '_, COUNTED>,
        ended: &mut Option<Option<usize>>,
    ) -> u64 {
        let mut touched = 0;
        for &actor in actors {
            let was_up = board.up;
            touched |= self.layout.play(board, actor, draws);
            if board.up != was_up {
                *ended = self.fight.ended_with(board.up);
            }
            if ended.is_some() {
                break;
            }
        }
        touched
    }

    /// Logs the most damage each combatant of `logs_taken` took in the pass's trial
    /// `trial`, for the variants that tell their repeats from it. Out of line: inlined, it kept
    /// `paired_trial` from being inlined in the pass (69 instructions a call more,
    /// callgrind, in a moved-fighter variant of the party fight).
    #[inline(never)]
    fn log_taken(&self, scratch: &mut Scratch, trial: usize) {
        let n = self.fight.fighters.len();
        let log = &mut scratch.taken_log;
        if log.len() < (trial + 1) * n {
            log.resize((trial + 1) * n, 0);
        }
        let (standings, starts) = (&scratch.board.standings, &self.start.standings);
        for who in members(self.logs_taken) {
            log[trial * n + who] = standings[who].most_taken_since(&starts[who]);
        }
    }
}

/// Monte Carlo's [`Chances`]: each chance drawn from the trial's stream, and the damage
/// dealt added up per combatant; when `COUNTED`, an attack's outcome counted in
/// `outcomes` and the damage taken added up too (only the counts read it).
struct Draws<'m, 's, const COUNTED: bool> {
    model: &'m FightModel<'m>,
    rng: &'s mut Pcg64Mcg,
    outcomes: &'s mut [u64],
    taken: &'s mut [i64; LANES],
    dealt: &'s mut [i64; LANES],
    /// Where a baseline logs the words its attacks draw from their tables, with each
    /// profile (see [`Scratch::draw_log`]).
    log: Option<&'s mut Vec<(u32, u64)>>,
}

/// An index as the draws keep it.
fn index_u32(index: usize) -> u32 {
    u32::try_from(index).expect("fewer profiles than 2^32")
}

impl<const COUNTED: bool> Chances for Draws<'_, '_, COUNTED> {
    #[inline(always)]
    fn attack(&mut self, profile: usize) -> OutcomeEffect {
        let model = self.model;
        let draw = model.draws[profile];
        let start = draw.start as usize;
        let index = match draw.source {
            Source::Table => {
                let columns = &model.columns[start..start + draw.len as usize];
                let word = self.rng.next_u64();
                if let Some(log) = self.log.as_deref_mut() {
                    log.push((index_u32(profile), word));
                }
                AliasTable::pick_in(columns, word)
            }
            Source::Coupled(coupled) => {
                model.coupled[coupled as usize].pick_one_word(self.rng.next_u64())
            }
            Source::Rolled(rolled) => {
                let (attack, layout) = &model.rolled[rolled as usize];
                layout.index(attack.roll(self.rng))
            }
        };
        if COUNTED {
            self.outcomes[start + index] += 1;
        }
        model.effects[start + index]
    }

    fn stabilises(&mut self, p_stable: f64) -> bool {
        self.rng.random::<f64>() < p_stable
    }

    fn pick(&mut self, among: usize) -> usize {
        self.rng.random_range(0..among)
    }

    /// [`Dealt::amounts`] written out: its chained iterator cost a party-fight trial about
    /// 1,700 more instructions here (callgrind, 17,802 against 16,118).
    #[inline(always)]
    fn dealt(&mut self, actor: usize, hit: Dealt) {
        self.dealt[actor % LANES] += hit.to_target;
        if COUNTED {
            self.taken[hit.target % LANES] += hit.to_target;
        }
        if let Some((struck, damage)) = hit.struck {
            self.dealt[actor % LANES] += damage;
            if COUNTED {
                self.taken[struck % LANES] += damage;
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
            self.trial::<true, false>(tally, rng, &mut scratch, Opening::Rolled, None);
        }
        scratch.settle(self, tally, trials);
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
        (f.status.len() + f.won.len() + 4 * f.taken.len() + f.ended_in.len() + f.outcomes.len())
            as u64
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
        trial: usize,
        baseline: Option<&Scratch>,
    ) {
        let opening = match baseline {
            None if self.keeps_opening => Opening::Kept(trial),
            None => Opening::Rolled,
            Some(baseline)
                if !COUNTED && self.resumes_at.is_some() && baseline.resumes.reached(trial) =>
            {
                Opening::Resumed(trial, baseline)
            }
            Some(baseline) if self.opening_from_baseline => Opening::Taken(trial, baseline),
            Some(_) => Opening::Rolled,
        };
        let logged = (baseline.is_none() && self.logs_draws).then_some(trial);
        self.trial::<COUNTED, true>(tally, rng, scratch, opening, logged);
        if baseline.is_none() && self.logs_taken != 0 {
            self.log_taken(scratch, trial);
        }
    }

    /// A variant with the baseline's initiative modifiers takes each trial's rolled order
    /// from the baseline's (the same rolls from the same stream). A variant that plays as
    /// the baseline wherever their attacks' outcomes agree ([`Fight::same_but_chances`])
    /// draws each attack whose chances differ in step with the baseline's table, from one
    /// word ([`CoupledTable::pick_one_word`], so that its stream stays in step with the
    /// baseline's, whose draws have no fixed places): from the same state, a word that
    /// keeps the baseline's outcome leads to the same next state, so a trial whose every attack keeps its outcome
    /// repeats the baseline's, which the variant tells from the baseline's logged words.
    ///
    /// A variant that takes the baseline's opening and plays as the baseline but in some
    /// combatants' turns ([`Fight::turns_that_differ`]) resumes each trial it does not
    /// count from the baseline's state at the first of those turns, unless every trial
    /// opens with one of them (resuming would then only copy the state: 325 instructions
    /// a trial more, callgrind, for a variant that moves a fighter of the party fight).
    ///
    /// A variant that changes only some combatants' injury ([`Fight::alike_below`]: more
    /// hit points, another Con) repeats every trial in which each of them takes less
    /// damage than it takes to drop in either fight, which it tells from the damage the
    /// baseline logged.
    fn couple(&mut self, baseline: &Self) -> bool {
        self.opening_from_baseline =
            self.inits == baseline.inits && self.fight.initiative == baseline.fight.initiative;
        // The same fight but in some turns has the baseline's initiative modifiers and
        // rule, so it takes the baseline's opening, from which it resumes.
        self.resumes_at = (self.fight.turns_that_differ(baseline.fight))
            .filter(|&differ| self.fight.can_open_with_another(differ));
        debug_assert!(self.resumes_at.is_none() || self.opening_from_baseline);
        if let Some(below) = self.fight.alike_below(baseline.fight) {
            debug_assert!(self.opening_from_baseline);
            self.repeats = Repeats::Below(below);
            return true;
        }
        if !self.fight.same_but_chances(baseline.fight) {
            return false;
        }
        let mut sources = Vec::with_capacity(self.draws.len());
        let mut coupled = Vec::new();
        let pairs = (self.fight.profiles.iter().zip(&baseline.fight.profiles))
            .zip(self.draws.iter().zip(&baseline.draws));
        for ((mine, theirs), (my_draw, their_draw)) in pairs {
            sources.push(match (my_draw.source, their_draw.source) {
                (Source::Table, Source::Table) => match (&mine.probs, &theirs.probs) {
                    (Some(q), Some(p)) if q != p => {
                        coupled.push(CoupledTable::new(&AliasTable::new(p), p, q));
                        Source::Coupled(index_u32(coupled.len() - 1))
                    }
                    _ => Source::Table,
                },
                (Source::Rolled(_), Source::Rolled(_)) if mine.attack == theirs.attack => {
                    my_draw.source
                }
                _ => return false,
            });
        }
        for (draw, source) in self.draws.iter_mut().zip(sources) {
            draw.source = source;
        }
        self.coupled = coupled;
        self.repeats = Repeats::ByDraws;
        true
    }

    /// The baseline keeps each trial's rolled order and stream after it only when a
    /// variant takes them, its state at a turn only when a variant not counted resumes
    /// from there, and logs its attacks' draws, or the damage taken, only when a variant
    /// skips the trials it tells are repeats from them (a counted one plays every trial).
    fn lead(&mut self, variants: &[Self], counted: &[bool], skipping: &[bool]) {
        self.keeps_opening = variants.iter().any(|v| v.opening_from_baseline);
        self.keeps_resumes = (variants.iter().zip(counted))
            .filter(|&(_, &counted)| !counted)
            .filter_map(|(v, _)| v.resumes_at)
            .fold(0, |turns, differ| turns | differ);
        let skippers = (variants.iter().zip(skipping)).filter(|&(_, &skips)| skips);
        let repeats = skippers.map(|(v, _)| &v.repeats);
        self.logs_draws = repeats.clone().any(|r| matches!(r, Repeats::ByDraws));
        self.logs_taken = (repeats.filter_map(|r| match r {
            Repeats::Below(below) => Some(below),
            _ => None,
        }))
        .flatten()
        .fold(0, |watched, &(who, _)| watched | 1 << who);
    }

    /// By draws: every attack the baseline drew in the trial keeps its outcome here (the
    /// profiles whose chances are the baseline's always do; a profile rolled die by die
    /// is the baseline's own, and draws no logged word). Below: each combatant whose
    /// injury differs took less than it takes to drop in either fight.
    fn repeats_baseline(&self, _: &Pcg64Mcg, trial: usize, baseline: Option<&Scratch>) -> bool {
        let Some(baseline) = baseline else {
            return false;
        };
        // Where the baseline logged nothing, no variant was to skip.
        match &self.repeats {
            Repeats::Never => false,
            Repeats::Below(below) => {
                let taken = |who| (baseline.taken_log).get(trial * self.fight.fighters.len() + who);
                (below.iter()).all(|&(who, below)| taken(who).is_some_and(|&t| t < below))
            }
            Repeats::ByDraws => {
                let Some(&end) = baseline.draw_ends.get(trial) else {
                    return false;
                };
                let start = trial.checked_sub(1).map_or(0, |t| baseline.draw_ends[t]);
                let drawn = &baseline.draw_log[start..end];
                drawn.iter().all(
                    |&(profile, word)| match self.draws[profile as usize].source {
                        Source::Coupled(coupled) => self.coupled[coupled as usize].keeps(word),
                        Source::Table | Source::Rolled(_) => true,
                    },
                )
            }
        }
    }

    /// The rounds' changes, kept in `scratch`, are added up once per chunk.
    fn settle(&self, tally: &mut FightTally, scratch: &mut Scratch, trials: u64) {
        scratch.settle(self, tally, trials);
    }

    fn values<'s>(&self, scratch: &'s Scratch) -> TrialValues<'s> {
        TrialValues {
            chances: &scratch.chances,
            amounts: &scratch.amounts,
            steps: &scratch.steps,
        }
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

    /// Each combatant's down and dead by round, when nobody gets back up.
    fn series(&self) -> Vec<Vec<Figure>> {
        if !self.values.stepped() {
            return Vec::new();
        }
        let rounds = 1..=self.fight.rounds as usize;
        (0..self.fight.fighters.len())
            .flat_map(|fighter| {
                let down = rounds
                    .clone()
                    .map(|round| Figure::FighterDown { fighter, round });
                let dead = rounds
                    .clone()
                    .map(|round| Figure::FighterDead { fighter, round });
                [down.collect(), dead.collect()]
            })
            .collect()
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

/// A paired run's first pass of `trials` trials as far as the baseline: `variant` coupled
/// to it (or not) and not counted, the baseline led and played, its scratch kept.
#[cfg(test)]
struct LedPass<'f> {
    follower: FightModel<'f>,
    coupled: bool,
    scratch: Scratch,
    starts: Vec<Pcg64Mcg>,
}

#[cfg(test)]
impl<'f> LedPass<'f> {
    fn new(baseline: &'f Fight, variant: &'f Fight, trials: usize) -> LedPass<'f> {
        use rand::SeedableRng;
        let [mut lead, mut follower] =
            [baseline, variant].map(|f| FightModel::new(f, SamplerKind::Table));
        let coupled = follower.couple(&lead);
        lead.lead(std::slice::from_ref(&follower), &[false], &[coupled]);
        let (mut tally, mut scratch) = (lead.empty_tally(), lead.scratch());
        let mut rng = Pcg64Mcg::seed_from_u64(7);
        let starts: Vec<Pcg64Mcg> = (0..trials)
            .map(|_| Pcg64Mcg::seed_from_u64(rng.next_u64()))
            .collect();
        for (trial, start) in starts.iter().enumerate() {
            lead.paired_trial::<false>(&mut tally, &mut start.clone(), &mut scratch, trial, None);
        }
        LedPass {
            follower,
            coupled,
            scratch,
            starts,
        }
    }
}

/// The share of `trials` trials in which `variant`, coupled to `baseline`, repeats the
/// baseline's trial, told as a paired run tells it; `None` when it cannot be coupled.
#[cfg(test)]
pub(super) fn repeated_share(baseline: &Fight, variant: &Fight, trials: usize) -> Option<f64> {
    let pass = LedPass::new(baseline, variant, trials);
    if !pass.coupled {
        return None;
    }
    let repeats = (pass.starts.iter().enumerate())
        .filter(|&(trial, start)| {
            (pass.follower).repeats_baseline(start, trial, Some(&pass.scratch))
        })
        .count();
    Some(repeats as f64 / trials as f64)
}

/// Per trial of `trials`: the round and the place in the order of the turn from which
/// `variant`, not counted, resumes the baseline's trial in a paired run; `None` for a
/// trial it plays from its start.
#[cfg(test)]
pub(super) fn resume_points(
    baseline: &Fight,
    variant: &Fight,
    trials: usize,
) -> Vec<Option<(usize, usize)>> {
    let pass = LedPass::new(baseline, variant, trials);
    let points = &pass.scratch.resumes.points;
    (0..trials)
        .map(|trial| points.get(trial).cloned().flatten())
        .map(|point| point.map(|p| (p.round, p.turn)))
        .collect()
}

/// Whether `variant`'s paired trials, not counted, take the baseline's kept state in
/// each of `trials` trials that kept one: with the kept damage dealt raised by 10⁶, every
/// combatant's damage dealt in the variant's values shows it.
#[cfg(test)]
pub(super) fn resumes_from_kept_state(baseline: &Fight, variant: &Fight, trials: usize) -> bool {
    let mut pass = LedPass::new(baseline, variant, trials);
    pass.scratch
        .resumes
        .dealt
        .iter_mut()
        .for_each(|d| *d += 1_000_000);
    let (mut tally, mut scratch) = (pass.follower.empty_tally(), pass.follower.scratch());
    (0..trials)
        .filter(|&trial| pass.scratch.resumes.reached(trial))
        .all(|trial| {
            let rng = &mut pass.starts[trial].clone();
            let baseline = Some(&pass.scratch);
            (pass.follower).paired_trial::<false>(&mut tally, rng, &mut scratch, trial, baseline);
            let values = pass.follower.values(&scratch);
            values.amounts[1..].iter().all(|&dealt| dealt >= 1_000_000)
        })
}
