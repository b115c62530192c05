// cfd: explicit finite-volume solver for the 3-D compressible Euler
// equations on an unstructured mesh (every element has 4 faces), in the
// style of Rodinia's euler3d. All per-element arrays are structure-of-arrays
// padded to a multiple of the block size: variable v of element i is at
// vars[i + v * nelr], neighbour j at neighbours[i + j * nelr], component d of
// face j's normal at normals[i + (j + d * NNB) * nelr]. A neighbour index of
// -1 is a wall (wing) face, -2 a far-field face. One thread per element.
//   initVariables     every element starts at the far-field state;
//   stepFactor        local time step from the element's size and wave speed;
//   computeFlux       sum of the face fluxes (central flux plus artificial
//                     dissipation); neighbour states are gathered by index;
//   timeStep          one Runge-Kutta stage: vars = old + factor * flux.

#define GAMMA 1.4f
#define NDIM 3
#define NNB 4
#define RK 3
#define V_DENSITY 0
#define V_MOMENTUM 1
#define V_ENERGY (V_MOMENTUM + NDIM)
#define NVAR (V_ENERGY + 1)
#define SMOOTHING 0.2f

__constant__ float farField[NVAR];
__constant__ float3 farFluxMomX;
__constant__ float3 farFluxMomY;
__constant__ float3 farFluxMomZ;
__constant__ float3 farFluxEnergy;

__device__ __forceinline__ float pressureOf(float density, float energy, float speedSqd)
{
    return (GAMMA - 1.0f) * (energy - 0.5f * density * speedSqd);
}

__device__ __forceinline__ float soundSpeed(float density, float pressure)
{
    return sqrtf(GAMMA * pressure / density);
}

// flux tensor of one state: rows for x, y, z momentum and the energy vector
__device__ __forceinline__ void fluxTensor(float3 mom, float energy, float pressure, float3 vel,
                                           float3 &fx, float3 &fy, float3 &fz, float3 &fe)
{
    fx.x = vel.x * mom.x + pressure;
    fx.y = vel.x * mom.y;
    fx.z = vel.x * mom.z;
    fy.x = fx.y;
    fy.y = vel.y * mom.y + pressure;
    fy.z = vel.y * mom.z;
    fz.x = fx.z;
    fz.y = fy.z;
    fz.z = vel.z * mom.z + pressure;
    float ep = energy + pressure;
    fe.x = vel.x * ep;
    fe.y = vel.y * ep;
    fe.z = vel.z * ep;
}

__global__ void initVariables(int nelr, float *vars)
{
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    for (int v = 0; v < NVAR; v++)
        vars[i + v * nelr] = farField[v];
}

__global__ void stepFactor(int nelr, const float *vars, const float *areas, float *factors)
{
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    float density = vars[i + V_DENSITY * nelr];
    float3 mom;
    mom.x = vars[i + (V_MOMENTUM + 0) * nelr];
    mom.y = vars[i + (V_MOMENTUM + 1) * nelr];
    mom.z = vars[i + (V_MOMENTUM + 2) * nelr];
    float energy = vars[i + V_ENERGY * nelr];
    float3 vel = make_float3(mom.x / density, mom.y / density, mom.z / density);
    float speedSqd = vel.x * vel.x + vel.y * vel.y + vel.z * vel.z;
    float pressure = pressureOf(density, energy, speedSqd);
    float c = soundSpeed(density, pressure);
    factors[i] = 0.5f / (sqrtf(areas[i]) * (sqrtf(speedSqd) + c));
}

__global__ void computeFlux(int nelr, const int *neighbours, const float *normals,
                            const float *vars, float *fluxes)
{
    int i = blockDim.x * blockIdx.x + threadIdx.x;

    float dI = vars[i + V_DENSITY * nelr];
    float3 mI;
    mI.x = vars[i + (V_MOMENTUM + 0) * nelr];
    mI.y = vars[i + (V_MOMENTUM + 1) * nelr];
    mI.z = vars[i + (V_MOMENTUM + 2) * nelr];
    float eI = vars[i + V_ENERGY * nelr];
    float3 vI = make_float3(mI.x / dI, mI.y / dI, mI.z / dI);
    float sqdI = vI.x * vI.x + vI.y * vI.y + vI.z * vI.z;
    float speedI = sqrtf(sqdI);
    float pI = pressureOf(dI, eI, sqdI);
    float cI = soundSpeed(dI, pI);
    float3 fxI, fyI, fzI, feI;
    fluxTensor(mI, eI, pI, vI, fxI, fyI, fzI, feI);

    float fD = 0.0f, fE = 0.0f;
    float3 fM = make_float3(0.0f, 0.0f, 0.0f);

    for (int j = 0; j < NNB; j++) {
        int nb = neighbours[i + j * nelr];
        float3 n;
        n.x = normals[i + (j + 0 * NNB) * nelr];
        n.y = normals[i + (j + 1 * NNB) * nelr];
        n.z = normals[i + (j + 2 * NNB) * nelr];
        float nLen = sqrtf(n.x * n.x + n.y * n.y + n.z * n.z);

        if (nb >= 0) {
            float dN = vars[nb + V_DENSITY * nelr];
            float3 mN;
            mN.x = vars[nb + (V_MOMENTUM + 0) * nelr];
            mN.y = vars[nb + (V_MOMENTUM + 1) * nelr];
            mN.z = vars[nb + (V_MOMENTUM + 2) * nelr];
            float eN = vars[nb + V_ENERGY * nelr];
            float3 vN = make_float3(mN.x / dN, mN.y / dN, mN.z / dN);
            float sqdN = vN.x * vN.x + vN.y * vN.y + vN.z * vN.z;
            float pN = pressureOf(dN, eN, sqdN);
            float cN = soundSpeed(dN, pN);
            float3 fxN, fyN, fzN, feN;
            fluxTensor(mN, eN, pN, vN, fxN, fyN, fzN, feN);

            // artificial dissipation
            float f = -nLen * SMOOTHING * 0.5f * (speedI + sqrtf(sqdN) + cI + cN);
            fD += f * (dI - dN);
            fE += f * (eI - eN);
            fM.x += f * (mI.x - mN.x);
            fM.y += f * (mI.y - mN.y);
            fM.z += f * (mI.z - mN.z);

            // central flux, one normal component at a time
            f = 0.5f * n.x;
            fD += f * (mN.x + mI.x);
            fE += f * (feN.x + feI.x);
            fM.x += f * (fxN.x + fxI.x);
            fM.y += f * (fyN.x + fyI.x);
            fM.z += f * (fzN.x + fzI.x);
            f = 0.5f * n.y;
            fD += f * (mN.y + mI.y);
            fE += f * (feN.y + feI.y);
            fM.x += f * (fxN.y + fxI.y);
            fM.y += f * (fyN.y + fyI.y);
            fM.z += f * (fzN.y + fzI.y);
            f = 0.5f * n.z;
            fD += f * (mN.z + mI.z);
            fE += f * (feN.z + feI.z);
            fM.x += f * (fxN.z + fxI.z);
            fM.y += f * (fyN.z + fyI.z);
            fM.z += f * (fzN.z + fzI.z);
        } else if (nb == -1) {
            // wall: only the pressure acts
            fM.x += n.x * pI;
            fM.y += n.y * pI;
            fM.z += n.z * pI;
        } else if (nb == -2) {
            // far field: central flux against the free-stream state
            float f = 0.5f * n.x;
            fD += f * (farField[V_MOMENTUM + 0] + mI.x);
            fE += f * (farFluxEnergy.x + feI.x);
            fM.x += f * (farFluxMomX.x + fxI.x);
            fM.y += f * (farFluxMomY.x + fyI.x);
            fM.z += f * (farFluxMomZ.x + fzI.x);
            f = 0.5f * n.y;
            fD += f * (farField[V_MOMENTUM + 1] + mI.y);
            fE += f * (farFluxEnergy.y + feI.y);
            fM.x += f * (farFluxMomX.y + fxI.y);
            fM.y += f * (farFluxMomY.y + fyI.y);
            fM.z += f * (farFluxMomZ.y + fzI.y);
            f = 0.5f * n.z;
            fD += f * (farField[V_MOMENTUM + 2] + mI.z);
            fE += f * (farFluxEnergy.z + feI.z);
            fM.x += f * (farFluxMomX.z + fxI.z);
            fM.y += f * (farFluxMomY.z + fyI.z);
            fM.z += f * (farFluxMomZ.z + fzI.z);
        }
    }
    fluxes[i + V_DENSITY * nelr] = fD;
    fluxes[i + (V_MOMENTUM + 0) * nelr] = fM.x;
    fluxes[i + (V_MOMENTUM + 1) * nelr] = fM.y;
    fluxes[i + (V_MOMENTUM + 2) * nelr] = fM.z;
    fluxes[i + V_ENERGY * nelr] = fE;
}

__global__ void timeStep(int stage, int nelr, const float *oldVars, float *vars,
                         const float *factors, const float *fluxes)
{
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    float f = factors[i] / float(RK + 1 - stage);
    vars[i + V_DENSITY * nelr] = oldVars[i + V_DENSITY * nelr] + f * fluxes[i + V_DENSITY * nelr];
    vars[i + V_ENERGY * nelr] = oldVars[i + V_ENERGY * nelr] + f * fluxes[i + V_ENERGY * nelr];
    vars[i + (V_MOMENTUM + 0) * nelr] =
        oldVars[i + (V_MOMENTUM + 0) * nelr] + f * fluxes[i + (V_MOMENTUM + 0) * nelr];
    vars[i + (V_MOMENTUM + 1) * nelr] =
        oldVars[i + (V_MOMENTUM + 1) * nelr] + f * fluxes[i + (V_MOMENTUM + 1) * nelr];
    vars[i + (V_MOMENTUM + 2) * nelr] =
        oldVars[i + (V_MOMENTUM + 2) * nelr] + f * fluxes[i + (V_MOMENTUM + 2) * nelr];
}
