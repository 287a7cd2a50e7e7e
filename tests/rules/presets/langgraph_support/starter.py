"""Starting and resuming the graph is no workflow code."""
import time
import uuid

from langgraph.types import Command

from graph import support


def main() -> None:
    config = {"configurable": {"thread_id": str(uuid.uuid4())}}
    support.invoke({"amount": 20, "started": time.time()}, config)
    support.invoke(Command(resume="yes"), config)


if __name__ == "__main__":
    main()
