//! Typed CmpLog for the `typefuzz::fuzz_target!` targets (see `typefuzz_libfuzzer::cmplog`):
//! under cargo-fuzz (`--cfg fuzzing`) on Linux, links each typed target (a file under
//! `fuzz_targets/` that calls `typefuzz::fuzz_target!`, its binary named after the file) with
//! `-Wl,--wrap=<hook>` for each SanitizerCoverage comparison hook, and sets
//! `--cfg typefuzz_cmplog`, under which `fuzz_target!` defines the wrappers. The other targets
//! (`libfuzzer_sys::fuzz_target!`) link as usual. The hooks are
//! `typefuzz_libfuzzer::WRAPPED_HOOKS`, written out: a build script that depended on the crate
//! would compile it, and libFuzzer, a second time for the host.

use std::fs;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=fuzz_targets");
    println!("cargo:rustc-check-cfg=cfg(typefuzz_cmplog)");
    let fuzzing = std::env::var_os("CARGO_CFG_FUZZING").is_some();
    if !fuzzing || std::env::var("CARGO_CFG_TARGET_OS").as_deref() != Ok("linux") {
        return;
    }
    println!("cargo:rustc-cfg=typefuzz_cmplog");
    let mut hooks = vec!["__sanitizer_cov_trace_switch".to_string()];
    for kind in ["cmp", "const_cmp"] {
        for width in [1, 2, 4, 8] {
            hooks.push(format!("__sanitizer_cov_trace_{kind}{width}"));
        }
    }
    let targets = fs::read_dir("fuzz_targets").expect("fuzz/fuzz_targets is readable");
    for entry in targets {
        let path = entry.expect("fuzz/fuzz_targets is readable").path();
        let typed =
            fs::read_to_string(&path).is_ok_and(|source| source.contains("typefuzz::fuzz_target!"));
        let Some(name) = path.file_stem().and_then(|stem| stem.to_str()) else {
            continue;
        };
        if typed {
            for hook in &hooks {
                println!("cargo:rustc-link-arg-bin={name}=-Wl,--wrap={hook}");
            }
        }
    }
}
