// ray: Whitted-style ray tracing of a small generated scene (the ISPASS-2009
// "RAY" application): one thread per pixel, 16x8 blocks. Spheres and the
// light sit in constant memory; a checkered ground plane is implicit. Each
// primary ray bounces up to MAX_DEPTH times off reflective surfaces; every
// hit is shaded with Lambert + Phong terms and a shadow ray against all
// spheres. Pixels are written as packed 8-bit RGBA.

#define MAX_SPHERES 32
#define MAX_DEPTH 3

struct Sphere {
    float cx, cy, cz, r;
    float red, green, blue, refl;
};

__constant__ Sphere spheres[MAX_SPHERES];
__constant__ float light[3];

__device__ float hitSphere(const Sphere &s, float ox, float oy, float oz, float dx, float dy, float dz)
{
    float px = ox - s.cx, py = oy - s.cy, pz = oz - s.cz;
    float b = px * dx + py * dy + pz * dz;
    float c = px * px + py * py + pz * pz - s.r * s.r;
    float disc = b * b - c;
    if (disc < 0.0f)
        return -1.0f;
    float sq = sqrtf(disc);
    float t = -b - sq;
    if (t > 1e-3f)
        return t;
    t = -b + sq;
    return t > 1e-3f ? t : -1.0f;
}

__global__ void renderScene(unsigned *image, int width, int height, int nspheres)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height)
        return;

    // camera at (0, 1.5, -6) looking down +z
    float ox = 0.0f, oy = 1.5f, oz = -6.0f;
    float dx = (2.0f * (x + 0.5f) / width - 1.0f) * ((float)width / height);
    float dy = 1.0f - 2.0f * (y + 0.5f) / height;
    float dz = 1.6f;
    float inv = 1.0f / sqrtf(dx * dx + dy * dy + dz * dz);
    dx *= inv;
    dy *= inv;
    dz *= inv;

    float cr = 0.0f, cg = 0.0f, cb = 0.0f, weight = 1.0f;
    for (int depth = 0; depth < MAX_DEPTH; depth++) {
        // nearest hit: spheres, then the plane y = 0
        float tmin = 1e30f;
        int hit = -1;
        for (int s = 0; s < nspheres; s++) {
            float t = hitSphere(spheres[s], ox, oy, oz, dx, dy, dz);
            if (t > 0.0f && t < tmin) {
                tmin = t;
                hit = s;
            }
        }
        if (dy < 0.0f) {
            float t = -oy / dy;
            if (t > 1e-3f && t < tmin) {
                tmin = t;
                hit = MAX_SPHERES;
            }
        }
        if (hit < 0) {  // sky
            float sky = 0.5f + 0.5f * dy;
            cr += weight * 0.3f * sky;
            cg += weight * 0.5f * sky;
            cb += weight * 0.9f * sky;
            break;
        }
        float hx = ox + tmin * dx, hy = oy + tmin * dy, hz = oz + tmin * dz;
        float nx, ny, nz, mr, mg, mb, refl;
        if (hit == MAX_SPHERES) {
            nx = 0.0f;
            ny = 1.0f;
            nz = 0.0f;
            int check = ((int)floorf(hx) + (int)floorf(hz)) & 1;
            mr = mg = mb = check ? 0.9f : 0.2f;
            refl = 0.3f;
        } else {
            Sphere s = spheres[hit];
            float ir = 1.0f / s.r;
            nx = (hx - s.cx) * ir;
            ny = (hy - s.cy) * ir;
            nz = (hz - s.cz) * ir;
            mr = s.red;
            mg = s.green;
            mb = s.blue;
            refl = s.refl;
        }
        float lx = light[0] - hx, ly = light[1] - hy, lz = light[2] - hz;
        float ldist = sqrtf(lx * lx + ly * ly + lz * lz);
        lx /= ldist;
        ly /= ldist;
        lz /= ldist;
        float shade = 0.15f;
        float ndotl = nx * lx + ny * ly + nz * lz;
        if (ndotl > 0.0f) {
            bool lit = true;
            for (int s = 0; s < nspheres && lit; s++) {
                float t = hitSphere(spheres[s], hx, hy, hz, lx, ly, lz);
                if (t > 0.0f && t < ldist)
                    lit = false;
            }
            if (lit) {
                float ddotn = dx * nx + dy * ny + dz * nz;
                float rx = dx - 2.0f * ddotn * nx, ry = dy - 2.0f * ddotn * ny, rz = dz - 2.0f * ddotn * nz;
                float spec = rx * lx + ry * ly + rz * lz;
                spec = spec > 0.0f ? spec : 0.0f;
                spec *= spec;
                spec *= spec;
                spec *= spec;
                spec *= spec;
                shade += 0.85f * ndotl;
                cr += weight * 0.6f * spec;
                cg += weight * 0.6f * spec;
                cb += weight * 0.6f * spec;
            }
        }
        cr += weight * (1.0f - refl) * shade * mr;
        cg += weight * (1.0f - refl) * shade * mg;
        cb += weight * (1.0f - refl) * shade * mb;
        weight *= refl;
        if (weight < 0.01f)
            break;
        // reflect and continue from the hit point
        float ddotn = dx * nx + dy * ny + dz * nz;
        dx -= 2.0f * ddotn * nx;
        dy -= 2.0f * ddotn * ny;
        dz -= 2.0f * ddotn * nz;
        ox = hx;
        oy = hy;
        oz = hz;
    }
    unsigned r8 = (unsigned)(fminf(cr, 1.0f) * 255.0f);
    unsigned g8 = (unsigned)(fminf(cg, 1.0f) * 255.0f);
    unsigned b8 = (unsigned)(fminf(cb, 1.0f) * 255.0f);
    image[y * width + x] = r8 | (g8 << 8) | (b8 << 16) | 0xff000000u;
}
