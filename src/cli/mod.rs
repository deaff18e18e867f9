//! Command-line interface: flags → validated requests → library calls → printed results.

mod examples;
mod progress;

use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

use clap::builder::styling::{AnsiColor, Styles};
use clap::builder::{PossibleValue, StringValueParser, TypedValueParser};
use clap::{Args, CommandFactory, Parser, Subcommand, ValueEnum};
use clap_complete::Shell;

use d20odds::run::{self, Phase, Settings};
use d20odds::{
    ArmorClass, CoverLevel, CritSpec, Dice, DiceError, Error, Formats, InputError, LineAttack,
    LineDefence, MAX_HIT_POINTS, MAX_MODIFIER, Plan, PlanBuilder, RuleSet, SamplerKind, Situation,
    SystemId, Target, Vitals, check_folder, check_tally_size, modifier_range, one_or_array,
    report_files, report_folder, summary_text, write_folder, write_json,
};

const EXAMPLES: &str = "\
Examples:
  d20odds example > my-fight.toml
  d20odds run my-fight.toml
  d20odds run experiments/ogre-corridor.toml
  d20odds attack --bonus 7 --ac 18 --crit 19-20/x2 --miss-chance 20 --damage 1d8+3
  d20odds check experiments/pf1-cover-examples.toml
  d20odds rules pf1
  d20odds completions bash > ~/.local/share/bash-completion/completions/d20odds
  d20odds man > ~/.local/share/man/man1/d20odds.1";

const RUN_EXAMPLES: &str = "\
Examples:
  d20odds run experiments/ogre-corridor.toml
  d20odds run experiments/*.toml --trials 100000 --threads 2 --out /tmp/reports
  d20odds run experiments/ogre-corridor.toml --precision 0.001 --trials 10000000 --json > odds.json
  d20odds run experiments/crit-fishing.toml --seed 42 --sampler dice";

const ATTACK_EXAMPLES: &str = "\
Examples:
  d20odds attack --bonus 7 --ac 18 --crit 19-20/x2 --miss-chance 20 --damage 1d8+3
  d20odds attack --bonus 14,9 --ac 19 --damage 2d6+7 --hp 45 --con 16 --rounds 3
  d20odds attack --bonus 6 --ac 16 --damage 2d8 --ranged --cover soft --system d20modern
  d20odds attack --bonus 8 --ac 15 --vs eac --damage 1d8+2 --ranged --system starfinder --json";

const CHECK_EXAMPLES: &str = "\
Examples:
  d20odds check experiments/pf1-cover-examples.toml
  d20odds check experiments/*.toml
  d20odds check experiments/reach-and-flanking.toml --json";

const RULES_EXAMPLES: &str = "\
Examples:
  d20odds rules
  d20odds rules pf1
  d20odds rules starfinder";

const EXAMPLE_EXAMPLES: &str = "\
Examples:
  d20odds example > my-fight.toml
  d20odds example pf1-party-vs-ogre > party.toml
  d20odds example --list";

const COMPLETIONS_EXAMPLES: &str = "\
Examples:
  d20odds completions bash > ~/.local/share/bash-completion/completions/d20odds
  d20odds completions zsh > ~/.zfunc/_d20odds
  d20odds completions fish > ~/.config/fish/completions/d20odds.fish";

const MAN_EXAMPLES: &str = "\
Examples:
  d20odds man > ~/.local/share/man/man1/d20odds.1
  d20odds man run > ~/.local/share/man/man1/d20odds-run.1
  d20odds man attack | man -l -";

/// Help in colour on a terminal (clap leaves it plain when stdout is not a terminal or
/// `NO_COLOR` is set): headings and flags stand out from their descriptions.
fn help_styles() -> Styles {
    Styles::styled()
        .header(AnsiColor::Green.on_default().bold())
        .usage(AnsiColor::Green.on_default().bold())
        .literal(AnsiColor::Cyan.on_default().bold())
        .placeholder(AnsiColor::Cyan.on_default())
        .error(AnsiColor::Red.on_default().bold())
        .valid(AnsiColor::Green.on_default())
        .invalid(AnsiColor::Yellow.on_default())
}

/// The command line with `--help` after `help` understood, as most tools do: clap's
/// `help` takes no flags, so `d20odds help --help` would be an error. It prints the help
/// of `help`, and `d20odds help run --help` the help of `run`.
pub fn arguments(args: impl IntoIterator<Item = OsString>) -> Vec<OsString> {
    let mut args: Vec<OsString> = args.into_iter().collect();
    if args.get(1).is_some_and(|word| word == "help") {
        let after_help = args.split_off(2);
        let asked = !after_help.is_empty();
        args.extend((after_help.into_iter()).filter(|word| word != "--help" && word != "-h"));
        if asked && args.len() == 2 {
            args.push("help".into());
        }
    }
    args
}

/// d20odds: what are my odds in d20 tactical combat?
#[derive(Debug, Parser)]
#[command(version, about, after_help = EXAMPLES, styles = help_styles())]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Simulate experiment files; print a summary and write reports/<file stem>/.
    #[command(after_help = RUN_EXAMPLES)]
    Run(RunArgs),
    /// One attack (or full attack) from flags, exact and simulated; writes nothing.
    #[command(after_help = ATTACK_EXAMPLES)]
    Attack(AttackArgs),
    /// Explain the map: every plan line's cover, concealment, flanking, reach and higher
    /// ground, the lines that decided them, and the final numbers; simulates nothing.
    ///
    /// A file `check` accepts is one `run` accepts: the same validation, the same messages
    /// and exit codes, including the report destination under --out.
    #[command(after_help = CHECK_EXAMPLES)]
    Check {
        /// Experiment files (TOML, see README).
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
        /// Print one JSON document ({"plan": [...]}, an array for several files).
        #[arg(long)]
        json: bool,
        /// The folder `run --out` would write into: its report folders are checked as
        /// `run` checks them; nothing is written.
        #[arg(long, value_name = "DIR", default_value = "reports")]
        out: PathBuf,
    },
    /// Print the modifier tables the simulator uses for a system.
    #[command(after_help = RULES_EXAMPLES)]
    Rules {
        /// pf1, pf1-variant, d20modern or starfinder (default: every supported system).
        #[arg(value_parser = OneOfNames(system_names()), hide_possible_values = true)]
        system: Option<String>,
    },
    /// Print a shipped experiment file to standard output, to start one of your own from:
    /// each is commented, and `run` takes it as it is.
    #[command(after_help = EXAMPLE_EXAMPLES)]
    Example {
        /// Which one (default: ogre-corridor, the showcase); --list names them all.
        #[arg(value_parser = OneOfNames(examples::EXAMPLES.map(|(name, _)| name).to_vec()), hide_possible_values = true)]
        name: Option<String>,
        /// List the examples, each with its system and title, instead.
        #[arg(long, conflicts_with = "name")]
        list: bool,
    },
    /// Print a shell completion script to standard output.
    #[command(after_help = COMPLETIONS_EXAMPLES)]
    Completions {
        /// The shell the script is for.
        #[arg(value_enum)]
        shell: Shell,
    },
    /// Print a manual page (roff) to standard output: d20odds(1), or with a subcommand
    /// the page d20odds(1) refers to for it, d20odds-SUBCOMMAND(1).
    #[command(after_help = MAN_EXAMPLES)]
    Man {
        /// The subcommand whose page to print (default: the main page).
        #[arg(value_parser = ["run", "attack", "check", "rules", "example", "completions", "man"])]
        subcommand: Option<String>,
    },
}

#[derive(Debug, Args)]
struct SimulationArgs {
    /// Trials to run (default: the file's `trials`, else 1000000; with --precision, the
    /// most to run).
    #[arg(long, value_parser = whole_number)]
    trials: Option<u64>,
    /// Random seed (default: the file's `seed`, else 0); same seed, same numbers, whatever
    /// --threads.
    #[arg(long, value_parser = whole_number)]
    seed: Option<u64>,
    /// Worker threads (default: one per core).
    #[arg(long, value_parser = thread_count)]
    threads: Option<usize>,
    /// Stop once every probability's 95% interval half-width is at most this (e.g. 0.001).
    #[arg(long, value_name = "E", value_parser = decimal_number)]
    precision: Option<f64>,
    /// Print one JSON document instead of the summary table.
    #[arg(long)]
    json: bool,
    /// No progress bar (figures, notes and `report:` lines are still printed).
    #[arg(long)]
    quiet: bool,
    /// How attacks are drawn: `table` (one draw from the exact outcome table) or `dice`
    /// (every die rolled); both are checked against the exact engine.
    #[arg(long, value_enum, default_value_t = Sampler::Table)]
    sampler: Sampler,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum Sampler {
    Table,
    Dice,
}

impl SimulationArgs {
    /// The library's run settings these flags make.
    fn settings(&self, formats: Formats) -> Settings {
        Settings {
            trials: self.trials,
            seed: self.seed,
            threads: self.threads,
            precision: self.precision,
            sampler: match self.sampler {
                Sampler::Table => SamplerKind::Table,
                Sampler::Dice => SamplerKind::Dice,
            },
            formats,
            json: self.json,
        }
    }
}

/// One progress bar per phase of one run, on stderr when it is a terminal. Each phase's
/// bar is set once, so the workers' frequent `advance_to` reads it without a lock.
struct Bars {
    quiet: bool,
    /// The bars of [`Phase::Exact`], [`Phase::Trials`] and [`Phase::Squares`], once
    /// started.
    phases: [OnceLock<progress::PhaseBar>; 3],
    /// The index in `phases` of the phase running.
    current: AtomicUsize,
}

impl Bars {
    fn new(quiet: bool) -> Self {
        Self {
            quiet,
            phases: [OnceLock::new(), OnceLock::new(), OnceLock::new()],
            current: AtomicUsize::new(0),
        }
    }

    fn slot(phase: Phase) -> usize {
        match phase {
            Phase::Exact => 0,
            Phase::Trials => 1,
            Phase::Squares => 2,
        }
    }

    fn running(&self) -> Option<&progress::PhaseBar> {
        self.phases[self.current.load(Ordering::Relaxed)].get()
    }
}

impl run::Progress for Bars {
    fn start(&self, phase: Phase, total: u64) {
        let slot = Self::slot(phase);
        self.phases[slot].get_or_init(|| progress::PhaseBar::new(total, phase, self.quiet));
        self.current.store(slot, Ordering::Relaxed);
    }

    fn advance_to(&self, done: u64) {
        if let Some(bar) = self.running() {
            bar.set(done);
        }
    }

    fn finish(&self) {
        if let Some(bar) = self.running() {
            bar.finish();
        }
    }
}

/// The summary (or JSON) goes to stdout; progress, notes and one `report: DIR/<stem>/`
/// line per report folder written go to stderr, so `--json > file` keeps a clean document
/// and the paths are shown even with --quiet.
#[derive(Debug, Args)]
#[command(allow_negative_numbers = true)]
struct RunArgs {
    /// Experiment files (TOML, see README).
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// Folder in which each experiment's report folder <file stem>/ is written.
    #[arg(long, value_name = "DIR", default_value = "reports")]
    out: PathBuf,
    /// Also write each CSV table as Parquet beside it (summary.parquet, …); needs a build
    /// with the `parquet` feature (cargo build --release --features parquet).
    #[arg(long)]
    parquet: bool,
    #[command(flatten)]
    sim: SimulationArgs,
}

/// Nothing is read from or written to a file: every figure comes from these flags.
#[derive(Debug, Args)]
#[command(allow_negative_numbers = true)]
#[command(mut_arg("trials", |a| a.help("Trials to run (default 1000000; with --precision, the most to run)")))]
#[command(mut_arg("seed", |a| a.help("Random seed (default 0); same seed, same numbers, whatever --threads")))]
#[command(mut_arg("quiet", |a| a.help("No progress bar (the figures and notes are still printed)")))]
struct AttackArgs {
    /// Attack bonus; several, comma-separated, make a full attack (e.g. 14,9).
    #[arg(long, required = true, action = clap::ArgAction::Append, value_parser = bonuses)]
    bonus: Vec<Bonuses>,
    /// Target's armor class (Starfinder: the one --vs names).
    #[arg(long, value_parser = modifier)]
    ac: i32,
    /// Starfinder: the armor class the attack targets, eac or kac (default kac, as in
    /// experiment files).
    #[arg(long, value_parser = OneOfNames(ArmorClass::names()), hide_possible_values = true)]
    vs: Option<String>,
    /// Damage dice, e.g. 1d8+3.
    #[arg(long)]
    damage: String,
    /// Threat range and multiplier, e.g. 19-20/x2 (default 20/x2; refused with
    /// --immune-to-crits).
    #[arg(long)]
    crit: Option<String>,
    /// Miss chance from concealment, in percent.
    #[arg(long, default_value_t = 0, value_parser = percentage)]
    miss_chance: u8,
    /// Target's cover, one of the system's levels (`d20odds rules SYSTEM`): pf1 and
    /// starfinder none, partial, cover, soft, improved; pf1-variant the same without
    /// partial; d20modern none, quarter, half, three-quarters, nine-tenths, soft (a level
    /// worth nothing against a melee attack in the system, such as soft cover in pf1,
    /// needs --ranged).
    #[arg(long, default_value = "none", value_parser = OneOfNames(cover_names()), hide_possible_values = true)]
    cover: String,
    /// The attack is a ranged attack (soft cover applies, flanking does not).
    #[arg(long)]
    ranged: bool,
    /// The attacker flanks the target (the system's flanking bonus on a melee attack;
    /// refused with --ranged).
    #[arg(long)]
    flanking: bool,
    /// The target is immune to critical hits.
    #[arg(long)]
    immune_to_crits: bool,
    /// Target's hit points: adds down/dead chances.
    #[arg(long, value_parser = hit_points)]
    hp: Option<i64>,
    /// Target's Con score: pf1 dead at -con hp (without it, dead when down); d20modern
    /// massive-damage threshold; not used in starfinder.
    #[arg(long, value_parser = hit_points)]
    con: Option<i64>,
    /// Target's Fort save bonus: d20modern's save against massive damage (needs --con).
    #[arg(long, value_parser = modifier)]
    fort: Option<i32>,
    /// Rounds of attacks per trial (default 1; needs --hp: rounds only add up damage
    /// toward down and dead).
    #[arg(long, value_parser = rounds)]
    rounds: Option<u32>,
    /// Rule system.
    #[arg(long, default_value = "pf1", value_parser = OneOfNames(system_names()))]
    system: String,
    #[command(flatten)]
    sim: SimulationArgs,
}

/// A flag whose value names one of `names`: kept as written, for the command to check
/// (its error names the flag, what it expects and the nearest name, and may depend on
/// another flag, as `--cover` on `--system`), while shell completion offers the names.
#[derive(Clone)]
struct OneOfNames(Vec<&'static str>);

impl TypedValueParser for OneOfNames {
    type Value = String;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<String, clap::Error> {
        StringValueParser::new().parse_ref(cmd, arg, value)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(
            self.0.iter().map(|&name| PossibleValue::new(name)),
        ))
    }
}

/// Every system's cover levels' names but `total`, which `--cover` always refuses (total
/// cover means no attack).
fn cover_names() -> Vec<&'static str> {
    (CoverLevel::ALL.into_iter())
        .filter(|&level| level != CoverLevel::Total)
        .map(CoverLevel::key)
        .collect()
}

/// Every system's name, as `--system` and `rules` take it.
fn system_names() -> Vec<&'static str> {
    SystemId::ALL.map(SystemId::key).to_vec()
}

/// Runs a parsed command line.
pub fn run(cli: Cli) -> Result<(), Error> {
    match cli.command {
        Command::Run(args) => run_files(&args, &*interrupt_flag()?),
        Command::Attack(args) => run_attack(&args, &*interrupt_flag()?),
        Command::Rules { system } => print_rules(system.as_deref()),
        Command::Example { name, list } => print_example(name.as_deref(), list),
        Command::Check { files, json, out } => check_files(&files, json, &out),
        Command::Completions { shell } => print_completions(shell),
        Command::Man { subcommand } => print_man(subcommand.as_deref()),
    }
}

/// A second Ctrl-C within this long of the first counts as the same press: `timeout -s
/// INT` signals the process and then its whole process group, and keys bounce.
#[cfg(unix)]
const SAME_PRESS: std::time::Duration = std::time::Duration::from_secs(1);

/// Set by the first Ctrl-C (the run stops at the next block and reports what it has); a
/// second one, at least [`SAME_PRESS`] later, exits at once with code 130 without
/// writing, and says so. A file-size limit's signal (SIGXFSZ) is caught too, so a write
/// past the limit fails as an error naming the path (exit 1) instead of killing the
/// process. The signals are handled on a thread of their own, outside the handler.
#[cfg(unix)]
fn interrupt_flag() -> Result<Arc<AtomicBool>, Error> {
    use signal_hook::consts::{SIGINT, SIGXFSZ};
    use signal_hook::iterator::Signals;
    let mut signals =
        Signals::new([SIGINT, SIGXFSZ]).map_err(|e| Error::io("the Ctrl-C handler", e))?;
    let stop = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stop);
    std::thread::spawn(move || {
        let mut first = None;
        for _ctrl_c in signals.forever().filter(|&s| s == SIGINT) {
            match first {
                None => {
                    flag.store(true, Ordering::SeqCst);
                    first = Some(std::time::Instant::now());
                }
                Some(at) if at.elapsed() >= SAME_PRESS => {
                    eprintln!("\nsecond Ctrl-C: exiting at once, without writing the report");
                    std::process::exit(130);
                }
                Some(_) => {}
            }
        }
    });
    Ok(stop)
}

/// Set by the first Ctrl-C; a second one exits at once with code 130. signal-hook runs
/// the actions in the order they are registered, so the exit is armed only once the flag
/// is already set.
#[cfg(not(unix))]
fn interrupt_flag() -> Result<Arc<AtomicBool>, Error> {
    use signal_hook::consts::SIGINT;
    use signal_hook::flag;
    let stop = Arc::new(AtomicBool::new(false));
    flag::register_conditional_shutdown(SIGINT, 130, Arc::clone(&stop))
        .and_then(|_| flag::register(SIGINT, Arc::clone(&stop)))
        .map_err(|e| Error::io("the Ctrl-C handler", e))?;
    Ok(stop)
}

/// Prints to stdout, reporting a failed write (a full disk, a closed pipe) as an error.
fn print_out(text: &str) -> Result<(), Error> {
    let mut stdout = std::io::stdout().lock();
    writeln!(stdout, "{text}")
        .and_then(|()| stdout.flush())
        .map_err(|e| Error::io("standard output", e))
}

fn run_files(args: &RunArgs, stop: &AtomicBool) -> Result<(), Error> {
    let settings = args.sim.settings(Formats {
        parquet: args.parquet,
    });
    let jobs = prepare_all(&args.files, &settings)?;
    let folders = destinations(&args.out, &jobs)?;
    let mut documents = Vec::new();
    let mut written = Vec::new();
    for (at, (job, folder)) in jobs.iter().zip(folders).enumerate() {
        let finished = job.run(&settings, &Bars::new(args.sim.quiet), stop)?;
        print_notes(&finished.notes);
        let results = finished.results;
        write_folder(
            &folder,
            &report_files(&results, &job.inputs, settings.formats)?,
        )?;
        written.push(folder);
        let interrupted = results.interrupted;
        if args.sim.json {
            documents.push(results.json());
        } else {
            print_out(&summary_text(&results))?;
        }
        if interrupted {
            let not_run: Vec<String> = (jobs[at + 1..].iter())
                .map(|later| later.path.display().to_string())
                .collect();
            if !not_run.is_empty() {
                print_notes(&[format!(
                    "interrupted: not run, no report written: {}",
                    not_run.join(", ")
                )]);
            }
            break;
        }
    }
    if args.sim.json {
        write_json(documents, &mut std::io::stdout().lock())?;
    }
    print_report_paths(&written);
    interrupted(stop)
}

/// Loads and validates every file as `run` needs it, before anything runs, so a bad
/// file exits 2 with nothing written; `check` goes through the same door.
fn prepare_all(files: &[PathBuf], settings: &Settings) -> Result<Vec<run::Prepared>, Error> {
    files
        .iter()
        .map(|path| run::prepare(path, settings))
        .collect()
}

/// Each job's report folder under `out`, refused (exit 2, naming the path) when two jobs
/// would share one or when d20odds may not replace it; `check` runs the same checks.
fn destinations(out: &Path, jobs: &[run::Prepared]) -> Result<Vec<PathBuf>, Error> {
    let experiments: Vec<&Path> = jobs.iter().map(|job| job.path.as_path()).collect();
    let mut folders: Vec<(PathBuf, &Path)> = Vec::new();
    for job in jobs {
        let folder = report_folder(out, &job.path)?;
        if let Some((_, earlier)) = folders.iter().find(|(f, _)| *f == folder) {
            let same_file = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.into());
            let message = if same_file(earlier) == same_file(&job.path) {
                format!(
                    "{} is given twice; give each experiment once",
                    job.path.display()
                )
            } else {
                format!(
                    "both {} and {} would write this report folder; rename one of them",
                    earlier.display(),
                    job.path.display()
                )
            };
            return Err(Error::Destination {
                message,
                path: folder,
            });
        }
        check_folder(&folder, &experiments)?;
        folders.push((folder, &job.path));
    }
    Ok(folders.into_iter().map(|(folder, _)| folder).collect())
}

/// One `report: DIR/` line per report folder written, on stderr after everything else,
/// so the user knows where to look without stdout (the summary or JSON) changing.
fn print_report_paths(folders: &[PathBuf]) {
    let mut stderr = std::io::stderr().lock();
    for folder in folders {
        let _ = writeln!(stderr, "report: {}/", folder.display());
    }
}

/// Notes of a run for the user, on stderr.
fn print_notes(notes: &[String]) {
    let mut stderr = std::io::stderr().lock();
    for note in notes {
        let _ = writeln!(stderr, "note: {note}");
    }
}

/// `Err(Interrupted)` (exit 130) once Ctrl-C was pressed, after the report is out.
fn interrupted(stop: &AtomicBool) -> Result<(), Error> {
    match stop.load(Ordering::Relaxed) {
        true => Err(Error::Interrupted),
        false => Ok(()),
    }
}

/// `d20odds attack`: one attack line from flags, simulated and printed.
fn run_attack(args: &AttackArgs, stop: &AtomicBool) -> Result<(), Error> {
    let plan = attack_plan(args)?;
    let settings = args.sim.settings(Formats::default());
    let config = settings.engine_config(0, d20odds::DEFAULT_TRIALS)?;
    check_tally_size(&plan).map_err(|(_, why)| InputError::flag("--damage", why))?;
    let bar = progress::PhaseBar::new(config.trials, Phase::Trials, args.sim.quiet);
    let (mut results, note) = run::simulate(&plan, &config, &|n| bar.set(n), stop);
    print_notes(note.as_slice());
    bar.finish();
    results.interrupted = stop.load(Ordering::Relaxed);
    if args.sim.json {
        write_json(vec![results.json()], &mut std::io::stdout().lock())?;
    } else {
        print_out(&summary_text(&results))?;
    }
    interrupted(stop)
}

/// The one-line plan `d20odds attack` describes with its flags.
fn attack_plan(args: &AttackArgs) -> Result<Plan, Error> {
    let system: SystemId = args
        .system
        .parse()
        .map_err(|m: String| InputError::flag("--system", m))?;
    let rules = system.rules();
    let damage: Dice =
        (args.damage.parse()).map_err(|e| spec_error("--damage", &args.damage, e))?;
    let crit: CritSpec = match &args.crit {
        Some(text) => text.parse().map_err(|e| spec_error("--crit", text, e))?,
        None => CritSpec::default(),
    };
    let cover = (rules.cover_level(&args.cover)).map_err(|m| InputError::flag("--cover", m))?;
    check_attack_numbers(args, system)?;
    check_attack_combinations(args, rules, cover, crit)?;
    let mut plan = PlanBuilder::new("attack", system, args.rounds.unwrap_or(1));
    let vitals = Vitals {
        hp: args.hp,
        con: args.con,
        stamina: 0,
        resolve: false,
    };
    let target = plan.add_target(Target::for_system(rules, "target".into(), vitals));
    let mut defence = LineDefence::plain(target, args.ac, args.immune_to_crits);
    defence.con = args.con;
    defence.fort = args.fort.unwrap_or(0);
    defence.armor = armor_class(args, rules)?;
    plan.add_line(
        rules,
        LineAttack::plain(
            "attacker",
            "attack",
            !args.ranged,
            args.bonus
                .iter()
                .flat_map(|b| b.0.iter().copied())
                .collect(),
            damage,
            crit,
        ),
        defence,
        Situation {
            cover: Some(cover),
            concealment: Some(args.miss_chance),
            flanking: Some(args.flanking),
            ..Situation::default()
        },
        None,
    )
    .map_err(|m| InputError::flag("--cover", m))?;
    Ok(plan.build())
}

/// The number flags of `d20odds attack` within their limits.
/// A flag value one of our value parsers refused, as `--flag: why` in the words of every
/// other input error, rather than the parser's "invalid value … for '--flag <FLAG>'".
pub fn flag_error(e: &clap::Error) -> Option<InputError> {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if e.kind() != ErrorKind::ValueValidation {
        return None;
    }
    let Some(ContextValue::String(arg)) = e.get(ContextKind::InvalidArg) else {
        return None;
    };
    let flag = arg.split_whitespace().next()?;
    let why = std::error::Error::source(e)?.to_string();
    Some(InputError::flag(flag, why))
}

/// A whole-number flag's value, written as a file writes one (`1_000_000` too), within
/// `least..=most`; otherwise what the flag expects (`range`), in the words errors use for
/// files, never the parser's.
fn whole_within<T: TryFrom<i128>>(
    text: &str,
    least: i128,
    most: i128,
    range: impl FnOnce() -> String,
) -> Result<T, String> {
    read_within(text, whole_digits(text), least, most, range)
}

/// [`whole_within`] for a `value` already read from `text`.
fn read_within<T: TryFrom<i128>>(
    text: &str,
    value: Option<i128>,
    least: i128,
    most: i128,
    range: impl FnOnce() -> String,
) -> Result<T, String> {
    (value.filter(|v| (least..=most).contains(v)))
        .and_then(|v| T::try_from(v).ok())
        .ok_or_else(|| match text {
            "" => format!("expected {}, not nothing", range()),
            _ => format!("expected {}, not `{text}`", range()),
        })
}

/// The whole number `text` writes, `_` grouping its digits; `None` for anything else.
fn whole_digits(text: &str) -> Option<i128> {
    let digits: String = text.chars().filter(|&c| c != '_').collect();
    digits.parse::<i128>().ok()
}

/// A count or seed flag (`--trials`, `--seed`): any whole number a `u64` holds, the
/// largest named when it is past it; the run checks its range.
fn whole_number(text: &str) -> Result<u64, String> {
    let largest = u64::MAX;
    let value = whole_digits(text);
    read_within(text, value, 0, largest.into(), || {
        "a whole number such as 100000 (`_` may group its digits)".into()
    })
    .map_err(|why| match value {
        Some(v) if v > i128::from(largest) => format!("{why}: the largest is {largest}"),
        _ => why,
    })
}

/// `--precision`: a decimal number (the run checks its range).
fn decimal_number(text: &str) -> Result<f64, String> {
    (text.parse::<f64>().ok())
        .filter(|x| x.is_finite())
        .ok_or_else(|| format!("expected a number such as 0.001, not `{text}`"))
}

/// `--bonus` and `--ac`: a modifier within the files' bounds.
fn modifier(text: &str) -> Result<i32, String> {
    let most = i128::from(MAX_MODIFIER);
    whole_within(text, -most, most, modifier_range)
}

/// One `--bonus`'s attack bonuses, in the order of the full attack (a repeated flag's
/// bonuses follow).
#[derive(Debug, Clone)]
struct Bonuses(Vec<i32>);

/// `--bonus`: one modifier, or several separated by commas (blanks beside them allowed,
/// as in `"14, 9"`); an empty one (a comma too many) is named as such, where each part
/// alone would only be "nothing".
fn bonuses(text: &str) -> Result<Bonuses, String> {
    if text.contains(',') && text.split(',').any(|part| part.trim().is_empty()) {
        return Err(format!(
            "expected {} for each of its comma-separated bonuses (such as 14,9), not `{text}`: a comma with no bonus on one side",
            modifier_range()
        ));
    }
    (text.split(',').map(|part| modifier(part.trim())))
        .collect::<Result<_, _>>()
        .map(Bonuses)
}

/// `--hp` and `--con`.
fn hit_points(text: &str) -> Result<i64, String> {
    whole_within(text, 1, MAX_HIT_POINTS.into(), || {
        format!("1 to {MAX_HIT_POINTS}")
    })
}

/// `--miss-chance`.
fn percentage(text: &str) -> Result<u8, String> {
    whole_within(text, 0, 100, || "a percentage: 0 to 100".into())
}

/// `--threads`: 1 to the most a run may ask for.
fn thread_count(text: &str) -> Result<usize, String> {
    let most = d20odds::MAX_THREADS;
    whole_within(text, 1, most as i128, || format!("1 to {most}"))
}

/// `--rounds`.
fn rounds(text: &str) -> Result<u32, String> {
    whole_within(text, 1, d20odds::MAX_ROUNDS.into(), || {
        format!("1 to {}", d20odds::MAX_ROUNDS)
    })
}

fn check_attack_numbers(args: &AttackArgs, system: SystemId) -> Result<(), Error> {
    if args.con.is_some() && args.hp.is_none() {
        return Err(InputError::flag("--con", "needs --hp").into());
    }
    if args.fort.is_some() && (args.con.is_none() || system != SystemId::D20Modern) {
        return Err(InputError::flag(
            "--fort",
            "is the save against d20modern's massive damage: it needs --system d20modern and --con",
        )
        .into());
    }
    if args.con.is_some() && system == SystemId::Starfinder {
        return Err(InputError::flag(
            "--con",
            "Starfinder does not use a Con score for death: leave it out (the target dies at 0 HP)",
        )
        .into());
    }
    Ok(())
}

/// A dice or crit flag's parse error, pointing at the character (counted from 1) in
/// the flag's value, as a file's error points at its column.
fn spec_error(flag: &str, text: &str, e: DiceError) -> InputError {
    InputError::flag(
        flag,
        format!("`{text}`, character {}: {}", e.offset + 1, e.message),
    )
}

/// The name of the armor class `--ac` gives: the system's one, or the Starfinder armor
/// class `--vs` picks (KAC unless it says eac); `--vs` elsewhere is refused.
fn armor_class(args: &AttackArgs, rules: &RuleSet) -> Result<&'static str, Error> {
    let classes = rules.armor_classes;
    let vs = match &args.vs {
        Some(_) if !classes.two() => {
            let why = format!(
                "picks a Starfinder armor class; {} has one ({}): leave it out",
                rules.name,
                classes.any_name()
            );
            return Err(InputError::flag("--vs", why).into());
        }
        Some(text) => text
            .parse()
            .map_err(|m: String| InputError::flag("--vs", m))?,
        None => ArmorClass::default(),
    };
    Ok(classes.name(vs == ArmorClass::Eac))
}

/// Refuses flags that would change nothing, naming them: a user who writes them expects
/// an effect, and silently ignoring one makes the answer look like it took it into account.
fn check_attack_combinations(
    args: &AttackArgs,
    rules: &RuleSet,
    cover: CoverLevel,
    crit: CritSpec,
) -> Result<(), Error> {
    let refused = |flag: &str, why: &str| Err(InputError::flag(flag, why).into());
    if args.rounds.is_some() && args.hp.is_none() {
        return refused(
            "--rounds",
            "needs --hp: rounds only add up damage toward down and dead",
        );
    }
    if args.flanking && args.ranged {
        return refused(
            "--flanking",
            "flanking gives no bonus to a ranged attack (--ranged): leave one of them out",
        );
    }
    if args.crit.is_some() && args.immune_to_crits {
        return refused(
            "--crit",
            "the target is immune to critical hits (--immune-to-crits), so the threat range and multiplier change nothing",
        );
    }
    if let Some(why) = args.crit.as_ref().and(rules.unused_crit(crit)) {
        return refused("--crit", &format!("{why}: leave it out"));
    }
    if !args.ranged && rules.cover_ac(cover, false) > 0 && rules.cover_ac(cover, true) == 0 {
        return Err(InputError::flag(
            "--cover",
            format!(
                "`{}` cover gives nothing against a melee attack in {}: add --ranged or leave it out",
                args.cover, rules.name
            ),
        )
        .into());
    }
    Ok(())
}

fn check_files(files: &[PathBuf], json: bool, out: &Path) -> Result<(), Error> {
    let jobs = prepare_all(files, &Settings::default())?;
    destinations(out, &jobs)?;
    let checks: Vec<_> = jobs
        .iter()
        .map(|job| {
            let e = &job.experiment;
            let variants: Vec<_> = (e.variants.iter())
                .map(|v| (v.name.as_str(), &v.plan, v.situations.as_slice()))
                .collect();
            d20odds::check_report(&e.scenario, &e.plan, &e.situations, &variants, &e.notes())
        })
        .collect();
    if json {
        let docs = checks.into_iter().map(|(_, j)| j).collect();
        print_out(&format!("{:#}", one_or_array(docs)))?;
    } else {
        let text: String = checks.into_iter().map(|(text, _)| text).collect();
        print_out(text.strip_suffix('\n').unwrap_or(&text))?;
    }
    Ok(())
}

/// `d20odds example`: one shipped experiment's text, or with `list` every example's name,
/// system and title.
fn print_example(name: Option<&str>, list: bool) -> Result<(), Error> {
    if list {
        let field = |text: &str, key: &str| {
            let table: toml::Table = text.parse().unwrap_or_default();
            (table.get(key).and_then(|v| v.as_str()).unwrap_or_default()).to_string()
        };
        let width = (examples::EXAMPLES.iter().map(|(n, _)| n.len()).max()).unwrap_or(0);
        for (name, text) in examples::EXAMPLES {
            let (system, title) = (field(text, "system"), field(text, "title"));
            print_out(&format!("{name:<width$}  {system:<11}  {title}"))?;
        }
        return Ok(());
    }
    let name = name.unwrap_or(examples::SHOWCASE);
    let names = examples::EXAMPLES.map(|(n, _)| n);
    let text = (examples::EXAMPLES.iter())
        .find(|(n, _)| *n == name)
        .map(|(_, text)| *text)
        .ok_or_else(|| {
            // A part of a name (`ogre`) finds it too.
            let near = d20odds::nearest(name, names)
                .or_else(|| names.into_iter().find(|n| n.contains(&name.to_lowercase())));
            let hint = near.map_or(String::new(), |n| format!(" (did you mean `{n}`?)"));
            InputError::flag(
                "NAME",
                format!("no example `{name}`: `d20odds example --list` names them{hint}"),
            )
        })?;
    print_out(text.trim_end())
}

fn print_rules(system: Option<&str>) -> Result<(), Error> {
    let systems = match system {
        Some(key) => vec![
            key.parse::<SystemId>()
                .map_err(|m| InputError::flag("SYSTEM", m))?,
        ],
        None => SystemId::ALL.to_vec(),
    };
    for id in systems {
        print_out(&id.rules().describe())?;
    }
    Ok(())
}

/// `d20odds completions SHELL`: the script clap_complete makes from the same definitions
/// as the parser, so it always offers the flags that exist. Built in memory first: a
/// failed write (a closed pipe) is then an error, not a panic inside the generator.
fn print_completions(shell: Shell) -> Result<(), Error> {
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "d20odds", &mut script);
    write_out(&script)
}

/// `d20odds man [SUBCOMMAND]`: a manual page, from the same definitions as `--help`. The
/// command is built first, as clap_mangen's own `generate_to` does, so a subcommand's page
/// is titled `d20odds-SUBCOMMAND`, the name the main page lists it under.
fn print_man(subcommand: Option<&str>) -> Result<(), Error> {
    let mut cli = Cli::command().disable_help_subcommand(true);
    cli.build();
    let command = match subcommand {
        Some(name) => cli
            .find_subcommand(name)
            .cloned()
            .ok_or_else(|| InputError::flag("SUBCOMMAND", format!("no subcommand `{name}`")))?,
        None => cli,
    };
    let mut page = Vec::new();
    clap_mangen::Man::new(command)
        .source(format!("d20odds {}", env!("CARGO_PKG_VERSION")))
        .render(&mut page)
        .map_err(|e| Error::io("the manual page", e))?;
    write_out(&page)
}

/// Writes bytes to stdout, reporting a failed write as an error.
fn write_out(bytes: &[u8]) -> Result<(), Error> {
    let mut stdout = std::io::stdout().lock();
    stdout
        .write_all(bytes)
        .and_then(|()| stdout.flush())
        .map_err(|e| Error::io("standard output", e))
}

/// Whether to colour a stream: only a terminal, and never when `NO_COLOR` is set to
/// anything but the empty string (<https://no-color.org>); piped output stays plain text.
pub fn colour(terminal: bool, no_color: Option<&std::ffi::OsStr>) -> bool {
    terminal && no_color.is_none_or(|v| v.is_empty())
}

/// `error: `, in bold red when `colour`, as clap writes its own errors.
pub fn error_prefix(colour: bool) -> &'static str {
    match colour {
        true => "\x1b[1;31merror:\x1b[0m ",
        false => "error: ",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Flag numbers read as the files write them, `_` between digits too, within each
    /// flag's range; anything else is refused with what the flag expects.
    #[test]
    fn flag_numbers_read_as_files_write_them() {
        assert_eq!(whole_number("1_000_000"), Ok(1_000_000));
        assert_eq!(modifier("-5"), Ok(-5));
        assert_eq!(bonuses("14,9").map(|b| b.0), Ok(vec![14, 9]));
        assert_eq!(bonuses("14, 9").map(|b| b.0), Ok(vec![14, 9]));
        let comma_too_many = "expected -10000 to 10000 for each of its comma-separated bonuses (such as 14,9), not `7,`: a comma with no bonus on one side";
        assert_eq!(bonuses("7,").map(|b| b.0), Err(comma_too_many.into()));
        assert!(
            bonuses(",7")
                .unwrap_err()
                .ends_with("a comma with no bonus on one side")
        );
        assert_eq!(
            bonuses("7,x").map(|b| b.0),
            Err("expected -10000 to 10000, not `x`".into())
        );
        assert_eq!(
            bonuses("").map(|b| b.0),
            Err("expected -10000 to 10000, not nothing".into())
        );
        assert_eq!(percentage("100"), Ok(100));
        assert_eq!(
            percentage("101"),
            Err("expected a percentage: 0 to 100, not `101`".into())
        );
        assert_eq!(
            whole_number(""),
            Err(
                "expected a whole number such as 100000 (`_` may group its digits), not nothing"
                    .into()
            )
        );
        assert_eq!(rounds("0"), Err("expected 1 to 1000, not `0`".into()));
        assert!(hit_points("1e3").is_err());
        assert_eq!(decimal_number("0.001"), Ok(0.001));
        assert!(decimal_number("inf").is_err());
    }

    #[test]
    fn colour_only_on_a_terminal_without_no_color() {
        use std::ffi::OsStr;
        assert!(colour(true, None));
        assert!(
            colour(true, Some(OsStr::new(""))),
            "an empty NO_COLOR is unset"
        );
        assert!(!colour(true, Some(OsStr::new("1"))));
        assert!(!colour(false, None));
        assert_eq!(error_prefix(false), "error: ");
        assert!(error_prefix(true).contains("\x1b[1;31merror:"));
    }

    #[test]
    fn every_subcommand_has_two_to_four_examples() {
        let cli = Cli::command();
        for command in cli.get_subcommands() {
            let help = command
                .get_after_help()
                .map(|h| h.to_string())
                .unwrap_or_default();
            let examples: Vec<&str> = help
                .strip_prefix("Examples:\n")
                .unwrap_or_else(|| panic!("{}: no Examples: section", command.get_name()))
                .lines()
                .collect();
            assert!(
                (2..=4).contains(&examples.len()),
                "{}: {examples:?}",
                command.get_name()
            );
            for example in examples {
                assert_example_parses(example);
                let words = example.trim().strip_prefix("d20odds ").unwrap();
                assert!(
                    words.starts_with(command.get_name()),
                    "{}: {example}",
                    command.get_name()
                );
            }
        }
        let top = cli.get_after_help().map(|h| h.to_string()).unwrap();
        top.lines().skip(1).for_each(assert_example_parses);
    }

    /// An example line (up to a redirection or pipe) is a command line the parser accepts,
    /// and every experiment file it names exists (a glob: some file matches).
    fn assert_example_parses(example: &str) {
        let words: Vec<&str> = example
            .split_whitespace()
            .take_while(|w| !matches!(*w, ">" | "|"))
            .collect();
        if let Err(e) = Cli::try_parse_from(&words) {
            panic!("{example}: {e}");
        }
        for file in words.iter().filter(|w| w.starts_with("experiments/")) {
            let found = match file.split_once('*') {
                Some((dir, ext)) => std::fs::read_dir(dir)
                    .unwrap()
                    .any(|f| f.unwrap().path().to_string_lossy().ends_with(ext)),
                None => std::path::Path::new(file).is_file(),
            };
            assert!(found, "{example}: no {file}");
        }
    }

    #[test]
    fn man_offers_a_page_for_every_subcommand() {
        let cli = Cli::command();
        let man = cli.find_subcommand("man").unwrap();
        let arg = man
            .get_arguments()
            .find(|a| a.get_id() == "subcommand")
            .unwrap();
        let offered: Vec<String> = (arg.get_possible_values().iter())
            .map(|v| v.get_name().to_string())
            .collect();
        let names: Vec<String> = (cli.get_subcommands())
            .map(|c| c.get_name().to_string())
            .collect();
        assert_eq!(offered, names);
    }

    #[test]
    fn the_definitions_are_consistent() {
        Cli::command().debug_assert();
    }
}
