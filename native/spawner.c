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
 * Its parts: calls.c (a call, start to result), leftovers.c (the /proc look), frames.c (the framing).
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
#include "spawner.h"

call_t calls[MAX_CALLS];
static int sigpipe_fds[2];
pid_t self_pid, parent_pid;
char kit_prefix[32];
int proc_ok;
unsigned long calls_run;

double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1000.0 + t.tv_nsec / 1e6;
}

unsigned long long boot_ticks(void) {
  struct timespec t;
  clock_gettime(CLOCK_BOOTTIME, &t);
  long long ticks = (long long)t.tv_sec * 100 + t.tv_nsec / 10000000 - 1;
  return ticks < 0 ? 0 : (unsigned long long)ticks;
}

void die(const char *what) {
  fprintf(stderr, "awp-conformance spawner: %s\n", what);
  exit(70);
}

void *xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p) die("out of memory");
  return p;
}


static double seconds(struct timeval t) { return t.tv_sec + t.tv_usec / 1e6; }

/* With AWP_CONFORMANCE_SPAWNER_STATS set (a bench), one line on stderr at the end: its own CPU and memory. */
static void say_stats(void) {
  if (!getenv("AWP_CONFORMANCE_SPAWNER_STATS")) return;
  struct rusage own, kids;
  getrusage(RUSAGE_SELF, &own);
  getrusage(RUSAGE_CHILDREN, &kids);
  double user = seconds(own.ru_utime), sys = seconds(own.ru_stime);
  fprintf(stderr, "awp-conformance spawner: %lu calls; own cpu %.3f s (user %.3f, sys %.3f), peak rss %ld KiB; candidates cpu %.3f s\n", calls_run,
          user + sys, user, sys, own.ru_maxrss, seconds(kids.ru_utime) + seconds(kids.ru_stime));
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
    for (int i = 0; i < MAX_CALLS; i++) {
      if (!calls[i].used) continue;
      advance(&calls[i], now);
      if (!calls[i].used) continue;
      double w = next_wake(&calls[i]);
      if (w < wake) wake = w;
    }
    if (!input_open) { kill_everything(); say_stats(); return 0; }
    int nfds = 0;
    fds[nfds] = (struct pollfd){sigpipe_fds[0], POLLIN, 0};
    owner[nfds++] = NULL;
    fds[nfds] = (struct pollfd){0, POLLIN, 0};
    owner[nfds++] = NULL;
    fds[nfds] = (struct pollfd){results_waiting() ? 1 : -1, POLLOUT, 0};
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
              frame_begin(head, 16);
              kind = get32();
              id = get32();
              uint64_t l = get64();
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

