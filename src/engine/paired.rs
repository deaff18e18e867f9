//! Variants on common random numbers: the baseline and every variant run trial by trial
//! from the same random state, so that the difference of a figure between a variant and
//! the baseline is estimated from paired trials, whose differences vary far less than two
//! independent runs do.
//!
//! Trial `i` of a block starts every model from one word drawn from the block's stream,
//! so its random state is a function of (seed, block, trial) and the pairing holds
//! whatever the thread count. Every sum is an integer, so tallies merge exactly.

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

/// A model whose trials can run one at a time, each counted at once, and whose tally
/// can be read as running sums of its [`Figure`]s.
pub(crate) trait Pairable: Model {
    /// Buffers a worker reuses from trial to trial.
    type Scratch;

    /// Fresh buffers.
    fn scratch(&self) -> Self::Scratch;

    /// One trial drawn from `rng`, counted in `tally` completely (nothing deferred).
    fn one_trial(&self, tally: &mut Self::Tally, rng: &mut Pcg64Mcg, scratch: &mut Self::Scratch);

    /// The figures the model's variants are compared on, in a fixed order.
    fn figures(&self) -> Vec<Figure>;

    /// Whether `figure` means the same in `other` (a plan line's damage only where
    /// `other` has the same line: a variant may replace a combatant's lines).
    fn same_figure(&self, other: &Self, figure: Figure) -> bool;

    /// `figure`'s sum over the trials of `tally`.
    fn sum(&self, tally: &Self::Tally, figure: Figure) -> i128;
}

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
    /// [model]: each figure's difference to the baseline (the baseline's is zero).
    differences: Vec<Sums>,
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
    pub fn difference(&self, model: usize, figure: usize) -> Estimate {
        let (sum, squares) = self.differences[model][figure];
        Estimate::paired_difference(sum, squares, self.trials)
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
}

impl<M: Pairable> PairedModel<M> {
    /// `models[0]` is the baseline; the figures compared are the baseline's that mean the
    /// same in every model.
    pub(crate) fn new(models: Vec<M>) -> Self {
        let figures = match models.split_first() {
            Some((baseline, others)) => (baseline.figures().into_iter())
                .filter(|&figure| others.iter().all(|m| baseline.same_figure(m, figure)))
                .collect(),
            None => Vec::new(),
        };
        Self { models, figures }
    }

    /// Every figure's running sum in `tally`.
    fn sums(&self, model: &M, tally: &M::Tally, out: &mut [i128]) {
        for (o, &figure) in out.iter_mut().zip(&self.figures) {
            *o = model.sum(tally, figure);
        }
    }
}

impl<M: Pairable> Model for PairedModel<M> {
    type Tally = PairedTally<M::Tally>;

    fn empty_tally(&self) -> Self::Tally {
        let zeros = vec![vec![(0, 0); self.figures.len()]; self.models.len()];
        PairedTally {
            trials: 0,
            figures: self.figures.clone(),
            tallies: self.models.iter().map(Model::empty_tally).collect(),
            values: zeros.clone(),
            differences: zeros,
        }
    }

    fn simulate(&self, tally: &mut Self::Tally, rng: &mut Pcg64Mcg, trials: u64) {
        let figures = self.figures.len();
        let mut scratch: Vec<M::Scratch> = self.models.iter().map(Pairable::scratch).collect();
        let mut before = vec![0i128; figures * self.models.len()];
        let mut after = before.clone();
        for (m, model) in self.models.iter().enumerate() {
            let range = m * figures..(m + 1) * figures;
            self.sums(model, &tally.tallies[m], &mut before[range]);
        }
        for _ in 0..trials {
            let start = rng.next_u64();
            for (m, model) in self.models.iter().enumerate() {
                let mut trial_rng = Pcg64Mcg::seed_from_u64(start);
                model.one_trial(&mut tally.tallies[m], &mut trial_rng, &mut scratch[m]);
                let range = m * figures..(m + 1) * figures;
                self.sums(model, &tally.tallies[m], &mut after[range]);
            }
            for m in 0..self.models.len() {
                for f in 0..figures {
                    let x = after[m * figures + f] - before[m * figures + f];
                    let baseline = after[f] - before[f];
                    // Most trials leave most figures where they were: nothing to add.
                    if x == 0 && baseline == 0 {
                        continue;
                    }
                    let d = x - baseline;
                    let value = &mut tally.values[m][f];
                    value.0 += x;
                    value.1 += x.unsigned_abs().pow(2);
                    let difference = &mut tally.differences[m][f];
                    difference.0 += d;
                    difference.1 += d.unsigned_abs().pow(2);
                }
            }
            std::mem::swap(&mut before, &mut after);
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
        for (mine, theirs) in [
            (&mut tally.values, &other.values),
            (&mut tally.differences, &other.differences),
        ] {
            for (a, b) in mine.iter_mut().flatten().zip(theirs.iter().flatten()) {
                a.0 += b.0;
                a.1 += b.1;
            }
        }
        tally
    }

    fn widest_half_width(&self, tally: &Self::Tally) -> f64 {
        (self.models.iter().zip(&tally.tallies))
            .map(|(model, t)| model.widest_half_width(t))
            .fold(0.0, f64::max)
    }

    fn tally_cells(&self) -> u64 {
        let own = 4 * self.figures.len() * self.models.len();
        self.models.iter().map(Model::tally_cells).sum::<u64>() + own as u64
    }
}
