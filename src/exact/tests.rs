//! Exact figures against hand-computed fractions.

use super::*;
use crate::injury::Vitals;
use crate::plan::{LineAttack, LineDefence, PlanBuilder, Situation, Target};
use crate::rules::SystemId;

fn plan(bonuses: Vec<i32>, ac: i32, damage: &str, hp: i64, con: Option<i64>, rounds: u32) -> Plan {
    let attack = LineAttack::plain(
        "A",
        "a",
        true,
        bonuses,
        damage.parse().unwrap(),
        Default::default(),
    );
    let target = Target::new("T".into(), Some(hp), con);
    Plan::single(SystemId::Pf1, rounds, target, attack, ac, true)
}

#[test]
fn two_hits_needed_over_two_rounds() {
    // Hit 1/2 for exactly 5 against 10 hp: down after round 2 with probability 1/4,
    // dead (Con 5: at 15 damage) never within two rounds.
    let exact = compute(&plan(vec![0], 11, "5", 10, Some(5), 2));
    let r = &exact.targets[0].as_ref().unwrap().rounds;
    assert_eq!((r[0].p_down, r[1].p_down), (0.0, 0.25));
    assert_eq!((r[0].p_dead, r[1].p_dead), (0.0, 0.0));
    assert_eq!((r[0].mean_damage, r[1].mean_damage), (2.5, 5.0));
}

#[test]
fn dead_targets_take_no_more_attacks() {
    // Two iteratives that always hit (+100; only a natural 1 misses) for 3 against
    // 3 hp without Con, immune to crits: dead after the first hit, so total damage is 3 unless the first
    // attack misses (1/20), then 3 again unless the second also misses (1/400 → 0).
    let exact = compute(&plan(vec![100, 100], 10, "3", 3, None, 1));
    let t = exact.targets[0].as_ref().unwrap();
    assert_eq!(t.damage.len(), 13, "the layout keeps room for crits of 6");
    assert!((t.damage[0] - 1.0 / 400.0).abs() < 1e-15);
    assert!((t.damage[3] - 399.0 / 400.0).abs() < 1e-15);
    assert!(t.damage[4..].iter().all(|&p| p == 0.0));
    assert!((t.rounds[0].p_dead - 399.0 / 400.0).abs() < 1e-15);
}

/// A single coup de grace by `level` with `damage` against a helpless target.
fn coup_de_grace(
    system: SystemId,
    damage: &str,
    hp: i64,
    fort: i32,
    level: i32,
    immune: bool,
) -> Exact {
    let rules = system.rules();
    let mut plan = PlanBuilder::new("t", system, 1);
    let target = plan.add_target(Target::new("T".into(), Some(hp), None));
    let mut attack = LineAttack::plain(
        "A",
        "a",
        true,
        vec![0],
        damage.parse().unwrap(),
        Default::default(),
    );
    attack.coup_de_grace = Some(level);
    let mut defence = LineDefence::plain(target, 30, immune);
    defence.conditions = vec![rules.condition("helpless").unwrap()];
    defence.fort = fort;
    plan.add_line(rules, attack, defence, Situation::default(), None)
        .unwrap();
    compute(&plan.build())
}

#[test]
fn coup_de_grace_kills_by_damage_or_failed_save() {
    // PF1, 2d6+4 ×2 = 4d6+8 (12..32) against 20 hp, Fort +5, DC 10 + damage. Dead when
    // the blow deals 20+, else the save fails on naturals below 5 + d (a natural 20
    // always saves): 16/20 at d = 12, 17/20 at 13, 18/20 at 14, 19/20 from 15 on.
    // Over the 1296 rolls of 4d6: P(dead) = 25589/25920.
    let e = coup_de_grace(SystemId::Pf1, "2d6+4", 20, 5, 0, false);
    let slot = e.slots[0].unwrap();
    assert!((slot.p_hit - 1.0).abs() < 1e-12 && (slot.p_crit - 1.0).abs() < 1e-12);
    assert!((slot.mean_damage - 22.0).abs() < 1e-12);
    let p_dead = e.targets[0].as_ref().unwrap().rounds[0].p_dead;
    assert!((p_dead - 25589.0 / 25920.0).abs() < 1e-12, "{p_dead}");
    // Starfinder: DC 10 + level 5 = 15 whatever the damage; Fort +3 saves on 12..20,
    // so 11/20 die although 2d6 never reaches 50 hp.
    let e = coup_de_grace(SystemId::Starfinder, "1d6", 50, 3, 5, false);
    let p_dead = e.targets[0].as_ref().unwrap().rounds[0].p_dead;
    assert!((p_dead - 11.0 / 20.0).abs() < 1e-12, "{p_dead}");
    // Starfinder against a crit-immune target: a plain automatic hit, no save.
    let e = coup_de_grace(SystemId::Starfinder, "1d6", 50, 3, 5, true);
    let slot = e.slots[0].unwrap();
    assert!((slot.p_hit - 1.0).abs() < 1e-12 && slot.p_crit == 0.0);
    assert!((slot.mean_damage - 3.5).abs() < 1e-12);
    assert_eq!(e.targets[0].as_ref().unwrap().rounds[0].p_dead, 0.0);
}

#[test]
fn a_struck_covering_creature_dies_once_and_takes_no_more() {
    // d20 Modern: +0 against 16 + 4 (one-half cover from C) hits T only on a 20; 16–19
    // miss only because of the cover and beat C's Defense 10: C is struck for 3 with
    // 1/5 each round, and 3 kills it. Dead by round 1: 1/5; by round 2: 1 − (4/5)² =
    // 9/25; its damage is 3 or 0, never 6.
    let rules = SystemId::D20Modern.rules();
    let mut plan = PlanBuilder::new("t", SystemId::D20Modern, 2);
    let target = plan.add_target(Target::new("T".into(), Some(100), None));
    let cover = plan.add_target(Target::new("C".into(), Some(3), None));
    let attack = LineAttack::plain(
        "A",
        "a",
        false,
        vec![0],
        "3".parse().unwrap(),
        Default::default(),
    );
    let situation = Situation {
        cover: Some(crate::rules::CoverLevel::Soft),
        covering: Some(crate::plan::Covering {
            target: cover,
            defense: 10,
            dex: 0,
            dr: 0,
            massive: None,
        }),
        ..Situation::default()
    };
    let defence = LineDefence::plain(target, 16, true);
    plan.add_line(rules, attack, defence, situation, None)
        .unwrap();
    let e = compute(&plan.build());
    assert!((e.slots[0].unwrap().p_struck - 0.2).abs() < 1e-15);
    let c = e.targets[1].as_ref().unwrap();
    assert!((c.rounds[0].p_dead - 0.2).abs() < 1e-15);
    assert!((c.rounds[1].p_dead - 9.0 / 25.0).abs() < 1e-15);
    assert!((c.damage[3] - 9.0 / 25.0).abs() < 1e-15);
    assert!(c.damage[6..].iter().all(|&p| p == 0.0));
    let t = e.targets[0].as_ref().unwrap();
    assert!((t.rounds[1].mean_damage - 2.0 * 3.0 / 20.0).abs() < 1e-15);
}

#[test]
fn too_much_work_is_reported_not_attempted() {
    let exact = compute(&plan(vec![10, 5, 0], 15, "100d100", 5000, None, 1000));
    let reason = exact.targets[0].as_ref().unwrap_err();
    assert!(reason.contains("more than the bound"), "{reason}");
    assert!(exact.slots[0].is_some());
}

/// X hits B (5 hp) half the time for exactly 5; then B attacks A twice (hits 1/2 and
/// 1/4, 1 damage each). PF1: B at exactly 0 hp is disabled and makes its first attack
/// only, then pays 1 hp (6 taken): P(A takes 0) = 1/2·1/2 + 1/2·(1/2·3/4) = 7/16,
/// P(1) = 1/2·1/2 + 1/2·(1/2·3/4 + 1/2·1/4) = 8/16, P(2) = 1/2·1/8 = 1/16.
/// Starfinder: at 0 HP B makes no attack: P(0) = 1/2 + 1/2·3/8 = 11/16, P(1) = 4/16,
/// P(2) = 1/16.
#[test]
fn an_attacker_that_is_down_stops_and_a_disabled_one_attacks_once() {
    let attacked_attacker = |system: SystemId| {
        let rules = system.rules();
        let mut plan = PlanBuilder::new("t", system, 1);
        let vitals = |hp| Vitals {
            hp: Some(hp),
            con: Some(10),
            stamina: 0,
            resolve: true,
        };
        let a = plan.add_target(Target::for_system(rules, "A".into(), vitals(100)));
        let b = plan.add_target(Target::for_system(rules, "B".into(), vitals(5)));
        let plain = |who: &str, bonuses, damage: &str| {
            LineAttack::plain(
                who,
                "a",
                true,
                bonuses,
                damage.parse().unwrap(),
                Default::default(),
            )
        };
        let defence = |target| LineDefence::plain(target, 11, true);
        let situation = Situation::default;
        (plan.add_line(
            rules,
            plain("X", vec![0], "5"),
            defence(b),
            situation(),
            None,
        ))
        .unwrap();
        let answer = (plan.add_line(
            rules,
            plain("B", vec![0, -5], "1"),
            defence(a),
            situation(),
            None,
        ))
        .unwrap();
        plan.attacker_is_target(answer, b);
        compute(&plan.build())
    };
    let pf1 = attacked_attacker(SystemId::Pf1);
    let a = pf1.targets[0].as_ref().unwrap();
    assert_eq!(&a.damage[..3], [7.0 / 16.0, 8.0 / 16.0, 1.0 / 16.0]);
    let b = pf1.targets[1].as_ref().unwrap();
    assert_eq!((b.damage[0], b.damage[5], b.damage[6]), (0.5, 0.0, 0.5));
    assert_eq!((b.rounds[0].p_down, b.rounds[0].p_dead), (0.5, 0.0));
    let sf = attacked_attacker(SystemId::Starfinder);
    let a = sf.targets[0].as_ref().unwrap();
    assert_eq!(&a.damage[..3], [11.0 / 16.0, 4.0 / 16.0, 1.0 / 16.0]);
    let b = sf.targets[1].as_ref().unwrap();
    assert_eq!((b.damage[5], b.damage[6]), (0.5, 0.0));
}

/// A star as in `pf1-cover-examples.toml`: F and R attack O first, then O attacks F and
/// R. In one round F and R are unhurt when they attack, so O's figures need O alone and
/// F's need O (whether it still acts) and F; in two rounds each depends on the others.
#[test]
fn targets_are_followed_with_what_their_state_depends_on() {
    let star = |rounds| {
        let rules = SystemId::Pf1.rules();
        let mut plan = PlanBuilder::new("t", SystemId::Pf1, rounds);
        let ids: Vec<TargetId> = ["O", "F", "R"]
            .into_iter()
            .map(|name| plan.add_target(Target::new(name.into(), Some(10), Some(10))))
            .collect();
        for (attacker, target) in [(1, 0), (2, 0), (0, 1), (0, 2)] {
            let attack = LineAttack::plain(
                "x",
                "a",
                true,
                vec![5],
                "1d6".parse().unwrap(),
                Default::default(),
            );
            let defence = LineDefence::plain(ids[target], 15, false);
            let line = (plan.add_line(rules, attack, defence, Situation::default(), None)).unwrap();
            plan.attacker_is_target(line, ids[attacker]);
        }
        let linked = links::linked_targets(&plan.build());
        let indices = |set: &Vec<TargetId>| set.iter().map(|t| t.index()).collect::<Vec<_>>();
        linked.iter().map(indices).collect::<Vec<_>>()
    };
    assert_eq!(star(1), [vec![0], vec![1, 0], vec![2, 0]]);
    assert_eq!(star(2), [vec![0, 1, 2], vec![1, 0, 2], vec![2, 0, 1]]);
}
