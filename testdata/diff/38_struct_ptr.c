// Pointers to structs: ->, arrays of pointers to structs, a pointer
// member pointing to a sibling, swapping structs through pointers.
int printf(const char *, ...);

struct node {
  int key;
  struct node *peer;
};

void swap_nodes(struct node *a, struct node *b) {
  struct node t = *a;
  *a = *b;
  *b = t;
}

int main(void) {
  struct node n[3];
  for (int i = 0; i < 3; i++) {
    n[i].key = (i + 1) * 11;
    n[i].peer = &n[(i + 1) % 3];
  }
  struct node *ptrs[3] = {&n[2], &n[0], &n[1]};
  for (int i = 0; i < 3; i++)
    printf("%d->%d ", ptrs[i]->key, ptrs[i]->peer->key);
  printf("\n");
  printf("%d\n", n[0].peer->peer->peer->key);
  swap_nodes(&n[0], &n[2]);
  printf("%d %d %d\n", n[0].key, n[0].peer->key, n[2].peer->key);
  struct node *p = &n[1];
  p->peer->key = 99;
  printf("%d\n", n[2].key);
  return 0;
}
