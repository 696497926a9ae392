package cfg

import (
	"strings"
	"testing"
)

// lower builds src (ILP32 unless told) and runs Sanity.
func lower(t *testing.T, src string) *Program {
	t.Helper()
	return lowerModel(t, src, ILP32)
}

func lowerModel(t *testing.T, src string, m DataModel) *Program {
	t.Helper()
	p, err := Build("test.c", []byte(src), Options{DataModel: m})
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	if err := Sanity(p); err != nil {
		var sb strings.Builder
		p.Write(&sb)
		t.Fatalf("Sanity: %v\n%s", err, sb.String())
	}
	return p
}

func dump(p *Program) string {
	var sb strings.Builder
	p.Write(&sb)
	return sb.String()
}

func TestFirst(t *testing.T) {
	p := lower(t, `
#include <pthread.h>
#include <assert.h>
int g;
pthread_mutex_t m;
void *thr(void *arg) {
	pthread_mutex_lock(&m);
	g = g + 1;
	pthread_mutex_unlock(&m);
	return 0;
}
int main() {
	pthread_t t;
	int i = 0;
	pthread_create(&t, 0, thr, 0);
	while (i < 10) { if (i % 2) i++; else i += 3; }
	pthread_join(t, 0);
	assert(g >= 0);
	return 0;
}
`)
	t.Log(dump(p))
}
