//! The shipped experiments, built into the binary for `d20odds example`: a user starts
//! from one without the repository at hand.

/// Each shipped experiment's file stem and text, by name.
pub const EXAMPLES: [(&str, &str); 19] = [
    (
        "crit-fishing",
        include_str!("../../experiments/crit-fishing.toml"),
    ),
    (
        "d20modern-firefight",
        include_str!("../../experiments/d20modern-firefight.toml"),
    ),
    (
        "d20modern-firefight-fight",
        include_str!("../../experiments/d20modern-firefight-fight.toml"),
    ),
    (
        "d20modern-tactics",
        include_str!("../../experiments/d20modern-tactics.toml"),
    ),
    (
        "fog-and-darkness",
        include_str!("../../experiments/fog-and-darkness.toml"),
    ),
    (
        "goblin-ambush",
        include_str!("../../experiments/goblin-ambush.toml"),
    ),
    (
        "low-walls",
        include_str!("../../experiments/low-walls.toml"),
    ),
    (
        "ogre-corridor",
        include_str!("../../experiments/ogre-corridor.toml"),
    ),
    (
        "pf1-coup-de-grace-and-fireball",
        include_str!("../../experiments/pf1-coup-de-grace-and-fireball.toml"),
    ),
    (
        "pf1-cover-examples",
        include_str!("../../experiments/pf1-cover-examples.toml"),
    ),
    (
        "pf1-party-vs-ogre",
        include_str!("../../experiments/pf1-party-vs-ogre.toml"),
    ),
    (
        "pf1-tactics",
        include_str!("../../experiments/pf1-tactics.toml"),
    ),
    (
        "pf1-variant-tactics",
        include_str!("../../experiments/pf1-variant-tactics.toml"),
    ),
    (
        "reach-and-flanking",
        include_str!("../../experiments/reach-and-flanking.toml"),
    ),
    (
        "starfinder-boarding",
        include_str!("../../experiments/starfinder-boarding.toml"),
    ),
    (
        "starfinder-boarding-fight",
        include_str!("../../experiments/starfinder-boarding-fight.toml"),
    ),
    (
        "starfinder-tactics",
        include_str!("../../experiments/starfinder-tactics.toml"),
    ),
    (
        "variant-skirmish",
        include_str!("../../experiments/variant-skirmish.toml"),
    ),
    (
        "walls-and-corridors",
        include_str!("../../experiments/walls-and-corridors.toml"),
    ),
];

/// The example `d20odds example` prints without a name: the showcase.
pub const SHOWCASE: &str = "ogre-corridor";

#[cfg(test)]
mod tests {
    use super::*;

    /// Every file in `experiments/` is an example, under its stem, so a new experiment
    /// cannot be left out; the showcase is one of them.
    #[test]
    fn the_examples_are_the_experiments_folder() {
        let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments");
        let mut stems: Vec<String> = std::fs::read_dir(folder)
            .unwrap()
            .map(|f| f.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "toml"))
            .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
            .collect();
        stems.sort();
        let mut names: Vec<&str> = EXAMPLES.iter().map(|(name, _)| *name).collect();
        names.sort();
        assert_eq!(names, stems);
        assert!(names.contains(&SHOWCASE));
    }
}
