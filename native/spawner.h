/* The native spawner's parts (spawner.c documents what it does and its framing). */
#ifndef AWP_SPAWNER_H
#define AWP_SPAWNER_H
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

/* spawner.c */
extern call_t calls[MAX_CALLS];
extern pid_t self_pid, parent_pid;
extern char kit_prefix[32];
extern int proc_ok;
extern unsigned long calls_run;
double now_ms(void);
unsigned long long boot_ticks(void);
void die(const char *what);
void *xmalloc(size_t n);

/* leftovers.c: the look for processes that escaped a launch's group (leftovers.ts) */
void find_leftovers(call_t *c, sweep_t *sw);
int signal_leftover(call_t *c, found_t *f, int sig);
int step_sweep(call_t *c, sweep_t *sw, double now);
void free_sweep(sweep_t *sw);

/* frames.c: reading calls, writing results */
void frame_begin(const unsigned char *body, size_t len);
int frame_bad(void);
size_t frame_left(void);
const unsigned char *frame_at(void);
uint32_t get32(void);
uint64_t get64(void);
char *getstr(void);
char **get_strs(uint32_t *count);
void free_strs(char **v, uint32_t n);
void send_result(call_t *c);
void flush_results(void);
int results_waiting(void);

/* calls.c: one call from its frame to its result */
void start_call(uint32_t id, unsigned char *body, size_t len);
void advance(call_t *c, double now);
double next_wake(call_t *c);
void reap(void);
void drain(call_t *c, out_t *o, double now);
void feed(call_t *c);
void kill_everything(void);

#endif
