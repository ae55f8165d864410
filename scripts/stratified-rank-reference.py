#!/usr/bin/env python3
"""Reference values for RankShift (van Elteren's stratified rank test) on strata of unequal sizes.

    python3 scripts/stratified-rank-reference.py

Computed independently of the Swift code, by brute force and exact fractions (standard library
only): the null distribution of T = sum over strata of k_s * U_s by enumerating every split of
each stratum's values into base and head (no recursion, no convolution table), U_s counting the
pairs where head beats base (a tie counts one half). What is taken from RankShift's documented
contract rather than derived: the stratum weights k_s = max(1, round-half-up(4 (N_max + 1) / (N_s + 1))),
the two-sided p-value P(|T - E| >= |t - E|), the Hodges-Lehmann estimate as the shift where T
crosses its null mean E (the midpoint when T equals E between two differences), and Moses'
interval from the tie-free null distribution: c the largest c >= 1 with P(T < c) <= (1 - 0.95) / 2,
the ends the differences at which the weight counted from either end reaches c.
With scipy present, each stratum's enumeration is checked against scipy.stats.mannwhitneyu.
ChatEvalCoreTests (StatisticsTests) holds the numbers this prints.
"""

import itertools
import math
from fractions import Fraction

CASES = {
    # Three strata of 7, 4 and 9 values (weights 5, 8, 4), no ties: the exact tie-free path.
    "untied": [
        ([0.11, 0.14, 0.12], [0.16, 0.13, 0.19, 0.15]),
        ([1.02, 0.98], [1.10, 1.05]),
        ([2.3, 2.1, 2.6, 2.2, 2.4], [2.5, 2.7, 2.35, 2.45]),
    ],
    # The same sizes with ties within and across the sides: the exact tied path.
    "tied": [
        ([3.0, 4.0, 4.0], [4.0, 5.0, 6.0, 5.0]),
        ([7.0, 8.0], [8.0, 9.0]),
        ([1.0, 2.0, 2.0, 3.0, 1.0], [2.0, 3.0, 3.0, 4.0]),
    ],
}
CONFIDENCE = 0.95


def weights(sizes):
    largest = max(sizes)
    if len(set(sizes)) == 1:
        return [1] * len(sizes)
    return [max(1, math.floor(4 * (largest + 1) / (size + 1) + 0.5)) for size in sizes]


def doubled_u(base, head):
    """2 U: pairs where head beats base count 2, ties 1."""
    return sum(2 if y > x else 1 if y == x else 0 for y in head for x in base)


def stratum_distribution(values, n):
    """Counts of 2U over every choice of which n of the values are the base side."""
    counts = {}
    for chosen in itertools.combinations(range(len(values)), n):
        base = [values[i] for i in chosen]
        head = [values[i] for i in range(len(values)) if i not in chosen]
        u2 = doubled_u(base, head)
        counts[u2] = counts.get(u2, 0) + 1
    total = sum(counts.values())
    return {u2: Fraction(count, total) for u2, count in counts.items()}


def combined(distributions, ks):
    """The distribution of sum k_s * 2U_s, strata independent."""
    result = {0: Fraction(1)}
    for distribution, k in zip(distributions, ks):
        following = {}
        for x, p in result.items():
            for y, q in distribution.items():
                following[x + k * y] = following.get(x + k * y, 0) + p * q
        result = following
    return result


def cross_check_with_scipy(base, head):
    try:
        from scipy.stats import mannwhitneyu
    except ImportError:
        return
    if len(set(base + head)) < len(base + head):
        return  # scipy's exact method assumes no ties
    values = base + head
    distribution = stratum_distribution(values, len(base))
    u2 = doubled_u(base, head)
    mean = len(base) * len(head)
    ours = sum(p for x, p in distribution.items() if abs(x - mean) >= abs(u2 - mean))
    theirs = mannwhitneyu(head, base, method="exact").pvalue
    assert abs(float(ours) - theirs) < 1e-12, (ours, theirs)


def statistic_at(strata, ks, delta):
    """2 * sum k_s U_s(delta): pairs with head - base - delta above 0 count 2, at 0 count 1."""
    total = 0
    for (base, head), k in zip(strata, ks):
        for y in head:
            for x in base:
                d = (y - x) - delta
                total += k * (2 if d > 0 else 1 if d == 0 else 0)
    return total


def hodges_lehmann(strata, ks, mean2):
    differences = sorted({y - x for base, head in strata for y in head for x in base})
    for low, high in zip(differences, differences[1:]):
        if statistic_at(strata, ks, low) == mean2:
            return low
        between = statistic_at(strata, ks, (low + high) / 2)
        if between == mean2:
            return (low + high) / 2
        if statistic_at(strata, ks, low) > mean2 > between:
            return low
        if between > mean2 > statistic_at(strata, ks, high):
            return high
    return differences[-1]


def moses(strata, ks):
    sizes = [(len(base), len(head)) for base, head in strata]
    untied = combined([stratum_distribution(list(range(n + m)), n) for n, m in sizes], ks)
    tail = Fraction(1) - Fraction(CONFIDENCE).limit_denominator(1000)
    tail /= 2
    # The tie-free statistic in units of pair weight: T = sum k U = (doubled statistic) / 2.
    by_t = {}
    for x, p in untied.items():
        by_t[x // 2] = by_t.get(x // 2, 0) + p
    c, cumulative = 0, Fraction(0)
    while cumulative + by_t.get(c, 0) <= tail:
        cumulative += by_t.get(c, 0)
        c += 1
    weighted = sorted((y - x, k) for (base, head), k in zip(strata, ks) for y in head for x in base)

    def reaching(ordered):
        running = 0
        for value, weight in ordered:
            running += weight
            if running >= c:
                return value
        return None

    return c, reaching(weighted), reaching(list(reversed(weighted)))


def main():
    for name, strata in CASES.items():
        sizes = [len(base) + len(head) for base, head in strata]
        ks = weights(sizes)
        for base, head in strata:
            cross_check_with_scipy(base, head)
        distribution = combined([stratum_distribution(base + head, len(base)) for base, head in strata], ks)
        observed = sum(k * doubled_u(base, head) for (base, head), k in zip(strata, ks))
        mean2 = sum(k * len(base) * len(head) for (base, head), k in zip(strata, ks))
        p_value = sum(p for x, p in distribution.items() if abs(x - mean2) >= abs(observed - mean2))
        extreme = max(abs(x - mean2) for x in distribution)
        minimum_p = sum(p for x, p in distribution.items() if abs(x - mean2) >= extreme)
        c, lower, upper = moses(strata, ks)
        print(f"{name}: sizes {sizes}, weights {ks}, 2T = {observed}, E[2T] = {mean2}")
        print(f"  p-value {p_value} = {float(p_value)!r}")
        print(f"  smallest p-value {minimum_p} = {float(minimum_p)!r}")
        print(f"  estimate {hodges_lehmann(strata, ks, mean2)!r}")
        print(f"  95% interval (c = {c}): {lower!r} ... {upper!r}")


if __name__ == "__main__":
    main()
