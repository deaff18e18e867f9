//! Scenario + rule numbers → [`Plan`]: numbers only, what both engines consume.
//!
//! Everything situational (cover, concealment, flanking, GM modifiers) is folded into each
//! attack's effective bonus, AC and miss chance here, once; the engines never look at a
//! rule table or a map.

mod file_line;
mod fold;
mod judged;
mod modifiers;
mod parts;
#[cfg(test)]
mod tests;

use std::ops::Range;

use crate::attack::AttackProfile;
use crate::error::InputError;
pub use crate::injury::Target;
use crate::injury::Vitals;
use crate::rules::SystemId;
use crate::scenario::{CombatantId, Scenario};

pub use judged::{IntoMelee, LineSituation, MapSituation, Planned};
pub use modifiers::{Modifiers, SaveRoll, SetByPlan, StruckInstead};
pub use parts::{Covering, Grappler, LineAttack, LineDefence, Situation};

/// A fully resolved experiment. Only a [`PlanBuilder`] makes one, so every slot's line,
/// target and covering creature exist and the slots are in the order they are made.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    title: String,
    system: SystemId,
    rounds: u32,
    targets: Vec<Target>,
    lines: Vec<Line>,
    slots: Vec<Slot>,
    notes: Vec<String>,
}

/// A target of a plan: its place among the plan's targets, given out by the
/// [`PlanBuilder`] that added it, so it is never mistaken for a line or a combatant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TargetId(usize);

impl TargetId {
    /// Its place among the plan's targets, for tables kept beside them.
    pub fn index(self) -> usize {
        self.0
    }
}

/// A line of a plan: its place among the plan's lines, given out by the [`PlanBuilder`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LineId(usize);

impl LineId {
    /// Its place among the plan's lines, in the order they were added.
    pub fn index(self) -> usize {
        self.0
    }
}

/// One plan line.
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    pub attacker: String,
    pub target: TargetId,
    pub attack: String,
    /// What tables call the armor class the attack rolls against (see [`LineDefence`]).
    pub armor: &'static str,
    pub modifiers: Modifiers,
    /// Why a roll may strike another creature than the target (d20 Modern).
    pub struck_instead: Option<StruckInstead>,
    /// The bytes of the `[[plan]]` table it came from; `None` for a line made from flags.
    pub source: Option<Range<usize>>,
}

/// One attack of a line's routine (an iterative of a full attack, or the single attack).
#[derive(Debug, Clone, PartialEq)]
pub struct Slot {
    pub line: LineId,
    /// 0-based position in the routine.
    pub index: usize,
    /// The attack's own bonus before situational modifiers.
    pub base_bonus: i32,
    pub target: TargetId,
    pub profile: AttackProfile,
    /// The creature this attack may strike instead of its target: the one giving soft
    /// cover, or the one the target is grappling with (d20 Modern).
    pub covering: Option<TargetId>,
    /// Rounds each attack takes (2 for a PF1 coup de grace against a target with total
    /// concealment): it is made only at the end of every `period`-th round.
    pub period: u32,
    /// The target id of the attacker, when it is attacked too: once it is down it makes
    /// no more attacks (RULES.md §9).
    pub attacker: Option<TargetId>,
}

impl Plan {
    /// Resolves every plan line of a scenario.
    pub fn from_scenario(scenario: &Scenario) -> Result<Plan, InputError> {
        Planned::from_scenario(scenario).all_made().map(|p| p.plan)
    }

    /// The experiment's title.
    pub fn title(&self) -> &str {
        &self.title
    }

    /// The rule system the numbers were folded with.
    pub fn system(&self) -> SystemId {
        self.system
    }

    /// Whether `other` is this plan in every number and word, wherever its lines are
    /// written (a variant's file is written anew).
    pub fn is_same_plan_as(&self, other: &Plan) -> bool {
        self.without_sources() == other.without_sources()
    }

    /// This plan with its lines' sources forgotten.
    pub(crate) fn without_sources(&self) -> Plan {
        let mut plan = self.clone();
        for line in &mut plan.lines {
            line.source = None;
        }
        plan
    }

    /// Rounds each trial lasts.
    pub fn rounds(&self) -> u32 {
        self.rounds
    }

    /// The creatures attacked (or struck instead), in the order their ids were given.
    pub fn targets(&self) -> &[Target] {
        &self.targets
    }

    /// One target.
    pub fn target(&self, id: TargetId) -> &Target {
        &self.targets[id.0]
    }

    /// Every target's id, in order.
    pub fn target_ids(&self) -> impl Iterator<Item = TargetId> + use<> {
        (0..self.targets.len()).map(TargetId)
    }

    /// The plan's lines, in the order they were added.
    pub fn lines(&self) -> &[Line] {
        &self.lines
    }

    /// One line.
    pub fn line(&self, id: LineId) -> &Line {
        &self.lines[id.0]
    }

    /// Every attack of a round, in the order they are made.
    pub fn slots(&self) -> &[Slot] {
        &self.slots
    }

    /// What planning changed from the file as written (a crit spec the system does not
    /// use), for the summary, the report and the JSON.
    pub fn notes(&self) -> &[String] {
        &self.notes
    }

    /// Slots that attack one target, in order.
    pub fn slots_against(&self, target: TargetId) -> impl Iterator<Item = (usize, &Slot)> {
        self.slots
            .iter()
            .enumerate()
            .filter(move |(_, s)| s.target == target)
    }
}

#[cfg(test)]
impl Plan {
    /// A plan of one line, `attack` made against `target` at AC `ac` with nothing
    /// situational, for the engines' unit tests.
    pub(crate) fn single(
        system: SystemId,
        rounds: u32,
        target: Target,
        attack: LineAttack,
        ac: i32,
        immune_to_crits: bool,
    ) -> Plan {
        let mut plan = PlanBuilder::new("t", system, rounds);
        let target = plan.add_target(target);
        let defence = LineDefence::plain(target, ac, immune_to_crits);
        (plan.add_line(system.rules(), attack, defence, Situation::default(), None))
            .expect("a plain line is made");
        plan.build()
    }
}

/// Builds a [`Plan`] target by target and line by line: the only way to make one, so ids
/// always refer to what this builder added.
#[derive(Debug, Clone)]
pub struct PlanBuilder {
    plan: Plan,
}

impl PlanBuilder {
    /// A plan with no targets or lines yet.
    pub fn new(title: &str, system: SystemId, rounds: u32) -> PlanBuilder {
        PlanBuilder {
            plan: Plan {
                title: title.to_string(),
                system,
                rounds,
                targets: Vec::new(),
                lines: Vec::new(),
                slots: Vec::new(),
                notes: Vec::new(),
            },
        }
    }

    /// Adds a creature lines may attack or strike instead.
    pub fn add_target(&mut self, target: Target) -> TargetId {
        self.plan.targets.push(target);
        TargetId(self.plan.targets.len() - 1)
    }

    /// Marks the attacker of line `line` as target `target`, so that its attacks stop
    /// once it is down.
    pub fn attacker_is_target(&mut self, line: LineId, target: TargetId) {
        self.check_target(target);
        for slot in self.plan.slots.iter_mut().filter(|s| s.line == line) {
            slot.attacker = Some(target);
        }
    }

    /// The plan, once every line is added.
    pub fn build(self) -> Plan {
        self.plan
    }

    /// Refuses an id this builder did not give out.
    fn check_target(&self, id: TargetId) {
        assert!(
            id.0 < self.plan.targets.len(),
            "target {} was not added to this plan",
            id.0
        );
    }
}

impl Planned {
    /// Resolves the plan lines that can be made and says why the others cannot (out of
    /// reach, total cover…): a heatmap square where a line is impossible still has
    /// figures for the rest. Every plan line's map verdicts are judged here, once.
    pub fn from_scenario(scenario: &Scenario) -> Planned {
        let rules = scenario.system.rules();
        let mut targets = Targets {
            scenario,
            builder: PlanBuilder::new(&scenario.title, scenario.system, scenario.rounds),
            combatants: Vec::new(),
        };
        let mut lines = Vec::with_capacity(scenario.plan.len());
        // Every line's target first, in order of first appearance (the heatmap relies on
        // it); creatures that only give cover come after.
        for line in &scenario.plan {
            targets.of(line.target);
        }
        for line in &scenario.plan {
            let target = targets.of(line.target);
            let map = (scenario.battlefield.as_ref())
                .map(|field| MapSituation::judge(scenario, field, rules, line));
            let parts =
                file_line::line_parts(scenario, line, map.as_ref(), target, &mut |c| targets.of(c));
            let made = parts.and_then(|(a, d, s)| {
                (targets.builder)
                    .add_line(rules, a, d, s, Some(line.span.clone()))
                    .map_err(|m| scenario.source.error(line.span.clone(), m))
            });
            lines.push(LineSituation::new(scenario, line, map, made));
        }
        for (line, situation) in scenario.plan.iter().zip(&lines) {
            if let (Ok(made), Some(attacker)) = (&situation.made, targets.existing(line.attacker)) {
                targets.builder.attacker_is_target(*made, attacker);
            }
        }
        let mut planned = Planned {
            plan: targets.builder.build(),
            lines,
            combatants: targets.combatants,
        };
        // A fight's plans judge every pair of enemies: the fight says it for itself.
        if scenario.encounter.is_none()
            && let Some(field) = &scenario.battlefield
            && let Some(note) = planned.unused_improved_cover(field, true)
        {
            planned.plan.notes.push(note);
        }
        planned
    }
}

/// The plan's targets while planning: each combatant becomes a target once.
struct Targets<'a> {
    scenario: &'a Scenario,
    builder: PlanBuilder,
    /// The combatant behind each target, in the order of their ids.
    combatants: Vec<CombatantId>,
}

impl Targets<'_> {
    /// The target id of a combatant that is a target.
    fn existing(&self, combatant: CombatantId) -> Option<TargetId> {
        (self.combatants.iter().position(|&c| c == combatant)).map(TargetId)
    }

    /// The target id of a combatant, adding it as a target when it is not one yet.
    fn of(&mut self, combatant: CombatantId) -> TargetId {
        if let Some(t) = self.existing(combatant) {
            return t;
        }
        let c = self.scenario.combatant(combatant);
        let vitals = Vitals {
            hp: c.hp,
            con: c.con,
            stamina: c.stamina,
            resolve: c.resolve,
        };
        let label = c.label();
        let rules = self.scenario.system.rules();
        self.combatants.push(combatant);
        (self.builder).add_target(Target::for_system(rules, label, vitals))
    }
}
