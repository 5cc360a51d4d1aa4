"""The Weng-Lin Plackett-Luce update written out by hand from the paper
(Weng & Lin 2011, algorithm 4, with OpenSkill's defaults: beta = sigma0/2,
tau = mu0/300 added to every sigma first, kappa = 1e-4), to check the
ratings against values not computed by the library they use."""

from __future__ import annotations

import math
from collections.abc import Sequence

MU, SIGMA = 25.0, 25.0 / 3
BETA, TAU, KAPPA = SIGMA / 2, MU / 300, 1e-4

Skill = tuple[float, float]


def plackett_luce(teams: Sequence[Sequence[Skill]], ranks: Sequence[int]) -> list[list[Skill]]:
    teams = [[(mu, math.sqrt(sigma**2 + TAU**2)) for mu, sigma in team] for team in teams]
    mus = [sum(mu for mu, _ in team) for team in teams]
    variances = [sum(sigma**2 for _, sigma in team) for team in teams]
    c = math.sqrt(sum(v + BETA**2 for v in variances))
    n = len(teams)
    sums = [sum(math.exp(mus[i] / c) for i in range(n) if ranks[i] >= ranks[q]) for q in range(n)]
    tied = [sum(1 for i in range(n) if ranks[i] == ranks[q]) for q in range(n)]
    out = []
    for i in range(n):
        omega = delta = 0.0
        for q in range(n):
            if ranks[q] > ranks[i]:
                continue
            share = math.exp(mus[i] / c) / sums[q]
            omega += ((1.0 if i == q else 0.0) - share) / tied[q]
            delta += share * (1 - share) / tied[q]
        gamma = math.sqrt(variances[i]) / c
        omega *= variances[i] / c
        delta *= gamma * variances[i] / c**2
        out.append(
            [
                (
                    mu + sigma**2 / variances[i] * omega,
                    sigma * math.sqrt(max(1 - sigma**2 / variances[i] * delta, KAPPA)),
                )
                for mu, sigma in teams[i]
            ]
        )
    return out


def shown(skill: Skill) -> int:
    return round(1000 + 40 * (skill[0] - 3 * skill[1]))
