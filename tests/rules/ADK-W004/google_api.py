"""Google's API clients: every resource and method gives another request of the service, and
execute() sends it; building the service sends nothing."""
import httplib2
from dbos import DBOS
from googleapiclient.discovery import build


class Drive:
    def __init__(self) -> None:
        self._service = build("drive", "v3")

    def changes(self, token: str) -> dict:
        return self._service.changes().list(pageToken=token).execute()  # expect: ADK-W004


@DBOS.step()
def listed(folder: str) -> dict:
    return build("drive", "v3").files().list(q=folder).execute()


@DBOS.workflow()
def sync(folder: str, token: str) -> int:
    service = build("drive", "v3")
    request = service.files().get(fileId=folder)
    meta = request.execute()  # expect: ADK-W004
    page = Drive().changes(token)  # expect: ADK-W005
    _, body = httplib2.Http().request("https://example.com")  # expect: ADK-W004
    return len(meta) + len(page) + len(listed(folder)) + len(body)
