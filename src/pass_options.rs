//! Pass options: typed structs generated at build time from the pass declarations
//! (cpp/include/alpa/Passes.td, TestPasses.td; build_support/pass_options.rs), which are their only
//! declaration (names, types, defaults, help), and README's option table rendered from them.
//! Plain data, no MLIR: the passes parse them (src/passes/mod.rs) and the algorithms' drivers
//! (inter/driver.rs) take them.

/// The options of the production passes (Passes.td).
pub mod generated {
    include!(concat!(env!("OUT_DIR"), "/pass_options.rs"));
}

/// The options of the test-only passes (TestPasses.td).
pub mod generated_test {
    include!(concat!(env!("OUT_DIR"), "/test_pass_options.rs"));
}

pub use generated::*;
pub use generated_test::*;

/// A pass's options: filled from the .td defaults, then from the values the user gave.
pub trait PassOptionSet: Default {
    /// Sets option `name` from its text; an unknown name or a bad value is an error.
    fn set(&mut self, name: &str, value: &str, given: bool) -> Result<(), String>;
    fn set_pass(&mut self, pass: &str);
    /// The pass the options were given to (alpa-auto-shard runs alpa-inter-op-stage with its
    /// own name): the name its diagnostics carry.
    fn pass(&self) -> &str;

    /// The options of `pass` from (name, value, given by the user) triples.
    fn parse<'a>(pass: &str, values: impl IntoIterator<Item = (&'a str, &'a str, bool)>) -> Result<Self, String> {
        let mut options = Self::default();
        options.set_pass(pass);
        for (name, value, given) in values {
            options.set(name, value, given).map_err(|e| format!("{pass}: {e}"))?;
        }
        Ok(options)
    }

    /// The options of `pass` with `pairs` given by the user (tests).
    fn from_pairs(pass: &str, pairs: &[(&str, &str)]) -> Result<Self, String> {
        Self::parse(pass, pairs.iter().map(|(name, value)| (*name, *value, true)))
    }
}

/// One value of an option, parsed from the text C++ printed.
pub(crate) trait OptionValue: Sized {
    const EXPECTED: &'static str;
    fn parse_text(text: &str) -> Option<Self>;
}

impl OptionValue for String {
    const EXPECTED: &'static str = "a string";
    fn parse_text(text: &str) -> Option<Self> {
        Some(text.to_string())
    }
}

impl OptionValue for bool {
    const EXPECTED: &'static str = "true or false";
    fn parse_text(text: &str) -> Option<Self> {
        match text.trim() {
            "true" | "1" => Some(true),
            "false" | "0" => Some(false),
            _ => None,
        }
    }
}

macro_rules! numeric_option_value {
    ($($ty:ty => $expected:literal),*) => {$(
        impl OptionValue for $ty {
            const EXPECTED: &'static str = $expected;
            fn parse_text(text: &str) -> Option<Self> {
                text.trim().parse().ok()
            }
        }
    )*};
}
numeric_option_value!(i32 => "an integer", i64 => "an integer", u32 => "a non-negative integer",
    u64 => "a non-negative integer", f32 => "a number", f64 => "a number");

pub(crate) fn parse_value<T: OptionValue>(name: &str, text: &str) -> Result<T, String> {
    T::parse_text(text).ok_or_else(|| format!("option '{name}' expects {}, got '{text}'", T::EXPECTED))
}

pub(crate) fn unknown_option(name: &str, known: &[&str]) -> String {
    let known = if known.is_empty() { "none".to_string() } else { known.join(", ") };
    format!("unknown option '{name}' (options: {known})")
}

/// A pass as its .td file declares it.
#[derive(Debug)]
pub struct PassInfo {
    pub argument: &'static str,
    pub summary: &'static str,
    /// The pass whose option list this pass shares (alpa-auto-shard: alpa-inter-op-stage).
    pub shares_options_of: Option<&'static str>,
    pub options: &'static [OptionInfo],
}

/// An option as its .td file declares it.
#[derive(Debug)]
pub struct OptionInfo {
    pub argument: &'static str,
    /// The C++ type.
    pub value_type: &'static str,
    pub list: bool,
    /// The C++ default expression.
    pub default: &'static str,
    pub help: &'static str,
}

/// README's option table marks: what lies between them is `options_markdown()`.
pub const README_BEGIN: &str =
    "<!-- BEGIN pass options: generated from cpp/include/alpa/Passes.td, see src/pass_options.rs -->";
pub const README_END: &str = "<!-- END pass options -->";

fn type_name(option: &OptionInfo) -> String {
    let scalar = match option.value_type.trim_start_matches("::") {
        "std::string" => "string",
        "bool" => "bool",
        "double" | "float" => "number",
        _ => "integer",
    };
    if option.list {
        format!("list of {scalar}")
    } else {
        scalar.to_string()
    }
}

/// The option table of the production passes, as markdown, one section per pass.
pub fn options_markdown() -> String {
    let mut out = String::new();
    for pass in PASSES {
        out += &format!("\n**`{}`**\n", pass.argument);
        if let Some(owner) = pass.shares_options_of {
            out += &format!("\nThe options of `{owner}`.\n");
            continue;
        }
        if pass.options.is_empty() {
            out += "\nNo options.\n";
            continue;
        }
        out += "\n| option | type | default | meaning |\n|---|---|---|---|\n";
        for option in pass.options {
            let default = if option.default.is_empty() { String::new() } else { format!("`{}`", option.default) };
            out += &format!(
                "| `{}` | {} | {default} | {} |\n",
                option.argument,
                type_name(option),
                option.help.replace('|', "\\|").replace('\n', " ")
            );
        }
    }
    out
}

/// `readme` with the text between the option table's marks replaced by `table`; `None` when
/// the marks are missing.
pub fn with_options_table(readme: &str, table: &str) -> Option<String> {
    let begin = readme.find(README_BEGIN)? + README_BEGIN.len();
    let end = begin + readme[begin..].find(README_END)?;
    Some(format!("{}\n{}\n{}", &readme[..begin], table.trim(), &readme[end..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// README's option table is Passes.td's: `ALPA_UPDATE_README=1 cargo test --release --lib
    /// readme_option_table` rewrites it.
    #[test]
    fn readme_option_table_matches_passes_td() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/README.md");
        let readme = std::fs::read_to_string(path).expect("README.md");
        let expected = with_options_table(&readme, &options_markdown()).expect("README.md has the option table marks");
        if std::env::var_os("ALPA_UPDATE_README").is_some() {
            std::fs::write(path, &expected).expect("write README.md");
            return;
        }
        assert!(
            readme == expected,
            "README's option table differs from cpp/include/alpa/Passes.td: run `ALPA_UPDATE_README=1 cargo test --release --lib readme_option_table`"
        );
    }

    #[test]
    fn every_option_of_the_td_is_in_the_table() {
        let table = options_markdown();
        for pass in PASSES.iter().filter(|p| p.shares_options_of.is_none()) {
            for option in pass.options {
                assert!(table.contains(&format!("| `{}` |", option.argument)), "{} {}", pass.argument, option.argument);
            }
        }
        assert!(table.contains("max-microbatches") && table.contains("compose-stages"));
        assert!(!table.contains("alpa-test-"), "test passes stay out of the production table");
    }

    #[test]
    fn defaults_come_from_the_td() {
        let o = AlpaInterOpStageOptions::default();
        assert_eq!((o.cluster.as_str(), o.max_microbatches, o.delta, o.epsilon), ("p3.16xlarge-x1", 64, 0.5, 0.0));
        assert!(o.slice && !o.split_batch && !o.given.delta);
        assert_eq!(AlpaUnrollLoopsOptions::default().max_ops, 1_000_000_i64);
        assert_eq!(AlpaIntraOpShardOptions::default().force_batch_dim_to_mesh_dim, -1);
    }

    #[test]
    fn parse_sets_values_and_what_was_given() {
        let o = AlpaClusterLayersOptions::from_pairs("alpa-cluster-layers", &[("delta", "0.25"), ("devices", "4")])
            .unwrap();
        assert_eq!((o.delta, o.devices, o.given.delta, o.given.layers), (0.25, 4, true, false));
        let o = AlpaClusterLayersOptions::parse("alpa-cluster-layers", [("delta", "0.5", false)]).unwrap();
        assert!(!o.given.delta, "a value C++ forwards as its default is not the user's");
        // alpa-auto-shard shares alpa-inter-op-stage's struct and keeps its own name.
        let o = AlpaAutoShardOptions::from_pairs("alpa-auto-shard", &[]).unwrap();
        assert_eq!(o.pass(), "alpa-auto-shard");
    }

    #[test]
    fn unknown_names_and_bad_values_name_the_pass() {
        let e = AlpaInlineOptions::from_pairs("alpa-inline", &[("entyr", "main")]).unwrap_err();
        assert_eq!(e, "alpa-inline: unknown option 'entyr' (options: entry)");
        let e = AlpaClusterLayersOptions::from_pairs("alpa-cluster-layers", &[("devices", "many")]).unwrap_err();
        assert_eq!(e, "alpa-cluster-layers: option 'devices' expects an integer, got 'many'");
        let e = AlpaAnnotateCostsOptions::from_pairs("alpa-annotate-costs", &[("summary", "yes")]).unwrap_err();
        assert!(e.starts_with("alpa-annotate-costs: option 'summary' expects true or false"), "{e}");
        let e = AlpaLowerTransfersOptions::from_pairs("alpa-lower-transfers", &[("x", "1")]).unwrap_err();
        assert_eq!(e, "alpa-lower-transfers: unknown option 'x' (options: none)");
    }
}
