//! Tokens and a small cursor shared by the attribute parsers; every error names the attribute.

use super::AttrError;
use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Tok<'a> {
    Ident(&'a str),
    Int(i64),
    Punct(char),
    Arrow,
}

impl fmt::Display for Tok<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tok::Ident(s) => write!(f, "`{s}`"),
            Tok::Int(v) => write!(f, "`{v}`"),
            Tok::Punct(c) => write!(f, "`{c}`"),
            Tok::Arrow => write!(f, "`->`"),
        }
    }
}

pub(super) fn lex(text: &str) -> Result<Vec<Tok<'_>>, String> {
    let bytes = text.as_bytes();
    let mut toks = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c.is_ascii_whitespace() {
            i += 1;
        } else if c.is_ascii_alphabetic() || c == b'_' {
            let start = i;
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            toks.push(Tok::Ident(&text[start..i]));
        } else if c.is_ascii_digit() || (c == b'-' && bytes.get(i + 1).is_some_and(u8::is_ascii_digit)) {
            let start = i;
            i += 1;
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            let value =
                text[start..i].parse::<i64>().map_err(|_| format!("integer `{}` out of range", &text[start..i]))?;
            toks.push(Tok::Int(value));
        } else if c == b'-' && bytes.get(i + 1) == Some(&b'>') {
            toks.push(Tok::Arrow);
            i += 2;
        } else if b"<>[]=,():".contains(&c) {
            toks.push(Tok::Punct(c as char));
            i += 1;
        } else {
            let ch = text[i..].chars().next().unwrap_or('?');
            return Err(format!("unexpected character `{ch}`"));
        }
    }
    Ok(toks)
}

/// A cursor over the tokens of one attribute text; every error names the attribute.
pub(super) struct Parser<'a> {
    attr: &'static str,
    text: &'a str,
    toks: Vec<Tok<'a>>,
    pub(super) pos: usize,
}

impl<'a> Parser<'a> {
    pub(super) fn new(attr: &'static str, text: &'a str) -> Result<Self, AttrError> {
        let body = strip_dialect_prefix(text);
        let toks = lex(body).map_err(|m| AttrError::new(attr, text, m))?;
        Ok(Parser { attr, text, toks, pos: 0 })
    }

    pub(super) fn err(&self, message: impl Into<String>) -> AttrError {
        AttrError::new(self.attr, self.text, message)
    }

    pub(super) fn peek(&self) -> Option<Tok<'a>> {
        self.toks.get(self.pos).copied()
    }

    pub(super) fn unexpected(&self, what: &str) -> AttrError {
        match self.peek() {
            Some(t) => self.err(format!("expected {what}, found {t}")),
            None => self.err(format!("expected {what}, found the end of the text")),
        }
    }

    pub(super) fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(Tok::Punct(c)) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    pub(super) fn expect(&mut self, c: char) -> Result<(), AttrError> {
        if self.eat(c) {
            Ok(())
        } else {
            Err(self.unexpected(&format!("`{c}`")))
        }
    }

    pub(super) fn ident(&mut self) -> Result<&'a str, AttrError> {
        match self.peek() {
            Some(Tok::Ident(s)) => {
                self.pos += 1;
                Ok(s)
            }
            _ => Err(self.unexpected("a name")),
        }
    }

    pub(super) fn int(&mut self) -> Result<i64, AttrError> {
        match self.peek() {
            Some(Tok::Int(v)) => {
                self.pos += 1;
                Ok(v)
            }
            _ => Err(self.unexpected("an integer")),
        }
    }

    /// `[1, 2, 3]` (possibly empty).
    pub(super) fn int_list(&mut self) -> Result<Vec<i64>, AttrError> {
        self.expect('[')?;
        let mut out = Vec::new();
        if self.eat(']') {
            return Ok(out);
        }
        loop {
            out.push(self.int()?);
            if self.eat(']') {
                return Ok(out);
            }
            self.expect(',')?;
        }
    }

    pub(super) fn end(&self) -> Result<(), AttrError> {
        match self.peek() {
            None => Ok(()),
            Some(t) => Err(self.err(format!("unexpected {t} after the attribute"))),
        }
    }

    /// `mnemonic<key = value, ...>` where values are integers or integer lists.
    pub(super) fn fields(&mut self, mnemonic: &str) -> Result<Vec<(&'a str, Field)>, AttrError> {
        self.mnemonic(mnemonic)?;
        self.expect('<')?;
        let fields = self.field_list()?;
        self.expect('>')?;
        self.end()?;
        Ok(fields)
    }

    pub(super) fn mnemonic(&mut self, mnemonic: &str) -> Result<(), AttrError> {
        match self.peek() {
            Some(Tok::Ident(s)) if s == mnemonic => {
                self.pos += 1;
                Ok(())
            }
            _ => Err(self.unexpected(&format!("`{mnemonic}<...>`"))),
        }
    }

    /// `key = value, ...` up to (not including) the closing `>`.
    pub(super) fn field_list(&mut self) -> Result<Vec<(&'a str, Field)>, AttrError> {
        let mut fields: Vec<(&'a str, Field)> = Vec::new();
        if self.peek() == Some(Tok::Punct('>')) {
            return Ok(fields);
        }
        loop {
            let key = self.ident()?;
            if fields.iter().any(|(k, _)| *k == key) {
                return Err(self.err(format!("field `{key}` given twice")));
            }
            self.expect('=')?;
            let value = match self.peek() {
                Some(Tok::Punct('[')) => Field::List(self.int_list()?),
                Some(Tok::Int(_)) => Field::Int(self.int()?),
                _ => return Err(self.unexpected(&format!("a value for `{key}`"))),
            };
            fields.push((key, value));
            if !self.eat(',') {
                return Ok(fields);
            }
        }
    }
}

/// Drops a leading `#stablehlo.`, `#stablehlo` (or `#mhlo...`) so both the opaque data and the
/// full printed attribute are accepted.
pub(super) fn strip_dialect_prefix(text: &str) -> &str {
    let t = text.trim();
    for prefix in ["#stablehlo.", "#stablehlo", "#mhlo.", "#mhlo"] {
        if let Some(rest) = t.strip_prefix(prefix) {
            return rest;
        }
    }
    t
}

#[derive(Clone, Debug, PartialEq)]
pub(super) enum Field {
    Int(i64),
    List(Vec<i64>),
}

/// Looks up typed fields of a `key = value` list, rejecting unknown keys.
pub(super) struct Fields<'p, 'a> {
    parser: &'p Parser<'a>,
    fields: Vec<(&'a str, Field)>,
}

impl<'p, 'a> Fields<'p, 'a> {
    pub(super) fn new(
        parser: &'p Parser<'a>,
        fields: Vec<(&'a str, Field)>,
        known: &[&str],
    ) -> Result<Self, AttrError> {
        if let Some((key, _)) = fields.iter().find(|(k, _)| !known.contains(k)) {
            return Err(parser.err(format!("unknown field `{key}`")));
        }
        Ok(Fields { parser, fields })
    }

    pub(super) fn get(&self, names: &[&str]) -> Result<Option<&Field>, AttrError> {
        let found: Vec<&(&str, Field)> = self.fields.iter().filter(|(k, _)| names.contains(k)).collect();
        if found.len() > 1 {
            return Err(self.parser.err(format!("fields `{}` and `{}` both given", found[0].0, found[1].0)));
        }
        Ok(found.first().map(|(_, v)| v))
    }

    /// A list field (empty when absent, as StableHLO's printer leaves out empty lists).
    pub(super) fn list(&self, names: &[&str]) -> Result<Vec<i64>, AttrError> {
        match self.get(names)? {
            None => Ok(Vec::new()),
            Some(Field::List(v)) => Ok(v.clone()),
            Some(Field::Int(_)) => Err(self.parser.err(format!("`{}` must be a list", names[0]))),
        }
    }

    /// An integer field (0 when absent: StableHLO's printer leaves out integers equal to 0,
    /// and its parser treats every struct field as optional).
    pub(super) fn int(&self, names: &[&str]) -> Result<i64, AttrError> {
        match self.get(names)? {
            None => Ok(0),
            Some(Field::Int(v)) => Ok(*v),
            Some(Field::List(_)) => Err(self.parser.err(format!("`{}` must be an integer", names[0]))),
        }
    }
}

pub(super) fn check_dims(p: &Parser<'_>, what: &str, dims: &[i64]) -> Result<(), AttrError> {
    if let Some(d) = dims.iter().find(|&&d| d < 0) {
        return Err(p.err(format!("negative dimension {d} in `{what}`")));
    }
    Ok(())
}

/// Dimensions that must be pairwise distinct (e.g. all lhs dims a dot names).
pub(super) fn check_distinct(p: &Parser<'_>, what: &str, groups: &[&[i64]]) -> Result<(), AttrError> {
    let mut seen: Vec<i64> = Vec::new();
    for g in groups {
        for &d in *g {
            if seen.contains(&d) {
                return Err(p.err(format!("dimension {d} named twice in {what}")));
            }
            seen.push(d);
        }
    }
    Ok(())
}

pub(super) fn write_list(f: &mut fmt::Formatter<'_>, v: &[i64]) -> fmt::Result {
    write!(f, "[")?;
    for (i, d) in v.iter().enumerate() {
        if i > 0 {
            write!(f, ", ")?;
        }
        write!(f, "{d}")?;
    }
    write!(f, "]")
}

/// Writes `mnemonic<k = [..], ...>`, leaving out empty lists and zero integers the way
/// StableHLO prints.
pub(super) fn write_struct(
    f: &mut fmt::Formatter<'_>,
    mnemonic: &str,
    lists: &[(&str, &[i64])],
    ints: &[(&str, i64)],
) -> fmt::Result {
    write!(f, "{mnemonic}<")?;
    let mut first = true;
    for (name, v) in lists {
        if v.is_empty() {
            continue;
        }
        if !first {
            write!(f, ", ")?;
        }
        first = false;
        write!(f, "{name} = ")?;
        write_list(f, v)?;
    }
    for (name, v) in ints {
        if *v == 0 {
            continue;
        }
        if !first {
            write!(f, ", ")?;
        }
        first = false;
        write!(f, "{name} = {v}")?;
    }
    write!(f, ">")
}
