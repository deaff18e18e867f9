//! A progress bar on stderr for long runs, only when stderr is a terminal.

use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressState, ProgressStyle};

use d20odds::run::Phase;

/// Shows the units done (trials, heatmap squares), units per second and the time left;
/// for the exact fights, which come in few units of uneven length, a spinner and the
/// time spent instead of a rate and a time left.
pub struct PhaseBar {
    bar: Option<ProgressBar>,
}

impl PhaseBar {
    pub fn new(total: u64, phase: Phase, quiet: bool) -> Self {
        let bar = (!quiet && std::io::stderr().is_terminal()).then(|| {
            let bar = ProgressBar::new(total);
            let unit = phase.unit();
            let template = match phase {
                Phase::Exact => format!(
                    "{{spinner}} computing exact figures: {{pos}}/{{len}} {unit} done  {{elapsed}}"
                ),
                Phase::Trials | Phase::Squares => format!(
                    "{{wide_bar}} {{human_pos}}/{{human_len}} {unit}  {{rate}} {unit}/s  ETA {{eta}}"
                ),
            };
            let rate = |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = w.write_str(&rate(state.per_sec()));
            };
            bar.set_style(
                ProgressStyle::with_template(&template)
                    .map(|style| style.with_key("rate", rate))
                    .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            bar.enable_steady_tick(Duration::from_millis(200));
            bar
        });
        Self { bar }
    }

    pub fn set(&self, done: u64) {
        if let Some(bar) = &self.bar {
            bar.set_position(done);
        }
    }

    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// Units per second in three figures at most: `3.41M`, `27.5k`, `812`.
fn rate(per_second: f64) -> String {
    let three_figures = |x: f64, suffix: &str| match x {
        x if x >= 100.0 => format!("{x:.0}{suffix}"),
        x if x >= 10.0 => format!("{x:.1}{suffix}"),
        x => format!("{x:.2}{suffix}"),
    };
    match per_second {
        x if x >= 1e6 => three_figures(x / 1e6, "M"),
        x if x >= 1e3 => three_figures(x / 1e3, "k"),
        x if x.is_finite() && x >= 0.0 => format!("{x:.0}"),
        _ => "…".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::rate;

    #[test]
    fn rates_are_three_figures_with_a_suffix() {
        assert_eq!(rate(3_410_243.36), "3.41M");
        assert_eq!(rate(27_512.0), "27.5k");
        assert_eq!(rate(812.4), "812");
        assert_eq!(rate(0.0), "0");
        assert_eq!(rate(f64::NAN), "…");
    }
}
