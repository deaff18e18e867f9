//! The map with the geometry lines that decided cover and flanking drawn over it.
//!
//! Segments sharing a label form a group; each group gets a numbered badge on the
//! map and a numbered legend entry, so long labels never clutter the map itself.

use plotters::prelude::*;

use super::canvas::{CENTER, Canvas, Drawn, Px};
use super::legend::{Entry, Swatch};
use super::map::{self, BattleMap, Layout, TerrainGrid};
use super::render::{Figure, render};
use super::style::{INK, Pattern};
use super::xy::{self, Frame};
use super::{Chart, ChartError, ChartSize};

/// Input of [`lines_chart`].
#[derive(Debug, Clone, PartialEq)]
pub struct LinesChart {
    /// Chart title.
    pub title: String,
    /// Output size.
    pub size: ChartSize,
    /// The map with the creatures in their experiment positions.
    pub map: BattleMap,
    /// The lines to draw, in drawing order (later lines on top).
    pub segments: Vec<Segment>,
}

/// One geometry line in lattice coordinates: x right, y down, square (x, y)
/// spanning [x, x+1] × [y, y+1], so corners are whole numbers and square centres
/// end in .5.
#[derive(Debug, Clone, PartialEq)]
pub struct Segment {
    /// Start point.
    pub from: (f64, f64),
    /// End point.
    pub to: (f64, f64),
    /// How the line is drawn.
    pub kind: LineKind,
    /// The plan line and verdict it belongs to, e.g. "F → O: partial cover (1 of 4
    /// lines blocked)"; segments with equal labels share one numbered badge.
    pub label: String,
}

/// The verdict a line stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineKind {
    /// An unblocked line: solid, dark.
    Clear,
    /// A line blocked by a wall, low wall or creature: dashed, light red.
    Blocked,
    /// The line between two flankers' centres: thick dash-dot, blue.
    Flanking,
}

impl LineKind {
    fn name(self) -> &'static str {
        match self {
            Self::Clear => "clear line",
            Self::Blocked => "blocked line",
            Self::Flanking => "flanking line",
        }
    }

    fn look(self) -> (RGBColor, u32, Pattern) {
        match self {
            Self::Clear => (RGBColor(20, 20, 20), 2, Pattern::Solid),
            Self::Blocked => (RGBColor(240, 90, 60), 2, Pattern::Dashed),
            Self::Flanking => (RGBColor(33, 102, 172), 3, Pattern::DashDot),
        }
    }
}

/// Draws the map-with-lines chart. Segments with a non-finite end or an end off
/// the map are left out; an empty map gives a chart with a note.
pub fn lines_chart(data: &LinesChart) -> Result<Chart, ChartError> {
    render(data, data.size)
}

/// Draws one line with a white halo so it stays visible over walls and creatures.
pub(super) fn draw_segment<DB: DrawingBackend>(
    canvas: &Canvas<'_, DB>,
    a: (f64, f64),
    b: (f64, f64),
    kind: LineKind,
) -> Drawn {
    let (colour, width, dash) = kind.look();
    canvas.line(&[a, b], WHITE.to_rgba(), width + 3, Pattern::Solid)?;
    canvas.line(&[a, b], colour.to_rgba(), width, dash)
}

/// Draws a numbered badge centred on `at`.
pub(super) fn draw_badge<DB: DrawingBackend>(canvas: &Canvas<'_, DB>, at: Px, n: usize) -> Drawn {
    let text = n.to_string();
    let r = (canvas.text_width(&text, 12) / 2 + 5).max(9);
    canvas.rect((at.0 - r, at.1 - 9), (at.0 + r, at.1 + 9), WHITE.to_rgba())?;
    canvas.frame((at.0 - r, at.1 - 9), (at.0 + r, at.1 + 9), INK.to_rgba(), 1)?;
    canvas.text(&text, at, 12, INK, CENTER)
}

impl LinesChart {
    /// Distinct labels in order of first appearance; a segment's group is its index + 1.
    fn groups(&self) -> Vec<&str> {
        let mut labels: Vec<&str> = Vec::new();
        for s in &self.segments {
            if !labels.contains(&s.label.as_str()) {
                labels.push(&s.label);
            }
        }
        labels
    }

    fn drawable(&self, layout: &Layout) -> Vec<&Segment> {
        let ok = |p: (f64, f64)| p.0.is_finite() && p.1.is_finite() && layout.contains(p);
        self.segments
            .iter()
            .filter(|s| ok(s.from) && ok(s.to))
            .collect()
    }
}

impl Figure for LinesChart {
    fn draw<DB: DrawingBackend>(&self, canvas: &Canvas<'_, DB>) -> Result<(), String> {
        let grid = TerrainGrid::new(&self.map);
        let groups = self.groups();
        let mut entries: Vec<Entry> = [LineKind::Clear, LineKind::Blocked, LineKind::Flanking]
            .into_iter()
            .filter(|k| self.segments.iter().any(|s| s.kind == *k))
            .map(|k| Entry::new(Swatch::Line(k), k.name()))
            .collect();
        entries.extend(grid.legend());
        if !self.map.creatures.is_empty() {
            entries.push(Entry::new(Swatch::Creature, "creature (by letter)"));
        }
        entries.extend(
            groups
                .iter()
                .enumerate()
                .map(|(i, l)| Entry::new(Swatch::Badge(i + 1), *l)),
        );
        let frame = Frame::new(canvas, &self.title, entries)?;
        let (x0, y0) = frame.plot.get_base_pixel();
        let (w, h) = frame.plot.dim_in_pixel();
        let (w, h) = (i32::try_from(w).unwrap_or(0), i32::try_from(h).unwrap_or(0));
        let Some(layout) = Layout::fit((x0, y0), (w, h), grid.cols, grid.rows()) else {
            let message = if grid.rows() == 0 || grid.cols == 0 {
                "empty map"
            } else {
                "map too large for this chart size"
            };
            xy::note(canvas, message, (x0 + w / 2, y0 + h / 2))?;
            return frame.draw_legend(canvas);
        };
        map::draw_terrain(canvas, &grid, &layout, |_, _| None)?;
        map::draw_creatures(canvas, &self.map, &grid, &layout)?;
        map::draw_border(canvas, &layout)?;

        let segments = self.drawable(&layout);
        for s in &segments {
            draw_segment(canvas, layout.point(s.from), layout.point(s.to), s.kind)?;
        }
        let mut used: Vec<Px> = Vec::new();
        for (i, label) in groups.iter().enumerate() {
            let Some(first) = segments.iter().find(|s| s.label == *label) else {
                continue;
            };
            // Not the midpoint: a flanking line's midpoint is the target's centre,
            // where the badge would hide the target's letter.
            let spot = (
                first.from.0 + (first.to.0 - first.from.0) * 0.3,
                first.from.1 + (first.to.1 - first.from.1) * 0.3,
            );
            let (mx, my) = layout.point(spot);
            let mut at = (mx.round() as i32, my.round() as i32);
            while used
                .iter()
                .any(|u| (u.0 - at.0).abs() < 22 && (u.1 - at.1).abs() < 20)
            {
                at.1 += 20;
            }
            used.push(at);
            draw_badge(canvas, at, i + 1)?;
        }
        frame.draw_legend(canvas)
    }
}
