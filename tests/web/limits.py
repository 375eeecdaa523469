"""Limits for tests that play whole games quickly from one address (the defaults are for
people): every rate high enough never to be reached; tests of the limits set their own."""
from __future__ import annotations

from takujo.web.settings import Limits, Settings

RATES = {"create": "100000/minute", "actions": "1000000/minute", "ws_messages": "1000000/minute",
         "ws_connects": "100000/minute", "chat": "100000/minute", "uploads": "100000/minute", "checks": "100000/minute", "requests": "1000000/minute"}
GENEROUS = Settings(limits=Limits(**RATES))


#: Sockets from one address are bounded too: a load test's clients are all on 127.0.0.1.
SOCKETS = {"sockets_per_address": "100000", "sockets": "100000"}


def cli_args() -> list[str]:
    """The same rates, and the sockets an address may hold lifted, as `takujo serve --limit`
    options."""
    return [arg for name, value in {**RATES, **SOCKETS}.items() for arg in ("--limit", f"{name}={value}")]
