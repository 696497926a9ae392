/* Variable length arrays: declared, written, read; sizeof of one is
   over-approximated (any value) by chorus, so it is used only where its
   value does not reach the output. */
#include <stdio.h>
#include <string.h>

static int sum(int n) {
  int v[n + 1];
  size_t sz = sizeof(v);
  (void)sz;
  for (int i = 0; i <= n; i++)
    v[i] = i * i;
  int s = 0;
  for (int i = 0; i <= n; i++)
    s += v[i];
  return s;
}

int main(void) {
  size_t extra = sizeof(":unix:") + sizeof("65535");
  char addr[16 + extra];
  memset(addr, 0, 16);
  addr[0] = 'x';
  size_t total = sizeof(addr);
  printf("%d %d %c\n", sum(4), sum(9), addr[0]);
  (void)total;
  return 0;
}
