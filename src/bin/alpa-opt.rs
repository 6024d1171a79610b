//! alpa-opt: MLIR's mlir-opt driver with every upstream dialect and pass plus the alpa passes.

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let code = alpa_mlir::passes::ffi::bridge::alpa_opt_main(&args);
    if code != 0 {
        // MLIR has no StableHLO dialect, so the pretty form fails to parse with "Dialect
        // `stablehlo' not found", and a portable artifact with "dialect 'vhlo' does not
        // implement the bytecode interface": say what to do about it.
        let form = input_path(&args).and_then(|path| Some((path, unread_form(&std::fs::read(path).ok()?)?)));
        if let Some((path, form)) = form {
            eprintln!(
                "note: {path} {form}; alpa-opt reads MLIR's generic op form: re-print it with `python -m alpa_mlir.generic {path} -o FILE`"
            );
        }
    }
    std::process::exit(code);
}

/// The input file named on the command line (the first argument that is no option and no
/// option's value), unless it is standard input.
fn input_path(args: &[String]) -> Option<&str> {
    let mut rest = args.iter().skip(1);
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "-o" => {
                rest.next();
            }
            "-" => return None,
            a if a.starts_with('-') => {}
            a => return Some(a),
        }
    }
    None
}

/// What form of StableHLO `contents` hold that MLIR 22 cannot read, in words.
fn unread_form(contents: &[u8]) -> Option<&'static str> {
    const MLIR_BYTECODE: &[u8] = b"ML\xefR";
    if contents.starts_with(MLIR_BYTECODE) {
        let vhlo = contents.windows(4).any(|w| w == b"vhlo");
        return vhlo.then_some("is a StableHLO portable artifact (VHLO bytecode, as jax.export serializes a module)");
    }
    std::str::from_utf8(contents).is_ok_and(pretty_stablehlo).then_some("holds StableHLO in its pretty form")
}

/// Whether `text` has an op written in the custom form of a dialect MLIR 22 lacks
/// (`%0 = stablehlo.add %a, %b : tensor<4xf32>`, not `%0 = "stablehlo.add"(%a, %b) ...`).
fn pretty_stablehlo(text: &str) -> bool {
    text.lines().any(|line| {
        let line = line.trim_start();
        let op = match line.strip_prefix('%') {
            Some(_) => line.split_once(" = ").map_or("", |(_, op)| op),
            None => line,
        };
        ["stablehlo.", "chlo.", "mhlo.", "sdy."].iter().any(|dialect| {
            op.strip_prefix(dialect).is_some_and(|name| name.starts_with(|c: char| c.is_ascii_lowercase()))
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pretty_form_is_told_from_the_generic_one() {
        assert!(pretty_stablehlo("  %0 = stablehlo.add %a, %b : tensor<4xf32>"));
        assert!(pretty_stablehlo("    %output, %mean = stablehlo.batch_norm_training %x"));
        assert!(pretty_stablehlo("  sdy.mesh @mesh = <[\"x\"=2]>"));
        assert!(!pretty_stablehlo(
            "  %0 = \"stablehlo.add\"(%a, %b) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>"
        ));
        assert!(!pretty_stablehlo("module attributes {mhlo.num_partitions = 1 : i32} {\n  func.func @main() {"));
        assert!(!pretty_stablehlo("  %0 = arith.addf %a, %b : f32"));
    }

    #[test]
    fn portable_artifacts_and_the_pretty_form_are_named() {
        assert!(unread_form(b"ML\xefR\rStableHLO_v1.15.0\0vhlo\0").is_some_and(|f| f.contains("portable artifact")));
        assert!(unread_form(b"  %0 = stablehlo.add %a, %b : tensor<4xf32>").is_some_and(|f| f.contains("pretty form")));
        // MLIR bytecode of other dialects, and text alpa-opt reads, are no such form.
        assert_eq!(unread_form(b"ML\xefR\rMLIR22\0builtin\0func\0"), None);
        assert_eq!(unread_form(b"  %0 = \"stablehlo.add\"(%a, %b)"), None);
        assert_eq!(unread_form(b"\xff\xfe"), None);
    }

    #[test]
    fn the_input_is_the_first_argument_that_is_no_option() {
        let args = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(input_path(&args(&["alpa-opt", "-o", "out.mlir", "in.mlir", "--alpa-inline"])), Some("in.mlir"));
        assert_eq!(input_path(&args(&["alpa-opt", "--alpa-inline=entry=f", "in.mlir"])), Some("in.mlir"));
        assert_eq!(input_path(&args(&["alpa-opt", "-", "-o", "x"])), None);
        assert_eq!(input_path(&args(&["alpa-opt", "--help"])), None);
    }
}
