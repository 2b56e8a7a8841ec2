"""Results: what is computed, without running it: the named computations (`computations`: one class each, listed in
`catalogue`; the code-breaking ones in `codebreak_results`), where a proof runs (`cluster`: this process, forked
processes or a Ray cluster, the computation's own choice, so it stays beside it), a peg proof's levels on disk
(`peg_spill`) and the code-breaking games' files (`games`). How results are reached and made (the queues, the
supervisor, the precomputation, warm-up) is `webapp.jobs`, the room above.

May import: http, store, config (and the solvers). Never jobs, pages, commands or keys."""
