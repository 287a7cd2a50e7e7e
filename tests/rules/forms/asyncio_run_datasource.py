"""A DBOS datasource created with asyncio.run(...) (the async class's awaited create): its
transactions run once, recorded with their commit."""
import asyncio
import uuid
from datetime import datetime

from dbos import DBOS, AsyncSQLAlchemyDatasource

ds = asyncio.run(AsyncSQLAlchemyDatasource.create("postgresql+asyncpg://localhost/app"))


@ds.transaction()
async def save(note: str) -> str:
    key = str(uuid.uuid4())
    await ds.sql_session().execute("insert", {"id": key, "at": datetime.now(), "note": note})
    return key


@DBOS.workflow()
async def remember(note: str) -> str:
    key = await save(note)
    return f"{key}:{datetime.now()}"  # expect: ADK-W003
