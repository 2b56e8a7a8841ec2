"""Commands: the `coin-puzzles` command line (`cli`: one subcommand per puzzle, `--json` with the API's fields), the
operator's commands (`admin`: serve, worker, precompute, artifacts, rotate-key, warm-up, certify; `proxy`:
proxy-config), `make frontier`'s runner (`frontier`) and their shared argument parsing (`arguments`).

May import: keys, jobs, results, http, store, config (and the solvers). Never pages. Nothing imports commands."""
