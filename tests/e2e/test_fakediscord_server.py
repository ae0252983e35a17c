"""The fake Discord's HTTP + gateway door, proved with a real discord.py bot process (``tiny_bot.py``) and a
raw client."""

from __future__ import annotations

import json
import signal
import sys
import time
import zlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from tests.e2e.process import BotProcess
from tests.fakediscord import DEFAULT_GUILD_ID, ROUTE_CALLBACK, DiscordStandin, slash
from tests.fakediscord.server import (
    CLOSE_AUTHENTICATION_FAILED,
    OP_DISPATCH,
    OP_HEARTBEAT_ACK,
    OP_HELLO,
    OP_INVALID_SESSION,
    make_encoder,
)

TINY_BOT = Path(__file__).with_name("tiny_bot.py")


@pytest.fixture
async def standin() -> AsyncIterator[DiscordStandin]:
    async with DiscordStandin() as server:
        yield server


@pytest.fixture
async def tiny_bot(standin: DiscordStandin, tmp_path: Path) -> AsyncIterator[BotProcess]:
    env = standin.bot_env(TINY_GUILD_ID=str(DEFAULT_GUILD_ID))
    proc = await BotProcess.start([sys.executable, str(TINY_BOT)], env=env, log_path=tmp_path / "bot.log")
    standin.watch(proc.exited)
    try:
        yield proc
    finally:
        await proc.stop()
        print(f"---- tiny_bot output (exit {proc.returncode}) ----\n{proc.output()}")


def embed_of(body: dict[str, Any]) -> dict[str, Any]:
    embeds: list[dict[str, Any]] = body["data"]["embeds"]
    assert len(embeds) == 1, body
    return embeds[0]


# ------------------------------------------------------------------------------------ with a real bot


@pytest.mark.slow
async def test_bot_answers_reconnects_and_stops(standin: DiscordStandin, tiny_bot: BotProcess) -> None:
    identify = await standin.wait_ready(within=15)
    first = standin.connections[0]
    assert first.compress in ("zlib-stream", "zstd-stream"), first.query
    assert first.query["v"] == "10" and first.query["encoding"] == "json"
    assert identify["intents"] == 1  # guilds only
    assert [c["name"] for c in standin.last_synced] == ["ping"]
    assert standin.command_syncs[-1].route == "/applications/{application_id}/guilds/{guild_id}/commands"

    exchange = await standin.interaction(slash("ping", {"text": "hello"}), within=10)
    assert exchange.callback.query.get("with_response") == "1"
    assert exchange.response["type"] == 4
    embed = embed_of(exchange.response)
    assert (embed["title"], embed["description"]) == ("pong", "hello")
    assert exchange.original is not None and exchange.original["embeds"][0]["title"] == "pong"

    dropped = await standin.drop_connection(4000)
    assert await standin.wait_reconnected(dropped, within=15) == "resume"
    second = await standin.interaction(slash("ping", {"text": "again"}), within=10)
    assert embed_of(second.response)["description"] == "again"

    began = time.monotonic()
    assert await tiny_bot.stop(grace=8, sig=signal.SIGTERM) == 0, tiny_bot.output()
    assert time.monotonic() - began < 5
    closed = await standin.wait_disconnected(within=5)
    # discord.py means 1000, but with a receive() in flight (always, in the gateway loop) aiohttp lets the
    # poll loop's own close(code=4000) get its frame out first; either way the bot sent a close frame.
    assert closed.close_code in (1000, 4000) and not closed.closed_by_standin
    assert standin.unhandled == []
    standin.validate_requests(strict=True)


@pytest.mark.slow
async def test_tcp_drop_replays_missed_interaction(standin: DiscordStandin, tiny_bot: BotProcess) -> None:
    await standin.wait_ready(within=15)
    dropped = await standin.drop_connection(None)  # no close frame: the socket just dies
    # Sent while the bot is away: kept in the session and replayed when it RESUMEs.
    exchange = await standin.interaction(slash("ping", {"text": "missed"}), wait=False)
    assert await standin.wait_reconnected(dropped, within=15) == "resume"
    await exchange.wait_callback(within=10)
    assert embed_of(exchange.response)["description"] == "missed"
    assert standin.unhandled == []


@pytest.mark.slow
async def test_deferred_reply_edit_and_followups(standin: DiscordStandin, tiny_bot: BotProcess) -> None:
    await standin.wait_ready(within=15)
    exchange = await standin.interaction(slash("ping", {"text": "x", "deferred": True}))
    assert exchange.response["type"] == 5
    assert exchange.callback.response["interaction"]["response_message_loading"] is True
    first = await exchange.wait_followup(1)
    assert embed_of({"data": first.json})["title"] == "pong"
    # The first follow-up after a deferral takes the place of the "thinking..." message.
    assert first.response["id"] == exchange.callback.response["interaction"]["response_message_id"]
    edit = await exchange.wait_edit(1)
    assert edit.json["content"] == "edited"
    second = await exchange.wait_followup(2)
    assert second.json["content"] == "done"
    assert [(f.filename, f.data) for f in second.files] == [("tiny.txt", b"tiny")]
    assert exchange.original is not None
    assert (exchange.original["content"], exchange.original["embeds"][0]["title"]) == ("edited", "pong")
    # Follow-ups: the one that replaced "thinking..." (the original, since edited) and "done".
    assert [m["content"] for m in exchange.followups] == ["edited", "done"]
    assert standin.unhandled == []
    standin.validate_requests(strict=True)


@pytest.mark.slow
async def test_failing_callback_is_retried(standin: DiscordStandin, tiny_bot: BotProcess) -> None:
    await standin.wait_ready(within=15)
    standin.fail_callbacks(1, status=500)
    # The builder's made-up command id is replaced by the synced command's, as on Discord.
    exchange = await standin.interaction(slash("ping", {"text": "harness"}, command_id=1), within=10)
    assert exchange.payload["data"]["id"] == standin.commands[DEFAULT_GUILD_ID][0]["id"]
    assert [r.status for r in exchange.callbacks] == [500, 200]  # discord.py retries a 5xx after 1 s
    assert exchange.callbacks[0].fault is not None
    assert embed_of(exchange.response)["description"] == "harness"
    standin.validate_requests(strict=True)


@pytest.mark.slow
async def test_bot_stops_promptly_with_a_hung_callback(standin: DiscordStandin, tiny_bot: BotProcess) -> None:
    await standin.wait_ready(within=15)
    standin.hang_callbacks(1)  # no answer until the stand-in stops: longer than any client timeout
    exchange = await standin.interaction(slash("ping"), wait=False)
    hung = await standin.wait_for(
        lambda: next((r for r in exchange.callbacks if r.status is None), None), what="the hung callback"
    )
    assert hung.fault is not None
    with pytest.raises(AssertionError, match="timed out"):
        await exchange.wait_callback(within=0.5)
    began = time.monotonic()
    assert await tiny_bot.stop(grace=8) == 0, tiny_bot.output()
    assert time.monotonic() - began < 5


# ------------------------------------------------------------------------------------ raw client, fast


async def _receive(ws: aiohttp.ClientWebSocketResponse, inflate: Any = None) -> dict[str, Any]:
    msg = await ws.receive(timeout=5)
    if msg.type is aiohttp.WSMsgType.BINARY:
        assert inflate is not None
        text = inflate(msg.data)
    else:
        assert msg.type is aiohttp.WSMsgType.TEXT, msg
        text = msg.data
    frame: dict[str, Any] = json.loads(text)
    return frame


async def test_gateway_zlib_stream_identify_and_heartbeat(standin: DiscordStandin) -> None:
    inflater = zlib.decompressobj()

    def inflate(data: bytes) -> str:
        assert data.endswith(b"\x00\x00\xff\xff")
        return inflater.decompress(data).decode()

    async with (
        aiohttp.ClientSession() as http,
        http.ws_connect(f"{standin.gateway_url}?v=10&encoding=json&compress=zlib-stream", compress=15) as ws,
    ):
        hello = await _receive(ws, inflate)
        assert hello["op"] == OP_HELLO and hello["d"]["heartbeat_interval"] > 0
        await ws.send_json({"op": 1, "d": None})
        assert (await _receive(ws, inflate))["op"] == OP_HEARTBEAT_ACK
        await ws.send_json({"op": 2, "d": {"token": standin.token, "intents": 1, "properties": {}}})
        ready = await _receive(ws, inflate)
        assert (ready["op"], ready["t"], ready["s"]) == (OP_DISPATCH, "READY", 1)
        assert ready["d"]["resume_gateway_url"] == standin.gateway_url
        assert ready["d"]["application"]["id"] == str(standin.app_id)
        guild = await _receive(ws, inflate)
        assert guild["t"] == "GUILD_CREATE" and guild["s"] == 2
        assert any(m["user"]["id"] == str(standin.app_id) for m in guild["d"]["members"])
    assert standin.connections[0].compress == "zlib-stream"


async def test_gateway_plain_resume_and_errors(standin: DiscordStandin) -> None:
    async with aiohttp.ClientSession() as http:
        async with http.ws_connect(f"{standin.gateway_url}?v=10&encoding=json") as ws:
            assert (await _receive(ws))["op"] == OP_HELLO
            await ws.send_json({"op": 6, "d": {"token": standin.token, "session_id": "nope", "seq": 3}})
            assert await _receive(ws) == {"op": OP_INVALID_SESSION, "d": False, "s": None, "t": None}
        async with http.ws_connect(f"{standin.gateway_url}?v=10&encoding=json") as ws:
            await _receive(ws)
            await ws.send_json({"op": 2, "d": {"token": "wrong", "intents": 1, "properties": {}}})
            msg = await ws.receive(timeout=5)
            assert msg.type is aiohttp.WSMsgType.CLOSE and msg.data == CLOSE_AUTHENTICATION_FAILED


@pytest.mark.skipif(make_encoder("zstd-stream") is None, reason="neither zstandard nor compression.zstd")
async def test_gateway_zstd_stream(standin: DiscordStandin) -> None:
    import importlib

    zstandard: Any = importlib.import_module("zstandard")
    decompressor = zstandard.ZstdDecompressor().decompressobj()
    async with (
        aiohttp.ClientSession() as http,
        http.ws_connect(f"{standin.gateway_url}?v=10&encoding=json&compress=zstd-stream") as ws,
    ):
        hello = await _receive(ws, lambda data: decompressor.decompress(data).decode())
        assert hello["op"] == OP_HELLO
        await ws.send_json({"op": 1, "d": None})
        ack = await _receive(ws, lambda data: decompressor.decompress(data).decode())
        assert ack["op"] == OP_HEARTBEAT_ACK


async def test_rest_recording_multipart_and_404(standin: DiscordStandin) -> None:
    api = standin.api_base
    auth = {"Authorization": f"Bot {standin.token}"}
    async with aiohttp.ClientSession() as http:
        async with http.get(f"{api}/users/@me", headers={"Authorization": "Bot nope"}) as response:
            assert response.status == 401
        async with http.get(f"{api}/gateway/bot", headers=auth) as response:
            body = await response.json()
            assert body["url"] == standin.gateway_url and body["shards"] == 1
        async with http.get(f"{api}/channels/1/messages", headers=auth) as response:
            assert response.status == 404
            assert (await response.json())["code"] == 0

        # An interaction the bot "received": answer it with a file, as discord.py does (multipart).
        standin.require_synced_commands = False
        exchange = standin.track_interaction(slash("ping"))
        form = aiohttp.FormData(quote_fields=False)
        body = {"type": 4, "data": {"content": "see file", "attachments": []}}
        form.add_field("payload_json", json.dumps(body))
        form.add_field("files[0]", b"hello", filename="a.txt", content_type="text/plain")
        url = f"{api}/interactions/{exchange.id}/{exchange.token}/callback?with_response=true"
        async with http.post(url, data=form) as response:
            assert response.status == 200
            answer = await response.json()
        assert answer["resource"]["message"]["attachments"][0]["filename"] == "a.txt"
        async with http.post(url, json={"type": 4, "data": {"content": "twice"}}) as response:
            assert (response.status, (await response.json())["code"]) == (400, 40060)
        followup = f"{api}/webhooks/{standin.app_id}/{exchange.token}?wait=true"
        async with http.post(followup, json={"content": "more"}) as response:
            assert response.status == 200

    callback = exchange.callback
    assert callback.route == ROUTE_CALLBACK and callback.json["data"]["content"] == "see file"
    assert [(f.field, f.filename, f.data) for f in callback.files] == [("files[0]", "a.txt", b"hello")]
    assert (await exchange.wait_followup(1, within=1)).json == {"content": "more"}
    assert [r.path for r in standin.unhandled] == ["/channels/1/messages"]
    assert [r.status for r in standin.requests] == [401, 200, 404, 200, 400, 200]
    standin.validate_requests(strict=True)


async def test_delayed_callback_is_still_processed(standin: DiscordStandin) -> None:
    """A callback answered after the client gave up still counts, as on Discord."""
    standin.register_commands([{"name": "ping", "description": "Ping", "type": 1}])
    exchange = standin.track_interaction(slash("ping"))
    assert exchange.payload["data"]["id"] == standin.commands[None][0]["id"]
    standin.hang_callbacks(1, seconds=0.5, status=None)
    url = f"{standin.api_base}/interactions/{exchange.id}/{exchange.token}/callback"
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=0.1)) as http:
        with pytest.raises(TimeoutError):
            await http.post(url, json={"type": 4, "data": {"content": "late"}})
    late = await exchange.wait_callback(within=3)
    assert late.status == 204 and late.fault is not None
    assert exchange.original is not None and exchange.original["content"] == "late"
