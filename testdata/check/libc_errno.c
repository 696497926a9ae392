// chorus: --checks bounds
// errno is (*__errno_location()), storage of the C library (cfg/libc.go):
// the model returns a pointer to unknown memory, so reading errno gives
// any int even right after the program wrote it (chmod may have set it to
// ENOENT), while the address-taken global g keeps its value across the
// calls (an unknown external would havoc it). Also the other models of
// pigz's system calls: chmod, fsync, localtime, zlibVersion.
extern int *__errno_location(void);
extern int chmod(const char *, unsigned);
extern int fsync(int);
extern const char *zlibVersion(void);
struct tm;
extern struct tm *localtime(const long *);
int g;
int *pg = &g;
int a[4];
int main(void) {
  long t = 0;
  g = 1;
  *__errno_location() = 0;
  chmod("f", 0644);
  fsync(1);
  localtime(&t);
  const char *v = zlibVersion();
  a[g] = 0; // want bounds:proven
  a[*__errno_location() + 2] = 0; // want bounds:unproven
  return v[0];
}
