//! alpa-opt: MLIR's mlir-opt driver with every upstream dialect and pass plus the alpa passes.

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let code = alpa_mlir::passes::ffi::bridge::alpa_opt_main(&args);
    if code != 0 {
        // MLIR has no StableHLO dialect, so the pretty form fails to parse with "Dialect
        // `stablehlo' not found": say what to do about it.
        if let Some(path) = input_path(&args).filter(|p| std::fs::read_to_string(p).is_ok_and(|t| pretty_stablehlo(&t)))
        {
            eprintln!(
                "note: {path} holds StableHLO in its pretty form; alpa-opt reads MLIR's generic op form: re-print it with `python -m alpa_mlir.generic {path} -o FILE`"
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
    fn the_input_is_the_first_argument_that_is_no_option() {
        let args = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(input_path(&args(&["alpa-opt", "-o", "out.mlir", "in.mlir", "--alpa-inline"])), Some("in.mlir"));
        assert_eq!(input_path(&args(&["alpa-opt", "--alpa-inline=entry=f", "in.mlir"])), Some("in.mlir"));
        assert_eq!(input_path(&args(&["alpa-opt", "-", "-o", "x"])), None);
        assert_eq!(input_path(&args(&["alpa-opt", "--help"])), None);
    }
}
