"""Deterministic generator of realistic ~300-line workflow modules for bench/run.py.

Everything derives from `random.Random(seed)`: the same seed gives byte-identical modules.
Each module carries the `__adk_workflow__ = True` marker, a dozen helper functions, one or two
`@activity` functions doing network I/O (recorded, so safe), a workflow class whose async
methods call the helpers, and 2-4 genuinely unsafe calls so findings and positions are paid for.
"""

from __future__ import annotations

import random
from string import Template

DOMAINS = (
    "order",
    "invoice",
    "shipment",
    "ticket",
    "claim",
    "booking",
    "refund",
    "payout",
    "review",
    "survey",
    "lead",
    "subscription",
    "listing",
    "dispute",
    "renewal",
    "quote",
    "transfer",
    "onboarding",
    "return",
    "audit",
)
FIELDS = (
    "amount",
    "region",
    "priority",
    "status",
    "owner",
    "sku",
    "quantity",
    "score",
    "tags",
    "notes",
    "currency",
    "weight",
    "channel",
    "segment",
    "country",
    "tier",
    "source",
    "label",
)
CURRENCIES = ("EUR", "USD", "GBP", "CHF", "JPY", "SEK")
REGIONS = ("eu-west-1", "us-east-1", "ap-south-1", "eu-central-1", "us-west-2")
MODELS = ("gpt-4o-mini", "gpt-4.1", "gpt-4o", "o4-mini")

HEADER = Template('''\
"""$Domain workflow: $purpose.

The workflow validates the incoming $domain, loads its records through a recorded
activity, groups and scores them with plain helpers, asks a model for a short review and
reports a summary. Generated for the replaylint benchmark (variant $index).
"""

from __future__ import annotations

import datetime
import random
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

import httpx
import openai

from replaylint.workflows import DeterministicIds, WorkflowClock, activity, model_call_activity

__adk_workflow__ = True

ENDPOINT = "https://api.example.com/v$version/${domain}s"
DEFAULT_REGION = "$region"
MAX_RETRIES = $retries
REVIEW_MODEL = "$model"
PRIORITIES = {"low": $p1, "normal": $p2, "high": $p3, "urgent": $p4}
THRESHOLDS = {
    "$f1": $t1,
    "$f2": $t2,
    "$f3": $t3,
}


@dataclass
class ${Domain}Line:
    """One line of a $domain as the helpers see it."""

    key: str
    $f1: str = ""
    $f2: float = 0.0
    $f3: int = 0
    tags: list[str] = field(default_factory=list)

    def weight(self) -> float:
        return self.$f2 * (1 + self.$f3 / $n2)
''')

# Helper templates: $fn is the function's name; the others are filled per module.
HELPERS: dict[str, str] = {
    "normalize": r'''
def $fn(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Normalize raw $domain records: lower-case keys, default the $f1, drop empty ones."""
    cleaned = []
    for record in records:
        if not record:
            continue
        item = {key.strip().lower(): value for key, value in record.items() if value is not None}
        if isinstance(item.get("$f1"), str):
            item["$f1"] = item["$f1"].strip() or "$default"
        elif "$f1" not in item:
            item["$f1"] = "$default"
        item["$f2"] = float(item.get("$f2", 0)) + $n1
        cleaned.append(item)
    return cleaned
''',
    "score": r'''
def $fn(items: list[dict[str, Any]], weights: dict[str, float] | None = None) -> list[tuple[str, float]]:
    """Rank $domain items by a weighted sum of their numeric fields."""
    weights = weights or {"$f1": $w1, "$f2": $w2, "$f3": $w3}
    scored = [
        (str(item.get("key", index)), sum(float(item.get(name, 0) or 0) * weight for name, weight in weights.items()))
        for index, item in enumerate(items)
    ]
    scored.sort(key=lambda pair: (-pair[1], pair[0]))
    return scored[:$n1]
''',
    "chunk": r'''
def $fn(values: list[Any], size: int = $n1):
    """Yield $domain batches of at most `size` items, numbered from zero."""
    if size <= 0:
        raise ValueError(f"batch size must be positive, got {size!r}")
    for start in range(0, len(values), size):
        batch = values[start : start + size]
        yield start // size, batch
''',
    "group": r'''
def $fn(rows: list[dict[str, Any]], key: str = "$f1") -> dict[str, list[dict[str, Any]]]:
    """Group rows by one field; groups smaller than $n0 are dropped."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        bucket = str(row.get(key, "unknown"))
        groups.setdefault(bucket, []).append(row)
    for bucket, members in groups.items():
        members.sort(key=lambda member: member.get("$f2", 0), reverse=True)
    return {bucket: members for bucket, members in sorted(groups.items()) if len(members) >= $n0}
''',
    "summary": r'''
def $fn(name: str, totals: dict[str, float], *, currency: str = "$currency") -> str:
    """A small text table of totals, as the $domain report shows it."""
    lines = [f"$Domain summary for {name}"]
    width = max((len(key) for key in totals), default=0)
    for key, value in sorted(totals.items()):
        lines.append(f"  {key:<{width}}  {value:>12,.2f} {currency}")
    grand = sum(totals.values())
    lines.append(f"  {'total':<{width}}  {grand:>12,.2f} {currency}")
    if grand > $n3:
        lines.append(f"  note: above the review threshold of {$n3:,}")
    return "\n".join(lines)
''',
    "validate": r'''
def $fn(payload: dict[str, Any]) -> list[str]:
    """Problems with an incoming $domain payload; empty when it can be processed."""
    problems = []
    for field_name in ("key", "$f1", "$f2", "$f3"):
        if field_name not in payload:
            problems.append(f"missing {field_name}")
    amount = payload.get("$f2")
    if amount is not None and not isinstance(amount, (int, float)):
        problems.append(f"$f2 must be a number, not {type(amount).__name__}")
    elif amount is not None and amount < 0:
        problems.append("$f2 must not be negative")
    if len(str(payload.get("$f3", ""))) > $n2:
        problems.append("$f3 is longer than $n2 characters")
    return problems
''',
    "backoff": r'''
def $fn(attempt: int, base: float = $fbase, cap: float = $fcap) -> float:
    """Deterministic retry delay: exponential and capped, without jitter."""
    if attempt < 0:
        raise ValueError("attempt must be >= 0")
    delay = base * (2 ** min(attempt, MAX_RETRIES + $n0))
    return min(cap, delay)
''',
    "timestamp": r'''
def $fn(value: str | None, offset_hours: int = $n0) -> datetime.datetime | None:
    """Parse an ISO timestamp from a $domain record; naive ones get a fixed offset."""
    if not value:
        return None
    try:
        parsed = datetime.datetime.fromisoformat(value)
    except ValueError:
        return None
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=datetime.timezone(datetime.timedelta(hours=offset_hours)))
    return parsed.astimezone(datetime.timezone.utc)
''',
    "table": r'''
def $fn(rows: list[dict[str, Any]], columns: tuple[str, ...] = ("key", "$f1", "$f2")) -> str:
    """Render rows as a plain text table."""
    header = " | ".join(column.upper() for column in columns)
    body = [
        " | ".join(str(row.get(column, "")) for column in columns)
        for row in rows
    ]
    rule = "-+-".join("-" * len(column) for column in columns)
    return "\n".join([header, rule, *body])
''',
    "merge": r'''
def $fn(base: dict[str, Any], *overrides: dict[str, Any]) -> dict[str, Any]:
    """Deep-merge override dicts into a copy of base; None never overwrites."""
    merged = dict(base)
    for override in overrides:
        for key, value in override.items():
            if isinstance(value, dict) and isinstance(merged.get(key), dict):
                merged[key] = $fn(merged[key], value)
            elif value is not None:
                merged[key] = value
    return merged
''',
    "dedupe": r'''
def $fn(values: list[str]) -> list[str]:
    """Drop case-insensitive duplicates, keeping the first spelling."""
    seen: set[str] = set()
    result = []
    index = 0
    while index < len(values):
        if (key := values[index].casefold()) not in seen:
            seen.add(key)
            result.append(values[index])
        index += 1
    return result
''',
    "classify": r'''
def $fn(event: dict[str, Any]) -> str:
    """Map a $domain event to the kind of change it is."""
    match event:
        case {"type": "created", "$f1": value} if value:
            return f"new:{value}"
        case {"type": "updated" | "patched"}:
            return "changed"
        case {"type": "deleted", **rest}:
            return "gone" if not rest else "gone-with-details"
        case _:
            return "other"
''',
    "estimate": r'''
def $fn(quantities: dict[str, int], prices: dict[str, float]) -> tuple[float, list[str]]:
    """Price a $domain; unknown items are returned, not guessed."""
    total = 0.0
    missing = []
    for sku, quantity in quantities.items():
        try:
            total += prices[sku] * quantity
        except KeyError:
            missing.append(sku)
        except TypeError as error:
            raise ValueError(f"bad quantity for {sku}: {quantity!r}") from error
    discount = PRIORITIES.get("$priority", 1) / 100
    return round(total * (1 - discount), 2), missing
''',
    "stats": r'''
def $fn(values: list[float]) -> dict[str, float]:
    """Count, mean, min and max of the $f2 values, zeros when there are none."""
    if not values:
        return {"count": 0, "mean": 0.0, "min": 0.0, "max": 0.0}
    ordered = sorted(values)
    middle = len(ordered) // 2
    median = ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2
    return {
        "count": float(len(values)),
        "mean": sum(values) / len(values),
        "median": median,
        "min": ordered[0],
        "max": ordered[-1],
    }
''',
    "lines": r'''
def $fn(rows: list[dict[str, Any]]) -> list[${Domain}Line]:
    """Typed lines from raw rows, skipping rows without a key."""
    lines = []
    for row in rows:
        key = row.get("key")
        if not key:
            continue
        tags = [str(tag).lower() for tag in row.get("tags", ()) if tag]
        lines.append(${Domain}Line(str(key), str(row.get("$f1", "")), float(row.get("$f2", 0)), int(row.get("$f3", 0)), tags))
    return sorted(lines, key=${Domain}Line.weight, reverse=True)
''',
    "flags": r'''
def $fn(line: ${Domain}Line, limits: dict[str, float] = THRESHOLDS) -> set[str]:
    """Which thresholds a line crosses."""
    flags = set()
    if line.$f2 > limits.get("$f2", $n3):
        flags.add("large")
    if line.$f3 >= limits.get("$f3", $n1):
        flags.add("many")
    if any(tag.startswith("$prefix") for tag in line.tags):
        flags.add("tagged")
    return flags or {"plain"}
''',
}

# Unsafe helpers: a helper whose body reads the clock or entropy; called from the workflow class
# it is an ADK-W005 chain. Each carries the call that makes it unsafe.
UNSAFE_HELPERS: dict[str, str] = {
    "stamp": r'''
def $fn(record: dict[str, Any]) -> dict[str, Any]:
    """Stamp a record with the time it was processed (unsafe: the host's clock)."""
    stamped = dict(record)
    stamped["processed_at"] = time.time()
    return stamped
''',
    "jitter": r'''
def $fn(attempt: int) -> float:
    """Retry delay with jitter (unsafe: the process-wide random generator)."""
    return min(30.0, 2 ** attempt) * (1 + random.random() / 10)
''',
    "today": r'''
def $fn(prefix: str = "$domain") -> str:
    """A dated label (unsafe: reads today's date)."""
    return f"{prefix}-{datetime.date.today():%Y%m%d}"
''',
}

ACTIVITIES = [
    r'''
@activity
async def fetch_${domain}s(key: str, *, region: str = DEFAULT_REGION) -> list[dict[str, Any]]:
    """Load the $domain's records over HTTP; recorded, so replay serves the stored answer."""
    async with httpx.AsyncClient(timeout=$timeout) as client:
        response = await client.get(f"{ENDPOINT}/{key}/items", params={"region": region})
        response.raise_for_status()
        return list(response.json().get("items", []))
''',
    r'''
@activity(name="$domain.notify")
def notify_$domain(key: str, summary: str, started: str) -> int:
    """Post the summary to the notification service; recorded like any activity."""
    response = httpx.post(
        f"{ENDPOINT}/{key}/notifications",
        json={"summary": summary, "started": started, "sent_at": time.time()},
        timeout=$timeout,
    )
    return response.status_code
''',
]

CLASS = Template(r'''

class ${Domain}Workflow:
    """Runs one $domain: validate, load, group, score, review, report."""

    def __init__(self, clock: WorkflowClock, ids: DeterministicIds, *, region: str = DEFAULT_REGION) -> None:
        self.clock = clock
        self.ids = ids
        self.region = region
        self.llm = openai.AsyncOpenAI()
        self.http = httpx.AsyncClient(base_url=ENDPOINT, timeout=$timeout)
        self.history: list[dict[str, Any]] = []
        self.retries = {name: 0 for name in ("load", "review", "notify")}

    async def run(self, payload: dict[str, Any]) -> dict[str, Any]:
        problems = $validate(payload)
        if problems:
            self.history.append({"step": "rejected", "problems": problems})
            return {"status": "rejected", "problems": problems}
        run_key, self.ids = self.ids.next("$domain")
        started = self.clock.now()
$unsafe_run
        rows = await self._load(payload["key"])
        groups = $group(rows)
        ranked = await self._rank(groups)
        review = await self._review(ranked)
        totals = {name: sum(float(row.get("$f2", 0)) for row in members) for name, members in groups.items()}
        summary = $summary(payload["key"], totals)
        notify_$domain(payload["key"], summary, started.isoformat())
        return {
            "status": "done",
            "run": run_key,
            "started": started.isoformat(),
            "groups": len(groups),
            "top": ranked[:$n1],
            "review": review,
            "summary": summary,
        }

    async def _load(self, key: str) -> list[dict[str, Any]]:
        for attempt in range(MAX_RETRIES):
            try:
                raw = await fetch_${domain}s(key, region=self.region)
                break
            except Exception as error:  # the activity's failure, as recorded
                self.retries["load"] += 1
                self.history.append({"step": "load", "attempt": attempt, "error": str(error)})
                self.clock = self.clock.advanced($backoff(attempt))
        else:
            return []
        records = $normalize(raw)
$unsafe_load
        return records

    async def _rank(self, groups: dict[str, list[dict[str, Any]]]) -> list[tuple[str, float]]:
        ranked: list[tuple[str, float]] = []
        for name, members in groups.items():
            for index, batch in $chunk(members):
                scores = $score(batch)
                ranked.extend((f"{name}/{index}/{key}", value) for key, value in scores)
        ranked.sort(key=lambda pair: pair[1], reverse=True)
        return ranked

    async def _review(self, ranked: list[tuple[str, float]]) -> str:
        prompt = "\n".join(f"{key}: {value:.2f}" for key, value in ranked[:$n2])
        response = await model_call_activity(
            self.llm.chat.completions.create,
            model=REVIEW_MODEL,
            messages=[
                {"role": "system", "content": "You review $domain rankings in two sentences."},
                {"role": "user", "content": prompt},
            ],
        )
$unsafe_review
        return response.choices[0].message.content or ""

    async def describe(self) -> str:
        steps = [entry.get("step", "?") for entry in self.history]
        return f"${Domain}Workflow(region={self.region!r}, steps={steps}, retries={self.retries})"
''')

FOOTER = Template(r"""

if __name__ == "__main__":
    import asyncio

    clock = WorkflowClock(datetime.datetime(2024, 1, $day, tzinfo=datetime.timezone.utc))
    workflow = ${Domain}Workflow(clock, DeterministicIds("local-$index"))
    print(asyncio.run(workflow.run({"key": "$domain-$index", "$f1": "x", "$f2": 1.0, "$f3": 2})))
""")

# Unsafe statements placed directly in workflow methods (indented for the method body).
UNSAFE_INLINE: dict[str, list[tuple[tuple[str, ...], str]]] = {
    "run": [
        (
            (
                "        request_id = str(uuid.uuid4())",
                '        self.history.append({"step": "start", "request": request_id})',
            ),
            "uuid.uuid4",
        ),
        (
            (
                "        wall = time.time()",
                '        self.history.append({"step": "start", "wall": wall})',
            ),
            "time.time",
        ),
        (
            (
                "        if random.random() < 0.$n0:",
                '            self.history.append({"step": "sampled"})',
            ),
            "random.random",
        ),
    ],
    "load": [
        (
            (
                '        self.history.append({"step": "load", "at": datetime.datetime.now().isoformat()})',
            ),
            "datetime.datetime.now",
        ),
        (
            (
                '        extra = await self.http.get(f"/{self.region}/defaults")',
                '        records.extend(extra.json().get("items", []))',
            ),
            "httpx.AsyncClient.get",
        ),
    ],
    "review": [
        (
            (
                "        second = await self.llm.chat.completions.create(",
                '            model=REVIEW_MODEL, messages=[{"role": "user", "content": "again: " + prompt}]',
                "        )",
                '        self.history.append({"step": "review", "second": second.id})',
            ),
            "openai.AsyncOpenAI.chat.completions.create",
        ),
    ],
}


def generate(index: int, seed: int) -> tuple[str, list[str]]:
    """(module text, the unsafe calls planted in it)."""
    rng = random.Random(seed * 1_000_003 + index)
    domain = DOMAINS[index % len(DOMAINS)]
    f1, f2, f3 = rng.sample(FIELDS, 3)
    base = {
        "domain": domain,
        "Domain": domain.capitalize(),
        "index": str(index),
        "f1": f1,
        "f2": f2,
        "f3": f3,
        "purpose": rng.choice(
            (
                "route, price and review incoming requests",
                "reconcile records against the ledger and flag outliers",
                "collect, rank and summarize the week's items",
                "check, group and escalate what needs a human",
            )
        ),
        "version": str(rng.randint(1, 4)),
        "region": rng.choice(REGIONS),
        "retries": str(rng.randint(2, 5)),
        "model": rng.choice(MODELS),
        "currency": rng.choice(CURRENCIES),
        "priority": rng.choice(("low", "normal", "high", "urgent")),
        "default": rng.choice(("unknown", "n/a", "unassigned", "pending")),
        "prefix": rng.choice(("vip", "eu", "beta", "legacy")),
        "timeout": f"{rng.uniform(2, 30):.1f}",
        "fbase": f"{rng.uniform(0.2, 2.0):.2f}",
        "fcap": f"{rng.uniform(20, 120):.1f}",
        "day": str(rng.randint(1, 28)),
    }
    for name, (low, high) in {
        "n0": (1, 9),
        "n1": (3, 40),
        "n2": (10, 200),
        "n3": (500, 90_000),
    }.items():
        base[name] = str(rng.randint(low, high))
    for name in ("p1", "p2", "p3", "p4", "t1", "t2", "t3"):
        base[name] = str(rng.randint(1, 500))
    for name in ("w1", "w2", "w3"):
        base[name] = f"{rng.uniform(0.1, 3.0):.2f}"

    # A dozen safe helpers (the class needs some roles filled), plus one unsafe helper.
    required = ["validate", "group", "summary", "normalize", "backoff", "chunk", "score"]
    optional = [name for name in HELPERS if name not in required]
    chosen = required + rng.sample(optional, 12 - len(required))
    rng.shuffle(chosen)
    names: dict[str, str] = {}
    prefixes = ("", "_")
    for kind in chosen:
        names[kind] = (
            f"{rng.choice(prefixes)}{kind}_{domain}{rng.choice(('', 's', '_rows', '_items'))}"
        )

    unsafe_calls: list[str] = []
    # 2-4 unsafe spots: one unsafe helper called from the class, plus 1-3 inline calls.
    unsafe_helper = rng.choice(sorted(UNSAFE_HELPERS))
    helper_name = f"{unsafe_helper}_{domain}"
    inline_spots = rng.sample(["run", "load", "review"], rng.randint(1, 3))
    fills = {"unsafe_run": "", "unsafe_load": "", "unsafe_review": ""}
    for spot in inline_spots:
        lines, call = rng.choice(UNSAFE_INLINE[spot])
        fills[f"unsafe_{spot}"] = Template("\n".join(lines)).substitute(base)
        unsafe_calls.append(call)
    helper_call = {
        "stamp": f"        records = [{helper_name}(record) for record in records]",
        "jitter": f'        self.history.append({{"step": "load", "delay": {helper_name}(len(records))}})',
        "today": f'        self.history.append({{"step": "load", "label": {helper_name}()}})',
    }[unsafe_helper]
    fills["unsafe_load"] = (fills["unsafe_load"] + "\n" + helper_call).lstrip("\n")
    unsafe_calls.append(f"{helper_name} -> {unsafe_helper}")
    for key, value in fills.items():
        if not value:
            fills[key] = "        pass  # nothing else here"

    parts = [HEADER.substitute(base)]
    for kind in chosen:
        parts.append(Template(HELPERS[kind]).substitute(base, fn=names[kind]))
        if kind == "normalize":  # the unsafe helper sits among the others
            parts.append(Template(UNSAFE_HELPERS[unsafe_helper]).substitute(base, fn=helper_name))
    for template in ACTIVITIES:
        parts.append(Template(template).substitute(base))
    parts.append(CLASS.substitute({**base, **fills, **{k: names[k] for k in required}}))
    parts.append(FOOTER.substitute(base))
    return "\n".join(parts), unsafe_calls
