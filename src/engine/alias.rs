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
        let product = u128::from(word) * columns.len() as u128;
        let column = (product >> 64) as usize;
        let (threshold, alias) = columns[column];
        // Which side wins is random: a branch here would be mispredicted often.
        std::hint::select_unpredictable((product as u64) < threshold, column, alias as usize)
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

    #[test]
    fn an_even_sweep_reproduces_the_probabilities() {
        let probs = [0.5, 0.1, 0.0, 0.25, 0.15];
        for (got, want) in shares(&probs, 1_000_000).iter().zip(probs) {
            assert!((got - want).abs() < 1e-5, "{got} vs {want}");
        }
    }

    #[test]
    fn zero_probability_outcomes_are_never_picked() {
        let probs = [0.0, 1.0, 0.0];
        assert_eq!(shares(&probs, 10_000), vec![0.0, 1.0, 0.0]);
    }
}
