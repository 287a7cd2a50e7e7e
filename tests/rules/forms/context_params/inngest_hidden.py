"""An Inngest handler whose steps are taken by a helper given its context unannotated is
replayed up to the helper's call."""
import random
import time

import inngest
import requests

client = inngest.Inngest(app_id="checks")


def check(n: int) -> bool:
    return requests.get(f"https://api.example.com/check/{n}").ok


async def run_checks(ctx, count: int) -> list:
    return [await ctx.step.run(f"check-{n}", check, n) for n in range(count)]


@client.create_function(fn_id="checks", trigger=inngest.TriggerEvent(event="checks/run"))
async def checks(ctx: inngest.Context) -> list:
    count = random.randint(1, 3)  # expect: ADK-W002
    started = time.time()  # expect: ADK-W003
    return [started, *await run_checks(ctx, count)]
