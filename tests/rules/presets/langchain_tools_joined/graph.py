"""The tools handed to create_agent may be a list joined from several (`[ask_human] + EXTRA`,
`BASE + more`): each tool of a known part is hosted in the agent's tool node, and one that
interrupts is replayed from its first line on resume."""
from langchain.agents import create_agent
from langchain_core.tools import tool
from langchain_openai import ChatOpenAI
from langgraph.types import interrupt

llm = ChatOpenAI(model="gpt-4o-mini")
EXTRA: list = []


@tool
def ask_human(question: str) -> str:
    """Ask the user a question the model has rephrased."""
    phrased = llm.invoke(question).content  # expect: ADK-W001
    return str(interrupt({"q": phrased}))


def build(more: list):  # noqa: ANN201
    return create_agent(model=llm, tools=[ask_human] + EXTRA + more)
