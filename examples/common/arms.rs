//! The two arms of the Fortune Teller question the luck examples play: `base` (the default
//! rules) and `ft` (`fortune_teller=on`), as `benches/luck_values.py` names them.
use carcassonne::Rules;

/// The rules of arm `name`, or None for an unknown arm.
pub fn rules(name: &str) -> Option<Rules> {
    match name {
        "base" => Some(Rules::default()),
        "ft" => Some(Rules {
            fortune_teller: true,
            ..Rules::default()
        }),
        _ => None,
    }
}
