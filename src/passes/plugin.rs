//! What libalpa_mlir.so exports: the entry point the stock
//! `mlir-opt --load-pass-plugin=libalpa_mlir.so` looks up, and the registration function that
//! tools linking the library call (declared in cpp/public/alpa/AlpaPasses.h).

use std::ffi::c_char;

/// MLIR's `PassPluginLibraryInfo` (mlir/Tools/Plugins/PassPlugin.h), API version 1.
#[repr(C)]
pub struct PassPluginLibraryInfo {
    pub api_version: u32,
    pub plugin_name: *const c_char,
    pub plugin_version: *const c_char,
    pub register_pass_registry_callbacks: extern "C" fn(),
}

const MLIR_PLUGIN_API_VERSION: u32 = 1;

/// Set in the environment of the stock `mlir-opt`, the plugin registers the test-only passes
/// too, so that lit tests can check what the plugin does with them (a panic, say).
pub const TEST_PASSES_ENV: &str = "ALPA_MLIR_TEST_PASSES";

extern "C" fn register_callbacks() {
    super::ffi::bridge::register_alpa_passes();
    if std::env::var_os(TEST_PASSES_ENV).is_some() {
        super::ffi::bridge::register_test_passes();
    }
}

/// Registers every alpa pass in MLIR's global pass registry; calling it again does nothing.
/// Defined in Rust, like the plugin hook, because a C++ definition inside a cargo cdylib is not
/// exported.
#[no_mangle]
pub extern "C" fn alpaRegisterPasses() {
    super::ffi::bridge::register_alpa_passes();
}

/// Defined in Rust because a C++ definition inside a cargo cdylib is not exported.
#[no_mangle]
pub extern "C" fn mlirGetPassPluginInfo() -> PassPluginLibraryInfo {
    PassPluginLibraryInfo {
        api_version: MLIR_PLUGIN_API_VERSION,
        plugin_name: c"AlpaPlugin".as_ptr(),
        plugin_version: concat!(env!("CARGO_PKG_VERSION"), "\0").as_ptr().cast(),
        register_pass_registry_callbacks: register_callbacks,
    }
}
