//! Encounters (SPEC §6): both sides fight. A [`Fight`] is the numbers of one — each
//! combatant's thresholds, orders and every attack it could make at every enemy, as
//! profiles folded by the planner — and the turn rules, in `turn.rs` alone: the exact
//! engine (`exact.rs`) steps through a turn ([`Fight::advance`] and the `resolve_*`
//! steps) and follows every branch of each chance; Monte Carlo (`simulate.rs`) plays it
//! straight through (`straight.rs`, on a compact layout of the same numbers and the
//! same rules), drawing each chance as it comes. A test plays both turns from the same standings and draws on generated fights
//! and requires the same result, so the engines differ only in how they weigh chances.
//!
//! Architecture Invariant: numbers come from `plan` (profiles) and `rules` (injury,
//! dying, flat-footed); nothing here reads a map or a file.

mod build;
mod exact;
mod initiative;
mod simulate;
mod states;
mod straight;
#[cfg(test)]
mod tests;
mod turn;

use crate::attack::{AttackProfile, OutcomeEffect};
use crate::exact::SlotExact;
use crate::injury::Target;
use crate::plan::Plan;
use crate::rules::{DyingRule, SystemId};
use crate::scenario::{Initiative, Tactic};

pub use exact::{ExactFight, exact_fight};
pub use simulate::{FightTally, simulate_fight, simulate_fights_paired};
pub use turn::Status;

/// One fight's numbers: everything the engines need, nothing they must look up.
#[derive(Debug, Clone, PartialEq)]
pub struct Fight {
    /// The experiment's title.
    pub title: String,
    /// The rule system the numbers were folded with.
    pub system: SystemId,
    /// The most rounds played.
    pub rounds: u32,
    /// How turn order is set each trial.
    pub initiative: Initiative,
    /// Every combatant, in file order.
    pub fighters: Vec<Fighter>,
    /// Side names, in order of first appearance.
    pub sides: Vec<String>,
    /// Per side: its members, a bit per combatant (`ended` asks after every turn).
    side_members: Vec<u64>,
    /// Per combatant: the damage taken from which it is no longer up (`down_at`, or
    /// never); kept apart from [`Fighter`] so a check of everyone reads one short row.
    up_below: Vec<i64>,
    /// Per combatant: the damage taken at which it is disabled (exactly 0 hp, in a
    /// system where that disables; never: `i64::MIN`), beside `up_below` for the same
    /// reason.
    disabled_at: Vec<i64>,
    profiles: Vec<Profile>,
    dying: DyingRule,
    /// Attacks against a combatant that has not had a turn yet use its flat-footed profile.
    flat_footed_until_first_turn: bool,
    /// Every attack planned in each situation (the bits of [`SlotSource::situation`]): as
    /// written ([`PLAIN`], first), with every combatant flat-footed ([`FLAT_FOOTED`]),
    /// without the flanking the map gives ([`ALONE`]), without the penalty for shooting
    /// into melee ([`CLEAR`]), with the creature struck instead helpless ([`STRUCK_DOWN`]:
    /// a planning per such creature, each line taking the one with its own creature
    /// down), and each combination: where each profile's situation is described.
    plans: Vec<Plan>,
    /// The map's `improved` squares on none of the lines deciding an attack's cover
    /// ([`crate::plan::Planned::unused_improved_cover`]).
    unused_improved_cover: Option<String>,
}

/// [`Fight::plans`]' plan as written.
const PLAIN: usize = 0;
/// The bit of a situation ([`Fight::plans`]' index) where every combatant is flat-footed.
const FLAT_FOOTED: usize = 1;
/// The bit where no flanking partner is able to threaten.
const ALONE: usize = 2;
/// The bit where no ally engaged in melee with the target is conscious, so a ranged
/// attack has no penalty for shooting into melee (RULES.md §10).
const CLEAR: usize = 4;
/// The bit where the creature an attack may strike instead (d20 Modern's soft cover by
/// a creature, or the target's grappling partner) is helpless: its Defense is then
/// 5 + size with no Dex bonus to save it (RULES.md §10).
const STRUCK_DOWN: usize = 8;
/// How many situations there are: every combination of the bits.
const SITUATIONS: usize = 16;

/// Where a profile was planned: slot `slot` of `Fight::plans[plan]`, a planning of
/// situation `situation` (its bits).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct SlotSource {
    plan: usize,
    slot: usize,
    situation: usize,
}

/// Index of a profile in [`Fight::profiles`].
type ProfileId = usize;

/// One attack a fight can make (an attacker's iterative at a target, in one situation),
/// as the summary table lists it.
#[derive(Debug, Clone, Copy)]
pub struct FightAttack<'a> {
    /// Its id in [`FightTally::attack`] and [`ExactFight::made`].
    pub id: usize,
    /// The plan it was planned in, and its slot there: its line, modifiers and profile.
    pub plan: &'a Plan,
    /// The slot's index in `plan`.
    pub slot: usize,
    /// The combatant attacked (its index in [`Fight::fighters`]).
    pub target: usize,
    /// Made against a target that has not had its first turn (flat-footed).
    pub flat_footed: bool,
    /// Made without the flanking the map gives: every partner was down.
    pub partners_down: bool,
    /// Made without the penalty for shooting into melee: every ally engaged with the
    /// target was down.
    pub allies_down: bool,
    /// Made once the creature it may strike instead was helpless (its Defense 5 + size).
    pub struck_down: bool,
    /// Its exact per-attack figures, when its outcome table could be computed.
    pub exact: Option<SlotExact>,
}

impl Fight {
    /// Whether `other` has the same sides with the same members: a variant of a fight
    /// may not move a combatant to another side.
    pub fn has_sides_of(&self, other: &Fight) -> bool {
        self.sides == other.sides && self.side_members == other.side_members
    }

    /// What a fight's figures alone do not say: a note for each combatant without
    /// attacks, and for each with attacks and no orders whose tactic can make none of
    /// them at any enemy from where it stands (it stays in the fight and never attacks),
    /// and one when the map's
    /// `improved` squares give no attack their cover.
    pub fn notes(&self) -> Vec<String> {
        (self.fighters.iter())
            .filter_map(|f| match f.options.is_empty() {
                true => Some(format!(
                    "{} has no attack, so it never attacks: it stays in the fight until it is down",
                    f.label
                )),
                false => (f.orders.is_empty() && f.tables.reaches == 0).then(|| format!(
                    "{} can make no attack at any enemy from where it stands (melee out of reach, ranged without line of effect; a fight plays no area attack) and so never attacks: positions do not change in a fight",
                    f.label
                )),
            })
            .chain(self.unused_improved_cover.clone())
            .collect()
    }

    /// Every note a run prints about the fight whose orders are `plan`'s lines: the plan's
    /// (its lines' rules), then the fight's own ([`Fight::notes`]). `check` prints the same.
    pub fn run_notes(&self, plan: &Plan) -> Vec<String> {
        plan.notes().iter().cloned().chain(self.notes()).collect()
    }

    /// Whether `other` is this fight in every number and word, wherever its plan lines
    /// are written (a variant's file is written anew).
    pub fn is_same_fight_as(&self, other: &Fight) -> bool {
        let unplaced = |fight: &Fight| Fight {
            plans: fight.plans.iter().map(Plan::without_sources).collect(),
            ..fight.clone()
        };
        unplaced(self) == unplaced(other)
    }

    /// The fight without its words, plans and profiles, each combatant as `fighter` makes
    /// it: what two fights that may differ in their attacks are compared on beside them.
    fn skeleton(&self, fighter: impl Fn(&Fighter) -> Fighter) -> Fight {
        Fight {
            title: String::new(),
            plans: Vec::new(),
            unused_improved_cover: None,
            profiles: Vec::new(),
            fighters: self.fighters.iter().map(fighter).collect(),
            ..self.clone()
        }
    }

    /// Whether `other` plays exactly as this fight wherever their attacks' outcomes agree:
    /// the same combatants, rules, orders and attacks (profile by profile, the same
    /// target, struck creature and effect per outcome; only the outcomes' chances may
    /// differ), and tactics that choose alike (their keys in the same order). A variant
    /// that only changes bonuses then repeats the baseline's trial wherever each of its
    /// attacks keeps the baseline's outcome (see `simulate.rs`).
    pub(crate) fn same_but_chances(&self, other: &Fight) -> bool {
        let same_attack = |(mine, theirs): (&Profile, &Profile)| {
            mine.target == theirs.target
                && mine.struck == theirs.struck
                && mine.effects == theirs.effects
        };
        self.profiles.len() == other.profiles.len()
            && (self.profiles.iter().zip(&other.profiles)).all(same_attack)
            && self.skeleton(Fighter::keys_ranked) == other.skeleton(Fighter::keys_ranked)
    }

    /// The combatants whose turns may play otherwise in `other`, a bit each, when the two
    /// fights differ in nothing else: the same combatants to be hit (sides, initiative,
    /// hit points, dying), the same rules and rounds. A turn reads only its combatant's
    /// orders, options, tactic and the profiles they name, and everyone's standings, so
    /// before the first turn of one of these, `other` plays exactly as this fight from
    /// the same state (see `simulate.rs`). `None` when they differ elsewhere.
    pub(crate) fn turns_that_differ(&self, other: &Fight) -> Option<u64> {
        if self.skeleton(Fighter::without_turns) != other.skeleton(Fighter::without_turns) {
            return None;
        }
        // Beside equal skeletons, two combatants differ only in their turns' fields.
        let same_turns = |(mine, theirs): (&Fighter, &Fighter)| {
            mine == theirs
                && (mine.profiles_named()).all(|p| self.profiles.get(p) == other.profiles.get(p))
        };
        let pairs = self.fighters.iter().zip(&other.fighters);
        Some((pairs.enumerate()).fold(0, |differ, (who, pair)| {
            differ | u64::from(!same_turns(pair)) << who
        }))
    }

    /// Per combatant whose injury differs in `other` (hit points, Con, Stamina,
    /// Resolve), when the fights differ in nothing else and no tactic reads those hit
    /// points while the combatant is up: the damage taken below which it is up in both,
    /// with every threshold of either still ahead. `None` otherwise. A combatant's hit
    /// points are read only by its standing and, between targets whose keys tie, by a
    /// tactic's tie break ([`turn::lowest`]): so in a trial where each of them takes less
    /// than that, `other` plays exactly as this fight (see `simulate.rs`).
    pub(crate) fn alike_below(&self, other: &Fight) -> Option<Vec<(usize, i64)>> {
        let without_injury = |fight: &Fight| Fight {
            up_below: Vec::new(),
            disabled_at: Vec::new(),
            ..fight.skeleton(Fighter::without_injury)
        };
        if self.profiles != other.profiles || without_injury(self) != without_injury(other) {
            return None;
        }
        let n = self.fighters.len();
        let pairs = self.fighters.iter().zip(&other.fighters).enumerate();
        let changed = pairs.filter(|(_, (mine, theirs))| mine != theirs);
        changed
            .map(|(who, (mine, theirs))| {
                let reads = |f: &Fighter| f.tables.reads_hit_points(n, f.tactic, who);
                let read = self.fighters.iter().any(reads);
                let below = [&mine.injury, &theirs.injury]
                    .iter()
                    .flat_map(|t| [t.down_at, t.dead_at, t.dropped_to])
                    .flatten()
                    .min()
                    .unwrap_or(i64::MAX);
                (!read).then_some((who, below))
            })
            .collect()
    }

    /// Whether a trial can open with the turn of a combatant outside `turns` (a bit each):
    /// in a listed order, the first combatant in the file; in a rolled one, anyone. A
    /// variant whose changed turns are all of these would resume every trial at its
    /// first turn, paying for the copies of the state and skipping nothing.
    pub(crate) fn can_open_with_another(&self, turns: u64) -> bool {
        match self.initiative {
            Initiative::Listed => turns & 1 == 0,
            Initiative::Rolled => (0..self.fighters.len()).any(|who| turns >> who & 1 == 0),
        }
    }

    /// Every attack the fight can make, by plan line (orders first, then the routines a
    /// tactic may choose), as written before flat-footed, by iterative.
    pub fn attacks(&self) -> Vec<FightAttack<'_>> {
        let mut attacks: Vec<FightAttack> = (self.profiles.iter().enumerate())
            .map(|(id, p)| FightAttack {
                id,
                plan: &self.plans[p.source.plan],
                slot: p.source.slot,
                target: p.target,
                flat_footed: p.source.situation & FLAT_FOOTED != 0,
                partners_down: p.source.situation & ALONE != 0,
                allies_down: p.source.situation & CLEAR != 0,
                struck_down: p.source.situation & STRUCK_DOWN != 0,
                exact: p.exact,
            })
            .collect();
        attacks.sort_by_key(|a| {
            let slot = &a.plan.slots()[a.slot];
            (
                slot.line.index(),
                a.partners_down,
                a.allies_down,
                a.struck_down,
                a.flat_footed,
                slot.index,
            )
        });
        attacks
    }
}

/// One attack of a routine against one target: its profile in each situation (by
/// [`turn::situation`]): while the target has not acted yet (flat-footed) and after,
/// each also without the flanking the map gives, without the penalty for shooting
/// into melee, and with the creature it may strike instead helpless.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct AttackAt {
    profiles: [ProfileId; SITUATIONS],
    /// The combatants (bit `i` for fighter `i`) whose threat gives the attack the map's
    /// flanking: it is flanking while one of them threatens; 0 when it does not depend on
    /// anyone (no flanking, or the plan line sets `flanking` itself).
    partners: u64,
    /// The attacker's allies engaged in melee with the target (a bit each), which give a
    /// ranged attack its penalty for shooting into melee while one of them is conscious;
    /// 0 when it has no such penalty.
    allies: u64,
    /// The creature it may strike instead (its bit), whose Defense decides that while it
    /// is conscious (up or disabled), its helpless Defense after; 0 when none can be
    /// struck.
    struck: u64,
}

/// A combatant of a fight.
#[derive(Debug, Clone, PartialEq)]
pub struct Fighter {
    /// `Name (T)`.
    pub label: String,
    /// Index into [`Fight::sides`].
    pub side: usize,
    /// Initiative modifier.
    pub init: i32,
    /// How it picks targets.
    pub tactic: Tactic,
    /// When it is down and dead, in damage taken.
    pub injury: Target,
    /// Con modifier (Pathfinder's dying check).
    con_modifier: i64,
    /// Starfinder: maximum Resolve Points.
    resolve: i32,
    /// Its `[[plan]]` lines, in file order.
    orders: Vec<Order>,
    /// Per attack of its own, per combatant: the attack's iteratives at that combatant,
    /// or `None` where it cannot make it (an ally, out of reach, total cover, an area).
    options: Vec<Vec<Option<Vec<AttackAt>>>>,
    /// Distance to each combatant in feet (0 without a map), for `nearest`.
    distance: Vec<i64>,
    /// Its options folded into lookups once per fight (see [`Tables`]).
    tables: Tables,
}

impl Fighter {
    /// The combatant with its tactics' keys replaced by their ranks: two combatants whose
    /// keys rank alike choose alike, since a tactic only compares keys.
    fn keys_ranked(&self) -> Fighter {
        let ranks = |keys: &[u64]| {
            let mut sorted = keys.to_vec();
            sorted.sort_unstable();
            sorted.dedup();
            (keys.iter())
                .map(|key| sorted.partition_point(|k| k < key) as u64)
                .collect()
        };
        Fighter {
            tables: Tables {
                expected_key: ranks(&self.tables.expected_key),
                best_key: ranks(&self.tables.best_key),
                ..self.tables.clone()
            },
            ..self.clone()
        }
    }

    /// The combatant as others' turns see it: without its own turns' orders, options,
    /// tactic, distances and tables.
    fn without_turns(&self) -> Fighter {
        let Fighter {
            label,
            side,
            init,
            tactic: _,
            injury,
            con_modifier,
            resolve,
            orders: _,
            options: _,
            distance: _,
            tables: _,
        } = self;
        Fighter {
            label: label.clone(),
            side: *side,
            init: *init,
            tactic: Tactic::Hold,
            injury: injury.clone(),
            con_modifier: *con_modifier,
            resolve: *resolve,
            orders: Vec::new(),
            options: Vec::new(),
            distance: Vec::new(),
            tables: Tables::default(),
        }
    }

    /// The combatant as it plays while up: without what decides when it is down and
    /// dead, and how it fares while dying.
    fn without_injury(&self) -> Fighter {
        Fighter {
            injury: Target::new(self.injury.label.clone(), None, None),
            con_modifier: 0,
            resolve: 0,
            ..self.clone()
        }
    }

    /// Every profile its orders and options name.
    fn profiles_named(&self) -> impl Iterator<Item = ProfileId> + '_ {
        let ordered = self.orders.iter().flat_map(|o| &o.iteratives);
        let options = self.options.iter().flatten().flatten().flatten();
        ordered.chain(options).flat_map(|at| at.profiles)
    }
}

/// A combatant's options folded into lookups once per fight: the engines play millions
/// of turns on the same numbers, so a turn never sums a routine or scans the options.
#[derive(Debug, Clone, Default, PartialEq)]
struct Tables {
    /// Per attack: its longest routine at any target (the length of a chosen routine).
    routine: Vec<usize>,
    /// Per attack × iterative (`stride` per attack): the enemies that attack has that
    /// iterative at, a bit per combatant.
    in_reach: Vec<u64>,
    /// The enemies any attack reaches, a bit per combatant.
    reaches: u64,
    /// The longest routine of any attack, + 1: the stride of `in_reach` per attack and of
    /// `expected_key` per target.
    stride: usize,
    /// Per attack × combatant × iterative × flat-footed: the `best` tactic's key for the
    /// routine from that iterative on, the [`turn::ordered_bits`] of minus its mean damage
    /// (with the map's flanking, summed in routine order): the lowest key is the most
    /// damage.
    expected_key: Vec<u64>,
    /// Per combatant × flat-footed: the `best` tactic's key for the most mean damage of
    /// any attack's whole routine, as `expected_key`.
    best_key: Vec<u64>,
    /// Per combatant × flat-footed: the attack of a routine a tactic chooses there, the
    /// one with the most mean damage (ties: the first); `None` where none can be made.
    routine_attack: Vec<Option<usize>>,
}

/// A scripted plan line: the attack, its target, and its iteratives at that target
/// (with the line's own overrides).
#[derive(Debug, Clone, PartialEq)]
struct Order {
    attack: usize,
    target: usize,
    iteratives: Vec<AttackAt>,
}

/// One attack's numbers as the engines need them.
#[derive(Debug, Clone, PartialEq)]
struct Profile {
    /// The slot it was planned as (the first, when several describe the same attack).
    source: SlotSource,
    /// Its exact per-attack figures, when its outcome table could be computed.
    exact: Option<SlotExact>,
    attack: AttackProfile,
    /// Each outcome index's effect.
    effects: Vec<OutcomeEffect>,
    /// Each outcome index's probability, when the exact table could be computed.
    probs: Option<Vec<f64>>,
    /// The distinct effects with their probabilities (outcomes that do the same merged),
    /// for the exact engine's branches; empty without a table.
    branches: Vec<(OutcomeEffect, f64)>,
    /// Mean damage to the target, for `best`.
    expected: f64,
    /// The combatant attacked.
    target: usize,
    /// The combatant struck instead on a "struck" outcome.
    struck: Option<usize>,
}
