// bfs (Rodinia style): breadth-first search with one thread per node and
// per-node flag arrays. Each level is two launches: visitFrontier expands
// every node whose mask is set, writing costs and "updating" flags for
// unvisited neighbours; commitFrontier turns the updating flags into the next
// mask, marks the nodes visited and raises the stop flag the host polls.

#define MAX_THREADS_PER_BLOCK 512

struct Node {
    int firstEdge;
    int numEdges;
};

__global__ void visitFrontier(const Node *nodes, const int *edges, bool *mask, bool *updating,
                              const bool *visited, int *cost, int numNodes)
{
    int id = blockIdx.x * MAX_THREADS_PER_BLOCK + threadIdx.x;
    if (id < numNodes && mask[id]) {
        mask[id] = false;
        int end = nodes[id].firstEdge + nodes[id].numEdges;
        for (int e = nodes[id].firstEdge; e < end; e++) {
            int nb = edges[e];
            if (!visited[nb]) {
                cost[nb] = cost[id] + 1;
                updating[nb] = true;
            }
        }
    }
}

__global__ void commitFrontier(bool *mask, bool *updating, bool *visited, bool *again,
                               int numNodes)
{
    int id = blockIdx.x * MAX_THREADS_PER_BLOCK + threadIdx.x;
    if (id < numNodes && updating[id]) {
        mask[id] = true;
        visited[id] = true;
        *again = true;
        updating[id] = false;
    }
}
