//! Command-line interface: flags → validated requests → library calls → printed results.

mod progress;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

use clap::{Args, Parser, Subcommand, ValueEnum};

use d20odds::run::{self, Phase, Settings};
use d20odds::{
    CoverLevel, CritSpec, Dice, Error, Experiment, Formats, InputError, LineAttack, LineDefence,
    MAX_HIT_POINTS, MAX_MODIFIER, Plan, PlanBuilder, SamplerKind, Situation, SystemId, Target,
    Vitals, check_folder, check_tally_size, modifier_range, one_or_array, report_files,
    report_folder, summary_text, write_folder, write_json,
};

const EXAMPLES: &str = "\
Examples:
  d20odds run experiments/ogre-corridor.toml
  d20odds run experiments/*.toml --trials 10000000 --threads 2
  d20odds run experiments/ogre-corridor.toml --precision 0.001 --json
  d20odds attack --bonus 7 --ac 18 --crit 19-20/x2 --miss-chance 20 --damage 1d8+3
  d20odds attack --bonus 14,9 --ac 19 --damage 2d6+7 --hp 45 --con 16 --rounds 3
  d20odds check experiments/pf1-cover-examples.toml
  d20odds rules pf1";

/// d20odds: what are my odds in d20 tactical combat?
#[derive(Debug, Parser)]
#[command(version, about, after_help = EXAMPLES)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Simulate experiment files; print a summary and write reports/<file stem>/.
    Run(RunArgs),
    /// One attack (or full attack) from flags, exact and simulated; writes nothing.
    Attack(AttackArgs),
    /// Explain the map: every plan line's cover, concealment, flanking, reach and higher
    /// ground, the lines that decided them, and the final numbers; simulates nothing.
    Check {
        /// Experiment files (TOML, see README).
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
        /// Print one JSON document ({"plan": [...]}, an array for several files).
        #[arg(long)]
        json: bool,
    },
    /// Print the modifier tables the simulator uses for a system.
    Rules {
        /// pf1, pf1-variant, d20modern or starfinder (default: every supported system).
        system: Option<String>,
    },
}

#[derive(Debug, Args)]
struct SimulationArgs {
    /// Trials to run (overrides the file; with --precision, the most to run).
    #[arg(long)]
    trials: Option<u64>,
    /// Random seed (overrides the file); same seed, same numbers, whatever --threads.
    #[arg(long)]
    seed: Option<u64>,
    /// Worker threads (default: one per core).
    #[arg(long)]
    threads: Option<usize>,
    /// Stop once every probability's 95% interval half-width is at most this (e.g. 0.001).
    #[arg(long, value_name = "E")]
    precision: Option<f64>,
    /// Print one JSON document instead of the summary table.
    #[arg(long)]
    json: bool,
    /// No progress bar.
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
    /// The bars of [`Phase::Trials`] and [`Phase::Squares`], once started.
    phases: [OnceLock<progress::PhaseBar>; 2],
    /// The index in `phases` of the phase running.
    current: AtomicUsize,
}

impl Bars {
    fn new(quiet: bool) -> Self {
        Self {
            quiet,
            phases: [OnceLock::new(), OnceLock::new()],
            current: AtomicUsize::new(0),
        }
    }

    fn slot(phase: Phase) -> usize {
        match phase {
            Phase::Trials => 0,
            Phase::Squares => 1,
        }
    }

    fn running(&self) -> Option<&progress::PhaseBar> {
        self.phases[self.current.load(Ordering::Relaxed)].get()
    }
}

impl run::Progress for Bars {
    fn start(&self, phase: Phase, total: u64) {
        let slot = Self::slot(phase);
        self.phases[slot].get_or_init(|| progress::PhaseBar::new(total, phase.unit(), self.quiet));
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

#[derive(Debug, Args)]
struct RunArgs {
    /// Experiment files (TOML, see README).
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// Folder in which each experiment's report folder <file stem>/ is written.
    #[arg(long, value_name = "DIR", default_value = "reports")]
    out: PathBuf,
    /// Also write each CSV table as Parquet beside it (summary.parquet, …).
    #[arg(long)]
    parquet: bool,
    #[command(flatten)]
    sim: SimulationArgs,
}

#[derive(Debug, Args)]
#[command(allow_negative_numbers = true)]
struct AttackArgs {
    /// Attack bonus; several, comma-separated, make a full attack (e.g. 14,9).
    #[arg(long, required = true, value_delimiter = ',')]
    bonus: Vec<i32>,
    /// Target's armor class.
    #[arg(long)]
    ac: i32,
    /// Damage dice, e.g. 1d8+3.
    #[arg(long)]
    damage: String,
    /// Threat range and multiplier, e.g. 19-20/x2.
    #[arg(long, default_value = "20/x2")]
    crit: String,
    /// Miss chance from concealment, in percent.
    #[arg(long, default_value_t = 0)]
    miss_chance: u8,
    /// Target's cover: none, partial, cover, soft, improved.
    #[arg(long, default_value = "none")]
    cover: String,
    /// The attack is a ranged attack (soft cover applies, flanking does not).
    #[arg(long)]
    ranged: bool,
    /// The attacker flanks the target (+2 on melee attacks).
    #[arg(long)]
    flanking: bool,
    /// The target is immune to critical hits.
    #[arg(long)]
    immune_to_crits: bool,
    /// Target's hit points: adds down/dead chances.
    #[arg(long)]
    hp: Option<i64>,
    /// Target's Con score: pf1 dead at -con hp (without it, dead when down); d20modern
    /// massive-damage threshold; not used in starfinder.
    #[arg(long)]
    con: Option<i64>,
    /// Rounds of attacks per trial.
    #[arg(long, default_value_t = 1)]
    rounds: u32,
    /// Rule system.
    #[arg(long, default_value = "pf1")]
    system: String,
    #[command(flatten)]
    sim: SimulationArgs,
}

/// Runs a parsed command line.
pub fn run(cli: Cli) -> Result<(), Error> {
    match cli.command {
        Command::Run(args) => run_files(&args, &*interrupt_flag()?),
        Command::Attack(args) => run_attack(&args, &*interrupt_flag()?),
        Command::Rules { system } => print_rules(system.as_deref()),
        Command::Check { files, json } => check_files(&files, json),
    }
}

/// Set by the first Ctrl-C (the run stops at the next block and reports what it has);
/// a second Ctrl-C exits at once with code 130. signal-hook runs the actions in the
/// order they are registered, so the exit is armed only once the flag is already set.
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
    let jobs = args
        .files
        .iter()
        .map(|path| run::prepare(path, &settings))
        .collect::<Result<Vec<_>, Error>>()?;
    let experiments: Vec<&Path> = jobs.iter().map(|job| job.path.as_path()).collect();
    let mut folders: Vec<(PathBuf, &Path)> = Vec::new();
    for job in &jobs {
        let folder = report_folder(&args.out, &job.path)?;
        if let Some((_, earlier)) = folders.iter().find(|(f, _)| *f == folder) {
            return Err(Error::Destination {
                message: format!(
                    "both {} and {} would write this report folder; rename one of them",
                    earlier.display(),
                    job.path.display()
                ),
                path: folder,
            });
        }
        check_folder(&folder, &experiments)?;
        folders.push((folder, &job.path));
    }
    let mut documents = Vec::new();
    for job in &jobs {
        let finished = job.run(&settings, &Bars::new(args.sim.quiet), stop)?;
        print_notes(&finished.notes);
        let results = finished.results;
        write_folder(
            &report_folder(&args.out, &job.path)?,
            &report_files(&results, &job.inputs, settings.formats)?,
        )?;
        let interrupted = results.interrupted;
        if args.sim.json {
            documents.push(results.json());
        } else {
            print_out(&summary_text(&results))?;
        }
        if interrupted {
            break;
        }
    }
    if args.sim.json {
        write_json(documents, &mut std::io::stdout().lock())?;
    }
    interrupted(stop)
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
    let bar = progress::PhaseBar::new(config.trials, "trials", args.sim.quiet);
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
    let damage: Dice = args
        .damage
        .parse()
        .map_err(|e: d20odds::DiceError| InputError::flag("--damage", e.message))?;
    let crit: CritSpec = args
        .crit
        .parse()
        .map_err(|e: d20odds::DiceError| InputError::flag("--crit", e.message))?;
    let cover: CoverLevel = args
        .cover
        .parse()
        .map_err(|m: String| InputError::flag("--cover", m))?;
    check_attack_numbers(args, system)?;
    let mut plan = PlanBuilder::new("attack", system, args.rounds);
    let vitals = Vitals {
        hp: args.hp,
        con: args.con,
        stamina: 0,
        resolve: false,
    };
    let target = plan.add_target(Target::for_system(rules, "target".into(), vitals));
    let mut defence = LineDefence::plain(target, args.ac, args.immune_to_crits);
    defence.con = args.con;
    plan.add_line(
        rules,
        LineAttack::plain(
            "attacker",
            "attack",
            !args.ranged,
            args.bonus.clone(),
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
fn check_attack_numbers(args: &AttackArgs, system: SystemId) -> Result<(), Error> {
    if args.miss_chance > 100 {
        return Err(InputError::flag("--miss-chance", "a percentage: 0 to 100").into());
    }
    if !(1..=d20odds::MAX_ROUNDS).contains(&args.rounds) {
        return Err(InputError::flag("--rounds", "1 to 1000").into());
    }
    for (flag, values) in [("--bonus", args.bonus.as_slice()), ("--ac", &[args.ac])] {
        if values
            .iter()
            .any(|v| !(-MAX_MODIFIER..=MAX_MODIFIER).contains(v))
        {
            return Err(InputError::flag(flag, modifier_range()).into());
        }
    }
    for (flag, value) in [("--hp", args.hp), ("--con", args.con)] {
        if value.is_some_and(|v| !(1..=MAX_HIT_POINTS).contains(&v)) {
            return Err(InputError::flag(flag, format!("1 to {MAX_HIT_POINTS}")).into());
        }
    }
    if args.con.is_some() && args.hp.is_none() {
        return Err(InputError::flag("--con", "needs --hp").into());
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

fn check_files(files: &[PathBuf], json: bool) -> Result<(), Error> {
    let experiments = files
        .iter()
        .map(|f| Experiment::load(f))
        .collect::<Result<Vec<_>, _>>()?;
    let checks: Vec<_> = experiments
        .iter()
        .map(|e| d20odds::check_report(&e.scenario, &e.plan, &e.situations))
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
