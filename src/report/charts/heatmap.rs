//! The heatmap over the battle map: each square a creature was tried on is shaded
//! by a probability, with the value printed in percent when squares are large
//! enough (on the mover's own squares too, under its raised letter), and a colour bar
//! explaining the shades, from 0 to a top fitted to the largest value.

use plotters::prelude::*;

use super::canvas::{CENTER, Canvas, Drawn, LEFT};
use super::legend::{Entry, Swatch};
use super::map::{self, BattleMap, Creature, Layout, TerrainGrid, TerrainKind};
use super::render::{Figure, render};
use super::style::{
    AXIS_PX, INK, MIN_TEXT_PX, Pattern, TICK_PX, WIDEST_PERCENT_LABELS, format_number, luminance,
    percent_label,
};
use super::xy::{self, Frame};
use super::{Chart, ChartError, ChartSize};

/// Input of [`heatmap_chart`]: `heatmap.csv` for one measure, over the map.
#[derive(Debug, Clone, PartialEq)]
pub struct HeatmapChart {
    /// Chart title.
    pub title: String,
    /// Output size; the map keeps square cells and is centred in it.
    pub size: ChartSize,
    /// The map with the creatures in their experiment positions.
    pub map: BattleMap,
    /// `values[y][x]` in [0, 1] for square (x, y); `None` (or a missing entry) where
    /// the creature was not tried.
    pub values: Vec<Vec<Option<f64>>>,
    /// What the shades mean, e.g. "P(hit) of R's longbow against O".
    pub value_label: String,
}

/// Draws the heatmap. An empty map or one too large for the size gives a chart
/// with a note instead of the map.
pub fn heatmap_chart(data: &HeatmapChart) -> Result<Chart, ChartError> {
    render(data, data.size)
}

/// Sequential scale from light to dark with lightness falling monotonically, so
/// shades keep their order in greyscale; its lightest end stays darker than the
/// white of untried squares.
const STOPS: [RGBColor; 5] = [
    RGBColor(199, 233, 180),
    RGBColor(127, 205, 187),
    RGBColor(29, 145, 192),
    RGBColor(37, 52, 148),
    RGBColor(8, 29, 88),
];

/// The colour of a probability (clamped to [0, 1]).
fn heat(v: f64) -> RGBColor {
    let v = if v.is_finite() {
        v.clamp(0.0, 1.0)
    } else {
        0.0
    };
    let scaled = v * (STOPS.len() - 1) as f64;
    let i = (scaled.floor() as usize).min(STOPS.len() - 2);
    let t = scaled - i as f64;
    let (a, b) = (STOPS[i], STOPS[i + 1]);
    let mix = |x: u8, y: u8| (f64::from(x) + (f64::from(y) - f64::from(x)) * t).round() as u8;
    RGBColor(mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
}

/// Whether values are printed: where the widest one fits its square at the smallest
/// print size.
fn values_fit<DB: DrawingBackend>(canvas: &Canvas<'_, DB>, layout: &Layout) -> bool {
    let widest = WIDEST_PERCENT_LABELS.map(|label| canvas.text_width(label, MIN_TEXT_PX));
    widest.into_iter().max().unwrap_or(0) + 4 <= layout.cell
}

/// The colour bar's top and its tick step: the first that holds the largest value, so
/// that values all below 20% still take the scale's whole range of shades (the bar says
/// where it ends; the squares print their values).
const SCALES: [(f64, f64); 7] = [
    (0.02, 0.005),
    (0.05, 0.01),
    (0.1, 0.02),
    (0.2, 0.05),
    (0.25, 0.05),
    (0.5, 0.1),
    (1.0, 0.25),
];

/// The whole scale, 0 to 100%: the last of [`SCALES`].
const FULL_SCALE: (f64, f64) = SCALES[SCALES.len() - 1];

/// The scale ([`SCALES`]) whose top holds `largest`.
fn scale_for(largest: f64) -> (f64, f64) {
    (SCALES.into_iter())
        .find(|&(top, _)| largest <= top)
        .unwrap_or(FULL_SCALE)
}

/// The colour of value `v` on a scale from 0 to `top`.
fn shade(v: f64, top: f64) -> RGBColor {
    heat(v / top)
}

/// Pixels kept white inside a tried creature's square, within its outline.
const CREATURE_INSET: i32 = 3;

/// Width kept right of the map for the colour bar, its ticks and its label.
const BAR_STRIP: i32 = 130;
const BAR_W: i32 = 18;

impl HeatmapChart {
    fn value(&self, x: usize, y: usize) -> Option<f64> {
        let v = self.values.get(y)?.get(x).copied().flatten()?;
        v.is_finite().then(|| v.clamp(0.0, 1.0))
    }

    /// The colour bar's top and tick step, fitted to the largest value (the full scale
    /// when no square has one).
    fn scale(&self) -> (f64, f64) {
        let values = self.values.iter().flatten().flatten();
        let finite = values.copied().filter(|v| v.is_finite());
        finite.reduce(f64::max).map_or(FULL_SCALE, scale_for)
    }

    fn draw_values<DB: DrawingBackend>(
        &self,
        canvas: &Canvas<'_, DB>,
        grid: &TerrainGrid,
        layout: &Layout,
        top: f64,
    ) -> Drawn {
        if !values_fit(canvas, layout) {
            return Ok(());
        }
        let px = MIN_TEXT_PX;
        for (y, row) in grid.cells.iter().enumerate() {
            for (x, &terrain) in row.iter().enumerate() {
                let blocks = matches!(terrain, TerrainKind::Wall | TerrainKind::Slit);
                let Some(v) = self.value(x, y).filter(|_| !blocks) else {
                    continue;
                };
                let ((cx, cy), s) = layout.cell_at(x, y);
                let ink = if luminance(shade(v, top)) < 0.45 {
                    WHITE
                } else {
                    INK
                };
                let text = percent_label(v);
                canvas.text(&text, (cx + s / 2, cy + s * 3 / 4), px, ink, CENTER)?;
            }
        }
        Ok(())
    }

    fn draw_colour_bar<DB: DrawingBackend>(
        &self,
        canvas: &Canvas<'_, DB>,
        layout: &Layout,
        bottom_limit: i32,
        (scale_top, step): (f64, f64),
    ) -> Drawn {
        let (_, top) = layout.top_left();
        let (right, bottom) = layout.bottom_right();
        let x = right + 22;
        let height = (bottom - top).max(160).min(bottom_limit - top);
        if height < 40 {
            return Ok(());
        }
        let slices = 64;
        for i in 0..slices {
            let y0 = top + height * i / slices;
            let y1 = top + height * (i + 1) / slices;
            let v = 1.0 - (f64::from(i) + 0.5) / f64::from(slices);
            canvas.rect((x, y0), (x + BAR_W, y1), heat(v).to_rgba())?;
        }
        canvas.frame((x, top), (x + BAR_W, top + height), INK.to_rgba(), 1)?;
        let ticks = (scale_top / step).round() as u32;
        for tick in 0..=ticks {
            let share = f64::from(tick) / f64::from(ticks);
            let y = f64::from(top) + f64::from(height) * (1.0 - share);
            let xr = f64::from(x + BAR_W);
            canvas.line(&[(xr, y), (xr + 5.0, y)], INK.to_rgba(), 1, Pattern::Solid)?;
            let label = format!("{}%", format_number(share * scale_top * 100.0, 1));
            canvas.text(&label, (x + BAR_W + 8, y as i32), TICK_PX, INK, LEFT)?;
        }
        let label = canvas.fit(&self.value_label, AXIS_PX, height);
        canvas.vertical_text(
            &label,
            (x + BAR_W + 58 + AXIS_PX as i32 / 2, top + height / 2),
            AXIS_PX,
            INK,
        )
    }
}

impl Figure for HeatmapChart {
    fn draw<DB: DrawingBackend>(&self, canvas: &Canvas<'_, DB>) -> Result<(), String> {
        let grid = TerrainGrid::new(&self.map);
        let mut entries = vec![Entry::new(Swatch::Terrain(TerrainKind::Floor), "not tried")];
        entries.extend(grid.legend());
        if !self.map.creatures.is_empty() {
            entries.push(Entry::new(Swatch::Creature, "creature (by letter)"));
        }
        let frame = Frame::new(canvas, &self.title, entries)?;
        let (x0, y0) = frame.plot.get_base_pixel();
        let (w, h) = frame.plot.dim_in_pixel();
        let (w, h) = (i32::try_from(w).unwrap_or(0), i32::try_from(h).unwrap_or(0));
        let Some(layout) = Layout::fit((x0, y0), (w - BAR_STRIP, h), grid.cols, grid.rows()) else {
            let message = if grid.rows() == 0 || grid.cols == 0 {
                "empty map"
            } else {
                "map too large for this chart size"
            };
            xy::note(canvas, message, (x0 + w / 2, y0 + h / 2))?;
            return frame.draw_legend(canvas);
        };
        // Fitted once: every square and the bar are shaded on the same scale.
        let (top, step) = self.scale();
        let base = |x: usize, y: usize| self.value(x, y).map(|v| shade(v, top));
        map::draw_terrain(canvas, &grid, &layout, base)?;
        map::draw_creatures(canvas, &self.map, &grid, &layout)?;
        // The mover's own squares were tried too: their shade within its outline.
        let tried = |c: &Creature| {
            (map::squares_on_map(c, &grid).into_iter()).any(|(x, y)| self.value(x, y).is_some())
        };
        for creature in &self.map.creatures {
            for (x, y) in map::squares_on_map(creature, &grid) {
                if let Some(v) = self.value(x, y) {
                    let ((px, py), s) = layout.cell_at(x, y);
                    let inset = CREATURE_INSET;
                    let (from, to) = ((px + inset, py + inset), (px + s - inset, py + s - inset));
                    canvas.rect(from, to, shade(v, top).to_rgba())?;
                }
            }
        }
        self.draw_values(canvas, &grid, &layout, top)?;
        let values_shown = values_fit(canvas, &layout);
        map::draw_floors(canvas, &grid, &layout)?;
        map::draw_letters(canvas, &self.map, &grid, &layout, |c| {
            values_shown && tried(c)
        })?;
        map::draw_border(canvas, &layout)?;
        self.draw_colour_bar(canvas, &layout, y0 + h, (top, step))?;
        frame.draw_legend(canvas)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::charts::ChartSize;
    use crate::report::charts::tests::text_places;

    /// Where the first text element drawing `text` is in a rendered SVG, and its `y`.
    fn text_at(svg: &str, text: &str) -> (usize, f64) {
        let places = text_places(svg, text, "y");
        *places.first().unwrap_or_else(|| panic!("{text}"))
    }

    /// The mover's own square shows its value (42%) over its block's outline, below its
    /// letter, raised so that the two do not meet (O, not tried, keeps its letter in the
    /// middle).
    #[test]
    fn the_movers_own_square_shows_its_value_below_its_letter() {
        let creature = |letter, x| Creature {
            letter,
            squares: vec![(x, 1)],
        };
        let mut values = vec![vec![None; 5]; 3];
        values[1][1] = Some(0.42);
        values[1][2] = Some(0.9);
        let chart = HeatmapChart {
            title: "t".into(),
            size: ChartSize::default(),
            map: BattleMap {
                rows: vec![".....".into(), ".R.O.".into(), ".....".into()],
                floors: Vec::new(),
                creatures: vec![creature('R', 1), creature('O', 3)],
            },
            values,
            value_label: "v".into(),
        };
        let svg = super::super::render::render_svg(&chart, chart.size).expect("renders");
        let outline = svg.find("<polyline").expect("the creatures' outlines");
        let (value_at, value_y) = text_at(&svg, "42%");
        assert!(
            value_at > outline,
            "the value is drawn under the creature's block"
        );
        let (_, letter_y) = text_at(&svg, "R");
        let (_, other_y) = text_at(&svg, "O");
        assert!(
            letter_y < other_y && other_y < value_y,
            "{letter_y} {other_y} {value_y}"
        );
        assert_eq!(
            svg.matches("%\n</text>").count(),
            2 + 5,
            "42%, 90% and the bar's 5"
        );
    }

    /// Values of at most 18% take the whole range of shades: the bar ends at 20%, ticked
    /// every 5% (0, 5, 10, 15, 20: no 25% or 100%), and an 18% square is as dark as 90%
    /// is on the full scale (0.18 / 0.2 = 0.9).
    #[test]
    fn the_colour_bar_ends_at_the_first_top_that_holds_the_largest_value() {
        let chart = HeatmapChart {
            title: "t".into(),
            size: ChartSize::default(),
            map: BattleMap {
                rows: vec!["...".into()],
                floors: Vec::new(),
                creatures: vec![],
            },
            values: vec![vec![Some(0.18), Some(0.0), None]],
            value_label: "v".into(),
        };
        assert_eq!(chart.scale(), (0.2, 0.05));
        assert_eq!(shade(0.18, 0.2), heat(0.9));
        let svg = super::super::render::render_svg(&chart, chart.size).expect("renders");
        for tick in ["0%", "5%", "10%", "15%", "20%"] {
            text_at(&svg, tick);
        }
        assert!(!svg.contains(">\n25%\n<") && !svg.contains(">\n100%\n<"));
        assert_eq!(scale_for(0.0), (0.02, 0.005));
        assert_eq!(scale_for(0.2), (0.2, 0.05));
        assert_eq!(scale_for(0.21), (0.25, 0.05));
        assert_eq!(scale_for(0.96), (1.0, 0.25));
        let untried = HeatmapChart {
            values: vec![vec![None, Some(f64::NAN)]],
            ..chart
        };
        assert_eq!(
            untried.scale(),
            FULL_SCALE,
            "nothing tried: the whole scale"
        );
    }

    #[test]
    fn scale_darkens_monotonically_and_stays_off_white() {
        let mut previous = 1.0;
        for i in 0..=20 {
            let l = luminance(heat(f64::from(i) / 20.0));
            assert!(l < previous, "step {i}");
            previous = l;
        }
        assert!(luminance(heat(0.0)) < 0.9);
        assert_eq!(heat(f64::NAN), heat(0.0));
        assert_eq!(heat(7.0), heat(1.0));
    }
}
