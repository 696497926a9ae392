// Thread arguments in heap structs; each thread writes only its own struct;
// main reads the results after the joins.
#include <pthread.h>
int printf(const char *, ...);
void *malloc(unsigned long);
void free(void *);

struct task {
  int base, exp;
  long result;
};

void *power(void *p) {
  struct task *t = p;
  long r = 1;
  for (int i = 0; i < t->exp; i++)
    r *= t->base;
  t->result = r;
  return 0;
}

int main(void) {
  pthread_t th[3];
  struct task *tasks[3];
  for (int i = 0; i < 3; i++) {
    tasks[i] = malloc(sizeof(struct task));
    tasks[i]->base = i + 2;
    tasks[i]->exp = 5 + i;
    pthread_create(&th[i], 0, power, tasks[i]);
  }
  for (int i = 0; i < 3; i++) {
    pthread_join(th[i], 0);
    printf("%d^%d = %ld\n", tasks[i]->base, tasks[i]->exp, tasks[i]->result);
    free(tasks[i]);
  }
  return 0;
}
