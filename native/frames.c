#define _GNU_SOURCE
#include "spawner.h"

/* Frames: calls read from the kit, results written back (spawner.c documents the framing). */

static const unsigned char *rd;
static const unsigned char *rd_end;
static int rd_bad;

uint32_t get32(void) {
  if (rd_end - rd < 4) { rd_bad = 1; return 0; }
  uint32_t v = rd[0] | rd[1] << 8 | rd[2] << 16 | (uint32_t)rd[3] << 24;
  rd += 4;
  return v;
}

uint64_t get64(void) {
  uint64_t lo = get32();
  return lo | (uint64_t)get32() << 32;
}

char *getstr(void) {
  uint32_t n = get32();
  if (rd_bad || (uint64_t)(rd_end - rd) < n) { rd_bad = 1; return NULL; }
  char *s = xmalloc((size_t)n + 1);
  memcpy(s, rd, n);
  s[n] = 0;
  rd += n;
  return s;
}

void free_strs(char **v, uint32_t n) {
  if (!v) return;
  for (uint32_t i = 0; i < n; i++) free(v[i]);
  free(v);
}

char **get_strs(uint32_t *count) {
  *count = get32();
  if (rd_bad || *count > 1u << 20) { rd_bad = 1; *count = 0; return NULL; }
  char **v = xmalloc(sizeof(char *) * (*count + 1));
  for (uint32_t i = 0; i < *count; i++) v[i] = getstr();
  v[*count] = NULL;
  if (rd_bad) { for (uint32_t i = 0; i < *count; i++) free(v[i]); free(v); *count = 0; return NULL; }
  return v;
}

void frame_begin(const unsigned char *body, size_t len) {
  rd = body;
  rd_end = body + len;
  rd_bad = 0;
}

int frame_bad(void) { return rd_bad; }
size_t frame_left(void) { return (size_t)(rd_end - rd); }
const unsigned char *frame_at(void) { return rd; }

/* ---------- framing ---------- */

static void put(unsigned char **p, const void *v, size_t n) { memcpy(*p, v, n); *p += n; }
static void put32(unsigned char **p, uint32_t v) { unsigned char b[4] = {v, v >> 8, v >> 16, v >> 24}; put(p, b, 4); }
static void put64(unsigned char **p, uint64_t v) { put32(p, (uint32_t)v); put32(p, (uint32_t)(v >> 32)); }
static void putstr(unsigned char **p, const void *s, size_t n) { put32(p, (uint32_t)n); put(p, s, n); }

/*
 * Results wait here until the kit's pipe takes them (stdout is non-blocking): a kit busy elsewhere
 * never stops the spawner from enforcing the deadlines of the calls still running. At most one
 * result per call, so the queue is bounded as the calls are.
 */
typedef struct outq { unsigned char *buf; size_t len, off; struct outq *next; } outq_t;
static outq_t *out_head, *out_tail;

void flush_results(void) {
  while (out_head) {
    outq_t *q = out_head;
    ssize_t w = write(1, q->buf + q->off, q->len - q->off);
    if (w < 0 && errno == EINTR) continue;
    if (w < 0 && errno == EAGAIN) return;
    if (w < 0) { kill_everything(); exit(0); } /* the kit is gone */
    q->off += (size_t)w;
    if (q->off < q->len) continue;
    out_head = q->next;
    if (!out_head) out_tail = NULL;
    free(q->buf);
    free(q);
  }
}

static void queue_result(unsigned char *buf, size_t len) {
  outq_t *q = xmalloc(sizeof *q);
  q->buf = buf;
  q->len = len;
  q->off = 0;
  q->next = NULL;
  if (out_tail) out_tail->next = q;
  else out_head = q;
  out_tail = q;
  flush_results();
}

static void merged(call_t *c, found_t **list, int *count, int *dropped) {
  *count = 0;
  *dropped = 0;
  sweep_t *parts[2] = {c->first, c->late};
  for (int s = 0; s < 2; s++) {
    sweep_t *sw = parts[s];
    if (!sw) continue;
    int n = sw->nrec;
    for (int i = 0; i < n; i++) {
      if (i < RECORDED && *count < RECORDED) list[(*count)++] = &sw->rec[i];
      else *dropped += 1;
    }
    *dropped += sw->dropped_extra;
  }
}

void send_result(call_t *c) {
  found_t *list[RECORDED];
  int count = 0, dropped = 0;
  merged(c, list, &count, &dropped);
  size_t size = 128 + c->out.kept + c->err.kept;
  for (int i = 0; i < count; i++) size += 32 + strlen(list[i]->comm) + list[i]->cmdline_len;
  unsigned char *frame = xmalloc(size), *p = frame + 16;
  int code = -1, sig = 0;
  if (c->exited && WIFEXITED(c->status)) code = WEXITSTATUS(c->status);
  if (c->exited && WIFSIGNALED(c->status)) sig = WTERMSIG(c->status);
  uint32_t flags = (c->timed_out ? 1 : 0) | (c->out.seen > c->out.cap ? 2 : 0) | (c->err.seen > c->err.cap ? 4 : 0) |
                   (c->killed_by_kit ? 8 : 0) | (proc_ok ? 16 : 0) | (c->stdin_done ? 32 : 0);
  double duration = (c->spawn_errno ? now_ms() : c->ended) - c->started;
  uint64_t dbits;
  memcpy(&dbits, &duration, 8);
  put32(&p, (uint32_t)c->spawn_errno);
  put32(&p, (uint32_t)code);
  put32(&p, (uint32_t)sig);
  put32(&p, flags);
  put32(&p, (uint32_t)c->stdin_errno);
  put64(&p, dbits);
  put64(&p, c->out.seen);
  put64(&p, c->err.seen);
  for (int s = 0; s < 3; s++) put64(&p, c->ino[s]);
  put32(&p, (uint32_t)dropped);
  put32(&p, (uint32_t)count);
  for (int i = 0; i < count; i++) {
    found_t *f = list[i];
    put32(&p, (uint32_t)f->pid);
    unsigned char b[3] = {f->found_by, f->holds, f->ended == E_NONE ? E_SURVIVED : f->ended};
    put(&p, b, 3);
    putstr(&p, f->comm, strlen(f->comm));
    putstr(&p, f->cmdline, f->cmdline_len);
  }
  putstr(&p, c->out.buf, c->out.kept);
  putstr(&p, c->err.buf, c->err.kept);
  unsigned char *h = frame;
  put32(&h, 1);
  put32(&h, c->id);
  put64(&h, (uint64_t)(p - frame - 16));
  queue_result(frame, (size_t)(p - frame));
}


int results_waiting(void) { return out_head != NULL; }
