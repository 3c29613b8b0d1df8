"""The associate job's nearest-neighbour pairs (graphmem.model.knn) against brute force."""

from __future__ import annotations

import numpy as np
import pytest

from graphmem.model import knn


def brute_force(x: np.ndarray, k: int, threshold: float) -> dict[tuple[int, int], float]:
    x = knn.unit_rows(x)
    sims = x @ x.T
    np.fill_diagonal(sims, -np.inf)
    out: dict[tuple[int, int], float] = {}
    for i, row in enumerate(sims):
        for j in np.argsort(-row, kind="stable")[:k]:
            if row[j] >= threshold:
                out[(min(i, j), max(i, j))] = float(row[j])
    return out


def clustered(n: int, topics: int, noise: float, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    centres = rng.normal(size=(topics, 48))
    return (centres[rng.integers(0, topics, n)] + rng.normal(0, noise, (n, 48))).astype(np.float32)


@pytest.mark.parametrize(("k", "threshold"), [(1, 0.0), (5, 0.5), (5, 0.9), (40, -1.0)])
def test_small_tenants_get_exactly_the_brute_force_pairs(k: int, threshold: float) -> None:
    x = clustered(300, 12, 0.6, seed=k)
    found = {(a, b): s for a, b, s in knn.nearest_pairs(x, k, threshold)}
    expected = brute_force(x, k, threshold)
    assert found.keys() == expected.keys()
    assert all(abs(found[p] - expected[p]) < 1e-5 for p in found)
    assert all(a < b for a, b in found)


def test_large_tenants_find_nearly_all_pairs_through_the_inverted_file(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    x = clustered(4000, 200, 1.0, seed=3)  # overlapping topics: 1 cell probed finds 70 %, 3 find 88 %
    monkeypatch.setattr(knn, "EXACT_MAX", 1000)  # 4,000 rows: 63 cells, 12 probed
    found = {(a, b): s for a, b, s in knn.nearest_pairs(x, 5, 0.5)}
    expected = brute_force(x, 5, 0.5)
    assert found.keys() <= brute_force(x, 64, 0.5).keys()  # each a true near pair above the threshold
    assert len(found.keys() & expected.keys()) >= 0.95 * len(expected)  # measured: 97 %
    assert all(s >= 0.5 for s in found.values())


def test_degenerate_inputs() -> None:
    assert knn.nearest_pairs(np.ones((1, 4)), 5, 0.0) == []
    assert knn.nearest_pairs(np.ones((3, 4)), 0, 0.0) == []
    pairs = knn.nearest_pairs([[1.0, 0.0], [0.0, 0.0], [2.0, 0.0]], 5, 0.5)  # a zero vector scores 0
    assert [(a, b) for a, b, _ in pairs] == [(0, 2)]
