#ifndef SKYCAST_CNCURSESW_SHIM_H
#define SKYCAST_CNCURSESW_SHIM_H

// SwiftPM drops pkg-config's -D_XOPEN_SOURCE; without this the wide-character API is invisible.
#define NCURSES_WIDECHAR 1
#define _XOPEN_SOURCE_EXTENDED 1

#include <locale.h>
#include <ncursesw/curses.h>
#include <pty.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <fcntl.h>

// Swift 6 rejects ncurses' mutable globals and cannot import its macros: expose them as functions.
static inline WINDOW *cn_stdscr(void) { return stdscr; }
static inline int cn_colors(void) { return COLORS; }
static inline int cn_color_pairs(void) { return COLOR_PAIRS; }
static inline int cn_lines(void) { return LINES; }
static inline int cn_cols(void) { return COLS; }

static const attr_t cn_A_NORMAL = A_NORMAL;
static const attr_t cn_A_BOLD = A_BOLD;
static const attr_t cn_A_DIM = A_DIM;
static const attr_t cn_A_REVERSE = A_REVERSE;
static const attr_t cn_A_UNDERLINE = A_UNDERLINE;
static const int cn_KEY_RESIZE = KEY_RESIZE;
static const int cn_KEY_MOUSE = KEY_MOUSE;
static const int cn_ERR = ERR;
static const int cn_KEY_CODE_YES = KEY_CODE_YES;

static const mmask_t cn_BUTTON4_PRESSED = BUTTON4_PRESSED;
static const mmask_t cn_BUTTON5_PRESSED = BUTTON5_PRESSED;

/// -1 for a wheel step up, 1 for down, 0 for anything else.
static inline int cn_mouse_wheel(void) {
    MEVENT event;
    if (getmouse(&event) != OK) return 0;
    if (event.bstate & BUTTON4_PRESSED) return -1;
    if (event.bstate & BUTTON5_PRESSED) return 1;
    return 0;
}

static inline int cn_set_attr(attr_t attrs, short pair) { return wattr_set(stdscr, attrs, pair, NULL); }
static inline int cn_move(int y, int x) { return wmove(stdscr, y, x); }
static inline int cn_addnstr(const char *s, int n) { return waddnstr(stdscr, s, n); }
static inline int cn_get_wch(wint_t *ch) { return wget_wch(stdscr, ch); }
static inline int cn_getmaxy(void) { return getmaxy(stdscr); }
static inline int cn_getmaxx(void) { return getmaxx(stdscr); }
static inline int cn_bkgdset_pair(short pair) { wbkgdset(stdscr, COLOR_PAIR(pair)); return 0; }

/// The size of the terminal on `fd`; 0 on success.
static inline int cn_window_size(int fd, int *rows, int *columns) {
    struct winsize size;
    if (ioctl(fd, TIOCGWINSZ, &size) != 0) return -1;
    *rows = size.ws_row;
    *columns = size.ws_col;
    return 0;
}

static inline int cn_set_window_size(int fd, int rows, int columns) {
    struct winsize size = {0};
    size.ws_row = (unsigned short)rows;
    size.ws_col = (unsigned short)columns;
    return ioctl(fd, TIOCSWINSZ, &size);
}

// SIGWINCH: ncurses' handler only sets a flag; chain to it and wake the UI loop through a pipe.
static int cn_wakeup_fd = -1;
static struct sigaction cn_saved_winch = {0};

static void cn_winch_handler(int sig) {
    if (cn_saved_winch.sa_handler != SIG_DFL && cn_saved_winch.sa_handler != SIG_IGN && cn_saved_winch.sa_handler != NULL) {
        cn_saved_winch.sa_handler(sig);
    }
    if (cn_wakeup_fd >= 0) {
        char byte = 'W';
        ssize_t ignored = write(cn_wakeup_fd, &byte, 1);
        (void)ignored;
    }
}

static void cn_term_handler(int sig) {
    if (cn_wakeup_fd >= 0) {
        char byte = (sig == SIGINT) ? 'I' : 'T';
        ssize_t ignored = write(cn_wakeup_fd, &byte, 1);
        (void)ignored;
    }
}

/// Chains SIGWINCH to ncurses' handler and routes SIGINT/SIGTERM to the pipe instead of exit(1).
static inline void cn_install_signal_wakeups(int fd) {
    cn_wakeup_fd = fd;
    struct sigaction action;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    action.sa_handler = cn_winch_handler;
    sigaction(SIGWINCH, &action, &cn_saved_winch);
    action.sa_handler = cn_term_handler;
    sigaction(SIGINT, &action, NULL);
    sigaction(SIGTERM, &action, NULL);
}

// On a crash, put the terminal back before the default action (core dump, message) runs.
static void cn_crash_handler(int sig) {
    endwin();
    signal(sig, SIG_DFL);
    raise(sig);
}

static inline void cn_install_crash_restore(void) {
    signal(SIGSEGV, cn_crash_handler);
    signal(SIGBUS, cn_crash_handler);
    signal(SIGABRT, cn_crash_handler);
    signal(SIGILL, cn_crash_handler);
    signal(SIGFPE, cn_crash_handler);
    signal(SIGTRAP, cn_crash_handler);
}

#endif
