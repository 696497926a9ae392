// Global initializers: scalars, arrays (partial, zero-filled), structs,
// pointers to globals and into arrays, strings, implicit zero.
int printf(const char *, ...);

int zero;
int one = 1;
unsigned big = 4000000000u;
long neg = -123456789012L;
int arr[5] = {1, 2, 3};
int grid[2][3] = {{1, 2, 3}, {4}};
struct cfg {
  int id;
  char name[8];
  int *ptr;
} conf = {7, "conf", &one};
int *second = &arr[1];
const char *msg = "global string";
char letters[] = "xyz";
struct cfg many[2] = {{1, "a", 0}, {2, "b", &arr[4]}};

int main(void) {
  printf("%d %d %u %ld\n", zero, one, big, neg);
  for (int i = 0; i < 5; i++)
    printf("%d ", arr[i]);
  printf("\n%d %d %d\n", grid[0][2], grid[1][0], grid[1][2]);
  printf("%d %s %d\n", conf.id, conf.name, *conf.ptr);
  *second = 20;
  printf("%d %s %s %lu\n", arr[1], msg, letters, sizeof letters);
  printf("%d %s %d %d\n", many[1].id, many[1].name, many[0].ptr == 0, many[1].ptr == &arr[4]);
  one = 2;
  printf("%d\n", *conf.ptr);
  return 0;
}
