//! Builds the C++ half (cpp/, through CMake) and the C API archive that mlir-sys links.
//!
//! MLIR's C++ core comes from the shared libMLIR.so, the same one the stock mlir-opt uses, so
//! the plugin shares type identity with it. Debian ships MLIR's C API only as static
//! `libMLIRCAPI*.a` archives; mlir-sys in shared mode asks for `-lMLIR-C`, so we merge them into
//! one `libMLIR-C.a` here.
//!
//! The pass declarations (cpp/include/alpa/Passes.td, TestPasses.td) are the only place the
//! passes' options are declared: build_support/pass_options.rs generates from them the Rust option
//! structs (included by src/pass_options.rs) and the C++ pass classes that forward them.

#[path = "build_support/pass_options.rs"]
mod pass_options;

use std::env;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

const LLVM_PREFIX: &str = "/usr/lib/llvm-22";

fn main() {
    let out_dir = PathBuf::from(env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    let llvm_prefix = PathBuf::from(env::var("MLIR_SYS_220_PREFIX").unwrap_or(LLVM_PREFIX.into()));
    let llvm_lib = llvm_prefix.join("lib");

    merge_c_api_archives(&llvm_prefix, &out_dir);
    println!("cargo:rustc-link-search=native={}", out_dir.display());

    let generated_cpp = generate_pass_options(&llvm_prefix, &out_dir);

    // Generate the cxx bridge sources; CMake compiles them with the rest of cpp/.
    let _ = cxx_build::bridge("src/passes/ffi.rs");
    let cxxbridge = out_dir.join("cxxbridge");
    let bridge_source = cxxbridge.join("sources/alpa-mlir/src/passes/ffi.rs.cc");

    let cpp = cmake::Config::new("cpp")
        .define("LLVM_PREFIX", &llvm_prefix)
        .define("CXXBRIDGE_INCLUDE", cxxbridge.join("include"))
        .define("CXXBRIDGE_SOURCE", &bridge_source)
        .define("ALPA_GENERATED_INCLUDE", &generated_cpp)
        .define("CMAKE_BUILD_TYPE", "Release")
        .build();
    println!("cargo:rustc-link-search=native={}", cpp.join("lib").display());
    println!("cargo:rustc-link-lib=static=alpa_cpp");
    println!("cargo:rustc-link-search=native={}", llvm_lib.display());
    println!("cargo:rustc-link-lib=dylib=MLIR");
    println!("cargo:rustc-link-arg=-Wl,-rpath,{}", llvm_lib.display());

    println!("cargo:rerun-if-changed=cpp");
    println!("cargo:rerun-if-changed=build");
    println!("cargo:rerun-if-changed=src/passes/ffi.rs");
    println!("cargo:rerun-if-env-changed=MLIR_SYS_220_PREFIX");
}

/// Writes the Rust option structs of Passes.td and TestPasses.td to OUT_DIR/pass_options.rs and
/// test_pass_options.rs, and their C++ pass classes under the returned include directory.
fn generate_pass_options(llvm_prefix: &Path, out_dir: &Path) -> PathBuf {
    let tblgen = llvm_prefix.join("bin/llvm-tblgen");
    let llvm_include = llvm_prefix.join("include");
    let include = Path::new("cpp/include");
    let cpp_dir = out_dir.join("pass-classes");
    for (td, rust_file, table, inc) in [
        ("Passes.td", "pass_options.rs", "PASSES", "Passes"),
        ("TestPasses.td", "test_pass_options.rs", "TEST_PASSES", "TestPasses"),
    ] {
        let passes = pass_options::read_passes(&tblgen, &[&llvm_include, include], &include.join("alpa").join(td));
        pass_options::write_if_changed(&out_dir.join(rust_file), &pass_options::rust_module(&passes, td, table));
        let classes = pass_options::cpp_classes(&passes, td, &format!("alpa/{inc}.h.inc"));
        pass_options::write_if_changed(&cpp_dir.join(format!("alpa/{inc}.rust.inc")), &classes);
    }
    cpp_dir
}

fn merge_c_api_archives(llvm_prefix: &Path, out_dir: &Path) {
    let lib_dir = llvm_prefix.join("lib");
    let mut archives: Vec<PathBuf> = fs::read_dir(&lib_dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", lib_dir.display()))
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| {
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            name.starts_with("libMLIRCAPI") && name.ends_with(".a")
        })
        .collect();
    archives.sort();
    assert!(!archives.is_empty(), "no libMLIRCAPI*.a in {}: install libmlir-22-dev", lib_dir.display());

    let merged = out_dir.join("libMLIR-C.a");
    let mut script = format!("CREATE {}\n", merged.display());
    for archive in &archives {
        script += &format!("ADDLIB {}\n", archive.display());
    }
    script += "SAVE\nEND\n";
    let script_path = out_dir.join("merge-capi.mri");
    fs::write(&script_path, script).expect("write llvm-ar script");
    let _ = fs::remove_file(&merged);
    let status = Command::new(llvm_prefix.join("bin/llvm-ar"))
        .arg("-M")
        .stdin(fs::File::open(&script_path).expect("open llvm-ar script"))
        .status()
        .expect("run llvm-ar");
    assert!(status.success(), "llvm-ar -M failed to merge the MLIR C API archives");
}
