// chorus: --checks assert
// The assert macros of other C libraries, written out: musl, FreeBSD,
// Bionic and macOS; a failing side that is not an assertion-failure call
// is not an assertion.
extern void __assert_fail(const char *, const char *, unsigned, const char *);
extern void __assert(const char *, const char *, int, const char *);
extern void __assert2(const char *, int, const char *, const char *);
extern void __assert_rtn(const char *, const char *, int, const char *);
extern int __VERIFIER_nondet_int(void);
#define musl_assert(x) ((void)((x) || (__assert_fail(#x, __FILE__, __LINE__, __func__), 0)))
#define bsd_assert(e) ((e) ? (void)0 : __assert(__func__, __FILE__, __LINE__, #e))
#define bionic_assert(e) ((e) ? (void)0 : __assert2(__FILE__, __LINE__, __func__, #e))
#define mac_assert(e) (__builtin_expect(!(e), 0) ? __assert_rtn(__func__, __FILE__, __LINE__, #e) : (void)0)

int main(void) {
  int x = __VERIFIER_nondet_int();
  if (x < 0 || x > 9)
    return 0;
  musl_assert(x <= 9); // want assert:proven
  bsd_assert(x >= 0); // want assert:proven
  bionic_assert(x < 10); // want assert:proven
  mac_assert(x != 10); // want assert:proven
  mac_assert(x < 5); // want assert:unproven
  bionic_assert(x <= 4); // want assert:proven
  return 0;
}
