"""`proxy-config`: deploy/nginx.conf with its placeholders filled for this machine (serve writes one for its own
nginx the same way): the addresses, the run folder, the account, the host names and port whose pages nginx may
keep, the hashed static files it serves from disk and the certificates it sends itself."""

from __future__ import annotations

import argparse
import grp
import os
import pwd
import re
import shutil
from pathlib import Path

from solvers.errors import InputError
from webapp.config import CERTIFICATES, ROOT
from webapp.http.hashed import every_hashed


def write_proxy_config(run: Path, listen: str, upstream: str, static: Path | None) -> Path:
    """deploy/nginx.conf with its placeholders filled, written into the run folder (made 0700); its path. Its
    workers run as the account that wrote it (when nginx starts as root), which can read the checkout."""
    run = run.resolve()
    run.mkdir(parents=True, exist_ok=True, mode=0o700)
    static = static.resolve() if static else ROOT / "static"
    if not (static / "css").is_dir():
        raise InputError(f"{static} is not the project's static folder (it has no css/)")
    text = (ROOT / "deploy" / "nginx.conf").read_text()
    for name, value in (
        ("@STATIC_FILES@", static_files(static)),
        ("@STATIC@", str(static)),
        ("@CERTIFICATES@", str(CERTIFICATES)),
        ("@LISTEN@", listen),
        ("@UPSTREAM@", upstream),
        ("@RUN@", str(run)),
        ("@HOSTS@", known_hosts(os.environ.get("COIN_PUZZLES_HOSTS", ""), port_of(listen))),
        ("@PORT@", port_of(listen)),
        ("@USER@", pwd.getpwuid(os.geteuid()).pw_name),
        ("@GROUP@", grp.getgrgid(os.getegid()).gr_name),
    ):
        text = text.replace(name, value)
    (run / "nginx.conf").write_text(text)
    shutil.rmtree(run / "cache", ignore_errors=True)  # pages kept by an earlier deploy are not served by this one
    return run / "nginx.conf"


def port_of(listen: str) -> str:
    """The port of a listen address ('127.0.0.1:8000', '[::]:80', '8080'; 80 when none is given)."""
    tail = listen.rsplit(":", 1)[-1] if ":" in listen.rsplit("]", 1)[-1] else listen
    return tail if tail.isdigit() else "80"


def known_hosts(names: str, port: str) -> str:
    """The map entries (one line) of the public host names whose pages nginx may cache, each bare or with the port
    nginx listens on (any other port would make a cache entry of its own); a name that is not a plain host name
    is refused (it would be read as nginx configuration)."""
    entries = []
    for name in filter(None, (n.strip().lower() for n in names.split(","))):
        if not re.fullmatch(r"[a-z0-9]([a-z0-9.-]{0,251}[a-z0-9])?", name):
            raise InputError(f"COIN_PUZZLES_HOSTS: {name!r} is not a host name")
        entries.append(f'"~^{re.escape(name)}(:{port})?$" "";')
    return " ".join(entries)


def static_files(folder: Path) -> str:
    """The map entries (one line) from each static file's hashed address to its file, which nginx serves from disk
    (any other hashed address is a 404: no query string, no invented hash reaches the app)."""
    return " ".join(f'"/static/{hashed}" "{name}";' for hashed, name in every_hashed(folder) if '"' not in name)


def proxy_config(args: argparse.Namespace) -> int:
    """Write deploy/nginx.conf with its placeholders filled into a run folder; print how to start nginx."""
    conf = write_proxy_config(Path(args.run), args.listen, args.upstream, Path(args.static) if args.static else None)
    print(f"nginx -p {conf.parent} -c {conf} -g 'daemon off;'")
    return 0


def proxy_config_arguments(px: argparse.ArgumentParser) -> None:
    px.add_argument("--listen", default="127.0.0.1:8080")
    px.add_argument("--upstream", default="127.0.0.1:8000")
    px.add_argument("--run", default="instance/nginx", help="folder for the configuration, pid, logs, buffers")
    px.add_argument("--static", default="", help="the static folder nginx serves (default: the checkout's static/)")
