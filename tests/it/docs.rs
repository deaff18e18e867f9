//! The user guide in `docs/` kept true: the CSV headers `docs/outputs.md` shows are the
//! ones the binary writes, `docs/rules.md` is the output of `d20odds rules`, every key of
//! the experiment format is in `docs/experiment-format.md`, and every relative link of the
//! README and the guide points at a file (and heading) that exists.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use crate::cli::{d20odds, repo};

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The lines of a Markdown text outside fenced code blocks, with their line numbers.
fn prose(text: &str) -> Vec<(usize, &str)> {
    let mut fenced = false;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced {
            out.push((i + 1, line));
        }
    }
    out
}

/// The `(file, experiment, header)` of every ```` ```csv FILE EXPERIMENT ```` block.
fn documented_headers(outputs: &str) -> Vec<(String, String, String)> {
    let lines: Vec<&str> = outputs.lines().collect();
    let mut blocks = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if let Some(info) = line.strip_prefix("```csv ") {
            let words: Vec<&str> = info.split_whitespace().collect();
            assert_eq!(
                words.len(),
                2,
                "docs/outputs.md:{}: a header block is ```csv FILE EXPERIMENT",
                i + 1
            );
            let header = lines.get(i + 1).expect("a header line after ```csv");
            blocks.push((
                words[0].to_string(),
                words[1].to_string(),
                header.to_string(),
            ));
        }
    }
    blocks
}

#[test]
fn every_csv_header_in_outputs_md_is_the_one_the_binary_writes() {
    let outputs = read(&repo().join("docs/outputs.md"));
    let blocks = documented_headers(&outputs);
    let experiments: BTreeSet<&str> = blocks.iter().map(|(_, e, _)| e.as_str()).collect();
    let dir = tempfile::tempdir().unwrap();
    let mut written: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for experiment in &experiments {
        let path = repo().join(experiment);
        let out = d20odds(
            &[
                "run",
                &path.display().to_string(),
                "--trials",
                "2000",
                "--quiet",
                "--out",
                "out",
            ],
            dir.path(),
        );
        assert!(
            out.status.success(),
            "{experiment}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let stem = path.file_stem().unwrap().to_str().unwrap();
        let folder = dir.path().join("out").join(stem);
        let csvs = std::fs::read_dir(&folder)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .filter(|name| name.ends_with(".csv"));
        written.insert(experiment.to_string(), csvs.collect());
    }
    let mut wrong = Vec::new();
    for (file, experiment, header) in &blocks {
        let stem = Path::new(experiment).file_stem().unwrap().to_str().unwrap();
        let csv = dir.path().join("out").join(stem).join(file);
        let Ok(text) = std::fs::read_to_string(&csv) else {
            wrong.push(format!("{experiment} writes no {file}"));
            continue;
        };
        let real = text.lines().next().unwrap_or_default();
        if real != header {
            wrong.push(format!(
                "{file} of {experiment}:\n  docs/outputs.md: {header}\n  written:         {real}"
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "docs/outputs.md does not match the files:\n{}",
        wrong.join("\n")
    );
    let documented: BTreeSet<&str> = blocks.iter().map(|(f, _, _)| f.as_str()).collect();
    for (experiment, files) in &written {
        for file in files {
            assert!(
                documented.contains(file.as_str()),
                "{experiment} writes {file}, which docs/outputs.md does not document"
            );
            assert!(
                outputs.contains(&format!("\n## {file}\n")),
                "docs/outputs.md has no section `## {file}`"
            );
        }
    }
    for file in [
        "summary.csv",
        "rounds.csv",
        "damage.csv",
        "sweep.csv",
        "sweep_rounds.csv",
        "sweep_sides.csv",
        "sweep_variants.csv",
        "heatmap.csv",
        "encounter.csv",
        "combatants.csv",
        "fight_length.csv",
        "sides.csv",
    ] {
        assert!(
            documented.contains(file),
            "docs/outputs.md shows no header of {file}"
        );
    }
}

/// The systems `d20odds rules` prints, in its order.
const SYSTEMS: [&str; 4] = ["pf1", "pf1-variant", "d20modern", "starfinder"];

/// What the command that regenerates docs/rules.md is.
const REGENERATE: &str = "D20ODDS_WRITE_DOCS=1 cargo test --release docs::rules_md";

/// docs/rules.md as it should be: a fixed frame around `d20odds rules SYSTEM` for each
/// system.
fn rules_md() -> String {
    let mut all = String::new();
    let mut doc = String::from(
        "# The rule systems\n\
         \n\
         <!-- Generated from `d20odds rules SYSTEM` (src/rules/describe.rs, printing the\n\
         tables in src/rules/); do not edit by hand. tests/it/docs.rs fails when this file is\n\
         not current; regenerate it with:\n",
    );
    doc += &format!("{REGENERATE}\n-->\n\n");
    doc += "d20odds knows four rule systems. Each section below is exactly what `d20odds rules \
SYSTEM` prints: the modifier tables the simulator uses (cover, flanking, higher ground, \
critical hits, concealment, injury, coup de grace, range, areas, every condition, size) and \
the interpretations d20odds chose where the rules leave a call to the GM. \"Ambiguity N\" \
is the number of that question in the project's rules notes; each line states the reading \
used in full.\n\n\
The experiment's `system` key picks one ([experiment-format.md](experiment-format.md)); \
the condition names below are the values of a combatant's `conditions`.\n\n";
    let headings: Vec<String> = SYSTEMS
        .iter()
        .map(|system| {
            let out = d20odds(&["rules", system], &repo());
            assert!(out.status.success(), "d20odds rules {system}");
            let text = String::from_utf8(out.stdout).unwrap();
            all += &text;
            let (title, _) = text.split_once('\n').unwrap();
            title.to_string()
        })
        .collect();
    doc += "Contents:\n\n";
    for title in &headings {
        doc += &format!("- [{title}](#{})\n", slug(title));
    }
    let everything = d20odds(&["rules"], &repo());
    assert_eq!(
        String::from_utf8(everything.stdout).unwrap(),
        all,
        "`d20odds rules` prints more systems than docs/rules.md lists: add them to SYSTEMS"
    );
    for system in SYSTEMS {
        let text = String::from_utf8(d20odds(&["rules", system], &repo()).stdout).unwrap();
        let (title, body) = text.split_once('\n').unwrap();
        doc += &format!(
            "\n## {title}\n\n`d20odds rules {system}`:\n\n```text\n{}\n```\n",
            body.trim_matches('\n')
        );
    }
    doc
}

#[test]
fn rules_md_is_current() {
    let path = repo().join("docs/rules.md");
    let expected = rules_md();
    if std::env::var_os("D20ODDS_WRITE_DOCS").is_some() {
        std::fs::write(&path, &expected).unwrap();
        return;
    }
    let current = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        current == expected,
        "docs/rules.md is not the output of `d20odds rules`; regenerate it with\n    {REGENERATE}"
    );
}

/// The keys of the experiment format: every field of the `Raw*` structs of
/// src/scenario/raw.rs, by its serde name.
fn parser_keys() -> BTreeSet<String> {
    let raw = read(&repo().join("src/scenario/raw.rs"));
    let mut keys = BTreeSet::new();
    let mut in_struct = false;
    let mut rename: Option<String> = None;
    for line in raw.lines() {
        let line = line.trim();
        if line.starts_with("pub struct Raw") && line.ends_with('{') {
            in_struct = true;
        } else if line == "}" {
            in_struct = false;
        } else if in_struct {
            if let Some(at) = line.find("rename = \"") {
                let rest = &line[at + 10..];
                rename = Some(rest[..rest.find('"').unwrap()].to_string());
            } else if let Some(field) = line.strip_prefix("pub ") {
                let name = field.split(':').next().unwrap().trim();
                keys.insert(rename.take().unwrap_or_else(|| name.to_string()));
            }
        }
    }
    keys
}

#[test]
fn experiment_format_md_documents_every_key_the_parser_accepts() {
    let keys = parser_keys();
    for key in [
        "system",
        "token",
        "attacker",
        "blocks",
        "partial_cover",
        "set",
    ] {
        assert!(keys.contains(key), "raw.rs parsed: {keys:?}");
    }
    assert!(keys.contains("combatant") && keys.contains("attack"));
    let doc = read(&repo().join("docs/experiment-format.md"));
    let table_keys: BTreeSet<&str> = doc
        .lines()
        .filter_map(|l| l.strip_prefix("| "))
        .filter_map(|l| l.split(" |").next())
        .flat_map(|cell| cell.split(", "))
        .filter_map(|k| k.strip_prefix('`')?.strip_suffix('`'))
        .collect();
    let missing: Vec<&String> = keys
        .iter()
        .filter(|k| !table_keys.contains(k.as_str()))
        .collect();
    assert!(
        missing.is_empty(),
        "docs/experiment-format.md has no table row for {missing:?} (keys of src/scenario/raw.rs)"
    );
}

/// GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of a Markdown file's headings.
fn anchors(text: &str) -> BTreeSet<String> {
    prose(text)
        .into_iter()
        .filter_map(|(_, l)| l.strip_prefix('#'))
        .map(|l| slug(l.trim_start_matches('#')))
        .collect()
}

/// Every link target of a Markdown text outside code: `[text](target)` and
/// `<img src="target">`, with its line number.
fn links(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (number, line) in prose(text) {
        let mut rest = line;
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let end = after.find(')').unwrap_or(after.len());
            out.push((number, after[..end].trim().to_string()));
            rest = &after[end..];
        }
        let mut rest = line;
        while let Some(at) = rest.find("src=\"") {
            let after = &rest[at + 5..];
            let end = after.find('"').unwrap_or(after.len());
            out.push((number, after[..end].to_string()));
            rest = &after[end..];
        }
    }
    out
}

fn markdown_files() -> Vec<PathBuf> {
    let mut files = vec![repo().join("README.md"), repo().join("ARCHITECTURE.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(repo().join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    files.extend(docs);
    files
}

#[test]
fn every_relative_link_in_the_readme_and_docs_points_at_a_file_that_exists() {
    let mut broken = Vec::new();
    let mut checked = 0;
    for file in markdown_files() {
        let text = read(&file);
        let name = file.strip_prefix(repo()).unwrap().display().to_string();
        for (line, target) in links(&text) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            checked += 1;
            let (path, anchor) = target.split_once('#').unwrap_or((&target, ""));
            let linked = if path.is_empty() {
                file.clone()
            } else {
                file.parent().unwrap().join(path)
            };
            if !linked.exists() {
                broken.push(format!("{name}:{line}: {target} (no such file)"));
                continue;
            }
            let is_markdown = linked.extension().is_some_and(|e| e == "md");
            if !anchor.is_empty() && is_markdown && !anchors(&read(&linked)).contains(anchor) {
                broken.push(format!("{name}:{line}: {target} (no such heading)"));
            }
        }
    }
    assert!(checked > 20, "only {checked} links found");
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn the_link_checker_finds_links_anchors_and_images() {
    let text = "# Top `keys`\n\nSee [a](docs/x.md#the-map), <img src=\"img/m.png\" width=\"9\">.\n\
                ```toml\nnot = [\"a link\"](here)\n```\n[b](#top-keys)\n";
    assert_eq!(
        links(text),
        [
            (3, "docs/x.md#the-map".to_string()),
            (3, "img/m.png".to_string()),
            (7, "#top-keys".to_string())
        ]
    );
    assert!(anchors(text).contains("top-keys"));
    assert_eq!(slug("`[[combatant.attack]]`"), "combatantattack");
    assert_eq!(
        slug("report.html and summary.md"),
        "reporthtml-and-summarymd"
    );
    assert_eq!(slug("Variants (planned)"), "variants-planned");
}

/// The block after "What the first command prints" is what `run
/// experiments/ogre-corridor.toml` prints: stdout, then the `report:` line of stderr.
#[test]
fn the_readmes_sample_output_is_what_its_first_command_prints() {
    let readme = read(&repo().join("README.md"));
    let after = readme
        .split_once("What the first command prints")
        .expect("README: the sample output's paragraph")
        .1;
    let block = after
        .split_once("```text\n")
        .and_then(|(_, rest)| rest.split_once("```"))
        .expect("README: a ```text block after the paragraph")
        .0;
    let dir = tempfile::tempdir().unwrap();
    let experiment = repo().join("experiments/ogre-corridor.toml");
    let out = d20odds(
        &["run", &experiment.display().to_string(), "--out", "reports"],
        dir.path(),
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let printed = format!("{}{stderr}", String::from_utf8_lossy(&out.stdout));
    assert_eq!(
        block, printed,
        "README's sample output is stale: paste what `d20odds run experiments/ogre-corridor.toml` prints"
    );
}

/// Every ```` ```toml ```` block of the README that names a `system` is a whole
/// experiment `check` accepts, so a reader can copy the annotated one and run it.
#[test]
fn the_readmes_experiments_are_accepted_as_written() {
    let readme = read(&repo().join("README.md"));
    let dir = tempfile::tempdir().unwrap();
    let mut checked = 0;
    for (n, block) in readme.split("```toml\n").skip(1).enumerate() {
        let block = block.split_once("```").expect("a closed ```toml block").0;
        if !block.lines().any(|l| l.starts_with("system")) {
            continue;
        }
        let file = dir.path().join(format!("readme-{n}.toml"));
        std::fs::write(&file, block).unwrap();
        let out = d20odds(&["check", &file.display().to_string()], dir.path());
        assert!(
            out.status.success(),
            "README's ```toml block {n}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        checked += 1;
    }
    assert!(checked >= 1, "no README experiment found");
}
