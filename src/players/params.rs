//! Every native player's parameters as one table: name, kind, default, range and help. The
//! players' parsers validate a policy text's parameters here, and Python reads the same
//! table (`_core.player_parameters`) for `Game.search`, the agents and the help texts.

use crate::players::heuristic;
use crate::players::lookahead::DEFAULT_TOP;
use crate::players::text;

/// What a parameter's value is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Kind {
    /// A whole number from `lo` to `hi`.
    Whole { lo: u32, hi: u32 },
    /// A finite number from `lo` to `hi`.
    Number { lo: f32, hi: f32 },
    /// One of these words; the first is the default.
    Choice(&'static [&'static str]),
    /// A file's path; none by default (the shipped weights).
    Path,
}

/// One parameter of a player.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Param {
    pub name: &'static str,
    pub kind: Kind,
    /// For `Whole` and `Number`: the value when the parameter is not given.
    pub default: f32,
    pub help: &'static str,
}

/// A parameter's value as a policy text gave it.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Whole(u32),
    Number(f32),
    Word(&'static str),
    Path(String),
}

const fn whole(name: &'static str, lo: u32, hi: u32, default: u32, help: &'static str) -> Param {
    Param {
        name,
        kind: Kind::Whole { lo, hi },
        default: default as f32,
        help,
    }
}

const fn number(name: &'static str, lo: f32, hi: f32, default: f32, help: &'static str) -> Param {
    Param {
        name,
        kind: Kind::Number { lo, hi },
        default,
        help,
    }
}

const fn choice(name: &'static str, words: &'static [&'static str], help: &'static str) -> Param {
    Param {
        name,
        kind: Kind::Choice(words),
        default: 0.0,
        help,
    }
}

const WEIGHTS: Param = Param {
    name: "weights",
    kind: Kind::Path,
    default: 0.0,
    help: "a weights file from `carcassonne train` (default: the shipped weights)",
};

/// The expert's parameters.
pub const EXPERT: [Param; 7] = [
    WEIGHTS,
    whole(
        "width",
        0,
        65535,
        crate::players::expert::DEFAULT_WIDTH as u32,
        "value only the N moves greedy likes best (0: every move)",
    ),
    choice(
        "depth",
        &["1", "2"],
        "1: the position after the move; 2: also the next draw and the reply to it",
    ),
    whole(
        "top",
        1,
        65535,
        DEFAULT_TOP as u32,
        "with depth=2 or rollouts, how many of the best moves are looked ahead from",
    ),
    whole(
        "rollouts",
        0,
        1_000_000,
        0,
        "continuations played from each of the top moves, the expert playing every seat (0: none)",
    ),
    whole(
        "horizon",
        1,
        1000,
        heuristic::DEFAULT_HORIZON as u32,
        "with rollouts, decisions each continuation plays before the expert values it",
    ),
    whole(
        "net_top",
        0,
        65535,
        crate::players::expert::DEFAULT_NET_TOP as u32,
        "with a network in the model, run it on the linear part's N best moves only, the rest lose (0: on every move valued)",
    ),
];

/// The search's parameters.
pub const MCTS: [Param; 7] = [
    whole("playouts", 1, 10_000_000, 1000, "iterations per decision"),
    number("c", 0.0, 100.0, 0.3, "UCB exploration constant"),
    number(
        "widen",
        0.01,
        1000.0,
        2.0,
        "progressive widening: children allowed ceil(widen * sqrt(visits + 1))",
    ),
    whole(
        "depth",
        0,
        65535,
        0,
        "rollout cut-off in turns (0: to the end; 2 when not given with eval=learned)",
    ),
    number(
        "margin",
        0.0,
        1.0,
        0.5,
        "weight of the score margin in the reward (0: win/draw/loss only)",
    ),
    choice(
        "eval",
        &["final", "learned"],
        "how a rollout's end is valued: final scoring, or the learned evaluation",
    ),
    WEIGHTS,
];

/// The heuristic's parameters: its tuned weights (`heuristic::PARAMS`), then its look-ahead.
pub const HEURISTIC: [Param; heuristic::PARAMS.len() + 4] = {
    let mut out = [WEIGHTS; heuristic::PARAMS.len() + 4];
    let mut i = 0;
    while i < heuristic::PARAMS.len() {
        let (name, default, lo, hi, help) = heuristic::PARAMS[i];
        out[i] = number(name, lo, hi, default, help);
        i += 1;
    }
    out[i] = choice(
        "depth",
        &["1", "2", "3"],
        "1: the position after the move; 2: also the next draw and the reply to it; 3: also the draw after that and the best move with it",
    );
    out[i + 1] = whole(
        "top",
        1,
        heuristic::MAX_TOP as u32,
        DEFAULT_TOP as u32,
        "with depth=2 or 3 or rollouts, how many of the best moves are looked ahead from",
    );
    out[i + 2] = whole(
        "rollouts",
        0,
        1_000_000,
        0,
        "continuations played from each of the top moves, the heuristic playing every seat (0: none)",
    );
    out[i + 3] = whole(
        "horizon",
        1,
        1000,
        heuristic::DEFAULT_HORIZON as u32,
        "with rollouts, decisions each continuation plays before the heuristic values it",
    );
    out
};

/// The parameters of player `name` (empty for `random` and `greedy`), None for no player.
pub fn of(name: &str) -> Option<&'static [Param]> {
    crate::players::PLAYERS
        .iter()
        .find(|p| p.name == name)
        .map(|p| p.params)
}

/// The default of parameter `name` in `table` (for `Whole` and `Number`).
pub fn default(table: &[Param], name: &str) -> f32 {
    table
        .iter()
        .find(|p| p.name == name)
        .map_or_else(|| panic!("no parameter `{name}`"), |p| p.default)
}

/// How a policy text writes the parameters: `[:playouts=N][:c=X][:eval=final|learned]`.
pub fn usage(table: &[Param]) -> String {
    table
        .iter()
        .map(|p| format!("[:{}={}]", p.name, p.kind.placeholder()))
        .collect()
}

impl Kind {
    fn placeholder(&self) -> String {
        match self {
            Kind::Whole { .. } => "N".into(),
            Kind::Number { .. } => "X".into(),
            Kind::Choice(words) => words.join("|"),
            Kind::Path => "PATH".into(),
        }
    }

    /// What a value must be, for messages: `a number from 0 to 100`, `1 or 2`.
    pub fn words(&self) -> String {
        match self {
            Kind::Whole { lo, hi } => format!("a whole number from {lo} to {hi}"),
            Kind::Number { lo, hi } => format!("a number from {lo} to {hi}"),
            Kind::Choice([a, b]) => format!("{a} or {b}"),
            Kind::Choice(words) => format!("one of {}", words.join(", ")),
            Kind::Path => "a file's path".into(),
        }
    }

    fn read(&self, v: &str) -> Option<Value> {
        let v = v.trim();
        match *self {
            Kind::Whole { lo, hi } => v
                .parse::<u32>()
                .ok()
                .filter(|x| (lo..=hi).contains(x))
                .map(Value::Whole),
            Kind::Number { lo, hi } => v
                .parse::<f32>()
                .ok()
                .filter(|x| x.is_finite() && (lo..=hi).contains(x))
                .map(Value::Number),
            Kind::Choice(words) => words.iter().find(|w| **w == v).map(|w| Value::Word(w)),
            Kind::Path => Some(Value::Path(v.to_string())),
        }
    }
}

/// The parameters a policy text gave a player, each read with its default when not given.
#[derive(Clone, Debug)]
pub struct Given {
    table: &'static [Param],
    values: Vec<Option<Value>>,
}

impl Given {
    /// Nothing given: every parameter at its default.
    pub fn defaults(table: &'static [Param]) -> Given {
        Given {
            table,
            values: vec![None; table.len()],
        }
    }

    fn find(&self, name: &str) -> (&Param, Option<&Value>) {
        let i = self
            .table
            .iter()
            .position(|p| p.name == name)
            .unwrap_or_else(|| panic!("no parameter `{name}` in the table"));
        (&self.table[i], self.values[i].as_ref())
    }

    /// Whether `name` was given.
    pub fn given(&self, name: &str) -> bool {
        self.find(name).1.is_some()
    }

    /// A `Whole` parameter.
    pub fn whole(&self, name: &str) -> u32 {
        match self.find(name) {
            (_, Some(Value::Whole(n))) => *n,
            (p, _) => p.default as u32,
        }
    }

    /// A `Number` parameter.
    pub fn number(&self, name: &str) -> f32 {
        match self.find(name) {
            (_, Some(Value::Number(x))) => *x,
            (p, _) => p.default,
        }
    }

    /// A `Choice` parameter.
    pub fn word(&self, name: &str) -> &'static str {
        match self.find(name) {
            (_, Some(Value::Word(w))) => w,
            (
                Param {
                    kind: Kind::Choice(words),
                    ..
                },
                _,
            ) => words[0],
            _ => "",
        }
    }

    /// A `Path` parameter, if given.
    pub fn path(&self, name: &str) -> Option<&str> {
        match self.find(name) {
            (_, Some(Value::Path(p))) => Some(p),
            _ => None,
        }
    }
}

/// The values of `player`'s parameters (`table`) given in `params`, the text after the name's
/// colon. Each must be `NAME=VALUE` with a known
/// name, given at most once, of its kind and range; with `bare`, the first may be a bare
/// value of that parameter (`mcts:500`).
pub fn parse(
    player: &str,
    table: &'static [Param],
    params: &str,
    bare: Option<&str>,
) -> Result<Given, String> {
    let mut out = vec![None; table.len()];
    let names = || table.iter().map(|p| p.name).collect::<Vec<_>>().join(", ");
    for (i, part) in text::split_outside_quotes(params, ':')?
        .into_iter()
        .enumerate()
    {
        let (key, value) = match (text::key_value(part)?, bare) {
            (Some(kv), _) => kv,
            (None, Some(b)) if i == 0 && !part.trim().is_empty() => (b, text::unquote(part)?),
            (None, Some(b)) => {
                return Err(format!(
                    "{player} parameters `{params}`: `{part}` is not NAME=VALUE (only the first \
                     may be a bare {b})"
                ))
            }
            (None, None) => {
                return Err(format!(
                    "{player} parameter `{part}`: write it as NAME=VALUE (names: {})",
                    names()
                ))
            }
        };
        let Some(k) = table.iter().position(|p| p.name == key) else {
            return Err(format!(
                "unknown {player} parameter `{key}` (valid: {})",
                names()
            ));
        };
        if out[k].is_some() {
            return Err(format!("{player} parameter `{key}` is given twice"));
        }
        let kind = table[k].kind;
        out[k] = Some(kind.read(&value).ok_or_else(|| {
            format!(
                "{player} parameter `{}`: {key} must be {}",
                part.trim(),
                kind.words()
            )
        })?);
    }
    Ok(Given { table, values: out })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_player_has_a_table_and_usage() {
        for p in crate::players::PLAYERS {
            let t = of(p.name).unwrap();
            assert_eq!(t.len(), p.params.len());
            for q in t {
                if let Kind::Whole { lo, hi } = q.kind {
                    assert!((lo as f32..=hi as f32).contains(&q.default), "{}", q.name);
                }
                if let Kind::Number { lo, hi } = q.kind {
                    assert!((lo..=hi).contains(&q.default), "{}", q.name);
                }
            }
        }
        assert_eq!(
            usage(&EXPERT),
            "[:weights=PATH][:width=N][:depth=1|2][:top=N][:rollouts=N][:horizon=N][:net_top=N]"
        );
    }

    #[test]
    fn values_are_checked_against_the_table() {
        let v = parse("mcts", &MCTS, "500:c=0.5:eval=learned", Some("playouts")).unwrap();
        assert_eq!(v.whole("playouts"), 500);
        assert_eq!(v.number("c"), 0.5);
        assert_eq!(v.number("widen"), 2.0);
        assert_eq!(v.word("eval"), "learned");
        assert!(!v.given("depth") && v.path("weights").is_none());
        let err = |s: &str| parse("mcts", &MCTS, s, Some("playouts")).unwrap_err();
        assert!(err("c=101").contains("c must be a number from 0 to 100"));
        assert!(err("c=1:c=2").contains("given twice"));
        assert!(err("bogus=1").contains("unknown mcts parameter `bogus`"));
        assert!(err("eval=x").contains("eval must be final or learned"));
        assert!(err("c=1:500").contains("only the first may be a bare playouts"));
        let e = parse("expert", &EXPERT, "depth=3", None).unwrap_err();
        assert!(e.contains("depth must be 1 or 2"), "{e}");
    }
}
