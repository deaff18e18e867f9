//! Which targets' states each target's figures depend on, so that the exact engine
//! follows jointly only what it must: a party of five attacking an ogre that strikes back
//! at two of them needs the ogre with each of the two, never all three at once.

use crate::plan::{Plan, TargetId};

/// For each target, the targets (itself first, then in index order) whose joint
/// distribution gives its figures: everything its state depends on, directly or not.
/// The set of any member lies within the set of the target it was found for.
pub(super) fn linked_targets(plan: &Plan) -> Vec<Vec<TargetId>> {
    let parents = parents(plan);
    let ids: Vec<TargetId> = plan.target_ids().collect();
    (0..ids.len())
        .map(|t| {
            let mut seen = vec![false; parents.len()];
            let mut stack = vec![t];
            seen[t] = true;
            while let Some(x) = stack.pop() {
                for &p in &parents[x] {
                    if !seen[p] {
                        seen[p] = true;
                        stack.push(p);
                    }
                }
            }
            let mut set = vec![ids[t]];
            set.extend(
                (0..seen.len())
                    .filter(|&x| seen[x] && x != t)
                    .map(|x| ids[x]),
            );
            set
        })
        .collect()
}

/// For each target, the targets whose state its own can depend on directly:
/// - a creature struck instead and the target of that attack, both ways;
/// - the attacker of an attack, for the attack's target and the creature struck instead,
///   when the attacker may already be hurt when the attack comes (it may not act);
/// - the target of a disabled attacker's attack, for the attacker, when the target may
///   already be dead (then no attack is made and the attacker pays no hit point);
/// - the flanking partners and engaged allies whose fall changes an attack, for its
///   target (see [`crate::plan::Place`]).
fn parents(plan: &Plan) -> Vec<Vec<usize>> {
    let first_hits = plan.first_hits();
    let hurt_before = |x: usize, p: usize| first_hits.before(x, p);
    let mut parents = vec![Vec::new(); plan.targets().len()];
    for (p, place) in plan.places().iter().enumerate() {
        let slot = &plan.slots()[place.first()];
        let t = slot.target.index();
        for watched in place.partners.iter().chain(&place.allies) {
            parents[t].push(watched.index());
        }
        let covering = slot.covering.map(TargetId::index);
        if let Some(c) = covering {
            parents[c].push(t);
            parents[t].push(c);
        }
        let attacker = slot.attacker.map(TargetId::index);
        let Some(a) = attacker.filter(|&a| a != t && hurt_before(a, p)) else {
            continue;
        };
        parents[t].push(a);
        if let Some(c) = covering {
            parents[c].push(a);
        }
        if plan.targets()[a].disabled_at_zero && hurt_before(t, p) {
            parents[a].push(t);
        }
    }
    parents
}
