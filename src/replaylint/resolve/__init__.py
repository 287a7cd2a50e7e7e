"""Name resolution: what a name, attribute or call refers to, with every fold applied."""
