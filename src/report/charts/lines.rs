//! The map with the geometry lines that decided cover and flanking drawn over it.
//!
//! Segments sharing a label form a group; each group gets a numbered badge on the
//! map and a numbered legend entry, so long labels never clutter the map itself.

use plotters::prelude::*;

use super::canvas::{CENTER, Canvas, Drawn, Px};
use super::legend::{Entry, Swatch};
use super::map::{self, BattleMap, Layout, TerrainGrid};
use super::render::{Figure, render};
use super::style::{INK, MIN_TEXT_PX, Pattern};
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
    /// A creature's move in a variant, from where the experiment puts it to where the
    /// variant does: thick, green, with an arrowhead at the variant's square.
    Moved,
}

impl LineKind {
    fn name(self) -> &'static str {
        match self {
            Self::Clear => "clear line",
            Self::Blocked => "blocked line",
            Self::Flanking => "flanking line",
            Self::Moved => "moved in a variant",
        }
    }

    fn look(self) -> (RGBColor, u32, Pattern) {
        match self {
            Self::Clear => (RGBColor(20, 20, 20), 2, Pattern::Solid),
            Self::Blocked => (RGBColor(240, 90, 60), 2, Pattern::Dashed),
            Self::Flanking => (RGBColor(33, 102, 172), 3, Pattern::DashDot),
            Self::Moved => (RGBColor(35, 139, 69), 3, Pattern::Solid),
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

/// An arrowhead's length and half its width, in pixels.
const ARROWHEAD: (f64, f64) = (14.0, 6.0);

/// Draws an arrowhead of `kind`'s colour with its tip at `b`, pointing from `a`.
fn draw_arrowhead<DB: DrawingBackend>(
    canvas: &Canvas<'_, DB>,
    a: (f64, f64),
    b: (f64, f64),
    kind: LineKind,
) -> Drawn {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let length = dx.hypot(dy);
    if length < 1.0 {
        return Ok(());
    }
    let (ux, uy) = (dx / length, dy / length);
    // Never longer than part of a short move (one square of a small map).
    let scale = (0.4 * length / ARROWHEAD.0).min(1.0);
    let (long, half) = (ARROWHEAD.0 * scale, ARROWHEAD.1 * scale);
    let base = (b.0 - ux * long, b.1 - uy * long);
    let corner = |side: f64| {
        let x = base.0 - uy * half * side;
        let y = base.1 + ux * half * side;
        (x.round() as i32, y.round() as i32)
    };
    let tip = (b.0.round() as i32, b.1.round() as i32);
    canvas.polygon(
        vec![tip, corner(1.0), corner(-1.0)],
        kind.look().0.to_rgba(),
    )
}

/// The squares a creature moved by `arrow` fills where it arrives: the creature whose
/// block is centred on the arrow's start, shifted by the arrow (whole squares), those on
/// the map; `None` when no creature is centred there or it moves by part of a square.
fn moved_block(
    map: &BattleMap,
    grid: &TerrainGrid,
    arrow: &Segment,
) -> Option<Vec<(usize, usize)>> {
    let (dx, dy) = (arrow.to.0 - arrow.from.0, arrow.to.1 - arrow.from.1);
    let whole = |d: f64| (d.round() - d).abs() < 1e-9;
    if !whole(dx) || !whole(dy) {
        return None;
    }
    let creature = map.creatures.iter().find(|c| {
        map::block_centre(c, grid)
            .is_some_and(|(x, y)| (x - arrow.from.0).hypot(y - arrow.from.1) < 1e-9)
    })?;
    let (dx, dy) = (dx.round() as isize, dy.round() as isize);
    let moved = (map::squares_on_map(creature, grid).into_iter())
        .filter_map(|(x, y)| Some((x.checked_add_signed(dx)?, y.checked_add_signed(dy)?)))
        .filter(|&(x, y)| x < grid.cols && y < grid.rows())
        .collect();
    Some(moved)
}

/// Where a move's arrow from `from` ends: its square's centre `to`, or, where a letter's
/// white patch (one of `patches`, edges included) covers that point (another creature
/// stands there, as when two swap squares), a pixel short of the patches it meets going
/// back, so that the patches, drawn over the lines, leave the arrowhead in view.
fn arrow_tip(from: (f64, f64), to: (f64, f64), patches: &[Rect]) -> (f64, f64) {
    let (dx, dy) = (from.0 - to.0, from.1 - to.1);
    let length = dx.hypot(dy);
    if length < 1.0 {
        return to;
    }
    // A pixel across in x or y, whichever the arrow runs along more, as a share of it.
    let pixel = 1.0 / dx.abs().max(dy.abs());
    let leave = |at: f64, d: f64, low: f64, high: f64| match d {
        d if d > 0.0 => (high - at) / d,
        d if d < 0.0 => (low - at) / d,
        _ => f64::INFINITY,
    };
    // How far back from `to` towards `from` the tip goes, as a share of the arrow: out
    // of each patch it is in, until it is in none (patches overlap on small squares).
    let mut back = 0.0;
    for _ in 0..=patches.len() {
        let (x, y) = (to.0 + back * dx, to.1 + back * dy);
        let covering = (patches.iter()).find(|&&(l, t, r, b)| x >= l && x <= r && y >= t && y <= b);
        let Some(&(l, t, r, b)) = covering else {
            break;
        };
        back += leave(x, dx, l, r).min(leave(y, dy, t, b)) + pixel;
        if back >= 1.0 {
            return to;
        }
    }
    (to.0 + back * dx, to.1 + back * dy)
}

/// Half the width and height of badge `n` in pixels: its digits at [`MIN_TEXT_PX`]
/// (about 9 px each) with a margin.
fn badge_half_size(n: usize) -> (i32, i32) {
    let digits = i32::try_from(n.to_string().len()).unwrap_or(1);
    ((digits * 9 + 1) / 2 + 6, 11)
}

/// Fractions along a group's first line tried in turn for its badge: nearer the
/// attacker's end, and never the midpoint, where a flanking line's target stands.
const BADGE_SPOTS: [f64; 9] = [0.3, 0.2, 0.4, 0.15, 0.6, 0.7, 0.1, 0.8, 0.9];

/// Pixel steps tried above and below a spot when every spot along the line is taken.
const BADGE_NUDGES: [i32; 8] = [20, -20, 40, -40, 60, -60, 80, -80];

/// A rectangle in pixels: (left, top, right, bottom).
type Rect = (f64, f64, f64, f64);

fn overlaps(a: Rect, b: Rect) -> bool {
    a.0 < b.2 && b.0 < a.2 && a.1 < b.3 && b.1 < a.3
}

fn badge_rect(at: Px, n: usize) -> Rect {
    let (w, h) = badge_half_size(n);
    let (x, y) = (f64::from(at.0), f64::from(at.1));
    (
        x - f64::from(w),
        y - f64::from(h),
        x + f64::from(w),
        y + f64::from(h),
    )
}

/// Where badge `n` goes on a line from `from` to `to` (pixels): the first spot of
/// [`BADGE_SPOTS`], then of those spots nudged up or down, that covers no creature's
/// letter and no badge placed before; the first spot if every one is taken.
fn badge_spot(from: (f64, f64), to: (f64, f64), n: usize, letters: &[Rect], used: &[Rect]) -> Px {
    let along = |f: f64| {
        let x = from.0 + (to.0 - from.0) * f;
        let y = from.1 + (to.1 - from.1) * f;
        (x.round() as i32, y.round() as i32)
    };
    let free = |at: Px| {
        let rect = badge_rect(at, n);
        !letters.iter().chain(used).any(|&r| overlaps(rect, r))
    };
    let straight = BADGE_SPOTS.iter().map(|&f| along(f));
    let nudged = BADGE_NUDGES.iter().flat_map(|&dy| {
        BADGE_SPOTS.iter().map(move |&f| {
            let (x, y) = along(f);
            (x, y + dy)
        })
    });
    straight
        .chain(nudged)
        .find(|&at| free(at))
        .unwrap_or_else(|| along(BADGE_SPOTS[0]))
}

/// Draws a numbered badge centred on `at`.
pub(super) fn draw_badge<DB: DrawingBackend>(canvas: &Canvas<'_, DB>, at: Px, n: usize) -> Drawn {
    let text = n.to_string();
    let (half_w, half_h) = badge_half_size(n);
    let (top_left, bottom_right) = (
        (at.0 - half_w, at.1 - half_h),
        (at.0 + half_w, at.1 + half_h),
    );
    canvas.rect(top_left, bottom_right, WHITE.to_rgba())?;
    canvas.frame(top_left, bottom_right, INK.to_rgba(), 1)?;
    canvas.text(&text, at, MIN_TEXT_PX, INK, CENTER)
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

    /// Each group's badge position, by group index: on the group's first drawable line,
    /// clear of every creature's letter and of the badges before it.
    fn badges(&self, grid: &TerrainGrid, layout: &Layout) -> Vec<(usize, Px)> {
        let letters: Vec<Rect> = (self.map.creatures.iter())
            .filter_map(|c| Some(map::letter(c, grid, layout)?.bounds()))
            .collect();
        let segments = self.drawable(layout);
        let mut used: Vec<Rect> = Vec::new();
        let mut badges = Vec::new();
        for (i, label) in self.groups().iter().enumerate() {
            let Some(first) = segments.iter().find(|s| s.label == *label) else {
                continue;
            };
            let (from, to) = (layout.point(first.from), layout.point(first.to));
            let at = badge_spot(from, to, i + 1, &letters, &used);
            used.push(badge_rect(at, i + 1));
            badges.push((i, at));
        }
        badges
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
        let kinds = [
            LineKind::Clear,
            LineKind::Blocked,
            LineKind::Flanking,
            LineKind::Moved,
        ];
        let mut entries: Vec<Entry> = (kinds.into_iter())
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
        let patches: Vec<Rect> = (self.map.creatures.iter())
            .filter_map(|c| map::letter(c, &grid, &layout))
            .map(|letter| {
                let (l, t, r, b) = letter.patch();
                (f64::from(l), f64::from(t), f64::from(r), f64::from(b))
            })
            .collect();
        for s in segments.iter().filter(|s| s.kind == LineKind::Moved) {
            if let Some(squares) = moved_block(&self.map, &grid, s) {
                let colour = s.kind.look().0.to_rgba();
                map::outline(canvas, &squares, &layout, colour, Pattern::Dashed)?;
            }
        }
        for s in &segments {
            let (from, to) = (layout.point(s.from), layout.point(s.to));
            if s.kind == LineKind::Moved {
                let tip = arrow_tip(from, to, &patches);
                draw_segment(canvas, from, tip, s.kind)?;
                draw_arrowhead(canvas, from, tip, s.kind)?;
            } else {
                draw_segment(canvas, from, to, s.kind)?;
            }
        }
        map::draw_floors(canvas, &grid, &layout)?;
        map::draw_letters(canvas, &self.map, &grid, &layout, |_| false)?;
        for (i, at) in self.badges(&grid, &layout) {
            draw_badge(canvas, at, i + 1)?;
        }
        frame.draw_legend(canvas)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::charts::Creature;
    use crate::report::charts::tests::text_places;

    /// A row of ten squares with creatures at x = 0, 3 and 9: a line from A's centre to
    /// C's centre passes over B's letter at 0.3 of its length, the first spot tried.
    fn row_of_three() -> LinesChart {
        let creature = |letter, x| Creature {
            letter,
            squares: vec![(x, 0)],
        };
        let line = |label: &str| Segment {
            from: (0.5, 0.5),
            to: (9.5, 0.5),
            kind: LineKind::Clear,
            label: label.into(),
        };
        LinesChart {
            title: String::new(),
            size: ChartSize::default(),
            map: BattleMap {
                rows: vec!["A..B.....C".into()],
                floors: Vec::new(),
                creatures: vec![creature('A', 0), creature('B', 3), creature('C', 9)],
            },
            segments: vec![line("first"), line("second"), line("third")],
        }
    }

    #[test]
    fn badges_cover_no_letter_and_no_other_badge() {
        let chart = row_of_three();
        let grid = TerrainGrid::new(&chart.map);
        let layout = Layout::fit((0, 0), (400, 40), 10, 1).unwrap();
        let letters: Vec<Rect> = (chart.map.creatures.iter())
            .map(|c| map::letter(c, &grid, &layout).unwrap().bounds())
            .collect();
        // Squares of 40 px: the line runs from x = 20 to 380 px; B's letter (24 px)
        // spans 130.9..149.1 px. The badge at 0.3 (x = 128, 117..139 px) would cover it;
        // at 0.2 (x = 92) it is clear.
        assert_eq!(layout.cell, 40);
        let badges = chart.badges(&grid, &layout);
        assert_eq!(badges.len(), 3);
        assert_eq!(badges[0], (0, (92, 20)));
        let rects: Vec<Rect> = badges
            .iter()
            .map(|&(i, at)| badge_rect(at, i + 1))
            .collect();
        for (i, rect) in rects.iter().enumerate() {
            for letter in &letters {
                assert!(!overlaps(*rect, *letter), "badge {i} covers a letter");
            }
            for other in &rects[..i] {
                assert!(!overlaps(*rect, *other), "badge {i} covers another");
            }
        }
    }

    /// The line from A to C runs through B's letter: the letter is drawn after every
    /// line, on a white patch, so no line runs through it on the page.
    #[test]
    fn letters_are_drawn_over_the_lines_on_a_white_patch() {
        let svg = super::super::render::render_svg(&row_of_three(), ChartSize::default())
            .expect("renders");
        // The legend, drawn last, has lines of its own: the map's are before badge 1.
        let first_badge = svg.find(">\n1\n</text>").expect("badge 1 is drawn");
        let last_line = svg[..first_badge].rfind("<polyline").expect("the lines");
        for letter in ['A', 'B', 'C'] {
            let text = svg
                .find(&format!(">\n{letter}\n</text>"))
                .unwrap_or_else(|| panic!("letter {letter} is drawn"));
            assert!(text > last_line, "letter {letter} is drawn before a line");
            let opening = svg[..text].rfind("<text").expect("its text element");
            let patch = svg[..opening].rfind("<rect").expect("a patch before it");
            let between = &svg[patch..opening];
            assert!(
                between.contains(r##"fill="#FFFFFF""##) && between.matches('<').count() == 1,
                "letter {letter} is not drawn right after its white patch"
            );
        }
    }

    /// A move ends in a green arrowhead whose tip is the square it moves to: from A's
    /// centre (0.5, 0.5) to the empty square (6.5, 0.5), the tip on that square's centre,
    /// halfway from B's letter to C's; other lines have none.
    #[test]
    fn a_move_ends_in_an_arrowhead_at_its_square() {
        let mut chart = row_of_three();
        assert!(!render(&chart).contains("<polygon opacity=\"1\" fill=\"#238B45\""));
        chart.segments[0].kind = LineKind::Moved;
        chart.segments[0].to = (6.5, 0.5);
        let svg = render(&chart);
        assert!(svg.contains("moved in a variant"));
        let (b, c) = (text_x(&svg, 'B'), text_x(&svg, 'C'));
        let tip = arrow_tip_x(&svg);
        assert!(
            (tip - (b + c) / 2.0).abs() <= 1.0,
            "tip {tip}, B at {b}, C at {c}"
        );
    }

    /// A move onto a square where a creature's letter stands (C's, as when two swap
    /// squares) stops a pixel short of the letter's white patch, which is drawn over the
    /// lines and would hide the arrowhead: the tip is 1 px left of the patch's left edge
    /// (the white rectangle drawn just before C), within a pixel's rounding.
    #[test]
    fn a_move_onto_a_letter_stops_at_its_patch() {
        let mut chart = row_of_three();
        chart.segments[0].kind = LineKind::Moved;
        let svg = render(&chart);
        let at = svg.find(">\nC\n</text>").expect("C's letter");
        let patch = svg[..at].rfind("<rect").expect("C's patch");
        let left = svg[patch..].split(" x=\"").nth(1).expect("the patch's x");
        let left: f64 = left[..left.find('"').unwrap()].parse().unwrap();
        let tip = arrow_tip_x(&svg);
        assert!(
            (tip - (left - 1.0)).abs() <= 1.0,
            "tip {tip}, patch from {left}"
        );
        assert!(tip < text_x(&svg, 'C'));
    }

    /// Where a moved creature arrives, its block is outlined in the move's green, dashed,
    /// under the arrow: A (square (0, 0)) moved to (6, 0) gives a block at x = 6 only,
    /// drawn before the arrow; an arrow from no creature's centre, or by half a square,
    /// gives none, and a line that is not a move draws nothing green.
    #[test]
    fn a_moved_creature_leaves_a_dashed_block_where_it_arrives() {
        let mut chart = row_of_three();
        let grid = TerrainGrid::new(&chart.map);
        chart.segments[0].kind = LineKind::Moved;
        chart.segments[0].to = (6.5, 0.5);
        assert_eq!(
            moved_block(&chart.map, &grid, &chart.segments[0]),
            Some(vec![(6, 0)])
        );
        let from_no_creature = Segment {
            from: (1.5, 0.5),
            ..chart.segments[0].clone()
        };
        assert_eq!(moved_block(&chart.map, &grid, &from_no_creature), None);
        let half_square = Segment {
            to: (6.0, 0.5),
            ..chart.segments[0].clone()
        };
        assert_eq!(moved_block(&chart.map, &grid, &half_square), None);
        let svg = render(&chart);
        let head = svg.find("fill=\"#238B45\" points=").expect("the arrowhead");
        let ghost = svg[..head].matches("stroke=\"#238B45\"").count();
        // The dashed outline's four edges, each drawn as dashes, then the arrow's shaft.
        assert!(ghost > 4, "{ghost} green strokes before the arrowhead");
        chart.segments[0].kind = LineKind::Clear;
        assert!(!render(&chart).contains("#238B45"));
    }

    /// An arrow from (0, 0) to (100, 0) into two overlapping patches, x 90..110 and
    /// 80..95, listed so that stepping out of the first lands in the second: the tip goes
    /// a pixel short of both, x = 79. On a patch's edge counts as under it: to (100, 0)
    /// with a patch x 90..100, the tip is at 89. A diagonal arrow stops a pixel short in
    /// x: from (0, 0) to (100, 50) with a patch x 90..110, y 40..60, at x = 89 (y 44.5).
    #[test]
    fn an_arrow_stops_short_of_every_patch_over_its_square() {
        let tip = arrow_tip(
            (0.0, 0.0),
            (100.0, 0.0),
            &[(90.0, -5.0, 110.0, 5.0), (80.0, -5.0, 95.0, 5.0)],
        );
        assert!((tip.0 - 79.0).abs() < 1e-9 && tip.1 == 0.0, "{tip:?}");
        let tip = arrow_tip((0.0, 0.0), (100.0, 0.0), &[(90.0, -5.0, 100.0, 5.0)]);
        assert!((tip.0 - 89.0).abs() < 1e-9, "{tip:?}");
        let tip = arrow_tip((0.0, 0.0), (100.0, 50.0), &[(90.0, 40.0, 110.0, 60.0)]);
        assert!(
            (tip.0 - 89.0).abs() < 1e-9 && (tip.1 - 44.5).abs() < 1e-9,
            "{tip:?}"
        );
        assert_eq!(arrow_tip((0.0, 0.0), (100.0, 0.0), &[]), (100.0, 0.0));
    }

    fn render(chart: &LinesChart) -> String {
        super::super::render::render_svg(chart, ChartSize::default()).expect("renders")
    }

    /// The `x` of the tip of the SVG's first green arrowhead.
    fn arrow_tip_x(svg: &str) -> f64 {
        let head = svg
            .split("fill=\"#238B45\" points=\"")
            .nth(1)
            .expect("an arrowhead");
        let tip = head.split(' ').next().unwrap();
        tip.split(',').next().unwrap().parse().unwrap()
    }

    /// The `x` of the text element drawing `letter`.
    fn text_x(svg: &str, letter: char) -> f64 {
        let places = text_places(svg, &letter.to_string(), "x");
        places.first().expect("the letter").1
    }

    #[test]
    fn a_badge_goes_to_the_first_spot_when_nothing_is_there() {
        let at = badge_spot((0.0, 0.0), (100.0, 0.0), 1, &[], &[]);
        assert_eq!(at, (30, 0));
    }
}
