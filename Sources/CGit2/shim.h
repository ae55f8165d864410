#ifndef CGIT2_SHIM_H
#define CGIT2_SHIM_H

#include <git2.h>

// `git_libgit2_opts` is C-variadic, which Swift cannot call. These wrappers
// expose only the options ChatEvalGit uses. Each returns libgit2's result code.

/// Reads whether libgit2 refuses repositories owned by another user (1) or not (0).
static inline int cgit2_get_owner_validation(int *enabled) {
    return git_libgit2_opts(GIT_OPT_GET_OWNER_VALIDATION, enabled);
}

/// Switches libgit2's repository owner check on (1) or off (0). Process-wide.
static inline int cgit2_set_owner_validation(int enabled) {
    return git_libgit2_opts(GIT_OPT_SET_OWNER_VALIDATION, enabled);
}

/// Sets where libgit2 looks for the config file of `level`; NULL restores the default. Process-wide.
static inline int cgit2_set_config_search_path(git_config_level_t level, const char *path) {
    return git_libgit2_opts(GIT_OPT_SET_SEARCH_PATH, level, path);
}

#endif
