//! Distance, adjacency, reach and threat with the PF1 diagonal rule.

use super::{Point, Space};

/// Feet per square.
const SQUARE_FT: i64 = 5;

/// A melee reach: natural or from a weapon.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reach {
    /// Reach in feet; 0 (Tiny and smaller) threatens nothing.
    pub feet: i32,
    /// A reach weapon: threatens only beyond adjacent squares.
    pub weapon: bool,
}

/// Feet between two squares `dx` columns and `dy` rows apart: 5 ft per square, every
/// second diagonal 10 ft (1 diagonal = 5, 2 = 15, 3 = 20, …).
pub fn square_distance(dx: i64, dy: i64) -> i64 {
    let (dx, dy) = (dx.saturating_abs(), dy.saturating_abs());
    let diagonal = dx.min(dy);
    let straight = dx.max(dy) - diagonal;
    SQUARE_FT.saturating_mul(
        straight
            .saturating_add(diagonal)
            .saturating_add(diagonal / 2),
    )
}

/// Feet between the nearest squares of two spaces (0 when they overlap).
pub fn distance(a: &Space, b: &Space) -> i64 {
    let (dx, dy) = gaps(a, b);
    square_distance(dx, dy)
}

/// Feet from a lattice point (an area's origin) to a space: to its nearest square,
/// counted intersection to intersection up to that square's far corner, so a square is
/// inside a burst of radius r when this is at most r (a 10-ft burst holds 12 squares).
pub fn distance_from_point(origin: Point, space: &Space) -> i64 {
    space
        .squares()
        .map(|s| {
            let far = |lo: i32, p: i32| {
                let (lo, p) = (i64::from(lo), i64::from(p));
                (lo - p).abs().max((lo + 1 - p).abs())
            };
            square_distance(far(s.x, origin.x), far(s.y, origin.y))
        })
        .min()
        .unwrap_or(0)
}

/// Whether two spaces share an edge or a corner without overlapping.
pub fn adjacent(a: &Space, b: &Space) -> bool {
    let (dx, dy) = gaps(a, b);
    dx.max(dy) == 1
}

/// Whether an attacker with this reach threatens the target. 10-ft reach also threatens
/// the squares 2 diagonals away (15 ft by the count), the rules' own exception.
pub fn threatens(attacker: &Space, target: &Space, reach: Reach) -> bool {
    let feet = i64::from(reach.feet);
    let (dx, dy) = gaps(attacker, target);
    let within = square_distance(dx, dy) <= feet || (feet == 10 && dx == 2 && dy == 2);
    feet > 0 && within && !(reach.weapon && dx.max(dy) <= 1)
}

/// Squares between the nearest columns and rows of two spaces (1 = next to each other).
fn gaps(a: &Space, b: &Space) -> (i64, i64) {
    let gap = |a0: i32, b0: i32, a_side: i32, b_side: i32| {
        let (a0, b0) = (i64::from(a0), i64::from(b0));
        let a1 = a0 + i64::from(a_side) - 1;
        let b1 = b0 + i64::from(b_side) - 1;
        (b0 - a1).max(a0 - b1).max(0)
    };
    (
        gap(a.x(), b.x(), a.side(), b.side()),
        gap(a.y(), b.y(), a.side(), b.side()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(x: i32, y: i32, side: i32) -> Space {
        Space::new(x, y, side).unwrap()
    }

    #[test]
    fn diagonals_alternate_5_and_10() {
        let got: Vec<_> = (0..6).map(|n| square_distance(n, n)).collect();
        assert_eq!(got, vec![0, 5, 15, 20, 30, 35]);
        assert_eq!(square_distance(-3, 1), 15);
        assert_eq!(square_distance(4, 2), 25);
    }

    #[test]
    fn space_distance_uses_nearest_squares() {
        let ogre = at(2, 2, 2);
        assert_eq!(distance(&at(0, 0, 1), &ogre), 15);
        assert_eq!(distance(&at(4, 3, 1), &ogre), 5);
        assert_eq!(distance(&at(3, 3, 1), &ogre), 0);
        assert!(adjacent(&at(1, 1, 1), &ogre));
        assert!(adjacent(&at(4, 2, 1), &ogre));
        assert!(!adjacent(&at(0, 0, 1), &ogre));
        assert!(!adjacent(&at(3, 3, 1), &ogre));
    }

    #[test]
    fn burst_squares_count_to_their_far_corner() {
        let origin = Point { x: 5, y: 5 };
        let inside = |r: i64| {
            (0..10)
                .flat_map(|y| (0..10).map(move |x| at(x, y, 1)))
                .filter(|s| distance_from_point(origin, s) <= r)
                .count()
        };
        assert_eq!((inside(5), inside(10), inside(15)), (4, 12, 24));
        assert_eq!(distance_from_point(origin, &at(3, 3, 2)), 5);
    }

    #[test]
    fn reach_zero_weapons_and_the_ten_foot_exception() {
        let target = at(5, 5, 1);
        let natural = |feet| Reach {
            feet,
            weapon: false,
        };
        let weapon = |feet| Reach { feet, weapon: true };
        assert!(!threatens(&at(5, 5, 1), &target, natural(0)));
        assert!(!threatens(&at(4, 4, 1), &target, natural(0)));
        assert!(threatens(&at(4, 4, 1), &target, natural(5)));
        assert!(!threatens(&at(3, 3, 1), &target, natural(5)));
        assert!(threatens(&at(3, 3, 1), &target, natural(10)));
        assert!(!threatens(&at(3, 2, 1), &target, natural(10)));
        assert!(!threatens(&at(3, 2, 1), &target, natural(15)));
        assert!(threatens(&at(3, 2, 1), &target, natural(20)));
        assert!(!threatens(&at(4, 5, 1), &target, weapon(10)));
        assert!(threatens(&at(3, 5, 1), &target, weapon(10)));
        assert!(threatens(&at(3, 3, 1), &target, weapon(10)));
    }
}
