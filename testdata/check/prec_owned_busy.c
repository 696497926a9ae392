// chorus: --checks assert --domain octagon
// Owned globals (interference/owned.go; SV-COMP pthread-ext/19_time_var_mutex):
// inode is written by the single worker only and is 0 at its test, so
// busy = 1 precedes block = 1 on every path; main writes block = 0 only
// while it sees busy == 0 under m_busy, before the worker sets busy.
typedef unsigned long pthread_t;
typedef union { char size[24]; long align; } pthread_mutex_t;
extern int pthread_create(pthread_t *, void *, void *(*)(void *), void *);
extern int pthread_mutex_lock(pthread_mutex_t *);
extern int pthread_mutex_unlock(pthread_mutex_t *);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);

int block, busy, inode;
pthread_mutex_t m_inode, m_busy;

void *worker(void *arg) {
  pthread_mutex_lock(&m_inode);
  if (inode == 0) {
    pthread_mutex_lock(&m_busy);
    busy = 1;
    pthread_mutex_unlock(&m_busy);
    inode = 1;
  }
  block = 1;
  __VERIFIER_assert(block == 1); // want assert:proven
  pthread_mutex_unlock(&m_inode);
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_mutex_lock(&m_busy);
  if (busy == 0) {
    block = 0;
    __VERIFIER_assert(block == 0); // want assert:proven
  }
  pthread_mutex_unlock(&m_busy);
  return 0;
}
