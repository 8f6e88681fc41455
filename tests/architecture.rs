//! The layers of the source tree (README, "Architecture"): a module may import from its own
//! layer and the ones below, never from above. This test reads every file under `src/` and
//! fails on an import that runs upwards. (`scripts/code_stats.py` reads the same table.)

use std::path::Path;

/// Top-level modules of the library and binary, by layer, bottom up.
const LAYERS: &[(&str, u32)] = &[
    ("score", 0),
    ("game", 1),
    ("cycle", 1),
    ("movegen", 1),
    ("perft", 1),
    ("tt", 1),
    ("tb", 1),
    ("nnue", 1),
    ("eval", 2),
    ("search", 3),
    ("bench", 4),
    ("pvcheck", 4),
    ("engine", 5),
    ("options", 5),
    ("uci", 6),
    ("out", 6),
    ("frontend", 6),
    ("main", 7),
    ("lib", 7),
];

fn layer(module: &str) -> Option<u32> {
    LAYERS.iter().find(|(m, _)| *m == module).map(|&(_, l)| l)
}

/// Every `crate::<module>` named in `code`.
fn imports(code: &str) -> Vec<&str> {
    code.match_indices("crate::")
        .filter(|&(i, _)| !code[..i].ends_with(|c: char| c.is_alphanumeric() || c == '_'))
        .map(|(i, m)| {
            let rest = &code[i + m.len()..];
            let end = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            &rest[..end]
        })
        .collect()
}

fn visit(dir: &Path, files: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            visit(&path, files);
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
}

#[test]
fn no_module_imports_from_a_higher_layer() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    visit(&src, &mut files);
    assert!(files.len() > 20, "{} files under src/", files.len());
    let mut problems = Vec::new();
    for path in &files {
        let rel = path.strip_prefix(&src).unwrap();
        let top = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_str()
            .unwrap();
        let module = top.strip_suffix(".rs").unwrap_or(top);
        let Some(own) = layer(module) else {
            problems.push(format!("{}: module '{module}' has no layer", rel.display()));
            continue;
        };
        let text = std::fs::read_to_string(path).unwrap();
        // Unit tests may reach anywhere; the code before them may not.
        let code = text.split("#[cfg(test)]").next().unwrap();
        for target in imports(code) {
            match layer(target) {
                Some(l) if l > own => problems.push(format!(
                    "{} (layer {own}) imports crate::{target} (layer {l})",
                    rel.display()
                )),
                Some(_) => {}
                None => problems.push(format!("{}: crate::{target} has no layer", rel.display())),
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_import_reader_sees_paths_not_lookalikes() {
    let code = "use crate::search::Searcher;\nlet x = my_crate::score; crate::tt::probe();";
    assert_eq!(imports(code), ["search", "tt"]);
}
