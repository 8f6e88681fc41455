#!/usr/bin/env bash
# Plays a cutechess-cli match of Pivot (built from this checkout) against another engine and
# prints the score and Elo difference.
#
# Usage: scripts/match.sh OPPONENT [options]
#   OPPONENT           an engine name from engines.json (stockfish, stockfish-2000, ethereal,
#                      toga2, glaurung, fairymax, ...) or a path to a UCI engine binary
#   -o, --openings F   opening file, .epd or .pgn (default: tests/data/8moves_v3_first1000.epd)
#   -t, --tc TC        time control in cutechess-cli form, e.g. 10+0.1, 40/60, 1+0.01
#                      (default: 10+0.1)
#   -g, --games N      number of games, played in colour-swapped pairs (default: 100)
#   -c, --concurrency N  games played at once (default: 2)
#   -p, --pgn F        also save the games to F
#   -- ARGS            extra arguments passed on to cutechess-cli
#
# Needs cutechess-cli on PATH. Run from anywhere; it works from the repository root.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
openings="$root/tests/data/8moves_v3_first1000.epd"
tc="10+0.1"
games=100
concurrency=2
pgn=""
extra=()

usage() { sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit "${1:-0}"; }

[ $# -ge 1 ] || usage 2
case "$1" in -h|--help) usage 0 ;; esac
opponent=$1; shift
while [ $# -gt 0 ]; do
  case "$1" in
    -o|--openings) openings=$2; shift 2 ;;
    -t|--tc) tc=$2; shift 2 ;;
    -g|--games) games=$2; shift 2 ;;
    -c|--concurrency) concurrency=$2; shift 2 ;;
    -p|--pgn) pgn=$2; shift 2 ;;
    --) shift; extra=("$@"); break ;;
    -h|--help) usage 0 ;;
    *) echo "match.sh: unknown argument '$1'" >&2; usage 2 ;;
  esac
done

if ! command -v cutechess-cli >/dev/null 2>&1; then
  echo "match.sh: cutechess-cli is not on PATH. Build it from https://github.com/cutechess/cutechess" >&2
  echo "          and put the cutechess-cli binary on PATH, then run this script again." >&2
  exit 127
fi
[ -f "$openings" ] || { echo "match.sh: opening file '$openings' not found" >&2; exit 2; }
case "$openings" in *.pgn) format=pgn ;; *) format=epd ;; esac

(cd "$root" && cargo build --release --quiet)

if grep -q "\"name\": \"$opponent\"" "$root/engines.json"; then
  opp_args=(-engine "conf=$opponent")
else
  [ -x "$opponent" ] || { echo "match.sh: '$opponent' is neither in engines.json nor an executable" >&2; exit 2; }
  opp_args=(-engine "cmd=$opponent" proto=uci)
fi

rounds=$(( (games + 1) / 2 ))
log=$(mktemp)
trap 'rm -f "$log"' EXIT
args=(-engine conf=pivot "${opp_args[@]}"
      -each "tc=$tc" timemargin=0
      -openings "file=$openings" "format=$format" order=random plies=16
      -repeat -games 2 -rounds "$rounds" -concurrency "$concurrency"
      -recover -ratinginterval 0)
[ -n "$pgn" ] && args+=(-pgnout "$pgn")

echo "Pivot vs $opponent: $((rounds * 2)) games at $tc, concurrency $concurrency, openings $(basename "$openings")"
(cd "$root" && cutechess-cli "${args[@]}" "${extra[@]}") | tee "$log" | grep -E "^(Finished game|Score of|Elo difference|Finished match)" || true

echo
echo "Summary"
grep -E "^Score of|^Elo difference" "$log" | tail -2
forfeits=$(grep -cE "forfeits on time|illegal move|disconnects|stalls|crash" "$log" || true)
echo "Games ending in forfeit, illegal move, stall or crash: $forfeits"
grep -E "forfeits on time|illegal move|disconnects|stalls|crash" "$log" | sed 's/^/  /' || true
