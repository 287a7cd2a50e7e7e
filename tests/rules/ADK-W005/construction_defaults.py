import uuid
from dataclasses import dataclass, field
from datetime import datetime

import attrs
from pydantic import BaseModel, Field, field_validator

__adk_workflow__ = True
# In a marked module all code is replayed: a factory is reported where it is written too.


@dataclass
class Order:
    item: str
    order_id: str = field(default_factory=lambda: str(uuid.uuid4()))  # expect: ADK-W002
    created: datetime = field(default_factory=datetime.now)  # expect: ADK-W003
    tags: list[str] = field(default_factory=list)  # a safe factory


@dataclass
class Rush(Order):
    pass


class Invoice(BaseModel):
    number: str = Field(default_factory=lambda: uuid.uuid4().hex)  # expect: ADK-W002


@attrs.define
class Receipt:
    stamp: datetime = attrs.field(factory=datetime.utcnow)  # expect: ADK-W003


@attrs.define
class Token:
    value: str = attrs.Factory(lambda: uuid.uuid4().hex)  # expect: ADK-W002


@dataclass
class Audited:
    who: str
    at: float = 0.0

    def __post_init__(self) -> None:
        self.at = datetime.now().timestamp()  # expect: ADK-W003


class Checked(BaseModel):
    name: str

    @field_validator("name")
    @classmethod
    def tag(cls, value: str) -> str:
        return f"{value}-{uuid.uuid4()}"  # expect: ADK-W002


@dataclass
class Plain:
    item: str
    count: int = field(default=0)


class NeverBuilt(BaseModel):
    number: str = Field(default_factory=lambda: uuid.uuid4().hex)  # expect: ADK-W002


def run(item: str) -> list:
    return [
        Order(item),  # expect: ADK-W005
        Rush(item),  # expect: ADK-W005
        Invoice(),  # expect: ADK-W005
        Receipt(),  # expect: ADK-W005
        Token(),  # expect: ADK-W005
        Audited(item),  # expect: ADK-W005
        Checked(name=item),  # expect: ADK-W005
        Plain(item),
    ]
