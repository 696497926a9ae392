// Enums: implicit and explicit values, switch over an enum, enum
// arithmetic, an enum-indexed array.
int printf(const char *, ...);

enum color { RED, GREEN = 5, BLUE, ALPHA = -2 };
enum state { IDLE, RUNNING, STOPPED, NSTATES };

const char *names[NSTATES] = {"idle", "running", "stopped"};

enum state next(enum state s) {
  switch (s) {
  case IDLE:
    return RUNNING;
  case RUNNING:
    return STOPPED;
  default:
    return IDLE;
  }
}

int main(void) {
  printf("%d %d %d %d\n", RED, GREEN, BLUE, ALPHA);
  enum state s = IDLE;
  for (int i = 0; i < 5; i++) {
    printf("%s ", names[s]);
    s = next(s);
  }
  printf("\n");
  enum color c = BLUE;
  c = (enum color)(c + 1);
  printf("%d %d\n", c, c == 7);
  return 0;
}
