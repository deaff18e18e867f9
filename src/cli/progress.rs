//! A progress bar on stderr for long runs, only when stderr is a terminal.

use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};

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
                    "{{bar:40}} {{human_pos}}/{{human_len}} {unit}  {{per_sec}}  ETA {{eta}}"
                ),
            };
            bar.set_style(
                ProgressStyle::with_template(&template)
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
