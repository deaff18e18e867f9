//! Distributions drawn as bars for the simulated probabilities, whiskers for their
//! intervals and black ticks at the exact values: total damage taken (one panel per
//! target stacked vertically on a shared damage axis) and the round a fight ends in.

use plotters::prelude::*;

use super::canvas::Canvas;
use super::legend::{Entry, Swatch};
use super::render::{Figure, render, render_svg};
use super::style::{BAR, INK, Pattern};
use super::xy::{self, Axis, Frame};
use super::{Chart, ChartError, ChartSize, Estimate};

/// Input of [`damage_chart`]: the rows of `damage.csv`, grouped by target.
#[derive(Debug, Clone, PartialEq)]
pub struct DamageChart {
    /// Chart title.
    pub title: String,
    /// Output size; allow about 180 px of height per target.
    pub size: ChartSize,
    /// One panel per target, top to bottom.
    pub targets: Vec<TargetDamage>,
}

/// The damage distribution of one target.
#[derive(Debug, Clone, PartialEq)]
pub struct TargetDamage {
    /// Panel caption, e.g. "Ogre (O)".
    pub label: String,
    /// One point per total-damage value that occurred.
    pub points: Vec<DamagePoint>,
}

/// P(total damage taken in a trial = `damage`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DamagePoint {
    /// Total damage in hit points.
    pub damage: u32,
    /// Simulated probability.
    pub probability: f64,
    /// 95% interval (lo, hi), drawn as a whisker when given.
    pub interval: Option<(f64, f64)>,
    /// Exact probability, drawn as a black tick when given.
    pub exact: Option<f64>,
}

/// Draws the damage-distribution chart. Panels that do not fit at a readable
/// height are left out and named in a note; a target without points says "no data".
pub fn damage_chart(data: &DamageChart) -> Result<Chart, ChartError> {
    render(data, data.size)
}

/// Input of [`length_chart`]: a fight's `fight_length.csv`.
#[derive(Debug, Clone, PartialEq)]
pub struct LengthChart {
    /// Chart title.
    pub title: String,
    /// Output size.
    pub size: ChartSize,
    /// P(the fight ends in round r), for r = 1, 2, … in order.
    pub ended: Vec<Estimate>,
}

/// Draws the fight-length chart: P(the fight ends in each round).
pub fn length_chart(data: &LengthChart) -> Result<Chart, ChartError> {
    render(data, data.size)
}

impl Figure for LengthChart {
    fn draw<DB: DrawingBackend>(&self, canvas: &Canvas<'_, DB>) -> Result<(), String> {
        let bars: Vec<DamagePoint> = (1u32..)
            .zip(&self.ended)
            .map(|(round, e)| DamagePoint {
                damage: round,
                probability: e.point,
                interval: Some((e.lo, e.hi)),
                exact: e.exact,
            })
            .collect();
        let panels = [("P(the fight ends in the round)", bars.as_slice())];
        let last = last_value(&panels);
        draw_bar_panels(canvas, &self.title, ("round", 1, last), &panels)
    }
}

/// Smallest panel height that still shows caption, axis and some bars.
const MIN_PANEL_H: i32 = 120;

fn finite(v: f64) -> f64 {
    if v.is_finite() {
        v.clamp(0.0, 1.0)
    } else {
        0.0
    }
}

/// The largest probability a panel must show, so bars, whiskers and ticks fit.
fn top_of(points: &[DamagePoint]) -> f64 {
    points
        .iter()
        .flat_map(|p| {
            [
                finite(p.probability),
                p.interval.map_or(0.0, |i| finite(i.1)),
                p.exact.map_or(0.0, finite),
            ]
        })
        .fold(0.0, f64::max)
}

/// The most panels of a [`DamageChart`] one printed page holds: three, with the title
/// and legend about 740 px tall at the chart's 720 px width, fit A4 and Letter below the
/// section's heading.
pub const PANELS_PER_PAGE: usize = 3;

impl DamageChart {
    /// The chart as figures of at most [`PANELS_PER_PAGE`] targets each, for a printed
    /// report: each drawn on the whole chart's damage axis, titled with the targets it
    /// holds, and sized by `size` from its number of panels. SVG only.
    pub fn pages(
        &self,
        mut size: impl FnMut(usize) -> ChartSize,
    ) -> Result<Vec<String>, ChartError> {
        let total = self.targets.len();
        let last = last_value(&panels_of(&self.targets));
        (self.targets.chunks(PANELS_PER_PAGE).enumerate())
            .map(|(k, targets)| {
                let (first, last_shown) =
                    (k * PANELS_PER_PAGE + 1, k * PANELS_PER_PAGE + targets.len());
                let title = match first == last_shown {
                    true => format!("{} ({first} of {total} targets)", self.title),
                    false => format!("{} ({first}–{last_shown} of {total} targets)", self.title),
                };
                let page = DamagePage {
                    title: &title,
                    targets,
                    last,
                };
                render_svg(&page, size(targets.len()))
            })
            .collect()
    }
}

/// Each target's (caption, bars).
fn panels_of(targets: &[TargetDamage]) -> Vec<(&str, &[DamagePoint])> {
    (targets.iter())
        .map(|t| (t.label.as_str(), t.points.as_slice()))
        .collect()
}

impl Figure for DamageChart {
    fn draw<DB: DrawingBackend>(&self, canvas: &Canvas<'_, DB>) -> Result<(), String> {
        let page = DamagePage {
            title: self.title.as_str(),
            targets: &self.targets,
            last: last_value(&panels_of(&self.targets)),
        };
        page.draw(canvas)
    }
}

/// Some of a [`DamageChart`]'s panels (or all), on the whole chart's damage axis (up to
/// `last`).
struct DamagePage<'a> {
    title: &'a str,
    targets: &'a [TargetDamage],
    last: u32,
}

impl Figure for DamagePage<'_> {
    fn draw<DB: DrawingBackend>(&self, canvas: &Canvas<'_, DB>) -> Result<(), String> {
        let axis = ("damage (hp)", 0, self.last);
        draw_bar_panels(canvas, self.title, axis, &panels_of(self.targets))
    }
}

/// The largest value any panel has a bar at.
fn last_value(panels: &[(&str, &[DamagePoint])]) -> u32 {
    (panels.iter())
        .flat_map(|(_, points)| points.iter().map(|p| p.damage))
        .max()
        .unwrap_or(0)
}

/// Draws one panel of bars per (caption, bars), stacked on a shared x axis given as its
/// description, its first value and its last; panels that do not fit at a readable
/// height are left out and named in the last caption, a panel without bars says "no
/// data".
fn draw_bar_panels<DB: DrawingBackend>(
    canvas: &Canvas<'_, DB>,
    title: &str,
    (axis, first, max_x): (&str, u32, u32),
    panels: &[(&str, &[DamagePoint])],
) -> Result<(), String> {
    let mut entries = vec![
        Entry::new(Swatch::Bar, "simulated probability"),
        Entry::new(Swatch::Whisker, "95% interval"),
    ];
    // The tick's entry only where a tick is drawn (a fight past the exact engine has none).
    if (panels.iter()).any(|(_, points)| points.iter().any(|p| p.exact.is_some())) {
        entries.push(Entry::new(Swatch::ExactTick, "exact value"));
    }
    let frame = Frame::new(canvas, title, entries)?;
    let (_, plot_h) = frame.plot.dim_in_pixel();
    let plot_h = i32::try_from(plot_h).unwrap_or(i32::MAX);
    let fit = usize::try_from(plot_h / MIN_PANEL_H).unwrap_or(1).max(1);
    let shown = panels.len().clamp(1, fit);
    let hidden = panels.len().saturating_sub(shown);

    let x = Axis::nice(
        f64::from(first) - 0.5,
        f64::from(max_x.max(first)) + 0.5,
        12,
        true,
        axis,
    );

    let areas = frame.plot.split_evenly((shown, 1));
    for (index, area) in areas.iter().enumerate() {
        let panel = panels.get(index);
        let points = panel.map_or(&[][..], |p| p.1);
        let top = top_of(points);
        let y = if top > 0.0 {
            Axis::nice(0.0, top * 1.08, 5, false, "probability")
        } else {
            Axis::probability("probability")
        };
        let mut caption = panel.map_or_else(|| "no targets".to_string(), |p| p.0.to_string());
        if hidden > 0 && index + 1 == shown {
            caption = format!("{caption} ({hidden} more targets not shown: enlarge the chart)");
        }
        let chart = xy::panel(canvas, area, Some(&caption), &x, &y)?;
        if points.is_empty() {
            let (cx, cy) = xy::to_pixels(&chart, (x.lo + x.hi) / 2.0, (y.lo + y.hi) / 2.0);
            xy::note(canvas, "no data", (cx as i32, cy as i32))?;
        }
        draw_bars(canvas, &chart, points)?;
    }
    frame.draw_legend(canvas)
}

fn draw_bars<DB: DrawingBackend>(
    canvas: &Canvas<'_, DB>,
    chart: &xy::XyChart<'_, DB>,
    points: &[DamagePoint],
) -> Result<(), String> {
    let at = |x: f64, y: f64| xy::to_pixels(chart, x, y);
    let ink = INK.to_rgba();
    for p in points {
        let d = f64::from(p.damage);
        let (x0, y0) = at(d - 0.4, 0.0);
        let (x1, y1) = at(d + 0.4, finite(p.probability));
        if x1 - x0 >= 2.0 {
            canvas.rect(
                (x0.round() as i32, y1.round() as i32),
                (x1.round() as i32, y0.round() as i32),
                BAR.to_rgba(),
            )?;
        } else {
            canvas.line(
                &[((x0 + x1) / 2.0, y0), ((x0 + x1) / 2.0, y1)],
                BAR.to_rgba(),
                1,
                Pattern::Solid,
            )?;
        }
    }
    for p in points {
        let d = f64::from(p.damage);
        let half = (at(d + 0.3, 0.0).0 - at(d, 0.0).0).clamp(0.0, 4.0);
        if let Some((lo, hi)) = p.interval {
            let (cx, ylo) = at(d, finite(lo));
            let (_, yhi) = at(d, finite(hi));
            canvas.line(&[(cx, ylo), (cx, yhi)], ink, 1, Pattern::Solid)?;
            if half >= 2.0 {
                for yy in [ylo, yhi] {
                    canvas.line(&[(cx - half, yy), (cx + half, yy)], ink, 1, Pattern::Solid)?;
                }
            }
        }
        if let Some(v) = p.exact {
            let (cx, yv) = at(d, finite(v));
            let w = half.max(2.0) + 2.0;
            canvas.line(&[(cx - w, yv), (cx + w, yv)], ink, 2, Pattern::Solid)?;
        }
    }
    Ok(())
}
