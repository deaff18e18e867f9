//! Running an experiment end to end: the one pipeline that the command line, the tests,
//! the benches and the crate docs share.
//!
//! [`prepare`] loads and validates a file as a run needs it (plan, every sweep point, the
//! tally size, the [`Settings`], which become the engine's configuration: the seed and
//! the trials live there, not in the plan), with every error at file:line:col or at its
//! flag;
//! [`Prepared::run`] simulates the plan and each sweep point, computes the exact figures
//! and the heatmap, and returns the [`Results`], stopping early (and saying so) once the
//! stop flag is set. Nothing here prints or draws: progress goes to a [`Progress`], notes
//! come back in [`Finished`].

use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use rayon::prelude::*;

use crate::encounter::{
    ExactFight, Fight, FightTally, exact_fight, simulate_fight, simulate_fights_paired,
};
use crate::engine::{
    EngineConfig, Figure, MAX_THREADS, SamplerKind, on_threads, simulate_paired, simulate_until,
};
use crate::error::{Error, InputError};
use crate::exact;
use crate::experiment::{Experiment, is_same_model};
use crate::heatmap::{heatmap, heatmap_squares};
use crate::plan::Plan;
use crate::report::{
    BASELINE, FightFigures, Formats, Inputs, PARQUET_BUILT_IN, PlanFigures, PointRows, Results,
    SweepRows, SweepWriter, VariantRow, fight_exact, parquet_refusal, plan_exact, variant_rows,
};
use crate::scenario::{Assignments, MAX_TRIALS, Scenario, display_value};

/// How to run, as the command line's flags set it; `None` keeps the experiment's value.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Settings {
    /// Trials to run (`--trials`; with `precision`, the most to run).
    pub trials: Option<u64>,
    /// Random seed (`--seed`).
    pub seed: Option<u64>,
    /// Worker threads (`--threads`; default one per core).
    pub threads: Option<usize>,
    /// Stop once every probability's 95% half-width is at most this (`--precision`).
    pub precision: Option<f64>,
    /// How an attack's outcome is drawn (`--sampler`).
    pub sampler: SamplerKind,
    /// The report's optional files (the sweep's Parquet rows are kept for them).
    pub formats: Formats,
    /// The results will be printed as JSON (the sweep's JSON rows are kept for it).
    pub json: bool,
}

impl Settings {
    /// Checks the settings, each refusal naming its flag, and makes the engine's
    /// configuration: the flags' trials and seed where given, else `seed` and `trials`
    /// (the experiment's).
    pub fn engine_config(&self, seed: u64, trials: u64) -> Result<EngineConfig, InputError> {
        if self
            .trials
            .is_some_and(|trials| !(1..=MAX_TRIALS).contains(&trials))
        {
            return Err(InputError::flag(
                "--trials",
                format!("1 to {MAX_TRIALS} (10^12)"),
            ));
        }
        if self
            .threads
            .is_some_and(|t| !(1..=MAX_THREADS).contains(&t))
        {
            return Err(InputError::flag("--threads", format!("1 to {MAX_THREADS}")));
        }
        if let Some(why) = parquet_refusal(self.formats.parquet, PARQUET_BUILT_IN) {
            return Err(InputError::flag("--parquet", why));
        }
        if self.precision.is_some_and(|e| !(e > 0.0 && e < 0.5)) {
            return Err(InputError::flag(
                "--precision",
                "a half-width between 0 and 0.5, e.g. 0.001",
            ));
        }
        Ok(EngineConfig {
            seed: self.seed.unwrap_or(seed),
            trials: self.trials.unwrap_or(trials),
            threads: self.threads,
            sampler: self.sampler,
            precision: self.precision,
        })
    }
}

/// The long phases of a run, each counted in its own unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// The exact figures of a fight and of each variant's fight, one unit per fight.
    Exact,
    /// Trials of the plan and of every sweep point.
    Trials,
    /// Heatmap squares.
    Squares,
}

impl Phase {
    /// The unit a progress display counts.
    pub fn unit(self) -> &'static str {
        match self {
            Phase::Exact => "fights",
            Phase::Trials => "trials",
            Phase::Squares => "squares",
        }
    }
}

/// Where a run reports its progress; [`Progress::advance_to`] is called from worker
/// threads, often, so it must be cheap.
pub trait Progress: Sync {
    /// A phase of `total` units starts.
    fn start(&self, phase: Phase, total: u64);
    /// Units of the current phase done so far.
    fn advance_to(&self, done: u64);
    /// The current phase is over.
    fn finish(&self);
}

/// Progress nobody watches.
#[derive(Debug, Clone, Copy, Default)]
pub struct Silent;

impl Progress for Silent {
    fn start(&self, _: Phase, _: u64) {}
    fn advance_to(&self, _: u64) {}
    fn finish(&self) {}
}

/// One experiment file, validated as a run needs it, the engine's configuration the
/// settings make for it, and the inputs its report shows.
#[derive(Debug, Clone)]
pub struct Prepared {
    /// The experiment file.
    pub path: PathBuf,
    /// The file validated, planned and sized.
    pub experiment: Experiment,
    /// Seed and trials (the file's unless a flag overrides them), threads, sampler and
    /// precision: every run of the plan and of its sweep points uses these.
    pub config: EngineConfig,
    /// What the report shows of the file.
    pub inputs: Inputs,
}

/// Reads and validates the experiment file at `path` and makes its engine configuration
/// from `settings`.
pub fn prepare(path: &Path, settings: &Settings) -> Result<Prepared, Error> {
    Prepared::from_scenario(Scenario::load(path)?, settings)
}

/// A run's outcome: its results, and what the user should be told beside them.
#[derive(Debug)]
pub struct Finished {
    /// Every table and note of the run.
    pub results: Results,
    /// Notes for the user, in the order they arose (e.g. a precision not reached).
    pub notes: Vec<String>,
}

impl Prepared {
    /// Validates a loaded scenario and makes its engine configuration from `settings`.
    pub fn from_scenario(scenario: Scenario, settings: &Settings) -> Result<Self, Error> {
        let path = scenario.source.path.clone();
        let experiment = Experiment::validate(scenario)?;
        let config =
            settings.engine_config(experiment.scenario.seed, experiment.scenario.trials)?;
        Ok(Self {
            path,
            inputs: Inputs::new(&experiment.scenario, &experiment.situations),
            experiment,
            config,
        })
    }

    /// Computes a fight's exact figures ([`Phase::Exact`]), simulates the plan and every
    /// sweep point (one [`Phase::Trials`]), then computes the heatmap ([`Phase::Squares`]),
    /// all with [`Prepared::config`] (`settings` gives the outputs the sweep's rows are
    /// kept for), on as many threads as it says; once `stop` is set, the sweep points and
    /// heatmap squares not started are left out and the results are marked interrupted. A
    /// sweep point is planned when it runs and its summary rows are streamed to disk, so
    /// memory does not grow with the number of points.
    pub fn run(
        &self,
        settings: &Settings,
        progress: &dyn Progress,
        stop: &AtomicBool,
    ) -> Result<Finished, Error> {
        let run = || self.run_phases(settings, progress, stop);
        match self.config.threads {
            Some(threads) => on_threads(threads, run),
            None => run(),
        }
    }

    /// [`Prepared::run`]'s phases, on the threads it runs them on.
    fn run_phases(
        &self,
        settings: &Settings,
        progress: &dyn Progress,
        stop: &AtomicBool,
    ) -> Result<Finished, Error> {
        let Experiment {
            scenario,
            plan,
            sweep_points,
            fight,
            ..
        } = &self.experiment;
        let mut exacts = self.exact_fights(progress, stop);
        let runs = 1 + *sweep_points as u64;
        progress.start(Phase::Trials, self.config.trials.saturating_mul(runs));
        let mut notes = self.experiment.unchanged_variants_notes();
        let compared = (!self.experiment.variants.is_empty()).then(|| {
            let (results, note) = run_variants(
                &self.experiment,
                std::mem::take(&mut exacts),
                &self.config,
                &|n| progress.advance_to(n),
                stop,
            );
            notes.extend(note);
            results
        });
        let mut results = match compared {
            Some(results) => results,
            None => {
                let advance = |n| progress.advance_to(n);
                let (results, note) = match (fight, exacts.pop()) {
                    (Some(fight), Some(exact)) => {
                        simulate_fight_results(fight, plan, exact, &self.config, &advance, stop)
                    }
                    _ => simulate(plan, &self.config, &advance, stop),
                };
                notes.extend(note);
                results
            }
        };
        if *sweep_points > 0 {
            results.sweep =
                self.run_sweep(settings, progress, stop, &mut notes, &mut results.not_run)?;
        }
        progress.finish();
        if !stop.load(Ordering::Relaxed) {
            progress.start(Phase::Squares, heatmap_squares(scenario));
            results.heatmap = heatmap(
                scenario,
                self.config.seed,
                &|n| progress.advance_to(n),
                stop,
            );
            progress.finish();
        }
        results.interrupted = stop.load(Ordering::Relaxed);
        Ok(Finished { results, notes })
    }

    /// The exact figures of the fight as written and of each variant's fight, in that
    /// order, computed side by side ([`Phase::Exact`]), each within its own bound
    /// ([`crate::encounter::exact_fight`]); none without a fight. Once `stop` is set, a
    /// fight not started is left without them (one started runs to its end or bound).
    fn exact_fights(
        &self,
        progress: &dyn Progress,
        stop: &AtomicBool,
    ) -> Vec<Result<ExactFight, String>> {
        if self.experiment.fight.is_none() {
            return Vec::new();
        }
        let fights: Vec<&Fight> = (self.experiment.models())
            .filter_map(|(_, fight)| fight)
            .collect();
        progress.start(Phase::Exact, fights.len() as u64);
        let done = AtomicU64::new(0);
        let exacts = (fights.par_iter())
            .map(|fight| {
                let exact = match stop.load(Ordering::Relaxed) {
                    true => Err(EXACT_FIGHT_STOPPED.to_string()),
                    false => exact_fight(fight),
                };
                progress.advance_to(done.fetch_add(1, Ordering::Relaxed) + 1);
                exact
            })
            .collect();
        progress.finish();
        exacts
    }

    /// Runs the sweep points, [`SWEEP_CHUNK`] at a time beside a rerun of the experiment as
    /// written, all on the random numbers of the run, so that the curves are smooth and each
    /// point's difference to the experiment as written is estimated from paired trials.
    /// Each point's rows are streamed to disk once its chunk has run; a stop leaves the
    /// chunks not started out.
    fn run_sweep(
        &self,
        settings: &Settings,
        progress: &dyn Progress,
        stop: &AtomicBool,
        notes: &mut Vec<String>,
        not_run: &mut Vec<String>,
    ) -> Result<Option<SweepRows>, Error> {
        let experiment = &self.experiment;
        let mut points_run = 0;
        let mut misses = Vec::new();
        let mut sweep =
            SweepWriter::new(&experiment.scenario.sweeps, settings.formats, settings.json)?;
        let mut done = self.config.trials;
        for first in (0..experiment.sweep_points).step_by(SWEEP_CHUNK) {
            if stop.load(Ordering::Relaxed) {
                break;
            }
            let points = (first..experiment.sweep_points.min(first + SWEEP_CHUNK))
                .map(|index| experiment.sweep_point(index))
                .collect::<Result<Vec<_>, _>>()?;
            let others = (points.iter()).map(|(_, plan, fight)| (plan, fight.as_ref()));
            let all = std::iter::once(experiment.as_written()).chain(others);
            let compared = compared(experiment, all, None);
            let count = points.len() as u64;
            let advance = |n: u64| progress.advance_to(done + n * count);
            let names = (points.iter()).map(|(assignments, ..)| point_name(assignments));
            let models = 1 + points.len();
            let (rows, results) =
                run_paired(compared, names, 1..models, &self.config, &advance, stop);
            let per_model = rows.len() / models;
            for (point, ((assignments, ..), (results, miss))) in
                points.iter().zip(results).enumerate()
            {
                // The baseline's rows come first: point `point` is model `point + 1`.
                let variants = &rows[(point + 1) * per_model..(point + 2) * per_model];
                misses.extend(miss.map(|m| (point_name(assignments), m)));
                let rows = PointRows {
                    attacks: &results.summary,
                    rounds: &results.rounds,
                    sides: results.fight.as_ref().map_or(&[], |f| &f.sides),
                    variants,
                };
                sweep.push(assignments, rows)?;
                points_run += 1;
            }
            done += self.config.trials * count;
        }
        notes.extend(sweep_precision_note(&misses, points_run));
        if points_run < experiment.sweep_points {
            not_run.push(format!(
                "{} of {} sweep points (the sweep's tables and chart hold the {points_run} run)",
                experiment.sweep_points - points_run,
                experiment.sweep_points
            ));
        }
        sweep.finish()
    }
}

/// Simulates `plan` under `config` and computes its exact figures: the results, and a
/// note when `config.precision` was not reached within the trials allowed.
pub fn simulate(
    plan: &Plan,
    config: &EngineConfig,
    progress: &(dyn Fn(u64) + Sync),
    stop: &AtomicBool,
) -> (Results, Option<String>) {
    let tally = simulate_until(plan, config, progress, stop);
    let exact = exact::compute(plan);
    let results = Results::new(plan, config.seed, &tally, &exact);
    let widest = tally.widest_half_width(plan);
    let miss = precision_miss(config, stop, widest, tally.trials(), &results);
    (results, miss.map(|m| m.to_string()))
}

/// Simulates `fight`, whose exact figures are `exact`: the fight's results (`plan`, its
/// orders as plan lines, gives the rule notes), and a note when `config.precision` was
/// not reached within the trials allowed.
fn simulate_fight_results(
    fight: &Fight,
    plan: &Plan,
    exact: Result<ExactFight, String>,
    config: &EngineConfig,
    progress: &(dyn Fn(u64) + Sync),
    stop: &AtomicBool,
) -> (Results, Option<String>) {
    let tally = simulate_fight(fight, config, progress, stop);
    let results = fight_results(fight, plan, config.seed, &tally, exact);
    let widest = tally.widest_half_width();
    let miss = precision_miss(config, stop, widest, tally.trials(), &results);
    (results, miss.map(|m| m.to_string()))
}

/// A fight's results from its tally and exact figures.
fn fight_results(
    fight: &Fight,
    plan: &Plan,
    seed: u64,
    tally: &FightTally,
    exact: Result<ExactFight, String>,
) -> Results {
    Results::of_fight(plan, seed, fight, tally, exact, fight.run_notes(plan))
}

/// The models a paired run compares, the experiment as written first.
enum Compared<'a> {
    Plans(Vec<&'a Plan>),
    /// Fights, each with its orders as plan lines (which give the rule notes), and their
    /// exact figures (or why there are none), in the same order.
    Fights {
        fights: Vec<(&'a Fight, &'a Plan)>,
        exacts: Vec<Result<ExactFight, String>>,
    },
}

/// Why a fight has no exact column after a stop (Ctrl-C) came before its exact engine.
const EXACT_FIGHT_STOPPED: &str = "the run was stopped before they were computed";

/// Why a sweep point's fight has no exact column: its exact fight may take minutes.
const SWEEP_FIGHT_SIMULATED: &str = "a sweep point's fight is simulated only";

/// Runs `compared` on common random numbers (`others` the names of the models after the
/// baseline, which is named [`BASELINE`]): the rows comparing each model to the baseline
/// (the baseline's own rows first, then each model's in order, as many per model), and
/// the results of the models in `built` (the caller's only: the baseline for variants,
/// the points for a sweep), each with the note when `config.precision` was not reached.
fn run_paired(
    compared: Compared,
    others: impl Iterator<Item = String>,
    built: Range<usize>,
    config: &EngineConfig,
    progress: &(dyn Fn(u64) + Sync),
    stop: &AtomicBool,
) -> (Vec<VariantRow>, Vec<(Results, Option<PrecisionMiss>)>) {
    let names: Vec<String> = std::iter::once(BASELINE.to_string())
        .chain(others)
        .collect();
    let names = names.as_slice();
    let exact_values = |figures: &[Figure], exact: &dyn Fn(usize, Figure) -> Option<f64>| {
        (0..names.len())
            .map(|model| figures.iter().map(|&f| exact(model, f)).collect())
            .collect::<Vec<Vec<Option<f64>>>>()
    };
    match compared {
        Compared::Fights { fights, exacts } => {
            let models: Vec<&Fight> = fights.iter().map(|&(fight, _)| fight).collect();
            let paired = simulate_fights_paired(&models, built.clone(), config, progress, stop);
            let exact = exact_values(paired.figures(), &|model, figure| {
                exacts[model]
                    .as_ref()
                    .ok()
                    .and_then(|e| fight_exact(e, figure))
            });
            let described = FightFigures(models[0]);
            let is_baseline: Vec<bool> = (fights.iter())
                .map(|&(fight, plan)| {
                    is_same_model((plan, Some(fight)), (fights[0].1, Some(fights[0].0)))
                })
                .collect();
            let rows = variant_rows(names, &described, &paired, &exact, &is_baseline);
            let results = (paired.into_tallies().into_iter())
                .zip(exacts)
                .zip(fights)
                .enumerate()
                .filter(|(model, _)| built.contains(model))
                .map(|(_, ((tally, exact), (fight, plan)))| {
                    let results = fight_results(fight, plan, config.seed, &tally, exact);
                    let widest = tally.widest_half_width();
                    let miss = precision_miss(config, stop, widest, tally.trials(), &results);
                    (results, miss)
                })
                .collect();
            (rows, results)
        }
        Compared::Plans(plans) => {
            let paired = simulate_paired(&plans, built.clone(), config, progress, stop);
            let exacts: Vec<exact::Exact> =
                plans.par_iter().map(|plan| exact::compute(plan)).collect();
            let exact = exact_values(paired.figures(), &|model, figure| {
                plan_exact(plans[model], &exacts[model], figure)
            });
            let described = PlanFigures(plans[0]);
            let is_baseline: Vec<bool> = (plans.iter())
                .map(|plan| is_same_model((plan, None), (plans[0], None)))
                .collect();
            let rows = variant_rows(names, &described, &paired, &exact, &is_baseline);
            let results = (paired.into_tallies().into_iter())
                .zip(&exacts)
                .zip(plans)
                .enumerate()
                .filter(|(model, _)| built.contains(model))
                .map(|(_, ((tally, exact), plan))| {
                    let results = Results::new(plan, config.seed, &tally, exact);
                    let widest = tally.widest_half_width(plan);
                    let miss = precision_miss(config, stop, widest, tally.trials(), &results);
                    (results, miss)
                })
                .collect();
            (rows, results)
        }
    }
}

/// `all`, the experiment as written first (each with its plan, and its fight in a
/// fight), in the form a paired run takes them; `exacts`: the fights' exact figures in
/// the same order (`None`: they are simulated only, as a sweep's are).
fn compared<'a>(
    experiment: &'a Experiment,
    all: impl Iterator<Item = (&'a Plan, Option<&'a Fight>)>,
    exacts: Option<Vec<Result<ExactFight, String>>>,
) -> Compared<'a> {
    match experiment.fight {
        Some(_) => {
            let fights: Vec<(&Fight, &Plan)> = all
                .filter_map(|(plan, fight)| fight.map(|fight| (fight, plan)))
                .collect();
            let exacts = exacts.unwrap_or_else(|| {
                (fights.iter())
                    .map(|_| Err(SWEEP_FIGHT_SIMULATED.to_string()))
                    .collect()
            });
            debug_assert_eq!(exacts.len(), fights.len(), "an exact result per fight");
            Compared::Fights { fights, exacts }
        }
        None => Compared::Plans(all.map(|(plan, _)| plan).collect()),
    }
}

/// Runs the experiment as written and every variant on common random numbers: the
/// baseline's results, with every variant's figures and differences in
/// [`Results::variants`], and a note when `config.precision` was not reached.
fn run_variants(
    experiment: &Experiment,
    exacts: Vec<Result<ExactFight, String>>,
    config: &EngineConfig,
    progress: &(dyn Fn(u64) + Sync),
    stop: &AtomicBool,
) -> (Results, Option<String>) {
    let names = experiment.variants.iter().map(|v| v.name.clone());
    let compared = compared(experiment, experiment.models(), Some(exacts));
    let (rows, results) = run_paired(compared, names, 0..1, config, progress, stop);
    let (mut results, miss) = (results.into_iter().next()).expect("the baseline is built");
    results.variants = rows;
    (results, miss.map(|m| m.to_string()))
}

/// Sweep points run at once beside one rerun of the experiment as written: the rerun costs
/// each point an eighth of a run, and only this many points' tallies are in memory.
const SWEEP_CHUNK: usize = 8;

/// A sweep point's name in `sweep_variants.csv`: its fields' values, e.g. `O.ac = 18`.
fn point_name(assignments: &Assignments) -> String {
    (assignments.iter())
        .map(|(path, value)| format!("{path} = {}", display_value(value)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `config.precision` not reached: `--trials` stopped a run after `trials` trials with a
/// widest 95% half-width of `widest`, that of `figure` (see [`widest_figure`]), so the
/// user knows which figure needs more trials.
struct PrecisionMiss {
    precision: f64,
    trials: u64,
    widest: f64,
    figure: Option<String>,
}

impl PrecisionMiss {
    /// `, of P(hit) of …`, or nothing when no figure is named.
    fn of_figure(&self) -> String {
        self.figure
            .as_ref()
            .map_or(String::new(), |name| format!(", of {name}"))
    }
}

impl std::fmt::Display for PrecisionMiss {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "--precision {} not reached: --trials stopped the run after {} trials; the widest 95% half-width is {:.5}{}",
            self.precision,
            self.trials,
            self.widest,
            self.of_figure()
        )
    }
}

/// A run's [`PrecisionMiss`]; none when the precision was reached or after a stop, which
/// is noted on its own.
fn precision_miss(
    config: &EngineConfig,
    stop: &AtomicBool,
    widest: f64,
    trials: u64,
    results: &Results,
) -> Option<PrecisionMiss> {
    let precision = config
        .precision
        .filter(|&precision| !stop.load(Ordering::Relaxed) && widest > precision)?;
    Some(PrecisionMiss {
        precision,
        trials,
        widest,
        figure: widest_figure(results).map(|(name, _)| name),
    })
}

/// One note for the sweep points that missed `--precision` (each with its name), rather
/// than one a point: how many of the `points` missed it, and the widest of them.
fn sweep_precision_note(misses: &[(String, PrecisionMiss)], points: usize) -> Option<String> {
    let (point, widest) = misses
        .iter()
        .max_by(|a, b| a.1.widest.total_cmp(&b.1.widest))?;
    Some(format!(
        "--precision {} not reached at {} of {points} sweep points: --trials stopped each after {} trials; the widest 95% half-width is {:.5}, at {point}{}",
        widest.precision,
        misses.len(),
        widest.trials,
        widest.widest,
        widest.of_figure()
    ))
}

/// The probability of `results` with the widest 95% interval, named as the summary names
/// it, among those `--precision` stops on: each attack's P(hit) and P(crit) (not those
/// made only in another situation) and each target's P(down) and P(dead) by round; in a
/// fight, each side's P(won) and each combatant's status at the end of the last round.
fn widest_figure(results: &Results) -> Option<(String, f64)> {
    let mut figures: Vec<(String, f64)> = Vec::new();
    for row in results.summary.iter().filter(|r| !r.situational) {
        let attack = format!(
            "{} → {}: {} #{}",
            row.attacker, row.target, row.attack, row.index
        );
        figures.push((format!("P(hit) of {attack}"), row.p_hit.half_width()));
        figures.push((format!("P(crit) of {attack}"), row.p_crit.half_width()));
    }
    for row in &results.rounds {
        let when = format!("{} by round {}", row.target, row.round);
        figures.push((format!("P(down) of {when}"), row.p_down.half_width()));
        figures.push((format!("P(dead) of {when}"), row.p_dead.half_width()));
    }
    if let Some(fight) = &results.fight {
        let last = |round: usize| round == fight.rounds;
        for row in fight.encounter.iter().filter(|r| last(r.round)) {
            let name = format!("P(won) of {} by round {}", row.side, row.round);
            figures.push((name, row.p_won.half_width()));
        }
        let statuses = ["up", "disabled", "dying", "stable", "dead"];
        for row in fight.combatants.iter().filter(|r| last(r.round)) {
            for (status, estimate) in statuses.iter().zip(&row.status) {
                let name = format!("P({status}) of {} after round {}", row.combatant, row.round);
                figures.push((name, estimate.half_width()));
            }
        }
    }
    figures.into_iter().max_by(|a, b| a.1.total_cmp(&b.1))
}
