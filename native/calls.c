#define _GNU_SOURCE
#include "spawner.h"

/* One call, from its frame to its result: spawn, feed, drain, deadline, kill, reap, sweep. */

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

void drain(call_t *c, out_t *o, double now) {
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

void feed(call_t *c) {
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

void start_call(uint32_t id, unsigned char *body, size_t len) {
  call_t *c = NULL;
  for (int i = 0; i < MAX_CALLS && !c; i++) if (!calls[i].used) c = &calls[i];
  if (!c) die("too many calls at once");
  memset(c, 0, sizeof *c);
  c->used = 1;
  c->id = id;
  c->in_fd = c->out.fd = c->err.fd = -1;
  c->in_buf = body;
  frame_begin(body, len);
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
  if (frame_bad() || (uint64_t)frame_left() < in_len || argc == 0 || !marker || strlen(marker) >= sizeof c->marker) die("a malformed call frame");
  c->in = frame_at();
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
  /* Writes what stdin takes now; with no request bytes it only closes stdin. */
  feed(c);
}

/* Moves a call on through its phases as far as it can now. */
void advance(call_t *c, double now) {
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

double next_wake(call_t *c) {
  switch (c->phase) {
  case P_RUN: return c->exited ? 0 : (c->terminating ? (c->sigkill_at < c->deadline || c->timed_out ? c->sigkill_at : c->deadline) : c->deadline);
  case P_SWEEP: return c->first->next_poll;
  case P_LATE: return c->late->next_poll < c->pipes_until ? c->late->next_poll : c->pipes_until;
  case P_PIPES: return c->late || !proc_ok ? c->pipes_until : c->holder_at;
  default: return 0;
  }
}

void reap(void) {
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


void kill_everything(void) {
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
