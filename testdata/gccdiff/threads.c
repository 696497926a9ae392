// Threads whose effect is fixed once they are joined.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
int x, c;
atomic_int ac;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *set5(void *a) { x = 5; return 0; }
void *incr(void *a) { pthread_mutex_lock(&m); c++; pthread_mutex_unlock(&m); return 0; }
void *aincr(void *a) { atomic_fetch_add(&ac, 1); return 0; }
void *out3(void *a) { *(int *)a = 3; return 0; }
int main(void) {
  { pthread_t t; pthread_create(&t, 0, set5, 0); pthread_join(t, 0); assert(x == 5); } // probe
  { pthread_t t1, t2; pthread_create(&t1, 0, incr, 0); pthread_create(&t2, 0, incr, 0); pthread_join(t1, 0); pthread_join(t2, 0); assert(c == 2); } // probe
  { pthread_t t[3]; for (int i = 0; i < 3; i++) pthread_create(&t[i], 0, aincr, 0); for (int i = 0; i < 3; i++) pthread_join(t[i], 0); assert(ac == 3); } // probe
  { int v = 0; pthread_t t; pthread_create(&t, 0, out3, &v); pthread_join(t, 0); assert(v == 3); } // probe
  return 0;
}
