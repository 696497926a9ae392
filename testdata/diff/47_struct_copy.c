// Struct copies: structs with arrays and pointers copied by assignment
// and by value; the copy is independent, the pointed-to data is shared.
int printf(const char *, ...);

struct rec {
  char name[8];
  int scores[3];
  int *shared;
  struct {
    int a;
    long b;
  } sub;
};

struct rec bump(struct rec r) {
  r.scores[0] += 100;
  r.sub.b *= 2;
  (*r.shared)++;
  return r;
}

int main(void) {
  int counter = 0;
  struct rec x = {"alpha", {1, 2, 3}, &counter, {7, 8}};
  struct rec y = x;
  y.name[0] = 'A';
  y.scores[1] = 20;
  printf("%s %s %d %d\n", x.name, y.name, x.scores[1], y.scores[1]);
  struct rec z = bump(y);
  printf("%d %d %ld %ld %d\n", y.scores[0], z.scores[0], y.sub.b, z.sub.b, counter);
  *z.shared += 10;
  printf("counter %d\n", counter);
  struct rec arr[2];
  arr[0] = x;
  arr[1] = z;
  arr[0].sub.a = -1;
  printf("%d %d %s\n", x.sub.a, arr[0].sub.a, arr[1].name);
  return 0;
}
