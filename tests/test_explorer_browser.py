"""Offline API docs and the recall explorer, end to end in headless Chromium (like the dashboard test).

`/docs` and `/redoc` must render with no network beyond the API itself (their assets are vendored); the
explorer must show a real recall: its hits as the API returns them, the activation paths drawn as a graph,
and a memory's neighbourhood. The page's script is exercised here, in the browser, on every run (it used
to be checked with `node --check` only where node was installed). The screenshot goes to
``docs/img/explorer.png``.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import httpx
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import WebDriverWait
from test_dashboard_browser import KEY, api_url, browser  # noqa: F401  (fixtures)

from graphmem import GraphMemory

SCREENSHOT = Path(__file__).parent.parent / "docs" / "img" / "explorer.png"


def _only_loopback(driver: WebDriver, base: str, path: str) -> None:
    """Scripts and styles come from the API itself; the page's policy forbids loading anything from elsewhere
    (Redoc's footer shows a logo from a CDN: the policy blocks it and Redoc hides the image)."""
    entries = driver.execute_script(
        "return performance.getEntriesByType('resource').map(e => [e.name, e.initiatorType])"
    )
    assets = [url for url, kind in entries if kind in ("script", "link", "css")]
    assert assets, "the page loaded no scripts or styles"
    foreign = [u for u in assets if urlparse(u).netloc != urlparse(base).netloc]
    assert foreign == [], foreign
    policy = httpx.get(base + path, timeout=30).headers.get("content-security-policy", "")
    assert "default-src 'self'" in policy and "img-src 'self' data:" in policy


def _no_script_errors(driver: WebDriver) -> None:
    severe = [
        e for e in driver.get_log("browser") if e["level"] == "SEVERE" and "favicon" not in e["message"]
    ]
    assert severe == [], severe


def test_docs_and_redoc_render_offline(api_url: str, browser: WebDriver) -> None:  # noqa: F811
    browser.get(f"{api_url}/docs")
    wait = WebDriverWait(browser, 60)
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, ".swagger-ui .info .title"))
    assert "graphmem" in browser.find_element(By.CSS_SELECTOR, ".swagger-ui .info .title").text
    wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, ".opblock")) > 10)
    _only_loopback(browser, api_url, "/docs")

    browser.get(f"{api_url}/redoc")
    wait.until(lambda d: "Long-term memory for AI agents" in d.find_element(By.TAG_NAME, "body").text)
    assert browser.find_elements(By.CSS_SELECTOR, "h1")
    _only_loopback(browser, api_url, "/redoc")


def _seed(mem: GraphMemory, user: str) -> None:
    sample = json.loads(resources.files("graphmem.data").joinpath("sample_conversation.json").read_text())
    for session in sample["sessions"]:
        start = datetime.fromisoformat(session["date"])
        messages = [
            {"role": m["role"], "content": m["content"], "timestamp": start + timedelta(minutes=i)}
            for i, m in enumerate(session["messages"])
        ]
        mem.add_messages(messages, user_id=user, session_id=session["session_id"])


def _explore(base: str, user: str, query: str) -> dict[str, Any]:
    r = httpx.post(
        f"{base}/users/{user}/explore",
        json={"query": query, "k": 8},
        headers={"X-API-Key": KEY},
        timeout=120,
    )
    r.raise_for_status()
    found: dict[str, Any] = r.json()
    return found


def test_recall_explorer_in_chromium(
    mem: GraphMemory,
    api_url: str,  # noqa: F811
    browser: WebDriver,  # noqa: F811
    user_id: str,
) -> None:
    _seed(mem, user_id)
    query = "Why did we go to the vet?"
    expected = _explore(api_url, user_id, query)  # read-only recall: the page must show the same
    assert expected["hits"] and expected["nodes"]

    browser.get_log("browser")  # drop what earlier pages logged
    browser.get(f"{api_url}/dashboard")
    wait = WebDriverWait(browser, 60)
    browser.find_element(By.ID, "key").send_keys(KEY)
    browser.find_element(By.ID, "user").send_keys(user_id)
    browser.find_element(By.ID, "load").click()
    wait.until(lambda d: d.find_element(By.ID, "loaded").text or d.find_element(By.ID, "error").text)
    assert browser.find_element(By.ID, "error").text == ""

    # the user's facts, from /facts/current
    listed = httpx.get(f"{api_url}/users/{user_id}/facts/current", headers={"X-API-Key": KEY}).json()
    shown_facts = {
        r.get_attribute("data-key"): r.find_element(By.CLASS_NAME, "v").text
        for r in browser.find_elements(By.CSS_SELECTOR, "#facts tbody tr")
    }
    assert shown_facts == {f["key"]: f["value"] for f in listed} and shown_facts["occupation"] == "nurse"

    # the value panel: this user's memories by week, from /stats
    weeks = browser.find_elements(By.CSS_SELECTOR, "#value-memories tbody tr")
    assert weeks, "the value panel shows no memories"

    browser.find_element(By.ID, "explore-query").send_keys(query)
    browser.find_element(By.ID, "explore").click()
    wait.until(
        lambda d: d.find_elements(By.CSS_SELECTOR, "#hits tbody tr") or d.find_element(By.ID, "error").text
    )
    assert browser.find_element(By.ID, "error").text == ""
    shown = [r.get_attribute("data-memory") for r in browser.find_elements(By.CSS_SELECTOR, "#hits tbody tr")]
    assert shown == [h["id"] for h in expected["hits"]]
    graph = browser.find_element(By.ID, "explore-graph")
    assert int(graph.get_attribute("data-nodes") or 0) == len(expected["nodes"])
    assert int(graph.get_attribute("data-edges") or 0) == len(expected["edges"])
    drawn = browser.execute_script("return graphs['explore-graph'].nodes().length")
    assert drawn == len(expected["nodes"])
    stage_cells = [c.text for c in browser.find_elements(By.CSS_SELECTOR, "#hits .stages")]
    assert all(stage_cells)
    confidences = [
        r.find_elements(By.TAG_NAME, "td")[2].text
        for r in browser.find_elements(By.CSS_SELECTOR, "#hits tbody tr")
    ]
    assert confidences == [f"{h['confidence']:.2f}" for h in expected["hits"]]

    # a memory's neighbourhood: the top hit's graph, around it
    browser.find_elements(By.CSS_SELECTOR, "#hits tbody tr")[0].click()
    wait.until(lambda d: int(d.find_element(By.ID, "memory-graph").get_attribute("data-nodes") or 0) > 1)

    # scrub to before anything happened: the recall as of then finds nothing
    slider = browser.find_element(By.ID, "as-of")
    browser.execute_script(
        "arguments[0].value = 0; arguments[0].dispatchEvent(new Event('input'));"
        "arguments[0].dispatchEvent(new Event('change'));",
        slider,
    )
    assert browser.find_element(By.ID, "as-of-label").text != "now"
    wait.until(lambda d: "as of" in d.find_element(By.ID, "explore-summary").text)
    wait.until(lambda d: "as of" in d.find_element(By.ID, "facts-scope").text)
    assert browser.find_elements(By.CSS_SELECTOR, "#facts tbody tr") == []  # none held yet at the first event
    _no_script_errors(browser)

    # back to now for the screenshot
    browser.execute_script(
        "arguments[0].value = arguments[0].max; arguments[0].dispatchEvent(new Event('input'));"
        "arguments[0].dispatchEvent(new Event('change'));",
        slider,
    )
    wait.until(lambda d: "as of" not in d.find_element(By.ID, "explore-summary").text)
    SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
    browser.execute_script("document.getElementById('explore-scope').scrollIntoView()")
    browser.set_window_size(1280, 1500)
    browser.save_screenshot(str(SCREENSHOT))
