//! What the battle map says about one plan line — cover, concealment, flanking, reach and
//! higher ground — together with the lines that decided it. [`crate::plan`] folds the
//! verdict into numbers; `d20odds check` prints it.
//!
//! Architecture Invariant: geometry comes from [`crate::map`], rule numbers from
//! [`crate::rules`]; this module only joins them for a combatant pair.

use crate::attack::SquareGuess;
use crate::map::{
    self, Approach, ConcealmentVerdict, Config, CoverVerdict, Ctx, FlankLine, LineTally, Reach,
};
use crate::rules::{CoverLevel, FlankPartner, RuleSet};
use crate::scenario::{
    AreaShape, AttackKind, Battlefield, Combatant, CombatantId, PlanLine, Scenario,
};

/// The map's verdict on one attacker → target line.
#[derive(Debug, Clone)]
pub struct LineVerdict {
    pub cover: CoverLevel,
    pub cover_lines: CoverVerdict,
    /// Miss chance in percent (the system's total-concealment chance when `total`).
    pub concealment: u8,
    pub concealment_lines: ConcealmentVerdict,
    pub flanking: Option<Flank>,
    /// Every creature that flanks the target with the attacker (the first is
    /// `flanking`'s): in a fight the flanking lasts while one of them threatens.
    pub flank_partners: Vec<CombatantId>,
    /// Melee only: the attack's reach and whether it reaches the target.
    pub reach: Option<ReachVerdict>,
    pub adjacent: bool,
    /// Distance between the two spaces in feet (the system's diagonal count).
    pub distance_ft: i64,
    /// Feet above the floor: terrain under the creature plus its own elevation.
    pub attacker_ground: i32,
    pub target_ground: i32,
    /// Under total concealment, the squares an attacker that has not pinpointed the
    /// target chooses among: the target's own and every open square next to its space.
    pub guess: SquareGuess,
    /// With soft cover: the creature giving it, the first one the deciding lines cross
    /// from the attacker's side.
    pub covering: Option<CombatantId>,
    /// Area attacks with an origin: feet from the origin to the target's nearest square.
    pub origin_distance_ft: Option<i64>,
    /// A spread: it goes round corners, so cover neither blocks it nor adds to Reflex.
    pub spread: bool,
    /// Whether a creature in the way gives this attack soft cover under the system's
    /// rules (PF1: ranged only; the house-rule variant: melee and areas too), so that
    /// the map counts the lines through creatures as blocked exactly when they are.
    pub soft_cover_counts: bool,
}

/// A flanking partner and the line between the two centres.
#[derive(Debug, Clone, Copy)]
pub struct Flank {
    pub partner: CombatantId,
    pub line: FlankLine,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReachVerdict {
    pub feet: i32,
    pub reach_weapon: bool,
    pub threatens: bool,
}

/// The geometry choices of a system.
pub fn map_config(rules: &RuleSet) -> Config {
    Config {
        low_wall_both: rules.low_wall_both_creatures,
        concealment_whole_space: rules.adjacent_concealment_whole_space,
    }
}

/// What cover is worth against one attack: its AC bonus against melee or ranged attacks,
/// or its Reflex bonus against an area effect.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Against {
    Melee,
    Ranged,
    Area,
}

impl Against {
    /// Which of cover's bonuses an attack of this kind meets.
    fn of(kind: AttackKind) -> Against {
        match kind {
            AttackKind::Melee => Against::Melee,
            AttackKind::Ranged => Against::Ranged,
            AttackKind::Area => Against::Area,
        }
    }
}

/// How one plan line turns a tally of blocked lines into a cover level.
#[derive(Debug, Clone, Copy)]
pub struct CoverRules<'a> {
    pub rules: &'a RuleSet,
    pub against: Against,
    /// `[options] partial_cover`: `false` gives full cover where partial cover would be.
    pub partial_cover: bool,
}

impl CoverRules<'_> {
    /// The bonus a level gives against this attack; 0 for a level the system lacks.
    pub fn worth(&self, level: CoverLevel) -> i32 {
        match self.against {
            Against::Melee => self.rules.cover_ac(level, true),
            Against::Ranged => self.rules.cover_ac(level, false),
            Against::Area => self.rules.cover_bonus(level).map_or(0, |c| c.reflex),
        }
    }

    /// The cover level a tally gives: cover kinds never stack, the best one for the
    /// defender counts (RULES.md §3.2); lines only a low wall blocks give at most the
    /// system's low-obstacle level; a level that is worth nothing against this attack
    /// (soft cover against reach, against an area) is no cover, so what `check` prints
    /// is what the numbers apply.
    pub fn level(&self, tally: &LineTally) -> CoverLevel {
        let rules = self.rules;
        let hard = tally.k - tally.low;
        let (walls, with_low) = if tally.adjacent {
            let any = |k: u8| {
                if k > 0 {
                    rules.adjacent_melee_cover
                } else {
                    CoverLevel::None
                }
            };
            (any(hard), any(tally.k))
        } else {
            let by_lines = |k: u8| self.full(rules.cover_by_lines[usize::from(k.min(4))]);
            (by_lines(hard), by_lines(tally.k))
        };
        let low = self.at_most(with_low, rules.low_obstacle_cover);
        let improved = tally.improved.then_some(rules.improved_cover);
        let soft = tally.soft.then_some(CoverLevel::Soft);
        // Scored for every candidate corner and square: no allocation here.
        [Some(walls), Some(low), improved, soft]
            .into_iter()
            .flatten()
            .filter(|&level| self.counts(level))
            .max_by_key(|&level| self.worth(level))
            .unwrap_or(CoverLevel::None)
    }

    /// Whether `level` is one the system has and is worth something against this attack.
    pub fn counts(&self, level: CoverLevel) -> bool {
        self.rules.cover_bonus(level).is_some() && self.worth(level) > 0
    }

    /// Partial cover is full cover when the experiment turns partial cover off.
    fn full(&self, level: CoverLevel) -> CoverLevel {
        if level == CoverLevel::Partial && !self.partial_cover {
            CoverLevel::Cover
        } else {
            level
        }
    }

    /// The lesser of two levels, by their AC bonus against ranged attacks.
    fn at_most(&self, level: CoverLevel, cap: CoverLevel) -> CoverLevel {
        let ac = |l| self.rules.cover_ac(l, false);
        if ac(level) > ac(cap) { cap } else { level }
    }
}

/// The map procedure that judges cover for an attack: the adjacent-melee test for melee
/// (the map falls back to the corner lines when the target is not adjacent), the corner
/// lines for everything else and, where the system says so, for melee made with reach
/// (natural reach over 5 ft or a reach weapon) even against an adjacent target.
pub fn cover_procedure(rules: &RuleSet, melee: bool, reach: Reach) -> Approach {
    let with_reach = reach.feet > 5 || reach.weapon;
    if melee && !(with_reach && rules.reach_uses_ranged_cover) {
        Approach::Melee
    } else {
        Approach::Ranged
    }
}

/// How a combatant's melee attack reaches (its own reach, or its size's natural reach).
pub fn reach_of(combatant: &Combatant, attack: &crate::scenario::Attack) -> Reach {
    Reach {
        feet: attack.reach.unwrap_or(combatant.size.row().reach_ft),
        weapon: attack.reach_weapon,
    }
}

/// Whether a combatant threatens a target's space: able to act, a melee attack that
/// reaches it, and line of effect to it (total cover from it means no threat).
pub(crate) fn threatens(
    field: &Battlefield,
    rules: &RuleSet,
    combatant: &Combatant,
    from: &map::Space,
    target: &map::Space,
) -> bool {
    !combatant.is_helpless(rules)
        && combatant
            .attacks
            .iter()
            .filter(|a| a.kind == AttackKind::Melee)
            .any(|a| map::threatens(from, target, reach_of(combatant, a)))
        && map::line_of_effect(&field.grid, from, target)
}

/// The verdict for one plan line.
pub fn line_verdict(
    scenario: &Scenario,
    field: &Battlefield,
    rules: &RuleSet,
    line: &PlanLine,
) -> LineVerdict {
    let attacker = scenario.combatant(line.attacker);
    let target = scenario.combatant(line.target);
    let attack = &attacker.attacks[line.attack];
    let melee = attack.kind == AttackKind::Melee;
    let area = attack.kind == AttackKind::Area;
    let (from, to) = (field.space(line.attacker), field.space(line.target));
    let creatures = soft_cover_creatures(scenario, field, rules, line.target, !melee && !area);
    let ctx = Ctx {
        attack: if melee {
            Approach::Melee
        } else {
            Approach::Ranged
        },
        creatures: &creatures,
        vision: attacker.vision,
        config: map_config(rules),
    };
    let cover_ctx = Ctx {
        attack: cover_procedure(rules, melee, reach_of(attacker, attack)),
        ..ctx
    };
    let judge = CoverRules {
        rules,
        against: Against::of(attack.kind),
        partial_cover: scenario.options.partial_cover,
    };
    let score = |tally: &LineTally| judge.worth(judge.level(tally));
    let origin = line.origin.filter(|_| area);
    let cover_lines = match origin {
        Some(origin) => map::cover_from_point(&field.grid, origin, to, &cover_ctx, &score),
        None => map::cover(&field.grid, from, to, &cover_ctx, &score),
    };
    let spread = area && attack.shape == AreaShape::Spread;
    let cover = if spread {
        CoverLevel::None
    } else if cover_lines.total {
        CoverLevel::Total
    } else {
        judge.level(&cover_lines.tally)
    };
    let covering = (cover == CoverLevel::Soft)
        .then(|| first_creature_crossed(scenario, field, &creatures, line, &cover_lines))
        .flatten();
    let concealment_lines = if area {
        ConcealmentVerdict::default()
    } else {
        map::concealment(&field.grid, from, to, &ctx)
    };
    let concealment = miss_chance(rules, &concealment_lines);
    let reach = melee.then(|| reach_verdict(reach_of(attacker, attack), from, to));
    let flank_partners: Vec<Flank> = if reach.is_some_and(|r| r.threatens) {
        flank_partners(scenario, field, rules, line).collect()
    } else {
        Vec::new()
    };
    LineVerdict {
        cover,
        cover_lines,
        concealment,
        concealment_lines,
        flanking: flank_partners.first().copied(),
        flank_partners: flank_partners.iter().map(|f| f.partner).collect(),
        reach,
        adjacent: map::adjacent(from, to),
        distance_ft: map::distance(from, to),
        attacker_ground: map::ground_elevation(&field.grid, from, attacker.elevation),
        target_ground: map::ground_elevation(&field.grid, to, target.elevation),
        guess: square_guess(field, line.target),
        covering,
        origin_distance_ft: origin.map(|p| map::distance_from_point(p, to)),
        spread,
        soft_cover_counts: judge.counts(CoverLevel::Soft),
    }
}

/// The miss chance in percent concealment gives: the system's own chance under total
/// concealment, else the one the deciding lines found.
fn miss_chance(rules: &RuleSet, lines: &ConcealmentVerdict) -> u8 {
    if lines.total {
        rules.total_concealment
    } else {
        lines.miss_chance
    }
}

/// Whether a melee attack with this reach reaches the target's space.
fn reach_verdict(reach: Reach, from: &map::Space, to: &map::Space) -> ReachVerdict {
    ReachVerdict {
        feet: reach.feet,
        reach_weapon: reach.weapon,
        threatens: map::threatens(from, to, reach),
    }
}

/// The spaces of every creature that can give soft cover against attacks on `target`:
/// all of them, or in d20 Modern only those at least the target's size. Against a ranged
/// attack the creature the target is grappling with gives none: which of the pair is
/// struck is rolled at random instead. The rest are left out of the map's view.
fn soft_cover_creatures(
    scenario: &Scenario,
    field: &Battlefield,
    rules: &RuleSet,
    target: CombatantId,
    ranged: bool,
) -> Vec<map::Space> {
    let defender = scenario.combatant(target);
    let grappler = defender.grappling_with.filter(|_| ranged);
    field
        .spaces
        .iter()
        .zip(&scenario.combatants)
        .zip(scenario.combatant_ids())
        .filter(|&(_, i)| Some(i) != grappler)
        .filter(|&((_, c), i)| {
            i == target || !rules.soft_cover_needs_target_size || c.size >= defender.size
        })
        .map(|((space, _), _)| *space)
        .collect()
}

/// The creature whose space the deciding cover lines cross first,
/// walking each line from the attacker's end.
fn first_creature_crossed(
    scenario: &Scenario,
    field: &Battlefield,
    creatures: &[map::Space],
    line: &PlanLine,
    cover: &CoverVerdict,
) -> Option<CombatantId> {
    let (from, to) = (field.space(line.attacker), field.space(line.target));
    cover
        .lines
        .iter()
        .filter(|l| l.creature)
        .flat_map(|l| map::crossings(l.from, l.to))
        .filter(|s| !from.contains(*s) && !to.contains(*s))
        .find_map(|s| {
            scenario.combatant_ids().find(|&i| {
                i != line.attacker
                    && i != line.target
                    && creatures.contains(field.space(i))
                    && field.space(i).contains(s)
            })
        })
}

/// The target's squares and the open squares around its space (on the map, not blocking,
/// not another creature's): where an unseen target might stand (RULES.md Ambiguity 9).
fn square_guess(field: &Battlefield, target: CombatantId) -> SquareGuess {
    let space = field.space(target);
    let side = space.side();
    let ring = (space.y() - 1..=space.y() + side)
        .flat_map(|y| (space.x() - 1..=space.x() + side).map(move |x| map::Square { x, y }))
        .filter(|&s| !space.contains(s))
        .filter(|&s| {
            field.grid.contains(s)
                && !field.grid.terrain(s).blocks
                && field.spaces.iter().all(|other| !other.contains(s))
        })
        .count() as u32;
    let own = (side * side) as u32;
    SquareGuess {
        right: own,
        candidates: own + ring,
    }
}

/// Every creature that flanks the target with the attacker (RULES.md §4), in file order:
/// hostile to the target (or, in d20 Modern, an ally of the attacker), threatening it (in
/// reach, and with line of effect: total cover from it means no threat), placed so the
/// line between the centres crosses opposite borders of the target's space.
fn flank_partners<'a>(
    scenario: &'a Scenario,
    field: &'a Battlefield,
    rules: &'a RuleSet,
    line: &'a PlanLine,
) -> impl Iterator<Item = Flank> + 'a {
    let attacker = scenario.combatant(line.attacker);
    let target = scenario.combatant(line.target);
    let to = field.space(line.target);
    scenario
        .combatant_ids()
        .zip(&scenario.combatants)
        .filter(move |&(i, c)| {
            let counts = match rules.flank_partner {
                FlankPartner::HostileToTarget => c.side != target.side,
                FlankPartner::AllyOfAttacker => c.side == attacker.side && c.side != target.side,
            };
            i != line.attacker && i != line.target && counts
        })
        .filter(move |&(i, c)| threatens(field, rules, c, field.space(i), to))
        .filter_map(move |(i, _)| {
            map::flanking(field.space(line.attacker), field.space(i), to)
                .map(|line| Flank { partner: i, line })
        })
}
