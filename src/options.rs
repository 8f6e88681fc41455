//! The UCI options Pivot declares, and validation of `setoption` values.

/// Hash table size in MB.
pub const HASH_DEFAULT: usize = 16;
pub const HASH_MIN: usize = 1;
pub const HASH_MAX: usize = 65_536;
/// Search threads (Lazy SMP).
pub const THREADS_DEFAULT: usize = 1;
pub const THREADS_MIN: usize = 1;
pub const THREADS_MAX: usize = 256;
/// Number of best root moves reported, each with its own line.
pub const MULTIPV_DEFAULT: usize = 1;
pub const MULTIPV_MIN: usize = 1;
pub const MULTIPV_MAX: usize = 256;
/// Time kept in reserve per move for GUI and operating-system latency, in ms.
pub const OVERHEAD_DEFAULT: u64 = 30;
pub const OVERHEAD_MIN: u64 = 0;
pub const OVERHEAD_MAX: u64 = 5_000;

use crate::search::params::{TUNABLES, TUNING_BUILD};
use crate::search::strength::{MAX_ELO, MAX_SKILL, MIN_ELO};

/// `EvalFile` naming the network built into the binary.
pub const EVALFILE_DEFAULT: &str = "<internal>";

/// A validated option change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionChange {
    Hash(usize),
    ClearHash,
    MoveOverhead(u64),
    Ponder(bool),
    Chess960(bool),
    MultiPv(usize),
    ShowWdl(bool),
    Threads(usize),
    /// Directories of Syzygy tables; empty means none.
    SyzygyPath(String),
    SyzygyProbeDepth(i32),
    Syzygy50MoveRule(bool),
    SyzygyProbeLimit(usize),
    /// A network file to evaluate with; `None` for the one built in.
    EvalFile(Option<String>),
    ShowRefutations(bool),
    ShowCurrLine(bool),
    LimitStrength(bool),
    Elo(u32),
    SkillLevel(u32),
    /// A search parameter of a tuning build (`--features tune`): its index in
    /// `params::TUNABLES` and the new value.
    Tunable(usize, i32),
}

/// The `option …` lines sent in reply to `uci`.
pub fn declarations() -> Vec<String> {
    let mut lines = vec![
        format!("option name Hash type spin default {HASH_DEFAULT} min {HASH_MIN} max {HASH_MAX}"),
        "option name Clear Hash type button".to_string(),
        format!(
            "option name Threads type spin default {THREADS_DEFAULT} min {THREADS_MIN} max {THREADS_MAX}"
        ),
        format!(
            "option name Move Overhead type spin default {OVERHEAD_DEFAULT} min {OVERHEAD_MIN} max {OVERHEAD_MAX}"
        ),
        "option name Ponder type check default false".to_string(),
        format!(
            "option name MultiPV type spin default {MULTIPV_DEFAULT} min {MULTIPV_MIN} max {MULTIPV_MAX}"
        ),
        "option name UCI_Chess960 type check default false".to_string(),
        "option name UCI_ShowWDL type check default false".to_string(),
        "option name UCI_ShowRefutations type check default false".to_string(),
        "option name UCI_ShowCurrLine type check default false".to_string(),
        "option name UCI_LimitStrength type check default false".to_string(),
        format!("option name UCI_Elo type spin default {MIN_ELO} min {MIN_ELO} max {MAX_ELO}"),
        format!("option name Skill Level type spin default {MAX_SKILL} min 0 max {MAX_SKILL}"),
        "option name SyzygyPath type string default <empty>".to_string(),
        "option name SyzygyProbeDepth type spin default 1 min 1 max 100".to_string(),
        "option name Syzygy50MoveRule type check default true".to_string(),
        "option name SyzygyProbeLimit type spin default 7 min 0 max 7".to_string(),
        format!("option name EvalFile type string default {EVALFILE_DEFAULT}"),
    ];
    // A tuning build also offers every search parameter.
    if TUNING_BUILD {
        lines.extend(TUNABLES.iter().map(|t| {
            format!(
                "option name {} type spin default {} min {} max {}",
                t.name, t.default, t.min, t.max
            )
        }));
    }
    lines
}

fn spin(
    name: &str,
    value: Option<&str>,
    min: impl Into<i128>,
    max: impl Into<i128>,
) -> Result<i128, String> {
    let (min, max) = (min.into(), max.into());
    let text = value.ok_or_else(|| format!("option '{name}' needs a value ({min} to {max})"))?;
    let v: i128 = text
        .trim()
        .parse()
        .map_err(|_| format!("option '{name}': '{text}' is not a number ({min} to {max})"))?;
    if v < min || v > max {
        return Err(format!(
            "option '{name}': {v} is out of range ({min} to {max})"
        ));
    }
    Ok(v)
}

fn check(name: &str, value: Option<&str>) -> Result<bool, String> {
    match value.map(|v| v.trim().to_ascii_lowercase()).as_deref() {
        Some("true") => Ok(true),
        Some("false") => Ok(false),
        _ => Err(format!(
            "option '{name}' takes 'true' or 'false', not '{}'",
            value.unwrap_or("")
        )),
    }
}

/// Validates `setoption name <name> [value <value>]`. Names are case-insensitive.
pub fn parse(name: &str, value: Option<&str>) -> Result<OptionChange, String> {
    match name.to_ascii_lowercase().as_str() {
        "hash" => spin("Hash", value, HASH_MIN as u64, HASH_MAX as u64)
            .map(|v| OptionChange::Hash(v as usize)),
        "clear hash" => Ok(OptionChange::ClearHash),
        "move overhead" => spin("Move Overhead", value, OVERHEAD_MIN, OVERHEAD_MAX)
            .map(|v| OptionChange::MoveOverhead(v as u64)),
        "ponder" => check("Ponder", value).map(OptionChange::Ponder),
        "threads" => spin("Threads", value, THREADS_MIN as u64, THREADS_MAX as u64)
            .map(|v| OptionChange::Threads(v as usize)),
        "multipv" => spin("MultiPV", value, MULTIPV_MIN as u64, MULTIPV_MAX as u64)
            .map(|v| OptionChange::MultiPv(v as usize)),
        "syzygypath" => Ok(OptionChange::SyzygyPath(
            value
                .map(str::trim)
                .filter(|v| *v != "<empty>")
                .unwrap_or("")
                .to_string(),
        )),
        "syzygyprobedepth" => spin("SyzygyProbeDepth", value, 1, 100)
            .map(|v| OptionChange::SyzygyProbeDepth(v as i32)),
        "syzygy50moverule" => check("Syzygy50MoveRule", value).map(OptionChange::Syzygy50MoveRule),
        "syzygyprobelimit" => spin("SyzygyProbeLimit", value, 0, 7)
            .map(|v| OptionChange::SyzygyProbeLimit(v as usize)),
        "uci_showwdl" => check("UCI_ShowWDL", value).map(OptionChange::ShowWdl),
        "uci_showrefutations" => {
            check("UCI_ShowRefutations", value).map(OptionChange::ShowRefutations)
        }
        "uci_showcurrline" => check("UCI_ShowCurrLine", value).map(OptionChange::ShowCurrLine),
        "uci_limitstrength" => check("UCI_LimitStrength", value).map(OptionChange::LimitStrength),
        "uci_elo" => spin("UCI_Elo", value, MIN_ELO, MAX_ELO).map(|v| OptionChange::Elo(v as u32)),
        "skill level" => {
            spin("Skill Level", value, 0, MAX_SKILL).map(|v| OptionChange::SkillLevel(v as u32))
        }
        "evalfile" => Ok(OptionChange::EvalFile(
            value
                .map(str::trim)
                .filter(|v| !v.is_empty() && *v != EVALFILE_DEFAULT)
                .map(str::to_string),
        )),
        "uci_chess960" => check("UCI_Chess960", value).map(OptionChange::Chess960),
        other => match TUNABLES.iter().position(|t| t.name == other) {
            Some(i) if TUNING_BUILD => {
                let t = &TUNABLES[i];
                spin(t.name, value, t.min, t.max).map(|v| OptionChange::Tunable(i, v as i32))
            }
            _ => Err(format!("unknown option '{name}'")),
        },
    }
}

#[cfg(test)]
mod tests {
    /// The search parameters are options only in a tuning build (`--features tune`); there
    /// they are checked against their ranges like any spin option.
    #[test]
    fn tunables_are_options_only_in_a_tuning_build() {
        let first = &TUNABLES[0];
        let declared = declarations()
            .iter()
            .any(|l| l.starts_with(&format!("option name {} type spin", first.name)));
        let set = parse(first.name, Some(&first.max.to_string()));
        let too_big = parse(first.name, Some(&(first.max + 1).to_string()));
        if TUNING_BUILD {
            assert!(declared);
            assert_eq!(set, Ok(OptionChange::Tunable(0, first.max)));
            assert!(too_big.unwrap_err().contains("out of range"));
        } else {
            assert!(!declared);
            assert!(set.unwrap_err().contains("unknown option"));
            assert!(too_big.is_err());
        }
    }

    use super::*;

    #[test]
    fn valid_values_are_accepted_case_insensitively() {
        assert_eq!(parse("hash", Some("64")), Ok(OptionChange::Hash(64)));
        assert_eq!(
            parse("MOVE OVERHEAD", Some(" 0 ")),
            Ok(OptionChange::MoveOverhead(0))
        );
        assert_eq!(
            parse("Ponder", Some("TRUE")),
            Ok(OptionChange::Ponder(true))
        );
        assert_eq!(parse("Clear Hash", None), Ok(OptionChange::ClearHash));
        assert_eq!(
            parse("UCI_Chess960", Some("true")),
            Ok(OptionChange::Chess960(true))
        );
    }

    #[test]
    fn bad_values_are_rejected_with_the_range() {
        assert!(
            parse("Hash", Some("abc"))
                .unwrap_err()
                .contains("not a number")
        );
        assert!(
            parse("Hash", Some("0"))
                .unwrap_err()
                .contains("out of range (1 to 65536)")
        );
        assert!(
            parse("Hash", Some("99999999999999999999999"))
                .unwrap_err()
                .contains("out of range")
        );
        assert!(parse("Hash", None).unwrap_err().contains("needs a value"));
        assert!(
            parse("Move Overhead", Some("-1"))
                .unwrap_err()
                .contains("out of range")
        );
        assert!(parse("Ponder", Some("yes")).is_err());
        assert!(
            parse("Threads", Some("0"))
                .unwrap_err()
                .contains("out of range (1 to 256)")
        );
        assert!(
            parse("Contempt", Some("2"))
                .unwrap_err()
                .contains("unknown option")
        );
    }
}
