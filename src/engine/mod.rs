//! Monte Carlo over a [`Plan`]: fixed-size blocks of trials, each with its own random
//! stream seeded from (seed, block index), run in parallel by rayon and merged as integer
//! tallies. The numbers therefore depend on the seed and the trial count, never on the
//! number of threads, and memory does not grow with the number of trials.
//!
//! ```
//! use d20odds::attack::AttackProfile;
//! use d20odds::engine::{simulate, EngineConfig};
//! use d20odds::plan::{LineAttack, LineDefence, Plan, Situation, Target};
//! use d20odds::rules::SystemId;
//! let mut plan = Plan::empty("demo", SystemId::Pf1, 7, 100_000, 1);
//! plan.targets.push(Target::new("ogre".into(), Some(30), None));
//! let attack = LineAttack::plain(
//!     "fighter", "sword", true, vec![7], "1d8+3".parse().unwrap(), "19-20/x2".parse().unwrap(),
//! );
//! let defence = LineDefence::plain(0, 18, false);
//! plan.add_line(SystemId::Pf1.rules(), attack, defence, Situation::default()).unwrap();
//! let tally = simulate(&plan, &EngineConfig::new(plan.trials), &|_| ());
//! assert_eq!(tally.trials, 100_000);
//! ```

mod alias;
mod tally;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use rayon::prelude::*;

use crate::attack::{AttackProfile, OutcomeLayout};
use crate::plan::{Plan, Target};
use crate::stats::Estimate;
pub use alias::AliasTable;
pub use tally::{
    MAX_TALLY_CELLS, RoundTally, Tally, check_tally_size, max_damage_taken, tally_cells,
};

/// Trials per block: the unit of seeding, parallel work and `--precision` stopping.
pub const BLOCK_TRIALS: u64 = 1 << 16;
/// Blocks run between two precision checks.
const BATCH_BLOCKS: u64 = 32;
/// Most worker threads a run may ask for (`--threads`).
pub const MAX_THREADS: usize = 256;
/// Most tally counters alive at once (256 MiB): every worker holds about two tallies (the
/// block it runs and the merge of its share), so a large tally runs on fewer threads and
/// memory does not grow with `--threads`.
pub const MAX_LIVE_CELLS: u64 = 1 << 25;

/// Trials between two looks at the stop flag and two progress reports inside a block, so
/// that even a plan whose block takes minutes answers Ctrl-C and shows its progress at once.
const CHUNK_TRIALS: u64 = 64;

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

/// How much to simulate and with what.
#[derive(Debug, Clone, PartialEq)]
pub struct EngineConfig {
    /// Most trials to run.
    pub trials: u64,
    /// Worker threads; `None` uses rayon's default (one per core).
    pub threads: Option<usize>,
    pub sampler: SamplerKind,
    /// Stop (at a batch boundary) once every reported probability's 95% half-width is at
    /// most this.
    pub precision: Option<f64>,
}

impl EngineConfig {
    pub fn new(trials: u64) -> Self {
        Self {
            trials,
            threads: None,
            sampler: SamplerKind::Table,
            precision: None,
        }
    }
}

/// Runs the plan and returns the merged tally. `progress` is called from the worker
/// threads with the number of trials done so far, every [`CHUNK_TRIALS`] trials or so.
pub fn simulate(plan: &Plan, config: &EngineConfig, progress: &(dyn Fn(u64) + Sync)) -> Tally {
    simulate_until(plan, config, progress, &AtomicBool::new(false))
}

/// [`simulate`], stopping early once `stop` is set (by a Ctrl-C handler): blocks not yet
/// started are skipped and running ones end after their current chunk of
/// [`CHUNK_TRIALS`] trials, so the tally holds the trials that completed. The first chunk
/// always completes, so an interrupted tally is never empty.
pub fn simulate_until(
    plan: &Plan,
    config: &EngineConfig,
    progress: &(dyn Fn(u64) + Sync),
    stop: &AtomicBool,
) -> Tally {
    let kernels = Kernels::new(plan, config.sampler);
    let done = AtomicU64::new(0);
    let watch = Watch {
        stop,
        progress: &|trials| progress(done.fetch_add(trials, Ordering::Relaxed) + trials),
    };
    let run = || {
        let blocks = config.trials.div_ceil(BLOCK_TRIALS);
        let mut tally = Tally::zero(plan);
        let mut next = 0;
        while next < blocks {
            let end = (next + BATCH_BLOCKS).min(blocks);
            let batch = (next..end)
                .into_par_iter()
                .map(|block| {
                    if block > 0 && stop.load(Ordering::Relaxed) {
                        return Tally::zero(plan);
                    }
                    let trials = BLOCK_TRIALS.min(config.trials - block * BLOCK_TRIALS);
                    kernels.run_block(plan, block_rng(plan.seed, block), trials, &watch)
                })
                .reduce(|| Tally::zero(plan), Tally::merge);
            tally = tally.merge(batch);
            next = end;
            if stop.load(Ordering::Relaxed)
                || config
                    .precision
                    .is_some_and(|e| widest_half_width(plan, &tally) <= e)
            {
                break;
            }
        }
        tally
    };
    let by_memory = (MAX_LIVE_CELLS / tally_cells(plan).saturating_mul(2).max(1)).max(1);
    let threads = config
        .threads
        .unwrap_or_else(rayon::current_num_threads)
        .min(MAX_THREADS)
        .min(usize::try_from(by_memory).unwrap_or(MAX_THREADS));
    if threads == rayon::current_num_threads() {
        return run();
    }
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_or_else(|_| run(), |pool| pool.install(run))
}

/// What a running block reports to and looks at between chunks of trials.
struct Watch<'a> {
    stop: &'a AtomicBool,
    /// Called with the trials of each finished chunk.
    progress: &'a (dyn Fn(u64) + Sync),
}

/// The random stream of one block: a function of the seed and the block index only.
fn block_rng(seed: u64, block: u64) -> Pcg64Mcg {
    Pcg64Mcg::seed_from_u64(splitmix64(splitmix64(seed) ^ block))
}

fn splitmix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The widest 95% half-width among the probabilities a report shows.
pub fn widest_half_width(plan: &Plan, tally: &Tally) -> f64 {
    let mut widest: f64 = 0.0;
    for (slot, s) in plan.slots.iter().enumerate() {
        let layout = s.profile.layout();
        let counts = &tally.outcomes[slot];
        let made = tally.attacks_made(slot);
        let hits = count_where(counts, |i| layout.is_hit(i));
        let crits = count_where(counts, |i| layout.is_crit(i));
        widest = widest
            .max(Estimate::proportion(hits, made).half_width())
            .max(Estimate::proportion(crits, made).half_width());
    }
    for (t, rounds) in tally.rounds.iter().enumerate() {
        if plan.targets[t].down_at.is_none() {
            continue;
        }
        for r in rounds {
            widest = widest
                .max(Estimate::proportion(r.down, tally.trials).half_width())
                .max(Estimate::proportion(r.dead, tally.trials).half_width());
        }
    }
    widest
}

/// Sum of the counts whose outcome index satisfies `keep`.
pub fn count_where(counts: &[u64], keep: impl Fn(usize) -> bool) -> u64 {
    counts
        .iter()
        .enumerate()
        .filter(|&(i, _)| keep(i))
        .map(|(_, c)| c)
        .sum()
}

/// How one slot's attacks are drawn.
enum Draw<'a> {
    Table(AliasTable),
    Dice(&'a AttackProfile, OutcomeLayout),
}

/// Per-slot data the inner loop reads.
struct Kernel<'a> {
    target: usize,
    draw: Draw<'a>,
    /// Damage the target takes from each outcome index.
    damage: Vec<i64>,
    /// Whether each outcome index kills outright (a failed coup-de-grace save).
    slays: Vec<bool>,
    /// Whether each outcome index drops the target to −1 hp (failed massive-damage save).
    drops: Vec<bool>,
    /// The creature struck instead (giving cover, or grappling with the target), when
    /// the attack can strike it (d20 Modern).
    cover: Option<CoverKernel>,
    /// The attack is made only at the end of every `period`-th round.
    period: usize,
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

/// What the creature struck instead takes from each outcome index.
struct CoverKernel {
    target: usize,
    damage: Vec<i64>,
    drops: Vec<bool>,
}

struct Kernels<'a> {
    slots: Vec<Kernel<'a>>,
    targets: &'a [Target],
    /// Per target: damage taken at which it is down (`i64::MAX` = never).
    down_at: Vec<i64>,
    rounds: usize,
    /// Every target is attacked once, in a single round: see [`Kernels::run_single_draws`].
    single_draws: bool,
}

impl<'a> Kernels<'a> {
    fn new(plan: &'a Plan, sampler: SamplerKind) -> Self {
        let slots = plan
            .slots
            .iter()
            .map(|s| {
                let layout = s.profile.layout();
                let draw = match (sampler, s.profile.outcomes()) {
                    (SamplerKind::Table, Some(table)) => Draw::Table(AliasTable::new(&table.probs)),
                    _ => Draw::Dice(&s.profile, layout),
                };
                Kernel {
                    target: s.target,
                    draw,
                    damage: (0..layout.len()).map(|i| layout.damage(i)).collect(),
                    slays: (0..layout.len()).map(|i| layout.slays(i)).collect(),
                    drops: (0..layout.len()).map(|i| layout.drops(i)).collect(),
                    cover: s
                        .covering
                        .filter(|_| layout.can_strike())
                        .map(|target| CoverKernel {
                            target,
                            damage: (0..layout.len()).map(|i| layout.struck_damage(i)).collect(),
                            drops: (0..layout.len()).map(|i| layout.struck_drops(i)).collect(),
                        }),
                    period: s.period.max(1) as usize,
                }
            })
            .collect::<Vec<_>>();
        let single_draws = plan.rounds == 1
            && (0..plan.targets.len()).all(|t| plan.slots_against(t).count() == 1)
            && slots.iter().all(|k| k.cover.is_none() && k.period == 1);
        Self {
            slots,
            targets: &plan.targets,
            down_at: plan
                .targets
                .iter()
                .map(|t| t.down_at.unwrap_or(i64::MAX))
                .collect(),
            rounds: plan.rounds as usize,
            single_draws,
        }
    }

    fn run_block(&self, plan: &Plan, mut rng: Pcg64Mcg, trials: u64, watch: &Watch) -> Tally {
        let mut tally = Tally::zero(plan);
        tally.trials = trials;
        if self.single_draws {
            self.run_single_draws(&mut tally, &mut rng);
            (watch.progress)(trials);
        } else {
            let mut done = 0;
            while done < trials {
                let chunk = CHUNK_TRIALS.min(trials - done);
                self.run_trials(&mut tally, &mut rng, chunk);
                done += chunk;
                (watch.progress)(chunk);
                if watch.stop.load(Ordering::Relaxed) {
                    break;
                }
            }
            tally.trials = done;
        }
        tally
    }

    /// The general case: `trials` trials of rounds of the plan, tracking damage per
    /// target, added to `tally` (whose trial count the caller keeps).
    fn run_trials(&self, tally: &mut Tally, rng: &mut Pcg64Mcg, trials: u64) {
        let targets = self.down_at.len();
        let mut taken = vec![0i64; targets];
        let mut dead = vec![false; targets];
        for _ in 0..trials {
            taken.fill(0);
            dead.fill(false);
            for round in 0..self.rounds {
                for (s, kernel) in self.slots.iter().enumerate() {
                    let t = kernel.target;
                    if dead[t] || (kernel.period > 1 && (round + 1) % kernel.period != 0) {
                        continue;
                    }
                    let outcome = kernel.draw(rng);
                    tally.outcomes[s][outcome] += 1;
                    let (after, died) = self.targets[t].take(
                        taken[t],
                        kernel.damage[outcome],
                        kernel.drops[outcome],
                    );
                    taken[t] = after;
                    dead[t] = died || kernel.slays[outcome];
                    if let Some(cover) = &kernel.cover
                        && cover.damage[outcome] > 0
                        && !dead[cover.target]
                    {
                        let c = cover.target;
                        (taken[c], dead[c]) = self.targets[c].take(
                            taken[c],
                            cover.damage[outcome],
                            cover.drops[outcome],
                        );
                    }
                }
                for t in 0..targets {
                    let r = &mut tally.rounds[t][round];
                    r.down += u64::from(dead[t] || taken[t] >= self.down_at[t]);
                    r.dead += u64::from(dead[t]);
                    let d = taken[t] as u128;
                    r.damage_sum += d;
                    r.damage_squares += d * d;
                }
            }
            for (histogram, &total) in tally.damage.iter_mut().zip(&taken) {
                histogram[total as usize] += 1;
            }
        }
    }

    /// Invariant: one round, and every target is the target of exactly one slot. Then no
    /// attack can be skipped (nothing dies before its only attack) and each trial's damage
    /// to a target is that one attack's damage, so drawing each slot `trials` times and
    /// deriving the per-target tallies from the outcome counts is the same experiment.
    fn run_single_draws(&self, tally: &mut Tally, rng: &mut Pcg64Mcg) {
        for (s, kernel) in self.slots.iter().enumerate() {
            let counts = &mut tally.outcomes[s];
            match &kernel.draw {
                Draw::Table(table) => {
                    for _ in 0..tally.trials {
                        counts[table.pick(rng.next_u64())] += 1;
                    }
                }
                Draw::Dice(..) => {
                    for _ in 0..tally.trials {
                        counts[kernel.draw(rng)] += 1;
                    }
                }
            }
            let t = kernel.target;
            let r = &mut tally.rounds[t][0];
            for (outcome, &count) in counts.iter().enumerate() {
                let (d, died) =
                    self.targets[t].take(0, kernel.damage[outcome], kernel.drops[outcome]);
                let dead = died || kernel.slays[outcome];
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn block_streams_differ_by_block_and_seed() {
        let first = |seed, block| block_rng(seed, block).next_u64();
        assert_ne!(first(0, 0), first(0, 1));
        assert_ne!(first(0, 0), first(1, 0));
        assert_eq!(first(5, 9), first(5, 9));
    }

    #[test]
    fn a_stop_keeps_the_first_chunk_and_skips_the_rest() {
        use crate::plan::{LineAttack, LineDefence, Situation, Target};
        use crate::rules::SystemId;
        let mut plan = Plan::empty("stop", SystemId::Pf1, 3, 10 * BLOCK_TRIALS, 2);
        plan.targets.push(Target::new("T".into(), Some(20), None));
        let attack = LineAttack::plain(
            "A",
            "a",
            true,
            vec![5],
            "1d8".parse().unwrap(),
            Default::default(),
        );
        let defence = LineDefence::plain(0, 15, false);
        plan.add_line(SystemId::Pf1.rules(), attack, defence, Situation::default())
            .unwrap();
        let config = EngineConfig::new(plan.trials);
        let stopped = simulate_until(&plan, &config, &|_| (), &AtomicBool::new(true));
        assert_eq!(stopped.trials, CHUNK_TRIALS);
        assert_eq!(simulate(&plan, &config, &|_| ()).trials, plan.trials);
    }
}
