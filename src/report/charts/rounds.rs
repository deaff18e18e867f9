//! Figures by round, one line per target or side with its 95% band and rings at the
//! exact values: down and dead (two side-by-side panels, cumulative P(down) and
//! P(dead)), and who has won a fight by each round (one panel).

use plotters::prelude::*;

use super::canvas::{CENTER, Canvas};
use super::legend::{Entry, Swatch};
use super::render::{Figure, render};
use super::style::{INK, MIN_TEXT_PX, percent_label, series_style};
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

/// The most between two neighbouring points of a single round, in rounds: the round is
/// the whole axis, so its points may stand well apart.
const SINGLE_ROUND_STEP: f64 = 0.25;

/// `runs` moved `offset` rounds along the axis.
fn dodged(runs: &[Vec<(f64, Estimate)>], offset: f64) -> Vec<Vec<(f64, Estimate)>> {
    (runs.iter())
        .map(|run| run.iter().map(|&(x, e)| (x + offset, e)).collect())
        .collect()
}

/// Writes each point's value in percent above its interval, as the heatmap writes its
/// squares': a single round's points are read one by one. Only where the labels of two
/// neighbours cannot meet.
fn label_values<DB: DrawingBackend>(
    canvas: &Canvas<'_, DB>,
    chart: &xy::XyChart<'_, DB>,
    series: &[Series],
) -> Result<(), String> {
    let labels: Vec<(f64, Estimate, String)> = (series.iter())
        .flat_map(|s| s.runs.iter().flatten())
        .map(|&(x, e)| (x, e, percent_label(e.point)))
        .collect();
    let widest = (labels.iter())
        .map(|(_, _, label)| canvas.text_width(label, MIN_TEXT_PX))
        .max()
        .unwrap_or(0);
    let xs: Vec<f64> = (labels.iter())
        .map(|&(x, _, _)| xy::to_pixels(chart, x, 0.0).0)
        .collect();
    let closest = (xs.iter().enumerate())
        .flat_map(|(i, a)| xs[i + 1..].iter().map(move |b| (a - b).abs()))
        .fold(f64::INFINITY, f64::min);
    if closest < f64::from(widest + 4) {
        return Ok(());
    }
    let axis_top = xy::to_pixels(chart, 0.0, 1.0).1;
    for (x, e, label) in &labels {
        let (px, top) = xy::to_pixels(chart, *x, e.hi);
        // Below the interval where above it would leave the plot (for the caption).
        let y = match top - f64::from(VALUE_LIFT_PX) < axis_top {
            true => xy::to_pixels(chart, *x, e.lo).1 + f64::from(VALUE_LIFT_PX),
            false => top - f64::from(VALUE_LIFT_PX),
        };
        canvas.text(
            label,
            (px.round() as i32, y.round() as i32),
            MIN_TEXT_PX,
            INK,
            CENTER,
        )?;
    }
    Ok(())
}

/// How far above a point's interval (and its exact value's ring) its label stands.
const VALUE_LIFT_PX: i32 = 16;

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
    // A single round has no lines to tell the series apart: their points stand side by
    // side in it, so that equal values (often 0) both show.
    let single_round = last <= 1.0;
    // Only lines with a point take a place in the round, numbered alike in every panel.
    let has_points: Vec<bool> = (0..labels.len())
        .map(|i| (panels.iter()).any(|p| p.lines.get(i).is_some_and(|runs| !runs.is_empty())))
        .collect();
    let placed = |i: usize| has_points[..i].iter().filter(|&&b| b).count();
    let of = placed(labels.len());

    let areas = frame.plot.split_evenly((1, panels.len().max(1)));
    for (area, panel) in areas.iter().zip(panels) {
        let chart = xy::panel(canvas, area, Some(panel.caption), &x, &y)?;
        let series: Vec<Series> = (panel.lines.iter().enumerate())
            .map(|(i, runs)| Series {
                style: series_style(i),
                runs: match single_round {
                    true => dodged(runs, xy::dodge(placed(i), of, SINGLE_ROUND_STEP)),
                    false => runs.clone(),
                },
            })
            .collect();
        if series.iter().all(|s| s.runs.is_empty()) {
            let (cx, cy) = xy::to_pixels(&chart, x.lo + (x.hi - x.lo) / 2.0, 0.5);
            xy::note(canvas, "no data", (cx as i32, cy as i32))?;
        }
        xy::draw_series(canvas, &chart, &series)?;
        if single_round {
            label_values(canvas, &chart, &series)?;
        }
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
