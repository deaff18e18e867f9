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

/// A model whose trials can run one at a time, each counted at once, and that leaves
/// the value of each of its [`Figure`]s in the trial it just ran.
pub(crate) trait Pairable: Model {
    /// Buffers a worker reuses from trial to trial, holding the last trial's values.
    type Scratch;

    /// Fresh buffers.
    fn scratch(&self) -> Self::Scratch;

    /// One trial drawn from `rng`, counted in `tally` completely (nothing deferred), its
    /// figures' values left in `scratch`.
    fn one_trial(&self, tally: &mut Self::Tally, rng: &mut Pcg64Mcg, scratch: &mut Self::Scratch);

    /// The figures the model's variants are compared on, in a fixed order.
    fn figures(&self) -> Vec<Figure>;

    /// Whether `figure` means the same in `other` (a plan line's damage only where
    /// `other` has the same line: a variant may replace a combatant's lines).
    fn same_figure(&self, other: &Self, figure: Figure) -> bool;

    /// The last trial's value of each figure, in [`Pairable::figures`] order.
    fn values<'s>(&self, scratch: &'s Self::Scratch) -> &'s [i64];
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
    /// [model][figure compared]: where the figure is among the model's own values.
    positions: Vec<Vec<usize>>,
}

impl<M: Pairable> PairedModel<M> {
    /// `models[0]` is the baseline; the figures compared are the baseline's that every
    /// model has and that mean the same in every model.
    pub(crate) fn new(models: Vec<M>) -> Self {
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
                (figures.iter())
                    .map(|f| theirs.iter().position(|g| g == f).expect("filtered above"))
                    .collect()
            })
            .collect();
        Self {
            models,
            figures,
            positions,
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
        let mut scratch: Vec<M::Scratch> = self.models.iter().map(Pairable::scratch).collect();
        for _ in 0..trials {
            let trial_start = Pcg64Mcg::seed_from_u64(rng.next_u64());
            for (m, model) in self.models.iter().enumerate() {
                let mut trial_rng = trial_start.clone();
                model.one_trial(&mut tally.tallies[m], &mut trial_rng, &mut scratch[m]);
            }
            let baseline = self.models[0].values(&scratch[0]);
            for (f, &at) in self.positions[0].iter().enumerate() {
                add_value(&mut tally.values[0][f], baseline[at].into());
            }
            for (m, model) in self.models.iter().enumerate().skip(1) {
                let values = model.values(&scratch[m]);
                let (own, base) = (&self.positions[m], &self.positions[0]);
                for f in 0..self.figures.len() {
                    let (x, b) = (values[own[f]], baseline[base[f]]);
                    add_value(&mut tally.values[m][f], x.into());
                    add_value(&mut tally.differences[m][f], i128::from(x) - i128::from(b));
                }
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

/// Adds one trial's value `x` to a figure's sums of values and of squares (most trials
/// leave most figures, and their differences, at zero: nothing to add).
fn add_value(sums: &mut (i128, u128), x: i128) {
    if x == 0 {
        return;
    }
    sums.0 += x;
    sums.1 += x.unsigned_abs().pow(2);
}
