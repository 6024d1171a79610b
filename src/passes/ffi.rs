//! The cxx bridge between the C++ pass classes (cpp/) and their Rust implementations.

#[cxx::bridge(namespace = "alpa::ffi")]
pub mod bridge {
    /// One pass option as the C++ pass declared it: its name, its value printed as text (one
    /// entry per element of a list option), and whether the user gave it.
    pub struct PassOption {
        pub name: String,
        pub value: String,
        pub given: bool,
    }

    extern "Rust" {
        /// Runs the Rust side of pass `pass` on `module_op` (an `mlir::Operation *`).
        /// Returns false when the pass failed; it has then emitted an error diagnostic.
        fn run_rust_pass(pass: &str, module_op: usize, options: &Vec<PassOption>) -> bool;
    }

    unsafe extern "C++" {
        include!("alpa/Bridge.h");

        fn register_alpa_passes();
        fn register_test_passes();
        fn alpa_opt_main(args: &Vec<String>) -> i32;
        fn emit_diagnostic(location: usize, severity: u8, message: &str);
        fn op_attribute_dictionary(op: usize) -> usize;
    }
}

#[allow(clippy::ptr_arg)] // cxx hands over a rust::Vec
fn run_rust_pass(pass: &str, module_op: usize, options: &Vec<bridge::PassOption>) -> bool {
    super::run_guarded(pass, module_op, options)
}
