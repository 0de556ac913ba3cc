// A sweep under mpirun or srun: rank 0 hands the runs out one at a time to ranks 1..N-1 as they
// become free (no run twice, a slow run holds up only its own rank) and gathers their summary
// rows. MPI is initialised only when the environment says the process was launched by MPI, so
// `uetsim run` and a plain `uetsim sweep` never touch it.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "sim/sweep/sweep_plan.h"

namespace uetsim::sweep {

// True when launched by mpirun (OMPI_COMM_WORLD_SIZE), a PMI/PMIx launcher or srun.
bool launched_by_mpi();

class mpi_session
{
public:
    mpi_session();   // MPI_Init
    ~mpi_session();  // MPI_Finalize
    int rank() const { return m_rank; }
    int size() const { return m_size; }

    // Rank 0: hands out `todo` (indices into runs) to the other ranks; `done(index, cells)` is
    // called for each finished run. Stops handing out on a stop signal.
    void lead(const std::vector<size_t>& todo,
              const std::function<void(size_t, std::vector<std::string>)>& done);
    // Ranks 1..N-1: runs what rank 0 hands out until it says stop; `execute(index)` runs one
    // run and returns its summary cells.
    void work(const std::function<std::vector<std::string>(size_t)>& execute);

private:
    int m_rank = 0;
    int m_size = 1;
};

}  // namespace uetsim::sweep
