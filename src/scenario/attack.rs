//! `[[combatant.attack]]`: the [`Attack`] type and its validation — the kind, the attack
//! bonuses, damage and crit, the armor class it targets, reach and range, and an area
//! attack's save (`save`, `dc`, `on_save`, which a plan line may also give).

use toml::Spanned;

use super::Validator;
use super::area::AreaShape;
use super::raw::RawAttack;
use crate::attack::Portion;
use crate::dice::{CritSpec, Dice};
use crate::error::InputError;
use crate::rules::RuleSet;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AttackKind {
    Melee,
    Ranged,
    /// A spell or other effect that rolls no attack: the defender saves against a DC.
    Area,
}

/// The saving throw a defender makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SaveKind {
    /// Reflex.
    Reflex,
    /// Fortitude.
    Fort,
    /// Will.
    Will,
}

impl SaveKind {
    /// The saves' names in experiment files, in variant order.
    pub const KEYS: [&str; 3] = ["reflex", "fort", "will"];

    /// The save's name in experiment files.
    pub fn key(self) -> &'static str {
        Self::KEYS[self as usize]
    }
}

/// Which of a Starfinder defender's armor classes an attack targets.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum ArmorClass {
    /// Energy armor class, against energy weapons.
    Eac,
    /// Kinetic armor class, against kinetic weapons and combat maneuvers (the default).
    #[default]
    Kac,
}

/// An area attack's save: which, against what DC, and what a success deals.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AreaSave {
    /// Which save the target makes.
    pub save: SaveKind,
    /// The DC it must reach.
    pub dc: i32,
    /// `Half` or `Nothing`.
    pub on_save: Portion,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Attack {
    pub name: String,
    pub kind: AttackKind,
    /// One entry per iterative attack of a full attack; the first is the single attack.
    pub bonus: Vec<i32>,
    pub damage: Dice,
    /// Precision dice (sneak attack, trick attack): where they apply, never multiplied.
    pub precision: Dice,
    /// Extra dice (flaming, holy): on every hit, never multiplied.
    pub extra_damage: Dice,
    /// Ignores the target's damage reduction.
    pub bypass_dr: bool,
    pub crit: CritSpec,
    /// Melee reach in feet, when the attack overrides the size's natural reach.
    pub reach: Option<i32>,
    pub reach_weapon: bool,
    /// A crossbow (or other weapon usable prone) in systems where prone forbids ranged.
    pub crossbow: bool,
    pub range_increment: i32,
    /// Thrown, not shot: the system's shorter maximum range.
    pub thrown: bool,
    /// Starfinder: the armor class the attack targets.
    pub vs: ArmorClass,
    /// Area attacks: the save as far as the attack sets it (the DC may come from the
    /// plan line instead).
    pub save: SaveKind,
    pub dc: Option<i32>,
    pub on_save: Portion,
    /// Area attacks: burst or spread, and the radius measured from the plan line's origin.
    pub shape: AreaShape,
    pub radius: Option<i32>,
}

/// The `save`, `dc` and `on_save` keys as written (each may be left out).
pub(super) struct SaveFields {
    pub save: Option<SaveKind>,
    pub dc: Option<i32>,
    pub on_save: Option<Portion>,
}

impl Validator<'_> {
    pub(super) fn attack(
        &self,
        raw: &Spanned<RawAttack>,
        rules: &RuleSet,
    ) -> Result<Attack, InputError> {
        let a = raw.get_ref();
        if a.name.get_ref().trim().is_empty() {
            return Err(self.err(
                a.name.span(),
                "an attack needs a name (plan lines name it): e.g. name = \"longsword\"",
            ));
        }
        let kind = self.keyword_or(a.kind.as_ref(), AttackKind::Melee)?;
        let damage = self.parsed::<Dice>(&a.damage, "damage")?;
        let area = kind == AttackKind::Area;
        let bonus = self.bonus(a, area)?;
        let crit = self.crit(a, area, rules)?;
        let SaveFields { save, dc, on_save } =
            self.save_fields(&a.save, &a.dc, &a.on_save, area)?;
        let extent = self.area_extent(kind, a.shape.as_ref(), a.radius.as_ref(), rules)?;
        let extra = self.extra_dice(a, area, rules)?;
        let vs = self.armor_class(a, area, rules)?;
        let reach = self.reach(a, kind)?;
        let range_increment = self.range_increment(a, kind)?;
        Ok(Attack {
            name: a.name.get_ref().clone(),
            kind,
            bonus,
            damage,
            precision: extra.precision,
            extra_damage: extra.extra_damage,
            bypass_dr: extra.bypass_dr,
            crit,
            reach,
            reach_weapon: a.reach_weapon,
            crossbow: a.crossbow,
            range_increment,
            thrown: a.thrown.as_ref().is_some_and(|t| *t.get_ref()),
            vs,
            save: save.unwrap_or(SaveKind::Reflex),
            dc,
            on_save: on_save.unwrap_or(Portion::Half),
            shape: extent.shape,
            radius: extent.radius,
        })
    }

    /// The attack bonuses: required of an attack that rolls, refused on an area attack.
    fn bonus(&self, a: &RawAttack, area: bool) -> Result<Vec<i32>, InputError> {
        match (&a.bonus, area) {
            (Some(b), false) => Ok(b.get_ref().0.clone()),
            (None, false) => Err(self.err(
                a.name.span(),
                format!(
                    "attack `{}` needs `bonus = …` (its attack bonus)",
                    a.name.get_ref()
                ),
            )),
            (Some(b), true) => Err(self.err(
                b.span(),
                "an area attack rolls no attack: remove `bonus` and give `dc` (its save DC)",
            )),
            (None, true) => Ok(vec![0]),
        }
    }

    /// The threat range and multiplier; an area attack has none, and a system whose
    /// crits ignore them refuses any but its own.
    fn crit(&self, a: &RawAttack, area: bool, rules: &RuleSet) -> Result<CritSpec, InputError> {
        if let Some(c) = a.crit.as_ref().filter(|_| area) {
            return Err(self.err(
                c.span(),
                "an area attack cannot score a critical hit: remove `crit`",
            ));
        }
        let Some(c) = &a.crit else {
            return Ok(CritSpec::default());
        };
        let crit = self.parsed::<CritSpec>(c, "crit")?;
        match rules.unused_crit(crit) {
            Some(why) => Err(self.err(c.span(), format!("{why}: remove `crit`"))),
            None => Ok(crit),
        }
    }

    /// `vs`: the Starfinder armor class an attack that rolls targets.
    fn armor_class(
        &self,
        a: &RawAttack,
        area: bool,
        rules: &RuleSet,
    ) -> Result<ArmorClass, InputError> {
        match &a.vs {
            None => Ok(ArmorClass::Kac),
            Some(v) if !rules.armor_classes.two() => Err(self.err(
                v.span(),
                format!(
                    "`vs` picks a Starfinder armor class; {} has one ({})",
                    rules.name,
                    rules.armor_classes.any_name()
                ),
            )),
            Some(v) if area => Err(self.err(
                v.span(),
                "an area attack targets a save, not an armor class",
            )),
            Some(v) => self.keyword(v),
        }
    }

    /// A melee attack's own reach in feet.
    fn reach(&self, a: &RawAttack, kind: AttackKind) -> Result<Option<i32>, InputError> {
        match &a.reach {
            Some(r) if kind != AttackKind::Melee => {
                Err(self.err(r.span(), "reach is for melee attacks only"))
            }
            Some(r) if !(0..=100).contains(r.get_ref()) || r.get_ref() % 5 != 0 => {
                Err(self.err(r.span(), "reach is in feet: a multiple of 5, 0 to 100"))
            }
            Some(r) => Ok(Some(*r.get_ref() as i32)),
            None => Ok(None),
        }
    }

    /// A ranged attack's range increment in feet (0: none given), and `thrown`, which
    /// only a ranged attack may be.
    fn range_increment(&self, a: &RawAttack, kind: AttackKind) -> Result<i32, InputError> {
        let increment = match &a.range_increment {
            Some(r) if kind != AttackKind::Ranged => {
                return Err(self.err(r.span(), "range_increment is for ranged attacks only"));
            }
            Some(r) if !(0..=10_000).contains(r.get_ref()) => {
                return Err(self.err(r.span(), "range_increment is in feet: 0 to 10000"));
            }
            Some(r) => *r.get_ref() as i32,
            None => 0,
        };
        if let Some(t) = a.thrown.as_ref().filter(|_| kind != AttackKind::Ranged) {
            return Err(self.err(t.span(), "thrown is for ranged attacks only"));
        }
        Ok(increment)
    }

    /// The `save`, `dc` and `on_save` keys of an attack or a plan line: only area attacks
    /// have them.
    pub(super) fn save_fields(
        &self,
        save: &Option<Spanned<String>>,
        dc: &Option<Spanned<i64>>,
        on_save: &Option<Spanned<String>>,
        area: bool,
    ) -> Result<SaveFields, InputError> {
        if !area {
            let given = [
                save.as_ref().map(|s| s.span()),
                dc.as_ref().map(|d| d.span()),
                on_save.as_ref().map(|o| o.span()),
            ];
            if let Some(span) = given.into_iter().flatten().next() {
                return Err(self.err(
                    span,
                    "`save`, `dc` and `on_save` are for area attacks only (`kind = \"area\"`)",
                ));
            }
        }
        let save = save.as_ref().map(|s| self.keyword(s)).transpose()?;
        let dc = match dc {
            None => None,
            Some(d) if (1..=100).contains(d.get_ref()) => Some(*d.get_ref() as i32),
            Some(d) => return Err(self.err(d.span(), "dc is a save DC: 1 to 100")),
        };
        let on_save = on_save.as_ref().map(|o| self.keyword(o)).transpose()?;
        Ok(SaveFields { save, dc, on_save })
    }

    /// Parses a dice or crit string, pointing errors at the offending character.
    pub(super) fn parsed<T>(&self, value: &Spanned<String>, key: &str) -> Result<T, InputError>
    where
        T: std::str::FromStr<Err = crate::dice::DiceError>,
    {
        value.get_ref().parse::<T>().map_err(|e| {
            let offset = self.source.offset_in_string(&value.span(), e.offset);
            self.source.error_at(
                offset,
                format!("bad {key} `{}`: {}", value.get_ref(), e.message),
            )
        })
    }
}
