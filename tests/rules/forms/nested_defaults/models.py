import uuid
from dataclasses import dataclass, field

from pydantic import BaseModel, Field


class Trace(BaseModel):
    span: str = Field(default_factory=lambda: uuid.uuid4().hex)


class Envelope(BaseModel):
    body: str
    trace: Trace = Field(default_factory=Trace)


@dataclass
class Batch:
    items: list[str] = field(default_factory=list)  # a plain factory: nothing unsafe
    envelope: Envelope = field(default_factory=lambda: Envelope(body=""))
