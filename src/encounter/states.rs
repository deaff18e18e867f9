//! The exact engine's state sets: every combatant's standing and where the turn is, with
//! its probability, equal states merged. The standings live in one arena (`width` per
//! state) under an open-addressing index, so a state is hashed and compared in place and
//! never allocated on its own: the exact engine adds millions of branches per turn.

use super::turn::{Standing, Turn};

/// An empty slot of [`States::slots`].
const EMPTY: u32 = u32::MAX;

/// States with their probabilities, in the order they were first added (so sums over
/// them, and so the exact figures, do not depend on hashing).
pub(super) struct States {
    width: usize,
    standings: Vec<Standing>,
    turns: Vec<Turn>,
    probs: Vec<f64>,
    hashes: Vec<u64>,
    /// Index into the states, or [`EMPTY`]; a power of two long, at most half full.
    slots: Vec<u32>,
}

impl States {
    /// No states of `width` combatants.
    pub fn new(width: usize) -> States {
        States {
            width,
            standings: Vec::new(),
            turns: Vec::new(),
            probs: Vec::new(),
            hashes: Vec::new(),
            slots: vec![EMPTY; 16],
        }
    }

    pub fn len(&self) -> usize {
        self.probs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.probs.is_empty()
    }

    /// Removes every state, keeping the memory.
    pub fn clear(&mut self) {
        self.standings.clear();
        self.turns.clear();
        self.probs.clear();
        self.hashes.clear();
        self.slots.fill(EMPTY);
    }

    /// State `i`: its standings, turn and probability.
    pub fn get(&self, i: usize) -> (&[Standing], Turn, f64) {
        let w = self.width;
        (
            &self.standings[i * w..(i + 1) * w],
            self.turns[i],
            self.probs[i],
        )
    }

    /// Every state's standings and probability, in order.
    pub fn iter(&self) -> impl Iterator<Item = (&[Standing], f64)> {
        (0..self.len()).map(|i| {
            let (s, _, p) = self.get(i);
            (s, p)
        })
    }

    /// Sets every state's turn to `turn`, which keeps them distinct only when their
    /// standings are: for a set whose states all share one turn.
    pub fn set_turns(&mut self, turn: Turn) {
        self.turns.fill(turn);
        for i in 0..self.len() {
            self.hashes[i] = hash(&self.standings[i * self.width..(i + 1) * self.width], &turn);
        }
        self.reindex();
    }

    /// Adds probability `p` to the state (`standings`, `turn`).
    pub fn add(&mut self, standings: &[Standing], turn: Turn, p: f64) {
        let i = self.entry(standings, turn);
        self.probs[i] += p;
    }

    /// The index of the state (`standings`, `turn`), added with probability 0 when new.
    pub fn entry(&mut self, standings: &[Standing], turn: Turn) -> usize {
        let h = hash(standings, &turn);
        let mask = self.slots.len() - 1;
        let mut slot = (h >> 32) as usize & mask;
        loop {
            let i = self.slots[slot];
            if i == EMPTY {
                break;
            }
            let i = i as usize;
            let w = self.width;
            if self.hashes[i] == h
                && self.turns[i] == turn
                && self.standings[i * w..(i + 1) * w] == *standings
            {
                return i;
            }
            slot = (slot + 1) & mask;
        }
        let i = self.len();
        self.slots[slot] = u32::try_from(i).expect("fewer than 2^32 states");
        self.standings.extend_from_slice(standings);
        self.turns.push(turn);
        self.probs.push(0.0);
        self.hashes.push(h);
        if self.len() * 2 > self.slots.len() {
            self.slots = vec![EMPTY; self.slots.len() * 2];
            self.reindex();
        }
        i
    }

    fn reindex(&mut self) {
        self.slots.fill(EMPTY);
        let mask = self.slots.len() - 1;
        for (i, &h) in self.hashes.iter().enumerate() {
            let mut slot = (h >> 32) as usize & mask;
            while self.slots[slot] != EMPTY {
                slot = (slot + 1) & mask;
            }
            self.slots[slot] = i as u32;
        }
    }
}

/// A state's hash: a multiply-rotate mix (as rustc's FxHash) of one word for the turn and
/// one per standing. The index takes the high bits, which mix well.
fn hash(standings: &[Standing], turn: &Turn) -> u64 {
    let mix = |h: u64, word: u64| (h.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    (standings.iter()).fold(mix(0, turn.key()), |h, s| mix(h, s.key()))
}
