#ifndef SKYCAST_CNCURSESW_SHIM_H
#define SKYCAST_CNCURSESW_SHIM_H

// SwiftPM drops pkg-config's -D_XOPEN_SOURCE; without this the wide-character API is invisible.
#define NCURSES_WIDECHAR 1
#define _XOPEN_SOURCE_EXTENDED 1

#include <locale.h>
#include <ncursesw/curses.h>
#include <pty.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <fcntl.h>

// Swift 6 rejects ncurses' mutable globals and cannot import its macros: expose them as functions.
static inline WINDOW *cn_stdscr(void) { return stdscr; }
static inline int cn_colors(void) { return COLORS; }
static inline int cn_color_pairs(void) { return COLOR_PAIRS; }

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

#endif
