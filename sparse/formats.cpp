// Explicit instantiations: compile every container and conversion once for the two
// value types the library supports, so template errors surface here.
#include "sparse/convert.hpp"
#include "sparse/formats.hpp"

namespace apiary::sparse {

template struct Coo<float>;
template struct Coo<double>;
template struct Csr<float>;
template struct Csr<double>;
template struct Csc<float>;
template struct Csc<double>;

template Csr<float> coo_to_csr(const Coo<float>&);
template Csr<double> coo_to_csr(const Coo<double>&);
template Csr<float> transpose(const Csr<float>&);
template Csr<double> transpose(const Csr<double>&);
template Csc<double> csr_to_csc(const Csr<double>&);
template Csr<double> csc_to_csr(const Csc<double>&);

}  // namespace apiary::sparse
