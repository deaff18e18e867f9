//! Variants on common random numbers: the baseline and every variant run trial by trial
//! from the same random state, so that the difference of a figure between a variant and
//! the baseline is estimated from paired trials, whose differences vary far less than two
//! independent runs do.
//!
//! Trial `i` of a block starts every model from one word drawn from the block's stream,
//! so its random state is a function of (seed, block, trial) and the pairing holds
//! whatever the thread count. Every sum is an integer, so tallies merge exactly.

use std::ops::{Add, Mul, Range};

use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

use super::runner::Model;
use crate::stats::Estimate;

/// A figure compared between variants: each is a per-trial count or amount, so its mean
/// over the trials is the figure.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Figure {
    /// A plan's target is down by the end of `round` (1-based).
    TargetDown { target: usize, round: usize },
    /// A plan's target is dead by the end of `round`.
    TargetDead { target: usize, round: usize },
    /// Damage a plan's target has taken by the end of `round`.
    TargetDamage { target: usize, round: usize },
    /// A fight's side has won by the last round.
    SideWon { side: usize },
    /// The round a fight ended in (the last round when it did not end).
    FightLength,
    /// At the end of a fight, a member of the side is not able to act.
    SideLostDown { side: usize },
    /// At the end of a fight, a member of the side is dead.
    SideLostDead { side: usize },
    /// A fight's combatant is not able to act at the end of `round`.
    FighterDown { fighter: usize, round: usize },
    /// A fight's combatant is dead at the end of `round`.
    FighterDead { fighter: usize, round: usize },
    /// Damage a plan line's attacks deal their target over all rounds.
    LineDamage { line: usize },
    /// Damage a fight's combatant has dealt by the last round.
    DamageDealt { fighter: usize },
}

impl Figure {
    /// Whether the figure is a chance (a trial counts 0 or 1) rather than a mean amount.
    pub fn is_chance(self) -> bool {
        !matches!(
            self,
            Figure::TargetDamage { .. }
                | Figure::FightLength
                | Figure::LineDamage { .. }
                | Figure::DamageDealt { .. }
        )
    }
}

/// A model whose trials can run one at a time, each leaving the value of each of its
/// [`Figure`]s, and counted in its own tally only when someone reads that.
pub(crate) trait Pairable: Model {
    /// Buffers a worker reuses from trial to trial, holding the last trial's values.
    type Scratch;

    /// Fresh buffers.
    fn scratch(&self) -> Self::Scratch;

    /// One trial drawn from `rng`, its figures' values left in `scratch`; counted in
    /// `tally` when `COUNTED` (part of the counting may wait in `scratch` until
    /// [`Pairable::settle`]). A trial not counted costs less.
    fn paired_trial<const COUNTED: bool>(
        &self,
        tally: &mut Self::Tally,
        rng: &mut Pcg64Mcg,
        scratch: &mut Self::Scratch,
    );

    /// Completes the counting of the `trials` counted trials run with `scratch`.
    fn settle(&self, tally: &mut Self::Tally, scratch: &mut Self::Scratch, trials: u64);

    /// The last trial's value of each figure, in [`Pairable::figures`] order.
    fn values<'s>(&self, scratch: &'s Self::Scratch) -> &'s [i64];

    /// The figures the model's variants are compared on, in a fixed order.
    fn figures(&self) -> Vec<Figure>;

    /// Whether `figure` means the same in `other` (a plan line's damage only where
    /// `other` has the same line: a variant may replace a combatant's lines).
    fn same_figure(&self, other: &Self, figure: Figure) -> bool;
}

/// Figure values a pass keeps for all models together (256 KiB, within a core's L2 cache).
const PASS_VALUES: usize = 1 << 15;
/// The fewest trials a pass holds, however many figures the models have.
const PASS_LEAST: usize = 16;
/// The most trials a pass holds: a pass's sums of squares then fit in an i64 (see
/// [`PairedModel::simulate`]).
const PASS_MOST: usize = 1 << 10;

/// Per figure: the sum of the per-trial values and of their squares.
type Sums = Vec<(i128, u128)>;

/// The baseline's and every variant's own tally, with the per-trial sums of each figure
/// and of each variant's difference to the baseline.
#[derive(Debug, Clone)]
pub struct PairedTally<T> {
    trials: u64,
    /// The figures compared, in [`Pairable::figures`] order.
    figures: Vec<Figure>,
    /// One per model: the baseline first.
    pub(crate) tallies: Vec<T>,
    /// [model]: each figure's value.
    values: Vec<Sums>,
    /// [model]: per figure, the sum over trials of the model's value times the baseline's,
    /// from which the sum of squared differences follows.
    cross: Vec<Vec<i128>>,
}

impl<T> PairedTally<T> {
    /// The figures compared, in the order [`PairedTally::value`] numbers them.
    pub fn figures(&self) -> &[Figure] {
        &self.figures
    }

    /// Model `model`'s figure number `figure` (in [`Pairable::figures`] order).
    pub fn value(&self, model: usize, figure: usize, is_chance: bool) -> Estimate {
        let (sum, squares) = self.values[model][figure];
        let sum = u128::try_from(sum).unwrap_or(0);
        if is_chance {
            Estimate::proportion(u64::try_from(sum).unwrap_or(u64::MAX), self.trials)
        } else {
            Estimate::mean(sum, squares, self.trials)
        }
    }

    /// Model `model`'s figure minus the baseline's, from the paired trials: the mean
    /// difference with its 95% interval (zero wide when every trial's difference is 0).
    ///
    /// With x the model's value and b the baseline's in each trial, Σ(x − b) = Σx − Σb and
    /// Σ(x − b)² = Σx² + Σb² − 2Σxb: integer identities, so the sums are exact. The
    /// squares are summed modulo 2^128, where the true sum (never negative) fits.
    pub fn difference(&self, model: usize, figure: usize) -> Estimate {
        let ((x, xx), (b, bb)) = (self.values[model][figure], self.values[0][figure]);
        let xb = self.cross[model][figure] as u128;
        let squares = xx.wrapping_add(bb).wrapping_sub(xb.wrapping_mul(2));
        Estimate::paired_difference(x - b, squares, self.trials)
    }

    /// The tallies, the baseline's first.
    pub fn into_tallies(self) -> Vec<T> {
        self.tallies
    }
}

/// The baseline (first) and its variants, run on common random numbers.
pub(crate) struct PairedModel<M> {
    pub(crate) models: Vec<M>,
    figures: Vec<Figure>,
    /// [model]: where each figure compared is among the model's own values; `None` when
    /// they are its first values, in order (then a trial's row is copied at once).
    positions: Vec<Option<Vec<usize>>>,
    /// [model]: whether its own tally is counted (someone reads it); the others only
    /// give their figures' values.
    counted: Vec<bool>,
    /// The figures that are amounts rather than chances, in order.
    amounts: Vec<usize>,
}

impl<M: Pairable> PairedModel<M> {
    /// `models[0]` is the baseline; the figures compared are the baseline's that every
    /// model has and that mean the same in every model. Only the tallies of the models
    /// in `counted` are counted.
    pub(crate) fn new(models: Vec<M>, counted: Range<usize>) -> Self {
        let own: Vec<Vec<Figure>> = models.iter().map(Pairable::figures).collect();
        let figures: Vec<Figure> = match (models.split_first(), own.first()) {
            (Some((baseline, others)), Some(baseline_figures)) => (baseline_figures.iter())
                .copied()
                .filter(|&figure| {
                    (others.iter().zip(&own[1..])).all(|(m, theirs)| {
                        theirs.contains(&figure) && baseline.same_figure(m, figure)
                    })
                })
                .collect(),
            _ => Vec::new(),
        };
        let positions = (own.iter())
            .map(|theirs| {
                let at: Vec<usize> = (figures.iter())
                    .map(|f| theirs.iter().position(|g| g == f).expect("filtered above"))
                    .collect();
                let in_order = at.iter().enumerate().all(|(f, &at)| f == at);
                (!in_order).then_some(at)
            })
            .collect();
        Self {
            counted: (0..models.len()).map(|m| counted.contains(&m)).collect(),
            amounts: (figures.iter().enumerate())
                .filter(|(_, f)| !f.is_chance())
                .map(|(at, _)| at)
                .collect(),
            models,
            figures,
            positions,
        }
    }
}

impl<M: Pairable> Model for PairedModel<M> {
    type Tally = PairedTally<M::Tally>;

    fn empty_tally(&self) -> Self::Tally {
        let (figures, models) = (self.figures.len(), self.models.len());
        PairedTally {
            trials: 0,
            figures: self.figures.clone(),
            tallies: self.models.iter().map(Model::empty_tally).collect(),
            values: vec![vec![(0, 0); figures]; models],
            cross: vec![vec![0; figures]; models],
        }
    }

    /// The runner's chunk goes by passes (of as many trials as keep every model's rows
    /// within [`PASS_VALUES`]): in a pass each model runs every trial in turn from the
    /// same per-trial starting states, keeping each trial's figure values in a row, and
    /// the rows' sums are then taken into one small accumulator per figure. A model's
    /// trials back to back keep its data and branch history warm; a pass's rows, for
    /// every model, stay in the cache.
    fn simulate(&self, tally: &mut Self::Tally, rng: &mut Pcg64Mcg, trials: u64) {
        let figures = self.figures.len();
        let pass_trials =
            (PASS_VALUES / (figures * self.models.len()).max(1)).clamp(PASS_LEAST, PASS_MOST);
        let starts: Vec<Pcg64Mcg> = (0..trials)
            .map(|_| Pcg64Mcg::seed_from_u64(rng.next_u64()))
            .collect();
        let mut scratches: Vec<M::Scratch> = self.models.iter().map(M::scratch).collect();
        // Each its own allocation: `vec![row; n]` would clone an empty row without capacity.
        let mut rows: Vec<Vec<i64>> = (self.models.iter())
            .map(|_| Vec::with_capacity(pass_trials * figures))
            .collect();
        for pass in starts.chunks(pass_trials) {
            for (m, model) in self.models.iter().enumerate() {
                let (own, scratch, rows) = (&mut tally.tallies[m], &mut scratches[m], &mut rows[m]);
                rows.clear();
                for start in pass {
                    if self.counted[m] {
                        model.paired_trial::<true>(own, &mut start.clone(), scratch);
                    } else {
                        model.paired_trial::<false>(own, &mut start.clone(), scratch);
                    }
                    let values = model.values(scratch);
                    match &self.positions[m] {
                        None => rows.extend_from_slice(&values[..figures]),
                        Some(at) => rows.extend(at.iter().map(|&at| values[at])),
                    }
                }
            }
            // Below 2^26 a value's square is below 2^52, so 2^10 trials' sums fit in an i64.
            let widest = (rows.iter().flatten()).fold(0, |bits, x| bits | x.unsigned_abs());
            for (m, rows_m) in rows.iter().enumerate() {
                let (values, cross) = (&mut tally.values[m], &mut tally.cross[m]);
                let baseline = (m > 0).then_some(rows[0].as_slice());
                if widest < 1 << 26 {
                    add_row_sums::<i64>(rows_m, baseline, &self.amounts, values, cross);
                } else {
                    add_row_sums::<i128>(rows_m, baseline, &self.amounts, values, cross);
                }
            }
        }
        for (m, model) in self.models.iter().enumerate() {
            if self.counted[m] {
                model.settle(&mut tally.tallies[m], &mut scratches[m], trials);
            }
        }
        tally.trials += trials;
    }

    fn trial_by_trial(&self) -> bool {
        true
    }

    fn merge(&self, mut tally: Self::Tally, other: Self::Tally) -> Self::Tally {
        tally.trials += other.trials;
        let tallies = std::mem::take(&mut tally.tallies);
        tally.tallies = (self.models.iter())
            .zip(tallies.into_iter().zip(other.tallies))
            .map(|(model, (a, b))| model.merge(a, b))
            .collect();
        for (a, b) in (tally.values.iter_mut().flatten()).zip(other.values.iter().flatten()) {
            a.0 += b.0;
            a.1 += b.1;
        }
        for (a, b) in (tally.cross.iter_mut().flatten()).zip(other.cross.iter().flatten()) {
            *a += b;
        }
        tally
    }

    /// The widest of the counted models' own figures and of every compared chance and
    /// its difference to the baseline: what the run reports.
    fn widest_half_width(&self, tally: &Self::Tally) -> f64 {
        let own = (self.models.iter().zip(&tally.tallies).zip(&self.counted))
            .filter(|(_, counted)| **counted)
            .map(|((model, t), _)| model.widest_half_width(t));
        let chances = (self.figures.iter().enumerate()).filter(|(_, f)| f.is_chance());
        let compared = chances.flat_map(|(f, _)| {
            (0..self.models.len()).map(move |m| {
                let value = tally.value(m, f, true).half_width();
                value.max(tally.difference(m, f).half_width())
            })
        });
        own.chain(compared).fold(0.0, f64::max)
    }

    fn tally_cells(&self) -> u64 {
        let own = 3 * self.figures.len() * self.models.len();
        self.models.iter().map(Model::tally_cells).sum::<u64>() + own as u64
    }
}

/// An integer a pass's row sums build up in: i64 while they cannot wrap, i128 otherwise.
trait Accumulator:
    Copy + Default + From<i64> + Into<i128> + Add<Output = Self> + Mul<Output = Self>
{
}

impl<T> Accumulator for T where
    T: Copy + Default + From<i64> + Into<i128> + Add<Output = T> + Mul<Output = T>
{
}

/// Adds to each figure's sums of x and of x² (`values`) and of x·b (`cross`), where x
/// is its value in one of `rows` and b the baseline's in the same row of `baseline` (`None`
/// when `rows` are the baseline's own, whose x·b is x²), rows of one value per figure; the
/// pass's sums build up in `T`. Only the figures in `amounts` need their squares and
/// products multiplied: every other is a chance, whose values are 0 or 1, so x² = x and
/// x·b = x & b, which adds lane by lane with the sums.
fn add_row_sums<T>(
    rows: &[i64],
    baseline: Option<&[i64]>,
    amounts: &[usize],
    values: &mut [(i128, u128)],
    cross: &mut [i128],
) where
    T: Accumulator,
{
    let figures = values.len();
    if figures == 0 {
        return;
    }
    let mut sums = vec![T::default(); figures];
    // Per figure Σ(x & b): a chance's Σx·b (at most `PASS_MOST` rows of 0 or 1); the
    // amounts' lanes are added alike, wrapping, and not read.
    let mut both = vec![0i64; if baseline.is_some() { figures } else { 0 }];
    let mut squares = vec![T::default(); amounts.len()];
    let mut products = vec![T::default(); if baseline.is_some() { amounts.len() } else { 0 }];
    for (r, row) in rows.chunks_exact(figures).enumerate() {
        match baseline {
            None => {
                for (sum, &x) in sums.iter_mut().zip(row) {
                    *sum = *sum + T::from(x);
                }
            }
            Some(baseline) => {
                let base = &baseline[r * figures..(r + 1) * figures];
                let sums_and_both = sums.iter_mut().zip(both.iter_mut());
                for ((sum, count), (&x, &b)) in sums_and_both.zip(row.iter().zip(base)) {
                    *sum = *sum + T::from(x);
                    *count = count.wrapping_add(x & b);
                }
                for (product, &f) in products.iter_mut().zip(amounts) {
                    *product = *product + T::from(row[f]) * T::from(base[f]);
                }
            }
        }
        for (square, &f) in squares.iter_mut().zip(amounts) {
            let x = T::from(row[f]);
            *square = *square + x * x;
        }
    }
    let mut amount_products = amounts.iter().zip(&products).peekable();
    let mut own_squares = amounts.iter().zip(&squares).peekable();
    for (f, (value, cross)) in values.iter_mut().zip(cross.iter_mut()).enumerate() {
        let sum: i128 = sums[f].into();
        let square: i128 = match own_squares.next_if(|(at, _)| **at == f) {
            Some((_, &square)) => square.into(),
            None => sum,
        };
        value.0 += sum;
        value.1 += square as u128;
        *cross += match baseline {
            None => square,
            Some(_) => match amount_products.next_if(|(at, _)| **at == f) {
                Some((_, &product)) => product.into(),
                None => i128::from(both[f]),
            },
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Three figures: a chance, an amount, a chance; four trials each for the baseline and
    /// a variant. By hand, figure by figure (x the variant's values, b the baseline's):
    /// - chance 0: b = 1,0,1,1 and x = 1,1,0,1: Σb = 3 = Σb², Σx = 3 = Σx², Σxb = 2;
    /// - amount 1: b = 5,0,7,2 and x = 6,0,7,9: Σb = 14, Σb² = 78, Σx = 22, Σx² = 166,
    ///   Σxb = 30 + 0 + 49 + 18 = 97;
    /// - chance 2: b = 0,0,0,1 and x = 0,1,0,1: Σb = 1, Σx = 2, Σxb = 1.
    const BASELINE: [i64; 12] = [1, 5, 0, 0, 0, 0, 1, 7, 0, 1, 2, 1];
    const VARIANT: [i64; 12] = [1, 6, 0, 1, 0, 1, 0, 7, 0, 1, 9, 1];

    fn sums<T>(rows: &[i64], baseline: Option<&[i64]>) -> (Vec<(i128, u128)>, Vec<i128>)
    where
        T: Accumulator,
    {
        let (mut values, mut cross) = (vec![(0, 0); 3], vec![0; 3]);
        add_row_sums::<T>(rows, baseline, &[1], &mut values, &mut cross);
        (values, cross)
    }

    #[test]
    fn row_sums_square_only_the_amounts_and_cross_the_baseline_with_itself() {
        for (values, cross) in [sums::<i64>(&BASELINE, None), sums::<i128>(&BASELINE, None)] {
            assert_eq!(values, [(3, 3), (14, 78), (1, 1)]);
            assert_eq!(cross, [3, 78, 1]);
        }
        for (values, cross) in [
            sums::<i64>(&VARIANT, Some(&BASELINE)),
            sums::<i128>(&VARIANT, Some(&BASELINE)),
        ] {
            assert_eq!(values, [(3, 3), (22, 166), (2, 2)]);
            assert_eq!(cross, [2, 97, 1]);
        }
    }
}
