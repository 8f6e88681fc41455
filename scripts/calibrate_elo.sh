#!/usr/bin/env bash
# Calibration of Pivot's strength levels: at each level, Pivot with UCI_LimitStrength and
# UCI_Elo set to it plays Stockfish with the same two options (Stockfish's levels are anchored
# to a public rating list). A level is calibrated when Pivot scores 35% to 65% (within about
# 100 Elo); the levels must also be monotone. Prints one table row per level.
#
# Usage: scripts/calibrate_elo.sh [options] [LEVEL...]
#   LEVEL              UCI_Elo values (default: 1400 1800 2200 2600 2850; Stockfish 15.1
#                      accepts 1350 to 2850)
#   -o, --openings F   opening file, .epd or .pgn (default: tests/data/8moves_v3_first1000.epd)
#   -t, --tc TC        time control in cutechess-cli form (default: 10+0.1)
#   -g, --games N      games per level, in colour-swapped pairs (default: 100)
#   -c, --concurrency N  games played at once (default: 2)
#   --stockfish PATH   the Stockfish binary (default: the "stockfish" entry of engines.json)
#   --pgn DIR          also save each level's games to DIR/elo-<level>.pgn
#   --csv FILE         also write level,games,wins,losses,draws,score,elo,error rows to FILE
#
# Needs cutechess-cli on PATH. Run from anywhere.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
openings="$root/tests/data/8moves_v3_first1000.epd"
tc="10+0.1"
games=100
concurrency=2
stockfish=""
pgn_dir=""
csv=""
levels=()

usage() { sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit "${1:-0}"; }
while [ $# -gt 0 ]; do
  case "$1" in
    -o|--openings) openings=$2; shift 2 ;;
    -t|--tc) tc=$2; shift 2 ;;
    -g|--games) games=$2; shift 2 ;;
    -c|--concurrency) concurrency=$2; shift 2 ;;
    --stockfish) stockfish=$2; shift 2 ;;
    --pgn) pgn_dir=$2; shift 2 ;;
    --csv) csv=$2; shift 2 ;;
    -h|--help) usage 0 ;;
    -*) echo "calibrate_elo.sh: unknown option '$1'" >&2; usage 2 ;;
    *) levels+=("$1"); shift ;;
  esac
done
[ ${#levels[@]} -gt 0 ] || levels=(1400 1800 2200 2600 2850)
if ! command -v cutechess-cli >/dev/null 2>&1; then
  echo "calibrate_elo.sh: cutechess-cli is not on PATH. Build it from https://github.com/cutechess/cutechess" >&2
  exit 127
fi
case "$openings" in *.pgn) format=pgn ;; *) format=epd ;; esac
(cd "$root" && cargo build --release --quiet)
sf=()
if [ -n "$stockfish" ]; then
  sf=(cmd="$stockfish" proto=uci option.Threads=1 option.Hash=64)
else
  sf=(conf=stockfish)
fi

rounds=$(( (games + 1) / 2 ))
results=$(mktemp)
trap 'rm -f "$results"' EXIT
echo "Pivot $(cd "$root" && git describe --always --dirty): bench $("$root/target/release/pivot" bench 2>/dev/null | tail -1)"
echo "Levels ${levels[*]}: $((rounds * 2)) games each at $tc against Stockfish at the same UCI_Elo"
for level in "${levels[@]}"; do
  pgn=()
  [ -n "$pgn_dir" ] && { mkdir -p "$pgn_dir"; pgn=(-pgnout "$pgn_dir/elo-$level.pgn"); }
  log=$(cd "$root" && cutechess-cli \
      -engine conf=pivot name=pivot option.UCI_LimitStrength=true "option.UCI_Elo=$level" \
      -engine "${sf[@]}" name=stockfish option.UCI_LimitStrength=true "option.UCI_Elo=$level" \
      -each "tc=$tc" timemargin=0 \
      -openings "file=$openings" "format=$format" order=random plies=16 \
      -repeat -games 2 -rounds "$rounds" -concurrency "$concurrency" \
      -recover -ratinginterval 0 "${pgn[@]}" 2>&1)
  score=$(echo "$log" | grep -E "^Score of pivot vs" | tail -1)
  elo=$(echo "$log" | grep -E "^Elo difference" | tail -1)
  forfeits=$(echo "$log" | grep -cE "loses on time|illegal move|disconnects|connection stalls" || true)
  # "Score of pivot vs stockfish: W - L - D  [0.550] N" and "Elo difference: 34.9 +/- 64.1, LOS: ..."
  wld=$(echo "$score" | sed -E 's/.*: ([0-9]+) - ([0-9]+) - ([0-9]+) +\[([0-9.]+)\] ([0-9]+).*/\5 \1 \2 \3 \4/')
  e=$(echo "$elo" | sed -E 's/Elo difference: (-?[0-9.inf]+) \+\/- ([0-9.nan]+).*/\1 \2/')
  echo "  UCI_Elo $level: ${score#Score of pivot vs stockfish: }; $elo; forfeits/illegal/stalls: $forfeits"
  echo "$level $wld $e" >> "$results"
done
echo
# "Pivot ≈" is the level plus the measured difference: the levels are monotone when it rises.
printf '%8s %6s %14s %7s %9s %8s  %-8s %s\n' UCI_Elo games "W - L - D" score elo "±95%" "35-65%?" "Pivot ≈"
while read -r level n w l d sc elo err; do
  ok=$(awk -v s="$sc" 'BEGIN { print (s >= 0.35 && s <= 0.65) ? "yes" : "no" }')
  est=$(awk -v a="$level" -v b="$elo" 'BEGIN { printf "%.0f", a + b }')
  printf '%8s %6s %14s %7s %9s %8s  %-8s %s\n' "$level" "$n" "$w - $l - $d" "$sc" "$elo" "$err" "$ok" "$est"
done < "$results"
if [ -n "$csv" ]; then
  { echo "level,games,wins,losses,draws,score,elo,error"; tr ' ' ',' < "$results"; } > "$csv"
  echo "written: $csv"
fi
