# regs.sh TREE: registers of the Jacobi megakernels (trace off) in build/TREE.
cd build/$1 || exit 1
cmd=$(ninja -t commands tasks/jacobi/CMakeFiles/apiary_jacobi.dir/tasks.cu.o | tail -1)
cmd=$(echo "$cmd" | sed 's# -o [^ ]*tasks.cu.o# -o /tmp/regs_jt.o#; s# -MD -MT [^ ]* -MF [^ ]*##')
eval "$cmd -Xptxas -v" > /tmp/regs_$1.txt 2>&1
awk '/Compiling entry function/ {f=$0} /Used [0-9]+ registers/ {if (f ~ /megakernel10megakernel/ && f ~ /Lb0/) {match(f, /JacobiRows[^E]*E/); print "'$1'", substr(f, RSTART, 40), $0}}' /tmp/regs_$1.txt | sed 's/ptxas info *: //' | cut -c1-160
