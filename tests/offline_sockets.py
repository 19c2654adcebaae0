"""Every connection but loopback refused (socket.connect, connect_ex, create_connection): the tests
that run a framework against the course's endpoint prove it reaches nothing else."""

import socket


def loopback(address) -> bool:
    host = address[0] if isinstance(address, tuple) else address
    return isinstance(host, str) and (host.startswith("127.") or host in ("localhost", "::1"))


def guard_sockets(monkeypatch) -> None:
    """Refuse, through `monkeypatch`, every connection that is not to loopback."""
    connect, connect_ex, create = socket.socket.connect, socket.socket.connect_ex, socket.create_connection

    def guard(address):
        if not loopback(address):
            raise ConnectionRefusedError(f"offline test: refused a connection to {address!r}")

    def guarded_connect(self, address):
        guard(address)
        return connect(self, address)

    def guarded_connect_ex(self, address):
        guard(address)
        return connect_ex(self, address)

    def guarded_create(address, *args, **kwargs):
        guard(address)
        return create(address, *args, **kwargs)

    monkeypatch.setattr(socket.socket, "connect", guarded_connect)
    monkeypatch.setattr(socket.socket, "connect_ex", guarded_connect_ex)
    monkeypatch.setattr(socket, "create_connection", guarded_create)


def assert_only_loopback(base_url: str) -> None:
    """Under `guard_sockets`: an outside address is refused, by create_connection and by connect, and
    the endpoint at `base_url` on loopback still connects."""
    import pytest

    with pytest.raises(ConnectionRefusedError, match="offline test"):
        socket.create_connection(("192.0.2.1", 80), timeout=1)
    with socket.socket() as sock, pytest.raises(ConnectionRefusedError, match="offline test"):
        sock.connect(("198.51.100.7", 443))
    port = int(base_url.rsplit(":", 1)[1].split("/")[0])
    socket.create_connection(("127.0.0.1", port), timeout=1).close()
