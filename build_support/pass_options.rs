//! Generates, from a pass declaration file (Passes.td, TestPasses.td), everything else that
//! knows the passes' options, so that the .td file is their only declaration:
//! - Rust: per pass a typed options struct (a field per option, the .td default, which options
//!   the user gave) and its parser from the (name, value) pairs the C++ pass hands over, plus
//!   the passes' metadata (src/pass_options.rs renders README's option table from it);
//! - C++: the pass classes, each forwarding every option of its pass to Rust.
//!
//! The records come from `llvm-tblgen --dump-json` (mlir-tblgen has no JSON backend).

use serde_json::Value;
use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;

/// One pass as the .td file declares it.
pub struct PassDecl {
    /// The TableGen def name (`AlpaInline`): names the C++ classes and the Rust struct.
    pub def: String,
    /// The command-line name (`alpa-inline`).
    pub argument: String,
    pub summary: String,
    pub options: Vec<OptionDecl>,
    /// The option records, by name: passes with the same list share one Rust struct.
    pub option_records: Vec<String>,
}

pub struct OptionDecl {
    pub cpp_name: String,
    pub argument: String,
    /// The C++ value type (`std::string`, `bool`, `int`, `int64_t`, `unsigned`, `double`).
    pub cpp_type: String,
    pub list: bool,
    /// The C++ default expression as written in the .td (`"\"main\""`, `60.0`, ...).
    pub default: String,
    /// The description without the " (default: ...)" that AlpaOption appends for --help.
    pub help: String,
}

/// Reads the passes of `td`, in declaration order.
pub fn read_passes(tblgen: &Path, includes: &[&Path], td: &Path) -> Vec<PassDecl> {
    let mut command = Command::new(tblgen);
    command.arg("--dump-json");
    for include in includes {
        command.arg("-I").arg(include);
    }
    let output = command.arg(td).output().unwrap_or_else(|e| panic!("cannot run {}: {e}", tblgen.display()));
    assert!(
        output.status.success(),
        "{} --dump-json {} failed:\n{}",
        tblgen.display(),
        td.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    let records: Value = serde_json::from_slice(&output.stdout).expect("llvm-tblgen --dump-json writes JSON");
    let names = records["!instanceof"]["Pass"].as_array().cloned().unwrap_or_default();
    let mut passes: Vec<(usize, PassDecl)> = names
        .iter()
        .map(|name| {
            let def = name.as_str().expect("a record name").to_string();
            let record = &records[&def];
            let option_records: Vec<String> = record["options"]
                .as_array()
                .expect("a pass's options list")
                .iter()
                .map(|o| o["def"].as_str().expect("an option record").to_string())
                .collect();
            let options = option_records.iter().map(|o| read_option(&def, &records[o])).collect();
            let line = record["!locs"][0].as_str().and_then(|l| l.rsplit(':').next()?.parse().ok()).unwrap_or(0);
            let pass = PassDecl {
                argument: text(record, "argument"),
                summary: text(record, "summary"),
                def,
                options,
                option_records,
            };
            (line, pass)
        })
        .collect();
    passes.sort_by_key(|(line, _)| *line);
    passes.into_iter().map(|(_, pass)| pass).collect()
}

fn text(record: &Value, field: &str) -> String {
    record[field].as_str().unwrap_or_default().to_string()
}

fn read_option(pass: &str, record: &Value) -> OptionDecl {
    let superclasses = record["!superclasses"].as_array().cloned().unwrap_or_default();
    let list = superclasses.iter().any(|c| c == "ListOption");
    let help = match record.get("help").and_then(Value::as_str) {
        Some(help) => help.to_string(),
        None => text(record, "description"),
    };
    let option = OptionDecl {
        cpp_name: text(record, "cppName"),
        argument: text(record, "argument"),
        cpp_type: text(record, "type"),
        list,
        default: text(record, "defaultValue"),
        help,
    };
    // Fail the build on a name, type or default the Rust side cannot hold.
    assert!(
        !matches!(snake_case(&option.cpp_name).as_str(), "given" | "pass"),
        "{pass}: option '{}' has a name the generated struct uses itself",
        option.argument
    );
    rust_type(pass, &option);
    rust_default(pass, &option);
    option
}

/// The Rust type of one value of the option.
fn scalar_type(pass: &str, option: &OptionDecl) -> &'static str {
    match option.cpp_type.as_str() {
        "std::string" | "::std::string" => "String",
        "bool" => "bool",
        "int" | "int32_t" => "i32",
        "int64_t" | "long" | "long long" => "i64",
        "unsigned" | "uint32_t" => "u32",
        "uint64_t" | "size_t" => "u64",
        "double" => "f64",
        "float" => "f32",
        other => panic!(
            "{pass}: option '{}' has type '{other}', which the Rust side does not know (build_support/pass_options.rs)",
            option.argument
        ),
    }
}

fn rust_type(pass: &str, option: &OptionDecl) -> String {
    let scalar = scalar_type(pass, option);
    if option.list {
        format!("Vec<{scalar}>")
    } else {
        scalar.to_string()
    }
}

/// The .td default as a Rust expression of the field's type.
fn rust_default(pass: &str, option: &OptionDecl) -> String {
    let default = option.default.trim();
    let bad = |why: &str| -> ! { panic!("{pass}: option '{}' has default '{default}': {why}", option.argument) };
    if option.list {
        if !default.is_empty() {
            bad("list options start empty");
        }
        return "Vec::new()".into();
    }
    let scalar = scalar_type(pass, option);
    if default.is_empty() {
        return format!("<{scalar}>::default()");
    }
    match scalar {
        "String" => {
            format!("{:?}.to_string()", cpp_string_literal(default).unwrap_or_else(|| bad("not a C++ string literal")))
        }
        "bool" => match default {
            "true" | "false" => default.to_string(),
            _ => bad("not true or false"),
        },
        "f64" | "f32" => {
            let value: f64 = default.trim_end_matches(['f', 'F']).parse().unwrap_or_else(|_| bad("not a number"));
            format!("{value:?}_{scalar}")
        }
        _ => {
            let value: i128 = default.parse().unwrap_or_else(|_| bad("not an integer"));
            format!("{value}_{scalar}")
        }
    }
}

/// The text of a C++ string literal (`"main"`, `"a\"b"`); `None` for anything else.
fn cpp_string_literal(literal: &str) -> Option<String> {
    let inner = literal.strip_prefix('"')?.strip_suffix('"')?;
    let mut text = String::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next()? {
                'n' => text.push('\n'),
                't' => text.push('\t'),
                escaped @ ('\\' | '"' | '\'') => text.push(escaped),
                _ => return None,
            },
            '"' => return None,
            c => text.push(c),
        }
    }
    Some(text)
}

fn snake_case(cpp_name: &str) -> String {
    let mut name = String::new();
    for c in cpp_name.chars() {
        if c.is_ascii_uppercase() {
            if !name.is_empty() {
                name.push('_');
            }
            name.push(c.to_ascii_lowercase());
        } else {
            name.push(c);
        }
    }
    match name.as_str() {
        // Rust keywords an option might be called.
        "type" | "match" | "mod" | "loop" | "move" | "ref" | "self" | "use" | "where" | "fn" | "impl" | "in" => {
            format!("r#{name}")
        }
        _ => name,
    }
}

/// The struct that holds `pass`'s options: its own, or that of the first pass declared with the
/// same option list (alpa-auto-shard takes alpa-inter-op-stage's).
fn owner<'a>(passes: &'a [PassDecl], pass: &'a PassDecl) -> &'a PassDecl {
    if pass.options.is_empty() {
        return pass;
    }
    passes.iter().find(|p| p.option_records == pass.option_records).unwrap_or(pass)
}

fn rust_string(text: &str) -> String {
    format!("{text:?}")
}

/// The Rust module for `passes` of `td_name`: the option structs and the metadata list `table`.
pub fn rust_module(passes: &[PassDecl], td_name: &str, table: &str) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "// Generated by build.rs (build_support/pass_options.rs) from cpp/include/alpa/{td_name}: do not edit.\n"
    );
    for pass in passes {
        let owner = owner(passes, pass);
        let name = format!("{}Options", pass.def);
        if owner.def != pass.def {
            let _ = writeln!(
                out,
                "/// The options of `{}`: those of `{}`.\npub type {name} = {}Options;\n",
                pass.argument, owner.argument, owner.def
            );
            continue;
        }
        let given = format!("{}Given", pass.def);
        let _ = writeln!(out, "/// The options of `{}`: {}", pass.argument, pass.summary);
        let _ = writeln!(out, "#[derive(Clone, Debug, PartialEq)]\npub struct {name} {{");
        for option in &pass.options {
            let _ = writeln!(out, "    /// `{}`: {}", option.argument, option.help.replace('\n', " "));
            let _ = writeln!(out, "    pub {}: {},", snake_case(&option.cpp_name), rust_type(&pass.def, option));
        }
        let _ = writeln!(
            out,
            "    /// Which options the user gave; the others hold their default.\n    pub given: {given},"
        );
        let _ = writeln!(out, "    pass: String,\n}}\n");
        let _ = writeln!(out, "/// Which options of `{}` the user gave.\n#[derive(Clone, Debug, Default, PartialEq)]\npub struct {given} {{", pass.argument);
        for option in &pass.options {
            let _ = writeln!(out, "    pub {}: bool,", snake_case(&option.cpp_name));
        }
        let _ = writeln!(out, "}}\n");
        let _ = writeln!(out, "impl Default for {name} {{\n    fn default() -> Self {{\n        {name} {{");
        for option in &pass.options {
            let _ = writeln!(out, "            {}: {},", snake_case(&option.cpp_name), rust_default(&pass.def, option));
        }
        let _ = writeln!(
            out,
            "            given: {given}::default(),\n            pass: {}.to_string(),\n        }}\n    }}\n}}\n",
            rust_string(&pass.argument)
        );
        let _ = writeln!(out, "impl super::PassOptionSet for {name} {{");
        let _ =
            writeln!(out, "    fn set_pass(&mut self, pass: &str) {{\n        self.pass = pass.to_string();\n    }}\n");
        let _ = writeln!(out, "    fn pass(&self) -> &str {{\n        &self.pass\n    }}\n");
        let (value, given) = if pass.options.is_empty() { ("_value", "_given") } else { ("value", "given") };
        // A pass without options matches nothing but the fallback.
        let allow = if pass.options.is_empty() { "    #[allow(clippy::match_single_binding)]\n" } else { "" };
        let _ = writeln!(out, "{allow}    fn set(&mut self, name: &str, {value}: &str, {given}: bool) -> Result<(), String> {{\n        match name {{");
        for option in &pass.options {
            let field = snake_case(&option.cpp_name);
            let argument = rust_string(&option.argument);
            let assign = if option.list {
                format!("if !self.given.{field} {{\n                    self.{field}.clear();\n                }}\n                self.{field}.push(super::parse_value({argument}, value)?);\n                self.given.{field} = true;")
            } else {
                format!("self.{field} = super::parse_value({argument}, value)?;\n                self.given.{field} |= given;")
            };
            let _ = writeln!(
                out,
                "            {argument} => {{\n                {assign}\n                Ok(())\n            }}"
            );
        }
        let known: Vec<String> = pass.options.iter().map(|o| rust_string(&o.argument)).collect();
        let _ = writeln!(out, "            _ => Err(super::unknown_option(name, &[{}])),", known.join(", "));
        let _ = writeln!(out, "        }}\n    }}\n}}\n");
    }
    let _ = writeln!(
        out,
        "/// The passes of {td_name} and their options, as declared.\npub const {table}: &[super::PassInfo] = &["
    );
    for pass in passes {
        let owner = owner(passes, pass);
        let _ = writeln!(out, "    super::PassInfo {{");
        let _ = writeln!(
            out,
            "        argument: {},\n        summary: {},",
            rust_string(&pass.argument),
            rust_string(&pass.summary)
        );
        let shares =
            if owner.def != pass.def { format!("Some({})", rust_string(&owner.argument)) } else { "None".into() };
        let _ = writeln!(out, "        shares_options_of: {shares},\n        options: &[");
        for option in &pass.options {
            let _ = writeln!(
                out,
                "            super::OptionInfo {{ argument: {}, value_type: {}, list: {}, default: {}, help: {} }},",
                rust_string(&option.argument),
                rust_string(&option.cpp_type),
                option.list,
                rust_string(&option.default),
                rust_string(&option.help)
            );
        }
        let _ = writeln!(out, "        ],\n    }},");
    }
    let _ = writeln!(out, "];");
    out
}

/// The C++ pass classes of `passes`: each forwards every option to Rust (cpp/include/alpa/RustPass.h).
pub fn cpp_classes(passes: &[PassDecl], td_name: &str, inc: &str) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "// Generated by build.rs (build_support/pass_options.rs) from {td_name}: do not edit.");
    let _ = writeln!(out, "// The pass classes; each hands its module and every option to Rust.\n");
    let _ = writeln!(out, "namespace alpa {{\n#define GEN_PASS_DECL");
    for pass in passes {
        let _ = writeln!(out, "#define GEN_PASS_DEF_{}", pass.def.to_ascii_uppercase());
    }
    let _ = writeln!(out, "#define GEN_PASS_REGISTRATION\n#include \"{inc}\"\n}} // namespace alpa\n\nnamespace {{");
    for pass in passes {
        let def = &pass.def;
        let _ = writeln!(out, "\nstruct {def} : public alpa::impl::{def}Base<{def}> {{\n  using {def}Base::{def}Base;\n  void runOnOperation() override {{\n    alpa::OptionList options;");
        for option in &pass.options {
            let _ = writeln!(out, "    options.add(\"{}\", {});", option.argument, option.cpp_name);
        }
        let _ = writeln!(
            out,
            "    if (!alpa::runInRust(getOperation(), getArgument(), options))\n      signalPassFailure();\n  }}\n}};"
        );
    }
    let _ = writeln!(out, "\n}} // namespace");
    out
}

/// Writes `content` to `path` unless it already holds it (so nothing downstream rebuilds).
pub fn write_if_changed(path: &Path, content: &str) {
    if std::fs::read_to_string(path).is_ok_and(|old| old == content) {
        return;
    }
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).unwrap_or_else(|e| panic!("cannot create {}: {e}", parent.display()));
    }
    std::fs::write(path, content).unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
}
