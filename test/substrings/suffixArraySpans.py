"""The repeated spans of a corpus from an independent suffix array: pydivsufsort (PyPI).

Reads {"texts": [...], "length": L} on stdin; writes {"later": rows, "all": rows}, each row
[document, start, end, first_document, first_start] in UTF-8 byte offsets. The corpus is one
integer array: each text's bytes, then a separator symbol of its own (256 + document), so no
common prefix runs past a document's end. Suffixes sharing their first L bytes are consecutive
in the suffix array with longest common prefixes >= L between neighbours: each such run is one
repeated window, its earliest position the first occurrence (kept by the 'later' cut).
"""
import json
import sys

import numpy as np
from pydivsufsort import divsufsort, kasai

request = json.load(sys.stdin)
length = request["length"]
texts = [t.encode("utf-8") for t in request["texts"]]
parts, doc_of, offset_of = [], [], []
for d, t in enumerate(texts):
    parts.append(np.frombuffer(t, dtype=np.uint8).astype(np.uint32))
    parts.append(np.array([256 + d], dtype=np.uint32))
    doc_of.append(np.full(len(t) + 1, d, dtype=np.int64))
    offset_of.append(np.arange(len(t) + 1, dtype=np.int64))
corpus = np.concatenate(parts)
doc_of, offset_of = np.concatenate(doc_of), np.concatenate(offset_of)
sa = divsufsort(corpus).astype(np.int64)
lcp = kasai(corpus, sa).astype(np.int64)  # lcp[i]: of sa[i] and sa[i + 1]

pair = lcp[:-1] >= length
member = np.zeros(len(sa), dtype=bool)
member[:-1] |= pair
member[1:] |= pair
starts_run = member & ~np.concatenate([[False], pair])
run_id = np.cumsum(starts_run) - 1
positions = sa[member]
runs = run_id[member]
first = np.full(runs.max() + 1 if len(runs) else 0, np.iinfo(np.int64).max)
np.minimum.at(first, runs, positions)
first_at = np.full(len(corpus), -1, dtype=np.int64)
first_at[positions] = first[runs]


def spans(marked):
    """Marked windows merged where they overlap or touch, within a document (vectorized)."""
    marked = np.sort(marked)
    if len(marked) == 0:
        return []
    docs = doc_of[marked]
    new = np.ones(len(marked), dtype=bool)
    new[1:] = (docs[1:] != docs[:-1]) | (marked[1:] - marked[:-1] > length)
    heads = np.flatnonzero(new)
    tails = np.append(heads[1:] - 1, len(marked) - 1)
    firsts = first_at[marked[heads]]
    columns = [docs[heads], offset_of[marked[heads]], offset_of[marked[tails]] + length, doc_of[firsts], offset_of[firsts]]
    return np.stack(columns, axis=1).tolist()


later = positions[positions != first_at[positions]]
json.dump({"later": spans(later), "all": spans(positions)}, sys.stdout)
