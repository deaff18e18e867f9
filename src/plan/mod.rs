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

use crate::attack::AttackProfile;
use crate::error::InputError;
pub use crate::injury::Target;
use crate::injury::Vitals;
use crate::rules::SystemId;
use crate::scenario::Scenario;

pub use judged::{IntoMelee, LineSituation, MapSituation, Named, Overridden, Planned};
pub use modifiers::{Modifiers, SaveRoll, StruckInstead};
pub use parts::{Covering, Grappler, LineAttack, LineDefence, Situation};

/// A fully resolved experiment.
#[derive(Debug, Clone)]
pub struct Plan {
    pub title: String,
    pub system: SystemId,
    pub rounds: u32,
    pub targets: Vec<Target>,
    pub lines: Vec<Line>,
    /// Every attack of a round, in the order they are made.
    pub slots: Vec<Slot>,
    /// What planning changed from the file as written (a crit spec the system does not
    /// use), for the summary, the report and the JSON.
    pub notes: Vec<String>,
}

/// One plan line.
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    pub attacker: String,
    pub target: usize,
    pub attack: String,
    pub modifiers: Modifiers,
    /// Why a roll may strike another creature than the target (d20 Modern).
    pub struck_instead: Option<StruckInstead>,
}

/// One attack of a line's routine (an iterative of a full attack, or the single attack).
#[derive(Debug, Clone, PartialEq)]
pub struct Slot {
    pub line: usize,
    /// 0-based position in the routine.
    pub index: usize,
    /// The attack's own bonus before situational modifiers.
    pub base_bonus: i32,
    pub target: usize,
    pub profile: AttackProfile,
    /// The target index of the creature this attack may strike instead of its target:
    /// the one giving soft cover, or the one the target is grappling with (d20 Modern).
    pub covering: Option<usize>,
    /// Rounds each attack takes (2 for a PF1 coup de grace against a target with total
    /// concealment): it is made only at the end of every `period`-th round.
    pub period: u32,
    /// The target index of the attacker, when it is attacked too: once it is down it
    /// makes no more attacks (RULES.md §9).
    pub attacker: Option<usize>,
}

impl Plan {
    /// Resolves every plan line of a scenario.
    pub fn from_scenario(scenario: &Scenario) -> Result<Plan, InputError> {
        Planned::from_scenario(scenario).all_made().map(|p| p.plan)
    }

    /// An empty plan to which lines are added one by one (the `attack` command).
    pub fn empty(title: &str, system: SystemId, rounds: u32) -> Plan {
        Plan {
            title: title.to_string(),
            system,
            rounds,
            targets: Vec::new(),
            lines: Vec::new(),
            slots: Vec::new(),
            notes: Vec::new(),
        }
    }

    /// Marks the attacker of plan line `line` as plan target `target`, so that its attacks
    /// stop once it is down.
    pub fn attacker_is_target(&mut self, line: usize, target: usize) {
        for slot in self.slots.iter_mut().filter(|s| s.line == line) {
            slot.attacker = Some(target);
        }
    }

    /// Slots that attack one target, in order.
    pub fn slots_against(&self, target: usize) -> impl Iterator<Item = (usize, &Slot)> {
        self.slots
            .iter()
            .enumerate()
            .filter(move |(_, s)| s.target == target)
    }
}

impl Planned {
    /// Resolves the plan lines that can be made and says why the others cannot (out of
    /// reach, total cover…): a heatmap square where a line is impossible still has
    /// figures for the rest. Every plan line's map verdicts are judged here, once.
    pub fn from_scenario(scenario: &Scenario) -> Planned {
        let rules = scenario.system.rules();
        let mut targets: Vec<(usize, Target)> = Vec::new();
        let mut plan = Plan::empty(&scenario.title, scenario.system, scenario.rounds);
        let mut lines = Vec::with_capacity(scenario.plan.len());
        // Every line's target first, in order of first appearance (the heatmap relies on
        // it); creatures that only give cover come after.
        for line in &scenario.plan {
            target_index(&mut targets, scenario, line.target);
        }
        for line in &scenario.plan {
            let target = target_index(&mut targets, scenario, line.target);
            let mut target_of = |c| target_index(&mut targets, scenario, c);
            let map = (scenario.battlefield.as_ref())
                .map(|field| MapSituation::judge(scenario, field, rules, line));
            let made = file_line::line_parts(scenario, line, map.as_ref(), target, &mut target_of)
                .and_then(|(a, d, s)| {
                    plan.add_line(rules, a, d, s)
                        .map_err(|m| scenario.source.error(line.span.clone(), m))
                })
                .map(|()| plan.lines.len() - 1);
            lines.push(LineSituation::new(scenario, line, map, made));
        }
        for (line, situation) in scenario.plan.iter().zip(&lines) {
            let attacker = targets.iter().position(|(c, _)| *c == line.attacker);
            if let (Ok(made), Some(attacker)) = (&situation.made, attacker) {
                plan.attacker_is_target(*made, attacker);
            }
        }
        plan.targets = targets.into_iter().map(|(_, t)| t).collect();
        Planned { plan, lines }
    }
}

/// The plan target index of a combatant, adding it as a target when it is not one yet.
fn target_index(
    targets: &mut Vec<(usize, Target)>,
    scenario: &Scenario,
    combatant: usize,
) -> usize {
    targets
        .iter()
        .position(|(c, _)| *c == combatant)
        .unwrap_or_else(|| {
            let c = &scenario.combatants[combatant];
            let vitals = Vitals {
                hp: c.hp,
                con: c.con,
                stamina: c.stamina,
                resolve: c.resolve,
            };
            let label = format!("{} ({})", c.name, c.token);
            let rules = scenario.system.rules();
            targets.push((combatant, Target::for_system(rules, label, vitals)));
            targets.len() - 1
        })
}
