// chorus: --checks assert --domain interval
// The once rule (interference/once.go) must not count an observation made
// in main's code before its first spawn: there main may still reset the
// flag (pre-spawn writes are outside P1). Here main tests state while it
// is 1, resets it to 0 and only then spawns the initializer, which finds
// state == 0 and writes data = 0 after main's own data = 5: the assertion
// can fail. (The pre-spawn test used to count as main's observation of
// state != 0, and the analysis proved the assertion.)
typedef unsigned long pthread_t;
typedef union { char size[24]; long align; } pthread_mutex_t;
extern int pthread_create(pthread_t *, void *, void *(*)(void *), void *);
extern int pthread_mutex_lock(pthread_mutex_t *);
extern int pthread_mutex_unlock(pthread_mutex_t *);
extern void __VERIFIER_assert(int);

int state = 0;
int data = 7;
pthread_mutex_t m2;

void *init(void *arg) {
  pthread_mutex_lock(&m2);
  if (state == 0) {
    data = 0;
    state = 1;
  }
  pthread_mutex_unlock(&m2);
  return 0;
}

int main(void) {
  pthread_t t;
  state = 1;
  if (state == 1) {
    state = 0;
    pthread_create(&t, 0, init, 0);
    data = 5;
    __VERIFIER_assert(data != 0); // want assert:unproven
  }
  return 0;
}
