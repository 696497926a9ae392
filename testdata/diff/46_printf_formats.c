// printf conversions and flags the reference interpreter must match:
// widths, precision, '-', '0', '+', ' ', '#', %x/%X/%o/%c/%s/%u/%ld/%lu.
int printf(const char *, ...);

int main(void) {
  printf("[%5d][%-5d][%05d][%+d][% d][%.4d]\n", 42, 42, 42, 42, 42, 42);
  printf("[%x][%X][%#x][%#X][%08x][%o][%#o]\n", 48879, 48879, 255, 255, 3054, 64, 64);
  printf("[%u][%lu][%ld][%lx]\n", 3000000000u, 10000000000ul, -10000000000l, 0xFEEDFACECAFEul);
  printf("[%c][%3c][%-3c]\n", 'q', 'r', 's');
  printf("[%s][%8s][%-8s][%.2s]\n", "str", "right", "left", "cut");
  printf("[%d][%d]\n", -2147483647 - 1, 2147483647);
  printf("[%hd][%hhd][%hu]\n", 65537, 257, 65535);
  printf("%d%%\n", 50);
  printf("[%*d][%-*d]\n", 6, 7, 6, 7);
  return 0;
}
