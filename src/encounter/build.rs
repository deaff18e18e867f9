//! Scenario → [`Fight`]: every combatant's orders and every attack it could make at every
//! enemy, planned by the same planner as plan lines (map verdicts, conditions, range),
//! once as written and once with the target flat-footed.

use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

use super::turn::{ordered_bits, situation};
use super::{
    ALONE, AttackAt, CLEAR, FLAT_FOOTED, Fight, Fighter, Order, PLAIN, Profile, ProfileId,
    SITUATIONS, STRUCK_DOWN, SlotSource, Tables,
};
use crate::attack::OutcomeEffect;
use crate::error::InputError;
use crate::exact::SlotExact;
use crate::injury::{Target, Vitals};
use crate::map::distance;
use crate::plan::{LineId, LineSituation, Plan, Planned, Slot, TargetId};
use crate::scenario::{Action, AttackKind, CombatantId, Overrides, PlanLine, Scenario};

/// The combatants `who`, a bit each.
fn bits(who: impl Iterator<Item = usize>) -> u64 {
    who.fold(0, |set, i| set | 1 << i)
}

/// Draws that estimate a profile's mean damage when its exact table is too large.
const MEAN_SAMPLE_DRAWS: u32 = 20_000;

impl Fight {
    /// The fight of a scenario with `[encounter]`; `None` without one.
    pub fn from_scenario(scenario: &Scenario) -> Result<Option<Fight>, InputError> {
        let Some(encounter) = scenario.encounter else {
            return Ok(None);
        };
        let rules = scenario.system.rules();
        let mut sides: Vec<String> = Vec::new();
        for c in &scenario.combatants {
            if !sides.contains(&c.side) {
                sides.push(c.side.clone());
            }
        }
        let lines = every_line(scenario);
        let plain = planned(scenario, &lines, false);
        let partners: Vec<u64> = plain.lines.iter().map(flank_partners).collect();
        let allies: Vec<u64> = plain.lines.iter().map(melee_allies).collect();
        let struck: Vec<Option<CombatantId>> = (0..lines.len())
            .map(|i| struck_instead(&plain, i))
            .collect();
        // Each creature some line may strike instead, once.
        let mut creatures: Vec<CombatantId> = struck.iter().flatten().copied().collect();
        creatures.sort_by_key(|c| c.index());
        creatures.dedup();
        // A situation's bit that changes no attack (no flat-footed rule, no partners, no
        // allies in melee, no creature to strike instead): the situation is the one
        // without it, planned once.
        let unchanged = [
            (!rules.injury.flat_footed_until_first_turn, FLAT_FOOTED),
            (partners.iter().all(|&p| p == 0), ALONE),
            (allies.iter().all(|&a| a == 0), CLEAR),
            (creatures.is_empty(), STRUCK_DOWN),
        ]
        .into_iter()
        .filter_map(|(unchanged, bit)| unchanged.then_some(bit))
        .fold(0, |bits, bit| bits | bit);
        let mut plannings: Vec<Planned> = vec![plain];
        // [situation][line]: the planning (in `plannings`) the line takes its attacks from.
        let mut taken: Vec<Vec<usize>> = vec![vec![0; lines.len()]];
        for situation in 1..SITUATIONS {
            if situation & unchanged != 0 {
                taken.push(taken[situation & !unchanged].clone());
                continue;
            }
            let mut lines = lines.clone();
            // Once every partner is down, no flanking; once every ally, no penalty for
            // shooting into melee.
            if situation & ALONE != 0 {
                lines = once_down(&lines, &partners, |o| o.flanking = Some(false));
            }
            if situation & CLEAR != 0 {
                lines = once_down(&lines, &allies, |o| o.into_melee = Some(false));
            }
            let flat_footed = situation & FLAT_FOOTED != 0;
            if situation & STRUCK_DOWN == 0 {
                plannings.push(planned(scenario, &lines, flat_footed));
                taken.push(vec![plannings.len() - 1; lines.len()]);
                continue;
            }
            // Each line with its own creature struck instead down (one line's may be
            // another's target or partner); a line without one as without the bit.
            let mut of_line = taken[situation & !STRUCK_DOWN].clone();
            for &creature in &creatures {
                plannings.push(planned(
                    &scenario.with_down(&[creature]),
                    &lines,
                    flat_footed,
                ));
                for (line, _) in (struck.iter().enumerate()).filter(|(_, s)| **s == Some(creature))
                {
                    of_line[line] = plannings.len() - 1;
                }
            }
            taken.push(of_line);
        }
        let mut fight = Fight {
            title: scenario.title.clone(),
            system: scenario.system,
            rounds: scenario.rounds,
            initiative: encounter.initiative,
            fighters: Vec::new(),
            sides,
            side_members: Vec::new(),
            up_below: Vec::new(),
            disabled_at: Vec::new(),
            profiles: Vec::new(),
            dying: rules.injury.dying,
            flat_footed_until_first_turn: rules.injury.flat_footed_until_first_turn,
            plans: plannings
                .iter()
                .map(|planned| planned.plan.clone())
                .collect(),
            unused_improved_cover: (scenario.battlefield.as_ref())
                .and_then(|field| plannings[PLAIN].unused_improved_cover(field, false)),
        };
        let n = scenario.combatants.len();
        for id in scenario.combatant_ids() {
            let c = scenario.combatant(id);
            let label = c.label();
            let vitals = Vitals {
                hp: c.hp,
                con: c.con,
                stamina: c.stamina,
                resolve: c.resolve,
            };
            let distance = (scenario.combatant_ids())
                .map(|other| {
                    (scenario.battlefield.as_ref())
                        .map_or(0, |field| distance(field.space(id), field.space(other)))
                })
                .collect();
            fight.fighters.push(Fighter {
                injury: Target::for_system(rules, label.clone(), vitals),
                label,
                side: fight.sides.iter().position(|s| *s == c.side).unwrap_or(0),
                init: c.init,
                tactic: c.tactic,
                con_modifier: c.con.map_or(0, |con| (con - 10).div_euclid(2)),
                resolve: i32::try_from(c.resolve_points)
                    .expect("Resolve Points are at most MAX_INJURY_NUMBER"),
                orders: Vec::new(),
                options: vec![vec![None; n]; c.attacks.len()],
                distance,
                tables: Tables::default(),
            });
        }
        for (i, line) in lines.iter().enumerate() {
            let planning = |situation: usize| taken[situation][i];
            let made: Option<Vec<LineId>> = (0..SITUATIONS)
                .map(|s| plannings[planning(s)].lines[i].made.as_ref().ok().copied())
                .collect();
            let Some(made) = made else {
                continue;
            };
            let slots: Vec<Vec<usize>> = (0..SITUATIONS)
                .map(|s| slot_ids(&plannings[planning(s)], made[s]).collect())
                .collect();
            // A bit this line does not depend on: its profile is the one without it.
            let same = (if partners[i] == 0 { ALONE } else { 0 })
                | (if allies[i] == 0 { CLEAR } else { 0 })
                | (if struck[i].is_none() { STRUCK_DOWN } else { 0 });
            let count = slots.iter().map(Vec::len).min().unwrap_or(0);
            let iteratives = (0..count)
                .map(|iterative| {
                    let mut profiles = [0; SITUATIONS];
                    for situation in 0..SITUATIONS {
                        profiles[situation] = match situation & same {
                            0 => fight.add_profile(
                                SlotSource {
                                    plan: planning(situation),
                                    slot: slots[situation][iterative],
                                    situation,
                                },
                                &plannings[planning(situation)],
                            ),
                            _ => profiles[situation & !same],
                        };
                    }
                    AttackAt {
                        profiles,
                        partners: partners[i],
                        allies: allies[i],
                        struck: struck[i].map_or(0, |c| 1 << c.index()),
                    }
                })
                .collect::<Vec<_>>();
            let attacker = &mut fight.fighters[line.attacker.index()];
            if i < scenario.plan.len() {
                attacker.orders.push(Order {
                    attack: line.attack,
                    target: line.target.index(),
                    iteratives,
                });
            } else {
                attacker.options[line.attack][line.target.index()] = Some(iteratives);
            }
        }
        for who in 0..n {
            fight.fighters[who].tables = fight.tables(who);
        }
        fight.up_below = (fight.fighters.iter())
            .map(|f| f.injury.down_at.unwrap_or(i64::MAX))
            .collect();
        fight.disabled_at = (fight.fighters.iter())
            .map(|f| match f.injury.down_at {
                Some(zero) if f.injury.disabled_at_zero => zero,
                _ => i64::MIN,
            })
            .collect();
        fight.side_members = (0..fight.sides.len())
            .map(|side| bits((0..n).filter(|&i| fight.fighters[i].side == side)))
            .collect();
        Ok(Some(fight))
    }

    /// Combatant `who`'s [`Tables`], from its options and the profiles' means (with the
    /// map's flanking: a tactic weighs an attack as the map draws it, even once the
    /// flanking partners are down, while the roll is made without it).
    fn tables(&self, who: usize) -> Tables {
        let me = &self.fighters[who];
        let n = self.fighters.len();
        let attacks = me.options.len();
        let len = |a: usize, t: usize| me.options[a][t].as_ref().map_or(0, Vec::len);
        let foes = || (0..n).filter(|&t| self.fighters[t].side != me.side);
        let stride = 1
            + (0..attacks)
                .flat_map(|a| (0..n).map(move |t| len(a, t)))
                .max()
                .unwrap_or(0);
        let mut expected = vec![0.0; attacks * n * stride * 2];
        for a in 0..attacks {
            for t in 0..n {
                let Some(its) = &me.options[a][t] else {
                    continue;
                };
                for i in 0..stride {
                    for flat in [false, true] {
                        expected[Tables::expected_index(stride, n, a, t, i, flat)] = its
                            .iter()
                            .skip(i)
                            .map(|at| {
                                self.profiles[at.profiles[situation(flat, true, true, true)]]
                                    .expected
                            })
                            .sum();
                    }
                }
            }
        }
        // Per target × flat-footed: the attack with the most mean damage (ties: the
        // first), and that mean; every mean is at least 0, the best's where none reaches.
        let most: Vec<Option<(usize, f64)>> = (0..n * 2)
            .map(|k| {
                let mut most: Option<(usize, f64)> = None;
                for a in (0..attacks).filter(|&a| me.options[a][k / 2].is_some()) {
                    let e = expected[((a * n + k / 2) * stride) * 2 + k % 2];
                    if most.is_none_or(|(_, m)| e > m) {
                        most = Some((a, e));
                    }
                }
                most
            })
            .collect();
        let key = |mean: f64| ordered_bits(-mean);
        let best_key = most
            .iter()
            .map(|m| key(m.map_or(0.0, |(_, e)| e)))
            .collect();
        let routine_attack = most.iter().map(|m| m.map(|(a, _)| a)).collect();
        Tables {
            routine: (0..attacks)
                .map(|a| (0..n).map(|t| len(a, t)).max().unwrap_or(0))
                .collect(),
            in_reach: (0..attacks * stride)
                .map(|k| bits(foes().filter(|&t| len(k / stride, t) > k % stride)))
                .collect(),
            reaches: bits(foes().filter(|&t| me.options.iter().any(|o| o[t].is_some()))),
            stride,
            expected_key: expected.into_iter().map(key).collect(),
            best_key,
            routine_attack,
        }
    }

    /// The profile of the slot at `source`, planned in `planned`: an existing one when an
    /// attack with the same description was added before (an order and a tactic's routine
    /// at the same target, or a target whose flat-footed AC is its AC), so the summary
    /// counts each attack once.
    fn add_profile(&mut self, source: SlotSource, planned: &Planned) -> ProfileId {
        if let Some(same) = (self.profiles.iter()).position(|p| self.same_attack(p.source, source))
        {
            return same;
        }
        let slot = &self.plans[source.plan].slots()[source.slot];
        let layout = slot.profile.layout();
        let table = slot.profile.outcomes();
        let effects = layout.effects();
        let expected = match &table {
            Some(t) => t.mean_damage(),
            None => {
                let mut rng = Pcg64Mcg::seed_from_u64(0);
                let total: i64 = (0..MEAN_SAMPLE_DRAWS)
                    .map(|_| layout.damage(layout.index(slot.profile.roll(&mut rng))))
                    .sum();
                total as f64 / f64::from(MEAN_SAMPLE_DRAWS)
            }
        };
        let mut branches: Vec<(OutcomeEffect, f64)> = Vec::new();
        for (effect, &p) in effects.iter().zip(table.iter().flat_map(|t| &t.probs)) {
            match branches.iter_mut().find(|(e, _)| e == effect) {
                Some((_, q)) => *q += p,
                None if p > 0.0 => branches.push((*effect, p)),
                None => {}
            }
        }
        self.profiles.push(Profile {
            source,
            exact: table.as_ref().map(SlotExact::of),
            attack: slot.profile.clone(),
            effects,
            branches,
            probs: table.map(|t| t.probs),
            expected,
            target: planned.combatants[slot.target.index()].index(),
            struck: struck_by(planned, slot).map(CombatantId::index),
        });
        self.profiles.len() - 1
    }

    /// Whether two slots describe the same attack: the same attacker, attack, iterative,
    /// target and situation, so the same profile.
    fn same_attack(&self, a: SlotSource, b: SlotSource) -> bool {
        let (plan_a, plan_b) = (&self.plans[a.plan], &self.plans[b.plan]);
        let (slot_a, slot_b) = (&plan_a.slots()[a.slot], &plan_b.slots()[b.slot]);
        let (line_a, line_b) = (plan_a.line(slot_a.line), plan_b.line(slot_b.line));
        let label = |plan: &Plan, t: Option<TargetId>| t.map(|t| plan.target(t).label.clone());
        line_a.attacker == line_b.attacker
            && line_a.attack == line_b.attack
            && line_a.modifiers == line_b.modifiers
            && slot_a.index == slot_b.index
            && slot_a.base_bonus == slot_b.base_bonus
            && slot_a.profile == slot_b.profile
            && label(plan_a, Some(slot_a.target)) == label(plan_b, Some(slot_b.target))
            && label(plan_a, slot_a.covering) == label(plan_b, slot_b.covering)
    }
}

/// The creature line `line` of `planned` may strike instead of its target (d20 Modern:
/// the one giving soft cover, or the target's grappling partner); `None` when its
/// attacks strike nobody else.
fn struck_instead(planned: &Planned, line: usize) -> Option<CombatantId> {
    let made = planned.lines[line].made.as_ref().ok()?;
    slots(&planned.plan, made.index()).find_map(|(_, slot)| struck_by(planned, slot))
}

/// The creature an attack planned as `slot` of `planned` strikes on a "struck" outcome.
fn struck_by(planned: &Planned, slot: &Slot) -> Option<CombatantId> {
    (slot.covering)
        .filter(|_| slot.profile.layout().can_strike())
        .map(|t| planned.combatants[t.index()])
}

/// The indices of the slots of `planned`'s line `line`, in routine order.
fn slot_ids(planned: &Planned, line: LineId) -> impl Iterator<Item = usize> + '_ {
    slots(&planned.plan, line.index()).map(|(slot, _)| slot)
}

/// The slots of line `line`, with their indices, in routine order.
fn slots(plan: &Plan, line: usize) -> impl Iterator<Item = (usize, &Slot)> {
    (plan.slots().iter().enumerate()).filter(move |(_, s)| s.line.index() == line)
}

/// The scenario's plan lines, then one full attack of every attack-rolling attack of every
/// combatant at every combatant of another side (what a tactic may choose).
fn every_line(scenario: &Scenario) -> Vec<PlanLine> {
    let mut lines = scenario.plan.clone();
    for attacker in scenario.combatant_ids() {
        let a = scenario.combatant(attacker);
        for target in scenario.combatant_ids() {
            if scenario.combatant(target).side == a.side {
                continue;
            }
            for (attack, _) in
                (a.attacks.iter().enumerate()).filter(|(_, x)| x.kind != AttackKind::Area)
            {
                lines.push(PlanLine {
                    attacker,
                    target,
                    attack,
                    action: Action::Full,
                    overrides: Overrides::default(),
                    span: 0..0,
                    pinpointed: None,
                    area: None,
                    origin: None,
                });
            }
        }
    }
    lines
}

/// The combatants (bit `i` for combatant `i`) whose threat gives a planned line the
/// map's flanking; 0 when the line sets `flanking` itself or the map gives none.
fn flank_partners(line: &LineSituation) -> u64 {
    match (&line.map, line.overridden.flanking) {
        (Some(map), false) => {
            (map.verdict.flank_partners.iter()).fold(0, |mask, partner| mask | 1 << partner.index())
        }
        _ => 0,
    }
}

/// The attacker's allies (bit `i` for combatant `i`) engaged in melee with the target of a
/// planned ranged line, which give it its penalty for shooting into melee; 0 when it has
/// none (Precise Shot, or no ally engaged).
fn melee_allies(line: &LineSituation) -> u64 {
    (line.map.as_ref())
        .and_then(|map| map.into_melee.as_ref())
        .filter(|melee| melee.penalty != 0)
        .map_or(0, |melee| {
            bits(melee.allies.iter().map(|ally| ally.index()))
        })
}

/// `lines` with `turn_off` applied to each that depends on someone (`who`, per line: a
/// bit per combatant, 0 for nobody): what they are once all of those are down.
fn once_down(lines: &[PlanLine], who: &[u64], turn_off: fn(&mut Overrides)) -> Vec<PlanLine> {
    (lines.iter().zip(who))
        .map(|(line, &who)| {
            let mut line = line.clone();
            if who != 0 {
                turn_off(&mut line.overrides);
            }
            line
        })
        .collect()
}

/// The lines planned on the scenario, with every combatant flat-footed when `flat_footed`.
fn planned(scenario: &Scenario, lines: &[PlanLine], flat_footed: bool) -> Planned {
    let mut copy = scenario.clone();
    copy.plan = lines.to_vec();
    if flat_footed {
        let rules = scenario.system.rules();
        if let Some(condition) = rules.condition("flat-footed") {
            for c in &mut copy.combatants {
                if !c.conditions.contains(&condition.name) {
                    c.conditions.push(condition.name);
                }
            }
        }
    }
    Planned::from_scenario(&copy)
}
