// nn: distance from a query point to every record (latitude, longitude) in
// an array of structs; one thread per record, 1-D blocks, grid folded into
// two dimensions when it has more blocks than one grid row allows. The host
// picks the k nearest records.

struct LatLong {
    float lat;
    float lng;
};

__global__ void euclid(const LatLong *records, float *dist, int numRecords, float lat, float lng)
{
    int id = blockDim.x * (gridDim.x * blockIdx.y + blockIdx.x) + threadIdx.x;
    if (id < numRecords) {
        const LatLong *p = records + id;
        float dlat = lat - p->lat;
        float dlng = lng - p->lng;
        dist[id] = sqrtf(dlat * dlat + dlng * dlng);
    }
}
