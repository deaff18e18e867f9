//! The common frame of the x/y charts: title, plot region, legend strip, axes with
//! explicit ticks, and probability series drawn as band + line + markers + rings.

use plotters::coord::Shift;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;

use super::Estimate;
use super::canvas::{CENTER, Canvas, Drawn, RIGHT};
use super::legend::{self, Entry};
use super::style::{
    AXIS_PX, BAND_ALPHA, CAPTION_PX, GRID, INK, LEGEND_PX, Pattern, SeriesStyle, TICK_PX, TITLE_PX,
    format_number,
};

/// Outer margin of every chart, in pixels.
pub(super) const MARGIN: i32 = 12;
/// The height of a line of tick labels, in pixels.
const TICK_LINE_PX: i32 = TICK_PX as i32 + 3;
/// The smallest plot region height worth drawing.
const MIN_PLOT_H: i32 = 120;

/// One axis: its range, the ticks to label and its description with units.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Axis {
    pub(super) lo: f64,
    pub(super) hi: f64,
    pub(super) ticks: Vec<(f64, String)>,
    pub(super) desc: String,
}

impl Axis {
    /// The [0, 1] probability axis with ticks every 0.2.
    pub(super) fn probability(desc: &str) -> Self {
        let ticks = (0..=5)
            .map(|i| {
                let v = f64::from(i) * 0.2;
                (v, format_number(v, 1))
            })
            .collect();
        Self {
            lo: 0.0,
            hi: 1.0,
            ticks,
            desc: desc.to_string(),
        }
    }

    /// An axis over [lo, hi] with at most `max_ticks` ticks at 1-2-5 steps;
    /// `integer` keeps steps whole (rounds, hit points).
    pub(super) fn nice(lo: f64, hi: f64, max_ticks: usize, integer: bool, desc: &str) -> Self {
        let (lo, hi) = if lo.is_finite() && hi.is_finite() && hi > lo {
            (lo, hi)
        } else {
            (0.0, 1.0)
        };
        let count = max_ticks.clamp(2, 20) as f64;
        let mut step = nice_step((hi - lo) / (count - 1.0));
        if integer {
            step = step.max(1.0).round();
        }
        let decimals = if step >= 1.0 {
            0
        } else {
            (-step.log10().floor()) as usize
        };
        let mut ticks = Vec::new();
        let mut k = (lo / step).ceil();
        while k * step <= hi + step * 1e-9 && ticks.len() < 64 {
            let v = k * step;
            ticks.push((v, format_number(v, decimals)));
            k += 1.0;
        }
        Self {
            lo,
            hi,
            ticks,
            desc: desc.to_string(),
        }
    }
}

/// The 1-2-5 step at or above `raw`.
fn nice_step(raw: f64) -> f64 {
    if !(raw.is_finite() && raw > 0.0) {
        return 1.0;
    }
    let magnitude = 10f64.powf(raw.log10().floor());
    let n = raw / magnitude;
    let factor = if n <= 1.0 {
        1.0
    } else if n <= 2.0 {
        2.0
    } else if n <= 5.0 {
        5.0
    } else {
        10.0
    };
    factor * magnitude
}

/// A plotters chart over two f64 ranges; plotters supplies the layout (caption,
/// label areas) and the data-to-pixel mapping, the axes are drawn here.
pub(super) type XyChart<'a, DB> = ChartContext<'a, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// Builds a panel and draws its grid lines at the ticks, axis lines, tick labels
/// and axis descriptions; the data is then drawn in pixels through [`to_pixels`].
pub(super) fn panel<'a, DB: DrawingBackend>(
    canvas: &Canvas<'_, DB>,
    area: &'a DrawingArea<DB, Shift>,
    caption: Option<&str>,
    x: &Axis,
    y: &Axis,
) -> Result<XyChart<'a, DB>, String> {
    // A tick label may take two lines (`\n`): the axis description goes below them.
    let tick_lines = (x.ticks.iter())
        .map(|(_, label)| label.lines().count())
        .max()
        .unwrap_or(1)
        .max(1);
    let extra_lines = i32::try_from(tick_lines - 1).unwrap_or(0) * TICK_LINE_PX;
    let mut builder = ChartBuilder::on(area);
    builder
        .margin(8)
        .margin_right(18)
        .x_label_area_size(48 + extra_lines)
        .y_label_area_size(64);
    if let Some(text) = caption {
        let (x0, y0) = area.get_base_pixel();
        let width = i32::try_from(area.dim_in_pixel().0).unwrap_or(0);
        let line = canvas.fit(text, CAPTION_PX, width - 16);
        let centre = (x0 + width / 2, y0 + 8 + CAPTION_PX as i32 / 2);
        canvas.text(&line, centre, CAPTION_PX, INK, CENTER)?;
        builder.margin_top(16 + CAPTION_PX);
    }
    let chart = builder
        .build_cartesian_2d(x.lo..x.hi, y.lo..y.hi)
        .map_err(|e| e.to_string())?;
    let (left, bottom) = to_pixels(&chart, x.lo, y.lo);
    let (right, top) = to_pixels(&chart, x.hi, y.hi);
    let grid = GRID.to_rgba();
    let ink = INK.to_rgba();
    for (v, label) in &x.ticks {
        let (px, _) = to_pixels(&chart, *v, y.lo);
        canvas.line(&[(px, bottom), (px, top)], grid, 1, Pattern::Solid)?;
        canvas.line(&[(px, bottom), (px, bottom + 5.0)], ink, 1, Pattern::Solid)?;
        for (row, line) in (0..).zip(label.lines()) {
            let y = bottom as i32 + 16 + row * TICK_LINE_PX;
            canvas.text(line, (px as i32, y), TICK_PX, INK, CENTER)?;
        }
    }
    for (v, label) in &y.ticks {
        let (_, py) = to_pixels(&chart, x.lo, *v);
        canvas.line(&[(left, py), (right, py)], grid, 1, Pattern::Solid)?;
        canvas.line(&[(left - 5.0, py), (left, py)], ink, 1, Pattern::Solid)?;
        canvas.text(label, (left as i32 - 8, py as i32), TICK_PX, INK, RIGHT)?;
    }
    canvas.line(
        &[(left, top), (left, bottom), (right, bottom)],
        ink,
        1,
        Pattern::Solid,
    )?;
    let mid_x = ((left + right) / 2.0) as i32;
    let mid_y = ((top + bottom) / 2.0) as i32;
    let x_desc = canvas.fit(&x.desc, AXIS_PX, (right - left) as i32);
    let desc_y = bottom as i32 + 38 + extra_lines;
    canvas.text(&x_desc, (mid_x, desc_y), AXIS_PX, INK, CENTER)?;
    let y_desc = canvas.fit(&y.desc, AXIS_PX, (bottom - top) as i32);
    canvas.vertical_text(&y_desc, (left as i32 - 52, mid_y), AXIS_PX, INK)?;
    Ok(chart)
}

/// Maps data coordinates of a panel to absolute pixels.
pub(super) fn to_pixels<DB: DrawingBackend>(chart: &XyChart<'_, DB>, x: f64, y: f64) -> (f64, f64) {
    let (px, py) = chart.backend_coord(&(x, y));
    (f64::from(px), f64::from(py))
}

/// Draws the chart title centred at the top, on two lines if it needs them, and returns the
/// height it takes.
pub(super) fn title<DB: DrawingBackend>(
    canvas: &Canvas<'_, DB>,
    text: &str,
) -> Result<i32, String> {
    let (w, _) = canvas.size();
    let lines = canvas.wrap_two(text, TITLE_PX, w - 2 * MARGIN);
    let line_height = TITLE_PX as i32 + 4;
    let first_centre = MARGIN + TITLE_PX as i32 / 2 + 2;
    for (row, line) in (0..).zip(&lines) {
        let centre = (w / 2, first_centre + row * line_height);
        canvas.text(line, centre, TITLE_PX, INK, CENTER)?;
    }
    let extra_lines = i32::try_from(lines.len()).unwrap_or(1) - 1;
    Ok(TITLE_PX as i32 + 2 * MARGIN + extra_lines * line_height)
}

/// Writes a short note (such as "no data") centred in a region.
pub(super) fn note<DB: DrawingBackend>(
    canvas: &Canvas<'_, DB>,
    text: &str,
    centre: (i32, i32),
) -> Drawn {
    canvas.text(text, centre, LEGEND_PX, INK, CENTER)
}

/// The layout of a chart: title on top, legend strip at the bottom, plot between.
pub(super) struct Frame<DB: DrawingBackend> {
    /// The region for the plot (panels, axes).
    pub(super) plot: DrawingArea<DB, Shift>,
    legend: Vec<Entry>,
    legend_top: i32,
    width: i32,
}

impl<DB: DrawingBackend> Frame<DB> {
    /// Draws the title and reserves the legend strip. Entries that would squeeze
    /// the plot below a readable height are folded into a final "… more" entry.
    pub(super) fn new(
        canvas: &Canvas<'_, DB>,
        title_text: &str,
        entries: Vec<Entry>,
    ) -> Result<Self, String> {
        let (w, h) = canvas.size();
        let top = title(canvas, title_text)?;
        let width = w - 2 * MARGIN;
        let room = h - top - MARGIN - MIN_PLOT_H;
        let mut shown = entries.clone();
        let mut legend_h = legend::height(canvas, &shown, width);
        let mut keep = entries.len();
        while legend_h > room && keep > 0 {
            keep -= 1;
            shown = entries[..keep].to_vec();
            if let Some(last) = shown.last_mut() {
                last.label = format!("{} … ({} more not shown)", last.label, entries.len() - keep);
            }
            legend_h = legend::height(canvas, &shown, width);
        }
        let legend_top = h - MARGIN - legend_h;
        let plot = canvas.root().margin(top, MARGIN + legend_h, MARGIN, MARGIN);
        Ok(Self {
            plot,
            legend: shown,
            legend_top,
            width,
        })
    }

    /// Draws the reserved legend; called after the plot.
    pub(super) fn draw_legend(&self, canvas: &Canvas<'_, DB>) -> Drawn {
        legend::draw(canvas, &self.legend, (MARGIN, self.legend_top), self.width)
    }
}

/// Clamps an estimate into [0, 1] with lo ≤ value ≤ hi; `None` if it is not a number.
pub(super) fn clean(e: Estimate) -> Option<Estimate> {
    if !e.point.is_finite() {
        return None;
    }
    let unit = |v: f64| v.clamp(0.0, 1.0);
    let value = unit(e.point);
    let lo = if e.lo.is_finite() {
        unit(e.lo).min(value)
    } else {
        value
    };
    let hi = if e.hi.is_finite() {
        unit(e.hi).max(value)
    } else {
        value
    };
    let exact = e.exact.filter(|v| v.is_finite()).map(unit);
    Some(Estimate {
        point: value,
        lo,
        hi,
        exact,
    })
}

/// The widest spread of one slot's points across it (in slots).
const DODGE_SPREAD: f64 = 0.7;

/// Where series `series` of `of` stands in a slot, from its middle (in slots), at most
/// `most_step` from its neighbours: the points of one slot stand side by side, so that
/// two series of equal values both show.
pub(super) fn dodge(series: usize, of: usize, most_step: f64) -> f64 {
    let step = (DODGE_SPREAD / of.max(1) as f64).min(most_step);
    (series as f64 - (of.max(1) - 1) as f64 / 2.0) * step
}

/// A probability series: contiguous runs of (x, estimate) points in one style.
pub(super) struct Series {
    pub(super) style: SeriesStyle,
    pub(super) runs: Vec<Vec<(f64, Estimate)>>,
}

/// Draws series in layers (all bands, then lines, then markers, then exact rings)
/// so no band hides another series' line.
pub(super) fn draw_series<DB: DrawingBackend>(
    canvas: &Canvas<'_, DB>,
    chart: &XyChart<'_, DB>,
    series: &[Series],
) -> Drawn {
    let at = |x: f64, y: f64| to_pixels(chart, x, y);
    let px = |x: f64, y: f64| {
        let (a, b) = at(x, y);
        (a.round() as i32, b.round() as i32)
    };
    for s in series {
        let band = s.style.color.mix(BAND_ALPHA);
        for run in &s.runs {
            if let [(x, e)] = run.as_slice() {
                let (cx, _) = px(*x, e.point);
                canvas.rect((cx - 3, px(*x, e.hi).1), (cx + 3, px(*x, e.lo).1), band)?;
            } else {
                let upper = run.iter().map(|(x, e)| px(*x, e.hi));
                let lower = run.iter().rev().map(|(x, e)| px(*x, e.lo));
                canvas.polygon(upper.chain(lower).collect(), band)?;
            }
        }
    }
    for s in series {
        for run in &s.runs {
            let line: Vec<(f64, f64)> = run.iter().map(|(x, e)| at(*x, e.point)).collect();
            canvas.line(&line, s.style.color.to_rgba(), 2, s.style.dash)?;
        }
    }
    let marked: Vec<Vec<(f64, Estimate)>> = series
        .iter()
        .map(|s| {
            s.runs
                .iter()
                .flat_map(|run| spaced(run, |x| px(x, 0.0).0))
                .collect()
        })
        .collect();
    for (s, points) in series.iter().zip(&marked) {
        for &(x, e) in points {
            canvas.marker(px(x, e.point), s.style.marker, s.style.color.to_rgba(), 4)?;
        }
    }
    for &(x, e) in marked.iter().flatten() {
        if let Some(v) = e.exact {
            canvas.ring(px(x, v), 8)?;
        }
    }
    Ok(())
}

/// Fewest pixels between two markers of one line: a line denser than this (a sweep of
/// thousands of values) is marked at every few points instead of smeared with markers,
/// which also keeps its SVG from growing with every point.
const MARKER_GAP_PX: i32 = 6;

/// The points of a run that get a marker: the first, then each at least
/// [`MARKER_GAP_PX`] to the right of the last one marked (`pixel_x` places a point).
fn spaced<'a>(
    run: &'a [(f64, Estimate)],
    pixel_x: impl Fn(f64) -> i32 + 'a,
) -> impl Iterator<Item = (f64, Estimate)> + 'a {
    let mut last: Option<i32> = None;
    run.iter().copied().filter(move |(x, _)| {
        let at = pixel_x(*x);
        let keep = last.is_none_or(|l| at - l >= MARKER_GAP_PX);
        if keep {
            last = Some(at);
        }
        keep
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_are_spaced_on_dense_lines_and_all_kept_on_sparse_ones() {
        let e = Estimate {
            point: 0.5,
            lo: 0.4,
            hi: 0.6,
            exact: None,
        };
        let run: Vec<(f64, Estimate)> = (0..10).map(|i| (f64::from(i), e)).collect();
        let sparse: Vec<f64> = spaced(&run, |x| (x * 10.0) as i32).map(|p| p.0).collect();
        assert_eq!(sparse.len(), 10);
        let dense: Vec<f64> = spaced(&run, |x| (x * 2.0) as i32).map(|p| p.0).collect();
        assert_eq!(dense, [0.0, 3.0, 6.0, 9.0]);
    }

    #[test]
    fn nice_axes_use_round_steps() {
        let a = Axis::nice(0.0, 47.0, 6, true, "damage (hp)");
        let values: Vec<f64> = a.ticks.iter().map(|t| t.0).collect();
        assert_eq!(values, vec![0.0, 10.0, 20.0, 30.0, 40.0]);
        let b = Axis::nice(0.0, 0.031, 5, false, "probability");
        assert_eq!(b.ticks[1].1, "0.01");
        let degenerate = Axis::nice(3.0, 3.0, 5, true, "x");
        assert!(degenerate.hi > degenerate.lo && !degenerate.ticks.is_empty());
        let single = Axis::nice(0.5, 1.5, 5, true, "round");
        assert_eq!(single.ticks, vec![(1.0, "1".to_string())]);
    }

    #[test]
    fn estimates_are_clamped_and_ordered() {
        let e = clean(Estimate {
            point: 1.2,
            lo: 0.9,
            hi: f64::NAN,
            exact: Some(-0.1),
        })
        .expect("finite value");
        assert_eq!((e.point, e.lo, e.hi, e.exact), (1.0, 0.9, 1.0, Some(0.0)));
        assert!(
            clean(Estimate {
                point: f64::NAN,
                lo: 0.0,
                hi: 0.0,
                exact: None
            })
            .is_none()
        );
    }
}
