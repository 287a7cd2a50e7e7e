"""Reading one module: CPython's verdict, LibCST's tree, positions, and the stacks and locks that make it safe."""
