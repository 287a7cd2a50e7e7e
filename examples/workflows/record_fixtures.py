"""Regenerates tests/histories/*.json by recording the example workflows.

Run it as `python -m examples.workflows.record_fixtures` from the project root.

The committed JSON files are the source of truth: a history records what code *did*, so
after a change to an example the old files must keep replaying (that is the test) and
are only rewritten on purpose. Pass file names to rewrite some: `... record_fixtures payment.json`.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from examples.workflows import agent_pipeline, freight, fulfilment, payment
from replaylint.workflows import RecordedHistory, record

HISTORIES = Path(__file__).resolve().parents[2] / "tests" / "histories"


@dataclass(frozen=True)
class Fixture:
    file: str
    workflow: Callable[..., Any]
    input: Any
    run_id: str
    started_at: datetime
    without_patches: tuple[str, ...] = field(default=())

    def record(self) -> RecordedHistory:
        return record(
            self.workflow,
            self.input,
            run_id=self.run_id,
            started_at=self.started_at,
            without_patches=self.without_patches,
        )


_ORDER = {
    "order_id": "ord-5501",
    "customer_id": "cus-88",
    "email": "ana@example.org",
    "amount_cents": 12900,
    "currency": "EUR",
    "country": "DE",
    "card_token": "tok_visa_4242",
}

FIXTURES = (
    Fixture(
        "agent_pipeline.json",
        agent_pipeline.run,
        {"question": "Can I get a refund for order A-1042? It arrived damaged."},
        "run-agent-0001",
        datetime(2024, 5, 2, 14, 5, tzinfo=timezone.utc),
    ),
    Fixture(
        "agent_pipeline_direct_answer.json",
        agent_pipeline.run,
        {"question": "What are your opening hours?"},
        "run-agent-0002",
        datetime(2024, 5, 2, 14, 9, tzinfo=timezone.utc),
    ),
    Fixture(
        "payment.json",
        payment.run,
        _ORDER,
        "run-pay-0003",
        datetime(2024, 6, 1, 9, 30, tzinfo=timezone.utc),
    ),
    Fixture(
        "payment_before_patch.json",
        payment.run,
        {**_ORDER, "order_id": "ord-5230"},
        "run-pay-0001",
        datetime(2024, 4, 18, 17, 0, tzinfo=timezone.utc),
        without_patches=("screen-before-capture",),
    ),
    Fixture(
        "payment_declined.json",
        payment.run,
        {**_ORDER, "order_id": "ord-5502", "card_token": "tok_declined_0002"},
        "run-pay-0004",
        datetime(2024, 6, 1, 9, 42, tzinfo=timezone.utc),
    ),
    Fixture(
        "fulfilment.json",
        fulfilment.run,
        {
            "order_id": "ord-7710",
            "email": "li@example.org",
            "carrier": "northwind",
            "lines": [
                {"sku": "LAMP-220", "qty": 1},
                {"sku": "MUG-007", "qty": 2},
                {"sku": "BOOK-001", "qty": 3},
            ],
        },
        "run-ful-0001",
        datetime(2024, 6, 3, 8, 0, tzinfo=timezone.utc),
    ),
    Fixture(
        "freight.json",
        freight.run,
        {
            "shipment_id": "shp-3301",
            "weight_kg": 180,
            "carriers": ["northwind", "bluefin", "kestrel"],
            "ceiling_cents": 42000,
        },
        "run-frt-0001",
        # Half an hour before Berlin's clocks go back: the pickup lands after the change.
        datetime(2024, 10, 27, 1, 30, tzinfo=ZoneInfo("Europe/Berlin")),
    ),
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", help="fixture file names to rewrite (default: all)")
    parser.add_argument("--out", type=Path, default=HISTORIES, help="folder to write to")
    args = parser.parse_args(argv)
    known = {f.file for f in FIXTURES}
    unknown = sorted(set(args.files) - known)
    if unknown:
        parser.error(
            f"unknown fixture(s): {', '.join(unknown)} (known: {', '.join(sorted(known))})"
        )
    args.out.mkdir(parents=True, exist_ok=True)
    for fixture in FIXTURES:
        if args.files and fixture.file not in args.files:
            continue
        history = fixture.record()
        history.save(args.out / fixture.file)
        count = len(history.commands)
        print(f"wrote {args.out / fixture.file} ({count} command{'' if count == 1 else 's'})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
