"""Keys: sealed games whose secret never reaches the browser in readable form (`secretbox`) and the rotation of the
secret key (`rotation`); the key settings themselves are `webapp.config`'s.

May import: jobs, results, http, store, config. Never pages or commands."""
