// malloc/free: arrays on the heap, a struct on the heap, pointers stored
// in heap memory, freeing.
int printf(const char *, ...);
void *malloc(unsigned long);
void free(void *);

struct buf {
  int len;
  int *data;
};

struct buf *make(int n) {
  struct buf *b = malloc(sizeof(struct buf));
  b->len = n;
  b->data = malloc(n * sizeof(int));
  for (int i = 0; i < n; i++)
    b->data[i] = i * i;
  return b;
}

int main(void) {
  struct buf *b = make(6);
  int s = 0;
  for (int i = 0; i < b->len; i++)
    s += b->data[i];
  printf("len %d sum %d\n", b->len, s);
  int *copy = malloc(b->len * sizeof(int));
  for (int i = 0; i < b->len; i++)
    copy[i] = b->data[b->len - 1 - i];
  printf("%d %d\n", copy[0], copy[5]);
  free(b->data);
  free(b);
  free(copy);
  char *str = malloc(4);
  str[0] = 'o';
  str[1] = 'k';
  str[2] = '!';
  str[3] = 0;
  printf("%s\n", str);
  free(str);
  return 0;
}
