// A struct with a flexible array member allocated with malloc; a table of
// strings in a 2-D char array.
int printf(const char *, ...);
void *malloc(unsigned long);
void free(void *);

struct seq {
  int len;
  int items[];
};

int main(void) {
  struct seq *s = malloc(sizeof(struct seq) + 5 * sizeof(int));
  s->len = 5;
  for (int i = 0; i < s->len; i++)
    s->items[i] = i * i + 1;
  int sum = 0;
  for (int i = 0; i < s->len; i++)
    sum += s->items[i];
  printf("%d %d\n", sum, s->items[4]);
  free(s);
  char names[3][6] = {"ann", "bob", "carol"};
  for (int i = 0; i < 3; i++)
    printf("%s:%c ", names[i], names[i][1]);
  printf("\n");
  names[1][0] = 'r';
  printf("%s\n", names[1]);
  return 0;
}
