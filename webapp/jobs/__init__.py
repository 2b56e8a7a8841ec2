"""Jobs: the trail from a request to a result, followed by imports. A view asks `access` (`computed`: stored,
shipped, computed now when quick, or a job queued and `Pending` raised); `queues` holds the job queues (Huey) and
their consumers, which hand each job to `supervisor` (a watched child process that runs the computation's `run`
with a checkpoint in the store); `halting` turns a stop into a halt that keeps where a proof stood; `precompute`
says what the background precomputation fills the store with, `shipped` what the package ships proved (and
`install`s it), `warm` loads the kernels and tables before the first request; `rendered` keeps rendered answers in
the store, `optima` reads the optima table from the certificates and the store, `variant_plans` a variant's plan.

May import: results, http, store, config (and the solvers). Never pages, commands or keys."""
