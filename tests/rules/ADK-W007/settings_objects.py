"""A pydantic-settings object built on the workflow path reads the worker's environment (and
its .env file) into its fields, a project's own subclass of BaseSettings included: reported
where it decides (a branch, the result), not where it only reaches a log line."""
import logging

from pydantic_settings import BaseSettings, SettingsConfigDict
from temporalio import workflow


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env")
    agent_model: str = "claude-code:sonnet"


def pick_model() -> str:
    return Settings().agent_model  # expect: ADK-W007


@workflow.defn
class Pick:
    @workflow.run
    async def run(self) -> str:
        if pick_model().startswith("claude"):  # expect: ADK-W005
            return "a"
        return "b"


@workflow.defn
class Logged:
    @workflow.run
    async def run(self) -> str:
        logging.info("settings: %s", Settings())
        return "done"
