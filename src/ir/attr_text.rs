//! Parsers for the text of StableHLO's own attributes.
//!
//! StableHLO is unregistered in MLIR 22, so `#stablehlo.dot<...>` and friends reach us as opaque
//! attributes: a dialect (`stablehlo`) and the text after `#stablehlo.` (`dot<...>`), or, for the
//! enum attributes written `#stablehlo<comparison_direction LT>`, the text `<comparison_direction LT>`.
//! This module turns those texts into plain structs. It knows nothing about shapes: checks that
//! need operand ranks live in the op table.
//!
//! Every parser is liberal in whitespace, accepts the text with or without a leading
//! `#stablehlo.` / `#stablehlo`, and returns an [`AttrError`] naming the attribute on bad input;
//! none of them panics. Each struct prints back (`Display`) in StableHLO's own spelling, so
//! printing and parsing round trip.

use std::fmt;

/// A malformed attribute text: which attribute, the text (shortened) and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("malformed #stablehlo.{attr} attribute `{text}`: {message}")]
pub struct AttrError {
    /// The attribute's mnemonic: `dot`, `conv`, `gather`, `comparison_direction`, ...
    pub attr: &'static str,
    /// The offending text, cut to a readable length.
    pub text: String,
    pub message: String,
}

impl AttrError {
    fn new(attr: &'static str, text: &str, message: impl Into<String>) -> Self {
        const MAX: usize = 160;
        let text = if text.chars().count() > MAX {
            let cut: String = text.chars().take(MAX).collect();
            format!("{cut}...")
        } else {
            text.to_string()
        };
        AttrError { attr, text, message: message.into() }
    }
}

// ---------------------------------------------------------------------------------------------
// Tokens

#[derive(Clone, Copy, Debug, PartialEq)]
enum Tok<'a> {
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

fn lex(text: &str) -> Result<Vec<Tok<'_>>, String> {
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
            let value = text[start..i]
                .parse::<i64>()
                .map_err(|_| format!("integer `{}` out of range", &text[start..i]))?;
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
struct Parser<'a> {
    attr: &'static str,
    text: &'a str,
    toks: Vec<Tok<'a>>,
    pos: usize,
}

impl<'a> Parser<'a> {
    fn new(attr: &'static str, text: &'a str) -> Result<Self, AttrError> {
        let body = strip_dialect_prefix(text);
        let toks = lex(body).map_err(|m| AttrError::new(attr, text, m))?;
        Ok(Parser { attr, text, toks, pos: 0 })
    }

    fn err(&self, message: impl Into<String>) -> AttrError {
        AttrError::new(self.attr, self.text, message)
    }

    fn peek(&self) -> Option<Tok<'a>> {
        self.toks.get(self.pos).copied()
    }

    fn unexpected(&self, what: &str) -> AttrError {
        match self.peek() {
            Some(t) => self.err(format!("expected {what}, found {t}")),
            None => self.err(format!("expected {what}, found the end of the text")),
        }
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(Tok::Punct(c)) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, c: char) -> Result<(), AttrError> {
        if self.eat(c) {
            Ok(())
        } else {
            Err(self.unexpected(&format!("`{c}`")))
        }
    }

    fn ident(&mut self) -> Result<&'a str, AttrError> {
        match self.peek() {
            Some(Tok::Ident(s)) => {
                self.pos += 1;
                Ok(s)
            }
            _ => Err(self.unexpected("a name")),
        }
    }

    fn int(&mut self) -> Result<i64, AttrError> {
        match self.peek() {
            Some(Tok::Int(v)) => {
                self.pos += 1;
                Ok(v)
            }
            _ => Err(self.unexpected("an integer")),
        }
    }

    /// `[1, 2, 3]` (possibly empty).
    fn int_list(&mut self) -> Result<Vec<i64>, AttrError> {
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

    fn end(&self) -> Result<(), AttrError> {
        match self.peek() {
            None => Ok(()),
            Some(t) => Err(self.err(format!("unexpected {t} after the attribute"))),
        }
    }

    /// `mnemonic<key = value, ...>` where values are integers or integer lists.
    fn fields(&mut self, mnemonic: &str) -> Result<Vec<(&'a str, Field)>, AttrError> {
        self.mnemonic(mnemonic)?;
        self.expect('<')?;
        let fields = self.field_list()?;
        self.expect('>')?;
        self.end()?;
        Ok(fields)
    }

    fn mnemonic(&mut self, mnemonic: &str) -> Result<(), AttrError> {
        match self.peek() {
            Some(Tok::Ident(s)) if s == mnemonic => {
                self.pos += 1;
                Ok(())
            }
            _ => Err(self.unexpected(&format!("`{mnemonic}<...>`"))),
        }
    }

    /// `key = value, ...` up to (not including) the closing `>`.
    fn field_list(&mut self) -> Result<Vec<(&'a str, Field)>, AttrError> {
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
fn strip_dialect_prefix(text: &str) -> &str {
    let t = text.trim();
    for prefix in ["#stablehlo.", "#stablehlo", "#mhlo.", "#mhlo"] {
        if let Some(rest) = t.strip_prefix(prefix) {
            return rest;
        }
    }
    t
}

#[derive(Clone, Debug, PartialEq)]
enum Field {
    Int(i64),
    List(Vec<i64>),
}

/// Looks up typed fields of a `key = value` list, rejecting unknown keys.
struct Fields<'p, 'a> {
    parser: &'p Parser<'a>,
    fields: Vec<(&'a str, Field)>,
}

impl<'p, 'a> Fields<'p, 'a> {
    fn new(parser: &'p Parser<'a>, fields: Vec<(&'a str, Field)>, known: &[&str]) -> Result<Self, AttrError> {
        if let Some((key, _)) = fields.iter().find(|(k, _)| !known.contains(k)) {
            return Err(parser.err(format!("unknown field `{key}`")));
        }
        Ok(Fields { parser, fields })
    }

    fn get(&self, names: &[&str]) -> Result<Option<&Field>, AttrError> {
        let found: Vec<&(&str, Field)> = self.fields.iter().filter(|(k, _)| names.contains(k)).collect();
        if found.len() > 1 {
            return Err(self.parser.err(format!("fields `{}` and `{}` both given", found[0].0, found[1].0)));
        }
        Ok(found.first().map(|(_, v)| v))
    }

    /// A list field (empty when absent, as StableHLO's printer leaves out empty lists).
    fn list(&self, names: &[&str]) -> Result<Vec<i64>, AttrError> {
        match self.get(names)? {
            None => Ok(Vec::new()),
            Some(Field::List(v)) => Ok(v.clone()),
            Some(Field::Int(_)) => Err(self.parser.err(format!("`{}` must be a list", names[0]))),
        }
    }

    fn int(&self, names: &[&str]) -> Result<i64, AttrError> {
        match self.get(names)? {
            None => Err(self.parser.err(format!("missing field `{}`", names[0]))),
            Some(Field::Int(v)) => Ok(*v),
            Some(Field::List(_)) => Err(self.parser.err(format!("`{}` must be an integer", names[0]))),
        }
    }
}

fn check_dims(p: &Parser<'_>, what: &str, dims: &[i64]) -> Result<(), AttrError> {
    if let Some(d) = dims.iter().find(|&&d| d < 0) {
        return Err(p.err(format!("negative dimension {d} in `{what}`")));
    }
    Ok(())
}

/// Dimensions that must be pairwise distinct (e.g. all lhs dims a dot names).
fn check_distinct(p: &Parser<'_>, what: &str, groups: &[&[i64]]) -> Result<(), AttrError> {
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

fn write_list(f: &mut fmt::Formatter<'_>, v: &[i64]) -> fmt::Result {
    write!(f, "[")?;
    for (i, d) in v.iter().enumerate() {
        if i > 0 {
            write!(f, ", ")?;
        }
        write!(f, "{d}")?;
    }
    write!(f, "]")
}

/// Writes `mnemonic<k = [..], ...>`, leaving out empty lists the way StableHLO prints.
fn write_struct(f: &mut fmt::Formatter<'_>, mnemonic: &str, lists: &[(&str, &[i64])], ints: &[(&str, i64)]) -> fmt::Result {
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
        if !first {
            write!(f, ", ")?;
        }
        first = false;
        write!(f, "{name} = {v}")?;
    }
    write!(f, ">")
}

// ---------------------------------------------------------------------------------------------
// #stablehlo.dot<...>

/// `#stablehlo.dot<...>`: the dimension numbers of `dot_general`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DotDimensionNumbers {
    pub lhs_batching_dimensions: Vec<i64>,
    pub rhs_batching_dimensions: Vec<i64>,
    pub lhs_contracting_dimensions: Vec<i64>,
    pub rhs_contracting_dimensions: Vec<i64>,
}

impl DotDimensionNumbers {
    /// Parses `dot<lhs_batching_dimensions = [0], ...>` (fields may be left out when empty).
    pub fn parse(text: &str) -> Result<Self, AttrError> {
        let mut p = Parser::new("dot", text)?;
        let raw = p.fields("dot")?;
        let f = Fields::new(
            &p,
            raw,
            &[
                "lhs_batching_dimensions",
                "rhs_batching_dimensions",
                "lhs_contracting_dimensions",
                "rhs_contracting_dimensions",
            ],
        )?;
        let d = DotDimensionNumbers {
            lhs_batching_dimensions: f.list(&["lhs_batching_dimensions"])?,
            rhs_batching_dimensions: f.list(&["rhs_batching_dimensions"])?,
            lhs_contracting_dimensions: f.list(&["lhs_contracting_dimensions"])?,
            rhs_contracting_dimensions: f.list(&["rhs_contracting_dimensions"])?,
        };
        for (name, v) in [
            ("lhs_batching_dimensions", &d.lhs_batching_dimensions),
            ("rhs_batching_dimensions", &d.rhs_batching_dimensions),
            ("lhs_contracting_dimensions", &d.lhs_contracting_dimensions),
            ("rhs_contracting_dimensions", &d.rhs_contracting_dimensions),
        ] {
            check_dims(&p, name, v)?;
        }
        if d.lhs_batching_dimensions.len() != d.rhs_batching_dimensions.len() {
            return Err(p.err("lhs and rhs batching dimensions differ in number"));
        }
        if d.lhs_contracting_dimensions.len() != d.rhs_contracting_dimensions.len() {
            return Err(p.err("lhs and rhs contracting dimensions differ in number"));
        }
        check_distinct(&p, "the lhs dimensions", &[&d.lhs_batching_dimensions, &d.lhs_contracting_dimensions])?;
        check_distinct(&p, "the rhs dimensions", &[&d.rhs_batching_dimensions, &d.rhs_contracting_dimensions])?;
        Ok(d)
    }
}

impl fmt::Display for DotDimensionNumbers {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_struct(
            f,
            "dot",
            &[
                ("lhs_batching_dimensions", &self.lhs_batching_dimensions),
                ("rhs_batching_dimensions", &self.rhs_batching_dimensions),
                ("lhs_contracting_dimensions", &self.lhs_contracting_dimensions),
                ("rhs_contracting_dimensions", &self.rhs_contracting_dimensions),
            ],
            &[],
        )
    }
}

// ---------------------------------------------------------------------------------------------
// #stablehlo.conv<...>

/// `#stablehlo.conv<...>`: which dimension of input, kernel and output is batch, feature and
/// spatial. Parsed from the compact form `conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>` or the
/// raw form `conv<raw input_batch_dimension = 0, ...>`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ConvDimensionNumbers {
    pub input_batch_dimension: i64,
    pub input_feature_dimension: i64,
    pub input_spatial_dimensions: Vec<i64>,
    pub kernel_input_feature_dimension: i64,
    pub kernel_output_feature_dimension: i64,
    pub kernel_spatial_dimensions: Vec<i64>,
    pub output_batch_dimension: i64,
    pub output_feature_dimension: i64,
    pub output_spatial_dimensions: Vec<i64>,
}

const CONV_FIELDS: [&str; 9] = [
    "input_batch_dimension",
    "input_feature_dimension",
    "input_spatial_dimensions",
    "kernel_input_feature_dimension",
    "kernel_output_feature_dimension",
    "kernel_spatial_dimensions",
    "output_batch_dimension",
    "output_feature_dimension",
    "output_spatial_dimensions",
];

impl ConvDimensionNumbers {
    pub fn parse(text: &str) -> Result<Self, AttrError> {
        let mut p = Parser::new("conv", text)?;
        p.mnemonic("conv")?;
        p.expect('<')?;
        let d = if p.peek() == Some(Tok::Ident("raw")) {
            p.pos += 1;
            let raw = p.field_list()?;
            let f = Fields::new(&p, raw, &CONV_FIELDS)?;
            ConvDimensionNumbers {
                input_batch_dimension: f.int(&["input_batch_dimension"])?,
                input_feature_dimension: f.int(&["input_feature_dimension"])?,
                input_spatial_dimensions: f.list(&["input_spatial_dimensions"])?,
                kernel_input_feature_dimension: f.int(&["kernel_input_feature_dimension"])?,
                kernel_output_feature_dimension: f.int(&["kernel_output_feature_dimension"])?,
                kernel_spatial_dimensions: f.list(&["kernel_spatial_dimensions"])?,
                output_batch_dimension: f.int(&["output_batch_dimension"])?,
                output_feature_dimension: f.int(&["output_feature_dimension"])?,
                output_spatial_dimensions: f.list(&["output_spatial_dimensions"])?,
            }
        } else {
            let (input_batch_dimension, input_feature_dimension, input_spatial_dimensions) =
                conv_layout(&mut p, "input", ['b', 'f'])?;
            if p.peek() != Some(Tok::Ident("x")) {
                return Err(p.unexpected("`x` between input and kernel layouts"));
            }
            p.pos += 1;
            let (kernel_input_feature_dimension, kernel_output_feature_dimension, kernel_spatial_dimensions) =
                conv_layout(&mut p, "kernel", ['i', 'o'])?;
            if p.peek() != Some(Tok::Arrow) {
                return Err(p.unexpected("`->` before the output layout"));
            }
            p.pos += 1;
            let (output_batch_dimension, output_feature_dimension, output_spatial_dimensions) =
                conv_layout(&mut p, "output", ['b', 'f'])?;
            ConvDimensionNumbers {
                input_batch_dimension,
                input_feature_dimension,
                input_spatial_dimensions,
                kernel_input_feature_dimension,
                kernel_output_feature_dimension,
                kernel_spatial_dimensions,
                output_batch_dimension,
                output_feature_dimension,
                output_spatial_dimensions,
            }
        };
        p.expect('>')?;
        p.end()?;
        d.validate(&p)?;
        Ok(d)
    }

    fn validate(&self, p: &Parser<'_>) -> Result<(), AttrError> {
        let n = self.input_spatial_dimensions.len();
        if self.kernel_spatial_dimensions.len() != n || self.output_spatial_dimensions.len() != n {
            return Err(p.err("input, kernel and output name different numbers of spatial dimensions"));
        }
        for (what, a, b, s) in [
            ("input", self.input_batch_dimension, self.input_feature_dimension, &self.input_spatial_dimensions),
            ("kernel", self.kernel_input_feature_dimension, self.kernel_output_feature_dimension, &self.kernel_spatial_dimensions),
            ("output", self.output_batch_dimension, self.output_feature_dimension, &self.output_spatial_dimensions),
        ] {
            let all: Vec<i64> = [a, b].into_iter().chain(s.iter().copied()).collect();
            check_dims(p, what, &all)?;
            check_distinct(p, &format!("the {what} dimensions"), &[&all])?;
        }
        Ok(())
    }

    /// Whether the compact `[b, 0, f]x[...]->[...]` form can spell these numbers: each layout
    /// must name every dimension of its rank exactly once.
    fn is_compact(&self) -> bool {
        let ok = |a: i64, b: i64, s: &[i64]| {
            let rank = s.len() as i64 + 2;
            let mut seen = vec![false; rank as usize];
            for d in [a, b].into_iter().chain(s.iter().copied()) {
                if d < 0 || d >= rank || seen[d as usize] {
                    return false;
                }
                seen[d as usize] = true;
            }
            true
        };
        ok(self.input_batch_dimension, self.input_feature_dimension, &self.input_spatial_dimensions)
            && ok(self.kernel_input_feature_dimension, self.kernel_output_feature_dimension, &self.kernel_spatial_dimensions)
            && ok(self.output_batch_dimension, self.output_feature_dimension, &self.output_spatial_dimensions)
            && self.input_spatial_dimensions.len() == self.kernel_spatial_dimensions.len()
            && self.input_spatial_dimensions.len() == self.output_spatial_dimensions.len()
    }

    /// The raw spelling `conv<raw input_batch_dimension = 0, ...>`.
    pub fn to_raw_string(&self) -> String {
        format!(
            "conv<raw input_batch_dimension = {}, input_feature_dimension = {}, input_spatial_dimensions = {}, \
             kernel_input_feature_dimension = {}, kernel_output_feature_dimension = {}, kernel_spatial_dimensions = {}, \
             output_batch_dimension = {}, output_feature_dimension = {}, output_spatial_dimensions = {}>",
            self.input_batch_dimension,
            self.input_feature_dimension,
            list_string(&self.input_spatial_dimensions),
            self.kernel_input_feature_dimension,
            self.kernel_output_feature_dimension,
            list_string(&self.kernel_spatial_dimensions),
            self.output_batch_dimension,
            self.output_feature_dimension,
            list_string(&self.output_spatial_dimensions),
        )
    }
}

fn list_string(v: &[i64]) -> String {
    let items: Vec<String> = v.iter().map(i64::to_string).collect();
    format!("[{}]", items.join(", "))
}

/// One compact layout such as `[b, 0, 1, f]`: returns the positions of the two letters and of
/// spatial dimension 0, 1, ... in order.
fn conv_layout(p: &mut Parser<'_>, what: &str, letters: [char; 2]) -> Result<(i64, i64, Vec<i64>), AttrError> {
    p.expect('[')?;
    let mut first = None;
    let mut second = None;
    let mut spatial: Vec<Option<i64>> = Vec::new();
    let mut pos = 0i64;
    loop {
        match p.peek() {
            Some(Tok::Ident(s)) if s.len() == 1 && (s.starts_with(letters[0]) || s.starts_with(letters[1])) => {
                let slot = if s.starts_with(letters[0]) { &mut first } else { &mut second };
                if slot.is_some() {
                    return Err(p.err(format!("`{s}` appears twice in the {what} layout")));
                }
                *slot = Some(pos);
                p.pos += 1;
            }
            Some(Tok::Int(k)) => {
                if k < 0 || k > 64 {
                    return Err(p.err(format!("spatial dimension {k} out of range in the {what} layout")));
                }
                let k = k as usize;
                if spatial.len() <= k {
                    spatial.resize(k + 1, None);
                }
                if spatial[k].is_some() {
                    return Err(p.err(format!("spatial dimension {k} appears twice in the {what} layout")));
                }
                spatial[k] = Some(pos);
                p.pos += 1;
            }
            _ => {
                return Err(p.unexpected(&format!(
                    "`{}`, `{}` or a spatial dimension number in the {what} layout",
                    letters[0], letters[1]
                )));
            }
        }
        pos += 1;
        if p.eat(']') {
            break;
        }
        p.expect(',')?;
    }
    let first = first.ok_or_else(|| p.err(format!("the {what} layout has no `{}`", letters[0])))?;
    let second = second.ok_or_else(|| p.err(format!("the {what} layout has no `{}`", letters[1])))?;
    let spatial = spatial
        .into_iter()
        .enumerate()
        .map(|(k, s)| s.ok_or_else(|| p.err(format!("the {what} layout lacks spatial dimension {k}"))))
        .collect::<Result<Vec<i64>, AttrError>>()?;
    Ok((first, second, spatial))
}

fn write_layout(f: &mut fmt::Formatter<'_>, a: (i64, char), b: (i64, char), spatial: &[i64]) -> fmt::Result {
    let rank = spatial.len() + 2;
    let mut labels = vec![String::new(); rank];
    labels[a.0 as usize] = a.1.to_string();
    labels[b.0 as usize] = b.1.to_string();
    for (k, &d) in spatial.iter().enumerate() {
        labels[d as usize] = k.to_string();
    }
    write!(f, "[{}]", labels.join(", "))
}

impl fmt::Display for ConvDimensionNumbers {
    /// The compact form when it can spell these numbers, the raw form otherwise.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.is_compact() {
            return write!(f, "{}", self.to_raw_string());
        }
        write!(f, "conv<")?;
        write_layout(f, (self.input_batch_dimension, 'b'), (self.input_feature_dimension, 'f'), &self.input_spatial_dimensions)?;
        write!(f, "x")?;
        write_layout(
            f,
            (self.kernel_input_feature_dimension, 'i'),
            (self.kernel_output_feature_dimension, 'o'),
            &self.kernel_spatial_dimensions,
        )?;
        write!(f, "->")?;
        write_layout(f, (self.output_batch_dimension, 'b'), (self.output_feature_dimension, 'f'), &self.output_spatial_dimensions)?;
        write!(f, ">")
    }
}

// ---------------------------------------------------------------------------------------------
// #stablehlo.gather<...> and #stablehlo.scatter<...>

/// `#stablehlo.gather<...>`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GatherDimensionNumbers {
    pub offset_dims: Vec<i64>,
    pub collapsed_slice_dims: Vec<i64>,
    pub operand_batching_dims: Vec<i64>,
    pub start_indices_batching_dims: Vec<i64>,
    pub start_index_map: Vec<i64>,
    pub index_vector_dim: i64,
}

impl GatherDimensionNumbers {
    pub fn parse(text: &str) -> Result<Self, AttrError> {
        let mut p = Parser::new("gather", text)?;
        let raw = p.fields("gather")?;
        let f = Fields::new(
            &p,
            raw,
            &[
                "offset_dims",
                "collapsed_slice_dims",
                "operand_batching_dims",
                "start_indices_batching_dims",
                "start_index_map",
                "index_vector_dim",
            ],
        )?;
        let d = GatherDimensionNumbers {
            offset_dims: f.list(&["offset_dims"])?,
            collapsed_slice_dims: f.list(&["collapsed_slice_dims"])?,
            operand_batching_dims: f.list(&["operand_batching_dims"])?,
            start_indices_batching_dims: f.list(&["start_indices_batching_dims"])?,
            start_index_map: f.list(&["start_index_map"])?,
            index_vector_dim: f.int(&["index_vector_dim"])?,
        };
        for (name, v) in [
            ("offset_dims", &d.offset_dims),
            ("collapsed_slice_dims", &d.collapsed_slice_dims),
            ("operand_batching_dims", &d.operand_batching_dims),
            ("start_indices_batching_dims", &d.start_indices_batching_dims),
            ("start_index_map", &d.start_index_map),
        ] {
            check_dims(&p, name, v)?;
        }
        check_dims(&p, "index_vector_dim", &[d.index_vector_dim])?;
        check_distinct(&p, "offset_dims", &[&d.offset_dims])?;
        check_distinct(&p, "start_index_map", &[&d.start_index_map])?;
        check_distinct(&p, "collapsed_slice_dims and operand_batching_dims", &[&d.collapsed_slice_dims, &d.operand_batching_dims])?;
        check_distinct(&p, "start_indices_batching_dims", &[&d.start_indices_batching_dims])?;
        if d.operand_batching_dims.len() != d.start_indices_batching_dims.len() {
            return Err(p.err("operand_batching_dims and start_indices_batching_dims differ in number"));
        }
        if d.start_indices_batching_dims.contains(&d.index_vector_dim) {
            return Err(p.err("index_vector_dim is also a start_indices batching dimension"));
        }
        Ok(d)
    }
}

impl fmt::Display for GatherDimensionNumbers {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_struct(
            f,
            "gather",
            &[
                ("offset_dims", &self.offset_dims),
                ("collapsed_slice_dims", &self.collapsed_slice_dims),
                ("operand_batching_dims", &self.operand_batching_dims),
                ("start_indices_batching_dims", &self.start_indices_batching_dims),
                ("start_index_map", &self.start_index_map),
            ],
            &[("index_vector_dim", self.index_vector_dim)],
        )
    }
}

/// `#stablehlo.scatter<...>`. The batching fields are also accepted under gather's names
/// (`operand_batching_dims`, `start_indices_batching_dims`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ScatterDimensionNumbers {
    pub update_window_dims: Vec<i64>,
    pub inserted_window_dims: Vec<i64>,
    pub input_batching_dims: Vec<i64>,
    pub scatter_indices_batching_dims: Vec<i64>,
    pub scatter_dims_to_operand_dims: Vec<i64>,
    pub index_vector_dim: i64,
}

impl ScatterDimensionNumbers {
    pub fn parse(text: &str) -> Result<Self, AttrError> {
        let mut p = Parser::new("scatter", text)?;
        let raw = p.fields("scatter")?;
        let f = Fields::new(
            &p,
            raw,
            &[
                "update_window_dims",
                "inserted_window_dims",
                "input_batching_dims",
                "operand_batching_dims",
                "scatter_indices_batching_dims",
                "start_indices_batching_dims",
                "scatter_dims_to_operand_dims",
                "index_vector_dim",
            ],
        )?;
        let d = ScatterDimensionNumbers {
            update_window_dims: f.list(&["update_window_dims"])?,
            inserted_window_dims: f.list(&["inserted_window_dims"])?,
            input_batching_dims: f.list(&["input_batching_dims", "operand_batching_dims"])?,
            scatter_indices_batching_dims: f.list(&["scatter_indices_batching_dims", "start_indices_batching_dims"])?,
            scatter_dims_to_operand_dims: f.list(&["scatter_dims_to_operand_dims"])?,
            index_vector_dim: f.int(&["index_vector_dim"])?,
        };
        for (name, v) in [
            ("update_window_dims", &d.update_window_dims),
            ("inserted_window_dims", &d.inserted_window_dims),
            ("input_batching_dims", &d.input_batching_dims),
            ("scatter_indices_batching_dims", &d.scatter_indices_batching_dims),
            ("scatter_dims_to_operand_dims", &d.scatter_dims_to_operand_dims),
        ] {
            check_dims(&p, name, v)?;
        }
        check_dims(&p, "index_vector_dim", &[d.index_vector_dim])?;
        check_distinct(&p, "update_window_dims", &[&d.update_window_dims])?;
        check_distinct(&p, "scatter_dims_to_operand_dims", &[&d.scatter_dims_to_operand_dims])?;
        check_distinct(&p, "inserted_window_dims and input_batching_dims", &[&d.inserted_window_dims, &d.input_batching_dims])?;
        check_distinct(&p, "scatter_indices_batching_dims", &[&d.scatter_indices_batching_dims])?;
        if d.input_batching_dims.len() != d.scatter_indices_batching_dims.len() {
            return Err(p.err("input_batching_dims and scatter_indices_batching_dims differ in number"));
        }
        if d.scatter_indices_batching_dims.contains(&d.index_vector_dim) {
            return Err(p.err("index_vector_dim is also a scatter_indices batching dimension"));
        }
        Ok(d)
    }
}

impl fmt::Display for ScatterDimensionNumbers {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_struct(
            f,
            "scatter",
            &[
                ("update_window_dims", &self.update_window_dims),
                ("inserted_window_dims", &self.inserted_window_dims),
                ("input_batching_dims", &self.input_batching_dims),
                ("scatter_indices_batching_dims", &self.scatter_indices_batching_dims),
                ("scatter_dims_to_operand_dims", &self.scatter_dims_to_operand_dims),
            ],
            &[("index_vector_dim", self.index_vector_dim)],
        )
    }
}

// ---------------------------------------------------------------------------------------------
// Enum attributes: #stablehlo<comparison_direction LT> and friends

/// Parses an enum attribute's value: accepts `<keyword VALUE>` (the opaque data of
/// `#stablehlo<keyword VALUE>`), `keyword<VALUE>`, `keyword VALUE` and a bare `VALUE`.
fn enum_value<'a>(attr: &'static str, text: &'a str) -> Result<&'a str, AttrError> {
    let mut p = Parser::new(attr, text)?;
    let bracketed = p.eat('<');
    let first = p.ident()?;
    let value = if first == attr {
        let inner = p.eat('<');
        let v = p.ident()?;
        if inner {
            p.expect('>')?;
        }
        v
    } else {
        first
    };
    if bracketed {
        p.expect('>')?;
    }
    p.end()?;
    Ok(value)
}

macro_rules! stablehlo_enum {
    ($(#[$meta:meta])* $name:ident, $keyword:literal, { $($variant:ident = $spelling:literal),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $name {
            $($variant),+
        }

        impl $name {
            /// Every value, in StableHLO's order.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The attribute keyword, e.g. `comparison_direction`.
            pub const KEYWORD: &'static str = $keyword;

            /// Parses `<keyword VALUE>`, `keyword<VALUE>`, `keyword VALUE` or `VALUE`.
            pub fn parse(text: &str) -> Result<Self, AttrError> {
                let value = enum_value($keyword, text)?;
                match value {
                    $($spelling => Ok($name::$variant),)+
                    other => Err(AttrError::new($keyword, text, format!("unknown value `{other}`"))),
                }
            }

            /// StableHLO's spelling of the value (`LT`).
            pub fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $spelling),+
                }
            }
        }

        impl fmt::Display for $name {
            /// The opaque data form, `<keyword VALUE>`.
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "<{} {}>", $keyword, self.as_str())
            }
        }
    };
}

stablehlo_enum!(
    /// `#stablehlo<comparison_direction LT>`.
    ComparisonDirection, "comparison_direction", { Eq = "EQ", Ne = "NE", Ge = "GE", Gt = "GT", Le = "LE", Lt = "LT" }
);
stablehlo_enum!(
    /// `#stablehlo<comparison_type FLOAT>`.
    ComparisonType, "comparison_type",
    { NoType = "NOTYPE", Float = "FLOAT", TotalOrder = "TOTALORDER", Signed = "SIGNED", Unsigned = "UNSIGNED" }
);
stablehlo_enum!(
    /// `#stablehlo<precision DEFAULT>`, one per dot/conv operand in `precision_config`.
    Precision, "precision", { Default = "DEFAULT", High = "HIGH", Highest = "HIGHEST" }
);
stablehlo_enum!(
    /// `#stablehlo<rng_algorithm THREE_FRY>` of `rng_bit_generator`.
    RngAlgorithm, "rng_algorithm", { Default = "DEFAULT", ThreeFry = "THREE_FRY", Philox = "PHILOX" }
);
stablehlo_enum!(
    /// `#stablehlo<rng_distribution UNIFORM>` of `rng`.
    RngDistribution, "rng_distribution", { Uniform = "UNIFORM", Normal = "NORMAL" }
);
stablehlo_enum!(
    /// `#stablehlo<fft_type RFFT>`.
    FftType, "fft_type", { Fft = "FFT", Ifft = "IFFT", Rfft = "RFFT", Irfft = "IRFFT" }
);
stablehlo_enum!(
    /// `#stablehlo<transpose NO_TRANSPOSE>` of `triangular_solve`.
    Transpose, "transpose",
    { TransposeInvalid = "TRANSPOSE_INVALID", NoTranspose = "NO_TRANSPOSE", Transpose = "TRANSPOSE", Adjoint = "ADJOINT" }
);


#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn parses_dot_with_batch_and_contracting_dims() {
        let d = DotDimensionNumbers::parse(
            "dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], \
             lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>",
        )
        .unwrap();
        assert_eq!(d.lhs_batching_dimensions, vec![0]);
        assert_eq!(d.rhs_batching_dimensions, vec![0]);
        assert_eq!(d.lhs_contracting_dimensions, vec![2]);
        assert_eq!(d.rhs_contracting_dimensions, vec![1]);
    }

    #[test]
    fn dot_accepts_omitted_fields_prefix_and_odd_whitespace() {
        let d = DotDimensionNumbers::parse("#stablehlo.dot<\n  lhs_contracting_dimensions=[1],rhs_contracting_dimensions = [ 0 ]  >").unwrap();
        assert!(d.lhs_batching_dimensions.is_empty());
        assert_eq!(d.lhs_contracting_dimensions, vec![1]);
        assert_eq!(d.to_string(), "dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>");
        assert_eq!(DotDimensionNumbers::parse("dot<>").unwrap(), DotDimensionNumbers::default());
    }

    #[test]
    fn malformed_dots_are_errors_naming_the_attribute() {
        for bad in [
            "",
            "dot",
            "dot<",
            "dot<lhs_contracting_dimensions = [1>",
            "dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = []>",
            "dot<lhs_contracting_dimensions = 1, rhs_contracting_dimensions = 0>",
            "dot<lhs_contracting_dimensions = [1], lhs_contracting_dimensions = [1]>",
            "dot<lhs_contracting_dimensions = [-1], rhs_contracting_dimensions = [0]>",
            "dot<lhs_batching_dimensions = [1], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>",
            "dot<lhs_contracting_dims = [1]>",
            "dot<lhs_contracting_dimensions = [99999999999999999999]>",
            "dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]> extra",
            "conv<lhs_contracting_dimensions = [1]>",
            "dot<lhs_contracting_dimensions = [1]; rhs_contracting_dimensions = [0]>",
        ] {
            let err = DotDimensionNumbers::parse(bad).unwrap_err();
            assert_eq!(err.attr, "dot", "{bad}");
            assert!(err.to_string().contains("#stablehlo.dot"), "{err}");
        }
    }

    #[test]
    fn parses_compact_conv() {
        let d = ConvDimensionNumbers::parse("conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>").unwrap();
        assert_eq!(
            d,
            ConvDimensionNumbers {
                input_batch_dimension: 0,
                input_feature_dimension: 3,
                input_spatial_dimensions: vec![1, 2],
                kernel_input_feature_dimension: 2,
                kernel_output_feature_dimension: 3,
                kernel_spatial_dimensions: vec![0, 1],
                output_batch_dimension: 0,
                output_feature_dimension: 3,
                output_spatial_dimensions: vec![1, 2],
            }
        );
        assert_eq!(d.to_string(), "conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>");
        // NCHW / OIHW, spatial dims out of order.
        let d = ConvDimensionNumbers::parse("#stablehlo.conv<[b,f,1,0]x[o,i,0,1]->[b,f,0,1]>").unwrap();
        assert_eq!(d.input_spatial_dimensions, vec![3, 2]);
        assert_eq!(d.kernel_output_feature_dimension, 0);
        assert_eq!(d.kernel_input_feature_dimension, 1);
        assert_eq!(d.output_spatial_dimensions, vec![2, 3]);
    }

    #[test]
    fn parses_raw_conv() {
        let text = "conv<raw input_batch_dimension = 0, input_feature_dimension = 3, input_spatial_dimensions = [1, 2], \
                    kernel_input_feature_dimension = 2, kernel_output_feature_dimension = 3, kernel_spatial_dimensions = [0, 1], \
                    output_batch_dimension = 0, output_feature_dimension = 3, output_spatial_dimensions = [1, 2]>";
        let raw = ConvDimensionNumbers::parse(text).unwrap();
        let compact = ConvDimensionNumbers::parse("conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>").unwrap();
        assert_eq!(raw, compact);
        assert_eq!(ConvDimensionNumbers::parse(&raw.to_raw_string()).unwrap(), raw);
    }

    #[test]
    fn malformed_convs_are_errors() {
        for bad in [
            "conv<[b, 0, f]x[0, i, o]>",
            "conv<[b, 0, f]x[0, i, o]->[b, 0]>",
            "conv<[b, 0, f]x[0, i, o]->[b, 0, 1, f]>",
            "conv<[b, 0, 0, f]x[0, 1, i, o]->[b, 0, 1, f]>",
            "conv<[b, b, 0, f]x[0, i, o]->[b, 0, f]>",
            "conv<[b, 1, f]x[1, i, o]->[b, 1, f]>",
            "conv<[b, 0, f][0, i, o]->[b, 0, f]>",
            "conv<[b, 0, q]x[0, i, o]->[b, 0, f]>",
            "conv<[b, 0, f]x[0, i, o]->[b, 0, f]",
            "conv<raw input_batch_dimension = 0>",
            "conv<raw input_batch_dimension = [0]>",
            "conv<[b, 0, 70, f]x[0, i, o]->[b, 0, f]>",
            "conv<[b, 0, -1, f]x[0, i, o]->[b, 0, f]>",
        ] {
            let err = ConvDimensionNumbers::parse(bad).unwrap_err();
            assert_eq!(err.attr, "conv", "{bad}");
        }
    }

    #[test]
    fn parses_gather_and_scatter() {
        let g = GatherDimensionNumbers::parse(
            "gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>",
        )
        .unwrap();
        assert_eq!(g.offset_dims, vec![1]);
        assert_eq!(g.collapsed_slice_dims, vec![0]);
        assert_eq!(g.start_index_map, vec![0]);
        assert_eq!(g.index_vector_dim, 1);
        assert!(g.operand_batching_dims.is_empty());
        assert_eq!(GatherDimensionNumbers::parse(&g.to_string()).unwrap(), g);

        let s = ScatterDimensionNumbers::parse(
            "scatter<update_window_dims = [1], inserted_window_dims = [0], input_batching_dims = [2], \
             scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 2>",
        )
        .unwrap();
        assert_eq!(s.update_window_dims, vec![1]);
        assert_eq!(s.input_batching_dims, vec![2]);
        assert_eq!(s.scatter_indices_batching_dims, vec![0]);
        assert_eq!(s.index_vector_dim, 2);
        // Gather's names for the batching fields are accepted too.
        let alias = ScatterDimensionNumbers::parse(
            "scatter<update_window_dims = [1], inserted_window_dims = [0], operand_batching_dims = [2], \
             start_indices_batching_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 2>",
        )
        .unwrap();
        assert_eq!(alias, s);
    }

    #[test]
    fn malformed_gathers_and_scatters_are_errors() {
        for bad in [
            "gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0]>",
            "gather<offset_dims = [1, 1], start_index_map = [0], index_vector_dim = 1>",
            "gather<offset_dims = [1], operand_batching_dims = [0], start_index_map = [1], index_vector_dim = 1>",
            "gather<offset_dims = [1], collapsed_slice_dims = [0], operand_batching_dims = [0], start_indices_batching_dims = [0], index_vector_dim = 1>",
            "gather<offset_dims = [1], index_vector_dim = [1]>",
            "scatter<offset_dims = [1], index_vector_dim = 1>",
        ] {
            assert_eq!(GatherDimensionNumbers::parse(bad).unwrap_err().attr, "gather", "{bad}");
        }
        for bad in [
            "scatter<update_window_dims = [1]>",
            "scatter<input_batching_dims = [0], operand_batching_dims = [0], scatter_indices_batching_dims = [0], index_vector_dim = 1>",
            "scatter<update_window_dims = [1], index_vector_dim = -1>",
            "scatter<input_batching_dims = [0], scatter_indices_batching_dims = [1], index_vector_dim = 1>",
        ] {
            assert_eq!(ScatterDimensionNumbers::parse(bad).unwrap_err().attr, "scatter", "{bad}");
        }
    }

    #[test]
    fn parses_enum_attributes_in_every_spelling() {
        for text in ["<comparison_direction LT>", "#stablehlo<comparison_direction LT>", "comparison_direction<LT>", "LT", " < comparison_direction  LT > "] {
            assert_eq!(ComparisonDirection::parse(text).unwrap(), ComparisonDirection::Lt, "{text}");
        }
        assert_eq!(ComparisonType::parse("<comparison_type FLOAT>").unwrap(), ComparisonType::Float);
        assert_eq!(ComparisonType::parse("<comparison_type TOTALORDER>").unwrap(), ComparisonType::TotalOrder);
        assert_eq!(Precision::parse("<precision DEFAULT>").unwrap(), Precision::Default);
        assert_eq!(Precision::parse("<precision HIGHEST>").unwrap(), Precision::Highest);
        assert_eq!(RngAlgorithm::parse("<rng_algorithm THREE_FRY>").unwrap(), RngAlgorithm::ThreeFry);
        assert_eq!(RngDistribution::parse("<rng_distribution NORMAL>").unwrap(), RngDistribution::Normal);
        assert_eq!(FftType::parse("<fft_type IRFFT>").unwrap(), FftType::Irfft);
        assert_eq!(Transpose::parse("<transpose ADJOINT>").unwrap(), Transpose::Adjoint);
        for v in ComparisonDirection::ALL {
            assert_eq!(ComparisonDirection::parse(&v.to_string()).unwrap(), *v);
        }
        for v in FftType::ALL {
            assert_eq!(FftType::parse(&v.to_string()).unwrap(), *v);
        }
    }

    #[test]
    fn malformed_enums_are_errors_naming_the_attribute() {
        for bad in ["<comparison_direction>", "<comparison_direction XX>", "<comparison_direction LT", "comparison_direction<LT", "<comparison_direction LT GT>", "", "<precision LT>"] {
            let err = ComparisonDirection::parse(bad).unwrap_err();
            assert_eq!(err.attr, "comparison_direction", "{bad}");
            assert!(err.to_string().contains("comparison_direction"));
        }
        assert_eq!(Precision::parse("<precision FAST>").unwrap_err().attr, "precision");
    }

    #[test]
    fn long_texts_are_shortened_in_errors() {
        let long = format!("dot<lhs_contracting_dimensions = [{}]>", "1, ".repeat(200));
        let err = DotDimensionNumbers::parse(&long).unwrap_err();
        assert!(err.text.len() < 200);
        assert!(err.text.ends_with("..."));
    }

    fn dims(max_rank: i64, n: usize) -> impl Strategy<Value = Vec<i64>> {
        proptest::sample::subsequence((0..max_rank).collect::<Vec<_>>(), 0..=n).prop_shuffle()
    }

    prop_compose! {
        fn dot_numbers()(nb in 0usize..3, nc in 0usize..3)
            (lhs in Just((0..8i64).collect::<Vec<_>>()).prop_shuffle(),
             rhs in Just((0..8i64).collect::<Vec<_>>()).prop_shuffle(),
             nb in Just(nb), nc in Just(nc)) -> DotDimensionNumbers {
            DotDimensionNumbers {
                lhs_batching_dimensions: lhs[..nb].to_vec(),
                rhs_batching_dimensions: rhs[..nb].to_vec(),
                lhs_contracting_dimensions: lhs[nb..nb + nc].to_vec(),
                rhs_contracting_dimensions: rhs[nb..nb + nc].to_vec(),
            }
        }
    }

    prop_compose! {
        fn conv_layout_perm(n: usize)(perm in Just((0..n as i64 + 2).collect::<Vec<_>>()).prop_shuffle()) -> (i64, i64, Vec<i64>) {
            (perm[0], perm[1], perm[2..].to_vec())
        }
    }

    prop_compose! {
        fn conv_numbers()(n in 0usize..4)
            (i in conv_layout_perm(n), k in conv_layout_perm(n), o in conv_layout_perm(n),
             raw_input_batch in 0i64..9, use_raw in proptest::bool::weighted(0.2)) -> ConvDimensionNumbers {
            let mut d = ConvDimensionNumbers {
                input_batch_dimension: i.0, input_feature_dimension: i.1, input_spatial_dimensions: i.2,
                kernel_input_feature_dimension: k.0, kernel_output_feature_dimension: k.1, kernel_spatial_dimensions: k.2,
                output_batch_dimension: o.0, output_feature_dimension: o.1, output_spatial_dimensions: o.2,
            };
            // Sometimes a numbering only the raw form can spell (a gap in the input layout).
            if use_raw && raw_input_batch > d.input_spatial_dimensions.len() as i64 + 1 {
                d.input_batch_dimension = raw_input_batch + 10;
            }
            d
        }
    }

    prop_compose! {
        fn gather_numbers()(offset in dims(6, 3), collapsed in dims(6, 3), map in dims(6, 3), ivd in 0i64..5,
                            nb in 0usize..2)
            (ob in dims(6, nb).prop_filter("disjoint", {
                let collapsed = collapsed.clone();
                move |ob: &Vec<i64>| ob.iter().all(|d| !collapsed.contains(d))
            }),
             offset in Just(offset.clone()), collapsed in Just(collapsed.clone()), map in Just(map.clone()),
             ivd in Just(ivd), sb in Just((10..20i64).collect::<Vec<_>>()).prop_shuffle()) -> GatherDimensionNumbers {
            let n = ob.len();
            GatherDimensionNumbers {
                offset_dims: offset, collapsed_slice_dims: collapsed, operand_batching_dims: ob,
                start_indices_batching_dims: sb[..n].to_vec(), start_index_map: map, index_vector_dim: ivd,
            }
        }
    }

    proptest! {
        #[test]
        fn dot_numbers_round_trip(d in dot_numbers()) {
            prop_assert_eq!(DotDimensionNumbers::parse(&d.to_string()).unwrap(), d.clone());
            prop_assert_eq!(DotDimensionNumbers::parse(&format!("#stablehlo.{d}")).unwrap(), d);
        }

        #[test]
        fn conv_numbers_round_trip(d in conv_numbers()) {
            prop_assert_eq!(ConvDimensionNumbers::parse(&d.to_string()).unwrap(), d.clone());
            prop_assert_eq!(ConvDimensionNumbers::parse(&d.to_raw_string()).unwrap(), d);
        }

        #[test]
        fn gather_numbers_round_trip(d in gather_numbers()) {
            prop_assert_eq!(GatherDimensionNumbers::parse(&d.to_string()).unwrap(), d);
        }

        #[test]
        fn scatter_numbers_round_trip(g in gather_numbers()) {
            let s = ScatterDimensionNumbers {
                update_window_dims: g.offset_dims, inserted_window_dims: g.collapsed_slice_dims,
                input_batching_dims: g.operand_batching_dims, scatter_indices_batching_dims: g.start_indices_batching_dims,
                scatter_dims_to_operand_dims: g.start_index_map, index_vector_dim: g.index_vector_dim,
            };
            prop_assert_eq!(ScatterDimensionNumbers::parse(&s.to_string()).unwrap(), s);
        }

        #[test]
        fn garbage_never_panics(text in ".{0,80}") {
            let _ = DotDimensionNumbers::parse(&text);
            let _ = ConvDimensionNumbers::parse(&text);
            let _ = GatherDimensionNumbers::parse(&text);
            let _ = ScatterDimensionNumbers::parse(&text);
            let _ = ComparisonDirection::parse(&text);
            let _ = Precision::parse(&text);
        }

        #[test]
        fn near_miss_garbage_never_panics(
            mnemonic in prop::sample::select(vec!["dot", "conv", "gather", "scatter", "raw", ""]),
            body in prop::collection::vec(prop::sample::select(vec![
                "[", "]", "<", ">", ",", "=", "x", "->", "-", "b", "f", "i", "o", "0", "1", "7", "-3",
                "lhs_contracting_dimensions", "index_vector_dim", "offset_dims", "raw", "input_batch_dimension",
                "99999999999999999999", " ", "#", "é"]), 0..30)) {
            let text = format!("{mnemonic}<{}>", body.concat());
            let _ = DotDimensionNumbers::parse(&text);
            let _ = ConvDimensionNumbers::parse(&text);
            let _ = GatherDimensionNumbers::parse(&text);
            let _ = ScatterDimensionNumbers::parse(&text);
            let _ = ComparisonDirection::parse(&text);
        }
    }
}
