//! Down and dead by round: two side-by-side panels (cumulative P(down), P(dead))
//! with one line per target, its 95% band, and rings at the exact values.

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

/// Picks one measure (down or dead) from a round.
type Measure = fn(&RoundPoint) -> Estimate;

/// Splits a target's points into runs of consecutive rounds, so a missing round
/// breaks the line instead of being bridged.
fn runs(points: &[RoundPoint], pick: Measure) -> Vec<Vec<(f64, Estimate)>> {
    let mut sorted: Vec<&RoundPoint> = points.iter().collect();
    sorted.sort_by_key(|p| p.round);
    sorted.dedup_by_key(|p| p.round);
    let mut out: Vec<Vec<(f64, Estimate)>> = Vec::new();
    let mut previous: Option<u32> = None;
    for p in sorted {
        let Some(e) = xy::clean(pick(p)) else {
            previous = None;
            continue;
        };
        let point = (f64::from(p.round), e);
        match (previous, out.last_mut()) {
            (Some(r), Some(run)) if r + 1 == p.round => run.push(point),
            _ => out.push(vec![point]),
        }
        previous = Some(p.round);
    }
    out
}

impl Figure for RoundsChart {
    fn draw<DB: DrawingBackend>(&self, canvas: &Canvas<'_, DB>) -> Result<(), String> {
        let mut entries: Vec<Entry> = self
            .targets
            .iter()
            .enumerate()
            .map(|(i, t)| Entry::new(Swatch::Series(series_style(i)), t.label.clone()))
            .collect();
        entries.push(Entry::new(Swatch::Band, "95% interval"));
        entries.push(Entry::new(Swatch::Ring, "exact value"));
        let frame = Frame::new(canvas, &self.title, entries)?;

        let rounds = self
            .targets
            .iter()
            .flat_map(|t| t.rounds.iter().map(|p| p.round));
        let last = rounds.max().unwrap_or(1).max(1);
        let x = Axis::nice(0.5, f64::from(last) + 0.5, 12, true, "round");
        let y = Axis::probability("probability");

        let panels = frame.plot.split_evenly((1, 2));
        let measures: [(&str, Measure); 2] = [
            ("P(down) by the end of the round", |p| p.down),
            ("P(dead) by the end of the round", |p| p.dead),
        ];
        for (area, (caption, pick)) in panels.iter().zip(measures) {
            let chart = xy::panel(canvas, area, Some(caption), &x, &y)?;
            let series: Vec<Series> = self
                .targets
                .iter()
                .enumerate()
                .map(|(i, t)| Series {
                    style: series_style(i),
                    runs: runs(&t.rounds, pick),
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
}
