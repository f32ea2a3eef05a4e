#!/usr/bin/env bash
# Registers of every megakernel instantiation, old vs new: regs.sh OUTFILE (run from the repo root).
objs="bench/CMakeFiles/bench_runtime.dir/bench_runtime.cu.o tasks/generic/CMakeFiles/apiary_generic.dir/generic.cu.o tasks/jacobi/CMakeFiles/apiary_jacobi.dir/tasks.cu.o tasks/pcg/CMakeFiles/apiary_pcg.dir/pcg_tasks.cu.o tasks/rcm/CMakeFiles/apiary_rcm.dir/rcm_tasks.cu.o tasks/sptrsv/CMakeFiles/apiary_sptrsv.dir/tassl_double.cu.o tasks/sptrsv/CMakeFiles/apiary_sptrsv.dir/levelset_double.cu.o"
for t in old new; do
  for o in $objs; do
    ( b=$(basename $o); cmd=$(ninja -C build/$t -t commands $o | tail -1 | sed "s#-o $o#-o /tmp/regs_${t}_$b#; s#-MD -MT [^ ]* -MF [^ ]*##")
      cd build/$t && eval "$cmd -Xptxas -v" > /tmp/ptx_${t}_$b.txt 2>&1 ) &
  done
done; wait
python3 - "$1" $objs <<'PY'
import re, subprocess, sys
out = open(sys.argv[1], "w")
for o in sys.argv[2:]:
    b = o.split("/")[-1]
    regs = {}
    for t in ("old", "new"):
        txt = open(f"/tmp/ptx_{t}_{b}.txt", errors="replace").read()
        cur = None
        for line in txt.splitlines():
            m = re.search(r"Compiling entry function '(_ZN6apiary10megakernel10megakernel[^']*)'", line)
            if m: cur = subprocess.run(["c++filt", m.group(1)], capture_output=True, text=True).stdout.strip() or m.group(1); continue
            m = re.search(r"Used (\d+) registers", line)
            if m and cur: regs.setdefault(cur, {})[t] = int(m.group(1)); cur = None
        if not any(t in r for r in regs.values()): out.write(f"{b} {t}: no megakernel found: {txt[:300]!r}\n")
    for name, r in sorted(regs.items()):
        d = name
        for junk in ("apiary::", "(anonymous namespace)::", "detail::", "levelset_", "jacobi::", "sptrsv::", "rcm::", "pcg::", "megakernel::megakernel<DeviceView<", "sched::"):
            d = d.replace(junk, "")
        short = d.replace(" ", "")[:150]
        o_, n_ = r.get("old"), r.get("new")
        out.write(f"{b} {short} {o_} -> {n_} {'CHANGED' if o_ != n_ else ''}\n")
PY
