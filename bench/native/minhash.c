/*
 * Native reference of gpudedup's signing (README, the hash family, step 4), for the benchmark
 * only: sig[i] = min over x of ((a_i·x) mod P + b_i) mod P, P = 2^61 − 1, with a u128 product.
 * Input file (little-endian): u32 k, u32 docs, u64 a[k], u64 b[k], u32 offsets[docs + 1],
 * u64 shingles[offsets[docs]]. Writes docs·k u64 signatures to the output file and prints
 * the signing seconds (best of `reps`) on stdout. Built by bench/kernels.bench.ts with
 * gcc -O2 -march=native.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static const uint64_t P = (1ULL << 61) - 1;

static inline uint64_t mulmod(uint64_t a, uint64_t x) {
  unsigned __int128 p = (unsigned __int128)a * x;
  uint64_t r = ((uint64_t)p & P) + (uint64_t)(p >> 61);
  return r >= P ? r - P : r;
}

static void sign(uint32_t k, uint32_t docs, const uint64_t *a, const uint64_t *b, const uint32_t *off,
                 const uint64_t *sh, uint64_t *out) {
  for (uint32_t d = 0; d < docs; d++) {
    uint64_t *row = out + (size_t)d * k;
    for (uint32_t i = 0; i < k; i++) row[i] = UINT64_MAX;
    for (uint32_t s = off[d]; s < off[d + 1]; s++) {
      uint64_t x = sh[s];
      for (uint32_t i = 0; i < k; i++) {
        uint64_t h = mulmod(a[i], x) + b[i];
        h = h >= P ? h - P : h;
        if (h < row[i]) row[i] = h;
      }
    }
  }
}

static void *readOrDie(FILE *f, size_t bytes) {
  void *p = malloc(bytes ? bytes : 1);
  if (!p || fread(p, 1, bytes, f) != bytes) { fprintf(stderr, "minhash: short input\n"); exit(1); }
  return p;
}

int main(int argc, char **argv) {
  if (argc != 4) { fprintf(stderr, "usage: minhash IN OUT REPS\n"); return 2; }
  FILE *in = fopen(argv[1], "rb");
  if (!in) { perror(argv[1]); return 1; }
  uint32_t *head = readOrDie(in, 8);
  uint32_t k = head[0], docs = head[1];
  uint64_t *a = readOrDie(in, 8ULL * k), *b = readOrDie(in, 8ULL * k);
  uint32_t *off = readOrDie(in, 4ULL * (docs + 1));
  uint64_t *sh = readOrDie(in, 8ULL * off[docs]);
  fclose(in);
  uint64_t *out = malloc(8ULL * k * docs + 8);
  double best = 1e30;
  for (int r = 0; r < atoi(argv[3]); r++) {
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    sign(k, docs, a, b, off, sh, out);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double s = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;
    if (s < best) best = s;
  }
  FILE *o = fopen(argv[2], "wb");
  if (!o || fwrite(out, 8, (size_t)k * docs, o) != (size_t)k * docs) { perror(argv[2]); return 1; }
  fclose(o);
  printf("%.6f\n", best);
  return 0;
}
