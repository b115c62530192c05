// kmeans: assignment step of k-means clustering.
//   transposePoints  one thread per point turns point-major features
//                    (points x features) into feature-major ones, so that a
//                    warp's loads of one feature are consecutive;
//   nearestCentre    one thread per point over a 2-D grid of 1-D blocks: the
//                    squared distance to every centre (centres sit in
//                    constant memory, read uniformly by the warp), writes
//                    the index of the nearest one.
// The original reads the features through a 1-D texture; here they are
// read-only global loads.

#define MAX_CLUSTERS 32
#define MAX_FEATURES 34

__constant__ float centres[MAX_CLUSTERS * MAX_FEATURES];

__global__ void transposePoints(const float *pointMajor, float *featureMajor, int npoints,
                                int nfeatures)
{
    int p = threadIdx.x + blockDim.x * blockIdx.x;
    if (p < npoints)
        for (int f = 0; f < nfeatures; f++)
            featureMajor[p + npoints * f] = pointMajor[p * nfeatures + f];
}

__global__ void nearestCentre(const float *__restrict__ features, int nfeatures, int npoints,
                              int nclusters, int *membership)
{
    int block = blockIdx.y * gridDim.x + blockIdx.x;
    int p = block * blockDim.x + threadIdx.x;
    if (p < npoints) {
        float best = 3.402823466e+38f;
        int bestIdx = 0;
        for (int k = 0; k < nclusters; k++) {
            int cbase = k * nfeatures;
            float d = 0.0f;
            for (int f = 0; f < nfeatures; f++) {
                float diff = features[p + f * npoints] - centres[cbase + f];
                d += diff * diff;
            }
            if (d < best) {
                best = d;
                bestIdx = k;
            }
        }
        membership[p] = bestIdx;
    }
}
