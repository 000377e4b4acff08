// What one tool result may cost the model: at most `rows` rows and `chars`
// characters of JSON. The core writes the result within them
// (core/src/executor/model_result.cpp): cut between rows (a row's JSON is
// never cut in half; the query text is never dropped), with `truncated:
// true`, how many rows are shown, the total where it is known, and a hint
// that says how to narrow the call. A read the model makes without a limit
// is sent with the cap as its limit and an exact count, so it never reads
// the whole table and still learns how many rows match. `act.execute` (the
// developer's call) is never capped: only what reaches the model is
// (docs/results-for-models.md).
import { AlfredError } from './errors.js';
import { MAX_ROWS_LIMIT } from './limits.js';
import { ROWS_NOTICE } from '../dist/core-rules.mjs';
import { codes } from '../dist/error-codes.mjs';

/**
 * The text of `notice` (the core's), `{fence}` standing for the call's
 * marker: said once per result, right before the row text, which `"end"`
 * with the same marker closes.
 */
export { ROWS_NOTICE };

/**
 * The notice of a result fenced with `fence`.
 *
 * @example
 * rowsNotice(result.end) === result.notice // true for a result with rows
 */
export const rowsNotice = (fence) => ROWS_NOTICE.replace('{fence}', fence);

/**
 * The caps on one tool result for the model unless `createAct({ resultLimits })`
 * says otherwise: 50 rows and 16 000 characters of JSON (about 4 000 tokens),
 * a few percent of a 128k context per call.
 */
export const DEFAULT_RESULT_LIMITS = Object.freeze({ rows: 50, chars: 16_000 });

// Bounds of the options: room for the envelope and a query, and no more than
// one call may return.
const BOUNDS = { rows: [1, MAX_ROWS_LIMIT], chars: [1_000, 16 << 20] };

/**
 * `resultLimits` checked: the defaults with the given `rows` and `chars`,
 * each a whole number in its range; throws `AlfredError` (`invalid_option`).
 *
 * @example
 * checkedResultLimits({ rows: 20 }) // { rows: 20, chars: 16000 }
 */
export function checkedResultLimits(value, path = 'resultLimits') {
  if (value === undefined || value === null) return DEFAULT_RESULT_LIMITS;
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new AlfredError({ code: codes.invalid_option, path, message: `${path} must be an object`, hint: '{ rows, chars }' });
  }
  const out = { ...DEFAULT_RESULT_LIMITS };
  for (const [key, given] of Object.entries(value)) {
    const bounds = BOUNDS[key];
    if (!bounds) {
      throw new AlfredError({ code: codes.invalid_option, path: `${path}.${key.slice(0, 80)}`, message: `unknown result limit '${key.slice(0, 80)}'`, hint: 'rows, chars' });
    }
    if (given === undefined) continue;
    if (!Number.isSafeInteger(given) || given < bounds[0] || given > bounds[1]) {
      throw new AlfredError({ code: codes.invalid_option, path: `${path}.${key}`, message: `${path}.${key} must be a whole number from ${bounds[0]} to ${bounds[1]}` });
    }
    out[key] = given;
  }
  return Object.freeze(out);
}
