/* Suite "rodinia": Rodinia-style applications (our own implementations). */
#include "workload.h"

extern const ws_workload ws_workload_rodinia_backprop;
extern const ws_workload ws_workload_rodinia_bfs;
extern const ws_workload ws_workload_rodinia_bptree;
extern const ws_workload ws_workload_rodinia_cfd;
extern const ws_workload ws_workload_rodinia_gaussian;
extern const ws_workload ws_workload_rodinia_hotspot;
extern const ws_workload ws_workload_rodinia_hotspot3d;
extern const ws_workload ws_workload_rodinia_kmeans;
extern const ws_workload ws_workload_rodinia_lavamd;
extern const ws_workload ws_workload_rodinia_lud;
extern const ws_workload ws_workload_rodinia_nn;
extern const ws_workload ws_workload_rodinia_nw;
extern const ws_workload ws_workload_rodinia_srad;
extern const ws_workload ws_workload_rodinia_streamcluster;
extern const ws_workload ws_workload_rodinia_pathfinder;
extern const ws_workload ws_workload_rodinia_heartwall;
extern const ws_workload ws_workload_rodinia_leukocyte;
extern const ws_workload ws_workload_rodinia_mergesort;

static const ws_workload *const table[] = {
    &ws_workload_rodinia_backprop,
    &ws_workload_rodinia_bfs,
    &ws_workload_rodinia_bptree,
    &ws_workload_rodinia_cfd,
    &ws_workload_rodinia_gaussian,
    &ws_workload_rodinia_hotspot,
    &ws_workload_rodinia_hotspot3d,
    &ws_workload_rodinia_kmeans,
    &ws_workload_rodinia_lavamd,
    &ws_workload_rodinia_lud,
    &ws_workload_rodinia_nn,
    &ws_workload_rodinia_nw,
    &ws_workload_rodinia_srad,
    &ws_workload_rodinia_streamcluster,
    &ws_workload_rodinia_pathfinder,
    &ws_workload_rodinia_heartwall,
    &ws_workload_rodinia_leukocyte,
    &ws_workload_rodinia_mergesort,
    NULL,
};

const ws_suite ws_suite_rodinia = {"rodinia", "Rodinia-style applications (our own implementations)", table};
