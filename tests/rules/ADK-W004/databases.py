"""A database reached through SQLAlchemy: the engine and session factory are built once, at
import (building one connects to nothing); the queries the workflow makes through them are
network I/O. Queuing a row (`add`) is not: the commit that sends it is reported."""
import pandas
from dbos import DBOS
from sqlalchemy import create_engine, inspect, text
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker, create_async_engine
from sqlalchemy.orm import Session, sessionmaker
from sqlmodel import SQLModel

engine = create_engine("postgresql://db/app")
SessionLocal = sessionmaker(bind=engine)
shared = engine.connect()  # at import: not the workflow's, but its queries are
async_engine = create_async_engine("postgresql+asyncpg://db/app")
AsyncSessionLocal = async_sessionmaker(async_engine)


@DBOS.step()
def counted() -> int:
    with Session(engine) as session:
        return session.execute(text("select count(*) from jobs")).scalar_one()


@DBOS.workflow()
def sync_workflow(row: object) -> str:
    n = counted()
    with Session(engine) as session:
        m = session.execute(text("select 1")).scalar_one()  # expect: ADK-W004
    with engine.connect() as connection:  # expect: ADK-W004
        connection.execute(text("select 2"))  # expect: ADK-W004
    with SessionLocal() as session:
        session.add(row)
        session.commit()  # expect: ADK-W004
    with SessionLocal.begin() as session:  # expect: ADK-W004
        session.add(row)  # sent by the commit as the block ends, reported at its begin
    shared.execute(text("select 3"))  # expect: ADK-W004
    reports = create_engine("postgresql://db/reports")  # built, not connected: no I/O yet
    reports.connect().close()  # expect: ADK-W004
    SQLModel.metadata.create_all(reports)  # idempotent, and it decides nothing
    frame = pandas.read_sql("select * from jobs", reports)  # expect: ADK-W004
    tables = inspect(reports).get_table_names()  # expect: ADK-W004
    m += len(frame) + len(tables)
    return "big" if n + m > 10 else "small"


async def latest(session: AsyncSession) -> object:
    return await session.scalar(text("select max(id) from jobs"))  # expect: ADK-W004


@DBOS.workflow()
async def async_workflow() -> object:
    async with AsyncSessionLocal() as session:
        return await latest(session)  # expect: ADK-W005
