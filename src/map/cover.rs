//! Cover from the corner-line procedure (SPEC.md §4, RULES.md §3.1).

use super::sight::{SightLine, Sightlines};
use super::{Grid, Point, Space, Square, adjacent};

/// How the attack reaches the target: it picks the cover procedure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Approach {
    /// Ranged, or any attack the caller wants judged by the ranged procedure (a reach
    /// attack, or the variant's Large natural reach).
    Ranged,
    /// Melee: the adjacent-melee test when the spaces are adjacent, the ranged procedure
    /// when they are not (reach).
    Melee,
}

/// The rule choices that differ between systems; `Default` is PF1 read as SPEC.md says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// Variant low walls: they count only if both creatures are within 30 ft of them and
    /// both are Medium or smaller (RULES.md §3.1, HV).
    pub low_wall_both: bool,
    /// Adjacent melee: concealment only when the target's whole space is concealed
    /// (PF1/SF); `false` applies the line test instead (HV, RULES.md §8.20).
    pub concealment_whole_space: bool,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            low_wall_both: false,
            concealment_whole_space: true,
        }
    }
}

/// What the attacker can see with; only concealment reads it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Vision {
    /// Sees through dim light.
    pub low_light: bool,
    /// Sees through dim light and darkness.
    pub darkvision: bool,
}

/// Everything besides the two spaces that a verdict depends on.
#[derive(Clone, Copy, Debug)]
pub struct Ctx<'a> {
    /// Picks the procedure (adjacent melee or the corner lines).
    pub attack: Approach,
    /// Every creature on the map (the attacker and the target may be included; they are
    /// skipped): lines through the others give soft cover.
    pub creatures: &'a [Space],
    /// The attacker's senses, for lighting.
    pub vision: Vision,
    /// The rule system's geometry choices.
    pub config: Config,
}

/// The summary of one candidate the attacker could pick, for the caller's score.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct LineTally {
    /// Blocked lines (walls, counting low walls, improved-cover squares).
    pub k: u8,
    /// Some line crosses another creature's square (never in adjacent melee).
    pub soft: bool,
    /// Some blocked line is blocked by an improved-cover square (not only thanks to a low
    /// wall).
    pub improved: bool,
    /// How many of the `k` blocked lines only a counting low wall blocks: the caller caps
    /// the cover they give at the system's low-obstacle level.
    pub low: u8,
    /// The adjacent-melee test: `k` of 16 lines, and any blocked line means cover.
    pub adjacent: bool,
}

/// A cover verdict with the lines that decided it, for `d20odds check`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CoverVerdict {
    /// The attacker's best candidate, summarised.
    pub tally: LineTally,
    /// No line of effect: walls block every line between the two spaces.
    pub total: bool,
    /// The attacker's square the lines start from.
    pub from: Square,
    /// The chosen corner (ranged procedure); `None` in adjacent melee, which uses all 4.
    pub corner: Option<Point>,
    /// The chosen target square.
    pub to: Square,
    /// Ranged: the 4 lines from the corner; adjacent melee: the 16 corner-to-corner lines.
    pub lines: Vec<SightLine>,
}

/// Cover of `target` against `attacker`. The attacker picks the candidate (corner and
/// target square, or in adjacent melee a square of each) with the lowest
/// `(score, k, soft, improved, low)`; `score` holds the rule numbers (lower = better for
/// the attacker), the rest only breaks ties so the verdict never depends on scan order.
pub fn cover(
    grid: &Grid,
    attacker: &Space,
    target: &Space,
    ctx: &Ctx<'_>,
    score: &dyn Fn(&LineTally) -> i32,
) -> CoverVerdict {
    let sight = Sightlines::new(grid, attacker, target, ctx.creatures, &ctx.config);
    let adjacent_melee = ctx.attack == Approach::Melee && adjacent(attacker, target);
    let picks = target.squares().flat_map(|to| {
        let pairs = attacker
            .squares()
            .filter(move |_| adjacent_melee)
            .map(move |from| Pick {
                from,
                corner: None,
                to,
            });
        let fans = attacker
            .corners()
            .filter(move |_| !adjacent_melee)
            .map(move |c| Pick {
                from: attacker.square_at(c),
                corner: Some(c),
                to,
            });
        pairs.chain(fans)
    });
    let (pick, tally) = picks
        .map(|p| (p, p.tally(&sight)))
        .min_by_key(|(_, t)| (score(t), *t))
        .unwrap_or_default();
    CoverVerdict {
        tally,
        total: sight.total(),
        from: pick.from,
        corner: pick.corner,
        to: pick.to,
        lines: pick.lines(&sight),
    }
}

/// Whether some line joins a corner of `from` to a corner of `to` without walls blocking
/// it: without one, `to` has total cover from `from` (a flanking partner behind it does
/// not threaten, RULES.md §4).
pub fn line_of_effect(grid: &Grid, from: &Space, to: &Space) -> bool {
    !Sightlines::new(grid, from, to, &[], &Config::default()).total()
}

/// Cover of `target` against an effect spreading from a grid intersection (a burst's
/// point of origin, RULES.md Ambiguity 22): the 4 lines from that point to the corners
/// of the target square the effect reaches best; total when walls block every line from
/// the point to any corner of the target's space.
pub fn cover_from_point(
    grid: &Grid,
    origin: Point,
    target: &Space,
    ctx: &Ctx<'_>,
    score: &dyn Fn(&LineTally) -> i32,
) -> CoverVerdict {
    let source = Space::new(origin.x, origin.y, 1).unwrap_or(*target);
    let sight = Sightlines::new(grid, &source, target, ctx.creatures, &ctx.config);
    let (pick, tally) = target
        .squares()
        .map(|to| Pick {
            from: source.square_at(origin),
            corner: Some(origin),
            to,
        })
        .map(|p| (p, p.tally(&sight)))
        .min_by_key(|(_, t)| (score(t), *t))
        .unwrap_or_default();
    CoverVerdict {
        tally,
        total: target.corners().all(|c| sight.get(origin, c).wall),
        from: pick.from,
        corner: pick.corner,
        to: pick.to,
        lines: pick.lines(&sight),
    }
}

/// One choice the attacker can make: a corner and a target square (ranged procedure),
/// or a square of each (adjacent melee, `corner` = `None`).
#[derive(Clone, Copy, Debug, Default)]
struct Pick {
    from: Square,
    corner: Option<Point>,
    to: Square,
}

impl Pick {
    fn tally(self, sight: &Sightlines) -> LineTally {
        match self.corner {
            Some(c) => tally(&sight.fan(c, self.to), false),
            None => tally(&pair_lines(sight, self.from, self.to), true),
        }
    }

    fn lines(self, sight: &Sightlines) -> Vec<SightLine> {
        match self.corner {
            Some(c) => sight.fan(c, self.to).to_vec(),
            None => pair_lines(sight, self.from, self.to).to_vec(),
        }
    }
}

/// The 16 lines from every corner of one attacker square to every corner of one target square.
fn pair_lines(sight: &Sightlines, from: Square, to: Square) -> [SightLine; 16] {
    let (a, t) = (from.corners(), to.corners());
    std::array::from_fn(|i| sight.get(a[i / 4], t[i % 4]))
}

fn tally(lines: &[SightLine], adjacent: bool) -> LineTally {
    let blocked = lines.iter().filter(|l| l.blocked());
    LineTally {
        k: blocked.clone().count() as u8,
        soft: !adjacent && lines.iter().any(|l| l.creature),
        improved: blocked.clone().any(|l| l.improved && !l.low),
        low: blocked.clone().filter(|l| l.low).count() as u8,
        adjacent,
    }
}
