from sdk import Pipeline


class Stage(Pipeline):
    """An intermediate base of the project's own."""

    retries = 3
