#!/usr/bin/env python3
"""The figures of docs/seed-claims.md, from the published files of one run alone.

Usage: seed_claims_table.py GAMES_DIR SCRATCH_DIR > table.md
       seed_claims_table.py --splice DOC TABLE   (DOC's figures become TABLE)
       seed_claims_table.py --check DOC TABLE    (exit 1 unless DOC's figures are TABLE)

GAMES_DIR holds what scripts/seed-claims publishes: NAME.pgn.gz (`knightly export` of each
tournament), claim1-compare.txt and claim7-timings.txt, runs.tsv and load.tsv. Each claim's games
are imported (`knightly import`, one tournament per file) into a scratch database in SCRATCH_DIR,
and every Elo, interval and rating shown is `knightly query ... --format json`'s: `h2h` (from the
game pairs, pentanomial, when every game is in one; a 100% or 0% score as its one-sided bound) and
`ratings` (maximum likelihood). Nothing here computes an Elo. What is counted here: moves in and
out of check (claim 2), distinct games and how they ended (claim 3), the depth and time the
engines reported in their PGN comments (claims 4 and 5), and a rate's Wilson interval.

Also written: SCRATCH_DIR/figures.tsv, every Elo and rating shown with the query it came from
(tests/integration/seed_claims checks each against knightly query), and SCRATCH_DIR/charts.json,
what scripts/seed_claims_charts.js draws. KNIGHTLY (the environment) is the knightly program."""
import gzip
import json
import math
import os
import re
import subprocess
import sys
from collections import Counter, defaultdict

BEGIN, END = "<!-- figures: begin -->\n", "<!-- figures: end -->"


def spliced(doc_text, table_text):
    """docs/seed-claims.md with its figures (between the two markers) replaced by a table: the
    table's title goes, its headings one level down under the document's own heading."""
    a, b = doc_text.index(BEGIN) + len(BEGIN), doc_text.index(END)
    body = re.sub(r"^(#+) ", r"#\1 ", table_text.split("\n", 1)[1].lstrip("\n"), flags=re.M)
    return doc_text[:a] + "\n" + body.rstrip("\n") + "\n\n" + doc_text[b:]


if len(sys.argv) == 4 and sys.argv[1] in ("--splice", "--check"):
    # --splice DOC TABLE: write TABLE into DOC's figures. --check DOC TABLE: exit 1 (with the
    # first differing line) unless DOC's figures are TABLE's.
    doc, table_path = sys.argv[2], sys.argv[3]
    text = open(doc).read()
    want = spliced(text, open(table_path).read())
    if sys.argv[1] == "--splice":
        open(doc, "w").write(want)
        sys.exit(0)
    if text != want:
        for n, (x, y) in enumerate(zip(text.splitlines() + [""], want.splitlines() + [""]), 1):
            if x != y:
                sys.exit(f"{doc}:{n}: the document says\n  {x}\nthe published games give\n  {y}")
    sys.exit(0)
if len(sys.argv) != 3:
    sys.exit("usage: seed_claims_table.py GAMES_DIR SCRATCH_DIR > table.md\n"
             "       seed_claims_table.py --splice|--check DOC TABLE")
GAMES, SCRATCH = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
if not os.path.isdir(GAMES):
    sys.exit(f"seed_claims_table: {GAMES}: no such directory (the published games)")
KNIGHTLY = os.environ.get("KNIGHTLY", "knightly")
FIGURES = []  # (claim, db, query arguments, row key, shown text)
CHARTS = []


def die(message):
    sys.exit(f"seed_claims_table: {message}")


# --- knightly ------------------------------------------------------------------------------------

def knightly(*args):
    r = subprocess.run([KNIGHTLY, *args], capture_output=True, text=True)
    if r.returncode != 0:
        die(f"knightly {' '.join(args)}: exit {r.returncode}: {r.stderr.strip()}")
    return r


def query(db, kind, *args):
    """The rows of `knightly query KIND --db DB ARGS --format json`."""
    return json.loads(knightly("query", kind, "--db", db, "--format", "json", *args).stdout)[kind]


def published(name):
    return os.path.join(GAMES, name + ".pgn.gz")


def scratch_db(group, names):
    """A scratch database holding each published tournament of `names` that exists, imported
    from its PGN as a tournament of the same name. None when none was published."""
    names = [n for n in names if os.path.exists(published(n))]
    if not names:
        return None, []
    db = os.path.join(SCRATCH, group + ".db")
    for n in names:
        pgn = os.path.join(SCRATCH, n + ".pgn")
        with gzip.open(published(n), "rb") as src, open(pgn, "wb") as dst:
            dst.write(src.read())
        out = knightly("import", pgn, "--db", db, "--tournament", n).stdout
        m = re.match(r"Imported (\d+) of (\d+) games", out)
        if not m or m.group(1) != m.group(2):
            die(f"{published(n)}: not every game imported: {out.strip()}")
    return db, names


# --- PGN (Knightly's own export: tags, then moves with `{score/depth time}` comments) ----------

def pgn_games(name):
    """Each game of a published file: tags, SAN moves and the comment after each move."""
    with gzip.open(published(name), "rt") as f:
        text = f.read()
    games = []
    for block in re.split(r"\n\n(?=\[Event )", text.strip()):
        tags = dict(re.findall(r'^\[(\w+) "(.*)"\]$', block, re.M))
        body = "\n".join(line for line in block.splitlines() if not line.startswith("["))
        sans, comments = [], []
        for tok in re.findall(r"\{[^}]*\}|[^\s{}]+", body):
            if tok.startswith("{"):
                if sans:
                    comments[-1] = tok[1:-1].replace("\n", " ")
            elif re.fullmatch(r"\d+\.(\.\.)?|1-0|0-1|1/2-1/2|\*", tok):
                continue
            else:
                sans.append(tok)
                comments.append("")
        games.append({"tags": tags, "sans": sans, "comments": comments})
    return games


def mover(game, i):
    """Who played move i (0-based) of a game."""
    fen = game["tags"].get("FEN", "")
    black_first = len(fen.split()) > 1 and fen.split()[1] == "b"
    return game["tags"]["Black" if (i % 2 == 0) == black_first else "White"]


def engine_depths(name):
    """Per engine: its moves' reported depths and times (ms), from `{score/depth time}`."""
    out = defaultdict(lambda: ([], []))
    for g in pgn_games(name):
        for i, c in enumerate(g["comments"]):
            m = re.match(r"[-+]?(?:M?\d+(?:\.\d+)?)/(\d+) (\d+(?:\.\d+)?)s", c)
            if m:
                depths, times = out[mover(g, i)]
                depths.append(int(m.group(1)))
                times.append(1000 * float(m.group(2)))
    return out


# --- Figures -------------------------------------------------------------------------------------

def elo_text(row):
    """A query row's Elo and 95% interval; at a 100% or 0% score its one-sided bound."""
    if row["elo"] is None:
        m = re.search(r"([<>])=(-?[0-9.]+) at 95%", row["note"] or "")
        if not m:
            die(f"no Elo and no bound in {row}")
        bound = float(m.group(2))
        return f"all won, ≥ {bound:+.0f}" if m.group(1) == ">" else f"all lost, ≤ {bound:+.0f}"
    return f"{row['elo']:+.0f} ± {row['elo95']:.0f}"


def rating_text(row, signed=True):
    if row.get("error95") is None:
        return f"{row['rating']:{'+' if signed else ''}.0f}"
    return f"{row['rating']:{'+' if signed else ''}.0f} ± {row['error95']:.0f}"


def wdl(row):
    return f"{row['wins']}-{row['draws']}-{row['losses']}"


def pairs_text(row):
    if row["model"] != "pentanomial":
        return "not paired"
    return f"{row['ll']}-{row['ld']}-{row['wl_dd']}-{row['wd']}-{row['ww']}"


class H2h:
    """`knightly query h2h` of some tournaments of a scratch database, by (engine, opponent)."""

    def __init__(self, claim, db, tournaments, merge=False):
        self.claim, self.db = claim, db
        self.args = [a for t in tournaments for a in ("--tournament", t)]
        if merge:
            self.args.append("--merge-by-name")
        self.rows = {(r["engine"], r["opponent"]): r for r in query(db, "h2h", *self.args)}

    def get(self, a, b):
        return self.rows.get((a, b))

    def elo(self, a, b):
        """The Elo cell of a against b, recorded in figures.tsv; '' without games."""
        r = self.get(a, b)
        if r is None:
            return ""
        text = elo_text(r)
        FIGURES.append((self.claim, self.db, ["h2h", *self.args], f"{a}|{b}", text))
        return text


class Ratings:
    def __init__(self, claim, db, tournaments, *extra):
        self.claim, self.db = claim, db
        self.args = [a for t in tournaments for a in ("--tournament", t)] + list(extra)
        self.rows = {r["engine"]: r for r in query(db, "ratings", *self.args)}

    def text(self, engine, signed=True):
        r = self.rows.get(engine)
        if r is None:
            return ""
        text = rating_text(r, signed)
        FIGURES.append((self.claim, self.db, ["ratings", *self.args], engine, text))
        return text


def wilson(k, n):
    """A rate k/n with its Wilson 95% interval, in percent."""
    if n == 0:
        return "-"
    z, p = 1.959963984540054, k / n
    c = (p + z * z / (2 * n)) / (1 + z * z / n)
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return f"{100 * p:.0f}% [{100 * max(0, c - h):.0f}, {100 * min(1, c + h):.0f}] ({k}/{n})"


def mean(xs):
    return sum(xs) / len(xs) if xs else float("nan")


def not_published(*names):
    print(f"*Not published: {', '.join(names)}.*\n")


def table(head, rows):
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for r in rows:
        print("| " + " | ".join(str(c) for c in r) + " |")
    print()


def compare_text(name):
    path = os.path.join(GAMES, name)
    if not os.path.exists(path):
        not_published(name)
        return
    print("```")
    print(open(path).read().rstrip())
    print("```\n")


def chart(db, tournaments, kind, png):
    CHARTS.append({"db": db, "tournaments": tournaments, "chart": kind, "png": png})


# --- The run -------------------------------------------------------------------------------------

def read_tsv(name):
    path = os.path.join(GAMES, name)
    if not os.path.exists(path):
        return []
    with open(path) as f:
        lines = [line.rstrip("\n").split("\t") for line in f if line.strip()]
    return [dict(zip(lines[0], line)) for line in lines[1:]] if name == "runs.tsv" else lines


RUNS = read_tsv("runs.tsv")
LOAD = [(t, float(a)) for t, a, *_ in read_tsv("load.tsv")]


def load_during(name):
    """The 1-minute load average sampled while `name` played (every invocation that played it)."""
    spans = [(r["started"], r["finished"]) for r in RUNS if r["what"] == name]
    xs = [a for t, a in LOAD if any(s <= t <= f for s, f in spans)]
    xs += [float(r[k].split()[0]) for r in RUNS if r["what"] == name for k in ("load_start", "load_end")]
    return xs


def run_section(dbs):
    print("## The run\n")
    if not RUNS:
        print("*No runs.tsv: who played these games is not recorded.*\n")
        return
    keys = ("commit", "build", "stockfish", "scale", "nice", "cpus")
    setups = Counter(tuple(r[k] for k in keys) for r in RUNS)
    for setup, n in setups.items():
        s = dict(zip(keys, setup))
        # runs.tsv's `played`: the games an invocation played ('-' for a compare run).
        games = sum(int(r["played"]) for r in RUNS if tuple(r[k] for k in keys) == setup and
                    r.get("played", "-").isdigit())
        counted = f" ({games} games)" if "played" in RUNS[0] else ""
        print(f"- {n} of {len(RUNS)} parts{counted} played by commit {s['commit']} "
              f"({s['build']}, {s['stockfish']}), scale {s['scale']}, nice {s['nice']}, on "
              f"{s['cpus']} CPUs")
    print(f"- from {min(r['started'] for r in RUNS)} to {max(r['finished'] for r in RUNS)} (UTC)\n")
    rows = []
    for name, db in dbs:
        games = query(db, "games", "--tournament", name)
        lost = [g for g in games if g["termination"] == "time forfeit"]
        losers = Counter(g["black"] if g["result"] == "1-0" else g["white"] for g in lost)
        xs = load_during(name)
        when = sorted((r["started"], r["finished"]) for r in RUNS if r["what"] == name)
        span = f"{when[0][0][11:16]}-{when[-1][1][11:16]}" if when else "?"
        rows.append([name, len(games), span, f"{mean(xs):.1f}" if xs else "?",
                     f"{max(xs):.1f}" if xs else "?", len(lost),
                     ", ".join(f"{e} {n}" for e, n in sorted(losers.items())) or "-"])
    table(["tournament", "games", "played (UTC)", "load, mean", "load, max", "time losses",
           "lost on time"], rows)


# --- The claims ----------------------------------------------------------------------------------

def claim1():
    print("## Claim 1: alpha-beta equals minimax at the same depth\n")
    compare_text("claim1-compare.txt")


def claim2():
    print("## Claim 2: Monte Carlo plays seemingly random chess until in check\n")
    db, names = scratch_db("claim2", ["claim2-mcts"])
    if not db:
        return not_published("claim2-mcts")
    h = H2h(2, db, names)
    mcts = sorted({a for a, _ in h.rows if a.startswith("mcts")}, key=lambda x: int(x.split("nodes")[-1]))
    rows = []
    for m in mcts:
        for opp in ["random", "greedy", "alphabeta-d2"]:
            r = h.get(m, opp)
            if r:
                rows.append([m, opp, wdl(r), pairs_text(r), h.elo(m, opp)])
    table(["MCTS", "against", "W-D-L", "pairs LL-LD-WL/DD-WD-WW", "Elo of MCTS ± 95%"], rows)
    ratings = Ratings(2, db, names)
    table(["engine", "rating ± 95% (0 = the mean)", "games", "score"],
          [[e, ratings.text(e), r["games"], f"{r['score']:.1f}%"] for e, r in ratings.rows.items()])
    chart(db, names, "chart-ratings", "claim2-mcts-ratings.png")
    # Each engine's moves (after a game's first, whose check the movetext does not show), split
    # by whether it was in check: how often it captured and how often it moved its king.
    stats = defaultdict(lambda: [0, 0, 0])
    for g in pgn_games("claim2-mcts"):
        for i in range(1, len(g["sans"])):
            check = g["sans"][i - 1][-1] in "+#"
            s = stats[(mover(g, i), check)]
            san = g["sans"][i]
            s[0] += 1
            s[1] += "x" in san
            s[2] += san[0] == "K" or san.startswith("O-O")
    rows = []
    for who in mcts + ["random"]:
        for check in [False, True]:
            n, x, k = stats[(who, check)]
            rows.append([who, "in check" if check else "not in check", n, wilson(x, n), wilson(k, n)])
    table(["engine", "position", "moves", "captures", "king moves"], rows)


CLAIM3 = [  # tournament, what it is
    ("claim3-deterministic", "the seed's: no randomness (002)"),
    ("claim3-pst", "variant: no randomness, material + piece-square tables"),
    ("claim3-noise", "002's randomness: evaluation noise ±10 cp"),
    ("claim3-shuffle", "003's randomness: shuffled move lists"),
    ("claim3-book", "variant of 004's book: a random book move"),
    ("claim3-randomplies", "a runner's randomness: 8 random opening plies"),
]


def claim3():
    print("## Claim 3: equal deterministic AIs draw by repetition unless randomized\n")
    db, names = scratch_db("claim3", [n for n, _ in CLAIM3])
    if not db:
        return not_published(*[n for n, _ in CLAIM3])
    # Each game's ending (query games, in file order: the import keeps it) with its moves.
    ended = {}
    for n in names:
        rows = sorted(query(db, "games", "--tournament", n), key=lambda g: g["id"])
        games = pgn_games(n)
        if len(rows) != len(games):
            die(f"{n}: {len(rows)} games imported, {len(games)} in the file")
        for r, g in zip(rows, games):
            if (r["white"], r["black"]) != (g["tags"]["White"], g["tags"]["Black"]):
                die(f"{n}: game {r['id']} is not the file's game")
        ended[n] = [(r, (g["tags"].get("FEN", ""), tuple(g["sans"]))) for r, g in zip(rows, games)]
        terms = {t["termination"]: t["count"] for t in query(db, "terminations", "--tournament", n)}
        if sum(1 for r, _ in ended[n] if r["termination"] == "repetition") != terms.get("repetition", 0):
            die(f"{n}: repetitions counted here differ from query terminations")

    def ending(r):
        short = {"repetition": "repetition", "checkmate": "mate", "max moves": "move limit"}
        return f"{r['result']} {short.get(r['termination'], r['termination'])}, {r['plies']} plies"

    if "claim3-deterministic" in ended:
        # Every depth of one copy against every depth of the other: the game with each colour.
        by = {(r["white"], r["black"]): r for r, _ in ended["claim3-deterministic"]}
        for w, b in by:
            if not re.fullmatch(r"abai(-copy)?-depth\d+", w) or not re.fullmatch(r"abai(-copy)?-depth\d+", b):
                die(f"{published('claim3-deterministic')}: {w} against {b}: not the depth ladders "
                    "of configs/experiments/claim3-deterministic.toml (abai-depthN, abai-copy-depthN)")
        depths = sorted({int(w.rsplit("depth", 1)[1]) for w, _ in by})
        print("The seed's own pair, nothing random, from the initial position: how the game "
              "between two copies of ABAI ended (White's depth down, Black's across).\n")
        rows = []
        for dw in depths:
            cells = []
            for db_ in depths:
                r = by.get((f"abai-depth{dw}", f"abai-copy-depth{db_}")) or \
                    by.get((f"abai-copy-depth{dw}", f"abai-depth{db_}"))
                cells.append(ending(r) if r else "")
            rows.append([f"depth {dw}"] + cells)
        table(["White \\ Black"] + [f"depth {d}" for d in depths], rows)

    rows = []
    for n, what in CLAIM3:
        if n not in ended:
            rows.append([what, "not published", "", "", "", ""])
            continue
        games = ended[n]
        if n == "claim3-deterministic":  # the same depth only, as the seed's sentence has it
            games = [(r, k) for r, k in games if r["white"].rsplit("depth", 1)[1] ==
                     r["black"].rsplit("depth", 1)[1]]
        distinct = {}
        for r, key in games:
            distinct.setdefault(key, r)
        rep = sum(1 for r, _ in games if r["termination"] == "repetition")
        rep_d = sum(1 for r in distinct.values() if r["termination"] == "repetition")
        others = Counter(r["termination"] for r, _ in games if r["termination"] != "repetition")
        rows.append([what, len(games), len(distinct), f"{rep} of {len(games)}",
                     wilson(rep_d, len(distinct)),
                     ", ".join(f"{t} {c}" for t, c in others.most_common())])
    print("Repetition draws between equal configurations (same depth), each variant beside the "
          "seed's. A deterministic pair plays the same game again and again: the interval is over "
          "the distinct games.\n")
    table(["variant", "games", "distinct games", "repetition draws", "of the distinct games (95%)",
           "other endings"], rows)
    for n in ("claim3-noise", "claim3-shuffle"):
        if n in names:
            chart(db, [n], "chart-terminations", f"{n}-terminations.png")


def claim4():
    print("## Claim 4: evaluation terms against material alone\n")
    db, names = scratch_db("claim4", ["claim4-pst", "claim4-eval-depth", "claim4-eval-time"])
    if not db:
        return not_published("claim4-pst", "claim4-eval-depth", "claim4-eval-time")
    print("### 003: the HardAI (piece-square tables) over the NormalAI, depth 3\n")
    if "claim4-pst" in names:
        h = H2h(4, db, ["claim4-pst"])
        r = h.get("schmitz-hard", "schmitz-normal")
        table(["pair", "W-D-L", "pairs LL-LD-WL/DD-WD-WW", "Elo of the first ± 95%"],
              [["schmitz-hard vs schmitz-normal", wdl(r), pairs_text(r),
                h.elo("schmitz-hard", "schmitz-normal")]])
    else:
        not_published("claim4-pst")
    for n, title in [("claim4-eval-time", "004: each term against material at equal time (20 ms "
                                          "per move, no depth cap)"),
                     ("claim4-eval-depth", "control: the same at equal depth (3)")]:
        print(f"### {title}\n")
        if n not in names:
            not_published(n)
            continue
        h = H2h(4, db, [n])
        depth = engine_depths(n)
        rows = []
        for term in ["tension", "pst", "mobility"]:
            a, b = f"ghess-Eval=material+{term}", "ghess-Eval=material"
            r = h.get(a, b)
            if not r:
                continue
            rows.append([f"material+{term} vs material", wdl(r), pairs_text(r), h.elo(a, b),
                         f"{mean(depth[a][0]):.2f} vs {mean(depth[b][0]):.2f}"])
        table(["pair", "W-D-L", "pairs LL-LD-WL/DD-WD-WW", "Elo of the first ± 95%",
               "mean depth reached"], rows)
        chart(db, [n], "chart-ratings", f"{n}-ratings.png")


def claim5():
    print("## Claim 5: each extra ply is a stronger level\n")
    db, names = scratch_db("claim5", ["claim5-depth-fixed", "claim5-time-ladder"])
    if not db:
        return not_published("claim5-depth-fixed", "claim5-time-ladder")
    for n, title, key in [
            ("claim5-depth-fixed", "004's levels at fixed depth (easy 3, medium 4, hard 5; depths 1, 2 "
             "and 6 around them)", "depth"),
            ("claim5-time-ladder", "variant: a time ladder, no depth cap", "st")]:
        print(f"### {title}\n")
        if n not in names:
            not_published(n)
            continue
        h = H2h(5, db, [n])
        ratings = Ratings(5, db, [n])
        engines = sorted(ratings.rows, key=lambda e: float(e.rsplit(key, 1)[1]))
        depth = engine_depths(n)
        rows = []
        for i, e in enumerate(engines):
            below = engines[i - 1] if i else None
            r = h.get(e, below) if below else None
            rows.append([e, ratings.text(e), f"{mean(depth[e][0]):.2f}", f"{mean(depth[e][1]):.1f}",
                         f"{wdl(r)}, {pairs_text(r)}" if r else "", h.elo(e, below) if r else ""])
        table(["engine", "rating ± 95% (0 = the mean)", "mean depth", "mean ms per move",
               "vs the rung below: W-D-L, pairs", "Elo vs the rung below ± 95%"], rows)
        chart(db, [n], "chart-ratings", f"{n}-ratings.png")


def claim6():
    print("## Claim 6: the seed AIs and knightly-engine on Stockfish's calibrated UCI_Elo ladder\n")
    files = sorted(f[:-7] for f in os.listdir(GAMES) if f.startswith("claim6-") and f.endswith(".pgn.gz"))
    db, names = scratch_db("claim6", files)
    if not db:
        return not_published("claim6-*")
    anchor = "stockfish-UCI_Elo=1350"
    # Every claim-6 game in one maximum-likelihood rating, the lowest level at its label.
    ratings = Ratings(6, db, names, "--merge-by-name", "--anchor", anchor, "--anchor-rating", "1350")
    h = H2h(6, db, names, merge=True)
    levels = sorted((e for e in ratings.rows if e.startswith("stockfish-UCI_Elo=")),
                    key=lambda e: int(e.split("=")[1]))
    print(f"Ratings: every claim-6 game, maximum likelihood, {anchor} fixed at 1350.\n")
    for n in ("claim6-seeds", "claim6-strongest-vs-stockfish"):
        if n not in names:
            not_published(n)
    print("### The ladder, calibrated at 4+0.04\n")
    rows = []
    for i, e in enumerate(levels):
        label = int(e.split("=")[1])
        below = levels[i - 1] if i else None
        r = h.get(e, below) if below else None
        rows.append([label, "1350 (fixed)" if e == anchor else ratings.text(e, signed=False),
                     ratings.rows[e]["games"],
                     f"{wdl(r)}, {pairs_text(r)}" if r else "",
                     h.elo(e, below) if r else "",
                     f"+{label - int(below.split('=')[1])}" if below else ""])
    table(["UCI_Elo label", "rating here ± 95%", "games", "vs the level below: W-D-L, pairs",
           "Elo vs the level below ± 95%", "the labels' difference"], rows)
    print("### The seed AIs\n")
    low = [lv for lv in levels if int(lv.split("=")[1]) <= 1650]
    seeds = sorted((e for e in ratings.rows if e not in levels and e != "knightly-engine"),
                   key=lambda e: -ratings.rows[e]["rating"])
    rows = []
    for s in seeds:
        r = ratings.rows[s]
        cells = [wdl(h.get(s, lv)) if h.get(s, lv) else "" for lv in low]
        within = r.get("error95") is not None and r["error95"] <= 100
        rows.append([s, ratings.text(s, signed=False), "yes" if within else "**no**", r["games"],
                     f"{r['score']:.1f}%"] + cells)
    table(["seed AI", "rating ± 95%", "within ±100", "games", "score"] +
          [f"vs {lv.split('=')[1]}: W-D-L" for lv in low], rows)
    print("### knightly-engine\n")
    k = "knightly-engine"
    if k in ratings.rows:
        rows = [[lv.split("=")[1], wdl(h.get(k, lv)), pairs_text(h.get(k, lv)), h.elo(k, lv)]
                for lv in levels if h.get(k, lv)]
        table(["against UCI_Elo", "W-D-L", "pairs LL-LD-WL/DD-WD-WW", "Elo of knightly-engine ± 95%"],
              rows)
        print(f"Placed on the calibrated ladder: **{ratings.text(k, signed=False)}** "
              f"({ratings.rows[k]['games']} games).\n")
    # The chart is knightly report's (every claim-6 game, 0 at the mean): an imported game keeps
    # each side's time control (WhiteTimeControl/BlackTimeControl), so a Stockfish level is one
    # engine whether it played the seed AIs, another level or knightly-engine.
    chart(db, names, "chart-ratings", "claim6-ratings.png")


def claim7():
    print("## Claim 7: the seeds' timings on this machine\n")
    compare_text("claim7-timings.txt")


os.makedirs(SCRATCH, exist_ok=True)
print("# Seed claims: the figures of one run\n")
print("From the published games alone (`scripts/seed-claims table`): each tournament's PGN "
      "imported into a scratch database, every Elo, interval and rating from `knightly query`. "
      "Pairs are counted LL-LD-WL/DD-WD-WW from the first engine's side.\n")
claim1()
claim2()
claim3()
claim4()
claim5()
claim6()
claim7()
every = sorted(f[:-7] for f in os.listdir(GAMES) if f.endswith(".pgn.gz"))
dbs = []
for n in every:
    group = "claim6" if n.startswith("claim6-") else n.split("-")[0]
    dbs.append((n, os.path.join(SCRATCH, group + ".db")))
run_section([(n, d) for n, d in dbs if os.path.exists(d)])

with open(os.path.join(SCRATCH, "figures.tsv"), "w") as f:
    for claim, db, args, key, text in FIGURES:
        f.write(f"{claim}\t{os.path.basename(db)}\t{json.dumps(args)}\t{key}\t{text}\n")
with open(os.path.join(SCRATCH, "charts.json"), "w") as f:
    json.dump(CHARTS, f, indent=1)
