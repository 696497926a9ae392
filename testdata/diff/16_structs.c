// Structs: members, assignment (copy), passing and returning by value,
// pointers to members, nested initializers.
int printf(const char *, ...);

struct point {
  int x;
  int y;
};

struct rect {
  struct point lo, hi;
  char tag;
};

struct point add(struct point a, struct point b) {
  struct point r;
  r.x = a.x + b.x;
  r.y = a.y + b.y;
  return r;
}

int area(struct rect r) { return (r.hi.x - r.lo.x) * (r.hi.y - r.lo.y); }

void grow(struct rect *r, int d) {
  r->lo.x -= d;
  r->lo.y -= d;
  r->hi.x += d;
  r->hi.y += d;
}

int main(void) {
  struct point p = {1, 2}, q = {10, 20};
  struct point s = add(p, q);
  printf("s %d %d\n", s.x, s.y);
  struct rect r = {{0, 0}, {3, 4}, 'r'};
  printf("area %d tag %c\n", area(r), r.tag);
  struct rect r2 = r;
  grow(&r2, 1);
  printf("area %d %d\n", area(r), area(r2));
  int *px = &r2.hi.y;
  *px = 100;
  printf("hi.y %d\n", r2.hi.y);
  p = q;
  q.x = 0;
  printf("p %d %d q %d %d\n", p.x, p.y, q.x, q.y);
  struct point arr[2] = {{5, 6}, {7, 8}};
  arr[0] = add(arr[0], arr[1]);
  printf("arr %d %d %d %d\n", arr[0].x, arr[0].y, arr[1].x, arr[1].y);
  return 0;
}
