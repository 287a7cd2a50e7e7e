from datetime import datetime

from dbos import DBOS, AsyncSQLAlchemyDatasource, SQLAlchemyDatasource

ds = SQLAlchemyDatasource.create("postgresql://localhost/app")


@ds.transaction()
def insert_order(item: str) -> str:
    # Runs once, recorded with its commit: the time it stamps is served on replay.
    return f"{item}@{datetime.now().isoformat()}"


@ds.transaction
def touch(item: str) -> str:
    return f"{item}@{datetime.now().isoformat()}"


def audit(item: str) -> str:
    return f"{item}@{datetime.utcnow().isoformat()}"


@DBOS.workflow()
def place_order(item: str) -> str:
    first = insert_order(item)
    second = touch(item)
    third = ds.run_tx_step(audit, item)
    return first + second + third + datetime.now().isoformat()  # expect: ADK-W003


@DBOS.workflow()
async def place_order_async(item: str) -> str:
    adb = await AsyncSQLAlchemyDatasource.create("postgresql://localhost/app")
    recorded = await adb.run_tx_step_async(audit, item)
    return recorded + str(datetime.now())  # expect: ADK-W003


# A datasource filled in by an init function, known by its annotation: its steps are recorded.
_shared: SQLAlchemyDatasource | None = None


def shared() -> SQLAlchemyDatasource:
    assert _shared is not None
    return _shared


def lazily() -> "SQLAlchemyDatasource":
    return _make()


def _make():
    return None


@DBOS.workflow()
def reconcile(item: str) -> str:
    def stamped() -> str:
        return datetime.now().isoformat()

    first = shared().run_tx_step(stamped)
    second = lazily().run_tx_step(stamped)
    assert _shared is not None
    third = _shared.run_tx_step(lambda: datetime.utcnow().isoformat())
    return first + second + third
