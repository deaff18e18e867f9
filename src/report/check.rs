//! `d20odds check`: every plan line's geometry verdicts, the lines that decided them, and
//! the final attack bonus, AC and miss chance — as text and as JSON.

use serde_json::{Value, json};

use crate::attack::AttackProfile;
use crate::map::{Point, SightLine, Square};
use crate::plan::{IntoMelee, LineId, LineSituation, MapSituation, Modifiers, Plan};
use crate::rules::RuleSet;
use crate::scenario::Scenario;
use crate::situation::Unseen;
use crate::verdict::LineVerdict;

/// One plan line explained.
struct Explained {
    json: Value,
    text: String,
}

/// A variant as `check` shows it: its name, plan and what planning judged of each of
/// its plan lines.
pub type CheckedVariant<'a> = (&'a str, &'a Plan, &'a [LineSituation]);

/// The check of a whole scenario, from its plan and what planning judged of each of its
/// plan lines (`situations`, in file order), then of each variant's lines that differ
/// from the experiment's, then the `notes` a run would print about the experiment (the
/// plan's, and a fight's): `(text, json)`. The scenario gives only the heading: its
/// title, options and map rows.
pub fn check(
    scenario: &Scenario,
    plan: &Plan,
    situations: &[LineSituation],
    variants: &[CheckedVariant],
    notes: &[String],
) -> (String, Value) {
    let mut text = format!("{}  ({})\n\n", scenario.title, scenario.system);
    let readings = scenario.options.readings();
    for reading in &readings {
        text += &format!("option: {reading}\n");
    }
    if !readings.is_empty() {
        text += "\n";
    }
    if !scenario.map.is_empty() {
        text += "map (x → right from 0, y ↓ down from 0; (x,y) is a square, p(x,y) a point: \
                 the lines below run between points, p(x,y) being the top-left corner of \
                 square (x,y), so a line from a corner two squares share has no length):\n";
        for (y, row) in scenario.map.iter().enumerate() {
            text += &format!("  {y:>3} {row}\n");
        }
        text += "\n";
    }
    let rules = scenario.system.rules();
    let lines: Vec<Explained> = situations.iter().map(|s| explain(rules, plan, s)).collect();
    for line in &lines {
        text += &line.text;
        text += "\n";
    }
    let mut variant_docs = Vec::new();
    for &(name, variant_plan, variant_situations) in variants {
        let changed: Vec<Explained> = (variant_situations.iter())
            .map(|s| explain(rules, variant_plan, s))
            .filter(|line| lines.iter().all(|l| l.text != line.text))
            .collect();
        if changed.is_empty() {
            text += &format!("variant `{name}`: every plan line as in the experiment\n\n");
        } else {
            text += &format!("variant `{name}`: the plan lines it changes\n\n");
            for line in &changed {
                text += &line.text;
                text += "\n";
            }
        }
        variant_docs.push(json!({
            "name": name,
            "changed_plan": changed.into_iter().map(|l| l.json).collect::<Vec<_>>(),
        }));
    }
    for note in notes {
        text += &format!("note: {note}\n");
    }
    let json = json!({
        "title": scenario.title,
        "system": scenario.system.key(),
        "options": readings,
        "plan": lines.into_iter().map(|l| l.json).collect::<Vec<_>>(),
        "variants": variant_docs,
        "notes": notes,
    });
    (text, json)
}

/// One plan line: who attacks whom, the map's verdicts and the lines that decided them,
/// what the plan overrides, then the folded numbers or why no attack can be made.
fn explain(rules: &RuleSet, plan: &Plan, s: &LineSituation) -> Explained {
    let mut text = format!(
        "{} ({}) → {} ({}): {}\n",
        s.attacker.name, s.attacker.token, s.target.name, s.target.token, s.attack
    );
    let overridden = s.overridden.names();
    let mut json = json!({
        "attacker": s.attacker.token.to_string(),
        "target": s.target.token.to_string(),
        "attack": s.attack,
        "overridden": overridden,
    });
    match &s.map {
        Some(map) => {
            text += &verdict_text(map);
            json["geometry"] = verdict_json(map);
            text += &ranged_text(rules, map);
            if let Some(covering) = &map.covering {
                text += &format!(
                    "  soft cover from {} ({}){}\n",
                    covering.name,
                    covering.token,
                    if rules.striking_the_cover {
                        ", which a roll that misses only because of it may strike instead"
                    } else {
                        ""
                    }
                );
                json["covering"] = json!(covering.token.to_string());
            }
        }
        None => text += "  no map: only the plan's overrides apply\n",
    }
    if !overridden.is_empty() {
        text += &format!("  overridden by the plan: {}\n", overridden.join(", "));
    }
    match &s.made {
        Ok(line) => text += &result(rules, plan, *line, s, &mut json),
        Err(e) => {
            text += &format!("  no attack: {}\n", e.message);
            json["error"] = json!(e.message);
        }
    }
    Explained { json, text }
}

/// The numbers plan line `line` folded: the sums, the area save, the damage terms, the
/// rounds per attack, a grappling pair and what the attacker perceives.
fn result(
    rules: &RuleSet,
    plan: &Plan,
    line: LineId,
    s: &LineSituation,
    json: &mut Value,
) -> String {
    let m = &plan.line(line).modifiers;
    let slot = plan
        .slots()
        .iter()
        .find(|slot| slot.line == line)
        .expect("a plan line has an attack");
    let p = &slot.profile;
    let armor = plan.line(line).armor;
    let mut text = sums_text(m, p, armor);
    if let Some(from) = m.cover_raised_from {
        text += &format!(
            "  posture: the target's ranged {armor} bonus raises its {from} cover one degree instead, to {} (the better of the two, never both)\n",
            m.cover
        );
        json["cover_raised_from"] = json!(from.key());
    }
    if let Some(save) = m.save {
        text += &format!("  area effect: {}\n", save.describe());
        json["save"] = json!(save.describe());
        json["dc"] = json!(save.dc);
    }
    if !p.extra.is_zero() || p.dr > 0 || p.massive.is_some() {
        text += &format!("  damage: {}\n", damage_terms(p, m.precision));
    }
    if slot.period > 1 {
        text += &format!(
            "  takes {} rounds per attack; it lands at the end of the last\n",
            slot.period
        );
    }
    if let (Some(partner), Some(with)) = (&p.grappling_partner, &s.grappling_with) {
        text += &format!(
            "  grappling with {} ({}): the attack strikes one of the pair at random (1/2 each), and the one struck loses its Dex bonus; against {}: attack {:+} vs {armor} {}, miss chance {}%\n",
            with.name, with.token, with.token, partner.bonus, partner.ac, partner.miss_chance
        );
        json["grappling_with"] = json!(with.token.to_string());
        json["grappler_effective_ac"] = json!(partner.ac);
    }
    text += &perception_text(m, rules.total_concealment);
    if m.guess.right < m.guess.candidates {
        text += &format!(
            "  not pinpointed: strikes {} of {} squares where the target may stand\n",
            m.guess.right, m.guess.candidates
        );
    }
    result_json(m, p, slot.period, json);
    text
}

/// `result: cover …; attack +8 (mods +2) vs AC 17 (mods +1), miss chance 20%`: each sum
/// with the modifiers inside it, the armor class by its name (`armor`).
fn sums_text(m: &Modifiers, p: &AttackProfile, armor: &str) -> String {
    match m.save {
        Some(save) => format!(
            "  result: cover {}; {} save {:+} (cover {:+}) vs DC {}\n",
            m.cover,
            save.kind.key(),
            save.bonus,
            m.attack_mod,
            save.dc
        ),
        None => format!(
            "  result: cover {}, concealment {}%, flanking {}; attack {:+} (mods {:+}) vs {armor} {} (mods {:+}), miss chance {}%\n",
            m.cover,
            m.concealment,
            m.flanking,
            p.bonus,
            m.attack_mod,
            p.ac,
            m.ac_mod,
            p.miss_chance
        ),
    }
}

/// The folded numbers' JSON keys.
fn result_json(m: &Modifiers, p: &AttackProfile, period: u32, json: &mut Value) {
    for (key, value) in [
        ("cover", json!(m.cover.key())),
        ("concealment", json!(m.concealment)),
        ("flanking", json!(m.flanking)),
        ("precision", json!(m.precision)),
        ("dr", json!(p.dr)),
        ("attack_mod", json!(m.attack_mod)),
        ("ac_mod", json!(m.ac_mod)),
        ("effective_bonus", json!(p.bonus)),
        ("effective_ac", json!(p.ac)),
        ("miss_chance", json!(p.miss_chance)),
        ("rounds_per_attack", json!(period)),
        ("range_penalty", json!(m.range_penalty)),
        ("into_melee", json!(m.into_melee)),
        ("unseen", json!(m.perception.unseen.map(Unseen::describe))),
        ("blindsight", json!(m.perception.blindsight)),
        ("seen_by_target", json!(m.perception.seen_by_target)),
        ("blindsense", json!(m.perception.blindsense)),
        (
            "square_guess",
            json!(format!("{}/{}", m.guess.right, m.guess.candidates)),
        ),
    ] {
        json[key] = value;
    }
}

/// Range increments and shooting into melee, with their reasons.
fn ranged_text(rules: &RuleSet, map: &MapSituation) -> String {
    let mut text = String::new();
    if let Ok(Some(r)) = &map.range {
        text += &format!(
            "  range: {} ft with a {}-ft increment: increment {}, {:+}\n",
            r.distance_ft, r.increment_ft, r.increment, r.penalty
        );
    }
    if let Some(IntoMelee { ally, penalty, .. }) = &map.into_melee {
        text += &format!(
            "  shooting into melee: {} ({}) is engaged with the target: {}\n",
            ally.name,
            ally.token,
            match (rules.ranged.into_melee, *penalty) {
                (0, _) => format!("no penalty in {}", rules.name),
                (_, 0) => "no penalty (precise shot)".to_string(),
                (_, p) => format!("{p:+} (`precise_shot = true` removes it)"),
            }
        );
    }
    text
}

/// What the attacker sees of the target, when it is not simply in view.
fn perception_text(m: &Modifiers, total: u8) -> String {
    let p = m.perception;
    let mut text = String::new();
    if let Some(unseen) = p.unseen {
        text += &format!(
            "  unseen: {}: total concealment {total}%",
            unseen.describe()
        );
        text += if p.blindsight {
            ", but blindsight reaches it: no concealment\n"
        } else if p.blindsense {
            "; blindsense pinpoints its square\n"
        } else {
            "\n"
        };
    } else if p.blindsight && m.concealment == 0 {
        text += "  blindsight reaches the target: concealment ignored\n";
    }
    if p.seen_by_target {
        text += "  the target's blindsight reaches the invisible attacker: its invisibility gives it nothing against this target\n";
    }
    text
}

fn point(p: Point) -> Value {
    json!([p.x, p.y])
}

fn square(s: Square) -> Value {
    json!([s.x, s.y])
}

/// What stopped a line, for people.
fn blockers(line: &SightLine) -> String {
    let mut by = Vec::new();
    for (set, name) in [
        (line.wall, "wall"),
        (line.low, "low wall"),
        (line.improved, "improved"),
        (line.creature, "creature"),
    ] {
        if set {
            by.push(name.to_string());
        }
    }
    if line.concealment > 0 {
        by.push(format!("concealment {}%", line.concealment));
    }
    if by.is_empty() {
        "clear".into()
    } else {
        by.join(", ")
    }
}

fn lines_json(lines: &[SightLine]) -> Value {
    lines
        .iter()
        .map(|l| {
            json!({
                "from": point(l.from),
                "to": point(l.to),
                "blocked": l.blocked(),
                "wall": l.wall, "low": l.low, "improved": l.improved, "creature": l.creature,
                "concealment": l.concealment,
            })
        })
        .collect()
}

fn lines_text(lines: &[SightLine]) -> String {
    lines
        .iter()
        .map(|l| {
            format!(
                "      p({},{})→p({},{}) {}\n",
                l.from.x,
                l.from.y,
                l.to.x,
                l.to.y,
                blockers(l)
            )
        })
        .collect()
}

/// The map's verdicts on one plan line and the lines that decided them.
fn verdict_text(map: &MapSituation) -> String {
    let v = &map.verdict;
    let mut text = reach_text(v);
    text += &cover_text(v);
    if let Some(feet) = v.origin_distance_ft {
        text += &format!("  area: the target is {feet} ft from the origin\n");
    }
    if v.spread {
        text += "  spread: it goes round corners, so it needs no line of effect and cover adds nothing to Reflex\n";
    }
    text += &concealment_text(v);
    match (&v.flanking, &map.flanking_partner) {
        (Some(f), Some(partner)) => {
            text += &format!(
                "  flanking: with {} ({}), centres p({},{})→p({},{}) cross opposite borders\n",
                partner.name,
                partner.token,
                f.line.from.x2 as f64 / 2.0,
                f.line.from.y2 as f64 / 2.0,
                f.line.to.x2 as f64 / 2.0,
                f.line.to.y2 as f64 / 2.0,
            );
        }
        _ => text += "  flanking: no partner opposite\n",
    }
    text += &format!(
        "  ground: attacker {} ft, target {} ft\n",
        v.attacker_ground, v.target_ground
    );
    text
}

/// A melee attack's reach, or the distance.
fn reach_text(v: &LineVerdict) -> String {
    match v.reach {
        Some(r) => format!(
            "  reach: {} ft{}, distance {} ft: {}\n",
            r.feet,
            if r.reach_weapon {
                " (reach weapon)"
            } else {
                ""
            },
            v.distance_ft,
            if r.threatens {
                "threatens"
            } else {
                "out of reach"
            }
        ),
        None => format!("  distance: {} ft\n", v.distance_ft),
    }
}

/// The cover level, how many of the deciding lines are blocked and by what, and the lines.
fn cover_text(v: &LineVerdict) -> String {
    let c = &v.cover_lines;
    let from = match c.corner {
        Some(p) => format!(
            "corner p({},{}) of square ({},{})",
            p.x, p.y, c.from.x, c.from.y
        ),
        None => format!("square ({},{}) (adjacent melee)", c.from.x, c.from.y),
    };
    let mut text = format!(
        "  cover: {} — {} blocked of {} lines{}{}, best from {from} to target square ({},{})\n",
        v.cover,
        c.tally.k,
        c.lines.len(),
        if c.tally.soft {
            ", a creature in the line"
        } else {
            ""
        },
        if c.tally.improved {
            ", improved terrain"
        } else {
            ""
        },
        c.to.x,
        c.to.y
    );
    text += &lines_text(&c.lines);
    text
}

/// The miss chance the map gives, its sources and, when terrain conceals, the lines.
fn concealment_text(v: &LineVerdict) -> String {
    let k = &v.concealment_lines;
    let mut text = format!(
        "  concealment: {}%{} (terrain {}%, light {}%)\n",
        v.concealment,
        if k.total {
            " total: no line of sight"
        } else {
            ""
        },
        k.terrain,
        k.light
    );
    if k.terrain > 0 {
        text += &lines_text(&k.lines);
    }
    text
}

fn verdict_json(map: &MapSituation) -> Value {
    let v = &map.verdict;
    let c = &v.cover_lines;
    let k = &v.concealment_lines;
    json!({
        "cover": v.cover.key(),
        "blocked_lines": c.tally.k,
        "soft": c.tally.soft,
        "improved": c.tally.improved,
        "adjacent": v.adjacent,
        "corner": c.corner.map(point),
        "attacker_square": square(c.from),
        "target_square": square(c.to),
        "cover_lines": lines_json(&c.lines),
        "concealment": v.concealment,
        "total_concealment": k.total,
        "concealment_lines": lines_json(&k.lines),
        "flanking_partner": map.flanking_partner.as_ref().map(|p| p.token.to_string()),
        "reach_ft": v.reach.map(|r| r.feet),
        "threatens": v.reach.map(|r| r.threatens),
        "distance_ft": v.distance_ft,
        "attacker_ground": v.attacker_ground,
        "target_ground": v.target_ground,
        "origin_distance_ft": v.origin_distance_ft,
        "spread": v.spread,
    })
}

/// `1d8+3, then 2d6 never multiplied (precision dice included); DR 5 per hit; massive
/// damage over 12: Fort +4 vs DC 15`, for `check`.
fn damage_terms(p: &AttackProfile, precision: bool) -> String {
    let mut parts = vec![p.damage.to_string()];
    if !p.extra.is_zero() {
        parts.push(format!(
            "+ {} never multiplied{}",
            p.extra,
            if precision {
                " (precision dice included)"
            } else {
                ""
            }
        ));
    }
    if p.dr > 0 {
        parts.push(format!("DR {} per hit", p.dr));
    }
    if let Some(m) = p.massive {
        parts.push(format!(
            "massive damage over {}: Fort {:+} vs DC {} or -1 hp",
            m.over, m.fort, m.dc
        ));
    }
    parts.join("; ")
}
