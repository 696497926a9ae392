// A heap-allocated linked list: push, iterate, reverse in place, remove
// by value, free all nodes.
int printf(const char *, ...);
void *malloc(unsigned long);
void free(void *);

struct node {
  int val;
  struct node *next;
};

struct node *push(struct node *head, int v) {
  struct node *n = malloc(sizeof *n);
  n->val = v;
  n->next = head;
  return n;
}

void show(struct node *h) {
  for (; h; h = h->next)
    printf("%d ", h->val);
  printf("\n");
}

struct node *reverse(struct node *h) {
  struct node *prev = 0;
  while (h) {
    struct node *next = h->next;
    h->next = prev;
    prev = h;
    h = next;
  }
  return prev;
}

struct node *remove_val(struct node *h, int v) {
  struct node **pp = &h;
  while (*pp) {
    if ((*pp)->val == v) {
      struct node *dead = *pp;
      *pp = dead->next;
      free(dead);
    } else {
      pp = &(*pp)->next;
    }
  }
  return h;
}

int main(void) {
  struct node *h = 0;
  for (int i = 1; i <= 5; i++)
    h = push(h, i * i % 7);
  show(h);
  h = reverse(h);
  show(h);
  h = remove_val(h, 2);
  show(h);
  int n = 0;
  while (h) {
    struct node *next = h->next;
    free(h);
    h = next;
    n++;
  }
  printf("freed %d\n", n);
  return 0;
}
