//! Walker/Vose alias table: one draw from a fixed discrete distribution per random word.

/// A discrete distribution prepared for O(1) sampling from a single `u64`.
#[derive(Debug, Clone)]
pub struct AliasTable {
    /// Per column: keep the column when the fraction is below `threshold`, else take `alias`.
    columns: Vec<(u64, u32)>,
}

impl AliasTable {
    /// Builds the table (Vose's method). Probabilities need not sum exactly to 1.
    pub fn new(probs: &[f64]) -> Self {
        let n = probs.len();
        let total: f64 = probs.iter().sum();
        let mut scaled: Vec<f64> = probs.iter().map(|p| p / total * n as f64).collect();
        let mut columns: Vec<(u64, u32)> = (0..n as u32).map(|i| (u64::MAX, i)).collect();
        let (mut small, mut large): (Vec<usize>, Vec<usize>) =
            (0..n).partition(|&i| scaled[i] < 1.0);
        while let (Some(s), Some(&l)) = (small.pop(), large.last()) {
            columns[s] = (to_threshold(scaled[s]), l as u32);
            scaled[l] -= 1.0 - scaled[s];
            if scaled[l] < 1.0 {
                large.pop();
                small.push(l);
            }
        }
        // What remains is 1 up to rounding: those columns keep themselves.
        Self { columns }
    }

    /// The outcome index for one uniform random word.
    ///
    /// The high half of `word × n` picks the column; the low half is a uniform fraction
    /// within it, so a single word decides both (bias at most n / 2^64).
    #[inline(always)]
    pub fn pick(&self, word: u64) -> usize {
        Self::pick_in(&self.columns, word)
    }

    /// Its columns, for an engine that keeps many tables side by side in one array.
    pub fn columns(&self) -> &[(u64, u32)] {
        &self.columns
    }

    /// [`AliasTable::pick`] on a table's [`AliasTable::columns`].
    #[inline(always)]
    pub fn pick_in(columns: &[(u64, u32)], word: u64) -> usize {
        let (column, fraction) = Self::split(columns.len(), word);
        let (threshold, alias) = columns[column];
        // Which side wins is random: a branch here would be mispredicted often.
        std::hint::select_unpredictable(fraction < threshold, column, alias as usize)
    }

    /// The column a word picks among `len`, and the uniform fraction within it.
    #[inline(always)]
    fn split(len: usize, word: u64) -> (usize, u64) {
        let product = u128::from(word) * len as u128;
        ((product >> 64) as usize, product as u64)
    }
}

/// A second distribution q over the same outcomes as a table's p, drawn in step with the
/// table: from a word, the table's outcome i is kept with probability min(1, q_i / p_i),
/// taken from the fraction left within the table's column, else a second word draws
/// from the rest of q, (q − p)⁺ scaled to 1. That is q (Σ min(p, q) + (q − p)⁺ = q), and
/// the two agree on every word but a share Σ(p − q)⁺ of them, the least any pairing of
/// p and q can disagree on. A variant that changes an attack a little thus repeats the
/// baseline's outcome on most words, and a trial where every such draw is kept repeats
/// the baseline's trial exactly (see [`super::PairedModel`]).
#[derive(Debug, Clone)]
pub struct CoupledTable {
    /// The table of p.
    columns: Vec<(u64, u32)>,
    /// Per column: the column's threshold (see [`AliasTable`]); a fraction below it keeps
    /// the column's outcome while below the second entry, one at or above it keeps the
    /// alias while below the third.
    keep: Vec<[u64; 3]>,
    /// (q − p)⁺, drawn from a word of its own.
    rest: AliasTable,
}

impl CoupledTable {
    /// `q` drawn in step with `table`, built from `p`. Probabilities need not sum to 1.
    pub fn new(table: &AliasTable, p: &[f64], q: &[f64]) -> Self {
        let (p_total, q_total) = (p.iter().sum::<f64>(), q.iter().sum::<f64>());
        let rest: Vec<f64> = (p.iter().zip(q))
            .map(|(&p, &q)| (q / q_total - p / p_total).max(0.0))
            .collect();
        // Where q is p up to rounding, nothing is left over to draw: every word keeps.
        let spare = rest.iter().sum::<f64>() > 0.0;
        let kept: Vec<f64> = (p.iter().zip(q))
            .map(|(&p, &q)| match p > 0.0 && spare {
                true => (q / q_total / (p / p_total)).min(1.0),
                false => 1.0,
            })
            .collect();
        // (`as` saturates, and a width rounded up to a larger f64 is cut back to it.)
        let bound =
            |start: u64, width: u64, kept: f64| start + ((width as f64 * kept) as u64).min(width);
        let keep = (table.columns.iter().enumerate())
            .map(|(column, &(threshold, alias))| {
                [
                    threshold,
                    bound(0, threshold, kept[column]),
                    bound(threshold, u64::MAX - threshold, kept[alias as usize]),
                ]
            })
            .collect();
        CoupledTable {
            columns: table.columns.clone(),
            keep,
            rest: AliasTable::new(if spare { &rest } else { q }),
        }
    }

    /// Where `word` falls within its column: its fraction, the bound below which the
    /// fraction keeps the table's outcome, and the end of the part (the column's own or
    /// its alias's) the fraction lies in.
    #[inline(always)]
    fn place(&self, word: u64) -> (u64, u64, u128) {
        let (column, fraction) = AliasTable::split(self.keep.len(), word);
        let [threshold, below, above] = self.keep[column];
        let own = fraction < threshold;
        let kept = std::hint::select_unpredictable(own, below, above);
        let end = std::hint::select_unpredictable(own, u128::from(threshold), 1 << 64);
        (fraction, kept, end)
    }

    /// Whether `word` keeps the table's outcome ([`AliasTable::pick`] of the same word).
    #[inline(always)]
    pub fn keeps(&self, word: u64) -> bool {
        let (fraction, kept, _) = self.place(word);
        fraction < kept
    }

    /// The outcome index for `word`, the table's when [`CoupledTable::keeps`], else
    /// drawn from the rest of q with a word of `rest_word`.
    #[inline(always)]
    pub fn pick(&self, word: u64, rest_word: impl FnOnce() -> u64) -> usize {
        match self.keeps(word) {
            true => AliasTable::pick_in(&self.columns, word),
            false => self.rest.pick(rest_word()),
        }
    }

    /// [`CoupledTable::pick`] from one word: where `word` does not keep the outcome, its
    /// fraction within the column is uniform over the part its column does not keep,
    /// which is stretched to a whole word for the rest of q. A draw thus takes one word
    /// whichever way it goes, as the table's does: a stream drawn this way stays in step
    /// with the baseline's (`encounter`, whose draws have no fixed places in the stream).
    #[inline(always)]
    pub fn pick_one_word(&self, word: u64) -> usize {
        let (fraction, kept, end) = self.place(word);
        if fraction < kept {
            return AliasTable::pick_in(&self.columns, word);
        }
        let stretched = (u128::from(fraction - kept) << 64) / (end - u128::from(kept));
        self.rest.pick(stretched as u64)
    }
}

fn to_threshold(p: f64) -> u64 {
    if p <= 0.0 {
        0
    } else {
        (p * 18_446_744_073_709_551_616.0).min(u64::MAX as f64) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sweeps the whole word space evenly and checks each outcome's share.
    fn shares(probs: &[f64], steps: u64) -> Vec<f64> {
        let table = AliasTable::new(probs);
        let mut counts = vec![0u64; probs.len()];
        let stride = u64::MAX / steps;
        for k in 0..steps {
            counts[table.pick(k * stride + stride / 2)] += 1;
        }
        counts.iter().map(|&c| c as f64 / steps as f64).collect()
    }

    /// Sweeps the whole word space evenly through a coupled `draw`: the shares of
    /// each outcome among the words that keep the table's outcome, and among all.
    fn coupled_shares(coupled: &CoupledTable, draw: impl Fn(u64) -> usize) -> ([f64; 3], [f64; 3]) {
        let steps = 1_000_000;
        let stride = u64::MAX / steps;
        let (mut kept, mut drawn) = ([0u64; 3], [0u64; 3]);
        for k in 0..steps {
            let word = k * stride + stride / 2;
            let pick = draw(word);
            if coupled.keeps(word) {
                kept[pick] += 1;
            }
            drawn[pick] += 1;
        }
        let share = |counts: [u64; 3]| counts.map(|c| c as f64 / steps as f64);
        (share(kept), share(drawn))
    }

    #[test]
    fn an_even_sweep_reproduces_the_probabilities() {
        let probs = [0.5, 0.1, 0.0, 0.25, 0.15];
        for (got, want) in shares(&probs, 1_000_000).iter().zip(probs) {
            assert!((got - want).abs() < 1e-5, "{got} vs {want}");
        }
    }

    /// p = (0.5, 0.3, 0.2), q = (0.4, 0.3, 0.3). By hand: the words that keep p's
    /// outcome give min(p, q) = (0.4, 0.3, 0.2), 0.9 of them; the rest of q is
    /// (q − p)⁺ = (0, 0, 0.1), scaled to (0, 0, 1); so q = (0.4, 0.3, 0.2 + 0.1).
    #[test]
    fn a_coupled_draw_keeps_the_overlap_and_draws_the_rest_of_q() {
        let (p, q) = ([0.5, 0.3, 0.2], [0.4, 0.3, 0.3]);
        let table = AliasTable::new(&p);
        let coupled = CoupledTable::new(&table, &p, &q);
        // The rest's word sweeps the words too, at another pace.
        let (kept, drawn) = coupled_shares(&coupled, |word| {
            coupled.pick(word, || word.wrapping_mul(0x9e37_79b9_7f4a_7c15))
        });
        for (got, want) in kept.iter().zip([0.4, 0.3, 0.2]) {
            assert!((got - want).abs() < 1e-5, "kept {got} vs {want}");
        }
        for (got, want) in drawn.iter().zip(q) {
            assert!((got - want).abs() < 1e-3, "drawn {got} vs {want}");
        }
    }

    /// p = (0.5, 0.3, 0.2), q = (0.2, 0.4, 0.4), drawn from one word. By hand: the words
    /// that keep p's outcome give min(p, q) = (0.2, 0.3, 0.2), 0.7 of them; the other 0.3
    /// draw the rest of q, (q − p)⁺ = (0, 0.1, 0.2), scaled to (0, 1/3, 2/3), from their
    /// own fraction: q = (0.2, 0.3 + 0.1, 0.2 + 0.2). Two outcomes in the rest, so the
    /// stretched fraction decides between them.
    #[test]
    fn a_coupled_draw_from_one_word_keeps_the_overlap_and_draws_the_rest_of_q() {
        let (p, q) = ([0.5, 0.3, 0.2], [0.2, 0.4, 0.4]);
        let table = AliasTable::new(&p);
        let coupled = CoupledTable::new(&table, &p, &q);
        let (kept, drawn) = coupled_shares(&coupled, |word| coupled.pick_one_word(word));
        for (got, want) in kept.iter().zip([0.2, 0.3, 0.2]) {
            assert!((got - want).abs() < 1e-5, "kept {got} vs {want}");
        }
        for (got, want) in drawn.iter().zip(q) {
            assert!((got - want).abs() < 1e-5, "drawn {got} vs {want}");
        }
        // q = p draws p's outcome from every word.
        let same = CoupledTable::new(&table, &p, &p);
        assert!((0..1000).all(
            |k| same.pick_one_word(k * (u64::MAX / 1000)) == table.pick(k * (u64::MAX / 1000))
        ));
    }

    #[test]
    fn zero_probability_outcomes_are_never_picked() {
        let probs = [0.0, 1.0, 0.0];
        assert_eq!(shares(&probs, 10_000), vec![0.0, 1.0, 0.0]);
    }
}
