//! The training pipeline's command line: `datagen` writes positions that `rescore` and
//! `train` read, `train` writes a network the engine can decode, and bad paths get a message.

use std::path::Path;
use std::process::Command;

fn tools(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_pivot-tools"))
        .args(args)
        .output()
        .expect("run pivot-tools");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn help_lists_the_stages() {
    let (code, out, _) = tools(&["--help"]);
    assert_eq!(code, 0);
    for word in ["datagen", "rescore", "split", "lookahead", "train"] {
        assert!(out.contains(word), "{word} missing from:\n{out}");
    }
}

#[test]
fn datagen_rescore_and_train_read_each_other() {
    let dir = std::env::temp_dir().join(format!("pivot-tools-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let data = dir.join("games.txt");
    let rescored = dir.join("rescored.txt");
    let network = dir.join("net.nnue");
    let (code, out, err) = tools(&[
        "datagen",
        "--out",
        path(&data),
        "--games",
        "3",
        "--nodes",
        "400",
        "--seed",
        "5",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("3 games"), "{out}");
    let text = std::fs::read_to_string(&data).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(!lines.is_empty());
    for line in &lines {
        let fields: Vec<&str> = line.split(" | ").collect();
        assert_eq!(fields.len(), 3, "{line}");
        assert!(fields[1].parse::<i32>().is_ok(), "{line}");
        assert!(["1.0", "0.5", "0.0"].contains(&fields[2]), "{line}");
    }

    // Split: the last game held out whole, the other two kept for training, no line lost; a
    // hold that leaves no game to train on is refused.
    let (train_part, valid_part) = (dir.join("train.txt"), dir.join("valid.txt"));
    let split = |hold: &str| {
        tools(&[
            "split",
            path(&data),
            "--hold",
            hold,
            "--train",
            path(&train_part),
            "--valid",
            path(&valid_part),
        ])
    };
    let (code, out, err) = split("1");
    assert_eq!(code, 0, "{err}");
    let train_text = std::fs::read_to_string(&train_part).unwrap();
    let valid_text = std::fs::read_to_string(&valid_part).unwrap();
    assert_eq!(format!("{train_text}{valid_text}"), text);
    let (trained, held) = (train_text.lines().count(), valid_text.lines().count());
    assert!(
        out.contains(&format!("{trained} lines, 2 games"))
            && out.contains(&format!("{held} lines, 1 games")),
        "{out}"
    );
    let (code, _, err) = split(&lines.len().to_string());
    assert_eq!(code, 2);
    assert!(err.contains("3 games in"), "{err}");

    // Lookahead: every line kept in order with its FEN and result; at lambda 0 the scores stay
    // the searches' own; a lambda outside 0..1 is refused.
    let blended = dir.join("blended.txt");
    let lookahead = |lambda: &str| {
        tools(&[
            "lookahead",
            path(&data),
            "--lambda",
            lambda,
            "--out",
            path(&blended),
        ])
    };
    for lambda in ["0", "0.9"] {
        let (code, out, err) = lookahead(lambda);
        assert_eq!(code, 0, "{err}");
        assert!(out.contains(&format!("{} positions", lines.len())), "{out}");
        let blended_text = std::fs::read_to_string(&blended).unwrap();
        let new_lines: Vec<&str> = blended_text.lines().collect();
        assert_eq!(new_lines.len(), lines.len());
        for (old, new) in lines.iter().zip(&new_lines) {
            let (old, new): (Vec<&str>, Vec<&str>) =
                (old.split(" | ").collect(), new.split(" | ").collect());
            assert_eq!((old[0], old[2]), (new[0], new[2]));
            if lambda == "0" {
                assert_eq!(old[1], new[1]);
            }
        }
    }
    let (code, _, err) = lookahead("1.5");
    assert_eq!(code, 2);
    assert!(err.contains("--lambda must lie in 0..1"), "{err}");

    let (code, out, err) = tools(&[
        "rescore",
        path(&data),
        "--out",
        path(&rescored),
        "--nodes",
        "300",
    ]);
    assert_eq!(code, 0, "{err}");
    let kept = std::fs::read_to_string(&rescored).unwrap().lines().count();
    assert!(
        out.starts_with(&format!("{kept} positions rescored")),
        "{out}"
    );
    assert!(kept > 0 && kept <= lines.len(), "{kept} of {}", lines.len());

    let (code, out, err) = tools(&[
        "train",
        path(&data),
        path(&rescored),
        "--out",
        path(&network),
        "--epochs",
        "1",
        "--batch",
        "64",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("epoch 1 "), "{out}");
    let bytes = std::fs::read(&network).unwrap();
    assert!(pivot::nnue::file::decode(&bytes).is_ok());

    // Validation on a file of its own: every rescored position (none is in check), and none
    // held out of the training data; a validation file without positions is refused.
    let (code, out, err) = tools(&[
        "train",
        path(&data),
        "--validate",
        path(&rescored),
        "--out",
        path(&network),
        "--epochs",
        "1",
        "--batch",
        "64",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains(&format!(", {kept} of them for validation")),
        "{out}"
    );
    let empty = dir.join("empty.txt");
    std::fs::write(&empty, "not a position\n").unwrap();
    let (code, _, err) = tools(&[
        "train",
        path(&data),
        "--validate",
        path(&empty),
        "--out",
        path(&network),
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains("no usable position in the --validate files"),
        "{err}"
    );

    // The shipped network refined in sixteen king buckets (grown or split into them when it
    // has fewer): a format-3 file the engine reads. Validated on the rescored positions, not on
    // the end of the last game, which may be a mate that every network rates alike.
    let shipped = concat!(env!("CARGO_MANIFEST_DIR"), "/../src/nnue/pivot.nnue");
    let bucketed = dir.join("kings.nnue");
    let (code, out, err) = tools(&[
        "train",
        path(&data),
        "--validate",
        path(&rescored),
        "--out",
        path(&bucketed),
        "--init",
        shipped,
        "--king-buckets",
        "sixteen",
        "--epochs",
        "1",
        "--batch",
        "64",
        "--rate",
        "0.0001",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("validation error of the starting network"),
        "{out}"
    );
    // The last figure is the written (quantized) network's, read back from its file.
    let last = out.lines().last().unwrap_or_default();
    let written: f64 = last
        .strip_prefix("validation error of the written network ")
        .and_then(|x| x.parse().ok())
        .unwrap_or_else(|| panic!("{out}"));
    assert!(written.is_finite() && written > 0.0, "{out}");
    let net = pivot::nnue::file::decode(&std::fs::read(&bucketed).unwrap()).unwrap();
    assert_eq!(net.king_buckets, 16);
    // Refining it keeps its buckets; a coarser layout for it is refused.
    let (code, _, err) = tools(&[
        "train",
        path(&data),
        "--out",
        path(&bucketed),
        "--init",
        path(&bucketed),
        "--king-buckets",
        "halves",
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains("king bucket 0 of the new layout spans more than one of the network's 16"),
        "{err}"
    );
    let (code, _, err) = tools(&[
        "train",
        path(&data),
        "--out",
        path(&bucketed),
        "--king-buckets",
        "sixty",
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains(
            "unknown layout (known: none, halves, four, eight, twelve, sixteen, twenty, \
             twenty-four)"
        ),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_paths_get_a_message_and_status_2() {
    for args in [
        &["train", "/nonexistent/data.txt", "--out", "net.nnue"][..],
        &["rescore", "/nonexistent/data.txt", "--out", "r.txt"][..],
        &["split", "/nonexistent/data.txt"][..],
        &["lookahead", "/nonexistent/data.txt", "--out", "l.txt"][..],
    ] {
        let (code, _, err) = tools(args);
        assert_eq!(code, 2, "{args:?}");
        assert!(err.contains("cannot read /nonexistent/data.txt"), "{err}");
    }
    let (code, _, err) = tools(&[
        "datagen",
        "--out",
        "/nonexistent/dir/games.txt",
        "--games",
        "1",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("cannot create"), "{err}");

    // A file that is not data is named with its first bad line.
    let bad = std::env::temp_dir().join(format!("pivot-tools-bad-{}.txt", std::process::id()));
    std::fs::write(&bad, "8/8/8/8/8/8/8/K1k5 w - - 0 1 | 0 | 0.5\nnot data\n").unwrap();
    let (code, _, err) = tools(&["lookahead", path(&bad), "--out", "l.txt"]);
    std::fs::remove_file(&bad).ok();
    assert_eq!(code, 2);
    assert!(
        err.contains("line 2 is not a `FEN | score | result` line"),
        "{err}"
    );
}
