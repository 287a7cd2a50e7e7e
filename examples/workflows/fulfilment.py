"""Order fulfilment: reserve stock concurrently, book a carrier pickup with retries, notify the customer.

Retries are decided from recorded results (the carrier's "busy" answers), and the time
of each retry comes from advancing the run's clock, so a replay makes the same decisions
without waiting or asking the carrier again. An out-of-stock line arrives as a recorded
ActivityError and turns into a backorder rather than a failed run.
"""

from __future__ import annotations

import asyncio

from examples.workflows.providers import CARRIER, Mailer, Warehouse
from replaylint.workflows import ActivityError, RunContext, activity

__adk_workflow__ = True

# Wait before attempt 1, 2, 3, 4 (seconds after the previous attempt).
PICKUP_BACKOFF_SECONDS = (0, 900, 3600, 4 * 3600)


@activity(name="reserve_stock")
async def reserve_stock(order_id: str, sku: str, qty: int) -> dict:
    return Warehouse().reserve(order_id, sku, qty)


@activity(name="request_pickup")
async def request_pickup(shipment_id: str, carrier: str, attempt: int, not_before: str) -> dict:
    return CARRIER.request_pickup(shipment_id, carrier, attempt, not_before)


@activity(name="notify_customer")
def notify_customer(email: str, template: str, fields: dict) -> dict:
    return Mailer().send(email, template, fields)


async def run(ctx: RunContext, order: dict) -> dict:
    shipment_id = ctx.new_id("shipment")
    lines = sorted(order["lines"], key=lambda line: line["sku"])
    # gather starts the reservations in list order, so their ordinals are fixed even
    # though a real warehouse would answer them in any order.
    outcomes = await asyncio.gather(
        *(reserve_stock(order["order_id"], line["sku"], line["qty"]) for line in lines),
        return_exceptions=True,
    )
    reserved = [o["sku"] for o in outcomes if not isinstance(o, BaseException)]
    backordered = [
        line["sku"] for line, o in zip(lines, outcomes, strict=True) if isinstance(o, ActivityError)
    ]
    for o in outcomes:
        if isinstance(o, BaseException) and not isinstance(o, ActivityError):
            raise o
    if not reserved:
        notify_customer(
            order["email"], "backordered", {"order_id": order["order_id"], "skus": backordered}
        )
        return {"order_id": order["order_id"], "status": "backordered", "backordered": backordered}

    clock = ctx.clock
    booking = None
    for attempt, wait in enumerate(PICKUP_BACKOFF_SECONDS, start=1):
        clock = clock.advanced(wait)
        answer = await request_pickup(
            shipment_id, order["carrier"], attempt, clock.now().isoformat()
        )
        if answer["status"] == "booked":
            booking = answer
            break
    if booking is None:
        notify_customer(order["email"], "shipping-delayed", {"order_id": order["order_id"]})
        return {
            "order_id": order["order_id"],
            "status": "pickup_failed",
            "attempts": len(PICKUP_BACKOFF_SECONDS),
            "backordered": backordered,
        }

    notify_customer(
        order["email"],
        "shipped",
        {
            "order_id": order["order_id"],
            "tracking_number": booking["tracking_number"],
            "skus": reserved,
        },
    )
    return {
        "order_id": order["order_id"],
        "status": "shipped",
        "shipment_id": shipment_id,
        "tracking_number": booking["tracking_number"],
        "pickup_at": booking["pickup_at"],
        "attempts": attempt,
        "reserved": reserved,
        "backordered": backordered,
    }
