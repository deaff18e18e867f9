//! Drawing the battle map: terrain squares, the square grid and creatures by letter.
//!
//! Terrain is told apart by pattern as well as shade (hatched walls, a wall with an
//! upright opening for an arrow slit, "=" bars for low walls, waves for fog, corner marks
//! for dim and dark squares, a small triangle for raised or sunken floor), so the map
//! survives greyscale printing and stays readable under the heatmap colours. A
//! creature's squares show the terrain it stands in around its letter.

use plotters::prelude::*;

use super::canvas::{CENTER, Canvas, Drawn, Px};
use super::legend::{Entry, Swatch};
use super::style::{INK, MIN_TEXT_PX, Pattern};

/// A battle map as the experiment file draws it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct BattleMap {
    /// One string per row, top row first, one character per 5-ft square, creatures'
    /// squares included (the terrain they stand in): `#` wall, `|` arrow slit, `=` low
    /// wall, `~` fog, `,` dim light, `:` darkness; anything else is drawn as floor.
    pub rows: Vec<String>,
    /// Each square's floor height in feet, row by row (a ledge, a pit); squares not
    /// listed are at 0.
    pub floors: Vec<Vec<i32>>,
    /// The creatures to draw over the terrain.
    pub creatures: Vec<Creature>,
}

/// A creature drawn as the block of squares it occupies, labelled with its letter.
#[derive(Debug, Clone, PartialEq)]
pub struct Creature {
    /// Its token on the map.
    pub letter: char,
    /// The squares it fills, as (x, y) with x = column and y = row from the top.
    pub squares: Vec<(u32, u32)>,
}

/// The terrain kinds the map distinguishes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum TerrainKind {
    Floor,
    Wall,
    /// An opening one attacks through (an arrow slit): improved cover for a target
    /// right behind it.
    Slit,
    LowWall,
    Fog,
    Dim,
    Dark,
}

impl TerrainKind {
    fn of(c: char) -> Self {
        match c {
            '#' => Self::Wall,
            '|' => Self::Slit,
            '=' => Self::LowWall,
            '~' => Self::Fog,
            ',' => Self::Dim,
            ':' => Self::Dark,
            _ => Self::Floor,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Self::Floor => "floor",
            Self::Wall => "wall",
            Self::Slit => "slit or port (improved cover)",
            Self::LowWall => "low wall",
            Self::Fog => "fog",
            Self::Dim => "dim light",
            Self::Dark => "darkness",
        }
    }
}

/// The map as terrain kinds, padded with floor to a rectangle, and its floor heights.
pub(super) struct TerrainGrid {
    pub(super) cells: Vec<Vec<TerrainKind>>,
    pub(super) cols: usize,
    floors: Vec<Vec<i32>>,
}

impl TerrainGrid {
    pub(super) fn new(map: &BattleMap) -> Self {
        let cols = map
            .rows
            .iter()
            .map(|r| r.chars().count())
            .max()
            .unwrap_or(0);
        let cells = map
            .rows
            .iter()
            .map(|r| {
                let mut row: Vec<TerrainKind> = r.chars().map(TerrainKind::of).collect();
                row.resize(cols, TerrainKind::Floor);
                row
            })
            .collect();
        Self {
            cells,
            cols,
            floors: map.floors.clone(),
        }
    }

    /// The floor height of square (x, y) in feet.
    fn floor(&self, x: usize, y: usize) -> i32 {
        (self.floors.get(y))
            .and_then(|row| row.get(x))
            .copied()
            .unwrap_or(0)
    }

    /// The squares off the ground floor, with their floor height.
    fn off_the_floor(&self) -> impl Iterator<Item = (usize, usize, i32)> + '_ {
        (0..self.rows())
            .flat_map(move |y| (0..self.cols).map(move |x| (x, y, self.floor(x, y))))
            .filter(|&(_, _, floor)| floor != 0)
    }

    pub(super) fn rows(&self) -> usize {
        self.cells.len()
    }

    /// Legend entries for the terrain kinds present, in a fixed order.
    pub(super) fn legend(&self) -> Vec<Entry> {
        [
            TerrainKind::Wall,
            TerrainKind::Slit,
            TerrainKind::LowWall,
            TerrainKind::Fog,
            TerrainKind::Dim,
            TerrainKind::Dark,
        ]
        .into_iter()
        .filter(|t| self.cells.iter().flatten().any(|c| c == t))
        .map(|t| Entry::new(Swatch::Terrain(t), t.name()))
        .chain([true, false].into_iter().filter_map(|raised| {
            let label = self.heights_label(raised)?;
            Some(Entry::new(Swatch::Floor { raised }, label))
        }))
        .collect()
    }

    /// "raised floor (+5 ft)" or "sunken floor (−10, −5 ft)": the heights of the raised
    /// (else sunken) squares; `None` when there are none.
    fn heights_label(&self, raised: bool) -> Option<String> {
        let mut heights: Vec<i32> = (self.off_the_floor())
            .map(|(_, _, floor)| floor)
            .filter(|&floor| (floor > 0) == raised)
            .collect();
        heights.sort_unstable();
        heights.dedup();
        let listed: Vec<String> = (heights.iter())
            .map(|h| format!("{}{}", if *h > 0 { "+" } else { "−" }, h.unsigned_abs()))
            .collect();
        let kind = if raised { "raised" } else { "sunken" };
        (!listed.is_empty()).then(|| format!("{kind} floor ({} ft)", listed.join(", ")))
    }
}

/// A square on screen: top-left corner and side in pixels.
pub(super) type ScreenSquare = (Px, i32);

/// Where the map sits on the canvas.
pub(super) struct Layout {
    origin: Px,
    /// Side of one square in pixels.
    pub(super) cell: i32,
    cols: usize,
    rows: usize,
}

/// Largest square side; keeps small maps from turning into a few huge squares.
const MAX_CELL: i32 = 56;

impl Layout {
    /// Fits `cols` × `rows` squares centred in the region; `None` if the map is
    /// empty or its squares would be under 3 pixels.
    pub(super) fn fit(top_left: Px, size: (i32, i32), cols: usize, rows: usize) -> Option<Self> {
        let c = i32::try_from(cols).ok().filter(|&c| c > 0)?;
        let r = i32::try_from(rows).ok().filter(|&r| r > 0)?;
        let cell = (size.0 / c).min(size.1 / r).min(MAX_CELL);
        if cell < 3 {
            return None;
        }
        let origin = (
            top_left.0 + (size.0 - cell * c) / 2,
            top_left.1 + (size.1 - cell * r) / 2,
        );
        Some(Self {
            origin,
            cell,
            cols,
            rows,
        })
    }

    /// The screen square of map square (x, y).
    pub(super) fn cell_at(&self, x: usize, y: usize) -> ScreenSquare {
        let (x, y) = (i32::try_from(x).unwrap_or(0), i32::try_from(y).unwrap_or(0));
        (
            (self.origin.0 + x * self.cell, self.origin.1 + y * self.cell),
            self.cell,
        )
    }

    /// A lattice point (x right, y down, in squares) in pixels.
    pub(super) fn point(&self, (x, y): (f64, f64)) -> (f64, f64) {
        let cell = f64::from(self.cell);
        (
            f64::from(self.origin.0) + x * cell,
            f64::from(self.origin.1) + y * cell,
        )
    }

    /// Whether a lattice point lies on the map (edges included).
    pub(super) fn contains(&self, (x, y): (f64, f64)) -> bool {
        (0.0..=self.cols as f64).contains(&x) && (0.0..=self.rows as f64).contains(&y)
    }

    /// Bottom-right corner of the map in pixels.
    pub(super) fn bottom_right(&self) -> Px {
        let (w, h) = (self.cols as f64, self.rows as f64);
        let (x, y) = self.point((w, h));
        (x as i32, y as i32)
    }

    /// Top-left corner of the map in pixels.
    pub(super) fn top_left(&self) -> Px {
        self.origin
    }
}

const WALL: RGBColor = RGBColor(58, 58, 58);
const WALL_HATCH: RGBColor = RGBColor(170, 170, 170);
const GRID_LINE: RGBColor = RGBColor(190, 190, 190);
const FOG: RGBColor = RGBColor(105, 105, 105);
const DIM: RGBColor = RGBColor(150, 150, 150);
const DARK: RGBColor = RGBColor(15, 15, 15);

/// What a square holds besides its terrain, which moves the terrain's marks out of its
/// way.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Holds {
    /// Nothing: the marks sit in the middle.
    Nothing,
    /// A heatmap's value in its lower part, on the value's shade: the marks move up.
    Value(RGBColor),
    /// A creature's letter in its middle: the marks go to its top and bottom edges.
    Creature,
}

/// Paints one square of terrain, white or in the shade of the value it holds.
pub(super) fn paint_terrain<DB: DrawingBackend>(
    canvas: &Canvas<'_, DB>,
    ((x, y), s): ScreenSquare,
    terrain: TerrainKind,
    holds: Holds,
) -> Drawn {
    let (xf, yf, sf) = (f64::from(x), f64::from(y), f64::from(s));
    let white = WHITE.to_rgba();
    if terrain == TerrainKind::Slit {
        // A wall with an upright opening in the middle.
        canvas.rect((x, y), (x + s, y + s), WALL.to_rgba())?;
        let half = (s / 10).max(2).min(s / 4);
        let (cx, margin) = (x + s / 2, s / 8);
        return canvas.rect((cx - half, y + margin), (cx + half, y + s - margin), white);
    }
    if terrain == TerrainKind::Wall {
        canvas.rect((x, y), (x + s, y + s), WALL.to_rgba())?;
        let hatch = u32::try_from((s / 20).max(1)).unwrap_or(1);
        for (a, b) in [
            ((0.0, 0.5), (0.5, 0.0)),
            ((0.0, 1.0), (1.0, 0.0)),
            ((0.5, 1.0), (1.0, 0.5)),
        ] {
            let ends = [
                (xf + a.0 * sf, yf + a.1 * sf),
                (xf + b.0 * sf, yf + b.1 * sf),
            ];
            canvas.line(&ends, WALL_HATCH.to_rgba(), hatch, Pattern::Solid)?;
        }
        return Ok(());
    }
    let (base, rows) = match holds {
        Holds::Nothing => (WHITE, [0.36, 0.64]),
        Holds::Value(shade) => (shade, [0.2, 0.42]),
        Holds::Creature => (WHITE, [0.14, 0.86]),
    };
    canvas.rect((x, y), (x + s, y + s), base.to_rgba())?;
    let width = u32::try_from((s / 12).max(2)).unwrap_or(2);
    match terrain {
        TerrainKind::LowWall => {
            for t in rows {
                let ends = [(xf + 0.12 * sf, yf + t * sf), (xf + 0.88 * sf, yf + t * sf)];
                canvas.line(&ends, white, width + 3, Pattern::Solid)?;
                canvas.line(&ends, INK.to_rgba(), width, Pattern::Solid)?;
            }
        }
        TerrainKind::Fog => {
            for t in rows {
                let wave: Vec<(f64, f64)> = (0..=8)
                    .map(|i| {
                        let dy = if i % 2 == 0 { -0.06 } else { 0.06 };
                        (xf + (0.1 + 0.1 * f64::from(i)) * sf, yf + (t + dy) * sf)
                    })
                    .collect();
                canvas.line(&wave, white, 4, Pattern::Solid)?;
                canvas.line(&wave, FOG.to_rgba(), 2, Pattern::Solid)?;
            }
        }
        TerrainKind::Dim | TerrainKind::Dark => {
            let colour = if terrain == TerrainKind::Dim {
                DIM
            } else {
                DARK
            };
            let k = (sf * 0.42) as i32;
            canvas.polygon(vec![(x, y), (x + k + 2, y), (x, y + k + 2)], white)?;
            canvas.polygon(vec![(x, y), (x + k, y), (x, y + k)], colour.to_rgba())?;
        }
        TerrainKind::Floor | TerrainKind::Wall | TerrainKind::Slit => {}
    }
    Ok(())
}

/// Marks a square off the ground floor in its top-right corner, away from the dim and
/// dark marks (top left), a creature's letter (centre) and a heatmap value (below): a
/// small triangle pointing up for raised floor, down for sunken, haloed in white so it
/// reads over any shade.
pub(super) fn paint_floor_mark<DB: DrawingBackend>(
    canvas: &Canvas<'_, DB>,
    ((x, y), s): ScreenSquare,
    raised: bool,
) -> Drawn {
    let k = ((f64::from(s) * 0.3) as i32).max((s / 2).min(9)).min(s - 6);
    if k < 2 {
        // A square too small to hold the mark and its halo.
        return Ok(());
    }
    let (right, top) = (x + s - 3, y + 3);
    let (left, bottom) = (right - k, top + k);
    let middle = (left + right) / 2;
    let (apex, base) = if raised { (top, bottom) } else { (bottom, top) };
    let halo = if raised { -2 } else { 2 };
    canvas.polygon(
        vec![
            (left - 2, base - halo),
            (right + 2, base - halo),
            (middle, apex + halo),
        ],
        WHITE.to_rgba(),
    )?;
    canvas.polygon(
        vec![(left, base), (right, base), (middle, apex)],
        INK.to_rgba(),
    )
}

/// Marks every square off the ground floor (see [`paint_floor_mark`]); drawn over the
/// creatures and the lines, under the letters, so one standing on a ledge shows it.
pub(super) fn draw_floors<DB: DrawingBackend>(
    canvas: &Canvas<'_, DB>,
    grid: &TerrainGrid,
    layout: &Layout,
) -> Drawn {
    for (x, y, floor) in grid.off_the_floor() {
        paint_floor_mark(canvas, layout.cell_at(x, y), floor > 0)?;
    }
    Ok(())
}

/// Paints every square, then the grid lines between them.
pub(super) fn draw_terrain<DB: DrawingBackend>(
    canvas: &Canvas<'_, DB>,
    grid: &TerrainGrid,
    layout: &Layout,
    base: impl Fn(usize, usize) -> Option<RGBColor>,
) -> Drawn {
    for (y, row) in grid.cells.iter().enumerate() {
        for (x, &terrain) in row.iter().enumerate() {
            let holds = base(x, y).map_or(Holds::Nothing, Holds::Value);
            paint_terrain(canvas, layout.cell_at(x, y), terrain, holds)?;
        }
    }
    let (left, top) = layout.top_left();
    let (right, bottom) = layout.bottom_right();
    let grey = GRID_LINE.to_rgba();
    for x in 1..grid.cols {
        let ((px, _), _) = layout.cell_at(x, 0);
        canvas.line(
            &[
                (f64::from(px), f64::from(top)),
                (f64::from(px), f64::from(bottom)),
            ],
            grey,
            1,
            Pattern::Solid,
        )?;
    }
    for y in 1..grid.rows() {
        let ((_, py), _) = layout.cell_at(0, y);
        canvas.line(
            &[
                (f64::from(left), f64::from(py)),
                (f64::from(right), f64::from(py)),
            ],
            grey,
            1,
            Pattern::Solid,
        )?;
    }
    Ok(())
}

/// The legend swatch of an occupied square.
pub(super) fn paint_creature_square<DB: DrawingBackend>(
    canvas: &Canvas<'_, DB>,
    ((x, y), s): ScreenSquare,
) -> Drawn {
    canvas.rect((x, y), (x + s, y + s), WHITE.to_rgba())?;
    canvas.frame((x + 1, y + 1), (x + s - 1, y + s - 1), INK.to_rgba(), 2)
}

/// A creature's squares that lie on the map.
pub(super) fn squares_on_map(creature: &Creature, grid: &TerrainGrid) -> Vec<(usize, usize)> {
    creature
        .squares
        .iter()
        .filter_map(|&(x, y)| Some((usize::try_from(x).ok()?, usize::try_from(y).ok()?)))
        .filter(|&(x, y)| x < grid.cols && y < grid.rows())
        .collect()
}

/// Where a creature's letter is drawn: centred on its block, sized to the block.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Letter {
    /// The block's centre in pixels.
    pub(super) centre: (f64, f64),
    /// Text size in pixels, at least [`MIN_TEXT_PX`].
    pub(super) px: u32,
}

impl Letter {
    /// The pixels the glyph covers, as (left, top, right, bottom): a capital is about
    /// 0.7 of the text size wide and high.
    pub(super) fn bounds(&self) -> (f64, f64, f64, f64) {
        let half = f64::from(self.px) * 0.38;
        let (x, y) = self.centre;
        (x - half, y - half, x + half, y + half)
    }

    /// The white patch [`draw_letters`] lays under the glyph, as (left, top, right,
    /// bottom) pixels: its bounds rounded, with [`LETTER_PATCH_MARGIN`] around them.
    pub(super) fn patch(&self) -> (i32, i32, i32, i32) {
        let (l, t, r, b) = self.bounds();
        let px = |v: f64| v.round() as i32;
        (
            px(l) - LETTER_PATCH_MARGIN,
            px(t) - LETTER_PATCH_MARGIN,
            px(r) + LETTER_PATCH_MARGIN,
            px(b) + LETTER_PATCH_MARGIN,
        )
    }
}

/// The smallest and largest column and row of a creature's squares on the map: its block
/// (`None` when it has none there).
fn block(creature: &Creature, grid: &TerrainGrid) -> Option<(usize, usize, usize, usize)> {
    let squares = squares_on_map(creature, grid);
    let min_x = squares.iter().map(|s| s.0).min()?;
    let max_x = squares.iter().map(|s| s.0).max()?;
    let min_y = squares.iter().map(|s| s.1).min()?;
    let max_y = squares.iter().map(|s| s.1).max()?;
    Some((min_x, max_x, min_y, max_y))
}

/// The centre of a creature's block on the map, in squares, where its letter goes.
pub(super) fn block_centre(creature: &Creature, grid: &TerrainGrid) -> Option<(f64, f64)> {
    block(creature, grid).map(centre_of)
}

/// The centre, in squares, of a block given as [`block`] gives it.
fn centre_of((min_x, max_x, min_y, max_y): (usize, usize, usize, usize)) -> (f64, f64) {
    (
        (min_x + max_x + 1) as f64 / 2.0,
        (min_y + max_y + 1) as f64 / 2.0,
    )
}

/// The letter of a creature with a square on the map, in the middle of its block.
pub(super) fn letter(creature: &Creature, grid: &TerrainGrid, layout: &Layout) -> Option<Letter> {
    letter_placed(creature, grid, layout, false)
}

/// The letter of a creature, in the middle of its block or, `raised`, smaller and near
/// the block's top, leaving the lower part of its squares to the values printed there
/// (a heatmap's mover on its own squares).
fn letter_placed(
    creature: &Creature,
    grid: &TerrainGrid,
    layout: &Layout,
    raised: bool,
) -> Option<Letter> {
    let bounds = block(creature, grid)?;
    let (min_x, max_x, min_y, max_y) = bounds;
    let (centre_x, centre_y) = centre_of(bounds);
    let side = (max_x - min_x + 1).min(max_y - min_y + 1);
    let (size, y) = if raised {
        (RAISED_LETTER, min_y as f64 + RAISED_LETTER_CENTRE)
    } else {
        (0.6 * side as f64, centre_y)
    };
    let px = (f64::from(layout.cell) * size) as u32;
    Some(Letter {
        centre: layout.point((centre_x, y)),
        px: px.max(MIN_TEXT_PX),
    })
}

/// A raised letter's size and centre below its block's top, in squares: its glyph and
/// patch end above a value printed at three quarters of the square.
const RAISED_LETTER: f64 = 0.45;
const RAISED_LETTER_CENTRE: f64 = 0.36;

/// Pixels of white kept around a creature's letter (see [`draw_letters`]).
const LETTER_PATCH_MARGIN: i32 = 2;

/// Draws each creature as one block with an outline around its squares, each square
/// white but for the mark of the terrain it stands in (fog, dim light, darkness); its
/// letter comes after whatever is drawn over the blocks ([`draw_letters`]).
pub(super) fn draw_creatures<DB: DrawingBackend>(
    canvas: &Canvas<'_, DB>,
    map: &BattleMap,
    grid: &TerrainGrid,
    layout: &Layout,
) -> Drawn {
    let ink = INK.to_rgba();
    for creature in &map.creatures {
        let squares = squares_on_map(creature, grid);
        for &(x, y) in &squares {
            let square = layout.cell_at(x, y);
            paint_terrain(canvas, square, grid.cells[y][x], Holds::Creature)?;
        }
        outline(canvas, &squares, layout, ink, Pattern::Solid)?;
    }
    Ok(())
}

/// Draws the outline of a block of `squares` (its outer edges, 2 px) in `colour`.
pub(super) fn outline<DB: DrawingBackend>(
    canvas: &Canvas<'_, DB>,
    squares: &[(usize, usize)],
    layout: &Layout,
    colour: RGBAColor,
    pattern: Pattern,
) -> Drawn {
    for &(x, y) in squares {
        let ((px, py), s) = layout.cell_at(x, y);
        let (l, t, r, b) = (
            f64::from(px) + 1.0,
            f64::from(py) + 1.0,
            f64::from(px + s) - 1.0,
            f64::from(py + s) - 1.0,
        );
        let has = |dx: isize, dy: isize| {
            let nx = x.checked_add_signed(dx);
            let ny = y.checked_add_signed(dy);
            matches!((nx, ny), (Some(nx), Some(ny)) if squares.contains(&(nx, ny)))
        };
        let edges = [
            (has(0, -1), [(l, t), (r, t)]),
            (has(0, 1), [(l, b), (r, b)]),
            (has(-1, 0), [(l, t), (l, b)]),
            (has(1, 0), [(r, t), (r, b)]),
        ];
        for (shared, ends) in edges {
            if !shared {
                canvas.line(&ends, colour, 2, pattern)?;
            }
        }
    }
    Ok(())
}

/// Draws each creature's letter on a white patch the size of its glyph, so that a line
/// drawn across the creature before it never runs through the letter; `raised` says
/// which creatures' letters go near their block's top (see [`letter_placed`]).
pub(super) fn draw_letters<DB: DrawingBackend>(
    canvas: &Canvas<'_, DB>,
    map: &BattleMap,
    grid: &TerrainGrid,
    layout: &Layout,
    raised: impl Fn(&Creature) -> bool,
) -> Drawn {
    for creature in &map.creatures {
        let Some(letter) = letter_placed(creature, grid, layout, raised(creature)) else {
            continue;
        };
        let (l, t, r, b) = letter.patch();
        canvas.rect((l, t), (r, b), WHITE.to_rgba())?;
        let (cx, cy) = letter.centre;
        canvas.text(
            &creature.letter.to_string(),
            (cx as i32, cy as i32),
            letter.px,
            INK,
            CENTER,
        )?;
    }
    Ok(())
}

/// Draws the map's outer border.
pub(super) fn draw_border<DB: DrawingBackend>(canvas: &Canvas<'_, DB>, layout: &Layout) -> Drawn {
    canvas.frame(layout.top_left(), layout.bottom_right(), INK.to_rgba(), 2)
}
