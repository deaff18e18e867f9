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
use crate::scenario::{CombatantId, PlanLine, Scenario};

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
    /// The attacks of a round, in the order they are made: each the slot its situation
    /// picks.
    places: Vec<Place>,
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
    /// What the attack assumes of the creatures its numbers depend on: nothing for the
    /// attack as the map stands, else one made instead of it (see [`Place`]).
    pub assumes: Assumes,
    /// The modifiers it was folded with, where they are not its line's (an attack made
    /// in another situation).
    pub modifiers: Option<Box<Modifiers>>,
}

impl Slot {
    /// The modifiers its numbers were folded with.
    pub fn modifiers<'p>(&'p self, plan: &'p Plan) -> &'p Modifiers {
        (self.modifiers.as_deref()).unwrap_or(&plan.line(self.line).modifiers)
    }
}

/// What a slot made instead of another assumes has happened since the map was drawn
/// (a bit each): its target is down and so helpless, every flanking partner is down
/// (no flanking), every ally engaged with the target is down (no penalty for shooting
/// into melee), the creature the attack may strike instead (d20 Modern: the one giving
/// soft cover, or the target's grappling partner) is down and so helpless, its Defense
/// 5 + size. RULES.md §5, §10; SPEC §5.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Assumes(u8);

impl Assumes {
    /// Nothing: the attack as the map stands.
    pub const NOTHING: Assumes = Assumes(0);
    pub const TARGET_DOWN: Assumes = Assumes(1);
    pub const PARTNERS_DOWN: Assumes = Assumes(2);
    pub const ALLIES_DOWN: Assumes = Assumes(4);
    pub const STRUCK_DOWN: Assumes = Assumes(8);
    /// How many combinations there are.
    pub const COMBINATIONS: usize = 16;

    /// The number of the combination made of these four facts: the target down (and
    /// alive), every flanking partner down, every engaged ally down, the creature struck
    /// instead down or dead. Each engine tells which hold its way; a [`Watch`] tells
    /// which can.
    #[inline(always)]
    pub fn bits_of(
        target_down: bool,
        partners_down: bool,
        allies_down: bool,
        struck_down: bool,
    ) -> usize {
        usize::from(target_down)
            | usize::from(partners_down) << 1
            | usize::from(allies_down) << 2
            | usize::from(struck_down) << 3
    }

    /// The combination numbered `bits`.
    pub fn from_bits(bits: usize) -> Assumes {
        Assumes(bits as u8 & 15)
    }

    /// Its number among the combinations.
    pub fn bits(self) -> usize {
        usize::from(self.0)
    }

    pub fn is_nothing(self) -> bool {
        self.0 == 0
    }

    pub fn contains(self, other: Assumes) -> bool {
        self.0 & other.0 == other.0
    }

    /// What a report adds to the attack's name: ` (target down, flanking partners down)`.
    pub fn label(self) -> String {
        let parts: Vec<&str> = [
            (Assumes::TARGET_DOWN, "target down, helpless"),
            (Assumes::PARTNERS_DOWN, "flanking partners down"),
            (Assumes::ALLIES_DOWN, "allies in melee down"),
            (
                Assumes::STRUCK_DOWN,
                "creature struck instead down, helpless",
            ),
        ]
        .into_iter()
        .filter(|&(bit, _)| self.contains(bit))
        .map(|(_, text)| text)
        .collect();
        match parts.is_empty() {
            true => String::new(),
            false => format!(" ({})", parts.join("; ")),
        }
    }
}

/// One attack of a round (an iterative of a line), and the slot made for it in each
/// situation: the engines check, as it comes, whether its target is down and helpless,
/// whether every flanking partner it watches is down, whether every ally engaged
/// with the target is and whether the creature it may strike instead is, and make the
/// slot `slots[that combination]`.
#[derive(Debug, Clone, PartialEq)]
pub struct Place {
    /// Per combination of [`Assumes`] (by its bits): the slot made.
    pub slots: [usize; Assumes::COMBINATIONS],
    /// Whether a target that is down changes the attack (`slots` differ on it).
    pub target_down: bool,
    /// The flanking partners the map's flanking comes from, when every one of them is
    /// a target that can go down and flanking changes the attack; else empty.
    pub partners: Vec<TargetId>,
    /// The allies engaged with the target, when every one is a target that can go
    /// down and the penalty changes the attack; else empty.
    pub allies: Vec<TargetId>,
    /// Whether the creature struck instead (its slots' `covering`) being down changes
    /// the attack: its helpless Defense lets more rolls strike it.
    pub struck_down: bool,
}

/// Whose state decides a line's situation: its target (when it can lie down alive and
/// so helpless), its flanking partners and the allies engaged with its target (when
/// every one of them is a target that can go down), the creature it may strike instead
/// (when it can go down).
#[derive(Debug, Clone, Default)]
pub(crate) struct Watch {
    pub target_down: bool,
    pub partners: Vec<TargetId>,
    pub allies: Vec<TargetId>,
    pub struck_down: bool,
}

impl Watch {
    /// The combinations of [`Assumes`] that can happen, nothing first.
    pub(crate) fn situations(&self) -> impl Iterator<Item = Assumes> + use<> {
        let can = Assumes::from_bits(Assumes::bits_of(
            self.target_down,
            !self.partners.is_empty(),
            !self.allies.is_empty(),
            self.struck_down,
        ));
        (0..Assumes::COMBINATIONS)
            .map(Assumes::from_bits)
            .filter(move |a| can.contains(*a))
    }
}

impl Place {
    /// A place made the same way in every situation.
    pub(super) fn plain(slot: usize) -> Place {
        Place {
            slots: [slot; Assumes::COMBINATIONS],
            target_down: false,
            partners: Vec::new(),
            allies: Vec::new(),
            struck_down: false,
        }
    }

    /// Whether its situation changes which slot is made.
    pub fn varies(&self) -> bool {
        self.slots.iter().any(|&s| s != self.slots[0])
    }

    /// Whether `fallen` (one bit of [`Assumes`]) changes which slot is made, in some
    /// situation of the others.
    fn differs_on(&self, fallen: Assumes) -> bool {
        (0..Assumes::COMBINATIONS).any(|bits| {
            let without = bits & !fallen.bits();
            self.slots[bits] != self.slots[without]
        })
    }

    /// The slot made as the map stands.
    pub fn first(&self) -> usize {
        self.slots[0]
    }

    /// The slots it may make, each once, in the order of the situations first making them.
    pub fn distinct_slots(&self) -> impl Iterator<Item = usize> + '_ {
        (self.slots.iter().enumerate())
            .filter(|&(at, s)| !self.slots[..at].contains(s))
            .map(|(_, &s)| s)
    }
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

    /// Every attack of a round (its slots for each situation, see [`Plan::places`]),
    /// in the order of their lines.
    pub fn slots(&self) -> &[Slot] {
        &self.slots
    }

    /// Every attack of a round, in the order they are made, with the slot each
    /// situation makes.
    pub fn places(&self) -> &[Place] {
        &self.places
    }

    /// What planning changed from the file as written (a crit spec the system does not
    /// use), for the summary, the report and the JSON.
    pub fn notes(&self) -> &[String] {
        &self.notes
    }

    /// Places that attack one target, in order.
    pub fn places_against(&self, target: TargetId) -> impl Iterator<Item = &Place> {
        (self.places.iter()).filter(move |p| self.slots[p.first()].target == target)
    }

    /// Slots made as the map stands that attack one target, in order.
    pub fn slots_against(&self, target: TargetId) -> impl Iterator<Item = (usize, &Slot)> {
        self.slots
            .iter()
            .enumerate()
            .filter(move |(_, s)| s.target == target && s.assumes.is_nothing())
    }

    /// Per target, the first place (in the order attacks are made) that can damage it, as
    /// its target or struck instead.
    pub(crate) fn first_hits(&self) -> FirstHits {
        let mut first = vec![None; self.targets.len()];
        for (p, place) in self.places.iter().enumerate() {
            let slot = &self.slots[place.first()];
            for x in std::iter::once(slot.target).chain(slot.covering) {
                first[x.index()].get_or_insert(p);
            }
        }
        FirstHits {
            first,
            many_rounds: self.rounds > 1,
        }
    }
}

/// Per target, the first place that can damage it ([`Plan::first_hits`]): whether it can
/// already be hurt when a place's attack comes.
pub(crate) struct FirstHits {
    first: Vec<Option<usize>>,
    many_rounds: bool,
}

impl FirstHits {
    /// Whether the target of index `target` can be hurt before the attack at place
    /// `place` (in an earlier round, or by an earlier place of the round).
    pub(crate) fn before(&self, target: usize, place: usize) -> bool {
        self.first[target].is_some_and(|first| self.many_rounds || first < place)
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
                places: Vec::new(),
                notes: Vec::new(),
            },
        }
    }

    /// A builder with the same targets and no lines, to fold a line in another
    /// situation and take its attacks ([`PlanBuilder::add_situation`]).
    pub(crate) fn sketch(&self) -> PlanBuilder {
        let mut sketch = PlanBuilder::new(&self.plan.title, self.plan.system, self.plan.rounds);
        sketch.plan.targets = self.plan.targets.clone();
        sketch
    }

    /// Adds the attacks of line `line` made instead of its own when `assumes` holds:
    /// `sketch`'s only line, folded in that situation. An attack the same as one its
    /// place already makes is not added again. Call in increasing order of
    /// [`Assumes::bits`], so that each situation ends with its own slot.
    /// `watch` says whose state decides the situation. False when the sketch's attacks
    /// cannot stand in for the line's (another routine, creature struck or period).
    pub(crate) fn add_situation(
        &mut self,
        line: LineId,
        assumes: Assumes,
        sketch: &PlanBuilder,
        watch: &Watch,
    ) -> bool {
        let mine: Vec<usize> = (0..self.plan.slots.len())
            .filter(|&s| self.plan.slots[s].line == line && self.plan.slots[s].assumes.is_nothing())
            .collect();
        let theirs = &sketch.plan.slots;
        let fits = theirs.len() == mine.len()
            && mine.iter().zip(theirs).all(|(&s, t)| {
                let m = &self.plan.slots[s];
                (m.index, m.covering, m.period) == (t.index, t.covering, t.period)
            });
        if !fits {
            return false;
        }
        for (&first, theirs) in mine.iter().zip(theirs) {
            let place = (self.plan.places.iter())
                .position(|p| p.first() == first)
                .expect("every slot made as the map stands has its place");
            let same = (self.plan.places[place].slots.iter().copied())
                .find(|&s| self.plan.slots[s].profile == theirs.profile);
            let slot = match same {
                Some(slot) => slot,
                None => {
                    let mut slot = self.plan.slots[first].clone();
                    slot.profile = theirs.profile.clone();
                    slot.assumes = assumes;
                    slot.modifiers = Some(Box::new(sketch.plan.lines[0].modifiers.clone()));
                    self.plan.slots.push(slot);
                    self.plan.slots.len() - 1
                }
            };
            let p = &mut self.plan.places[place];
            for (bits, s) in p.slots.iter_mut().enumerate() {
                if Assumes::from_bits(bits).contains(assumes) {
                    *s = slot;
                }
            }
            // Only a fall that changes the attack is watched: another creature whose
            // state the engines follow costs the exact engine a larger joint state.
            p.target_down = watch.target_down && p.differs_on(Assumes::TARGET_DOWN);
            p.partners = match p.differs_on(Assumes::PARTNERS_DOWN) {
                true => watch.partners.clone(),
                false => Vec::new(),
            };
            p.allies = match p.differs_on(Assumes::ALLIES_DOWN) {
                true => watch.allies.clone(),
                false => Vec::new(),
            };
            p.struck_down = watch.struck_down && p.differs_on(Assumes::STRUCK_DOWN);
        }
        true
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
        // A plan's lines go on at a target that is down, and lose flanking and the
        // penalty for shooting into melee once the creatures that gave them are down (a
        // fight chooses its targets and keeps its partners for itself). Their attacks in
        // those situations come after every line's own, which keep their places.
        if scenario.encounter.is_none() {
            for (line, situation) in scenario.plan.iter().zip(&lines) {
                if let Ok(made) = &situation.made {
                    targets.add_situations(line, *made, situation.map.as_ref());
                }
            }
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
    /// Line `made` (the scenario's `line`, judged on the map as `map`) in every situation
    /// its watch can see (see [`Place`]): each planned on the scenario with those
    /// creatures down. A situation in which the line cannot be made as a stand-in for
    /// its attacks keeps them.
    fn add_situations(&mut self, line: &PlanLine, made: LineId, map: Option<&MapSituation>) {
        let (watch, down) = self.watch(line, made, map);
        let rules = self.scenario.system.rules();
        for assumes in watch.situations().filter(|a| !a.is_nothing()) {
            let bits = [
                Assumes::TARGET_DOWN,
                Assumes::PARTNERS_DOWN,
                Assumes::ALLIES_DOWN,
                Assumes::STRUCK_DOWN,
            ];
            let fallen: Vec<CombatantId> = (bits.into_iter().zip(&down))
                .filter(|(bit, _)| assumes.contains(*bit))
                .flat_map(|(_, who)| who.iter().copied())
                .collect();
            let scenario = self.scenario.with_down(&fallen);
            let map = (scenario.battlefield.as_ref())
                .map(|field| MapSituation::judge(&scenario, field, rules, line));
            let target = self.of(line.target);
            let parts =
                file_line::line_parts(&scenario, line, map.as_ref(), target, &mut |c| self.of(c));
            let Ok((attack, defence, situation)) = parts else {
                continue;
            };
            let mut sketch = self.builder.sketch();
            if sketch
                .add_line(rules, attack, defence, situation, None)
                .is_ok()
            {
                self.builder.add_situation(made, assumes, &sketch, &watch);
            }
        }
    }

    /// Whose fall changes `line`'s attacks, as target ids and as combatants (target,
    /// partners, allies, the creature struck instead): its target when it can lie down
    /// alive; its map flanking partners and the allies engaged with its target, when
    /// every one of them is a target that can go down; the creature its attacks may
    /// strike instead, when it can go down.
    fn watch(
        &self,
        line: &PlanLine,
        made: LineId,
        map: Option<&MapSituation>,
    ) -> (Watch, [Vec<CombatantId>; 4]) {
        let plan = &self.builder.plan;
        // A creature can be down at one of the line's attacks when an attack before it,
        // or one in an earlier round, can hurt it.
        let last = (plan.places.iter())
            .rposition(|p| plan.slots[p.first()].line == made)
            .expect("a line made has an attack");
        let first_hits = plan.first_hits();
        let hurt_before_last = |t: TargetId| first_hits.before(t.index(), last);
        let downed = |who: &[CombatantId]| -> Vec<TargetId> {
            let ids: Vec<Option<TargetId>> = who.iter().map(|&c| self.existing(c)).collect();
            let all = ids.iter().all(|t| {
                t.is_some_and(|t| plan.targets[t.index()].down_at.is_some() && hurt_before_last(t))
            });
            match all {
                true => ids.into_iter().flatten().collect(),
                false => Vec::new(),
            }
        };
        let partners: Vec<CombatantId> = map
            .filter(|m| m.verdict.flanking.is_some() && line.overrides.flanking.is_none())
            .map(|m| m.verdict.flank_partners.clone())
            .unwrap_or_default();
        let allies: Vec<CombatantId> = (map.and_then(|m| m.into_melee.as_ref()))
            .map(|i| i.allies.clone())
            .unwrap_or_default();
        let target = self
            .existing(line.target)
            .expect("a line's target is a target");
        let target_down =
            plan.targets[target.index()].can_lie_helpless() && hurt_before_last(target);
        let struck = (plan.slots.iter())
            .filter(|s| s.line == made)
            .find_map(|s| s.covering)
            .filter(|&c| plan.targets[c.index()].down_at.is_some() && hurt_before_last(c));
        let watch = Watch {
            target_down,
            partners: downed(&partners),
            allies: downed(&allies),
            struck_down: struck.is_some(),
        };
        let kept = |watched: &[TargetId], who: Vec<CombatantId>| match watched.is_empty() {
            true => Vec::new(),
            false => who,
        };
        let down = [
            Vec::from_iter(target_down.then_some(line.target)),
            kept(&watch.partners, partners),
            kept(&watch.allies, allies),
            Vec::from_iter(struck.map(|c| self.combatants[c.index()])),
        ];
        (watch, down)
    }

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
