"""Validate recorded request bodies against Discord's OpenAPI description.

The spec lives outside the repository: ``$HARMONIES_DISCORD_OPENAPI`` when set, else
``<repo root>/../shared/discord-openapi/openapi.json``. It is loaded and its validators built once per
process (per test session); ``spec()``/``validator()`` skip the calling test when it is absent.

Relaxations, each matching what Discord's API accepts but the (preview) spec does not say
(``relax=False`` turns them off):

* snowflakes may be JSON integers as well as strings (discord.py sends ``allowed_mentions.users``,
  ``applied_tags``... as integers);
* permission bit sets may be decimal strings as well as integers.

``strict=True`` also reports properties a schema does not declare (Discord ignores them silently, which
hides typos such as ``"ephemral": true``); it is off by default because the spec is not exhaustive
(``STRICT_EXTRA_PROPERTIES`` lists the documented fields it lacks that discord.py sends).
"""

from __future__ import annotations

import copy
import functools
import json
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import pytest
from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

ENV_VAR = "HARMONIES_DISCORD_OPENAPI"
REPO_ROOT = Path(__file__).resolve().parents[2]
SPEC_URI = "urn:discord-openapi"
_PERMISSION_KEYS = frozenset({"default_member_permissions", "permissions", "allow", "deny"})


class RequestLike(Protocol):
    """What the validator reads from a recorded request (``rest.RecordedRequest`` or a look-alike)."""

    method: str
    path: str  # without the /api/v10 prefix; full URLs (CDN...) are not API requests
    json: Any


def _is_api(request: RequestLike) -> bool:
    return request.path.startswith("/")


def spec_path() -> Path:
    configured = os.environ.get(ENV_VAR)
    if configured:
        return Path(configured)
    return REPO_ROOT.parent / "shared" / "discord-openapi" / "openapi.json"


@dataclass(frozen=True)
class Violation:
    method: str
    path: str
    operation: str | None  # the spec's path template, None when the spec has no such operation
    pointer: str  # where in the body, as a JSON pointer ("" for the body itself)
    message: str
    schema_path: str = ""

    def __str__(self) -> str:
        where = f" at {self.pointer or '/'}" if self.operation else ""
        return f"{self.method} {self.path}{where}: {self.message}"


def _pointer(parts: Iterable[Any]) -> str:
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


def _escape(segment: str) -> str:
    return segment.replace("~", "~0").replace("/", "~1")


def _relax(document: dict[str, Any]) -> dict[str, Any]:
    document = copy.deepcopy(document)
    schemas = document["components"]["schemas"]
    snowflake = schemas["SnowflakeType"]
    schemas["SnowflakeType"] = {
        "anyOf": [snowflake, {"type": "integer", "minimum": 0, "maximum": 2**64 - 1}],
        "format": "snowflake",
    }

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            props = node.get("properties")
            if isinstance(props, dict):
                for key, sub in list(props.items()):
                    if key in _PERMISSION_KEYS and isinstance(sub, dict) and _allows_integer(sub):
                        props[key] = {"anyOf": [sub, {"type": "string", "pattern": "^[0-9]+$"}]}
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(schemas)
    return document


def _allows_integer(schema: dict[str, Any]) -> bool:
    kind = schema.get("type")
    return kind == "integer" or (isinstance(kind, list) and "integer" in kind)


#: Properties Discord documents and accepts but the spec's schemas lack; strict mode allows them.
STRICT_EXTRA_PROPERTIES: dict[str, tuple[str, ...]] = {
    "ApplicationCommandUpdateRequest": ("nsfw",),  # discord.py always sends it; documented by Discord
    "ApplicationCommandCreateRequest": ("nsfw",),
    "ApplicationCommandPatchRequestPartial": ("nsfw",),
    "RichEmbed": ("flags",),  # discord.py >= 2.6 sends embed flags
    # discord.py sends "tts": false when editing: UPDATE_MESSAGE callbacks and webhook message edits
    "IncomingWebhookUpdateForInteractionCallbackRequestPartial": ("tts",),
    "IncomingWebhookUpdateRequestPartial": ("tts",),
}


def _forbid_unknown(document: dict[str, Any]) -> dict[str, Any]:
    """Add ``unevaluatedProperties: false`` to every object schema that declares properties."""
    document = copy.deepcopy(document)
    schemas = document["components"]["schemas"]
    for name, extra in STRICT_EXTRA_PROPERTIES.items():
        if name in schemas and isinstance(schemas[name].get("properties"), dict):
            for prop in extra:
                schemas[name]["properties"].setdefault(prop, {})

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if isinstance(node.get("properties"), dict) and "additionalProperties" not in node:
                node.setdefault("unevaluatedProperties", False)
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(document["components"])
    return document


class OpenAPIValidator:
    """Request (and response) body validation for the operations of one OpenAPI document."""

    def __init__(self, document: dict[str, Any], *, strict: bool = False, relax: bool = True) -> None:
        if relax:
            document = _relax(document)
        if strict:
            document = _forbid_unknown(document)
        self.document = document
        self.strict = strict
        resource = Resource.from_contents(document, default_specification=DRAFT202012)
        self._registry: Registry[Any] = Registry().with_resource(SPEC_URI, resource)
        self._templates: list[tuple[re.Pattern[str], str, int]] = []
        for template in document["paths"]:
            regex = "^" + re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(template)) + "$"
            literal = sum(1 for seg in template.split("/") if seg and not seg.startswith("{"))
            self._templates.append((re.compile(regex), template, literal))
        self._validators: dict[tuple[str, str, str], Draft202012Validator | None] = {}

    # -- operations
    def template_for(self, path: str) -> str | None:
        """The spec's path template for a concrete path (the most literal one when several match)."""
        matches = [(literal, template) for regex, template, literal in self._templates if regex.match(path)]
        return max(matches)[1] if matches else None

    def operation(self, method: str, path: str) -> tuple[str, dict[str, Any]] | None:
        template = self.template_for(path)
        if template is None:
            return None
        op = self.document["paths"][template].get(method.lower())
        return (template, op) if isinstance(op, dict) else None

    def _validator(
        self, template: str, method: str, kind: str, status: int = 0
    ) -> Draft202012Validator | None:
        key = (template, method.lower(), f"{kind}:{status}")
        if key in self._validators:
            return self._validators[key]
        op = self.document["paths"][template][method.lower()]
        pointer: str | None = None
        base = f"#/paths/{_escape(template)}/{method.lower()}"
        if kind == "request":
            content = (op.get("requestBody") or {}).get("content") or {}
            for media in ("application/json", "multipart/form-data"):
                if media in content and "schema" in content[media]:
                    pointer = f"{base}/requestBody/content/{_escape(media)}/schema"
                    break
        else:
            responses = op.get("responses") or {}
            code = str(status) if str(status) in responses else f"{str(status)[0]}XX"
            response = responses.get(code) or {}
            where = f"{base}/responses/{code}"
            if "$ref" in response:
                where = response["$ref"]
                response = self._resolve_local(where)
            content = response.get("content") or {}
            if "application/json" in content and "schema" in content["application/json"]:
                pointer = f"{where}/content/application~1json/schema"
        validator = self._compile({"$ref": f"{SPEC_URI}{pointer}"}) if pointer else None
        self._validators[key] = validator
        return validator

    def _resolve_local(self, ref: str) -> dict[str, Any]:
        node: Any = self.document
        for part in ref.lstrip("#/").split("/"):
            node = node[part.replace("~1", "/").replace("~0", "~")]
        return dict(node)

    def _compile(self, schema: Any) -> Draft202012Validator:
        return Draft202012Validator(schema, registry=self._registry)

    # -- validation
    def errors(self, method: str, path: str, body: Any) -> list[Violation]:
        """Violations of a request body for ``method path`` (paths without the /api/v10 prefix)."""
        found = self.operation(method, path)
        if found is None:
            return [Violation(method, path, None, "", "no such operation in Discord's OpenAPI spec")]
        template, op = found
        if body is None:
            required = bool((op.get("requestBody") or {}).get("required"))
            return [Violation(method, path, template, "", "the request body is required")] if required else []
        if "requestBody" not in op:
            return [Violation(method, path, template, "", "this operation takes no request body")]
        validator = self._validator(template, method, "request")
        if validator is None:
            return []
        return [self._violation(method, path, template, e) for e in _leaf_errors(validator.iter_errors(body))]

    def response_errors(self, method: str, path: str, status: int, body: Any) -> list[Violation]:
        found = self.operation(method, path)
        if found is None:
            return [Violation(method, path, None, "", "no such operation in Discord's OpenAPI spec")]
        template, _ = found
        if body is None or isinstance(body, bytes | str):
            return []
        validator = self._validator(template, method, "response", status)
        if validator is None:
            return []
        return [self._violation(method, path, template, e) for e in _leaf_errors(validator.iter_errors(body))]

    def _violation(self, method: str, path: str, template: str, error: ValidationError) -> Violation:
        return Violation(
            method,
            path,
            template,
            _pointer(error.absolute_path),
            _message(error),
            _pointer(error.absolute_schema_path),
        )

    def violations(self, requests: Iterable[RequestLike]) -> list[Violation]:
        """Violations of every recorded Discord API request that carries (or needs) a JSON body."""
        out: list[Violation] = []
        for request in requests:
            if not _is_api(request) or request.method.upper() in ("GET", "DELETE", "HEAD"):
                continue
            out.extend(self.errors(request.method.upper(), request.path, request.json))
        return out

    def response_violations(self, requests: Iterable[RequestLike]) -> list[Violation]:
        """Violations of the fake's 2xx JSON answers (a self-check of the fake).

        Reads ``status`` and ``response`` from each request, which ``rest.RecordedRequest`` has.
        """
        out: list[Violation] = []
        for request in requests:
            status = getattr(request, "status", None)
            if _is_api(request) and isinstance(status, int) and 200 <= status < 300:
                body = getattr(request, "response", None)
                out.extend(self.response_errors(request.method.upper(), request.path, status, body))
        return out

    def assert_valid(self, requests: Iterable[RequestLike]) -> None:
        problems = self.violations(requests)
        if problems:
            listing = "\n  ".join(str(v) for v in problems)
            raise AssertionError(f"{len(problems)} request(s) break Discord's OpenAPI spec:\n  {listing}")


def _message(error: ValidationError) -> str:
    """jsonschema's message, with long instances summarised (a 2001-character content...)."""
    instance, kind, limit = error.instance, error.validator, error.validator_value
    if kind in ("maxLength", "minLength") and isinstance(instance, str):
        return f"is {len(instance)} characters long ({kind} {limit})"
    if kind in ("maxItems", "minItems") and isinstance(instance, list):
        return f"has {len(instance)} items ({kind} {limit})"
    message = str(error.message)
    if len(message) > 300:
        shown = repr(instance)
        message = message.replace(shown, shown[:80] + "...") if shown in message else message[:300] + "..."
    return message


def _leaf_errors(errors: Iterable[ValidationError]) -> list[ValidationError]:
    """Replace each anyOf/oneOf failure by the errors of the branch that got furthest into the body.

    A body meant as, say, a CHANNEL_MESSAGE_WITH_SOURCE callback fails every other branch of the callback
    union on ``/type``; the branch whose errors sit deepest (then: not mere type mismatches, then: fewest
    errors) is the one the author meant, and its errors are the useful ones.
    """
    out: list[ValidationError] = []
    for error in errors:
        if error.validator in ("anyOf", "oneOf") and error.context:
            branches: dict[Any, list[ValidationError]] = {}
            for sub in error.context:
                branches.setdefault(sub.relative_schema_path[0], []).append(sub)
            leaves = [_leaf_errors(errs) for errs in branches.values()]
            best = max(
                leaves,
                key=lambda errs: (
                    min(len(e.absolute_path) for e in errs),
                    not all(e.validator in ("type", "enum", "const") for e in errs),
                    -len(errs),
                ),
            )
            out.extend(best)
        else:
            out.append(error)
    return out


@functools.cache
def _load(path: str) -> dict[str, Any]:
    with open(path, encoding="utf-8") as handle:
        document: dict[str, Any] = json.load(handle)
    return document


def spec() -> dict[str, Any]:
    """The parsed OpenAPI document; skips the calling test when the file is absent."""
    path = spec_path()
    if not path.is_file():
        pytest.skip(
            f"Discord OpenAPI spec not found at {path} (set {ENV_VAR} or put shared/ beside the repo)"
        )
    return _load(str(path))


@functools.cache
def _validator_for(path: str, strict: bool, relax: bool) -> OpenAPIValidator:
    return OpenAPIValidator(_load(path), strict=strict, relax=relax)


def validator(*, strict: bool = False, relax: bool = True) -> OpenAPIValidator:
    """The session-wide validator (built on first use); skips the calling test when the spec is absent."""
    spec()
    return _validator_for(str(spec_path()), strict, relax)


def violations(requests: Iterable[RequestLike], *, strict: bool = False) -> list[Violation]:
    return validator(strict=strict).violations(requests)


def assert_valid(requests: Iterable[RequestLike], *, strict: bool = False) -> None:
    """Fail the test when any recorded request body breaks the spec (skip it when the spec is absent)."""
    validator(strict=strict).assert_valid(requests)


@pytest.fixture(scope="session")
def discord_openapi() -> OpenAPIValidator:
    """Session-scoped validator fixture; import it into a test module or conftest to use it."""
    return validator()
