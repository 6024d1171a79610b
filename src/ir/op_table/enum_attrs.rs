//! Validation of StableHLO enum attributes (`comparison_direction`, `precision_config`, ...):
//! no rule depends on them, but a malformed one means the module is not what we think it is.

use super::{opaque_text, OpTableError};
use crate::ir::attr_text::AttrError;
use crate::ir::attr_text::{
    ComparisonDirection, ComparisonType, FftType, Precision, RngAlgorithm, RngDistribution, Transpose,
};
use crate::ir::graph::{Attr, OpNode};

type Parser = fn(&str) -> Result<(), AttrError>;

fn parser<T>(parse: fn(&str) -> Result<T, AttrError>) -> impl Fn(&str) -> Result<(), AttrError> {
    move |text| parse(text).map(|_| ())
}

/// Checks every enum attribute the op carries.
pub fn validate(op: &OpNode) -> Result<(), OpTableError> {
    let checks: [(&str, Parser); 7] = [
        ("comparison_direction", |t| parser(ComparisonDirection::parse)(t)),
        ("compare_type", |t| parser(ComparisonType::parse)(t)),
        ("precision_config", |t| parser(Precision::parse)(t)),
        ("rng_algorithm", |t| parser(RngAlgorithm::parse)(t)),
        ("rng_distribution", |t| parser(RngDistribution::parse)(t)),
        ("fft_type", |t| parser(FftType::parse)(t)),
        ("transpose_a", |t| parser(Transpose::parse)(t)),
    ];
    for (name, parse) in checks {
        let Some(attr) = op.attr(name) else { continue };
        let items: Vec<&Attr> = match attr {
            Attr::Array(items) => items.iter().collect(),
            single => vec![single],
        };
        for item in items {
            let Some(text) = opaque_text(item) else { continue };
            parse(text).map_err(|source| OpTableError::Attr { op: op.name.clone(), attr: name.to_string(), source })?;
        }
    }
    Ok(())
}
