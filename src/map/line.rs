//! Exact segments between lattice points: which squares a segment crosses, which square
//! edges it runs along and which lattice points it passes, in integer arithmetic only.
//!
//! A segment from `p` to `q` with `g = gcd(|dx|, |dy|)` passes exactly the lattice points
//! `p + i·(dx, dy)/g`; between two of them it crosses `|dx|/g + |dy|/g − 1` square
//! interiors, found by comparing where it meets the next column line and the next row
//! line (`(a+1)·v` against `(b+1)·u`), which never tie before the next lattice point.

use super::{Point, Space, Square};

/// One end of a segment: a lattice point and the space it belongs to (an attacker's or a
/// target's). The space decides, at that point only, whether two blocking squares
/// meeting diagonally there stand between the segment and its own side; see [`touches`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct End {
    /// Where the segment ends.
    pub point: Point,
    /// The creature standing at this end.
    pub home: Space,
}

/// Something a segment touches that may block it, reported one at a time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Touch {
    /// The segment crosses the interior of this square.
    Through(Square),
    /// The segment runs, for a positive length, along the edge between these two squares:
    /// the two can only block it together (a line along one wall's face is clear).
    Along(Square, Square),
    /// The segment passes the point where these two squares meet diagonally, from one side
    /// of the pair to the other: the two can only block it together.
    Pinch(Square, Square),
}

/// Reports everything the segment between two ends touches (a square may be reported
/// more than once). The rules at lattice points:
/// - at a point strictly inside the segment, both diagonal pairs around it are reported;
/// - at an end, only a diagonal pair with no square of that end's space, and only when the
///   segment leaves the end outside every closed quadrant of that space's squares there:
///   a line that starts in the crook of two diagonal walls and heads away from them is
///   clear, one that starts there and heads through the gap between them is not;
/// - a zero-length segment (two spaces sharing a corner) is reported as passing the pair
///   that contains no square of either space: two creatures meeting diagonally across
///   the corner where two walls meet have no line between them there.
///
/// Every rule is stated in terms of the geometry alone, so mirroring or translating the
/// picture mirrors or translates the report.
pub fn touches(from: End, to: End, mut visit: impl FnMut(Touch)) {
    let (p, q) = (from.point, to.point);
    let dx = i64::from(q.x) - i64::from(p.x);
    let dy = i64::from(q.y) - i64::from(p.y);
    if dx == 0 && dy == 0 {
        for (a, b) in diagonal_pairs(p) {
            if !from.home.contains(a)
                && !from.home.contains(b)
                && !to.home.contains(a)
                && !to.home.contains(b)
            {
                visit(Touch::Pinch(a, b));
            }
        }
        return;
    }
    crossings(p, q).for_each(|s| visit(Touch::Through(s)));
    let (px, py) = (i64::from(p.x), i64::from(p.y));
    if dy == 0 {
        for x in px.min(px + dx)..px.max(px + dx) {
            visit(Touch::Along(Square::at(x, py - 1), Square::at(x, py)));
        }
    }
    if dx == 0 {
        for y in py.min(py + dy)..py.max(py + dy) {
            visit(Touch::Along(Square::at(px - 1, y), Square::at(px, y)));
        }
    }
    let g = gcd(dx.unsigned_abs(), dy.unsigned_abs());
    let (sx, sy) = (dx / g as i64, dy / g as i64);
    for i in 1..g as i64 {
        for (a, b) in diagonal_pairs(Point::at(px + i * sx, py + i * sy)) {
            visit(Touch::Pinch(a, b));
        }
    }
    end_pinches(from, (dx.signum(), dy.signum()), &mut visit);
    end_pinches(to, (-dx.signum(), -dy.signum()), &mut visit);
}

/// The pinches at one end of a non-degenerate segment leaving it in direction `d`.
fn end_pinches(end: End, d: (i64, i64), visit: &mut impl FnMut(Touch)) {
    let p = end.point;
    let own_quadrant = around(p).into_iter().any(|(s, (ox, oy))| {
        end.home.contains(s)
            && (if ox == 0 { d.0 >= 0 } else { d.0 <= 0 })
            && (if oy == 0 { d.1 >= 0 } else { d.1 <= 0 })
    });
    if own_quadrant {
        return;
    }
    for (a, b) in diagonal_pairs(p) {
        if !end.home.contains(a) && !end.home.contains(b) {
            visit(Touch::Pinch(a, b));
        }
    }
}

/// The 4 squares around a lattice point, each with its offset from the point.
fn around(p: Point) -> [(Square, (i64, i64)); 4] {
    let (x, y) = (i64::from(p.x), i64::from(p.y));
    [(-1, -1), (0, -1), (-1, 0), (0, 0)].map(|(ox, oy)| (Square::at(x + ox, y + oy), (ox, oy)))
}

/// The two pairs of squares that meet diagonally at a lattice point.
fn diagonal_pairs(p: Point) -> [(Square, Square); 2] {
    let [(nw, _), (ne, _), (sw, _), (se, _)] = around(p);
    [(nw, se), (ne, sw)]
}

fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// The squares whose interior the segment from `p` to `q` crosses, in order from `p`;
/// none when the segment lies on a grid line. Allocation-free.
pub fn crossings(p: Point, q: Point) -> Crossings {
    let dx = i64::from(q.x) - i64::from(p.x);
    let dy = i64::from(q.y) - i64::from(p.y);
    let g = gcd(dx.unsigned_abs(), dy.unsigned_abs()).max(1);
    let (sx, sy) = (dx.signum(), dy.signum());
    Crossings {
        cell: (
            i64::from(p.x) - i64::from(sx < 0),
            i64::from(p.y) - i64::from(sy < 0),
        ),
        step: (sx, sy),
        u: dx.unsigned_abs() / g,
        v: dy.unsigned_abs() / g,
        a: 0,
        b: 0,
        pieces_left: if dx == 0 || dy == 0 { 0 } else { g },
    }
}

/// Iterator of [`crossings`]: walks one primitive piece (between consecutive lattice
/// points) after another.
#[derive(Clone, Debug)]
pub struct Crossings {
    cell: (i64, i64),
    step: (i64, i64),
    u: u64,
    v: u64,
    a: u64,
    b: u64,
    pieces_left: u64,
}

impl Iterator for Crossings {
    type Item = Square;

    fn next(&mut self) -> Option<Square> {
        if self.pieces_left == 0 {
            return None;
        }
        let out = Square::at(self.cell.0, self.cell.1);
        if self.a + self.b + 2 < self.u + self.v {
            // Invariant: u and v are coprime, so the two products tie only at the piece's end.
            if (self.a + 1) * self.v < (self.b + 1) * self.u {
                self.a += 1;
                self.cell.0 += self.step.0;
            } else {
                self.b += 1;
                self.cell.1 += self.step.1;
            }
        } else {
            self.pieces_left -= 1;
            self.a = 0;
            self.b = 0;
            self.cell = (self.cell.0 + self.step.0, self.cell.1 + self.step.1);
        }
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Independent reference for [`crossings`]: cut the segment at every parameter where
    /// it meets a grid line and take the square holding the middle of each piece.
    fn crossings_by_cutting(p: Point, q: Point) -> Vec<Square> {
        let (x0, y0) = (i64::from(p.x), i64::from(p.y));
        let (dx, dy) = (i64::from(q.x) - x0, i64::from(q.y) - y0);
        if dx == 0 || dy == 0 {
            return Vec::new();
        }
        // t = T / l with l = |dx·dy|: integer T for every grid line met.
        let l = (dx * dy).abs();
        let mut cuts: Vec<i64> = (0..=dx.abs())
            .map(|i| i * l / dx.abs())
            .chain((0..=dy.abs()).map(|i| i * l / dy.abs()))
            .collect();
        cuts.sort_unstable();
        cuts.dedup();
        cuts.windows(2)
            .map(|w| {
                let mid = w[0] + w[1];
                let at = |o: i64, d: i64| (o * 2 * l + d * mid).div_euclid(2 * l) as i32;
                Square {
                    x: at(x0, dx),
                    y: at(y0, dy),
                }
            })
            .collect()
    }

    proptest! {
        #[test]
        fn crossings_match_cutting(a in (-9..9i32, -9..9i32), b in (-9..9i32, -9..9i32)) {
            let (p, q) = (pt(a.0, a.1), pt(b.0, b.1));
            prop_assert_eq!(crossings(p, q).collect::<Vec<_>>(), crossings_by_cutting(p, q));
        }
    }

    fn pt(x: i32, y: i32) -> Point {
        Point { x, y }
    }

    fn sq(x: i32, y: i32) -> Square {
        Square { x, y }
    }

    fn end(x: i32, y: i32, hx: i32, hy: i32) -> End {
        End {
            point: pt(x, y),
            home: Space::new(hx, hy, 1).unwrap(),
        }
    }

    fn all(from: End, to: End) -> Vec<Touch> {
        let mut v = Vec::new();
        touches(from, to, |t| v.push(t));
        v
    }

    #[test]
    fn crossings_of_shallow_steep_and_reversed_segments() {
        let got: Vec<_> = crossings(pt(0, 0), pt(3, 1)).collect();
        assert_eq!(got, vec![sq(0, 0), sq(1, 0), sq(2, 0)]);
        let got: Vec<_> = crossings(pt(0, 0), pt(4, 2)).collect();
        assert_eq!(got, vec![sq(0, 0), sq(1, 0), sq(2, 1), sq(3, 1)]);
        let got: Vec<_> = crossings(pt(3, 1), pt(0, 0)).collect();
        assert_eq!(got, vec![sq(2, 0), sq(1, 0), sq(0, 0)]);
        let got: Vec<_> = crossings(pt(0, 3), pt(2, 0)).collect();
        assert_eq!(got, vec![sq(0, 2), sq(0, 1), sq(1, 1), sq(1, 0)]);
        assert_eq!(crossings(pt(0, 0), pt(5, 0)).count(), 0);
        assert_eq!(crossings(pt(1, 1), pt(1, 1)).count(), 0);
        let far = crossings(pt(i32::MIN, 0), pt(i32::MAX, 1));
        assert_eq!(far.take(2).count(), 2);
    }

    #[test]
    fn interior_lattice_points_report_both_pairs_and_edges_their_sides() {
        let got = all(end(0, 0, 0, 0), end(2, 2, 1, 1));
        assert!(got.contains(&Touch::Pinch(sq(0, 0), sq(1, 1))));
        assert!(got.contains(&Touch::Pinch(sq(1, 0), sq(0, 1))));
        let got = all(end(0, 1, 0, 1), end(2, 1, 1, 1));
        assert_eq!(
            got,
            vec![
                Touch::Along(sq(0, 0), sq(0, 1)),
                Touch::Along(sq(1, 0), sq(1, 1)),
                Touch::Pinch(sq(0, 0), sq(1, 1)),
                Touch::Pinch(sq(1, 0), sq(0, 1)),
            ]
        );
    }

    #[test]
    fn an_end_in_a_crook_reports_the_pair_only_when_heading_through_it() {
        // Home (1,1) with its corner (1,1) between squares (1,0) and (0,1).
        let away = all(end(1, 1, 1, 1), end(3, 4, 2, 3));
        assert!(!away.iter().any(|t| matches!(t, Touch::Pinch(..))));
        let through = all(end(1, 1, 1, 1), end(0, 0, 0, 0));
        assert!(through.contains(&Touch::Pinch(sq(1, 0), sq(0, 1))));
        let beside = all(end(1, 1, 1, 1), end(-1, 0, -1, 0));
        assert!(beside.contains(&Touch::Pinch(sq(1, 0), sq(0, 1))));
    }

    #[test]
    fn zero_length_segments_pinch_only_between_diagonal_homes() {
        let diagonal = all(end(1, 1, 0, 0), end(1, 1, 1, 1));
        assert_eq!(diagonal, vec![Touch::Pinch(sq(1, 0), sq(0, 1))]);
        assert!(all(end(1, 1, 0, 0), end(1, 1, 1, 0)).is_empty());
    }
}
