//! The exact engine's state sets: every combatant's standing and where the turn is, with
//! its probability, equal states merged. The standings live in one arena (`width` per
//! state) and the rest of each state in one record beside them, under an open-addressing
//! index, so a state is hashed and compared in place and never allocated on its own: the
//! exact engine adds millions of branches per turn, and merging one into a state already
//! there touches three places far apart in memory (its slot, its record, its standings).
//!
//! Added states are placed in batches: the index slots a batch needs, and the states they
//! hold, are loaded for the whole batch before any is placed. The loads do not depend on
//! each other, so their cache misses overlap instead of coming one after another (a set
//! of a million states is far larger than the cache).

use super::turn::{Standing, Turn};

/// An empty slot of [`States::slots`].
const EMPTY: u32 = u32::MAX;
/// States added before a batch is placed.
const BATCH: usize = 32;

/// States with their probabilities, in the order they were first added (so sums over
/// them, and so the exact figures, do not depend on hashing).
pub(super) struct States {
    width: usize,
    standings: Vec<Standing>,
    records: Vec<Record>,
    /// Index into the states, or [`EMPTY`]; a power of two long, at most half full.
    slots: Vec<u32>,
    /// Added states not placed yet: their standings (`width` each) and records.
    pending_standings: Vec<Standing>,
    pending: Vec<Record>,
}

/// A state's hash, probability and turn, kept together.
#[derive(Clone, Copy)]
struct Record {
    hash: u64,
    prob: f64,
    turn: Turn,
}

impl States {
    /// No states of `width` combatants.
    pub fn new(width: usize) -> States {
        States {
            width,
            standings: Vec::new(),
            records: Vec::new(),
            slots: vec![EMPTY; 16],
            pending_standings: Vec::new(),
            pending: Vec::with_capacity(BATCH),
        }
    }

    /// The states placed; reading them before the last added are placed would miss some.
    fn placed(&self) -> &Self {
        assert!(
            self.pending.is_empty(),
            "states read before they were placed"
        );
        self
    }

    pub fn len(&self) -> usize {
        self.placed().records.len()
    }

    pub fn is_empty(&self) -> bool {
        self.placed().records.is_empty()
    }

    /// Removes every state, keeping the memory.
    pub fn clear(&mut self) {
        self.standings.clear();
        self.records.clear();
        self.slots.fill(EMPTY);
        self.pending_standings.clear();
        self.pending.clear();
    }

    /// State `i`: its standings, turn and probability.
    pub fn get(&self, i: usize) -> (&[Standing], Turn, f64) {
        let (w, record) = (self.placed().width, self.records[i]);
        (
            &self.standings[i * w..(i + 1) * w],
            record.turn,
            record.prob,
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
        self.place();
        let standings = self.standings.chunks_exact(self.width);
        for (record, standings) in self.records.iter_mut().zip(standings) {
            record.turn = turn;
            record.hash = hash(standings, &turn);
        }
        self.reindex();
    }

    /// Adds probability `p` to the state (`standings`, `turn`), once the batch is placed:
    /// call [`States::place`] before reading the states.
    pub fn add(&mut self, standings: &[Standing], turn: Turn, p: f64) {
        self.pending_standings.extend_from_slice(standings);
        let hash = hash(standings, &turn);
        self.pending.push(Record {
            hash,
            prob: p,
            turn,
        });
        if self.pending.len() == BATCH {
            self.place();
        }
    }

    /// Places the states added, in the order they were added: first every one's slot and
    /// the state it holds are loaded, all at once, then each is placed.
    pub fn place(&mut self) {
        let (mask, w) = (self.slots.len() - 1, self.width);
        let mut loaded = 0;
        for pending in &self.pending {
            let i = self.slots[(pending.hash >> 32) as usize & mask];
            if i != EMPTY {
                let i = i as usize;
                loaded ^= self.records[i].hash ^ self.standings[i * w].key();
            }
        }
        std::hint::black_box(loaded);
        let (pending, standings) = (
            std::mem::take(&mut self.pending),
            std::mem::take(&mut self.pending_standings),
        );
        for (added, standings) in pending.iter().zip(standings.chunks_exact(w)) {
            let i = self.entry_hashed(standings, added.turn, added.hash);
            self.records[i].prob += added.prob;
        }
        (self.pending, self.pending_standings) = (pending, standings);
        self.pending.clear();
        self.pending_standings.clear();
    }

    /// The index of the state (`standings`, `turn`), added with probability 0 when new.
    pub fn entry(&mut self, standings: &[Standing], turn: Turn) -> usize {
        self.place();
        self.entry_hashed(standings, turn, hash(standings, &turn))
    }

    /// [`States::entry`] for a state whose hash is `h`.
    fn entry_hashed(&mut self, standings: &[Standing], turn: Turn, h: u64) -> usize {
        let mask = self.slots.len() - 1;
        let mut slot = (h >> 32) as usize & mask;
        loop {
            let i = self.slots[slot];
            if i == EMPTY {
                break;
            }
            let i = i as usize;
            let (w, record) = (self.width, &self.records[i]);
            if record.hash == h
                && record.turn == turn
                && self.standings[i * w..(i + 1) * w] == *standings
            {
                return i;
            }
            slot = (slot + 1) & mask;
        }
        let i = self.records.len();
        self.slots[slot] = u32::try_from(i).expect("fewer than 2^32 states");
        self.standings.extend_from_slice(standings);
        self.records.push(Record {
            hash: h,
            prob: 0.0,
            turn,
        });
        if self.records.len() * 2 > self.slots.len() {
            self.slots = vec![EMPTY; self.slots.len() * 2];
            self.reindex();
        }
        i
    }

    fn reindex(&mut self) {
        self.slots.fill(EMPTY);
        let mask = self.slots.len() - 1;
        for (i, h) in self.records.iter().map(|r| r.hash).enumerate() {
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
