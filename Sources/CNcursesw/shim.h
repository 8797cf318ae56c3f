// The slice of ncursesw that NextUpTUI uses, as plain functions.
//
// SwiftPM drops pkg-config's -D flags, so wide-character support is switched
// on here before the header is read. Macros and globals (stdscr, LINES, COLS,
// COLOR_PAIR, A_*) are wrapped in static inline functions: Swift cannot import
// function-like macros, and wrapping the globals avoids Swift 6's
// "not concurrency-safe" diagnostics.
#ifndef NEXTUP_CNCURSESW_SHIM_H
#define NEXTUP_CNCURSESW_SHIM_H

#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#define NCURSES_WIDECHAR 1
#include <ncurses.h>
#include <term.h>
#include <locale.h>
#include <langinfo.h>
#include <string.h>
#include <wchar.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <spawn.h>

static inline WINDOW *nu_stdscr(void) { return stdscr; }
static inline int nu_lines(void) { return LINES; }
static inline int nu_cols(void) { return COLS; }

static inline int nu_get_wch(wint_t *ch) { return wget_wch(stdscr, ch); }
static inline int nu_key_code_yes(void) { return KEY_CODE_YES; }
static inline int nu_key_f(int n) { return KEY_F(n); }

static inline int nu_move(int y, int x) { return wmove(stdscr, y, x); }
static inline int nu_addnstr(const char *s, int n) { return waddnstr(stdscr, s, n); }
static inline int nu_erase(void) { return werase(stdscr); }
static inline int nu_clearok(bool on) { return clearok(stdscr, on); }
static inline int nu_refresh(void) { return wrefresh(stdscr); }
static inline int nu_attrset(int attrs) { return wattrset(stdscr, attrs); }
static inline int nu_keypad(bool on) { return keypad(stdscr, on); }
static inline void nu_timeout(int ms) { wtimeout(stdscr, ms); }
static inline int nu_setlocale_all(void) { return setlocale(LC_ALL, "") != NULL; }
/* Whether the locale's character set is UTF-8 (else the screen draws ASCII). */
static inline int nu_locale_is_utf8(void) {
    const char *set = nl_langinfo(CODESET);
    return set != NULL && (strcmp(set, "UTF-8") == 0 || strcmp(set, "utf8") == 0);
}
/* Whether the current terminal can move the cursor (has "cup"). */
static inline int nu_has_cursor_addressing(void) {
    char *cup = tigetstr("cup");
    return cup != NULL && cup != (char *)-1;
}

/* Takes the terminal's size as it is now, when it changed while another
   program had the terminal (the size changes then went to that program). */
static inline void nu_take_terminal_size(void) {
    struct winsize ws;
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 0 && ws.ws_col > 0
        && is_term_resized(ws.ws_row, ws.ws_col)) {
        resizeterm(ws.ws_row, ws.ws_col);
    }
}

/* A spawn action: the child makes its process group the foreground group of
   the terminal `fd` (glibc 2.35), done before it runs, with signals blocked. */
extern int posix_spawn_file_actions_addtcsetpgrp_np(posix_spawn_file_actions_t *, int);
static inline int nu_spawn_take_terminal(posix_spawn_file_actions_t *actions, int fd) {
    return posix_spawn_file_actions_addtcsetpgrp_np(actions, fd);
}

static inline int nu_color_pair(int n) { return (int)COLOR_PAIR(n); }
static inline int nu_a_normal(void) { return (int)A_NORMAL; }
static inline int nu_a_bold(void) { return (int)A_BOLD; }
static inline int nu_a_reverse(void) { return (int)A_REVERSE; }
static inline int nu_a_dim(void) { return (int)A_DIM; }
static inline int nu_a_underline(void) { return (int)A_UNDERLINE; }

#endif
