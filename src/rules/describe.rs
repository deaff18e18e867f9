//! `d20odds rules`: a system's rule data as text, printed from the same values the
//! simulator uses.

use super::{
    ArmorClasses, CdgDcAdds, DexRule, FlankPartner, MissChanceTiming, RangeSense, RuleSet, SIZES,
};

impl RuleSet {
    /// The tables as text, for `d20odds rules`.
    pub fn describe(&self) -> String {
        let mut out = String::new();
        out += &self.describe_cover();
        out += &self.describe_attacks();
        out += &self.describe_injury();
        out += &self.describe_ranges_and_areas();
        out += &self.describe_conditions();
        out += &self.describe_sizes_and_readings();
        out
    }

    /// The heading and the cover table.
    fn describe_cover(&self) -> String {
        let mut out = format!("{} (`{}`)\n\n", self.name, self.system.key());
        out += &match self.armor_classes {
            ArmorClasses::One(name) => format!("An attack roll must reach the target's {name}.\n"),
            ArmorClasses::EnergyAndKinetic => "An attack roll must reach the target's EAC or KAC, which the attack's `vs` picks (KAC unless it says `vs = \"eac\"`).\n".into(),
        };
        // The armor class column as wide as its name (d20 Modern's Defense).
        let armor = self.armor_classes.any_name();
        let width = armor.len().max(3);
        out += "\nCover\n";
        out += &format!("  {:<14} {armor:>width$}  Reflex  vs melee\n", "level");
        for c in self.cover {
            out += &format!(
                "  {:<14} {:>+width$}  {:>+6}  {}{}\n",
                c.level.key(),
                c.ac,
                c.reflex,
                if c.applies_to_melee { "yes" } else { "no" },
                if c.improved_evasion {
                    "   Reflex saves: half on a failure, none on a success"
                } else {
                    ""
                }
            );
        }
        out += "  total          no attack possible\n\n";
        out
    }

    /// Flanking, higher ground, critical hits, concealment and minimum damage.
    fn describe_attacks(&self) -> String {
        let mut out = String::new();
        out += &format!(
            "Flanking: {:+} on melee attacks; partner: {}\n",
            self.flanking_bonus,
            match self.flank_partner {
                FlankPartner::HostileToTarget =>
                    "any creature hostile to the defender that threatens it",
                FlankPartner::AllyOfAttacker =>
                    "an ally of the attacker that threatens the defender",
            }
        );
        out += &format!(
            "Higher ground: {:+} melee, {:+} ranged, when the attacker stands {}\n",
            self.higher_ground.0,
            self.higher_ground.1,
            if self.higher_ground_half_target_height {
                "at least half the target's height above it"
            } else {
                "higher than the target"
            }
        );
        out += &format!("Critical hits: {}\n", self.crit_rule.describe());
        out += &format!(
            "Concealment: d% {}; total concealment {}%\n",
            match self.miss_chance_timing {
                MissChanceTiming::AfterHit =>
                    "rolled after a hit, a roll at or under the miss chance misses",
                MissChanceTiming::BeforeAttack =>
                    "rolled before the attack, at or under the miss chance no attack roll is made",
            },
            self.total_concealment
        );
        out += &format!(
            "  degrees (legend `concealment = N`): {}\n",
            self.concealment_degrees
                .iter()
                .map(|(name, miss)| format!("{name} {miss}%"))
                .collect::<Vec<_>>()
                .join(", ")
        );
        out += &format!(
            "Damage: minimum {} on a hit; natural 1 always misses, natural 20 always hits\n",
            self.min_damage
        );
        out
    }

    /// Down, dead, helpless defenders and the coup de grace.
    fn describe_injury(&self) -> String {
        let mut out = String::new();
        out += &self.injury.describe();
        if let Some(base) = self.helpless_base_defense {
            let armor = self.armor_classes.any_name();
            out += &format!("Helpless defenders: {armor} = {base} + size modifier\n");
        }
        let cdg = &self.coup_de_grace;
        out += &format!(
            "Coup de grace: automatic critical hit, then Fort DC {} + {} or die (natural 1 fails, 20 succeeds); against crit-immune targets {}\n",
            cdg.dc_base,
            match cdg.dc_adds {
                CdgDcAdds::DamageDealt => "damage dealt",
                CdgDcAdds::AttackerLevel => "the attacker's level",
            },
            if cdg.crit_immune_normal_hit {
                "an automatic hit for normal damage, no save"
            } else {
                "impossible"
            }
        );
        if cdg.rounds_vs_total_concealment > 1 {
            out += &format!(
                "  against a target with total concealment it takes {} full rounds (the blow lands at the end of the last)\n",
                cdg.rounds_vs_total_concealment
            );
        }
        out
    }

    /// Areas, range, shooting into melee, grapplers, unseen targets, low obstacles, reach,
    /// soft cover and striking the cover.
    fn describe_ranges_and_areas(&self) -> String {
        let mut out = String::new();
        out += "Area attacks: damage rolled, then a save (natural 1 fails, 20 succeeds); cover from the point of origin adds its Reflex bonus; evasion: none on a successful Reflex save for half; improved evasion: also half on a failure\n";
        let ranged = &self.ranged;
        out += &format!(
            "Range: {:+} per full range increment beyond the first; at most {} increments ({} thrown)\n",
            ranged.per_increment, ranged.max_increments, ranged.max_increments_thrown
        );
        out += &if ranged.into_melee == 0 {
            "Shooting into melee: no penalty\n".to_string()
        } else {
            format!(
                "Shooting into melee: {:+} against a target engaged in melee with an ally of the attacker (either threatens the other; a helpless ally does not count); `precise_shot = true` removes it\n",
                ranged.into_melee
            )
        };
        out += &match ranged.random_grappler {
            Some(condition) => format!(
                "Grappling: a ranged attack at a creature with `grappling_with` strikes one of the pair at random (1/2 each, every attack roll); both are `{condition}`, and the one struck loses its Dex bonus\n"
            ),
            None => "Grappling: no random grappler (`grappling_with` is refused)\n".to_string(),
        };
        out += &format!(
            "Unseen: an invisible target, or any target of a blinded attacker, has total concealment ({}%) and its square must be guessed unless the plan line says `pinpointed = true`{}\n",
            self.total_concealment,
            self.range_senses
                .iter()
                .map(|s| match s {
                    RangeSense::Blindsight => "; blindsight ignores concealment within its range, and a target whose blindsight reaches an invisible attacker sees it (the attacker's invisibility gives it nothing against that target)",
                    RangeSense::Blindsense => "; blindsense pinpoints the square within its range",
                })
                .collect::<String>()
        );
        out += if self.spreads_round_corners {
            "  a spread (`shape = \"spread\"`) goes round corners: inside its radius no line of effect is needed and cover gives no Reflex bonus\n"
        } else {
            "  no spreads: every area is a burst, judged from its point of origin\n"
        };
        out += &format!(
            "Low obstacles: at most `{}` cover, never improved\n",
            self.low_obstacle_cover
        );
        if self.reach_uses_ranged_cover {
            out += "Reach: a melee attack with reach (over 5 ft, or a reach weapon) judges cover as a ranged attack, even against an adjacent target\n";
        }
        if self.soft_cover_needs_target_size {
            out += "Soft cover: only from a creature at least the target's size\n";
        }
        if self.striking_the_cover {
            out += "Striking the cover: a roll that misses only because of a creature's cover hits that creature if it beats its Defense; if only its Dex bonus saved it, the target is hit\n";
        }
        out
    }

    /// The conditions table: the numbers, then what else each does.
    fn describe_conditions(&self) -> String {
        let mut out = String::new();
        let armor = self.armor_classes.any_name();
        let armor_column = format!("{armor} (melee/ranged)");
        let width = armor_column.len().max(17) + 2;
        out += &format!(
            "\n{:<21}{:<11}{armor_column:<width$}{:<13}attacked\n",
            "Conditions", "attack", "Dex"
        );
        for c in self.conditions {
            let mut also = Vec::new();
            if c.dex_change != 0 {
                also.push(format!("Dex modifier {:+} first", c.dex_change));
            }
            if c.flat_footed {
                also.push(format!("flat-footed ({:+} {armor})", self.flat_footed_ac));
            }
            if c.target_flat_footed {
                also.push(format!(
                    "its target flat-footed ({:+} {armor})",
                    self.flat_footed_ac
                ));
            }
            if c.helpless {
                also.push("helpless".to_string());
            }
            if c.no_ranged {
                also.push("no ranged (crossbows excepted)".to_string());
            }
            let also = match also.is_empty() {
                true => String::new(),
                false => format!("   {}", also.join("; ")),
            };
            out += &format!(
                "  {:<18} {:>+3}/{:<+3}    {:<width$}{:<12} {:>+3}/{:<+3}{also}\n",
                c.name,
                c.attack.0,
                c.attack.1,
                format!("{:>+3}/{:<+3}", c.ac.0, c.ac.1),
                match c.dex.max(c.target_dex) {
                    DexRule::Keep => "keeps",
                    DexRule::LoseBonus if c.target_dex == DexRule::LoseBonus => "target loses",
                    DexRule::LoseBonus => "loses bonus",
                    DexRule::Minus5 => "counts as -5",
                },
                c.attacked.0,
                c.attacked.1,
            );
        }
        if self.flat_footed_ac != 0 {
            out += &format!(
                "  Flat-footed is {:+} {armor} once, however many of its sources apply.\n",
                self.flat_footed_ac
            );
        }
        out
    }

    /// Size modifiers to the armor class and the readings chosen from the texts.
    fn describe_sizes_and_readings(&self) -> String {
        let mut out = String::new();
        out += &format!("\nSize modifier to {}: ", self.armor_classes.any_name());
        out += &SIZES
            .iter()
            .zip(self.size_ac)
            .map(|(row, m)| format!("{} {m:+}", row.key))
            .collect::<Vec<_>>()
            .join(", ");
        out += "\n\nInterpretations\n";
        for line in self.interpretations {
            out += &format!("  - {line}\n");
        }
        out
    }
}
