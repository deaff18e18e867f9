//! A progress bar on stderr for long runs, only when stderr is a terminal.

use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};

/// Shows the units done (trials, heatmap squares), units per second and the time left.
pub struct PhaseBar {
    bar: Option<ProgressBar>,
}

impl PhaseBar {
    pub fn new(total: u64, unit: &str, quiet: bool) -> Self {
        let bar = (!quiet && std::io::stderr().is_terminal()).then(|| {
            let bar = ProgressBar::new(total);
            bar.set_style(
                ProgressStyle::with_template(&format!(
                    "{{bar:40}} {{human_pos}}/{{human_len}} {unit}  {{per_sec}}  ETA {{eta}}"
                ))
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
