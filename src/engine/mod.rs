//! Monte Carlo over a [`Plan`]: fixed-size blocks of trials, each with its own random
//! stream seeded from (seed, block index), run in parallel by rayon and merged as integer
//! tallies. The numbers therefore depend on the seed and the trial count, never on the
//! number of threads, and memory does not grow with the number of trials.
//!
//! The block runner (`runner.rs`: seeding, batches, merging, the precision stop, the stop
//! flag, progress) knows nothing of attacks; what a block of a plan simulates is the
//! attack model (`plan_model.rs`), and its counts become figures only in [`Tally`].
//!
//! ```
//! use d20odds::{simulate, EngineConfig};
//! use d20odds::{LineAttack, LineDefence, PlanBuilder, Situation, Target};
//! use d20odds::SystemId;
//! let mut plan = PlanBuilder::new("demo", SystemId::Pf1, 1);
//! let ogre = plan.add_target(Target::new("ogre".into(), Some(30), None));
//! let attack = LineAttack::plain(
//!     "fighter", "sword", true, vec![7], "1d8+3".parse().unwrap(), "19-20/x2".parse().unwrap(),
//! );
//! let defence = LineDefence::plain(ogre, 18, false);
//! plan.add_line(SystemId::Pf1.rules(), attack, defence, Situation::default(), None).unwrap();
//! let plan = plan.build();
//! let tally = simulate(&plan, &EngineConfig::new(7, 100_000), &|_| ());
//! assert_eq!(tally.trials(), 100_000);
//! let p_hit = tally.slot(&plan, 0).hit().estimate();
//! assert!(p_hit.lo < p_hit.point && p_hit.point < p_hit.hi);
//! ```

mod alias;
mod paired;
mod plan_model;
mod runner;
mod tally;

use std::ops::Range;
use std::sync::atomic::AtomicBool;

use crate::plan::Plan;
pub use alias::{AliasTable, CoupledTable};
pub use paired::{Figure, PairedTally};
pub(crate) use paired::{Pairable, PairedModel, TrialValues};
use plan_model::PlanModel;
pub use runner::MAX_THREADS;
pub(crate) use runner::{Model, on_threads, run as run_model};
pub use tally::{
    MeanSample, Proportion, SlotFigures, Tally, check_tally_size, max_damage_taken, tally_cells,
};

/// How one attack is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SamplerKind {
    /// One random word per attack, looked up in the attack's exact outcome table
    /// (falls back to dice for expressions too large to tabulate).
    #[default]
    Table,
    /// d20, confirmation d20, d% and every damage die rolled separately.
    Dice,
}

/// How much to simulate and with what: the run's configuration, which the plan does not
/// hold.
#[derive(Debug, Clone, PartialEq)]
pub struct EngineConfig {
    /// Seeds every block's random stream: same seed and trials, same numbers.
    pub seed: u64,
    /// Most trials to run.
    pub trials: u64,
    /// Worker threads; `None` uses rayon's default (one per core).
    pub threads: Option<usize>,
    /// How an attack's outcome is drawn (the same numbers either way, in distribution).
    pub sampler: SamplerKind,
    /// Stop (at a batch boundary) once every reported probability's 95% half-width is at
    /// most this.
    pub precision: Option<f64>,
}

impl EngineConfig {
    /// A configuration with the given seed and trials, the default sampler, threads and no precision stop.
    pub fn new(seed: u64, trials: u64) -> Self {
        Self {
            seed,
            trials,
            threads: None,
            sampler: SamplerKind::Table,
            precision: None,
        }
    }
}

/// Runs the plan and returns the merged tally. `progress` is called from the worker
/// threads with the number of trials done so far, every 4,096 trials or so.
pub fn simulate(plan: &Plan, config: &EngineConfig, progress: &(dyn Fn(u64) + Sync)) -> Tally {
    simulate_until(plan, config, progress, &AtomicBool::new(false))
}

/// [`simulate`], stopping early once `stop` is set (by a Ctrl-C handler): blocks not yet
/// started are skipped and running ones end after their current chunk of 4,096 trials, so
/// the tally holds the trials that completed. The first chunk always completes, so an
/// interrupted tally is never empty.
pub fn simulate_until(
    plan: &Plan,
    config: &EngineConfig,
    progress: &(dyn Fn(u64) + Sync),
    stop: &AtomicBool,
) -> Tally {
    runner::run(
        &PlanModel::new(plan, config.sampler),
        config,
        progress,
        stop,
    )
}

/// The baseline plan (first) and its variants, run on common random numbers.
/// Only the models in `counted` get their own tally counted (the others' stay empty):
/// the rest give their figures' values only, which costs less.
pub fn simulate_paired(
    plans: &[&Plan],
    counted: Range<usize>,
    config: &EngineConfig,
    progress: &(dyn Fn(u64) + Sync),
    stop: &AtomicBool,
) -> PairedTally<Tally> {
    let models = plans
        .iter()
        .map(|plan| PlanModel::new(plan, config.sampler))
        .collect();
    runner::run(&PairedModel::new(models, counted), config, progress, stop)
}

#[cfg(test)]
mod tests {
    use super::runner::{BLOCK_TRIALS, CHUNK_TRIALS};
    use super::*;
    use rand::SeedableRng;
    use rand_pcg::Pcg64Mcg;

    #[test]
    fn a_stop_keeps_the_first_chunk_and_skips_the_rest() {
        use crate::plan::{LineAttack, Target};
        use crate::rules::SystemId;
        let attack = LineAttack::plain(
            "A",
            "a",
            true,
            vec![5],
            "1d8".parse().unwrap(),
            Default::default(),
        );
        let target = Target::new("T".into(), Some(20), None);
        let plan = Plan::single(SystemId::Pf1, 2, target, attack, 15, false);
        let config = EngineConfig::new(3, 10 * BLOCK_TRIALS);
        let stopped = simulate_until(&plan, &config, &|_| (), &AtomicBool::new(true));
        assert_eq!(stopped.trials(), CHUNK_TRIALS);
        assert_eq!(simulate(&plan, &config, &|_| ()).trials(), config.trials);
    }

    /// One attacker's `bonus` attack (1d8, crit 20/x2) on 6 hp at AC 15, two rounds.
    fn duel(bonus: i32) -> Plan {
        use crate::plan::{LineAttack, Target};
        use crate::rules::SystemId;
        let attack = LineAttack::plain(
            "A",
            "a",
            true,
            vec![bonus],
            "1d8".parse().unwrap(),
            Default::default(),
        );
        let target = Target::new("T".into(), Some(6), None);
        Plan::single(SystemId::Pf1, 2, target, attack, 15, false)
    }

    /// A paired run counts only the tallies its caller reads; the others' models still
    /// give their figures, the same as when counted, and `--precision` looks at those
    /// figures and their differences. A +5 and a +10 attack. The variant not counted skips
    /// the trials that repeat the baseline's (about 56% of them, see below), so this also
    /// checks that its sums are exactly those of playing every trial.
    #[test]
    fn a_paired_run_counts_only_the_tallies_read() {
        let (baseline, variant) = (duel(5), duel(10));
        let config = EngineConfig::new(3, 3 * CHUNK_TRIALS);
        let run = |counted| {
            let models = [&baseline, &variant].map(|p| PlanModel::new(p, SamplerKind::Table));
            let model = PairedModel::new(models.into(), counted);
            let tally = runner::run(&model, &config, &|_| (), &AtomicBool::new(false));
            (model.widest_half_width(&tally), tally)
        };
        let (widest, one) = run(0..1);
        let (_, both) = run(0..2);
        assert_eq!(one.tallies[0].trials(), config.trials);
        assert_eq!(
            one.tallies[1].trials(),
            0,
            "the variant's tally is not counted"
        );
        assert_eq!(both.tallies[1].trials(), config.trials);
        // Round 1's attack is always made, so a counted tally's outcome counts (kept in
        // each chunk's scratch until it settles) hold at least one attack a trial.
        for (tally, plan) in [(&one.tallies[0], &baseline), (&both.tallies[1], &variant)] {
            assert!(tally.slot(plan, 0).made() >= config.trials);
        }
        one.assert_same_as(&both, 1, "");
        for (f, figure) in one.figures().iter().enumerate() {
            if figure.is_chance() {
                assert!(
                    widest >= one.difference(1, f, true).half_width(),
                    "{figure:?}"
                );
                assert!(widest >= one.value(1, f, true).half_width(), "{figure:?}");
            }
        }
        assert!(
            one.difference(1, 0, true).point > 0.0,
            "+10 downs the target more often"
        );
    }

    /// The +10 variant of a +5 attack repeats the baseline's trial when both rounds'
    /// words keep the baseline's outcome. By hand, in 400ths (d20, then a confirmation
    /// roll on a 20): +5 misses 180, hits 209, crits 11; +10 misses 80, hits 304, crits
    /// 16. Damage given a hit or a crit is the same, so a word keeps its outcome with
    /// probability Σ min = (80 + 209 + 11)/400 = 3/4, and a trial repeats with (3/4)² =
    /// 0.5625, a round's word read whether the attack is made or not.
    #[test]
    fn a_coupled_variant_repeats_the_baseline_where_every_word_keeps_its_outcome() {
        let (baseline, variant) = (duel(5), duel(10));
        let models = [&baseline, &variant].map(|p| PlanModel::new(p, SamplerKind::Table));
        let paired = PairedModel::new(models.into(), 0..1);
        let trials = 100_000;
        let repeats = (0..trials)
            .filter(|&i| paired.models[1].repeats_baseline(&Pcg64Mcg::seed_from_u64(i), 0, None))
            .count();
        let share = repeats as f64 / trials as f64;
        let z = (share - 0.5625) / (0.5625 * 0.4375 / trials as f64).sqrt();
        assert!(z.abs() <= 5.0, "share {share}, z = {z:.2}");
    }
}
