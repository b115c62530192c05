// backprop: one training step of a two-layer perceptron (input -> 16 hidden
// -> 1 output). The two input-side passes run on the GPU:
//   layerForward  each 16x16 block takes 16 input units and the 16x16 slice
//                 of the weight matrix that connects them to the hidden
//                 units, multiplies, and folds the 16 rows in shared memory
//                 (a tree over ty); one partial sum per (block, hidden unit)
//                 goes to the host, which adds the blocks.
//   adjustWeights every thread moves one weight by eta*delta*input plus
//                 momentum times its previous change.
// The weight matrix is (inputs+1) x (hidden+1), row-major; row 0 and column 0
// belong to the bias unit.

#define TILE 16
#define ETA 0.3f
#define MOMENTUM 0.3f

__global__ void layerForward(const float *inputUnits, float *weights, float *partialSums,
                             int numInputs, int numHidden)
{
    __shared__ float unit[TILE];
    __shared__ float prod[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int tileRow = blockIdx.y;
    int stride = numHidden + 1;
    // weight connecting input unit (tileRow*TILE + ty + 1) to hidden unit tx + 1
    int w = stride * (TILE * tileRow + ty + 1) + tx + 1;
    int in = TILE * tileRow + ty + 1;

    if (tx == 0)
        unit[ty] = inputUnits[in];
    __syncthreads();
    prod[ty][tx] = weights[w];
    __syncthreads();
    prod[ty][tx] = prod[ty][tx] * unit[ty];
    __syncthreads();
    // Fold rows pairwise: after step s, row ty (a multiple of 2^s) holds the
    // sum of rows ty .. ty + 2^s - 1.
    for (int span = 2; span <= TILE; span *= 2) {
        if (ty % span == 0)
            prod[ty][tx] += prod[ty + span / 2][tx];
        __syncthreads();
    }
    // the products go back into the weight buffer (the host uploads the
    // weights again before the update pass)
    weights[w] = prod[ty][tx];
    __syncthreads();
    if (tx == 0)
        partialSums[tileRow * numHidden + ty] = prod[tx][ty];
}

__global__ void adjustWeights(const float *delta, int numHidden, const float *inputUnits,
                              int numInputs, float *weights, float *prevChange)
{
    int tx = threadIdx.x, ty = threadIdx.y;
    int tileRow = blockIdx.y;
    int stride = numHidden + 1;
    int w = stride * (TILE * tileRow + ty + 1) + tx + 1;
    int in = TILE * tileRow + ty + 1;
    int h = tx + 1;

    float change = ETA * delta[h] * inputUnits[in] + MOMENTUM * prevChange[w];
    weights[w] += change;
    prevChange[w] = change;
    __syncthreads();
    // the bias row is updated by the first row of the first block
    if (ty == 0 && tileRow == 0) {
        float biasChange = ETA * delta[h] + MOMENTUM * prevChange[h];
        weights[h] += biasChange;
        prevChange[h] = biasChange;
    }
}
