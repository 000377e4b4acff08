// The core's layout: one folder per subsystem under core/src/, and
// dependencies that run one way. A file may include headers of its own
// subsystem or of one listed before it in LAYERS, never of a later one;
// docs/architecture.md says what each subsystem holds. The native tests
// mirror the folders: tests/core/<subsystem>/<name>_test.cpp tests the code
// named <name> in core/src/<subsystem>/.
import { test } from 'node:test';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import assert from 'node:assert/strict';
import { ROOT } from './support/paths.mjs';

const LAYERS = ['errors', 'json', 'uuid', 'domain', 'registry', 'tool_call', 'postgrest', 'rows', 'executor', 'prompt', 'api'];
// A public header sits in core/include/alfred/<subsystem>/, the subsystem
// whose core/src folder holds the .cpp of the same name when there is one.

// Tests named after what they check rather than after one core file, and
// the subsystem whose folder they sit in.
const TEST_HOMES = {
  executor_faults: 'executor', // the executor when the network or the server misbehaves
  max_affected: 'executor', // the executor's maxAffected option, by header or by count
  prompt_property: 'prompt', // random registry states: no UUID in any prompt
  whole_number: 'tool_call', // whole_number of values.h against strtod
  keys: 'api', // keys of every type through every layer, up to the api calls
  table_writes: 'domain', // a table's writes, from its domain setting through the tools, the schema and the refusals
  write_only: 'domain', // tables users may add rows to but not read: their creates, unread back, and the refusals
};
// Shared by the tests of every subsystem, at tests/core/ itself.
const TEST_SUPPORT = ['golden', 'main.cpp', 'prompt_support.h', 'request_text.h', 'support.h', 'team_domain.h'];

const SRC = join(ROOT, 'core/src');
const INCLUDE = join(ROOT, 'core/include/alfred');
const TESTS = join(ROOT, 'tests/core');

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

const sources = walk(SRC);
const subsystemOfSource = (path) => relative(SRC, path).split('/')[0];
const cppHome = new Map(sources.filter((p) => p.endsWith('.cpp')).map((p) => [basename(p, '.cpp'), subsystemOfSource(p)]));
const headers = walk(INCLUDE);
const subsystemOfHeader = (path) => relative(INCLUDE, path).split('/')[0];
const headerFolder = new Map(headers.map((p) => [basename(p, '.h'), subsystemOfHeader(p)]));
// Every core file by name without its extension (.cpp, .h, .inc), public headers too.
const codeHome = new Map([
  ...sources.map((p) => [basename(p).replace(/\.[^.]+$/, ''), subsystemOfSource(p)]),
  ...headerFolder,
  ...cppHome,
]);

/**
 * The tests (paths relative to tests/core/) that are not where the mirror
 * puts them, each with the folder it belongs in.
 */
export function misplacedTests(paths) {
  return paths.flatMap((path) => {
    const name = basename(path, '_test.cpp');
    const home = TEST_HOMES[name] ?? codeHome.get(name);
    if (!home) return [`${path}: names no core file; rename it or add it to TEST_HOMES`];
    return dirname(path) === home ? [] : [`${path}: belongs in tests/core/${home}/`];
  });
}

test('every core source sits in a subsystem folder, and every public header has a home', () => {
  const loose = sources.filter((path) => !LAYERS.includes(subsystemOfSource(path)) || dirname(path) === SRC);
  assert.deepEqual(loose.map((path) => relative(ROOT, path)), [], `core/src/<one of ${LAYERS.join(', ')}>/`);
  const misfiled = headers.filter((path) => {
    const home = subsystemOfHeader(path);
    const cpp = cppHome.get(basename(path, '.h'));
    return dirname(path) === INCLUDE || !LAYERS.includes(home) || (cpp !== undefined && cpp !== home);
  });
  assert.deepEqual(misfiled.map((path) => relative(ROOT, path)), [], 'core/include/alfred/<the subsystem of its .cpp>/');
});

test('core dependencies run one way: no file includes a header of a later subsystem', () => {
  const files = [...sources.map((path) => [path, subsystemOfSource(path)]), ...headers.map((path) => [path, subsystemOfHeader(path)])];
  const upward = [];
  for (const [path, home] of files) {
    for (const [, included] of readFileSync(path, 'utf8').matchAll(/#include "([^"]+)"/g)) {
      let target;
      if (included.startsWith('alfred/')) target = included.split('/')[1];
      else if (path.startsWith(SRC)) {
        const resolved = join(dirname(path), included);
        if (resolved.startsWith(SRC)) target = subsystemOfSource(resolved);
      }
      if (target && LAYERS.indexOf(target) > LAYERS.indexOf(home)) upward.push(`${relative(ROOT, path)} (${home}) includes ${included} (${target})`);
    }
  }
  assert.deepEqual(upward, []);
});

test('tests/core/ mirrors core/src/: each test sits in the folder of the subsystem that holds its code', () => {
  // The check itself: a test at the top, in another subsystem, or named after nothing is found.
  assert.deepEqual(misplacedTests(['json/json_test.cpp', 'tool_call/whole_number_test.cpp', 'json/json_fields_test.cpp', 'api/api_test.cpp']), []);
  assert.deepEqual(misplacedTests(['registry_test.cpp', 'json/registry_test.cpp', 'prompt/nothing_test.cpp']), [
    'registry_test.cpp: belongs in tests/core/registry/',
    'json/registry_test.cpp: belongs in tests/core/registry/',
    'prompt/nothing_test.cpp: names no core file; rename it or add it to TEST_HOMES',
  ]);

  const tests = walk(TESTS).map((path) => relative(TESTS, path)).filter((path) => path.endsWith('_test.cpp'));
  assert.deepEqual(misplacedTests(tests), []);
  const names = new Set(tests.map((path) => basename(path, '_test.cpp')));
  const stale = Object.keys(TEST_HOMES).filter((name) => !names.has(name) || codeHome.has(name));
  assert.deepEqual(stale, [], 'a TEST_HOMES entry for a test that is gone, or one named after a core file');
  const other = readdirSync(TESTS).filter((name) => !LAYERS.includes(name) && !TEST_SUPPORT.includes(name));
  assert.deepEqual(other, [], `tests/core/ holds the subsystem folders and ${TEST_SUPPORT.join(', ')}`);
});
