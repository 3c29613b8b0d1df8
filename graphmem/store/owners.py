"""Who holds a claim (a job run, an idempotency key): this process's host and pid, and whether a process of
this machine that holds one died (killed, crashed), so its claim is taken over at once rather than after a
time-out."""

from __future__ import annotations

import os
import socket
from functools import cache
from pathlib import Path


def identity() -> tuple[str, int]:
    """This process's host name and pid."""
    return socket.gethostname(), os.getpid()


@cache
def _machine() -> str:
    """The host name, boot and pid namespace this process runs in: processes that share it see each other's
    pids (containers sharing a host name, as with Docker's host network or one Kubernetes pod, do not share
    the pid namespace, so they never judge each other's claims)."""
    try:
        boot = Path("/proc/sys/kernel/random/boot_id").read_text().strip()
        space = os.stat("/proc/self/ns/pid").st_ino
    except OSError:  # no /proc: no other process is judged dead
        return ""
    return f"{socket.gethostname()}/{boot}/{space}"


def owner() -> str:
    """This process as a claim's holder: its machine (:func:`_machine`) and pid."""
    return f"{_machine()}#{os.getpid()}"


def process_alive(pid: int) -> bool:
    """Whether process ``pid`` of this host runs (a zombie, killed and not reaped yet, does not)."""
    try:
        os.kill(pid, 0)
    except (ProcessLookupError, OverflowError, ValueError):  # none; a pid no process can have
        return False
    except PermissionError:  # another user's
        return True
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[-1].split()[0] != "Z"
    except OSError:
        return True


def here(holder: object) -> bool:
    """Whether ``holder`` (:func:`owner`) is a process of this machine (alive or not)."""
    machine = holder.rpartition("#")[0] if isinstance(holder, str) else ""
    return bool(machine) and machine == _machine()


def died(holder: object) -> bool:
    """Whether ``holder`` (:func:`owner` of the process that took a claim) is another process of this
    machine that no longer runs; holders of other machines, unreadable ones and this process are not."""
    machine, _, pid = holder.rpartition("#") if isinstance(holder, str) else ("", "", "")
    if not machine or machine != _machine() or not pid.isascii() or not pid.isdigit():
        return False
    number = int(pid)
    return number not in (os.getpid(), 0) and number < 2**31 and not process_alive(number)
