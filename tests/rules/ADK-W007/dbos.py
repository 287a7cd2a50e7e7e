import os

from dbos import DBOS

DATABASE_URL = os.environ.get("DBOS_DATABASE_URL")


@DBOS.step()
def read_limit() -> int:
    return int(os.environ.get("LIMIT", "10"))


@DBOS.workflow()
def checkout(amount: int) -> dict:
    limit = read_limit()
    region = os.getenv("REGION")  # expect: ADK-W007
    return {"limit": limit, "region": region, "ok": amount < limit}
