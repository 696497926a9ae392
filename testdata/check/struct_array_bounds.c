// chorus: --checks bounds
// Driver-like register file: a loop over the array is in bounds; an index
// taken from a shared field that another thread sets to 8 is not.
typedef unsigned long pthread_t;
typedef union { char size[24]; long align; } pthread_mutex_t;
extern int pthread_create(pthread_t *, void *, void *(*)(void *), void *);
extern int pthread_join(pthread_t, void **);
extern int pthread_mutex_lock(pthread_mutex_t *);
extern int pthread_mutex_trylock(pthread_mutex_t *);
extern int pthread_mutex_unlock(pthread_mutex_t *);
extern int __VERIFIER_nondet_int(void);
extern unsigned char __VERIFIER_nondet_uchar(void);
extern void __VERIFIER_assume(int);
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
extern void __VERIFIER_assert(int);

struct regs {
  int val[8];
  int sel;
};
struct regs r;

void *init_regs(void *arg) {
  int i;
  for (i = 0; i < 8; i++)
    r.val[i] = 0; // want bounds:proven
  return 0;
}

void *select_reg(void *arg) {
  r.sel = __VERIFIER_nondet_int() ? 8 : 3;
  return 0;
}

void *read_reg(void *arg) {
  int s = r.sel;
  int v = r.val[s]; // want bounds:unproven
  return 0;
}

int main(void) {
  pthread_t t;
  while (__VERIFIER_nondet_int()) {
    pthread_create(&t, 0, init_regs, 0);
    pthread_create(&t, 0, select_reg, 0);
    pthread_create(&t, 0, read_reg, 0);
  }
  return 0;
}
