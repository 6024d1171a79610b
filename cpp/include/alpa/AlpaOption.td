// What every alpa pass declaration file (Passes.td, TestPasses.td) includes.

#ifndef ALPA_OPTION
#define ALPA_OPTION

include "mlir/Pass/PassBase.td"

// An option whose --help text ends with its default, so the default is declared once. Declare
// every option with it: lit-tests/driver/help-defaults.mlir fails on an option without.
class AlpaOption<string varName, string arg, string valueType, string default, string desc>
    : Option<varName, arg, valueType, default, desc # " (default: " # default # ")"> {
  // The description alone, for README's option table (build_support/pass_options.rs).
  string help = desc;
}

#endif // ALPA_OPTION
