//! alpa-opt: MLIR's mlir-opt driver with every upstream dialect and pass plus the alpa passes.

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let code = alpa_mlir::passes::ffi::bridge::alpa_opt_main(&args);
    std::process::exit(code);
}
