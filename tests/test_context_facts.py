"""How ``context()`` spends its budget when a user has many facts (real server, real embedder): the facts the
query is about come first, then the memories recall found, and the other facts only fill what is left."""

from __future__ import annotations

from graphmem import GraphMemory

MEMORY = "My sister Ana moved to Porto last spring and works as a nurse there."


def _many_facts(mem: GraphMemory, user_id: str, n: int) -> None:
    for i in range(n):
        mem.facts.set(user_id, f"project/{i}/status", f"milestone {i} is in review with the platform team")


def test_many_facts_do_not_crowd_out_the_memory_that_answers(mem: GraphMemory, user_id: str) -> None:
    """40 project facts that have nothing to do with the question used to fill a 400-token budget ahead of
    every memory, so the memory that answers it was dropped."""
    answer = mem.remember(MEMORY, user_id=user_id)
    _many_facts(mem, user_id, 40)
    ctx = mem.context(
        "Where does my sister live now?", user_id=user_id, k=5, token_budget=400, reinforce=False
    )
    kept = {i.memory_id for i in ctx.kept if i.kind in ("memory", "possible")}
    assert answer.id in kept
    leading = [i for i in ctx.items if i.kind == "fact"]
    assert len(leading) == 5  # as many facts as memories were asked for, the most relevant
    assert leading[0].text == "Ana/location: Porto"  # what formation read in the memory
    others = [i for i in ctx.items if i.kind == "other_fact"]
    # the rest (42 facts: the memory also says who Ana is) follow everything else, in the budget left
    assert len(others) == 37
    assert max(i.rank for i in ctx.items if i.kind != "other_fact") < min(i.rank for i in others)
    assert ctx.dropped and all(i.kind == "other_fact" for i in ctx.dropped)
    assert "## Other known facts" in ctx.text
    assert ctx.text.index("## Known facts") < ctx.text.index("## Relevant memories")


def test_a_few_facts_all_come_first(mem: GraphMemory, user_id: str) -> None:
    """Up to ``k`` facts the context reads as before: every current fact first, no second section."""
    mem.remember(MEMORY, user_id=user_id)
    _many_facts(mem, user_id, 3)
    ctx = mem.context("Where does my sister live now?", user_id=user_id, k=10, reinforce=False)
    assert [i.kind for i in ctx.items].count("fact") == 5  # Ana's home, who she is, three projects
    assert not [i for i in ctx.items if i.kind == "other_fact"]
    assert "Other known facts" not in ctx.text


def test_a_rule_leads_every_context(mem: GraphMemory, user_id: str) -> None:
    """An instruction holds for every answer: it leads the facts whatever the query, beside the ``k`` most
    relevant ones, however many facts the user has."""
    mem.remember(MEMORY, user_id=user_id)
    mem.facts.set(user_id, "rule:round prices up", "always", fact_type="rule")
    _many_facts(mem, user_id, 40)
    ctx = mem.context("Where does my sister live now?", user_id=user_id, k=5, reinforce=False)
    leading = [i.text for i in ctx.items if i.kind == "fact"]
    assert len(leading) == 6 and "rule:round prices up: always" in leading
    assert leading[0] == "Ana/location: Porto"
    assert leading[-1] == "rule:round prices up: always"  # in its place by relevance: beyond the best 5


def test_rules_lead_up_to_k_too(mem: GraphMemory, user_id: str) -> None:
    """Rules lead beside the facts, the ``k`` most relevant of them: a user's many rules cannot crowd out
    the memories either (the review of round 59)."""
    answer = mem.remember(MEMORY, user_id=user_id)
    for i in range(12):
        mem.facts.set(user_id, f"rule:format report {i} as a table", "always", fact_type="rule")
    ctx = mem.context("Where does my sister live now?", user_id=user_id, k=2, reinforce=False)
    leading = [i.text for i in ctx.items if i.kind == "fact"]
    assert leading[0] == "Ana/location: Porto" and sum(t.startswith("rule:") for t in leading) == 2
    assert len(leading) == 4  # the two other facts (Ana's home, who she is) and two rules
    assert sum(i.kind == "other_fact" for i in ctx.items) == 10
    assert answer.id in {i.memory_id for i in ctx.kept}
