"""serve's processes end without Python's teardown once they have stopped cleanly: freeing a served app's heap
object by object, which nothing needs (the store's transactions are committed, the system frees the memory), cost
each gunicorn worker and the quick lane's consumer 0.3 CPU s at every stop here, about 1 CPU s a server. This module
is also gunicorn's configuration (`--config python:webapp.commands.exits`): gunicorn reads its `worker_exit` hook."""

from __future__ import annotations

import logging
import multiprocessing
import os
import sys
from typing import Any, NoReturn


def quick_exit(status: int) -> NoReturn:
    """End this process now with this status, its logs and output flushed first, once its child processes have
    ended, as Python's own exit waits for them: a consumer's job workers halting their jobs (keeping their frames,
    releasing their claims, `supervisor`) must not be cut short by serve's kill of the group that follows."""
    for child in multiprocessing.active_children():
        child.join()
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)


def worker_exit(server: Any, worker: Any) -> None:
    """gunicorn's hook, run in a worker as it ends: one ending normally (SystemExit(0), as gunicorn's worker
    process raises it) ends at once; any other way (a boot error's status, an exception) goes on as gunicorn has it."""
    ending = sys.exc_info()[1]
    if isinstance(ending, SystemExit) and ending.code in (0, None):
        quick_exit(0)
