import asyncio
import subprocess
import threading

from dbos import DBOS


@DBOS.step()
def convert(name: str) -> int:
    return subprocess.run(["convert", name], check=True).returncode


@DBOS.transaction()
def record(name: str) -> None:
    DBOS.sql_session.execute("select 1")


@DBOS.workflow()
async def publish(name: str) -> int:
    # An async DBOS workflow runs its synchronous steps through asyncio.to_thread, checkpointed.
    code = await asyncio.to_thread(convert, name)
    await asyncio.to_thread(record, name)
    threading.Thread(target=print, args=(name,)).start()  # expect: ADK-W009
    return code
