# Session 41: refits the model with an extra term per level (the rows of the level's slowest sub-graph, in rounds of
# the task's threads) from model_features.cpp's CSV and a sweep's measured kernel times; prints the fit and how well
# the model then picks (n_max, width). Run from the repository root:
#   python3 <this> features.csv sweep.csv levels,ext,int[,rows]
import csv, os, sys
sys.path.insert(0, os.path.join(os.getcwd(), 'bench'))
from fit_sptrsv_model import nnls
feat = {(r['matrix'], r['n_max'], r['threads']): r for r in csv.DictReader(open(sys.argv[1]))}
meas = {(r['matrix'], r['n_max'], r['threads']): float(r['kernel_ms']) * 1e-3
        for r in csv.DictReader(open(sys.argv[2])) if r['variant'] == 'tassl-deps'}
cols = sys.argv[3].split(',')  # e.g. levels,ext,int,rows
from collections import defaultdict
res = {}
for th in ('256', '512'):
    keys = [k for k in meas if k[2] == th and k in feat]
    a = [[1.0] + [float(feat[k][c]) for c in cols] for k in keys]
    t = [meas[k] for k in keys]
    coef = nnls([[x / y for x in r] for r, y in zip(a, t)], [1.0] * len(t))
    pred = [sum(c * x for c, x in zip(coef, r)) for r in a]
    err = sorted(abs(p - y) / y for p, y in zip(pred, t))
    print(th, 'coef', ' '.join(f'{c*1e6:.4f}' for c in coef), 'median err %.2f%%' % (100 * err[len(err) // 2]), 'p90 %.1f%%' % (100 * err[int(len(err) * 0.9)]))
    for k, p, y in zip(keys, pred, t): res[k] = (p, y)
by = defaultdict(list)
for k, (p, y) in res.items(): by[k[0]].append((p, y, k))
hits = 0; worst = []; import math; lossum = 0
for m, xs in by.items():
    bp = min(xs); bm = min(xs, key=lambda x: x[1])
    hits += bp[2] == bm[2]; worst.append((bp[1] / bm[1], m, bp[2][1:], bm[2][1:])); lossum += math.log(bp[1] / bm[1])
worst.sort(reverse=True)
print('best on', hits, 'of', len(by), 'geo loss %.3f' % math.exp(lossum / len(by)), 'worst', [(round(w, 2), m, a, b) for w, m, a, b in worst[:5]])
