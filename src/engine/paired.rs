//! Variants on common random numbers: the baseline and every variant run trial by trial
//! from the same random state, so that the difference of a figure between a variant and
//! the baseline is estimated from paired trials, whose differences vary far less than two
//! independent runs do.
//!
//! Trial `i` of a block starts every model from one word drawn from the block's stream,
//! so its random state is a function of (seed, block, trial) and the pairing holds
//! whatever the thread count. Every sum is an integer, so tallies merge exactly.
//!
//! A variant coupled to the baseline ([`Pairable::couple`]) can tell from a trial's
//! starting state (a plan's) or from what the baseline kept of the trial (a fight's)
//! that it would repeat the baseline's trial: then, unless its own
//! tally is counted, it does not play it, and its sums take the baseline's values for
//! that trial (x = b, so x² = x·b = b²), added for the pass as a whole: the baseline's
//! sums over the pass, less the baseline's over the trials the variant played, plus the
//! variant's own over those. The sums are the same integers as when it plays every trial.

use std::ops::{Add, Range};

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

/// One trial's figure values as a model leaves them, each kind in the order its figures
/// come in [`Pairable::figures`]: the chances (0 or 1) as bytes, which a pass adds in byte
/// lanes (see [`add_chance_sums`]), but those of a [`Pairable::series`]; the amounts; and
/// per series, in its order there, the step: the first round (0-based) at whose end its
/// chance is 1, and stays 1 to the last; the series' length when there is none.
pub(crate) struct TrialValues<'s> {
    pub chances: &'s [u8],
    pub amounts: &'s [i64],
    pub steps: &'s [u16],
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
    /// [`Pairable::settle`]). A trial not counted costs less. It is trial `trial` of a
    /// pass, which the baseline (`baseline` is `None`) plays first: a variant may take
    /// from the baseline's scratch what the baseline kept of the same trial.
    fn paired_trial<const COUNTED: bool>(
        &self,
        tally: &mut Self::Tally,
        rng: &mut Pcg64Mcg,
        scratch: &mut Self::Scratch,
        trial: usize,
        baseline: Option<&Self::Scratch>,
    );

    /// Completes the counting of the `trials` counted trials run with `scratch`.
    fn settle(&self, tally: &mut Self::Tally, scratch: &mut Self::Scratch, trials: u64);

    /// The last trial's value of each figure (see [`TrialValues`]).
    fn values<'s>(&self, scratch: &'s Self::Scratch) -> TrialValues<'s>;

    /// The figures the model's variants are compared on, in a fixed order.
    fn figures(&self) -> Vec<Figure>;

    /// Chances among [`Pairable::figures`] that, round by round, once 1 stay 1 (a
    /// combatant down where nobody gets back up, or dead): each series its figures in
    /// round order, given as one step a trial ([`TrialValues::steps`]) instead of a byte
    /// a round. Summed from a histogram of the steps, they cost a trial a word each
    /// instead of a byte per round written, copied and added.
    fn series(&self) -> Vec<Vec<Figure>> {
        Vec::new()
    }

    /// Whether `figure` means the same in `other` (a plan line's damage only where
    /// `other` has the same line: a variant may replace a combatant's lines).
    fn same_figure(&self, other: &Self, figure: Figure) -> bool;

    /// Makes `self`, a variant, draw in step with `baseline` where it can, so that most
    /// of its trials repeat the baseline's when it changes little; returns whether
    /// [`Pairable::repeats_baseline`] then tells which. Called once, before any trial.
    fn couple(&mut self, _baseline: &Self) -> bool {
        false
    }

    /// Tells `self`, the baseline, its `variants` once they are coupled, which of them
    /// are counted and which skip the trials that repeat the baseline's (`counted`,
    /// `skipping`, one each), so that it keeps in its scratch only what one of them
    /// takes (see [`Pairable::paired_trial`]). Called once, before any trial.
    fn lead(&mut self, _variants: &[Self], _counted: &[bool], _skipping: &[bool])
    where
        Self: Sized,
    {
    }

    /// Whether trial `trial` of the pass, starting from `start`, would repeat the
    /// baseline's trial from there exactly, every figure's value the same, told without
    /// playing it (only once [`Pairable::couple`] returned true), from the start or from
    /// what the baseline kept of the trial in `baseline`, its scratch.
    fn repeats_baseline(
        &self,
        _start: &Pcg64Mcg,
        _trial: usize,
        _baseline: Option<&Self::Scratch>,
    ) -> bool {
        false
    }
}

/// The bytes of figure values a pass keeps for all models together (256 KiB, within a
/// core's L2 cache).
const PASS_BYTES: usize = 1 << 18;
/// The fewest trials a pass holds, however many figures the models have.
const PASS_LEAST: usize = 16;
/// The most trials a pass holds: a pass's sums of squares then fit in an i64 (see
/// [`PairedModel::simulate`]).
const PASS_MOST: usize = 1 << 10;
/// The most rows whose chances (0 or 1 each) a byte can count.
const BYTE_LANE_ROWS: usize = u8::MAX as usize;

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
    /// difference with its 95% interval. A chance's comes from the trials where only one
    /// of the two happened ([`Estimate::paired_proportions_difference`]); an amount's from
    /// the spread of the differences (zero wide when every trial's is the same).
    ///
    /// With x the model's value and b the baseline's in each trial, Σ(x − b) = Σx − Σb and
    /// Σ(x − b)² = Σx² + Σb² − 2Σxb: integer identities, so the sums are exact. The
    /// squares are summed modulo 2^128, where the true sum (never negative) fits. For a
    /// chance, Σxb counts the trials where both happened, so the model alone happened in
    /// Σx − Σxb and the baseline alone in Σb − Σxb.
    pub fn difference(&self, model: usize, figure: usize, is_chance: bool) -> Estimate {
        let ((x, xx), (b, bb)) = (self.values[model][figure], self.values[0][figure]);
        let both = self.cross[model][figure];
        if is_chance {
            let count = |c: i128| u64::try_from(c).unwrap_or(0);
            return Estimate::paired_proportions_difference(
                count(x - both),
                count(b - both),
                self.trials,
            );
        }
        let xb = both as u128;
        let squares = xx.wrapping_add(bb).wrapping_sub(xb.wrapping_mul(2));
        Estimate::paired_difference(x - b, squares, self.trials)
    }

    /// The tallies, the baseline's first.
    pub fn into_tallies(self) -> Vec<T> {
        self.tallies
    }
}

#[cfg(test)]
impl<T> PairedTally<T> {
    /// Asserts that model `model`'s every value and difference to the baseline is the
    /// same, to the integer, in `other` (`what` names the case).
    pub(crate) fn assert_same_as(&self, other: &PairedTally<T>, model: usize, what: &str) {
        for (f, figure) in self.figures.iter().enumerate() {
            let chance = figure.is_chance();
            let what = format!("{what} {figure:?}");
            let (mine, theirs) = (self.value(model, f, chance), other.value(model, f, chance));
            assert_eq!(mine, theirs, "{what}");
            let mine = self.difference(model, f, chance);
            assert_eq!(mine, other.difference(model, f, chance), "{what}");
        }
    }
}

/// The baseline (first) and its variants, run on common random numbers.
pub(crate) struct PairedModel<M> {
    pub(crate) models: Vec<M>,
    figures: Vec<Figure>,
    /// The figures compared that are chances, in order, but those in `series`: their
    /// indices in `figures`.
    chances: Vec<usize>,
    /// The series of chances compared as steps (every model gives them so, see
    /// [`Pairable::series`]): each its figures' indices in `figures`, round by round.
    series: Vec<Vec<usize>>,
    /// The figures compared that are amounts, in order: their indices in `figures`.
    amounts: Vec<usize>,
    /// [model]: where each figure compared is among the model's own values of its kind;
    /// `None` when they are its first values of each kind, in order (then a trial's values
    /// are copied at once).
    positions: Vec<Option<Positions>>,
    /// [model]: whether its own tally is counted (someone reads it); the others only
    /// give their figures' values.
    counted: Vec<bool>,
    /// [model]: a variant, not counted, that skips the trials repeating the baseline's.
    skips_repeats: Vec<bool>,
}

/// Where each figure compared is among one model's [`TrialValues`].
struct Positions {
    chances: Vec<ChanceAt>,
    amounts: Vec<usize>,
    series: Vec<usize>,
}

/// Where a chance compared as a byte is among one model's values: a byte of its own, or
/// a round of one of its series that the other models do not all give as steps.
#[derive(Clone, Copy, PartialEq)]
enum ChanceAt {
    Byte(usize),
    Step { series: usize, round: usize },
}

impl ChanceAt {
    fn value(self, values: &TrialValues) -> u8 {
        match self {
            ChanceAt::Byte(at) => values.chances[at],
            ChanceAt::Step { series, round } => {
                u8::from(usize::from(values.steps[series]) <= round)
            }
        }
    }
}

impl<M: Pairable> PairedModel<M> {
    /// `models[0]` is the baseline; the figures compared are the baseline's that every
    /// model has and that mean the same in every model. Only the tallies of the models
    /// in `counted` are counted. Every variant is coupled to the baseline where it can be
    /// (see [`Pairable::couple`]).
    pub(crate) fn new(mut models: Vec<M>, counted: Range<usize>) -> Self {
        let counted: Vec<bool> = (0..models.len()).map(|m| counted.contains(&m)).collect();
        let mut skips_repeats = vec![false; models.len()];
        if let Some((baseline, variants)) = models.split_first_mut() {
            for (m, variant) in variants.iter_mut().enumerate() {
                skips_repeats[m + 1] = variant.couple(baseline) && !counted[m + 1];
            }
            baseline.lead(variants, &counted[1..], &skips_repeats[1..]);
        }
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
        // The series every model gives as steps, whole among the figures compared.
        let own_series: Vec<Vec<Vec<Figure>>> = models.iter().map(Pairable::series).collect();
        let series_figures: Vec<&Vec<Figure>> = (own_series.first().into_iter().flatten())
            .filter(|series| {
                own_series.iter().all(|theirs| theirs.contains(series))
                    && series.iter().all(|f| figures.contains(f))
            })
            .collect();
        let index_of = |figure: &Figure| figures.iter().position(|f| f == figure);
        let series: Vec<Vec<usize>> = (series_figures.iter())
            .map(|s| s.iter().filter_map(index_of).collect())
            .collect();
        let stepped: Vec<usize> = series.iter().flatten().copied().collect();
        let chances: Vec<usize> = (figures.iter().enumerate())
            .filter(|&(at, f)| f.is_chance() && !stepped.contains(&at))
            .map(|(at, _)| at)
            .collect();
        let amounts: Vec<usize> = (figures.iter().enumerate())
            .filter(|(_, f)| !f.is_chance())
            .map(|(at, _)| at)
            .collect();
        let positions = (own.iter().zip(&own_series))
            .map(|(theirs, their_series)| {
                let in_series = |figure: Figure| {
                    (their_series.iter().enumerate()).find_map(|(series, s)| {
                        let round = s.iter().position(|&f| f == figure)?;
                        Some(ChanceAt::Step { series, round })
                    })
                };
                let bytes: Vec<&Figure> = (theirs.iter())
                    .filter(|f| f.is_chance() && in_series(**f).is_none())
                    .collect();
                let own_amounts: Vec<&Figure> = theirs.iter().filter(|f| !f.is_chance()).collect();
                let chances: Vec<ChanceAt> = (chances.iter())
                    .map(|&c| {
                        let byte = bytes.iter().position(|&&f| f == figures[c]);
                        in_series(figures[c])
                            .unwrap_or_else(|| ChanceAt::Byte(byte.expect("filtered above")))
                    })
                    .collect();
                let amounts: Vec<usize> = (amounts.iter())
                    .map(|&a| own_amounts.iter().position(|&&f| f == figures[a]))
                    .map(|at| at.expect("filtered above"))
                    .collect();
                let series: Vec<usize> = (series_figures.iter())
                    .map(|&s| their_series.iter().position(|theirs| theirs == s))
                    .map(|at| at.expect("filtered above"))
                    .collect();
                let in_order = (chances.iter().enumerate()).all(|(k, &at)| at == ChanceAt::Byte(k))
                    && (amounts.iter().enumerate()).all(|(k, &at)| k == at)
                    && (series.iter().enumerate()).all(|(k, &at)| k == at);
                (!in_order).then_some(Positions {
                    chances,
                    amounts,
                    series,
                })
            })
            .collect();
        Self {
            counted,
            skips_repeats,
            chances,
            series,
            amounts,
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
    /// within [`PASS_BYTES`]): in a pass each model runs every trial in turn from the
    /// same per-trial starting states, keeping each trial's figure values in two rows (its
    /// chances in a row of bytes, its amounts in one of words), and the rows' sums are
    /// then taken into one small accumulator per figure. A model's trials back to back
    /// keep its data and branch history warm; a pass's rows, for every model, stay in the
    /// cache.
    fn simulate(&self, tally: &mut Self::Tally, rng: &mut Pcg64Mcg, trials: u64) {
        let (chances, amounts, series) =
            (self.chances.len(), self.amounts.len(), self.series.len());
        let row_bytes = chances + amounts * size_of::<i64>() + series * size_of::<u16>();
        let pass_trials =
            (PASS_BYTES / (row_bytes * self.models.len()).max(1)).clamp(PASS_LEAST, PASS_MOST);
        let starts: Vec<Pcg64Mcg> = (0..trials)
            .map(|_| Pcg64Mcg::seed_from_u64(rng.next_u64()))
            .collect();
        let mut scratches: Vec<M::Scratch> = self.models.iter().map(M::scratch).collect();
        // Each its own allocation: `vec![row; n]` would clone an empty row without capacity.
        let mut chance_rows: Vec<Vec<u8>> = (self.models.iter())
            .map(|_| Vec::with_capacity(pass_trials * chances))
            .collect();
        let mut amount_rows: Vec<Vec<i64>> = (self.models.iter())
            .map(|_| Vec::with_capacity(pass_trials * amounts))
            .collect();
        let mut step_rows: Vec<Vec<u16>> = (self.models.iter())
            .map(|_| Vec::with_capacity(pass_trials * series))
            .collect();
        // [model]: the trials of the pass it played (a variant that skips repeats).
        let mut played: Vec<Vec<usize>> = self.models.iter().map(|_| Vec::new()).collect();
        // The baseline's rows of the trials a variant played.
        let (mut played_chances, mut played_amounts, mut played_steps) =
            (Vec::new(), Vec::new(), Vec::new());
        for pass in starts.chunks(pass_trials) {
            for (m, model) in self.models.iter().enumerate() {
                let (before, from_m) = scratches.split_at_mut(m);
                let (own, scratch, baseline) =
                    (&mut tally.tallies[m], &mut from_m[0], before.first());
                let (chance_rows, amount_rows, step_rows) =
                    (&mut chance_rows[m], &mut amount_rows[m], &mut step_rows[m]);
                chance_rows.clear();
                amount_rows.clear();
                step_rows.clear();
                played[m].clear();
                for (trial, start) in pass.iter().enumerate() {
                    if self.skips_repeats[m] {
                        if model.repeats_baseline(start, trial, baseline) {
                            continue;
                        }
                        played[m].push(trial);
                    }
                    let rng = &mut start.clone();
                    if self.counted[m] {
                        model.paired_trial::<true>(own, rng, scratch, trial, baseline);
                    } else {
                        model.paired_trial::<false>(own, rng, scratch, trial, baseline);
                    }
                    let values = model.values(scratch);
                    match &self.positions[m] {
                        None => {
                            chance_rows.extend_from_slice(&values.chances[..chances]);
                            amount_rows.extend_from_slice(&values.amounts[..amounts]);
                            step_rows.extend_from_slice(&values.steps[..series]);
                        }
                        Some(at) => {
                            chance_rows.extend(at.chances.iter().map(|at| at.value(&values)));
                            amount_rows.extend(at.amounts.iter().map(|&at| values.amounts[at]));
                            step_rows.extend(at.series.iter().map(|&at| values.steps[at]));
                        }
                    }
                }
            }
            // In [0, 2^26) an amount's square is below 2^52, so 2^10 trials' sums fit in an
            // i64 (see `Accumulator`). The bits of every amount OR'd as they are (a
            // negative one, which no figure has, sets the top bit and so picks i128): one
            // vector OR per two.
            let widest = (amount_rows.iter().flatten()).fold(0, |bits, &x| bits | x as u64);
            let sums = |(chances, amounts, steps): Rows, baseline: Option<Rows>| {
                let mut sums = PassSums::new(self.figures.len());
                let (values, cross) = (&mut sums.values, &mut sums.cross);
                add_chance_sums(chances, baseline.map(|b| b.0), &self.chances, values, cross);
                add_step_sums(steps, baseline.map(|b| b.2), &self.series, values, cross);
                let baseline = baseline.map(|b| b.1);
                if widest < 1 << 26 {
                    add_amount_sums::<i64>(amounts, baseline, &self.amounts, values, cross);
                } else {
                    add_amount_sums::<i128>(amounts, baseline, &self.amounts, values, cross);
                }
                sums
            };
            let rows = |m: usize| -> Rows { (&chance_rows[m], &amount_rows[m], &step_rows[m]) };
            let baseline_rows = rows(0);
            let baseline = sums(baseline_rows, None);
            baseline.add_to(&mut tally.values[0], &mut tally.cross[0], true);
            for (m, played) in played.iter().enumerate().skip(1) {
                let (values, cross) = (&mut tally.values[m], &mut tally.cross[m]);
                if !self.skips_repeats[m] {
                    sums(rows(m), Some(baseline_rows)).add_to(values, cross, true);
                    continue;
                }
                played_chances.clear();
                played_amounts.clear();
                played_steps.clear();
                for &trial in played {
                    played_chances.extend_from_slice(&chance_rows[0][trial * chances..][..chances]);
                    played_amounts.extend_from_slice(&amount_rows[0][trial * amounts..][..amounts]);
                    played_steps.extend_from_slice(&step_rows[0][trial * series..][..series]);
                }
                let played_baseline: Rows = (&played_chances, &played_amounts, &played_steps);
                baseline.add_to(values, cross, true);
                sums(played_baseline, None).add_to(values, cross, false);
                sums(rows(m), Some(played_baseline)).add_to(values, cross, true);
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
                value.max(tally.difference(m, f, true).half_width())
            })
        });
        own.chain(compared).fold(0.0, f64::max)
    }

    fn tally_cells(&self) -> u64 {
        let own = 3 * self.figures.len() * self.models.len();
        self.models.iter().map(Model::tally_cells).sum::<u64>() + own as u64
    }
}

/// One model's rows of a pass: its chances, amounts and steps, a row of each per trial.
type Rows<'r> = (&'r [u8], &'r [i64], &'r [u16]);

/// One pass's sums per figure, as in [`PairedTally`]: of the values and their squares,
/// and of the products with the baseline's (squares, for the baseline's own).
struct PassSums {
    values: Vec<(i128, u128)>,
    cross: Vec<i128>,
}

impl PassSums {
    fn new(figures: usize) -> PassSums {
        PassSums {
            values: vec![(0, 0); figures],
            cross: vec![0; figures],
        }
    }

    /// Adds (`plus`) or takes away these sums from a tally's. The squares wrap modulo
    /// 2^128, where the true sums, never negative, fit.
    fn add_to(&self, values: &mut [(i128, u128)], cross: &mut [i128], plus: bool) {
        for (into, from) in values.iter_mut().zip(&self.values) {
            match plus {
                true => *into = (into.0 + from.0, into.1.wrapping_add(from.1)),
                false => *into = (into.0 - from.0, into.1.wrapping_sub(from.1)),
            }
        }
        for (into, from) in cross.iter_mut().zip(&self.cross) {
            match plus {
                true => *into += from,
                false => *into -= from,
            }
        }
    }
}

/// An integer a pass's row sums build up in: i64 while every amount is in [0, 2^26), so
/// that they cannot wrap, i128 otherwise.
trait Accumulator: Copy + Default + From<i64> + Into<i128> + Add<Output = Self> {
    /// x·y of two amounts.
    fn product(x: i64, y: i64) -> Self;
}

impl Accumulator for i64 {
    /// Both in [0, 2^26), so each fits 32 bits: one 32×32→64 multiply, which SSE2 does
    /// two at a time (`pmuludq`), where a 64-bit one takes three and shifts.
    #[inline(always)]
    fn product(x: i64, y: i64) -> i64 {
        (u64::from(x as u32) * u64::from(y as u32)) as i64
    }
}

impl Accumulator for i128 {
    #[inline(always)]
    fn product(x: i64, y: i64) -> i128 {
        i128::from(x) * i128::from(y)
    }
}

/// Adds to each chance's sums of x and of x² (`values`) and of x·b (`cross`), where x is
/// its value in one of `rows` and b the baseline's in the same row of `baseline` (`None`
/// when `rows` are the baseline's own): rows of a byte per chance, the chance at
/// `figures[k]` the k-th. A chance is 0 or 1, so x² = x and x·b = x & b; the counts
/// build up in byte lanes (SSE2 adds up to 16 in one instruction) for up to
/// [`BYTE_LANE_ROWS`] rows at a time.
fn add_chance_sums(
    rows: &[u8],
    baseline: Option<&[u8]>,
    figures: &[usize],
    values: &mut [(i128, u128)],
    cross: &mut [i128],
) {
    let width = figures.len();
    if width == 0 {
        return;
    }
    let (mut ones, mut both) = (vec![0u8; width], vec![0u8; width]);
    let (mut all_ones, mut all_both) = (vec![0u64; width], vec![0u64; width]);
    let block = width * BYTE_LANE_ROWS;
    for (at, block_rows) in rows.chunks(block).enumerate() {
        match baseline {
            None => {
                for row in block_rows.chunks_exact(width) {
                    for (count, &x) in ones.iter_mut().zip(row) {
                        *count = count.wrapping_add(x);
                    }
                }
            }
            Some(baseline) => {
                let base_rows = baseline[at * block..].chunks_exact(width);
                for (row, base) in block_rows.chunks_exact(width).zip(base_rows) {
                    let counts = ones.iter_mut().zip(both.iter_mut());
                    for ((count, count_both), (&x, &b)) in counts.zip(row.iter().zip(base)) {
                        *count = count.wrapping_add(x);
                        *count_both = count_both.wrapping_add(x & b);
                    }
                }
            }
        }
        for (all, count) in
            (all_ones.iter_mut().chain(&mut all_both)).zip(ones.iter_mut().chain(&mut both))
        {
            *all += u64::from(std::mem::take(count));
        }
    }
    for (k, &f) in figures.iter().enumerate() {
        let sum = i128::from(all_ones[k]);
        values[f].0 += sum;
        values[f].1 += sum as u128;
        cross[f] += match baseline {
            None => sum,
            Some(_) => i128::from(all_both[k]),
        };
    }
}

/// [`add_chance_sums`] for the series given as steps: rows of a step per series (see
/// [`TrialValues::steps`]), `series[k]` the figures of the k-th, round by round. Its
/// chance at round r is 1 in the trials whose step is r or before, so the sums are
/// counts of steps up to r, read off a histogram of the steps; the model's and the
/// baseline's are both 1 where the later of their two steps is.
fn add_step_sums(
    rows: &[u16],
    baseline: Option<&[u16]>,
    series: &[Vec<usize>],
    values: &mut [(i128, u128)],
    cross: &mut [i128],
) {
    let width = series.len();
    if width == 0 {
        return;
    }
    // Where each series' counts start: one per round, then one for no step.
    let starts: Vec<usize> = (series.iter())
        .scan(0, |at, figures| {
            let start = *at;
            *at += figures.len() + 1;
            Some(start)
        })
        .collect();
    let buckets = starts[width - 1] + series[width - 1].len() + 1;
    let mut ones = vec![0u64; buckets];
    let mut both = vec![0u64; if baseline.is_some() { buckets } else { 0 }];
    for (r, row) in rows.chunks_exact(width).enumerate() {
        debug_assert!((row.iter().zip(series)).all(|(&x, s)| usize::from(x) <= s.len()));
        for (&start, &x) in starts.iter().zip(row) {
            ones[start + usize::from(x)] += 1;
        }
        if let Some(baseline) = baseline {
            let base = &baseline[r * width..(r + 1) * width];
            for ((&start, &x), &b) in starts.iter().zip(row).zip(base) {
                both[start + usize::from(x.max(b))] += 1;
            }
        }
    }
    for (figures, &start) in series.iter().zip(&starts) {
        let (mut count, mut count_both) = (0, 0);
        for (round, &f) in figures.iter().enumerate() {
            count += ones[start + round];
            let sum = i128::from(count);
            values[f].0 += sum;
            values[f].1 += sum as u128;
            cross[f] += match baseline {
                None => sum,
                Some(_) => {
                    count_both += both[start + round];
                    i128::from(count_both)
                }
            };
        }
    }
}

/// [`add_chance_sums`] for the amounts: rows of a word per amount, whose squares and
/// products with the baseline's are multiplied out; the pass's sums build up in `T`.
fn add_amount_sums<T>(
    rows: &[i64],
    baseline: Option<&[i64]>,
    figures: &[usize],
    values: &mut [(i128, u128)],
    cross: &mut [i128],
) where
    T: Accumulator,
{
    let width = figures.len();
    if width == 0 {
        return;
    }
    let (mut sums, mut squares) = (vec![T::default(); width], vec![T::default(); width]);
    let mut products = vec![T::default(); if baseline.is_some() { width } else { 0 }];
    for (r, row) in rows.chunks_exact(width).enumerate() {
        for ((sum, square), &x) in sums.iter_mut().zip(squares.iter_mut()).zip(row) {
            *sum = *sum + T::from(x);
            *square = *square + T::product(x, x);
        }
        if let Some(baseline) = baseline {
            let base = &baseline[r * width..(r + 1) * width];
            for ((product, &x), &b) in products.iter_mut().zip(row).zip(base) {
                *product = *product + T::product(x, b);
            }
        }
    }
    for (k, &f) in figures.iter().enumerate() {
        let square: i128 = squares[k].into();
        values[f].0 += sums[k].into();
        values[f].1 += square as u128;
        cross[f] += match baseline {
            None => square,
            Some(_) => products[k].into(),
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Three figures: a chance (figure 0), an amount (1), a chance (2); four trials each
    /// for the baseline and a variant. By hand, figure by figure (x the variant's values,
    /// b the baseline's):
    /// - chance 0: b = 1,0,1,1 and x = 1,1,0,1: Σb = 3 = Σb², Σx = 3 = Σx², Σxb = 2;
    /// - amount 1: b = 5,0,7,2 and x = 6,0,7,9: Σb = 14, Σb² = 78, Σx = 22, Σx² = 166,
    ///   Σxb = 30 + 0 + 49 + 18 = 97;
    /// - chance 2: b = 0,0,0,1 and x = 0,1,0,1: Σb = 1, Σx = 2, Σxb = 1.
    const BASELINE_CHANCES: [u8; 8] = [1, 0, 0, 0, 1, 0, 1, 1];
    const BASELINE_AMOUNTS: [i64; 4] = [5, 0, 7, 2];
    const VARIANT_CHANCES: [u8; 8] = [1, 0, 1, 1, 0, 0, 1, 1];
    const VARIANT_AMOUNTS: [i64; 4] = [6, 0, 7, 9];

    /// Every figure's sums of `chances` and `amounts` (the variant's, against the
    /// baseline's, when `paired`), with the amounts' pass sums in `T`.
    fn sums<T: Accumulator>(
        (chances, amounts): (&[u8], &[i64]),
        paired: bool,
    ) -> (Vec<(i128, u128)>, Vec<i128>) {
        let (mut values, mut cross) = (vec![(0, 0); 3], vec![0; 3]);
        let baseline = paired.then_some(&BASELINE_CHANCES[..]);
        add_chance_sums(chances, baseline, &[0, 2], &mut values, &mut cross);
        let baseline = paired.then_some(&BASELINE_AMOUNTS[..]);
        add_amount_sums::<T>(amounts, baseline, &[1], &mut values, &mut cross);
        (values, cross)
    }

    /// 1,000 rows, past the 255 a byte lane counts: chance 0 is 1 in every row, chance 1
    /// in every third (rows 0, 3, …, 999: 334 of them). Alone, Σx² = Σx·x = Σx. The
    /// baseline's chance 0 is 1 in every row, its chance 1 in rows 0 to 299 only (not a
    /// pattern that repeats, so a row paired with the wrong baseline row shows): Σxb =
    /// 1,000 for chance 0 and, for chance 1, the multiples of 3 below 300 (0, 3, …, 297:
    /// 100).
    #[test]
    fn chance_counts_carry_past_a_byte() {
        let rows: Vec<u8> = (0..1000).flat_map(|r| [1, u8::from(r % 3 == 0)]).collect();
        let baseline: Vec<u8> = (0..1000).flat_map(|r| [1, u8::from(r < 300)]).collect();
        for (paired, both) in [(None, 334), (Some(&baseline[..]), 100)] {
            let (mut values, mut cross) = (vec![(0, 0); 2], vec![0; 2]);
            add_chance_sums(&rows, paired, &[0, 1], &mut values, &mut cross);
            assert_eq!(values, [(1000, 1000), (334, 334)]);
            assert_eq!(cross, [1000, both]);
        }
    }

    /// Two series of 3 rounds (figures 0-2 and 3-5), five trials. Steps (3: never):
    /// - series 0: x = 0,1,3,2,1 and the baseline's b = 1,1,3,0,3; by round r x is 1 where
    ///   x ≤ r: Σx = 1, 3, 4 (rounds 0, 1, 2); both are 1 where max(x, b) ≤ r, max =
    ///   1,1,3,2,3: Σxb = 0, 2, 3.
    /// - series 1: x = 3,3,3,3,0, b = 0,0,0,0,0: Σx = 1, 1, 1; max = 3,3,3,3,0: Σxb = 1, 1, 1.
    ///   Alone, Σx² = Σx·x = Σx. The same sums come from the bytes of each round.
    #[test]
    fn step_sums_count_the_steps_up_to_each_round() {
        let rows: [u16; 10] = [0, 3, 1, 3, 3, 3, 2, 3, 1, 0];
        let baseline: [u16; 10] = [1, 0, 1, 0, 3, 0, 0, 0, 3, 0];
        let series = [vec![0, 1, 2], vec![3, 4, 5]];
        let bytes = |steps: &[u16]| -> Vec<u8> {
            (steps.chunks(2))
                .flat_map(|row| (row.iter()).flat_map(|&x| (0..3).map(move |r| u8::from(x <= r))))
                .collect()
        };
        for (paired, both) in [
            (None, [1, 3, 4, 1, 1, 1]),
            (Some(&baseline[..]), [0, 2, 3, 1, 1, 1]),
        ] {
            let (mut values, mut cross) = (vec![(0, 0); 6], vec![0; 6]);
            add_step_sums(&rows, paired, &series, &mut values, &mut cross);
            let sums: Vec<(i128, u128)> = [1, 3, 4, 1, 1, 1].map(|x| (x, x as u128)).to_vec();
            assert_eq!(values, sums);
            assert_eq!(cross, both);
            let (mut byte_values, mut byte_cross) = (vec![(0, 0); 6], vec![0; 6]);
            let base_bytes = paired.map(bytes);
            let figures = [0, 1, 2, 3, 4, 5];
            add_chance_sums(
                &bytes(&rows),
                base_bytes.as_deref(),
                &figures,
                &mut byte_values,
                &mut byte_cross,
            );
            assert_eq!((values, cross), (byte_values, byte_cross));
        }
    }

    /// A round of a series read as a byte: 1 from the step on.
    #[test]
    fn a_step_reads_as_a_byte_from_its_round_on() {
        let values = TrialValues {
            chances: &[1, 0],
            amounts: &[],
            steps: &[2, 5],
        };
        let read = |at: ChanceAt| at.value(&values);
        assert_eq!([ChanceAt::Byte(0), ChanceAt::Byte(1)].map(read), [1, 0]);
        let rounds = |series| -> Vec<u8> {
            (0..5)
                .map(|round| read(ChanceAt::Step { series, round }))
                .collect()
        };
        assert_eq!(rounds(0), [0, 0, 1, 1, 1]);
        assert_eq!(rounds(1), [0, 0, 0, 0, 0]);
    }

    #[test]
    fn chance_and_amount_sums_cross_the_baseline_and_the_baseline_itself() {
        let baseline = (&BASELINE_CHANCES[..], &BASELINE_AMOUNTS[..]);
        for (values, cross) in [sums::<i64>(baseline, false), sums::<i128>(baseline, false)] {
            assert_eq!(values, [(3, 3), (14, 78), (1, 1)]);
            assert_eq!(cross, [3, 78, 1]);
        }
        let variant = (&VARIANT_CHANCES[..], &VARIANT_AMOUNTS[..]);
        for (values, cross) in [sums::<i64>(variant, true), sums::<i128>(variant, true)] {
            assert_eq!(values, [(3, 3), (22, 166), (2, 2)]);
            assert_eq!(cross, [2, 97, 1]);
        }
    }
}
