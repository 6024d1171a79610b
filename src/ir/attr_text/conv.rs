//! `#stablehlo.conv<...>`, in its compact and raw spellings.

use super::lexer::{check_dims, check_distinct, Fields, Parser, Tok};
use super::AttrError;
use std::fmt;

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
            (
                "kernel",
                self.kernel_input_feature_dimension,
                self.kernel_output_feature_dimension,
                &self.kernel_spatial_dimensions,
            ),
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
            && ok(
                self.kernel_input_feature_dimension,
                self.kernel_output_feature_dimension,
                &self.kernel_spatial_dimensions,
            )
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
                if !(0..=64).contains(&k) {
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
        write_layout(
            f,
            (self.input_batch_dimension, 'b'),
            (self.input_feature_dimension, 'f'),
            &self.input_spatial_dimensions,
        )?;
        write!(f, "x")?;
        write_layout(
            f,
            (self.kernel_input_feature_dimension, 'i'),
            (self.kernel_output_feature_dimension, 'o'),
            &self.kernel_spatial_dimensions,
        )?;
        write!(f, "->")?;
        write_layout(
            f,
            (self.output_batch_dimension, 'b'),
            (self.output_feature_dimension, 'f'),
            &self.output_spatial_dimensions,
        )?;
        write!(f, ">")
    }
}
