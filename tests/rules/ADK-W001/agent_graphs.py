from langchain.agents import create_agent
from langgraph.graph import StateGraph
from langgraph.prebuilt import create_react_agent

__adk_workflow__ = True


def tools():
    return []


def run(question: str, state_type: type):
    agent = create_agent("openai:gpt-4o", tools())
    react = create_react_agent("anthropic:claude-sonnet-4-5", tools=tools())
    answer = agent.invoke({"messages": [question]})  # expect: ADK-W001
    streamed = list(react.stream({"messages": [question]}))  # expect: ADK-W001
    # A graph of the user's own nodes: what its nodes do is judged where they are written.
    graph = StateGraph(state_type).compile()
    plain = graph.invoke({"question": question})
    return answer, streamed, plain
