// dpsolve: double-precision solvers.
//  jacobiStep: one sweep of Jacobi for the 2D Poisson problem -lap(u) = f on
//  an n x n interior grid with zero boundary values (the host ping-pongs two
//  buffers across launches).
//  newtonCubic: per-thread Newton iteration for the real root of
//  x^3 + p x - q = 0 (p > 0, so exactly one), with a data-dependent number
//  of iterations, then a sqrt-based error measure.

__global__ void jacobiStep(const double *u, double *unew, const double *f, int n, double h2)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= n || y >= n)
        return;
    int idx = y * n + x;
    double north = y > 0 ? u[idx - n] : 0.0;
    double south = y < n - 1 ? u[idx + n] : 0.0;
    double west = x > 0 ? u[idx - 1] : 0.0;
    double east = x < n - 1 ? u[idx + 1] : 0.0;
    unew[idx] = 0.25 * (north + south + west + east + h2 * f[idx]);
}

__global__ void newtonCubic(const double *p, const double *q, double *root, double *err,
                            int *iters, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    double pi = p[i], qi = q[i];
    double x = qi / (1.0 + pi);  // rough start; Newton converges from anywhere here
    int it = 0;
    for (; it < 60; ++it) {
        double fx = fma(x, fma(x, x, pi), -qi);  // x^3 + p x - q
        double dfx = fma(3.0 * x, x, pi);        // 3x^2 + p > 0
        double dx = fx / dfx;
        x -= dx;
        if (fabs(dx) <= 1e-14 * (1.0 + fabs(x)))
            break;
    }
    root[i] = x;
    iters[i] = it;
    double res = fma(x, fma(x, x, pi), -qi);
    err[i] = sqrt(fabs(res)) / sqrt(fma(x, x, pi));
}
