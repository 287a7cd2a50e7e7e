from helpers import fetch_rates, make_id
from util import ids
from util.ids import Tagger

__adk_workflow__ = True


async def run(order):
    rates = fetch_rates(order["currency"])  # expect: ADK-W005
    key = make_id("order")  # expect: ADK-W005
    other = ids.fresh()  # expect: ADK-W005
    tag = Tagger().tag(order)  # expect: ADK-W005
    return rates, key, other, tag
