// chorus: --checks bounds
// A callback an external calls (cfg/callback.go) may run in the calling
// thread and see its thread-local t (7 here): a thread-local variable a
// callback uses is not made a fresh local of the callback's template
// (cfg/tls.go), so a[t] in cb stays unproven.
extern void run(void (*f)(void));
__thread int t;
int a[4];
void cb(void) {
  a[t] = 0; // want bounds:unproven
}
int main(void) {
  t = 7;
  run(cb);
  return 0;
}
