"""plan_formation without a database: a hand-made FormationContext in, every write of a remember out."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from graphmem.config import Settings
from graphmem.formation import plan as planning
from graphmem.formation.drafts import MemoryDraft, entity_id
from graphmem.formation.plan import EntityMatch, FormationContext, plan_formation
from graphmem.model import facts
from graphmem.model.entities import Mention
from graphmem.model.extraction import TurnExtraction
from graphmem.model.fact_patterns import ExtractedFact
from graphmem.model.linking import Neighbour
from graphmem.models import FactType, Source

NOW = datetime(2026, 5, 1, 12, tzinfo=UTC)
USER = "plan-user"


def unit(angle: float) -> list[float]:
    """A 2-d unit vector: cosine between unit(a) and unit(b) is cos(a - b)."""
    return [math.cos(angle), math.sin(angle)]


def context(
    contents: list[str],
    vectors: list[list[float]],
    *,
    session: str | None = "s1",
    extracted: list[TurnExtraction] | None = None,
    neighbours: list[tuple[Neighbour, ...]] | None = None,
    known: dict[str, str] | None = None,
    matches: dict[str, tuple[EntityMatch, ...]] | None = None,
    source: Source = Source.USER,
) -> FormationContext:
    drafts = tuple(
        MemoryDraft(
            content=c, user_id=USER, session_id=session, source=source, occurred_at=NOW + timedelta(minutes=i)
        )
        for i, c in enumerate(contents)
    )
    ex = extracted or [TurnExtraction() for _ in contents]
    return FormationContext(
        drafts=drafts,
        now=NOW,
        extracted=tuple(ex),
        known_entities=known or {},
        contexts=tuple(contents),
        vectors=tuple(vectors),
        context_vectors=tuple(vectors),
        neighbours=tuple(neighbours or [() for _ in contents]),
        entity_vectors={m.key: [1.0, 0.0] for e in ex for m in e.entities if m.key not in (known or {})},
        entity_matches=matches or {},
    )


def ids() -> Callable[[], str]:
    counter = itertools.count()
    return lambda: f"id{next(counter)}"


def test_new_memories_are_chained_and_related_by_cosine() -> None:
    # cos(0, 0.5) ~ 0.88: related (>= 0.55), not a duplicate (< 0.95); cos(0, pi/2) = 0: unrelated
    ctx = context(
        ["I moved to Lisbon", "Lisbon is sunny", "The printer broke"], [unit(0), unit(0.5), unit(1.6)]
    )
    plan = plan_formation(ctx, Settings(), new_id=ids())
    assert plan.memory_ids == ("id0", "id1", "id2")
    assert [(f["src"], f["dst"]) for f in plan.follows] == [("id0", "id1"), ("id1", "id2")]
    assert [(r["src"], r["dst"]) for r in plan.related] == [
        ("id1", "id0")
    ]  # cos(0.5, 1.6) ~ 0.45: not related
    assert all(r["weight"] >= Settings().related_threshold for r in plan.related)
    assert plan.session is not None and (plan.session["first_id"], plan.session["last_id"]) == ("id0", "id2")
    assert not plan.merges
    assert [r["props"]["occurred_at"] for r in plan.rows] == [d.occurred_at for d in ctx.drafts]


def test_related_to_a_stored_neighbour_and_no_session_without_one() -> None:
    stored = Neighbour(id="old", cosine=0.8, content="Lisbon trip booked", occurred_at=NOW, session_id=None)
    plan = plan_formation(
        context(["Lisbon is sunny"], [unit(0)], session=None, neighbours=[(stored,)]), Settings()
    )
    assert [(r["dst"], r["weight"]) for r in plan.related] == [("old", 0.8)]
    assert plan.session is None and plan.rows[0]["session_uid"] is None


def test_a_repeat_of_a_stored_memory_merges_into_it() -> None:
    stored = Neighbour(id="old", cosine=0.99, content="I moved to Lisbon", occurred_at=NOW, session_id="s1")
    fact = ExtractedFact(key="city", value="Lisbon", fact_type=FactType.PROFILE)
    ctx = context(
        ["I moved to Lisbon"], [unit(0)], neighbours=[(stored,)], extracted=[TurnExtraction(facts=(fact,))]
    )
    plan = plan_formation(ctx, Settings(), new_id=ids())
    assert plan.rows == () and plan.session is None and plan.follows == ()
    assert plan.memory_ids == ("old",)
    assert [(m["id"], m["i"], m["similarity"]) for m in plan.merges] == [("old", 0, 0.99)]
    assert [f.memory_id for f in plan.facts] == ["old"]  # the fact is tied to the memory it merged into


def test_a_repeat_inside_the_batch_reinforces_the_earlier_draft() -> None:
    ctx = context(["I moved to Lisbon", "I moved to Lisbon"], [unit(0), unit(0)])
    plan = plan_formation(ctx, Settings(), new_id=ids())
    assert len(plan.rows) == 1 and plan.memory_ids == ("id0", "id0")
    props = plan.rows[0]["props"]
    assert (props["access_count"], props["strength"], props["last_accessed_at"]) == (
        1,
        2.0,
        ctx.drafts[1].occurred_at,
    )
    assert plan.follows == () and plan.merges == ()


def test_a_close_vector_that_adds_words_is_a_new_memory() -> None:
    """Near-identical vectors are not a repeat when the new text says more (another event) or is a reply
    that cannot stand alone (it answers its own turn, in another conversation or the same one)."""
    said = "I just won another regional video game tournament last week!"
    stored = Neighbour(id="old", cosine=0.99, content=said, occurred_at=NOW, session_id="s0")
    more = context(
        ["I won my fourth video game tournament on Friday, online!"], [unit(0)], neighbours=[(stored,)]
    )
    assert plan_formation(more, Settings(), new_id=ids()).merges == ()
    again = context(["I just won another regional video game tournament!"], [unit(0)], neighbours=[(stored,)])
    assert [m["id"] for m in plan_formation(again, Settings(), new_id=ids()).merges] == ["old"]
    reply = Neighbour(
        id="r", cosine=0.99, content="Yes, that was the best part!", occurred_at=NOW, session_id="s0"
    )
    elsewhere = context(["Yes, that was the best part!"], [unit(0)], neighbours=[(reply,)], session="s1")
    assert plan_formation(elsewhere, Settings(), new_id=ids()).merges == ()
    same = context(["Yes, that was the best part!"], [unit(0)], neighbours=[(reply,)], session="s0")
    assert plan_formation(same, Settings(), new_id=ids()).merges == ()
    answers = context(
        ["Are you vegetarian?", "Yes", "Do you smoke?", "Yes"], [unit(0), unit(1), unit(2), unit(1)]
    )
    assert len(plan_formation(answers, Settings(), new_id=ids()).rows) == 4  # each answer its own memory
    batch = context(["I won the chess cup", "I won the chess cup in May, again"], [unit(0), unit(0)])
    assert len(plan_formation(batch, Settings(), new_id=ids()).rows) == 2


def test_planning_twice_gives_the_same_plan() -> None:
    ctx = context(["I moved to Lisbon", "Lisbon is sunny"], [unit(0), unit(0.5)])
    assert plan_formation(ctx, Settings(), new_id=ids()) == plan_formation(ctx, Settings(), new_id=ids())


def test_a_new_entity_joins_a_close_look_alike_and_not_a_close_stranger() -> None:
    nyc = Mention(name="New York City", type="place", key="new york city")
    york = Mention(name="Yorkshire", type="place", key="yorkshire")
    ada = Mention(name="Ada", type="person", key="ada")
    ctx = context(
        ["I flew to New York City", "Then Yorkshire with Ada"],
        [unit(0), unit(1.6)],
        extracted=[TurnExtraction(entities=(nyc,)), TurnExtraction(entities=(york, ada))],
        known={"new york": "e-ny", "ada": "e-ada", "york": "e-york"},
        matches={
            "new york city": (EntityMatch("new york", "e-ny", 0.97),),
            "yorkshire": (EntityMatch("new york", "e-ny", 0.99),),  # close but does not start alike
        },
    )
    plan = plan_formation(ctx, Settings(), new_id=ids())
    by_key = {e["key"]: e for e in plan.entities}
    assert by_key["new york city"]["id"] == "e-ny"  # an alias of the stored entity
    assert by_key["yorkshire"]["id"] == entity_id(USER, "yorkshire")
    assert by_key["ada"]["id"] == "e-ada" and by_key["ada"]["embedding"] is None  # known: not re-embedded
    assert by_key["yorkshire"]["embedding"] == [1.0, 0.0]
    assert [(x["memory_id"], x["entity_id"]) for x in plan.entity_links] == [
        ("id0", "e-ny"),
        ("id1", entity_id(USER, "yorkshire")),
        ("id1", "e-ada"),
    ]


def test_entities_of_a_merged_repeat_are_not_linked_again() -> None:
    said = "I met Ada at the station"
    stored = Neighbour(id="old", cosine=0.99, content=said, occurred_at=NOW, session_id="s1")
    ada = Mention(name="Ada", type="person", key="ada")
    ctx = context([said], [unit(0)], neighbours=[(stored,)], extracted=[TurnExtraction(entities=(ada,))])
    plan = plan_formation(ctx, Settings())
    assert plan.entities == () and plan.entity_links == ()


def test_facts_in_order_supersede_and_only_from_user_drafts() -> None:
    first = ExtractedFact(key="city", value="Porto", fact_type=FactType.PROFILE)
    second = ExtractedFact(key="city", value="Lisbon", fact_type=FactType.PROFILE)
    ex = [TurnExtraction(facts=(first,)), TurnExtraction(facts=(second,))]
    ctx = context(["I live in Porto", "I live in Lisbon now"], [unit(0), unit(1.6)], extracted=ex)
    plan = plan_formation(ctx, Settings(), new_id=ids())
    assert [(f.value, f.memory_id, f.valid_from) for f in plan.facts] == [
        ("Porto", "id0", ctx.drafts[0].occurred_at),
        ("Lisbon", "id1", ctx.drafts[1].occurred_at),
    ]
    written = facts.plan(list(plan.facts), {}, NOW)  # the fact planner the transaction runs on them
    assert [c["value"] for c in written.create] == ["Porto", "Lisbon"]
    assert len(written.supersedes) == 1  # Lisbon supersedes Porto
    agent = context(["I live in Porto"], [unit(0)], extracted=ex[:1], source=Source.AGENT)
    assert plan_formation(agent, Settings()).facts == ()
    assert plan_formation(ctx, Settings(extract_facts=False)).facts == ()


def test_plan_module_does_not_touch_the_driver() -> None:
    import ast
    import inspect

    tree = ast.parse(inspect.getsource(planning))
    imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)} | {
        a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names
    }
    assert not {m for m in imported if m and (m.startswith("neo4j") or m.startswith("graphmem.store.driver"))}
    assert "graphmem.store.runtime" not in imported


def test_edge_rows_are_written_in_the_order_of_the_shared_node_they_lock() -> None:
    from graphmem.formation.writer import _in_lock_order

    rows = [{"src": "n1", "dst": "m9"}, {"src": "n2", "dst": "m1"}, {"src": "n0", "dst": "m9"}]
    assert [(r["dst"], r["src"]) for r in _in_lock_order(rows, "dst", "src")] == [
        ("m1", "n2"), ("m9", "n0"), ("m9", "n1"),
    ]  # fmt: skip
