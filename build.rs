//! Chooses the network built into the binary: `src/nnue/pivot.nnue`, or the file named by
//! the `EVALFILE` environment variable (`make EXE=… EVALFILE=…`, as OpenBench passes a test's
//! network). The file is copied to `OUT_DIR/embedded.nnue`, which `src/nnue/mod.rs` includes;
//! whether it decodes is checked by the tests and at start-up. The hidden layer's width is
//! the network's own (read from its header into `OUT_DIR/hidden.rs`), or `PIVOT_HIDDEN` when
//! set: a build wider than its network pads it with silent neurons, for training a wider one.

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
    let out_dir = PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR"));
    let bytes = match std::fs::read(&source) {
        Ok(bytes) => bytes,
        Err(e) => fail(&format!("EVALFILE: cannot read {}: {e}", source.display())),
    };
    if let Err(e) = std::fs::write(out_dir.join("embedded.nnue"), &bytes) {
        fail(&format!("cannot write the embedded network: {e}"));
    }
    // The hidden layer's width: PIVOT_HIDDEN if set (to build wider than the network at hand,
    // whose missing neurons then start silent), else the embedded network's own.
    println!("cargo:rerun-if-env-changed=PIVOT_HIDDEN");
    let file_hidden = if bytes.len() >= 12 && &bytes[..4] == b"PVNN" {
        u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]) as usize
    } else {
        fail(&format!("{} is not a Pivot network file", source.display()))
    };
    let hidden = match std::env::var("PIVOT_HIDDEN") {
        Ok(text) if !text.trim().is_empty() => match text.trim().parse::<usize>() {
            Ok(h) if h >= file_hidden => h,
            Ok(h) => fail(&format!(
                "PIVOT_HIDDEN={h} is narrower than the embedded network's {file_hidden} neurons"
            )),
            Err(_) => fail(&format!("PIVOT_HIDDEN='{text}' is not a number")),
        },
        _ => file_hidden,
    };
    if hidden == 0 || hidden % 64 != 0 || hidden > 4096 {
        fail(&format!(
            "a hidden layer of {hidden} neurons: the engine takes multiples of 64 up to 4096"
        ));
    }
    let constant = format!(
        "/// Hidden neurons per side: the embedded network's width, or `PIVOT_HIDDEN` at build \
         time.\npub const HIDDEN: usize = {hidden};\n"
    );
    if let Err(e) = std::fs::write(out_dir.join("hidden.rs"), constant) {
        fail(&format!("cannot write hidden.rs: {e}"));
    }
}

fn fail(message: &str) -> ! {
    eprintln!("{message}");
    std::process::exit(1);
}
