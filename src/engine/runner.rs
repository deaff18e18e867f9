//! The block runner, the same for every model: trials split into blocks of
//! [`BLOCK_TRIALS`], each block's random stream seeded from (seed, block index), batches of
//! blocks run in parallel by rayon and their tallies merged, the precision stop checked
//! between batches, the stop flag and progress looked at between chunks of a block.
//!
//! What a block simulates is a [`Model`]'s business; the runner never looks inside a
//! tally. Architecture Invariant: a model's tally depends on (model, seed, trials) only —
//! never on the thread count or the scheduling — provided its tallies merge by addition.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use rayon::prelude::*;

use super::EngineConfig;

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
/// that even a model whose block takes minutes answers Ctrl-C and shows its progress at
/// once (4,096 trials of the benchmarked party of four against four take about 10 ms on
/// one thread). Each chunk sets up its buffers afresh and completes its counting, so a
/// chunk spreads that over its trials: 4,096 rather than 256 took 2% off the showcase's
/// trial, batched or paired.
pub(super) const CHUNK_TRIALS: u64 = 4096;

/// What a block of trials simulates, and how its counts are merged and judged: all the
/// runner needs to know of a model.
pub(crate) trait Model: Sync {
    /// Integer counters of some trials; tallies of disjoint blocks merge by addition.
    type Tally: Send;

    /// A tally of no trials.
    fn empty_tally(&self) -> Self::Tally;

    /// Simulates `trials` more trials, drawing from `rng`, and adds them to `tally`
    /// (its trial count included).
    fn simulate(&self, tally: &mut Self::Tally, rng: &mut Pcg64Mcg, trials: u64);

    /// Whether the model draws a block trial after trial, so that simulating it in chunks
    /// draws the same numbers as in one go. When it does not, the runner hands it whole
    /// blocks, which look at the stop flag and report progress only when they end.
    fn trial_by_trial(&self) -> bool;

    /// The sum of two tallies.
    fn merge(&self, tally: Self::Tally, other: Self::Tally) -> Self::Tally;

    /// The widest 95% half-width among the figures reported, for `--precision`.
    fn widest_half_width(&self, tally: &Self::Tally) -> f64;

    /// The counters one tally holds, which bounds the threads run at once.
    fn tally_cells(&self) -> u64;
}

/// Runs `config.trials` trials of `model` and returns the merged tally. `progress` is
/// called from the worker threads with the number of trials done so far, every
/// [`CHUNK_TRIALS`] trials or so. Once `stop` is set, blocks not yet started are skipped
/// and running ones end after their current chunk; the first chunk always completes, so
/// a stopped tally is never empty.
pub(crate) fn run<M: Model>(
    model: &M,
    config: &EngineConfig,
    progress: &(dyn Fn(u64) + Sync),
    stop: &AtomicBool,
) -> M::Tally {
    let done = AtomicU64::new(0);
    let report = |trials| progress(done.fetch_add(trials, Ordering::Relaxed) + trials);
    let run = || {
        let blocks = config.trials.div_ceil(BLOCK_TRIALS);
        let mut tally = model.empty_tally();
        let mut next = 0;
        while next < blocks {
            let end = (next + BATCH_BLOCKS).min(blocks);
            let batch = (next..end)
                .into_par_iter()
                .map(|block| {
                    if block > 0 && stop.load(Ordering::Relaxed) {
                        return model.empty_tally();
                    }
                    let trials = BLOCK_TRIALS.min(config.trials - block * BLOCK_TRIALS);
                    let rng = block_rng(config.seed, block);
                    run_block(model, rng, trials, &report, stop)
                })
                .reduce(|| model.empty_tally(), |a, b| model.merge(a, b));
            tally = model.merge(tally, batch);
            next = end;
            if stop.load(Ordering::Relaxed)
                || config
                    .precision
                    .is_some_and(|e| model.widest_half_width(&tally) <= e)
            {
                break;
            }
        }
        tally
    };
    let by_memory = (MAX_LIVE_CELLS / model.tally_cells().saturating_mul(2).max(1)).max(1);
    let threads = config
        .threads
        .unwrap_or_else(rayon::current_num_threads)
        .min(MAX_THREADS)
        .min(usize::try_from(by_memory).unwrap_or(MAX_THREADS));
    on_threads(threads, run)
}

/// `run` on a rayon pool of `threads` threads: the current one when it has as many, else
/// a new one (the current one if that cannot be built).
pub(crate) fn on_threads<R: Send>(threads: usize, run: impl FnOnce() -> R + Send) -> R {
    if threads == rayon::current_num_threads() {
        return run();
    }
    match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(pool) => pool.install(run),
        Err(_) => run(),
    }
}

/// One block: its trials in chunks, with progress reported and the stop flag looked at
/// after each.
fn run_block<M: Model>(
    model: &M,
    mut rng: Pcg64Mcg,
    trials: u64,
    progress: &(dyn Fn(u64) + Sync),
    stop: &AtomicBool,
) -> M::Tally {
    let mut tally = model.empty_tally();
    let chunk = if model.trial_by_trial() {
        CHUNK_TRIALS
    } else {
        trials
    };
    let mut done = 0;
    while done < trials {
        let trials = chunk.min(trials - done);
        model.simulate(&mut tally, &mut rng, trials);
        done += trials;
        progress(trials);
        if stop.load(Ordering::Relaxed) {
            break;
        }
    }
    tally
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

#[cfg(test)]
mod tests {
    use rand::Rng;

    use super::*;

    #[test]
    fn block_streams_differ_by_block_and_seed() {
        let first = |seed, block| block_rng(seed, block).next_u64();
        assert_ne!(first(0, 0), first(0, 1));
        assert_ne!(first(0, 0), first(1, 0));
        assert_eq!(first(5, 9), first(5, 9));
    }
}
