import csv,math,sys,glob
def load(f):
    d={}
    for r in csv.DictReader(open(f)):
        d.setdefault(r['matrix'],{})[r['variant']]=r
    return d
N=[load(f) for f in sorted(glob.glob('quick_new_*.csv'))]; O=[load(f) for f in sorted(glob.glob('quick_old_*.csv'))]
worst={}
for m in N[0]:
    a=N[0][m]['tassl-deps']; b=O[0][m]['tassl-deps']
    tn=[float(x[m]['tassl-deps']['solve_ms'])*1e3 for x in N]; to=[float(x[m]['tassl-deps']['solve_ms'])*1e3 for x in O]
    cu=[float(x[m]['cusparse']['solve_ms'])*1e3 for x in N+O]
    rn=[(float(x[m]['tassl-deps']['analysis_ms'])+float(x[m]['tassl-deps']['setup_ms']))/float(x[m]['cusparse']['setup_ms']) for x in N]
    ro=[(float(x[m]['tassl-deps']['analysis_ms'])+float(x[m]['tassl-deps']['setup_ms']))/float(x[m]['cusparse']['setup_ms']) for x in O]
    flag = '*' if a['split']=='bands' else ' '
    print(f"{flag}{m:21s} {int(a['n']):>8} old {b['n_max']:>5}x{b['threads']} {b['subgraphs']:>4}/{b['subgraph_levels']:>3} {min(to):7.1f}-{max(to):7.1f}  new {a['split'][:4]} {a['n_max']:>5}x{a['threads']} {a['subgraphs']:>4}/{a['subgraph_levels']:>3} {min(tn):7.1f}-{max(tn):7.1f} cu {min(cu):6.1f}-{max(cu):6.1f} anratio {min(ro):.1f}-{max(ro):.1f} -> {min(rn):.1f}-{max(rn):.1f}")
