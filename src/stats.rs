//! Point estimates with 95% intervals, from integer tallies.
//!
//! Probabilities use the Wilson score interval (it stays inside [0, 1] and behaves at
//! p near 0 or 1, where most "down in round 1" figures live); means use the normal
//! interval from the sample variance.
//!
//! ```
//! use d20odds::Estimate;
//! let e = Estimate::proportion(400, 1000);
//! assert!(e.lo < 0.4 && 0.4 < e.hi && e.hi - e.lo < 0.07);
//! ```

use std::sync::OnceLock;

use statrs::distribution::{ContinuousCDF, Normal};

/// Two-sided confidence level of every interval d20odds reports.
pub const CONFIDENCE: f64 = 0.95;

/// The standard normal quantile for [`CONFIDENCE`] (≈ 1.96).
pub fn z_critical() -> f64 {
    static Z: OnceLock<f64> = OnceLock::new();
    *Z.get_or_init(|| Normal::standard().inverse_cdf(1.0 - (1.0 - CONFIDENCE) / 2.0))
}

/// A point estimate and its 95% interval, and the exact value where the exact engine
/// computed it: one reported figure, as the tables, the summary and the charts show it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Estimate {
    /// The estimate itself.
    pub point: f64,
    /// Lower end of the 95% interval.
    pub lo: f64,
    /// Upper end of the 95% interval.
    pub hi: f64,
    /// The value computed without simulation; `None` where it was not computed.
    pub exact: Option<f64>,
}

impl Estimate {
    /// What nothing observed estimates, or a difference known to be nothing (a model's
    /// from itself): zero, with no width.
    pub const ZERO: Self = Self {
        point: 0.0,
        lo: 0.0,
        hi: 0.0,
        exact: None,
    };

    /// Wilson score interval for `successes` out of `trials` (all zeros when no trials).
    pub fn proportion(successes: u64, trials: u64) -> Self {
        if trials == 0 {
            return Self::ZERO;
        }
        let n = trials as f64;
        let p = successes as f64 / n;
        let z = z_critical();
        let z2 = z * z;
        let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
        let half = z / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
        // The bounds are exactly 0 and 1 when nothing or everything happened.
        Self {
            point: p,
            lo: if successes == 0 {
                0.0
            } else {
                (centre - half).max(0.0)
            },
            hi: if successes == trials {
                1.0
            } else {
                (centre + half).min(1.0)
            },
            exact: None,
        }
    }

    /// Normal interval for a mean from the sum and sum of squares of `n` integer samples.
    pub fn mean(sum: u128, sum_of_squares: u128, n: u64) -> Self {
        if n == 0 {
            return Self::ZERO;
        }
        Self::normal(sum as f64, sum_of_squares as f64, n)
    }

    /// Normal interval for the mean of `n` paired integer differences, from their sum and
    /// sum of squares: zero wide when every difference is the same.
    pub fn paired_difference(sum: i128, sum_of_squares: u128, n: u64) -> Self {
        if n == 0 {
            return Self::ZERO;
        }
        Self::normal(sum as f64, sum_of_squares as f64, n)
    }

    /// Normal interval for the mean of `n` samples (`n` > 0) from their sum and sum of
    /// squares; zero wide when they do not spread.
    fn normal(sum: f64, sum_of_squares: f64, n: u64) -> Self {
        let count = n as f64;
        let mean = sum / count;
        let spread = sum_of_squares - sum * mean;
        let variance = if n > 1 && spread > 0.0 {
            spread / (count - 1.0)
        } else {
            0.0
        };
        let half = z_critical() * (variance / count).sqrt();
        Self {
            point: mean,
            lo: mean - half,
            hi: mean + half,
            exact: None,
        }
    }

    /// The difference of two chances measured on the same `n` trials, from the trials
    /// where only the first happened (`only_first`) and only the second (`only_second`):
    /// the point (b − c)/n, and the Bonett–Price interval, a Wald interval on counts one
    /// higher each (b + 1 and c + 1 of n + 2), which keeps its coverage when few or no
    /// trials differ, where the interval from the spread of the differences is zero
    /// wide or too narrow (Fagerland, Lydersen and Laake 2014 recommend it). Within
    /// [−1, 1].
    pub fn paired_proportions_difference(only_first: u64, only_second: u64, n: u64) -> Self {
        if n == 0 {
            return Self::ZERO;
        }
        let (b, c, n) = (only_first as f64, only_second as f64, n as f64);
        let (first, second) = ((b + 1.0) / (n + 2.0), (c + 1.0) / (n + 2.0));
        let centre = first - second;
        let half = z_critical() * ((first + second - centre * centre) / (n + 2.0)).sqrt();
        Self {
            point: (b - c) / n,
            lo: (centre - half).max(-1.0),
            hi: (centre + half).min(1.0),
            exact: None,
        }
    }

    /// The same estimate beside its exact value, where one was computed.
    pub fn with_exact(self, exact: Option<f64>) -> Self {
        Self { exact, ..self }
    }

    /// Half the interval's width: what `--precision` bounds.
    pub fn half_width(&self) -> f64 {
        (self.hi - self.lo) / 2.0
    }
}

/// How many standard errors an observed proportion lies from an exact probability.
/// Exactly 0 when they agree on a certain event; infinite when a certain event failed.
pub fn proportion_z(successes: u64, trials: u64, exact: f64) -> f64 {
    let observed = successes as f64 / trials as f64;
    let variance = exact * (1.0 - exact) / trials as f64;
    z_of(observed - exact, variance)
}

/// How many standard errors an observed mean lies from an exact mean, using the sample
/// variance of the observations.
pub fn mean_z(sum: u128, sum_of_squares: u128, n: u64, exact: f64) -> f64 {
    let count = n as f64;
    let mean = sum as f64 / count;
    let variance = ((sum_of_squares as f64 / count) - mean * mean).max(0.0) / count;
    z_of(mean - exact, variance)
}

fn z_of(difference: f64, variance: f64) -> f64 {
    if variance > 0.0 {
        difference / variance.sqrt()
    } else if difference.abs() < 1e-12 {
        0.0
    } else {
        f64::INFINITY
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn z_critical_is_the_95_percent_quantile() {
        assert!((z_critical() - 1.959_963_984_540_054).abs() < 1e-9);
    }

    /// Bonett–Price by hand (z = 1.959964): no trial of 1,000,000 differing, b̃ = c̃ =
    /// 1/1,000,002, centre 0, half z·√(2/1,000,002)/√1,000,002 = z·1.414214/1,000,002 =
    /// 2.7718·10⁻⁶. One trial of 20,000 where only the first happened: b̃ = 2/20,002, c̃ =
    /// 1/20,002, centre 1/20,002 = 5.0·10⁻⁵, half z·√(3/20,002 − 2.5·10⁻⁹)/√20,002 =
    /// 1.6972·10⁻⁴: [−1.1972·10⁻⁴, 2.1971·10⁻⁴] around the point 5·10⁻⁵, wider than
    /// the spread's normal interval [−4.8·10⁻⁵, 1.48·10⁻⁴]. Every trial differing one way
    /// stays within [−1, 1].
    #[test]
    fn a_paired_difference_of_chances_is_never_narrower_than_its_trials_allow() {
        let none = Estimate::paired_proportions_difference(0, 0, 1_000_000);
        assert_eq!(none.point, 0.0);
        assert!((none.hi - 2.7718e-6).abs() < 1e-10, "{none:?}");
        assert!((none.lo + 2.7718e-6).abs() < 1e-10, "{none:?}");
        let one = Estimate::paired_proportions_difference(1, 0, 20_000);
        assert_eq!(one.point, 5e-5);
        assert!((one.lo + 1.1972e-4).abs() < 1e-8, "{one:?}");
        assert!((one.hi - 2.1971e-4).abs() < 1e-8, "{one:?}");
        let spread = Estimate::paired_difference(1, 1, 20_000);
        assert!(one.half_width() > spread.half_width());
        let all = Estimate::paired_proportions_difference(1000, 0, 1000);
        assert_eq!(all.point, 1.0);
        assert!(all.hi <= 1.0 && all.lo > 0.99, "{all:?}");
    }

    #[test]
    fn wilson_matches_a_textbook_value() {
        // 81 of 263: Wilson 95% = [0.2553, 0.3662] (Newcombe 1998, example).
        let e = Estimate::proportion(81, 263);
        assert!((e.lo - 0.2553).abs() < 5e-5, "{e:?}");
        assert!((e.hi - 0.3662).abs() < 5e-5, "{e:?}");
    }

    #[test]
    fn wilson_stays_inside_the_unit_interval() {
        let none = Estimate::proportion(0, 10);
        assert_eq!((none.point, none.lo), (0.0, 0.0));
        assert!(none.hi > 0.2);
        let all = Estimate::proportion(10, 10);
        assert_eq!((all.point, all.hi), (1.0, 1.0));
        assert!(all.lo < 0.8);
    }

    #[test]
    fn mean_interval_from_sums() {
        // Samples 1..=4: mean 2.5, sample variance 5/3.
        let e = Estimate::mean(10, 30, 4);
        assert_eq!(e.point, 2.5);
        let half = z_critical() * (5.0f64 / 3.0 / 4.0).sqrt();
        assert!((e.half_width() - half).abs() < 1e-12);
    }

    #[test]
    fn z_scores() {
        assert_eq!(proportion_z(50, 100, 0.5), 0.0);
        assert!((proportion_z(60, 100, 0.5) - 2.0).abs() < 1e-12);
        assert_eq!(proportion_z(10, 10, 1.0), 0.0);
        assert!(proportion_z(9, 10, 1.0).is_infinite());
    }
}
