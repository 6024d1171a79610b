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

mod conv;
mod dims;
mod enums;
mod lexer;

pub use conv::ConvDimensionNumbers;
pub use dims::{DotDimensionNumbers, GatherDimensionNumbers, ScatterDimensionNumbers};
pub use enums::{ComparisonDirection, ComparisonType, FftType, Precision, RngAlgorithm, RngDistribution, Transpose};

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
    pub(crate) fn new(attr: &'static str, text: &str, message: impl Into<String>) -> Self {
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

#[cfg(test)]
mod tests;
