"""Whether a server could listen on a host and port: ``takujo serve`` asks before it starts, so
that a busy port is one clear error rather than uvicorn's."""
from __future__ import annotations

import errno
import os
import socket
import sys


def port_free(host: str, port: int) -> bool:
    """False if another socket already listens on `port` at `host`.

    Binds a socket to each of the host's addresses the way uvicorn's server does (asyncio's
    ``create_server``: SO_REUSEADDR on POSIX, IPv6 sockets IPv6-only), then closes it, so a
    port left in TIME_WAIT by a stopped server counts as free, as it is to uvicorn. Only
    "address in use" makes it busy: any other failure (a host that does not resolve, a
    privileged port) is left for the server itself to report. Port 0 is always free. Another
    process may of course take the port between this check and the server's own bind.
    """
    if port == 0:
        return True
    try:
        infos = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError):
        return True
    for family, kind, proto, _, address in dict.fromkeys(infos):
        try:
            sock = socket.socket(family, kind, proto)
        except OSError:  # e.g. an IPv6 address where the kernel has no IPv6
            continue
        with sock:
            if os.name == "posix" and sys.platform != "cygwin":
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6 and hasattr(socket, "IPPROTO_IPV6"):
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            try:
                sock.bind(address)
            except OSError as exc:
                if exc.errno == errno.EADDRINUSE:
                    return False
    return True
