#!/usr/bin/env python3
# Writes sprt_vectors_anchors.json: W/L/D counts with the LLR that cutechess-cli and fastchess
# compute for them, each by a line-for-line transcription of the tool's own formula:
#   cutechess: projects/lib/src/sprt.cpp, Sprt::status() (cutechess/cutechess 5e84232b):
#     half a game of prior in each class, the draw Elo estimated from the sample, the bounds
#     (logistic Elo) turned into BayesElo by BayesElo::scale(), and the LLR of the trinomial.
#   fastchess: app/src/matchmaking/sprt/sprt.cpp, SPRT::getLLR(win, draw, loss) with
#     model "bayesian" (Disservin/fastchess 74deac23): zeros regularized to 1e-3, the draw Elo
#     from the sample, the bounds in BayesElo, the GSPRT of getLLR_logistic (0 without a win
#     or a loss). Its root is found here to full precision (fastchess's ITP stops at 1e-3).
# Run: python3 tests/data/sprt_vectors_anchors.py > tests/data/sprt_vectors_anchors.json
import json
import math


def cutechess_llr(wins, losses, draws, elo0, elo1):
    w, l, d = wins + 0.5, losses + 0.5, draws + 0.5
    n = w + l + d
    p_win, p_loss = w / n, l / n
    draw_elo = 200.0 * math.log10((1.0 - p_loss) / p_loss * (1.0 - p_win) / p_win)
    x = 10.0 ** (-draw_elo / 400.0)
    scale = 4.0 * x / ((1.0 + x) * (1.0 + x))

    def probabilities(bayes_elo):
        pw = 1.0 / (1.0 + 10.0 ** ((draw_elo - bayes_elo) / 400.0))
        pl = 1.0 / (1.0 + 10.0 ** ((draw_elo + bayes_elo) / 400.0))
        return pw, pl, 1.0 - pw - pl

    p0 = probabilities(elo0 / scale)
    p1 = probabilities(elo1 / scale)
    return (w * math.log(p1[0] / p0[0]) + l * math.log(p1[1] / p0[1]) +
            d * math.log(p1[2] / p0[2]))


def mle_expected(scores, probs, s):
    # Proposition 1.1 of Van den Bergh's "Comparing the approximations...": bisection to the end.
    lo, hi = -1.0 / (scores[-1] - s), -1.0 / (scores[0] - s)
    f = lambda t: sum(p * (a - s) / (1.0 + t * (a - s)) for a, p in zip(scores, probs))
    for _ in range(400):
        mid = (lo + hi) / 2.0
        if f(mid) > 0:
            lo = mid
        else:
            hi = mid
    theta = (lo + hi) / 2.0
    return [p / (1.0 + theta * (a - s)) for a, p in zip(scores, probs)]


def fastchess_bayesian_llr(wins, losses, draws, elo0, elo1):
    if wins == 0 or losses == 0:
        return 0.0
    reg = lambda v: 1e-3 if v == 0 else float(v)
    L, D, W = reg(losses), reg(draws), reg(wins)
    total = L + D + W
    probs = [L / total, D / total, W / total]
    draw_elo = 200.0 * math.log10((1.0 - probs[0]) / probs[0] * (1.0 - probs[2]) / probs[2])

    def score(bayes_elo):
        pw = 1.0 / (1.0 + 10.0 ** ((-bayes_elo + draw_elo) / 400.0))
        pl = 1.0 / (1.0 + 10.0 ** ((bayes_elo + draw_elo) / 400.0))
        return pw + 0.5 * (1.0 - pw - pl)

    scores = [0.0, 0.5, 1.0]
    p0 = mle_expected(scores, probs, score(elo0))
    p1 = mle_expected(scores, probs, score(elo1))
    return total * sum(p * (math.log(b) - math.log(a)) for p, a, b in zip(probs, p0, p1))


# (wins, losses, draws, elo0, elo1, alpha, beta)
CASES = [
    (120, 100, 180, 0, 5, 0.05, 0.05),  # the example: cutechess prints llr 0.449
    (0, 0, 0, 0, 5, 0.05, 0.05),
    (1, 0, 0, 0, 5, 0.05, 0.05),
    (0, 1, 0, 0, 5, 0.05, 0.05),
    (0, 0, 10, 0, 5, 0.05, 0.05),
    (10, 10, 10, 0, 5, 0.05, 0.05),
    (55, 45, 100, -3, 1, 0.05, 0.05),
    (248, 266, 166, -3, 1, 0.05, 0.05),
    (248, 266, 166, 0, 2, 0.05, 0.05),
    (300, 250, 450, 0, 5, 0.05, 0.10),
    (1000, 950, 2050, 0, 5, 0.05, 0.05),
    (1000, 1100, 1900, 0, 5, 0.05, 0.05),
    (5000, 4800, 10200, 0, 2, 0.05, 0.05),
    (7264, 6950, 17289, -1.75, 0.25, 0.05, 0.05),
    (50, 5, 45, 0, 10, 0.05, 0.05),
    (5, 50, 45, 0, 10, 0.05, 0.05),
    (30, 0, 20, 0, 5, 0.05, 0.05),
    (0, 30, 20, 0, 5, 0.05, 0.05),
    (400, 380, 1220, 0, 4, 0.05, 0.05),
    (12, 8, 0, 0, 20, 0.1, 0.1),
    (200, 210, 90, -5, 0, 0.05, 0.05),
    (321, 298, 1381, 0.5, 2.5, 0.05, 0.05),
    (2000, 1500, 500, 10, 30, 0.02, 0.02),
    (77, 63, 260, 0, 3, 0.05, 0.05),
    (150, 100, 250, -10, 10, 0.01, 0.01),
]


def bounds(alpha, beta):
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


def cutechess_line(llr, lower, upper):
    # tournament.cpp: QString("SPRT: llr %1 (%2%), lbound %3, ubound %4") with 'g' 3, 'f' 1.
    text = "SPRT: llr %.3g (%.1f%%), lbound %.3g, ubound %.3g" % (
        llr, llr / upper * 100.0, lower, upper)
    if llr >= upper:
        text += " - H1 was accepted"
    elif llr <= lower:
        text += " - H0 was accepted"
    return text


out = []
for wins, losses, draws, elo0, elo1, alpha, beta in CASES:
    lower, upper = bounds(alpha, beta)
    llr = cutechess_llr(wins, losses, draws, elo0, elo1)
    out.append({
        "wins": wins, "losses": losses, "draws": draws,
        "elo0": elo0, "elo1": elo1, "alpha": alpha, "beta": beta,
        "llr_cutechess": llr,
        "cutechess_line": cutechess_line(llr, lower, upper),
        "llr_fastchess_bayesian": fastchess_bayesian_llr(wins, losses, draws, elo0, elo1),
    })

print(json.dumps({
    "source": "sprt_vectors_anchors.py: cutechess/cutechess projects/lib/src/sprt.cpp "
              "(Sprt::status) and Disservin/fastchess app/src/matchmaking/sprt/sprt.cpp "
              "(model bayesian), transcribed",
    "cases": out,
}, indent=1))
