// sizeof of types, expressions, arrays, structs with padding and unions
// (LP64 sizes, which gcc on x86-64 uses). sizeof does not evaluate its
// operand.
int printf(const char *, ...);

struct s1 {
  char c;
  int i;
};
struct s2 {
  char a, b;
  short s;
  long l;
};
union u {
  char c[5];
  int i;
};

int main(void) {
  printf("%lu %lu %lu %lu %lu\n", sizeof(char), sizeof(short), sizeof(int), sizeof(long), sizeof(long long));
  printf("%lu %lu\n", sizeof(void *), sizeof(int *));
  int arr[7];
  printf("%lu %lu\n", sizeof arr, sizeof arr / sizeof arr[0]);
  printf("%lu %lu %lu\n", sizeof(struct s1), sizeof(struct s2), sizeof(union u));
  int i = 0;
  unsigned long n = sizeof(i++);
  printf("n %lu i %d\n", n, i);
  char str[] = "hello";
  printf("str %lu\n", sizeof str);
  struct s2 two[3];
  printf("two %lu\n", sizeof two);
  printf("expr %lu %lu\n", sizeof(1 + 2L), sizeof('a'));
  return 0;
}
