//! Flanking by the centre-line test (RULES.md §4), in doubled coordinates so that square
//! centres are integers.

use super::Space;

/// A square's centre in doubled coordinates: square `(x, y)` has centre `(2x+1, 2y+1)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Centre {
    /// Twice the x coordinate.
    pub x2: i64,
    /// Twice the y coordinate.
    pub y2: i64,
}

/// The centres whose segment flanks the target: one square of the attacker, one of the partner.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FlankLine {
    /// Centre of the attacker's square.
    pub from: Centre,
    /// Centre of the partner's square.
    pub to: Centre,
}

/// Whether `attacker` and `partner` flank `target` by position alone (the caller checks
/// that both threaten it): the segment between the centres of some square of each meets
/// both the left and right edges, or both the top and bottom edges, of the target's
/// space, corners included. Returns the first such pair in reading order.
pub fn flanking(attacker: &Space, partner: &Space, target: &Space) -> Option<FlankLine> {
    let centre = |s: super::Square| Centre {
        x2: 2 * i64::from(s.x) + 1,
        y2: 2 * i64::from(s.y) + 1,
    };
    let (x0, y0) = (2 * i64::from(target.x()), 2 * i64::from(target.y()));
    let side = 2 * i64::from(target.side());
    let (x1, y1) = (x0 + side, y0 + side);
    attacker.squares().find_map(|a| {
        partner.squares().find_map(|p| {
            let (a, p) = (centre(a), centre(p));
            let flat = |c: Centre| (c.x2, c.y2);
            let turned = |c: Centre| (c.y2, c.x2);
            let across = |f: &dyn Fn(Centre) -> (i64, i64), lo: (i64, i64), hi: (i64, i64)| {
                meets_edge(f(a), f(p), lo.0, lo.1, hi.1) && meets_edge(f(a), f(p), hi.0, lo.1, hi.1)
            };
            (across(&flat, (x0, y0), (x1, y1)) || across(&turned, (y0, x0), (y1, x1)))
                .then_some(FlankLine { from: a, to: p })
        })
    })
}

/// Whether the segment `a`–`b` meets the vertical edge `x = ex`, `lo ≤ y ≤ hi`.
fn meets_edge(a: (i64, i64), b: (i64, i64), ex: i64, lo: i64, hi: i64) -> bool {
    let dx = b.0 - a.0;
    if dx == 0 {
        return a.0 == ex && a.1.min(b.1) <= hi && a.1.max(b.1) >= lo;
    }
    // On the edge's line at t = (ex − a.x)/dx; scale by |dx| to stay in integers.
    let (num, den) = ((ex - a.0) * dx.signum(), dx.abs());
    if num < 0 || num > den {
        return false;
    }
    let y_scaled = a.1 * den + num * (b.1 - a.1);
    lo * den <= y_scaled && y_scaled <= hi * den
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(x: i32, y: i32, side: i32) -> Space {
        Space::new(x, y, side).unwrap()
    }

    #[test]
    fn opposite_sides_and_corners_flank_but_knight_moves_do_not() {
        let target = at(5, 5, 1);
        assert!(flanking(&at(4, 5, 1), &at(6, 5, 1), &target).is_some());
        assert!(flanking(&at(4, 4, 1), &at(6, 6, 1), &target).is_some());
        assert!(flanking(&at(5, 4, 1), &at(5, 6, 1), &target).is_some());
        // A knight's move apart: the line crosses two neighbouring edges only.
        assert!(flanking(&at(4, 4, 1), &at(6, 5, 1), &target).is_none());
        assert!(flanking(&at(4, 4, 1), &at(5, 6, 1), &target).is_none());
        assert!(flanking(&at(4, 4, 1), &at(6, 4, 1), &target).is_none());
        assert!(flanking(&at(4, 5, 1), &at(5, 6, 1), &target).is_none());
    }

    #[test]
    fn touching_one_corner_is_not_enough_but_two_opposite_corners_are() {
        // Target [4,6]×[2,4] doubled. Centres (3,-1)–(9,5) touch only its corner (6,2),
        // meeting the right and top edges, not a pair of opposite ones.
        let target = at(2, 1, 1);
        assert!(flanking(&at(1, -1, 1), &at(4, 2, 1), &target).is_none());
        // Centres (3,1)–(7,5) pass the opposite corners (4,2) and (6,4).
        assert_eq!(
            flanking(&at(1, 0, 1), &at(3, 2, 1), &target),
            Some(FlankLine {
                from: Centre { x2: 3, y2: 1 },
                to: Centre { x2: 7, y2: 5 }
            })
        );
    }
}
