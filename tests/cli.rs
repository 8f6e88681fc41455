//! The engine's command line: help, bench and perft (the training pipeline's commands are
//! tested in tools/tests/cli.rs).

use std::process::Command;

fn pivot(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_pivot"))
        .args(args)
        .output()
        .expect("run pivot");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn help_describes_the_subcommands() {
    let (code, out, _) = pivot(&["--help"]);
    assert_eq!(code, 0);
    for word in [
        "bench",
        "perft",
        "pv-check",
        "tunables",
        "--log-file",
        "UCI",
    ] {
        assert!(out.contains(word), "{word} missing from:\n{out}");
    }
    // The subcommands, exactly: the training pipeline is a separate binary.
    let commands: Vec<&str> = out
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert_eq!(
        commands,
        ["bench", "pv-check", "tunables", "perft", "help"],
        "{out}"
    );
}

#[test]
fn bench_ends_with_nodes_and_nps_and_is_deterministic() {
    let last_line = || {
        let (code, out, _) = pivot(&["bench", "--depth", "3"]);
        assert_eq!(code, 0);
        out.lines().last().unwrap().to_string()
    };
    let first = last_line();
    let words: Vec<&str> = first.split_whitespace().collect();
    assert_eq!(words.len(), 4, "{first}");
    assert_eq!((words[1], words[3]), ("nodes", "nps"));
    let nodes: u64 = words[0].parse().unwrap();
    assert!(nodes > 0);
    let second = last_line();
    assert_eq!(second.split_whitespace().next(), Some(words[0]));
}

/// The search's signature: `pivot bench` at its default depth searches exactly the nodes
/// recorded in `bench::SIGNATURE` (a change of search or evaluation updates both).
#[test]
fn bench_gives_the_recorded_signature() {
    let (code, out, _) = pivot(&["bench"]);
    assert_eq!(code, 0);
    let last = out.lines().last().unwrap();
    let nodes: u64 = last.split_whitespace().next().unwrap().parse().unwrap();
    assert_eq!(
        nodes,
        pivot::bench::SIGNATURE,
        "bench signature changed: {last}; if the search was meant to change, update \
         bench::SIGNATURE and say Bench: {nodes} in the commit message"
    );
}

#[test]
fn perft_divides_and_totals() {
    let (code, out, _) = pivot(&["perft", "3"]);
    assert_eq!(code, 0);
    assert!(out.contains("e2e4: 600"), "{out}");
    assert!(out.contains("Nodes: 8902"), "{out}");
    let (code, out, _) = pivot(&[
        "perft",
        "2",
        "--fen",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    ]);
    assert_eq!(code, 0);
    assert!(
        out.contains("e1g1: 43") && out.contains("Nodes: 2039"),
        "{out}"
    );
}

#[test]
fn perft_rejects_a_bad_fen_with_a_message() {
    let (code, _, err) = pivot(&["perft", "2", "--fen", "not a fen"]);
    assert_eq!(code, 2);
    assert!(err.contains("invalid FEN"), "{err}");
}

/// `tunables` lists every search parameter in OpenBench's SPSA format, each default within
/// its range.
#[test]
fn tunables_print_in_openbench_format() {
    let (code, out, _) = pivot(&["tunables"]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines.len() >= 20, "{out}");
    assert!(
        lines.iter().any(|l| l.starts_with("rfp_margin, int, ")),
        "{out}"
    );
    for line in lines {
        let f: Vec<&str> = line.split(", ").collect();
        assert_eq!(f.len(), 7, "{line}");
        assert_eq!(f[1], "int", "{line}");
        let [value, min, max]: [i64; 3] = [f[2], f[3], f[4]].map(|x| x.parse().unwrap());
        assert!(min <= value && value <= max, "{line}");
        assert!(f[5].parse::<f64>().unwrap() > 0.0, "{line}");
        assert_eq!(f[6], "0.002", "{line}");
    }
}
