//! Hand-computed fractions for every kind of attack, against the exact tables and the dice.

use super::*;

/// Exact values are sums of products of small fractions; they must match the
/// hand-computed fraction to rounding error, not to a statistical tolerance.
fn assert_fraction(value: f64, numerator: i64, denominator: i64, what: &str) {
    let expected = numerator as f64 / denominator as f64;
    assert!(
        (value - expected).abs() <= 1e-12 * expected.abs().max(1.0),
        "{what}: {value} != {numerator}/{denominator}"
    );
}

fn check(profile: AttackProfile, hit: (i64, i64), crit: (i64, i64), mean: (i64, i64)) {
    let label = format!("{profile:?}");
    let t = profile.outcomes().unwrap();
    assert_fraction(t.p_hit(), hit.0, hit.1, &format!("p_hit {label}"));
    assert_fraction(t.p_crit(), crit.0, crit.1, &format!("p_crit {label}"));
    assert_fraction(t.mean_damage(), mean.0, mean.1, &format!("mean {label}"));
    assert_fraction(t.probs.iter().sum(), 1, 1, "total probability");
}

fn pf1(bonus: i32, ac: i32, damage: &str, crit: &str, miss: u8) -> AttackProfile {
    AttackProfile::pf1(
        bonus,
        ac,
        damage.parse().unwrap(),
        crit.parse().unwrap(),
        miss,
    )
}

#[test]
fn hand_computed_fractions() {
    // Issue example: hit on 11+ (1/2) × 4/5 = 2/5; threat 2/20 × confirm 1/2 × 4/5 = 1/25;
    // E = (9/25)·7.5 + (1/25)·15 = 33/10.
    check(
        pf1(7, 18, "1d8+3", "19-20/x2", 20),
        (2, 5),
        (1, 25),
        (33, 10),
    );
    // Needs a natural 20: hit 1/20, confirm only on a 20: crit 1/400.
    // E = (19/400)·3.5 + (1/400)·7 = 73.5/400 = 147/800.
    check(pf1(0, 40, "1d6", "20/x2", 0), (1, 20), (1, 400), (147, 800));
    // Hits on anything but a 1 (19/20); 18-20 threat (3/20) × 19/20; ×3 of 2d6+4 (mean 33).
    // p_crit = 57/400; p_hit only = 19/20 - 57/400 = 323/400;
    // E = (323/400)·11 + (57/400)·33 = (3553 + 1881)/400 = 5434/400 = 2717/200.
    check(
        pf1(30, 10, "2d6+4", "18-20/x3", 0),
        (19, 20),
        (57, 400),
        (2717, 200),
    );
    // Minimum damage: 1d4-3 deals 1 on every hit; +5 vs 15 hits on 10+ (11/20),
    // crit 1/20 × 11/20 = 11/400; a crit rolls 2d4-6, which is 2 only on 8 (1/16), else 1.
    // E = (209/400)·1 + (11/400)·(17/16) = 3531/6400.
    check(
        pf1(5, 15, "1d4-3", "20/x2", 0),
        (11, 20),
        (11, 400),
        (3531, 6400),
    );
    // Total concealment 50%: +10 vs 20 hits 11/20 → 11/40; crit 1/20·11/20·1/2 = 11/800.
    // E = (11/40 - 11/800)·2 + (11/800)·4 = (209/800)·2 + 44/800 = 462/800 = 231/400.
    check(
        pf1(10, 20, "2", "20/x2", 50),
        (11, 40),
        (11, 800),
        (231, 400),
    );
    // The same, its square not pinpointed: 1 right square of 9 → everything × 1/9.
    let mut guessing = pf1(10, 20, "2", "20/x2", 50);
    guessing.guess = SquareGuess {
        right: 1,
        candidates: 9,
    };
    check(guessing, (11, 360), (11, 7200), (231, 3600));
}

#[test]
fn crit_immune_targets_take_no_crits() {
    let mut profile = pf1(10, 15, "1d8", "19-20/x2", 0);
    profile.crits_possible = false;
    check(profile, (16, 20), (0, 1), (72, 20));
}

#[test]
fn extra_dice_and_dr_are_not_multiplied() {
    // +0 against 11: hits 1/2, crits 1/40. 1d4+2 plus 1d6 never doubled, DR 5: a hit
    // deals max(1d4+1d6+2 − 5, 0) (mean 3 + 1/24 for the total of 2 that would be −1),
    // a crit 2d4+1d6+4 − 5 ≥ 1 (mean 15/2): 19/40 · 73/24 + 1/40 · 15/2 = 1567/960.
    let mut profile = pf1(0, 11, "1d4+2", "20/x2", 0);
    profile.extra = "1d6".parse().unwrap();
    profile.dr = 5;
    check(profile, (1, 2), (1, 40), (1567, 960));
}

#[test]
fn a_failed_massive_damage_save_is_an_outcome() {
    // Hits 19/20 for 1d20 (crit-immune); more than Con 10 on 11..20 (1/2), Fort +4
    // against DC 15 fails on 1..10 (1/2): dropped 19/80, with the damage unchanged.
    let mut profile = pf1(100, 10, "1d20", "20/x2", 0);
    profile.crits_possible = false;
    profile.massive = Some(MassiveCheck {
        over: 10,
        fort: 4,
        dc: 15,
    });
    let table = profile.outcomes().unwrap();
    let dropped: f64 = (0..table.probs.len())
        .filter(|&i| table.layout.drops(i))
        .map(|i| table.probs[i])
        .sum();
    assert_fraction(dropped, 19, 80, "dropped");
    check(profile, (19, 20), (0, 1), (399, 40));
}

#[test]
fn a_grappling_partner_takes_half_of_the_attacks_as_struck_outcomes() {
    // Half the attacks at the target: +5 vs 13 hits on 8+ (13/20), crits 1/20 · 13/20
    // → 13/40 and 13/800. Half at the partner (AC 16, DR 2): hits on 11+, struck
    // 1/2 · 1/2 = 1/4; crits (a 20 confirmed on 11+) 1/40 of its attacks. Struck
    // damage per attack: 1/2 · (19/40 · (7 − 2) + 1/40 · (14 − 2)) = 107/80.
    let mut profile = pf1(5, 13, "2d6", "20/x2", 0);
    let mut partner = pf1(5, 16, "2d6", "20/x2", 0);
    partner.dr = 2;
    profile.grappling_partner = Some(Box::new(partner));
    let table = profile.outcomes().unwrap();
    assert_fraction(table.p_struck(), 1, 4, "p_struck");
    assert_fraction(table.mean_struck_damage(), 107, 80, "struck damage");
    check(profile.clone(), (13, 40), (13, 800), (1911, 800));
    let layout = table.layout;
    assert_eq!(layout, profile.layout());
    assert_eq!(layout.max_struck_damage(), 22);
    for i in 0..layout.len() {
        assert_eq!(layout.index(layout.outcome(i)), i);
    }
    use rand::SeedableRng;
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(5);
    let struck = (0..20_000)
        .map(|_| profile.roll(&mut rng))
        .inspect(|&o| assert!(table.probs[layout.index(o)] > 0.0, "{o:?}"))
        .filter(|o| matches!(o, Outcome::Struck(_)))
        .count();
    assert!((4_700..5_300).contains(&struck), "{struck} struck of 20000");
}

#[test]
fn outcome_indices_round_trip() {
    let profile = pf1(7, 18, "1d8+3", "19-20/x2", 20);
    let t = profile.outcomes().unwrap().layout;
    assert_eq!(t, profile.layout());
    assert_eq!(t.len(), 1 + 8 + 15);
    for i in 0..t.len() {
        assert_eq!(t.index(t.outcome(i)), i);
    }
    assert_eq!(t.outcome(1), Outcome::Hit(4));
    assert_eq!(t.outcome(9), Outcome::Crit(8));
    assert_eq!(t.max_damage(), 22);
}

#[test]
fn rolled_outcomes_lie_in_the_table() {
    use rand::SeedableRng;
    let profile = pf1(7, 18, "1d8+3", "19-20/x2", 20);
    let table = profile.outcomes().unwrap();
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(3);
    for _ in 0..10_000 {
        let index = table.layout.index(profile.roll(&mut rng));
        assert!(table.probs[index] > 0.0);
    }
}
