#!/usr/bin/env bash
# SPRT between two builds of Pivot: each git revision is exported to a temporary directory and
# built there, then cutechess-cli plays them until the sequential probability ratio test
# accepts H0 (the change gains less than ELO0) or H1 (it gains at least ELO1), or the game
# limit is reached. Prints the bench signature of both builds and a readable verdict.
#
# Usage: scripts/sprt.sh [options] NEW [BASE]
#   NEW, BASE          git revisions (default BASE: HEAD); NEW may be "worktree" for the
#                      uncommitted state of this checkout
#   --elo0 E, --elo1 E SPRT bounds in Elo (default: 0 and 5)
#   --alpha A, --beta B  error rates (default: 0.05 each)
#   -t, --tc TC        time control (default: 10+0.1)
#   -g, --games N      game limit (default: 20000)
#   -c, --concurrency N  games played at once (default: 2)
#   -o, --openings F   opening file (default: tests/data/8moves_v3_first1000.epd)
#   --hash MB          transposition table of each engine (default: 64); a small table at a
#                      short time control shows what a longer game does to a full table
#   -- ARGS            extra arguments for cutechess-cli
#
# Needs cutechess-cli on PATH. Run from anywhere inside the repository.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
elo0=0; elo1=5; alpha=0.05; beta=0.05
tc="10+0.1"; games=20000; concurrency=2; hash=64
openings="$root/tests/data/8moves_v3_first1000.epd"
extra=(); revs=()

usage() { sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit "${1:-0}"; }
while [ $# -gt 0 ]; do
  case "$1" in
    --elo0) elo0=$2; shift 2 ;;
    --elo1) elo1=$2; shift 2 ;;
    --alpha) alpha=$2; shift 2 ;;
    --beta) beta=$2; shift 2 ;;
    -t|--tc) tc=$2; shift 2 ;;
    -g|--games) games=$2; shift 2 ;;
    -c|--concurrency) concurrency=$2; shift 2 ;;
    -o|--openings) openings=$2; shift 2 ;;
    --hash) hash=$2; shift 2 ;;
    --) shift; extra=("$@"); break ;;
    -h|--help) usage 0 ;;
    -*) echo "sprt.sh: unknown option '$1'" >&2; usage 2 ;;
    *) revs+=("$1"); shift ;;
  esac
done
[ ${#revs[@]} -ge 1 ] && [ ${#revs[@]} -le 2 ] || usage 2
new=${revs[0]}; base=${revs[1]:-HEAD}
if ! command -v cutechess-cli >/dev/null 2>&1; then
  echo "sprt.sh: cutechess-cli is not on PATH. Build it from https://github.com/cutechess/cutechess" >&2
  exit 127
fi
case "$openings" in *.pgn) format=pgn ;; *) format=epd ;; esac

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# build NAME REV: exports REV (or the work tree) to $work/NAME and builds it there.
build() {
  local name=$1 rev=$2 dir="$work/$1"
  mkdir -p "$dir"
  if [ "$rev" = worktree ]; then
    (cd "$root" && git ls-files -z --cached --others --exclude-standard | tar --null -T - -cf - ) | tar -xf - -C "$dir"
  else
    (cd "$root" && git archive "$rev") | tar -xf - -C "$dir"
  fi
  (cd "$dir" && CARGO_TARGET_DIR="$work/target-$name" cargo build --release --quiet)
  cp "$work/target-$name/release/pivot" "$work/pivot-$name"
  echo "$name = $rev: bench $("$work/pivot-$name" bench 2>/dev/null | tail -1)"
}
build new "$new"
build base "$base"

rounds=$(( (games + 1) / 2 ))
echo "SPRT [$elo0, $elo1] alpha $alpha beta $beta at $tc, up to $((rounds * 2)) games, concurrency $concurrency"
log="$work/cutechess.log"
cutechess-cli \
  -engine "cmd=$work/pivot-new" name=new proto=uci option.Hash="$hash" \
  -engine "cmd=$work/pivot-base" name=base proto=uci option.Hash="$hash" \
  -each "tc=$tc" timemargin=0 \
  -openings "file=$openings" "format=$format" order=random plies=16 \
  -repeat -games 2 -rounds "$rounds" -concurrency "$concurrency" \
  -sprt "elo0=$elo0" "elo1=$elo1" "alpha=$alpha" "beta=$beta" \
  -recover -ratinginterval 100 "${extra[@]}" 2>&1 | tee "$log" | grep --line-buffered -E "^(Elo difference|SPRT)" || true
echo
echo "Verdict"
grep -E "^Score of new vs base" "$log" | tail -1
grep -E "^Elo difference" "$log" | tail -1
grep -E "^SPRT" "$log" | tail -1
if grep -q "H1 was accepted" "$log"; then echo "H1 accepted: new is stronger by at least about $elo1 Elo";
elif grep -q "H0 was accepted" "$log"; then echo "H0 accepted: new gains less than $elo1 Elo (maybe nothing)";
else echo "No decision within the game limit"; fi
forfeits=$(grep -cE "loses on time|illegal move|disconnects|connection stalls" "$log" || true)
echo "Games ending in forfeit, illegal move, stall or crash: $forfeits"
