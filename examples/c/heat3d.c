// heat3d.c: a 7-point 3D heat step in fp32 over C arrays of fixed size, with
// the coefficients as #define constants. fp32 runs on CUDA cores (the simt
// backend): tensor cores offer no full-fp32 products.
//
//   stencilc examples/c/heat3d.c -o heat3d.cu
#define NZ 256
#define NY 256
#define NX 256
#define C_SELF 0.4f
#define C_NEIGHBOUR 0.1f

void heat3d_step(const float in[NZ][NY][NX], float out[NZ][NY][NX]) {
#pragma stencil name(heat3d)
  for (int z = 1; z < NZ - 1; ++z)
    for (int y = 1; y < NY - 1; ++y)
      for (int x = 1; x < NX - 1; ++x)
        out[z][y][x] = C_SELF * in[z][y][x]
                     + C_NEIGHBOUR * (in[z - 1][y][x] + in[z + 1][y][x]
                                      + in[z][y - 1][x] + in[z][y + 1][x]
                                      + in[z][y][x - 1] + in[z][y][x + 1]);
}
