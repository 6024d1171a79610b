// A panic inside a Rust pass becomes an error diagnostic and a failed pass, not an abort.
// RUN: not alpa-opt --alpa-test-panic="message=boom" %s 2>&1 | FileCheck %s
// The plugin registers the test passes only when asked (ALPA_MLIR_TEST_PASSES):
// RUN: not mlir-opt --load-pass-plugin=%alpa_plugin --allow-unregistered-dialect \
// RUN:   -p 'builtin.module(alpa-test-panic{message=boom})' %s 2>&1 | FileCheck %s --check-prefix=NOTEST
// RUN: env ALPA_MLIR_TEST_PASSES=1 not mlir-opt --load-pass-plugin=%alpa_plugin --allow-unregistered-dialect \
// RUN:   -p 'builtin.module(alpa-test-panic{message=boom})' %s 2>&1 | FileCheck %s
// RUN: alpa-opt --alpa-test-panic="message=boom" --verify-diagnostics %s

// CHECK: error: internal error in alpa-test-panic: boom
// CHECK-NOT: Aborted
// CHECK-NOT: panicked
// NOTEST: 'alpa-test-panic' does not refer to a registered pass
// expected-error @+1 {{internal error in alpa-test-panic: boom}}
module {
}
