"""LoCoMo conversations as a LongMemEval-format pooled haystack, built at run time (the data never enters the
repository: LoCoMo's licence).

Every LoCoMo session becomes one haystack session of one user, pooled over the conversations given; each
turn is ``{role, content, has_answer}`` with the speaker's name in the content ("Caroline: ...", as the two
speakers are people, not a user and an assistant: the first speaker of a conversation is ``user``, the other
``assistant``). Every question of categories 1-4 with evidence becomes a question whose haystack is the whole
pool and whose answer sessions are the sessions holding its evidence turns: a question whose evidence spans
two or more sessions is of type ``multi-session``, the others keep their LoCoMo category
(``single-session <category>``). Questions are asked a day after the pool's last session, so every session
is visible to every question.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import Any

CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
_EVIDENCE = re.compile(r"D(\d+):(\d+)")
_SESSION = re.compile(r"session_(\d+)$")


def locomo_date(text: str) -> datetime:
    """LoCoMo's ``"1:56 pm on 8 May, 2023"`` as a naive datetime."""
    return datetime.strptime(text.strip(), "%I:%M %p on %d %B, %Y")


def lme_date(when: datetime) -> str:
    """LongMemEval's ``"2023/05/08 (Mon) 13:56"``."""
    return when.strftime("%Y/%m/%d (%a) %H:%M")


def _sessions(sample: dict[str, Any]) -> list[tuple[str, datetime, list[dict[str, Any]]]]:
    conv = sample["conversation"]
    first = conv.get("speaker_a")
    out = []
    for key, turns in conv.items():
        number = _SESSION.match(key)
        if not number or not isinstance(turns, list) or not turns:
            continue
        when = locomo_date(conv[f"{key}_date_time"])
        rows = [
            {
                "role": "user" if t["speaker"] == first else "assistant",
                "content": f"{t['speaker']}: {t.get('text') or ''}",
                "dia_id": t["dia_id"],
            }
            for t in turns
        ]
        out.append((f"{sample['sample_id']}:s{number.group(1)}", when, rows))
    return out


def _evidence(qa: dict[str, Any]) -> set[str]:
    return {f"D{a}:{b}" for ev in qa.get("evidence", []) for a, b in _EVIDENCE.findall(ev)}


def locomo_pool(data: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """LongMemEval-format questions over one pooled haystack of every session of ``data``."""
    sessions = [s for sample in data for s in _sessions(sample)]
    if not sessions:
        return []
    asked = lme_date(max(when for _, when, _ in sessions) + timedelta(days=1))
    ids = [sid for sid, _, _ in sessions]
    dates = [lme_date(when) for _, when, _ in sessions]
    items = []
    for sample in data:
        own = {sid: turns for sid, _, turns in sessions if sid.startswith(f"{sample['sample_id']}:")}
        for i, qa in enumerate(sample["qa"]):
            category = int(qa.get("category", 0))
            evidence = _evidence(qa)
            if category not in CATEGORIES or not evidence:
                continue
            answers = sorted(sid for sid, turns in own.items() if any(t["dia_id"] in evidence for t in turns))
            if not answers:
                continue
            marked = {
                sid: [t | {"has_answer": t["dia_id"] in evidence} for t in turns]
                for sid, turns in own.items()
            }
            haystack = [marked.get(sid) or turns for sid, _, turns in sessions]
            kind = "multi-session" if len(answers) > 1 else f"single-session {CATEGORIES[category]}"
            items.append(
                {
                    "question_id": f"{sample['sample_id']}#{i}",
                    "question_type": kind,
                    "question": qa["question"],
                    "answer": str(qa.get("answer", "")),
                    "question_date": asked,
                    "haystack_session_ids": ids,
                    "haystack_dates": dates,
                    "haystack_sessions": haystack,
                    "answer_session_ids": answers,
                }
            )
    return items
