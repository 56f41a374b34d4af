#define _GNU_SOURCE
#include "spawner.h"

/* The look for a launch's leftovers, as runner/leftovers.ts does it; /proc readers. */
static unsigned char scratch[ENVIRON_CAP + 1];

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
int signal_leftover(call_t *c, found_t *f, int sig) {
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
void find_leftovers(call_t *c, sweep_t *sw) {
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

/* Whether a round's wait goes on: a process it signalled (SIGTERM, or SIGKILL when `killed`) still runs and the wait has time left; then the next look is due in POLL_MS. */
static int still_waiting(sweep_t *sw, int killed, double now) {
  if (now >= sw->until) return 0;
  for (int i = 0; i < sw->nround; i++) {
    found_t *f = sw->round[i];
    if ((killed ? f->killed : f->termed) && alive(f)) {
      sw->next_poll = now + POLL_MS;
      return 1;
    }
  }
  return 0;
}

/* Advances a sweep as far as it can now; returns 1 when it is done. */
int step_sweep(call_t *c, sweep_t *sw, double now) {
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
      if (still_waiting(sw, 0, now)) return 0;
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
      if (still_waiting(sw, 1, now)) return 0;
      for (int i = 0; i < sw->nround; i++) {
        found_t *f = sw->round[i];
        if (f->killed) f->ended = alive(f) ? E_SURVIVED : E_SIGKILL;
      }
      sw->stage = S_LOOK;
    }
  }
}


void free_sweep(sweep_t *sw) {
  if (!sw) return;
  for (int i = 0; i < sw->nrec; i++) free(sw->rec[i].cmdline);
  free(sw);
}

