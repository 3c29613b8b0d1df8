"""Messages as chat APIs send them: content parts and tags, through add_messages and REST (real server)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from graphmem import GraphMemory, ValidationError
from graphmem.adapters.rest import create_app

KEY = "test-key-parts"
TEXT = [{"type": "text", "text": "I moved to Lisbon"}, {"type": "text", "text": "in March"}]
IMAGE = {"type": "image_url", "image_url": {"url": "https://example.com/a.png"}}


@pytest.fixture()
def client(mem: GraphMemory) -> Iterator[TestClient]:
    with TestClient(create_app(mem, KEY), headers={"X-API-Key": KEY}, raise_server_exceptions=False) as c:
        yield c


def test_text_content_parts_are_joined_and_other_parts_refused_by_type(
    mem: GraphMemory, user_id: str
) -> None:
    """``"content": [{"type": "text", "text": ...}]`` (OpenAI chat completions, Anthropic) was refused as
    'parts must be a list' (read as a Google ADK event); its text parts are now the memory's content, joined
    by newlines (OpenAI responses' input_text/output_text too), and a part of another type is refused by
    name."""
    stored = mem.add_messages(
        [
            {"role": "user", "content": TEXT},
            {"role": "assistant", "content": [{"type": "output_text", "text": "Lisbon is sunny"}]},
        ],
        user_id=user_id,
        session_id="s",
    )
    assert [m.content for m in stored] == ["I moved to Lisbon\nin March", "Lisbon is sunny"]
    with pytest.raises(ValidationError, match=r"messages\[0\]\.content\[1\]: is a part of type 'image_url'"):
        mem.add_messages([{"role": "user", "content": [TEXT[0], IMAGE]}], user_id=user_id, session_id="s")
    with pytest.raises(ValidationError, match=r"content\[0\]: must be a text part"):
        mem.add_messages([{"role": "user", "content": ["plain"]}], user_id=user_id, session_id="s")
    blank = [{"type": "text", "text": " "}]
    with pytest.raises(ValidationError, match=r"messages\[0\]\.content: must not be empty"):
        mem.add_messages([{"role": "user", "content": blank}], user_id=user_id, session_id="s")


def test_a_message_carries_its_tags(mem: GraphMemory, user_id: str) -> None:
    """A message's ``tags`` were dropped; they are now its memory's tags (checked as remember's are)."""
    stored = mem.add_messages(
        [{"role": "user", "content": "I adopted a greyhound called Pip", "tags": ["pets"]}],
        user_id=user_id,
        session_id="s",
    )
    assert list(stored[0].tags) == ["pets"]
    assert [m.id for m in mem.memories.list(user_id, tags=["pets"])] == [stored[0].id]
    with pytest.raises(ValidationError, match=r"messages\[0\]\.tags\[0\]: must be a non-empty string"):
        mem.add_messages([{"role": "user", "content": "x", "tags": [""]}], user_id=user_id, session_id="s")


def test_rest_takes_content_parts(client: TestClient, user_id: str) -> None:
    url = f"/users/{user_id}/messages"
    taken = client.post(url, json={"session_id": "s", "messages": [{"role": "user", "content": TEXT}]})
    assert taken.status_code == 201 and taken.json()[0]["content"] == "I moved to Lisbon\nin March"
    refused = client.post(url, json={"session_id": "s", "messages": [{"role": "user", "content": [IMAGE]}]})
    assert refused.status_code == 422 and "image_url" in refused.text
