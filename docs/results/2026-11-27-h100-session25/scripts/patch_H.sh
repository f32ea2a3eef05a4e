# newH: the hook disabled (free_held_position does nothing): the wrap test must fail under the megakernel.
python3 - <<'PY'
p='runtime/device_view.cuh'; s=open(p).read()
a='  if (cont == nullptr || cont->held_position == nullptr) return;'
assert a in s
s=s.replace(a,'  if (cont == nullptr || cont->held_position == nullptr || true) return;')
open(p,'w').write(s)
PY
