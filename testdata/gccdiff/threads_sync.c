// Synchronisation whose outcome is fixed once the threads are joined:
// pthread_once, condition variables, semaphores, barriers, rwlocks,
// thread-locals, pthread_exit's value, spawning through a pointer.
#include <assert.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdatomic.h>
int once_count, ready, data, sx, bx, rx, ex;
pthread_once_t once = PTHREAD_ONCE_INIT;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
pthread_barrier_t bar;
sem_t sem;
__thread int tl;
atomic_int flag;
int payload;
void init_once(void) { once_count++; }
void *do_once(void *a) { pthread_once(&once, init_once); return 0; }
void *signal_data(void *a) { pthread_mutex_lock(&m); data = 9; ready = 1; pthread_cond_signal(&cv); pthread_mutex_unlock(&m); return 0; }
void *post(void *a) { sx = 4; sem_post(&sem); return 0; }
void *at_barrier(void *a) { bx = 3; pthread_barrier_wait(&bar); return 0; }
void *write_rw(void *a) { pthread_rwlock_wrlock(&rw); rx = 6; pthread_rwlock_unlock(&rw); return 0; }
void *set_tl(void *a) { tl = 5; return 0; }
void *exits(void *a) { ex = 1; pthread_exit((void *)3); ex = 2; return 0; }
void *publish(void *a) { payload = 8; atomic_store(&flag, 1); return 0; }
void *w1(void *a) { data = 1; return 0; }
void *w2(void *a) { data = 2; return 0; }
int main(void) {
  { pthread_t a, b; pthread_create(&a, 0, do_once, 0); pthread_create(&b, 0, do_once, 0); pthread_join(a, 0); pthread_join(b, 0); assert(once_count == 1); } // probe
  { pthread_t t; pthread_create(&t, 0, signal_data, 0); pthread_mutex_lock(&m); while (!ready) pthread_cond_wait(&cv, &m); int d = data; pthread_mutex_unlock(&m); pthread_join(t, 0); assert(d == 9); } // probe
  { sem_init(&sem, 0, 0); pthread_t t; pthread_create(&t, 0, post, 0); sem_wait(&sem); int v = sx; pthread_join(t, 0); assert(v == 4); } // probe
  { pthread_barrier_init(&bar, 0, 2); pthread_t t; pthread_create(&t, 0, at_barrier, 0); pthread_barrier_wait(&bar); int v = bx; pthread_join(t, 0); assert(v == 3); } // probe
  { pthread_t t; pthread_create(&t, 0, write_rw, 0); pthread_join(t, 0); pthread_rwlock_rdlock(&rw); int v = rx; pthread_rwlock_unlock(&rw); assert(v == 6); } // probe
  { pthread_t t; pthread_create(&t, 0, set_tl, 0); pthread_join(t, 0); assert(tl == 0); } // probe
  { void *r; pthread_t t; pthread_create(&t, 0, exits, 0); pthread_join(t, &r); assert(ex == 1 && r == (void *)3); } // probe
  { pthread_t t; pthread_create(&t, 0, publish, 0); while (!atomic_load(&flag)) ; int v = payload; pthread_join(t, 0); assert(v == 8); } // probe
  { void *(*f)(void *) = w2; pthread_t t; pthread_create(&t, 0, f, 0); pthread_join(t, 0); assert(data == 2 || data == 9); } // probe
  { pthread_mutex_lock(&m); int r = pthread_mutex_trylock(&m); pthread_mutex_unlock(&m); assert(r != 0); } // probe
  return 0;
}
