// for loops: empty parts, comma in the header, declarations in the header,
// nested loops, loop counters going down.
int printf(const char *, ...);

int main(void) {
  int total = 0;
  for (int i = 0; i < 5; i++)
    for (int j = i; j < 5; j++)
      total += i * j;
  printf("total %d\n", total);
  int a, b;
  for (a = 0, b = 10; a < b; a++, b--)
    ;
  printf("met at a=%d b=%d\n", a, b);
  int n = 0;
  for (;;) {
    if (++n >= 7)
      break;
  }
  printf("n %d\n", n);
  for (int k = 10; k > 0; k -= 3)
    printf("k %d\n", k);
  unsigned char c;
  int count = 0;
  for (c = 250; c != 4; c++)
    count++;
  printf("wrapped count %d\n", count);
  return 0;
}
