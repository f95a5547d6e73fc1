//! Rule options from Python: parsed, validated by the engine, and checked against a catalogue.

use crate::game::State;
use crate::rules::{
    Edition, FortuneTellerEdition, RiverEdition, RiverStart, RiverTurns, Rules, TollFlip,
};
use crate::tiles::Catalogue;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::sync::Arc;

/// The rule options `carcassonne.Rules` passes as keywords, and the catalogue they play with
/// (option `tiles` changes tile counts). Refuses unknown options, bad values and options that
/// have no effect under the others.
pub(crate) fn rules_from_options(
    opts: Option<&Bound<'_, PyDict>>,
    cat: Arc<Catalogue>,
) -> PyResult<(Rules, Arc<Catalogue>)> {
    let (r, tiles) = parse_options(opts)?;
    r.validate().map_err(PyValueError::new_err)?;
    if tiles.trim().is_empty() {
        return Ok((r, cat));
    }
    let counts = cat
        .parse_counts(&tiles)
        .map_err(|e| PyValueError::new_err(format!("rule option tiles: {e}")))?;
    for &(t, _) in &counts {
        let tt = cat.tile(t);
        if !r.tile_in_play(tt) {
            return Err(PyValueError::new_err(format!(
                "rule option tiles: {} (set {}) is not in play under these rules, so its count has no effect",
                tt.id, tt.set
            )));
        }
    }
    if counts.is_empty() {
        return Ok((r, cat));
    }
    Ok((r, Arc::new(cat.with_counts(&counts))))
}

/// The rule options as given, unchecked against each other; option `tiles` as text.
fn parse_options(opts: Option<&Bound<'_, PyDict>>) -> PyResult<(Rules, String)> {
    let mut r = Rules::default();
    let mut tiles = String::new();
    let Some(opts) = opts else {
        return Ok((r, tiles));
    };
    for (k, v) in opts.iter() {
        let name: String = k.extract()?;
        let flag = |v: &Bound<'_, PyAny>| -> PyResult<bool> {
            v.extract::<bool>().map_err(|_| {
                PyValueError::new_err(format!("rule option {name} must be True or False, not {v}"))
            })
        };
        let text = |v: &Bound<'_, PyAny>| -> PyResult<String> {
            v.extract::<String>().map_err(|_| {
                PyValueError::new_err(format!("rule option {name} must be a str, not {v}"))
            })
        };
        let choice = |v: &Bound<'_, PyAny>, valid: &[&str]| -> PyResult<String> {
            let t = text(v)?;
            if valid.contains(&t.as_str()) {
                Ok(t)
            } else {
                Err(PyValueError::new_err(format!(
                    "rule option {name} must be one of {}, not {t:?}",
                    valid.join(", ")
                )))
            }
        };
        match name.as_str() {
            "river" => r.river = flag(&v)?,
            "abbot" => r.abbot = flag(&v)?,
            "small_city" => r.small_city = flag(&v)?,
            "toll_collectors" => r.toll_collectors = flag(&v)?,
            "fortune_teller" => r.fortune_teller = flag(&v)?,
            "big_top" => r.big_top = flag(&v)?,
            "farmers" => r.farmers = flag(&v)?,
            "gardens" => r.gardens = flag(&v)?,
            "builder" => r.builder = flag(&v)?,
            "pig" => r.pig = flag(&v)?,
            "goods" => r.goods = flag(&v)?,
            "ringmaster" => r.ringmaster = flag(&v)?,
            "acrobats" => r.acrobats = flag(&v)?,
            "river_start" => {
                r.river_start = match choice(&v, &["shuffle", "discard"])?.as_str() {
                    "shuffle" => RiverStart::Shuffle,
                    _ => RiverStart::Discard,
                }
            }
            "river_turns" => {
                r.river_turns = match choice(&v, &["consecutive", "strict"])?.as_str() {
                    "consecutive" => RiverTurns::Consecutive,
                    _ => RiverTurns::Strict,
                }
            }
            "river_edition" => {
                r.river_edition = match choice(&v, &["C3", "C2"])?.as_str() {
                    "C3" => RiverEdition::C3,
                    _ => RiverEdition::C2,
                }
            }
            "fortune_teller_edition" => {
                r.fortune_teller_edition = match choice(&v, &["C2", "C1"])?.as_str() {
                    "C2" => FortuneTellerEdition::C2,
                    _ => FortuneTellerEdition::C1,
                }
            }
            "toll_flip" => {
                r.toll_flip = match choice(&v, &["turn", "owner"])?.as_str() {
                    "turn" => TollFlip::Turn,
                    _ => TollFlip::Owner,
                }
            }
            "traders_builders" => {
                r.traders_builders = if v.is_none() {
                    None
                } else {
                    match choice(&v, &["C3.1", "C2"])?.as_str() {
                        "C3.1" => Some(Edition::C31),
                        _ => Some(Edition::C2),
                    }
                }
            }
            "max_fortune_tellers" => {
                r.max_fortune_tellers = v
                    .extract::<u8>()
                    .ok()
                    .filter(|_| !v.is_instance_of::<pyo3::types::PyBool>())
                    .ok_or_else(|| {
                        PyValueError::new_err(format!(
                            "rule option max_fortune_tellers must be an int from 0 to {}, not {v}",
                            crate::rules::MAX_FORTUNE_TELLERS
                        ))
                    })?
            }
            "tiles" => {
                tiles = if v.is_none() {
                    String::new()
                } else {
                    text(&v)?
                };
            }
            _ => {
                return Err(PyValueError::new_err(format!(
                    "unknown rule option {name:?}"
                )))
            }
        }
    }
    Ok((r, tiles))
}

/// Rule options set away from their defaults that have no effect under the others.
#[pyfunction]
#[pyo3(signature = (**options))]
pub(crate) fn idle_rule_options(
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<Vec<&'static str>> {
    let (rules, tiles) = parse_options(options)?;
    let mut out: Vec<&'static str> = rules.idle().into_iter().map(|(n, _)| n).collect();
    let cat = Catalogue::builtin();
    if let Ok(counts) = cat.parse_counts(&tiles) {
        if counts
            .iter()
            .any(|&(t, _)| !rules.tile_in_play(cat.tile(t)))
        {
            out.push("tiles");
        }
    }
    Ok(out)
}

/// Check rule options as `carcassonne.Rules` holds them against the built-in catalogue
/// (tile counts included: a game must be playable with them). Returns the canonical text
/// of option `tiles` (`ID:N,...` in catalogue order, only counts that differ).
#[pyfunction]
#[pyo3(signature = (**options))]
pub(crate) fn check_rules(options: Option<&Bound<'_, PyDict>>) -> PyResult<String> {
    let builtin = Catalogue::builtin();
    let (rules, cat) = rules_from_options(options, builtin.clone())?;
    State::new(cat.clone(), rules, 2, 0)
        .map_err(|e| PyValueError::new_err(format!("these rules cannot be played: {e}")))?;
    let counts: Vec<(u16, u8)> = cat
        .tiles
        .iter()
        .enumerate()
        .filter(|(i, t)| builtin.tiles[*i].count != t.count)
        .map(|(i, t)| (i as u16, t.count))
        .collect();
    Ok(builtin.counts_text(&counts))
}
