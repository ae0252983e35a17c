"""The player view's security points (issue 29): guessed tokens, other servers' data, the headers of
every answer, the per-address limits."""

from __future__ import annotations

import secrets

from bot.web.limits import AddressLimits, client_address
from bot.web.page import not_found_html
from tests.table import ALICE, OTHER_GUILD, public
from tests.web.conftest import Served, serve

STRICT_CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; "
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)


def assert_secure(headers: dict[str, str]) -> None:
    assert headers["Content-Security-Policy"] == STRICT_CSP
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "no-referrer"  # the token never leaves in a Referer
    assert headers["X-Frame-Options"] == "DENY"
    assert headers["X-Robots-Tag"] == "noindex, nofollow"
    assert "aiohttp" not in headers.get("Server", "") and "Python" not in headers.get("Server", "")


async def test_every_answer_carries_the_security_headers(served: Served) -> None:
    link = await served.link()
    for url in (link, link + "?overlay=1", served.base + "/static/view.css", served.base + "/static/view.js"):
        status, _, headers = await served.get(url)
        assert status == 200, url
        assert_secure(headers)
    status, page, headers = await served.get(link)
    assert headers["Cache-Control"] == "no-store"
    assert (
        "<script>" not in page
        and "style=" not in page
        and "http" not in page.replace('http-equiv="refresh"', "")
    )  # no inline script or style, no external resource
    for url in (served.base + "/nothing/here", served.base + "/static/other.js", link + "x"):
        status, _, headers = await served.get(url)
        assert status == 404, url
        assert_secure(headers)
    async with served.http.get(link + "/events") as stream:
        assert_secure(dict(stream.headers))
        assert stream.headers["Cache-Control"] == "no-store"
    async with served.http.post(link) as posted:
        assert posted.status == 405
    async with served.http.head(link + "/events") as head:
        assert head.status == 405


async def test_guessed_tokens_all_get_the_same_404(served: Served) -> None:
    link = await served.link()
    token = link.rsplit("/", 1)[1]
    near = token[:-1] + ("A" if token[-1] != "A" else "B")
    guesses = [near, token.upper(), token[:-1], token + "A", "A" * 32, secrets.token_urlsafe(24), "x" * 500]
    guesses += ["..%2F..%2Fetc%2Fpasswd", "%00", "static", token + "%20"]
    for guess in guesses:
        status, page, _ = await served.get(f"{served.base}/{guess}")
        assert (status, page) == (404, not_found_html()), guess
        status, page, _ = await served.get(f"{served.base}/{guess}/events")
        assert (status, page) == (404, not_found_html()), guess
    assert (await served.get(link))[0] == 200


async def test_a_link_never_shows_another_servers_data(served: Served) -> None:
    await served.table.create("Aria", ALICE)
    public(await served.table.run("wound", {"severity": "critical", "character": "Aria"}))
    there = await served.link(guild=OTHER_GUILD)
    status, page, _ = await served.get(there)
    assert status == 200 and "Aria" not in page and "critical" not in page and "critique" not in page
    # The address of the other server's page with this server's events, and the other way: nothing.
    here = await served.link()
    assert (await served.get(here.rsplit("/", 1)[0] + "/events"))[0] == 404


async def test_an_address_over_its_limit_is_answered_429(served: Served) -> None:
    link = await served.link()
    limited = await serve(served.table, AddressLimits(rate=0.001, burst=3, streams=1))
    try:
        base = f"http://127.0.0.1:{limited.port}"
        page = base + "/" + link.rsplit("/", 1)[1]
        statuses = [(await served.get(page))[0] for _ in range(4)]
        assert statuses == [200, 200, 200, 429]
        # Behind the operator's reverse proxy (on this machine), each client has its own limit.
        assert (await served.get(page, **{"X-Forwarded-For": "203.0.113.7"}))[0] == 200
        async with served.http.get(page + "/events", headers={"X-Forwarded-For": "203.0.113.8"}) as one:
            assert one.status == 200
            second = await served.get(page + "/events", **{"X-Forwarded-For": "203.0.113.8"})
            assert second[0] == 429  # one open stream per address here
    finally:
        await limited.close()


def test_only_a_local_proxy_may_name_the_client() -> None:
    assert client_address("127.0.0.1", "198.51.100.1, 203.0.113.9") == "203.0.113.9"
    assert client_address("::1", "203.0.113.9") == "203.0.113.9"
    assert client_address("172.17.0.1", "203.0.113.9") == "203.0.113.9"  # a proxy in a container
    assert client_address("8.8.8.8", "203.0.113.9") == "8.8.8.8"  # public: never believed
    assert client_address("127.0.0.1", None) == "127.0.0.1"


def test_the_bucket_refills_with_time() -> None:
    now = [0.0]
    limits = AddressLimits(rate=1.0, burst=2, streams=1, now=lambda: now[0])
    assert [limits.allow("a") for _ in range(3)] == [True, True, False]
    assert limits.allow("b")
    now[0] += 1.0
    assert limits.allow("a") and not limits.allow("a")
    assert limits.open_stream("a") and not limits.open_stream("a")
    limits.close_stream("a")
    assert limits.open_stream("a")
