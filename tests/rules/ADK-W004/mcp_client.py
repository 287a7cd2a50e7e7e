"""Listing or calling an MCP server's tools is a request to the server: before an interrupt in
a checkpointed LangGraph node, it is made again on every resume."""
from langchain_mcp_adapters.client import MultiServerMCPClient
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import START, MessagesState, StateGraph
from langgraph.types import interrupt


async def plan(state: MessagesState) -> dict:
    client = MultiServerMCPClient({"search": {"url": "http://localhost:8000/mcp"}})
    tools = await client.get_tools()  # expect: ADK-W004
    approved = interrupt({"tools": [t.name for t in tools]})
    return {"messages": [approved]}


builder = StateGraph(MessagesState)
builder.add_node("plan", plan)
builder.add_edge(START, "plan")
graph = builder.compile(checkpointer=InMemorySaver())
