//! How an error message quotes what it refuses (a path, a parameter, a line of text): control
//! characters escaped as Python shows them (`\x00`, `\u001b`), so that a message is one line
//! and writes nothing to a terminal, and text longer than `LIMIT` characters cut short.

/// Longest quotation of the caller's input in an error message, in characters.
pub const LIMIT: usize = 100;

/// `text` as an error message quotes it.
pub fn excerpt(text: &str) -> String {
    let escaped = escape(text);
    let n = escaped.chars().count();
    if n <= LIMIT {
        return escaped;
    }
    let head: String = escaped.chars().take(LIMIT - 15).collect();
    format!("{head}... ({n} chars)")
}

/// `text` with its control characters escaped.
pub fn escape(text: &str) -> String {
    if !text.chars().any(char::is_control) {
        return text.to_string();
    }
    text.chars()
        .map(|c| match c as u32 {
            _ if !c.is_control() => c.to_string(),
            n @ 0..=0xff => format!("\\x{n:02x}"),
            n => format!("\\u{n:04x}"),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_escaped_and_long_text_cut() {
        assert_eq!(excerpt("a\nb\u{1b}[31m\0"), "a\\x0ab\\x1b[31m\\x00");
        assert_eq!(excerpt("w.txt"), "w.txt");
        let long = excerpt(&"x".repeat(5000));
        assert!(long.starts_with(&"x".repeat(85)) && long.ends_with("... (5000 chars)"));
        assert!(long.len() < LIMIT + 20);
    }
}
