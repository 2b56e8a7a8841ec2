"""The simulated schedule of a proof's task log (`solvers.parallel.makespan`, which `benchmarks/scaling.py` runs)."""

from __future__ import annotations

from solvers.parallel import Logged, makespan


def test_the_simulated_schedule() -> None:
    """List scheduling: each task on the first process free once the tasks it waited for are done; with no limit on
    processes, the critical path."""

    def free(*seconds: float) -> list[Logged]:
        return [Logged(i, s, []) for i, s in enumerate(seconds)]

    assert makespan(free(3.0, 1.0, 1.0, 1.0), 1) == 6.0
    assert makespan(free(3.0, 1.0, 1.0, 1.0), 2) == 3.0
    assert makespan(free(1.0, 1.0, 1.0, 3.0), 2) == 4.0  # the order handed out matters
    assert makespan(free(1.0, 2.0), 8) == 2.0
    chain = [Logged(0, 0.5, []), Logged(1, 1.0, [0]), Logged(2, 1.0, [0]), Logged(3, 2.0, [1])]
    assert makespan(chain, 8) == makespan(chain, 0) == 3.5  # 0, then 1, then 3
    assert makespan(chain, 1) == 4.5  # one after another
