// cp: Coulombic potential on one z-slice of a 3-D lattice (the ISPASS-2009
// "CP" application, direct summation as in the VMD/Parboil cenergy kernel).
// Atoms are streamed through constant memory in chunks of MAXATOMS; for each
// chunk the host stores x, y, (z-plane - z)^2 and the charge, then launches.
// Blocks of 16x8 threads; every thread owns UNROLLX lattice points of one
// row, spaced BLOCKSIZEX apart so that each of its UNROLLX stores is
// coalesced across the half-warp, and adds the chunk's contribution to them.

#define MAXATOMS 4000
#define BLOCKSIZEX 16
#define BLOCKSIZEY 8
#define UNROLLX 8

__constant__ float4 atominfo[MAXATOMS];

__global__ void cenergy(int numatoms, float gridspacing, float *energygrid)
{
    unsigned xindex = blockIdx.x * blockDim.x * UNROLLX + threadIdx.x;
    unsigned yindex = blockIdx.y * blockDim.y + threadIdx.y;
    unsigned rowlen = gridDim.x * blockDim.x * UNROLLX;
    unsigned outaddr = rowlen * yindex + xindex;

    float coory = gridspacing * yindex;
    float coorx = gridspacing * xindex;
    const float step = gridspacing * BLOCKSIZEX;

    float e0 = 0.0f, e1 = 0.0f, e2 = 0.0f, e3 = 0.0f;
    float e4 = 0.0f, e5 = 0.0f, e6 = 0.0f, e7 = 0.0f;

    for (int a = 0; a < numatoms; a++) {
        float4 at = atominfo[a];
        float dy = coory - at.y;
        float dyz2 = dy * dy + at.z;
        float dx0 = coorx - at.x;
        float dx1 = dx0 + step;
        float dx2 = dx1 + step;
        float dx3 = dx2 + step;
        float dx4 = dx3 + step;
        float dx5 = dx4 + step;
        float dx6 = dx5 + step;
        float dx7 = dx6 + step;
        e0 += at.w * rsqrtf(dx0 * dx0 + dyz2);
        e1 += at.w * rsqrtf(dx1 * dx1 + dyz2);
        e2 += at.w * rsqrtf(dx2 * dx2 + dyz2);
        e3 += at.w * rsqrtf(dx3 * dx3 + dyz2);
        e4 += at.w * rsqrtf(dx4 * dx4 + dyz2);
        e5 += at.w * rsqrtf(dx5 * dx5 + dyz2);
        e6 += at.w * rsqrtf(dx6 * dx6 + dyz2);
        e7 += at.w * rsqrtf(dx7 * dx7 + dyz2);
    }

    energygrid[outaddr] += e0;
    energygrid[outaddr + 1 * BLOCKSIZEX] += e1;
    energygrid[outaddr + 2 * BLOCKSIZEX] += e2;
    energygrid[outaddr + 3 * BLOCKSIZEX] += e3;
    energygrid[outaddr + 4 * BLOCKSIZEX] += e4;
    energygrid[outaddr + 5 * BLOCKSIZEX] += e5;
    energygrid[outaddr + 6 * BLOCKSIZEX] += e6;
    energygrid[outaddr + 7 * BLOCKSIZEX] += e7;
}
