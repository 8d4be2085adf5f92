//! The no-op hooks library: `noop_hooks.rs` compiled for the test target, once per target
//! directory, and linked last into every target binary (see the crate docs for why).

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The library's source: every `__sanitizer_cov_*` hook the engine defines, doing nothing.
pub const SOURCE: &str = include_str!("noop_hooks.rs");

/// Compiles [`SOURCE`] for `target` under `target_dir` unless an up-to-date copy exists, and
/// returns the path of the archive to link.
pub fn build(rustc: &OsString, target: &str, target_dir: &Path) -> Result<PathBuf, String> {
    let dir = target_dir.join("typefuzz-hooks").join(target);
    let source = dir.join("noop_hooks.rs");
    let library = dir.join("libtypefuzz_sancov_noop.rlib");
    let up_to_date =
        library.is_file() && std::fs::read_to_string(&source).is_ok_and(|s| s == SOURCE);
    if up_to_date {
        return Ok(library);
    }
    let io_error = |e: std::io::Error| format!("cannot write {}: {e}", dir.display());
    std::fs::create_dir_all(&dir).map_err(io_error)?;
    std::fs::write(&source, SOURCE).map_err(io_error)?;
    // An rlib is an `ar` archive the linker accepts as is; one codegen unit keeps all hooks in one
    // member, which the linker pulls in only when none of them is defined yet.
    let output = Command::new(rustc)
        .args([
            "--crate-type=rlib",
            "--crate-name=typefuzz_sancov_noop",
            "--edition=2021",
        ])
        .args([
            "-Copt-level=2",
            "-Ccodegen-units=1",
            "-Cdebuginfo=0",
            "--cap-lints=allow",
        ])
        .args(["--target", target])
        .arg("-o")
        .arg(&library)
        .arg(&source)
        .output()
        .map_err(|e| format!("could not run `{}`: {e}", rustc.to_string_lossy()))?;
    if !output.status.success() {
        // Leave no source behind, so the next run retries the build.
        let _ = std::fs::remove_file(&source);
        return Err(format!(
            "could not compile the coverage hooks library for `{target}`:\n{}",
            String::from_utf8_lossy(&output.stderr).trim_end()
        ));
    }
    Ok(library)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The names of the `#[no_mangle]` functions in a Rust source file.
    fn hook_names(source: &str) -> Vec<&str> {
        let mut names: Vec<&str> = source
            .split("fn ")
            .skip(1)
            .filter_map(|rest| rest.split('(').next())
            .filter(|name| name.starts_with("__sanitizer_cov_"))
            .collect();
        names.sort_unstable();
        names
    }

    #[test]
    fn defines_exactly_the_hooks_of_the_engine() {
        let engine = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../engine/src/feedback/coverage/hooks.rs"
        );
        let engine = std::fs::read_to_string(engine).expect("the engine's coverage module");
        let expected = hook_names(&engine);
        assert!(expected.len() >= 3, "found hooks {expected:?}");
        assert_eq!(hook_names(SOURCE), expected);
    }
}
