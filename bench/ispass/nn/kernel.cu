// nn: forward pass of a LeCun-style convolutional network for 29x29 digit
// images (the ISPASS-2009 "NN" application). gridDim.y indexes the image of
// the batch; blockIdx.x the feature map or neuron. Four kernels:
//   layer1: 29x29 image -> 6 maps of 13x13 (5x5 kernel, stride 2), 13x13 blocks
//   layer2: 6 maps -> 50 maps of 5x5 (5x5 kernels over all 6 maps, stride 2), 5x5 blocks
//   layer3: 1250 -> 100 fully connected, one single-thread block per neuron
//   layer4: 100 -> 10 fully connected, one single-thread block per neuron
// Weight blocks start with their bias. Activation 1.7159 tanh(2/3 x).

__device__ __forceinline__ float squash(float x)
{
    return 1.7159f * tanhf(0.66666667f * x);
}

__global__ void executeFirstLayer(const float *images, const float *w1, float *out1)
{
    int map = blockIdx.x, img = blockIdx.y;
    int x = threadIdx.x, y = threadIdx.y;
    const float *in = images + img * 29 * 29;
    const float *w = w1 + map * 26;
    float sum = w[0];
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 5; j++)
            sum += in[(2 * y + i) * 29 + 2 * x + j] * w[1 + i * 5 + j];
    out1[(img * 6 + map) * 169 + y * 13 + x] = squash(sum);
}

__global__ void executeSecondLayer(const float *in1, const float *w2, float *out2)
{
    int map = blockIdx.x, img = blockIdx.y;
    int x = threadIdx.x, y = threadIdx.y;
    float sum = 0.0f;
    for (int m = 0; m < 6; m++) {
        const float *in = in1 + (img * 6 + m) * 169;
        const float *w = w2 + (map * 6 + m) * 26;
        sum += w[0];
        for (int i = 0; i < 5; i++)
            for (int j = 0; j < 5; j++)
                sum += in[(2 * y + i) * 13 + 2 * x + j] * w[1 + i * 5 + j];
    }
    out2[(img * 50 + map) * 25 + y * 5 + x] = squash(sum);
}

__global__ void executeThirdLayer(const float *in2, const float *w3, float *out3)
{
    int n = blockIdx.x, img = blockIdx.y;
    const float *in = in2 + img * 1250;
    const float *w = w3 + n * 1251;
    float sum = w[0];
    for (int i = 0; i < 1250; i++)
        sum += in[i] * w[1 + i];
    out3[img * 100 + n] = squash(sum);
}

__global__ void executeFourthLayer(const float *in3, const float *w4, float *out4)
{
    int n = blockIdx.x, img = blockIdx.y;
    const float *in = in3 + img * 100;
    const float *w = w4 + n * 101;
    float sum = w[0];
    for (int i = 0; i < 100; i++)
        sum += in[i] * w[1 + i];
    out4[img * 10 + n] = squash(sum);
}
