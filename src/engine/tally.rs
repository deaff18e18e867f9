//! Integer counters of a batch of trials. Tallies of disjoint blocks merge by addition,
//! so the result is the same whichever thread ran which block.

use crate::plan::Plan;

/// Per target and round: trials in which the target was down / dead by the end of the
/// round, and the sums of damage taken so far.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RoundTally {
    pub down: u64,
    pub dead: u64,
    pub damage_sum: u128,
    pub damage_squares: u128,
}

/// Everything counted over some trials.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tally {
    pub trials: u64,
    /// Per slot: how often each outcome index occurred (attacks made, by outcome).
    pub outcomes: Vec<Vec<u64>>,
    /// Per target: one entry per round.
    pub rounds: Vec<Vec<RoundTally>>,
    /// Per target: how many trials ended with each total of damage taken.
    pub damage: Vec<Vec<u64>>,
}

impl Tally {
    /// An empty tally shaped for a plan.
    pub fn zero(plan: &Plan) -> Self {
        let damage = (0..plan.targets.len())
            .map(|t| vec![0; max_damage_taken(plan, t) as usize + 1])
            .collect();
        Self {
            trials: 0,
            outcomes: plan
                .slots
                .iter()
                .map(|s| vec![0; s.profile.layout().len()])
                .collect(),
            rounds: vec![vec![RoundTally::default(); plan.rounds as usize]; plan.targets.len()],
            damage,
        }
    }

    /// Adds another tally of the same plan.
    pub fn merge(mut self, other: Tally) -> Tally {
        self.trials += other.trials;
        add_all(&mut self.outcomes, &other.outcomes);
        add_all(&mut self.damage, &other.damage);
        for (mine, theirs) in self.rounds.iter_mut().zip(&other.rounds) {
            for (m, t) in mine.iter_mut().zip(theirs) {
                m.down += t.down;
                m.dead += t.dead;
                m.damage_sum += t.damage_sum;
                m.damage_squares += t.damage_squares;
            }
        }
        self
    }

    /// Attacks made by a slot.
    pub fn attacks_made(&self, slot: usize) -> u64 {
        self.outcomes[slot].iter().sum()
    }
}

fn add_all(into: &mut [Vec<u64>], from: &[Vec<u64>]) {
    for (a, b) in into.iter_mut().zip(from) {
        for (x, y) in a.iter_mut().zip(b) {
            *x += y;
        }
    }
}

/// The most damage a target can take in one trial: every attack at it dealing its most,
/// and every attack that can strike it as cover striking it for its most.
pub fn max_damage_taken(plan: &Plan, target: usize) -> i64 {
    let per_round: i64 = plan
        .slots
        .iter()
        .map(|s| {
            let layout = s.profile.layout();
            let own = if s.target == target {
                layout.max_damage()
            } else {
                0
            };
            let as_cover = if s.covering == Some(target) {
                layout.max_struck_damage()
            } else {
                0
            };
            own + as_cover
        })
        .sum();
    per_round * i64::from(plan.rounds)
}
