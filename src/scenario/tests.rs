//! Unit tests of the validator: a valid base experiment, and mistakes in it reported at
//! their line and column.

use super::*;

const BASE: &str = r#"
system = "pf1"
map = """
F..O
"""
[[combatant]]
token = "F"
ac = 18
hp = 20
[[combatant.attack]]
name = "sword"
bonus = [7, 2]
damage = "1d8+3"
crit = "19-20/x2"
[[combatant]]
token = "O"
ac = 14
hp = 30
con = 12
[[plan]]
attacker = "F"
target = "O"
attack = "sword"
action = "full"
"#;

/// Replaces `from` with `to` in the base experiment and returns the error text.
fn error_of(from: &str, to: &str) -> String {
    assert!(BASE.contains(from), "{from}");
    Scenario::parse("t.toml", BASE.replacen(from, to, 1))
        .unwrap_err()
        .to_string()
}

#[test]
fn base_is_valid() {
    let s = Scenario::parse("t.toml", BASE).unwrap();
    assert_eq!(s.combatants[0].attacks[0].bonus, vec![7, 2]);
    assert_eq!(s.plan[0].action, Action::Full);
    assert_eq!(s.combatants[1].con, Some(12));
    assert_eq!(s.map, vec!["F..O"]);
    assert_eq!(s.title, "t");
}

#[test]
fn errors_name_line_and_column() {
    let cases = [
        (
            "damage = \"1d8+3\"",
            "damage = \"1d8*3\"",
            "t.toml:13:14: bad damage",
        ),
        (
            "crit = \"19-20/x2\"",
            "crit = \"19-21\"",
            "t.toml:14:12: bad crit",
        ),
        (
            "ac = 18",
            "ac = 18\narmour = 3",
            "t.toml:9:1: unknown field `armour`",
        ),
        (
            "hp = 30",
            "hpp = 30",
            "t.toml:18:1: unknown field `hpp`, expected one of `token`, `name`, `side`, `size`, `ac`, `eac`, `kac`, `dex`, `hp`, `con`, `fort`, `level`, `reflex`, `will`, `elevation`, `conditions`, `senses`, `immune_to_crits`, `concealment`, `precise_shot`, `immune_to_precision`, `dr`, `stamina`, `resolve`, `terrain`, `evasion`, `grappling_with`, `init`, `tactic`, `attack` (did you mean `hp`?)",
        ),
        (
            "action = \"full\"",
            "action = \"ful\"",
            "t.toml:24:10: unknown action `ful`: expected single, full or coup-de-grace (did you mean `full`?)",
        ),
        (
            "attack = \"sword\"",
            "attack = \"swrod\"",
            "t.toml:23:10: `F` has no attack named `swrod`; its attacks: `sword` (did you mean `sword`?)",
        ),
        (
            "target = \"O\"",
            "target = \"Q\"",
            "t.toml:22:10: no combatant has token `Q`",
        ),
        (
            "attack = \"sword\"",
            "attack = \"axe\"",
            "t.toml:23:10: `F` has no attack named `axe`",
        ),
        (
            "F..O",
            "F.XO",
            "t.toml:4:3: map letter `X` has no combatant",
        ),
        (
            "system = \"pf1\"",
            "system = \"pf2\"",
            "t.toml:2:10: unknown system `pf2`",
        ),
        (
            "action = \"full\"",
            "action = \"twice\"",
            "t.toml:24:10: unknown action",
        ),
        (
            "bonus = [7, 2]",
            "bonus = \"7\"",
            "t.toml:12:9: invalid type",
        ),
        ("con = 12", "con = 12\nhp = 3", "t.toml:20:1: duplicate key"),
        (
            "attack = \"sword\"",
            "attack = \"sword\"\ncover = \"lots\"",
            "t.toml:24:9: unknown cover",
        ),
    ];
    for (from, to, expected) in cases {
        let message = error_of(from, to);
        assert!(
            message.starts_with(expected),
            "expected `{expected}`, got `{message}`"
        );
    }
}

/// Tokens may differ only in case, each its own side: with no `side`, or with its own
/// token written as its side; a side written otherwise is compared (`f` beside `F`).
#[test]
fn tokens_differing_in_case_are_sides_of_their_own() {
    let two = BASE.replace("F..O", "F.oO") + "[[combatant]]\ntoken = \"o\"\nac = 12\nhp = 5\n";
    Scenario::parse("t.toml", two.as_str()).unwrap();
    let redundant = two.replacen("token = \"O\"\n", "token = \"O\"\nside = \"O\"\n", 1);
    Scenario::parse("t.toml", redundant.as_str()).unwrap();
    let other = two.replacen("token = \"o\"\n", "token = \"o\"\nside = \"f\"\n", 1);
    let error = Scenario::parse("t.toml", other.as_str())
        .unwrap_err()
        .to_string();
    assert!(error.contains("side `f` differs from side `F`"), "{error}");
}

/// A mistake the TOML reader finds is underlined whole, as the validator's are: the
/// unknown key `hpp` (3 carets), the string where a number belongs (`"18"`, 4).
#[test]
fn a_reader_error_underlines_the_whole_key_or_value() {
    for (from, to, carets) in [("hp = 20", "hpp = 20", 3), ("ac = 18", "ac = \"18\"", 4)] {
        let error = error_of(from, to);
        assert_eq!(error.matches('^').count(), carets, "{from} → {to}: {error}");
    }
}

/// A header written as a list's where the format has one table, or as one table's where
/// it has a list, is named with the header to write (the parser says only "invalid type"
/// or "duplicate key"); a duplicate key is named.
#[test]
fn a_header_of_the_wrong_shape_says_which_to_write() {
    let cases = [
        (
            "[[options]]\npartial_cover = true\n",
            "t.toml:25:1: `[[options]]` starts a list of tables, but an experiment has one `[options]` table: write `[options]`",
        ),
        (
            "[[encounter]]\n",
            "t.toml:25:1: `[[encounter]]` starts a list of tables, but an experiment has one `[encounter]` table: write `[encounter]`",
        ),
        (
            "[variant]\nname = \"v\"\n",
            "t.toml:25:1: `[variant]` is one table, but each variant is an item of a list: write `[[variant]]`",
        ),
        (
            "[combatant.attack]\nname = \"v\"\n",
            "t.toml:25:1: `[combatant.attack]` is one table, but each attack is an item of a list: write `[[combatant.attack]]`",
        ),
        (
            "[plan]\nattacker = \"O\"\n",
            "t.toml:25:2: `[plan]` is one table, but each plan is an item of a list: write `[[plan]]`",
        ),
    ];
    for (added, expected) in cases {
        let message = Scenario::parse("t.toml", format!("{BASE}{added}"))
            .unwrap_err()
            .to_string();
        assert!(
            message.starts_with(expected),
            "expected `{expected}`, got `{message}`"
        );
    }
    let message = error_of("hp = 30", "hp = 30\n\"hp\" = 31");
    assert!(
        message.starts_with("t.toml:19:1: duplicate key `hp`: this table already sets it"),
        "{message}"
    );
    // A quoted dotted key is one key, named whole.
    let twice = "[[variant]]\nname = \"v\"\nset = { \"B.ac\" = 3, \"B.ac\" = 4 }\n";
    let message = Scenario::parse("t.toml", format!("{BASE}{twice}"))
        .unwrap_err()
        .to_string();
    assert!(
        message.starts_with("t.toml:27:21: duplicate key `B.ac`"),
        "{message}"
    );
    // `[plan]` written before a `[[plan]]`: the list's header is where the parser stops.
    let text = BASE.replacen("[[plan]]", "[plan]", 1) + "[[plan]]\nattacker = \"A\"\n";
    let message = Scenario::parse("t.toml", text).unwrap_err().to_string();
    assert!(
        message.starts_with("t.toml:25:3: `plan` is written above as one table, `[plan]`, but each plan is an item of a list: write every plan as `[[plan]]`"),
        "{message}"
    );
    // Past TOML's integers, whether the parser says "as i128" or "invalid value".
    for seed in [
        "9223372036854775808",
        "18446744073709551615",
        "-9223372036854775809",
    ] {
        let message = error_of(
            "system = \"pf1\"",
            &format!("system = \"pf1\"\nseed = {seed}"),
        );
        assert!(
            message.contains(&format!(
                "`{seed}` is beyond the whole numbers a TOML file can hold"
            )),
            "{message}"
        );
    }
}

/// Spaces an editor leaves at the end of map rows are no squares: the map is the one
/// without them. A blank inside a row is an error at it, saying what to write instead.
#[test]
fn spaces_ending_a_map_row_are_dropped_and_a_blank_inside_one_is_refused() {
    let trailing = BASE.replacen("F..O\n\"\"\"", "F..O   \n....\t\n\"\"\"", 1);
    let scenario = Scenario::parse("t.toml", trailing).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(scenario.map, ["F..O", "...."]);
    let message = error_of("F..O", "F. O");
    assert!(
        message.starts_with("t.toml:4:3: a blank is no map symbol"),
        "{message}"
    );
}

/// An indented map is the map without the blanks every row starts with; an error in it
/// points at the file's own column (the `?` after four spaces and `..` is column 7), and
/// rows indented unevenly are refused where a row starts with a blank too many.
#[test]
fn an_indented_map_drops_the_blanks_every_row_starts_with() {
    let indented = BASE.replacen("F..O\n\"\"\"", "    F..O\n    ....\n\"\"\"", 1);
    let scenario = Scenario::parse("t.toml", indented).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(scenario.map, ["F..O", "...."]);
    let message = error_of("F..O\n", "    F..O\n    ..?.\n");
    assert!(
        message.starts_with("t.toml:5:7: unknown map symbol `?`"),
        "{message}"
    );
    let message = error_of("F..O\n", "  F..O\n   ...\n");
    assert!(
        message.starts_with("t.toml:5:3: a blank is no map symbol"),
        "{message}"
    );
}

/// An empty file (or one of blanks only) says so and where to start, not that `system`
/// is missing.
#[test]
fn an_empty_file_says_it_is_empty() {
    for text in ["", " \n\t\n"] {
        let message = Scenario::parse("t.toml", text).unwrap_err().to_string();
        assert!(
            message.starts_with("t.toml:1:1: the file is empty: ")
                && message.contains("d20odds example > my-fight.toml"),
            "{message}"
        );
    }
}

#[test]
fn combatants_must_stand_on_the_map() {
    let message = error_of("F..O", "F...");
    assert!(
        message.starts_with("t.toml:16:9: combatant `O` is not on the map"),
        "{message}"
    );
}

#[test]
fn serde_type_names_never_reach_the_user() {
    let cases = [
        ("hp = 30", "hp = \"thirty\"", "expected a whole number"),
        ("hp = 30", "hp = 2.5", "expected a whole number"),
        (
            "action = \"full\"",
            "action = \"full\"\nflanking = 1",
            "expected true or false",
        ),
        (
            "ac = 14",
            "ac = 14\nimmune_to_crits = \"no\"",
            "expected true or false",
        ),
        (
            "hp = 20",
            "hp = 20\nconditions = \"helpless\"",
            "expected a list",
        ),
    ];
    for (from, to, expected) in cases {
        let error = error_of(from, to);
        assert!(error.contains(expected), "{to}: {error}");
        for name in [
            "i64", "i32", "u8", "u32", "f64", "bool", "sequence", "struct", "Raw",
        ] {
            assert!(!error.contains(name), "{to}: `{name}` in {error}");
        }
    }
    let cases = [
        (
            "invalid type: string \"x\", expected i64",
            "invalid type: string \"x\", expected a whole number",
        ),
        (
            "invalid value: integer `300`, expected u8",
            "invalid value: integer `300`, expected a whole number from 0 to 255",
        ),
        (
            "invalid type: integer `1`, expected struct RawCombatant",
            "invalid type: integer `1`, expected a table",
        ),
        (
            "invalid type: string \"y\", expected a boolean",
            "invalid type: string \"y\", expected true or false",
        ),
        (
            "invalid type: map, expected f64",
            "invalid type: a table, expected a number",
        ),
        (
            "invalid type: sequence, expected a string",
            "invalid type: a list, expected a string",
        ),
        (
            "expected `x` before the multiplier",
            "expected `x` before the multiplier",
        ),
        ("expected a map", "expected a table"),
        ("expected a mapping", "expected a mapping"),
    ];
    for (serde, plain) in cases {
        assert_eq!(plain_type_names(serde), plain);
    }
}
