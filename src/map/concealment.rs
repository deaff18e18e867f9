//! Concealment: the corner-line procedure over concealing squares, the adjacent-melee
//! exception, and lighting (SPEC.md §4, RULES.md §3.3–3.6).

use super::sight::{SightLine, Sightlines};
use super::{Approach, Ctx, Grid, Point, Space, Square, Vision, adjacent};

/// Miss chance of dim light against eyes without low-light vision or darkvision.
const DIM_MISS: u8 = 20;
/// Miss chance of total concealment; any source this high hides the target completely.
const TOTAL_MISS: u8 = 50;

/// A concealment verdict with what decided it, for `d20odds check`; the default is no
/// concealment at all (what an area effect, which needs no sight, gets).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ConcealmentVerdict {
    /// The miss chance in percent: the highest that applies, never a sum.
    pub miss_chance: u8,
    /// Total concealment (line of effect but no line of sight): the miss chance is 50% or
    /// more, so the attacker must also pick the right square.
    pub total: bool,
    /// The part of the miss chance from fog-like squares (lines, or the whole space).
    pub terrain: u8,
    /// The part from the target's lighting (dim 20, dark 50).
    pub light: u8,
    /// The chosen corner; `None` when the adjacent-melee whole-space test decided.
    pub corner: Option<Point>,
    /// The chosen target square; `None` with the whole-space test.
    pub to: Option<Square>,
    /// The 4 lines from the chosen corner (empty with the whole-space test).
    pub lines: Vec<SightLine>,
    /// The concealing squares that count, with their miss chance: those the chosen lines
    /// cross, or the target's own squares with the whole-space test.
    pub squares: Vec<(Square, u8)>,
}

/// Concealment of `target` from `attacker`. Lines: the attacker picks the corner and
/// target square whose 4 lines cross the least concealing square; squares the target
/// fills count (it stands in the fog), squares the attacker fills do not (its own fog is
/// around it, not between). Adjacent melee with [`super::Config::concealment_whole_space`]:
/// only a target entirely inside concealing squares has it (the least of them). Lighting
/// is judged from the target's squares, not from lines: dim when every square is dim or
/// dark (unless low-light vision or darkvision sees one of them normally), darkness when
/// every square is dark (unless darkvision).
pub fn concealment(
    grid: &Grid,
    attacker: &Space,
    target: &Space,
    ctx: &Ctx<'_>,
) -> ConcealmentVerdict {
    let light = lighting(grid, target, ctx.vision);
    let whole_space = ctx.attack == Approach::Melee
        && ctx.config.concealment_whole_space
        && adjacent(attacker, target);
    let mut verdict = if whole_space {
        let squares: Vec<_> = target
            .squares()
            .map(|s| (s, grid.terrain(s).concealment))
            .collect();
        let least = squares.iter().map(|(_, c)| *c).min().unwrap_or(0);
        ConcealmentVerdict {
            miss_chance: 0,
            total: false,
            terrain: least,
            light,
            corner: None,
            to: None,
            lines: Vec::new(),
            squares: if least > 0 { squares } else { Vec::new() },
        }
    } else {
        by_lines(grid, attacker, target, ctx, light)
    };
    verdict.miss_chance = verdict.terrain.max(verdict.light);
    verdict.total = verdict.miss_chance >= TOTAL_MISS;
    verdict
}

fn by_lines(
    grid: &Grid,
    attacker: &Space,
    target: &Space,
    ctx: &Ctx<'_>,
    light: u8,
) -> ConcealmentVerdict {
    let sight = Sightlines::new(grid, attacker, target, ctx.creatures, &ctx.config);
    let mut best: Option<(u8, Point, Square)> = None;
    for to in target.squares() {
        for corner in attacker.corners() {
            let worst = sight
                .fan(corner, to)
                .iter()
                .map(|l| l.concealment)
                .max()
                .unwrap_or(0);
            if best.is_none_or(|(b, _, _)| worst < b) {
                best = Some((worst, corner, to));
            }
        }
    }
    let (terrain, corner, to) = best.unwrap_or((
        0,
        Point {
            x: attacker.x(),
            y: attacker.y(),
        },
        Square {
            x: target.x(),
            y: target.y(),
        },
    ));
    let lines = sight.fan(corner, to).to_vec();
    let mut squares = Vec::new();
    for line in &lines {
        for s in super::crossings(line.from, line.to) {
            let c = grid.terrain(s).concealment;
            if c > 0 && !attacker.contains(s) && !squares.contains(&(s, c)) {
                squares.push((s, c));
            }
        }
    }
    ConcealmentVerdict {
        miss_chance: 0,
        total: false,
        terrain,
        light,
        corner: Some(corner),
        to: Some(to),
        lines,
        squares,
    }
}

/// The lighting miss chance from the target's squares for these eyes.
fn lighting(grid: &Grid, target: &Space, vision: Vision) -> u8 {
    target
        .squares()
        .map(|s| {
            let t = grid.terrain(s);
            if t.dark && !vision.darkvision {
                TOTAL_MISS
            } else if (t.dim || t.dark) && !vision.low_light && !vision.darkvision {
                DIM_MISS
            } else {
                0
            }
        })
        .min()
        .unwrap_or(0)
}
