// mum: MUMmerGPU-style exact matching (the ISPASS-2009 "MUM" application).
// The reference's suffix tree is flattened into a node array (8 ints per
// node: edge start, edge end in the reference, children for A/C/G/T, two
// spare words), nodes numbered breadth first. One thread per query: for
// every start position of its query from which a match of at least
// minMatch is possible, it walks the tree from the root, comparing query
// characters with edge labels read from the reference, until a mismatch or
// the end of the query, and records the deepest node reached and the match
// length. Query lengths, tree depths and mismatch points differ between
// threads, so walks diverge and the node and reference reads are scattered.

#define NODE_INTS 8

__global__ void mummergpuKernel(const int *nodes, const unsigned char *ref, const unsigned char *queries,
                                const int *queryAddrs, const int *queryLens, int numQueries, int minMatch,
                                int2 *matchCoords)
{
    int qid = blockIdx.x * blockDim.x + threadIdx.x;
    if (qid >= numQueries)
        return;
    int qaddr = queryAddrs[qid];
    int qlen = queryLens[qid];
    const unsigned char *q = queries + qaddr;

    for (int qs = 0; qs + minMatch <= qlen; qs++) {
        int node = 0, matched = 0;
        int rest = qlen - qs;
        while (matched < rest) {
            int child = nodes[node * NODE_INTS + 2 + q[qs + matched]];
            if (child < 0)
                break;
            int k = nodes[child * NODE_INTS];
            int end = nodes[child * NODE_INTS + 1];
            node = child;
            while (k < end && matched < rest && ref[k] == q[qs + matched]) {
                k++;
                matched++;
            }
            if (k < end)
                break;
        }
        matchCoords[qaddr + qs] = make_int2(node, matched);
    }
}
