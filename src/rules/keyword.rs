//! Names written for the values of a key, in experiment files and on the command line
//! (`system = "pf1"`, `size = "large"`, `d20odds rules starfinder`): each key's table of
//! names, one lookup, and one wording for a name that is none of them.

use super::{CoverLevel, SIZES, Size, SystemId};
use crate::error::did_you_mean;

/// A key whose value is one of a fixed set of names.
pub trait Keyword: Copy {
    /// What errors call the key: "unknown {WHAT} `…`".
    const WHAT: &'static str;

    /// Each name with the value it stands for, in the order errors list them.
    fn table() -> Vec<(&'static str, Self)>;

    /// Every name, in the order errors list them.
    fn names() -> Vec<&'static str> {
        Self::table().into_iter().map(|(name, _)| name).collect()
    }

    /// What an error says the key expects: "a, b or c" unless the key says otherwise.
    fn expected() -> String {
        let names = Self::names();
        match names.split_last() {
            Some((last, [])) => last.to_string(),
            Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
            None => String::new(),
        }
    }

    /// The value `text` names, or "unknown {WHAT} `text`: expected …".
    fn from_name(text: &str) -> Result<Self, String> {
        Self::table()
            .into_iter()
            .find(|(name, _)| *name == text)
            .map(|(_, value)| value)
            .ok_or_else(|| {
                format!(
                    "unknown {} `{text}`: expected {}{}",
                    Self::WHAT,
                    Self::expected(),
                    did_you_mean(text, Self::names())
                )
            })
    }
}

/// "one of a, b, c": how errors list the names of a key with many.
fn one_of<K: Keyword>() -> String {
    format!("one of {}", K::names().join(", "))
}

impl Keyword for SystemId {
    const WHAT: &'static str = "system";

    fn table() -> Vec<(&'static str, Self)> {
        SystemId::ALL.map(|s| (s.key(), s)).to_vec()
    }

    fn expected() -> String {
        one_of::<Self>()
    }
}

impl Keyword for Size {
    const WHAT: &'static str = "size";

    fn table() -> Vec<(&'static str, Self)> {
        SIZES.map(|row| (row.key, row.size)).to_vec()
    }

    fn expected() -> String {
        one_of::<Self>()
    }
}

impl Keyword for CoverLevel {
    const WHAT: &'static str = "cover";

    fn table() -> Vec<(&'static str, Self)> {
        CoverLevel::ALL.map(|c| (c.key(), c)).to_vec()
    }

    fn expected() -> String {
        one_of::<Self>()
    }
}
