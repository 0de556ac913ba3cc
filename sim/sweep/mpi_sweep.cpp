#include "sim/sweep/mpi_sweep.h"

#include <mpi.h>
#include <unistd.h>

#include <cstdlib>

#include <nlohmann/json.hpp>

#include "testbench/run/run_control.h"

namespace uetsim::sweep {

namespace {

constexpr int tag_result = 1;  // worker -> rank 0: {"index": i, "cells": [...]}, index -1 first
constexpr int tag_assign = 2;  // rank 0 -> worker: a run index, -1 to stop

}  // namespace

bool launched_by_mpi()
{
    for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "SLURM_STEP_NUM_TASKS"})
        if (std::getenv(v)) return true;
    return false;
}

mpi_session::mpi_session()
{
    MPI_Init(nullptr, nullptr);
    MPI_Comm_rank(MPI_COMM_WORLD, &m_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &m_size);
}

mpi_session::~mpi_session()
{
    MPI_Finalize();
}

void mpi_session::lead(const std::vector<size_t>& todo,
                       const std::function<void(size_t, std::vector<std::string>)>& done)
{
    size_t next = 0;
    int active = m_size - 1;
    while (active > 0) {
        // Polled rather than blocking so that the lead keeps seeing its stop flag.
        MPI_Status st;
        int ready = 0;
        while (!ready) {
            MPI_Iprobe(MPI_ANY_SOURCE, tag_result, MPI_COMM_WORLD, &ready, &st);
            if (!ready) usleep(2000);
        }
        int len = 0;
        MPI_Get_count(&st, MPI_CHAR, &len);
        std::string msg(size_t(len), '\0');
        MPI_Recv(msg.data(), len, MPI_CHAR, st.MPI_SOURCE, tag_result, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
        const auto j = nlohmann::json::parse(msg);
        if (const long index = j.at("index").get<long>(); index >= 0)
            done(size_t(index), j.at("cells").get<std::vector<std::string>>());
        int assign = -1;
        if (!stop_signal() && next < todo.size())
            assign = int(todo[next++]);
        else
            --active;
        MPI_Send(&assign, 1, MPI_INT, st.MPI_SOURCE, tag_assign, MPI_COMM_WORLD);
    }
}

void mpi_session::work(const std::function<std::vector<std::string>(size_t)>& execute)
{
    std::string msg = nlohmann::json{{"index", -1}}.dump();
    for (;;) {
        MPI_Send(msg.data(), int(msg.size()), MPI_CHAR, 0, tag_result, MPI_COMM_WORLD);
        int assign = -1;
        MPI_Recv(&assign, 1, MPI_INT, 0, tag_assign, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (assign < 0) return;
        msg = nlohmann::json{{"index", assign}, {"cells", execute(size_t(assign))}}.dump();
    }
}

}  // namespace uetsim::sweep
