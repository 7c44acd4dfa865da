#!/usr/bin/env bash
# seed_claims_table.sh SOURCE_DIR BINARY_DIR DATA_DIR: scripts/seed-claims plays three small
# claim tournaments (claim4-pst, claim4-eval-depth, claim5-depth-fixed at scale 0.01: 38 games)
# and publishes them; pgn-extract reads every published game; the played databases are then
# moved away and `scripts/seed-claims table` rebuilds the table from the published files alone,
# the same table as the run's; every Elo, interval and rating it shows (figures.tsv) is the one
# `knightly query` gives on the databases that played the games.
set -euo pipefail
src=$1 bin=$2
export KNIGHTLY_DATA=$3 KNIGHTLY_BUILD=$bin SEED_CLAIMS_SCALE=0.01 SEED_CLAIMS_NICE=0
export SEED_CLAIMS_CHARTS=0
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
export SEED_CLAIMS_DIR=$dir/run SEED_CLAIMS_GAMES=$dir/games
fail() { echo "seed_claims_table: $*" >&2; exit 1; }
claims=(claim4-pst claim4-eval-depth claim5-depth-fixed)

bash "$src/scripts/seed-claims" "${claims[@]}" > "$dir/play.log" 2>&1 ||
  { cat "$dir/play.log"; fail "scripts/seed-claims ${claims[*]} failed"; }
for c in "${claims[@]}"; do
  [[ -s $dir/games/$c.pgn.gz ]] || fail "$c: no published games"
  n=$("$bin/knightly" query games --db "$dir/run/$c.db" --format csv | tail -n +2 | wc -l)
  zcat "$dir/games/$c.pgn.gz" > "$dir/$c.pgn"
  out=$(/usr/games/pgn-extract -r "$dir/$c.pgn" 2>&1)
  grep -q "^$n games matched out of $n\.\?$" <<< "$out" ||
    fail "$c: pgn-extract does not read the $n published games: $out"
  grep -q "^$c	" "$dir/games/runs.tsv" || fail "$c: not in runs.tsv"
done
cp "$dir/run/table.md" "$dir/played-table.md"

# From the published files alone: the played databases out of reach.
mkdir "$dir/played"
for c in "${claims[@]}"; do mv "$dir/run/$c".db* "$dir/played/"; done
bash "$src/scripts/seed-claims" table > "$dir/table.log" 2>&1 ||
  { cat "$dir/table.log"; fail "scripts/seed-claims table failed"; }
cmp -s "$dir/played-table.md" "$dir/run/table.md" ||
  { diff "$dir/played-table.md" "$dir/run/table.md"; fail "table differs from the run's"; }
grep -q "schmitz-hard vs schmitz-normal | [0-9]*-[0-9]*-[0-9]* " "$dir/run/table.md" ||
  fail "claim 4: no row for 003's pair"

# Every figure shown, against knightly query on the database that played its games.
python3 - "$dir/run/scratch/figures.tsv" "$dir/played" "$bin/knightly" <<'PY'
import json, re, subprocess, sys
figures, played, knightly = sys.argv[1:]
rows = [line.rstrip("\n").split("\t") for line in open(figures)]
kinds = {json.loads(r[2])[0] for r in rows}
if kinds != {"h2h", "ratings"}:
    sys.exit(f"figures.tsv: expected h2h and ratings figures, got {sorted(kinds)} in {len(rows)} rows")
def rounded(x):  # as Python's format rounds: half to even on the binary value
    return int(f"{x:.0f}")
for claim, db, args, key, shown in rows:
    args = json.loads(args)
    tournaments = [args[i + 1] for i, a in enumerate(args) if a == "--tournament"]
    if len(tournaments) != 1:
        sys.exit(f"figures.tsv: {args}: one tournament expected")
    out = subprocess.run([knightly, "query", args[0], "--db", f"{played}/{tournaments[0]}.db",
                          "--format", "json", *args[1:]], capture_output=True, text=True, check=True)
    table = json.loads(out.stdout)[args[0]]
    if args[0] == "h2h":
        a, b = key.split("|")
        row = next(r for r in table if (r["engine"], r["opponent"]) == (a, b))
        if row["elo"] is None:  # a 100% or 0% score: its one-sided bound, in the note
            m = re.search(r"([<>])=(-?[0-9.]+) at 95%", row["note"] or "")
            if not m:
                sys.exit(f"{args} {key}: no Elo and no bound from knightly query: {row}")
            words, sign = ("all won", "≥") if m.group(1) == ">" else ("all lost", "≤")
            want = f"{words}, {sign} {rounded(float(m.group(2))):+d}"
            if shown != want:
                sys.exit(f"{claim} {args} {key}: the table shows {shown}, knightly query {want}")
            continue
        want = (rounded(row["elo"]), rounded(row["elo95"]))
    else:
        row = next(r for r in table if r["engine"] == key)
        want = (rounded(row["rating"]), rounded(row["error95"]))
    got = tuple(int(x) for x in shown.replace("+", "").split(" ± "))
    if got != want:
        sys.exit(f"{claim} {args} {key}: the table shows {shown}, knightly query gives {want}")
print(f"{len(rows)} figures agree with knightly query")
PY
echo "seed_claims_table: ok"
