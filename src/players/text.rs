//! The syntax of a policy text: seats separated by commas, each a player's name with
//! `NAME=VALUE` parameters after colons (`expert:weights=w.txt,mcts:playouts=500`).
//!
//! A value holding a colon, a comma or a double quote (a Windows path `C:\w.txt`, `a,b.w`) is
//! written in double quotes: `expert:weights="C:\w.txt"`. Inside the quotes a doubled `""`
//! stands for one quote; every other character, backslashes included, is itself. This is the
//! one quoting rule: the engine's parsers and Python's (through `_core.policy_texts`,
//! `_core.policy_parts` and `_core.quote_value`) all split with these functions.

/// `s` split at each `sep` outside double quotes. A quote left open is an error.
pub fn split_outside_quotes(s: &str, sep: char) -> Result<Vec<&str>, String> {
    let mut parts = Vec::new();
    let mut start = 0;
    let mut quoted = false;
    for (i, ch) in s.char_indices() {
        if ch == '"' {
            // A doubled quote inside quotes closes and reopens: the state is right either way.
            quoted = !quoted;
        } else if ch == sep && !quoted {
            parts.push(&s[start..i]);
            start = i + 1;
        }
    }
    if quoted {
        return Err(format!(
            "policy text `{s}`: a quoted value is not closed (end it with `\"`; write `\"\"` for \
             a quote inside quotes)"
        ));
    }
    parts.push(&s[start..]);
    Ok(parts)
}

/// The seats' policy texts of a comma-separated policy text (each trimmed).
pub fn seat_texts(s: &str) -> Result<Vec<&str>, String> {
    Ok(split_outside_quotes(s, ',')?
        .into_iter()
        .map(str::trim)
        .collect())
}

/// One seat's text as its player's name and its parameters after colons, each part trimmed
/// and still quoted (`expert:width=8` gives `("expert", ["width=8"])`; no colon, no parts).
pub fn name_and_parts(s: &str) -> Result<(&str, Vec<&str>), String> {
    let mut parts = split_outside_quotes(s.trim(), ':')?
        .into_iter()
        .map(str::trim);
    let name = parts.next().unwrap_or("");
    Ok((name, parts.collect()))
}

/// A parameter's value as written (trimmed) read back: quotes removed, `""` made one quote.
/// A quote anywhere but around the whole value is an error.
pub fn unquote(value: &str) -> Result<String, String> {
    let v = value.trim();
    let Some(inner) = v.strip_prefix('"') else {
        if v.contains('"') {
            return Err(format!(
                "policy value `{v}`: a double quote may only enclose the whole value \
                 (\"...\", with \"\" for a quote inside)"
            ));
        }
        return Ok(v.to_string());
    };
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars().peekable();
    while let Some(ch) = chars.next() {
        if ch != '"' {
            out.push(ch);
        } else if chars.peek() == Some(&'"') {
            chars.next();
            out.push('"');
        } else if chars.next().is_none() {
            return Ok(out); // the closing quote
        } else {
            return Err(format!(
                "policy value `{v}`: a double quote may only enclose the whole value (text \
                 follows the closing quote; write \"\" for a quote inside quotes)"
            ));
        }
    }
    Err(format!(
        "policy value `{v}`: a quoted value is not closed (end it with `\"`; write `\"\"` for \
         a quote inside quotes)"
    ))
}

/// `value` as a policy text writes it: as it is when it reads back so (no colon, comma or
/// quote, no space at either end, not empty), else in double quotes with quotes doubled.
pub fn quote(value: &str) -> String {
    let plain = !value.is_empty() && value.trim() == value && !value.contains([':', ',', '"']);
    if plain {
        value.to_string()
    } else {
        format!("\"{}\"", value.replace('"', "\"\""))
    }
}

/// One `NAME=VALUE` part as its trimmed name and its unquoted value; None without `=`.
pub fn key_value(part: &str) -> Result<Option<(&str, String)>, String> {
    match part.split_once('=') {
        Some((k, v)) => Ok(Some((k.trim(), unquote(v)?))),
        None => Ok(None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_paths_and_commas_read_back() {
        for path in [
            r"C:\w\x.txt",
            "a,b.w",
            "plain.w",
            "say \"hi\".w",
            " pad ",
            "",
            "a:b,c\"d",
        ] {
            let text = format!("expert:weights={},greedy", quote(path));
            let seats = seat_texts(&text).unwrap();
            assert_eq!(seats.len(), 2, "{text}");
            let (name, parts) = name_and_parts(seats[0]).unwrap();
            assert_eq!(name, "expert");
            assert_eq!(parts.len(), 1, "{text}");
            let (k, v) = key_value(parts[0]).unwrap().unwrap();
            assert_eq!((k, v.as_str()), ("weights", path));
        }
        assert_eq!(quote("w.txt"), "w.txt");
        assert_eq!(quote(r"C:\w"), r#""C:\w""#);
    }

    #[test]
    fn bad_quotes_are_errors() {
        assert!(seat_texts("expert:weights=\"C:\\w")
            .unwrap_err()
            .contains("not closed"));
        assert!(unquote("a\"b")
            .unwrap_err()
            .contains("enclose the whole value"));
        assert!(unquote("\"a\"b\"")
            .unwrap_err()
            .contains("enclose the whole value"));
        assert!(unquote("\"ab").unwrap_err().contains("not closed"));
    }
}
