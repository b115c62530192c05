/* Suite "mars": Mars-style MapReduce applications (our own implementations). */
#include "workload.h"

extern const ws_workload ws_workload_mars_kmeans;
extern const ws_workload ws_workload_mars_similarityscore;
extern const ws_workload ws_workload_mars_stringmatch;
extern const ws_workload ws_workload_mars_invertedindex;
extern const ws_workload ws_workload_mars_pageviewcount;
extern const ws_workload ws_workload_mars_wordcount;

static const ws_workload *const table[] = {
    &ws_workload_mars_wordcount,
    &ws_workload_mars_pageviewcount,
    &ws_workload_mars_invertedindex,
    &ws_workload_mars_stringmatch,
    &ws_workload_mars_similarityscore,
    &ws_workload_mars_kmeans,
    NULL,
};

const ws_suite ws_suite_mars = {"mars", "Mars-style MapReduce applications (our own implementations)", table};
