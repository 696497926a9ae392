// pthread_join retrieves the value a thread returns (a pointer to its own
// heap result).
#include <pthread.h>
int printf(const char *, ...);
void *malloc(unsigned long);

void *square(void *arg) {
  long v = (long)arg;
  long *r = malloc(sizeof(long));
  *r = v * v;
  return r;
}

int main(void) {
  pthread_t t[3];
  for (long i = 0; i < 3; i++)
    pthread_create(&t[i], 0, square, (void *)(i + 3));
  for (int i = 0; i < 3; i++) {
    void *ret;
    pthread_join(t[i], &ret);
    printf("%ld\n", *(long *)ret);
  }
  return 0;
}
