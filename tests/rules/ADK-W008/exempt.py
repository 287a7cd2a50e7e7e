"""The same file access in the regions never replayed: an activity, `if __name__`."""
import json
from pathlib import Path

from replaylint.workflows import activity

__adk_workflow__ = True


@activity
def load(name):
    with open(name) as handle:
        return json.load(handle)


async def run(ctx, name):
    return load(name)


if __name__ == "__main__":
    print(Path("config.json").read_text())
