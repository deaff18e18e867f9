//! Monte Carlo against the exact engine: every figure of ≥ 30 generated plans, through
//! both samplers, must lie within 5 standard errors of its exact value.
//!
//! A proportion is z-tested where the normal approximation holds (n·p·(1−p) ≥ 25); an
//! impossible or certain event (p = 0 or 1) must be observed exactly so; rare events in
//! between are left to the figures that aggregate them.

use d20odds::{
    AreaSave, CoverLevel, Covering, EngineConfig, Evasion, Exact, Grappler, LineAttack,
    LineDefence, MeanSample, Plan, PlanBuilder, Portion, Proportion, Resolution, RuleSet,
    SamplerKind, SaveKind, Situation, SquareGuess, SystemId, Tally, Target, TargetId, Vitals,
    compute_exact, massive_check, mean_z, proportion_z, simulate,
};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;

const Z_BOUND: f64 = 5.0;
const TRIALS: u64 = 150_000;

/// A random but valid plan in one of the four systems: one or two targets, one to three
/// lines, iteratives, hp, Con, rounds, crit ranges and multipliers, miss chances, damage
/// expressions, coups de grace on helpless targets (over two rounds under total
/// concealment where the system says so), guessed squares under total concealment, area
/// attacks with saves, cover and evasion, d20 Modern attacks that can strike the
/// other target when it gives soft cover, d20 Modern shots at a target grappling the other
/// one (which they strike half the time), extra and precision dice (flanked, flat-footed
/// or immune targets), damage reduction, d20 Modern massive damage, Starfinder Stamina
/// and Resolve, and attacks made by the other target, which stop once it is down (a
/// disabled one attacks once, then pays 1 hp).
fn generated_plan(rng: &mut Pcg64Mcg, seed: u64) -> Plan {
    // Plan 0 (pf1) always opens with a coup de grace under total concealment over two
    // rounds, and plan 2 (d20 Modern) with a shot at a grappling pair, so every run has
    // both whatever the other draws.
    let two_round_coup = seed == 0;
    let grapple_shot = seed == 2;
    let rounds = if two_round_coup {
        2
    } else {
        rng.random_range(1..=3)
    };
    let system = SystemId::ALL[seed as usize % SystemId::ALL.len()];
    let rules = system.rules();
    let starfinder = system == SystemId::Starfinder;
    let mut plan = PlanBuilder::new("generated", system, rounds);
    let targets = if grapple_shot {
        2
    } else {
        rng.random_range(1..=2)
    };
    let mut ids = Vec::new();
    let mut cons = Vec::new();
    for t in 0..targets {
        let hp = rng.random_range(5..=40);
        let con = (!starfinder && rng.random_bool(0.5)).then(|| rng.random_range(3..=14));
        let vitals = Vitals {
            hp: Some(hp),
            con,
            stamina: if starfinder {
                rng.random_range(0..=12)
            } else {
                0
            },
            resolve: starfinder && rng.random_bool(0.5),
        };
        ids.push(plan.add_target(Target::for_system(rules, format!("T{t}"), vitals)));
        cons.push(con);
    }
    let damages = ["1d8+3", "2d6+4", "1d4-2", "1d12", "3d6", "1d6+1d4+2", "5"];
    let crits = [
        "20/x2", "19-20/x2", "18-20/x2", "20/x3", "20/x4", "19-20/x3",
    ];
    for line in 0..rng.random_range(1..=3) {
        let forced = two_round_coup && line == 0;
        let shot_at_grappler = grapple_shot && line == 0;
        if !forced && !shot_at_grappler && rng.random_bool(0.15) {
            add_area_line(&mut plan, rng, rules, &ids, &cons, damages);
            continue;
        }
        let first = rng.random_range(-2..=16);
        let iteratives = rng.random_range(1..=3);
        let coup_de_grace = forced || (!shot_at_grappler && rng.random_bool(0.2));
        let mut attack = LineAttack::plain(
            "A",
            "a",
            coup_de_grace || (!shot_at_grappler && rng.random_bool(0.5)),
            (0..iteratives).map(|i| first - 5 * i).collect(),
            damages[rng.random_range(0..damages.len())].parse().unwrap(),
            crits[rng.random_range(0..crits.len())].parse().unwrap(),
        );
        let mut defence = LineDefence::plain(
            ids[rng.random_range(0..targets)],
            rng.random_range(10..=26),
            rng.random_bool(0.15) && (!coup_de_grace || rules.coup_de_grace.crit_immune_normal_hit),
        );
        if coup_de_grace {
            attack.coup_de_grace = Some(rng.random_range(1..=12));
            defence.conditions = vec![rules.condition("helpless").unwrap()];
        }
        defence.fort = rng.random_range(-2..=12);
        defence.con = cons[defence.target.index()];
        add_damage_terms(rng, rules, &mut attack, &mut defence);
        let mut concealment = if forced {
            50
        } else {
            [0, 0, 20, 50, 35][rng.random_range(0..5)]
        };
        if coup_de_grace && rounds < 2 {
            concealment = concealment.min(35);
        }
        // Total concealment, sometimes without the square pinpointed: a guess among 9 (a
        // Medium target in the open) or 16 (Large) squares.
        let guess = (concealment == 50 && rng.random_bool(0.5))
            .then(|| [(1, 9), (4, 16)][rng.random_range(0..2)])
            .map(|(right, candidates)| SquareGuess { right, candidates });
        let mut situation = Situation {
            concealment: Some(concealment),
            guess,
            flanking: Some(rng.random_bool(0.3)),
            distance_ft: Some(rng.random_range(1..=8) * 5),
            ..Situation::default()
        };
        let grappling = rules.ranged.random_grappler.filter(|_| {
            targets == 2 && !attack.melee && (shot_at_grappler || rng.random_bool(0.5))
        });
        if let Some(condition) = grappling {
            // One shot per line: the pair's joint state (each one's damage taken) then
            // stays within the exact engine's bound over three rounds.
            attack.bonuses.truncate(1);
            add_grappler(rng, rules, condition, (&ids, &cons), &mut defence);
        } else if rules.striking_the_cover && targets == 2 && !coup_de_grace && rng.random_bool(0.6)
        {
            let cover = 1 - defence.target.index();
            situation.cover = Some(CoverLevel::Soft);
            situation.covering = Some(Covering {
                target: ids[cover],
                defense: rng.random_range(10..=22),
                dex: rng.random_range(-1..=4),
                dr: [0, 0, 3][rng.random_range(0..3)],
                massive: massive_check(rules, cons[cover], rng.random_range(-1..=8)),
            });
        }
        let other = (targets == 2).then(|| ids[1 - defence.target.index()]);
        let made = (plan.add_line(rules, attack, defence, situation, None)).unwrap();
        if let Some(other) = other.filter(|_| rng.random_bool(0.4)) {
            plan.attacker_is_target(made, other);
        }
    }
    plan.build()
}

/// The other target as the one the defender is grappling with: both have the system's
/// grappling condition (each loses its Dex bonus), the grappler its own Defense, Dex, DR,
/// massive-damage check and line (concealment, a guessed square). `targets` are the two
/// targets' ids and Con scores.
fn add_grappler(
    rng: &mut Pcg64Mcg,
    rules: &RuleSet,
    condition: &str,
    (ids, cons): (&[TargetId], &[Option<i64>]),
    defence: &mut LineDefence,
) {
    let grappling = rules.condition(condition).unwrap();
    defence.conditions.push(grappling);
    defence.dex = rng.random_range(-1..=4);
    let other = 1 - defence.target.index();
    let mut theirs =
        LineDefence::plain(ids[other], rng.random_range(10..=24), rng.random_bool(0.15));
    theirs.dex = rng.random_range(-1..=4);
    theirs.conditions = vec![grappling];
    theirs.dr = [0, 0, 3][rng.random_range(0..3)];
    theirs.con = cons[other];
    theirs.fort = rng.random_range(-1..=8);
    let concealment = [0, 20, 50][rng.random_range(0..3)];
    defence.grappling = Some(Box::new(Grappler {
        label: format!("T{other}"),
        defence: theirs,
        situation: Situation {
            concealment: Some(concealment),
            guess: (concealment == 50).then_some(SquareGuess {
                right: 1,
                candidates: 9,
            }),
            ..Situation::default()
        },
    }));
}

/// An area attack on a random target (of `ids`, whose Con scores are `cons`): any save,
/// DC, cover level of the system, evasion.
fn add_area_line(
    plan: &mut PlanBuilder,
    rng: &mut Pcg64Mcg,
    rules: &RuleSet,
    ids: &[TargetId],
    cons: &[Option<i64>],
    damages: [&str; 7],
) {
    let mut attack = LineAttack::plain(
        "A",
        "area",
        false,
        vec![0],
        damages[rng.random_range(0..damages.len())].parse().unwrap(),
        Default::default(),
    );
    attack.area = Some(AreaSave {
        save: [
            SaveKind::Reflex,
            SaveKind::Reflex,
            SaveKind::Fort,
            SaveKind::Will,
        ][rng.random_range(0..4)],
        dc: rng.random_range(8..=25),
        on_save: [Portion::Half, Portion::Half, Portion::Nothing][rng.random_range(0..3)],
    });
    let mut defence = LineDefence::plain(ids[rng.random_range(0..cons.len())], 15, false);
    defence.con = cons[defence.target.index()];
    defence.reflex = rng.random_range(-1..=12);
    defence.fort = rng.random_range(-1..=12);
    defence.will = rng.random_range(-1..=12);
    defence.evasion = [
        Evasion::None,
        Evasion::None,
        Evasion::Evasion,
        Evasion::Improved,
    ][rng.random_range(0..4)];
    let cover = rules.cover[rng.random_range(0..rules.cover.len())].level;
    let situation = Situation {
        cover: Some(cover),
        ..Situation::default()
    };
    (plan.add_line(rules, attack, defence, situation, None)).unwrap();
}

/// Extra and precision dice on the attack (precision against a flat-footed, flanked or
/// immune target, in the systems that have it), and the target's damage reduction.
fn add_damage_terms(
    rng: &mut Pcg64Mcg,
    rules: &RuleSet,
    attack: &mut LineAttack,
    defence: &mut LineDefence,
) {
    let dice = ["1d6", "2d4", "1d4+1", "3d6"];
    if rng.random_bool(0.4) {
        attack.extra_damage = dice[rng.random_range(0..dice.len())].parse().unwrap();
    }
    if rng.random_bool(0.5) {
        attack.precision = dice[rng.random_range(0..dice.len())].parse().unwrap();
    }
    attack.bypass_dr = rng.random_bool(0.2);
    defence.dr = [0, 0, 2, 5][rng.random_range(0..4)];
    defence.immune_to_precision = rng.random_bool(0.1);
    if let Some(flat_footed) = rules.condition("flat-footed")
        && rng.random_bool(0.4)
    {
        defence.conditions.push(flat_footed);
    }
}

/// Smallest n·p·(1−p) at which a proportion is z-tested.
const MIN_VARIANCE_COUNT: f64 = 25.0;

/// Adds a proportion's z-score where it is meaningful (see the module comment).
fn push_proportion(out: &mut Vec<(String, f64)>, what: String, counted: Proportion, p: f64) {
    let Proportion { successes, trials } = counted;
    let certain = p == 0.0 || p == 1.0;
    if certain || trials as f64 * p * (1.0 - p) >= MIN_VARIANCE_COUNT {
        out.push((what, proportion_z(successes, trials, p)));
    }
}

/// Every z-score of a run against the exact figures, labelled.
/// Fewer attacks than this give no z-score: a handful of draws can all miss, and a
/// sample with no variance says nothing about the mean.
const MIN_ATTACKS_FOR_Z: u64 = 100;

fn z_scores(plan: &Plan, tally: &Tally, exact: &Exact) -> Vec<(String, f64)> {
    let mut out = Vec::new();
    for (i, slot) in plan.slots().iter().enumerate() {
        let e = exact.slots[i].expect("small plans are computed exactly");
        let attacks = tally.slot(plan, i);
        if attacks.made() < MIN_ATTACKS_FOR_Z {
            // (Nearly) every trial killed the target before this attack (a sure coup de
            // grace): too few attacks for a normal approximation, and the target's p_dead
            // below says so.
            continue;
        }
        push_proportion(&mut out, format!("slot {i} p_hit"), attacks.hit(), e.p_hit);
        push_proportion(
            &mut out,
            format!("slot {i} p_crit"),
            attacks.crit(),
            e.p_crit,
        );
        out.push((
            format!("slot {i} mean"),
            sample_z(attacks.damage(), e.mean_damage),
        ));
        if slot.profile.layout().can_strike() {
            push_proportion(
                &mut out,
                format!("slot {i} p_struck"),
                attacks.struck(),
                e.p_struck,
            );
            out.push((
                format!("slot {i} struck mean"),
                sample_z(attacks.struck_damage(), e.mean_struck_damage),
            ));
        }
    }
    for (id, t) in plan.target_ids().zip(0..) {
        let e = exact.target(id).expect("small plans are computed exactly");
        for r in 0..plan.rounds() as usize {
            let x = e.rounds[r];
            let counted = tally.round(id, r);
            push_proportion(
                &mut out,
                format!("T{t} r{r} p_down"),
                counted.down,
                x.p_down,
            );
            push_proportion(
                &mut out,
                format!("T{t} r{r} p_dead"),
                counted.dead,
                x.p_dead,
            );
            out.push((
                format!("T{t} r{r} mean"),
                sample_z(counted.damage, x.mean_damage),
            ));
        }
        let hist: Vec<Proportion> = tally.damage_taken(id).collect();
        for (d, &p) in e.damage.iter().enumerate() {
            push_proportion(&mut out, format!("T{t} damage={d}"), hist[d], p);
        }
    }
    out
}

/// How many standard errors a sampled mean lies from an exact mean.
fn sample_z(sample: MeanSample, exact: f64) -> f64 {
    mean_z(sample.sum, sample.squares, sample.n, exact)
}

fn check_agreement(sampler: SamplerKind) {
    let mut rng = Pcg64Mcg::seed_from_u64(2026);
    let mut checked = 0;
    let mut kinds = [0; 8];
    for case in 0..32 {
        let plan = generated_plan(&mut rng, case);
        for slot in plan.slots() {
            kinds[0] += usize::from(matches!(slot.profile.resolution, Resolution::Save { .. }));
            kinds[1] += usize::from(slot.profile.layout().can_strike());
            kinds[2] += usize::from(slot.period > 1);
            kinds[3] += usize::from(slot.profile.layout().can_drop());
            kinds[4] += usize::from(!slot.profile.extra.is_zero() && slot.profile.dr > 0);
            kinds[7] += usize::from(slot.profile.grappling_partner.is_some());
        }
        kinds[5] += plan
            .lines()
            .iter()
            .filter(|l| l.modifiers.precision)
            .count();
        kinds[6] += plan
            .targets()
            .iter()
            .filter(|t| t.overflow_kills.is_some())
            .count();
        let config = EngineConfig {
            sampler,
            ..EngineConfig::new(case, TRIALS)
        };
        let tally = simulate(&plan, &config, &|_| ());
        let exact = compute_exact(&plan);
        for (what, z) in z_scores(&plan, &tally, &exact) {
            assert!(
                z.abs() <= Z_BOUND,
                "case {case} {sampler:?} {what}: z = {z:.2}\n{plan:#?}"
            );
            checked += 1;
        }
    }
    assert!(checked > 1000, "only {checked} figures checked");
    assert!(
        kinds.iter().all(|&k| k > 0),
        "area saves, cover strikes, two-round attacks, massive damage, extra dice against DR, precision, Resolve, shots at grapplers generated: {kinds:?}"
    );
}

#[test]
fn table_sampler_agrees_with_exact() {
    check_agreement(SamplerKind::Table);
}

#[test]
fn dice_sampler_agrees_with_exact() {
    check_agreement(SamplerKind::Dice);
}

#[test]
fn a_wrong_exact_value_is_caught() {
    // The check must be able to fail: shift one exact probability by 1% and it does.
    // The first generated plan with an attack whose hit chance a 1% shift can move, made
    // often enough to be compared (plan 0 opens with a sure coup de grace).
    let mut rng = Pcg64Mcg::seed_from_u64(2026);
    let (plan, tally, mut exact, slot) = (0..)
        .find_map(|seed| {
            let plan = generated_plan(&mut rng, seed);
            let tally = simulate(&plan, &EngineConfig::new(seed, TRIALS), &|_| ());
            let exact = compute_exact(&plan);
            let slot = (0..plan.slots().len()).find(|&i| {
                let p = exact.slots[i].unwrap().p_hit;
                (0.05..0.95).contains(&p) && tally.slot(&plan, i).made() >= MIN_ATTACKS_FOR_Z
            })?;
            Some((plan, tally, exact, slot))
        })
        .unwrap();
    let slot = exact.slots[slot].as_mut().unwrap();
    slot.p_hit += 0.01;
    let worst = z_scores(&plan, &tally, &exact)
        .into_iter()
        .map(|(_, z)| z.abs())
        .fold(0.0, f64::max);
    assert!(worst > Z_BOUND, "worst z {worst}");
}
