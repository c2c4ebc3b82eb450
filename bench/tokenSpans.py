"""An independent check of `gpudedup substrings FILE --min-tokens N --spans X.csv` (default --cut later, default
normalization): Python's own tokens (each str.isspace-delimited word lowercased: the same as Unicode White_Space on
text without U+001C-U+001F), every N-token window keyed by the bytes of its interned ids in a dict (exact), spans as
maximal runs of covered tokens in UTF-8 byte offsets, first_* at the earliest occurrence of a span's first window.

    python3 bench/tokenSpans.py CORPUS.jsonl[.gz] X.csv N

Prints the span counts and whether the CSV equals them (bench/RESULTS.md, issue 32, --min-tokens)."""
import csv, gzip, json, re, sys
from array import array

path, spans_csv, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
vocab, docs = {}, []
for line in (gzip.open(path, 'rt', encoding='utf-8') if path.endswith('.gz') else open(path, encoding='utf-8')):
    o = json.loads(line)
    text = o['text']
    ids, starts, ends = array('i'), [], []
    byte, at = 0, 0
    for m in re.finditer(r'\S+', text):
        byte += len(text[at:m.start()].encode('utf-8'))
        start = byte
        byte += len(m.group(0).encode('utf-8'))
        at = m.end()
        ids.append(vocab.setdefault(m.group(0).lower(), len(vocab)))
        starts.append(start)
        ends.append(byte)
    docs.append((str(o['id']), ids, starts, ends))
print('documents', len(docs), 'vocabulary', len(vocab), file=sys.stderr)
first, count = {}, {}
for d, (_, ids, _, _) in enumerate(docs):
    raw = ids.tobytes()
    for p in range(len(ids) - n + 1):
        key = raw[4 * p: 4 * (p + n)]
        if key in count:
            count[key] += 1
        else:
            count[key] = 1
            first[key] = (d, p)
rows = []
for d, (doc_id, ids, starts, ends) in enumerate(docs):
    raw = ids.tobytes()
    covered = bytearray(len(ids))
    for p in range(len(ids) - n + 1):
        key = raw[4 * p: 4 * (p + n)]
        if count[key] > 1 and first[key] != (d, p):
            covered[p:p + n] = b'\x01' * n
    p = 0
    while p < len(ids):
        if not covered[p]:
            p += 1
            continue
        e = p
        while e < len(ids) and covered[e]:
            e += 1
        fd, fp = first[raw[4 * p: 4 * (p + n)]]
        rows.append((doc_id, starts[p], ends[e - 1], docs[fd][0], docs[fd][2][fp]))
        p = e
with open(spans_csv, newline='', encoding='utf-8') as f:
    reader = csv.reader(f)
    next(reader)
    ours = [(r[0], int(r[1]), int(r[2]), r[3], int(r[4])) for r in reader]
print('python spans', len(rows), 'gpudedup spans', len(ours), 'equal', rows == ours)
if rows != ours:
    for i, (a, b) in enumerate(zip(rows, ours)):
        if a != b:
            print('first difference at', i, a, b)
            break
