//! Sweep curves: a probability against the swept value, one line per plan line,
//! with 95% bands and rings at the exact values.

use plotters::prelude::*;

use super::canvas::Canvas;
use super::legend::{Entry, Swatch};
use super::render::{Figure, render};
use super::style::{TICK_PX, format_number, series_style};
use super::xy::{self, Axis, Frame, MARGIN, Series};
use super::{Chart, ChartError, ChartSize, Estimate};

/// Input of [`sweep_chart`].
#[derive(Debug, Clone, PartialEq)]
pub struct SweepChart {
    /// Chart title.
    pub title: String,
    /// Output size.
    pub size: ChartSize,
    /// The swept field with its unit, e.g. "O.ac (AC)".
    pub x_label: String,
    /// The plotted probability, e.g. "P(hit)".
    pub y_label: String,
    /// The sweep points, in order.
    pub x: SweepAxis,
    /// One series per plan line.
    pub series: Vec<SweepSeries>,
}

/// The swept values: numbers are placed to scale, anything else (a cover level, a
/// cartesian product of several sweeps) as evenly spaced categories.
#[derive(Debug, Clone, PartialEq)]
pub enum SweepAxis {
    /// Numeric values, placed to scale.
    Numeric(Vec<f64>),
    /// Category labels, in display order.
    Categories(Vec<String>),
}

impl SweepAxis {
    fn len(&self) -> usize {
        match self {
            Self::Numeric(v) => v.len(),
            Self::Categories(v) => v.len(),
        }
    }

    /// The x position of point `i`, if it can be placed.
    fn position(&self, i: usize) -> Option<f64> {
        match self {
            Self::Numeric(v) => v.get(i).copied().filter(|x| x.is_finite()),
            Self::Categories(v) => (i < v.len()).then_some(i as f64),
        }
    }
}

/// One plan line's values across the sweep.
#[derive(Debug, Clone, PartialEq)]
pub struct SweepSeries {
    /// Legend label, e.g. "Fighter (F) → Ogre (O): longsword #1".
    pub label: String,
    /// One value per sweep point, aligned with [`SweepChart::x`]; `None` where the
    /// attack was not made (a gap in the line).
    pub points: Vec<Option<Estimate>>,
}

/// Draws the sweep chart. Points beyond the axis length are ignored; with no
/// points the plot says "no data".
pub fn sweep_chart(data: &SweepChart) -> Result<Chart, ChartError> {
    render(data, data.size)
}

/// The most between two neighbouring points of one category, in categories: a category's
/// points stay close to its label.
const DODGE_STEP: f64 = 0.12;

/// Runs of consecutive placed points, sorted by x. On a numeric axis a run is a line;
/// categories are not joined (nothing lies between two variants), so each of their points
/// is a run of its own, and the `of` series' points of one category stand side by side,
/// series `series` at its own offset, so that two series of equal values both show.
fn runs(
    axis: &SweepAxis,
    points: &[Option<Estimate>],
    (series, of): (usize, usize),
) -> Vec<Vec<(f64, Estimate)>> {
    let estimate = |i: usize| points.get(i).copied().flatten().and_then(xy::clean);
    if let SweepAxis::Categories(_) = axis {
        let offset = xy::dodge(series, of, DODGE_STEP);
        return (0..axis.len())
            .filter_map(|i| Some(vec![(axis.position(i)? + offset, estimate(i)?)]))
            .collect();
    }
    let mut placed: Vec<(f64, Option<Estimate>)> = (0..axis.len())
        .filter_map(|i| Some((axis.position(i)?, estimate(i))))
        .collect();
    placed.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut out: Vec<Vec<(f64, Estimate)>> = Vec::new();
    let mut open = false;
    for (x, e) in placed {
        match (e, open, out.last_mut()) {
            (Some(e), true, Some(run)) => run.push((x, e)),
            (Some(e), _, _) => {
                out.push(vec![(x, e)]);
                open = true;
            }
            (None, _, _) => open = false,
        }
    }
    out
}

/// The least gap between two tick labels, in pixels.
const TICK_GAP: i32 = 14;

/// Keeps every k-th tick so labels of `label_w` pixels fit in `room` pixels.
fn thin(ticks: Vec<(f64, String)>, label_w: i32, room: i32) -> Vec<(f64, String)> {
    let fit = usize::try_from(room / (label_w + TICK_GAP).max(1))
        .unwrap_or(1)
        .max(1);
    let step = ticks.len().div_ceil(fit).max(1);
    ticks.into_iter().step_by(step).collect()
}

impl SweepChart {
    fn x_axis<DB: DrawingBackend>(&self, canvas: &Canvas<'_, DB>) -> Axis {
        let (w, _) = canvas.size();
        let room = w - 2 * MARGIN - 90;
        let (lo, hi, ticks) = match &self.x {
            SweepAxis::Numeric(values) => {
                let mut xs: Vec<f64> = values.iter().copied().filter(|v| v.is_finite()).collect();
                xs.sort_by(f64::total_cmp);
                xs.dedup();
                let (min, max) = match (xs.first(), xs.last()) {
                    (Some(&a), Some(&b)) if b > a => (a, b),
                    (Some(&a), _) => (a - 1.0, a + 1.0),
                    _ => (0.0, 1.0),
                };
                let pad = (max - min) * 0.04;
                let ticks: Vec<(f64, String)> =
                    xs.iter().map(|&v| (v, format_number(v, 4))).collect();
                (min - pad, max + pad, ticks)
            }
            SweepAxis::Categories(labels) => {
                let n = labels.len().max(1);
                let slot = room / i32::try_from(n).unwrap_or(i32::MAX).max(1);
                // Each label on up to two lines of its slot less the gap `thin` keeps
                // between labels (shortened only past that), so that every category keeps
                // its label while slots are wide enough for one.
                let ticks = (labels.iter().enumerate())
                    .map(|(i, s)| {
                        let lines = canvas.wrap_two(s, TICK_PX, (slot - TICK_GAP).max(60));
                        (i as f64, lines.join("\n"))
                    })
                    .collect();
                (-0.5, n as f64 - 0.5, ticks)
            }
        };
        let label_w = (ticks.iter())
            .flat_map(|(_, s): &(f64, String)| s.lines())
            .map(|line| canvas.text_width(line, TICK_PX))
            .max()
            .unwrap_or(0);
        Axis {
            lo,
            hi,
            ticks: thin(ticks, label_w, room),
            desc: self.x_label.clone(),
        }
    }
}

impl Figure for SweepChart {
    fn draw<DB: DrawingBackend>(&self, canvas: &Canvas<'_, DB>) -> Result<(), String> {
        let mut entries: Vec<Entry> = self
            .series
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let style = series_style(i);
                let swatch = match self.x {
                    SweepAxis::Categories(_) => Swatch::Marker(style),
                    SweepAxis::Numeric(_) => Swatch::Series(style),
                };
                Entry::new(swatch, s.label.clone())
            })
            .collect();
        entries.push(Entry::new(Swatch::Band, "95% interval"));
        // The ring's entry only where a ring is drawn.
        let mut points = self.series.iter().flat_map(|s| s.points.iter().flatten());
        if points.any(|e| e.exact.is_some()) {
            entries.push(Entry::new(Swatch::Ring, "exact value"));
        }
        let frame = Frame::new(canvas, &self.title, entries)?;

        let x = self.x_axis(canvas);
        let y = Axis::probability(&self.y_label);
        let chart = xy::panel(canvas, &frame.plot, None, &x, &y)?;
        let of = self.series.len();
        let series: Vec<Series> = (self.series.iter().enumerate())
            .map(|(i, s)| Series {
                style: series_style(i),
                runs: runs(&self.x, &s.points, (i, of)),
            })
            .collect();
        if series.iter().all(|s| s.runs.is_empty()) {
            let (cx, cy) = xy::to_pixels(&chart, (x.lo + x.hi) / 2.0, 0.5);
            xy::note(canvas, "no data", (cx as i32, cy as i32))?;
        }
        xy::draw_series(canvas, &chart, &series)?;
        frame.draw_legend(canvas)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(v: f64) -> Option<Estimate> {
        Some(Estimate {
            point: v,
            lo: v,
            hi: v,
            exact: None,
        })
    }

    #[test]
    fn gaps_split_runs_and_numeric_points_are_sorted() {
        let axis = SweepAxis::Numeric(vec![20.0, 16.0, 18.0, 22.0]);
        let r = runs(&axis, &[e(0.3), e(0.5), e(0.4), None], (0, 1));
        assert_eq!(r.len(), 1);
        let xs: Vec<f64> = r[0].iter().map(|p| p.0).collect();
        assert_eq!(xs, vec![16.0, 18.0, 20.0]);
    }

    /// Categories are never joined, and two series of the same values stand apart: with
    /// 2 series, offsets of ∓0.06 slots (half of 0.12 apart); with 10, 0.07 apart (0.7
    /// spread over 10), the last at 4.5 × 0.07.
    #[test]
    fn category_points_stand_alone_side_by_side() {
        let cats = SweepAxis::Categories(vec!["a".into(), "b".into(), "c".into()]);
        let points = [e(0.1), None, e(0.2), e(0.9)];
        let xs = |series, of| -> Vec<f64> {
            let r = runs(&cats, &points, (series, of));
            assert!(r.iter().all(|run| run.len() == 1), "{r:?}");
            r.iter().map(|run| run[0].0).collect()
        };
        let near = |got: Vec<f64>, want: [f64; 2]| {
            assert!(
                (got.iter().zip(want)).all(|(g, w)| (g - w).abs() < 1e-12),
                "{got:?}"
            );
        };
        near(xs(0, 1), [0.0, 2.0]);
        near(xs(0, 2), [-0.06, 1.94]);
        near(xs(1, 2), [0.06, 2.06]);
        near(xs(9, 10), [4.5 * 0.07, 2.0 + 4.5 * 0.07]);
    }

    /// Categories draw no line of a series' colour, in the plot or its legend (which
    /// shows the marker alone); numbers do. Series 0 is drawn in `COLOURS[0]`, with a
    /// round marker (no lines of its own).
    #[test]
    fn categories_draw_no_series_line_even_in_the_legend() {
        let chart = |x| SweepChart {
            title: "t".into(),
            size: ChartSize::default(),
            x_label: "x".into(),
            y_label: "y".into(),
            x,
            series: vec![SweepSeries {
                label: "s".into(),
                points: vec![e(0.3), e(0.6)],
            }],
        };
        let colour = super::super::style::series_style(0).color;
        let stroke = format!(
            "stroke=\"#{:02X}{:02X}{:02X}\"",
            colour.0, colour.1, colour.2
        );
        let lines = |x| {
            let svg = super::super::render::render_svg(&chart(x), ChartSize::default()).unwrap();
            svg.split("<polyline")
                .skip(1)
                .filter(|p| p.contains(&stroke))
                .count()
        };
        assert!(lines(SweepAxis::Numeric(vec![1.0, 2.0])) >= 2, "{stroke}");
        assert_eq!(
            lines(SweepAxis::Categories(vec!["a".into(), "b".into()])),
            0
        );
    }

    #[test]
    fn thinning_keeps_labels_apart() {
        let ticks: Vec<(f64, String)> = (0..20).map(|i| (f64::from(i), i.to_string())).collect();
        assert_eq!(thin(ticks.clone(), 20, 1000).len(), 20);
        assert_eq!(thin(ticks, 20, 170).len(), 5);
    }
}
