/* Prints the BLAKE3 hash of each file named on the command line, as b3sum does, through
 * fastblake's C interface. Build with
 *   cc -std=c11 hash_file.c $(pkg-config --cflags --libs fastblake)
 */
#include <stdio.h>

#include <fastblake/fastblake.h>

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: hash_file_c FILE...\n");
    return 2;
  }
  int status = 0;
  for (int i = 1; i < argc; ++i) {
    uint8_t hash[FASTBLAKE_BLAKE3_OUT_LEN];
    const int error = fastblake_blake3_hash_file(argv[i], hash);
    if (error != 0) {
      fprintf(stderr, "hash_file_c: %s: %s\n", argv[i], fastblake_strerror(error));
      status = 1;
      continue;
    }
    for (size_t j = 0; j < sizeof hash; ++j) printf("%02x", hash[j]);
    printf("  %s\n", argv[i]);
  }
  return status;
}
