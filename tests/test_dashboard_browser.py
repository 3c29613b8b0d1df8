"""The dashboard end to end: the real API (uvicorn on a free loopback port) over the real server, driven in
headless Chromium with Selenium the way a person uses it. Needs Debian's ``chromium`` and ``chromium-driver``
(``make browser`` installs them); without them this test fails, it does not skip.

The screenshot is saved to ``tests/artifacts/dashboard.png``.
"""

from __future__ import annotations

import socket
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import uvicorn
from selenium import webdriver
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import WebDriverWait

from graphmem import GraphMemory
from graphmem.adapters.rest import create_app
from graphmem.model import anchors

KEY = "browser-test-key"
CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
SCREENSHOT = Path(__file__).parent / "artifacts" / "dashboard.png"
# Without the background-networking flags Chromium stalls on the closed network.
CHROME_FLAGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--window-size=1280,3000",
]


@pytest.fixture(scope="module")
def api_url(mem: GraphMemory) -> Iterator[str]:
    """The real API served by uvicorn in a thread, on a free loopback port."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(
        create_app(mem, KEY), host="127.0.0.1", port=port, log_level="warning", ws="none", lifespan="off"
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)
    sock.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[WebDriver]:
    missing = [str(p) for p in (CHROMIUM, CHROMEDRIVER) if not p.exists()]
    if missing:
        pytest.fail(
            f"the dashboard browser test needs {' and '.join(missing)}: run `make browser` "
            "(apt-get install -y chromium chromium-driver)",
            pytrace=False,
        )
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in CHROME_FLAGS:
        options.add_argument(flag)
    with tempfile.TemporaryDirectory(prefix="graphmem-chromium-") as profile:
        options.add_argument(f"--user-data-dir={profile}")
        try:  # Service(...) explicitly: Selenium Manager must not try to download a driver
            driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
        except WebDriverException as exc:
            pytest.fail(f"Chromium did not start: {exc.msg}", pytrace=False)
        try:
            yield driver
        finally:
            driver.quit()


def _seed(mem: GraphMemory, user: str) -> str:
    """A user with memories of three types, one forgotten, and a decay run 40 days ahead; the run's id."""
    start = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
    texts = [
        ("I adopted a dog named Rex", "episodic"),
        ("Rex hurt his paw, so we went to the vet", "episodic"),
        ("My sister moved to Lisbon last spring", "episodic"),
        ("To bake sourdough, feed the starter the night before", "procedural"),
        ("Water boils at 100 degrees Celsius at sea level", "semantic"),
    ]
    ids = [
        mem.remember(
            text, user_id=user, session_id="s1", memory_type=kind, occurred_at=start + timedelta(minutes=i)
        ).id
        for i, (text, kind) in enumerate(texts)
    ]
    mem.forget(ids[2], user_id=user)
    run = mem.jobs.run("decay", user_id=user, now=datetime.now(UTC) + timedelta(days=40))
    assert run.status == "success", run.error
    return run.id


def _cells(row: object) -> list[str]:
    return [td.text for td in row.find_elements(By.TAG_NAME, "td")]  # type: ignore[attr-defined]


def _table(driver: WebDriver, table_id: str, attr: str) -> dict[str, list[str]]:
    rows = driver.find_elements(By.CSS_SELECTOR, f"#{table_id} tbody tr")
    return {r.get_attribute(f"data-{attr}") or "": _cells(r) for r in rows}


def _when(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def test_dashboard_in_chromium(
    mem: GraphMemory, api_url: str, browser: WebDriver, user_id: str, request: pytest.FixtureRequest
) -> None:
    run_id = _seed(mem, user_id)
    config_before = mem.automation.get_config().version
    health_before = mem.automation.health().status

    browser.get(f"{api_url}/dashboard")
    assert browser.title == "graphmem dashboard"
    wait = WebDriverWait(browser, 30)

    # a wrong key first: the page says so and shows nothing
    browser.find_element(By.ID, "key").send_keys("not-the-key")
    browser.find_element(By.ID, "user").send_keys(user_id)
    browser.find_element(By.ID, "load").click()
    wait.until(lambda d: d.find_element(By.ID, "error").text)
    assert "401" in browser.find_element(By.ID, "error").text
    assert browser.find_element(By.ID, "loaded").text == ""

    key = browser.find_element(By.ID, "key")
    key.clear()
    key.send_keys(KEY)
    browser.find_element(By.ID, "load").click()
    wait.until(lambda d: d.find_element(By.ID, "loaded").text or d.find_element(By.ID, "error").text)
    assert browser.find_element(By.ID, "error").text == ""

    # health and the automation config, as the API reports them (other tests may move them meanwhile)
    shown_health = browser.find_element(By.ID, "health-status").text
    assert shown_health in {health_before, mem.automation.health().status}
    config = {k: cells[1] for k, cells in _table(browser, "config", "key").items()}
    assert config_before <= int(config["version"]) <= mem.automation.get_config().version
    assert config["dynamics preset"] == mem.automation.get_config().dynamics.preset

    # jobs with their state and last run; this user's run in the recent runs
    jobs = _table(browser, "jobs", "job")
    assert set(jobs) == {s.name for s in mem.jobs.list()}
    decay = jobs["decay"]
    assert decay[1] == mem.jobs.status("decay").state
    our_run = mem.automation.runs(1, job="decay", user_id=user_id)[0]
    assert our_run.id == run_id
    assert decay[4] in {"success", "failed", "running", "interrupted"}
    assert _when(decay[5]) >= our_run.started_at
    runs = _table(browser, "runs", "run")
    assert list(runs) == [run_id]
    assert runs[run_id][0:2] == ["decay", "success"] and runs[run_id][4] == user_id

    # counts by status and type and the retention histogram, against the stored memories (retention is
    # derived when read, from the anchors the decay run stored: graphmem.model.anchors is its specification)
    rows = mem.query(
        "MATCH (m:Memory {user_id: $u}) RETURN m.status AS status, m.memory_type AS type, m {.retention, "
        ".retention_scale, .retention_rate, .last_accessed_at, .recorded_at, .created_at} AS p",
        {"u": user_id},
    )
    now = datetime.now(UTC)
    stored = [{**row, "r": anchors.retention_now(row["p"], now)} for row in rows]
    assert len(stored) == 5
    assert browser.find_element(By.ID, "total").text == "5"
    by_status = {k: int(v[1]) for k, v in _table(browser, "by-status", "status").items()}
    assert by_status == dict(Counter(r["status"] for r in stored))
    assert by_status["forgotten"] == 1
    by_type = {k: int(v[1]) for k, v in _table(browser, "by-type", "type").items()}
    assert by_type == {"episodic": 3, "procedural": 1, "semantic": 1}
    expected = [0] * 10
    for r in stored:
        expected[min(int(r["r"] * 10), 9)] += 1
    shown = [int(cells[1].split()[-1]) for cells in _table(browser, "retention", "bucket").values()]
    assert shown == expected
    assert expected[9] < 5, "the decay run 40 days ahead should have lowered some retention"

    # the user's timeline, newest first
    events = mem.temporal.timeline(user_id)
    rows = browser.find_elements(By.CSS_SELECTOR, "#timeline tbody tr")
    assert len(rows) == len(events) >= 6
    assert [_cells(r)[3] for r in rows] == [e.text or "" for e in reversed(events)]
    assert "memory_forgotten" in {r.get_attribute("data-kind") for r in rows}
    assert "I adopted a dog named Rex" in browser.find_element(By.ID, "timeline").text

    SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
    assert browser.save_screenshot(str(SCREENSHOT))
    assert SCREENSHOT.stat().st_size > 10_000
    reporter = request.config.pluginmanager.get_plugin("terminalreporter")
    capture = request.config.pluginmanager.get_plugin("capturemanager")
    if reporter is not None and capture is not None:  # past output capture: `make test` shows the path
        with capture.global_and_fixture_disabled():
            reporter.ensure_newline()
            reporter.write_line(f"dashboard screenshot: {SCREENSHOT}")
    else:
        print(f"dashboard screenshot: {SCREENSHOT}")
