"""The bundled ONNX models: bge-small embeddings and the ms-marco cross-encoder, the model-file checks, and
one vector space per store (a different embedder is refused until the store is re-embedded)."""

from __future__ import annotations

import math
from collections.abc import Sequence

import pytest

from graphmem import GraphMemory, OnnxCrossEncoder, OnnxEmbedder, SchemaError
from graphmem.embedding import BGE_SMALL_FILES, ModelFiles, embed_query_checked
from graphmem.errors import EmbedderError
from graphmem.model.keys import context_vector
from graphmem.store import embedding_space


def _cos(a: Sequence[float], b: Sequence[float]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True))


def test_bge_vectors_are_normalised_and_order_independent(embedder: OnnxEmbedder) -> None:
    texts = ["a short one", "a much longer sentence about hiking in the mountains with friends", "x"]
    vectors = embedder.embed(texts)
    assert [len(v) for v in vectors] == [384, 384, 384]
    assert all(math.isclose(_cos(v, v), 1.0, rel_tol=1e-4) for v in vectors)
    # batching sorts by length internally: each text gets its own vector back, whatever the batch (INT8
    # dynamic quantisation scales activations per batch, so a batch-mate moves a vector slightly: cos > 0.99)
    alone = embedder.embed([texts[1]])[0]
    assert _cos(alone, vectors[1]) > 0.99
    assert _cos(alone, vectors[0]) < 0.9


def test_query_instruction_ranks_the_answer_first(embedder: OnnxEmbedder) -> None:
    passages = [
        "Caroline: I went to the LGBTQ support group yesterday.",
        "Melanie: I painted a sunrise over the lake last week.",
        "Caroline: my dog Rex loves the park.",
    ]
    query = embed_query_checked(embedder, ["What did Melanie paint?"])[0]
    scores = [_cos(query, p) for p in embedder.embed(passages)]
    assert max(range(3), key=scores.__getitem__) == 1
    # the query vector differs from the plain passage embedding of the same words (the bge instruction)
    assert _cos(query, embedder.embed(["What did Melanie paint?"])[0]) < 0.999


def test_cross_encoder_scores_the_relevant_passage_highest() -> None:
    scores = OnnxCrossEncoder().score(
        "Where is the user travelling this year?",
        ["Rex is two years old and loves the beach.", "We fly to Japan in October for two weeks."],
    )
    assert scores[1] > scores[0]


def test_a_model_file_with_another_hash_is_refused() -> None:
    with pytest.raises(EmbedderError, match="sha256"):
        ModelFiles(BGE_SMALL_FILES.folder, "0" * 64).locate()
    with pytest.raises(EmbedderError, match="missing"):
        ModelFiles("no_such_model", BGE_SMALL_FILES.sha256).locate()


class _OtherSpace:
    """A stand-in embedder of another model (same dimension): the store must refuse to mix it in."""

    name = "some-other-model"

    def __init__(self, inner: OnnxEmbedder) -> None:
        self._inner = inner

    @property
    def dimension(self) -> int:
        return 384

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return [list(reversed(v)) for v in self._inner.embed(texts)]


def test_init_refuses_an_embedder_of_another_space(mem: GraphMemory, embedder: OnnxEmbedder) -> None:
    other = GraphMemory(mem.runtime.store, _OtherSpace(embedder), mem.runtime.settings)
    with pytest.raises(SchemaError, match="graphmem reembed"):
        other.init()
    mem.init()  # the store's own embedder is fine


def test_memory_text_rebuilds_what_formation_embedded() -> None:
    assert embedding_space.memory_text({"content": "hi", "speaker": "Sam", "role": "user"}) == "Sam: hi"
    assert embedding_space.memory_text({"content": "hi", "speaker": "user", "role": "user"}) == "hi"
    assert (
        embedding_space.memory_text({"content": "likes tea", "core_label": "persona"}) == "persona: likes tea"
    )


def test_reembed_rewrites_every_vector_of_the_tenant(
    mem: GraphMemory, embedder: OnnxEmbedder, user_id: str
) -> None:
    mem.remember("I keep bees on the roof of my flat in Leeds.", user_id=user_id)
    mem.remember("Sam: my sister Ana is a beekeeper too.", user_id=user_id)
    turns = [("Sam", "Ana sold forty jars of honey at the market."), ("Kim", "Forty jars, in one morning?")]
    mem.add_messages(
        [{"role": "user", "name": n, "content": c} for n, c in turns], user_id=user_id, session_id="s"
    )
    other = _OtherSpace(embedder)
    counts = embedding_space.reembed(mem.runtime.store, other, user_id=user_id)
    assert counts["memories"] == 4 and counts["entities"] >= 1
    rows = mem.query(
        "MATCH (m:Memory {user_id: $u}) RETURN m.content AS content, m.speaker AS speaker, m.role AS role, "
        "m.embedding AS embedding, m.context_embedding AS context",
        {"u": user_id},
    )
    by_content = {}
    for row in rows:
        expected = other.embed([embedding_space.memory_text(row)])[0]
        assert _cos(row["embedding"], expected) > 0.99  # INT8: batch-mates move a vector slightly
        by_content[row["content"]] = row
    first, reply = by_content[turns[0][1]], by_content[turns[1][1]]
    # the context keys are re-made as formation makes them: the previous turn's vector plus the turn's own
    assert _cos(first["context"], first["embedding"]) > 0.9999
    assert _cos(reply["context"], context_vector(first["embedding"], reply["embedding"])) > 0.99
    assert _cos(reply["context"], reply["embedding"]) < 0.99
    entities = mem.query(
        "MATCH (n:Entity {user_id: $u}) RETURN n.name AS name, n.embedding AS e", {"u": user_id}
    )
    assert entities and all(_cos(r["e"], other.embed([r["name"]])[0]) > 0.99 for r in entities)
