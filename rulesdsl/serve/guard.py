"""Who may talk to the server: the checks every request and WebSocket passes before the
application sees it.

Stage: serving (an ASGI middleware around app.py). A web page from another site can make
a visitor's browser send requests to the server (a form that posts, a WebSocket), and a
page of a name the attacker controls can be made to resolve to this machine (DNS
rebinding), after which the browser treats the server as that page's own site. So:

- the `Host` a request names must be one the server is served under: the loopback names
  (`localhost`, 127.0.0.1, ::1), the address given to `--host`, the names given to
  `--allow-host`, and any IP address when the server listens on every address (a page
  under an IP address is that address's own: only a name can be rebound);
- an `Origin`, when the browser sends one (it always does for a WebSocket and a POST
  from a page), must be the very site the request is addressed to (the same host and
  port as `Host`); `null` (a sandboxed or local page) is refused;
- a POST must carry a JSON body (`Content-Type: application/json`, which a plain HTML
  form cannot send) and the server's request token in the `X-Request-Token` header: the
  token is written into the page the server hands out, which another site cannot read.

A refused request gets status 403 (415 for another content type) and an error; a refused
WebSocket is closed before it is accepted (the browser sees status 403), so it gets
nothing. Clients other than browsers (scripts, the benchmarks) send no Origin; they may
call the API if they read the token from the page.
"""

from __future__ import annotations

import hmac
import ipaddress
import re
from collections.abc import Iterable
from typing import Any
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.responses import JSONResponse

LOOPBACK = ("localhost", "127.0.0.1", "::1")
TOKEN_HEADER = "X-Request-Token"
EVERY_ADDRESS = ("0.0.0.0", "::", "")
SAFE_METHODS = ("GET", "HEAD")


def split_host(host: str) -> tuple[str, int | None] | None:
    """A `Host` value as its name (lower case, without a final dot, an IPv6 address without
    its brackets) and port (None if not given); None if it is not one."""
    host = host.strip().lower()
    if host.startswith("["):
        name, bracket, rest = host[1:].partition("]")
        if not bracket or (rest and not rest.startswith(":")):
            return None
        port = rest[1:]
    else:
        name, _, port = host.partition(":")
    if not name or (port and not port.isdigit()) or len(port) > 5:
        return None
    return name.rstrip("."), int(port) if port else None


def _is_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


class Guard:
    """The ASGI middleware: `names` the host names the server answers to, `any_address`
    whether any IP address is one of them, `token` the request token of the pages."""

    def __init__(self, app: Any, names: Iterable[str], any_address: bool, token: str) -> None:
        self.app = app
        self.names = frozenset(n.lower().rstrip(".").strip("[]") for n in names)
        self.any_address = any_address
        self.token = token

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        refusal = self.refusal(scope["type"] == "websocket", scope.get("method", "GET"),
                               Headers(scope=scope))
        if refusal is None:
            await self.app(scope, receive, send)
        elif scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008})
        else:
            status, message = refusal
            await JSONResponse({"error": message}, status_code=status)(scope, receive, send)

    def refusal(self, websocket: bool, method: str,
                headers: Headers) -> tuple[int, str] | None:
        """Why a request is refused (its status and message), or None."""
        host = split_host(headers.get("host", ""))
        if host is None or not (host[0] in self.names or
                                (self.any_address and _is_address(host[0]))):
            return 403, "this server does not answer to that host name"
        origin = headers.get("origin")
        if origin is not None and not same_site(origin, host):
            return 403, "requests from another site are refused"
        if websocket or method in SAFE_METHODS:
            return None
        kind = headers.get("content-type", "").split(";")[0].strip().lower()
        if kind != "application/json":
            return 415, "the request must be JSON (Content-Type: application/json)"
        if not hmac.compare_digest(headers.get(TOKEN_HEADER, "").encode(),
                                   self.token.encode()):
            return 403, "the request token is missing or wrong: reload the page"
        return None


def same_site(origin: str, host: tuple[str, int | None]) -> bool:
    """Whether a browser's `Origin` is the site `host` (name and port) names: the same name
    and the same port, a missing port being the scheme's own."""
    try:
        parts = urlsplit(origin.strip().lower())
        port = parts.port
    except ValueError:
        return False
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return False
    default = 443 if parts.scheme == "https" else 80
    name = parts.hostname.rstrip(".")
    return name == host[0] and (port or default) == (host[1] or default)


def served_names(host: str, allowed: Iterable[str]) -> tuple[list[str], bool]:
    """The host names a server listening on `host` answers to, with the names `allowed`
    besides, and whether any IP address is one (when it listens on every address)."""
    names = [*LOOPBACK, *allowed]
    every = host.strip("[]") in EVERY_ADDRESS
    if not every:
        names.append(host)
    return names, every


def token_in(page: str) -> str | None:
    """The request token written into a page the server handed out (for clients other
    than the page itself: scripts, tests), or None."""
    found = re.search(r'<meta name="request-token" content="([A-Za-z0-9_-]+)">', page)
    return found.group(1) if found else None
