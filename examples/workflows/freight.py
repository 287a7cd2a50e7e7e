"""Freight booking: ask every carrier at once, take quotes as they arrive, hold the pick, then book.

The carriers answer in their own order, and asyncio.as_completed hands each quote to the
workflow as it arrives: the first one under the price ceiling wins. The order the quotes
arrived in is part of the recorded history, so a replay sees them in the same order and
picks the same carrier. The hold before booking (the shipper may still cancel) is a durable
timer, ctx.sleep, recorded as a command: neither the live run nor a replay waits for it,
and the run's clock moves past it. The run starts in the shipper's zone, Europe/Berlin,
and the pickup time it sends is computed on the instant and shown in that zone, across a
daylight-saving change too.
"""

from __future__ import annotations

import asyncio

from examples.workflows.providers import FREIGHT
from replaylint.workflows import RunContext, activity, workflow

__adk_workflow__ = True

HOLD_SECONDS = 15 * 60
PICKUP_AFTER_SECONDS = 2 * 3600


@activity(name="request_quote")
async def request_quote(carrier: str, shipment: dict) -> dict:
    return await FREIGHT.quote(carrier, shipment)


@activity(name="book_freight")
async def book_freight(
    carrier: str, quote_id: str, *, idempotency_key: str, pickup_at: str
) -> dict:
    return await FREIGHT.book(carrier, quote_id, idempotency_key, pickup_at)


@workflow(name="freight-booking")
async def run(ctx: RunContext, shipment: dict) -> dict:
    asked = [request_quote(carrier, shipment) for carrier in shipment["carriers"]]
    arrivals = []
    chosen = None
    for arrival in asyncio.as_completed(asked):
        quote = await arrival
        arrivals.append(quote["carrier"])
        if chosen is None and quote["price_cents"] <= shipment["ceiling_cents"]:
            chosen = quote
    if chosen is None:
        return {"status": "no_acceptable_quote", "arrivals": arrivals}

    await ctx.sleep(HOLD_SECONDS)
    booking = await book_freight(
        chosen["carrier"],
        chosen["quote_id"],
        idempotency_key=ctx.new_id("booking"),
        pickup_at=ctx.clock.advanced(PICKUP_AFTER_SECONDS).now().isoformat(),
    )
    return {
        "status": "booked",
        "carrier": chosen["carrier"],
        "price_cents": chosen["price_cents"],
        "arrivals": arrivals,
        "held_until": ctx.clock.now().isoformat(),
        "booking_id": booking["booking_id"],
        "pickup_at": booking["pickup_at"],
    }
