// The accented Latin letters the fuzzy name match folds
// (core/src/tool_call/latin_letters.inc) are generated from Unicode's
// canonical decompositions: the committed table is the generator's output,
// and it reads the letters people type as their base letter.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { baseLetter, latinRanges, TABLE, tableText } from '../../scripts/generate-latin-letters.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));

test('the committed table is current', () => {
  assert.equal(readFileSync(`${root}${TABLE}`, 'utf8'), tableText(), 'run node scripts/generate-latin-letters.mjs');
});

test('French, German, Spanish, Polish, Czech, Turkish, Vietnamese and Welsh letters fold to their base letter', () => {
  const words = {
    'crème brûlée': 'creme brulee', 'jalapeño': 'jalapeno', 'Müsli': 'musli', 'Łódź': 'lodz', 'Dvořák': 'dvorak',
    'ılık': 'ilik', 'Phở Gà Đà Nẵng': 'pho ga da nang', 'Ŵy': 'wy', 'smørrebrød': 'smorrebrod', 'Ǿ': 'o',
  };
  for (const [typed, folded] of Object.entries(words)) {
    const out = [...typed].map((ch) => (ch.codePointAt(0) < 0x80 ? ch.toLowerCase() : baseLetter(ch.codePointAt(0)) ?? ch)).join('');
    assert.equal(out, folded, typed);
  }
});

test('every range holds one letter in both cases and nothing else', () => {
  const ranges = latinRanges();
  for (let i = 1; i < ranges.length; i++) assert.ok(ranges[i].first > ranges[i - 1].last, 'sorted, not overlapping');
  for (const { first, last, letter } of ranges)
    for (let cp = first; cp <= last; cp++) {
      const ch = String.fromCodePoint(cp);
      assert.equal(baseLetter(cp), letter);
      assert.notEqual(ch.toLowerCase() === ch && ch.toUpperCase() === ch, true, `${ch} is a cased letter`);
    }
  assert.equal(baseLetter(0xd7), null, '× is not a letter');
  assert.equal(baseLetter(0xdf), null, 'ß is two letters, not folded');
});
