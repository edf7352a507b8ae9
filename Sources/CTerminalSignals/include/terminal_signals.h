#ifndef SKYCAST_TERMINAL_SIGNALS_H
#define SKYCAST_TERMINAL_SIGNALS_H

#include <stddef.h>

// Signal handling for the full-screen table. One compiled copy of the handler state for the whole
// process (a C target, not static variables in a header that every importing module would duplicate).
//
// Wake-up bytes written to the self-pipe: 'W' resize, 'I' SIGINT, 'T' SIGTERM, 'H' SIGHUP.

/// Saves the terminal modes of `input_fd` as they are before curses changes them; the crash handler
/// restores exactly these.
void skycast_signals_save_terminal(int input_fd);

/// Installs the handlers: SIGWINCH chained to curses' own handler, then a byte to `wakeup_fd`;
/// SIGINT, SIGTERM and (unless it is ignored, as under nohup) SIGHUP as bytes to `wakeup_fd`;
/// crash signals (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT) write `reset` to `output_fd`, restore
/// the saved terminal modes and re-raise with the previous action. `reset` is copied (at most 511 bytes).
void skycast_signals_install(int wakeup_fd, int output_fd, const char *reset, size_t reset_length);

/// Puts back every action that `skycast_signals_install` replaced.
void skycast_signals_uninstall(void);

#endif
