#!/usr/bin/env bash
# Soak test: many short games of Pivot against several engines at several time controls,
# counting what must never happen (time forfeits, illegal moves, stalls, crashes). Prints a
# summary per control; the PGNs are deleted unless --keep-pgn is given.
#
# Usage: scripts/soak.sh [options]
#   -t, --tc "TC:ROUNDS ..."  time controls in cutechess-cli form, each with its number of
#                       gauntlet rounds; every round plays each opponent twice, colours
#                       swapped (default: "1+0.01:52 40/2:37 3+0.03:37", 1008 games against
#                       four opponents)
#   -e, --engines "A B ..."  opponents from engines.json
#                       (default: "glaurung toga2 ethereal stockfish-2000")
#   -c, --concurrency N games played at once (default: 2)
#   -k, --keep-pgn DIR  keep the PGNs in DIR
#
# Every game is played with timemargin=0: a move arriving after the flag falls loses.
# Needs cutechess-cli on PATH and python-chess (pip install chess).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
tcs="1+0.01:52 40/2:37 3+0.03:37"
opponents="glaurung toga2 ethereal stockfish-2000"
concurrency=2
keep=""

usage() { sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit "${1:-0}"; }
while [ $# -gt 0 ]; do
  case "$1" in
    -t|--tc) tcs=$2; shift 2 ;;
    -e|--engines) opponents=$2; shift 2 ;;
    -c|--concurrency) concurrency=$2; shift 2 ;;
    -k|--keep-pgn) keep=$2; shift 2 ;;
    -h|--help) usage 0 ;;
    *) echo "soak.sh: unknown argument '$1'" >&2; usage 2 ;;
  esac
done
if ! command -v cutechess-cli >/dev/null 2>&1; then
  echo "soak.sh: cutechess-cli is not on PATH. Build it from https://github.com/cutechess/cutechess" >&2
  exit 127
fi

(cd "$root" && cargo build --release --quiet)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
engine_args=(-engine conf=pivot)
for name in $opponents; do engine_args+=(-engine "conf=$name"); done

for spec in $tcs; do
  tc=${spec%%:*}
  rounds=${spec##*:}
  tag=$(echo "$tc" | tr '/+' '_p')
  echo "== $tc: gauntlet of $rounds rounds against: $opponents"
  (cd "$root" && cutechess-cli "${engine_args[@]}" \
      -tournament gauntlet -each "tc=$tc" timemargin=0 \
      -openings "file=tests/data/8moves_v3_first1000.epd" format=epd order=random plies=16 \
      -repeat -games 2 -rounds "$rounds" -concurrency "$concurrency" \
      -resign movecount=5 score=1000 twosided=true -draw movenumber=50 movecount=10 score=5 \
      -recover -ratinginterval 0 -pgnout "$work/$tag.pgn") > "$work/$tag.log" 2>&1 || true
  python3 "$root/scripts/soak_summary.py" --engine pivot --tc "$tc" "$work/$tag.log" "$work/$tag.pgn"
  if [ -n "$keep" ]; then mkdir -p "$keep" && cp "$work/$tag.pgn" "$work/$tag.log" "$keep/"; fi
done
