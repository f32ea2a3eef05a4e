import csv,math,sys,glob
for f in sys.argv[1:]:
    d={}
    for r in csv.DictReader(open(f)):
        d.setdefault(r['matrix'],{})[r['variant']]=r
    big=[];al=[];worst=(0,'');worst_big=(0,'')
    for m,v in d.items():
        td=v['tassl-deps']; cu=v['cusparse']
        s=float(cu['solve_ms'])/float(td['solve_ms'])
        al.append(s)
        ratio=(float(td['analysis_ms'])+float(td['setup_ms']))/float(cu['setup_ms'])
        worst=max(worst,(ratio,m))
        if int(td['n'])>=10000:
            big.append(s); worst_big=max(worst_big,(ratio,m))
    g=lambda xs: math.exp(sum(map(math.log,xs))/len(xs))
    print(f"{f}: big {len(big)} geo {g(big):.3f} faster {sum(x>1 for x in big)}; all {len(al)} geo {g(al):.3f} faster {sum(x>1 for x in al)}; worst analysis big {worst_big[0]:.1f} {worst_big[1]}, all {worst[0]:.1f} {worst[1]}")
