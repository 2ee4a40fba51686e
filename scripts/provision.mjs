// Finds, and where it may installs, the programs the tests drive besides Node.js: a browser,
// a terminal, servers. The test command (scripts/test.mjs) calls it first and hands what it
// found to every test through environment variables (the contract is in the README):
//
//   HEADWAY_CHROMIUM_PATH  path of a Chromium (or Chrome) binary
//   HEADWAY_TMUX           path of tmux
//   HEADWAY_REDIS_SERVER   path of redis-server
//   HEADWAY_PG_BIN         directory holding PostgreSQL's initdb, pg_ctl and postgres
//
// Each is set to the empty string when the part is missing; a test that needs it then skips
// its file and says why. As root on Debian (apt-get) a missing part is installed from Debian's
// packages, as CI does; HEADWAY_NO_INSTALL=1 turns that off (find only, as a normal user would).
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { homedir, platform } from 'node:os';
import { delimiter, dirname, join, relative } from 'node:path';

/** First executable file among `candidates` (absolute paths), or undefined. */
function firstExecutable(candidates) {
  for (const file of candidates) {
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not there or not executable: try the next
    }
  }
  return undefined;
}

function pathDirs(env) {
  return (env.PATH ?? '').split(delimiter).filter((d) => d !== '');
}

/** `names` looked up on PATH, then in `extraDirs`, in that order. */
function onPath(env, names, extraDirs = []) {
  const dirs = [...pathDirs(env), ...extraDirs];
  return firstExecutable(names.flatMap((name) => dirs.map((dir) => join(dir, name))));
}

/** Subdirectories of `dir` (sorted, newest version last for numbered names), or none. */
function subdirs(dir) {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((d) => d.isDirectory() || d.isSymbolicLink())
      .map((d) => d.name)
      .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  } catch {
    return [];
  }
}

function playwrightChromium(env) {
  const cache =
    env.PLAYWRIGHT_BROWSERS_PATH ||
    (platform() === 'darwin' ? join(homedir(), 'Library', 'Caches', 'ms-playwright') : join(homedir(), '.cache', 'ms-playwright'));
  const builds = subdirs(cache)
    .filter((d) => d.startsWith('chromium-'))
    .reverse();
  return firstExecutable(
    builds.flatMap((b) => [
      join(cache, b, 'chrome-linux', 'chrome'),
      join(cache, b, 'chrome-linux64', 'chrome'),
      join(cache, b, 'chrome-mac', 'Chromium.app', 'Contents', 'MacOS', 'Chromium'),
      join(cache, b, 'chrome-mac-arm64', 'Google Chrome for Testing.app', 'Contents', 'MacOS', 'Google Chrome for Testing'),
    ]),
  );
}

const PG_PROGRAMS = ['initdb', 'pg_ctl', 'postgres'];

function pgBinDir(env) {
  const hasAll = (dir) => PG_PROGRAMS.every((p) => firstExecutable([join(dir, p)]) !== undefined);
  const versioned = (base) =>
    subdirs(base)
      .reverse()
      .map((v) => join(base, v, 'bin'));
  const brew = ['/opt/homebrew/opt', '/usr/local/opt'].flatMap((base) =>
    subdirs(base)
      .filter((d) => d.startsWith('postgresql'))
      .reverse()
      .map((d) => join(base, d, 'bin')),
  );
  const dir = [...pathDirs(env), ...versioned('/usr/lib/postgresql'), ...brew].find(hasAll);
  // The directory of the real initdb (not of a symlink to it), where pg_ctl and postgres sit too.
  return dir === undefined ? undefined : dirname(realpathSync(join(dir, 'initdb')));
}

/**
 * The parts, each with how to find it, the variable that carries it to the tests, the
 * Debian package that provides it and what to tell a person who has to get it themselves.
 */
export const PARTS = [
  {
    name: 'chromium',
    variable: 'HEADWAY_CHROMIUM_PATH',
    debian: 'chromium',
    find: (env) =>
      firstExecutable(env.CHROMIUM_PATH ? [env.CHROMIUM_PATH] : []) ??
      onPath(env, ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable']) ??
      playwrightChromium(env),
    howTo: {
      debian: 'apt-get install chromium (as root), or CHROMIUM_PATH=/path/to/chrome',
      darwin: 'brew install --cask chromium, or CHROMIUM_PATH=/path/to/chrome',
      other: 'install Chromium or Chrome with your package manager, or CHROMIUM_PATH=/path/to/chrome',
    },
  },
  {
    name: 'tmux',
    variable: 'HEADWAY_TMUX',
    debian: 'tmux',
    find: (env) => onPath(env, ['tmux']),
    howTo: { debian: 'apt-get install tmux (as root)', darwin: 'brew install tmux', other: 'install tmux with your package manager' },
  },
  {
    name: 'redis-server',
    variable: 'HEADWAY_REDIS_SERVER',
    debian: 'redis-server',
    find: (env) => onPath(env, ['redis-server'], ['/usr/sbin', '/usr/local/bin', '/opt/homebrew/bin']),
    howTo: {
      debian: 'apt-get install redis-server (as root)',
      darwin: 'brew install redis',
      other: 'install Redis with your package manager',
    },
  },
  {
    name: 'postgresql',
    variable: 'HEADWAY_PG_BIN',
    debian: 'postgresql',
    find: pgBinDir,
    howTo: {
      debian: 'apt-get install postgresql (as root)',
      darwin: 'brew install postgresql@16',
      other: 'install the PostgreSQL server (initdb, pg_ctl, postgres) with your package manager',
    },
  },
];

/** What kind of machine this is, for the hints and for whether apt-get may be used. */
function system(env) {
  if (platform() === 'darwin') return 'darwin';
  if (existsSync('/etc/debian_version') && aptGet(env) !== undefined) return 'debian';
  return 'other';
}

function aptGet(env) {
  return onPath(env, ['apt-get'], ['/usr/bin']);
}

function isSet(value) {
  return value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false';
}

/** Test files (relative to `root`) that read `variable`: those skip when its part is missing. */
export function testFilesUsing(root, variable) {
  const found = [];
  const walk = (dir) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const full = join(dir, e.name);
      if (e.isDirectory() && e.name !== 'node_modules') walk(full);
      else if (/\.test\.tsx?$/.test(e.name) && readFileSync(full, 'utf8').includes(variable)) found.push(relative(root, full));
    }
  };
  for (const group of ['packages', 'examples']) for (const pkg of subdirs(join(root, group))) walk(join(root, group, pkg, 'src'));
  return found.sort();
}

function aptInstall(apt, packages, log) {
  log(`installing ${packages.join(', ')} from Debian's packages (apt-get)…`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  // Another apt-get on the machine holds the lock for a while: wait for it instead of failing (up to
  // 30 min, a guard against a stuck lock, not a limit a busy machine reaches).
  const lock = ['-o', 'DPkg::Lock::Timeout=1800'];
  for (const args of [
    ['update', '-qq', ...lock],
    ['install', '-y', '-qq', '--no-install-recommends', ...lock, ...packages],
  ]) {
    const r = spawnSync(apt, args, { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    if (r.status !== 0) {
      log(`apt-get ${args[0]} failed (exit ${r.status ?? r.signal}):\n${`${r.stdout ?? ''}${r.stderr ?? ''}`.trim()}`);
      return false;
    }
  }
  return true;
}

/**
 * Finds every part, installs the missing ones when allowed (root, Debian, not
 * HEADWAY_NO_INSTALL), and returns the variables for the tests plus a line per part still
 * missing: what it is, how to get it and which test files skip without it.
 *
 * @param {{ root: string, env?: NodeJS.ProcessEnv, log?: (line: string) => void }} options
 * @returns {{ variables: Record<string, string>, missing: { name: string, line: string, files: string[] }[] }}
 */
export function provision({ root, env = process.env, log = (line) => console.log(line) }) {
  const kind = system(env);
  const find = () => new Map(PARTS.map((p) => [p, p.find(env)]));
  let found = find();
  const absent = PARTS.filter((p) => found.get(p) === undefined);
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (absent.length > 0 && kind === 'debian' && isRoot && !isSet(env.HEADWAY_NO_INSTALL)) {
    aptInstall(
      aptGet(env),
      absent.map((p) => p.debian),
      log,
    );
    found = find();
  }
  const variables = {};
  const missing = [];
  for (const part of PARTS) {
    const where = found.get(part);
    variables[part.variable] = where ?? '';
    if (where !== undefined) continue;
    const files = testFilesUsing(root, part.variable);
    const skipped = files.length === 0 ? 'no test file needs it yet' : `skipped: ${files.join(', ')}`;
    missing.push({ name: part.name, files, line: `missing ${part.name}: ${part.howTo[kind]}; ${skipped}` });
  }
  return { variables, missing };
}
