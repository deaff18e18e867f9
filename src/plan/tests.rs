use super::*;
use crate::rules::CoverLevel;

fn scenario(plan_extra: &str, attack_kind: &str) -> Scenario {
    let text = format!(
        r#"
system = "pf1"
map = "AB"
[[combatant]]
token = "A"
ac = 15
hp = 10
[[combatant.attack]]
name = "hit"
kind = "{attack_kind}"
bonus = [6, 1]
damage = "1d6"
[[combatant]]
token = "B"
ac = 16
hp = 12
con = 10
[[plan]]
attacker = "A"
target = "B"
attack = "hit"
action = "full"
{plan_extra}
"#
    );
    Scenario::parse("p.toml", text).unwrap()
}

fn modifiers(plan_extra: &str, kind: &str) -> (Modifiers, i32, i32) {
    let plan = Plan::from_scenario(&scenario(plan_extra, kind)).unwrap();
    let p = &plan.slots()[0].profile;
    (plan.lines()[0].modifiers.clone(), p.bonus, p.ac)
}

/// Both iteratives at B (AC 16); once B is down (it can be after the first, 12 hp and
/// dead at −10), both again at it helpless: Dex 0 counts −5 and melee gets +4, AC 7.
#[test]
fn full_attack_makes_every_iterative_against_the_same_target() {
    let plan = Plan::from_scenario(&scenario("", "melee")).unwrap();
    let slots: Vec<(i32, i32, Assumes)> = (plan.slots().iter())
        .map(|s| (s.profile.bonus, s.profile.ac, s.assumes))
        .collect();
    let down = Assumes::TARGET_DOWN;
    assert_eq!(
        slots,
        [
            (6, 16, Assumes::NOTHING),
            (1, 16, Assumes::NOTHING),
            (6, 7, down),
            (1, 7, down)
        ]
    );
    let places: Vec<[usize; 2]> = (plan.places().iter())
        .map(|p| [p.slots[0], p.slots[down.bits()]])
        .collect();
    assert_eq!(places, [[0, 2], [1, 3]]);
    assert_eq!(plan.targets()[0].down_at, Some(12));
    assert_eq!(plan.targets()[0].dead_at, Some(22));
}

#[test]
fn overrides_fold_into_effective_numbers() {
    let cases = [
        ("cover = \"cover\"", "melee", 6, 20),
        ("cover = \"partial\"", "ranged", 6, 18),
        ("cover = \"soft\"", "ranged", 6, 20),
        ("cover = \"soft\"", "melee", 6, 16),
        ("cover = \"improved\"", "ranged", 6, 24),
        ("flanking = true", "melee", 8, 16),
        ("flanking = false", "ranged", 6, 16),
        ("attack_mod = -2\nac_mod = 1", "melee", 4, 17),
    ];
    for (extra, kind, bonus, ac) in cases {
        let (_, b, a) = modifiers(extra, kind);
        assert_eq!((b, a), (bonus, ac), "{extra} {kind}");
    }
    // Flanking helps melee only: set on a ranged line it is refused, at the key.
    let text = scenario("", "ranged").source.text.clone() + "flanking = true\n";
    let err = Scenario::parse("p.toml", text).unwrap_err();
    assert!(
        err.message
            .starts_with("flanking gives a bonus to melee attacks only"),
        "{}",
        err.message
    );
    let (m, _, _) = modifiers("concealment = 20\nflanking = true", "melee");
    assert_eq!((m.concealment, m.flanking, m.attack_mod), (20, true, 2));
    // On a map, what the line sets in place of the map is marked for the roll.
    let set = m.set_by_plan;
    assert_eq!(
        (set.cover, set.concealment, set.flanking),
        (false, true, true)
    );
    let (m, _, _) = modifiers("cover = \"none\"", "melee");
    let set = m.set_by_plan;
    assert_eq!(
        (set.cover, set.concealment, set.flanking),
        (true, false, false)
    );
}

#[test]
fn total_cover_refuses_the_line() {
    let err = Plan::from_scenario(&scenario("cover = \"total\"", "ranged")).unwrap_err();
    assert!(err.to_string().starts_with("p.toml:18:1: "), "{err}");
    assert!(err.to_string().contains("total cover"), "{err}");
}

/// The change a condition makes to (melee bonus, melee AC, ranged bonus, ranged AC)
/// of an attack by a +10 attacker on an AC 20 target whose AC holds Dex +3; the
/// condition is the attacker's or the defender's.
fn condition_deltas(system: SystemId, on_attacker: bool, name: &str) -> (i32, i32, i32, i32) {
    let rules = system.rules();
    let condition = rules
        .condition(name)
        .unwrap_or_else(|| panic!("{system} has no `{name}`"));
    let mut numbers = [0; 4];
    for (i, melee) in [true, false].into_iter().enumerate() {
        let mut attack = LineAttack::plain(
            "A",
            "a",
            melee,
            vec![10],
            "1".parse().unwrap(),
            Default::default(),
        );
        attack.crossbow = true;
        let mut plan = PlanBuilder::new("t", system, 1);
        let target = plan.add_target(Target::new("T".into(), None, None));
        let mut defence = LineDefence::plain(target, 20, false);
        defence.dex = 3;
        if on_attacker {
            attack.conditions = vec![condition];
        } else {
            defence.conditions = vec![condition];
        }
        plan.add_line(rules, attack, defence, Situation::default(), None)
            .unwrap();
        let plan = plan.build();
        let profile = &plan.slots()[0].profile;
        numbers[2 * i] = profile.bonus - 10;
        numbers[2 * i + 1] = profile.ac - 20;
    }
    (numbers[0], numbers[1], numbers[2], numbers[3])
}

#[test]
fn every_condition_applies_the_numbers_of_rules_md() {
    use SystemId::{D20Modern, Pf1, Pf1Variant, Starfinder};
    // (systems, on the attacker?, condition, melee bonus, melee AC, ranged bonus, ranged
    // AC), read off RULES.md §1–2 and §5; "loses Dex" takes the +3 away, "Dex counts as
    // -5" takes 8 away, helpless d20 Modern Defense is 5 + size (0).
    const PF: &[SystemId] = &[Pf1, Pf1Variant];
    type Case = (
        &'static [SystemId],
        bool,
        &'static str,
        (i32, i32, i32, i32),
    );
    let cases: &[Case] = &[
        (PF, true, "dazzled", (-1, 0, -1, 0)),
        (PF, true, "entangled", (-2, 0, -4, 0)),
        (PF, true, "invisible", (2, -3, 2, -3)),
        (PF, true, "prone", (-4, 0, 0, 0)),
        (PF, true, "shaken", (-2, 0, -2, 0)),
        (PF, true, "frightened", (-2, 0, -2, 0)),
        (PF, true, "squeezing", (-4, 0, -4, 0)),
        (PF, false, "blinded", (0, -5, 0, -5)),
        (PF, false, "cowering", (0, -5, 0, -5)),
        (PF, false, "entangled", (0, -2, 0, -2)),
        (PF, false, "flat-footed", (0, -3, 0, -3)),
        (PF, false, "grappling", (0, 0, 0, 0)),
        (PF, false, "helpless", (0, -12, 0, -8)),
        (PF, false, "paralyzed", (0, -12, 0, -8)),
        (PF, false, "unconscious", (0, -12, 0, -8)),
        (PF, false, "bound", (0, -12, 0, -8)),
        (PF, false, "kneeling", (0, -2, 0, 2)),
        (PF, false, "sitting", (0, -2, 0, 2)),
        (PF, false, "pinned", (0, -7, 0, -3)),
        (PF, false, "prone", (0, -4, 0, 4)),
        (PF, false, "squeezing", (0, -4, 0, -4)),
        (PF, false, "stunned", (0, -5, 0, -5)),
        (&[D20Modern], true, "prone", (-4, 0, -2, 0)),
        (&[D20Modern], true, "invisible", (2, -3, 2, -3)),
        (&[D20Modern], false, "sitting", (0, -2, 0, 2)),
        (&[D20Modern], false, "kneeling", (0, -2, 0, 2)),
        (&[D20Modern], false, "prone", (0, -4, 0, 4)),
        (&[D20Modern], false, "stunned", (0, -5, 0, -5)),
        (&[D20Modern], false, "cowering", (0, -5, 0, -5)),
        (&[D20Modern], false, "climbing", (0, -5, 0, -5)),
        (&[D20Modern], false, "blinded", (0, -5, 0, -5)),
        (&[D20Modern], false, "flat-footed", (0, -3, 0, -3)),
        (&[D20Modern], false, "running", (0, -3, 0, -1)),
        (&[D20Modern], false, "grappling", (0, -3, 0, -3)),
        (&[D20Modern], false, "pinned", (0, -12, 0, -8)),
        (&[D20Modern], false, "helpless", (0, -15, 0, -15)),
        (&[Starfinder], true, "prone", (-4, 0, 0, 0)),
        (&[Starfinder], true, "dazzled", (-1, 0, -1, 0)),
        (&[Starfinder], true, "entangled", (-2, 0, -2, 0)),
        (&[Starfinder], true, "grappled", (-2, 0, -2, 0)),
        (&[Starfinder], true, "pinned", (-4, 0, -4, 0)),
        (&[Starfinder], true, "shaken", (-2, 0, -2, 0)),
        (&[Starfinder], true, "frightened", (-2, 0, -2, 0)),
        (&[Starfinder], true, "sickened", (-2, 0, -2, 0)),
        (&[Starfinder], true, "off-kilter", (-2, 0, -2, 0)),
        (&[Starfinder], true, "off-target", (-2, 0, -2, 0)),
        (&[Starfinder], true, "fatigued", (-1, 0, -1, 0)),
        (&[Starfinder], true, "exhausted", (-3, 0, -3, 0)),
        (&[Starfinder], true, "invisible", (0, -2, 0, -2)),
        (&[Starfinder], false, "flat-footed", (0, -2, 0, -2)),
        (&[Starfinder], false, "prone", (0, -4, 0, 4)),
        (&[Starfinder], false, "blinded", (0, -2, 0, -2)),
        (&[Starfinder], false, "cowering", (0, -2, 0, -2)),
        (&[Starfinder], false, "stunned", (0, -2, 0, -2)),
        (&[Starfinder], false, "entangled", (0, -2, 0, -2)),
        (&[Starfinder], false, "grappled", (0, -2, 0, -2)),
        (&[Starfinder], false, "pinned", (0, -6, 0, -6)),
        (&[Starfinder], false, "helpless", (4, -8, 0, -8)),
        (&[Starfinder], false, "paralyzed", (0, -8, 0, -8)),
        (&[Starfinder], false, "fatigued", (0, -1, 0, -1)),
        (&[Starfinder], false, "exhausted", (0, -3, 0, -3)),
    ];
    for &(systems, on_attacker, name, expected) in cases {
        for &system in systems {
            let got = condition_deltas(system, on_attacker, name);
            assert_eq!(
                got,
                expected,
                "{system} {name} on the {}",
                if on_attacker { "attacker" } else { "defender" }
            );
        }
    }
}

#[test]
fn prone_pf1_attackers_need_a_crossbow_for_ranged_attacks() {
    let rules = SystemId::Pf1.rules();
    let mut attack = LineAttack::plain(
        "A",
        "bow",
        false,
        vec![5],
        "1d8".parse().unwrap(),
        Default::default(),
    );
    attack.conditions = vec![rules.condition("prone").unwrap()];
    let mut plan = PlanBuilder::new("t", SystemId::Pf1, 1);
    let target = plan.add_target(Target::new("T".into(), None, None));
    let err = plan
        .add_line(
            rules,
            attack,
            LineDefence::plain(target, 15, false),
            Situation::default(),
            None,
        )
        .unwrap_err();
    assert!(err.contains("crossbow = true"), "{err}");
}

#[test]
fn coups_de_grace_need_a_helpless_target_that_can_be_critically_hit() {
    let helpless = "\n[[combatant]]\ntoken = \"C\"\nac = 10\nhp = 5\nconditions = [\"asleep\"]";
    let cases = [
        (
            "",
            "melee",
            "the target is not helpless (give it one of: helpless, paralyzed, unconscious, asleep, bound)",
        ),
        ("", "ranged", "not helpless"),
    ];
    for (extra, kind, expected) in cases {
        let text = scenario("", kind)
            .source
            .text
            .replace("action = \"full\"", "action = \"coup-de-grace\"")
            + extra
            + helpless;
        let text = text.replace("map = \"AB\"", "map = \"ABC\"");
        let err = Plan::from_scenario(&Scenario::parse("p.toml", text).unwrap()).unwrap_err();
        assert!(err.to_string().contains(expected), "{err}");
    }
    let asleep = scenario("", "melee")
        .source
        .text
        .replace("action = \"full\"", "action = \"coup-de-grace\"")
        .replace("con = 10", "con = 10\nconditions = [\"asleep\"]");
    let plan = Plan::from_scenario(&Scenario::parse("p.toml", asleep.clone()).unwrap()).unwrap();
    assert_eq!(plan.slots().len(), 1, "one blow, whatever the iteratives");
    let immune = asleep.replace("con = 10", "con = 10\nimmune_to_crits = true");
    let err = Plan::from_scenario(&Scenario::parse("p.toml", immune).unwrap()).unwrap_err();
    assert!(err.to_string().contains("immune to critical hits"), "{err}");
}

#[test]
fn melee_must_reach_its_target_on_the_map() {
    let apart = scenario("", "melee")
        .source
        .text
        .replace("map = \"AB\"", "map = \"A.B\"");
    let err = Plan::from_scenario(&Scenario::parse("p.toml", apart.clone()).unwrap()).unwrap_err();
    let text = err.to_string();
    assert!(text.starts_with("p.toml:18:1: "), "{text}");
    assert!(
        text.contains("its reach is 5 ft and `B` is 10 ft away"),
        "{text}"
    );
    let reach_weapon = apart.replace(
        "damage = \"1d6\"",
        "damage = \"1d6\"\nreach = 10\nreach_weapon = true",
    );
    assert!(Plan::from_scenario(&Scenario::parse("p.toml", reach_weapon.clone()).unwrap()).is_ok());
    let adjacent = reach_weapon.replace("map = \"A.B\"", "map = \"AB\"");
    let err = Plan::from_scenario(&Scenario::parse("p.toml", adjacent).unwrap()).unwrap_err();
    assert!(
        err.to_string()
            .contains("a reach weapon cannot strike an adjacent creature"),
        "{err}"
    );
    let ranged = apart.replace("kind = \"melee\"", "kind = \"ranged\"");
    assert!(Plan::from_scenario(&Scenario::parse("p.toml", ranged).unwrap()).is_ok());
}

#[test]
fn higher_ground_comes_from_the_terrain_under_the_attacker() {
    let text = scenario("", "melee")
        .source
        .text
        .replace(
            "map = \"AB\"",
            "map = \"AB\"\n[legend]\n\"^\" = { elevation = 5 }",
        )
        .replace("token = \"A\"", "token = \"A\"\nterrain = \"^\"");
    let plan = Plan::from_scenario(&Scenario::parse("p.toml", text).unwrap()).unwrap();
    assert_eq!(
        plan.slots()[0].profile.bonus,
        7,
        "+6 and +1 for higher ground"
    );
}

#[test]
fn a_refused_line_keeps_what_planning_judged_of_it() {
    let apart = scenario("", "melee")
        .source
        .text
        .replace("map = \"AB\"", "map = \"A.B\"");
    let planned = Planned::from_scenario(&Scenario::parse("p.toml", apart).unwrap());
    let line = &planned.lines[0];
    let verdict = &line.map.as_ref().expect("a map").verdict;
    assert_eq!(verdict.distance_ft, 10);
    assert_eq!(verdict.reach.map(|r| r.threatens), Some(false));
    let refusal = line.made.as_ref().unwrap_err();
    assert!(refusal.message.contains("its reach is 5 ft"), "{refusal}");
    assert!(planned.plan.lines().is_empty());
}

#[test]
fn a_made_line_names_its_plan_line_and_overrides() {
    let planned = Planned::from_scenario(&scenario("cover = \"partial\"", "ranged"));
    let line = &planned.lines[0];
    let made = *line.made.as_ref().expect("made");
    let file_line = &scenario("cover = \"partial\"", "ranged").plan[0];
    assert_eq!(planned.plan.line(made).source, Some(file_line.span.clone()));
    assert_eq!(line.overridden.names(), ["cover"]);
    assert_eq!((line.attacker.token, line.target.token), ('A', 'B'));
    assert_eq!(planned.plan.line(made).modifiers.cover, CoverLevel::Partial);
}

/// The map's `improved` squares (arrow slits) count only where they block the lines
/// deciding the cover of an attack made with the map's cover: a plan where a slit stands
/// between the shooter and the target has no note; one where every slit stands aside, or
/// where the plan line sets its own cover, says so and names them.
#[test]
fn improved_squares_no_line_passes_are_noted() {
    let planned = |map: &str, plan_extra: &str| {
        let text = format!(
            r#"
system = "pf1"
map = """
{map}
"""
[legend]
"|" = {{ blocks = true, improved = true }}
[[combatant]]
token = "A"
ac = 15
[[combatant.attack]]
name = "bow"
kind = "ranged"
bonus = 6
damage = "1d8"
range_increment = 100
[[combatant]]
token = "B"
ac = 16
hp = 12
[[plan]]
attacker = "A"
target = "B"
attack = "bow"
{plan_extra}
"#
        );
        Plan::from_scenario(&Scenario::parse("p.toml", text).unwrap()).unwrap()
    };
    let note = |plan: &Plan| {
        (plan.notes().iter())
            .find(|n| n.contains("`improved`"))
            .cloned()
    };
    let through = "#####\nA.|.B\n#####";
    assert_eq!(note(&planned(through, "")), None);
    assert_eq!(
        note(&planned("..|..\nA...B\n.....", "")).as_deref(),
        Some(
            "The map's `improved` square at (2,0) blocks none of the lines that decide an attack's cover in this experiment, so no attack gets the cover it gives (`d20odds check` shows each plan line's cover lines)."
        )
    );
    let two = note(&planned("..|..\nA...B\n..|..", "")).unwrap();
    assert!(
        two.starts_with("The map's `improved` squares at (2,0), (2,2) block none"),
        "{two}"
    );
    let set_by_the_line = note(&planned(through, "cover = \"none\"")).unwrap();
    assert!(
        set_by_the_line.contains("at (2,1) blocks none"),
        "{set_by_the_line}"
    );
}

/// C shoots at O, who is in melee with C's ally F and clubs F in round 1, so F can be
/// down at C's shot in round 2. Without Precise Shot the shot takes −4 while F stands and
/// none once F is down, so the place watches F; with it the shot is the same either way,
/// so nothing is watched (the exact engine then follows O without F).
#[test]
fn a_fall_that_changes_no_attack_is_not_watched() {
    let allies_watched = |precise_shot: bool| {
        let text = format!(
            r#"
system = "pf1"
rounds = 2
map = "C..FO"
[[combatant]]
token = "C"
side = "party"
ac = 15
precise_shot = {precise_shot}
[[combatant.attack]]
name = "bow"
kind = "ranged"
bonus = 6
damage = "1d8"
range_increment = 100
[[combatant]]
token = "F"
side = "party"
ac = 15
hp = 8
con = 10
[[combatant.attack]]
name = "sword"
kind = "melee"
bonus = 5
damage = "1d8"
[[combatant]]
token = "O"
side = "monsters"
ac = 14
hp = 30
con = 10
[[combatant.attack]]
name = "club"
kind = "melee"
bonus = 5
damage = "1d10"
[[plan]]
attacker = "O"
target = "F"
attack = "club"
[[plan]]
attacker = "C"
target = "O"
attack = "bow"
"#
        );
        let plan = Plan::from_scenario(&Scenario::parse("p.toml", text).unwrap()).unwrap();
        let shot = (plan.places().iter())
            .find(|p| plan.lines()[plan.slots()[p.first()].line.index()].attack == "bow")
            .unwrap();
        shot.allies.len()
    };
    assert_eq!(allies_watched(false), 1);
    assert_eq!(allies_watched(true), 0);
}
