#!/usr/bin/env bash
# Gauntlet: Pivot (built from this checkout) against a list of engines from engines.json, one
# match per opponent, then a table of score and Elo difference (with its 95% error) per
# opponent. With --csv FILE the table is also written as CSV (scripts/plot_gauntlet.py draws it).
#
# Usage: scripts/gauntlet.sh [options] ENGINE...
#   ENGINE             names from engines.json (e.g. glaurung toga2 ethereal stockfish-2000)
#   -o, --openings F   opening file, .epd or .pgn (default: tests/data/8moves_v3_first1000.epd)
#   -t, --tc TC        time control in cutechess-cli form (default: 10+0.1)
#   --opponent-tc TC   the opponents' time control, for games at time odds (default: --tc);
#                      Pivot at 10+0.1 against Stockfish at a tenth: --opponent-tc 1+0.01
#   -g, --games N      games per opponent, in colour-swapped pairs (default: 100)
#   -c, --concurrency N  games played at once (default: 2)
#   --pgn FILE         also write the games to FILE (one file for all opponents)
#   --csv FILE         also write opponent,games,score,elo,error,los rows to FILE
#   -- ARGS            extra arguments for cutechess-cli (adjudication, say)
#
# Needs cutechess-cli on PATH. Run from anywhere.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
openings="$root/tests/data/8moves_v3_first1000.epd"
tc="10+0.1"
opponent_tc=""
pgn=()
games=100
concurrency=2
csv=""
extra=()
opponents=()

usage() { sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit "${1:-0}"; }
while [ $# -gt 0 ]; do
  case "$1" in
    -o|--openings) openings=$2; shift 2 ;;
    -t|--tc) tc=$2; shift 2 ;;
    --opponent-tc) opponent_tc=$2; shift 2 ;;
    --pgn) pgn=(-pgnout "$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"); shift 2 ;;
    -g|--games) games=$2; shift 2 ;;
    -c|--concurrency) concurrency=$2; shift 2 ;;
    --csv) csv=$2; shift 2 ;;
    --) shift; extra=("$@"); break ;;
    -h|--help) usage 0 ;;
    -*) echo "gauntlet.sh: unknown option '$1'" >&2; usage 2 ;;
    *) opponents+=("$1"); shift ;;
  esac
done
[ ${#opponents[@]} -gt 0 ] || usage 2
if ! command -v cutechess-cli >/dev/null 2>&1; then
  echo "gauntlet.sh: cutechess-cli is not on PATH. Build it from https://github.com/cutechess/cutechess" >&2
  exit 127
fi
for name in "${opponents[@]}"; do
  grep -q "\"name\": \"$name\"" "$root/engines.json" || { echo "gauntlet.sh: '$name' is not in engines.json" >&2; exit 2; }
done
case "$openings" in *.pgn) format=pgn ;; *) format=epd ;; esac
(cd "$root" && cargo build --release --quiet)

rounds=$(( (games + 1) / 2 ))
results=$(mktemp)
trap 'rm -f "$results"' EXIT
# The binary engines.json names is what plays: its bench signature tells which search it is,
# whatever cargo last built into target/.
echo "Pivot $(cd "$root" && git describe --always --dirty): bench $("$root/target/release/pivot" bench 2>/dev/null | tail -1)"
[ -n "$opponent_tc" ] || opponent_tc=$tc
echo "Pivot gauntlet: ${opponents[*]}; $((rounds * 2)) games each, Pivot at $tc, opponents at $opponent_tc, concurrency $concurrency, openings $(basename "$openings")"
for name in "${opponents[@]}"; do
  log=$(cd "$root" && cutechess-cli -engine conf=pivot "tc=$tc" -engine "conf=$name" "tc=$opponent_tc" \
      -each timemargin=0 "${pgn[@]}" \
      -openings "file=$openings" "format=$format" order=random plies=16 \
      -repeat -games 2 -rounds "$rounds" -concurrency "$concurrency" \
      -recover -ratinginterval 0 "${extra[@]}" 2>&1)
  score=$(echo "$log" | grep -E "^Score of pivot vs" | tail -1)
  elo=$(echo "$log" | grep -E "^Elo difference" | tail -1)
  forfeits=$(echo "$log" | grep -cE "loses on time|illegal move|disconnects|connection stalls" || true)
  echo "  vs $name: ${score#Score of pivot vs $name: }; $elo; forfeits/illegal/stalls/crashes: $forfeits"
  # "Score of pivot vs x: W - L - D  [0.550] N" and
  # "Elo difference: 34.9 +/- 64.1, LOS: 85.9 %, DrawRatio: 35.0 %"
  echo "$name $(echo "$score" | sed -E 's/.*\[([0-9.]+)\] ([0-9]+).*/\2 \1/') $(echo "$elo" | sed -E 's/Elo difference: (-?[0-9.inf]+) \+\/- ([0-9.nan]+), LOS: ([0-9.]+).*/\1 \2 \3/')" >> "$results"
done
echo
printf '%-16s %6s %7s %9s %8s %7s\n' opponent games score elo "±95%" "LOS %"
while read -r name n sc elo err los; do
  printf '%-16s %6s %7s %9s %8s %7s\n' "$name" "$n" "$sc" "$elo" "$err" "$los"
done < "$results"
if [ -n "$csv" ]; then
  { echo "opponent,games,score,elo,error,los"; tr ' ' ',' < "$results"; } > "$csv"
  echo "written: $csv"
fi
