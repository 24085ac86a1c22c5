"""The real server in a subprocess and Debian's Chromium, driven by Playwright.

Screenshots go to artifacts/screenshots/ (git-ignored): people look at them.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import (
    Browser,
    BrowserContext,
    ConsoleMessage,
    Error,
    Locator,
    Page,
    Playwright,
    sync_playwright,
)

from tests.server import AppProcess, free_port, migrated_sqlite

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "artifacts" / "screenshots"
# Debian's headless shell is Chromium's old headless mode, without the browser's own UI:
# the browser tests are CPU-bound, and with it they take 0.91x the CPU (commit body).
HEADLESS_SHELL = "/usr/bin/chromium-headless-shell"
CHROMIUM = "/usr/bin/chromium"
# Chromium 156 preloads two omnibox popups (chrome://omnibox-popup.top-chrome) for every
# browser context, each in a renderer of its own: without them a context costs Chromium
# 2.5x less CPU, and the browser tests are CPU-bound (bench numbers in the commit body).
NO_OMNIBOX = "--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup,WebUIOmniboxFullPopup"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    NO_OMNIBOX,
]
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 360, "height": 740}
# Every test's browsers come from 127.0.0.1: the per-address caps would count them all as
# one client (tests/app/test_limits.py tests the caps).
UNCAPPED = {"ROOMS_PER_ADDRESS_PER_MINUTE": "10000", "MAX_CONNECTIONS_PER_ADDRESS": "10000"}


@contextmanager
def serve(folder: Path, **settings: str) -> Iterator[str]:
    """The real server (uvicorn, app.main:app) on a fresh SQLite file in `folder` (at the
    newest schema, or the one there); its address while the block runs. `settings` are
    environment variables for it."""
    database = folder / "kartenrunde.db"
    if not database.exists():
        shutil.copyfile(migrated_sqlite(), database)
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{database}",
        "SECRET_KEY": "browser-tests-" + "s" * 32,
        "ENVIRONMENT": "development",
        "LOG_LEVEL": "WARNING",
        **UNCAPPED,
        **settings,
    }
    server = AppProcess(port, env, folder / "server.log")
    try:
        yield server.start().base_url
    finally:
        server.stop(timeout=10)


# Package scope: the browser's event loop must be gone before other packages' tests run,
# some of which call asyncio.run() on this thread.
@pytest.fixture(scope="package")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The server with its default settings (a takeover is offered after 3 minutes, so a
    page that reloads or goes offline in a test never gets the other page an offer)."""
    with serve(tmp_path_factory.mktemp("server")) as url:
        yield url


@pytest.fixture(scope="package")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as running:
        yield running


@pytest.fixture(scope="package")
def browser(playwright: Playwright) -> Iterator[Browser]:
    shell = playwright.chromium.launch(executable_path=HEADLESS_SHELL, args=CHROMIUM_ARGS)
    yield shell
    shell.close()


@pytest.fixture(scope="package")
def notifying_browser(playwright: Playwright) -> Iterator[Browser]:
    """Chromium itself, for the tests of notifications: the headless shell answers
    "denied" to every notification permission, even one the test granted."""
    chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    yield chromium
    chromium.close()


class Errors:
    """Uncaught script errors of the pages of a test: any one fails it."""

    def __init__(self) -> None:
        self.seen: list[str] = []

    def watch(self, page: Page) -> None:
        page.on("pageerror", lambda error: self.seen.append(f"{page.url}: {error}"))


# Each page tells the test of every refusal of the site's Content-Security-Policy
# (app/headers.py); tests/browser/test_csp.py proves that a planted one is reported.
REPORT_VIOLATIONS = """
window.addEventListener("securitypolicyviolation", (event) => {
  const seen = `${event.effectiveDirective} refused ${event.blockedURI || "?"}`
    + ` (${event.sourceFile || "?"}:${event.lineNumber}) ${event.sample}`;
  (window.__cspViolations ??= []).push(seen);
  window.__reportCspViolation(seen);
});
"""


class Violations:
    """Content-Security-Policy violations in the watched browser contexts: the page's event
    (its directive and the blocked URI), and Chromium's console line, which also covers
    what no page event reports."""

    def __init__(self) -> None:
        self.seen: list[str] = []
        self.contexts: list[BrowserContext] = []

    def watch(self, context: BrowserContext) -> None:
        context.expose_binding(
            "__reportCspViolation",
            lambda source, seen: self.seen.append(f"{source['page'].url}: {seen}"),
        )
        context.add_init_script(REPORT_VIOLATIONS)
        context.on("console", self.console)
        context.on("close", self.forget)
        self.contexts.append(context)

    def forget(self, context: BrowserContext) -> None:
        self.contexts.remove(context)

    def console(self, message: ConsoleMessage) -> None:
        if "Content Security Policy" in message.text:
            where = message.page.url if message.page else "a worker"
            self.seen.append(f"{where}: console: {message.text}")

    def take(self) -> list[str]:
        """The violations seen so far (after a round trip to every open page, so that the
        reports already on their way arrive), forgotten here."""
        for context in self.contexts:
            for page in context.pages:
                try:
                    page.evaluate("0")
                except Error:  # navigating or closing: what it reported is here already
                    pass
        seen, self.seen = self.seen, []
        return seen


VIOLATIONS = Violations()


@pytest.fixture(autouse=True)
def no_csp_violations() -> Iterator[None]:
    """Every browser test fails on a Content-Security-Policy violation of its pages."""
    yield
    assert VIOLATIONS.take() == []


def wait_until(page: Page, condition: str, arg: Any = None, timeout: float = 10_000) -> Any:
    """What `condition` (a function's source, called with `arg`) returns once it is truthy
    in the page. Instead of page.wait_for_function, which evaluates its predicate with
    eval() at every poll: the site's Content-Security-Policy refuses eval ('unsafe-eval'),
    so such a wait passes only if its first look, made by the test, already succeeds."""
    return page.evaluate(
        f"""([arg, timeout]) => new Promise((resolve, reject) => {{
            const condition = {condition};
            const until = performance.now() + timeout;
            const look = () => {{
              const found = condition(arg);
              if (found) resolve(found);
              else if (performance.now() > until) reject(new Error(`waited in vain: ${condition}`));
              else setTimeout(look, 20);
            }};
            look();
        }})""",
        [arg, timeout],
    )


NewPage = Callable[..., Page]


@pytest.fixture(scope="module")
def module_errors() -> Errors:
    return Errors()


def open_page(
    browser: Browser,
    base_url: str,
    contexts: list[BrowserContext],
    errors: Errors,
    locale: str = "en-US",
    viewport: dict[str, int] | None = None,
    touch: bool = False,
    motion: bool = True,
) -> Page:
    """`motion=False` for people who play a whole match: Playwright waits until a card that
    travels (420 ms, static/js/motion.js) comes to rest before it clicks, which more than
    doubled those tests; the travel has its own test (test_table_signals.py)."""
    context = browser.new_context(
        base_url=base_url,
        locale=locale,
        viewport=viewport or DESKTOP,
        has_touch=touch,
        is_mobile=touch,
        reduced_motion=None if motion else "reduce",
    )
    context.set_default_timeout(10_000)
    VIOLATIONS.watch(context)
    contexts.append(context)
    page = context.new_page()
    errors.watch(page)
    return page


@pytest.fixture
def new_page(browser: Browser, base_url: str) -> Iterator[NewPage]:
    """A page in a browser context of its own (a separate person, with their own cookies)."""
    contexts: list[BrowserContext] = []
    errors = Errors()
    yield lambda **kwargs: open_page(browser, base_url, contexts, errors, **kwargs)
    for context in contexts:
        context.close()
    assert errors.seen == []


@pytest.fixture(scope="module")
def module_page(browser: Browser, base_url: str, module_errors: Errors) -> Iterator[NewPage]:
    """Like new_page, for people who stay at the table across the tests of a module."""
    contexts: list[BrowserContext] = []
    yield lambda **kwargs: open_page(browser, base_url, contexts, module_errors, **kwargs)
    for context in contexts:
        context.close()
    assert module_errors.seen == []
    assert VIOLATIONS.take() == []


def shoot(target: Page | Locator, path: Path, **options: Any) -> None:
    """A screenshot for people to look at, except on CI (``CI`` set), where nobody can:
    drawing them took a fifth of the CPU of the layout tests (commit body)."""
    if not os.environ.get("CI"):
        path.parent.mkdir(parents=True, exist_ok=True)
        target.screenshot(path=path, **options)


def screenshot(page: Page, name: str) -> None:
    """Saves the page as the desktop and as the phone sees it (the viewport changes, no reload)."""
    size = page.viewport_size or DESKTOP
    for label, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        page.set_viewport_size(viewport)
        shoot(page, SCREENSHOTS / f"{name}-{label}.png", full_page=True, animations="disabled")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= viewport["width"], f"{name} is {width} px wide on a {label}"
    page.set_viewport_size(size)
