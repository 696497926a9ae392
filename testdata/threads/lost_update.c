// Two threads increment a shared counter without a lock: the read and the
// write are separate steps, so an interleaving loses an update.
// Schedule notation (all fixtures here): threads are main = 0, then t1,
// t2, ... in spawn order. A schedule is a list of phases: "t1@label" runs
// t1 until it stands at the line marked "// @label", "t1:N" runs it for N
// moves, "t1" until it cannot move; afterwards the lowest enabled thread
// runs. "-> fails @label": the check on that line fails; "-> ok": every
// thread finishes and no check fails. "random: ok": no seeded random
// schedule fails either.
// schedule sequential: main@join t1 t2 -> ok
// schedule lost: main@join t1@write t2 t1 -> fails @assert
// schedule lost-other-order: main@join t2@write t1 t2 -> fails @assert
typedef unsigned long pthread_t;
extern int pthread_create(pthread_t *, void *, void *(*)(void *), void *);
extern int pthread_join(pthread_t, void **);
extern void __VERIFIER_assert(int);

int counter = 0;

void *inc(void *arg) {
  int tmp = counter;
  counter = tmp + 1; // @write
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, inc, 0);
  pthread_create(&b, 0, inc, 0);
  pthread_join(a, 0); // @join
  pthread_join(b, 0);
  __VERIFIER_assert(counter == 2); // @assert
  return 0;
}
