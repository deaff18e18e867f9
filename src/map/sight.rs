//! Every line between an attacker's corners and a target's corners, traced once and
//! shared by the cover and concealment procedures.

use super::line::{End, Touch, touches};
use super::{Config, Grid, Point, Space, Square, distance};

const WALL: u8 = 1;
const LOW: u8 = 2;
const IMPROVED: u8 = 4;

/// Farthest a low wall can be from the target (and, in the variant, from the attacker)
/// and still give cover.
const LOW_WALL_RANGE_FT: i64 = 30;

/// One line from an attacker's corner to a target's corner, and what it met.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SightLine {
    /// The attacker's corner.
    pub from: Point,
    /// The target's corner.
    pub to: Point,
    /// Blocked by walls alone: no line of effect along it.
    pub wall: bool,
    /// Blocked only thanks to a low wall that counts for this attacker and target: walls
    /// and improved-cover squares alone would leave it clear (low walls give at most
    /// ordinary cover, RULES.md §3.1).
    pub low: bool,
    /// An improved-cover square (an arrow slit) helps block it.
    pub improved: bool,
    /// Crosses a square of a creature other than the attacker and the target.
    pub creature: bool,
    /// The highest concealment among the squares it crosses, the attacker's own excluded.
    pub concealment: u8,
}

impl SightLine {
    /// Whether the line counts as blocked for cover (by a wall, a counting low wall or an
    /// improved-cover square).
    pub fn blocked(&self) -> bool {
        self.wall || self.low || self.improved
    }
}

/// The lines between every corner of the attacker's space and every corner of the target's.
pub(super) struct Sightlines<'a> {
    tracer: Tracer<'a>,
    lines: Vec<SightLine>,
}

impl<'a> Sightlines<'a> {
    pub(super) fn new(
        grid: &'a Grid,
        attacker: &Space,
        target: &Space,
        creatures: &'a [Space],
        config: &'a Config,
    ) -> Sightlines<'a> {
        let tracer = Tracer {
            grid,
            attacker: *attacker,
            target: *target,
            creatures,
            config,
        };
        let lines = attacker
            .corners()
            .flat_map(|from| target.corners().map(move |to| (from, to)))
            .map(|(from, to)| tracer.trace(from, to))
            .collect();
        Sightlines { tracer, lines }
    }

    /// The line from a corner of the attacker's space to a corner of the target's (traced
    /// afresh for points that are not such corners).
    pub(super) fn get(&self, from: Point, to: Point) -> SightLine {
        let (a, t) = (&self.tracer.attacker, &self.tracer.target);
        match (corner_index(a, from), corner_index(t, to)) {
            (Some(i), Some(j)) => self.lines.get(i * corner_count(t) + j).copied(),
            _ => None,
        }
        .unwrap_or_else(|| self.tracer.trace(from, to))
    }

    /// No line of effect: walls block every line from any corner of any attacker square
    /// to any corner of any target square.
    pub(super) fn total(&self) -> bool {
        self.lines.iter().all(|l| l.wall)
    }

    /// The 4 lines from a corner to the corners of one target square.
    pub(super) fn fan(&self, from: Point, to: Square) -> [SightLine; 4] {
        to.corners().map(|c| self.get(from, c))
    }
}

/// Where `p` sits in the reading order of the space's corners, if it is one of them.
fn corner_index(s: &Space, p: Point) -> Option<usize> {
    let n = s.side() + 1;
    let (dx, dy) = (p.x.checked_sub(s.x())?, p.y.checked_sub(s.y())?);
    let inside = (0..n).contains(&dx) && (0..n).contains(&dy);
    inside.then(|| usize::try_from(dy * n + dx).ok()).flatten()
}

fn corner_count(s: &Space) -> usize {
    usize::try_from((s.side() + 1) * (s.side() + 1)).unwrap_or(0)
}

struct Tracer<'a> {
    grid: &'a Grid,
    attacker: Space,
    target: Space,
    creatures: &'a [Space],
    config: &'a Config,
}

impl Tracer<'_> {
    /// What a square is for this attacker and target: a wall, a counting low wall, an
    /// improved-cover square, or nothing in the way (0).
    fn kind(&self, s: Square) -> u8 {
        let t = self.grid.terrain(s);
        if t.improved {
            IMPROVED
        } else if t.blocks {
            WALL
        } else if t.low && self.low_wall_counts(s) {
            LOW
        } else {
            0
        }
    }

    /// RULES.md §3.1/§8.5: within 30 ft of the target and the attacker not strictly
    /// closer; the variant also needs the attacker within 30 ft and both creatures
    /// Medium or smaller (a 2½-ft wall is then at least half of both heights).
    fn low_wall_counts(&self, s: Square) -> bool {
        let wall = Space::new(s.x, s.y, 1);
        let Some(wall) = wall else { return false };
        let to_target = distance(&self.target, &wall);
        let to_attacker = distance(&self.attacker, &wall);
        let pf1 = to_target <= LOW_WALL_RANGE_FT && to_attacker >= to_target;
        let variant = to_attacker <= LOW_WALL_RANGE_FT
            && self.attacker.side() == 1
            && self.target.side() == 1;
        pf1 && (!self.config.low_wall_both || variant)
    }

    fn trace(&self, from: Point, to: Point) -> SightLine {
        let mut line = SightLine {
            from,
            to,
            wall: false,
            low: false,
            improved: false,
            creature: false,
            concealment: 0,
        };
        let ends = (
            End {
                point: from,
                home: self.attacker,
            },
            End {
                point: to,
                home: self.target,
            },
        );
        let (mut any, mut hard) = (false, false);
        touches(ends.0, ends.1, |touch| {
            // A square's interior blocks alone; an edge or a pinch point needs both squares.
            let [a, b] = match touch {
                Touch::Through(s) => {
                    self.crossed(s, &mut line);
                    [self.kind(s); 2]
                }
                Touch::Along(a, b) | Touch::Pinch(a, b) => [self.kind(a), self.kind(b)],
            };
            let blocks_with = |mask: u8| a & mask != 0 && b & mask != 0;
            if blocks_with(WALL | LOW | IMPROVED) {
                any = true;
                line.improved |= (a | b) & IMPROVED != 0;
            }
            hard |= blocks_with(WALL | IMPROVED);
            line.wall |= blocks_with(WALL);
        });
        line.low = any && !hard;
        line
    }

    /// Soft cover and concealment come from squares a line crosses.
    fn crossed(&self, s: Square, line: &mut SightLine) {
        if !self.attacker.contains(s) {
            line.concealment = line.concealment.max(self.grid.terrain(s).concealment);
        }
        if !self.attacker.contains(s) && !self.target.contains(s) {
            line.creature |= self
                .creatures
                .iter()
                .any(|c| *c != self.attacker && *c != self.target && c.contains(s));
        }
    }
}
