"""``python -m app``: serve Kartenrunde with uvicorn, the one way `make run`, the image,
the tests and the benchmarks start the server."""

from __future__ import annotations

import argparse
import gc
import importlib
import importlib.util
import logging
import os

import uvicorn

from app import observability, proxies
from app.protocol import TRANSPORT_MAX_BYTES
from app.settings import get_settings
from app.storage import db
from app.transport import PacedWebSocketProtocol

logger = logging.getLogger("app.launcher")
SHUTDOWN_SECONDS = 3


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m app", description=__doc__)
    parser.add_argument("--host", default="0.0.0.0")
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
    args = parser.parse_args()
    settings = get_settings()
    observability.configure_logging(settings)
    trusted = proxies.resolve(settings.forwarded_allow_ips)
    logger.info(
        "X-Forwarded-For and X-Forwarded-Proto are believed from %s only",
        ", ".join(trusted) or "nobody",
        extra={"forwarded_allow_ips": trusted},
    )
    if importlib.util.find_spec("engine.scoundrel_search") is None:
        logger.warning(
            "Scoundrel's solver uses its Python reference search, some 18 times slower: "
            "the compiled one was not built at install (no C++ compiler or Python headers)"
        )
    if importlib.util.find_spec("engine.expeditionen_rollout") is None:
        logger.warning(
            "The strong Expeditionen computer plays its rollouts in Python, some 150 times "
            "slower and so much weaker: the compiled rollout was not built at install"
        )
    # Before serving, in a process of its own: the server's lifespan then skips it.
    db.migrate_in_child(settings.database_url)
    # The modules live as long as the process: the collector's full passes (pauses of
    # the event loop that grow with the heap) need not walk their objects again.
    importlib.import_module("app.main")
    gc.freeze()
    uvicorn.run(
        "app.main:app",
        host=args.host,
        port=args.port,
        # A client's address and scheme from X-Forwarded-* only when the peer is one of
        # FORWARDED_ALLOW_IPS (a reverse proxy): anyone else could fake them.
        proxy_headers=True,
        forwarded_allow_ips=trusted,
        # Views are a few hundred bytes: compressing each one cost a fifth of the server's
        # CPU per move (bench/load.py) and saved nothing that matters.
        ws_per_message_deflate=False,
        # websockets-sansio (which app/connections.py can close when a socket's writes
        # stall), parsing no further ahead than the app reads (app/transport.py).
        ws=PacedWebSocketProtocol,
        # Larger frames close the socket with 1009 (MAX_MESSAGE_BYTES refuses smaller ones).
        ws_max_size=TRANSPORT_MAX_BYTES,
        # Shutdown takes seconds whatever the clients do: sockets that do not close by
        # then are dropped (they reconnect to the next server and resync).
        timeout_graceful_shutdown=SHUTDOWN_SECONDS,
        # Logging is configure_logging's (the app is imported already, so uvicorn's own
        # configuration would come after it and win).
        log_config=None,
    )


if __name__ == "__main__":
    main()
