/*
 * awp-conformance native spawner: runs provider calls for the kit (src/runner/native/client.ts)
 * without a Node event loop in between. C99 + POSIX (Linux /proc for the leftover look), no
 * dependencies. Started as `spawner KIT_PID`; it reads framed calls on stdin and writes framed
 * results on stdout, any number of calls at once, and never blocks on one child.
 *
 * What it does per call is what runner/process.ts + process-group.ts + leftovers.ts do:
 *   - spawn without a shell (posix_spawn), the child in a session of its own (pgid = pid), its
 *     stdio three AF_UNIX stream socket pairs (as libuv makes them), signals at their defaults;
 *   - write the request to its stdin, then close it; a write error is recorded (errno);
 *   - keep at most the caps of stdout and stderr, count every byte, flag what went past a cap;
 *     past the stdout cap (when asked) the group is ended at once;
 *   - at the deadline: timed out, and the group ended: SIGTERM, SIGKILL after the grace if the
 *     leader still runs (killedByKit when the leader had not exited when the kit acted);
 *   - the leader reaped: SIGKILL the rest of its group; then the leftover sweep: processes that
 *     started at or after the launch, outside its group, not children of this spawner, carrying
 *     the launch marker (AWP_CONFORMANCE_LAUNCH) or holding one of the launch's stdio sockets;
 *     SIGTERM, SIGKILL after the grace, up to 4 rounds; then stdout/stderr get 200 ms to close,
 *     and a second sweep if they are still open after 50 ms.
 * Results wait in a queue while the kit's pipe is full: the spawner blocks on nothing. It runs at
 * most 256 calls at once (MAX_CALLS; the client holds back any more).
 * Closing its stdin (the kit done or gone), SIGTERM or SIGHUP: SIGKILL to every group and every
 * known leftover, then exit. SIGINT is ignored (the kit decides).
 *
 * Framing (all integers little-endian):
 *   frame    = u32 kind, u32 id, u64 body_length, body
 *   string   = u32 length, bytes (no NUL inside)
 *   call (kind 1) body:
 *     u32 timeout_ms, u32 kill_grace_ms, u32 stdout_cap, u32 stderr_cap,
 *     u32 flags (1: end the group past the stdout cap; 2: env replaces the spawner's own),
 *     string path (what to exec), string cwd, string marker (this launch's marker value),
 *     u32 argc, argc strings (argv, argv[0] as the candidate sees it),
 *     u32 envc, envc strings "KEY=VALUE" (added to, or replacing, the spawner's environment),
 *     u64 stdin_length, stdin bytes
 *   result (kind 1) body:
 *     u32 spawn_errno (0: spawned; else nothing below but durations is meaningful),
 *     i32 exit_code (-1: none), i32 signal (0: none),
 *     u32 flags (1 timedOut, 2 stdoutCapped, 4 stderrCapped, 8 killedByKit, 16 proc scan available,
 *                32 stdin finished),
 *     i32 stdin_errno (0: none), f64 duration_ms, u64 stdout_bytes, u64 stderr_bytes,
 *     u64 inode[3] (the child's stdin/stdout/stderr sockets),
 *     u32 dropped, u32 leftovers, each: u32 pid, u8 found_by (1 marker, 2 pipe),
 *       u8 holds (1 stdin, 2 stdout, 4 stderr), u8 ended (0 SIGTERM, 1 SIGKILL, 2 exited, 3 survived),
 *       string comm, string cmdline (raw, at most 4096 bytes),
 *     string stdout (kept), string stderr (kept)
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

#define MAX_CALLS 256
#define MAX_BODY (1u << 30)
#define PIPE_CLOSE_WAIT_MS 200.0
#define PIPE_HOLDER_MS 50.0
#define MAX_ROUNDS 4
#define KILL_WAIT_MS 500.0
#define POLL_MS 10.0
#define PID_ORDER_MS 2000.0
#define PROBE_RANGE 64
#define ENVIRON_CAP (1024 * 1024)
#define FD_CAP 4096
#define CMDLINE_CAP 4096
#define RECORDED 20
#define MAX_FOUND 256
#define MARKER_ENV "AWP_CONFORMANCE_LAUNCH"

enum phase { P_RUN, P_SWEEP, P_PIPES, P_LATE, P_DONE };
enum stage { S_LOOK, S_TERM_WAIT, S_KILL_WAIT };
enum ended { E_SIGTERM = 0, E_SIGKILL = 1, E_EXITED = 2, E_SURVIVED = 3, E_NONE = 9 };

typedef struct {
  int pid;
  unsigned long long start;
  unsigned char found_by, holds, ended, termed, killed;
  char comm[64];
  char *cmdline;
  size_t cmdline_len;
} found_t;

typedef struct {
  unsigned char *buf;
  size_t kept, cap, alloc;
  unsigned long long seen;
  int fd;
} out_t;

typedef struct sweep {
  found_t rec[MAX_FOUND]; /* every process found, by pid@start, in the order found */
  int nrec, dropped_extra;
  found_t *round[MAX_FOUND]; /* this round's */
  int nround, rounds;
  enum stage stage;
  double until, next_poll;
  int done;
} sweep_t;

typedef struct {
  int used;
  uint32_t id;
  pid_t pid;
  int live; /* traced and not swept yet: its group is another launch's */
  enum phase phase;
  double started, ended, deadline, sigkill_at, pipes_until, holder_at;
  uint32_t grace_ms, flags;
  int exited, status, timed_out, killed_by_kit, terminating, stdin_done, stdin_errno, spawn_errno;
  int in_fd;
  unsigned char *in_buf; /* the frame body the stdin bytes are in */
  const unsigned char *in;
  size_t in_len, in_off;
  out_t out, err;
  unsigned long long ino[3];
  char link[3][40];
  char marker[128];
  unsigned long long start_ticks;
  sweep_t *first, *late;
} call_t;

static call_t calls[MAX_CALLS];
static int sigpipe_fds[2];
static pid_t self_pid, parent_pid;
static char kit_prefix[32];
static int proc_ok;
static unsigned char scratch[ENVIRON_CAP + 1];
static unsigned long calls_run;

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1000.0 + t.tv_nsec / 1e6;
}

static unsigned long long boot_ticks(void) {
  struct timespec t;
  clock_gettime(CLOCK_BOOTTIME, &t);
  long long ticks = (long long)t.tv_sec * 100 + t.tv_nsec / 10000000 - 1;
  return ticks < 0 ? 0 : (unsigned long long)ticks;
}

static void die(const char *what) {
  fprintf(stderr, "awp-conformance spawner: %s\n", what);
  exit(70);
}

static void *xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p) die("out of memory");
  return p;
}

/* ---------- /proc readers ---------- */

/* Up to cap bytes of a file into scratch; -1 when it cannot be read. */
static long read_capped(const char *file, size_t cap) {
  int fd = open(file, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  size_t total = 0;
  while (total < cap) {
    ssize_t n = read(fd, scratch + total, cap - total);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    total += (size_t)n;
  }
  close(fd);
  return (long)total;
}

typedef struct { char state; int ppid, pgrp; unsigned long long start; char comm[64]; } stat_t;

static int read_stat(int pid, stat_t *st) {
  char path[64];
  snprintf(path, sizeof path, "/proc/%d/stat", pid);
  long n = read_capped(path, 4096);
  if (n <= 0) return 0;
  scratch[n] = 0;
  char *open_p = strchr((char *)scratch, '('), *close_p = strrchr((char *)scratch, ')');
  if (!open_p || !close_p || close_p < open_p) return 0;
  size_t clen = (size_t)(close_p - open_p - 1);
  if (clen > 63) clen = 63;
  memcpy(st->comm, open_p + 1, clen);
  st->comm[clen] = 0;
  char *p = close_p + 2;
  st->state = *p;
  unsigned long long field[20];
  int i = 0;
  p += 1;
  while (i < 20 && *p) {
    while (*p == ' ') p++;
    if (!*p) break;
    field[i++] = strtoull(p, &p, 10);
  }
  if (i < 19) return 0;
  st->ppid = (int)field[0];
  st->pgrp = (int)field[1];
  st->start = field[18];
  return 1;
}

static int tgid_of(int pid) {
  char path[64];
  snprintf(path, sizeof path, "/proc/%d/status", pid);
  long n = read_capped(path, 4096);
  if (n <= 0) return -1;
  scratch[n] = 0;
  char *t = strstr((char *)scratch, "\nTgid:");
  return t ? atoi(t + 6) : -1;
}

static int last_pid(void) {
  long n = read_capped("/proc/sys/kernel/ns_last_pid", 63);
  if (n <= 0) return -1;
  scratch[n] = 0;
  int v = atoi((char *)scratch);
  return v > 0 ? v : -1;
}

/* ---------- the leftover look (leftovers.ts) ---------- */

static int is_leader_of_other(call_t *c, int pid) {
  for (int i = 0; i < MAX_CALLS; i++)
    if (calls[i].used && calls[i].live && &calls[i] != c && calls[i].pid == pid) return 1;
  return 0;
}

static int ruled_out(call_t *c, stat_t *st, int use_others) {
  if (st->state == 'Z' || st->state == 'X' || st->start < c->start_ticks) return 1;
  if (st->pgrp == c->pid || (use_others && is_leader_of_other(c, st->pgrp))) return 1;
  return self_pid != 1 && st->ppid == self_pid;
}

/* pid's environment into scratch: its length, or -1. */
static long read_environ(int pid) {
  char path[64];
  snprintf(path, sizeof path, "/proc/%d/environ", pid);
  long n = read_capped(path, ENVIRON_CAP);
  return n;
}

static int inspect(call_t *c, int pid, int use_others, stat_t *known, found_t *out) {
  if (pid <= 1 || pid == self_pid || pid == parent_pid || pid == c->pid) return 0;
  stat_t st;
  if (known) st = *known;
  else if (!read_stat(pid, &st)) return 0;
  if (ruled_out(c, &st, use_others)) return 0;
  long n = read_environ(pid);
  int marked = 0, other = 0;
  size_t plen = strlen(MARKER_ENV) + 1, klen = strlen(kit_prefix), mlen = strlen(c->marker);
  for (long i = 0; n > 0 && i < n;) {
    char *entry = (char *)scratch + i;
    size_t len = strnlen(entry, (size_t)(n - i));
    if (len > plen && memcmp(entry, MARKER_ENV "=", plen) == 0) {
      char *v = entry + plen, *end = entry + len;
      while (v <= end) {
        char *colon = memchr(v, ':', (size_t)(end - v));
        char *stop = colon ? colon : end;
        size_t l = (size_t)(stop - v);
        if (l == mlen && memcmp(v, c->marker, mlen) == 0) marked = 1;
        else if (l >= klen && memcmp(v, kit_prefix, klen) == 0) other = 1;
        v = stop + 1;
      }
    }
    i += (long)len + 1;
  }
  if (!marked && other) return 0;
  unsigned char holds = 0;
  char dir[64], link[320], target[64];
  snprintf(dir, sizeof dir, "/proc/%d/fd", pid);
  DIR *d = opendir(dir);
  if (d) {
    struct dirent *e;
    int count = 0;
    while ((e = readdir(d)) && count < FD_CAP) {
      if (e->d_name[0] == '.') continue;
      count++;
      snprintf(link, sizeof link, "%s/%s", dir, e->d_name);
      ssize_t l = readlink(link, target, sizeof target - 1);
      if (l <= 0) continue;
      target[l] = 0;
      for (int s = 0; s < 3; s++)
        if (c->link[s][0] && strcmp(target, c->link[s]) == 0) holds |= (unsigned char)(1 << s);
    }
    closedir(d);
  }
  if (!marked && !holds) return 0;
  memset(out, 0, sizeof *out);
  out->pid = pid;
  out->start = st.start;
  out->found_by = (unsigned char)((marked ? 1 : 0) | (holds ? 2 : 0));
  out->holds = holds;
  out->ended = E_NONE;
  memcpy(out->comm, st.comm, sizeof out->comm);
  char path[64];
  snprintf(path, sizeof path, "/proc/%d/cmdline", pid);
  long cl = read_capped(path, CMDLINE_CAP);
  out->cmdline_len = cl > 0 ? (size_t)cl : 0;
  out->cmdline = xmalloc(out->cmdline_len);
  memcpy(out->cmdline, scratch, out->cmdline_len);
  return 1;
}

static int alive(found_t *f) {
  stat_t st;
  return read_stat(f->pid, &st) && st.state != 'Z' && st.state != 'X' && st.start == f->start;
}

/* 0 sent, 1 gone, 2 refused: after checking the pid is still that very process of the launch. */
static int signal_leftover(call_t *c, found_t *f, int sig) {
  found_t now;
  if (!inspect(c, f->pid, 0, NULL, &now)) return 1;
  free(now.cmdline);
  if (now.start != f->start) return 1;
  if (kill(f->pid, sig) == 0) return 0;
  return errno == ESRCH ? 1 : 2;
}

static int contains(const int *list, int n, int v) {
  for (int i = 0; i < n; i++)
    if (list[i] == v) return 1;
  return 0;
}

static int cmp_int(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

/* One look: the processes of the launch still running outside its group, into sw->round. */
static void find_leftovers(call_t *c, sweep_t *sw) {
  sw->nround = 0;
  int last = now_ms() - c->started < PID_ORDER_MS ? last_pid() : -1;
  if (last == c->pid) return;
  int *pids = NULL, npids = 0, probed = 0;
  if (last > c->pid && last - c->pid <= PROBE_RANGE) {
    npids = last - c->pid;
    pids = xmalloc(sizeof(int) * (size_t)npids);
    for (int i = 0; i < npids; i++) pids[i] = c->pid + 1 + i;
    probed = 1;
  } else {
    int above = last > c->pid ? c->pid : 0, cap = 1024;
    pids = xmalloc(sizeof(int) * (size_t)cap);
    DIR *d = opendir("/proc");
    struct dirent *e;
    while (d && (e = readdir(d))) {
      char *end;
      long v = strtol(e->d_name, &end, 10);
      if (*end || end == e->d_name || v <= above || e->d_name[0] == '0') continue;
      if (npids == cap) pids = realloc(pids, sizeof(int) * (size_t)(cap *= 2));
      if (!pids) die("out of memory");
      pids[npids++] = (int)v;
    }
    if (d) closedir(d);
    qsort(pids, (size_t)npids, sizeof(int), cmp_int);
  }
  int *seen = xmalloc(sizeof(int) * (size_t)(npids + 1) * 2);
  int nseen = 0;
#define SEEN(p) contains(seen, nseen, (p))
  for (int i = 0; i < npids; i++) {
    int pid = pids[i];
    if (SEEN(pid) || is_leader_of_other(c, pid)) continue;
    seen[nseen++] = pid;
    found_t hit;
    if (!probed) {
      if (inspect(c, pid, 1, NULL, &hit)) goto add;
      continue;
    }
    stat_t st;
    if (!read_stat(pid, &st) || ruled_out(c, &st, 1)) continue;
    int tgid = tgid_of(pid);
    if (tgid < 0 || (tgid != pid && (SEEN(tgid) || is_leader_of_other(c, tgid)))) continue;
    seen[nseen++] = tgid;
    if (!inspect(c, tgid, 1, tgid == pid ? &st : NULL, &hit)) continue;
  add:
    if (sw->nround == MAX_FOUND) { free(hit.cmdline); continue; }
    {
      found_t *rec = NULL;
      for (int k = 0; k < sw->nrec; k++)
        if (sw->rec[k].pid == hit.pid && sw->rec[k].start == hit.start) rec = &sw->rec[k];
      if (rec) free(hit.cmdline);
      else if (sw->nrec < MAX_FOUND) { sw->rec[sw->nrec] = hit; rec = &sw->rec[sw->nrec++]; }
      else { free(hit.cmdline); sw->dropped_extra++; continue; }
      rec->termed = rec->killed = 0;
      rec->ended = E_NONE;
      sw->round[sw->nround++] = rec;
    }
  }
#undef SEEN
  free(seen);
  free(pids);
}

/* Advances a sweep as far as it can now; returns 1 when it is done. */
static int step_sweep(call_t *c, sweep_t *sw, double now) {
  for (;;) {
    if (sw->done) return 1;
    if (sw->stage == S_LOOK) {
      if (sw->rounds == MAX_ROUNDS) { sw->done = 1; continue; }
      find_leftovers(c, sw);
      sw->rounds++;
      if (sw->nround == 0) { sw->done = 1; continue; }
      for (int i = 0; i < sw->nround; i++) {
        found_t *f = sw->round[i];
        int sent = signal_leftover(c, f, SIGTERM);
        if (sent == 0) f->termed = 1;
        else f->ended = sent == 1 ? E_EXITED : E_SURVIVED;
      }
      sw->stage = S_TERM_WAIT;
      sw->until = now + c->grace_ms;
      sw->next_poll = now;
    }
    if (sw->stage == S_TERM_WAIT) {
      int any = 0;
      for (int i = 0; i < sw->nround; i++) if (sw->round[i]->termed && alive(sw->round[i])) any = 1;
      if (any && now < sw->until) { sw->next_poll = now + POLL_MS; return 0; }
      for (int i = 0; i < sw->nround; i++) {
        found_t *f = sw->round[i];
        if (!f->termed) continue;
        if (!alive(f)) f->ended = E_SIGTERM;
        else if (signal_leftover(c, f, SIGKILL) == 0) f->killed = 1;
        else f->ended = alive(f) ? E_SURVIVED : E_SIGTERM;
      }
      sw->stage = S_KILL_WAIT;
      sw->until = now + KILL_WAIT_MS;
    }
    if (sw->stage == S_KILL_WAIT) {
      int any = 0;
      for (int i = 0; i < sw->nround; i++) if (sw->round[i]->killed && alive(sw->round[i])) any = 1;
      if (any && now < sw->until) { sw->next_poll = now + POLL_MS; return 0; }
      for (int i = 0; i < sw->nround; i++) {
        found_t *f = sw->round[i];
        if (f->killed) f->ended = alive(f) ? E_SURVIVED : E_SIGKILL;
      }
      sw->stage = S_LOOK;
    }
  }
}

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

static void kill_everything(void);

static void flush_results(void) {
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

static void send_result(call_t *c) {
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

/* ---------- calls ---------- */

static void signal_group(pid_t pgid, int sig) {
  if (pgid > 1) kill(-pgid, sig);
}

static void end_group(call_t *c, double now) {
  if (c->exited) return;
  c->killed_by_kit = 1;
  if (c->terminating) return;
  c->terminating = 1;
  signal_group(c->pid, SIGTERM);
  c->sigkill_at = now + c->grace_ms;
}

static void close_fd(int *fd) {
  if (*fd >= 0) close(*fd);
  *fd = -1;
}

static void free_sweep(sweep_t *sw) {
  if (!sw) return;
  for (int i = 0; i < sw->nrec; i++) free(sw->rec[i].cmdline);
  free(sw);
}

static void finish(call_t *c) {
  send_result(c);
  close_fd(&c->in_fd);
  close_fd(&c->out.fd);
  close_fd(&c->err.fd);
  free(c->out.buf);
  free(c->err.buf);
  free(c->in_buf);
  free_sweep(c->first);
  free_sweep(c->late);
  memset(c, 0, sizeof *c);
  c->in_fd = c->out.fd = c->err.fd = -1;
}

static void drain(call_t *c, out_t *o, double now) {
  static unsigned char chunk[65536];
  for (int reads = 0; reads < 16 && o->fd >= 0; reads++) {
    ssize_t n = read(o->fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN) return;
    if (n <= 0) { close_fd(&o->fd); return; }
    o->seen += (unsigned long long)n;
    size_t room = o->cap - o->kept, take = (size_t)n < room ? (size_t)n : room;
    if (take > 0) {
      if (o->kept + take > o->alloc) {
        size_t want = o->alloc ? o->alloc * 2 : 65536;
        while (want < o->kept + take) want *= 2;
        if (want > o->cap) want = o->cap;
        o->buf = realloc(o->buf, want);
        if (!o->buf) die("out of memory");
        o->alloc = want;
      }
      memcpy(o->buf + o->kept, chunk, take);
      o->kept += take;
    }
    if (o == &c->out && (c->flags & 1) && o->seen > o->cap) end_group(c, now);
  }
}

static void feed(call_t *c) {
  while (c->in_fd >= 0 && c->in_off < c->in_len) {
    ssize_t w = send(c->in_fd, c->in + c->in_off, c->in_len - c->in_off, MSG_NOSIGNAL);
    if (w < 0 && errno == EINTR) continue;
    if (w < 0 && errno == EAGAIN) return;
    if (w < 0) {
      c->stdin_errno = errno;
      close_fd(&c->in_fd);
      return;
    }
    c->in_off += (size_t)w;
  }
  if (c->in_fd >= 0 && c->in_off >= c->in_len) {
    shutdown(c->in_fd, SHUT_WR);
    c->stdin_done = 1;
    close_fd(&c->in_fd);
  }
}

static const unsigned char *rd;
static const unsigned char *rd_end;
static int rd_bad;

static uint32_t get32(void) {
  if (rd_end - rd < 4) { rd_bad = 1; return 0; }
  uint32_t v = rd[0] | rd[1] << 8 | rd[2] << 16 | (uint32_t)rd[3] << 24;
  rd += 4;
  return v;
}

static uint64_t get64(void) {
  uint64_t lo = get32();
  return lo | (uint64_t)get32() << 32;
}

static char *getstr(void) {
  uint32_t n = get32();
  if (rd_bad || (uint64_t)(rd_end - rd) < n) { rd_bad = 1; return NULL; }
  char *s = xmalloc((size_t)n + 1);
  memcpy(s, rd, n);
  s[n] = 0;
  rd += n;
  return s;
}

static void free_strs(char **v, uint32_t n) {
  if (!v) return;
  for (uint32_t i = 0; i < n; i++) free(v[i]);
  free(v);
}

static char **get_strs(uint32_t *count) {
  *count = get32();
  if (rd_bad || *count > 1u << 20) { rd_bad = 1; *count = 0; return NULL; }
  char **v = xmalloc(sizeof(char *) * (*count + 1));
  for (uint32_t i = 0; i < *count; i++) v[i] = getstr();
  v[*count] = NULL;
  if (rd_bad) { for (uint32_t i = 0; i < *count; i++) free(v[i]); free(v); *count = 0; return NULL; }
  return v;
}

/* The child's environment: the spawner's own (or none), with the call's entries put over it. */
static char **child_env(char **add, uint32_t nadd, int replace) {
  size_t base = 0;
  if (!replace) while (environ[base]) base++;
  char **env = xmalloc(sizeof(char *) * (base + nadd + 1));
  size_t n = 0;
  for (size_t i = 0; i < base; i++) {
    const char *eq = strchr(environ[i], '=');
    size_t klen = eq ? (size_t)(eq - environ[i]) : strlen(environ[i]);
    int over = 0;
    for (uint32_t k = 0; k < nadd && !over; k++) over = strncmp(add[k], environ[i], klen) == 0 && add[k][klen] == '=';
    if (!over) env[n++] = environ[i];
  }
  for (uint32_t k = 0; k < nadd; k++) env[n++] = add[k];
  env[n] = NULL;
  return env;
}

static void set_link(call_t *c, int s, int fd) {
  struct stat st;
  if (fstat(fd, &st) == 0) {
    c->ino[s] = (unsigned long long)st.st_ino;
    snprintf(c->link[s], sizeof c->link[s], S_ISSOCK(st.st_mode) ? "socket:[%llu]" : "pipe:[%llu]", c->ino[s]);
  }
}

static void start_call(uint32_t id, unsigned char *body, size_t len) {
  call_t *c = NULL;
  for (int i = 0; i < MAX_CALLS && !c; i++) if (!calls[i].used) c = &calls[i];
  if (!c) die("too many calls at once");
  memset(c, 0, sizeof *c);
  c->used = 1;
  c->id = id;
  c->in_fd = c->out.fd = c->err.fd = -1;
  c->in_buf = body;
  rd = body;
  rd_end = body + len;
  rd_bad = 0;
  uint32_t timeout = get32();
  c->grace_ms = get32();
  c->out.cap = get32();
  c->err.cap = get32();
  c->flags = get32();
  char *path = getstr(), *cwd = getstr(), *marker = getstr();
  uint32_t argc = 0, envc = 0;
  char **argv = get_strs(&argc);
  char **add = get_strs(&envc);
  uint64_t in_len = get64();
  if (rd_bad || (uint64_t)(rd_end - rd) < in_len || argc == 0 || !marker || strlen(marker) >= sizeof c->marker) die("a malformed call frame");
  c->in = rd;
  c->in_len = (size_t)in_len;
  memcpy(c->marker, marker, strlen(marker) + 1);

  int sv[3][2];
  for (int s = 0; s < 3; s++)
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv[s]) != 0) die("socketpair failed");
  for (int s = 0; s < 3; s++) set_link(c, s, sv[s][1]);
  posix_spawn_file_actions_t fa;
  posix_spawnattr_t at;
  posix_spawn_file_actions_init(&fa);
  for (int s = 0; s < 3; s++) posix_spawn_file_actions_adddup2(&fa, sv[s][1], s);
  if (cwd && *cwd) posix_spawn_file_actions_addchdir_np(&fa, cwd);
  posix_spawnattr_init(&at);
  sigset_t all, none;
  sigfillset(&all);
  sigemptyset(&none);
  posix_spawnattr_setsigdefault(&at, &all);
  posix_spawnattr_setsigmask(&at, &none);
  posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
  char **env = child_env(add, envc, (c->flags & 2) != 0);
  c->start_ticks = proc_ok ? boot_ticks() : 0;
  c->started = now_ms();
  pid_t pid;
  int rc = posix_spawn(&pid, path, &fa, &at, argv, env);
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&at);
  free(env);
  free(path);
  free(cwd);
  free(marker);
  free_strs(argv, argc);
  free_strs(add, envc);
  for (int s = 0; s < 3; s++) close(sv[s][1]);
  if (rc != 0) {
    for (int s = 0; s < 3; s++) close(sv[s][0]);
    c->spawn_errno = rc;
    finish(c);
    return;
  }
  c->pid = pid;
  c->live = 1;
  calls_run++;
  c->in_fd = sv[0][0];
  c->out.fd = sv[1][0];
  c->err.fd = sv[2][0];
  for (int s = 0; s < 3; s++) fcntl(sv[s][0], F_SETFL, O_NONBLOCK);
  c->deadline = c->started + timeout;
  c->phase = P_RUN;
  if (c->in_len == 0) {
    shutdown(c->in_fd, SHUT_WR);
    c->stdin_done = 1;
    close_fd(&c->in_fd);
  } else {
    feed(c);
  }
}

/* Moves a call on through its phases as far as it can now. */
static void advance(call_t *c, double now) {
  if (c->phase == P_RUN) {
    if (!c->exited && now >= c->deadline && !c->timed_out) {
      c->timed_out = 1;
      end_group(c, now);
    }
    if (!c->exited && c->terminating && now >= c->sigkill_at) {
      signal_group(c->pid, SIGKILL);
      c->sigkill_at = 1e300;
    }
    if (!c->exited) return;
    signal_group(c->pid, SIGKILL);
    c->phase = P_SWEEP;
    c->first = calloc(1, sizeof(sweep_t));
    if (!c->first) die("out of memory");
    if (!proc_ok) c->first->done = 1;
  }
  if (c->phase == P_SWEEP) {
    if (!step_sweep(c, c->first, now)) return;
    c->live = 0;
    c->phase = P_PIPES;
    c->pipes_until = now + PIPE_CLOSE_WAIT_MS;
    c->holder_at = now + PIPE_HOLDER_MS;
  }
  if (c->phase == P_PIPES) {
    int open = c->out.fd >= 0 || c->err.fd >= 0;
    if (open && now >= c->holder_at && proc_ok && !c->late) {
      c->late = calloc(1, sizeof(sweep_t));
      if (!c->late) die("out of memory");
      c->phase = P_LATE;
    } else if (open && now < c->pipes_until) {
      return;
    } else {
      c->phase = P_DONE;
    }
  }
  if (c->phase == P_LATE) {
    if (now >= c->pipes_until) { close_fd(&c->out.fd); close_fd(&c->err.fd); }
    if (!step_sweep(c, c->late, now)) return;
    c->phase = P_PIPES;
    advance(c, now);
    return;
  }
  if (c->phase == P_DONE) finish(c);
}

static double next_wake(call_t *c) {
  switch (c->phase) {
  case P_RUN: return c->exited ? 0 : (c->terminating ? (c->sigkill_at < c->deadline || c->timed_out ? c->sigkill_at : c->deadline) : c->deadline);
  case P_SWEEP: return c->first->next_poll;
  case P_LATE: return c->late->next_poll < c->pipes_until ? c->late->next_poll : c->pipes_until;
  case P_PIPES: return c->late || !proc_ok ? c->pipes_until : c->holder_at;
  default: return 0;
  }
}

static void reap(void) {
  for (;;) {
    int status;
    pid_t pid = waitpid(-1, &status, WNOHANG);
    if (pid <= 0) return;
    for (int i = 0; i < MAX_CALLS; i++) {
      call_t *c = &calls[i];
      if (c->used && c->pid == pid && !c->exited) {
        c->exited = 1;
        c->status = status;
        c->ended = now_ms();
      }
    }
  }
}

/* With AWP_CONFORMANCE_SPAWNER_STATS set (a bench), one line on stderr at the end: its own CPU and memory. */
static void say_stats(void) {
  if (!getenv("AWP_CONFORMANCE_SPAWNER_STATS")) return;
  struct rusage own, kids;
  getrusage(RUSAGE_SELF, &own);
  getrusage(RUSAGE_CHILDREN, &kids);
  fprintf(stderr, "awp-conformance spawner: %lu calls; own cpu %.3f s (user %.3f, sys %.3f), peak rss %ld KiB; candidates cpu %.3f s\n", calls_run,
          own.ru_utime.tv_sec + own.ru_utime.tv_usec / 1e6 + own.ru_stime.tv_sec + own.ru_stime.tv_usec / 1e6,
          own.ru_utime.tv_sec + own.ru_utime.tv_usec / 1e6, own.ru_stime.tv_sec + own.ru_stime.tv_usec / 1e6, own.ru_maxrss,
          kids.ru_utime.tv_sec + kids.ru_utime.tv_usec / 1e6 + kids.ru_stime.tv_sec + kids.ru_stime.tv_usec / 1e6);
}

static void kill_everything(void) {
  for (int i = 0; i < MAX_CALLS; i++) {
    call_t *c = &calls[i];
    if (!c->used || c->pid <= 0) continue;
    signal_group(c->pid, SIGKILL);
    if (!proc_ok || !c->live) continue;
    sweep_t *sw = calloc(1, sizeof(sweep_t));
    if (!sw) continue;
    find_leftovers(c, sw);
    for (int k = 0; k < sw->nround; k++) signal_leftover(c, sw->round[k], SIGKILL);
    free_sweep(sw);
  }
}

static void on_chld(int sig) {
  (void)sig;
  int saved = errno;
  ssize_t ignored = write(sigpipe_fds[1], "c", 1);
  (void)ignored;
  errno = saved;
}

static volatile sig_atomic_t stop_code;
static void on_stop(int sig) {
  stop_code = sig == SIGHUP ? 129 : 143;
  on_chld(sig);
}

int main(int argc, char **argv) {
  if (argc < 2) die("usage: spawner KIT_PID");
  snprintf(kit_prefix, sizeof kit_prefix, "%s-", argv[1]);
  self_pid = getpid();
  parent_pid = getppid();
  proc_ok = access("/proc/self/stat", R_OK) == 0 && access("/proc/self/environ", R_OK) == 0;
  for (int i = 0; i < MAX_CALLS; i++) calls[i].in_fd = calls[i].out.fd = calls[i].err.fd = -1;
  if (pipe2(sigpipe_fds, O_NONBLOCK | O_CLOEXEC) != 0) die("pipe failed");
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_chld;
  sa.sa_flags = SA_RESTART | SA_NOCLDSTOP;
  sigaction(SIGCHLD, &sa, NULL);
  sa.sa_handler = on_stop;
  sigaction(SIGTERM, &sa, NULL);
  sigaction(SIGHUP, &sa, NULL);
  signal(SIGINT, SIG_IGN);
  signal(SIGPIPE, SIG_IGN);
  fcntl(0, F_SETFD, FD_CLOEXEC);
  fcntl(1, F_SETFD, FD_CLOEXEC);
  fcntl(0, F_SETFL, O_NONBLOCK);
  fcntl(1, F_SETFL, O_NONBLOCK);

  unsigned char head[16];
  size_t head_got = 0, body_got = 0, body_len = 0;
  unsigned char *body = NULL;
  uint32_t kind = 0, id = 0;
  int input_open = 1;
  struct pollfd *fds = xmalloc(sizeof(struct pollfd) * (3 + 3 * MAX_CALLS));
  call_t **owner = xmalloc(sizeof(call_t *) * (3 + 3 * MAX_CALLS));

  for (;;) {
    if (stop_code) { kill_everything(); return stop_code; }
    double now = now_ms(), wake = 1e300;
    int active = 0;
    for (int i = 0; i < MAX_CALLS; i++) {
      if (!calls[i].used) continue;
      advance(&calls[i], now);
      if (!calls[i].used) continue;
      active++;
      double w = next_wake(&calls[i]);
      if (w < wake) wake = w;
    }
    if (!input_open) { kill_everything(); say_stats(); return 0; }
    int nfds = 0;
    fds[nfds] = (struct pollfd){sigpipe_fds[0], POLLIN, 0};
    owner[nfds++] = NULL;
    fds[nfds] = (struct pollfd){0, POLLIN, 0};
    owner[nfds++] = NULL;
    fds[nfds] = (struct pollfd){out_head ? 1 : -1, POLLOUT, 0};
    owner[nfds++] = NULL;
    for (int i = 0; i < MAX_CALLS; i++) {
      call_t *c = &calls[i];
      if (!c->used) continue;
      if (c->in_fd >= 0) { fds[nfds] = (struct pollfd){c->in_fd, POLLOUT, 0}; owner[nfds++] = c; }
      if (c->out.fd >= 0) { fds[nfds] = (struct pollfd){c->out.fd, POLLIN, 0}; owner[nfds++] = c; }
      if (c->err.fd >= 0) { fds[nfds] = (struct pollfd){c->err.fd, POLLIN, 0}; owner[nfds++] = c; }
    }
    int timeout = -1;
    if (wake < 1e299) {
      double left = wake - now;
      timeout = left <= 0 ? 0 : (int)(left + 0.999);
    }
    (void)active;
    int ready = poll(fds, (nfds_t)nfds, timeout);
    if (ready < 0 && errno != EINTR) die("poll failed");
    now = now_ms();
    if (ready <= 0) continue;
    if (fds[0].revents) {
      char b[256];
      while (read(sigpipe_fds[0], b, sizeof b) > 0) {}
      reap();
    }
    if (fds[2].revents) flush_results();
    for (int k = 3; k < nfds; k++) {
      call_t *c = owner[k];
      if (!fds[k].revents || !c->used) continue;
      if (fds[k].fd == c->in_fd) feed(c);
      else if (fds[k].fd == c->out.fd) drain(c, &c->out, now);
      else if (fds[k].fd == c->err.fd) drain(c, &c->err, now);
    }
    if (fds[1].revents) {
      for (int reads = 0; reads < 64; reads++) {
        ssize_t n;
        if (head_got < 16) {
          n = read(0, head + head_got, 16 - head_got);
          if (n > 0) {
            head_got += (size_t)n;
            if (head_got == 16) {
              kind = head[0] | head[1] << 8 | head[2] << 16 | (uint32_t)head[3] << 24;
              id = head[4] | head[5] << 8 | head[6] << 16 | (uint32_t)head[7] << 24;
              uint64_t l = 0;
              for (int b = 7; b >= 0; b--) l = l << 8 | head[8 + b];
              if (l > MAX_BODY) die("a frame too long");
              body_len = (size_t)l;
              body = xmalloc(body_len);
              body_got = 0;
            }
          }
        } else {
          n = body_len > body_got ? read(0, body + body_got, body_len - body_got) : 0;
          if (n > 0) body_got += (size_t)n;
          if (body_len == body_got) n = 1;
        }
        if (n == 0) { input_open = 0; break; }
        if (n < 0) {
          if (errno == EINTR) continue;
          if (errno != EAGAIN) input_open = 0;
          break;
        }
        if (head_got == 16 && body_got == body_len) {
          if (kind != 1) die("an unknown frame");
          start_call(id, body, body_len);
          body = NULL;
          head_got = 0;
        }
      }
    }
  }
}
