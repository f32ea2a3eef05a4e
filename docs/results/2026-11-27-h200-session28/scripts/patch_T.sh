#!/usr/bin/env bash
# Timing prints in analyze (stderr): where the analysis's time goes on this host.
python3 - <<'PY'
p='tasks/sptrsv/analysis.cpp'
s=open(p).read()
s=s.replace('#include <thread>','#include <thread>\n#include <chrono>\n#include <cstdio>')
s=s.replace('  double seconds = 0;\n','  double seconds = 0;\n  double t_part = 0, t_slots = 0, t_dag = 0;\n',1)
s=s.replace('''  c.p = partition(in, n_max, &c.stats);''','''  using K = std::chrono::steady_clock; auto ms = [](K::time_point a) { return std::chrono::duration<double, std::milli>(K::now() - a).count(); };
  const auto k0 = K::now();
  c.p = partition(in, n_max, &c.stats);
  c.t_part = ms(k0); const auto k1 = K::now();''')
s=s.replace('''  c.dag = dag.get();''','''  c.t_slots = ms(k1);
  c.dag = dag.get();
  c.t_dag = ms(k1);''')
s=s.replace('''  const PartitionInput input(s.lower);''','''  using K = std::chrono::steady_clock; auto ms = [](K::time_point a) { return std::chrono::duration<double, std::milli>(K::now() - a).count(); };
  const auto k0 = K::now();
  const PartitionInput input(s.lower);''')
s=s.replace('''  std::vector<std::future<Candidate>> work;''','''  const double t_input = ms(k0); const auto k1 = K::now();
  double mp = 0, msl = 0, md = 0;
  std::vector<std::future<Candidate>> work;''')
s=s.replace('''    Candidate c = w.get();''','''    Candidate c = w.get();
    mp = std::max(mp, c.t_part); msl = std::max(msl, c.t_slots); md = std::max(md, c.t_dag);''')
s=s.replace('''  // The chosen candidate's''','''  const double t_cands = ms(k1); const auto k2 = K::now();
  // The chosen candidate's''')
s=s.replace('''  detail::add_predecessors(best.dag, s.lower, best.p, cores, kMinRange);''','''  detail::add_predecessors(best.dag, s.lower, best.p, cores, kMinRange);
  const double t_sched = ms(k2); const auto k3 = K::now();''')
s=s.replace('''  a.partition = best.stats;''','''  const double t_plan = ms(k3); const auto k4 = K::now();
  a.partition = best.stats;''')
s=s.replace('''  a.row_levels = input.levels;''','''  a.row_levels = input.levels;
  std::fprintf(stderr, "analysis-times n %d: input %.1f cands %.1f (part %.1f slots %.1f dag %.1f) schedule %.1f plan %.1f levels-wait %.1f total %.1f\\n",
               s.lower.rows, t_input, t_cands, mp, msl, md, t_sched, t_plan, ms(k4), ms(k0));''')
open(p,'w').write(s)
PY
