#!/usr/bin/env bash
# seed_claims_smoke.sh SOURCE_DIR BINARY_DIR DATA_DIR: runs scripts/seed-claims at scale 0.01
# into a temporary directory, checks that every claim tournament played and published all its
# games and that the table, rebuilt from the published files, has every claim's figures; then
# runs it again and checks that nothing is replayed.
set -euo pipefail
src=$1 bin=$2
export KNIGHTLY_DATA=${KNIGHTLY_DATA:-$3}
export KNIGHTLY_BUILD=$bin SEED_CLAIMS_SCALE=0.01 SEED_CLAIMS_NICE=0 SEED_CLAIMS_CHARTS=0
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
export SEED_CLAIMS_DIR=$dir/run SEED_CLAIMS_GAMES=$dir/games
fail() { echo "seed_claims_smoke: $*" >&2; exit 1; }

bash "$src/scripts/seed-claims" > "$dir/first.log" 2>&1 ||
  { cat "$dir/first.log"; fail "scripts/seed-claims failed"; }
table=$SEED_CLAIMS_DIR/table.md
[[ -s $table ]] || fail "no table written"
if grep -n "Not published" "$table"; then fail "a claim has no figures"; fi

# Every tournament complete, and published with all its games.
count() { "$bin/knightly" query games --db "$SEED_CLAIMS_DIR/$1.db" --format csv | tail -n +2 | wc -l; }
for config in "$src"/configs/experiments/claim*.toml; do
  name=$(basename "$config" .toml)
  grep -A1 "^== $name " "$dir/first.log" | grep -q "Decision: complete" ||
    fail "$name did not complete"
  n=$(count "$name")
  published=$(zcat "$SEED_CLAIMS_GAMES/$name.pgn.gz" | grep -c '^\[Result ')
  [[ $n == "$published" && $n -gt 0 ]] || fail "$name: $n games stored, $published published"
done

# Figures the table must hold: alpha-beta agreeing with minimax on every value at depth 4
# (10 WAC positions at this scale), the deterministic pair's depth table, timings, claim 6's
# ladder and placement.
grep -Eq '^ +4  alphabeta +10/10 ' "$table" || fail "claim 1: alpha-beta differs from minimax"
grep -q '^| depth 6 | ' "$table" || fail "claim 3: no row for depth 6 in the deterministic table"
grep -Eq '^ +4  minimax-d4 ' "$table" || fail "claim 7: no minimax timing"
grep -q '^| 1350 | 1350 (fixed) ' "$table" || fail "claim 6: no ladder"
grep -q "Placed on the calibrated ladder" "$table" || fail "claim 6: no placement"

# Resumable: a second run finds every tournament complete and plays nothing.
before=$(for db in "$SEED_CLAIMS_DIR"/*.db; do count "$(basename "$db" .db)"; done)
bash "$src/scripts/seed-claims" > "$dir/second.log" 2>&1 ||
  { cat "$dir/second.log"; fail "the second run failed"; }
after=$(for db in "$SEED_CLAIMS_DIR"/*.db; do count "$(basename "$db" .db)"; done)
[[ $before == "$after" ]] || fail "the second run played games"
echo "seed_claims_smoke: ok"
