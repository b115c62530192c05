// bfs: level-synchronous breadth-first search over a graph in CSR form.
// One launch of bfsExpand visits every frontier node and marks its unvisited
// neighbours for the next level; bfsAdvance turns those marks into the new
// frontier and raises a flag so the host knows to run another level.

__global__ void bfsExpand(const int *rowStart, const int *adj, int numNodes,
                          unsigned char *frontier, unsigned char *next,
                          const unsigned char *visited, int *level)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= numNodes || !frontier[v])
        return;
    frontier[v] = 0;
    int nextLevel = level[v] + 1;
    // Degrees vary a lot (a few hub nodes), so lanes of a warp leave this
    // loop at very different times.
    for (int e = rowStart[v]; e < rowStart[v + 1]; ++e) {
        int u = adj[e];
        if (!visited[u]) {
            level[u] = nextLevel;  // every writer in this level stores the same value
            next[u] = 1;
        }
    }
}

__global__ void bfsAdvance(int numNodes, unsigned char *frontier, unsigned char *next,
                           unsigned char *visited, int *changed)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < numNodes && next[v]) {
        next[v] = 0;
        frontier[v] = 1;
        visited[v] = 1;
        *changed = 1;
    }
}
