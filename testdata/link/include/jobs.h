/* A small CMake-like project: two units linked into one program. */
#ifndef JOBS_H
#define JOBS_H
#ifndef NSLOTS
#error "NSLOTS must be defined by the build"
#endif
extern int slots[NSLOTS];
extern int next_slot;
void *worker(void *arg);
void submit(void (*fn)(int), int v);
#endif
