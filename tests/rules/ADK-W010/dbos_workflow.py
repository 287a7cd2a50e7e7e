"""A DBOS workflow is checked; its steps are recorded and stay clean."""
from dbos import DBOS


@DBOS.step()
def fetch_tags(user: str) -> list[str]:
    return list({user, "admin"})


@DBOS.workflow()
def sync(user: str) -> list[str]:
    tags = set(fetch_tags(user))
    for tag in tags:  # expect: ADK-W010
        DBOS.logger.info(tag)
    return sorted(tags)
