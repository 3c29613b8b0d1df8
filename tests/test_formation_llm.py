"""The optional LLM extractor against a local server speaking the OpenAI chat API (never a provider)."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from graphmem import GraphMemory
from graphmem.formation.llm import MAX_TURNS_PER_CALL, OpenAICompatibleExtractor


class FakeLLM:
    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        self.failures = 0  # answer this many requests with HTTP 500 first
        self.garbage = False

    def answer(self, body: dict[str, Any]) -> dict[str, Any]:
        turns = body["messages"][1]["content"].splitlines()
        out = []
        for line in turns:
            index, text = line.split(": ", 1)
            i = int(index)
            ents = [
                {"name": w.strip(".,!"), "type": "other"}
                for w in text.split()
                if w[:1].isupper() and w != "I"
            ]
            facts = [{"key": "mood", "value": "happy", "fact_type": "profile"}] if "happy" in text else []
            out.append({"index": i, "entities": ents, "facts": facts, "caused_by": i - 1 if i else None})
        content = "not json at all" if self.garbage else json.dumps({"turns": out})
        return {"choices": [{"message": {"role": "assistant", "content": content}}]}


@pytest.fixture()
def fake_llm() -> Iterator[tuple[FakeLLM, str]]:
    state = FakeLLM()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            state.requests.append(body)
            if state.failures:
                state.failures -= 1
                self.send_response(500)
                self.end_headers()
                return
            payload = json.dumps(state.answer(body)).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield state, f"http://127.0.0.1:{server.server_address[1]}/v1"
    server.shutdown()
    server.server_close()


def test_batches_of_at_most_ten_turns(fake_llm: tuple[FakeLLM, str]) -> None:
    state, url = fake_llm
    extractor = OpenAICompatibleExtractor(url, "local-model", backoff=0.01)
    out = extractor.extract([f"Turn {i} about Paris" for i in range(23)])
    assert len(out) == 23 and len(state.requests) == 3
    assert all(len(r["messages"][1]["content"].splitlines()) <= MAX_TURNS_PER_CALL for r in state.requests)
    assert [m.key for m in out[12].entities] == ["turn", "paris"]
    assert out[12].caused_by == 11 and out[10].caused_by is None  # never across a call's boundary


def test_retries_with_backoff_then_succeeds(fake_llm: tuple[FakeLLM, str]) -> None:
    state, url = fake_llm
    state.failures = 2
    out = OpenAICompatibleExtractor(url, "m", retries=3, backoff=0.01).extract(["I am happy today"])
    assert len(state.requests) == 3 and out[0].facts[0].key == "mood"


def test_invalid_json_falls_back_to_patterns(fake_llm: tuple[FakeLLM, str]) -> None:
    state, url = fake_llm
    state.garbage = True
    out = OpenAICompatibleExtractor(url, "m", retries=1, backoff=0.01).extract(
        ["I love sushi. My dog Rex too."]
    )
    assert len(state.requests) == 2
    assert [f.key for f in out[0].facts] == ["preference:sushi"] and [m.key for m in out[0].entities] == [
        "rex"
    ]


def test_unreachable_endpoint_falls_back() -> None:
    out = OpenAICompatibleExtractor("http://127.0.0.1:9/v1", "m", retries=1, backoff=0.01, timeout=1).extract(
        ["I live in Leeds"]
    )
    assert [(f.key, f.value) for f in out[0].facts] == [("location", "Leeds")]


def test_formation_uses_the_llm_extractor(
    mem: GraphMemory, user_id: str, fake_llm: tuple[FakeLLM, str]
) -> None:
    _, url = fake_llm
    llm_mem = GraphMemory(
        mem.runtime.store, mem.embedder, mem.runtime.settings, OpenAICompatibleExtractor(url, "m")
    )
    llm_mem.add_messages(  # shares mem's driver: not closed here
        [{"role": "user", "content": "Met Zoe at Kew"}, {"role": "user", "content": "I am happy now"}],
        user_id=user_id,
        session_id="s",
    )
    keys = mem.query("MATCH (e:Entity {user_id: $u}) RETURN e.key AS k ORDER BY k", {"u": user_id})
    assert [k["k"] for k in keys] == ["kew", "met", "zoe"]
    causes = mem.query("MATCH (:Memory {user_id: $u})-[c:CAUSES]->() RETURN c.method AS m", {"u": user_id})
    assert causes == [{"m": "extractor"}]
    assert mem.facts.get(user_id, "mood") is not None
