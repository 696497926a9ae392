// Functions: recursion, shared bodies, static locals, struct arguments
// and returns, function pointers in tables, varargs, qsort/bsearch.
#include <assert.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }
int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
int is_even(unsigned n);
int is_odd(unsigned n) { return n == 0 ? 0 : is_even(n - 1); }
int is_even(unsigned n) { return n == 0 ? 1 : is_odd(n - 1); }
int twice(int x) { return 2 * x; }
int counter(void) { static int c; return ++c; }
int counter2(int reset) { static int c = 100; if (reset) c = 100; return c++; }
struct pt { int x, y; };
struct big { int a[10]; long l; };
struct pt swap(struct pt p) { struct pt q = {p.y, p.x}; return q; }
struct big mkbig(int k) { struct big b; for (int i = 0; i < 10; i++) b.a[i] = k + i; b.l = -k; return b; }
int sumbig(struct big b) { int s = 0; for (int i = 0; i < 10; i++) s += b.a[i]; b.a[0] = 999; return s; }
struct ops { int (*f)(int); int k; };
int inc(int x) { return x + 1; }
int dec(int x) { return x - 1; }
struct ops opt[2] = {{inc, 1}, {dec, 2}};
int (*const fns[3])(int) = {inc, dec, twice};
int sumv(int n, ...) { va_list ap; va_start(ap, n); int s = 0; for (int i = 0; i < n; i++) s += va_arg(ap, int); va_end(ap); return s; }
double mix(int n, ...) { va_list ap; va_start(ap, n); double d = va_arg(ap, double); long l = va_arg(ap, long); char *s = va_arg(ap, char *); int c = va_arg(ap, int); va_end(ap); return d + l + strlen(s) + c + n; }
long long lsum(int n, ...) { va_list ap; va_start(ap, n); long long s = 0; while (n--) s += va_arg(ap, long long); va_end(ap); return s; }
int cmpint(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }
int apply(int (*f)(int), int x) { return f(x); }
int shared(int x) { return x * 3 + 1; }
void setp(int *p, int v) { *p = v; }
int ack(int m, int n) { if (m == 0) return n + 1; if (n == 0) return ack(m - 1, 1); return ack(m - 1, ack(m, n - 1)); }
int main(void) {
  { assert(fact(5) == 120); } // probe
  { assert(fib(10) == 55); } // probe
  { assert(is_even(10) && !is_odd(10)); } // probe
  { assert(is_odd(7)); } // probe
  { int a = shared(1), b = shared(5); assert(a == 4 && b == 16); } // probe
  { int a = shared(-1); assert(a == -2); } // probe
  { counter(); counter(); assert(counter() == 3); } // probe
  { counter2(1); counter2(0); assert(counter2(0) == 102); } // probe
  { struct pt p = {1, 2}; struct pt q = swap(p); assert(q.x == 2 && q.y == 1 && p.x == 1); } // probe
  { struct big b = mkbig(3); assert(b.a[9] == 12 && b.l == -3); } // probe
  { struct big b = mkbig(0); int s = sumbig(b); assert(s == 45 && b.a[0] == 0); } // probe
  { int i = 1; assert(opt[i].f(10) == 9); } // probe
  { int i = 0; assert(opt[i].f(opt[i].k) == 2); } // probe
  { int i = 2; assert(fns[i](7) == 14); } // probe
  { int s = 0; for (int i = 0; i < 3; i++) s += fns[i](1); assert(s == 4); } // probe
  { assert(sumv(4, 1, 2, 3, 4) == 10); } // probe
  { assert(sumv(0) == 0); } // probe
  { assert(mix(1, 0.5, 10L, "abc", 'A') == 0.5 + 10 + 3 + 65 + 1); } // probe
  { assert(lsum(2, 1LL << 40, -1LL) == (1LL << 40) - 1); } // probe
  { int a[5] = {5, 3, 1, 4, 2}; qsort(a, 5, sizeof a[0], cmpint); assert(a[0] == 1 && a[4] == 5); } // probe
  { int a[5] = {1, 2, 3, 4, 5}; int k = 4; int *r = bsearch(&k, a, 5, sizeof a[0], cmpint); assert(r == &a[3]); } // probe
  { int a[5] = {1, 2, 3, 4, 5}; int k = 9; int *r = bsearch(&k, a, 5, sizeof a[0], cmpint); assert(r == 0); } // probe
  { assert(apply(inc, 1) == 2 && apply(dec, 1) == 0); } // probe
  { assert(apply(twice, 21) == 42); } // probe
  { int v = 0; setp(&v, 7); int w = 0; setp(&w, 9); assert(v == 7 && w == 9); } // probe
  { assert(ack(2, 3) == 9); } // probe
  { int (*f)(int) = inc; f = dec; assert(f(0) == -1); } // probe
  return 0;
}
