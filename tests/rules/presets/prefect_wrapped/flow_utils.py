"""A project's own @flow: it builds a prefect Flow around the function."""
from functools import partial

from prefect import Flow


def audited_flow(fn=None, **flow_kwargs):
    if fn is not None:
        return Flow(fn=fn, **flow_kwargs)
    return partial(audited_flow, **flow_kwargs)
