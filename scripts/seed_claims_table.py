#!/usr/bin/env python3
"""The table of scripts/seed-claims: reads the databases and compare outputs of one run
(build/seed-claims/scale-S/) and prints docs/seed-claims.md's figures as Markdown.

Usage: seed_claims_table.py DIR SCALE

Standings come from `knightly query standings` (its Elo and 95% error); a head-to-head Elo
and its 95% interval are worked out here from the pair's wins, draws and losses by the
trinomial formula of docs/statistics.md (mu = score, se = sd / sqrt(n)), a sweep's bound from
the exact binomial; a rate's 95% interval is Wilson's."""
import math
import os
import re
import sqlite3
import subprocess
import sys

DIR, SCALE = sys.argv[1], sys.argv[2]
KNIGHTLY = os.environ["KNIGHTLY"]  # the knightly program, for `knightly query`


def elo(p):
    return -400.0 * math.log10(1.0 / p - 1.0)


def h2h_elo(w, d, l):
    """Elo of the first side and the half width of its 95% interval; None at 0% or 100%."""
    n = w + d + l
    if n == 0:
        return None
    mu = (w + 0.5 * d) / n
    if mu <= 0 or mu >= 1:
        return None
    var = (w * (1 - mu) ** 2 + d * (0.5 - mu) ** 2 + l * mu**2) / n
    se = math.sqrt(var / n)
    lo, hi = max(mu - 1.96 * se, 1e-6), min(mu + 1.96 * se, 1 - 1e-6)
    return elo(mu), (elo(hi) - elo(lo)) / 2


def fmt_elo(w, d, l):
    e = h2h_elo(w, d, l)
    if e is not None:
        return f"{e[0]:+.0f} ± {e[1]:.0f}"
    n = w + d + l
    if n == 0:
        return "n/a (no games)"
    # A sweep has no finite estimate: its bound is the score whose chance of n straight wins
    # (or losses) is 2.5% (the exact binomial bound of a two-sided 95% interval).
    bound = elo(0.025 ** (1.0 / n))
    return f"all won (≥ {bound:+.0f})" if w == n else f"all lost (≤ {-bound:+.0f})"


def performance(games):
    """Maximum-likelihood rating from (opponent rating, score) pairs under the logistic model,
    with the half width of its 95% interval from the Fisher information; None when every game
    was won or every game lost (no finite maximum)."""
    if not games or all(x == 1 for _, x in games) or all(x == 0 for _, x in games):
        return None
    expected = lambda r: [1 / (1 + 10 ** ((o - r) / 400)) for o, _ in games]
    lo, hi = -2000.0, 6000.0
    for _ in range(100):  # sum(score - expected) falls as r rises: bisect its root
        mid = (lo + hi) / 2
        if sum(x for _, x in games) - sum(expected(mid)) > 0:
            lo = mid
        else:
            hi = mid
    info = sum(p * (1 - p) for p in expected(lo)) * (math.log(10) / 400) ** 2
    return lo, 1.96 / math.sqrt(info)


def scores_against(rows, a, ratings):
    """(opponent rating, score of `a`) of every game of `a` against an engine in `ratings`."""
    out = []
    for white, black, result, *_ in rows:
        if a not in (white, black):
            continue
        opp = black if white == a else white
        if opp not in ratings:
            continue
        x = 0.5 if result == "1/2-1/2" else float((result == "1-0") == (white == a))
        out.append((ratings[opp], x))
    return out


def fmt_performance(games):
    p = performance(games)
    if p is None:
        return "n/a" if not games else ("above the ladder" if games[0][1] == 1 else "below the ladder")
    return f"{p[0]:.0f} ± {p[1]:.0f}"


def wilson(k, n):
    if n == 0:
        return (0.0, 0.0, 0.0)
    p = k / n
    z = 1.96
    c = (p + z * z / (2 * n)) / (1 + z * z / n)
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return p, max(0.0, c - h), min(1.0, c + h)


def fmt_rate(k, n):
    p, lo, hi = wilson(k, n)
    return f"{100 * p:.0f}% [{100 * lo:.0f}, {100 * hi:.0f}] ({k}/{n})"


def db_path(name):
    p = os.path.join(DIR, name + ".db")
    return p if os.path.exists(p) else None


def games(name):
    """(white, black, result, termination, reason, opening_moves, game id) of every game."""
    p = db_path(name)
    if not p:
        return []
    con = sqlite3.connect(f"file:{p}?mode=ro", uri=True)
    rows = con.execute(
        "SELECT w.name, b.name, g.result, g.termination, g.reason, g.opening_moves, g.id "
        "FROM games g JOIN engines w ON w.id = g.white_id JOIN engines b ON b.id = g.black_id "
        "ORDER BY g.schedule_index").fetchall()
    con.close()
    return rows


def pair(rows, a, b):
    """Wins, draws and losses of `a` against `b`."""
    w = d = l = 0
    for white, black, result, *_ in rows:
        if {white, black} != {a, b}:
            continue
        if result == "1/2-1/2":
            d += 1
        elif (result == "1-0") == (white == a):
            w += 1
        else:
            l += 1
    return w, d, l


def standings(name):
    p = db_path(name)
    if not p:
        return []
    out = subprocess.run([KNIGHTLY, "query", "standings", "--db", p, "--format", "csv"],
                         capture_output=True, text=True)
    lines = out.stdout.strip().splitlines()
    if out.returncode != 0 or not lines:
        return []
    head = lines[0].split(",")
    return [dict(zip(head, line.split(","))) for line in lines[1:]]


def elo_cell(elo, elo95):
    """A standings row's Elo and its 95% half-width; a 0% or 100% score has no finite Elo, and
    knightly gives its one-sided 95% bound instead (elo "-inf", elo95 "<=-28.4")."""
    if elo95[:2] in ("<=", ">="):
        lost = elo95[0] == "<"
        return f"{'≤' if lost else '≥'} {float(elo95[2:]):+.0f} (every game {'lost' if lost else 'won'})"
    return f"{float(elo):+.0f} ± {float(elo95):.0f}"


def print_standings(name):
    rows = standings(name)
    if not rows:
        print(f"*{name}: not run.*\n")
        return
    print("| engine | games | W-D-L | score | Elo ± 95% |")
    print("|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['engine']} | {r['games']} | {r['wins']}-{r['draws']}-{r['losses']} | "
              f"{r['score']}% | {elo_cell(r['elo'], r['elo95'])} |")
    print()


def compare_table(path):
    if not os.path.exists(path):
        print(f"*{os.path.basename(path)}: not run.*\n")
        return
    print("```")
    with open(path) as f:
        print(f.read().rstrip())
    print("```\n")


print(f"# Seed claims: figures of one run (scale {SCALE})\n")

# --- Claim 1 ---
print("## Claim 1: alpha-beta equals minimax at the same depth\n")
compare_table(os.path.join(DIR, "claim1-compare.txt"))

# --- Claim 2 ---
print("## Claim 2: Monte Carlo plays seemingly random chess until in check\n")
rows = games("claim2-mcts")
if rows:
    print("| MCTS against | W-D-L | Elo of MCTS ± 95% |")
    print("|---|---|---|")
    for opp in ["random", "greedy", "alphabeta-d2"]:
        w, d, l = pair(rows, "mcts", opp)
        print(f"| {opp} | {w}-{d}-{l} | {fmt_elo(w, d, l)} |")
    print()
    # The moves each engine chose, split by whether it was in check (the move before gave
    # check): how often it captured and how often it moved its king.
    con = sqlite3.connect(f"file:{db_path('claim2-mcts')}?mode=ro", uri=True)
    stats = {}
    for gid, white, black, opening in con.execute(
            "SELECT g.id, w.name, b.name, g.opening_moves FROM games g "
            "JOIN engines w ON w.id = g.white_id JOIN engines b ON b.id = g.black_id"):
        book = len(opening.split()) if opening else 0
        prev = ""
        for ply, san in con.execute("SELECT ply, san FROM moves WHERE game_id = ? ORDER BY ply",
                                    (gid,)):
            if ply > book:
                who = white if ply % 2 == 1 else black
                check = prev.endswith("+") or prev.endswith("#")
                s = stats.setdefault((who, check), [0, 0, 0])
                s[0] += 1
                s[1] += "x" in san
                s[2] += san.startswith("K") or san.startswith("O-O")
            prev = san
    con.close()
    print("| engine | position | moves | captures | king moves |")
    print("|---|---|---|---|---|")
    for who in ["mcts", "random"]:
        for check in [False, True]:
            n, x, k = stats.get((who, check), [0, 0, 0])
            print(f"| {who} | {'in check' if check else 'not in check'} | {n} | "
                  f"{fmt_rate(x, n)} | {fmt_rate(k, n)} |")
    print()
else:
    print("*claim2-mcts: not run.*\n")

# --- Claim 3 ---
print("## Claim 3: equal deterministic AIs draw by repetition unless randomized\n")
print("| variant | games | repetition draws (95%) | decisive | distinct games |")
print("|---|---|---|---|---|")
for v in ["deterministic", "shuffle", "noise", "randomplies", "book"]:
    name = "claim3-" + v
    rows = games(name)
    if not rows:
        print(f"| {v} | not run | | | |")
        continue
    n = len(rows)
    rep = sum(1 for r in rows if "repetition" in (r[3] + " " + r[4]).lower())
    decisive = sum(1 for r in rows if r[2] != "1/2-1/2")
    con = sqlite3.connect(f"file:{db_path(name)}?mode=ro", uri=True)
    distinct = len({tuple(m for (m,) in con.execute(
        "SELECT uci FROM moves WHERE game_id = ? ORDER BY ply", (r[6],))) for r in rows})
    con.close()
    print(f"| {v} | {n} | {fmt_rate(rep, n)} | {fmt_rate(decisive, n)} | {distinct} |")
print()

# --- Claim 4 ---
print("## Claim 4: piece-square tables over material; tension and mobility\n")
terms = ["material+pst", "material+pst+tension", "material+pst+mobility"]
for mode in ["depth", "time"]:
    name = "claim4-eval-" + mode
    rows = games(name)
    print(f"### at equal {mode}\n")
    if not rows:
        print(f"*{name}: not run.*\n")
        continue
    print("| pair | W-D-L | Elo of the first ± 95% |")
    print("|---|---|---|")
    for a, b in [("material+pst", "material"), ("material+pst+tension", "material+pst"),
                 ("material+pst+mobility", "material+pst")]:
        w, d, l = pair(rows, "ab-Eval=" + a, "ab-Eval=" + b)
        print(f"| {a} vs {b} | {w}-{d}-{l} | {fmt_elo(w, d, l)} |")
    print()
    print_standings(name)

# --- Claim 5 ---
print("## Claim 5: each extra ply is a stronger level\n")
for mode in ["fixed", "time"]:
    name = "claim5-depth-" + mode
    rows = games(name)
    print(f"### {'at fixed depth' if mode == 'fixed' else 'at equal time (20 ms per move)'}\n")
    if not rows:
        print(f"*{name}: not run.*\n")
        continue
    print("| pair | W-D-L | Elo of the deeper ± 95% |")
    print("|---|---|---|")
    for d in range(1, 6):
        w, dr, l = pair(rows, f"ab-depth{d + 1}", f"ab-depth{d}")
        print(f"| depth {d + 1} vs {d} | {w}-{dr}-{l} | {fmt_elo(w, dr, l)} |")
    print()
    print_standings(name)

# --- Claim 6 ---
print("## Claim 6: the seed AIs and knightly-engine against Stockfish's UCI_Elo\n")
rows = games("claim6-seeds-vs-stockfish")
if rows:
    levels = [1350, 1500, 1800]
    seeds = sorted({r[0] for r in rows} | {r[1] for r in rows})
    seeds = [s for s in seeds if not s.startswith("stockfish")]
    ratings = {f"stockfish-UCI_Elo={x}": x for x in levels}
    print("| seed AI | " + " | ".join(f"vs UCI_Elo {x}: W-D-L" for x in levels) +
          " | all three: W-D-L, score | performance (UCI_Elo) ± 95% |")
    print("|---|" + "---|" * (len(levels) + 2))
    pooled = {x: [0, 0, 0] for x in levels}
    for s in seeds:
        cells, total = [], [0, 0, 0]
        for x in levels:
            wdl = pair(rows, s, f"stockfish-UCI_Elo={x}")
            cells.append("{}-{}-{}".format(*wdl))
            for i in range(3):
                total[i] += wdl[i]
                pooled[x][i] += wdl[i]
        n = sum(total)
        cells.append("{}-{}-{}, {:.0f}%".format(*total, 100 * (total[0] + total[1] / 2) / n))
        cells.append(fmt_performance(scores_against(rows, s, ratings)))
        print(f"| {s} | " + " | ".join(cells) + " |")
    print("| **all seed AIs** | " +
          " | ".join("{}-{}-{}, {}".format(*pooled[x], fmt_elo(*pooled[x])) for x in levels) +
          " | | |")
    print()
else:
    print("*claim6-seeds-vs-stockfish: not run.*\n")
rows = games("claim6-strongest-vs-stockfish")
if rows:
    print("| knightly-engine against | W-D-L | score | Elo diff ± 95% |")
    print("|---|---|---|---|")
    ladder = [1350, 1600, 1800, 2000, 2200, 2400, 2600, 2850]
    for x in ladder:
        w, d, l = pair(rows, "knightly-engine", f"stockfish-UCI_Elo={x}")
        n = w + d + l
        score = f"{100 * (w + d / 2) / n:.0f}%" if n else ""
        print(f"| UCI_Elo {x} | {w}-{d}-{l} | {score} | {fmt_elo(w, d, l)} |")
    games_ = scores_against(rows, "knightly-engine",
                            {f"stockfish-UCI_Elo={x}": x for x in ladder})
    print(f"\nPlaced on the ladder (performance rating over all {len(games_)} games, maximum "
          f"likelihood): **{fmt_performance(games_)}** UCI_Elo at 4+0.04.\n")
else:
    print("*claim6-strongest-vs-stockfish: not run.*\n")

# --- Claim 7 ---
print("## Claim 7: the seeds' timings on this machine\n")
compare_table(os.path.join(DIR, "claim7-timings.txt"))
