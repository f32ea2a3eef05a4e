# newF (experiment, not kept): no held_position field in Continuation (the hook frees nothing), to see what the field costs RCM.
python3 - <<'PY'
p='runtime/device_view.cuh'; s=open(p).read()
a='''  unsigned long long* held_position = nullptr;
};'''
assert a in s; s=s.replace(a,'};')
a='''  if (cont == nullptr || cont->held_position == nullptr) return;
  const unsigned long long held = atomicExch(cont->held_position, 0ull);'''
assert a in s; s=s.replace(a,'''  return;
  const unsigned long long held = atomicExch((unsigned long long*)nullptr, 0ull);''')
open(p,'w').write(s)
p='schedulers/megakernel.cuh'; s=open(p).read()
a=''', waiting_claims<P> ? &local.claimed : nullptr};'''
assert a in s; s=s.replace(a,'};')
open(p,'w').write(s)
PY
