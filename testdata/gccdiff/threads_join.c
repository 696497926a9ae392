// Threads: facts that hold in every interleaving once the threads are
// joined (or by the synchronisation used).
#include <assert.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <stdlib.h>
int cnt, c2, last, flagset, d1, d2, acc[4];
long total;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t m2 = PTHREAD_MUTEX_INITIALIZER;
pthread_spinlock_t sl;
atomic_int ai, seen;
atomic_long al;
_Atomic unsigned au;
__thread int tlv = 7;
struct arg { int in; int out; };
void *work(void *p) { struct arg *a = p; a->out = a->in * 2; return 0; }
void *ret(void *p) { return (void *)((long)p + 1); }
void *retheap(void *p) { int *r = malloc(sizeof *r); *r = 11; return r; }
void *inc100(void *p) { for (int i = 0; i < 100; i++) { pthread_mutex_lock(&m); cnt++; pthread_mutex_unlock(&m); } return 0; }
void *ainc(void *p) { for (int i = 0; i < 10; i++) atomic_fetch_add_explicit(&ai, 1, memory_order_relaxed); return 0; }
void *aadd(void *p) { __atomic_add_fetch(&total, (long)p, __ATOMIC_SEQ_CST); return 0; }
void *spin(void *p) { pthread_spin_lock(&sl); c2 += 3; pthread_spin_unlock(&sl); return 0; }
void *tls(void *p) { tlv++; return (void *)(long)tlv; }
void *slot(void *p) { long i = (long)p; acc[i] = (int)i * 10; return 0; }
void *sub1(void *p) { atomic_fetch_sub(&au, 1u); return 0; }
void *xch(void *p) { int o = atomic_exchange(&seen, 1); if (o == 0) { pthread_mutex_lock(&m2); last++; pthread_mutex_unlock(&m2); } return 0; }
void *dt(void *p) { atomic_store(&al, 5); return 0; }
int main(void) {
  { struct arg a = {21, 0}; pthread_t t; pthread_create(&t, 0, work, &a); pthread_join(t, 0); assert(a.out == 42); } // probe
  { struct arg a[3] = {{1, 0}, {2, 0}, {3, 0}}; pthread_t t[3]; for (int i = 0; i < 3; i++) pthread_create(&t[i], 0, work, &a[i]); for (int i = 0; i < 3; i++) pthread_join(t[i], 0); assert(a[1].out == 4); } // probe
  { void *r; pthread_t t; pthread_create(&t, 0, ret, (void *)41); pthread_join(t, &r); assert((long)r == 42); } // probe
  { void *r; pthread_t t; pthread_create(&t, 0, retheap, 0); pthread_join(t, &r); assert(*(int *)r == 11); } // probe
  { pthread_t t1, t2; pthread_create(&t1, 0, inc100, 0); pthread_create(&t2, 0, inc100, 0); pthread_join(t1, 0); pthread_join(t2, 0); assert(cnt == 200); } // probe
  { pthread_t t[4]; for (int i = 0; i < 4; i++) pthread_create(&t[i], 0, ainc, 0); for (int i = 0; i < 4; i++) pthread_join(t[i], 0); assert(ai == 40); } // probe
  { pthread_t t[3]; for (long i = 0; i < 3; i++) pthread_create(&t[i], 0, aadd, (void *)(i + 1)); for (int i = 0; i < 3; i++) pthread_join(t[i], 0); assert(total == 6); } // probe
  { pthread_spin_init(&sl, 0); pthread_t t1, t2; pthread_create(&t1, 0, spin, 0); pthread_create(&t2, 0, spin, 0); pthread_join(t1, 0); pthread_join(t2, 0); assert(c2 == 6); } // probe
  { void *r; pthread_t t; pthread_create(&t, 0, tls, 0); pthread_join(t, &r); assert((long)r == 8 && tlv == 7); } // probe
  { pthread_t t[4]; for (long i = 0; i < 4; i++) pthread_create(&t[i], 0, slot, (void *)i); for (int i = 0; i < 4; i++) pthread_join(t[i], 0); assert(acc[3] == 30 && acc[1] == 10); } // probe
  { au = 2; pthread_t t1, t2; pthread_create(&t1, 0, sub1, 0); pthread_create(&t2, 0, sub1, 0); pthread_join(t1, 0); pthread_join(t2, 0); assert(au == 0); } // probe
  { pthread_t t[3]; for (int i = 0; i < 3; i++) pthread_create(&t[i], 0, xch, 0); for (int i = 0; i < 3; i++) pthread_join(t[i], 0); assert(last == 1); } // probe
  { pthread_t t; pthread_create(&t, 0, dt, 0); pthread_detach(t); while (atomic_load(&al) != 5) ; assert(al == 5); } // probe
  { int v = 0; pthread_mutex_lock(&m); v = cnt + 1; pthread_mutex_unlock(&m); assert(v >= 1); } // probe
  return 0;
}
