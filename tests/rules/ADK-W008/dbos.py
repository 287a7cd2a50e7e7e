import os

from dbos import DBOS


@DBOS.step()
def list_inbox(folder: str) -> list:
    return sorted(os.listdir(folder))


@DBOS.workflow()
def ingest(folder: str) -> int:
    names = list_inbox(folder)
    for name in names:
        if os.path.getsize(os.path.join(folder, name)) == 0:  # expect: ADK-W008
            continue
    return len(names)
