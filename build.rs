//! Chooses the network built into the binary: `src/nnue/pivot.nnue`, or the file named by
//! the `EVALFILE` environment variable (`make EXE=… EVALFILE=…`, as OpenBench passes a test's
//! network). The file is copied to `OUT_DIR/embedded.nnue`, which `src/nnue/mod.rs` includes;
//! whether it decodes is checked by the tests and at start-up.

use std::path::PathBuf;

fn main() {
    println!("cargo:rerun-if-env-changed=EVALFILE");
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"));
    let source = match std::env::var("EVALFILE") {
        Ok(path) if !path.trim().is_empty() && path.trim() != "<internal>" => {
            let path = PathBuf::from(path.trim());
            if path.is_absolute() {
                path
            } else {
                manifest.join(path)
            }
        }
        _ => manifest.join("src/nnue/pivot.nnue"),
    };
    println!("cargo:rerun-if-changed={}", source.display());
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR")).join("embedded.nnue");
    if let Err(e) = std::fs::copy(&source, &out) {
        eprintln!("EVALFILE: cannot read {}: {e}", source.display());
        std::process::exit(1);
    }
}
