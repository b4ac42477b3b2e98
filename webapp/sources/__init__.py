"""The upstream source as facts: for each version the model reproduces, where its queue code is (repository, tag,
file), each function's line range, the lines each operation and branch runs, and a short hash of every line named
(never the text); the project's own paraphrase of each function for when the real text is not at hand. Pure data:
no I/O (the text is fetched by webapp/upstream/)."""
