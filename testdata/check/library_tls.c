// chorus: --checks bounds
// A library's client thread may call enter and then use (cfg/library.go):
// use sees the depth that thread's enter set, so the thread-local depth
// is not made a fresh local of use's template (cfg/tls.go) and a[depth]
// stays unproven.
static __thread int depth;
int a[4];
void enter(void) { depth = 7; }
void use(void) {
  a[depth] = 0; // want bounds:unproven
}
