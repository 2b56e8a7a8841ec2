"""HTTP plumbing shared by every page: caching and its headers (`caching`), htmx fragments and links (`htmx`),
static assets (`assets`), the one error shape (`errors`), security headers (`security`) and the parsing of query
parameters (`params`).

May import: store, config (and the solvers' errors and parsers). Never pages, commands, keys or results."""
