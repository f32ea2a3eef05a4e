import json,sys,statistics as st
f,N=sys.argv[1],int(sys.argv[2])
ev=json.load(open(f))['traceEvents']
ev=sorted([(e['ts']*1000,(e['ts']+e['dur'])*1000,e['tid']) for e in ev])
its=[ev[i:i+N] for i in range(0,len(ev),N)]
import collections
pct=collections.defaultdict(list); durs_by_rank=collections.defaultdict(list); endoff=collections.defaultdict(list)
for it in its[2:-2]:
    s0=min(a for a,b,c in it)
    offs=sorted(a-s0 for a,b,c in it)
    for q in (0.1,0.25,0.5,0.75,0.9,1.0):
        pct[q].append(offs[min(len(offs)-1,int(q*(len(offs)-1)))])
    ends=sorted(b-s0 for a,b,c in it)
    for q in (0.1,0.5,0.9):
        endoff[q].append(ends[int(q*(len(ends)-1))])
    # duration vs start order
    byst=sorted(it)
    for r,(a,b,c) in enumerate(byst): durs_by_rank[r*10//N].append(b-a)
print(f)
print(" start offset percentiles:", {q: round(st.median(v)) for q,v in pct.items()})
print(" end offset percentiles:", {q: round(st.median(v)) for q,v in endoff.items()})
print(" duration median by start decile:", [round(st.median(durs_by_rank[d])) for d in sorted(durs_by_rank)])
