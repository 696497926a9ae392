// chorus: --checks bounds
// A callback may write through the pointers the external received, after
// the external returned (it may hold on to them): k handed to run_later
// can become 9 after k = 0. The comparator of an external sort gets
// pointers into the array the sort received, whose contents are unknown.
// A function whose address reaches no external is not a callback.
extern void run_later(void (*f)(int *), int *p);
extern void sort(int *base, int n, int (*cmp)(const int *, const int *));
int a[4];
int b[4];
void set(int *p) { *p = 9; }
int cmp(const int *x, const int *y) { return b[*x & 3] + b[*y]; } // want bounds:proven bounds:unproven
void never(int *p) { a[*p] = 0; }
void (*fp)(int *) = never;
int main(void) {
  int k;
  int v[3];
  run_later(set, &k);
  k = 0;
  a[k] = 1; // want bounds:unproven
  sort(v, 3, cmp);
  int j = 2;
  a[j] = 1; // want bounds:proven
  return 0;
}
