//! The exact fight: the probability of every reachable state after every turn, for each
//! turn order on its own (in parallel; the orders' figures are summed in order, so the
//! result does not depend on the threads). A state is every combatant's standing; each
//! turn follows every branch of
//! [`Fight::advance`]'s chances and merges equal states. A fight that has ended leaves the
//! state set for running totals (it no longer changes), so the set holds only fights
//! still going. Means (damage taken and dealt) are sums of probability × damage over
//! every attack's branches, which is their expectation.
//!
//! Bounded: at most [`MAX_EXACT_STATES`] states after any turn (per order), at most
//! [`MAX_EXACT_WORK`] states after every turn of every order together, and rolled
//! initiative for at most [`MAX_EXACT_FIGHTERS_ROLLED`] combatants (20^n rolls); past any
//! of them, there are no exact figures and the reason says which bound.

use std::sync::atomic::{AtomicUsize, Ordering};

use rayon::prelude::*;

use super::states::States;
use super::turn::{Pending, Standing, Status, Turn};
use super::{Fight, ProfileId, initiative};
use crate::scenario::Initiative;

/// Most states the exact engine keeps after a turn.
pub const MAX_EXACT_STATES: usize = 1 << 20;
/// Most states the exact engine goes through, summed over every turn of every turn order:
/// about 10 s on two cores. A fight of four or five with rolled initiative can need
/// minutes past it, where a quick look at a few thousand trials would wait on it.
pub const MAX_EXACT_WORK: usize = 1 << 23;
/// Most combatants whose rolled initiative the exact engine enumerates (20^5 rolls).
pub const MAX_EXACT_FIGHTERS_ROLLED: usize = 5;

/// The exact figures of a fight, per round (index 0 is round 1).
#[derive(Debug, Clone, PartialEq)]
pub struct ExactFight {
    /// [round][fighter][status].
    pub status: Vec<Vec<[f64; 5]>>,
    /// [round][side, then nobody]: won by the end of the round.
    pub won: Vec<Vec<f64>>,
    /// [round][fighter]: mean damage taken by the end of the round.
    pub taken: Vec<Vec<f64>>,
    /// [round][fighter]: mean damage dealt by the end of the round.
    pub dealt: Vec<Vec<f64>>,
    /// [round]: P(the fight ended in it).
    pub ended_in: Vec<f64>,
    /// [side]: P(at the end a member is not able to act).
    pub lost_down: Vec<f64>,
    /// [side]: P(at the end a member is dead).
    pub lost_dead: Vec<f64>,
    /// [profile] (see [`Fight::attacks`]): mean attacks made with it in a fight.
    pub made: Vec<f64>,
}

/// Running totals of the fights that have ended.
struct Ended {
    status: Vec<[f64; 5]>,
    won: Vec<f64>,
    lost_down: Vec<f64>,
    lost_dead: Vec<f64>,
}

/// The fight's exact figures, or why they cannot be computed.
pub fn exact_fight(fight: &Fight) -> Result<ExactFight, String> {
    exact_fight_within(fight, MAX_EXACT_WORK)
}

/// [`exact_fight`] giving up past `max_work` states over every turn of every turn order.
pub(crate) fn exact_fight_within(fight: &Fight, max_work: usize) -> Result<ExactFight, String> {
    if let Some(p) = fight.profiles.iter().find(|p| p.probs.is_none()) {
        return Err(format!(
            "an attack's damage ({}) is too large to tabulate",
            p.attack.crit_dice()
        ));
    }
    let n = fight.fighters.len();
    let orders = match fight.initiative {
        Initiative::Listed => vec![((0..n).collect::<Vec<_>>(), 1.0)],
        Initiative::Rolled if n > MAX_EXACT_FIGHTERS_ROLLED => {
            return Err(format!(
                "rolled initiative for {n} combatants: the exact engine enumerates at most {MAX_EXACT_FIGHTERS_ROLLED}"
            ));
        }
        Initiative::Rolled => {
            initiative::every_order(&fight.fighters.iter().map(|f| f.init).collect::<Vec<_>>())
        }
    };
    let work = AtomicUsize::new(0);
    let per_order: Vec<Result<ExactFight, String>> = (orders.par_iter())
        .map(|(order, p)| given_order(fight, order, *p, (&work, max_work)))
        .collect();
    // Every order's work up to its end is fixed, so whether their sum passes the bound
    // does not depend on the threads, nor does this message.
    if work.load(Ordering::Relaxed) > max_work {
        return Err(too_much_work(max_work));
    }
    let mut total = ExactFight::zero(fight);
    for one in per_order {
        total.add(&one?);
    }
    total.keep_chances_within_0_and_1();
    Ok(total)
}

/// Why a fight past `max_work` states has no exact figures.
fn too_much_work(max_work: usize) -> String {
    format!(
        "the fight goes through more than {max_work} states over every turn of every turn order (minutes of work)"
    )
}

/// The fight's figures with turn order `order`, weighted by its probability `p`; `work`
/// counts the states after each turn of every order, and the order gives up once they
/// pass `max_work`.
fn given_order(
    fight: &Fight,
    order: &[usize],
    p: f64,
    (work, max_work): (&AtomicUsize, usize),
) -> Result<ExactFight, String> {
    let n = fight.fighters.len();
    let sides = fight.sides.len();
    // Between turns every state's turn is this placeholder: the states differ by their
    // standings alone.
    let between = Turn::new(0);
    let mut states = States::new(n);
    states.add(&fight.start(), between, p);
    let mut ended = Ended {
        status: vec![[0.0; 5]; n],
        won: vec![0.0; sides + 1],
        lost_down: vec![0.0; sides],
        lost_dead: vec![0.0; sides],
    };
    let mut out = ExactFight::zero(fight);
    let (mut taken, mut dealt) = (vec![0.0; n], vec![0.0; n]);
    let (mut frontier, mut after) = (States::new(n), States::new(n));
    let (mut now, mut branch, mut landed) = (fight.start(), fight.start(), fight.start());
    let mut groups = Groups::new(n);
    for round in 1..=fight.rounds as usize {
        for &actor in order {
            // The turn's branches, merged after every chance: a full attack's iteratives
            // then cost the sum of their outcomes, not the product.
            std::mem::swap(&mut frontier, &mut states);
            frontier.set_turns(Turn::new(actor));
            let next = &mut states;
            next.clear();
            while !frontier.is_empty() {
                after.clear();
                let mut landing = Landing {
                    fight,
                    between,
                    scratch: &mut landed,
                    next: &mut *next,
                    after: &mut after,
                    ended: &mut ended,
                    ended_in: &mut out.ended_in[round - 1],
                };
                for i in 0..frontier.len() {
                    let (standings, mut turn, p) = frontier.get(i);
                    now.copy_from_slice(standings);
                    match fight.advance(&mut now, &mut turn) {
                        Pending::Over => landing.over(&now, p),
                        Pending::Attack { profile } if fight.profiles[profile].struck.is_none() => {
                            out.made[profile] += p;
                            groups.add(&now, turn, profile, p);
                        }
                        Pending::Attack { profile } => {
                            out.made[profile] += p;
                            for &(effect, q) in &fight.profiles[profile].branches {
                                branch.copy_from_slice(&now);
                                let mut t = turn;
                                let hit =
                                    fight.resolve_attack(&mut branch, &mut t, profile, &effect);
                                let w = p * q;
                                for (who, damage) in hit.amounts() {
                                    taken[who] += w * damage as f64;
                                    dealt[actor] += w * damage as f64;
                                }
                                landing.land(&branch, t, w);
                            }
                        }
                        Pending::Dying { p_stable } => {
                            for (stable, q) in [(true, p_stable), (false, 1.0 - p_stable)] {
                                if q > 0.0 {
                                    branch.copy_from_slice(&now);
                                    let mut t = turn;
                                    fight.resolve_dying(&mut branch, &mut t, stable);
                                    landing.land(&branch, t, p * q);
                                }
                            }
                        }
                        Pending::Pick { among } => {
                            for index in 0..among {
                                let mut t = turn;
                                fight.resolve_pick(&now, &mut t, index);
                                landing.land(&now, t, p / among as f64);
                            }
                        }
                    }
                }
                groups.resolve(fight, &mut landing, &mut taken, &mut dealt[actor]);
                after.place();
                std::mem::swap(&mut frontier, &mut after);
            }
            states.place();
            let before = work.fetch_add(states.len(), Ordering::Relaxed);
            if before + states.len() > max_work {
                return Err(too_much_work(max_work));
            }
            if states.len() > MAX_EXACT_STATES {
                return Err(format!(
                    "the fight reaches more than {MAX_EXACT_STATES} states in round {round}"
                ));
            }
        }
        let r = round - 1;
        out.status[r].clone_from(&ended.status);
        for (standings, p) in states.iter() {
            for (who, s) in standings.iter().enumerate() {
                out.status[r][who][fight.status(who, s) as usize] += p;
            }
        }
        out.won[r].clone_from(&ended.won);
        out.taken[r].clone_from(&taken);
        out.dealt[r].clone_from(&dealt);
    }
    out.lost_down = ended.lost_down;
    out.lost_dead = ended.lost_dead;
    for (standings, p) in states.iter() {
        Ended::add_losses(fight, standings, p, &mut out.lost_down, &mut out.lost_dead);
    }
    Ok(out)
}

/// Where a branch goes once its chance is settled: on to the turn's next chance
/// (`after`), or, when the turn then ends without another chance, straight to the next
/// turn's states (or to the fights that ended), sparing the whole set a pass through
/// `after` at every turn's end.
struct Landing<'a> {
    fight: &'a Fight,
    /// The turn of every state between turns.
    between: Turn,
    scratch: &'a mut Vec<Standing>,
    next: &'a mut States,
    after: &'a mut States,
    ended: &'a mut Ended,
    /// P(the fight ended in this round).
    ended_in: &'a mut f64,
}

impl Landing<'_> {
    /// A branch with probability `p` in state (`standings`, `turn`).
    fn land(&mut self, standings: &[Standing], turn: Turn, p: f64) {
        self.scratch.copy_from_slice(standings);
        let mut over = turn;
        match self.fight.advance(self.scratch, &mut over) {
            Pending::Over => {
                let scratch = std::mem::take(self.scratch);
                self.over(&scratch, p);
                *self.scratch = scratch;
            }
            _ => self.after.add(standings, turn, p),
        }
    }

    /// A turn over in `standings`, with probability `p`.
    fn over(&mut self, standings: &[Standing], p: f64) {
        match self.fight.ended(standings) {
            Some(winner) => {
                *self.ended_in += p;
                self.ended.add(self.fight, standings, winner, p);
            }
            None => self.next.add(standings, self.between, p),
        }
    }
}

/// Pending attacks that strike no one else, grouped by every standing but the target's
/// damage taken (and by the turn): a group's outcomes are applied to each damage in it and
/// the results merged by the target's new standing before they become states, so a
/// state is looked up once per result rather than once per outcome of every member.
struct Groups {
    /// Each group's standings (the target's damage taken set to 0) and turn.
    keys: States,
    /// Each group's profile.
    profiles: Vec<ProfileId>,
    /// Per member: its group, the target's damage taken and the probability.
    members: Vec<(usize, i64, f64)>,
    /// Per group, the start of its members in `sorted` (one more entry at the end).
    starts: Vec<usize>,
    sorted: Vec<(i64, f64)>,
    /// A group's members: per damage taken from its least, the probability (0 for none).
    spread: Vec<f64>,
    /// Per damage taken from a group's least: the results' probability (0 for none).
    dense: Vec<f64>,
    /// Results that are not the target's standing with more damage taken (dead).
    other: Vec<(Standing, f64)>,
    scratch: Vec<Standing>,
}

impl Groups {
    fn new(width: usize) -> Groups {
        Groups {
            keys: States::new(width),
            profiles: Vec::new(),
            members: Vec::new(),
            starts: Vec::new(),
            sorted: Vec::new(),
            spread: Vec::new(),
            dense: Vec::new(),
            other: Vec::new(),
            scratch: Vec::new(),
        }
    }

    /// The attack with profile `profile` pending from `standings` and `turn`, with
    /// probability `p`.
    fn add(&mut self, standings: &[Standing], turn: Turn, profile: ProfileId, p: f64) {
        let target = turn.target().expect("an attack has a target");
        self.scratch.clear();
        self.scratch.extend_from_slice(standings);
        self.scratch[target] = standings[target].with_taken(0);
        let group = self.keys.entry(&self.scratch, turn);
        if group == self.profiles.len() {
            self.profiles.push(profile);
        }
        debug_assert_eq!(self.profiles[group], profile);
        self.members.push((group, standings[target].taken, p));
    }

    /// Resolves every pending attack, landing each result (see [`Landing`]) and adding
    /// the damage each outcome deals to `taken` (per combatant) and `dealt` (the
    /// attacker's); then forgets them.
    fn resolve(
        &mut self,
        fight: &Fight,
        landing: &mut Landing,
        taken: &mut [f64],
        dealt: &mut f64,
    ) {
        let groups = self.keys.len();
        self.starts.clear();
        self.starts.resize(groups + 1, 0);
        for &(g, _, _) in &self.members {
            self.starts[g + 1] += 1;
        }
        for g in 0..groups {
            self.starts[g + 1] += self.starts[g];
        }
        self.sorted.clear();
        self.sorted.resize(self.members.len(), (0, 0.0));
        let mut next = self.starts.clone();
        for &(g, t, p) in &self.members {
            self.sorted[next[g]] = (t, p);
            next[g] += 1;
        }
        for g in 0..groups {
            let (key, turn, _) = self.keys.get(g);
            let profile = self.profiles[g];
            let target = turn.target().expect("an attack has a target");
            let before = key[target];
            let members = &self.sorted[self.starts[g]..self.starts[g + 1]];
            let least = members.iter().map(|m| m.0).min().unwrap_or(0);
            let most = members.iter().map(|m| m.0).max().unwrap_or(0);
            // The members by damage taken from `least` (two states of the set can reach
            // the same chance: their probabilities add up).
            self.spread.clear();
            self.spread.resize((most - least) as usize + 1, 0.0);
            for &(was, p) in members {
                self.spread[(was - least) as usize] += p;
            }
            self.scratch.clear();
            self.scratch.extend_from_slice(key);
            self.dense.clear();
            self.other.clear();
            let mut resolved = turn;
            resolved.attack_made();
            let mut mean = 0.0;
            for &(effect, q) in &fight.profiles[profile].branches {
                mean += q * effect.damage as f64;
                // The members below `alive` only take the damage: their results are the
                // members shifted by it, added at once. The rest go by the rules.
                let shift = usize::try_from(effect.damage).ok();
                let alive = match (fight.adds_damage_only(target, before, &effect), shift) {
                    (Some(dead_from), Some(shift)) => {
                        let below = dead_from.saturating_sub(effect.damage) - least;
                        let alive = below.clamp(0, self.spread.len() as i64) as usize;
                        if self.dense.len() < shift + alive {
                            self.dense.resize(shift + alive, 0.0);
                        }
                        let results = &mut self.dense[shift..shift + alive];
                        for (sum, &p) in results.iter_mut().zip(&self.spread[..alive]) {
                            *sum += p * q;
                        }
                        alive
                    }
                    _ => 0,
                };
                for (j, &p) in self.spread.iter().enumerate().skip(alive) {
                    if p == 0.0 {
                        continue;
                    }
                    let was = least + j as i64;
                    let now = fight.target_after(target, before.with_taken(was), &effect);
                    let w = p * q;
                    match usize::try_from(now.taken - least) {
                        Ok(k) if now == before.with_taken(now.taken) => {
                            if k >= self.dense.len() {
                                self.dense.resize(k + 1, 0.0);
                            }
                            self.dense[k] += w;
                        }
                        _ => match self.other.iter_mut().find(|(s, _)| *s == now) {
                            Some((_, sum)) => *sum += w,
                            None => self.other.push((now, w)),
                        },
                    }
                }
            }
            // The damage dealt: the members' probability times the attack's mean damage.
            let mass = mean * members.iter().map(|&(_, p)| p).sum::<f64>();
            taken[target] += mass;
            *dealt += mass;
            for (k, &w) in self.dense.iter().enumerate() {
                // A result no member reached (or one too unlikely for an f64) is left out.
                if w > 0.0 {
                    self.scratch[target] = before.with_taken(least + k as i64);
                    landing.land(&self.scratch, resolved, w);
                }
            }
            for &(s, w) in &self.other {
                self.scratch[target] = s;
                landing.land(&self.scratch, resolved, w);
            }
        }
        self.keys.clear();
        self.profiles.clear();
        self.members.clear();
    }
}

impl ExactFight {
    /// Sums of many branches' probabilities round off a little past 0 or 1
    /// (1.0000000000003835 for a combatant certainly up): every chance is kept within.
    fn keep_chances_within_0_and_1(&mut self) {
        let chances = (self.status.iter_mut().flatten().flatten())
            .chain(self.won.iter_mut().flatten())
            .chain(&mut self.ended_in)
            .chain(&mut self.lost_down)
            .chain(&mut self.lost_dead);
        for p in chances {
            *p = p.clamp(0.0, 1.0);
        }
    }

    /// All zeros, shaped for `fight`.
    fn zero(fight: &Fight) -> ExactFight {
        let (n, sides, rounds) = (
            fight.fighters.len(),
            fight.sides.len(),
            fight.rounds as usize,
        );
        ExactFight {
            status: vec![vec![[0.0; 5]; n]; rounds],
            won: vec![vec![0.0; sides + 1]; rounds],
            taken: vec![vec![0.0; n]; rounds],
            dealt: vec![vec![0.0; n]; rounds],
            ended_in: vec![0.0; rounds],
            lost_down: vec![0.0; sides],
            lost_dead: vec![0.0; sides],
            made: vec![0.0; fight.profiles.len()],
        }
    }

    /// Adds another order's figures, element by element.
    fn add(&mut self, other: &ExactFight) {
        let add = |a: &mut [f64], b: &[f64]| a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
        for r in 0..self.status.len() {
            for (mine, theirs) in self.status[r].iter_mut().zip(&other.status[r]) {
                add(mine, theirs);
            }
            add(&mut self.won[r], &other.won[r]);
            add(&mut self.taken[r], &other.taken[r]);
            add(&mut self.dealt[r], &other.dealt[r]);
        }
        add(&mut self.ended_in, &other.ended_in);
        add(&mut self.lost_down, &other.lost_down);
        add(&mut self.lost_dead, &other.lost_dead);
        add(&mut self.made, &other.made);
    }
}

impl Ended {
    fn add(&mut self, fight: &Fight, standings: &[Standing], winner: Option<usize>, p: f64) {
        for (who, s) in standings.iter().enumerate() {
            self.status[who][fight.status(who, s) as usize] += p;
        }
        self.won[winner.unwrap_or(fight.sides.len())] += p;
        Ended::add_losses(
            fight,
            standings,
            p,
            &mut self.lost_down,
            &mut self.lost_dead,
        );
    }

    fn add_losses(
        fight: &Fight,
        standings: &[Standing],
        p: f64,
        down: &mut [f64],
        dead: &mut [f64],
    ) {
        for side in 0..fight.sides.len() {
            let statuses = (0..standings.len())
                .filter(|&i| fight.fighters[i].side == side)
                .map(|i| fight.status(i, &standings[i]));
            let (mut any_down, mut any_dead) = (false, false);
            for s in statuses {
                any_down |= s != Status::Up;
                any_dead |= s == Status::Dead;
            }
            if any_down {
                down[side] += p;
            }
            if any_dead {
                dead[side] += p;
            }
        }
    }
}
