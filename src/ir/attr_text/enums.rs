//! Enum attributes: `#stablehlo<comparison_direction LT>` and friends.

use super::lexer::Parser;
use super::AttrError;
use std::fmt;

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
impl ComparisonDirection {
    /// Whether `a <direction> b` holds (false for unordered values but under `NE`).
    pub fn holds<T: PartialOrd>(self, a: T, b: T) -> bool {
        match self {
            ComparisonDirection::Eq => a == b,
            ComparisonDirection::Ne => a != b,
            ComparisonDirection::Ge => a >= b,
            ComparisonDirection::Gt => a > b,
            ComparisonDirection::Le => a <= b,
            ComparisonDirection::Lt => a < b,
        }
    }
}

stablehlo_enum!(
    /// `#stablehlo<transpose NO_TRANSPOSE>` of `triangular_solve`.
    Transpose, "transpose",
    { TransposeInvalid = "TRANSPOSE_INVALID", NoTranspose = "NO_TRANSPOSE", Transpose = "TRANSPOSE", Adjoint = "ADJOINT" }
);
