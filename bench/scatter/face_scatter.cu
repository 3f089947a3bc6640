// A thread per face adds a gradient to each of its three vertices (the shape
// of a mesh's face-area or face-normal backward): lanes share a vertex only
// where faces near in index order share one. The benchmark's input, in
// plain-atomic form.
__global__ void faceScatter(const int *__restrict__ faces,
                            const float *__restrict__ dFace,
                            float *__restrict__ gradVerts, int F) {
  for (int f = blockIdx.x * blockDim.x + threadIdx.x; f < F;
       f += gridDim.x * blockDim.x) {
    const int a = faces[3 * f], b = faces[3 * f + 1], c = faces[3 * f + 2];
    const float gx = dFace[3 * f], gy = dFace[3 * f + 1],
                gz = dFace[3 * f + 2];
    atomicAdd(gradVerts + a * 3 + 0, gy - gz);
    atomicAdd(gradVerts + a * 3 + 1, gz - gx);
    atomicAdd(gradVerts + a * 3 + 2, gx - gy);
    atomicAdd(gradVerts + b * 3 + 0, gx);
    atomicAdd(gradVerts + b * 3 + 1, gy);
    atomicAdd(gradVerts + b * 3 + 2, gz);
    atomicAdd(gradVerts + c * 3 + 0, -gx);
    atomicAdd(gradVerts + c * 3 + 1, -gy);
    atomicAdd(gradVerts + c * 3 + 2, -gz);
  }
}
