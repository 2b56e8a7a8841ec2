"""Results: the named computations (`computations`, `catalogue`, `codebreak_results`), what the precomputation fills the
store with (`precompute`), the web's way to a result (`access`: stored, computed now, or a job), the job queues and
their consumers (`jobs`, `supervisor`), a stop that halts a proof instead of killing it (`halting`), proofs on a
cluster (`cluster`), rendered answers kept in the store (`rendered`), the optima table (`optima`), warm-up (`warm`),
a peg proof's levels on disk (`peg_spill`) and the code-breaking games' files (`games`).

May import: http, store, config (and the solvers). Never pages, commands or keys."""
