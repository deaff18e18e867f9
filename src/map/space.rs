//! A creature's space: the square block it fills, and how high it stands.

use super::{Grid, MapError, Point, Square};

/// The widest space a creature can have (Colossal: 30 ft = 6 squares).
pub const MAX_SPACE_SIDE: i32 = 6;
/// How far from the origin a space may lie, so that corner arithmetic never overflows.
const MAX_COORD: i32 = 1_000_000;

/// The `side × side` block of squares a creature fills, from its top-left square; the
/// fields are private so every `Space` is valid (side 1–6, coordinates within ±10⁶).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Space {
    x: i32,
    y: i32,
    side: i32,
}

impl Space {
    /// A space with top-left square `(x, y)`; `None` when `side` is not 1–6 or the space
    /// lies more than a million squares from the origin. Use it to try positions (a heatmap).
    pub fn new(x: i32, y: i32, side: i32) -> Option<Space> {
        let fits = |v: i32| (-MAX_COORD..=MAX_COORD).contains(&v);
        ((1..=MAX_SPACE_SIDE).contains(&side) && fits(x) && fits(y)).then_some(Space { x, y, side })
    }

    /// The space filled by a letter's squares, for a size of `side` squares (1 for Medium
    /// and smaller, 2 Large, 3 Huge, 4 Gargantuan, 6 Colossal). The squares must be
    /// exactly one full `side × side` block; the error points at a square that is out of
    /// place (or the first one) and says what was expected.
    pub fn place(letter: char, squares: &[Square], side: i32) -> Result<Space, MapError> {
        let Some(first) = squares.iter().min_by_key(|s| (s.y, s.x)) else {
            return Err(MapError::new(
                0,
                0,
                format!("`{letter}` fills no square of the map"),
            ));
        };
        let blame = |s: &Square, message: String| {
            MapError::new(
                usize::try_from(s.y).unwrap_or(0),
                usize::try_from(s.x).unwrap_or(0),
                message,
            )
        };
        let x0 = squares.iter().map(|s| s.x).min().unwrap_or(first.x);
        let y0 = first.y;
        let Some(space) = Space::new(x0, y0, side) else {
            return Err(blame(
                first,
                format!(
                    "`{letter}` has a space side of {side} squares; sizes have 1 to {MAX_SPACE_SIDE}"
                ),
            ));
        };
        let expected = format!(
            "`{letter}` is {}: its letter must fill a {side}×{side} block",
            size_name(side)
        );
        let outside = squares.iter().find(|s| !space.contains(**s));
        let mut distinct = squares.to_vec();
        distinct.sort_unstable();
        distinct.dedup();
        let wanted = usize::try_from(side * side).unwrap_or(0);
        if outside.is_some() || distinct.len() != wanted {
            let (w, h) = extent(squares);
            let found = if distinct.len() == wanted {
                format!("found {} squares spanning {w}×{h}", distinct.len())
            } else if distinct.len() == 1 {
                "found 1 square".to_string()
            } else {
                format!("found {} squares", distinct.len())
            };
            return Err(blame(
                outside.unwrap_or(first),
                format!("{expected}; {found}"),
            ));
        }
        Ok(space)
    }

    /// Column of the top-left square.
    pub fn x(&self) -> i32 {
        self.x
    }

    /// Row of the top-left square.
    pub fn y(&self) -> i32 {
        self.y
    }

    /// Squares per side.
    pub fn side(&self) -> i32 {
        self.side
    }

    /// Whether the creature fills this square.
    pub fn contains(&self, s: Square) -> bool {
        (self.x..self.x + self.side).contains(&s.x) && (self.y..self.y + self.side).contains(&s.y)
    }

    /// The squares it fills, in reading order.
    pub fn squares(self) -> impl Iterator<Item = Square> {
        (self.y..self.y + self.side)
            .flat_map(move |y| (self.x..self.x + self.side).map(move |x| Square { x, y }))
    }

    /// Every corner of every square it fills (the `(side+1)²` lattice points of its block).
    pub fn corners(self) -> impl Iterator<Item = Point> {
        (self.y..=self.y + self.side)
            .flat_map(move |y| (self.x..=self.x + self.side).map(move |x| Point { x, y }))
    }

    /// One of its squares that has `p` as a corner (the outermost one at the block's
    /// corners), for reporting which square a chosen corner belongs to.
    pub fn square_at(&self, p: Point) -> Square {
        Square {
            x: p.x.clamp(self.x, self.x + self.side - 1),
            y: p.y.clamp(self.y, self.y + self.side - 1),
        }
    }
}

/// A creature's ground elevation: the highest floor among its squares (a creature
/// straddling a step stands on the higher part) plus its own `elevation` in feet.
pub fn ground_elevation(grid: &Grid, space: &Space, elevation: i32) -> i32 {
    let floor = space
        .squares()
        .map(|s| grid.terrain(s).elevation)
        .max()
        .unwrap_or(0);
    floor.saturating_add(elevation)
}

fn size_name(side: i32) -> &'static str {
    match side {
        1 => "Medium or smaller",
        2 => "Large",
        3 => "Huge",
        4 => "Gargantuan",
        _ => "Colossal",
    }
}

fn extent(squares: &[Square]) -> (i64, i64) {
    let span = |f: fn(&Square) -> i32| {
        let min = squares.iter().map(f).min().unwrap_or(0);
        let max = squares.iter().map(f).max().unwrap_or(0);
        i64::from(max) - i64::from(min) + 1
    };
    (span(|s| s.x), span(|s| s.y))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::parse;

    #[test]
    fn space_bounds_and_corners() {
        assert_eq!(Space::new(0, 0, 0), None);
        assert_eq!(Space::new(0, 0, 7), None);
        assert_eq!(Space::new(MAX_COORD + 1, 0, 1), None);
        let s = Space::new(2, 3, 2).unwrap();
        assert_eq!(s.squares().count(), 4);
        assert_eq!(s.corners().count(), 9);
        assert_eq!(s.square_at(Point { x: 4, y: 3 }), Square { x: 3, y: 3 });
        assert_eq!(s.square_at(Point { x: 3, y: 4 }), Square { x: 3, y: 4 });
        assert!(s.contains(Square { x: 3, y: 4 }) && !s.contains(Square { x: 4, y: 4 }));
    }

    #[test]
    fn elevation_takes_the_highest_square() {
        let stage = crate::map::Terrain {
            elevation: 10,
            ..crate::map::Terrain::FLOOR
        };
        let map = parse(&["^.", ".."], &[('^', stage)]).unwrap();
        let big = Space::new(0, 0, 2).unwrap();
        let small = Space::new(1, 1, 1).unwrap();
        assert_eq!(ground_elevation(&map.grid, &big, 5), 15);
        assert_eq!(ground_elevation(&map.grid, &small, 5), 5);
        assert_eq!(ground_elevation(&map.grid, &big, i32::MAX), i32::MAX);
    }
}
