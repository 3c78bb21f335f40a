// git as tests run it: no system or user config of the machine's, a fixed author.
export const GIT_ISOLATED = {
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 't',
  GIT_AUTHOR_EMAIL: 't@t',
  GIT_COMMITTER_NAME: 't',
  GIT_COMMITTER_EMAIL: 't@t',
};

/** A whole environment for git alone: the system's tools, no HOME. */
export const GIT_ENV = { PATH: '/usr/bin:/bin', HOME: '/nonexistent', ...GIT_ISOLATED };
