"""One error page and one JSON error shape: {"error": ..., "detail": ...}."""

from __future__ import annotations

from flask import Flask, Response, jsonify, render_template, request
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import BadRequest, HTTPException

from solvers.weighing import ProblemError


class InputError(BadRequest):
    """Bad input from a user: a 400 with a message meant for people."""

    def __init__(self, message: str, detail: object = None) -> None:
        """Keep the message and any detail for the error page or JSON."""
        super().__init__(message)
        self.detail = detail


def _wants_json() -> bool:
    """True for API requests."""
    return request.path.startswith("/api/")


def error_response(status: int, title: str, message: str, detail: object = None) -> tuple[Response | str, int]:
    """The error as JSON for the API, as the error page otherwise."""
    if _wants_json():
        return jsonify({"error": message, "detail": detail}), status
    return render_template("error.html", status=status, title=title, message=message), status


def init_app(app: Flask) -> None:
    """Register the handlers."""

    @app.errorhandler(ProblemError)
    def problem_error(e: ProblemError) -> tuple[Response | str, int]:
        """A solver refused the input."""
        return error_response(400, "Bad request", str(e))

    @app.errorhandler(CSRFError)
    def csrf_error(e: CSRFError) -> tuple[Response | str, int]:
        """A form without a valid CSRF token."""
        return error_response(400, "Form expired", "The form was missing its security token; reload and try again.")

    @app.errorhandler(HTTPException)
    def http_error(e: HTTPException) -> tuple[Response | str, int]:
        """Any HTTP error, with its own message."""
        status = e.code or 500
        message = e.description or e.name
        return error_response(status, f"{status} {e.name}", message, getattr(e, "detail", None))
