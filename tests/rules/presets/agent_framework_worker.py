"""Agent Framework on durabletask: an orchestrator that wraps its context for the agents."""
import random

from agent_framework_durabletask import DurableAIAgentOrchestrationContext
from durabletask.worker import TaskHubGrpcWorker


def review(ctx, draft: str):
    agents = DurableAIAgentOrchestrationContext(ctx)
    critic = agents.get_agent("critic")
    strict = random.random() < 0.5  # expect: ADK-W002
    verdict = yield critic.run(f"{'strictly ' if strict else ''}review {draft}")
    return verdict.text


worker = TaskHubGrpcWorker(host_address="localhost:4001")
worker.add_orchestrator(review)
