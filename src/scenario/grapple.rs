//! `grappling_with = "X"`: two combatants locked in a grapple. In d20 Modern a ranged
//! attack at either strikes one of the pair at random (RULES.md §2.3, footnote 3); the key
//! is refused in a system without that rule, so it is never read and then ignored.

use toml::Spanned;

use super::raw::RawCombatant;
use super::{Combatant, CombatantId, Validator};
use crate::error::InputError;
use crate::rules::RuleSet;

impl Validator<'_> {
    /// Pairs the grapplers: `grappling_with` is set on both of a pair (the key may be
    /// written on one, or on both naming each other) and both get the system's grappling
    /// condition, so the one a shot strikes loses its Dex bonus. A grapple is one pair: a
    /// creature named in a second pair is refused, as are an unknown token and the
    /// combatant itself.
    pub(super) fn grapples(
        &self,
        raw: &[Spanned<RawCombatant>],
        combatants: &mut [Combatant],
        rules: &RuleSet,
    ) -> Result<(), InputError> {
        for (i, c) in raw.iter().enumerate() {
            let i = CombatantId::at(i);
            let Some(with) = &c.get_ref().grappling_with else {
                continue;
            };
            let Some(condition) = rules.ranged.random_grappler else {
                let grappling: Vec<String> = rules
                    .condition_names()
                    .filter(|n| n.contains("grappl"))
                    .map(|n| format!("`{n}`"))
                    .collect();
                return Err(self.err(
                    with.span(),
                    format!(
                        "{} has no rule that a ranged attack at a grappler strikes one of the pair at random: remove `grappling_with` (the conditions {} give a grappler's AC)",
                        rules.name,
                        grappling.join(", ")
                    ),
                ));
            };
            let partner = self.token(with, combatants)?;
            if partner == i {
                return Err(self.err(
                    with.span(),
                    format!(
                        "`{}` cannot be grappling with itself: name the other combatant of the grapple",
                        combatants[i.index()].token
                    ),
                ));
            }
            for (one, other) in [(i, partner), (partner, i)] {
                if let Some(third) = combatants[one.index()]
                    .grappling_with
                    .filter(|&t| t != other)
                {
                    return Err(self.err(
                        with.span(),
                        format!(
                            "`{}` is already grappling with `{}`: a grapple here is one pair of combatants",
                            combatants[one.index()].token, combatants[third.index()].token
                        ),
                    ));
                }
            }
            for (one, other) in [(i, partner), (partner, i)] {
                let c = &mut combatants[one.index()];
                c.grappling_with = Some(other);
                if !c.conditions.contains(&condition) {
                    c.conditions.push(condition);
                }
            }
        }
        Ok(())
    }
}
