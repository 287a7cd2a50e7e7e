"""Scripted stand-ins for the outside world (a model provider, a payment gateway, a warehouse, carriers).

Real workflows would call network services here; these classes answer from fixed
scripts so that the examples run offline and recording them twice writes the same
history. Workflow code reaches them only through activities and model_call_activity.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
from collections.abc import Sequence
from typing import ClassVar


def _digest(*parts: object) -> str:
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode("utf-8")).hexdigest()


class ScriptedModel:
    """A model provider whose reply is chosen by the first rule matching the last message.

    A rule is ``(pattern, template)``; the template is formatted with the match's named
    groups, so a reply can echo what the conversation said (an order number, a status).
    """

    def __init__(self, rules: Sequence[tuple[str, str]], fallback: str) -> None:
        self._rules = [(re.compile(pattern, re.DOTALL), template) for pattern, template in rules]
        self._fallback = fallback

    async def complete(
        self, *, model: str, system: str, messages: list[dict], max_tokens: int = 512
    ) -> str:
        last = messages[-1]["content"] if messages else ""
        for pattern, template in self._rules:
            match = pattern.search(last)
            if match:
                return template.format(**match.groupdict())[:max_tokens]
        return self._fallback[:max_tokens]


SUPPORT_MODEL = ScriptedModel(
    rules=[
        (
            r"^Customer: .*order (?P<order>[A-Z]+-\d+)",
            'TOOL lookup_order {{"order_id": "{order}"}}',
        ),
        (
            r'^Tool lookup_order returned: .*"status": "(?P<status>\w+)"',
            'TOOL search_policy {{"topic": "refund {status}"}}',
        ),
        (
            r'^Tool search_policy returned: .*?"title": "(?P<title>[^"]+)"',
            "ANSWER Under our {title} you can get a full refund; I have opened the request for you.",
        ),
        (
            r"^Customer: .*(hours|open)",
            "ANSWER Our support desk is open 08:00-20:00 CET, Monday to Saturday.",
        ),
    ],
    fallback="ANSWER I am sorry, I could not work that out; a colleague will follow up by email.",
)


class OrderDesk:
    """Order lookups, as an order-management API would answer them."""

    _ORDERS: ClassVar[dict] = {
        "A-1042": {
            "order_id": "A-1042",
            "status": "damaged",
            "total_cents": 4599,
            "currency": "EUR",
        },
        "A-2077": {
            "order_id": "A-2077",
            "status": "delivered",
            "total_cents": 1250,
            "currency": "EUR",
        },
    }

    def lookup(self, order_id: str) -> dict:
        return dict(self._ORDERS.get(order_id, {"order_id": order_id, "status": "unknown"}))


class KnowledgeBase:
    """Policy search over a handful of articles."""

    _ARTICLES: ClassVar[list] = [
        {"id": "kb-12", "title": "Damaged Goods Policy", "keywords": ["refund", "damaged"]},
        {"id": "kb-31", "title": "Returns Policy", "keywords": ["refund", "return", "delivered"]},
    ]

    def search(self, topic: str) -> list:
        words = set(topic.lower().split())
        scored = [(len(words & set(a["keywords"])), a["id"]) for a in self._ARTICLES]
        best = [
            article_id for score, article_id in sorted(scored, key=lambda s: (-s[0], s[1])) if score
        ]
        by_id = {a["id"]: a for a in self._ARTICLES}
        return [{"id": i, "title": by_id[i]["title"]} for i in best]


class CardDeclined(Exception):
    """The issuer refused the authorisation."""


class PaymentGateway:
    """A card gateway. Ids derive from the idempotency key, as a real gateway deduplicates on it."""

    def risk_score(self, order_id: str, amount_cents: int, country: str) -> int:
        base = int(_digest("risk", order_id)[:2], 16) % 40
        return (
            base
            + (50 if amount_cents > 500_000 else 0)
            + (20 if country not in {"DE", "FR", "NL"} else 0)
        )

    def authorize(
        self, card_token: str, amount_cents: int, currency: str, idempotency_key: str
    ) -> dict:
        if card_token.startswith("tok_declined"):
            raise CardDeclined(f"issuer declined {amount_cents} {currency}: insufficient funds")
        return {
            "authorization_id": "auth_" + _digest(idempotency_key)[:12],
            "amount_cents": amount_cents,
        }

    def screen(self, customer_id: str, country: str) -> dict:
        return {"hit": customer_id.startswith("sanctioned-"), "list": "EU consolidated"}

    def void(self, authorization_id: str, idempotency_key: str) -> dict:
        return {"voided": authorization_id}

    def capture(self, authorization_id: str, amount_cents: int, idempotency_key: str) -> dict:
        return {
            "capture_id": "cap_" + _digest(authorization_id, idempotency_key)[:12],
            "amount_cents": amount_cents,
        }


class Mailer:
    """Transactional email."""

    def send(self, to: str, template: str, fields: dict) -> dict:
        return {"message_id": "msg_" + _digest(to, template, fields)[:12], "accepted": True}


class OutOfStock(Exception):
    """The warehouse cannot reserve the requested quantity."""


class Warehouse:
    """Stock reservations."""

    _STOCK: ClassVar[dict] = {"BOOK-001": 12, "LAMP-220": 3, "MUG-007": 0}

    def reserve(self, order_id: str, sku: str, qty: int) -> dict:
        available = self._STOCK.get(sku, 0)
        if available < qty:
            raise OutOfStock(f"{sku}: {qty} requested, {available} available")
        return {"reservation_id": "res_" + _digest(order_id, sku)[:10], "sku": sku, "qty": qty}


class Carrier:
    """Pickup booking. A carrier listed in `busy_attempts` turns down that many attempts first."""

    def __init__(self, busy_attempts: dict) -> None:
        self._busy_attempts = dict(busy_attempts)

    def request_pickup(self, shipment_id: str, carrier: str, attempt: int, not_before: str) -> dict:
        if attempt <= self._busy_attempts.get(carrier, 0):
            return {"status": "busy", "retry_hint_seconds": 900 * attempt}
        return {
            "status": "booked",
            "tracking_number": carrier[:2].upper() + _digest(shipment_id)[:10].upper(),
            "pickup_at": not_before,
        }


CARRIER = Carrier(busy_attempts={"northwind": 2, "swiftpost": 0, "stuckline": 99})


class FreightDesk:
    """Freight carriers' quote and booking APIs. Each carrier takes its own time to answer.

    The delay is counted in turns of the event loop, so the answers always arrive in the
    same order (bluefin, kestrel, northwind), which is not the order they were asked in.
    """

    _CARRIERS: ClassVar[dict] = {
        "northwind": (4, 39500),
        "bluefin": (1, 45900),
        "kestrel": (2, 38900),
    }

    async def quote(self, carrier: str, shipment: dict) -> dict:
        turns, base_cents = self._CARRIERS[carrier]
        for _ in range(turns):
            await asyncio.sleep(0)
        return {
            "carrier": carrier,
            "quote_id": "q_" + _digest(carrier, shipment)[:10],
            "price_cents": base_cents + 12 * shipment["weight_kg"],
        }

    async def book(self, carrier: str, quote_id: str, idempotency_key: str, pickup_at: str) -> dict:
        await asyncio.sleep(0)
        return {
            "booking_id": "bk_" + _digest(quote_id, idempotency_key)[:10],
            "pickup_at": pickup_at,
        }


FREIGHT = FreightDesk()
