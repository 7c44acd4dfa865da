#!/usr/bin/env bash
# seed_claims_published.sh SOURCE_DIR BINARY_DIR: docs/seed-claims.md's figures are those of the
# games it publishes. `scripts/seed-claims table` rebuilds the table from a copy of
# docs/seed-claims/games alone (every game imported, every Elo, interval and rating from
# `knightly query`) and the document's figures must be that table, line for line.
set -euo pipefail
src=$1 bin=$2
games=$src/docs/seed-claims/games
fail() { echo "seed_claims_published: $*" >&2; exit 1; }
[[ -d $games ]] || fail "$games: no published games"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cp -r "$games" "$dir/games"
export KNIGHTLY_BUILD=$bin SEED_CLAIMS_CHARTS=0 SEED_CLAIMS_DIR=$dir/run SEED_CLAIMS_GAMES=$dir/games
bash "$src/scripts/seed-claims" table > "$dir/table.log" 2>&1 ||
  { cat "$dir/table.log"; fail "scripts/seed-claims table failed"; }
n=$(ls "$games"/*.pgn.gz | wc -l)
((n >= 19)) || fail "$games: $n tournaments published, 19 expected (every claim-2 to claim-6 config)"
python3 "$src/scripts/seed_claims_table.py" --check "$src/docs/seed-claims.md" "$dir/run/table.md" ||
  fail "docs/seed-claims.md's figures are not those of its published games: run scripts/seed-claims table"
echo "seed_claims_published: the document's figures are its $n published tournaments'"
