//! Legends laid out in their own strip below the plot, so they never cover data.
//!
//! Entries flow left to right and wrap; the caller asks for the strip's height
//! first, reserves it, and draws the legend there after the plot.

use plotters::prelude::*;

use super::canvas::{Canvas, Drawn, LEFT, Px};
use super::lines::LineKind;
use super::map::{Holds, TerrainKind, paint_terrain};
use super::style::{BAND_ALPHA, BAR, GRID, INK, LEGEND_PX, Pattern, SeriesStyle};

/// What a legend entry shows before its label.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Swatch {
    /// A series: its line with its marker.
    Series(SeriesStyle),
    /// A series drawn as markers alone (points not joined: categories).
    Marker(SeriesStyle),
    /// The light band of a 95% interval.
    Band,
    /// The ring drawn around exact values.
    Ring,
    /// A damage bar.
    Bar,
    /// An interval whisker.
    Whisker,
    /// The short black tick marking an exact bar height.
    ExactTick,
    /// A map square of one terrain.
    Terrain(TerrainKind),
    /// A square of raised (else sunken) floor, as the map marks it.
    Floor { raised: bool },
    /// An occupied square: white with a dark outline, as creatures on floor are drawn.
    Creature,
    /// A geometry line of one kind.
    Line(LineKind),
    /// A numbered badge naming a group of geometry lines.
    Badge(usize),
}

/// One legend entry.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Entry {
    pub(super) swatch: Swatch,
    pub(super) label: String,
}

impl Entry {
    pub(super) fn new(swatch: Swatch, label: impl Into<String>) -> Self {
        Self {
            swatch,
            label: label.into(),
        }
    }
}

const SWATCH_W: i32 = 34;
const GAP: i32 = 7;
const SPACING: i32 = 22;
const ROW_H: i32 = 24;
const PAD: i32 = 6;

/// Positions of entries relative to the strip's top-left corner, and the strip height.
fn layout<DB: DrawingBackend>(
    canvas: &Canvas<'_, DB>,
    entries: &[Entry],
    width: i32,
) -> (Vec<(Px, String)>, i32) {
    let mut placed = Vec::with_capacity(entries.len());
    let (mut x, mut y) = (0, PAD);
    let label_room = (width - SWATCH_W - GAP).max(20);
    for entry in entries {
        let label = canvas.fit(&entry.label, LEGEND_PX, label_room);
        let w = SWATCH_W + GAP + canvas.text_width(&label, LEGEND_PX);
        if x > 0 && x + w > width {
            x = 0;
            y += ROW_H;
        }
        placed.push(((x, y), label));
        x += w + SPACING;
    }
    let height = if entries.is_empty() {
        0
    } else {
        y + ROW_H + PAD
    };
    (placed, height)
}

/// Height the legend needs at this width (0 when there are no entries).
pub(super) fn height<DB: DrawingBackend>(
    canvas: &Canvas<'_, DB>,
    entries: &[Entry],
    width: i32,
) -> i32 {
    layout(canvas, entries, width).1
}

/// Draws the legend with its top-left corner at `origin`.
pub(super) fn draw<DB: DrawingBackend>(
    canvas: &Canvas<'_, DB>,
    entries: &[Entry],
    origin: Px,
    width: i32,
) -> Drawn {
    let (placed, _) = layout(canvas, entries, width);
    for (entry, ((x, y), label)) in entries.iter().zip(placed) {
        let (x, y) = (origin.0 + x, origin.1 + y);
        let mid = y + ROW_H / 2;
        draw_swatch(canvas, &entry.swatch, (x, mid))?;
        canvas.text(&label, (x + SWATCH_W + GAP, mid), LEGEND_PX, INK, LEFT)?;
    }
    Ok(())
}

/// Draws a swatch whose left end is at `(x, mid)`.
fn draw_swatch<DB: DrawingBackend>(
    canvas: &Canvas<'_, DB>,
    swatch: &Swatch,
    (x, mid): Px,
) -> Drawn {
    let (x0, x1, xm) = (f64::from(x), f64::from(x + SWATCH_W), x + SWATCH_W / 2);
    let y = f64::from(mid);
    match swatch {
        Swatch::Series(style) => {
            canvas.line(&[(x0, y), (x1, y)], style.color.to_rgba(), 2, style.dash)?;
            canvas.marker((xm, mid), style.marker, style.color.to_rgba(), 4)
        }
        Swatch::Marker(style) => canvas.marker((xm, mid), style.marker, style.color.to_rgba(), 4),
        Swatch::Band => canvas.rect((x, mid - 7), (x + SWATCH_W, mid + 7), INK.mix(BAND_ALPHA)),
        Swatch::Ring => canvas.ring((xm, mid), 6),
        Swatch::Bar => canvas.rect((xm - 6, mid - 8), (xm + 6, mid + 8), BAR.to_rgba()),
        Swatch::Whisker => {
            canvas.line(
                &[(f64::from(xm), y - 8.0), (f64::from(xm), y + 8.0)],
                INK.to_rgba(),
                1,
                Pattern::Solid,
            )?;
            for yy in [y - 8.0, y + 8.0] {
                canvas.line(
                    &[(f64::from(xm) - 4.0, yy), (f64::from(xm) + 4.0, yy)],
                    INK.to_rgba(),
                    1,
                    Pattern::Solid,
                )?;
            }
            Ok(())
        }
        Swatch::ExactTick => canvas.line(
            &[(f64::from(xm) - 7.0, y), (f64::from(xm) + 7.0, y)],
            INK.to_rgba(),
            3,
            Pattern::Solid,
        ),
        Swatch::Terrain(t) => {
            paint_terrain(canvas, ((xm - 9, mid - 9), 18), *t, Holds::Nothing)?;
            canvas.frame((xm - 9, mid - 9), (xm + 9, mid + 9), GRID.to_rgba(), 1)
        }
        Swatch::Floor { raised } => {
            let square = ((xm - 9, mid - 9), 18);
            paint_terrain(canvas, square, TerrainKind::Floor, Holds::Nothing)?;
            super::map::paint_floor_mark(canvas, square, *raised)?;
            canvas.frame((xm - 9, mid - 9), (xm + 9, mid + 9), GRID.to_rgba(), 1)
        }
        Swatch::Creature => super::map::paint_creature_square(canvas, ((xm - 9, mid - 9), 18)),
        Swatch::Line(kind) => super::lines::draw_segment(canvas, (x0, y), (x1, y), *kind),
        Swatch::Badge(n) => super::lines::draw_badge(canvas, (xm, mid), *n),
    }
}
