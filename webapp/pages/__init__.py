"""Pages: one module per puzzle (its blueprints, the view models its templates render, its JSON API), and the parts
every page shares (the home page, the midend, the presets). A view parses its request, asks `jobs.access` for
what it shows, renders; it holds no game rule and no search.

May import: keys, jobs, results, http, store, config (and the solvers). Nothing imports pages but the app factory
(`webapp.create_app`), which registers their blueprints."""
