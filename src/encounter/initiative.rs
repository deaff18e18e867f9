//! Turn order: rolled each trial (d20 + init; ties by higher init, then at random) or as
//! listed. Monte Carlo draws one order per trial; the exact engine weighs every order.

use rand::Rng;

use crate::scenario::bounded::MAX_MODIFIER;

/// Combatants in turn order, highest total first: `init` per combatant, `rolls` its d20s,
/// `tie_breaks` a random key each (used only between equal totals and equal `init`, by
/// its top 28 bits: see [`key`]).
pub(super) fn order_of(init: &[i32], rolls: &[i32], tie_breaks: &[u64]) -> Vec<usize> {
    let (mut keyed, mut order) = (Vec::new(), Vec::new());
    let draws = rolls.iter().copied().zip(tie_breaks.iter().copied());
    order_into(init, draws, &mut keyed, &mut order);
    order
}

/// [`order_of`] into `order`, from each combatant's d20 and tie break in `draws` (taken in
/// combatant order), each combatant's [`key`] kept in `keyed`.
fn order_into(
    init: &[i32],
    draws: impl IntoIterator<Item = (i32, u64)>,
    keyed: &mut Vec<u64>,
    order: &mut Vec<usize>,
) {
    keyed.clear();
    keyed.extend(
        (init.iter().zip(draws).enumerate())
            .map(|(index, (&init, (roll, tie_break)))| key(init, roll, tie_break, index)),
    );
    place(keyed, order);
}

/// Writes the combatants into `order`, the first to act first, by `keyed` (each
/// combatant's [`key`], every one different). Each combatant's place is the count of
/// keys below its own, without a branch: a trial places a handful of combatants whose
/// order is at random, where a sort's branches would be mispredicted (n² comparisons:
/// 64 for a party of four against four, 2,704 for the most combatants a fight holds).
fn place(keyed: &[u64], order: &mut Vec<usize>) {
    order.clear();
    order.resize(keyed.len(), 0);
    for (i, key) in keyed.iter().enumerate() {
        let place = keyed.iter().map(|k| usize::from(k < key)).sum::<usize>();
        order[place] = i;
    }
}

/// Bits a [`key`] gives each of the total and `init`, offset by [`MAX_MODIFIER`]: `init`
/// is within ±`MAX_MODIFIER`, so both are then within [0, 2·`MAX_MODIFIER` + 20].
const SCORE_BITS: u32 = 15;
/// Bits a [`key`] gives the combatant's index: a fight has at most 52 combatants.
const INDEX_BITS: u32 = 6;
/// The tie break's top bits a [`key`] keeps, the rest of the word: two tied combatants
/// whose breaks share them (a chance of 2⁻²⁸) go in file order.
const TIE_BITS: u32 = 64 - 2 * SCORE_BITS - INDEX_BITS;
const _: () = assert!(2 * MAX_MODIFIER + 20 < 1 << SCORE_BITS && 52 <= 1 << INDEX_BITS);

/// What orders a combatant's place, in one word, lowest first: the total and `init`
/// descending, then the tie break, then the combatant's index (file order), so that no
/// two keys are equal.
fn key(init: i32, roll: i32, tie_break: u64, index: usize) -> u64 {
    let descending = |x: i32| u64::from((1 << SCORE_BITS) - 1 - (x + MAX_MODIFIER) as u32);
    (descending(roll + init) << SCORE_BITS | descending(init)) << (TIE_BITS + INDEX_BITS)
        | (tie_break >> (64 - TIE_BITS)) << INDEX_BITS
        | index as u64
}

/// A trial's rolled order, into `order`: one word per combatant, in file order, gives
/// its d20 and its tie break ([`d20_and_tie_break`]). `keyed` (each combatant's [`key`])
/// is kept by the caller so that a trial allocates nothing.
pub(super) fn roll<R: Rng>(
    init: &[i32],
    rng: &mut R,
    keyed: &mut Vec<u64>,
    order: &mut Vec<usize>,
) {
    let draws = init.iter().map(|_| d20_and_tie_break(rng.next_u64()));
    order_into(init, draws, keyed, order);
}

/// A d20 and a tie break from one `word`: the d20 is which of 20 equal parts of
/// [0, 2^64) the word falls in (the high half of word × 20), the tie break where in its
/// part (the low half). A part holds ⌊2^64/20⌋ or ⌈2^64/20⌉ words, so each face comes up
/// with probability 1/20 to within 2^-64. One draw serves both, where a d20 drawn alone
/// (with rejection) and a word for its tie break took two (a third of a party trial's
/// initiative cost).
fn d20_and_tie_break(word: u64) -> (i32, u64) {
    let product = u128::from(word) * 20;
    ((product >> 64) as i32 + 1, product as u64)
}

/// Every rolled order with its probability: all 20^n rolls, each tie group's orders
/// equally likely. `n` must be small (see [`super::MAX_EXACT_FIGHTERS_ROLLED`]).
pub(super) fn every_order(init: &[i32]) -> Vec<(Vec<usize>, f64)> {
    let n = init.len();
    let mut weights: std::collections::BTreeMap<Vec<usize>, f64> = Default::default();
    let combos = 20usize.pow(n as u32);
    let p_combo = 1.0 / combos as f64;
    let mut rolls = vec![1; n];
    for mut code in 0..combos {
        for r in rolls.iter_mut() {
            *r = (code % 20) as i32 + 1;
            code /= 20;
        }
        let tied = tie_orders(init, &rolls);
        let share = p_combo / tied.len() as f64;
        for order in tied {
            *weights.entry(order).or_default() += share;
        }
    }
    weights.into_iter().collect()
}

/// Every order these rolls give, one per way of breaking the ties.
fn tie_orders(init: &[i32], rolls: &[i32]) -> Vec<Vec<usize>> {
    let base = order_of(init, rolls, &vec![0; init.len()]);
    let key = |i: usize| (rolls[i] + init[i], init[i]);
    let mut orders = vec![Vec::new()];
    let mut start = 0;
    while start < base.len() {
        let end = (start..base.len())
            .find(|&j| key(base[j]) != key(base[start]))
            .unwrap_or(base.len());
        let group = &base[start..end];
        orders = orders
            .into_iter()
            .flat_map(|prefix| {
                permutations(group).into_iter().map(move |p| {
                    let mut o = prefix.clone();
                    o.extend(p);
                    o
                })
            })
            .collect();
        start = end;
    }
    orders
}

fn permutations(items: &[usize]) -> Vec<Vec<usize>> {
    if items.len() <= 1 {
        return vec![items.to_vec()];
    }
    (0..items.len())
        .flat_map(|i| {
            let mut rest = items.to_vec();
            let first = rest.remove(i);
            permutations(&rest).into_iter().map(move |mut p| {
                p.insert(0, first);
                p
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::RngExt;

    /// Two combatants, init +2 and +0: A goes first unless B's d20 beats A's by 3 or more.
    /// P(B first) = #{(a, b): b ≥ a + 3} / 400 = (17·18/2) / 400 = 153/400; a total tie
    /// (b = a + 2, 18 pairs) goes to the higher init.
    #[test]
    fn two_rolled_orders() {
        let orders = every_order(&[2, 0]);
        assert_eq!(orders.len(), 2);
        let b_first = orders.iter().find(|(o, _)| o[0] == 1).expect("B first").1;
        assert!((b_first - 153.0 / 400.0).abs() < 1e-12, "{b_first}");
    }

    /// Equal init: a tie on the total (20 pairs of 400) is a coin flip, so each is first
    /// half the time. In a trial the lower tie break goes first, by its top 28 bits
    /// (B's 3·2^40 against A's 5·2^40); breaks that share those go in file order.
    #[test]
    fn equal_ties_split_evenly() {
        let orders = every_order(&[1, 1]);
        for (_, p) in &orders {
            assert!((p - 0.5).abs() < 1e-12);
        }
        assert_eq!(
            order_of(&[1, 1], &[10, 10], &[5 << 40, 3 << 40]),
            vec![1, 0]
        );
        assert_eq!(order_of(&[1, 1], &[10, 10], &[5, 3]), vec![0, 1]);
    }

    /// Combatants go by total, then `init`, then tie break, then file order: [`place`]
    /// of their [`key`]s against a sort by those, on 2,000 sets of eight combatants whose
    /// d20s are drawn from {1, 2, 20}, inits from {−10,000, 0, 1, 10,000} and tie breaks
    /// from three values (so most sets tie on the total, inits 0 and 1 tie on it with
    /// rolls 2 and 1, which init then decides, and many tie on every field); the inits
    /// and totals reach both ends of their range.
    #[test]
    fn places_are_a_sort_by_total_init_tie_break_then_file_order() {
        use rand::SeedableRng;
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(3);
        let mut order = Vec::new();
        let inits = [-MAX_MODIFIER, 0, 1, MAX_MODIFIER];
        let rolls = [1, 2, 20];
        let breaks = [0, 1 << 40, u64::MAX];
        for _ in 0..2_000 {
            let drawn: Vec<(i32, i32, u64)> = (0..8)
                .map(|_| {
                    let init = inits[rng.random_range(0..4)];
                    (
                        init,
                        rolls[rng.random_range(0..3)],
                        breaks[rng.random_range(0..3)],
                    )
                })
                .collect();
            let keys: Vec<u64> = (drawn.iter().enumerate())
                .map(|(i, &(init, roll, tie_break))| key(init, roll, tie_break, i))
                .collect();
            place(&keys, &mut order);
            let mut sorted: Vec<usize> = (0..8).collect();
            sorted.sort_by_key(|&i| {
                let (init, roll, tie_break) = drawn[i];
                (-(roll + init), -init, tie_break, i)
            });
            assert_eq!(order, sorted, "{drawn:?}");
        }
    }

    /// A trial's rolled order is [`order_of`] its own draws (a word per combatant, its
    /// d20 and tie break), on 10,000 trials of six combatants whose inits tie in pairs
    /// (so totals tie often, and so do inits).
    #[test]
    fn a_trials_order_is_the_order_of_its_draws() {
        use rand::SeedableRng;
        let init = [3, 3, 0, 0, -2, -2];
        let (mut rng, mut keyed, mut order) =
            (rand_pcg::Pcg64Mcg::seed_from_u64(7), vec![], vec![]);
        for _ in 0..10_000 {
            let mut replay = rng.clone();
            roll(&init, &mut rng, &mut keyed, &mut order);
            let (d20s, breaks): (Vec<i32>, Vec<u64>) = init
                .iter()
                .map(|_| d20_and_tie_break(replay.next_u64()))
                .unzip();
            assert_eq!(order, order_of(&init, &d20s, &breaks));
        }
    }

    /// The word that starts face k + 1 is ⌈k·2^64/20⌉ (k = 0, …, 19), the one before it
    /// is face k's, and the tie break climbs from the start of a part: the parts are
    /// 20 runs of consecutive words, each ⌊2^64/20⌋ = 922,337,203,685,477,580 or one more
    /// long, so each face's chance is 1/20 to within 2^-64.
    #[test]
    fn a_word_gives_each_face_one_twentieth_of_the_words() {
        let part_start = |k: u128| u64::try_from((k << 64).div_ceil(20)).unwrap();
        assert_eq!(d20_and_tie_break(0), (1, 0));
        assert_eq!(d20_and_tie_break(u64::MAX).0, 20);
        for k in 1..20u128 {
            let start = part_start(k);
            assert_eq!(d20_and_tie_break(start).0, k as i32 + 1);
            assert_eq!(d20_and_tie_break(start - 1).0, k as i32);
            let length = start - part_start(k - 1);
            assert!((922_337_203_685_477_580..=922_337_203_685_477_581).contains(&length));
            let (first, next) = (d20_and_tie_break(start).1, d20_and_tie_break(start + 1).1);
            assert_eq!(next - first, 20);
        }
    }
}
