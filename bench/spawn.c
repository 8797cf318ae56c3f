/*
 * spawn: runs one command and reports its wall time and peak RSS.
 *
 *   spawn STDIN STDOUT STDERR TIMEOUT_MS -- PROGRAM ARGS...
 *
 * STDIN/STDOUT/STDERR are file paths ("/dev/null" to discard). TIMEOUT_MS 0
 * means no limit; on timeout the command's process group is killed.
 * Prints one line on its own stdout:
 *   <wall ns> <peak RSS KiB> <exit status or -signal> <1 if timed out, else 0> <CPU ns (user + system)>
 *
 * Why a separate program: a child's ru_maxrss starts at the high-water mark
 * of the process it was forked from (Linux copies it at exec), so timing from
 * the Python harness would report the harness's own memory as a floor. This
 * launcher is a few hundred KiB, so the figure it reports is the command's.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t timed_out = 0;
static void on_alarm(int sig) { (void)sig; timed_out = 1; }

static int redirect(const char *path, int fd, int flags) {
    int f = open(path, flags, 0600);
    if (f < 0) return -1;
    if (dup2(f, fd) < 0) return -1;
    close(f);
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 7 || strcmp(argv[5], "--") != 0) {
        fprintf(stderr, "usage: spawn STDIN STDOUT STDERR TIMEOUT_MS -- PROGRAM ARGS...\n");
        return 2;
    }
    long timeout_ms = atol(argv[4]);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_alarm; /* no SA_RESTART: wait4 returns EINTR */
    sigaction(SIGALRM, &sa, NULL);

    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pid_t pid = fork();
    if (pid < 0) { perror("spawn: fork"); return 2; }
    if (pid == 0) {
        setpgid(0, 0);
        if (redirect(argv[1], 0, O_RDONLY) || redirect(argv[2], 1, O_WRONLY | O_CREAT | O_TRUNC) ||
            redirect(argv[3], 2, O_WRONLY | O_CREAT | O_TRUNC)) {
            perror("spawn: redirect");
            _exit(127);
        }
        execvp(argv[6], argv + 6);
        perror("spawn: exec");
        _exit(127);
    }
    if (timeout_ms > 0) {
        struct itimerval it;
        memset(&it, 0, sizeof it);
        it.it_value.tv_sec = timeout_ms / 1000;
        it.it_value.tv_usec = (timeout_ms % 1000) * 1000;
        setitimer(ITIMER_REAL, &it, NULL);
    }
    int status = 0;
    struct rusage ru;
    for (;;) {
        pid_t r = wait4(pid, &status, 0, &ru);
        if (r == pid) break;
        if (r < 0 && errno == EINTR && timed_out) {
            kill(-pid, SIGKILL);
            kill(pid, SIGKILL);
            continue;
        }
        if (r < 0 && errno != EINTR) { perror("spawn: wait4"); return 2; }
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (timed_out) kill(-pid, SIGKILL); /* leftovers of the group */
    long long ns = (long long)(t1.tv_sec - t0.tv_sec) * 1000000000LL + (t1.tv_nsec - t0.tv_nsec);
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
    long long cpu = (long long)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000LL +
                    (long long)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000LL;
    printf("%lld %ld %d %d %lld\n", ns, ru.ru_maxrss, code, timed_out ? 1 : 0, cpu);
    return 0;
}
