"""Identifiers in every form a caller may send them (a helper's probe of ids across surfaces): lengths
counted once NFC-normalised, a session scope's facts keyed as the user's own, REST keys that reach their
tenant whatever Unicode form the path or body uses."""

from __future__ import annotations

import unicodedata
import uuid

import pytest
from conftest import disposable
from fastapi.testclient import TestClient

from graphmem import GraphMemory, ValidationError
from graphmem.adapters import auth
from graphmem.adapters.rest import create_app

LONG = "\U0001d160"  # one character, three once NFC-normalised
ADMIN = "admin-test-key"


def test_lengths_are_counted_once_normalised(mem: GraphMemory, user_id: str) -> None:
    """256 of LONG passed the 256-character limit and were stored as 768; as a session id the scope's key
    passed the index's size limit and the write failed with a StoreError (REST: 500)."""
    with pytest.raises(ValidationError, match="once normalised"):
        mem.remember("A long session", user_id=user_id, session_id=LONG * 256, scope="session")
    with pytest.raises(ValidationError, match="once normalised"):
        mem.remember("A long user", user_id=disposable("test-" + LONG * 100))
    with pytest.raises(ValidationError, match="once normalised"):
        mem.remember("A long tag", user_id=user_id, tags=[LONG * 100])
    with pytest.raises(ValidationError, match="once normalised"):
        mem.core.set(user_id, LONG * 256, "a label")
    assert mem.memories.list(user_id) == []
    fine = mem.remember("A short session", user_id=user_id, session_id=LONG * 85, scope="session")
    assert fine.content == "A short session"


def test_a_session_scope_fact_named_by_the_user_id_is_the_user_own_key(
    mem: GraphMemory, user_id: str
) -> None:
    mem.facts.set(user_id, f"{user_id}/city", "Paris")
    session = mem.facts.set(user_id, f"{user_id}/city", "Rome", scope="session", session_id="trip")
    assert session.key == "location"  # was '<user id>/location': a third party's key
    assert mem.facts.get(user_id, "location", scope="session", session_id="trip").value == "Rome"
    lines = mem.context("where am I?", user_id=user_id, session_id="trip").text
    assert "location: Rome" in lines and "location: Paris" not in lines  # the narrower scope wins
    assert f"{user_id}/location" not in lines


def test_rest_keys_compare_ids_as_stored(mem: GraphMemory) -> None:
    stem = f"test-jose-{uuid.uuid4().hex[:8]}-"
    nfc, nfd = stem + unicodedata.normalize("NFC", "José"), stem + unicodedata.normalize("NFD", "José")
    disposable(nfc)
    agent = disposable(f"test-agent-{uuid.uuid4().hex[:8]}-" + unicodedata.normalize("NFD", "Zoë"))
    mem.remember("Procedure: check the fuse first", agent_id=agent, scope="agent")
    made_nfd, record = auth.create_key(mem.runtime.store, "user", nfd, agent_id=agent)
    assert record["subject"] == nfc  # stored as every id is
    made_nfc, _ = auth.create_key(mem.runtime.store, "user", nfc)
    with TestClient(create_app(mem, ADMIN), raise_server_exceptions=False) as client:
        for key in (made_nfd, made_nfc):
            for path_id in (nfc, nfd):
                reply = client.post(
                    f"/users/{path_id}/memories",
                    json={"content": "I own a ukulele"},
                    headers={"X-API-Key": key},
                )
                assert reply.status_code == 201, (path_id == nfc, reply.text)  # was 403 across forms
        body = {"query": "fuse procedure", "agent_id": unicodedata.normalize("NFC", agent)}
        granted = client.post(f"/users/{nfc}/recall", json=body, headers={"X-API-Key": made_nfd})
        assert granted.status_code == 200, granted.text  # the grant in the other form: was 403
        assert (
            client.post(f"/users/{nfc}/recall", json=body, headers={"X-API-Key": made_nfc}).status_code == 403
        )
    assert [m.content for m in mem.memories.list(nfd)] == ["I own a ukulele"]  # one tenant (repeats merge)
