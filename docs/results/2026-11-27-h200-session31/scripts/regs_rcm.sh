# regs_rcm.sh TREE: registers and stack of the RCM megakernels (trace off) in build/TREE.
cd build/$1 || exit 1
cmd=$(ninja -t commands tasks/rcm/CMakeFiles/apiary_rcm.dir/rcm_tasks.cu.o | tail -1)
cmd=$(echo "$cmd" | sed 's# -o [^ ]*rcm_tasks.cu.o# -o /tmp/regs_rcm.o#; s# -MD -MT [^ ]* -MF [^ ]*##')
eval "$cmd -Xptxas -v" > /tmp/regs_rcm_$1.txt 2>&1
awk '/Compiling entry function/ {f=$0} /Used [0-9]+ registers/ {if (f ~ /megakernel10megakernel/ && f ~ /Lb0/) print "'$1'", $0} /bytes stack frame/ {if (f ~ /megakernel10megakernel/ && f ~ /Lb0/) print "'$1'", $0}' /tmp/regs_rcm_$1.txt | sed 's/ptxas info *: //' | cut -c1-160
