// chorus: --checks assert --domain octagon
// Counter bounds (interference/counter.go), the pattern of SV-COMP's
// 33_double_lock: count is changed only by atomic increments, +1;-1 under
// a and -1;+1 under b. A reader holding both locks sees no thread in the
// middle of a section: count == 0. Holding only a, it may see a thread in
// the middle of a b-section (count == -1), never one in an a-section.
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

int count = 0;
pthread_mutex_t a, b;

void __VERIFIER_atomic_inc(void) { count++; }
void __VERIFIER_atomic_dec(void) { count--; }

void *up(void *arg) {
  pthread_mutex_lock(&a);
  __VERIFIER_atomic_inc();
  __VERIFIER_atomic_dec();
  pthread_mutex_unlock(&a);
  return 0;
}

void *down(void *arg) {
  pthread_mutex_lock(&b);
  __VERIFIER_atomic_dec();
  __VERIFIER_atomic_inc();
  pthread_mutex_unlock(&b);
  return 0;
}

void *reader(void *arg) {
  pthread_mutex_lock(&a);
  __VERIFIER_assert(count >= -1 && count <= 0); // want assert:proven
  __VERIFIER_assert(count == 0);                // want assert:unproven
  pthread_mutex_lock(&b);
  __VERIFIER_assert(count == 0); // want assert:proven
  pthread_mutex_unlock(&b);
  pthread_mutex_unlock(&a);
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, reader, 0);
  while (__VERIFIER_nondet_int()) {
    if (__VERIFIER_nondet_int())
      pthread_create(&t, 0, up, 0);
    else
      pthread_create(&t, 0, down, 0);
  }
  return 0;
}
