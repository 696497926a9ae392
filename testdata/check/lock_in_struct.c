// chorus: --checks assert,bounds
// Driver style: the lock and the data it protects live in one struct.
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

struct dev {
  pthread_mutex_t lock;
  int count;
  int slots[5];
};
struct dev d;

void *open_dev(void *arg) {
  pthread_mutex_lock(&d.lock);
  if (d.count < 5) {
    d.slots[d.count] = 1; // want bounds:proven
    d.count = d.count + 1;
  }
  pthread_mutex_unlock(&d.lock);
  __VERIFIER_assert(d.count <= 5); // want assert:proven
  return 0;
}

int main(void) {
  pthread_t t;
  while (__VERIFIER_nondet_int())
    pthread_create(&t, 0, open_dev, 0);
  return 0;
}
