"""Card payment: risk check, authorisation, a sanctions screen added later under a patch, capture, receipt.

The idempotency keys come from DeterministicIds, so a replay (or a retry of this run)
sends the gateway the same keys; the capture deadline comes from the run's WorkflowClock.
The sanctions screen shipped after runs were already in flight, so it sits behind
ctx.patched("screen-before-capture"): runs recorded before it replay on the old path.
"""

from __future__ import annotations

from examples.workflows.providers import Mailer, PaymentGateway
from replaylint.workflows import ActivityError, RunContext, activity

__adk_workflow__ = True

AUTHORISATION_WINDOW_SECONDS = 7 * 24 * 3600
REVIEW_THRESHOLD = 80


@activity(name="assess_risk")
def assess_risk(order_id: str, amount_cents: int, country: str) -> dict:
    return {"score": PaymentGateway().risk_score(order_id, amount_cents, country)}


@activity(name="authorize_card")
def authorize_card(
    card_token: str, amount_cents: int, currency: str, *, idempotency_key: str
) -> dict:
    return PaymentGateway().authorize(card_token, amount_cents, currency, idempotency_key)


@activity(name="screen_sanctions")
def screen_sanctions(customer_id: str, country: str) -> dict:
    return PaymentGateway().screen(customer_id, country)


@activity(name="void_authorization")
def void_authorization(authorization_id: str, *, idempotency_key: str) -> dict:
    return PaymentGateway().void(authorization_id, idempotency_key)


@activity(name="capture_payment")
def capture_payment(authorization_id: str, amount_cents: int, *, idempotency_key: str) -> dict:
    return PaymentGateway().capture(authorization_id, amount_cents, idempotency_key)


@activity(name="send_receipt")
def send_receipt(email: str, fields: dict) -> dict:
    return Mailer().send(email, "payment-receipt", fields)


def run(ctx: RunContext, order: dict) -> dict:
    payment_key = ctx.new_id("payment")
    outcome = {"order_id": order["order_id"], "payment_key": payment_key}

    risk = assess_risk(order["order_id"], order["amount_cents"], order["country"])
    if risk["score"] >= REVIEW_THRESHOLD:
        return {**outcome, "status": "held_for_review", "risk_score": risk["score"]}

    try:
        authorisation = authorize_card(
            order["card_token"],
            order["amount_cents"],
            order["currency"],
            idempotency_key=payment_key,
        )
    except ActivityError as failure:
        if not failure.type_name.endswith("CardDeclined"):
            raise
        return {**outcome, "status": "declined", "reason": failure.message}

    capture_by = ctx.clock.advanced(AUTHORISATION_WINDOW_SECONDS).now().isoformat()

    if ctx.patched("screen-before-capture"):
        screening = screen_sanctions(order["customer_id"], order["country"])
        if screening["hit"]:
            void_authorization(authorisation["authorization_id"], idempotency_key=payment_key)
            return {**outcome, "status": "blocked", "screening_list": screening["list"]}

    capture = capture_payment(
        authorisation["authorization_id"],
        order["amount_cents"],
        idempotency_key=ctx.new_id("capture"),
    )
    receipt = send_receipt(
        order["email"],
        {
            "order_id": order["order_id"],
            "amount_cents": order["amount_cents"],
            "currency": order["currency"],
            "paid_at": ctx.clock.now().isoformat(),
        },
    )
    return {
        **outcome,
        "status": "captured",
        "capture_id": capture["capture_id"],
        "capture_by": capture_by,
        "receipt_message_id": receipt["message_id"],
    }
