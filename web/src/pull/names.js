// What the pull names: ref prefixes (`deal`, `org`, `ri`) and row labels,
// and which label columns match names loosely by default.
import { NAME_RULES } from '../../dist/core-rules.mjs';

// The ref of the signed-in user, never a table's prefix (the core's
// kCurrentUserRef; read from its rules once they list it).
const CURRENT_USER_REF = NAME_RULES.currentUserRef;
const GENERATED = NAME_RULES.generatedRefPrefix;

/** Whether `name` is a lower-case identifier, per the core's naming rule. */
export function isIdentifier(name) {
  const rule = NAME_RULES.identifier;
  return typeof name === 'string' && name.length > 0 && name.length <= rule.maxLength && rule.first.includes(name[0]) && [...name].every((c) => rule.rest.includes(c));
}

const RESERVED = new Set(NAME_RULES.reservedColumns);

/** Whether a column may be named `name` in a domain: an identifier PostgREST does not reserve (`select`, `order`, …). */
export const usableColumnName = (name) => isIdentifier(name) && !RESERVED.has(name);

// Label columns, most telling first (see docs/own-schema.md).
const LABEL_NAMES = ['name', 'title', 'label', 'display_name', 'full_name', 'subject', 'summary', 'email', 'username', 'handle', 'slug', 'code'];
// Label columns a user names things by: `=` on them matches a part of the
// name, ignoring case and accents, unless the overrides say otherwise.
const LOOSE_LABELS = new Set(['name', 'title', 'label', 'display_name', 'full_name', 'subject', 'summary', 'username', 'handle', 'slug']);

/** singular('categories') = 'category', 'boxes' → 'box', 'status' stays. */
function singular(word) {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 4 && /(sses|xes|ches|shes)$/.test(word)) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !/(ss|us|is)$/.test(word)) return word.slice(0, -1);
  return word;
}

// Long words shortened to their first syllable-ish: organization → org,
// inventory → inv, preference → pref, shopping → shop.
function abbreviation(word) {
  if (word.length <= 7) return word;
  let end = 3;
  while (end < word.length && /[aeiouy]/.test(word[end - 1])) end += 1;
  return word.slice(0, end);
}

// Abbreviations a person should not read in every ref of a table (a model
// writes them to users, an MCP confirmation shows them): assistants → ass_1.
// The next candidate, the whole singular word, is used instead.
const UNFIT_PREFIXES = new Set(['ass', 'cum', 'fag', 'nig', 'sex', 'tit']);

/** Candidate ref prefixes of a table name, best first; none contains `_`. */
function prefixCandidates(table) {
  const words = table.split('_').filter(Boolean);
  const first = singular(words[0]);
  const candidates = words.length === 1 ? [abbreviation(first), first] : [abbreviation(first), words.map((w) => w[0]).join('')];
  return [...new Set(candidates)].filter((c) => isIdentifier(c) && c !== GENERATED && !c.startsWith(`${GENERATED}_`) && c !== CURRENT_USER_REF && !UNFIT_PREFIXES.has(c));
}

/**
 * Unique ref prefixes for `tables` (names): single-word tables choose first,
 * so `recipes` is `recipe` and `recipe_ingredients` becomes `ri`. Never
 * `gen` (generated content) or `me` (the signed-in user).
 *
 * @example
 * refPrefixes(['organizations', 'deal_notes']) // { organizations: 'org', deal_notes: 'deal' }
 */
export function refPrefixes(tables, taken = new Set()) {
  const out = {};
  const used = new Set(taken);
  const single = tables.filter((t) => !t.includes('_'));
  const multi = tables.filter((t) => t.includes('_'));
  for (const table of [...single, ...multi]) {
    const candidates = prefixCandidates(table);
    let prefix = candidates.find((c) => !used.has(c));
    for (let n = 2; !prefix; n += 1) if (!used.has(`${candidates[0] ?? 't'}${n}`)) prefix = `${candidates[0] ?? 't'}${n}`;
    used.add(prefix);
    out[table] = prefix;
  }
  return out;
}

/**
 * A table's label settings from its column configs (`[{ name, config }]`):
 * `{ label }`, `{ label_format, label }` or `{}`.
 */
export function labelOf(columns) {
  const text = new Map(columns.filter((c) => c.config?.type === 'text').map((c) => [c.name, c]));
  if (text.has('first_name') && text.has('last_name')) return { label_format: '{first_name} {last_name}', label: ['first_name'] };
  const named = LABEL_NAMES.find((name) => text.has(name));
  if (named) return { label: [named] };
  const requiredText = columns.find((c) => c.config?.type === 'text' && c.config.required);
  return requiredText ? { label: [requiredText.name] } : {};
}

/**
 * The column a table's rows are named by that `=` should match loosely
 * (`middleware.fuzzy`), or null: its first label, when that is a name-like
 * text column without fixed values and not part of the key.
 */
export function looseLabelOf(spec, key) {
  const label = Array.isArray(spec.label) ? spec.label[0] : undefined;
  const column = spec.columns?.[label];
  if (!LOOSE_LABELS.has(label) || column?.type !== 'text' || column.values || key.includes(label)) return null;
  return label;
}
