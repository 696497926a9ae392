// chorus: --checks bounds,overflow --entry-threads 1
// library_counter.c with one client thread (--entry-threads 1): add
// and racy cannot interleave, so count stays in [0, 8] and add is in
// bounds. A library without main: its most general client calls every function
// with external linkage in any order, any number of times, from any
// number of threads at once, with any arguments. add keeps count below 8
// under the lock; racy reads and writes count without it, so in a
// concurrent client add's index may be 8. get trusts its caller. The
// static helper is no entry point (it has internal linkage).
typedef union { char size[40]; long align; } pthread_mutex_t;
extern int pthread_mutex_lock(pthread_mutex_t *);
extern int pthread_mutex_unlock(pthread_mutex_t *);
static int table[8];
static int count;
static pthread_mutex_t m;
int add(int v) {
  pthread_mutex_lock(&m);
  if (count < 8) {
    table[count] = v; // want bounds:proven
    count++; // want overflow:proven
  }
  pthread_mutex_unlock(&m);
  return 0;
}
int get(int i) { return table[i]; } // want bounds:unproven
int get_masked(unsigned i) { return table[i % 8]; } // want bounds:proven
static int helper(int i) { return table[i]; }
int racy(void) {
  int c = count;
  if (c < 8) {
    table[c] = 1; // want bounds:proven
    count = c + 1; // want overflow:proven
  }
  return 0;
}
