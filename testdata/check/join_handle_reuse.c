// chorus: --checks assert
// One handle for two threads (interference/join.go): the join waits for
// reader, the thread id held last, and writer, spawned into the same
// handle afterwards, still runs. The join must not count for writer.
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

int g = 0;

void *reader(void *arg) { return 0; }

void *writer(void *arg) {
  g = 1;
  return 0;
}

int main(void) {
  pthread_t id;
  pthread_create(&id, 0, reader, 0);
  pthread_join(id, 0);
  pthread_create(&id, 0, writer, 0);
  __VERIFIER_assert(g == 0); // want assert:unproven
  return 0;
}
