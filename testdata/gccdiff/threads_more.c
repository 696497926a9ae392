// Threads, facts of every interleaving once joined: per-thread results,
// locked counters, once, rwlock, spinlock, barrier, TLS, atomics.
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>
#include <stdatomic.h>
#define N 4
int results[N];
int args[N] = {0, 1, 2, 3};
void *work(void *p) { int id = *(int *)p; results[id] = id * id; return 0; }
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int cnt;
void *inc(void *p) { for (int i = 0; i < 3; i++) { pthread_mutex_lock(&m); cnt++; pthread_mutex_unlock(&m); } return 0; }
pthread_once_t once = PTHREAD_ONCE_INIT;
int inits;
void init(void) { inits++; }
void *oncer(void *p) { pthread_once(&once, init); return 0; }
pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
int rwv;
void *rwinc(void *p) { pthread_rwlock_wrlock(&rw); rwv += 2; pthread_rwlock_unlock(&rw); return 0; }
pthread_spinlock_t sl;
int spv;
void *spinc(void *p) { pthread_spin_lock(&sl); spv += 5; pthread_spin_unlock(&sl); return 0; }
__thread int tl = 7;
void *tlw(void *p) { tl = 100; return (void *)(long)tl; }
void *retv(void *p) { return (void *)((long)p + 1); }
pthread_barrier_t bar;
int bv[2];
void *barw(void *p) { long id = (long)p; bv[id] = 1; pthread_barrier_wait(&bar); return (void *)(long)bv[1 - id]; }
int dvar;
void *det(void *p) { dvar = 1; return 0; }
atomic_int ac;
void *ainc(void *p) { atomic_fetch_add(&ac, 2); return 0; }
struct job { int lo, hi; long sum; };
void *sumr(void *p) { struct job *j = p; long s = 0; for (int i = j->lo; i < j->hi; i++) s += i; j->sum = s; return 0; }
int tid_seen[4];
void *mark(void *p) { tid_seen[(long)p] = 1; return 0; }
int maxv;
void *upd(void *p) { int v = (int)(long)p; pthread_mutex_lock(&m); if (v > maxv) maxv = v; pthread_mutex_unlock(&m); return 0; }
int other;
void *detw(void *p) { other = 99; return 0; }
int *heapres;
void *alloc_res(void *p) { int *r = malloc(sizeof *r); *r = 77; return r; }
int stage;
pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
void *waiter(void *p) { pthread_mutex_lock(&m); while (stage == 0) pthread_cond_wait(&cv, &m); stage = 2; pthread_mutex_unlock(&m); return 0; }
__thread int tcount;
void *tcw(void *p) { for (int i = 0; i < 5; i++) tcount++; return (void *)(long)tcount; }
int main(void) {
  { pthread_t t[N]; for (int i = 0; i < N; i++) pthread_create(&t[i], 0, work, &args[i]); for (int i = 0; i < N; i++) pthread_join(t[i], 0); assert(results[3] == 9 && results[2] == 4); } // probe
  { pthread_t t[N]; for (int i = 0; i < N; i++) pthread_create(&t[i], 0, work, &args[i]); for (int i = 0; i < N; i++) pthread_join(t[i], 0); int k = 1; assert(results[k] == 1); } // probe
  { pthread_t a, b; pthread_create(&a, 0, inc, 0); pthread_create(&b, 0, inc, 0); pthread_join(a, 0); pthread_join(b, 0); assert(cnt == 6); } // probe
  { pthread_t a, b; pthread_create(&a, 0, oncer, 0); pthread_create(&b, 0, oncer, 0); pthread_join(a, 0); pthread_join(b, 0); assert(inits == 1); } // probe
  { pthread_t a, b; pthread_create(&a, 0, rwinc, 0); pthread_create(&b, 0, rwinc, 0); pthread_join(a, 0); pthread_join(b, 0); assert(rwv == 4); } // probe
  { pthread_spin_init(&sl, 0); pthread_t a, b; pthread_create(&a, 0, spinc, 0); pthread_create(&b, 0, spinc, 0); pthread_join(a, 0); pthread_join(b, 0); assert(spv == 10); } // probe
  { pthread_t a; void *r; pthread_create(&a, 0, tlw, 0); pthread_join(a, &r); assert(tl == 7 && (long)r == 100); } // probe
  { pthread_t a; void *r; pthread_create(&a, 0, retv, (void *)41); pthread_join(a, &r); assert((long)r == 42); } // probe
  { pthread_barrier_init(&bar, 0, 2); pthread_t a, b; void *ra, *rb; pthread_create(&a, 0, barw, (void *)0); pthread_create(&b, 0, barw, (void *)1); pthread_join(a, &ra); pthread_join(b, &rb); assert((long)ra == 1 && (long)rb == 1); } // probe
  { pthread_t a, b; pthread_create(&a, 0, ainc, 0); pthread_create(&b, 0, ainc, 0); pthread_join(a, 0); pthread_join(b, 0); assert(atomic_load(&ac) == 4); } // probe
  { pthread_t a; pthread_create(&a, 0, det, 0); pthread_detach(a); int local = 3; assert(local == 3); } // probe
  { pthread_t a; pthread_create(&a, 0, det, 0); pthread_join(a, 0); assert(dvar == 1); } // probe
  { struct job j[2] = {{0, 10, 0}, {10, 20, 0}}; pthread_t t[2]; for (int i = 0; i < 2; i++) pthread_create(&t[i], 0, sumr, &j[i]); for (int i = 0; i < 2; i++) pthread_join(t[i], 0); assert(j[0].sum + j[1].sum == 190); } // probe
  { pthread_t t[4]; for (long i = 0; i < 4; i++) pthread_create(&t[i], 0, mark, (void *)i); for (int i = 0; i < 4; i++) pthread_join(t[i], 0); int c = 0; for (int i = 0; i < 4; i++) c += tid_seen[i]; assert(c == 4); } // probe
  { pthread_t t[3]; for (long i = 0; i < 3; i++) pthread_create(&t[i], 0, upd, (void *)(i + 5)); for (int i = 0; i < 3; i++) pthread_join(t[i], 0); assert(maxv == 7); } // probe
  { pthread_t a; pthread_create(&a, 0, detw, 0); pthread_detach(a); int x = 4; x += 1; assert(x == 5); } // probe
  { pthread_t a; void *r; pthread_create(&a, 0, alloc_res, 0); pthread_join(a, &r); assert(*(int *)r == 77); } // probe
  { pthread_t a; pthread_create(&a, 0, waiter, 0); pthread_mutex_lock(&m); stage = 1; pthread_cond_signal(&cv); pthread_mutex_unlock(&m); pthread_join(a, 0); assert(stage == 2); } // probe
  { pthread_t a, b; void *ra, *rb; pthread_create(&a, 0, tcw, 0); pthread_create(&b, 0, tcw, 0); pthread_join(a, &ra); pthread_join(b, &rb); assert((long)ra == 5 && (long)rb == 5 && tcount == 0); } // probe
  return 0;
}
