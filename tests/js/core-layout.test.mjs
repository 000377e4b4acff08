// The core's layout: one folder per subsystem under core/src/, and
// dependencies that run one way. A file may include headers of its own
// subsystem or of one listed before it in LAYERS, never of a later one;
// docs/architecture.md says what each subsystem holds.
import { test } from 'node:test';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import assert from 'node:assert/strict';
import { ROOT } from './support/paths.mjs';

const LAYERS = ['json', 'uuid', 'domain', 'registry', 'tool_call', 'postgrest', 'rows', 'executor', 'prompt', 'api'];
// A public header (core/include/alfred/) belongs to the subsystem whose
// folder holds the .cpp of the same name; these headers have none.
const HEADER_HOMES = { error: 'json', error_codes: 'json', entry_index: 'registry', prompt_step: 'prompt', api: 'api' };

const SRC = join(ROOT, 'core/src');
const INCLUDE = join(ROOT, 'core/include/alfred');

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

const sources = walk(SRC);
const subsystemOfSource = (path) => relative(SRC, path).split('/')[0];
const cppHome = new Map(sources.filter((p) => p.endsWith('.cpp')).map((p) => [basename(p, '.cpp'), subsystemOfSource(p)]));
const headerHome = (name) => HEADER_HOMES[name] ?? cppHome.get(name);

test('every core source sits in a subsystem folder, and every public header has a home', () => {
  const loose = sources.filter((path) => !LAYERS.includes(subsystemOfSource(path)) || dirname(path) === SRC);
  assert.deepEqual(loose.map((path) => relative(ROOT, path)), [], `core/src/<one of ${LAYERS.join(', ')}>/`);
  const homeless = readdirSync(INCLUDE).filter((name) => !LAYERS.includes(headerHome(basename(name, '.h'))));
  assert.deepEqual(homeless, [], 'add a .cpp of the same name, or an entry in HEADER_HOMES');
});

test('core dependencies run one way: no file includes a header of a later subsystem', () => {
  const files = [...sources.map((path) => [path, subsystemOfSource(path)]), ...readdirSync(INCLUDE).map((name) => [join(INCLUDE, name), headerHome(basename(name, '.h'))])];
  const upward = [];
  for (const [path, home] of files) {
    for (const [, included] of readFileSync(path, 'utf8').matchAll(/#include "([^"]+)"/g)) {
      let target;
      if (included.startsWith('alfred/')) target = headerHome(basename(included, '.h'));
      else if (path.startsWith(SRC)) {
        const resolved = join(dirname(path), included);
        if (resolved.startsWith(SRC)) target = subsystemOfSource(resolved);
      }
      if (target && LAYERS.indexOf(target) > LAYERS.indexOf(home)) upward.push(`${relative(ROOT, path)} (${home}) includes ${included} (${target})`);
    }
  }
  assert.deepEqual(upward, []);
});
