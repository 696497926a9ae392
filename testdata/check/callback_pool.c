// chorus: --checks bounds
// A function handed to an unknown external (a thread pool's submit) may
// run at any time after the call, in any number of threads: task may
// run after idx = 7 (issue 10).
extern void pool_submit(void (*f)(void *), void *arg);
int buf[4];
int idx = 0;
void task(void *arg) { buf[idx] = 1; } // want bounds:unproven
int main(void) {
  pool_submit(task, 0);
  idx = 7;
  return 0;
}
