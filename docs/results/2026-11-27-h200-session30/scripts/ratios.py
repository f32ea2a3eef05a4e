# Per bench_sptrsv CSV: (tassl-deps analysis + set-up) / cuSPARSE analysis: worst over the >= 1e4-row matrices,
# how many of all within 10x, the worst three; the solve's geometric-mean speedup over the >= 1e4-row matrices.
import csv, math, sys
for f in sys.argv[1:]:
    rows = list(csv.DictReader(open(f)))
    cus = {r['matrix']: r for r in rows if r['variant'] == 'cusparse'}
    out, sp = [], []
    for r in rows:
        if r['variant'] != 'tassl-deps': continue
        c = cus[r['matrix']]
        x = (float(r['analysis_ms']) + float(r['setup_ms'])) / float(c['setup_ms'])
        out.append((x, r['matrix'], int(r['n'])))
        if int(r['n']) >= 10000: sp.append(float(r['speedup_vs_cusparse']))
    big = [x for x, m, n in out if n >= 10000]
    out.sort(reverse=True)
    print(f"{f.split('/')[-1]}: worst >=1e4 {max(big):.1f}x, within 10x {sum(x <= 10 for x, m, n in out)}/{len(out)}, "
          f"top {' '.join(f'{m}:{x:.1f}' for x, m, n in out[:4])}, solve geomean >=1e4 {math.exp(sum(map(math.log, sp)) / len(sp)):.2f}x")
