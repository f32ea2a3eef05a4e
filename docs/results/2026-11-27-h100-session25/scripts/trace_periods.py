import json,sys,statistics as st
f,N=sys.argv[1],int(sys.argv[2])
ev=json.load(open(f))['traceEvents']
ev=sorted([(e['ts']*1000,(e['ts']+e['dur'])*1000,e['tid']) for e in ev])
its=[ev[i:i+N] for i in range(0,len(ev),N)]
rows=[]
for k,it in enumerate(its[1:-1],1):
    s=[a for a,b,c in it]; e=sorted([b for a,b,c in it])
    d=sorted([b-a for a,b,c in it])
    nxt=its[k+1]; nstart=min(a for a,b,c in nxt)
    # end of second-to-last arrival approx e[-2]; decider = longest
    rows.append((max(s)-min(s), st.median(d), d[-2], e[-2]-min(s), nstart-min(s), e[-1]-min(s)))
def med(i): return st.median(r[i] for r in rows)
print(f, "per-iteration medians (ns): start spread %.0f, task dur median %.0f, 2nd-longest dur %.0f, first start->2nd-last end %.0f, period (next first start) %.0f, ->last end %.0f"%tuple(med(i) for i in range(6)))
