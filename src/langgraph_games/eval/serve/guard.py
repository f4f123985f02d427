"""Who may use the play server: the checks every request passes before it is answered.

A page on another site, opened in the same browser while ``serve`` runs, can send requests
to it; without these checks it could start matches (spending the user's model calls) and,
before opponents were limited, name an endpoint of its own. Three checks close that:

- **Host** (against DNS rebinding: a name of the attacker's that resolves to this
  machine): the ``Host`` header must name this server's port and a host that cannot be
  such a name: ``localhost``, a literal IP address, or a name the person who started the
  server allowed (``--allowed-host``). Every request is checked.
- **Origin** (against cross-site requests): a request that carries ``Origin`` must come
  from the page's own origin (``http://`` + the checked ``Host``).
- **Token**: every state-changing request (``POST``) must carry the server's per-start
  token in the ``X-Serve-Token`` header. The page gets it inside the HTML the server
  sends; another site cannot read that page (the browser's same-origin rule), and a
  custom header makes a cross-site ``fetch`` ask first (a CORS preflight the server never
  grants).
"""

from __future__ import annotations

import hmac
import ipaddress
import secrets
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Protocol

__all__ = ["TOKEN_HEADER", "Headers", "Refusal", "RequestGuard"]

TOKEN_HEADER = "X-Serve-Token"
"""The header a state-changing request carries the server's token in."""


class Headers(Protocol):
    """A request's headers, looked up by name (:class:`http.client.HTTPMessage` is one)."""

    def get(self, name: str, /) -> str | None:
        """The header's value, ``None`` when absent."""
        ...


@dataclass(frozen=True)
class Refusal:
    """Why a request is refused: the HTTP status and a sentence for the answer."""

    status: int
    reason: str


@dataclass(frozen=True)
class RequestGuard:
    """The Host, Origin and token checks of one server.

    Args:
        port: The port the server listens on (a ``Host`` naming another port is refused).
        allowed_hosts: Host names accepted besides ``localhost`` and literal IP addresses.
        token: The per-start token (a fresh random one by default).
    """

    port: int
    allowed_hosts: frozenset[str] = frozenset()
    token: str = field(default_factory=lambda: secrets.token_urlsafe(24), repr=False)

    @classmethod
    def of(cls, port: int, allowed_hosts: Iterable[str] = ()) -> RequestGuard:
        """A guard for ``port`` accepting ``allowed_hosts`` (case and a final dot ignored)."""
        return cls(port, frozenset(_plain(name) for name in allowed_hosts))

    def check(self, method: str, headers: Headers) -> Refusal | None:
        """``None`` when the request may be answered, else why not.

        Args:
            method: ``GET`` or ``POST`` (any other method is refused elsewhere).
            headers: The request's headers (a case-insensitive lookup, as
                :class:`http.client.HTTPMessage` has).
        """
        host = headers.get("Host")
        if host is None or not self.host_ok(host):
            return Refusal(
                403,
                f"Host {host!r} is not this server's: use http://127.0.0.1:{self.port}/ or "
                f"http://localhost:{self.port}/ (a name of your own needs --allowed-host NAME)",
            )
        origin = headers.get("Origin")
        if origin is not None and origin != f"http://{host}":
            return Refusal(403, f"requests from {origin!r} are refused: open the server's own page")
        if method == "POST" and not hmac.compare_digest(
            (headers.get(TOKEN_HEADER) or "").encode(), self.token.encode()
        ):
            return Refusal(
                403,
                f"this request needs the server's token in the {TOKEN_HEADER} header "
                "(the server's own page sends it)",
            )
        return None

    def host_ok(self, host: str) -> bool:
        """Whether a ``Host`` header names this server in a form rebinding cannot forge."""
        name, port = _split_host(host)
        if port != self.port or not name:
            return False
        name = _plain(name)
        if name == "localhost" or name in self.allowed_hosts:
            return True
        try:
            ipaddress.ip_address(name)
        except ValueError:
            return False
        return True


def _plain(name: str) -> str:
    return name.strip().lower().rstrip(".")


def _split_host(host: str) -> tuple[str, int | None]:
    """``(name, port)`` of a ``Host`` header (port 80 when none is given)."""
    host = host.strip()
    if host.startswith("["):
        name, bracket, rest = host[1:].partition("]")
        if not bracket or (rest and not rest.startswith(":")):
            return "", None
        port_text = rest[1:] if rest else ""
    elif host.count(":") == 1:
        name, _, port_text = host.partition(":")
    elif ":" in host:
        return "", None  # an unbracketed IPv6 address: not a valid Host
    else:
        name, port_text = host, ""
    if not port_text:
        return name, 80
    return (name, int(port_text)) if port_text.isdigit() and len(port_text) <= 5 else ("", None)
