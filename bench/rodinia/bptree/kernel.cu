// bptree: batched queries on a B+ tree stored as an array of fixed-size
// nodes (order 508). One thread block per query, one thread per key slot of
// a node. At every level each thread tests whether the query falls between
// its key and the next one; the thread that matches stores the child's node
// index in the query's cursor, and after a barrier thread 0 moves the
// query to it. The per-query cursors live in global memory, as do the
// answers.
//   findK       exact-match lookups: the record of the key, if present;
//   findRangeK  two cursors walk down for the start and end keys of a range;
//               the leaf slots give the first record and the range length.

#define ORDER 508

struct Node {
    int location;
    int indices[ORDER + 1];  // child node (inner nodes) or record (leaves)
    int keys[ORDER + 1];     // slot i covers keys[i] <= key < keys[i + 1]
    int isLeaf;
    int numKeys;
};

struct Record {
    int value;
};

__global__ void findK(long height, const Node *nodes, long numNodes, const Record *records,
                      long *cursor, long *next, const int *keys, Record *answers)
{
    int t = threadIdx.x;
    int q = blockIdx.x;

    for (int level = 0; level < height; level++) {
        const Node *node = &nodes[cursor[q]];
        if (node->keys[t] <= keys[q] && node->keys[t + 1] > keys[q]) {
            if (node->indices[t] < numNodes)
                next[q] = node->indices[t];
        }
        __syncthreads();
        if (t == 0)
            cursor[q] = next[q];
        __syncthreads();
    }
    const Node *leaf = &nodes[cursor[q]];
    if (leaf->keys[t] == keys[q])
        answers[q].value = records[leaf->indices[t]].value;
}

__global__ void findRangeK(long height, const Node *nodes, long numNodes, long *cursor,
                           long *lastCursor, long *next, long *lastNext, const int *starts,
                           const int *ends, int *firstRecord, int *length)
{
    int t = threadIdx.x;
    int q = blockIdx.x;

    for (int level = 0; level < height; level++) {
        const Node *a = &nodes[cursor[q]];
        if (a->keys[t] <= starts[q] && a->keys[t + 1] > starts[q]) {
            if (a->indices[t] < numNodes)
                next[q] = a->indices[t];
        }
        const Node *b = &nodes[lastCursor[q]];
        if (b->keys[t] <= ends[q] && b->keys[t + 1] > ends[q]) {
            if (b->indices[t] < numNodes)
                lastNext[q] = b->indices[t];
        }
        __syncthreads();
        if (t == 0) {
            cursor[q] = next[q];
            lastCursor[q] = lastNext[q];
        }
        __syncthreads();
    }
    const Node *a = &nodes[cursor[q]];
    if (a->keys[t] == starts[q])
        firstRecord[q] = a->indices[t];
    __syncthreads();
    const Node *b = &nodes[lastCursor[q]];
    if (b->keys[t] == ends[q])
        length[q] = b->indices[t] - firstRecord[q] + 1;
}
