"""A dataset or a model file fetched from the Hugging Face Hub by name, in the workflow: again on
every replay, and the Hub may hold other bytes by then."""
import datasets
from dbos import DBOS
from huggingface_hub import hf_hub_download


@DBOS.step()
def fetch_weights(repo: str) -> str:
    return hf_hub_download(repo, "model.safetensors")


@DBOS.workflow()
def evaluate(name: str, repo: str) -> int:
    rows = datasets.load_dataset(name, split="test")  # expect: ADK-W004
    weights = fetch_weights(repo)
    return len(rows) + len(weights)
