#include "terminal_signals.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

// Everything a handler reads is written before the handlers are installed, so no handler ever sees
// a half-written value.
static volatile sig_atomic_t wakeup_fd = -1;
static int output_fd = -1;
static int input_fd = -1;
static struct termios saved_terminal;
static int terminal_saved = 0;
static char reset_sequence[512];
static size_t reset_length = 0;

static const int crash_signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};
enum { crash_signal_count = sizeof(crash_signals) / sizeof(crash_signals[0]) };
static struct sigaction previous_crash[crash_signal_count];
static struct sigaction previous_winch, previous_int, previous_term, previous_hup;
static int installed = 0;
static int hup_handled = 0;

static void post(char byte) {
    int saved_errno = errno;
    int fd = wakeup_fd;
    if (fd >= 0) {
        ssize_t ignored = write(fd, &byte, 1);
        (void)ignored;
    }
    errno = saved_errno;
}

static void winch_handler(int sig) {
    // curses' handler only records that the size changed; it still has to run.
    if (!(previous_winch.sa_flags & SA_SIGINFO) && previous_winch.sa_handler != SIG_DFL
        && previous_winch.sa_handler != SIG_IGN && previous_winch.sa_handler != NULL) {
        previous_winch.sa_handler(sig);
    }
    post('W');
}

static void quit_handler(int sig) {
    post(sig == SIGINT ? 'I' : sig == SIGHUP ? 'H' : 'T');
}

static int crash_index(int sig) {
    for (int i = 0; i < crash_signal_count; i++) {
        if (crash_signals[i] == sig) return i;
    }
    return -1;
}

// Only async-signal-safe calls: write, tcsetattr, sigaction, raise.
static void crash_handler(int sig, siginfo_t *info, void *context) {
    if (output_fd >= 0 && reset_length > 0) {
        ssize_t ignored = write(output_fd, reset_sequence, reset_length);
        (void)ignored;
    }
    if (terminal_saved) tcsetattr(input_fd, TCSANOW, &saved_terminal);
    int index = crash_index(sig);
    struct sigaction previous;
    if (index >= 0) previous = previous_crash[index];
    else { memset(&previous, 0, sizeof(previous)); previous.sa_handler = SIG_DFL; }
    sigaction(sig, &previous, NULL);
    if (info != NULL && info->si_code > 0) {
        // A fault happens again when the handler returns, now under the previous action (the
        // Swift runtime's backtracer), which reports it and lets it kill the process.
        return;
    }
    // Sent by kill() or abort(): nothing repeats it. Let the previous handler report, then die by
    // the signal (raised while blocked here, it is delivered with the default action on return).
    if (previous.sa_flags & SA_SIGINFO) {
        if (previous.sa_sigaction != NULL) previous.sa_sigaction(sig, info, context);
    } else if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN && previous.sa_handler != NULL) {
        previous.sa_handler(sig);
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

void skycast_signals_save_terminal(int fd) {
    if (tcgetattr(fd, &saved_terminal) == 0) {
        input_fd = fd;
        terminal_saved = 1;
    }
}

void skycast_signals_install(int wakeup, int output, const char *reset, size_t length) {
    if (length > sizeof(reset_sequence)) length = sizeof(reset_sequence);
    memcpy(reset_sequence, reset, length);
    reset_length = length;
    output_fd = output;
    wakeup_fd = wakeup;

    struct sigaction action;
    memset(&action, 0, sizeof(action));
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    action.sa_handler = winch_handler;
    sigaction(SIGWINCH, &action, &previous_winch);
    action.sa_handler = quit_handler;
    sigaction(SIGINT, &action, &previous_int);
    sigaction(SIGTERM, &action, &previous_term);
    sigaction(SIGHUP, NULL, &previous_hup);
    // nohup and `trap '' HUP` ask for hang-ups to be ignored; the loop still notices the lost terminal.
    hup_handled = previous_hup.sa_handler != SIG_IGN;
    if (hup_handled) sigaction(SIGHUP, &action, NULL);

    struct sigaction crash;
    memset(&crash, 0, sizeof(crash));
    sigemptyset(&crash.sa_mask);
    crash.sa_flags = SA_SIGINFO;
    crash.sa_sigaction = crash_handler;
    for (int i = 0; i < crash_signal_count; i++) sigaction(crash_signals[i], &crash, &previous_crash[i]);
    installed = 1;
}

void skycast_signals_uninstall(void) {
    if (!installed) return;
    installed = 0;
    for (int i = 0; i < crash_signal_count; i++) sigaction(crash_signals[i], &previous_crash[i], NULL);
    sigaction(SIGWINCH, &previous_winch, NULL);
    sigaction(SIGINT, &previous_int, NULL);
    sigaction(SIGTERM, &previous_term, NULL);
    if (hup_handled) sigaction(SIGHUP, &previous_hup, NULL);
    wakeup_fd = -1;
}
