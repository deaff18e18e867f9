//! The experiment as the user wrote it: what `report.html` shows besides the numbers.

use crate::scenario::{RawTerrain, Scenario};

/// The inputs of one run, for the report: taken from the validated [`Scenario`], so the
/// report never reads a file itself.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Inputs {
    /// The experiment file's name, e.g. `ogre-corridor.toml`.
    pub file: String,
    /// The experiment file's text, as written.
    pub text: String,
    /// The map rows, one character per square, with `[legend]` symbols replaced by the
    /// built-in symbol that draws like them (`#`, `=`, `~`, `,`, `:` or `.`).
    pub map: Vec<String>,
    /// How the system's ambiguous rules are read (its `RuleSet::interpretations`).
    pub rule_readings: Vec<String>,
}

impl Inputs {
    pub fn from_scenario(scenario: &Scenario) -> Self {
        let drawn_as = |c: char| {
            scenario
                .legend
                .iter()
                .find(|(symbol, _)| *symbol == c)
                .map_or(c, |(_, terrain)| built_in(terrain))
        };
        Self {
            file: scenario.source.path.file_name().map_or_else(
                || scenario.source.path.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            ),
            text: scenario.source.text.clone(),
            map: scenario
                .map
                .iter()
                .map(|row| row.chars().map(drawn_as).collect())
                .collect(),
            rule_readings: scenario
                .system
                .rules()
                .interpretations
                .iter()
                .map(|r| r.to_string())
                .collect(),
        }
    }
}

/// The built-in map symbol that looks most like a `[legend]` terrain.
fn built_in(terrain: &RawTerrain) -> char {
    if terrain.blocks {
        '#'
    } else if terrain.low {
        '='
    } else if terrain.dark {
        ':'
    } else if terrain.concealment > 0 {
        '~'
    } else if terrain.dim {
        ','
    } else {
        '.'
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn legend_symbols_are_drawn_as_built_in_terrain() {
        let showcase = include_str!("../../experiments/ogre-corridor.toml");
        let legend = "\n[legend]\n\"&\" = { blocks = true }\n\"%\" = { concealment = 10 }\n\
                      \"|\" = { low = true }\n";
        assert!(
            showcase.contains("#....R.....#"),
            "the showcase map has changed"
        );
        let text = showcase.replacen("#....R.....#", "#&%|.R.....#", 1) + legend;
        let scenario = Scenario::parse("dir/ogre-corridor.toml", text.as_str()).unwrap();
        let inputs = Inputs::from_scenario(&scenario);
        assert_eq!(inputs.file, "ogre-corridor.toml");
        assert_eq!(inputs.map[1], "##~=.R.....#");
        assert_eq!(inputs.map[2], "#...FOO....#");
        assert_eq!(inputs.text, text);
        assert_eq!(
            inputs.rule_readings,
            crate::rules::SystemId::Pf1.rules().interpretations
        );
    }
}
