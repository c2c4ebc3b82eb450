#!/usr/bin/env python3
"""datasketch 2.0's MinHashLSHForest and MinHashLSHEnsemble on the signatures and truth that
bench/topContainment.bench.ts wrote (signatures.bin: gpudedup's 128 64-bit slots per text, given to
datasketch's MinHash as its hash values, so the structures are compared on the same sketches; data.json:
the set sizes and the truth): recall (and precision) and queries/s, one thread."""
import json, os, sys, time
import numpy as np
from datasketch import MinHash, MinHashLSHEnsemble, MinHashLSHForest, __version__

def minhashes(data, path):
    rows = np.fromfile(os.path.join(os.path.dirname(path), 'signatures.bin'), dtype='<u8').reshape(-1, data['k'])
    made = [MinHash(num_perm=data['k'], hashvalues=row, scheme='legacy') for row in rows]  # values below 2^61 − 1, as legacy's
    return made[:data['indexed']], made[data['indexed']:]

def recall(truth, scores, found, k, floor):
    """As recallAt in topContainment.bench.ts: ties counted as either."""
    wanted = hit = 0
    for row, score, got in zip(truth, scores, found):
        got = sorted((score.get(str(i), 0) for i in got[:k]), reverse=True)
        g = 0
        for x in row[:k]:
            if x['j'] < floor:
                continue
            wanted += 1
            while g < len(got) and got[g] > x['j'] + 1e-12:
                g += 1
            if g < len(got) and abs(got[g] - x['j']) <= 1e-12:
                hit += 1
                g += 1
    return hit / wanted if wanted else 1.0

def top(data, indexed, asked):
    print(f'datasketch {__version__}, on the same signatures ({len(indexed)} indexed, {len(asked)} queries)')
    for l, refine in ((8, 1), (32, 1), (32, 5)):
        t = time.perf_counter()
        forest = MinHashLSHForest(num_perm=128, l=l)
        for i, m in enumerate(indexed):
            forest.add(i, m)
        forest.index()
        built = time.perf_counter() - t
        k = 11 if data['self'] else 10
        found = []
        t = time.perf_counter()
        for q, m in enumerate(asked):
            keys = forest.query(m, k * refine)
            if refine > 1:  # the candidates ranked by estimated Jaccard, as a caller would
                keys = sorted(keys, key=lambda i: -m.jaccard(indexed[i]))
            found.append([i for i in keys if not (data['self'] and i == q)][:10])
        qps = len(asked) / (time.perf_counter() - t)
        name = f'MinHashLSHForest l={l}, query(k={k * refine})' + (', ranked by estimate' if refine > 1 else '') + f' (built in {built:.1f} s)'
        print(f'| {name} | floor | recall@1 | recall@5 | recall@10 | queries/s |\n| --- | --: | --: | --: | --: | --: |')
        for floor in (0.5, 0.3):
            r = [recall(data['truth'], data['scores'], found, kk, floor) for kk in (1, 5, 10)]
            print(f'| | {floor} | {r[0]:.4f} | {r[1]:.4f} | {r[2]:.4f} | {qps:.0f} |')

def containment(data, indexed, asked):
    sizes, asked_sizes = data['sizes'], data['querySizes']
    print(f'datasketch {__version__}, on the same signatures and set sizes')
    ensemble = MinHashLSHEnsemble(threshold=data['c'], num_perm=128, num_part=16)
    ensemble.index([(i, m, n) for i, (m, n) in enumerate(zip(indexed, sizes))])
    found = []
    t = time.perf_counter()
    for m, n in zip(asked, asked_sizes):
        found.append(set(ensemble.query(m, n)))
    qps = len(asked) / (time.perf_counter() - t)
    wanted = sum(len(w) for w in data['truth'])
    hit = sum(len(set(w) & f) for w, f in zip(data['truth'], found))
    returned = sum(len(f) for f in found)
    print(f'MinHashLSHEnsemble(threshold={data["c"]}, num_perm=128, num_part=16): recall {hit / wanted:.4f} ({hit} of {wanted}), '
          f'precision {hit / returned if returned else 1:.4f} ({returned} returned, no verification), {qps:.0f} queries/s')

data = json.load(open(sys.argv[1]))
indexed, asked = minhashes(data, sys.argv[1])
top(data, indexed, asked) if data['mode'] == 'top' else containment(data, indexed, asked)
