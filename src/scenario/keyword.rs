//! Looking a written name up among the names it may be: the keys whose value is one of a
//! fixed set of words (`action = "full"`, `save = "will"`; the scenario's name tables are
//! here, the rules' own in [`crate::rules::Keyword`]), and the names an experiment gives
//! itself (combatant tokens, attack names). An unknown name is refused with what was
//! expected and, when one is close, the likely name.

use std::str::FromStr;

use toml::Spanned;

use super::{
    Action, AreaShape, ArmorClass, AttackKind, Combatant, CombatantId, Evasion, SaveKind, Validator,
};
use crate::attack::Portion;
use crate::error::{InputError, did_you_mean};
use crate::rules::Keyword;

impl Keyword for Evasion {
    const WHAT: &'static str = "evasion";

    fn table() -> Vec<(&'static str, Self)> {
        let all = [Evasion::None, Evasion::Evasion, Evasion::Improved];
        Evasion::KEYS.into_iter().zip(all).collect()
    }
}

impl Keyword for AttackKind {
    const WHAT: &'static str = "attack kind";

    fn table() -> Vec<(&'static str, Self)> {
        vec![
            ("melee", AttackKind::Melee),
            ("ranged", AttackKind::Ranged),
            ("area", AttackKind::Area),
        ]
    }
}

impl ArmorClass {
    /// The names files and `attack --vs` take.
    pub fn names() -> Vec<&'static str> {
        <Self as Keyword>::names()
    }
}

impl Keyword for ArmorClass {
    const WHAT: &'static str = "armor class";

    fn table() -> Vec<(&'static str, Self)> {
        vec![("eac", ArmorClass::Eac), ("kac", ArmorClass::Kac)]
    }
}

/// `attack --vs`, in the files' names.
impl FromStr for ArmorClass {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        Self::from_name(text)
    }
}

impl Keyword for SaveKind {
    const WHAT: &'static str = "save";

    fn table() -> Vec<(&'static str, Self)> {
        [SaveKind::Reflex, SaveKind::Fort, SaveKind::Will]
            .map(|s| (s.key(), s))
            .to_vec()
    }
}

/// `on_save`: what a successful save deals.
impl Keyword for Portion {
    const WHAT: &'static str = "on_save";

    fn table() -> Vec<(&'static str, Self)> {
        [Portion::Half, Portion::Nothing]
            .map(|p| (p.key(), p))
            .to_vec()
    }

    fn expected() -> String {
        "half (half damage on a success) or none (no damage)".into()
    }
}

impl Keyword for AreaShape {
    const WHAT: &'static str = "shape";

    fn table() -> Vec<(&'static str, Self)> {
        let all = [AreaShape::Burst, AreaShape::Spread];
        AreaShape::KEYS.into_iter().zip(all).collect()
    }
}

impl Keyword for Action {
    const WHAT: &'static str = "action";

    fn table() -> Vec<(&'static str, Self)> {
        vec![
            ("single", Action::Single),
            ("full", Action::Full),
            ("coup-de-grace", Action::CoupDeGrace),
        ]
    }
}

impl Validator<'_> {
    /// The value a keyword key names; any other name is refused, at the value, with what
    /// the key expects and the nearest name.
    pub(super) fn keyword<K: Keyword>(&self, value: &Spanned<String>) -> Result<K, InputError> {
        K::from_name(value.get_ref()).map_err(|message| self.err(value.span(), message))
    }

    /// A keyword key that may be left out: `default` then.
    pub(super) fn keyword_or<K: Keyword>(
        &self,
        value: Option<&Spanned<String>>,
        default: K,
    ) -> Result<K, InputError> {
        value.map_or(Ok(default), |v| self.keyword(v))
    }

    /// The combatant a token names, or an error listing the known tokens.
    pub(super) fn token(
        &self,
        token: &Spanned<String>,
        combatants: &[Combatant],
    ) -> Result<CombatantId, InputError> {
        combatant_id(token.get_ref(), combatants, "")
            .map_err(|message| self.err(token.span(), message))
    }
}

/// The combatant whose token is `text`; otherwise "no combatant has token `x`{purpose}"
/// with the known tokens and the one it likely means.
pub(super) fn combatant_id(
    text: &str,
    combatants: &[Combatant],
    purpose: &str,
) -> Result<CombatantId, String> {
    single_letter(text)
        .and_then(|t| combatants.iter().position(|c| c.token == t))
        .map(CombatantId::at)
        .ok_or_else(|| {
            let tokens: Vec<String> = combatants.iter().map(|c| c.token.to_string()).collect();
            format!(
                "no combatant has token `{text}`{purpose}; known tokens: {}{}",
                tokens.join(", "),
                token_suggestion(text, combatants)
            )
        })
}

/// ` (did you mean `o`?)` for a token that differs from a combatant's only in case: any
/// other letter is one edit from every token, so edit distance suggests nothing useful.
fn token_suggestion(typo: &str, combatants: &[Combatant]) -> String {
    combatants
        .iter()
        .find(|c| typo.eq_ignore_ascii_case(&c.token.to_string()))
        .map_or(String::new(), |c| format!(" (did you mean `{}`?)", c.token))
}

/// The index of `combatant`'s attack called `name`; otherwise "`F` has no attack named
/// `x`" with its attacks and the nearest. A plan line says `none` for a combatant without
/// attacks, where a sweep path has always listed nothing (`when_none`).
pub(super) fn attack_index(
    combatant: &Combatant,
    name: &str,
    when_none: &str,
) -> Result<usize, String> {
    let attacks = &combatant.attacks;
    attacks.iter().position(|a| a.name == name).ok_or_else(|| {
        let names: Vec<String> = attacks.iter().map(|a| format!("`{}`", a.name)).collect();
        format!(
            "`{}` has no attack named `{name}`; its attacks: {}{}",
            combatant.token,
            if names.is_empty() {
                when_none.to_string()
            } else {
                names.join(", ")
            },
            did_you_mean(name, attacks.iter().map(|a| a.name.as_str()))
        )
    })
}

/// The letter `text` is, when it is exactly one ASCII letter.
pub(super) fn single_letter(text: &str) -> Option<char> {
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) if c.is_ascii_alphabetic() => Some(c),
        _ => None,
    }
}
