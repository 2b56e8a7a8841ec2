"""Security headers, a strict Content-Security-Policy and CSRF protection (Flask-WTF)."""

from __future__ import annotations

import os

from flask import Flask, Response
from flask_wtf.csrf import CSRFProtect
from werkzeug.middleware.proxy_fix import ProxyFix

from solvers.numbers import whole_number

csrf = CSRFProtect()

CSP = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)


def add_headers(response: Response) -> Response:
    """Set the security headers on every response, and Vary on the headers that choose a fragment."""
    response.headers["Content-Security-Policy"] = CSP
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["X-Frame-Options"] = "DENY"
    response.headers["Referrer-Policy"] = "same-origin"
    response.headers["Cross-Origin-Opener-Policy"] = "same-origin"
    response.headers["Permissions-Policy"] = "camera=(), microphone=(), geolocation=()"
    response.vary.add("HX-Request")  # a fragment or the whole page (htmx.wants_fragment)
    response.vary.add("HX-History-Restore-Request")
    return response


def add_hsts(response: Response) -> Response:
    """Behind TLS: browsers keep to HTTPS for a year."""
    response.headers["Strict-Transport-Security"] = "max-age=31536000; includeSubDomains"
    return response


def init_app(app: Flask) -> None:
    """Cookies, CSRF protection and the header hooks; Secure cookies and HSTS when served over TLS
    (COIN_PUZZLES_TLS=1), and the client's address and scheme from a reverse proxy when
    COIN_PUZZLES_PROXIES says how many proxies stand in front (werkzeug's ProxyFix)."""
    tls = os.environ.get("COIN_PUZZLES_TLS") == "1" or bool(app.config.get("TLS"))
    app.config.update(SESSION_COOKIE_HTTPONLY=True, SESSION_COOKIE_SAMESITE="Lax", SESSION_COOKIE_SECURE=tls)
    n = whole_number(os.environ.get("COIN_PUZZLES_PROXIES", "0")) or 0
    if n > 0:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=n, x_proto=n, x_host=n)  # type: ignore[method-assign]
    csrf.init_app(app)
    app.after_request(add_headers)
    if tls:
        app.after_request(add_hsts)
