// Assignments inside conditions: while ((c = *s++) != 0), if ((p = f())),
// counting down with i-- > 0 on unsigned values.
int printf(const char *, ...);

int table[4] = {3, 0, 7, 0};

int *find_nonzero(int from) {
  for (int i = from; i < 4; i++)
    if (table[i])
      return &table[i];
  return 0;
}

int main(void) {
  const char *s = "hello";
  char c;
  int vowels = 0;
  while ((c = *s++) != 0)
    if (c == 'e' || c == 'o')
      vowels++;
  printf("vowels %d\n", vowels);
  int *p;
  if ((p = find_nonzero(1)))
    printf("found %d at %ld\n", *p, (long)(p - table));
  if (!(p = find_nonzero(3)))
    printf("none after 3\n");
  unsigned n = 4, total = 0;
  while (n-- > 0)
    total += n;
  printf("total %u n %u\n", total, n);
  int k;
  for (k = 10; (k -= 3) > 0;)
    printf("k %d\n", k);
  return 0;
}
