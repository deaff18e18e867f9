//! Figures by round, one line per target or side with its 95% band and rings at the
//! exact values: down and dead (two side-by-side panels, cumulative P(down) and
//! P(dead)), and who has won a fight by each round (one panel).

use plotters::prelude::*;

use super::canvas::Canvas;
use super::legend::{Entry, Swatch};
use super::render::{Figure, render};
use super::style::series_style;
use super::xy::{self, Axis, Frame, Series};
use super::{Chart, ChartError, ChartSize, Estimate};

/// Input of [`down_dead_chart`]: the rows of `rounds.csv`, grouped by target.
#[derive(Debug, Clone, PartialEq)]
pub struct RoundsChart {
    /// Chart title, e.g. the experiment title.
    pub title: String,
    /// Output size.
    pub size: ChartSize,
    /// One entry per target, in legend order.
    pub targets: Vec<TargetRounds>,
}

/// The rounds of one target.
#[derive(Debug, Clone, PartialEq)]
pub struct TargetRounds {
    /// Legend label, e.g. "Ogre (O)".
    pub label: String,
    /// Points by round (any order; rounds without a point leave a gap).
    pub rounds: Vec<RoundPoint>,
}

/// Cumulative probabilities by the end of one round.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RoundPoint {
    /// Round number, from 1.
    pub round: u32,
    /// P(down by the end of this round).
    pub down: Estimate,
    /// P(dead by the end of this round).
    pub dead: Estimate,
}

/// Draws the down/dead-by-round chart. Targets without points still get a legend
/// entry; with no points at all the panels say "no data".
pub fn down_dead_chart(data: &RoundsChart) -> Result<Chart, ChartError> {
    render(data, data.size)
}

/// Input of [`wins_chart`]: a fight's `encounter.csv`, grouped by side.
#[derive(Debug, Clone, PartialEq)]
pub struct WinsChart {
    /// Chart title.
    pub title: String,
    /// Output size.
    pub size: ChartSize,
    /// One line per side (and "undecided"), in legend order.
    pub sides: Vec<SideWins>,
}

/// One side's P(won by the end of each round).
#[derive(Debug, Clone, PartialEq)]
pub struct SideWins {
    /// Legend label, e.g. "party".
    pub label: String,
    /// (round from 1, P(won by the end of it)), in any order.
    pub rounds: Vec<(u32, Estimate)>,
}

/// Draws the who-has-won-by-round chart of a fight.
pub fn wins_chart(data: &WinsChart) -> Result<Chart, ChartError> {
    render(data, data.size)
}

/// Splits a line's points into runs of consecutive rounds, so a missing round breaks
/// the line instead of being bridged.
fn runs(points: impl Iterator<Item = (u32, Estimate)>) -> Vec<Vec<(f64, Estimate)>> {
    let mut sorted: Vec<(u32, Estimate)> = points.collect();
    sorted.sort_by_key(|p| p.0);
    sorted.dedup_by_key(|p| p.0);
    let mut out: Vec<Vec<(f64, Estimate)>> = Vec::new();
    let mut previous: Option<u32> = None;
    for (round, e) in sorted {
        let Some(e) = xy::clean(e) else {
            previous = None;
            continue;
        };
        let point = (f64::from(round), e);
        match (previous, out.last_mut()) {
            (Some(r), Some(run)) if r + 1 == round => run.push(point),
            _ => out.push(vec![point]),
        }
        previous = Some(round);
    }
    out
}

/// One panel of a by-round chart: its caption and, per line, that line's runs.
struct Panel<'a> {
    caption: &'a str,
    lines: Vec<Vec<Vec<(f64, Estimate)>>>,
}

/// Draws labelled lines by round in side-by-side panels over a shared legend.
fn draw_by_round<DB: DrawingBackend>(
    canvas: &Canvas<'_, DB>,
    title: &str,
    labels: &[&str],
    panels: &[Panel<'_>],
) -> Result<(), String> {
    let mut entries: Vec<Entry> = (labels.iter().enumerate())
        .map(|(i, label)| Entry::new(Swatch::Series(series_style(i)), *label))
        .collect();
    entries.push(Entry::new(Swatch::Band, "95% interval"));
    // The ring's entry only where a ring is drawn (a fight past the exact engine has none).
    let points = || (panels.iter().flat_map(|p| &p.lines)).flat_map(|runs| runs.iter().flatten());
    if points().any(|(_, e)| e.exact.is_some()) {
        entries.push(Entry::new(Swatch::Ring, "exact value"));
    }
    let frame = Frame::new(canvas, title, entries)?;

    let last = points().map(|p| p.0).fold(1.0, f64::max);
    let x = Axis::nice(0.5, last + 0.5, 12, true, "round");
    let y = Axis::probability("probability");

    let areas = frame.plot.split_evenly((1, panels.len().max(1)));
    for (area, panel) in areas.iter().zip(panels) {
        let chart = xy::panel(canvas, area, Some(panel.caption), &x, &y)?;
        let series: Vec<Series> = (panel.lines.iter().enumerate())
            .map(|(i, runs)| Series {
                style: series_style(i),
                runs: runs.clone(),
            })
            .collect();
        if series.iter().all(|s| s.runs.is_empty()) {
            let (cx, cy) = xy::to_pixels(&chart, x.lo + (x.hi - x.lo) / 2.0, 0.5);
            xy::note(canvas, "no data", (cx as i32, cy as i32))?;
        }
        xy::draw_series(canvas, &chart, &series)?;
    }
    frame.draw_legend(canvas)
}

impl Figure for RoundsChart {
    fn draw<DB: DrawingBackend>(&self, canvas: &Canvas<'_, DB>) -> Result<(), String> {
        let labels: Vec<&str> = self.targets.iter().map(|t| t.label.as_str()).collect();
        let lines = |pick: fn(&RoundPoint) -> Estimate| -> Vec<_> {
            (self.targets.iter())
                .map(|t| runs(t.rounds.iter().map(|p| (p.round, pick(p)))))
                .collect()
        };
        let panels = [
            Panel {
                caption: "P(down) by the end of the round",
                lines: lines(|p| p.down),
            },
            Panel {
                caption: "P(dead) by the end of the round",
                lines: lines(|p| p.dead),
            },
        ];
        draw_by_round(canvas, &self.title, &labels, &panels)
    }
}

impl Figure for WinsChart {
    fn draw<DB: DrawingBackend>(&self, canvas: &Canvas<'_, DB>) -> Result<(), String> {
        let labels: Vec<&str> = self.sides.iter().map(|s| s.label.as_str()).collect();
        let panel = Panel {
            caption: "P(won) by the end of the round",
            lines: (self.sides.iter())
                .map(|s| runs(s.rounds.iter().copied()))
                .collect(),
        };
        draw_by_round(canvas, &self.title, &labels, &[panel])
    }
}
