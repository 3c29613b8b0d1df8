"""The memory heuristics of the theory as small pure rules (no database). Each feeds strength or ranking:

- **primacy and recency within a session** (the serial-position curve, Murdock 1962): the first and the last
  turns of a session are remembered better; :func:`serial_position` is a salience factor (``serial``).
- **spacing** (Cepeda et al. 2006): a reinforcement after a longer gap strengthens more than a massed one;
  :func:`spacing` scales every reinforcement's gain.
- **testing** (Roediger & Karpicke 2006): being recalled strengthens more than being stored again (a
  near-duplicate re-stated); :data:`TESTING` is each way's share of the gain.
- **depth of processing** (Craik & Lockhart 1972): elaborated, well-connected content lasts;
  :func:`depth` is a salience factor (``depth``) from the text's length and the memory's entities and links.
- **context-dependent recall** (Godden & Baddeley 1975): :func:`context_boost` is the lift a memory gets when
  the query's session context resembles the memory's.
- **interference** (McGeoch 1932; competition): a near-duplicate that is stronger makes the weaker one fade
  faster; :func:`interference` multiplies the weaker one's decay rates by ``1 + rivalry``.
- **synergy**: co-recalled memories strengthen the link between them (:func:`co_recalled_weight`).

All reinforcement goes through :func:`reinforce`; the re-store Cypher (``memory_merge_duplicate``) evaluates
the same formula with ``$r`` = :meth:`Reinforcement.cypher` and is checked against it by a test.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Literal

STRENGTH_MAX = 4.0
Way = Literal["recall", "restore"]


@dataclass(frozen=True)
class Reinforcement:
    gain: float = 0.5
    """Strength a first reinforcement adds at full spacing (later ones add less: ``ln(2 + n) / (1 + n)``)."""
    spacing_days: float = 1.0
    """Gap at which spacing gives 63 % of its extra: about a night's consolidation."""
    restore_share: float = 0.5
    """Testing effect: stating a memory again strengthens half as much as recalling it."""

    def cypher(self) -> dict[str, float]:
        return asdict(self)


REINFORCEMENT = Reinforcement()
TESTING: dict[str, float] = {"recall": 1.0, "restore": REINFORCEMENT.restore_share}


def spacing(gap_days: float, scale_days: float = REINFORCEMENT.spacing_days) -> float:
    """Share of the full gain a reinforcement after ``gap_days`` gives: ``0.5 + 0.5 (1 - e^(-gap / scale))``
    (a massed repetition gives half, a well-spaced one all)."""
    return 0.5 + 0.5 * (1.0 - math.exp(-max(0.0, gap_days) / scale_days))


def reinforce(
    strength: float,
    access_count: int,
    gap_days: float,
    way: Way = "recall",
    params: Reinforcement = REINFORCEMENT,
) -> float:
    """Strength after one reinforcement: ``s + gain · ln(2 + n) / (1 + n) · spacing(gap) · testing(way)``,
    never above 4 (``n``: accesses before this one; ``gap``: days since the last access or recording)."""
    n = max(0, access_count)
    share = 1.0 if way == "recall" else params.restore_share
    step = params.gain * math.log(2 + n) / (1 + n) * spacing(gap_days, params.spacing_days) * share
    return min(STRENGTH_MAX, max(0.0, strength) + step)


def serial_position(position: int, length: int, width: float = 2.0) -> float:
    """Primacy and recency in [0, 1]: ``max(e^(-i / w), e^(-(L - 1 - i) / w))`` for turn ``i`` of ``L``
    (``w`` = 2 turns: the first and last two or three turns of a session stand out). A session of one turn
    gives 0: nothing to stand out from."""
    if length <= 1 or position < 0 or position >= length:
        return 0.0
    return max(math.exp(-position / width), math.exp(-(length - 1 - position) / width))


def depth(words: int, entities: int, links: int) -> float:
    """Depth of processing in [0, 1]: half elaboration (``min(1, words / 40)``: a worked-out sentence or
    more) and half connection (``min(1, (entities + links) / 6)``: tied into what is known)."""
    elaboration = min(1.0, max(0, words) / 40.0)
    connection = min(1.0, (max(0, entities) + max(0, links)) / 6.0)
    return 0.5 * elaboration + 0.5 * connection


def context_boost(session_similarity: float, weight: float = 0.1) -> float:
    """Multiplier for a memory whose session context resembles the query's (cosine in [-1, 1]): up to
    ``1 + weight`` for the same context, 1 for an unrelated or opposite one."""
    return 1.0 + weight * min(1.0, max(0.0, session_similarity))


def interference(rivalry: float) -> float:
    """Decay-rate multiplier of a memory with a stronger near-duplicate: ``1 + rivalry`` (rivalry is the
    similarity of its strongest stronger near-duplicate, 0 without one; see the ``consolidate`` job)."""
    return 1.0 + min(1.0, max(0.0, rivalry))


def rivalry(similarity: float, own_strength: float, other_strength: float, threshold: float) -> float:
    """One neighbour's rivalry: its similarity when it is a near-duplicate (``similarity >= threshold``) and
    strictly stronger, else 0. A memory's rivalry is the maximum over its neighbours."""
    if similarity >= threshold and other_strength > own_strength:
        return min(1.0, similarity)
    return 0.0


def co_recalled_weight(weight: float, rate: float = 0.1) -> float:
    """Synergy: a RELATED_TO weight after both ends were returned by one recall: ``w + rate (1 - w)``."""
    w = min(1.0, max(0.0, weight))
    return w + rate * (1.0 - w)
