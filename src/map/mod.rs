//! Battle-map geometry: how positions on a square grid become cover, concealment, flanking,
//! reach and higher ground (SPEC.md §4, RULES.md §3, §4, §6.3, §8).
//!
//! Everything here is pure and exact. Corners are integer lattice points and square
//! `(x, y)` is `[x, x+1] × [y, y+1]` (x = column, y = row, row 0 at the top); lines are
//! traced with integer arithmetic only, so no tolerance ever decides a verdict, and
//! translating or mirroring a map never changes one. Rule numbers stay out: the caller
//! passes its choices in [`Config`] and scores line tallies with a closure.
//!
//! ```
//! use d20odds::map::{Approach, Config, Ctx, Space, Vision, concealment, cover, parse};
//! let map = parse(&["F....", "...OO", "~..OO"], &[]).unwrap();
//! let space = |letter: char, side| {
//!     let token = map.tokens.iter().find(|t| t.letter == letter).unwrap();
//!     Space::place(letter, &token.squares, side).unwrap()
//! };
//! let (fighter, ogre) = (space('F', 1), space('O', 2));
//! let creatures = [fighter, ogre];
//! let ctx = Ctx {
//!     attack: Approach::Ranged,
//!     creatures: &creatures,
//!     vision: Vision::default(),
//!     config: Config::default(),
//! };
//! let verdict = cover(&map.grid, &fighter, &ogre, &ctx, &|t| i32::from(t.k));
//! assert_eq!((verdict.tally.k, verdict.total), (0, false));
//! assert_eq!(concealment(&map.grid, &fighter, &ogre, &ctx).miss_chance, 0);
//! ```
//!
//! Architecture Invariant: this module depends on nothing else in the crate and on no
//! external crate; it does no IO and never panics on any input.

mod concealment;
mod cover;
mod flank;
mod grid;
mod line;
mod reach;
mod sight;
mod space;

#[cfg(test)]
mod golden;
#[cfg(test)]
mod props;

use std::fmt;

pub use concealment::{ConcealmentVerdict, concealment};
pub use cover::{
    Approach, Config, CoverVerdict, Ctx, LineTally, Vision, cover, cover_from_point, line_of_effect,
};
pub use flank::{Centre, FlankLine, flanking};
pub use grid::{Grid, MAX_SIDE, ParsedMap, Terrain, Token, lookup, parse};
pub use line::{Crossings, End, Touch, crossings, touches};
pub use reach::{Reach, adjacent, distance, distance_from_point, square_distance, threatens};
pub use sight::SightLine;
pub use space::{MAX_SPACE_SIDE, Space, ground_elevation};

/// A map square by column `x` and row `y`; squares off the map are open floor.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square {
    /// Column, 0 at the left.
    pub x: i32,
    /// Row, 0 at the top.
    pub y: i32,
}

/// A lattice point (a corner between squares): lines of cover and concealment join these.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point {
    /// Vertical grid line, 0 at the map's left edge.
    pub x: i32,
    /// Horizontal grid line, 0 at the map's top edge.
    pub y: i32,
}

impl Square {
    /// Builds a square from wide coordinates, saturating at the `i32` range so that
    /// arithmetic near the edges of the coordinate space can never overflow.
    fn at(x: i64, y: i64) -> Square {
        let clamp = |v: i64| v.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32;
        Square {
            x: clamp(x),
            y: clamp(y),
        }
    }

    /// The square's 4 corners: top-left, top-right, bottom-left, bottom-right.
    pub fn corners(self) -> [Point; 4] {
        let (x, y) = (i64::from(self.x), i64::from(self.y));
        [(0, 0), (1, 0), (0, 1), (1, 1)].map(|(dx, dy)| Point::at(x + dx, y + dy))
    }
}

impl Point {
    /// Like [`Square::at`], saturating instead of overflowing.
    fn at(x: i64, y: i64) -> Point {
        let s = Square::at(x, y);
        Point { x: s.x, y: s.y }
    }
}

/// An input error in a map, at a 0-based row and character column of the map text, so
/// the caller can turn it into `file:line:col`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MapError {
    /// 0-based row of the map text.
    pub row: usize,
    /// 0-based character (not byte) column within that row.
    pub col: usize,
    /// What is wrong and what was expected.
    pub message: String,
}

impl MapError {
    fn new(row: usize, col: usize, message: impl Into<String>) -> MapError {
        MapError {
            row,
            col,
            message: message.into(),
        }
    }
}

impl fmt::Display for MapError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "map row {}, column {}: {}",
            self.row + 1,
            self.col + 1,
            self.message
        )
    }
}

impl std::error::Error for MapError {}
